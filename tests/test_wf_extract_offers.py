"""The ways shops declare a product (wf/extract/kinds/offers.py, items.py): JSON-LD,
microdata and RDFa, each read into one header of name, price with currency and
availability. Small pages of our own."""

from __future__ import annotations

import pytest

from tests.test_wf_extract_kinds import ld, page
from wf.extract import extract

PROSE = (
    "<p>Each lamp is turned from solid oak, its shade sewn by hand from undyed linen, and "
    "its cable wrapped in cotton braid, tested for a week before it leaves the workshop.</p>"
    "<p>The dimmer sits on the cord, within reach of the bed, and the bulb is a warm "
    "filament that lasts ten years of evenings at two hours each.</p>"
)
NAME = "Oak reading lamp"


def _header(html: str) -> list[str]:
    """The lines a product page's text opens with, before its own prose."""
    found = extract(html, url="https://shop.example/p/lamp")
    assert found.kind == "product"
    head = found.text.split("Each lamp is turned")[0]
    return [line for line in head.split("\n") if line.strip()]


def _visible(body: str = "") -> str:
    """The page's own text: the product's prose, no name, price or availability."""
    return f"<main>{body}{PROSE}</main>"


def test_a_microdata_offer_in_a_hidden_box_is_read():
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='name' content='{NAME}'>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' "
        "style='display: none'><meta itemprop='priceCurrency' content='EUR'>"
        "<meta itemprop='price' content='59,99'>"
        "<link itemprop='availability' href='https://schema.org/InStock'></div>"
        f"{_visible()}</div>"
    )
    assert _header(page("", body)) == [f"# {NAME}", "Price: 59.99 EUR", "Availability: In stock"]


def test_a_microdata_offer_in_a_box_a_class_hides_is_read():
    body = (
        "<div itemscope itemtype='http://schema.org/Product'>"
        f"<h1 itemprop='name'>{NAME}</h1>"
        "<div class='hidden' itemprop='offers' itemscope itemtype='http://schema.org/Offer'>"
        "<span itemprop='price' content='89.00'>$89.00</span>"
        "<span itemprop='priceCurrency' content='USD'></span>"
        "<span itemprop='availability'>OutOfStock</span></div>"
        f"{_visible()}</div>"
    )
    # The name the page shows is not said again.
    assert _header(page("", body)) == [
        "Price: 89.00 USD",
        "Availability: Out of stock",
        f"# {NAME}",
    ]


def test_microdata_with_itemref_reads_the_offer_it_names():
    body = (
        "<div itemscope itemtype='https://schema.org/Product' itemref='buy'>"
        f"<span itemprop='name'>{NAME}</span>{_visible()}</div>"
        "<div id='buy' itemprop='offers' itemscope itemtype='https://schema.org/Offer'>"
        "<meta itemprop='price' content='120'><meta itemprop='priceCurrency' content='GBP'>"
        "<meta itemprop='availability' content='https://schema.org/PreOrder'></div>"
    )
    lines = _header(page("", body))
    assert lines[-2:] == ["Price: 120 GBP", "Availability: Pre-order"]


def test_a_price_written_as_text_is_read_as_its_number():
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='name' content='{NAME}'>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' hidden>"
        "<span itemprop='price'>1.299,50</span><span itemprop='priceCurrency'>EUR</span>"
        f"</div>{_visible()}</div>"
    )
    assert "Price: 1299.50 EUR" in _header(page("", body))


def test_an_item_inside_the_product_keeps_its_own_properties():
    # The rating's description and the brand's name are theirs, not the product's.
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        "<div itemprop='brand' itemscope itemtype='https://schema.org/Brand'>"
        "<meta itemprop='name' content='Lumen Works'></div>"
        "<div itemprop='aggregateRating' itemscope itemtype='https://schema.org/AggregateRating'>"
        "<span itemprop='description'>Very positive</span></div>"
        f"<meta itemprop='name' content='{NAME}'>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' hidden>"
        "<meta itemprop='price' content='75'><meta itemprop='priceCurrency' content='USD'>"
        f"</div>{_visible()}</div>"
    )
    assert _header(page("", body)) == [f"# {NAME}", "Price: 75 USD"]


