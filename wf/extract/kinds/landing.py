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

The same when the choice prints under tuning.LANDING_TEXT_SHARE of the text outside links
that the page prints without its named boilerplate, leaving out tuning.LANDING_TEXT_LEFT
characters of it at least (counted on the block records: the cards, calls to action and
short answers a service page is made of are text but no prose), on such a page or on a
documentation page (which keeps its kind), unless the choice sits in a table cell. What
the content rule leaves out inside the choice (a card that did not join its siblings)
counts as the page's text unless it is named boilerplate: the page read whole keeps it.

And the same when the choice is thin: it prints under tuning.THIN_PAGE characters, links
included, and the page without its named boilerplate THIN_PAGE_OVER times as many (a
chapter's page of a manual: a short introduction chosen beside a table of contents that
is all links, which the counts above leave out); on a documentation page,
tuning.DOC_THIN_PAGE_OVER times as many (its version pickers are gone before the choice).

A landing page's parts are no boilerplate here: a box named only by tuning.LANDING_PARTS
(banner, cta, carousel...) with prose of its own and not mostly links is printed
(part()), and counts as the page when it is titled (an h1 to h3); so is a box named
as its social proof (tuning.SOCIAL_PROOF), however short and linked its lines (a
testimonial, a figure); the site's header,
mostly links, goes from the page read whole (site_header()), and so does a menu that
drops down (link_dropdown()). A page declared a landing
page keeps its cards in the choice (prune_cards()). A card made one link counts its
paragraph as text, and a promotion so titled is a part (linkcards.py), in these rules and
the page read whole, not in another kind's page read whole for a thin choice (prune_wide()).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import landing_tuning, linkcards

_CELLS = ("td", "th")
_HEADER = re.compile(tuning.SITE_HEADER)
_CALLS = re.compile(landing_tuning.CALLS_TO_ACTION, re.IGNORECASE)
_DROPDOWN = re.compile(tuning.LINK_DROPDOWN)
_PARTS = frozenset(tuning.LANDING_PARTS)
# The never-content words a landing page's part may be named by: its promotions.
_SPARED = frozenset(landing_tuning.SPARED)
# A section of a landing page is titled at one of these levels.
_SECTION_HEADINGS = ("h1", "h2", "h3")
# The boilerplate word a box named as social proof (tuning.SOCIAL_PROOF) matches.
_PROOF = frozenset(("social",))
_SOCIAL_PROOF = re.compile(tuning.SOCIAL_PROOF, re.IGNORECASE)
# Where a page's own header (a title, a byline) sits, unlike the site's.
_CONTENT_TAGS = ("main", "article")

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


def words(
    blocks: list[BlockRecord], start: int, end: int, drop: Callable[[BlockRecord], bool]
) -> int:
    """Characters of text outside links in blocks[start:end], leaving out the outermost
    blocks `drop` takes."""
    text = 0
    i = start
    while i < end:
        b = blocks[i]
        if drop(b):
            i = b.end
            continue
        if b.last is None and b.own and _titled_part(b):
            # A part the walk did not enter: its records count all of its text as links.
            text += b.text - unwalked_links(b.el, b.text, True)
            i = b.end
            continue
        text += b.own - (0 if linkcards.card_prose(b) else b.own_link)
        i += 1
    return text


def _text_share(analysis: Analysis) -> tuple[int, int] | None:
    """The characters of text outside links the choice prints and those the page prints
    without its named boilerplate, when the first are under tuning.LANDING_TEXT_SHARE of
    the second (the choice leaves most of the page's sections out), else None.

    Text in links is not counted: what an article's box leaves out is mostly links
    (teasers of other stories), what one section of a landing page leaves out is not.
    Measured on the block records, not on written text: the page is written once."""
    from wf.extract import blocks as rules

    blocks, best = analysis.blocks, analysis.best_index
    prune = rules.prune_lenient if analysis.lenient else rules.prune
    chosen = blocks[best]
    shown = words(blocks, best, chosen.end, lambda b: b is not chosen and prune(b.el, b))
    share = tuning.LANDING_TEXT_SHARE
    # The page without its boilerplate holds no more than the page's text outside links,
    # and the parts the walk did not enter (their records count all theirs as links).
    skipped = sum(b.text for b in blocks if b.last is None and b.own and _titled_part(b))
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
    inside = words(blocks, best, chosen.end, lambda b: b is not chosen and boiler(b, True))
    page = inside + words(blocks, 1, best, other) + words(blocks, chosen.end, len(blocks), other)
    page += blocks[0].own - blocks[0].own_link
    if page - shown < tuning.LANDING_TEXT_LEFT or shown >= share * page:
        return None
    return shown, page


