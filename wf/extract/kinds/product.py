"""A product page: name, price and availability, the description, the specifications.

Its declaration (JSON-LD Product and Offer) gives the name, price and availability even
when the visible page builds them with scripts: they are printed first, each once, unless
the chosen text says them already. The description declared is the anchor of the kind's
own rule: the block of the page that shows its first words, grown to the ancestors that
add text with few links (the specifications around the description, not the
recommendations beside it), is the content whenever it is found; the article rule's
choice stands only when it is not (reviews, a notice or a carousel outscore a short
description).

A box named only as a landing page's part (landing_prune.part(): a banner, a picture, a
gallery or a carousel with prose of its own, not mostly links) is one of the product's
sections, as on a landing page: shops lay out the product's features so. A choice that
prints too little of the page is widened by product_widen.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

from common import trace
from common.xpath import text_start, text_upto
from wf.extract import tuning
from wf.extract.kinds import product_tuning
from wf.extract.kinds.landing_prune import part
from wf.extract.kinds.product_boxes import named_apart, tab_titles
from wf.extract.names import named_by
from wf.extract.records import negative
from wf.extract.widen import grow_thin

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord

ANCHOR_CHARS = 40  # the description's first characters looked for in the page
ANCHOR_MIN = 20  # a shorter description anchors nothing
_REVIEWS = re.compile(tuning.PRODUCT_REVIEWS)
_COMPARED = re.compile(tuning.PRODUCT_COMPARED)
_SHOP = re.compile(product_tuning.SHOP_ASIDE)
_STICKY = re.compile(product_tuning.STICKY)


def norm(text: str) -> str:
    """`text` with its white space collapsed, in lower case: how names and descriptions
    are compared with the page's text."""
    return " ".join(text.split()).lower()


def _anchor(body: Any, description: str) -> Any:
    """The element whose own text starts the declared description, or None."""
    want = norm(description)[:ANCHOR_CHARS]
    if len(want) < ANCHOR_MIN:
        return None
    for el in body.iter():
        text = el.text
        if text and len(text) >= ANCHOR_MIN and want in norm(text):
            return el
    return None


def _heading(body: Any, name: str) -> Any:
    """The <h1> that shows the declared name (or the only <h1>), or None."""
    headings = list(body.iter("h1"))
    want = norm(name)
    for h in headings:
        if want and want in norm("".join(h.itertext())):
            return h
    return headings[0] if len(headings) == 1 else None


def heading_boxes(body: Any) -> frozenset[Any]:
    """The boxes around a product page's only <h1>, which the article rule walks and reads
    as content whatever their names say: shops set the product's title, price and selling
    points in a column named for its place on the screen (`sidebar`, `sticky`), a name
    that marks boilerplate elsewhere. A page with two <h1> (a copy of the title in a
    sticky bar) keeps its names."""
    found = None
    for n, h in enumerate(body.iter("h1")):
        if n:
            return frozenset()
        found = h
    return frozenset(found.iterancestors()) if found is not None else frozenset()


def choose(body: Any, analysis: Analysis, declared: dict[str, str]) -> Analysis:
    """The description's region, or the article rule's `analysis` when the page does not
    show the declared description."""
    from wf.extract.names import BLOCK

    el = _anchor(body, declared.get("description", ""))
    what = "declared description"
    if el is None:
        el, what = _heading(body, declared.get("name", "")), "product's heading"
    if el is None:
        trace.trace("extract: product: neither the declared description nor a heading shown")
        return analysis
    while el is not None and el.tag not in BLOCK:
        el = el.getparent()
    records = {b.el: b for b in analysis.blocks}
    record = records.get(el)
    if record is None:
        return analysis
    # The ancestors that add text but few links: the same rule that widens a thin choice.
    index = grow_thin(analysis.blocks, record.index)
    trace.trace("extract: product: the %s's region <%s> taken", what, analysis.blocks[index].tag)
    # by_kind stays False: a region under THIN_PROSE still widens to the page without its
    # named boilerplate (on wceb's product pages that keeps more than it costs).
    analysis.best, analysis.best_index = analysis.blocks[index].el, index
    return analysis


_DETAILS = re.compile(product_tuning.DETAILS_NAMES)
_FACTS = re.compile(product_tuning.FACTS_NAMES)


def details_named(el: Any) -> bool:
    """Whether a box is named for the product's details (product_tuning.DETAILS_NAMES),
    but a `meta` box that names an author: a review's byline on a page that declares the
    product it reviews is a byline as it is on any article (bylined)."""
    return named_by(el, _DETAILS) and not (named_by(el, _FACTS) and bylined(el))


