"""Hostile and odd declared prices and items (wf/extract/kinds/offers.py, items.py): a
declaration never costs the page its kind, and a price printed is one the shop declared.
Small pages of our own."""

from __future__ import annotations

import json

import pytest
from lxml import html as lxml_html

from tests.test_wf_extract_kinds import page
from tests.test_wf_extract_offers import NAME, _header, _visible
from wf.extract import extract


def _raw(offer: str) -> str:
    """A product page whose JSON-LD offer is written as is (JSON's NaN, 1e999)."""
    script = f'{{"@type": "Product", "name": "{NAME}", "offers": {offer}}}'
    return page(f'<script type="application/ld+json">{script}</script>', _visible())


@pytest.mark.parametrize(
    "price", ["1e999", "-1e999", "NaN", "Infinity", "1" + "0" * 400, "1e308", '"1e308"']
)
def test_a_price_no_float_holds_costs_the_page_neither_its_kind_nor_its_name(price):
    offer = f'{{"price": {price}, "priceCurrency": "EUR", "availability": "InStock"}}'
    assert _header(_raw(offer)) == [f"# {NAME}", "Availability: In stock"]


@pytest.mark.parametrize("price", ["-5", '"-5"', '"\u22125.00"', "[[5]]", '[["5"]]', "[]"])
def test_a_negative_or_nested_price_is_not_printed(price):
    offer = f'{{"price": {price}, "priceCurrency": "EUR"}}'
    assert _header(_raw(offer)) == [f"# {NAME}"]


def test_a_price_in_words_is_printed_as_written():
    assert _header(_raw('{"price": "Free", "priceCurrency": "EUR"}')) == [
        f"# {NAME}",
        "Price: Free EUR",
    ]


@pytest.mark.parametrize(
    "written", ["19,99 29,99", "19,99<del>29,99</del>", "€ 19,99 statt € 29,99"]
)
def test_two_prices_written_side_by_side_are_not_read_as_one(written):
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='name' content='{NAME}'>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' hidden>"
        f"<span itemprop='price'>{written}</span>"
        "<meta itemprop='priceCurrency' content='EUR'></div>"
        f"{_visible()}</div>"
    )
    assert _header(page("", body)) == [f"# {NAME}", "Price: 19.99 EUR"]


@pytest.mark.parametrize(
    ("written", "read"), [("1.299,00", "1299.00"), ("1 299,50", "1299.50"), ("12 345", "12345")]
)
def test_thousands_groups_are_read(written, read):
    assert _header(_raw(f'{{"price": "{written}", "priceCurrency": "EUR"}}'))[-1] == (
        f"Price: {read} EUR"
    )


def test_an_item_that_names_itself_in_its_itemref_is_read_once():
    from wf.extract.kinds import items

    doc = lxml_html.fromstring(
        "<html><body><div id='p' itemscope itemtype='https://schema.org/Product' "
        "itemprop='isRelatedTo' itemref='p'><meta itemprop='name' content='Lamp'>"
        "<div itemprop='offers' itemscope><meta itemprop='price' content='5'></div>"
        "</div></body></html>"
    )
    top = items.product(items.types(doc))
    found = items.item(top, doc)
    # A tree, as JSON-LD is: no cycle, its one offer once.
    assert json.loads(json.dumps(found)) == {
        "@type": ["Product"],
        "name": "Lamp",
        "offers": {"@type": [], "price": "5"},
    }


@pytest.mark.parametrize(
    ("low", "high", "printed"),
    [
        (0.0045, 0.1, "0.0045 – 0.10"),
        (1.001, 1.002, "1.001 – 1.002"),
        (19.5, 42, "19.50 – 42.00"),
        (1 / 3, 1, "0.333333 – 1.00"),
    ],
)
def test_a_range_of_prices_under_a_cent_apart_prints_both_ends(low, high, printed):
    offer = {"@type": "AggregateOffer", "lowPrice": low, "highPrice": high, "priceCurrency": "USD"}
    assert _header(_raw(json.dumps(offer)))[-1] == f"Price: {printed} USD"


