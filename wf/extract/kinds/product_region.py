"""A product's region once chosen: moved to the box of the sections it is one of
(sectioned), or read whole when it is the page's <main> and its names would prune most of
it (names_misread, unpruned): wf/extract/kinds/product.py chose it."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract.kinds import product_tuning
from wf.extract.kinds.product import aside, bylined
from wf.extract.names import named_by

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord


def names_misread(analysis: Analysis, prune: Callable[[Any, BlockRecord], bool]) -> bool:
    """Whether the page's <main>, the chosen region or the nearest box around it so
    named, holding product_tuning.MAIN_SHARE of the page's text or more, is one that
    `prune` would cut to under product_tuning.MAIN_KEPT of its text: a marketplace's item
    page names each of its modules (the seller's card, the shipping and returns, the
    item's specifics, the buyer's protections) as such boxes are named where they are
    boilerplate, and its <main> says where its own text is. The <main> is then the choice,
    read whole (unpruned). Each block is read once."""
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
    # What the product's own rules leave out (aside: a box a class hides, the policies)
    # goes either way: only the rest is weighed.
    kept, weighed, i = region.own, region.text, index + 1
    while i < region.end:
        b = blocks[i]
        if aside(b.el, b):
            weighed -= b.text
            i = b.end
        elif prune(b.el, b):
            i = b.end
        else:
            kept += b.own
            i += 1
    if kept >= product_tuning.MAIN_KEPT * weighed:
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
