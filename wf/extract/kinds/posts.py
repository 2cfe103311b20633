"""Inside a thread's content, what leaves it as the writer walks it (thread.py chose the
posts and tidied them): nav, asides and footers, named boxes without prose, a post's
controls and counts (votes, share, "log in to reply"), notes of edits, a reply's title
that repeats the topic's, the author's signature under each of their posts, the fields
of the author's card ("Join Date: Aug 2008", posts_tuning.PROFILE_FIELDS), and lists of
links with no sentence of prose among them (a post's body of one line beside its title's
and its date's links stays, and so does a link the poster gave: a paragraph of one titled
link, a box of addresses; and so do a quote's words and its attribution, "ann said:",
however short and however linked)."""

from __future__ import annotations

import re
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from wf.extract import tuning
from wf.extract.kinds import posts_tuning
from wf.extract.kinds.heads import reply_gate
from wf.extract.kinds.tidy import ad_label

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

HEADING = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_SIGNATURE = re.compile(tuning.POST_SIGNATURE, re.IGNORECASE)


def prune(el: Any, b: BlockRecord) -> bool:
    """Inside a thread: nav, asides and footers go, and named boxes without prose, and
    link lists; posts stay whatever they are named."""
    from wf.extract.names import STRUCTURAL_NEGATIVE
    from wf.extract.prune import link_list
    from wf.extract.records import negative

    quote = _quote_aside(el, b.tag)
    if b.tag in STRUCTURAL_NEGATIVE and b.tag != "figure" and not quote:
        return True
    if _HIDDEN.search(el.get("class") or ""):
        return True
    if _SIGNATURE.search(el.get("class") or ""):  # the author's, under every post of theirs
        return True
    # A quote of another topic is cut off with an ellipsis under its linked title: no
    # prose by the measure of teasers, yet the post's.
    if not b.raw and negative(b) and not _short_reply(el, b) and not quote:
        return True
    if not b.good and b.text <= tuning.CONTROL_MAX and _control(el):
        return True
    if b.text <= tuning.EDIT_NOTE_MAX and _edit_note(el):
        return True
    if b.text <= posts_tuning.PROFILE_FIELD_MAX and _profile_field(el):
        return True  # the author's card beside the post: "Join Date: Aug 2008"
    if b.text <= posts_tuning.GATE_MAX and _gate(_line(el).lower(), b.tag):
        return True  # the board's: "Join to see EXIF info for this image"
    if b.text <= tuning.AD_LABEL_MAX and not b.good and ad_label(_line(el)):
        return True  # an ad's slot in a post: "Advertisement (gone after registration)"
    if b.tag in HEADING and b.text <= tuning.EDIT_NOTE_MAX and _REPLY_TITLE.match(_line(el)):
        return True  # a reply's title, the topic's again: "Re: Tide tables"
    if b.text <= posts_tuning.POSTED_TEXT_MAX and _posted_link(el, b.tag):
        return False  # the poster's own link: "https://github.com/...", a page's title
    if _quoted(el, b):
        return False  # "ann said:" over "NIH - 7/18", each linked to ann and her post
    return link_list(b) and b.good < tuning.POST_PROSE


_QUOTE = re.compile(tuning.POST_QUOTE, re.IGNORECASE)
_GATE = re.compile(posts_tuning.POST_GATE)


def _gate(line: str, tag: str) -> bool:
    if _GATE.fullmatch(line):
        return True
    return tag not in posts_tuning.REPLY_GATE_TAGS and reply_gate(line)


def _quote_aside(el: Any, tag: str) -> bool:
    """A quote drawn as an <aside> (Discourse's: the quoted's name, then the <blockquote>,
    among its first tuning.MARK_SCAN elements) is the post's, as any quote is, unless it
    repeated the posts above: quoted.drop_repeats took its <blockquote> then, and the name
    left alone goes with the aside."""
    if tag != "aside" or _QUOTE.search(el.get("class") or "") is None:
        return False
    return any(c.tag == "blockquote" for c in islice(el.iterdescendants(), tuning.MARK_SCAN))


_REPLY_NAME = re.compile(posts_tuning.REPLY_NAME, re.IGNORECASE)


def _short_reply(el: Any, b: BlockRecord) -> bool:
    """A reply's words too few to be prose, in a box named for a comment (which names it
    as boilerplate): words, not links, of posts_tuning.REPLY_TEXT_MIN characters or more.
    A control so named ("Add a comment") goes by its words all the same."""
    if b.text < posts_tuning.REPLY_TEXT_MIN or b.link * 2 > b.text:
        return False
    return _REPLY_NAME.search(el.get("class") or "") is not None


