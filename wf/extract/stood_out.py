"""When no block of a page stood out for the article rule: a short post whole looked for
(shortpost.py), and, when the page's own pruning leaves next to nothing, the page
without its named boilerplate before the page whole (core.py's fallbacks)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common import trace

if TYPE_CHECKING:
    from wf.extract.markdown import MarkdownWriter
    from wf.extract.records import BlockRecord


def skipper(records: dict[Any, BlockRecord], prune: Any) -> Any:
    """Whether an element is left out: its block's record says so by `prune`."""

    def skip(el: Any) -> bool:
        record = records.get(el)
        return record is not None and bool(prune(el, record))

    return skip


def length(r: MarkdownWriter) -> int:
    return r.length()


def short_post(
    analysis: Any, article: bool, body: Any, to_markdown: Any, choice: Any, title: str | None
) -> None:
    """No block stood out on a page read as an article: the box of a short post whole
    (shortpost.py) is the choice, rather than the page whole, when the page without its
    named boilerplate adds less than the post itself (widen.whole_post, the rule for a
    thin choice too)."""
    if analysis.best is not None or not article or analysis.by_kind:
        return
    from wf.extract import blocks
    from wf.extract.shortpost import post_box
    from wf.extract.widen import whole_post

    found = post_box(analysis.blocks, title)
    if found < 0:
        return
    box = analysis.blocks[found].el
    analysis.best, analysis.best_index = box, found
    post = length(to_markdown(box, skipper(analysis.records(), choice.prune)))
    wide = choice.wide or blocks.prune_named
    wider = length(to_markdown(body, skipper(analysis.records(whole=True), wide)))
    if post and whole_post(box, post, wider, title):
        trace.trace("extract: a short post whole: the box around the heading the title repeats")
        return
    analysis.best, analysis.best_index = None, -1


def unnamed(
    r: MarkdownWriter,
    body: Any,
    to_markdown: Any,
    analysis: Any,
    choice: Any,
    thin: int,
) -> MarkdownWriter:
    """Nothing stood out and the page's own pruning left next to nothing (a wrapper of
    the page whole that is mostly links goes as a list of links): the page without its
    named boilerplate when that holds `thin` characters at least (a price guide's short
    rows under a menu of a hundred services), before the page whole with its menus."""
    from wf.extract import blocks

    wide = choice.wide or blocks.prune_named
    wider: MarkdownWriter = to_markdown(body, skipper(analysis.records(whole=True), wide))
    if length(wider) < thin:
        return r
    trace.trace(
        "extract: fallback: %d characters, next to nothing; took the page without its "
        "named boilerplate (%d)",
        length(r),
        length(wider),
    )
    return wider
