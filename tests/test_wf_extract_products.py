"""wf/extract/kinds/product.py and the writer's fallbacks on a product page: small pages
of our own."""

from __future__ import annotations

import pytest

from tests.test_wf_extract_kinds import ld, page
from wf.extract import extract

DESCRIPTION = (
    "A brass tide clock for the chart room: it shows high and low water at a glance, "
    "set once by the local tide tables and kept true by a quartz movement."
)


def _clock() -> str:
    """A tide clock's JSON-LD: a product whose box a script fills."""
    return ld(
        {
            "@type": "Product",
            "name": "Brass tide clock",
            "description": DESCRIPTION,
            "offers": {"@type": "Offer", "price": "89.00", "priceCurrency": "USD"},
        }
    )


def test_a_product_built_by_scripts_prints_its_declaration_not_the_page_s_menus():
    menus = "".join(
        f"<li><a href='/c/{n}'>Category {n}</a><ul><li><a href='/c/{n}/a'>All of {n}</a></li>"
        f"<li><a href='/c/{n}/new'>New in {n}</a></li></ul></li>"
        for n in range(1, 8)
    )
    declared = _clock()
    # The page's own text is next to nothing: a script fills the product's box.
    html = page(
        declared,
        f"<header><a href='#main'>Skip to content</a><ul class='menu'>{menus}</ul></header>"
        "<div id='product-root'></div>",
    )
    found = extract(html, url="https://shop.example/p/clock")
    assert found.kind == "product"
    assert DESCRIPTION in found.text
    assert "Brass tide clock" in found.text and "89.00" in found.text
    assert "Category 3" not in found.text and "Skip to content" not in found.text


def shop_page(offer: dict[str, str], body: str, name: str = "Brass tide clock") -> str:
    declared = ld({"@type": "Product", "name": name, "description": DESCRIPTION, "offers": offer})
    return page(declared, f"<main><h1>{name}</h1>{body}</main>")


PROSE = (
    "<p>Each clock is turned from solid brass, its dial printed by hand and its movement "
    "set and tested for a week before it leaves the workshop by the harbour.</p>"
)


def _parts(count: int) -> str:
    """The product's sections, each a titled paragraph in a box no name marks."""
    return "".join(
        f"<div class='block'><h2>Part {n}</h2><p>{PROSE[3:-4]} The tide's hand turns "
        f"once in twelve hours and twenty-five minutes ({n}).</p></div>"
        for n in range(count)
    )


def test_a_declared_availability_is_printed_in_words():
    offer = {"price": "89.00", "priceCurrency": "USD", "availability": "https://schema.org/InStock"}
    text = extract(shop_page(offer, f"<p>{DESCRIPTION}</p>{PROSE}")).text
    assert "Availability: In stock" in text
    assert "InStock" not in text


def test_a_price_the_page_shows_in_its_own_format_is_not_printed_again():
    offer = {"price": "1772.00", "priceCurrency": "USD"}
    text = extract(
        shop_page(offer, f"<p class='price'>$1,772.00</p><p>{DESCRIPTION}</p>{PROSE}")
    ).text
    assert "$1,772.00" in text
    assert "Price:" not in text


def test_a_price_the_page_does_not_show_is_printed():
    # "1772" as a count of reviews is no price: no currency's mark beside it.
    offer = {"price": "1772.00", "priceCurrency": "USD"}
    text = extract(shop_page(offer, f"<p>1772 reviews</p><p>{DESCRIPTION}</p>{PROSE}")).text
    assert "Price: 1772.00 USD" in text


def test_a_declared_name_s_entities_are_decoded():
    name = "Tide clock &amp; barometer"
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, PROSE, name)).text
    assert "Tide clock & barometer" in text and "&amp;" not in text


def accordion(title: str, words: str) -> str:
    return f"<details><summary>{title}</summary><div><p>{words}</p></div></details>"


SHIPPING = (
    "Standard shipping is free on orders over $65 and arrives in three to six business "
    "days; returns are accepted within thirty days of delivery."
)


def test_a_section_of_the_shop_s_policies_is_left_out():
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        + accordion("Care", "Wipe the brass with a dry cloth; never use a polish on the dial.")
        + accordion("Delivery &amp; Returns", SHIPPING)
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "never use a polish" in text
    assert "Standard shipping" not in text and "Delivery & Returns" not in text


