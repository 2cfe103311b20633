"""The shop's other products under a product (wf/extract/kinds/product_text.py,
before_others): small pages of our own."""

from __future__ import annotations

from tests.test_wf_extract_products import DESCRIPTION, PROSE, shop_page
from wf.extract import extract
from wf.extract.kinds.product_text import before_others, headings_once

OFFER = {"price": "89.00", "priceCurrency": "USD"}

# The product's own sections: its care, its dimensions, its materials.
OWN = "".join(
    f"<div class='pd-section'><h3>{title}</h3><p>{text}</p></div>"
    for title, text in (
        ("Care", "Wipe the case with a soft dry cloth; polish the brass twice a year."),
        ("Dimensions", "Eighteen centimetres across and six deep, for a wall or a shelf."),
        ("Materials", "Naval brass, mineral glass and a quartz movement set by the tides."),
    )
)

# What a shop sets under every product: a carousel titled as the products bought with
# this one (its cards filled in by a script), then the questions it
# answers on every page, then the products the reader saw before.
SHOP = (
    "<section><p>Frequently Purchased With</p><div class='track'></div></section>"
    "<div class='questions'><h2>Common questions</h2>"
    "<p>How long does delivery take? Every order leaves our warehouse within two "
    "working days and reaches most addresses within the week.</p>"
    "<p>Can I pay in instalments? Orders over fifty dollars can be split into three "
    "payments at checkout, without interest.</p></div>"
    "<section><p>Recently Viewed</p><div class='track'></div></section>"
)


def test_what_follows_the_shop_s_other_products_is_left_out():
    body = f"<div class='pd-info'><p>{DESCRIPTION}</p>{PROSE}{OWN}{SHOP}</div>"
    text = extract(shop_page(OFFER, body)).text
    assert "Each clock is turned from solid brass" in text
    assert "polish the brass twice a year" in text and "set by the tides" in text
    assert "Frequently Purchased With" not in text
    assert "How long does delivery take" not in text and "Recently Viewed" not in text


def test_a_title_of_other_products_in_the_text_s_first_part_ends_nothing():
    # A shop sets "You may also like" between the name and the description: the
    # product's own text follows it.
    lines = ["# Brass tide clock", "You may also like", "Barometer", DESCRIPTION, "Care", "Dry."]
    text = "\n\n".join(lines)
    assert before_others(text) == text


def test_a_line_that_only_names_other_products_in_a_sentence_ends_nothing():
    lines = [
        "# Brass tide clock",
        DESCRIPTION,
        "Care",
        "Dry.",
        "Similar items from 1921 hang aboard.",
    ]
    text = "\n\n".join(lines)
    assert before_others(text) == text


# A shop's selling points, each in its desktop layout and again in its mobile one: the
# copy's text goes as a repeat (once), its title, too short to judge so, was left over
# nothing.
POINTS = "".join(
    f"<section><div class='text'><div class='desktop-text'><h2>{title}</h2><h6>{text}</h6>"
    f"</div><div class='mobile-text'><h2>{title}</h2><h6>{text}</h6></div></div></section>"
    for title, text in (
        ("Sea proof", "Sealed against spray and salt, its case shrugs off a wet chart room."),
        ("Tide set", "Once set by the local tables, it keeps the tide for years on end."),
    )
)


def test_a_heading_repeated_over_nothing_is_printed_once():
    body = f"<div class='pd-info'><p>{DESCRIPTION}</p>{POINTS}</div>"
    text = extract(shop_page(OFFER, body)).text
    assert text.count("Sea proof") == 1 and text.count("Tide set") == 1
    assert "shrugs off a wet chart room" in text and "keeps the tide for years" in text


def test_a_heading_repeated_over_text_of_its_own_stays():
    text = "## Small\n\n### Size\n\n20 cm\n\n## Large\n\n### Size\n\n30 cm"
    assert headings_once(text) == text


def test_a_comment_in_code_is_no_heading():
    text = "## Setup\n\n```\n# Setup\n# Setup\n```"
    assert headings_once(text) == text


def test_other_titles_of_the_shop_s_other_products_end_the_text():
    # The titles shops and marketplaces give the same carousels.
    for title in (
        "You may also need",
        "Recommended for you",
        "People also bought",
        "Complete your look",
        "Products related to this item",
        "More items to explore",
        "Inspired by your browsing history",
    ):
        lines = ["# Brass tide clock", DESCRIPTION, "Care", "Dry.", title, "Barometer, $59"]
        text = before_others("\n\n".join(lines))
        assert text.endswith("Dry."), title
