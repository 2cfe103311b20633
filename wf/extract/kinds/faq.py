"""A landing page whose questions and answers the article rule chose: the page is read
whole, the FAQ one of its sections (split from landing.py, whose helpers it uses)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from common import trace
from wf.extract import tuning
from wf.extract.kinds import landing_tuning
from wf.extract.kinds.landing import characters

if TYPE_CHECKING:
    from wf.extract.records import Analysis

_FAQ = re.compile(landing_tuning.LANDING_FAQ)


def chosen(analysis: Analysis, declared: str | None) -> bool:
    """Whether the choice is a landing page's questions and answers (the analysis then
    reads the page whole, as landing.second_opinion does).

    A service page's FAQ is its longest run of prose, so the article rule chooses it over
    the sections above it, whose text is cards, lists and short lines. When the chosen box,
    or a box inside it that holds most of its prose, is named for questions or as an
    accordion (landing_tuning.LANDING_FAQ) on a page that declares no kind (a listing that the
    structure shows is the FAQ's items), and the page prints landing_tuning.LANDING_TEXT_LEFT
    characters of text outside links beside it without its named boilerplate, the FAQ is
    one section: the page is read whole.

    The same on a page declared a landing page (an FAQPage, a Service) when it prints
    that many characters beside the FAQ, links included: a category's page whose
    sub-categories, lists of links under their headings, are its content and the FAQ
    under them one section. Where the FAQ is all the page says (an FAQ page), nothing is
    left beside it."""
    from wf.extract.names import named_by
    from wf.extract.records import negative

    best = analysis.best_index
    if best < 0 or analysis.by_kind or analysis.best is None:
        return False
    if declared not in (None, tuning.LANDING) or analysis.kind == tuning.DOCUMENTATION:
        return False
    blocks = analysis.blocks
    half = 0.5 * blocks[best].good
    # The choice, or a box inside it that holds most of its prose (the FAQ's list under
    # the section's heading): only boxes of that weight are looked at, a chain of a few.
    if not any(b.good >= half and named_by(b.el, _FAQ) for b in blocks[best : blocks[best].end]):
        return False
    end = blocks[best].end
    links = declared is not None
    left = characters(blocks, 1, best, negative, links=links)
    left += characters(blocks, end, len(blocks), negative, links=links)
    if not links:
        left += blocks[0].own - blocks[0].own_link
    if left < landing_tuning.LANDING_TEXT_LEFT:
        return False
    trace.trace(
        "extract: landing: the choice is named as questions and answers, and the page "
        "prints %d characters outside it, %d or more: the page read whole without its "
        "named boilerplate",
        left,
        landing_tuning.LANDING_TEXT_LEFT,
    )
    analysis.best, analysis.best_index = None, -1
    analysis.kind = tuning.LANDING
    return True
