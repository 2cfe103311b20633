"""A listing or collection: its items as a list (title, link with --links, short text).

The kind's own rule finds the page's list independently of the article scoring: the
largest group (by text) of listing_tuning.LIST_MIN or more sibling boxes of one tag and class
(numbering tokens left out), each with a link and most with words of their own beside it
or a price (a shop's grid of linked names and prices; not on a page declared a listing,
whose thin choice goes to the page read whole, nor beside a choice that holds the
page's <h1>: a product, its shop's recommendations),
outside the page's frame (nav, header, footer, asides, boxes named as menus or filters
but not after has- or with-, pagers that hold no more than a pager; read up to <main>,
never above it)
and outside boxes that are never content (comments, recommendations, consent), most of
them not named as boilerplate themselves, nor a consent manager's list of vendors however
named (notices.vendor_list).
It is also the second opinion on any page whose chosen block is thin against it (a list's
intro chosen over its items, a page declared an article that is a list): the list is
taken over the choice when the choice is thin (under THIN_PROSE of prose), or, on a page
not declared an article, when the list holds LIST_OVER_CHOICE times its text (a shop's
grid LIST_OVER_PRICED times): a collection's own prose (its introduction, its buying
guide) is what its readers look for first. On a page declared an article, only when
the choice is short (under LIST_ARTICLE_SHORT), the list holds LIST_OVER_ARTICLE times
its text and at least half the page's. A
choice that holds the list already stays (the list is part of it), its items then kept
however linked or short on a page declared a listing (but for a card's date alone on
its line: card_date). A list taken grows to the box that
also holds the page's one <h1> (the listing's title and introduction), unless that box is
the page nearly whole (LIST_HEADING_SHARE of its text).
"""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import listing_tuning

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord

_FRAME = re.compile(f"{listing_tuning.LIST_FRAME_UNMODIFIED}(?:{listing_tuning.LIST_FRAME})")
_AGO = re.compile(listing_tuning.CARD_AGO, re.IGNORECASE)
_PRICE = re.compile(listing_tuning.PRICE)
_DIGIT = re.compile(r"\d")
ITEM_TAGS = frozenset(("li", "div", "article", "section", "tr", "dt", "dd", "p"))


def _framed(el: Any) -> bool:
    """Whether an element is or sits inside the page's frame."""
    from wf.extract.names import named_by, never_content, pager

    while el is not None and el.tag not in ("body", "html"):
        if el.tag == "main" or el.get("role") == "main":
            # The page's main content: a frame's name above it is a layout wrapper's
            # ("flex-wrap-footer", the box that keeps the footer at the window's foot).
            return False
        if el.tag in listing_tuning.LIST_FRAME_TAGS or never_content(el):
            return True
        if named_by(el, _FRAME) or pager(el):
            return True
        el = el.getparent()
    return False


def items_box(blocks: list[BlockRecord], shops: bool = True) -> tuple[int, int, bool, bool] | None:
    """The index of the box of the page's list, its number of items, whether most of
    them show a price (a shop's grid) and whether most have words of their own; or None.
    `shops`: a grid of items that show a price and no other words counts as a list."""
    from wf.extract.notices import vendor_list

    ranked = _groups(blocks, 0, len(blocks))
    looked = 0
    for rank, (_, parent, worded, members) in enumerate(ranked):
        if looked >= listing_tuning.LIST_LOOKED:
            break
        # A shop's grid: each item a linked name and its price, no other words needed.
        # A sample of the items of the PRICE_GROUPS largest groups is read: a long list,
        # or a page of many small groups nested in each other, costs no more. A list of
        # worded items is one either way: its prices are read only when it is taken.
        priced_too = shops and rank < listing_tuning.PRICE_GROUPS
        sample = members[: listing_tuning.PRICE_SAMPLE] if priced_too else []
        shop = not worded and _mostly_priced(sample)
        if not (worded or shop):
            continue
        looked += 1
        if not _framed(blocks[parent].el) and not vendor_list(blocks[parent].el):
            return parent, len(members), shop or _mostly_priced(sample), worded
    return None


def _mostly_priced(sample: list[BlockRecord]) -> bool:
    """Whether more than half the items of a sample show a price (priced), read no
    further than the item that decides it."""
    need = len(sample) // 2 + 1
    left = len(sample)
    for m in sample:
        if need > left:
            return False
        left -= 1
        if priced(m.el):
            need -= 1
            if not need:
                return True
    return False