def bylined(el: Any) -> bool:
    """Whether a box names an author (rel or itemprop `author`, a link to an author's
    page) in its first product_tuning.BYLINE_READ elements: a box of a product's facts
    names its maker, never so (a nest of such boxes costs a bounded read each)."""
    for x in islice(el.iter(), product_tuning.BYLINE_READ):
        if not isinstance(x.tag, str):
            continue
        if "author" in f"{x.get('rel') or ''} {x.get('itemprop') or ''}".lower().split():
            return True
        if "/author/" in (x.get("href") or "").lower():
            return True
    return False


_POLICY = re.compile(tuning.PRODUCT_POLICY_TITLE, re.IGNORECASE)
_LABEL = re.compile(tuning.PRODUCT_POLICY_LABEL)
LABEL_TAGS = frozenset(("summary", "dt", "legend", "b", "strong", "h2", "h3", "h4", "h5", "h6"))
_BOLD = frozenset(("b", "strong"))


def short_text(el: Any) -> str | None:
    """The text of `el` when it is short enough to be a section's title, else None."""
    pieces, over = text_upto(el, tuning.PRODUCT_POLICY_TITLE_MAX)
    return None if over else " ".join("".join(pieces).split())


def titles(el: Any) -> bool:
    """Whether `el` reads as a section's title: a <summary>, a heading, a box named as an
    accordion's or a tab's title, a paragraph in bold."""
    if el.tag in LABEL_TAGS:
        return True
    if len(el) == 1 and el[0].tag in _BOLD and not (el.text or "").strip():
        return True
    return named_by(el, _LABEL)


def policy(el: Any, b: BlockRecord) -> bool:
    """Whether a block is a section of the shop's policies: its first child is a title
    that names shipping, delivery or returns and nothing else, and the section is short.
    The same text stands on every product of the shop (an accordion's "Delivery &
    Returns" under the description)."""
    if b.text > tuning.PRODUCT_POLICY_MAX or len(el) < 2 or (el.text or "").strip():
        return False  # a title and what it titles, two children at least
    first = next((c for c in el if isinstance(c.tag, str)), None)
    if first is None:
        return False
    # The title's words first: they rule out nearly every block, and cost least.
    title = short_text(first)
    if not title or len(title) >= b.text or not _POLICY.fullmatch(title):
        return False
    return titles(first)


_HIDDEN_CLASS = re.compile(tuning.PRODUCT_HIDDEN_CLASS)
HIDDEN_ITEMS_MAX = 50  # hidden items looked past for a shown one before them


def hidden(el: Any) -> bool:
    """Whether a box's class hides it on every screen (tuning.PRODUCT_HIDDEN_CLASS),
    unless it is one more of the items shown before it (a list's items past "Show more",
    the rest of a page's questions and answers). A box whose id names it apart from the
    shown one's (named_apart: Amazon's `atwl-dd-error-holder` after its shown
    `add-to-wishlist-button`, both `a-section`) is a message waiting for its moment (an
    error, a spinner), not a list's next item."""
    cls = el.get("class")
    if not cls or ":" in cls or _HIDDEN_CLASS.search(cls) is None:
        return False
    like = _HIDDEN_CLASS.sub(" ", cls).split()
    prev = el.getprevious()
    for _ in range(HIDDEN_ITEMS_MAX):
        if prev is None or prev.tag != el.tag:
            return True
        other = prev.get("class") or ""
        if _HIDDEN_CLASS.search(other) is None:
            return other.split() != like or named_apart(el, prev)
        if _HIDDEN_CLASS.sub(" ", other).split() != like:
            return True
        prev = prev.getprevious()
    return True


def aside(el: Any, b: BlockRecord) -> bool:
    """What a product's text leaves out wherever it stands: the shop's policies, the
    boxes a class hides, those that compare other products with this one, the shop's
    services named so (product_tuning.SHOP_ASIDE: the size chart, the loyalty points,
    the chat, pay later, the options to pick, the bundles, the ways to have it delivered
    or to pay, the buyer's protections), a tab list's titles (tab_titles: "Description",
    "Additional information", "Reviews (0)"), the purchase form and a variant's picker."""
    return (
        policy(el, b)
        or hidden(el)
        or named_by(el, _COMPARED)
        or named_by(el, _SHOP)
        or tab_titles(el, b)
        or purchase_form(el, b)
        or picker(b)
        or overlay(el)
        or identifiers(el, b)
    )


_IDENTIFIER = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def identifiers(el: Any, b: BlockRecord) -> bool:
    """Whether a block's text is mostly identifiers (UUIDs) no reader is shown: a shop
    writes them among the letters of a word ("Sponsored") that its style sheet spells out
    of a few of them, so that a copy of the text reads as noise. The first
    product_tuning.IDENTIFIERS_READ characters are read: blocks nest, and each is read
    once."""
    if b.text < product_tuning.IDENTIFIERS_MIN or b.own < b.text:
        return False  # a box of blocks: its own blocks are judged each
    text = text_start(el, product_tuning.IDENTIFIERS_READ)
    found = sum(len(m) for m in _IDENTIFIER.findall(text))
    return found >= product_tuning.IDENTIFIERS_SHARE * len("".join(text.split()))


