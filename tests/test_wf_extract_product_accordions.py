"""A product page's closed accordions (wf/extract/hidden.py, accordion_panel): read open,
each panel under its title; on other pages they stay closed. Small pages of our own."""

from __future__ import annotations

import lxml.html

from tests.test_wf_extract_kinds import ld, page
from wf.extract import extract
from wf.extract.accordion import closed_panels
from wf.extract.hidden import accordion_panel

ANSWER = (
    "Wipe the brass with a soft dry cloth once a month; a drop of oil on the hinge keeps "
    "the door quiet, and the dial needs nothing but keeping out of the afternoon sun."
)
DESCRIPTION = (
    "A brass tide clock for the chart room: it shows high and low water at a glance, set "
    "once by the local tide tables and kept true by a quartz movement for many years."
)


def _body() -> str:
    return (
        "<main><h1>Brass tide clock</h1>"
        f"<p>{DESCRIPTION}</p>"
        "<div class='faq'><h3>How do I look after it?</h3>"
        f"<div class='content' style='display: none'><p>{ANSWER}</p></div></div>"
        "</main>"
    )


def test_a_product_s_closed_accordion_is_read_open():
    declared = ld(
        {
            "@type": "Product",
            "name": "Brass tide clock",
            "description": DESCRIPTION,
            "offers": {"@type": "Offer", "price": "89.00", "priceCurrency": "USD"},
        }
    )
    found = extract(page(declared, _body()), url="https://shop.example/p/clock")
    assert found.kind == "product"
    assert "How do I look after it?" in found.text
    assert ANSWER in found.text


def test_an_article_s_closed_accordion_stays_closed():
    found = extract(page("", _body()), url="https://news.example/clock")
    assert ANSWER not in found.text


def test_an_accordion_s_panel_follows_its_title():
    root = lxml.html.fromstring(
        "<div><h3>Care</h3><!-- a --><!-- b --><div id='after-title' hidden>x</div>"
        "<p>Text</p><div id='after-text' hidden>y</div>"
        "<dt>Size</dt><dd id='after-term' hidden>z</dd>"
        "<h4>Far</h4>" + "<!-- c -->" * 20 + "<div id='far' hidden>w</div></div>"
    )
    assert accordion_panel(root.get_element_by_id("after-title"))
    assert accordion_panel(root.get_element_by_id("after-term"))
    assert not accordion_panel(root.get_element_by_id("after-text"))
    # Comments past hidden_tuning.PANEL_TITLE_SKIP are not read through.
    assert not accordion_panel(root.get_element_by_id("far"))


def test_a_hidden_version_of_the_box_shown_after_it_is_no_panel():
    # Under a <dt>, a value in another unit hidden before the one shown; under a heading,
    # the description drawn for another screen before the one shown: versions, not panels.
    root = lxml.html.fromstring(
        "<div><dl><dt>Weight</dt><dd id='pounds' hidden>4.4 lb</dd><dd>2 kg</dd>"
        "<dt>Care</dt><dd id='care' hidden>Dust it.</dd><dt>Size</dt>"
        "<dd id='first' hidden>a</dd><dd hidden>b</dd></dl>"
        "<h3>Description</h3><div id='phone' style='display: none'>A clock.</div>"
        "<!-- shown instead --><div>A clock.</div></div>"
    )
    assert not accordion_panel(root.get_element_by_id("pounds"))
    assert not accordion_panel(root.get_element_by_id("phone"))
    assert accordion_panel(root.get_element_by_id("care"))
    assert accordion_panel(root.get_element_by_id("first"))  # the next one is closed too


def test_a_product_s_hidden_unit_prints_no_second_value():
    declared = ld({"@type": "Product", "name": "Brass tide clock", "description": DESCRIPTION})
    body = _body().replace(
        "</main>", "<dl><dt>Weight</dt><dd hidden>4.4 lb</dd><dd>2 kg</dd></dl></main>"
    )
    found = extract(page(declared, body), url="https://shop.example/p/clock")
    assert ANSWER in found.text and "2 kg" in found.text
    assert "4.4 lb" not in found.text, found.text


SPECS = "<table><tr><td>Case</td><td>Solid brass</td></tr><tr><td>Dial</td><td>6 inches</td></tr></table>"
POLICY = "Free shipping on orders over 50 dollars, and free returns within thirty days of delivery."
MENU = "".join(f"<a href='/c/{n}'>Clocks and barometers {n}</a>" for n in range(6))


def _buttons_body(panel_attrs: str = "hidden") -> str:
    # A theme's accordion of buttons (Shopify's collapsible tabs), each before its panel.
    return (
        "<main><h1>Brass tide clock</h1>"
        f"<p>{DESCRIPTION}</p>"
        "<div class='collapsibles'>"
        "<button type='button' aria-controls='c-specs' aria-expanded='false'>Specifications"
        f"</button><div id='c-specs' {panel_attrs}>{SPECS}</div>"
        "<button type='button' aria-expanded='false'>Shipping &amp; Returns</button>"
        f"<div {panel_attrs}><p>{POLICY}</p></div>"
        "<button type='button' aria-controls='c-more' aria-expanded='false'>Shop more</button>"
        f"<div id='c-more' {panel_attrs}>{MENU}</div>"
        "<button type='button' aria-controls='elsewhere' aria-expanded='false'>Care</button>"
        f"<div {panel_attrs}><p>{ANSWER}</p></div>"
        "</div></main>"
    )