def _groups(
    blocks: list[BlockRecord], start: int, end: int
) -> list[tuple[int, int, bool, list[BlockRecord]]]:
    """The groups of listing_tuning.LIST_MIN or more sibling boxes of one tag and class,
    each with a link, short on average, among blocks[start:end]: (their text, their
    parent's index, whether most have words of their own, the boxes), largest first."""
    from wf.extract.names import class_kind

    groups: dict[tuple[int, str, str], list[BlockRecord]] = {}
    for b in islice(blocks, start, end):
        if b.parent >= 0 and b.tag in ITEM_TAGS and b.link and b.last is not None:
            groups.setdefault((b.parent, b.tag, class_kind(b.el.get("class"))), []).append(b)
    ranked = []
    for (parent, _, _), members in groups.items():
        total = sum(m.text for m in members)
        if len(members) >= listing_tuning.LIST_MIN and total <= (
            listing_tuning.LIST_ITEM_MAX * len(members)
        ):
            worded = sum(m.text - m.link >= listing_tuning.LIST_ITEM_WORDS for m in members)
            ranked.append((total, parent, worded * 2 > len(members), members))
    ranked.sort(key=lambda r: r[:2], reverse=True)
    return ranked


def grids(blocks: list[BlockRecord], start: int, end: int) -> set[int]:
    """The indices of the boxes among blocks[start:end] that hold a grid of cards: a
    group (as items_box finds them) whose items most have words of their own or show a
    price, each a link to another page (a shop's "you may also like", whatever it is
    named). A sample of the items of the PRICE_GROUPS largest groups is read for a
    price, as items_box does."""
    found = set()
    for rank, (_, parent, worded, members) in enumerate(_groups(blocks, start, end)):
        sample = members[: listing_tuning.PRICE_SAMPLE]
        if worded or (rank < listing_tuning.PRICE_GROUPS and _mostly_priced(sample)):
            found.add(parent)
    return found


def priced(el: Any) -> bool:
    """Whether an item shows a price (listing_tuning.PRICE) in its first
    listing_tuning.CARD_SCAN pieces of text: a shop's item is its name and its price."""
    text = "".join(islice(el.itertext(), listing_tuning.CARD_SCAN))
    # Each of PRICE's branches holds a digit: a text without one is not searched for a
    # price, a search that cost ten times the digit's.
    return _DIGIT.search(text) is not None and _PRICE.search(text) is not None


def second_opinion(analysis: Analysis, kind: str | None, thin: int) -> Analysis:
    """The analysis, its choice replaced by the page's list when the rule above says so."""
    blocks = analysis.blocks
    if not blocks:
        return analysis
    best = analysis.best_index
    if kind != tuning.LISTING and best >= 0:
        chosen = blocks[best]
        if kind == tuning.ARTICLE:
            over = (
                listing_tuning.LIST_OVER_ARTICLE
                if chosen.text < listing_tuning.LIST_ARTICLE_SHORT
                else 0
            )
        else:
            over = listing_tuning.LIST_OVER_CHOICE
        if chosen.good >= thin and not (over and blocks[0].text >= over * chosen.text):
            # Not thin, and no list outside the choice could outweigh it: not looked for.
            return analysis
    # A page declared a listing reads a shop's grid already: its thin choice goes to the
    # page read whole (landing.thin_listing), the grid and the names around it.
    found = items_box(blocks, kind != tuning.LISTING)
    if found is None:
        return analysis
    index, count, shop, worded = found
    box = blocks[index]
    if best >= 0:
        chosen = blocks[best]
        if chosen.index <= index < chosen.end:
            if kind == tuning.LISTING:
                # The choice holds the list: its items stay, however linked or short.
                analysis.kind, analysis.by_kind = tuning.LISTING, True
            return analysis
        # A choice that holds the page's <h1> beside a grid of names and prices is a
        # product, the grid its shop's recommendations ("you may also like").
        titled = shop and chosen.el.find(".//h1") is not None
        if titled and not worded:
            return analysis
        if kind != tuning.ARTICLE:
            shop = shop and not titled
            over = listing_tuning.LIST_OVER_PRICED if shop else listing_tuning.LIST_OVER_CHOICE
            outweighs = box.text >= over * chosen.text
        else:
            # A page declared an article is a list only when its choice is short and the
            # list is most of the page (an index of reviews under a one-paragraph intro).
            outweighs = (
                chosen.text < listing_tuning.LIST_ARTICLE_SHORT
                and box.text >= listing_tuning.LIST_OVER_ARTICLE * chosen.text
                and box.text * 2 >= blocks[0].text
            )
        if not (chosen.good < thin or outweighs):
            return analysis
    trace.trace(
        "extract: listing: %d items in <%s class=%r> (%d characters) taken over the choice",
        count,
        box.tag,
        (box.el.get("class") or "")[:40],
        box.text,
    )
    index = _with_heading(blocks, index)
    analysis.best, analysis.best_index = blocks[index].el, index
    analysis.kind = tuning.LISTING
    analysis.by_kind = True
    return analysis