def sticky_bar(el: Any, b: BlockRecord, title_boxes: frozenset[Any]) -> bool:
    """Whether a block is the bar a shop pins to the screen's edge, repeating the name,
    price and button: named `sticky`, under product_tuning.STICKY_MAX characters, and
    not around the page's only <h1> (`title_boxes`, heading_boxes(): a sticky column
    that holds the product's title is its content; a bar's copy of the title is a second
    <h1>)."""
    return b.text < product_tuning.STICKY_MAX and el not in title_boxes and named_by(el, _STICKY)


def overlay(el: Any) -> bool:
    """Whether a box is drawn over the whole screen (its class has every token of
    product_tuning.OVERLAY: Tailwind's `fixed inset-0`): a dialog the shop opens on a
    click (notify me when back in stock, the size guide, the cart, its policies), whose
    text the page carries shown until a script hides it."""
    cls = el.get("class")
    return bool(cls) and set(cls.split()) >= product_tuning.OVERLAY


def picker(b: BlockRecord) -> bool:
    """Whether a block is a <fieldset> of under product_tuning.PICKER_MAX characters: a
    variant's picker (its legend, "Colour", over the swatches to choose from) set
    outside a purchase form. Its choices are controls the cleaning drops: the legend
    alone is left, over nothing."""
    return b.tag == "fieldset" and b.text < product_tuning.PICKER_MAX


def purchase_form(el: Any, b: BlockRecord) -> bool:
    """Whether a block is the product's purchase form: a <form> of under
    product_tuning.PURCHASE_FORM_MAX characters that holds no <h1> (the variants to pick
    from, each with its price; the quantity; add to cart). What the product is, its name
    and its price, stand beside it, and the declaration says them too."""
    if b.tag != "form" or b.text >= product_tuning.PURCHASE_FORM_MAX:
        return False
    return next(el.iter("h1"), None) is None  # forms do not nest: each form read once


# What a picture's <figure> holds beside (or for) its picture: the cleaning drops <img>.
_PICTURED = frozenset(
    ("figcaption", "img", "picture", "video", "svg", "canvas", "iframe", "object", "embed")
)


def stat(el: Any, b: BlockRecord) -> bool:
    """Whether a block is a <figure> of text alone, under product_tuning.STAT_MAX
    characters, without a caption: a figure a shop sets in words ("1600 nits peak HDR
    brightness", "Up to 50% faster"), one of the product's specifications, where a
    figure is elsewhere a picture and its caption. The first product_tuning.STAT_SCAN
    elements are read."""
    if b.tag != "figure" or not 0 < b.text <= product_tuning.STAT_MAX:
        return False
    return not any(sub.tag in _PICTURED for sub in islice(el.iter(), product_tuning.STAT_SCAN))


def sections(analysis: Analysis) -> None:
    """The boxes beside the chosen one that the article rule cut when it took in their
    parent (widen.merge_siblings: siblings that score under a fifth of the chosen text)
    are the product's sections, kept as every other box of the region is: its outline,
    its specifications, its list of contents score little as prose beside a description,
    and stand beside it all the same. The region's pruning still reads each."""
    for b in analysis.blocks:
        b.cut = False


def pruning(
    prune: Callable[[Any, BlockRecord], bool], title_boxes: frozenset[Any]
) -> Callable[[Any, BlockRecord], bool]:
    """`prune` but for the page's parts (landing_prune.part()) and the boxes named for the
    product's details (product_tuning.DETAILS_NAMES: a dialog the page opens over the
    product, `product-details-modal`, holds its description and measurements), and the
    sections of the shop's policies, the boxes a class hides and those that compare other
    products with this one, the shop's services and its sticky bar (sticky_bar, with the
    boxes around the page's only <h1>, `title_boxes`)."""

    def product_prune(el: Any, b: BlockRecord) -> bool:
        if prune(el, b) and not part(b) and not details_named(el) and not stat(el, b):
            return True
        return aside(el, b) or sticky_bar(el, b, title_boxes)

    return product_prune


def reviewed(el: Any) -> bool:
    """Whether a box is named for the product's reviews (or a reviews service's widget)."""
    return named_by(el, _REVIEWS)


def wide_pruning(title_boxes: frozenset[Any]) -> Callable[[Any, BlockRecord], bool]:
    """A thin region read as the page without its named boilerplate (but the boxes named
    for the product's details, as in pruning()): the customers' reviews go too (inside
    the region they stay: a critic's review, an editor's verdict and a game's press
    quotes are part of some products' own text), and the sticky bar as in pruning()."""

    def prune_wide(el: Any, b: BlockRecord) -> bool:
        if negative(b) and not part(b) and not details_named(el) and not stat(el, b):
            return True
        return reviewed(el) or aside(el, b) or sticky_bar(el, b, title_boxes)

    return prune_wide
