"""When no block of a page stood out for the article rule: a short post whole looked for
(shortpost.py), and, when the page's own pruning leaves next to nothing, the page
without its named boilerplate before the page whole (core.py's fallbacks)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common import trace

if TYPE_CHECKING:
    from wf.extract.markdown import MarkdownWriter


def without_named(body: Any, to_markdown: Any, choice: Any) -> MarkdownWriter:
    """The page without its named boilerplate (navigation, footers, sidebars), keeping what
    a listing page is made of, or by the kind's own wide rule (choice.wide)."""
    from wf.extract import blocks
    from wf.extract.prune import skipper

    wide = choice.wide or blocks.prune_named
    written: MarkdownWriter = to_markdown(body, skipper(choice.analysis.records(whole=True), wide))
    return written


def short_post(
    analysis: Any, article: bool, body: Any, to_markdown: Any, choice: Any, title: str | None
) -> bool:
    """No block stood out on a page read as an article: the box of a short post whole
    (shortpost.py) is the choice, rather than the page whole, when the page without its
    named boilerplate adds less than the post itself (widen.whole_post, the rule for a
    thin choice too). True when the post is the choice."""
    if analysis.best is not None or not article or analysis.by_kind:
        return False
    from wf.extract.prune import skipper
    from wf.extract.shortpost import post_box
    from wf.extract.widen import whole_post

    found = post_box(analysis.blocks, title)
    if found < 0:
        return False
    from wf.extract.kinds.landing import menus_apart

    box = analysis.blocks[found].el
    analysis.best, analysis.best_index = box, found
    post = to_markdown(box, skipper(analysis.records(), choice.prune)).length()
    wider = without_named(body, to_markdown, choice).length()
    # The menus apart from the post (a column's) are no text it missed.
    wider -= menus_apart(analysis.blocks, found)
    if post and whole_post(box, post, wider, title):
        trace.trace("extract: a short post whole: the box around the heading the title repeats")
        return True
    analysis.best, analysis.best_index = None, -1
    return False


def thin_choice(
    r: MarkdownWriter, node: Any, body: Any, to_markdown: Any, choice: Any, title: str | None
) -> MarkdownWriter:
    """A choice under the prose floor: no article here. The page without its named
    boilerplate (navigation, footers, sidebars), keeping what a listing page is made of
    (linked titles, excerpts), unless the choice is a short post whole
    (widen.whole_post) against what that adds beside the menus apart from it (a
    column's: landing.menus_apart)."""
    from wf.extract.blocks import THIN_PROSE
    from wf.extract.kinds.landing import menus_apart
    from wf.extract.widen import whole_post

    wider = without_named(body, to_markdown, choice)
    added = wider.length() - menus_apart(choice.analysis.blocks, choice.analysis.best_index)
    if wider.length() <= r.length() or whole_post(node, r.length(), added, title):
        return r
    trace.trace(
        "extract: fallback: %d characters chosen, under %d; took the page without its "
        "named boilerplate (%d)",
        r.length(),
        THIN_PROSE,
        wider.length(),
    )
    return wider


def unnamed(
    r: MarkdownWriter,
    body: Any,
    to_markdown: Any,
    choice: Any,
    thin: int,
) -> MarkdownWriter:
    """Nothing stood out and the page's own pruning left next to nothing (a wrapper of
    the page whole that is mostly links goes as a list of links): the page without its
    named boilerplate when that holds `thin` characters at least (a price guide's short
    rows under a menu of a hundred services), before the page whole with its menus."""
    wider = without_named(body, to_markdown, choice)
    if wider.length() < thin:
        return r
    trace.trace(
        "extract: fallback: %d characters, next to nothing; took the page without its "
        "named boilerplate (%d)",
        r.length(),
        wider.length(),
    )
    return wider