def test_the_markup_s_offer_is_found_after_a_menu_of_many_items():
    from tests.test_wf_extract_kinds import ld

    menu = "".join(
        f"<li itemscope itemtype='https://schema.org/SiteNavigationElement'>"
        f"<a itemprop='url' href='/c/{i}'><span itemprop='name'>Aisle {i}</span></a></li>"
        for i in range(60)
    )
    body = (
        f"<nav><ul>{menu}</ul></nav>"
        "<div itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='name' content='{NAME}'>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer'>"
        "<meta itemprop='price' content='75'><meta itemprop='priceCurrency' content='USD'>"
        f"</div>{_visible()}</div>"
    )
    html = page(ld({"@type": "Product", "name": NAME}), body)
    assert _header(html) == [f"# {NAME}", "Price: 75 USD"]


@pytest.mark.parametrize("placeholder", ["0", '"0.00"', '"Call for price"', '"-1"'])
def test_a_placeholder_offer_first_does_not_set_the_currency(placeholder):
    offers = (
        f'[{{"price": {placeholder}, "priceCurrency": "USD"}},'
        '{"price": "20.00", "priceCurrency": "EUR"}, {"price": "25.00", "priceCurrency": "EUR"}]'
    )
    assert _header(_raw(offers))[-1] == "Price: 20.00 – 25.00 EUR"


@pytest.mark.parametrize("run", ["1", "111 ", "1,11 "])
def test_a_page_s_run_of_digits_is_searched_for_the_price_in_linear_time(run):
    # The page's text is searched for a price beside a currency's mark: a number's parts
    # unbounded, each digit of a long run would read the run back (50,000 digits: 40 s).
    import time

    from wf.extract.kinds.product_text import price_shown

    text = run * (50_000 // len(run)) + " €"
    start = time.process_time()
    assert not price_shown("19.99 EUR", text)
    assert time.process_time() - start < 2
    assert price_shown("19.99 EUR", "je 19,99 €")
    assert price_shown("1299.00 EUR", "1 299,00 € statt 1 499,00 €")


def test_a_name_written_in_pieces_is_one_word():
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        "<span itemprop='name' hidden>Oak<sup>®</sup> lamp</span>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' hidden>"
        "<meta itemprop='price' content='75'><meta itemprop='priceCurrency' content='USD'>"
        f"</div>{_visible()}</div>"
    )
    assert _header(page("", body)) == ["# Oak® lamp", "Price: 75 USD"]


REVIEW = "".join(
    f"<p>Part {i} of a long review of the camping stove, with words enough to be prose "
    "for any reader who cares about boiling water on a windy ridge at dawn.</p>"
    for i in range(8)
)


@pytest.mark.parametrize(
    "snippet",
    [
        "<div style='display:none' itemscope itemtype='http://schema.org/Product'>"
        "<span itemprop='name'>Stove X</span></div>",
        "<div hidden vocab='https://schema.org/' typeof='Product'>"
        "<span property='name'>Stove X</span></div>",
    ],
)
def test_a_product_a_review_declares_in_a_hidden_box_makes_no_product_page(snippet):
    # A review's rich snippet: the kind is read from what a reader sees, as it was
    # before declarations were read from the whole page.
    html = page("", f"<main><article><h1>Stove review</h1>{REVIEW}{snippet}</article></main>")
    result = extract(html, metadata=True)
    assert (result.metadata or {}).get("type") != "product"
    assert "Stove X" not in result.text
    assert result.text.lstrip().startswith("# Stove review")
    # Shown, the same snippet makes one.
    shown = snippet.replace(" style='display:none'", "").replace(" hidden", "")
    html = page("", f"<main><article><h1>Stove review</h1>{REVIEW}{shown}</article></main>")
    assert (extract(html, metadata=True).metadata or {}).get("type") == "product"