def _with_heading(blocks: list[BlockRecord], index: int) -> int:
    """The list's box, or its ancestor that also holds the page's one <h1> (a listing's
    title, its introduction and its list) when that is not the page whole."""
    headings = [b for b in blocks if b.tag == "h1"]
    if len(headings) != 1:
        return index
    around = set()
    i = index
    while i >= 0:
        around.add(i)
        i = blocks[i].parent
    i = headings[0].index
    while i >= 0 and i not in around:
        i = blocks[i].parent
    if i <= 0 or i == index or blocks[i].tag in ("body", "html"):
        return index
    if blocks[i].text >= listing_tuning.LIST_HEADING_SHARE * blocks[0].text:
        return index
    trace.trace("extract: listing: widened to <%s>, which holds the page's heading", blocks[i].tag)
    return i


def prune(el: Any, b: BlockRecord) -> bool:
    """Inside a list: the frame goes (nav, asides, footers), items stay as they are, but
    for the short lines of links beside a card's linked title (card_label), the
    forms beside an item's own text (controls) and its date alone (card_date)."""
    from wf.extract.names import STRUCTURAL_NEGATIVE, never_content

    if b.tag in STRUCTURAL_NEGATIVE and b.tag != "figure" or never_content(el):
        return True
    return card_label(el, b) or controls(el, b) or card_date(el, b)


def card_date(el: Any, b: BlockRecord) -> bool:
    """A block that is an item's date and nothing else (post_dates.whole_date, as a post's
    date is told, or a time ago: listing_tuning.CARD_AGO): when it was posted, printed
    under every card, not what the item is. A heading stays."""
    from wf.extract.kinds.post_dates import whole_date
    from wf.extract.names import HEADING

    if b.tag in HEADING or not 0 < b.text <= listing_tuning.CARD_DATE_MAX:
        return False
    text = " ".join("".join(el.itertext()).split())
    return whole_date(text) or _AGO.fullmatch(text) is not None


# Buttons are gone by now (wf.extract.parse drops them); their form and fields stay.
def prune_whole(el: Any, b: BlockRecord) -> bool:
    """A listing read whole: what a landing page read whole leaves out (its named
    boilerplate, the site's header), and its cards' labels and controls as in a list."""
    from wf.extract.kinds.landing_prune import prune_whole

    return prune_whole(el, b) or card_label(el, b) or controls(el, b)


_CONTROLS = frozenset(("form", "input", "select", "textarea"))


def controls(el: Any, b: BlockRecord) -> bool:
    """A short box of an item's controls: a form ("Add to cart", "Want to read", a
    rating's stars to click) with no heading and no link to another page: what a reader
    does with the item, not what it is. A card holds its linked title and stays, form
    and all. At most listing_tuning.CARD_SCAN elements are read."""
    from wf.extract.names import HEADING

    if b.tag in HEADING or not 0 < b.text <= listing_tuning.CONTROLS_MAX:
        return False
    found = False
    for sub in islice(el.iter(), listing_tuning.CARD_SCAN):
        tag = sub.tag
        if tag in _CONTROLS:
            found = True
        elif tag in HEADING:
            return False
        elif tag == "a":
            href = (sub.get("href") or "").strip()
            if href and not href.startswith(("#", "javascript:")):
                return False
    return found


def card_label(el: Any, b: BlockRecord) -> bool:
    """A short block that is links alone (a category, tags, "More like this") inside a
    card whose title is a linked heading: the card's title and text are its item, the
    labels lead elsewhere. The card is the nearest of listing_tuning.CARD_LEVELS ancestors that
    holds a heading, under listing_tuning.CARD_TEXT characters and CARD_CHILDREN children, when
    one of its headings is linked; links under a plain heading (an index's letter) are
    the content itself."""
    from wf.extract.names import HEADING

    if b.tag in HEADING or not 0 < b.text <= listing_tuning.CARD_LABEL_MAX or b.link < b.text:
        return False
    for sub in islice(el.iter(), listing_tuning.CARD_SCAN):
        if sub.tag in HEADING:
            return False
    box = el
    for _ in range(listing_tuning.CARD_LEVELS):
        box = box.getparent()
        # Not len(box): lxml counts every child, once per label of a long list.
        if (
            box is None
            or box.tag in ("body", "html")
            or _more_than(box, listing_tuning.CARD_CHILDREN)
        ):
            return False  # a box of many children is a list (or the page), not a card
        text = 0
        headings = []
        for sub in islice(box.iter(), listing_tuning.CARD_SCAN):
            if sub.tag in HEADING:
                headings.append(sub)
            text += len(sub.text or "") + len(sub.tail or "")
            if text > listing_tuning.CARD_TEXT:
                return False  # a box of many items: stop reading at once
        if headings:
            # The nearest box with a heading is the card, or no card at all.
            return any(h.find(".//a") is not None or h.getparent().tag == "a" for h in headings)
    return False


def _more_than(box: Any, count: int) -> bool:
    """Whether ``box`` has more than ``count`` children, reading at most count + 1."""
    return next(islice(box.iterchildren(), count, None), None) is not None