def test_a_section_of_the_shop_s_policies_laid_out_with_much_white_space_is_left_out():
    # A theme's template indents every box, and the boxes the cleaning drops (its
    # scripts) leave their indentation, joined in one run of white space of thousands of
    # characters: the section's text is short all the same.
    indent = "\n" + " " * 60
    filler = "".join(f"{indent}<script>var n{n} = {n};</script>" for n in range(100))
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        f"<div class='accordion-item'>{indent}<div class='accordion-title'>Shipping and "
        f"Returns</div>{indent}<div class='accordion-content'>{filler}<p>{SHIPPING}</p>"
        f"{indent}</div>{indent}</div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "Each clock is turned from solid brass" in text
    assert "Standard shipping" not in text and "Shipping and Returns" not in text


def test_a_section_of_the_shop_s_warranty_is_left_out():
    # The shop's guarantee is the same on every product of it, as its delivery terms are.
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        + accordion("Lifetime Guarantee", "We replace any clock that stops, as long as you own it.")
        + accordion("Shipping, Returns &amp; Warranty", SHIPPING)
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert DESCRIPTION in text
    assert "We replace any clock" not in text and "Standard shipping" not in text


def test_a_shipping_cost_under_its_label_stays():
    # "Shipping:" labels a field of the offer (its cost), not a section of policies.
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        "<div class='row'><div class='label'>Shipping:</div>"
        "<div class='value'>US $15.47 International Shipping to most countries</div></div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "US $15.47 International Shipping" in text


FACTS = [
    "Solid naval brass case",
    "Dial printed by hand",
    "Quartz tide movement",
    "Lacquered against salt air",
    "Twelve hours and 25 minutes a turn",
    "Wall mount included",
    "One AA battery, a year's time",
    "Made in a harbour workshop",
    "Tested for a week",
    "Wooden gift box",
    "Spare hand in the box",
    "Ten years' guarantee",
]