def all_text(
    blocks: list[BlockRecord], start: int, end: int, drop: Callable[[BlockRecord], bool]
) -> int:
    """Characters of text, links included, in blocks[start:end] without the outermost
    blocks `drop` takes."""
    text = 0
    i = start
    while i < end:
        b = blocks[i]
        if drop(b):
            i = b.end
            continue
        text += b.own
        i += 1
    return text


def _thin(analysis: Analysis) -> tuple[int, int] | None:
    """The characters the choice prints and those the page prints without its named
    boilerplate, links included, when the first are under tuning.THIN_PAGE and the second
    tuning.THIN_PAGE_OVER times as many (a manual's, whose pickers are gone by then:
    tuning.DOC_THIN_PAGE_OVER); else None."""
    from wf.extract import blocks as rules
    from wf.extract.records import negative

    over = tuning.THIN_PAGE_OVER
    if analysis.kind == tuning.DOCUMENTATION:
        over = tuning.DOC_THIN_PAGE_OVER
    blocks, best = analysis.blocks, analysis.best_index
    prune = rules.prune_lenient if analysis.lenient else rules.prune
    chosen = blocks[best]
    if chosen.text >= tuning.THIN_PAGE:
        # What prune() leaves out can only make it shorter: only a choice this short
        # before pruning is counted.
        shown = all_text(blocks, best, chosen.end, lambda b: b is not chosen and prune(b.el, b))
    else:
        shown = chosen.text
    if shown >= tuning.THIN_PAGE or blocks[0].text < over * shown:
        return None
    # A list of links inside the choice is its own (a post's links), which its pruning
    # left out: only menus beside it are not the page's text.
    inside = range(best, chosen.end)
    menu = _menus(blocks)
    page = all_text(
        blocks, 0, len(blocks), lambda b: negative(b) or (b.index not in inside and menu(b))
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
            100 * tuning.LANDING_TEXT_SHARE,
        )
        return _whole(analysis)
    thin = _thin(analysis) if found is None else None
    if thin is not None and not _in_cell(analysis.best):
        trace.trace(
            "extract: landing: the choice prints %d characters, under %d, of the %d the "
            "page prints without its named boilerplate: the page read whole without it",
            thin[0],
            tuning.THIN_PAGE,
            thin[1],
        )
        return _whole(analysis)
    if kind == tuning.DOCUMENTATION:
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
        tuning.THIN_PAGE,
        thin[1],
    )
    analysis.best, analysis.best_index = None, -1
    return True


def site_header(el: Any, b: BlockRecord) -> bool:
    """Whether a block is the site's header: a <header>, a box of role banner or one
    named as the page's header (tuning.SITE_HEADER), outside <main> and <article>, whose
    text is mostly links (the logo, the menus, sign-in and search). Such a header is no
    named boilerplate, so the page read whole kept it; a page's hero with its heading and
    lead sentence is mostly text, and a header inside the content is the article's own."""
    if not b.text or b.link * 2 <= b.text:
        return False
    if el.tag != "header" and el.get("role") != "banner":
        from wf.extract.names import named_by

        if not named_by(el, _HEADER):
            return False
    return next(el.iterancestors(*_CONTENT_TAGS), None) is None


def link_dropdown(el: Any, b: BlockRecord) -> bool:
    """Whether a block is a menu that drops down: named so (tuning.LINK_DROPDOWN) and
    mostly links (a hero's "choose a service" list of every page of the site). A
    dropdown of prose (an answer, a feature's details) is the page's."""
    if not b.text or b.link * 2 <= b.text:
        return False
    from wf.extract.names import named_by

    return named_by(el, _DROPDOWN)


def prune_whole(el: Any, b: BlockRecord) -> bool:
    """What the page read whole leaves out: its named boilerplate, the site's header,
    menus that drop down, a <noscript> notice asking for scripts (prune.script_notice:
    a single-page app's template writes one first in <body>, where no choice leaves it
    out), its calls to action alone on their line (_call_to_action()) and its colophon
    ("Powered by WordPress", notices.colophon). Its parts stay, those whose text is
    cards made one link too (card_prose())."""
    return _prune_whole(el, b, True)


