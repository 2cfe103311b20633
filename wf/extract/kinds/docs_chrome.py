"""Documentation pages' banners: the site's news and the warning that an older version
is shown, each named so by a class or id token
(docs_tuning.DOC_BANNER). The article's rule keeps them when the page is read whole or
when they stand inside the chosen box, over the manual's first paragraph. And the lines
no name gives away: when the page was last updated, the bare steps to the previous and
next page. And a table of the page's own contents inside its body: its links all lead
to the page's anchors."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

from common.xpath import text_upto
from wf.extract.kinds import docs_tuning
from wf.extract.outer_boxes import Read, outermost_box, stands_in
from wf.extract.spaces import settable

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

_BANNER = re.compile(docs_tuning.DOC_BANNER, re.IGNORECASE)
_STAMP = re.compile(docs_tuning.UPDATE_STAMP, re.IGNORECASE)
_STEP = re.compile(docs_tuning.STEP_LINK, re.IGNORECASE)
_STEPS = re.compile(
    rf"(?:{docs_tuning.STEP_LINK})(?:\s+(?:{docs_tuning.STEP_LINK}))*", re.IGNORECASE
)
# A link's text longer than this is no step (white space around it included).
_STEP_TEXT_MAX = 24
# The text nodes a stamp's words may start: one XPath search, lowered in libxml2.
_STAMP_SEEDS = "//text()[contains(translate(., 'LAST', 'last'), 'last ')]"
_STAMP_WORDS = re.compile(r"last (?:updated?|modified|edited|changed|reviewed)", re.IGNORECASE)
_DEBRIS_MAX = docs_tuning.DEBRIS_MAX
_DEBRIS = re.compile(docs_tuning.DEBRIS_CLASS)  # case-sensitive: IGNORECASE cost 8 times as much
# The elements a banner is looked for on: those with a class, an id or an accessible name.
_NAMED = "//*[@class or @id or @aria-label]"


def drop_banners(root: Any, debris: list[Any] | None = None) -> None:
    """Remove the boxes named as banners (docs_tuning.DOC_BANNER) that hold no more text
    than a banner (docs_tuning.DOC_BANNER_TEXT_MAX); the outermost of nested ones goes.
    A box named only as the menu of versions that is prose stays (_notes). The walk over
    the named boxes gathers into `debris` those whose class marks a generator's debris
    (docs_tuning.DEBRIS_CLASS, docs_tuning.DEBRIS_MAX of them: docs_debris.drop_debris
    judges them), the page walked once for both."""
    from common.xpath import compiled, text_length
    from wf.extract.parse import drop

    length = text_length()
    named = 0
    found: list[Any] = []
    for el in compiled(_NAMED)(root):
        names = el.get("class") or ""  # read once: an attribute costs a microsecond
        if debris is not None and names and _DEBRIS.search(names) and len(debris) < _DEBRIS_MAX:
            debris.append(el)
        if el.tag in ("html", "body") or not _banner(el, names):
            continue
        named += 1
        if named > docs_tuning.DOC_BANNERS_MAX:
            break
        size = length(el)
        if size <= docs_tuning.DOC_BANNER_TEXT_MAX and not _notes(el, size):
            found.append(el)
    chosen = set(found)
    for el in found:
        if not any(up in chosen for up in el.iterancestors()):
            drop(el)


def _names(el: Any) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''}"


_VERSION_MENU = re.compile(docs_tuning.VERSION_MENU, re.IGNORECASE)
_VERSION_MENU_LABEL = re.compile(docs_tuning.VERSION_MENU_LABEL, re.IGNORECASE)


def _banner(el: Any, names: str) -> bool:
    """Whether a box is named as a banner, or as the menu of the manual's versions by its
    class (`names`) or its accessible name (an id may name a section about versions: the
    text's)."""
    if _BANNER.search(f"{names} {el.get('id') or ''}") or _VERSION_MENU.search(names):
        return True
    label = el.get("aria-label")
    return label is not None and _VERSION_MENU_LABEL.fullmatch(label.strip()) is not None


# The controls a version menu's entries are.
_ENTRIES = frozenset(("a", "option", "button"))


def _notes(el: Any, size: float) -> bool:
    """Whether a box named only as the menu of versions (not a banner) is prose: release
    notes under a section so labelled, headings and paragraphs, where a menu is links
    and options with a few labels ("v: latest", "Downloads"). Prose: more than
    docs_tuning.VERSION_NOTES_MIN characters outside the entries, and more than
    docs_tuning.VERSION_NOTES_SHARE of the box's text (its `size`, white space
    collapsed; short). One walk, of docs_tuning.VERSION_NOTES_SCAN elements at most: a
    box of little text may hold a great many empty ones (then it is no prose)."""
    if _BANNER.search(_names(el)):
        return False
    inside: dict[Any, bool] = {}  # whether an element is, or is in, an entry
    prose = 0
    for n, node in enumerate(el.iter()):
        if n >= docs_tuning.VERSION_NOTES_SCAN:
            return False
        parent = node.getparent()
        up = inside.get(parent, False) if node is not el else False
        own = up or node.tag in _ENTRIES
        inside[node] = own
        if not own and isinstance(node.tag, str):
            prose += len(" ".join((node.text or "").split()))
        if not up and node is not el:
            prose += len(" ".join((node.tail or "").split()))
    return prose > docs_tuning.VERSION_NOTES_MIN and prose > docs_tuning.VERSION_NOTES_SHARE * size


def drop_update_stamps(root: Any) -> None:
    """Remove the boxes whose whole text says when the page was last updated
    (docs_tuning.UPDATE_STAMP, a date after the words): looked for from the text that
    holds the words, up docs_tuning.UPDATE_STAMP_LEVELS boxes, the outermost such box
    going; docs_tuning.STAMPS_MAX of them at most a page, from the first
    docs_tuning.STAMP_SEEDS_MAX texts with its words ("last updated": the texts that only
    hold "last ", a manual's "the last element", are not counted)."""
    from common.xpath import compiled
    from wf.extract.hidden import drop_each

    found: list[Any] = []
    read: Read = {}
    seeds = (node for node in compiled(_STAMP_SEEDS)(root) if _STAMP_WORDS.search(node))
    for n, node in enumerate(seeds):
        if len(found) >= docs_tuning.STAMPS_MAX or n >= docs_tuning.STAMP_SEEDS_MAX:
            break
        outer = _outer_box(node, _stamp, read)
        if outer is not None and outer not in found:
            found.append(outer)
    drop_each(found)


def _outer_box(node: Any, matches: Callable[[str], object], read: Read | None = None) -> Any:
    """The outermost box around a text node, docs_tuning.UPDATE_STAMP_LEVELS up at most,
    whose whole text (read short: _short_text) `matches`; None. The words' own box may
    hold only part of the line ("Last updated" in a <span> beside its date)."""
    return outer_box(stands_in(node), matches, read)


def outer_box(el: Any, matches: Callable[[str], object], read: Read | None = None) -> Any:
    """The outermost box from `el` up (the box a text stands in), as _outer_box, short of
    the page's <body> (outer_boxes.outermost_box: `read`, each box read once a search)."""
    levels = docs_tuning.UPDATE_STAMP_LEVELS
    return outermost_box(el, matches, _short_text, levels, _page_top, read)


def _page_top(el: Any) -> bool:
    return el.tag in ("html", "body")


_FEEDBACK = re.compile(docs_tuning.FEEDBACK, re.IGNORECASE)
_FEEDBACK_SEEDS = "//text()[{}]".format(
    " or ".join(f"contains(., '{w}')" for w in docs_tuning.FEEDBACK_SEEDS)
)


def drop_feedback(root: Any) -> None:
    """Remove the boxes whose whole text asks the reader's verdict on the page
    (docs_tuning.FEEDBACK: "Was this page helpful?"), its buttons gone with the page's
    controls: the question stood alone under the manual's last paragraph. Looked for from
    the text that holds its words, up to the outermost box so made
    (docs_tuning.UPDATE_STAMP_LEVELS up); docs_tuning.STAMPS_MAX of them a page, from the
    first docs_tuning.STAMP_SEEDS_MAX texts with its words."""
    from common.xpath import compiled
    from wf.extract.hidden import drop_each

    found: list[Any] = []
    read: Read = {}
    for n, node in enumerate(compiled(_FEEDBACK_SEEDS)(root)):
        if len(found) >= docs_tuning.STAMPS_MAX or n >= docs_tuning.STAMP_SEEDS_MAX:
            break
        outer = _outer_box(node, _FEEDBACK.fullmatch, read)
        if outer is not None and outer not in found:
            found.append(outer)
    drop_each([el for el in found if not any(up in found for up in el.iterancestors())])


def _short_text(el: Any) -> str | None:
    """An element's text, white space collapsed, or None past docs_tuning.UPDATE_STAMP_MAX
    characters (read no further)."""
    pieces, over = text_upto(el, 2 * docs_tuning.UPDATE_STAMP_MAX)
    if over:
        return None
    text = " ".join("".join(pieces).split())
    return text if len(text) <= docs_tuning.UPDATE_STAMP_MAX else None


_AGO = re.compile(docs_tuning.UPDATE_AGO, re.IGNORECASE)


def _stamp(text: str) -> bool:
    """Whether a text says when the page was last updated, and nothing else."""
    from wf.extract.kinds.post_dates import whole_date

    match = _STAMP.fullmatch(text)
    if match is None:
        return False
    date = match.group("date").strip(" ,")
    return whole_date(date) or _AGO.fullmatch(date) is not None


def drop_step_links(root: Any) -> None:
    """Remove the links whose whole text only steps to the previous or next page
    (docs_tuning.STEP_LINK), standing alone (no words of a sentence beside them), with the
    boxes around them that hold no other text (docs_tuning.STEP_LEVELS up: MDN's
    `<ul><li><a>Previous</a></li><li><a>Next</a></li></ul>` goes whole, not as an empty
    list). A manual's sequence of pages is its chrome; the word in a sentence ("click
    <a>Next</a> to go on") is the page's text and stays."""
    from wf.extract.hidden import drop_each

    found: dict[Any, None] = {}
    for a in root.iter("a"):
        text = " ".join("".join(a.itertext()).split())
        if len(text) > _STEP_TEXT_MAX or not _STEP.fullmatch(text) or not stands_alone(a):
            continue
        box = a
        for _ in range(docs_tuning.STEP_LEVELS):
            up = box.getparent()
            if up is None or up.tag in ("html", "body") or not _only_steps(up):
                break
            box = up
        if box is not a and not stands_alone(box):
            continue  # a word of a sentence, set in bold or as code: "choose **Next** to go on"
        found[box] = None
    drop_each([el for el in found if not any(up in found for up in el.iterancestors())])


def stands_alone(el: Any) -> bool:
    """Whether no text stands right before or after an element (in its tail, or in its
    parent's text or its previous sibling's tail): a link of its own, not a sentence's word."""
    prev = el.getprevious()
    parent = el.getparent()
    before = prev.tail if prev is not None else (parent.text if parent is not None else None)
    return not _worded(before) and not _worded(el.tail)


def _worded(text: str | None) -> bool:
    """Whether a text holds a word or a number: separators between links ("Source ·",
    "| Page source") are no sentence's."""
    return text is not None and _WORD.search(text) is not None


_WORD = re.compile(r"\w")


def _only_steps(el: Any) -> bool:
    """Whether a box's whole text is steps to the previous and next page, nothing else."""
    text = _short_text(el)
    return text is not None and _STEPS.fullmatch(text) is not None


# The boxes a table of contents is drawn as.
_CONTENTS_TAGS = frozenset(("div", "nav", "details", "section", "ul", "ol", "aside", "dl"))


def contents(el: Any, b: BlockRecord) -> bool:
    """Whether a box is a table of the page's own contents: a list's items, each a link to
    an anchor on the page ("#sizes"), docs_tuning.CONTENTS_LINKS_MIN at least, and no
    other text than a title ("Contents", "In this article"; docs_tuning.CONTENTS_TITLE_MAX
    characters). A manual keeps its lists of links (prune), and printed each section's
    title twice, once in the list. A link with words after it is a sentence's or a step's
    ("Measure the shaft first"), and a sentence holds no list.
    Read no further than docs_tuning.CONTENTS_SCAN elements: nested boxes would each read
    their whole subtree."""
    if b.tag not in _CONTENTS_TAGS or not b.link:
        return False
    if b.text - b.link > docs_tuning.CONTENTS_TITLE_MAX:
        return False
    links = items = 0
    for n, node in enumerate(islice(el.iter(), docs_tuning.CONTENTS_SCAN + 1)):
        if n == docs_tuning.CONTENTS_SCAN:
            return False
        tag = node.tag
        if tag == "a":
            tail = node.tail
            if not (node.get("href") or "").startswith("#") or tail and tail.strip():
                return False
            links += 1
        elif tag == "li":
            items += 1
    return links >= docs_tuning.CONTENTS_LINKS_MIN and items >= links


_SECTION_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def cut_foot(blocks: list[BlockRecord], b: BlockRecord) -> None:
    """Cut what follows `b` in its parent, the page's foot ("Edit this page on GitHub", a
    table of contents beside the body), not its text: but the blocks up to the last that
    holds a section's heading (h2 to h6), more of the page's sections (rustdoc's fields
    and methods after an item's description), which end where its foot begins. A box
    mostly of links (docs_tuning.FOOT_LINKED) holds no section: the site's columns of
    links under their headings ("Product", "Company") are its foot."""
    following = []
    j = b.end
    while j < blocks[b.parent].end:
        following.append(blocks[j])
        j = blocks[j].end
    last = -1
    for n, f in enumerate(following):
        if f.link >= docs_tuning.FOOT_LINKED * f.text:
            continue
        if f.tag in _SECTION_HEADINGS or next(f.el.iter(*_SECTION_HEADINGS), None) is not None:
            last = n
    for f in following[last + 1 :]:
        f.cut = True


def doxygen_title(root: Any, why: str) -> None:
    """On a page Doxygen made (`why`, the reason the page is documentation, names it),
    the page's title, which it draws as a box (`div.headertitle > div.title`: "Gear Class
    Reference"), made the <h1> it is and put at the head of the body box after its header
    (`div.contents`): the page printed no title, the header and the body both children of
    <body>, which docs.with_title does not take."""
    if "doxygen" not in why.lower():
        return
    for title in root.iterfind(".//div[@class='headertitle']/div[@class='title']"):
        title.tag = "h1"
        header = title.getparent().getparent()
        body = header.getnext() if header is not None else None
        if body is not None and body.get("class") == "contents":
            title.tail = None
            body.insert(0, title)
            title.tail, body.text = settable(body.text), None


def unlink_title(root: Any) -> None:
    """The page's <h1> without the links among its words: rustdoc writes an item's path in
    its title, each part a link ("Struct <a>regex</a>::<a>Regex</a>"), and the box around
    the title, more link than text, went as a list of links with the title in it. Only a
    title partly linked: one that is a link whole (a site's name over its menu) keeps
    it; and a link of no words (a permalink's "¶") stays for its own rule."""
    from lxml import etree

    title = next(root.iter("h1"), None)
    if title is None or next(title.iter("a"), None) is None:
        return
    worded = [a for a in title.iter("a") if _WORD.search("".join(a.itertext()))]
    whole = "".join(title.itertext()).strip()
    linked = "".join("".join(a.itertext()) for a in worded).strip()
    if worded and len(linked) < len(whole):
        for a in worded:
            a.tag = _UNLINKED
        etree.strip_tags(title, _UNLINKED)


_WORD = re.compile(r"\w")
# Not a tag of HTML: the title's links renamed so, then stripped (their words kept).
_UNLINKED = "wf-unlinked"
