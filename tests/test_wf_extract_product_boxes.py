"""The boxes of a product page told by their markup (wf/extract/kinds/product_boxes.py):
the parts of a Shopify theme's price box its style sheet hides. Small pages of our own."""

from __future__ import annotations

from tests.test_wf_extract_products import DESCRIPTION, PROSE, shop_page
from wf.extract import extract

OFFER = {"price": "89.00", "priceCurrency": "USD"}


def _price(modifiers: str) -> str:
    """Dawn's price box: the regular price, the sale price and the badges, all written."""
    label = "<span class='visually-hidden'>{}</span>"
    return (
        f"<div class='price price--large {modifiers}'><div class='price__container'>"
        f"<div class='price__regular'>{label.format('Regular price')}"
        "<span class='price-item price-item--regular'>$89.00</span></div>"
        f"<div class='price__sale'>{label.format('Regular price')}<s>$120.00</s>"
        f"{label.format('Sale price')}<span class='price-item--sale'>$89.00</span></div>"
        "</div><span class='badge price__badge-sale'>Sale</span>"
        "<span class='badge price__badge-sold-out'>Sold out</span></div>"
    )


def test_a_shopify_price_box_prints_the_price_its_style_sheet_shows():
    body = f"{_price('')}<p>{DESCRIPTION}</p>{PROSE}"
    text = extract(shop_page(OFFER, body)).text
    assert "Regular price $89.00" in text
    assert "Sale price" not in text and "$120.00" not in text
    assert "Sale" not in text.replace("Sale price", "") and "Sold out" not in text


def test_a_shopify_price_box_on_sale_prints_the_sale_price_and_its_badge():
    body = f"{_price('price--on-sale price--sold-out')}<p>{DESCRIPTION}</p>{PROSE}"
    text = extract(shop_page(OFFER, body)).text
    assert "Regular price $120.00 Sale price $89.00" in text
    assert text.count("Regular price") == 1
    assert "Sale Sold out" in text


def test_a_price_s_parts_outside_a_price_box_stay():
    body = (
        "<div class='card'><div class='price__sale'><span>Sale price</span> $89.00</div></div>"
        f"<p>{DESCRIPTION}</p>{PROSE}"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Sale price $89.00" in text
