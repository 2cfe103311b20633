"""wf/extract/kinds/linkcards.py: the prose of cards made one link, on small cards of our
own (a landing page of such cards read whole is in test_wf_extract_landing.py)."""

from __future__ import annotations

import lxml.html

from common.xpath import text_length
from wf.extract.kinds import linkcards

LINE = "Channels kept at the depth your largest ships need, surveyed after each storm."


def _link(inner: str) -> object:
    return lxml.html.fragment_fromstring(f"<a href='/s'>{inner}</a>")


def test_the_prose_a_link_wraps_is_its_paragraphs_alone():
    length = text_length()
    card = _link(f"<h3>Dredging</h3><div class='desc'>{LINE}</div><div>Find out more</div>")
    assert linkcards.wrapped_prose(card, length) == len(LINE)
    # A box of boxes is counted in its paragraphs, once.
    nested = _link(f"<div><h3>Dredging</h3><div><p>{LINE}</p></div></div>")
    assert linkcards.wrapped_prose(nested, length) == len(LINE)
    # A link of words alone, and a short line under a title, wrap no prose.
    assert linkcards.wrapped_prose(_link("Read the whole story about our harbour"), length) == 0
    assert linkcards.wrapped_prose(_link("<h3>Dredging</h3><div>Deep channels</div>"), length) == 0


def test_a_titled_card_holds_a_heading_or_sits_in_a_link_that_does():
    card = _link(f"<h3>Dredging</h3><div class='desc'>{LINE}</div>")
    desc = card.find("div")
    assert linkcards.titled_card(card) and linkcards.titled_card(desc)
    untitled = _link(f"<div class='desc'>{LINE}</div>")
    assert not linkcards.titled_card(untitled.find("div"))
    assert not linkcards.titled_card(lxml.html.fragment_fromstring(f"<div>{LINE}</div>"))
