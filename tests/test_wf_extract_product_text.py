"""A product page's text once chosen (wf/extract/kinds/product_text.py) and the noise
left out of it (wf/extract/kinds/product.py): small pages of our own."""

from __future__ import annotations

import time

import pytest

from tests.test_wf_extract_kinds import ld, page
from tests.test_wf_extract_products import DESCRIPTION, PROSE, SUMMARY, shop_page, summarised
from wf.extract import extract

OFFER = {"price": "89.00", "priceCurrency": "USD"}


def _table(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{cells}</table>"


SPECS = [
    ("Case", "Solid naval brass"),
    ("Dial", "Printed by hand, 14 cm"),
    ("Movement", "Quartz, tide-set"),
    ("Weight", "1.2 kg"),
]


def test_a_specification_table_printed_twice_is_printed_once():
    # The shop prints its specifications in a tab and again in the small screens'
    # accordion, one row worded otherwise there.
    again = [("Housing", "Solid naval brass"), *SPECS[1:]]
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        f"<div class='tab'><h2>Specifications</h2>{_table(SPECS)}</div>"
        f"<div class='accordion'><h3>Specifications</h3>{_table(again)}</div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert text.count("Printed by hand, 14 cm") == 1
    assert text.count("Quartz, tide-set") == 1
    assert "Housing" not in text


def test_two_tables_that_share_a_row_or_two_are_both_printed():
    # A clock and its matching barometer: most rows differ, both tables stay.
    other = [
        ("Case", "Solid naval brass"),
        ("Dial", "Aneroid, 12 cm"),
        ("Movement", "Aneroid capsule"),
        ("Weight", "0.9 kg"),
    ]
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}<h2>The clock</h2>{_table(SPECS)}"
        f"<h2>Its barometer</h2>{_table(other)}"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Quartz, tide-set" in text and "Aneroid capsule" in text
    assert text.count("Solid naval brass") == 2


def _noise(word: str, n: int) -> str:
    """A word spelt out among identifiers, as a style sheet shows only its letters."""
    return "".join(
        f"<span class='c{i}'>{letter}</span><span class='x'>{i:08x}-1bc7-4f5f-a4f7-{i:012x}</span>"
        for i, letter in enumerate(word * n)
    )


def test_identifiers_written_for_copies_of_the_page_are_left_out():
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        f"<div class='also'><h2>Also in brass</h2><div class='label'>{_noise('Sponsored', 2)}</div>"
        "<p>A barometer in the same brass, to hang beside the clock in the chart room.</p>"
        "</div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "1bc7-4f5f" not in text
    assert "A barometer in the same brass" in text
    assert "Each clock is turned from solid brass" in text


def test_a_few_identifiers_in_a_product_s_text_stay():
    # A part number written as a UUID, in a sentence: the sentence is no noise.
    sentence = (
        "Order spare hands under part 0a1b2c3d-1bc7-4f5f-a4f7-0123456789ab from the "
        "workshop, which keeps every size of hand the clocks have ever had."
    )
    body = f"<p>{DESCRIPTION}</p>{PROSE}<p>{sentence}</p>"
    text = extract(shop_page(OFFER, body)).text
    assert "0a1b2c3d-1bc7-4f5f-a4f7-0123456789ab" in text


