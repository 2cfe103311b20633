"""What leaves a thread's content beside its posts' own clean-up (thread.py): the boxes
after the last post (the reply form) and the boxes between posts that are no posts and hold
no prose (a topic's statistics, its top posters, an advertisement), the counts the posts'
microdata names (tuning.POST_COUNT), a heading that says again what one above it said, the
topic's name the page's title gives, notes of edits written inline in a post's body, and the
numbers of posts drawn as an ordered list's items. Quotes that repeat the posts above are
quoted.py's."""

from __future__ import annotations

import re
from collections import Counter
from itertools import islice
from typing import TYPE_CHECKING, Any

from common.xpath import text_upto
from wf.extract import tuning
from wf.extract.kinds import posts_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def _line(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


def drop_after(box: Any, posts: list[Any]) -> None:
    """The boxes after the last post in the posts' box that are a form or hold one (the
    reply form: "Your Answer", "Post as a guest") or show no author or date (a notice,
    "Start asking to get answers"): the thread ends with its last post."""
    from wf.extract.hidden import drop_each
    from wf.extract.kinds.siblings import marked_el

    mine = set(posts)
    last = max((i for i, child in enumerate(box) if child in mine), default=-1)
    if last < 0:
        return
    gone = []
    for child in list(box)[last + 1 :]:
        if not isinstance(child.tag, str):
            continue
        form = child.tag == "form" or next(child.iter("form"), None) is not None
        if form or not marked_el(child):
            gone.append(child)
    drop_each(gone)  # one by one, 20000 boxes in a row, each with a tail, took 4.7 s


def drop_between(blocks: list[BlockRecord], index: int, posts: list[BlockRecord]) -> None:
    """The boxes between the first post and the last in the posts' box (`index`) that
    hold no prose and are not of the posts' tag and first class word: a topic's
    statistics and top posters, an advertisement, "Top". A short reply of the posts'
    shape stays ("Thanks!")."""
    from wf.extract.names import class_kind
    from wf.extract.parse import drop

    def key(b: BlockRecord) -> tuple[str, str]:
        return b.tag, class_kind(b.el.get("class")).partition(" ")[0]

    shapes = {key(p) for p in posts}
    taken = {p.index for p in posts}
    box = blocks[index]
    between: list[BlockRecord] = []
    j = box.index + 1
    while j < box.end:  # child by child, over their subtrees
        b = blocks[j]
        if b.index in taken:
            for other in between:
                if other.el.getparent() is not None:
                    drop(other.el)
            between = []
        elif taken and b.index > min(taken) and b.raw < tuning.POST_PROSE and key(b) not in shapes:
            between.append(b)
        j = b.end


_AD_LABEL = re.compile(tuning.POST_AD_LABEL, re.IGNORECASE)


def ad_label(text: str) -> bool:
    """Whether a line is an advertisement's label and nothing more ("Advertisement",
    "Sponsored", "Advertisement (gone after registration)")."""
    line = " ".join(text.split())
    return len(line) <= tuning.AD_LABEL_MAX and _AD_LABEL.fullmatch(line) is not None


def drop_ads(posts: list[BlockRecord], authors: list[str | None]) -> set[int]:
    """The pseudo-posts whose author is an advertisement's label go: a forum shows its
    ads in the shape of a post ("Advertisement, August 26 / Take a look here ..."), so
    they pass every test of shape a post passes. The indexes of the posts that went."""
    from wf.extract.parse import drop

    gone: set[int] = set()
    for post, author in zip(posts, authors, strict=False):
        if author and ad_label(author) and post.el.getparent() is not None:
            drop(post.el)
            gone.add(post.index)
    return gone


def drop_related(posts: list[BlockRecord]) -> set[int]:
    """The posts that answer another question go: a Q&A site shows answers to related
    questions among the question's own, each headed by a label of its kind ("Related",
    then the other question's title), so that they pass every test of shape a post
    passes. A post is one when its first words are the label alone, in an element of
    their own (posts_tuning.RELATED_LABELS). The indexes of the posts that went."""
    from wf.extract.parse import drop

    gone: set[int] = set()
    for post in posts:
        first = next(
            (
                el
                for el in islice(post.el.iter(), tuning.MARK_SCAN)
                if isinstance(el.tag, str) and (el.text or "").strip()
            ),
            None,
        )
        if first is None or len(first) or post.el.getparent() is None:
            continue  # a label stands alone: an element with children is a line of words
        if " ".join(first.text.split()).lower() in posts_tuning.RELATED_LABELS:
            drop(post.el)
            gone.add(post.index)
    return gone


# The end of a line cut short: an ellipsis, then "(more)"; matched on the line's last
# characters only (a pattern of optional parts tried at every position is slow).
_CUT = re.compile(r"(?:\s*(?:…|\.\.\.)\s*)?(?:\(?(?:more|read more|see more)\)?)?\s*$", re.I)
CUT_TAIL = 20
_CUT_ENDS = frozenset("….)eE")  # how a cut line may end: "…", "...", "(more)", "more"


def _uncut(text: str) -> str:
    """A line without the marks of its cut ("... (more)")."""
    if text[-1:] not in _CUT_ENDS:
        return text
    head, tail = text[:-CUT_TAIL], text[-CUT_TAIL:]
    return head + _CUT.sub("", tail)


def drop_previews(blocks: list[BlockRecord], posts: list[BlockRecord]) -> int:
    """In each post, a collapsed preview shown above the full text a class hides goes:
    a line that a later line of the post starts again, cut short or whole ("... Today
    five merchant ships w"; only lines of tuning.PREVIEW_MIN characters or more), and
    the shorter lines just above such a line that a later line repeats ("Thanks for
    the A2A."). Lines are the blocks that hold no other block (their texts do not
    overlap: each is read once), outside quotes (a nested reply may quote a line whole).
    How many went."""
    from wf.extract.parse import drop

    gone = 0
    for post in posts:
        lines: list[tuple[Any, str]] = []  # (element, its start: tuning.PREVIEW_MIN characters)
        j = post.index
        while j < post.end:
            b = blocks[j]
            if b.tag == "blockquote":  # a reply's quote of the line is no full text of it
                j = b.end
                continue
            if b.text == b.own and b.own:
                lines.append((b.el, _start(b.el)))
            j += 1
        # Most posts repeat no line's start: only lines whose start repeats are read whole.
        starts = Counter(start for _, start in lines)
        if not starts or max(starts.values()) < 2:
            continue
        later: dict[str, list[str]] = {}
        seen: set[str] = set()
        below = False  # whether the line below went
        for el, start in reversed(lines):
            if starts[start] < 2:
                below = False
                continue
            text = _uncut(_line(el))
            if len(text) >= tuning.PREVIEW_MIN:
                alike = later.setdefault(start, [])
                cut = any(t.startswith(text) for t in alike)
                if len(alike) < tuning.PREVIEW_ALIKE:  # a hostile post repeats one line
                    alike.append(text)
            else:
                cut = below and text in seen
            seen.add(text)
            below = cut and el.getparent() is not None
            if below:
                drop(el)
                gone += 1
    return gone


def _start(el: Any) -> str:
    """The first tuning.PREVIEW_MIN characters of a line (white space collapsed), or the
    whole line without the marks of its cut when it is shorter; read no further."""
    first = " ".join((el.text or "").split())
    if len(first) > tuning.PREVIEW_MIN:  # most lines start with their own words
        return first[: tuning.PREVIEW_MIN]
    text, over = _text_upto(el, tuning.PREVIEW_MIN * 2)
    if len(text) > tuning.PREVIEW_MIN or over:
        return text[: tuning.PREVIEW_MIN]
    return _uncut(text)[: tuning.PREVIEW_MIN]


def unnumber(box: Any) -> None:
    """Posts drawn as the items of an ordered list (vBulletin's <ol id="posts">) are
    written as a list's items without its numbers: the number a list gives a post is
    the page's count, not the thread's words."""
    if box.tag == "ol":
        box.tag = "ul"


_HEADINGS = ".//*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6]"


def drop_titles(box: Any) -> None:
    """A heading that says again what one above it said goes: the first post's title,
    the topic's (phpBB, vBulletin), printed under the topic's own heading."""
    from wf.extract.parse import drop

    seen: set[str] = set()
    for el in box.xpath(_HEADINGS)[: tuning.HEADINGS_MAX]:  # found in C
        line = _line(el).casefold()
        if line in seen and el.getparent() is not None:
            drop(el)
        elif line:
            seen.add(line)


_TITLE_PARTS = re.compile(posts_tuning.TITLE_SEPARATOR)


def drop_topic(box: Any, title: str | None) -> bool:
    """The thread's first heading goes when it is the topic's name, which the page's
    <title> (the page's title in the metadata) gives whole or as one of its parts: boards
    that print it in the posts' box (phpBB, NodeBB) wrote a line that those that print
    it above (Discourse, XenForo) do not. Whether it went."""
    from wf.extract.parse import drop

    if not title:
        return False
    first = next(box.iter("h1", "h2", "h3", "h4", "h5", "h6"), None)
    line = "" if first is None else _line(first).casefold()
    whole = " ".join(title.split()).casefold()
    if not line or (line != whole and line not in _TITLE_PARTS.split(whole)):
        return False
    drop(first)
    return True


_COUNT = re.compile(tuning.POST_COUNT, re.IGNORECASE)


def drop_counts(box: Any) -> None:
    """The counts the posts' microdata names (tuning.POST_COUNT) leave the content."""
    from wf.extract.parse import drop

    for el in box.xpath(
        ".//*[contains(@itemprop, 'ount') or contains(@itemprop, 'nteraction')]"
    ):  # found in C, then read
        counts = any(_COUNT.search(p) for p in el.get("itemprop").split())
        if counts and el.getparent() is not None:
            drop(el)


_EDIT_START = re.compile(tuning.POST_EDITED_START, re.IGNORECASE)
_EDITED = re.compile(tuning.POST_EDITED, re.IGNORECASE)
_INLINE = ("span", "strong", "b", "em", "i", "small")


def drop_edit_notes(box: Any) -> int:
    """A note of a post's edits written inline at its body's end ("Edited August 26 by
    ann": Invision's <strong> in a <span>), which the prune of blocks does not see, goes,
    with the boxes around it that say no more than a note (its reason: "fixed a typo").
    Only an element whose own first words start a note is read further, and no further
    than a note's length. How many went."""
    from wf.extract.parse import drop

    found = []
    for el in box.iter(_INLINE):
        if el.text and _EDIT_START.match(el.text) and _note(el):
            for _ in range(NOTE_LEVELS):
                parent = el.getparent()
                if parent is None or parent is box or not _note(parent):
                    break
                el = parent
            found.append(el)
    for el in found:
        drop(el)
    return len(found)


NOTE_LEVELS = 2  # boxes around a note looked at for its reason


def _note(el: Any) -> bool:
    """Whether an element's text is a note of edits, read no further than a note."""
    line, over = _text_upto(el, tuning.EDIT_NOTE_MAX * 2)
    if over:
        return False
    return len(line) <= tuning.EDIT_NOTE_MAX and _EDITED.match(line) is not None


def _text_upto(el: Any, limit: int) -> tuple[str, bool]:
    """An element's text, white space collapsed, read no further than the part that takes
    it past `limit` characters; and whether it went past (a long post is not copied whole
    to judge its first words)."""
    pieces, over = text_upto(el, limit)
    return " ".join("".join(pieces).split()), over


_CREDENTIAL = re.compile(posts_tuning.CREDENTIAL_TAIL, re.IGNORECASE)
_SEPARATORS = re.compile(posts_tuning.HEADER_SEPARATORS)
_HEADER_ENDS = frozenset(("p", "blockquote", "pre", "ul", "ol", "table"))


def drop_credentials(posts: list[BlockRecord], authors: list[str | None]) -> int:
    """In each post's head (its elements before its body's first paragraph, list, quote
    or table), the boxes that hold only a tail of the author's credentials
    (posts_tuning.CREDENTIAL_TAIL: "Author has 9.6K answers", "Upvoted by ann, PhD",
    "Follow") or only the separators between a head's parts ("·", once the byline took
    the date beside it): the author's line (`authors`: the post's first element when
    not None) and their credential stay. The count gone."""
    gone = []
    for post, author in zip(posts, authors, strict=True):
        line_el = post.el[0] if author is not None and len(post.el) else None
        for el in islice(post.el.iter(), tuning.MARK_SCAN):
            if el is post.el or el is line_el:
                continue
            if el.tag in _HEADER_ENDS:
                break
            if el.tag not in _HEAD_PARTS:
                continue
            # A box of many elements is no part of a head's line (and is not read whole
            # for each box around it).
            limit = posts_tuning.CREDENTIAL_ELEMENTS
            if sum(1 for _ in islice(el.iterdescendants(), limit + 1)) > limit:
                continue
            line, over = _text_upto(el, posts_tuning.CREDENTIAL_MAX)
            if over or not line:
                continue
            if _SEPARATORS.fullmatch(line) or _CREDENTIAL.fullmatch(line.strip(" ·•|")):
                gone.append(el)
    from wf.extract.parse import drop

    for el in gone:  # after the walk: an element's box may go too
        drop(el)
    return len(gone)


_HEAD_PARTS = frozenset(("span", "div", "small", "a"))
