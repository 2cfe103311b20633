"""A landing or service page: its sections in order, without navigation and footer.

Such a page spreads its prose over sections of about equal weight (what we do, how, for
whom, prices), so the article rule chooses one of them. The second opinion, on a page that
declares no article, thread, product or listing (or declares a landing page: a Service, an
FAQPage): when the chosen block holds under tuning.LANDING_SHARE of the page's prose, the
page is read whole without its named boilerplate (navigation, footers, menus, sidebars)
instead, which keeps every section in page order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common import trace
from wf.extract import tuning

if TYPE_CHECKING:
    from wf.extract.blocks import Analysis


def second_opinion(analysis: Analysis) -> bool:
    """Whether the page is a landing page to read whole (the analysis then says so)."""
    best = analysis.best_index
    if best < 0 or analysis.by_kind or analysis.kind not in (None, tuning.LANDING):
        return False
    chosen, page = analysis.blocks[best].good, analysis.blocks[0].raw
    if chosen >= tuning.LANDING_SHARE * page:
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
