"""Documentation pages: the chrome no block's name gives away (web components named as
boilerplate, Google's devsite-* elements; version pickers, boxes of links that all name
versions, trails of links with arrows between them, links that offer to edit the page,
bare steps to the previous and next page), the content the article's rule would drop as
lists of links or as figures (a quickstart's linked steps, one tab a language; an API's
list of types; a titled "See also"; a listing's or a diagram's caption), and the title
and lead of a page whose header box stands beside its body's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import docs_tuning
from wf.extract.kinds.docs_asides import admonition, untable_admonitions
from wf.extract.kinds.docs_chrome import (
    contents,
    cut_foot,
    doxygen_title,
    drop_banners,
    drop_feedback,
    drop_step_links,
    drop_update_stamps,
    unlink_title,
)
from wf.extract.kinds.docs_debris import drop_debris
from wf.extract.kinds.docs_lines import drop_lines
from wf.extract.kinds.docs_links import drop_edit_links
from wf.extract.kinds.docs_signature import (
    grid_tables,
    join_signatures,
    set_classifiers_apart,
    unlist_sections,
)
from wf.extract.kinds.docs_tabs import head_panels
from wf.extract.records import negative

if TYPE_CHECKING:
    from wf.extract.kinds.declared import Declared
    from wf.extract.records import Analysis, BlockRecord


def tidy(root: Any, declared: Declared) -> None:
    """A page that declares itself documentation (or whose path says so) loses its named
    web components before its content is chosen. Only such a page: the search for web
    components costs about half a millisecond a page."""
    kind, why = declared.kind()
    if kind == tuning.DOCUMENTATION:
        doxygen_title(root, why)
        unlink_title(root)
        drop_named_components(root)
        drop_pickers_and_trails(root)
        drop_edit_links(root)
        debris: list[Any] = []
        drop_banners(root, debris)
        drop_update_stamps(root)
        drop_step_links(root)
        drop_feedback(root)
        drop_lines(root)
        drop_debris(root, debris)
        head_panels(root)
        join_signatures(root)
        grid_tables(root)
        unlist_sections(root)
        set_classifiers_apart(root)
        untable_admonitions(root)


def with_title(analysis: Analysis) -> None:
    """The chosen block, or an ancestor of it when the page's title stands there before
    it: a manual's page drawn as a header box (its <h1>, the lead paragraph, a box of
    prerequisites) beside a body box, where the body's prose outscored the header and
    the page lost its title and lead. Only when the body holds no <h1>, the ancestor is
    at most docs_tuning.TITLE_LEVELS up, no boilerplate, and adds a small share of the
    body's text (docs_tuning.TITLE_BOX_SHARE) before it: a page's wrapper holding menus
    beside the body adds more. What follows the body is left out (but its sections:
    docs_chrome.cut_foot), so it is not weighed: a short page's feedback bar and links to
    the next pages outweighed its title."""
    blocks, best = analysis.blocks, analysis.best_index
    chosen = blocks[best]
    if analysis.by_kind or next(chosen.el.iter("h1"), None) is not None:
        return
    path = [chosen]
    after = 0  # the text after the body at each level, left out if the box is taken
    for _ in range(docs_tuning.TITLE_LEVELS):
        if path[-1].parent < 0:
            return
        up = blocks[path[-1].parent]
        if up.boiler or up.tag in ("html", "body"):
            return
        after += _after(blocks, path[-1])
        if up.text - chosen.text - after > docs_tuning.TITLE_BOX_SHARE * chosen.text:
            return
        if any(_holds_h1(el) for el in path[-1].el.itersiblings(preceding=True)):
            break
        path.append(up)
    else:
        return
    for b in path:
        cut_foot(blocks, b)
    wider = blocks[path[-1].parent]
    trace.trace(
        "extract: documentation: the page's <h1> stands before the body, %d level(s) up: "
        "the box around both chosen (%d characters more), what follows the body left out",
        len(path),
        wider.text - chosen.text,
    )
    analysis.best_index = wider.index
    analysis.best = wider.el


def _after(blocks: list[BlockRecord], b: BlockRecord) -> int:
    """The text of the blocks that follow `b` in its parent (what with_title leaves out)."""
    end, j, n = blocks[b.parent].end, b.end, 0
    while j < end:
        n += blocks[j].text
        j = blocks[j].end
    return n


def _holds_h1(el: Any) -> bool:
    return isinstance(el.tag, str) and (el.tag == "h1" or next(el.iter("h1"), None) is not None)


# Elements whose tag names a web component (a hyphen, as the custom elements
# specification requires) and that carry a class or an id to judge.
_COMPONENTS = "//*[contains(local-name(), '-')][@class or @id]"


def drop_named_components(root: Any) -> None:
    """Remove the web components named as boilerplate by their class and id, as a block so
    named is. The block walks judge only the tags they know: a component is looked through,
    so Google's developer sites printed their licence, "Last updated" and feedback boxes
    (`<devsite-content-footer class="nocontent">`). A component that holds more text than a
    widget (docs_tuning.COMPONENT_TEXT_MAX) stays: it may frame the page."""
    from common.xpath import compiled, text_length
    from wf.extract.hidden import drop_each
    from wf.extract.names import negative_words

    length = text_length()
    found = []
    for el in compiled(_COMPONENTS)(root):
        if negative_words(_names(el)) and length(el) <= docs_tuning.COMPONENT_TEXT_MAX:
            found.append(el)
    drop_each(found)  # one by one, 20000 in a row, each with a tail, took 5.7 s


_VERSION = re.compile(rf"\(?(?:{docs_tuning.VERSION_LINK})\)?", re.IGNORECASE)
_VERSION_LABEL = re.compile(docs_tuning.VERSION_LABEL, re.IGNORECASE)
# What stands between a picker's links: slashes, bars, brackets, dots, commas.
_SEPARATORS = re.compile(r"[\s/|()\[\],:·•–—-]+")
# The boxes a picker or a trail is: block elements, never code or a table, in them or
# around them; looked for from its links and its arrows up (docs_tuning.PICKER_LEVELS).
_NOT_PICKERS = ("pre", "code", "table")
_PICKER_TAGS = frozenset(("div", "p", "li", "ul", "ol", "nav", "section", "dl", "dd"))
_ARROWS = re.compile(rf"[\s{docs_tuning.TRAIL_ARROWS}]+")
_ARROW = re.compile(rf"[{docs_tuning.TRAIL_ARROWS}]")
# A link's text longer than this names no version (white space around it included).
_VERSION_TEXT_MAX = 60


def drop_pickers_and_trails(root: Any) -> None:
    """Remove the boxes that pick another version of the manual, and the trails of links
    no name gives away.

    A picker's links all name versions (docs_tuning.VERSION_LINK) and its other text is
    separators, or a label naming versions: the reader has the page's own version, and a
    chapter's page printed "Supported Versions: Current (18) / 17 / 16 / ..." and its
    unsupported versions above the chapter when it was read whole. A trail is two links
    or more with no other text than arrows between them ("Documentation → PostgreSQL
    18"). Neither is in code or a table, nor holds one; the outermost such box goes.
    Looked for from the links that name a version or stand before an arrow, up: a walk
    over every box cost a fifth of a large manual's extraction."""
    from common.xpath import text_length
    from wf.extract.hidden import drop_each

    length = text_length()
    found: dict[Any, None] = {}
    judged: dict[Any, bool] = {}  # a box's verdict: the links of one picker share boxes
    for seed in root.iter("a"):
        if not _seed(seed):
            continue
        outer = None
        for level, el in enumerate((seed, *seed.iterancestors())):
            if level > docs_tuning.PICKER_LEVELS:
                break
            if el.tag not in _PICKER_TAGS:
                continue
            verdict = judged.get(el)
            if verdict is None:
                # Read no further than the bound first: ancestors nested deep would each
                # cost the page's text (a hostile page's chain of boxes).
                size = None if _longer(el, docs_tuning.PICKER_TEXT_MAX) else length(el)
                verdict = (
                    size is not None
                    and size <= docs_tuning.PICKER_TEXT_MAX
                    and (_picker(el) or (size <= docs_tuning.BREADCRUMB_TEXT_MAX and _trail(el)))
                )
                judged[el] = verdict
            if verdict:
                outer = el
        if outer is not None:
            found[outer] = None
    drop_each([el for el in found if not any(a in found for a in el.iterancestors())])


def _longer(el: Any, limit: int) -> bool:
    """Whether an element's text, white space collapsed, is surely over `limit`: its
    characters other than white space (which collapsing keeps, or turns into a space)
    pass it. Reads no further than the part that passes it."""
    n = 0
    for part in el.itertext():
        n += sum(map(len, part.split()))
        if n > limit:
            return True
    return False


def _seed(a: Any) -> bool:
    """Whether a link names a version, or an arrow follows it (in its tail, or in the
    element after it: `<span>›</span>`)."""
    text = (a.text or "") if not len(a) else "".join(a.itertext())
    if len(text) <= _VERSION_TEXT_MAX and _VERSION.fullmatch(text.strip()):
        return True
    after = a.tail
    if not (after and after.strip()):
        following = a.getnext()
        after = following.text if following is not None else None
    return bool(after and _ARROW.search(after))


def _picker(el: Any) -> bool:
    """Whether a box's links all name versions and its other text is a label at most."""
    links = [" ".join("".join(a.itertext()).split()) for a in el.iter("a")]
    if not links or not all(_VERSION.fullmatch(t) for t in links):
        return False
    if _in_code(el):
        return False
    label = _SEPARATORS.sub(" ", _outside_links(el)).strip()
    if not label:
        return len(links) >= docs_tuning.VERSION_LINKS_MIN
    return len(label) <= docs_tuning.PICKER_LABEL_MAX and bool(_VERSION_LABEL.search(label))


def _trail(el: Any) -> bool:
    """Whether a box is links with arrows between them and nothing else."""
    if sum(1 for _ in el.iter("a")) < 2 or _in_code(el):
        return False
    between = _outside_links(el)
    return between.strip() != "" and not _ARROWS.sub("", between)


def _in_code(el: Any) -> bool:
    """Whether a box is in code or a table, or holds one."""
    if any(True for _ in el.iterancestors(*_NOT_PICKERS)):
        return True
    return any(True for _ in el.iterdescendants(*_NOT_PICKERS))


def _outside_links(el: Any) -> str:
    """A box's text outside its links."""
    parts = [el.text or ""]
    for child in el.iterdescendants():
        inside = any(True for _ in child.iterancestors("a"))
        if child.tag != "a" and not inside:
            parts.append(child.text or "")
        if not inside:
            parts.append(child.tail or "")
    return "".join(parts)


# A list's items, kept in a manual whatever share of them is links.
_ITEMS = frozenset(("li", "dt", "dd"))


def prune(el: Any, b: BlockRecord) -> bool:
    """The article's prune, but a documentation page's list items (and a paragraph that
    is one's text), its disclosures' titles, its sections that open with a heading, its
    boxes of tab panels and of code alone stay whatever share of them is links: an API's
    list of types, a method's signature, the steps of a
    quickstart that each link where to do them (one set a language, in tabs), a
    definition list of terms that link their pages, a "See also", a grid of cards each a
    link around a heading (the pages under this one). A manual links every
    other word; its menus are named (nav, sidebar, toc) and go by their names."""
    from wf.extract.names import negative_words
    from wf.extract.prune import link_list
    from wf.extract.prune import prune as article_prune

    if el.tag in _FIGURES and _captioned(el) and not negative_words(_names(el)):
        return False
    if b.card and not b.cut and not negative(b) and (_in_card(el) or _cards(el)):
        return False  # read as a teaser's, a card of the manual's index of its pages
    if not b.cut and admonition(el):
        return False  # a note drawn as an <aside>, and the boxes inside it
    if b.boiler or b.cut or negative(b) or contents(el, b):
        return True
    if link_list(b) and (
        b.tag in _ITEMS
        or _item_text(el)
        or _disclosed(el)
        or _titled(el)
        or _tabbed(el)
        or _figured(el)
        or _cards(el)
        or _in_card(el)
        or _signature(el)
    ):
        return False
    return bool(article_prune(el, b))


def _signature(el: Any) -> bool:
    """Whether a block is one <code> and nothing else: an API's signature, its names
    linked (Javadoc's cell of its table of methods, `<code><a>wind</a>()</code>`)."""
    child = next(iter(el), None)
    if child is None or child.tag != "code" or len(el) > 1 or (el.text or "").strip():
        return False
    return not (child.tail or "").strip()


_FIGURES = ("figure", "figcaption")


def _captioned(el: Any) -> bool:
    """Whether a figure, or its caption, is captioned in words: a manual's listing or
    diagram, which its caption tells ("Listing 9-3: Opening a file")."""
    caption = el if el.tag == "figcaption" else el.find("figcaption")
    if caption is None:
        return False
    return len(" ".join("".join(caption.itertext()).split())) >= docs_tuning.CAPTION_MIN


def _names(el: Any) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''}"


