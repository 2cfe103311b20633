"""A landing or service page: its sections in order, without navigation and footer.

Such a page spreads its prose over sections of about equal weight (what we do, how, for
whom, prices), so the article rule chooses one of them. The second opinion, on a page that
declares no article, thread, product or listing (or declares a landing page: a Service, an
FAQPage): when the chosen block holds under landing_tuning.LANDING_SHARE of the page's prose and
other boxes beside it or its ancestors hold prose of a like weight (LANDING_SECTIONS of
them, LANDING_SECTION_SHARE of its prose each, most of it outside list items: sections,
not a news ticker), the page
is read whole without its named boilerplate (navigation, footers, menus, sidebars)
instead, which keeps every section in page order.

The same when the choice prints under landing_tuning.LANDING_TEXT_SHARE of the text outside links
that the page prints without its named boilerplate, leaving out landing_tuning.LANDING_TEXT_LEFT
characters of it at least (counted on the block records: the cards, calls to action and
short answers a service page is made of are text but no prose), on such a page or on a
documentation page (which keeps its kind), unless the choice sits in a table cell. What
the content rule leaves out inside the choice (a card that did not join its siblings)
counts as the page's text unless it is named boilerplate: the page read whole keeps it.

And the same when the choice is thin: it prints under landing_tuning.THIN_PAGE characters, links
included, and the page without its named boilerplate THIN_PAGE_OVER times as many (a
chapter's page of a manual: a short introduction chosen beside a table of contents that
is all links, which the counts above leave out); on a documentation page,
landing_tuning.DOC_THIN_PAGE_OVER times as many (its version pickers are gone before the choice).

What the page read whole leaves out and keeps (its parts, its cards) is landing_prune.py's.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import landing_tuning, linkcards
from wf.extract.kinds.landing_prune import boiler, titled_part, unwalked_links

_CELLS = ("td", "th")

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
    weight like the choice's (landing_tuning.LANDING_SECTION_SHARE of it), lists of items aside."""
    floor = landing_tuning.LANDING_SECTION_SHARE * blocks[best].good
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


def characters(
    blocks: list[BlockRecord],
    start: int,
    end: int,
    drop: Callable[[BlockRecord], bool],
    *,
    links: bool,
) -> int:
    """Characters of text in blocks[start:end], leaving out the outermost blocks `drop`
    takes: links included (`links`), or outside links only."""
    text = 0
    i = start
    while i < end:
        b = blocks[i]
        if drop(b):
            i = b.end
        elif links:
            text += b.own
            i += 1
        elif b.last is None and b.own and titled_part(b):
            # A part the walk did not enter: its records count all of its text as links.
            text += b.text - unwalked_links(b.el, b.text, True)
            i = b.end
        else:
            text += b.own - (0 if linkcards.card_prose(b) else b.own_link)
            i += 1
    return text


def _text_share(analysis: Analysis) -> tuple[int, int] | None:
    """The characters of text outside links the choice prints and those the page prints
    without its named boilerplate, when the first are under landing_tuning.LANDING_TEXT_SHARE of
    the second (the choice leaves most of the page's sections out), else None.

    Text in links is not counted: what an article's box leaves out is mostly links
    (teasers of other stories), what one section of a landing page leaves out is not.
    Measured on the block records, not on written text: the page is written once."""
    from wf.extract import blocks as rules

    blocks, best = analysis.blocks, analysis.best_index
    prune = rules.prune_lenient if analysis.lenient else rules.prune
    chosen = blocks[best]
    shown = characters(
        blocks, best, chosen.end, lambda b: b is not chosen and prune(b.el, b), links=False
    )
    share = landing_tuning.LANDING_TEXT_SHARE
    # The page without its boilerplate holds no more than the page's text outside links,
    # and the parts the walk did not enter (their records count all theirs as links).
    skipped = sum(b.text for b in blocks if b.last is None and b.own and titled_part(b))
    if shown >= share * (blocks[0].text - blocks[0].link + skipped):
        return None

    # Outside the choice on a page that declares nothing, items of prose (a news ticker
    # beside an article) are no sections; short items (what a service offers) are, and so
    # are the questions and answers of a declared landing page or the items of a manual.
    feeds = analysis.kind is None

    def other(b: BlockRecord) -> bool:
        return (feeds and b.tag == "li" and b.good > 0) or boiler(b, True)

    # Inside the choice, what prune() left out counts unless it is named boilerplate: the
    # page read whole keeps it (cards that did not join the chosen one).
    inside = characters(
        blocks, best, chosen.end, lambda b: b is not chosen and boiler(b, True), links=False
    )
    page = (
        inside
        + characters(blocks, 1, best, other, links=False)
        + characters(blocks, chosen.end, len(blocks), other, links=False)
    )
    page += blocks[0].own - blocks[0].own_link
    if page - shown < landing_tuning.LANDING_TEXT_LEFT or shown >= share * page:
        return None
    return shown, page