def test_rdfa_declares_a_product_and_its_offer():
    body = (
        "<div vocab='https://schema.org/' typeof='Product'>"
        f"<span property='name' content='{NAME}'></span>"
        "<div property='offers' typeof='Offer' style='display:none'>"
        "<span property='price' content='64.00'>$64</span>"
        "<meta property='priceCurrency' content='CAD'>"
        "<link property='availability' href='http://schema.org/InStock'></div>"
        f"{_visible()}</div>"
    )
    assert _header(page("", body)) == [f"# {NAME}", "Price: 64.00 CAD", "Availability: In stock"]


def test_rdfa_with_prefixed_names_is_read():
    body = (
        "<div typeof='schema:Product'>"
        f"<meta property='schema:name' content='{NAME}'>"
        "<div property='schema:offers' typeof='schema:Offer' hidden>"
        "<meta property='schema:price' content='64.00'>"
        "<meta property='schema:priceCurrency' content='CAD'>"
        "<meta property='schema:availability' content='schema:SoldOut'></div>"
        f"{_visible()}</div>"
    )
    assert _header(page("", body))[-2:] == ["Price: 64.00 CAD", "Availability: Sold out"]


def _jsonld(obj: object) -> str:
    return page(ld(obj), _visible())


def test_a_graph_s_product_and_offer_joined_by_their_ids():
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "Product", "@id": "#product", "name": NAME, "offers": {"@id": "#offer"}},
            {
                "@type": "Offer",
                "@id": "#offer",
                "price": "89.00",
                "priceCurrency": "USD",
                "availability": "InStock",
            },
        ],
    }
    assert _header(_jsonld(graph)) == [f"# {NAME}", "Price: 89.00 USD", "Availability: In stock"]


def test_a_product_after_many_objects_of_a_graph_is_read():
    images = [{"@type": "ImageObject", "@id": f"#image-{n}"} for n in range(60)]
    offer = {"price": "89.00", "priceCurrency": "USD", "availability": "InStock"}
    product = {"@type": "Product", "name": NAME, "offers": offer}
    graph = {"@context": "https://schema.org", "@graph": [*images, product]}
    assert _header(_jsonld(graph)) == [f"# {NAME}", "Price: 89.00 USD", "Availability: In stock"]


def test_an_aggregate_offer_prints_its_range():
    offer = {"@type": "AggregateOffer", "lowPrice": 19.5, "highPrice": 42, "priceCurrency": "USD"}
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offer}))
    assert lines == [f"# {NAME}", "Price: 19.50 – 42.00 USD"]


def test_variants_offered_at_several_prices_print_their_range_and_the_best_availability():
    offers = [
        {"price": "49.00", "priceCurrency": "USD", "availability": "https://schema.org/OutOfStock"},
        {"price": "39.00", "priceCurrency": "USD", "availability": "https://schema.org/InStock"},
        {"price": "59.00", "priceCurrency": "USD", "availability": "https://schema.org/InStock"},
        {"price": "52.00", "priceCurrency": "EUR", "availability": "https://schema.org/InStock"},
    ]
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offers}))
    assert lines == [f"# {NAME}", "Price: 39.00 – 59.00 USD", "Availability: In stock"]


def test_an_offer_without_a_currency_is_in_the_one_a_later_offer_states():
    offers = [{"price": "29.00"}, {"price": "35.00", "priceCurrency": "GBP"}]
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offers}))
    assert lines == [f"# {NAME}", "Price: 29.00 – 35.00 GBP"]


def test_a_currency_code_in_small_letters_is_the_same_currency():
    # One variant's "usd" is the others' "USD": its price is in their range.
    offers = [
        {"price": "29.00", "priceCurrency": "usd"},
        {"price": "35.00", "priceCurrency": "USD"},
    ]
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offers}))
    assert lines == [f"# {NAME}", "Price: 29.00 – 35.00 USD"]


def test_variants_at_one_price_print_it_once():
    offers = [{"price": "39.00", "priceCurrency": "USD"}, {"price": 39, "priceCurrency": "USD"}]
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offers}))
    assert lines == [f"# {NAME}", "Price: 39.00 USD"]


