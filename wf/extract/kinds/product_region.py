"""A product's region once chosen: moved to the box of the sections it is one of
(sectioned), or read whole when it is the page's <main> and its names would prune most of
it (names_misread, unpruned), and written without the titles of its accordions that
title nothing (without_lone_titles): wf/extract/kinds/product.py chose it."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract.kinds import listing, product_tuning
from wf.extract.kinds.product import LABEL_TAGS, aside, bylined, short_text, titles
from wf.extract.names import named_by

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord


def names_misread(analysis: Analysis, prune: Callable[[Any, BlockRecord], bool]) -> bool:
    """Whether the page's <main>, the chosen region or the nearest box around it so
    named, holding product_tuning.MAIN_SHARE of the page's text or more, is one that
    `prune` would cut to under product_tuning.MAIN_KEPT of its text: a marketplace's item
    page names each of its modules (the seller's card, the shipping and returns, the
    item's specifics, the buyer's protections) as such boxes are named where they are
    boilerplate, and its <main> says where its own text is. Its grids of cards aside
    (listing.grids: other products, each a card with its link), `prune` must also cut
    more than product_tuning.MAIN_REST_KEPT of the rest: a shop whose names cut its grid
    of other products ("related-products") and keep its short summary is pruned by its
    names. The <main> is then the choice, read whole (unpruned)."""
    index = analysis.best_index
    if index <= 0:
        return False
    blocks = analysis.blocks
    while index > 0 and blocks[index].tag != "main":
        index = blocks[index].parent
    if index <= 0:
        return False
    region = blocks[index]
    if region.text < product_tuning.MAIN_SHARE * blocks[0].text:
        return False
    kept, weighed, grid_kept, grid_text = _weighed(blocks, index, prune)
    if kept >= product_tuning.MAIN_KEPT * weighed:
        return False
    if kept - grid_kept >= product_tuning.MAIN_REST_KEPT * (weighed - grid_text):
        trace.trace(
            "extract: product: its names cut the grids of cards in the page's <main> "
            "(%d characters) and keep %d of the %d characters of the rest: pruned by names",
            grid_text,
            kept - grid_kept,
            weighed - grid_text,
        )
        return False
    trace.trace(
        "extract: product: its names would keep %d of the %d characters of the page's "
        "<main>, under %.0f%%: read whole",
        kept,
        weighed,
        100 * product_tuning.MAIN_KEPT,
    )
    analysis.best, analysis.best_index = region.el, index
    return True


def _weighed(
    blocks: list[BlockRecord], index: int, prune: Callable[[Any, BlockRecord], bool]
) -> tuple[int, int, int, int]:
    """What `prune` keeps of the box blocks[index] and what is weighed of it (its text but
    for what the product's own rules leave out either way, aside: a box a class hides,
    the policies), then the same of the grids of cards in it (listing.grids), pruned or
    not. Each block is read once, those of pruned boxes only for the grids in them."""
    region = blocks[index]
    grids = listing.grids(blocks, index + 1, region.end)
    kept, weighed, grid_kept, grid_text = region.own, region.text, 0, 0
    i, pruned, grid_end = index + 1, index + 1, index + 1
    while i < region.end:
        b = blocks[i]
        if i >= grid_end and i in grids:
            grid_text, grid_end = grid_text + b.text, b.end
        if i < pruned:
            i += 1
        elif aside(b.el, b):
            weighed -= b.text
            grid_text -= b.text if i < grid_end else 0
            i = b.end
        elif prune(b.el, b):
            pruned, i = b.end, i + 1
        else:
            kept += b.own
            grid_kept += b.own if i < grid_end else 0
            i += 1
    return kept, weighed, grid_kept, grid_text


def sectioned(analysis: Analysis) -> bool:
    """Whether the choice is one of the product's sections, each under its <h2> (the
    description, the reviews, the content rating, the system requirements), set side by
    side in a box of product_tuning.SECTIONS_MIN of them or more: the box, found within
    product_tuning.SECTIONS_UP blocks above the choice and holding under MAIN_SHARE of
    the page's text (not the page's layout), is then the choice. Each box's first
    product_tuning.SECTIONS_READ children are read, each to SECTIONS_DEPTH levels."""
    blocks, index = analysis.blocks, analysis.best_index
    if index <= 0:
        return False
    i = blocks[index].parent
    for _ in range(product_tuning.SECTIONS_UP):
        if i <= 0 or blocks[i].tag in ("body", "html"):
            return False
        box = blocks[i]
        children = islice(box.el.iterchildren(), product_tuning.SECTIONS_READ)
        if sum(_headed(c) for c in children) >= product_tuning.SECTIONS_MIN:
            if box.text >= product_tuning.MAIN_SHARE * blocks[0].text:
                return False
            trace.trace(
                "extract: product: the choice is one of the sections of <%s>: taken", box.tag
            )
            analysis.best, analysis.best_index = box.el, i
            return True
        i = box.parent
    return False


_FACTS = re.compile(product_tuning.FACTS_NAMES)


def with_facts(analysis: Analysis) -> bool:
    """Whether a box beside the choice is named for the product's facts
    (product_tuning.FACTS_NAMES, `meta`): a column of its genre, maker, features and
    languages set beside the column of its description. The box that holds both, when it
    holds under MAIN_SHARE of the page's text (not the page's layout), is then the choice.
    Its first product_tuning.SECTIONS_READ children are read."""
    blocks, index = analysis.blocks, analysis.best_index
    if index <= 0:
        return False
    up = blocks[index].parent
    if up <= 0 or blocks[up].tag in ("body", "html"):
        return False
    box = blocks[up]
    if box.text >= product_tuning.MAIN_SHARE * blocks[0].text:
        return False
    chosen = blocks[index].el
    for child in islice(box.el.iterchildren(), product_tuning.SECTIONS_READ):
        if child is chosen or not isinstance(child.tag, str):
            continue
        if named_by(child, _FACTS) and not bylined(child):
            trace.trace(
                "extract: product: a box of its facts beside the choice: <%s> taken", box.tag
            )
            analysis.best, analysis.best_index = box.el, up
            return True
    return False


def _headed(el: Any) -> bool:
    """Whether a box opens with an <h2>: its first element, or that one's first, down to
    product_tuning.SECTIONS_DEPTH levels (of product_tuning.SECTIONS_READ nodes each)."""
    for _ in range(product_tuning.SECTIONS_DEPTH):
        if not isinstance(el.tag, str):
            return False
        nodes = islice(el.iterchildren(), product_tuning.SECTIONS_READ)
        first = next((c for c in nodes if isinstance(c.tag, str)), None)
        if first is None:
            return False
        if first.tag == "h2":
            return True
        el = first
    return False


def unpruned(el: Any, b: BlockRecord) -> bool:
    """The pruning of a region read whole (names_misread): the siblings the choice cut
    and what the product's own rules leave out wherever it stands (aside) go."""
    return b.cut or aside(el, b)


