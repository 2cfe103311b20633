"""A product's region (wf/extract/kinds/product_region.py): a marketplace item's <main>
that is the page, whose modules are named as boilerplate is elsewhere, read whole; the
product's sections under their <h2> read together; and a box named `meta` kept beside a
product (product_tuning.DETAILS_NAMES); an accordion's title over an empty panel left
out. Small pages of our own."""

from __future__ import annotations

from tests.test_wf_extract_kinds import ld, page
from tests.test_wf_extract_products import DESCRIPTION, PROSE, shop_page
from wf.extract import extract

SPECIFICS = (
    "Item specifics: Certification uncertified, Denomination ten cents to one dollar, "
    "Mint location San Francisco, Strike type proof, Year 2024, Composition silver."
)
SELLER = (
    "About this seller: a shop of coin collectors with decades of experience, joined in "
    "2018, with every coin checked by hand and shipped in its original packaging."
)
SHIPPING = (
    "Shipping from New Hampshire, United States; delivery varies with the buyer's "
    "country. Returns are not accepted; payment by card or by the usual wallets."
)


def _offered(name: str, price: str) -> str:
    """The page's JSON-LD: a product with its offer in dollars."""
    offers = {"@type": "Offer", "price": price, "priceCurrency": "USD"}
    return ld({"@type": "Product", "name": name, "offers": offers})


def _item(extra: str = "") -> str:
    declared = _offered("Silver proof set 2024", "394.99")
    return page(
        declared,
        "<main><h1>Silver proof set 2024</h1><p>US $394.99</p>"
        "<p>Ten proof coins of the year, struck in silver at San Francisco.</p>"
        f"<div class='x-promo-panel'><p>{SPECIFICS}</p><p>{SPECIFICS}.</p></div>"
        f"<div class='x-seller-related'><p>{SELLER}</p><p>{SELLER}.</p></div>"
        f"<div class='x-shipping-promo'><p>{SHIPPING}</p><p>{SHIPPING}.</p></div>"
        f"{extra}</main>",
    )


def test_a_marketplace_item_s_main_named_as_boilerplate_is_read_whole():
    # The product's own rules still hold: a box a class hides stays out.
    fields = "<dl class='fields hide'><dt>swatch_1:</dt><dd>colour_code_1</dd></dl>"
    found = extract(_item(fields), url="https://market.example/itm/1")
    assert found.kind == "product"
    for text in (SPECIFICS, SELLER, SHIPPING):
        assert text in found.text
    assert "colour_code_1" not in found.text


def test_the_main_around_a_marketplace_item_s_summary_is_read_whole():
    # The product's heading chooses its summary box; the modules beside it, in the same
    # <main>, are named as boilerplate.
    declared = _offered("Silver proof set 2024", "394.99")
    others = "".join(
        f"<li><a href='/itm/{n}'>Another proof set of the year {n}, uncirculated</a></li>"
        for n in range(12)
    )
    html = page(
        declared,
        "<main><div class='summary-panel'><h1>Silver proof set 2024</h1><p>US $394.99</p>"
        "<p>Ten proof coins of the year, struck in silver at San Francisco.</p></div>"
        f"<div class='x-promo-panel'><p>{SPECIFICS}</p><p>{SPECIFICS}.</p></div>"
        f"<div class='x-seller-related'><p>{SELLER}</p><ul>{others}</ul></div>"
        f"<div class='x-shipping-promo'><p>{SHIPPING}</p><p>{SHIPPING}.</p></div></main>",
    )
    found = extract(html, url="https://market.example/itm/3")
    assert "Ten proof coins of the year" in found.text
    for text in (SPECIFICS, SELLER, SHIPPING, "Another proof set of the year 3"):
        assert text in found.text


def test_a_main_that_keeps_most_of_its_text_is_pruned_by_its_names():
    own = "".join(
        f"<p>The set's coin number {n} is struck twice on polished blanks and sealed in "
        "its own lens, each with the mint's certificate of authenticity beside it.</p>"
        for n in range(1, 9)
    )
    found = extract(_item(own), url="https://market.example/itm/2")
    assert "struck twice on polished blanks" in found.text
    assert SELLER not in found.text


def _cards(name: str, count: int = 8) -> str:
    return "".join(
        f"<li class='product-card'><a href='/products/{n}'><img src='/i/{n}.jpg' alt=''>"
        f"<h3>{name} number {n}</h3></a><span class='price'>${40 + n}.00</span>"
        f"<p>Another lamp of the shop, with its shade and its cord.</p></li>"
        for n in range(count)
    )


