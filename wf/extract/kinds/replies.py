"""A thread's replies that its group of posts does not hold: those too short to count as
posts beside them ("Congrats!"), found as boxes of the posts' shape (short()) and cut of
the boxes the posts were cut of (cut_short()), and the replies nested in the posts (a
comment tree: nested()). thread.py gives each its line of author and date."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from wf.extract import tuning
from wf.extract.kinds import posts_tuning, story

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

_DIGITS = re.compile(r"\d+")


def short(blocks: list[BlockRecord], index: int, posts: list[BlockRecord]) -> list[BlockRecord]:
    """The replies too short to count as posts beside them ("Congrats!"): boxes of the
    posts' tag and first class word, or of their numbered id's stem when they have no
    class ("edit37597541": boards number their posts), or of their microdata's itemprop
    when they have neither (NodeBB's "comment"; posts named by none of these are not
    told from the boxes around them), in their box, that hold other boxes, show their
    author or date and hold little text (tuning.SHORT_REPLY: a post whose words sit in
    boxes the walk does not read as prose is no short reply)."""
    from wf.extract.kinds.siblings import marked
    from wf.extract.names import class_kind

    def key(b: BlockRecord) -> tuple[str, str]:
        kind = class_kind(b.el.get("class")).partition(" ")[0]
        if not kind:
            numbered = b.el.get("id") or ""
            kind = _DIGITS.sub("#", numbered) if _DIGITS.search(numbered) else ""
        if not kind and (prop := b.el.get("itemprop")):
            kind = "itemprop=" + prop
        return b.tag, kind

    shape = key(posts[-1])
    if not shape[1]:
        return []
    taken = {p.index for p in posts}
    found = []
    box = blocks[index]
    j = box.index + 1
    while j < box.end:  # child by child, over their subtrees
        b = blocks[j]
        # Few blocks too: each is measured again once the reply is cut (cut_short).
        short = b.own < b.text <= tuning.SHORT_REPLY and b.end - b.index <= tuning.SHORT_BLOCKS
        if short and b.index not in taken and key(b) == shape and marked(b):
            found.append(b)
        j = b.end
    return found


def cut_short(
    blocks: list[BlockRecord], replies: list[BlockRecord], names: set[tuple[str, str]]
) -> None:
    """A short reply loses the boxes the posts beside it were cut of (its author's card,
    its title and controls), told by their tag and class: it has no prose to be told by.
    Its blocks are measured again: the links that went (its author's, its date's) would
    make its few words a list of links."""
    from wf.extract.names import class_kind
    from wf.extract.parse import drop

    def size(el: Any) -> int:
        return len(" ".join("".join(el.itertext()).split()))

    for reply in replies:
        for el in list(reply.el.iterdescendants()):
            if not isinstance(el.tag, str) or el.getparent() is None:
                continue
            kind = class_kind(el.get("class"))
            if kind and (el.tag, kind) in names and ("", kind) not in names:
                drop(el)
        for b in blocks[reply.index : reply.end]:
            b.text = size(b.el)
            b.link = sum(size(a) for a in b.el.iter("a"))


def shape_of(b: BlockRecord) -> tuple[str, str]:
    """A box's tag and first class word: what its posts' boxes share (`nested`,
    `drawn_above`, `opening`)."""
    from wf.extract.names import class_kind

    return b.tag, class_kind(b.el.get("class")).partition(" ")[0]


_QUOTE = re.compile(tuning.POST_QUOTE, re.IGNORECASE)
_NESTED = re.compile(posts_tuning.NESTED_REPLY)


def nested(blocks: list[BlockRecord], posts: list[BlockRecord]) -> list[BlockRecord]:
    """The replies nested in the posts (New Reddit's and old Reddit's comment trees): boxes
    inside a post of the posts' tag and first class word, or a custom element's tag
    alone (a classless <div> in a post is no reply), or whose first class word names a
    nested reply (posts_tuning.NESTED_REPLY: an answer's replies drawn otherwise than the
    answers), that show their author or date and are not named for a quote. Each gets its
    line of author and date and is cut down to it and its body as a post is (thread.py),
    in its post."""
    from wf.extract.kinds.siblings import marked

    shapes = {shape_of(p) for p in posts}
    shapes = {s for s in shapes if s[1] or "-" in s[0]}
    found, named = [], set()
    for post in posts:
        for b in blocks[post.index + 1 : post.end]:
            shape = shape_of(b)
            if shape not in shapes and not _NESTED.search(shape[1]):
                continue
            quote = _QUOTE.search(b.el.get("class") or "")  # "post quote": the quoted's
            if b.text > b.own and not quote and marked(b):
                found.append(b)
                if shape not in shapes:
                    named.add(b.index)
    groups = _groups(blocks, found, named)
    return [b for b in found if b.index not in groups]


def _groups(blocks: list[BlockRecord], found: list[BlockRecord], named: set[int]) -> set[int]:
    """The boxes of `found` (in page order) named for nested replies (`named`) that hold
    others and little prose of their own beside them (tuning.POST_PROSE), and no words
    before the first (_lead): the group of an answer's replies ("nested-comment-group"),
    no reply. A short reply ("Agreed, thanks.") with replies to it in it shows its head
    first. One pass, a stack of the boxes that hold the next one."""
    groups: set[int] = set()
    # [box, the prose of the boxes found right inside it, words before the first of them]
    around: list[list[Any]] = []

    def close(entry: list[Any]) -> None:
        b, inner, lead = entry
        if inner and b.index in named and b.raw - inner < tuning.POST_PROSE and not lead:
            groups.add(b.index)

    for b in found:
        while around and around[-1][0].end <= b.index:
            close(around.pop())
        if around:
            if not around[-1][1]:
                around[-1][2] = _lead(blocks, around[-1][0], b)
            around[-1][1] += b.raw
        around.append([b, 0.0, False])
    while around:
        close(around.pop())
    return groups


def _lead(blocks: list[BlockRecord], box: BlockRecord, first: BlockRecord) -> bool:
    """Whether `box` shows words of its own (posts_tuning.REPLY_TEXT_MIN characters) before
    `first`, a box inside it: its own text, or the boxes before `first`'s, over their
    subtrees. Each box holds one first, so each block is read once."""
    seen, j = box.own, box.index + 1
    while j < first.index and seen < posts_tuning.REPLY_TEXT_MIN:
        b = blocks[j]
        if b.end > first.index:  # holds `first`: into it
            seen, j = seen + b.own, j + 1
        else:
            seen, j = seen + b.text, b.end
    return seen >= posts_tuning.REPLY_TEXT_MIN


_LEVEL = re.compile(posts_tuning.REPLY_LEVEL, re.IGNORECASE)


def leveled(
    blocks: list[BlockRecord], posts: list[BlockRecord], nested: list[BlockRecord], tree: int
) -> bool:
    """Whether a few posts and the replies nested in them (`tree` of them counted) show a
    thread on a page that declares none, told by names: each box named for its depth in
    the tree ("comment level-1", a reply in it "level-2"), a link aggregator's comments
    under its post, fewer than tuning.THREAD_POSTS. With a reply named one level deeper
    than a post it is in, tuning.SIBLINGS_MIN posts and replies, all of the top level
    signed (the caller's), holding THREAD_SHARE_FEW of the page's prose and THREAD_TEXT
    of its text, no teaser cards among them (heads.card)."""
    from wf.extract.kinds import heads

    if not tree or len(posts) + tree < tuning.SIBLINGS_MIN:
        return False
    page = blocks[0]
    if sum(p.raw for p in posts) < tuning.THREAD_SHARE_FEW * page.raw:
        return False
    if sum(p.text for p in posts) < tuning.THREAD_TEXT * page.text or any(map(heads.card, posts)):
        return False
    tops = {_level(p) for p in posts}
    return None not in tops and any(
        (level := _level(b)) is not None and level - 1 in tops for b in nested
    )


def _level(b: BlockRecord) -> int | None:
    found = _LEVEL.search(b.el.get("class") or "")
    return int(found.group(1)) if found else None


def first_posts(
    blocks: list[BlockRecord], index: int, box: int, posts: Sequence[BlockRecord] = ()
) -> list[BlockRecord]:
    """The posts the content grew to take in above the posts' box (a question above its
    answers): the boxes beside the way up that hold prose and show their author or date;
    with `posts`, the group's, also those in the posts' box before the first of them (a
    question drawn otherwise than its answers, in their box)."""
    found: list[BlockRecord] = []
    if posts:
        j = index + 1
        while j < posts[0].index:  # child by child, over their subtrees
            b = blocks[j]
            if _signed_post(b, headed=True):
                found.append(b)
            j = b.end
    cur = blocks[index]
    while cur.index != box and cur.parent >= 0:
        parent = blocks[cur.parent]
        j = parent.index + 1
        while j < parent.end:  # child by child, over their subtrees
            b = blocks[j]
            if b is not cur and _signed_post(b):
                found.append(b)
            j = b.end
        cur = parent
    return found


def _signed_post(b: BlockRecord, headed: bool = False) -> bool:
    """Whether a box is a post by itself: it holds prose in boxes and shows its author or
    date (siblings.marked), or, `headed` (a box among the answers, before the first), a
    header of generated names (headed_by_date): beside the way up, an article's byline
    drawn so (<div>Jane Doe</div><div>Feb 1, 2026</div>) is no question's."""
    from wf.extract.kinds.siblings import marked

    if b.raw < tuning.POST_PROSE or b.text <= b.own:
        return False
    return marked(b) or (headed and headed_by_date(b.el))