_OTHERS = re.compile(product_tuning.OTHERS_TITLE, re.IGNORECASE)
_ITEM = re.compile(product_tuning.PANEL_ITEM)


def title_alone(el: Any, b: BlockRecord) -> bool:
    """Whether a block is an accordion's or a tab's item (a <details>, or a box so named:
    product_tuning.PANEL_ITEM) that shows its title alone: its first child reads as a
    section's title (product.titles: a heading, a <summary>, a box named as a title or a
    toggle) and the rest of the item, its panel, holds no text (a script fills it when
    opened: the shipping's terms, the reviews' widget; or the cleaning dropped what it
    held). The title titles nothing; but the title of the shop's other products
    ("Recently viewed", product_tuning.OTHERS_TITLE), where the product's text ends
    (product_text.before_others), stays. The panel's first product_tuning.PANEL_READ
    pieces of text are read: a hostile panel of a million empty boxes costs no more."""
    if len(el) < 2 or (el.text or "").strip() or el.tag in LABEL_TAGS:
        return False  # a <summary>, a heading or a title's box is the title, not its item
    if el.tag != "details" and not named_by(el, _ITEM):
        return False
    first = next((c for c in el if isinstance(c.tag, str)), None)
    if first is None or first is el[-1] or (first.tail or "").strip():
        return False  # a title and a panel, two children at least
    title = short_text(first)
    if not title or _OTHERS.fullmatch(title) or not titles(first):
        return False  # the title of the shop's other products ends the product's text
    rest = (
        piece
        for c in islice(first.itersiblings(), product_tuning.PANEL_READ)
        for piece in c.itertext()
    )
    pieces = list(islice(rest, product_tuning.PANEL_READ + 1))
    return len(pieces) <= product_tuning.PANEL_READ and not any(p.strip() for p in pieces)


def without_lone_titles(
    prune: Callable[[Any, BlockRecord], bool],
) -> Callable[[Any, BlockRecord], bool]:
    """`prune`, and the items of accordions and tabs that show their title alone
    (title_alone): for the writing only, once the region is chosen and measured (a few
    titles fewer tipped the choice's share of the page, product_widen.second_opinion)."""

    def prune_titles(el: Any, b: BlockRecord) -> bool:
        return prune(el, b) or title_alone(el, b)

    return prune_titles
