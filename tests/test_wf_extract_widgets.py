"""wf/extract/kinds/widgets.py on a shop page of our own built of widgets named by what
each shows (the `<div id="..._feature_div">` convention): the product's own widgets are
printed in page order, the shop's widgets around them are not."""

from __future__ import annotations

from wf.extract import extract

PROSE = (
    "The harbour master keeps the tide tables for every berth along the eastern quay, "
    "and the pilots read them each morning before the first ships come in. "
)


def _widget(name: str, inner: str) -> str:
    return f"<div id='{name}_feature_div' class='celwidget'>{inner}</div>"


def _page(description: str, extra: str = "") -> str:
    # Twenty-odd widgets of the shop's, each a short line as on such pages.
    shop = "".join(
        _widget(f"badge{n}", f"<span>Free delivery on order number {n} of the day</span>")
        for n in range(24)
    )
    bought = _widget(
        "recommendations",
        "<h2>Customers also bought</h2>"
        + "".join(
            f"<div class='card'><p>Another clock, model {n}, whose makers say a great deal "
            f"about it in this long line of text that runs on and on, number {n}.</p></div>"
            for n in range(12)
        ),
    )
    title = _widget("title", "<h1><span id='productTitle'>Brass tide clock</span></h1>")
    bullets = _widget(
        "featurebullets",
        "<h3>About this item</h3><ul><li>Made by hand in Falmouth</li>"
        "<li>Shows high and low water</li></ul>",
    )
    about = _widget("productDescription", f"<h2>Product description</h2><p>{description}</p>")
    details = _widget(
        "productDetails",
        "<table><tr><th>Weight</th><td>2 kg</td></tr><tr><th>Maker</th>"
        "<td>Tide Works</td></tr></table>" + extra,
    )
    buybox = "<div id='buybox'><p>Add to basket</p><p>Buy now</p></div>"
    return (
        "<html><head><title>Brass tide clock</title></head><body><div id='dp'>"
        f"<div id='centerCol'>{title}{shop}{bullets}</div><div id='rightCol'>{buybox}</div>"
        f"{bought}{about}{details}</div></body></html>"
    )


def test_a_page_built_of_named_widgets_prints_the_products_own_in_page_order() -> None:
    found = extract(_page(PROSE * 12), url="https://shop.example/dp/clock")
    text = found.text
    assert found.kind == "product"
    order = ["Brass tide clock", "Made by hand in Falmouth", "The harbour master", "Tide Works"]
    assert [text.find(s) for s in order] == sorted(text.find(s) for s in order)
    assert all(s in text for s in order)
    for shop in ("Free delivery on order", "Another clock, model", "Add to basket"):
        assert shop not in text


def test_named_widgets_that_print_little_are_left_to_the_other_rules() -> None:
    # An item no longer sold: the product's widgets are empty shells.
    text = extract(_page("Gone."), url="https://shop.example/dp/clock").text
    assert "Free delivery on order" in text or "Another clock, model" in text


def test_a_box_the_shop_s_style_sheet_hides_in_a_kept_widget_goes() -> None:
    # A popover's content loaded with the page, under the details; an error message.
    hidden = (
        "<div class='a-popover-preload'><p>Found a lower price? Let us know, and we will "
        "look at it.</p></div><div class='a-box aok-hidden'><p>Sorry, there was a problem "
        "saving your list.</p></div>"
    )
    text = extract(_page(PROSE * 12, hidden), url="https://shop.example/dp/clock").text
    assert "Tide Works" in text
    assert "lower price" not in text
    assert "Sorry, there was a problem" not in text