def _posted_link(el: Any, tag: str) -> bool:
    """A link the poster gave: a paragraph of one link with words of its own
    (posts_tuning.LINK_TITLE_MIN characters), a paragraph whose links all name the people it
    answers ("Hi @ann", posts_tuning.MENTION), alone in its box or not, or a box whose links
    all read as addresses (a board shows a pasted address as the link's words). A list of
    titled links (similar topics, tags) is none."""
    links = list(islice(el.iter("a"), posts_tuning.POSTED_LINKS_MAX + 1))
    if not links or len(links) > posts_tuning.POSTED_LINKS_MAX:
        return False
    words = [_line(a) for a in links]
    if all(w.startswith(posts_tuning.MENTION) for w in words) and (tag == "p" or _one_p(el)):
        return True
    if tag == "p" and len(words) == 1 and len(words[0]) >= posts_tuning.LINK_TITLE_MIN:
        return True
    return all(w.lower().startswith(posts_tuning.ADDRESS_STARTS) for w in words)


def _one_p(el: Any) -> bool:
    """Whether a box holds one paragraph and no words of its own (a short reply's body,
    "@ann Yep", that a board writes in its box of the post's content)."""
    kids = list(islice(el, 2))
    if len(kids) != 1 or kids[0].tag != "p" or (el.text or "").strip():
        return False
    return not (kids[0].tail or "").strip()


def _quoted(el: Any, b: BlockRecord) -> bool:
    """A quote's words, or its attribution, in a quote (el or a box just above it,
    posts_tuning.QUOTE_LEVELS): words outside links (posts_tuning.QUOTED_WORDS_MIN
    characters or more; "Click to expand..." is a link), or a short line that ends in a
    colon ("ann said:", "ann wrote:"). A board links the attribution to the quoted and
    the quote's box to the post, so that a short quote reads as a list of links. The
    quotes that repeat the posts above went before (quoted.drop_repeats)."""
    boxes = islice(chain((el,), el.iterancestors()), posts_tuning.QUOTE_LEVELS)
    if not any(q.tag == "blockquote" or _QUOTE.search(q.get("class") or "") for q in boxes):
        return False
    if b.text - b.link >= posts_tuning.QUOTED_WORDS_MIN:
        return True
    return b.text <= posts_tuning.ATTRIBUTION_MAX and _line(el).endswith(":")


_REPLY_TITLE = re.compile(tuning.POST_REPLY_TITLE, re.IGNORECASE)
_HIDDEN = re.compile(r"(?<![\w-])(?:hidden|d-none|ipsHide)(?![\w-])")


