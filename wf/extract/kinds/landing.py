"""A landing or service page: its sections in order, without navigation and footer.

Such a page spreads its prose over sections of about equal weight (what we do, how, for
whom, prices), so the article rule chooses one of them. The second opinion, on a page that
declares no article, thread, product or listing (or declares a landing page: a Service, an
FAQPage): when the chosen block holds under tuning.LANDING_SHARE of the page's prose and
other boxes beside it or its ancestors hold prose of a like weight (LANDING_SECTIONS of
them, LANDING_SECTION_SHARE of its prose each, most of it outside list items: sections,
not a news ticker), the page
is read whole without its named boilerplate (navigation, footers, menus, sidebars)
instead, which keeps every section in page order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common import trace
from wf.extract import tuning

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord


def _feed(blocks: list[BlockRecord], box: BlockRecord) -> bool:
    """Whether most of a box's prose is in list items: a feed or a ticker, not a section."""
    items = 0.0
    for b in blocks[box.index + 1 : box.end]:
        if b.text != b.own or not b.good:
            continue  # the prose is counted where it is: in blocks without blocks
        i = b.index
        while i > box.index and blocks[i].tag != "li":
            i = blocks[i].parent
        if i > box.index:
            items += b.good
    return items * 2 > box.good


def _sections(blocks: list[BlockRecord], best: int) -> int:
    """How many boxes beside the choice and beside each of its ancestors hold prose of a
    weight like the choice's (tuning.LANDING_SECTION_SHARE of it), lists of items aside."""
    floor = tuning.LANDING_SECTION_SHARE * blocks[best].good
    count = 0
    cur = blocks[best]
    while cur.parent >= 0:
        parent = blocks[cur.parent]
        j = parent.index + 1
        while j < parent.end:  # child by child, over their subtrees
            child = blocks[j]
            j = child.end
            if child is not cur and child.good >= floor and not _feed(blocks, child):
                count += 1
        cur = parent
    return count


def second_opinion(analysis: Analysis) -> bool:
    """Whether the page is a landing page to read whole (the analysis then says so)."""
    best = analysis.best_index
    if best < 0 or analysis.by_kind or analysis.kind not in (None, tuning.LANDING):
        return False
    chosen, page = analysis.blocks[best].good, analysis.blocks[0].raw
    if chosen >= tuning.LANDING_SHARE * page:
        return False
    if _sections(analysis.blocks, best) < tuning.LANDING_SECTIONS:
        return False
    trace.trace(
        "extract: landing: the choice holds %d of the page's %d characters of prose, under "
        "%.0f%%: the page's sections in order, without its named boilerplate",
        chosen,
        page,
        100 * tuning.LANDING_SHARE,
    )
    analysis.best, analysis.best_index = None, -1
    analysis.kind = tuning.LANDING
    return True
