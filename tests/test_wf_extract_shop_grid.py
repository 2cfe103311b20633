"""A shop's category page: a grid of products, each a linked name and its price, and no
other words (wf/extract/kinds/listing.py's priced items), printed as a list."""

from __future__ import annotations

import pytest

from wf.extract import extract

NAMES = (
    "Classic Oxford Linen Shirt in Sky Blue",
    "Merino Wool Ribbed Scarf, Charcoal",
    "Heavy Canvas Market Tote",
    "Full-Grain Leather Belt, 35 mm",
    "Organic Cotton Crew Socks",
    "Selvedge Denim Trucker Jacket",
    "Hand-Rolled Silk Tie, Navy Dot",
    "Packable Waterproof Rain Coat",
    "Chunky Knit Beanie in Oat",
    "Suede Chukka Boots, Sand",
    "Wide-Brim Straw Sun Hat",
    "Automatic Field Watch, 38 mm",
)
GUIDE = (
    "<div class='collection-description'><h2>About our shirts</h2><p>Every shirt in this "
    "collection is cut from breathable natural fibres and finished by hand in small "
    "workshops. We choose linen for summer and brushed cotton for winter, and we test "
    "every seam before it leaves us.</p><p>Not sure of your size? Our fit guide compares "
    "each cut against your favourite shirt, and free returns mean you can try two sizes "
    "at home.</p></div>"
)
NAV = "<header><nav>" + "".join(f"<a href='/c{i}'>Category {i}</a> " for i in range(8))
FOOTER = "<footer><p>Copyright Example Shop.</p></footer>"


def _woo(i: int, name: str) -> str:
    # The name and the price inside the item's link, the basket's button beside them.
    return (
        f"<li class='product type-product post-{i}'><a href='/product/{i}'><img src='/{i}.jpg'>"
        f"<h2 class='title'>{name}</h2><span class='price'><span class='symbol'>£</span>"
        f"{20 + i}.00</span></a><a href='?add-to-cart={i}' class='button'>Add to basket</a></li>"
    )


def _shopify(i: int, name: str) -> str:
    return (
        f"<li class='grid__item'><div class='card'><div class='card__media'><img src='/{i}.jpg'>"
        f"</div><div class='card__content'><h3><a href='/products/{i}'>{name}</a></h3>"
        f"<div class='price'>${20 + i}.00 USD</div></div></div></li>"
    )


def _cards(i: int, name: str) -> str:
    return f"<div class='card'><a href='/p/{i}'>{name}</a> <span>{20 + i},00 €</span></div>"


@pytest.mark.parametrize(
    "item, box",
    [
        (_woo, "<ul class='products columns-4'>{}</ul>"),
        (_shopify, "<ul class='grid product-grid'>{}</ul>"),
        (_cards, "<div class='grid'>{}</div>"),
    ],
)
def test_a_shops_grid_of_names_and_prices_is_the_list_beside_its_buying_guide(item, box):
    grid = box.format("".join(item(i, n) for i, n in enumerate(NAMES)))
    html = (
        f"<html><head><title>Shirts</title></head><body>{NAV}</nav></header>"
        f"<main><h1>Shirts</h1>{grid}{GUIDE}</main>{FOOTER}</body></html>"
    )
    result = extract(html, metadata=True)
    text = result.text
    assert (result.metadata or {}).get("type") == "listing"
    for name in NAMES:
        assert name in text
    assert "31" in text  # the last item's price
    assert "fit guide" in text  # the buying guide beside the grid stays
    assert "Category 3" not in text and "Copyright" not in text


def test_a_grid_of_links_without_prices_or_words_is_no_shop():
    # A menu's links in boxes of one shape: no price, no words of their own.
    grid = "".join(f"<div class='tile'><a href='/t/{i}'>{n}</a></div>" for i, n in enumerate(NAMES))
    html = (
        f"<html><head><title>Shirts</title></head><body><main><div class='tiles'>{grid}</div>"
        f"{GUIDE}</main></body></html>"
    )
    result = extract(html, metadata=True)
    assert "fit guide" in result.text
    assert (result.metadata or {}).get("type") != "listing"


def test_a_grid_of_priced_items_with_words_of_their_own_is_read_as_a_shops():
    """A grid whose items have words of their own beside their names (worded) is a list
    either way; its prices, read once it is taken, still make it a shop's, which
    outweighs a choice of prose it holds less than twice the text of
    (listing_tuning.LIST_OVER_PRICED, not LIST_OVER_CHOICE)."""
    from lxml.html import fromstring

    from wf.extract.kinds import listing_tuning

    names = ("Market Tote", "Linen Shirt", "Wool Scarf", "Silk Tie", "Straw Hat", "Rain Coat")
    cards = "".join(
        f"<div class='card'><a href='/p/{i}'>{name}</a> <span>Hand made, {20 + i},00 €</span></div>"
        for i, name in enumerate(names * 3)
    )
    html = (
        f"<html><head><title>Shop</title></head><body>{NAV}</nav></header><main><h1>Shop</h1>"
        f"<div class='grid'>{cards}</div>{GUIDE}</main></body></html>"
    )
    grid_text = sum(len(f"{n}Hand made, {20 + i},00 €") for i, n in enumerate(names * 3))
    guide_text = len("".join(fromstring(GUIDE).itertext()))
    assert listing_tuning.LIST_OVER_PRICED * guide_text <= grid_text
    assert grid_text < listing_tuning.LIST_OVER_CHOICE * guide_text
    result = extract(html, metadata=True)
    assert (result.metadata or {}).get("type") == "listing"
    assert all(name in result.text for name in names)