def _figured(el: Any) -> bool:
    """Whether a box holds a figure captioned in words (the walk counts a figure's text
    as links: a row of two diagrams read as a list of links)."""
    return any(_captioned(caption) for caption in el.iter("figcaption"))


def _item_text(el: Any) -> bool:
    """Whether a paragraph is a list item's text (`<li><p><a>Install Python</a>.</p>`)."""
    parent = el.getparent()
    return el.tag == "p" and parent is not None and parent.tag in _ITEMS


def _disclosed(el: Any) -> bool:
    """Whether a block is a disclosure's title (a <summary>, or a box that is one's child),
    which an API reference links word by word: rustdoc's summary of each method, around
    its signature "pub fn share(&self) -> Handle", every type in it a link."""
    parent = el.getparent()
    return el.tag == "summary" or (parent is not None and parent.tag == "summary")


def _tabbed(el: Any) -> bool:
    """Whether a box is or holds a tab panel (ARIA's role="tabpanel"): one set of steps
    or code per language or platform, each a click away, mostly links or not."""
    return el.get("role") == "tabpanel" or next(el.iterfind(_TABPANEL), None) is not None


_TABPANEL = ".//*[@role='tabpanel']"


# Descendants looked at for a box's title: its wrappers' first elements (bounded).
_TITLE_DEPTH = 6


