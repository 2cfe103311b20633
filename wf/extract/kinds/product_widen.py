"""A product's choice widened when it prints too little (second_opinion: under
tuning.PRODUCT_TEXT_SHARE of the text outside links that the page prints without its
named boilerplate, reviews and policies), to the nearest box around it that prints that
share, or to an <article> inside that box that prints it alone, else to the page (moved
from product.py, which was at the 500-line limit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds.landing_prune import part, unwalked_links
from wf.extract.kinds.product import aside, reviewed
from wf.extract.records import negative

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord


def _outside_links(
    blocks: list[BlockRecord], start: int, end: int, drop: Callable[[BlockRecord], bool]
) -> int:
    """Characters of text outside links in blocks[start:end], leaving out the outermost
    blocks `drop` takes."""
    text, i = 0, start
    while i < end:
        b = blocks[i]
        if drop(b):
            i = b.end
            continue
        text += _own_prose(b)
        i += 1
    return text


MEASURE_MIN = 200  # characters: a smaller box is only looked at for its names


def _left_out(b: BlockRecord) -> bool:
    """Whether the page read whole leaves a block out, as wide_pruning() says (but its
    sticky bar, a few characters)."""
    if b.index == 0 or not b.text:
        return False
    if negative(b):
        return not part(b)  # a banner, picture or gallery with prose: a section
    return b.text >= MEASURE_MIN and (reviewed(b.el) or aside(b.el, b))


def second_opinion(analysis: Analysis, prune: Callable[[Any, BlockRecord], bool]) -> bool:
    """Whether the product's choice is to be widened (and read without its named
    boilerplate, its reviews and its policies), the analysis then saying to what: when
    the choice prints under tuning.PRODUCT_TEXT_SHARE of the text outside links that the
    page read so prints, to the nearest box around it that prints that share, else to
    the page. A product told in sections (the description, then what it is made of, how
    to use it, its questions and answers) is chosen by its longest one; the box that
    holds them leaves out the strips above and below it that no name marks. An <article>
    inside the box (or the page) that prints the share alone is taken instead (_article)."""
    blocks, best = analysis.blocks, analysis.best_index
    if best <= 0 or analysis.by_kind:
        return False
    chosen = blocks[best]
    shown = _outside_links(blocks, best, chosen.end, lambda b: b is not chosen and prune(b.el, b))
    # Boxes of reviews or policies under MEASURE_MIN characters change the share little
    # and are most of the blocks: only named boilerplate is looked for in them.
    page = _outside_links(blocks, 0, len(blocks), _left_out)
    if shown >= tuning.PRODUCT_TEXT_SHARE * page:
        return False
    trace.trace(
        "extract: product: the choice prints %d of the %d characters the page prints without "
        "its named boilerplate, under %.0f%%: widened, without it",
        shown,
        page,
        100 * tuning.PRODUCT_TEXT_SHARE,
    )
    index = _holding(blocks, best, tuning.PRODUCT_TEXT_SHARE * page)
    article = _article(blocks, index, tuning.PRODUCT_TEXT_SHARE * page)
    if article > 0:
        trace.trace(
            "extract: product: an <article> inside the box <%s> that holds that share "
            "prints it alone: taken",
            blocks[index].tag,
        )
        index = article
    elif index > 0:
        trace.trace("extract: product: its box <%s> holds that share: taken", blocks[index].tag)
    if index > 0:
        analysis.best, analysis.best_index = blocks[index].el, index
        return True
    analysis.best, analysis.best_index = None, -1
    return True


def _holding(blocks: list[BlockRecord], index: int, enough: float) -> int:
    """The nearest box around blocks[index] that prints `enough` characters outside
    links, read without its named boilerplate, reviews and policies; 0 for the page.
    Each box adds its own text and its other children's to the sum: every block is
    measured once, however deep the region."""
    inner = blocks[index]
    total = _prints(blocks, index)
    i = inner.parent
    while i > 0:
        box = blocks[i]
        if box.tag in ("html", "body"):
            return 0
        total += _own_prose(box)
        j = i + 1
        while j < box.end:
            child = blocks[j]
            if child is not inner:
                total += _outside_links(blocks, j, child.end, _left_out)
            j = child.end
        if total >= enough:
            return i
        inner, i = box, box.parent
    return 0


def _prints(blocks: list[BlockRecord], index: int) -> int:
    """Characters outside links that blocks[index] prints, read without its named
    boilerplate, reviews and policies (_left_out), whatever its own name says."""
    box = blocks[index]
    return _outside_links(blocks, index, box.end, lambda b: b is not box and _left_out(b))


def _article(blocks: list[BlockRecord], box: int, enough: float) -> int:
    """The first <article> inside blocks[box] (0: the page) that prints `enough`
    characters outside links on its own, read without its named boilerplate, reviews and
    policies; else -1. A shop that writes the product's long description as an article
    says where it is: the box that holds it also holds the shop's own prose (its staff,
    its guides). An article named as a review or as boilerplate (a customer's review
    written as one), or inside a box so named (the reviews' list, the related posts),
    is none of it: the share is of what the page prints without them, which such an
    article can pass alone. A box so named and an article that falls short are passed
    over with the articles inside them: each block is read once."""
    i, end = box + 1, blocks[box].end
    while i < end:
        inner = blocks[i]
        if _left_out(inner):
            i = inner.end
        elif inner.tag != "article":
            i += 1
        elif _prints(blocks, i) >= enough:
            return i
        else:
            i = inner.end
    return -1


def _own_prose(b: BlockRecord) -> int:
    """A block's own text outside links; a part the walk did not enter (its records count
    all of its text as links) has its links read."""
    if b.last is None and part(b):
        return b.own - unwalked_links(b.el, b.own)
    return b.own - b.own_link