def drawn_above(
    blocks: list[BlockRecord], posts: list[BlockRecord], found: list[BlockRecord]
) -> bool:
    """Whether one of the boxes `found` above the posts' box (first_posts: signed,
    with prose) holds a box of the posts' tag and first class word: a link aggregator's
    post drawn as its comments are ("thing link" above "thing comment"), which a page
    that declares a thread takes in past the tree's heading ("all 3 comments"). A box
    drawn otherwise (a summary of the thread, a related topic) is not its first post.
    Each found box is read once."""

    shape = shape_of(posts[0])
    return bool(shape[1]) and any(
        shape_of(b) == shape for f in found for b in blocks[f.index : f.end]
    )


def counted(posts: list[BlockRecord], nested: list[BlockRecord]) -> int:
    """The nested replies that are replies: each holds less prose than the post or reply
    it is in, by tuning.POST_PROSE at least (that one has a body of its own beside it); a
    box of the posts' name that wraps the one around it, or only its body, is none."""
    count = 0
    around: list[BlockRecord] = []  # the posts and replies that hold the next one
    for b in sorted(posts + nested, key=lambda b: b.index):
        while around and around[-1].end <= b.index:
            around.pop()
        if around and b.raw + tuning.POST_PROSE <= around[-1].raw:
            count += 1
        around.append(b)
    return count


