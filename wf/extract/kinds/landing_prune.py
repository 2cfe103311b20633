"""A landing page read whole (landing.py): what it leaves out and what it keeps
(prune_whole, prune_wide, prune_cards; moved from landing.py, which was at the 500-line
limit).

A landing page's parts are no boilerplate here: a box named only by landing_tuning.LANDING_PARTS
(banner, cta, carousel...) with prose of its own and not mostly links is printed
(part()), and counts as the page when it is titled (an h1 to h3); so is a box named
as its social proof (landing_tuning.SOCIAL_PROOF), however short and linked its lines (a
testimonial, a figure); the site's header,
mostly links, goes from the page read whole (site_header()), and so does a menu that
drops down (link_dropdown()). A page declared a landing
page keeps its cards in the choice (prune_cards()). A card made one link counts its
paragraph as text, and a promotion so titled is a part (linkcards.py), in these rules and
the page read whole, not in another kind's page read whole for a thin choice (prune_wide()).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from wf.extract.kinds import landing_tuning, linkcards

_HEADER = re.compile(landing_tuning.SITE_HEADER)
_CALLS = re.compile(landing_tuning.CALLS_TO_ACTION, re.IGNORECASE)
_DROPDOWN = re.compile(landing_tuning.LINK_DROPDOWN)
_PARTS = frozenset(landing_tuning.LANDING_PARTS)
# The never-content words a landing page's part may be named by: its promotions.
_SPARED = frozenset(landing_tuning.SPARED)
# A section of a landing page is titled at one of these levels.
_SECTION_HEADINGS = ("h1", "h2", "h3")
# The boilerplate word a box named as social proof (landing_tuning.SOCIAL_PROOF) matches.
_PROOF = frozenset(("social",))
_SOCIAL_PROOF = re.compile(landing_tuning.SOCIAL_PROOF, re.IGNORECASE)
# Where a page's own header (a title, a byline) sits, unlike the site's.
_CONTENT_TAGS = ("main", "article")

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def site_header(el: Any, b: BlockRecord) -> bool:
    """Whether a block is the site's header: a <header>, a box of role banner or one
    named as the page's header (landing_tuning.SITE_HEADER), outside <main> and <article>, whose
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
    """Whether a block is a menu that drops down: named so (landing_tuning.LINK_DROPDOWN) and
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
    (landing_tuning.LANDING_PARTS: its banners, calls to action, carousels, promotions, pictures
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
    """Whether a box is named as a landing page's "social proof" (landing_tuning.SOCIAL_PROOF:
    its testimonials, customers' logos and figures): a section of it, where a box named
    social alone holds share and follow buttons."""
    from wf.extract.names import named_by

    return named_by(el, _SOCIAL_PROOF)


def titled_part(b: BlockRecord) -> bool:
    """A part that counts toward reading the page whole: titled as a section is (an
    appeal for donations in small print under an article is no section)."""
    return part(b, True) and next(b.el.iter(*_SECTION_HEADINGS), None) is not None


def unwalked_links(el: Any, text: int, cards: bool = False) -> int:
    """The characters in links of a box the walk did not enter (its records count all of
    its text as links), at most landing_tuning.PART_LINKS links read: past them, all of it."""
    from common.xpath import text_length

    length = text_length()
    total = 0
    for n, a in enumerate(el.iter("a")):
        if n >= landing_tuning.PART_LINKS:
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