def _thin(analysis: Analysis) -> tuple[int, int] | None:
    """The characters the choice prints and those the page prints without its named
    boilerplate, links included, when the first are under landing_tuning.THIN_PAGE and the second
    landing_tuning.THIN_PAGE_OVER times as many (a manual's, whose pickers are gone by then:
    landing_tuning.DOC_THIN_PAGE_OVER); else None."""
    from wf.extract import blocks as rules
    from wf.extract.records import negative

    over = landing_tuning.THIN_PAGE_OVER
    if analysis.kind == tuning.DOCUMENTATION:
        over = landing_tuning.DOC_THIN_PAGE_OVER
    blocks, best = analysis.blocks, analysis.best_index
    prune = rules.prune_lenient if analysis.lenient else rules.prune
    chosen = blocks[best]
    if chosen.text >= landing_tuning.THIN_PAGE:
        # What prune() leaves out can only make it shorter: only a choice this short
        # before pruning is counted.
        shown = characters(
            blocks, best, chosen.end, lambda b: b is not chosen and prune(b.el, b), links=True
        )
    else:
        shown = chosen.text
    if shown >= landing_tuning.THIN_PAGE or blocks[0].text < over * shown:
        return None
    # A list of links inside the choice is its own (a post's links), which its pruning
    # left out: only menus beside it are not the page's text.
    inside = range(best, chosen.end)
    menu = _menus(blocks)
    page = characters(
        blocks,
        0,
        len(blocks),
        lambda b: negative(b) or (b.index not in inside and menu(b)),
        links=True,
    )
    if page < over * shown:
        return None
    return shown, page


def _menus(blocks: list[BlockRecord]) -> Callable[[BlockRecord], bool]:
    """Whether a block is a list of links alone (landing_tuning.MENU_*), a menu however
    named, unless its box holds the page's title (an <h1>): a listing's items of links
    under its title are its content. The titles' places are found once, each box's
    looked up by bisection."""
    titles = [b.index for b in blocks if b.tag == "h1"]

    def menu(b: BlockRecord) -> bool:
        if b.tag not in ("ul", "ol") or b.link < landing_tuning.MENU_LINKS * b.text:
            return False
        if b.end - b.index - 1 < landing_tuning.MENU_ITEMS:
            return False
        if b.parent < 0:
            return True
        box = blocks[b.parent]
        n = bisect_right(titles, box.index)
        return n == len(titles) or titles[n] >= box.end

    return menu


def menus_apart(blocks: list[BlockRecord], best: int) -> int:
    """Characters of the menus named as nothing (outermost lists of links, _menus()) that
    the chosen block's page holds apart from it: before it (a public service's left
    column) or in another box than its own (a blog's column of recent posts beside the
    post's column). A listing's items follow its title in the title's box: they are
    not counted."""
    from wf.extract.records import negative

    chosen = blocks[best]
    menu = _menus(blocks)
    text = 0
    i = 0
    while i < len(blocks):  # past each menu or named box whole: every block is read once
        b = blocks[i]
        if best <= i < chosen.end:
            i = chosen.end
            continue
        outside = b.end <= best or i >= chosen.end
        if outside and (negative(b) or menu(b)):
            if not negative(b) and (i < best or b.parent != chosen.parent):
                text += b.text
            i = b.end
        else:
            i += 1
    return text


def _in_cell(el: Any) -> bool:
    """Whether the choice sits in a table cell: a page laid out in tables (an old forum,
    one post a row) has cells beside it, not sections."""
    return el.tag in _CELLS or any(True for _ in el.iterancestors(*_CELLS))


def _whole(analysis: Analysis) -> bool:
    """The page to be read whole: a landing page, unless it is documentation or a product
    (whose declaration is printed above the page)."""
    analysis.best, analysis.best_index = None, -1
    if analysis.kind not in (tuning.DOCUMENTATION, tuning.PRODUCT):
        analysis.kind = tuning.LANDING
    return True


def second_opinion(analysis: Analysis) -> bool:
    """Whether the page is a landing page to read whole (the analysis then says so)."""
    best = analysis.best_index
    kind = analysis.kind
    if best < 0 or analysis.by_kind or kind not in (None, tuning.LANDING, tuning.DOCUMENTATION):
        return False
    found = _text_share(analysis)
    if found is not None and not _in_cell(analysis.best):
        trace.trace(
            "extract: landing: the choice prints %d of the %d characters the page prints "
            "without its named boilerplate, under %.0f%%: the page read whole without it",
            found[0],
            found[1],
            100 * landing_tuning.LANDING_TEXT_SHARE,
        )
        return _whole(analysis)
    thin = _thin(analysis) if found is None else None
    if thin is not None and not _in_cell(analysis.best):
        trace.trace(
            "extract: landing: the choice prints %d characters, under %d, of the %d the "
            "page prints without its named boilerplate: the page read whole without it",
            thin[0],
            landing_tuning.THIN_PAGE,
            thin[1],
        )
        return _whole(analysis)
    if kind == tuning.DOCUMENTATION:
        return False
    chosen, page = analysis.blocks[best].good, analysis.blocks[0].raw
    if chosen >= landing_tuning.LANDING_SHARE * page:
        return False
    if _sections(analysis.blocks, best) < landing_tuning.LANDING_SECTIONS:
        return False
    trace.trace(
        "extract: landing: the choice holds %d of the page's %d characters of prose, under "
        "%.0f%%: the page's sections in order, without its named boilerplate",
        chosen,
        page,
        100 * landing_tuning.LANDING_SHARE,
    )
    analysis.best, analysis.best_index = None, -1
    analysis.kind = tuning.LANDING
    return True


def thin_listing(analysis: Analysis) -> bool:
    """Whether a listing whose own rule took no list is read whole without its named
    boilerplate, as a landing page whose choice is thin is (_thin): the list it did not
    see (items that are links alone, a headline over groups of them) is what the choice
    left out. The page keeps its kind."""
    if analysis.kind != tuning.LISTING or analysis.by_kind or analysis.best_index < 0:
        return False
    thin = _thin(analysis)
    if thin is None or _in_cell(analysis.best):
        return False
    trace.trace(
        "extract: listing: the choice prints %d characters, under %d, of the %d the page "
        "prints without its named boilerplate: the page read whole without it",
        thin[0],
        landing_tuning.THIN_PAGE,
        thin[1],
    )
    analysis.best, analysis.best_index = None, -1
    return True