def lined_at(nested: list[BlockRecord], heads: set[Any]) -> list[int]:
    """The indices, in order, of the nested replies that got their line of author and date
    (their first element is one of `heads`): a box of the posts' shape that shows
    neither (an author's credentials drawn so) is no reply to keep."""
    return sorted(b.index for b in nested if len(b.el) and b.el[0] in heads)


def holds(at: Sequence[int], b: BlockRecord) -> bool:
    """Whether the box `b` holds one of the replies at the indices `at` (in order)."""
    i = bisect_left(at, b.index)
    return i < len(at) and at[i] < b.end


def _quote_like(el: Any, whole: bool = True) -> bool:
    """Whether a box is drawn as a quote: <blockquote>, a box named for one, or one whose
    first box starts with a board's words of attribution; `whole`: then holding only them
    and the quoted words (quoted.attributed), for a panel that holds the reply's words too
    is the reply's box, and the words after it a signature's or a control's."""
    from wf.extract.kinds import quoted

    if el.tag == "blockquote" or _QUOTE.search(el.get("class") or ""):
        return True
    return quoted.attributed(el) if whole else quoted.opens_attributed(el)


def beside_quote(
    blocks: list[BlockRecord], box: BlockRecord, way: BlockRecord, kids: list[BlockRecord]
) -> bool:
    """Whether the one box of prose on the way down to a post's body (`way`, among the
    `kids` of `box`) is a quote, or the frame of one (its label, "Quote:", and the quote),
    or the quoted words of a `box` drawn as a quote, with words after it: a reply of one
    short line under the words it quotes, which the way down would cut as a box without
    prose."""

    least = posts_tuning.REPLY_TEXT_MIN
    if not any(k.index > way.index and k.text - k.link >= least for k in kids):
        return False
    if _quote_like(way.el) or _quote_like(box.el, whole=False):
        return True
    if way.own >= least:  # words of the reply's own beside the quote: the body is below
        return False
    inner, j, quoted = [], way.index + 1, False
    while j < way.end:  # child by child, over their subtrees
        inner.append(blocks[j])
        j = blocks[j].end
    for b in inner:
        if _quote_like(b.el):
            quoted = True
        elif b.text >= least:
            return False
    return quoted