def _clock(body: str, declared: bool = True) -> str:
    offer = {"@type": "Offer", "price": "89.00", "priceCurrency": "USD"}
    product = {"@type": "Product", "name": "Brass tide clock", "offers": offer}
    return page(ld(product) if declared else "", body)


def test_a_product_s_panel_under_its_button_is_read_open():
    for attrs in ("hidden", "style='display: none'"):
        found = extract(_clock(_buttons_body(attrs)), url="https://shop.example/p/clock")
        assert found.kind == "product"
        assert "Specifications" in found.text
        assert "| Case | Solid brass |" in found.text
        # The shop's policies and a menu's links stay closed; so does a panel that is
        # not the one its button names.
        assert POLICY not in found.text
        assert "Clocks and barometers" not in found.text
        assert ANSWER not in found.text


def test_a_header_s_button_opens_no_panel_of_the_product_s():
    # A shop's header: its search button over the search box (named by aria-controls),
    # hidden: no accordion of the product's, though the page is a product's.
    header = (
        "<header><button type='button' aria-controls='sp'>Search</button>"
        f"<div id='sp' hidden><p>{ANSWER}</p></div></header>"
    )
    root = lxml.html.fromstring(f"<div>{header}{_buttons_body()}</div>")
    titles, panels = closed_panels(list(root.iter("button")))
    assert [t.text for t in titles] == ["Specifications"]
    assert [p.get("id") for p in panels] == ["c-specs"]


def test_an_article_s_panel_under_its_button_stays_closed():
    found = extract(_clock(_buttons_body(), declared=False), url="https://news.example/clock")
    assert "Solid brass" not in found.text


def test_a_panel_after_a_box_named_as_its_title_is_one():
    # Magento's tabs: each hidden panel after a box named as its title, the next tab's
    # title after it (the same tag: no version of the panel shown in its stead).
    root = lxml.html.fromstring(
        "<div><div><div class='data item title'>Details</div>"
        "<div class='data item content' id='details' hidden>a</div>"
        "<div class='data item title'>More Information</div>"
        "<div class='data item content' id='more' hidden>b</div></div>"
        "<div><div class='intro'>Intro</div><div id='after-box' hidden>c</div></div>"
    )
    assert accordion_panel(root.get_element_by_id("details"))
    assert accordion_panel(root.get_element_by_id("more"))
    assert not accordion_panel(root.get_element_by_id("after-box"))


def test_a_header_control_named_as_a_title_opens_no_panel():
    # The shop's header: a search toggle over its search box, a cart's label over the mini
    # cart, both hidden: the page's chrome, no accordion of the product's.
    root = lxml.html.fromstring(
        "<div><header><div class='search-toggle'>Search</div>"
        "<div id='search' hidden>Popular searches</div><nav><span class='cart-label'>Cart"
        "</span><div id='cart' hidden>Your cart is empty</div></nav></header>"
        "<main><div class='data item title'>Details</div><div id='details' hidden>a</div>"
        "<header><h3>Care</h3><div id='care' hidden>b</div></header></main></div>"
    )
    assert not accordion_panel(root.get_element_by_id("search"))
    assert not accordion_panel(root.get_element_by_id("cart"))
    assert accordion_panel(root.get_element_by_id("details"))
    assert accordion_panel(root.get_element_by_id("care"))  # under a heading, as before


def test_a_hidden_price_after_its_label_is_no_panel():
    # A theme's price box: the compare-at and unit prices hidden (no sale, no unit), each
    # a <span> after its label's: the price's other values, no accordion's panels.
    root = lxml.html.fromstring(
        "<div class='price-box'><span class='price-label'>Sale price</span>$120"
        "<span class='compare-label'>Regular price</span><span id='was' hidden>$150</span>"
        "<div class='data item title'>Details</div><div id='details' hidden>a</div></div>"
    )
    assert not accordion_panel(root.get_element_by_id("was"))
    assert accordion_panel(root.get_element_by_id("details"))


def test_a_product_s_tabs_under_boxes_named_as_titles_are_read_open():
    body = (
        "<main><h1>Brass tide clock</h1>"
        f"<p>{DESCRIPTION}</p><div class='product data items'>"
        "<div class='data item title'><a href='#more'>More Information</a></div>"
        f"<div class='data item content' id='more' style='display: none'>{SPECS}</div>"
        "<div class='data item title'><a href='#care'>Care</a></div>"
        f"<div class='data item content' id='care' style='display: none'><p>{ANSWER}</p></div>"
        "</div></main>"
    )
    found = extract(_clock(body), url="https://shop.example/p/clock")
    assert "| Case | Solid brass |" in found.text
    assert ANSWER in found.text
    assert ANSWER not in extract(_clock(body, declared=False)).text