def _titled(el: Any) -> bool:
    """Whether a section or box opens with a heading under h1, maybe inside wrappers."""
    from wf.extract.names import HEADING

    if el.tag not in ("section", "div"):
        return False
    first = el
    for _ in range(_TITLE_DEPTH):
        first = next(iter(first), None)
        if first is None or not isinstance(first.tag, str):
            return False
        if first.tag in HEADING:
            return first.tag != "h1"
        if first.tag != "div" or first.text and first.text.strip():
            return False
    return False


def _cards(el: Any) -> bool:
    """Whether a box is a grid of cards, two or more, each a link titled by a heading:
    a manual's index of the pages under it ("Social login": Apple, GitHub, Google...)."""
    children = [c for c in el if isinstance(c.tag, str)]
    return len(children) >= 2 and all(_card(c) for c in children)


def _in_card(el: Any) -> bool:
    """Whether a block is inside such a card, beside another (the walk reads a card's
    title, all link, as a teaser's): its link, or a box a level or two around it, is a
    card, and so is that box's neighbour."""
    link = None
    for level, up in enumerate(el.iterancestors()):
        if level >= docs_tuning.CARD_DEPTH:
            return False
        if up.tag == "a":
            link = up
            break
    if link is None:
        return False
    box = link
    for _ in range(3):
        if box is None:
            return False
        if _card(box):
            neighbours = (box.getprevious(), box.getnext())
            return any(n is not None and isinstance(n.tag, str) and _card(n) for n in neighbours)
        box = box.getparent()
    return False


_CARD_TITLES = frozenset(("h2", "h3", "h4", "h5", "h6"))


def _card(el: Any) -> bool:
    """Whether a box is a link titled by a heading under h1: its first heading, found
    within docs_tuning.CARD_DEPTH levels and CARD_NODES elements, is in a link inside it
    (or it is one)."""
    level = [el]
    seen = 0
    for _ in range(docs_tuning.CARD_DEPTH):
        deeper: list[Any] = []
        for node in level:
            seen += 1
            if seen > docs_tuning.CARD_NODES:
                return False
            if node.tag in _CARD_TITLES:
                return _linked_within(node, el)
            deeper.extend(c for c in node if isinstance(c.tag, str))
        level = deeper
    return False


def _linked_within(heading: Any, box: Any) -> bool:
    """Whether a heading is inside a link that is `box` or inside it."""
    if heading is box:
        return False
    for up in heading.iterancestors():
        if up.tag == "a":
            return True
        if up is box:
            return False
    return False