def body_beside(
    blocks: list[BlockRecord], box: BlockRecord, way: BlockRecord, kids: list[BlockRecord]
) -> bool:
    """Whether the body of a post is `box`, though one box (`way`) alone holds its prose:
    a short reply beside a quote (beside_quote), or the lines of a body (beside_lines)."""
    return beside_quote(blocks, box, way, kids) or beside_lines(way, kids)


def beside_replies(at: Sequence[int], way: BlockRecord, kids: list[BlockRecord]) -> bool:
    """Whether the one box of prose on the way down to a post's body (`way`) is the box of
    the replies to it (it holds one of those at `at`, holds), beside a box of words
    outside links (REPLY_TEXT_MIN): a short reply ("Agreed, thanks.") above the replies
    to it, whose words the way down would cut as a box without prose. A long reply's
    body beside its replies is prose: the way stops there all the same."""
    if not holds(at, way):
        return False
    least = posts_tuning.REPLY_TEXT_MIN
    return any(k is not way and k.text - k.link >= least and not holds(at, k) for k in kids)


def beside_lines(way: BlockRecord, kids: list[BlockRecord]) -> bool:
    """Whether the one box of prose on the way down to a post's body (`way`, among the
    `kids` of its box) is a line of the body beside others drawn as it is: a <div>, as
    it is, named as it is not (no class, no id), of words outside links (REPLY_TEXT_MIN):
    a reply written in boxes for its lines ("Also online." and then the rest), whose
    short line the way down would cut as a box without prose. A post's card, title,
    votes and controls are named, or links."""

    if way.tag != "div" or _named(way.el):  # a table's rows and cells are no lines
        return False
    least = posts_tuning.REPLY_TEXT_MIN
    return any(
        k is not way and k.tag == way.tag and not _named(k.el) and k.text - k.link >= least
        for k in kids
    )


def _named(el: Any) -> bool:
    return bool((el.get("class") or "").strip() or (el.get("id") or "").strip())