def test_a_product_told_in_sections_prints_them_all():
    # The description is the one run of prose; the rest of the page tells the product in
    # short lines, band after band (what it is made of, how it keeps time, what comes),
    # each with its links to more: the description's region does not grow into them.
    bands = "".join(
        f"<div class='band'><h2>Band {n}</h2><ul>"
        + "".join(f"<li>{fact}</li>" for fact in FACTS[n * 4 : n * 4 + 4])
        + f"</ul><p><a href='/guide/{n}'>Read the whole guide to this part of the clock</a>"
        f" <a href='/video/{n}'>Watch the film</a></p></div>"
        for n in range(3)
    )
    body = (
        f"<div class='hero'><div class='description'><p>{DESCRIPTION}</p>{PROSE}</div>"
        "<form><button>Add to cart</button></form></div>"
        f"<div class='more'>{bands}{bands.replace('Band', 'More')}</div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert DESCRIPTION in text
    assert "Solid naval brass case" in text and "Wooden gift box" in text


def test_a_product_s_lines_printed_twice_by_the_page_are_printed_once():
    # The page's mobile and desktop layouts each carry the selling points; the sizes
    # repeat as data in both and stay.
    points = "".join(
        f"<li>{p}</li>"
        for p in ("Spun from one sheet of naval brass", "Keeps the moon's time all year")
    )
    layout = f"<div class='points'><ul>{points}</ul><p>Size: 20 cm</p></div>"
    body = f"<p>{DESCRIPTION}</p>{PROSE}{layout}{layout}"
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert text.count("Spun from one sheet of naval brass") == 1
    assert text.count("Keeps the moon's time all year") == 1
    assert text.count("Size: 20 cm") == 2


def test_a_box_a_class_hides_is_left_out_of_a_product():
    # The shop's scripts read the product's fields from a list the class `hide` keeps
    # out of sight; a box hidden only on small screens (`hidden md:block`) is shown.
    fields = "".join(f"<dt>swatch_{n}:</dt><dd>colour_code_{n}</dd>" for n in range(40))
    body = (
        f"<div class='product-info'><p>{DESCRIPTION}</p>{PROSE}"
        f"<dl class='product-fields hide'>{fields}</dl>"
        "<div class='hidden md:block'><p>Hung on a brass hook, it reads true from "
        "across the room.</p></div></div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "Each clock is turned from solid brass" in text
    assert "colour_code_7" not in text and "swatch_3" not in text
    assert "reads true from across the room" in text


def test_questions_past_show_more_stay_though_a_class_hides_them():
    # The page shows its first questions and hides the rest until "Show more" is pressed.
    items = "".join(
        f"<div class='faq-item{' hidden' if n > 1 else ''}'><h3>Question {n}?</h3>"
        f"<p>Answer {n}: the clock needs a new battery once a year, no more.</p></div>"
        for n in range(5)
    )
    body = (
        f"<div class='product-info'><p>{DESCRIPTION}</p>{PROSE}<div class='faq'>{items}</div></div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "Answer 0:" in text and "Answer 4:" in text


SUMMARY = "Shop the best brass tide clock online: free shipping, great prices, top quality."


def summarised() -> str:
    """The JSON-LD of a product whose declared description is a search engine's summary
    that the page does not show."""
    return ld(
        {
            "@type": "Product",
            "name": "Brass tide clock",
            "description": SUMMARY,
            "offers": {"price": "89.00", "priceCurrency": "USD"},
        }
    )


def test_a_product_told_at_length_does_not_print_its_declared_summary():
    # The declaration's description is a summary for search engines that the page does
    # not show; the page tells the product in paragraphs of its own.
    summary, declared = SUMMARY, summarised()
    story = "".join(
        f"<p>{PROSE[3:-4]} The tide's hand turns once in twelve hours and twenty-five "
        f"minutes, so the clock keeps the sea's time and not the sun's ({n}).</p>"
        for n in range(6)
    )
    html = page(declared, f"<main><h1>Brass tide clock</h1>{story}</main>")
    text = extract(html, url="https://shop.example/p/clock").text
    assert "keeps the sea's time" in text
    assert summary not in text
    short = page(declared, f"<main><h1>Brass tide clock</h1>{PROSE}</main>")
    assert summary in extract(short, url="https://shop.example/p/clock").text


def test_a_box_comparing_other_products_is_left_out():
    # The shop sets its other clocks beside this one in a table, under the description.
    rows = "".join(
        f"<tr><td>{name}</td><td>{size} cm across, {weight} kg, brass and glass</td></tr>"
        for name, size, weight in (
            ("Harbour barometer", 18, 1.2),
            ("Ship's bell clock", 22, 1.9),
            ("Pocket tide watch", 5, 0.2),
            ("Chart room hygrometer", 15, 0.9),
        )
    )
    body = (
        f"<div class='product-info'><p>{DESCRIPTION}</p>{PROSE}"
        f"<section class='product-comparison'><h2>Which instrument is yours?</h2>"
        f"<table>{rows}</table></section></div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "Each clock is turned from solid brass" in text
    assert "Harbour barometer" not in text and "Which instrument" not in text


def test_a_thin_region_widens_to_the_box_that_holds_the_product_not_the_page():
    # The region of the declared description is a short box (the colours' links beside
    # it stop its growth); the product's sections stand beside it in the shop's main box,
    # and strips that no name marks run above and below that box.
    sections = _parts(3)
    strip = (
        "<div class='strip'><p>Our harbour shop opens at nine every day but Sunday, and "
        "the workshop can be visited on the first Saturday of each month.</p></div>"
    )
    colours = "".join(
        f"<li><a href='/c/{n}'>Brass tide clock in colour {n}</a></li>" for n in range(20)
    )
    body = (
        f"{strip}<div class='shop'><div class='summary'><p>{DESCRIPTION}</p></div>"
        f"<ul class='colours'>{colours}</ul>{sections}</div>{strip.replace('strip', 'strap')}"
    )
    html = page(
        ld({"@type": "Product", "name": "Brass tide clock", "description": DESCRIPTION}),
        body,
    )
    text = extract(html, url="https://shop.example/p/clock").text
    assert DESCRIPTION in text and "twenty-five minutes (2)" in text
    assert "harbour shop opens" not in text


def test_a_product_page_read_whole_leaves_out_its_footer_s_notice():
    # A thin product (no declared description, three short lines) read whole: the footer's
    # notice to consumers, most of the page's prose, is no part of it.
    notice = (
        "Notice to consumers: the shop may collect identifiers, commercial information and "
        "internet activity when you visit this website, and may use such information to "
        "draw inferences and for other operational and commercial purposes. For more "
        "information, please see our privacy policy and the terms of every sale we make."
    )
    menu = "".join(f"<li><a href='/c/{n}'>Department number {n}</a></li>" for n in range(12))
    swatches = "".join(f"<li><a href='?c={c}'>Colour {c}</a></li>" for c in ("white", "navy"))
    declared = ld({"@type": "Product", "name": "Quarter socks"})
    html = page(
        declared,
        f"<nav><ul>{menu}</ul></nav><div id='root'><div class='product'>"
        f"<div class='pick'><div class='title'><h1>Quarter socks</h1></div><ul>{swatches}</ul>"
        "</div><div class='buy'><p>Size: L</p><p>Colour: white</p>"
        "<p>Cushioned just enough for your everyday shoes.</p></div></div>"
        f"<div class='site-footer'><div class='notice'><b>Notice</b> {notice}</div>"
        "<a href='/privacy'>Privacy</a></div></div>",
    )
    found = extract(html, url="https://shop.example/p/socks")
    assert found.kind == "product"
    assert "Quarter socks" in found.text and "everyday shoes" in found.text
    assert "Notice to consumers" not in found.text


def test_a_product_whose_choice_fell_in_the_footer_keeps_its_kind_and_declaration():
    # The product's box is built by scripts; the footer's notice outscores the rest. The
    # page is read whole, still as a product: its declaration is printed.
    notice = (
        "By signing up you agree to receive recurring automated marketing text messages "
        "from the shop at the number used when signing up. Consent is not a condition of "
        "any purchase. Reply HELP for help and STOP to cancel. Message frequency varies, "
        "and message and data rates may apply to every message we send you."
    )
    menu = "".join(f"<li><a href='/c/{n}'>Department number {n}</a></li>" for n in range(20))
    declared = _clock()
    html = page(
        declared,
        f"<nav><ul>{menu}</ul></nav><main><div id='product-root'><p>Loading</p></div></main>"
        f"<footer><h3>Sign up for texts</h3><p>{notice}</p><a href='/terms'>Terms</a></footer>",
    )
    found = extract(html, url="https://shop.example/p/clock")
    assert found.kind == "product"
    assert DESCRIPTION in found.text and "89.00" in found.text
    assert "recurring automated" not in found.text


def test_a_product_s_sections_named_for_their_pictures_stay():
    # The shop lays out the product's features in a box its builder names for the
    # pictures behind them, each with a title and a paragraph: named boilerplate on an
    # article, the product's own sections here, as a landing page's parts are.
    features = "".join(
        f"<div class='feature'><h3>Feature {n}</h3><p>The dial's ring of brass is "
        f"polished by hand and lacquered so that it keeps its shine for years at sea, "
        f"feature number {n} of the clock.</p></div>"
        for n in range(4)
    )
    body = (
        f"<div class='summary'><p>{DESCRIPTION}</p>{PROSE}</div>"
        f"<div class='layout background-img'>{features}</div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert DESCRIPTION in text
    assert "feature number 3 of the clock" in text


def test_a_product_s_purchase_form_is_left_out():
    # The variants to pick from, each with its price, and the quantity: a form of the
    # shop's, not the product's text; the description beside it stays.
    flavours = "".join(
        f"<label><input type='radio' name='f' value='{f}'><span>{f} dial</span>"
        f"<span>$89/clock</span></label>"
        for f in ("Brass", "Silver", "Gold", "Copper")
    )
    body = (
        f"<div class='summary'><p>{DESCRIPTION}</p>{PROSE}</div>"
        f"<form action='/cart/add'><div role='group'><p>Choose your dial</p>{flavours}</div>"
        "<p>Quantity</p><input name='q' value='1'><button>Add to cart</button></form>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert DESCRIPTION in text
    assert "Copper dial" not in text and "Choose your dial" not in text


def test_a_page_wrapped_whole_in_a_form_is_no_purchase_form():
    # ASP.NET writes every page inside one <form>: the product's sections are in it,
    # beside a short region that the page is widened from.
    sections = _parts(8)
    colours = "".join(f"<li><a href='/c/{n}'>Tide clock in colour {n}</a></li>" for n in range(20))
    body = (
        f"<form action='/page.aspx'><div class='summary'><p>{DESCRIPTION}</p></div>"
        f"<ul class='colours'>{colours}</ul>{sections}</form>"
    )
    html = page(_clock(), f"<main><h2>Brass tide clock</h2>{body}</main>")
    text = extract(html, url="https://shop.example/p/clock").text
    assert DESCRIPTION in text and "twenty-five minutes (7)" in text


def test_a_form_that_holds_the_product_s_heading_stays():
    # A theme's form around the whole product (its name, its lines, the sizes) on a page
    # read whole: the form is the product, not its purchase form.
    notice = (
        "Notice to consumers: the shop may collect identifiers, commercial information and "
        "internet activity when you visit this website, and may use such information to "
        "draw inferences and for other operational and commercial purposes. For more "
        "information, please see our privacy policy and the terms of every sale we make."
    )
    swatches = "".join(f"<li><a href='?c={c}'>Colour {c}</a></li>" for c in ("white", "navy"))
    html = page(
        ld({"@type": "Product", "name": "Quarter socks"}),
        "<div id='root'><form action='/cart/add' class='product'>"
        f"<div class='pick'><div class='title'><h1>Quarter socks</h1></div><ul>{swatches}</ul>"
        "</div><div class='buy'><p>Size: L</p><p>Colour: white</p>"
        "<p>Cushioned just enough for your everyday shoes.</p></div></form>"
        f"<div class='site-footer'><div class='notice'><b>Notice</b> {notice}</div>"
        "<a href='/privacy'>Privacy</a></div></div>",
    )
    found = extract(html, url="https://shop.example/p/socks")
    assert found.kind == "product"
    assert "everyday shoes" in found.text


def test_a_feature_s_sentence_set_as_a_small_heading_is_printed_as_its_paragraph():
    # Page builders set a feature's text in an <h6> under the feature's <h2> title: a
    # heading followed by one of its level or above, so dropped as a heading with nothing
    # under it, and the product's features lost their text.
    features = (
        "<section><h2>Tide at a glance</h2><h6><span>One hand sweeps the dial twice a "
        "lunar day, so high water is always where the hand points.</span></h6></section>"
        "<section><h2>Kept true</h2><h6>The quartz movement loses under a minute a year, "
        "reset in a turn of the crown.</h6></section>"
        "<section><h2>Short title</h2><h6>Only a label</h6></section>"
    )
    text = extract(
        shop_page({"@type": "Offer", "price": "89.00"}, f"<p>{DESCRIPTION}</p>{features}"),
        url="https://shop.example/p/clock",
    ).text
    assert "## Tide at a glance\n\nOne hand sweeps the dial twice a lunar day" in text
    assert "\n\nThe quartz movement loses under a minute a year" in text
    assert "Only a label" not in text  # a short heading with nothing under it still goes


def test_a_product_s_title_and_selling_points_in_a_column_named_sidebar_are_printed():
    # The shop sets the title, the price and the selling points in a right-hand column it
    # names `sidebar`; the description stands in the left-hand one.
    declared = ld({"@type": "Product", "name": "Storm lantern", "description": "A lamp."})
    left = "".join(
        f"<p>The storm lantern's glass chimney {n} keeps the flame steady in a gale, "
        "and its brass reservoir holds oil for a long night on deck or in a shed.</p>"
        for n in range(4)
    )
    html = page(
        declared,
        "<main><div class='product'><div class='gallery-column'>"
        f"<div class='description'>{left}</div></div>"
        "<div class='sidebar'><div class='sticky sidebar__inner'>"
        "<h1>Storm lantern</h1><p class='price'>€49</p>"
        "<div class='selling-points'><h4>Burns for fourteen hours on one filling</h4>"
        "<p>The wick is wide and the reservoir deep, so one filling lasts the night.</p>"
        "<h4>Stands up to rain and spray</h4>"
        "<p>Its glass is sealed in the frame, so the rain does not reach the flame.</p>"
        "</div></div></div></div></main>",
    )
    text = extract(html, url="https://shop.example/p/lantern").text
    assert "Burns for fourteen hours on one filling" in text
    assert "one filling lasts the night" in text
    assert "keeps the flame steady in a gale" in text


def test_a_product_s_section_of_short_lines_beside_its_prose_is_printed():
    # A course sold as a product: its parts side by side, the outline's chapters short
    # lines that score little beside the prose around them.
    para = (
        "The course walks a new contributor through an open project's ways: how its "
        "maintainers review a change, how its licence reads, and how a first patch lands. "
    )
    chapters = "".join(
        f"<div class='chapter'><span>Chapter {n}. {title}</span></div>"
        for n, title in enumerate(("Introduction", "Why open source", "Licences", "Reviews"), 1)
    )
    quote = "<p>It touched on every part of a project's life; my first patch came a week on.</p>"
    html = page(
        "<meta property='og:type' content='product'>",
        "<h1>Contributing to open source</h1><div class='wrapper'>"
        f"<div class='audience part'><h3>Who it is for</h3><p>{para * 3}</p></div>"
        f"<div class='outline part'><div class='title'>Course outline</div>{chapters}</div>"
        f"<div class='lab part'><h3>Lab</h3><p>{para}</p></div>"
        f"<div class='comments part'><h3>What learners say</h3>{quote * 8}</div></div>",
    )
    text = extract(html, url="https://training.example/course").text
    assert "Chapter 3. Licences" in text
    assert "Lab" in text and "Who it is for" in text
    assert "my first patch came a week on" not in text


def _widened(rest: str, buy: bool = False) -> str:
    """A shop's page whose declared description's box is short (the colours' links beside
    it stop its growth), `rest` after it in the shop's box; `buy` puts the description
    and the colours in a box of their own."""
    colours = "".join(
        f"<li><a href='/c/{n}'>Brass tide clock in colour {n}</a></li>" for n in range(20)
    )
    top = f"<div class='summary'><p>{DESCRIPTION}</p></div><ul class='colours'>{colours}</ul>"
    if buy:
        top = f"<div class='buy'>{top}</div>"
    return page(
        ld({"@type": "Product", "name": "Brass tide clock", "description": DESCRIPTION}),
        f"<div class='shop'>{top}{rest}</div>",
    )


def test_a_widened_product_takes_the_article_that_holds_its_long_description():
    # The shop's box around the short description holds the product's long description,
    # written as an <article>, and the shop's own prose about its staff: the article is
    # taken.
    staff = (
        "<div class='engineers'><p>Our chart-room staff have sold clocks and barometers to "
        "harbour masters for forty years, and each of them answers the telephone in "
        "person every day of the week but Sunday.</p></div>"
    )
    html = _widened(f"<article id='desc'>{_parts(4)}</article>{staff}")
    text = extract(html, url="https://shop.example/p/clock").text
    assert "twenty-five minutes (0)" in text and "twenty-five minutes (3)" in text
    assert "forty years" not in text


def test_articles_nested_in_a_widened_product_are_measured_once(monkeypatch):
    # A hostile page nests a hundred articles in one another, which hold next to nothing:
    # the outermost falls short of the share and the ones inside it are passed over, not
    # each measured over its whole subtree.
    from wf.extract.kinds import product_widen

    measured: list[str] = []
    prints = product_widen._prints

    def counting(blocks, index):
        measured.append(blocks[index].tag)
        return prints(blocks, index)

    monkeypatch.setattr(product_widen, "_prints", counting)
    nested = "<article>" * 100 + "<p>A clock.</p>" + "</article>" * 100
    text = extract(_widened(f"{nested}{_parts(4)}"), url="https://shop.example/p/clock").text
    assert "twenty-five minutes (3)" in text
    # The description's box, measured to widen it, then the outermost article alone.
    assert measured.count("article") == 1 and len(measured) == 2


REVIEW = "".join(
    f"<p>I bought this clock for my boat ({n}) and it has kept the tides better than "
    "the almanac every single week since, through storms and calm alike.</p>"
    for n in range(8)
)


def test_a_widened_product_does_not_take_a_customer_s_review_written_as_an_article():
    # The same shop's box, where the long text is a customer's review in an <article>
    # named so: the box is taken, the product's sections with it.
    html = _widened(f"<article class='customer-review'>{REVIEW}</article>{_parts(2)}", buy=True)
    text = extract(html, url="https://shop.example/p/clock").text
    assert "twenty-five minutes (0)" in text and "twenty-five minutes (1)" in text
    assert "for my boat" not in text


@pytest.mark.parametrize(
    "box", ["<div class='reviews'>{}</div>", "<aside class='related-posts'>{}</aside>"]
)
def test_a_widened_product_does_not_take_an_article_inside_a_box_named_as_boilerplate(box):
    # A customer's review (or a post of the shop's blog) in an <article> no name marks,
    # inside the reviews' box (or the related posts'): the share is of what the page
    # prints without that box, which the article alone passes; it is none of the
    # product's text all the same.
    article = box.format(f"<article class='item'>{REVIEW}</article>")
    text = extract(_widened(f"{_parts(2)}{article}", buy=True), url="https://shop.example/p/clock")
    assert "twenty-five minutes (0)" in text.text and "twenty-five minutes (1)" in text.text
    assert "for my boat" not in text.text


def test_a_hidden_message_after_a_box_of_the_same_class_is_left_out():
    # Amazon's wish list: a shown `a-section`, then its error boxes hidden by `a-hidden`
    # and `aok-hidden`, each named by its id for what it says; a list's items past "Show
    # more" are numbered alike and stay.
    items = "".join(
        f"<div id='answer-{n}' class='a-section{' a-hidden' if n > 1 else ''}'>"
        f"<p>Answer {n}: the clock needs a new battery once a year, no more.</p></div>"
        for n in range(4)
    )
    body = (
        f"<div class='product-info'><p>{DESCRIPTION}</p>{PROSE}"
        "<div><div id='wishlist-button' class='a-section'><p>Keep it on a list of yours "
        "for later, with the notes you add to it.</p></div>"
        "<div id='wishlist-error' class='a-section a-hidden'><h3>Sorry, there was a "
        "problem.</h3><p>There was an error retrieving your lists.</p></div>"
        "<div id='cookie-error' class='aok-hidden'><p>Sorry, there was a problem saving "
        "your cookie preferences.</p></div></div>"
        f"<div class='questions'>{items}</div></div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "Each clock is turned from solid brass" in text
    assert "Sorry, there was a problem" not in text and "error retrieving" not in text
    assert "Answer 1:" in text and "Answer 3:" in text


def _tabbed(summary: str, after: str = "") -> str:
    """A WooCommerce product: its summary, then its tabs' titles over their panels."""
    tabs = "".join(
        f"<li role='tab' id='tab-title-{t}'><a href='#tab-{t}'>{title}</a></li>"
        for t, title in (("description", "Description"), ("info", "Additional information"))
    )
    return (
        f"<div class='product'><div class='summary'><p class='price'>$89.00</p>{summary}"
        "<p class='stock'>5 in stock</p></div><div class='wc-tabs-wrapper'>"
        f"<ul class='tabs wc-tabs' role='tablist'>{tabs}</ul>"
        f"<div id='tab-description' role='tabpanel'><h2>Description</h2><p>{DESCRIPTION}</p>"
        f"</div><div id='tab-info' role='tabpanel'><h2>Additional information</h2>"
        "<table><tr><th>Weight</th><td>3 kg</td></tr></table></div>"
        f"{after}</div></div>"
    )


def test_a_product_s_tab_titles_are_left_out_of_its_widened_region():
    # The declared description is a short tab's: the region widens to the product's box,
    # where the tab list's titles ("Description", "Additional information") stood as a
    # list over the panels that title themselves.
    summary = f"{PROSE}<p>{PROSE[3:-4]} Its case is sealed against the salt air.</p>"
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, _tabbed(summary))).text
    assert DESCRIPTION in text and "Its case is sealed" in text
    assert "- Description" not in text and "- Additional information" not in text
    assert "## Additional information" in text


def test_a_tab_list_holding_more_than_titles_stays():
    # A script's tab list around prose of its own is content, and a tab alone titles
    # its panel ("About this item").
    items = "".join(f"<li role='tab'><p>Step {n}: {PROSE[3:-4]}</p></li>" for n in range(2))
    lone = "<ul role='tablist'><li role='tab'>About this item</li></ul>"
    body = (
        f"<div class='product-info'><p>{DESCRIPTION}</p>{lone}<ul role='tablist'>{items}</ul></div>"
    )
    text = extract(shop_page({"price": "89.00", "priceCurrency": "USD"}, body)).text
    assert "Step 0:" in text and "Step 1:" in text and "About this item" in text
