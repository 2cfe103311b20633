"""wf/extract/kinds/product.py and the writer's fallbacks on a product page: small pages
of our own."""

from __future__ import annotations

from tests.test_wf_extract_kinds import ld, page
from wf.extract import extract

DESCRIPTION = (
    "A brass tide clock for the chart room: it shows high and low water at a glance, "
    "set once by the local tide tables and kept true by a quartz movement."
)


def test_a_product_built_by_scripts_prints_its_declaration_not_the_page_s_menus():
    menus = "".join(
        f"<li><a href='/c/{n}'>Category {n}</a><ul><li><a href='/c/{n}/a'>All of {n}</a></li>"
        f"<li><a href='/c/{n}/new'>New in {n}</a></li></ul></li>"
        for n in range(1, 8)
    )
    declared = ld(
        {
            "@type": "Product",
            "name": "Brass tide clock",
            "description": DESCRIPTION,
            "offers": {"@type": "Offer", "price": "89.00", "priceCurrency": "USD"},
        }
    )
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