def test_a_product_group_s_variants_give_its_price_and_are_no_listing():
    group = {
        "@context": "https://schema.org",
        "@graph": [
            {
                "@type": "ProductGroup",
                "@id": "#lamp",
                "name": NAME,
                "hasVariant": [{"@id": f"#lamp-{n}"} for n in range(3)],
            },
            *(
                {
                    "@type": "Product",
                    "@id": f"#lamp-{n}",
                    "name": f"{NAME}, shade {n}",
                    "offers": {
                        "price": f"{60 + 10 * n}.00",
                        "priceCurrency": "USD",
                        "availability": "https://schema.org/InStock",
                    },
                }
                for n in range(3)
            ),
        ],
    }
    assert _header(_jsonld(group)) == [
        f"# {NAME}",
        "Price: 60.00 – 80.00 USD",
        "Availability: In stock",
    ]


def test_a_product_group_s_nested_variants_give_its_price():
    group = {
        "@type": "ProductGroup",
        "name": NAME,
        "hasVariant": [
            {"@type": "Product", "offers": {"price": "70", "priceCurrency": "USD"}},
            {"@type": "Product", "offers": {"price": "90", "priceCurrency": "USD"}},
        ],
    }
    assert _header(_jsonld(group)) == [f"# {NAME}", "Price: 70 – 90 USD"]


def test_a_price_given_by_a_price_specification_is_read():
    offer = {"priceSpecification": {"price": "37.99", "priceCurrency": "USD"}}
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offer}))
    assert lines == [f"# {NAME}", "Price: 37.99 USD"]


def test_a_price_of_zero_is_not_printed():
    offer = {"price": "0.00", "priceCurrency": "USD", "availability": "InStock"}
    lines = _header(_jsonld({"@type": "Product", "name": NAME, "offers": offer}))
    assert lines == [f"# {NAME}", "Availability: In stock"]


@pytest.mark.parametrize(
    "said",
    ["https://schema.org/InStock", "http://schema.org/InStock/", "InStock", "schema:InStock"],
)
def test_an_availability_as_a_url_or_a_short_name_reads_the_same(said):
    offer = {"price": "89.00", "priceCurrency": "USD", "availability": said}
    assert "Availability: In stock" in _header(_jsonld({"@type": "Product", "offers": offer}))


def test_a_range_is_not_printed_when_the_page_shows_the_picked_variant_s_price():
    offers = [
        {"price": "39.00", "priceCurrency": "USD"},
        {"price": "59.00", "priceCurrency": "USD"},
    ]
    html = page(ld({"@type": "Product", "offers": offers}), _visible("<p>$59.00</p>"))
    assert not any(line.startswith("Price:") for line in _header(html))


def test_json_ld_s_product_takes_the_offer_its_microdata_declares():
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='name' content='{NAME}'>"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' hidden>"
        "<meta itemprop='price' content='75'><meta itemprop='priceCurrency' content='USD'>"
        f"</div>{_visible()}</div>"
    )
    html = page(ld({"@type": "Product", "name": NAME}), body)
    assert _header(html) == [f"# {NAME}", "Price: 75 USD"]
    # Another product's offer (a related product's) is not this one's.
    other = page(ld({"@type": "Product", "name": "Brass desk lamp"}), body)
    assert _header(other) == ["# Brass desk lamp"]


def test_properties_deep_in_a_product_are_placed_in_a_walk_linear_in_the_page(monkeypatch):
    # Each level of a deep nest of boxes holds a property and an item: a walk up from
    # each property to its item, level by level, would cost the square of the depth.
    import wf.extract.kinds.items as items

    depth = 400
    level = "<div><meta itemprop='sku' content='1'><span itemscope itemprop='isRelatedTo'></span>"
    body = (
        "<div itemscope itemtype='https://schema.org/Product'>"
        f"<meta itemprop='name' content='{NAME}'>{level * depth}{'</div>' * depth}"
        "<div itemprop='offers' itemscope itemtype='https://schema.org/Offer' hidden>"
        "<meta itemprop='price' content='75'><meta itemprop='priceCurrency' content='USD'>"
        f"</div>{_visible()}</div>"
    )
    asked: list[int] = []
    real = items.scope

    def counted(el):  # type: ignore[no-untyped-def]
        asked.append(1)
        return real(el)

    monkeypatch.setattr(items, "scope", counted)
    assert _header(page("", body)) == [f"# {NAME}", "Price: 75 USD"]
    assert 0 < len(asked) <= 6 * depth
