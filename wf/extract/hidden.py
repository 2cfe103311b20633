"""Which elements of a parsed page no reader sees: hidden by attribute, by style or as a
closed dialog, less the tab panels a reader opens with a click and the text hidden from
screen readers alone, whose label speaks it (wf.extract.parse drops the rest when it
cleans a tree)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice
from typing import Any

from common.xpath import each, tagged, text_length, text_start
from wf.extract import hidden_tuning, tuning

# The attributes that hide an element, each searched for apart (see search_hidden).
HIDDEN_XPATH = "//*/@style|//*/@hidden|//*/@aria-hidden"
# The attributes HIDDEN_XPATH finds: a caller's search may hold others of its own.
_HIDING = frozenset(("style", "hidden", "aria-hidden"))
_STYLE_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_READ_MORE = re.compile(hidden_tuning.READ_MORE)


def hidden_elements(
    root: Any,
    uncounted: Sequence[Any] = (),
    hits: Sequence[Any] | None = None,
    opened: bool = False,
    panels: Sequence[Any] = (),
) -> list[Any]:
    """The elements a reader does not see, to be dropped; none when the page hides
    most of its text (see below), leaving out of that share the text of the elements
    ``uncounted`` (added to the page by the cleaning: they must not tip it). ``hits``:
    what search_hidden found in ``root``, when the caller searched, in
    any order (the elements dropped and the verdict are the same in every order).
    ``opened``: the page's accordions are read open (accordion_panel: a product page's
    details, each under its title), and ``panels`` with it (the closed panels a button
    opens: accordion.closed_panels)."""
    from lxml import etree

    hidden: dict[Any, None] = {}
    style_hidden = _hides
    panels_of: dict[Any, set[Any]] = {}  # a parent's tab panels read as shown, when needed
    opened_panels = set(panels)
    if hits is None:
        hits = search_hidden(root)
    for hit in hits:
        if isinstance(hit, etree._Element):
            el = hit
        elif hit.attrname not in _HIDING or (hit.attrname == "style" and not style_hidden(hit)):
            # Most style attributes hide nothing: judged on the value, without the
            # element (the element's other attributes are hits of their own).
            continue
        else:
            el = hit.getparent()
        if el.tag in ("html", "body") or not is_hidden(el):
            continue
        parent = el.getparent()
        if parent is not None and _panel(el):
            if parent not in panels_of:
                panels_of[parent] = _tab_panels(parent)
            if el in panels_of[parent]:
                continue
        if parent is not None and read_more(el):
            continue
        if opened and (accordion_panel(el) or el in opened_panels):
            continue
        hidden[el] = None
    if not hidden:
        return []
    # Some pages hide their whole content until a script reveals it; a browser with
    # scripts would show it, so keep it rather than print nothing. Hidden copies and
    # panels beside a visible article are no such case: they are dropped.
    length = text_length()
    hidden_len = sum(length(el) for el in hidden)
    added = 0.0
    for el in uncounted:
        added += length(el)
        # Counted once in each hidden box around it (hidden boxes nest).
        hidden_len -= length(el) * sum(up in hidden for up in el.iterancestors())
    if hidden_len and mostly(hidden_len, root, length, added):
        return []
    return list(hidden)


def search_hidden(root: Any) -> list[Any]:
    """What hides an element in ``root``'s document, in no particular order: the
    attributes of HIDDEN_XPATH, and each <dialog> (found by lxml, common.xpath.tagged:
    most pages hold none, and then cost nothing, where a search walks the whole page)."""
    return [*(hit for found in each(root, HIDDEN_XPATH) for hit in found), *tagged(root, "dialog")]


# Paragraphs measured before the whole page is: enough for nearly every page that hides
# something, and a bound on the calls a page of a hundred thousand paragraphs can cost.
_MOSTLY_TRIES = 32


def mostly(part: float, root: Any, length: Any, added: float = 0.0) -> bool:
    """Whether ``part`` characters are over 3/4 of the page's text (``length(root)``,
    less ``added`` characters the cleaning put in).

    The length of the whole page costs a copy of all its text, so the first paragraphs
    are measured first, until they show that the page holds enough text: paragraphs that
    do not nest hold no more text than the page does, as normalize-space counts it (each
    keeps its characters and the runs of spaces inside it)."""
    seen = 0.0
    tries = _MOSTLY_TRIES
    for p in root.iter("p"):
        if next(p.iterancestors("p"), None) is None:
            seen += length(p)
            if part <= 0.75 * seen:
                return False
            tries -= 1
            if not tries:
                break
    return bool(part > 0.75 * (length(root) - added))


# Children of one box looked through for its tab panels: a bound on the text a box of
# many thousands copies.
_TAB_PANELS = 200


def _tab_panels(parent: Any) -> set[Any]:
    """The tab panels (role tabpanel) among a box's children read as shown though hidden:
    each is hidden until its tab is clicked, yet one of the page's sections (a landing
    page's features, a manual's example in each language). A panel whose text repeats an
    earlier sibling's (a placeholder the scripts fill) stays hidden. A hidden accordion's
    answer or menu stays hidden: the pages print those closed more often than not.

    Only the box's children are read, not the page: a search of the whole tree cost more
    than the rest of the cleaning on pages with tabs. A lone panel repeats nothing and is
    not read; others are compared on their first hidden_tuning.PANEL_COMPARED characters
    (a placeholder is short): panels nested in panels, a level's whole text read at each
    level, cost a hostile page of 5 MB 8.7 s."""
    panels = [el for el in islice(parent.iterchildren(), _TAB_PANELS) if _panel(el)]
    if len(panels) < 2:
        return set(panels)
    seen: set[str] = set()
    shown: set[Any] = set()
    for el in panels:
        words = " ".join(text_start(el, hidden_tuning.PANEL_COMPARED).split())
        if words not in seen:
            seen.add(words)
            shown.add(el)
    return shown


_PANEL_CLASS = re.compile(hidden_tuning.PANEL_CLASS, re.IGNORECASE)
_PANEL_HOST = re.compile(hidden_tuning.PANEL_HOST)


def _panel(el: Any) -> bool:
    """Whether an element is a tab panel: its role says so, or its class does (Bootstrap's
    `tab-pane`, which pages hide with a style until its tab is clicked), or it is the
    source of a web component named as tabs (hidden_tuning.PANEL_HOST)."""
    if el.get("role") == "tabpanel":
        return True
    cls = el.get("class")
    if cls and _PANEL_CLASS.search(cls) is not None:
        return True
    host = el.getparent()
    tag = host.tag if host is not None else None
    return isinstance(tag, str) and "-" in tag and _PANEL_HOST.search(tag) is not None


def read_more(el: Any) -> bool:
    """Whether a hidden box is the rest of a text cut short behind "Read more": a short
    line after it, the control that opens it, says "Read more" (or "Show more", "See
    more", in a few languages: hidden_tuning.READ_MORE), and it comes after a shown box
    beside it that holds text (hidden_tuning.READ_MORE_BEFORE characters at least). A
    reader opens it with a click, as a tab panel; a closed accordion's answer or a menu
    has no such line after it."""
    after = el.getnext()
    for _ in range(hidden_tuning.READ_MORE_AFTER):
        if after is None:
            return False
        if isinstance(after.tag, str):
            line = _opening(after, hidden_tuning.READ_MORE_LINE)
            if len(line) <= hidden_tuning.READ_MORE_LINE and _READ_MORE.fullmatch(line.lower()):
                break
        after = after.getnext()
    else:
        return False
    before = el.getprevious()
    while before is not None and not isinstance(before.tag, str):
        before = before.getprevious()
    if before is None or is_hidden(before):
        return False
    before_text = _opening(before, hidden_tuning.READ_MORE_BEFORE)
    return len(before_text) >= hidden_tuning.READ_MORE_BEFORE


_TITLES = frozenset(("h2", "h3", "h4", "h5", "h6", "dt"))


def accordion_panel(el: Any) -> bool:
    """Whether a hidden box is an accordion's panel: the element right before it is a
    heading or a <dt>, or a box named as a title (_title_named), its title, which a
    reader clicks to open it (a product's measurements, its care, its questions and
    answers, each closed under its title).
    Up to hidden_tuning.PANEL_TITLE_SKIP comments or processing instructions between
    them are passed over: a hostile page's run of them costs no more. A box shown right
    after it in its stead (the same tag, not hidden: a value in another unit under its
    <dt>, a description for another screen under its heading) makes it no panel but a
    version of that box; the next panel's title (the same tag, named so) does not."""
    before = _element_beside(el, ahead=False)
    if before is None:
        return False
    if before.tag not in _TITLES and not _titles_box(before, el):
        return False
    after = _element_beside(el, ahead=True)
    return after is None or after.tag != el.tag or is_hidden(after) or _title_named(after)


_TITLE_NAME = re.compile(hidden_tuning.PANEL_TITLE_NAMES)


def _titles_box(title: Any, panel: Any) -> bool:
    """Whether a box named as a title (_title_named) titles the hidden `panel` after it:
    a box (names.BLOCK: a hidden <span> after a `price-label` is the price's other value,
    a compare-at or unit price), outside the page's <header> and <nav>, where such a box
    is a control's (a `search-toggle` over the search box, a `cart-label` over the mini
    cart)."""
    from wf.extract.names import BLOCK

    if panel.tag not in BLOCK or not _title_named(title):
        return False
    return next(panel.iterancestors(*hidden_tuning.CONTROL_BOXES), None) is None


def _title_named(el: Any) -> bool:
    """Whether a box is named as an accordion's or a tab's title (hidden_tuning.
    PANEL_TITLE_NAMES, a whole word of a lowered class token: Magento's `data item
    title`, a theme's `accordion-title`, `collapsible-trigger`)."""
    from wf.extract.names import named_by

    return named_by(el, _TITLE_NAME)


def _element_beside(el: Any, ahead: bool) -> Any:
    """The element after `el` (`ahead`) or before it, past hidden_tuning.PANEL_TITLE_SKIP
    comments or processing instructions at most; else None."""
    near = el.getnext() if ahead else el.getprevious()
    for _ in range(hidden_tuning.PANEL_TITLE_SKIP):
        if near is None or isinstance(near.tag, str):
            return near
        near = near.getnext() if ahead else near.getprevious()
    return near if near is not None and isinstance(near.tag, str) else None


def _opening(el: Any, chars: int) -> str:
    """The start of an element's text, its spaces collapsed: read until it holds over
    `chars` characters, from hidden_tuning.READ_MORE_PIECES text pieces at most (a box of
    a thousand paragraphs is not copied whole to learn that it holds a hundred
    characters)."""
    pieces: list[str] = []
    size = 0
    for piece in islice(el.itertext(), hidden_tuning.READ_MORE_PIECES):
        pieces.append(piece)
        size += len(piece.strip())
        if size > chars:
            break
    return " ".join("".join(pieces).split())


def is_hidden(el: Any) -> bool:
    """Whether ``el`` itself is hidden by attribute or style (its ancestors unread)."""
    get = el.get
    if get("hidden") is not None:
        return True
    if el.tag == "dialog" and get("open") is None:
        return True
    # Hidden from screen readers, unless the box around it speaks the same words in its
    # aria-label: the label is for screen readers, the hidden text for the eye (a
    # rating's "4.4 out of 5 stars" and its count under a link labelled "4.4 out of 5
    # stars, 272,574 ratings", a price beside its label).
    if (get("aria-hidden") or "").strip().lower() == "true" and not _spoken(el):
        return True
    style = get("style")
    return bool(style and _hides(style))


# Text pieces of a hidden element read to compare with a label: a label is a line, and a
# hidden box of many pieces is no label's text.
_SPOKEN_TEXTS = 16


def _spoken(el: Any) -> bool:
    """Whether an element's text is shown to the eye and spoken by the aria-label of the
    nearest labelled box of tuning.SPOKEN_LEVELS around it: the label holds its words."""
    # The label first: most hidden icons have none around them, and their text need
    # not be read.
    up, label = el.getparent(), None
    for _ in range(tuning.SPOKEN_LEVELS):
        if up is None:
            return False
        label = up.get("aria-label")
        if label:
            break
        up = up.getparent()
    if not label:
        return False
    pieces = list(islice(el.itertext(), _SPOKEN_TEXTS + 1))
    words = " ".join("".join(pieces).split()).lower()
    if not words or len(pieces) > _SPOKEN_TEXTS:
        return False
    return words in " ".join(label.split()).lower()


def _hides(style: str) -> bool:
    """_STYLE_HIDDEN found in a style attribute. An ASCII value without "none" or
    "hidden" in any case cannot match, and most do not: their test costs a tenth of the
    case-blind search (a non-ASCII one is searched as it is, case folding and all)."""
    if style.isascii():
        low = style.lower()
        if "none" not in low and "hidden" not in low:
            return False
    return _STYLE_HIDDEN.search(style) is not None


def drop_all(elements: list[Any]) -> None:
    """Remove ``elements``, each tail's text kept in place, as parse.drop does one by one.

    One by one, each removal joins its tail to the text before it: a paragraph of many
    hidden separators (a hostile page's hundred thousand) rebuilt its text once per
    separator. Here each parent's children are read once and each text set once."""
    for el in elements:
        pieces = list(islice(el.itertext(), 8))
        if any(not t.isspace() for t in pieces) or _drawn_between(el, pieces):
            # A hidden separator ("\u00b7", "|") sets apart what stands on either side of
            # it ("1d ago \u00b7 3 min read"): a space keeps the two words apart.
            el.tail = " " + (el.tail or "")
    drop_each(elements)


def _drawn_between(el: Any, pieces: list[str]) -> bool:
    """Whether `el` is hidden from screen readers only, so drawn: then the space it holds
    is shown ("12<i aria-hidden> </i>34" reads "12 34"), and an icon between two numbers
    (a clock between a post's day and its hour, "7/9/05" and "7:57 PM") keeps them apart
    as a separator does, where glued they make another number. An empty icon between
    letters may stand inside a word, and before a stop it ends a link's words: it adds
    nothing."""
    if (el.get("aria-hidden") or "").strip().lower() != "true" or not _drawn(el):
        return False
    return bool(pieces) or between_numbers(el)


def _drawn(el: Any) -> bool:
    """Whether `el` itself takes room on the screen: an icon hidden by its attribute or
    style as well as from screen readers, or an <svg> of no width or height (a sprite's
    definitions), holds no space between the words beside it."""
    if el.get("hidden") is not None or el.get("width") == "0" or el.get("height") == "0":
        return False
    style = el.get("style")
    return not (style and _hides(style))


def apart(drawing: Any) -> None:
    """A space where `drawing` (an <svg>, which parse.clean drops as junk) stands between
    two numbers: an icon between a day and its hour keeps them apart, where glued they
    make another number."""
    tail = drawing.tail
    if (not tail or tail[0].isdigit()) and _drawn(drawing) and between_numbers(drawing):
        drawing.tail = " " + (tail or "")


def between_numbers(el: Any) -> bool:
    """Whether the text right before `el` ends with a digit and the text right after it
    starts with one: within its parent, past any empty boxes (a second icon) and down
    into the boxes beside it (a number in a <span>), hidden_tuning.ICON_BEFORE_DEPTH
    steps each way at most."""
    after = _text_after(el)
    if not after or not after[0].isdigit():
        return False
    before = _text_before(el)
    return before is not None and before[-1:].isdigit()


def _text_after(el: Any) -> str | None:
    """The text piece that starts right after `el`: its tail, else the first piece in the
    boxes after it, an empty box passed over, after the box that holds it if none
    (see between_numbers). Each step across, up or down counts: a nest of boxes beside
    each of a page's icons costs a bounded read."""
    node, steps = el, hidden_tuning.ICON_BEFORE_DEPTH
    while steps > 0:
        if node.tail:
            return str(node.tail)
        nxt, steps = node.getnext(), steps - 1
        if nxt is None:
            # The end of an icon's own box (<span><svg/></span>): on after the box.
            node = node.getparent()
            if node is None:
                return None
            continue
        node = nxt
        # A number in boxes of its own beside the icon (<span><b>12</b></span>) is read
        # where it starts, the boxes' first children down.
        while steps > 0 and isinstance(node.tag, str) and not node.text and len(node):
            node, steps = node[0], steps - 1
        if isinstance(node.tag, str) and node.text:
            return str(node.text)
    return None


def _text_before(el: Any) -> str | None:
    """The text piece that ends right before `el`: its previous sibling's tail, else the
    last piece inside that sibling (a day in its own <span> before a clock icon), read
    down, an empty box passed over (see between_numbers); else its parent's text, or
    what is before the parent when it has none. Bounded as _text_after is."""
    node, steps = el, hidden_tuning.ICON_BEFORE_DEPTH
    while steps > 0:
        prev, steps = node.getprevious(), steps - 1
        if prev is None:
            parent = node.getparent()
            if parent is None or parent.text:
                return parent.text if parent is not None else None
            node = parent  # an icon's own box, empty before it: on before the box
            continue
        if prev.tail:
            return str(prev.tail)
        node = prev
        # A number in boxes of its own before the icon (a day in its <span>) is read
        # where it ends, the boxes' last children down.
        while steps > 0 and isinstance(node.tag, str) and len(node) and not node[-1].tail:
            node, steps = node[-1], steps - 1
        if not isinstance(node.tag, str):
            continue
        if len(node) and node[-1].tail:
            return str(node[-1].tail)
        if not len(node) and node.text:
            return str(node.text)
    return None


def drop_each(elements: list[Any]) -> None:
    """Remove ``elements`` as parse.drop does one by one, each parent's children read once
    and each text set once (one by one, a text grown by each tail is set again each time)."""
    by_parent: dict[Any, set[Any]] = {}
    for el in elements:
        parent = el.getparent()
        if parent is not None:
            by_parent.setdefault(parent, set()).add(el)
    for parent, gone in by_parent.items():
        _drop_children(parent, gone)


def _drop_children(parent: Any, gone: set[Any]) -> None:
    """Remove the children of ``parent`` in ``gone``, their tails joined to the text
    before each (the parent's text, or the tail of the last child kept)."""
    holder: Any = None  # the last child kept: None while the parent's own text takes them
    pieces: list[str] = []
    for child in list(parent):
        if child in gone:
            if child.tail:
                pieces.append(child.tail)
            parent.remove(child)
            continue
        if pieces:
            _join(parent, holder, pieces)
            pieces = []
        holder = child
    if pieces:
        _join(parent, holder, pieces)


def _join(parent: Any, holder: Any, pieces: list[str]) -> None:
    if holder is None:
        parent.text = (parent.text or "") + "".join(pieces)
    else:
        holder.tail = (holder.tail or "") + "".join(pieces)