def prune_wide(el: Any, b: BlockRecord) -> bool:
    """prune_whole() for a page of another kind read whole because its choice was too
    thin: a part whose text is all in links is a teaser there (another story's picture,
    title and excerpt made one link), and goes."""
    return _prune_whole(el, b, False)


def _prune_whole(el: Any, b: BlockRecord, cards: bool) -> bool:
    from wf.extract.notices import colophon
    from wf.extract.prune import script_notice

    return (
        boiler(b, cards)
        or site_header(el, b)
        or link_dropdown(el, b)
        or script_notice(el, b)
        or _call_to_action(el, b)
        or colophon(el, b)
    )


def _call_to_action(el: Any, b: BlockRecord) -> bool:
    """Whether a block is a call to action alone: a link or button of landing_tuning.
    CTA_MAX characters at most, mostly links, that says only "Learn more", "Get
    started" and the like (landing_tuning.CALLS_TO_ACTION). Under every card of a page
    read whole, such a line tells nothing, and it joins the lines around it."""
    if not b.text or b.text > landing_tuning.CTA_MAX or b.link * 2 < b.text:
        return False
    return _CALLS.fullmatch(" ".join("".join(el.itertext()).split())) is not None


def part(b: BlockRecord, cards: bool = False) -> bool:
    """Whether a block is named boilerplate only by the words of a landing page's parts
    (tuning.LANDING_PARTS: its banners, calls to action, carousels, promotions, pictures
    and widgets), with GOOD_MIN characters outside links and under half its text in
    links: a section of the page, not a strip of logos or links. A box named as its
    social proof (social_proof()) is one at any length, and so is a heading so named and
    not mostly links (a hero's `hero-banner__heading`: the page's title over its lead)."""
    from wf.extract.names import HEADING, STRUCTURAL_NEGATIVE, negative_hits, never_content
    from wf.extract.records import GOOD_MIN, negative

    if b.tag in STRUCTURAL_NEGATIVE or not negative(b):
        return False
    hits = negative_hits(b.el)
    if hits & _PROOF and social_proof(b.el):
        # Its testimonials (linked to the customers' stories) and its figures, each
        # short: the section, no share buttons.
        return hits <= _PARTS | _PROOF and not never_content(b.el)
    spared = _SPARED if cards and linkcards.titled_card(b.el) else frozenset()
    if not hits or not hits <= _PARTS or never_content(b.el, spared):
        return False
    heading = b.tag in HEADING
    if b.text < GOOD_MIN and not heading:
        return False
    if cards:  # counted on the tree, walked or not: a card's paragraphs are text
        link = unwalked_links(b.el, b.text, cards)
    else:
        link = unwalked_links(b.el, b.text) if b.last is None else b.link
    return (heading or b.text - link >= GOOD_MIN) and link * 2 < b.text


def social_proof(el: Any) -> bool:
    """Whether a box is named as a landing page's "social proof" (tuning.SOCIAL_PROOF:
    its testimonials, customers' logos and figures): a section of it, where a box named
    social alone holds share and follow buttons."""
    from wf.extract.names import named_by

    return named_by(el, _SOCIAL_PROOF)


def _titled_part(b: BlockRecord) -> bool:
    """A part that counts toward reading the page whole: titled as a section is (an
    appeal for donations in small print under an article is no section)."""
    return part(b, True) and next(b.el.iter(*_SECTION_HEADINGS), None) is not None


def unwalked_links(el: Any, text: int, cards: bool = False) -> int:
    """The characters in links of a box the walk did not enter (its records count all of
    its text as links), at most tuning.PART_LINKS links read: past them, all of it."""
    from common.xpath import text_length

    length = text_length()
    total = 0
    for n, a in enumerate(el.iter("a")):
        if n >= tuning.PART_LINKS:
            return text
        total += int(length(a))
        if cards:
            total -= linkcards.wrapped_prose(a, length)
    return total


def boiler(b: BlockRecord, cards: bool = False) -> bool:
    """Named boilerplate that a landing page read whole leaves out: not its parts
    (`cards`: nor those whose text is cards made one link, card_prose())."""
    from wf.extract.records import negative

    return negative(b) and not part(b, cards)


def prune_cards(el: Any, b: BlockRecord) -> bool:
    """prune() on a landing page: its cards (a link around a title and a line) stay, and
    so do the sections beside the prose the choice took in (siblings that did not join
    it): only its named boilerplate goes, its parts aside."""
    return boiler(b, True)