def test_a_shop_s_grid_of_other_products_in_its_main_does_not_read_it_whole():
    # The names cut the grid ("related-products"), most of the <main>, and keep the
    # product's short summary: the grid alone is no marketplace's modules.
    declared = _offered("Walnut desk lamp", "89.00")
    body = (
        "<header><nav><a href='/'>Shop</a> <a href='/lamps'>Lamps</a></nav></header>"
        "<main><div class='product-summary'><h1>Walnut desk lamp</h1><p>$89.00</p>"
        "<p>A desk lamp turned from one piece of walnut, with a brass switch.</p>"
        "<p>In stock</p></div><section class='related-products'><h2>You may also like</h2>"
        f"<ul>{_cards('Oak floor lamp')}</ul></section></main>"
    )
    found = extract(page(declared, body), url="https://shop.example/p/walnut-lamp")
    assert found.kind == "product"
    assert "turned from one piece of walnut" in found.text and "In stock" in found.text
    assert "Oak floor lamp" not in found.text, found.text


def test_a_marketplace_item_s_main_with_a_grid_of_other_items_is_read_whole():
    # Its modules of prose are named as boilerplate besides its grid: read whole, grid
    # and all.
    found = extract(
        _item(f"<div class='x-related'><ul>{_cards('Proof set of another year')}</ul></div>"),
        url="https://market.example/itm/4",
    )
    for text in (SPECIFICS, SELLER, SHIPPING, "Proof set of another year number 3"):
        assert text in found.text


STORY = "".join(
    f"<p>Chapter {n} of the island's story: the tide turns, the camp burns, and the "
    "survivors rebuild their walls from driftwood and stone before the night comes.</p>"
    for n in range(1, 9)
)


def test_a_product_s_sections_each_under_its_h2_are_read_together():
    # No <h1> and no declared description: the article rule chooses the longest section.
    declared = ld({"@type": "Product", "name": "Island survival game"})
    body = (
        "<header><nav><a href='/'>Store</a> <a href='/new'>New</a></nav></header>"
        "<div class='page'><div class='app-name'>Island survival game</div><div class='column'>"
        f"<div class='about'><h2>About this game</h2>{STORY}</div>"
        "<div class='maturity'><h2>Content descriptors</h2><p>Violence, online play.</p></div>"
        "<div class='requirements'><h2>System requirements</h2>"
        "<ul><li>Processor: any four-core chip</li><li>Memory: 16 GB</li></ul></div>"
        "</div></div>"
        # The store's own text beside the game's: the column is no page's layout.
        f"<footer>{SHIPPING} {SELLER} {SPECIFICS}</footer>"
    )
    found = extract(page(declared, body), url="https://games.example/app/1")
    assert found.kind == "product"
    assert "Chapter 3 of the island's story" in found.text
    assert "Memory: 16 GB" in found.text and "Violence, online play." in found.text
    assert "New" not in found.text.split("\n")


def test_a_product_s_meta_box_holds_its_facts():
    # `meta` names an article's byline elsewhere; beside a product, its SKU and categories.
    declared = _offered("Silver proof set 2024", "394.99")
    body = (
        "<main><div class='summary'><h1>Silver proof set 2024</h1><p>US $394.99</p>"
        f"<p>{SPECIFICS} {SELLER}</p>"
        "<div class='product_meta'><span>SKU: SPS-2024-10</span> "
        "<span>Categories: Coins, Proof sets</span></div></div></main>"
    )
    found = extract(page(declared, body), url="https://shop.example/p/sps")
    assert "SKU: SPS-2024-10" in found.text
    assert "Categories: Coins, Proof sets" in found.text


def test_a_column_of_the_product_s_facts_beside_its_description_joins_it():
    declared = ld({"@type": "Product", "name": "Island survival game"})
    body = (
        "<div class='page'><div class='app-name'>Island survival game</div>"
        "<div class='columns'>"
        f"<div class='leftcol'><h2>About this game</h2>{STORY}</div>"
        "<div class='rightcol game-meta'><p>Genre: Survival, Open world</p>"
        "<p>Developer: Tide Works</p><p>Languages: English, French</p></div>"
        "</div></div>"
        # The store's own text beside the game's: the columns are no page's layout.
        f"<footer>{SHIPPING} {SELLER} {SPECIFICS}</footer>"
    )
    found = extract(page(declared, body), url="https://games.example/app/2")
    assert "Chapter 3 of the island's story" in found.text
    assert "Developer: Tide Works" in found.text and "Genre: Survival" in found.text