def opening(
    blocks: list[BlockRecord], index: int, box: int, posts: list[BlockRecord]
) -> tuple[int, list[BlockRecord]]:
    """The thread's first post above the posts' box when it is too short to be prose ("Does
    the lock open at low tide?", which the content does not grow to take in), drawn as a
    post is: the box of the posts' tag and first class word that shows its author or date
    and holds words (posts_tuning.REPLY_TEXT_MIN), beside the way up from the posts' box,
    posts_tuning.GROW_LEVELS boxes up at most, through a box that adds few links. The content's
    box grown to hold it (`box` when none is found, or `box` holds it), and it."""
    from wf.extract.kinds.siblings import marked

    shape = shape_of(posts[0])
    cur = blocks[index]
    for _ in range(posts_tuning.GROW_LEVELS if shape[1] else 0):
        if cur.parent < 0 or blocks[cur.parent].tag in ("html", "body"):
            break
        up = blocks[cur.parent]
        # A link aggregator's story line is all links: it is looked for above a box that
        # adds many, right above the way up; a first post drawn as the posts are is not.
        linked = (up.link - cur.link) * posts_tuning.GROW_LINKS_MAX > up.text - cur.text
        j, found, told = up.index + 1, None, False
        while j < cur.index:  # child by child, over their subtrees, up to the way up
            b = blocks[j]
            words = b.text - b.link >= posts_tuning.REPLY_TEXT_MIN
            if b.raw < tuning.POST_PROSE and words and shape_of(b) == shape and marked(b):
                # The last one: a question sits right above its answers, a box of the
                # same card ("Related questions", a login prompt) further up.
                found, told = (None, False) if linked else (b, False)
            elif b.end == cur.index and story.line(b):
                found, told = b, True
            j = b.end
        if found is not None and told:
            story.keep(found.el)
            return min(box, up.index), []
        if found is not None:
            return min(box, up.index), [found]
        if linked:
            break
        cur = up
    return box, []


def headed_by_date(box: Any) -> bool:
    """Whether a box shows its author and date as a header drawn with generated class
    names: among its first tuning.MARK_SCAN elements, a short box whose text is a date
    alone right after a short box of text that is none (<div>Ann B</div><div>28/11/2025
    at 7:07 pm</div>), what byline.add reads as the post's line."""
    from wf.extract.kinds.post_dates import whole_date

    for el in islice(box.iterdescendants(), tuning.MARK_SCAN):
        if not isinstance(el.tag, str) or el.tag not in _HEAD_BOXES or len(el):
            continue
        text = " ".join((el.text or "").split())
        if not whole_date(text):
            continue
        prev = el.getprevious()
        if prev is None or not isinstance(prev.tag, str) or prev.tag not in _HEAD_BOXES:
            continue
        leaf = len(prev) == 0 or (len(prev) == 1 and len(prev[0]) == 0)  # a link at most
        name = " ".join("".join(prev.itertext()).split()) if leaf else ""
        if name and len(name) <= tuning.BYLINE_MAX and not whole_date(name):
            return True
    return False


_HEAD_BOXES = frozenset(("div", "span", "p", "small"))


def lined(
    posts: list[BlockRecord], short: list[BlockRecord], nested: list[BlockRecord]
) -> tuple[list[BlockRecord], list[BlockRecord], list[BlockRecord], list[str | None], set[Any]]:
    """The posts, the short replies and the nested ones without the answers to other
    questions (tidy.drop_related, before their lines are put first), an issue's timeline
    events (events.py) and the ads (tidy.drop_ads), each headed by its line of author and
    date (byline.add) and without the tail of its author's credentials (once the line took
    the name; the posts' before the replies in them get theirs, which took "Upvoted by
    ann"'s name); and the authors the lines name, one a post, ads included; and the lines."""
    from wf.extract.kinds import byline, events, tidy
    from wf.extract.kinds.posts import accepted, badge

    gone = tidy.drop_related(posts + short + nested) | events.drop(posts + short + nested)
    posts, short, nested = ([p for p in g if p.index not in gone] for g in (posts, short, nested))
    authors: list[str | None] = []
    heads: set[Any] = set()
    inner = {p.el for p in nested}  # a reply's author and date are its own
    for group in (posts, short + nested):
        # Badges before the lines take the heads; a reply nested in a post is no answer.
        badged = [group is posts and badge(p.el) for p in group]
        lined = [byline.add(post.el, inner) for post in group]
        for post, author, mark in zip(group, lined, badged, strict=True):
            if author is not None:
                heads.add(post.el[0])  # the line is the post's first element
                accepted(post.el, mark)
        tidy.drop_credentials(group, lined)
        authors += lined
    ads = tidy.drop_ads(posts + short + nested, authors)
    posts, short, nested = ([p for p in g if p.index not in ads] for g in (posts, short, nested))
    return posts, short, nested, authors, heads