def test_a_specification_table_in_a_tab_pane_a_style_hides_is_printed():
    # Bootstrap's tabs: the description's pane is shown, the specifications' pane waits
    # behind its tab, hidden by a style; a pane that copies another stays hidden.
    body = (
        "<div class='product-details'><ul class='tabs'><li>Overview</li><li>Specs</li></ul>"
        f"<div class='tab-panes'><div class='tab-pane'><p>{DESCRIPTION}</p>{PROSE}</div>"
        f"<div class='tab-pane' style='display:none'>{_table(SPECS)}</div>"
        f"<div class='tab-pane' style='display:none'>{_table(SPECS)}</div></div></div>"
        "<div class='note' style='display:none'><p>Engraving takes three more days.</p></div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Quartz, tide-set" in text and text.count("Printed by hand, 14 cm") == 1
    assert "Each clock is turned from solid brass" in text
    assert "Engraving takes three more days" not in text


def test_a_care_text_in_a_tab_content_box_a_style_hides_is_printed():
    # Themes name each panel `tab-content` (or `tab_content`) and hide all but the first
    # with a style until its tab is clicked: the product's care and its specifications.
    body = (
        "<div class='tabs'><ul><li><a href='#a'>Story</a></li><li><a href='#b'>Care</a></li>"
        f"</ul><div id='a' class='tab-content active'><p>{DESCRIPTION}</p>{PROSE}</div>"
        "<div id='b' class='tab_content' style='display:none'><p>Polish the case twice a "
        "year with a soft cloth; never put the clock in water.</p></div></div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Polish the case twice a year" in text


@pytest.mark.parametrize(
    "panel", ["product-tabs__panel", "tabs-content", "tab__body", "woocommerce-Tabs-panel"]
)
def test_a_care_text_in_a_theme_s_tab_panel_a_style_hides_is_printed(panel):
    # Other themes name a tab's panel for its tabs in their own way (`product-tabs__panel`,
    # `tabs-content`; WooCommerce's own, in any case, without its role): a panel all the
    # same.
    body = (
        f"<div class='product-tabs'><div class='{panel} is-active'><p>{DESCRIPTION}</p>"
        f"{PROSE}</div><div class='{panel}' style='display:none'><p>Polish the case twice "
        "a year with a soft cloth; never put the clock in water.</p></div></div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Polish the case twice a year" in text


def test_a_product_s_details_in_a_box_named_as_a_dialog_are_printed():
    # The shop writes the product's details and measurements in dialogs it opens over
    # the page; a dialog of the shop's own (the newsletter's) still goes.
    details = (
        "<div class='pd-product-details-modal'><h2>Product details</h2>"
        "<p>The dial is printed by hand in the workshop, then varnished twice so the "
        "salt air of a chart room never dulls it.</p></div>"
        "<div class='pd-measurements-modal'><h2>Measurements</h2>"
        "<p>Width: 20 cm</p><p>Depth: 6 cm</p></div>"
        "<div class='newsletter-modal'><p>Sign up for news of our clocks and barometers, "
        "sent once a month to your inbox.</p></div>"
    )
    body = f"<div class='pd-info'><p>{DESCRIPTION}</p>{PROSE}{details}</div>"
    text = extract(shop_page(OFFER, body)).text
    assert "varnished twice" in text and "Width: 20 cm" in text
    assert "Sign up for news" not in text


def test_a_product_told_in_three_short_paragraphs_does_not_print_its_declared_summary():
    # A shoe's page tells it in three short paragraphs of its own: the declaration's
    # summary for search engines, worded otherwise, is not printed over them.
    summary, declared = SUMMARY, summarised()
    story = "".join(
        f"<h2>{title}</h2><p>{PROSE[3:-4]} {title} is made so since {year}.</p>"
        for title, year in (("The case", 1921), ("The dial", 1934), ("Its care", 1950))
    )
    html = page(declared, f"<main><h1>Brass tide clock</h1>{story}</main>")
    text = extract(html, url="https://shop.example/p/clock").text
    assert "turned from solid brass" in text
    assert summary not in text


# The shop's boxes beside a product's own text: a size chart, loyalty points, a chat, a
# pay-later line; the options to pick, a bundle, the press logos; the ways to have it
# delivered, the other ways to pay, the buyer's protections; a variant's picker, the shop's
# promises.
SHOP_BOXES = [
    (
        (
            "<div class='pdp-size-chart'><p>Sizes</p><p>US 8 9 10 11 12 13</p>"
            "<p>UK 7 8 9 10 11 12</p><p>EU 41 42 43 44 45 46</p></div>"
            "<div class='pdp-rewards'><p>Members earn 89 points on this purchase, to spend "
            "on any clock or barometer in the shop next time.</p></div>"
            "<div class='live-chat'><p>Questions about this clock? Our team answers in minutes "
            "every day from nine until six.</p></div>"
            "<p class='afterpay-line'>or 4 interest-free payments of $22.25 with the "
            "pay-later service at checkout</p>"
        ),
        ("UK 7 8 9", "Members earn 89 points", "Our team answers", "interest-free"),
    ),
    (
        (
            "<div class='product-options'><p>Finish</p><p>Polished brass, $89.00</p>"
            "<p>Antique brass, $99.00</p><p>Chrome, $94.00</p></div>"
            "<div class='bundle-offer'><p>Buy it with the matching barometer and save ten "
            "percent on both of them today.</p></div>"
            "<div class='press-logos'><p>As seen in the Harbour Gazette, Chart Room Monthly "
            "and the Tide Tables Review this year.</p></div>"
        ),
        ("Antique brass, $99.00", "matching barometer", "Harbour Gazette"),
    ),
    (
        (
            "<div class='pdp-delivery'><p>Home delivery within five working days, free "
            "over $50, or collect it from our warehouse at no cost.</p></div>"
            "<div class='section-group more-ways-to-pay'><h2>More ways to pay</h2>"
            "<p>Spread the cost over twelve months with the shop's own card, at no "
            "interest for members.</p></div>"
            "<div class='buyer-protections'><p>Low price guarantee: if the price drops "
            "within ninety days, we refund the difference.</p></div>"
        ),
        ("Home delivery within", "twelve months", "Low price guarantee"),
    ),
    (
        (
            "<div class='qty-selector'><span>Qty</span><span class='minus'>-</span>"
            "<span class='value'>1</span><span class='plus'>+</span></div>"
            "<div class='product-quantity'><p>Quantity</p><p>1</p></div>"
        ),
        ("Qty", "Quantity"),
    ),
    (
        (
            "<section class='brand-story'><h2>Better clocks, made better</h2><p>Since 1921 "
            "our workshop by the harbour has turned brass for sailors, and it always will.</p>"
            "</section><div class='coop-brand-asset'><h2>Built together</h2><p>Every one of "
            "our instruments is tested at sea by the members of our co-op first.</p></div>"
        ),
        ("Better clocks", "Since 1921", "Built together", "tested at sea"),
    ),
    (
        (
            # Shopware's variant picker; PrestaShop's module of the shop's promises.
            "<div class='product-detail-configurator'><div class='product-detail-"
            "configurator-group-title'>Dial colour</div><label>Ivory</label>"
            "<label>Navy</label></div><div class='blockreassurance_product'><div>"
            "<span class='block-title'>Secure payment by card</span></div><div>"
            "<span class='block-title'>Delivered in two days</span></div></div>"
        ),
        ("Dial colour", "Navy", "Secure payment", "two days"),
    ),
]


@pytest.mark.parametrize("shop, gone", SHOP_BOXES)
def test_the_shop_s_boxes_beside_the_product_are_left_out(shop, gone):
    body = f"<div class='pd-info'><p>{DESCRIPTION}</p>{PROSE}{shop}</div>"
    text = extract(shop_page(OFFER, body)).text
    assert "Each clock is turned from solid brass" in text
    for line in gone:
        assert line not in text


SHELF = "A solid oak shelf, oiled by hand, that holds forty books and hangs on two hidden brackets."


def test_the_other_products_a_shop_offers_with_this_one_are_left_out():
    # WooCommerce's "You may also like" (`up-sells`) under a product whose short
    # description is read in the page around it, without its named boilerplate: the
    # cards' titles and prices stayed.
    declared = ld({"@type": "Product", "name": "Oak shelf", "description": SHELF})
    cards = "".join(
        f"<li class='product'><a href='/p/{n}'><h2>{t}</h2><span class='price'>£{p}.00"
        "</span></a><a href='?add-to-cart=9' class='button'>Add to basket</a></li>"
        for n, (t, p) in enumerate((("Walnut shelf", 55), ("Pine shelf", 25)))
    )
    body = (
        "<div id='primary'><main id='main'><div class='product type-product'>"
        "<div class='summary entry-summary'><h1>Oak shelf</h1><p class='price'>£45.00</p>"
        f"<div class='short-description'><p>{SHELF}</p></div><p class='stock'>12 in stock</p>"
        "<form class='cart'><button>Add to basket</button></form><div class='product_meta'>"
        "SKU: OS-1 <a href='/c/shelves'>Shelves</a></div></div><div class='wc-tabs-wrapper'>"
        "<ul class='tabs'><li><a href='#d'>Description</a></li><li><a href='#i'>Additional "
        "information</a></li></ul><div class='panel' id='d'><h2>Description</h2><p>Each "
        "shelf is cut from a single board of English oak, planed and oiled three times. The "
        "brackets screw into the wall and slide into the back of the shelf.</p><p>It is 80 cm"
        " long and 20 cm deep, and carries up to 30 kg spread along its length.</p></div>"
        "<div class='panel' id='i'><h2>Additional information</h2><table><tr><th>Weight</th>"
        "<td>3 kg</td></tr></table></div></div><section class='up-sells upsells products'>"
        f"<h2>You may also like</h2><ul class='products'>{cards}</ul></section></div></main>"
        "</div>"
    )
    text = extract(page(declared, f"<nav><a href='/'>Home</a></nav>{body}")).text
    assert "English oak" in text and "| Weight | 3 kg |" in text
    assert "Walnut shelf" not in text and "Pine shelf" not in text


def test_a_dialog_drawn_over_the_screen_is_left_out_of_a_product():
    # A "notify me" dialog the page carries in its markup, shown until a script hides
    # it, in a box of Tailwind's full-screen classes; a box merely `fixed` (a header
    # bar's) or drawn `inset-0` over a picture is no dialog.
    dialog = (
        "<div class='fixed inset-0 z-50 overflow-y-auto'><h2>Notify me when back in "
        "stock</h2><p>Leave your address and we will write the day this clock returns to "
        "our workshop's shelves, once and never again.</p></div>"
    )
    inset = (
        "<div class='relative'><div class='absolute inset-0'><p>The dial glows softly at "
        "night, lit by a ring of warm light under its glass.</p></div></div>"
    )
    text = extract(shop_page(OFFER, f"<p>{DESCRIPTION}</p>{PROSE}{dialog}{inset}")).text
    assert "Notify me" not in text and "once and never again" not in text
    assert "The dial glows softly" in text


def test_a_bar_that_sticks_to_the_screen_goes_and_a_sticky_column_stays():
    # The bar repeats the name and price beside its button; the column beside the
    # pictures, sticky too, holds the product's own text.
    bar = (
        "<div class='product-sticky-bar'><p>Brass tide clock, hand-finished</p>"
        "<p>Only $89.00 today</p><button>Add to basket</button></div>"
    )
    column = f"<div class='info-sticky-column'><p>{DESCRIPTION}</p>{PROSE}{PROSE}</div>"
    text = extract(shop_page(OFFER, f"{column}{bar}")).text
    assert "Each clock is turned from solid brass" in text
    assert "Only $89.00 today" not in text and "hand-finished" not in text


def test_a_marquee_s_short_lines_printed_again_are_printed_once():
    # The marquee's slides, short lines each, printed three times for its scroll to
    # loop; the clock's parts, short lines that repeat in runs shorter than
    # product_tuning.RUN_LINES, are data and stay.
    slides = ["Solid brass", "Hand-printed dial", "Quartz movement", "Tide-set", "Made by hand"]
    marquee = "".join(
        "<ul class='ticker'>" + "".join(f"<li>{s}</li>" for s in slides) + "</ul>" for _ in range(3)
    )
    parts = "".join(
        f"<h3>{part}</h3><p>4 mm</p><p>2</p>" for part in ("Hinge", "Bezel", "Hand", "Key")
    )
    body = f"<p>{DESCRIPTION}</p>{PROSE}{marquee}<h2>In the box</h2>{parts}"
    text = extract(shop_page(OFFER, body)).text
    for slide in slides:
        assert text.count(slide) == 1
    assert text.count("4 mm") == 4


def test_a_control_s_label_alone_on_its_line_is_left_out_of_a_product():
    # "Read more" under the description, "Loading..." where a script fills a box no name
    # marks (one named `widget` goes by its name): controls. A sentence that says to read
    # more stays.
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}<div class='collapse-toggle'>READ MORE</div>"
        "<p>Read more about the tides in our harbour guide, free with every clock.</p>"
        "<div><span>Loading...</span></div><div><span>Loading \u2026</span></div>"
        "<p class='all'>View all</p>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Read more about the tides" in text
    assert "READ MORE" not in text and "Loading" not in text and "View all" not in text


def test_a_unit_price_s_labels_over_no_price_are_left_out():
    # Shopify's Dawn writes the unit price's box beside every price, hidden by its class
    # and empty but for its screen readers' words ("Unit price", "per"), which glued to
    # the price; a box hidden on small screens only, and a sentence about unit prices,
    # stay.
    unit = (
        "<small class='unit-price caption hidden'><span class='visually-hidden'>Unit price"
        "</span><span class='price-item'><span></span><span aria-hidden='true'>/</span>"
        "<span class='visually-hidden'>&nbsp;per&nbsp;</span><span></span></span></small>"
    )
    body = (
        f"<div class='price'><span class='visually-hidden'>Regular price</span> "
        f"<span class='price-item'>$89.00</span>{unit}</div><p>{DESCRIPTION}</p>{PROSE}"
        "<p><span class='hidden md:inline'>Hand made</span> in Cornwall.</p>"
        "<p>Unit price per clock falls when you buy a pair for the two ends of a house.</p>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Unit price per clock falls" in text and "Hand made in Cornwall." in text
    assert "$89.00\n" in text and text.count("Unit price") == 1


def test_the_buy_button_s_label_after_the_price_is_left_out():
    # WooCommerce's "Add to basket" link set on the price's line, and a link alone on
    # its line: what a reader does, not what the product is. A sentence that names the
    # button stays.
    declared = ld({"@type": "Product", "name": "Brass tide clock", "description": DESCRIPTION})
    buy = "<a href='?add-to-cart=12' class='button add_to_cart_button'>Add to basket</a>"
    body = (
        "<div class='product'><div class='summary'><h1>Brass tide clock</h1>"
        f"<div class='price-row'><span class='price'>$89.00</span> {buy}</div>"
        f"<div class='short-description'><p>{DESCRIPTION}</p></div>"
        "<p><a href='?add-to-cart=12'>Add to cart</a></p></div>"
        f"<div class='tabs'><div class='panel'><h2>Description</h2>{PROSE}"
        "<p>Press Add to basket twice to have a pair sent in one box.</p></div>"
        "<div class='panel'><h2>Details</h2><table><tr><th>Weight</th><td>1.2 kg</td></tr>"
        "</table></div></div></div>"
    )
    text = extract(page(declared, f"<main>{body}</main>")).text
    assert "\n$89.00\n" in text and "Add to cart" not in text
    assert "Press Add to basket twice" in text and text.count("Add to basket") == 1


def test_the_buy_button_s_label_goes_after_a_price_in_a_currency_s_code():
    # A price written with its currency's code, before or after the number, or set apart
    # from the label by a dash: the label goes, the price stays. A label in a sentence and
    # a name that holds one stay.
    from wf.extract.kinds.product_text import once

    lines = (
        "45.00 EUR Add to cart",
        "EUR 45.00 Add to cart",
        "Price: \u20b91,299 \u2014 Add to cart",
        "Buy Now Pay Later guide",
        "Our guide to the Buy Now button",
    )
    assert once("\n\n".join(lines)).split("\n\n") == [
        "45.00 EUR",
        "EUR 45.00",
        "Price: \u20b91,299",
        "Buy Now Pay Later guide",
        "Our guide to the Buy Now button",
    ]


def test_the_buy_button_s_label_goes_after_a_price_in_the_baht_or_the_naira():
    from wf.extract.kinds.product_text import once

    lines = ("\u0e3f1,290 Add to cart", "\u20a65,000 Buy now", "450 \u20aa Add to basket")
    assert once("\n\n".join(lines)).split("\n\n") == ["\u0e3f1,290", "\u20a65,000", "450 \u20aa"]


def test_the_buy_button_s_label_goes_in_more_languages():
    # Portuguese, Dutch, Polish, Swedish and Danish labels, after a price or on a line of
    # their own; Japanese and Chinese ones written with no space, or none before them.
    from wf.extract.kinds.product_text import once

    lines = (
        "R$ 199,90 Adicionar ao carrinho",
        "Comprar agora",
        "€ 24,95 In winkelwagen",
        "149,00 zł Dodaj do koszyka",
        "299 kr Lägg i varukorgen",
        "Læg i kurv",
        "¥1,200カートに入れる",
        "1,200円 カートに入れる",
        "加入购物车",
        "¥99 加入购物车",
        # No price before it: the label is a word of the line.
        "一键加入购物车",
    )
    assert once("\n\n".join(lines)).split("\n\n") == [
        "R$ 199,90",
        "€ 24,95",
        "149,00 zł",
        "299 kr",
        "¥1,200",
        "1,200円",
        "¥99",
        "一键加入购物车",
    ]


def test_an_unspaced_buy_label_is_read_from_a_long_line_in_linear_time():
    from wf.extract.kinds.product_text import once

    hostile = "¥1" * 200_000 + "カートに入れる"
    start = time.process_time()
    assert once(hostile) == "¥1" * 200_000
    assert time.process_time() - start < 3


def test_a_buy_button_s_label_is_read_from_a_long_line_in_linear_time():
    from wf.extract.kinds.product_text import once

    hostile = "$1 " * 100_000 + "Add to basket"
    start = time.process_time()
    assert once(hostile) == "$1 " * 99_999 + "$1"
    assert time.process_time() - start < 3


def test_a_product_titled_on_its_page_is_not_named_again_by_its_declaration():
    # The declaration's name is written for search engines, the page's <h1> for its
    # readers: the product is named once, as its page names it.
    declared = "Harbour Co. Brass Tide Clock: Nautical Wall Clock for Chart Rooms and Boats"
    text = extract(shop_page(OFFER, f"<p>{DESCRIPTION}</p>{PROSE}", name="Brass tide clock"))
    assert text.text.startswith("Price: 89.00 USD\n\n# Brass tide clock")
    html = page(
        ld({"@type": "Product", "name": declared, "offers": OFFER}),
        f"<main><h1>Brass Tide Clock</h1><p>{DESCRIPTION}</p>{PROSE}</main>",
    )
    found = extract(html).text
    assert declared not in found and found.count("# Brass Tide Clock") == 1
    # A first heading that is not the product's title leaves the declared name printed.
    other = page(
        ld({"@type": "Product", "name": declared, "offers": OFFER}),
        f"<main><h1>Our workshop</h1><p>{DESCRIPTION}</p>{PROSE}</main>",
    )
    assert f"# {declared}" in extract(other).text


def test_a_comment_in_a_product_s_code_is_no_title():
    # A shell's comment in a code block starts as a first-level heading does: the
    # declared name is printed still.
    from wf.extract.kinds.product_text import titled

    code = "Set it up:\n\n```\n# wind the tide clock\nclockctl wind\n```"
    assert not titled("Brass tide clock", code)
    assert titled("Brass tide clock", "# Tide clock\n\n" + code)


def test_a_product_s_figures_told_in_words_are_printed():
    # A shop sets its figures in <figure> boxes without a picture: specifications. A
    # picture's figure and its caption still go.
    stats = "".join(
        f"<figure class='stat'><span>{n}</span> {what}</figure>"
        for n, what in (("1600 nits", "peak brightness of the dial"), ("Up to 30%", "lighter"))
    )
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}<div class='stats'>{stats}</div>"
        "<figure><img src='clock.jpg' alt=''><figcaption>The clock on a chart room's "
        "wall</figcaption></figure>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "1600 nits peak brightness of the dial" in text and "Up to 30% lighter" in text
    assert "chart room's wall" not in text


def test_a_variant_s_picker_leaves_no_legend_over_nothing():
    # The swatches are radio buttons with labels, outside the purchase form: the cleaning
    # drops the controls, and the legends "Finish" and "Size" stood alone.
    picker = (
        "<fieldset><legend>Finish</legend><label><input type='radio' name='f'>Polished"
        "</label><label><input type='radio' name='f'>Antique</label></fieldset>"
        "<fieldset><legend>Size</legend><label><input type='radio' name='s'>Small</label>"
        "</fieldset>"
    )
    text = extract(shop_page(OFFER, f"<p>{DESCRIPTION}</p>{picker}{PROSE}")).text
    assert "Finish" not in text and "\nSize\n" not in text
    assert PROSE[3:40] in text


def test_loading_as_a_product_s_own_word_stays():
    # A washing machine's page: "Loading" titles a section, labels a row of its
    # specifications, heads a table's column and names one of its modes. Neither a
    # heading nor a table's row is a control, and the word without a placeholder's dots
    # is none either.
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}<h3>Loading</h3><p>The drum takes seven kilograms "
        "through a door that opens wide, at the height of a kitchen counter.</p>"
        "<dl><dt>Loading</dt><dd>Front, 7 kg</dd><dt>Spin</dt><dd>1400 rpm</dd></dl>"
        "<table><tr><th>Loading...</th></tr><tr><td>Front</td></tr></table>"
        "<ul><li>Loading</li><li>Washing</li><li>Drying</li></ul>"
        "<p><strong>Loading:</strong></p><p>Front, 7 kg</p><h4>Read more</h4>"
        "<p>The drum's paddles lift the washing gently, and its door locks until it stops.</p>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "### Loading\n" in text and "#### Read more\n" in text
    assert "\nLoading\n\nFront, 7 kg" in text and "| Loading... |\n| --- |" in text
    assert "- Loading\n- Washing" in text and "\nLoading:\n" in text


def test_a_control_s_label_on_a_long_line_is_read_in_linear_time():
    # Every split of the dots between two quantifiers would take minutes; this takes
    # milliseconds. The bound only catches a pattern that backtracks.
    from wf.extract.kinds.product_text import once

    hostile = "\n".join(
        (
            "Loading" + "." * 200_000 + "x",
            " " * 200_000 + "Read more" + "!" * 200_000 + "x",
        )
    )
    start = time.process_time()
    assert once(hostile) == hostile
    assert time.process_time() - start < 3


def test_two_products_compared_keep_the_features_they_share():
    # The clock and its barometer side by side, each card ending in the same six short
    # lines: other lines stand between the two copies, which no loop prints so; both
    # stay.
    shared = "".join(
        f"<li>{x}</li>"
        for x in ("Hangs on", "a brass hook", "Ships with", "a spare battery", "Fits", "a cabin")
    )

    def card(name: str, own: tuple[str, ...]) -> str:
        items = "".join(f"<li>{x}</li>" for x in own)
        return f"<div class='card'><h3>{name}</h3><ul>{items}{shared}</ul></div>"

    cards = card("Tide clock", ("Quartz", "Tide-set", "14 cm dial", "Brass", "1.2 kg")) + card(
        "Barometer", ("Aneroid", "Storm-set", "12 cm dial", "Steel", "0.9 kg", "Glass")
    )
    text = extract(shop_page(OFFER, f"<p>{DESCRIPTION}</p>{PROSE}{cards}")).text
    assert text.count("a spare battery") == 2 and text.count("Hangs on") == 2


class _Counted(str):
    """A line's key that counts each time it is hashed or compared."""

    calls = 0

    def __hash__(self) -> int:
        _Counted.calls += 1
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        _Counted.calls += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        _Counted.calls += 1
        return str.__ne__(self, other)


@pytest.mark.parametrize(
    "shape",
    [
        lambda n: ["ab"] * n,  # one line over and over: a loop of one
        lambda n: [str(i % 7) for i in range(n)],  # a loop of seven
        # A long run, then other lines, then the run again: each of its windows repeats
        # one far back, and none makes a copy that follows its original.
        lambda n: [
            *(f"a{i}" for i in range(n // 3)),
            *(f"b{i}" for i in range(n // 3 + 1)),
            *(f"a{i}" for i in range(n // 3)),
        ],
    ],
)
def test_runs_printed_again_are_found_in_linear_work(shape):
    from wf.extract.kinds.product_text import _runs_again

    keys = [_Counted(k) for k in shape(200_000)]
    _Counted.calls = 0
    _runs_again(list(keys), keys)
    # Each window of five lines hashed, found and compared once, one line a step.
    assert _Counted.calls <= 20 * len(keys)


def _og_page(body: str, og: str = DESCRIPTION) -> str:
    # A product declared without a description; its og:description is the shop's summary.
    declared = ld({"@type": "Product", "name": "Brass tide clock", "offers": OFFER})
    head = f"<meta property='og:description' content='{og}'>{declared}"
    return page(head, f"<main><h1>Brass tide clock</h1>{body}</main>")


def test_an_og_description_tells_a_product_declared_without_one():
    found = extract(_og_page(f"<p>$89.00</p><h2>Specifications</h2>{_table(SPECS)}"))
    assert found.kind == "product"
    assert DESCRIPTION in found.text
    assert "Solid naval brass" in found.text


def test_an_og_description_the_page_shows_or_outdoes_is_not_printed():
    shown = extract(_og_page(f"<p>{DESCRIPTION}</p>{_table(SPECS)}")).text
    assert shown.count("kept true by a quartz movement") == 1
    more = (
        "<p>The dial is read from across the room: high water at the top, low water at the "
        "bottom, and the hand moves between them twice a day as the moon pulls the sea.</p>"
        "<p>Set it once from the local tables on a day of high water; it keeps the tides "
        "true within minutes for a year before it wants setting again.</p>"
    )
    told = extract(_og_page(PROSE + more + _table(SPECS), og=SUMMARY)).text
    assert SUMMARY not in told