def _line(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


def _edit_note(el: Any) -> bool:
    """A post's note of its edits ("Last edited by ann on Jul 5, 2024, edited 2 times")."""
    return _EDITED.match(_line(el)) is not None


_EDITED = re.compile(tuning.POST_EDITED, re.IGNORECASE)
_FIELD = re.compile(r"([^:]{2,30}):\s*\S")


def _profile_field(el: Any) -> bool:
    """A field of the author's card ("Posts: 1,077"): a known label, a colon, a value, on
    a line of its own (a box of boxes holds more than the field: a short reply's body)."""
    from wf.extract.kinds.byline import BLOCK_TAGS

    found = _FIELD.match(_line(el))
    if found is None or found.group(1).strip().lower() not in posts_tuning.PROFILE_FIELDS:
        return False
    return not any(c.tag in BLOCK_TAGS for c in islice(el.iterdescendants(), tuning.MARK_SCAN))


_VOTES = re.compile(r"[-+]?[\d.,]+[kKmM]?")
_TALLY = re.compile(posts_tuning.POST_TALLY, re.IGNORECASE)


def _control(el: Any) -> bool:
    """A post's control or count: a vote count, share, follow, flag, "log in to reply"."""
    text = _line(el).lower()
    if _TALLY.fullmatch(text):
        return True  # the engine's: "(95.79 KiB) Downloaded 478 times", "Original Poster"
    return not text or bool(_VOTES.fullmatch(text)) or text in tuning.POST_CONTROLS


_LABEL = re.compile(r"\s*([^:]{2,30}):")
_UNREAD = frozenset(("script", "style", "noscript", "template"))


def _field_label(el: Any) -> str | None:
    """The label an element starts with ("Join Date:"), in its own text or its first
    child's (phpBB's <dd><strong>Posts:</strong> 1077</dd>), lowercase; None if none."""
    from wf.extract.kinds.byline import BLOCK_TAGS

    text = el.text or ""
    if not text.strip() and len(el) and isinstance(el[0].tag, str):
        if el[0].tag in BLOCK_TAGS:  # a box of fields is none
            return None
        text = el[0].text or ""
    found = _LABEL.match(text)
    if found is None or not _short_line(el, posts_tuning.CARD_FIELD_MAX):
        return None  # a paragraph that starts "ann wrote:", a quote's box
    return found.group(1).strip().lower()


def _short_line(el: Any, most: int) -> bool:
    """Whether an element is a line of `most` characters at most: a few elements in it
    (posts_tuning.CARD_FIELD_ELEMENTS), no box, its text read no further than that."""
    from wf.extract.kinds.byline import BLOCK_TAGS

    size = 0
    for n, d in enumerate(el.iterdescendants()):
        if n >= posts_tuning.CARD_FIELD_ELEMENTS or d.tag in BLOCK_TAGS:
            return False
    for part in el.itertext():
        size += len(part.strip())
        if size > most:
            return False
    return True


def author_card(el: Any) -> bool:
    """Whether a box is the author's card beside a post: posts_tuning.CARD_FIELDS_MIN
    fields of a profile or more, and outside its fields (known or not: "Label: value")
    and its links few words (posts_tuning.CARD_WORDS_MAX: a rank, "Original Poster").
    Read as it stands (the byline took the name and date out of it), over its first
    tuning.MARK_SCAN elements."""
    from lxml import etree

    fields = words = 0
    walker = etree.iterwalk(el, events=("start",))
    for n, (_, d) in enumerate(walker):
        if n > tuning.MARK_SCAN:
            return False
        if d is not el:
            words += len((d.tail or "").strip())
        if not isinstance(d.tag, str) or d.tag in _UNREAD or d.tag == "a":
            walker.skip_subtree()
            continue
        label = None if d is el else _field_label(d)
        if label is not None:  # a field, known or not ("Programs: ...")
            fields += label in posts_tuning.PROFILE_FIELDS
            walker.skip_subtree()
            continue
        words += len((d.text or "").strip())
        if words > posts_tuning.CARD_WORDS_MAX:
            return False
    return fields >= posts_tuning.CARD_FIELDS_MIN and words <= posts_tuning.CARD_WORDS_MAX


_ACCEPTED = re.compile(posts_tuning.ACCEPTED_CLASS)


def accepted(post: Any, badged: bool = False) -> None:
    """A post marked as the accepted answer (itemprop acceptedAnswer, a class
    posts_tuning.ACCEPTED_CLASS, or its badge: `badged`, see badge()) says so at the end
    of its line of author and date, its first element: the tick the page draws beside it
    is no text."""
    marked = badged or "acceptedanswer" in (post.get("itemprop") or "").lower().split()
    if marked or _ACCEPTED.search((post.get("class") or "").lower()):
        line = post[0]
        line.text = f"{line.text or ''}, {posts_tuning.ACCEPTED_LINE}"


def badge(post: Any) -> bool:
    """Whether the post shows the badge of the accepted answer ("Marked as answer",
    posts_tuning.ACCEPTED_BADGES) in a box of its own among its first tuning.MARK_SCAN
    elements; the box goes (the post's line says it: accepted()). The same words in the
    post's own text ("<strong>Best answer</strong> so far: ...", a paragraph that says
    "Accepted solution") are no badge: a box with words after it, or in a paragraph,
    a quote or a code block (posts_tuning.BADGE_NOT_IN), is written, not drawn."""
    from lxml import etree

    from wf.extract.parse import drop

    inside = 0  # the boxes of text open around the element, read in the same pass
    for event, el in islice(etree.iterwalk(post, events=("start", "end")), 2 * tuning.MARK_SCAN):
        written = el.tag in _NOT_IN
        if event == "end":
            inside -= written
            continue
        text = el.text if isinstance(el.tag, str) and not len(el) else None
        if text and not inside and _alone(el) and " ".join(text.split()).lower() in _BADGES:
            drop(el)
            return True
        inside += written
    return False


def _alone(el: Any) -> bool:
    """Whether a box of a badge's length has no words after it (a separator at most)."""
    tail = el.tail or ""
    return len(el.text) <= _BADGE_MAX and (not tail or _SEPARATORS.fullmatch(tail) is not None)


_BADGES = frozenset(posts_tuning.ACCEPTED_BADGES)
_NOT_IN = frozenset(posts_tuning.BADGE_NOT_IN)
_SEPARATORS = re.compile(posts_tuning.HEADER_SEPARATORS)  # what may stand after a badge
_BADGE_MAX = max(map(len, _BADGES)) * 2  # the badge's words, spaced as a page spaces them
