"""Cards made one link: a link around a card's title, its line of prose and its "Find
out more" (`<a href><h3>Audit</h3><div>Our audits ...</div></a>`). A landing page's
cards are its sections, each a service and a line on it: the prose such a link wraps
is the card's text, not a link's, where a landing page is read whole
(wf/extract/kinds/landing.py). Elsewhere such a card is a teaser for another page and
its text stays link text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

# The boxes of a card's paragraphs, inside the link that wraps the card.
_PROSE_BOXES = ("p", "div")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def card_prose(b: BlockRecord) -> bool:
    """Whether a walked block is a paragraph of a card made one link: GOOD_MIN
    characters or more, all in the link, a <p> or <div> holding no block."""
    from wf.extract.records import GOOD_MIN

    if b.own < GOOD_MIN or b.own_link < b.own or b.tag not in _PROSE_BOXES:
        return False
    if b.end > b.index + 1:
        return False  # a box of blocks: its paragraphs are judged each
    return next(b.el.iterancestors("a"), None) is not None


def wrapped_prose(a: Any, length: Any) -> int:
    """The characters of the paragraphs a link wraps (its innermost <p> and <div> boxes
    of GOOD_MIN characters or more, no heading in them), by `length` (an XPath string
    length): 0 for a link of words alone."""
    from wf.extract.records import GOOD_MIN

    prose = 0
    for box in a.iterdescendants(*_PROSE_BOXES):
        if next(box.iterdescendants(*_PROSE_BOXES, *_HEADINGS), None) is not None:
            continue  # its paragraphs are counted inside it
        n = int(length(box))
        if n >= GOOD_MIN:
            prose += n
    return prose


def titled_card(el: Any) -> bool:
    """Whether a box is a titled card or in one: it holds a heading, or a link around it
    does (a card made one link). A promotion so titled is a service the page offers; a
    line alone under a shop's item ("Free gift with purchase") is the shop's offer."""
    if next(el.iter(*_HEADINGS), None) is not None:
        return True
    link = next(el.iterancestors("a"), None)
    return link is not None and next(link.iter(*_HEADINGS), None) is not None