def test_a_review_s_byline_named_meta_goes_on_a_page_that_declares_its_product():
    # A review declares the product it reviews: its `entry-meta`, which names the review's
    # author and date, is a byline still, not the product's facts.
    declared = ld({"@type": "Product", "name": "Island survival game"})
    body = (
        "<main><article><h1>Island survival game, reviewed</h1>"
        "<div class='entry-meta'>By <a href='/author/ines' rel='author'>Ines Lund</a> on "
        "<time datetime='2025-05-03'>3 May 2025</time></div>"
        f"<div class='entry-content'>{STORY}</div></article></main>"
    )
    found = extract(page(declared, body), url="https://reviews.example/island")
    assert "Chapter 3 of the island's story" in found.text
    assert "Ines Lund" not in found.text, found.text


def test_a_facts_box_is_read_for_an_author_a_bounded_number_of_elements():
    # product.bylined reads product_tuning.BYLINE_READ elements of a box named `meta`: a
    # nest of such boxes, each around the next, costs a bounded read each.
    import lxml.html

    from wf.extract.kinds import product_tuning
    from wf.extract.kinds.product import bylined

    def box(spans: int) -> object:
        return lxml.html.fromstring(
            "<div class='entry-meta'>"
            + "<span>x</span>" * spans
            + "<a href='/author/ines'>Ines Lund</a></div>"
        )

    assert bylined(box(product_tuning.BYLINE_READ - 2))
    assert not bylined(box(product_tuning.BYLINE_READ))


def test_the_groups_of_a_main_are_read_for_a_price_a_bounded_number_of_times(monkeypatch):
    # listing.grids reads a sample of the PRICE_GROUPS largest groups of links only for a
    # price: a <main> of hundreds of lists of bare links costs no more.
    from wf.extract.kinds import listing, listing_tuning

    calls = []
    real = listing.priced

    def counted(el: object) -> bool:
        calls.append(el)
        return real(el)

    monkeypatch.setattr(listing, "priced", counted)
    lists = "".join(
        "<ul>" + "".join(f"<li><a href='/p/{g}/{n}'>Item {n}</a></li>" for n in range(6)) + "</ul>"
        for g in range(300)
    )
    found = extract(_item(f"<div class='x-related'>{lists}</div>"), url="https://m.example/itm/5")
    assert SELLER in found.text
    assert len(calls) <= listing_tuning.PRICE_GROUPS * listing_tuning.PRICE_SAMPLE * 2


OFFER = {"price": "89.00", "priceCurrency": "USD"}


def test_an_accordion_s_title_over_an_empty_panel_goes():
    # A theme's accordion whose panels a script fills when opened (the reviews' widget,
    # the shipping's terms): the titles over nothing go, one over its text stays.
    def item(title: str, panel: str, tag: str = "div") -> str:
        return (
            f"<{tag} class='accordion-item'><div class='accordion-title'>{title}</div>"
            f"<div class='accordion-content'>{panel}</div></{tag}>"
        )

    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}<div class='accordion'>"
        + item("Customer Photos", "<div class='widget-instance'></div>")
        + item("Care Guide", "<p>Dust the case weekly with a soft dry cloth.</p>")
        + "<details class='more'><summary>Warranty Card</summary><div> </div></details>"
        + "</div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "Care Guide" in text
    assert "Dust the case weekly" in text
    assert "Customer Photos" not in text
    assert "Warranty Card" not in text


def test_a_lone_title_of_the_shop_s_other_products_still_ends_the_text():
    # "You may also like" over a carousel a script fills: where the product's text ends,
    # before the shop's own questions.
    shop = "<p>Every order ships in a wooden crate from our workshop, insured in full.</p>"
    body = (
        f"<p>{DESCRIPTION}</p>{PROSE}"
        "<div class='accordion-item'><h3>You may also like</h3><div class='carousel'></div></div>"
        f"<div class='faq'>{shop}</div>"
    )
    text = extract(shop_page(OFFER, body)).text
    assert "solid brass" in text
    assert "wooden crate" not in text
