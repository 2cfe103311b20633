"""wf/extract/kinds/product.py and listing.py on shop pages of our own: what a product page
and a listing print, and what they leave out (reviews, hidden copies of the menus, the
page's own panels taken for a list)."""

from __future__ import annotations

import json

from wf.extract import extract

PROSE = (
    "The harbour master keeps the tide tables for every berth along the eastern quay, "
    "and the pilots read them each morning before the first ships come in."
)
NAV = "<nav><a href='/'>Home</a> <a href='/shop'>Shop</a> <a href='/about'>About</a></nav>"
FOOTER = "<footer><a href='/terms'>Terms</a> <a href='/privacy'>Privacy</a></footer>"


def page(body: str, head: str = "") -> str:
    return f"<html><head><title>T</title>{head}</head><body>{NAV}{body}{FOOTER}</body></html>"


def product_ld(description: str) -> str:
    declared = {
        "@type": "Product",
        "name": "Brass tide clock",
        "description": description,
        "offers": {"@type": "Offer", "price": "89.00", "priceCurrency": "GBP"},
    }
    return f'<script type="application/ld+json">{json.dumps(declared)}</script>'


def test_a_declared_description_the_page_does_not_show_is_printed():
    # The page builds its description with a script: the declaration holds it, as HTML.
    html = page(
        "<main><h1>Brass tide clock</h1><p class='price'>89.00</p>"
        "<div id='description-root'></div></main>",
        product_ld(
            "<p>A brass clock that shows the state of the tide at a glance,</p>"
            "<ul><li>made by hand in Falmouth &amp; polished</li></ul>"
        ),
    )
    found = extract(html, url="https://shop.example/p/clock")
    assert "made by hand in Falmouth & polished" in found.text
    assert "<p>" not in found.text and "&amp;" not in found.text
    assert found.kind == "product"


def test_a_declared_description_the_page_shows_is_printed_once():
    shown = (
        "A brass clock that shows the state of the tide at a glance, made by hand in "
        "Falmouth from the brass of old ships."
    )
    html = page(
        f"<main><h1>Brass tide clock</h1><p class='price'>89.00</p><div><p>{shown}</p>"
        f"<p>{PROSE}</p></div></main>",
        product_ld(shown.replace(", made", " – made")),
    )
    found = extract(html, url="https://shop.example/p/clock")
    assert found.text.count("made by hand in Falmouth") == 1


def review(n: int) -> str:
    return (
        f"<li class='review-item'><span class='who'>Buyer {n}</span>"
        f"<p>Review {n}: keeps good time.</p>"
        f"<a href='/review/{n}/helpful'>Helpful</a></li>"
    )


def test_a_products_reviews_are_not_its_list():
    # A thin description and six reviews, each with a link and words of its own: the
    # shape of a list's items, but a product's reviews are never the page's list.
    html = page(
        "<main><h1>Brass tide clock</h1><p class='price'>89.00</p>"
        "<div class='description'><p>A brass tide clock made by hand in Falmouth, with a "
        "dial for the tides of the harbour and one for the hours.</p></div></main>"
        "<div class='customer-reviews'><h2>Reviews</h2><ul class='review-list'>"
        + "".join(review(n) for n in range(1, 7))
        + "</ul></div>"
    )
    found = extract(html, url="https://shop.example/p/clock")
    assert "made by hand in Falmouth" in found.text
    assert found.kind != "listing"


def test_a_hidden_copy_of_the_menus_is_not_the_list():
    # Pages repeat their menus for screen readers in a box hidden from sight; its entries
    # look like a list's items (a link and a few words each).
    menu = "".join(
        f"<div class='entry'><a href='/dept/{n}'>Department {n}</a> <span>all the clocks of"
        f" department {n}</span></div>"
        for n in range(1, 9)
    )
    html = page(
        f"<div class='visually-hidden'>{menu}</div>"
        "<main><h1>Tide clocks</h1><p>Our clocks, made by hand in Falmouth, show the tides "
        "of the harbour beside the hours, on a dial of brass.</p></main>"
    )
    found = extract(html, url="https://shop.example/clocks")
    assert "made by hand in Falmouth" in found.text
    assert "Department 3" not in found.text
    assert found.kind != "listing"


def test_a_pages_long_panels_are_not_a_lists_items():
    # Five panels of one shape, each with links and words of its own, each as long as an
    # article: the page's sections (a product page's panels), not the items of a list.
    words = " ".join(
        f"<a href='/part/{n}'>Spare part number {n} of the tide clock</a> in stock"
        for n in range(50)
    )
    panels = "".join(f"<div class='panel'><h2>Panel {n}</h2><p>{words}</p></div>" for n in range(5))
    html = page(f"<div class='intro'><h1>Tide clock</h1><p>89.00</p></div><div>{panels}</div>")
    found = extract(html, url="https://shop.example/p/clock")
    assert "Panel 3" in found.text
    assert found.kind != "listing"


def test_a_rows_facts_laid_out_apart_are_printed_apart():
    # A chart's rows show a film's year, length and rating in spans the page's style sets
    # apart, with no space between them in the markup.
    rows = "".join(
        f"<li class='row'><h3><a href='/film/{n}'>Film number {n}</a></h3>"
        f"<div class='facts'><span class='fact'>19{n}4</span><span class='fact'>2h {n}m</span>"
        f"<span class='fact'>PG</span></div></li>"
        for n in range(1, 8)
    )
    html = page(f"<main><h1>The chart</h1><ul class='chart'>{rows}</ul></main>")
    found = extract(html, url="https://films.example/chart")
    assert "1934 2h 3m PG" in found.text


def test_a_cards_brand_name_and_price_laid_out_apart_are_printed_apart():
    # A shop's card writes its brand and its product's name in two spans, its price and
    # the list price beside it in two more, all with no space between them in the markup;
    # the page's style sets each apart.
    cards = "".join(
        f"<li class='card'><a href='/p/{n}'><span class='title'><span class='brand'>Quay "
        f"Co-op</span><span class='name'>Harbour Wool Sock number {n}</span></span></a>"
        f"<div class='price'><b>$1{n}</b><span>MSRP: $2{n}</span><small>PRO</small>"
        f"<small>2 day delivery</small></div></li>"
        for n in range(1, 8)
    )
    html = page(f"<main><h1>Socks</h1><ul class='grid'>{cards}</ul></main>")
    text = extract(html, url="https://socks.example/c/wool").text
    assert "Quay Co-op Harbour Wool Sock number 3" in text
    assert "$13 MSRP: $23 PRO 2 day delivery" in text
    # Inside a paragraph the runs join as written, capitals or not.
    html = page(
        f"<main><h1>Socks</h1><p>{PROSE} <em><b>i</b><span>Phone</span></em> cases.</p></main>"
    )
    assert "iPhone cases" in extract(html, url="https://socks.example/a").text


def test_a_word_processors_runs_join_as_written():
    # Word processors split a paragraph into runs anywhere, inside words too.
    html = page(
        "<main><h1>Tides</h1><p><span class='s1'>The Co</span><span class='s1'>rnell</span>"
        f"<span class='s1'> harbour</span> {PROSE}</p><p><span class='r'>child</span>"
        f"<span class='r'>ren</span></p><p>{PROSE}</p></main>"
    )
    found = extract(html, url="https://tides.example/a")
    assert "The Cornell harbour" in found.text
    assert "children" in found.text


def test_an_index_declared_an_article_prints_its_list():
    # An index of reviews declares itself an article; its introduction is the only
    # paragraph, and the list of reviews (a title, a byline, an excerpt) is the page.
    cards = "".join(
        f"<li class='card'><h3><a href='/review/{n}'>The best tide clock number {n}</a></h3>"
        f"<p>by Writer {n}</p><p>We tested {n + 10} clocks for a month on the quay. {PROSE}</p></li>"
        for n in range(1, 9)
    )
    html = page(
        f"<article><header><h1>Clocks</h1><p>{PROSE} {PROSE}</p></header>"
        f"<div><ul class='cards'>{cards}</ul></div></article>",
        '<meta property="og:type" content="article">',
    )
    found = extract(html, url="https://reviews.example/clocks")
    for n in range(1, 9):
        assert f"The best tide clock number {n}" in found.text
    assert found.kind == "listing"


def test_a_list_taken_keeps_the_listings_title_and_introduction():
    rows = "".join(
        f"<li class='row'><a href='/film/{n}'>Film number {n}</a> (19{n}0) rated {n}.5 by readers</li>"
        for n in range(1, 9)
    )
    html = page(
        "<main><div class='head'><h1>The films of the decade</h1>"
        "<p>Chosen by our readers.</p></div>"
        f"<div class='results'><ol class='chart'>{rows}</ol></div></main>"
        "<div class='links'><a href='/jobs'>Jobs at the films desk</a> "
        "<a href='/press'>Press and partners</a> <a href='/help'>Help and contact</a></div>"
    )
    found = extract(html, url="https://films.example/chart")
    assert "The films of the decade" in found.text
    assert "Chosen by our readers." in found.text
    for n in range(1, 9):
        assert f"Film number {n}" in found.text
    assert "Press and partners" not in found.text
    assert found.kind == "listing"


def test_a_thin_products_page_read_whole_leaves_its_reviews_out():
    # A two-line description: the region is thin, and the page is read whole without its
    # named boilerplate; the customers' reviews are no part of the product's text.
    reviews = "".join(f"<div class='entry'><p>Review {n}: {PROSE}</p></div>" for n in range(1, 5))
    html = page(
        "<main><div class='buy'><h1>Brass tide clock</h1><p>A brass tide clock, made by hand"
        " in Falmouth.</p></div><div class='details'><h2>Details</h2><p>Diameter 20 cm</p>"
        "</div></main>"
        f"<div id='product-reviews'><h2>What our customers say</h2>{reviews}</div>",
        product_ld("A brass tide clock, made by hand in Falmouth."),
    )
    found = extract(html, url="https://shop.example/p/clock")
    assert "made by hand in Falmouth" in found.text
    assert "Review 2" not in found.text
    assert found.kind == "product"


def test_a_listing_whose_items_are_all_links_is_read_whole_over_a_thin_choice():
    # A declared collection of stories, each item a linked headline and a linked writer:
    # no words of its own, so the listing rule sees no list; the article rule chooses
    # the one paragraph beside it. That choice is thin against the page: read whole.
    items = "".join(
        f"<li class='story'><a href='/s/{n}'>Headline number {n} about the eastern quay</a>"
        f" <a href='/w/{n}'>Writer {n}</a></li>"
        for n in range(1, 16)
    )
    html = page(
        f"<main><h1>Latest stories</h1><ul class='stories'>{items}</ul></main>"
        f"<div class='about'><p>{PROSE} {PROSE}</p></div>",
        '<script type="application/ld+json">{"@type": "CollectionPage"}</script>',
    )
    found = extract(html, url="https://news.example/latest")
    for n in range(1, 16):
        assert f"Headline number {n} about the eastern quay" in found.text
    assert "Privacy" not in found.text
    assert found.kind == "listing"


def test_a_listing_read_whole_leaves_its_cards_labels_out():
    # Linked headlines alone, each under its section's label: the listing rule sees no
    # list and the page is read whole, without the labels as its list would be.
    items = "".join(
        f"<li class='story'><div class='label'><a href='/c/{n}'>Harbour desk {n}</a></div>"
        f"<h3><a href='/s/{n}'>Headline number {n} about the eastern quay</a></h3></li>"
        for n in range(1, 16)
    )
    html = page(
        f"<main><h1>Latest stories</h1><ul class='stories'>{items}</ul></main>"
        f"<div class='about'><p>{PROSE} {PROSE}</p></div>",
        '<script type="application/ld+json">{"@type": "CollectionPage"}</script>',
    )
    found = extract(html, url="https://news.example/latest")
    for n in range(1, 16):
        assert f"Headline number {n} about the eastern quay" in found.text
        assert f"Harbour desk {n}" not in found.text
    assert "Privacy" not in found.text
    assert found.kind == "listing"


def test_a_cards_labels_of_links_go_and_its_title_and_text_stay():
    # Each card: a linked title, an excerpt, then its category and a "More like this"
    # link. The labels lead elsewhere: the card's title and text are its item.
    cards = "".join(
        f"<li class='card'><h3><a href='/s/{n}'>Story number {n} from the quay</a></h3>"
        f"<p>The pilots of berth {n} read the tide tables before the first ships.</p>"
        f"<div class='labels'><a href='/c/{n}'>Harbour section {n}</a></div>"
        f"<div class='more'><a href='/like/{n}'>More like this</a></div></li>"
        for n in range(1, 9)
    )
    html = page(
        f"<main><h1>All the news</h1><ul class='cards'>{cards}</ul></main>",
        '<script type="application/ld+json">{"@type": "CollectionPage"}</script>',
    )
    found = extract(html, url="https://news.example/all")
    for n in range(1, 9):
        assert f"Story number {n} from the quay" in found.text
        assert f"berth {n} read the tide tables" in found.text
        assert f"Harbour section {n}" not in found.text
    assert "More like this" not in found.text
    assert found.kind == "listing"


def test_links_under_a_plain_heading_beside_the_cards_stay():
    # An index of the listing's topics, a plain letter over links alone: no card's labels.
    cards = "".join(
        f"<li class='card'><h3><a href='/s/{n}'>Story number {n} from the quay</a></h3>"
        f"<p>The pilots of berth {n} read the tide tables before the first ships.</p></li>"
        for n in range(1, 9)
    )
    index = "".join(f"<li><a href='/i/{n}'>Index entry {n}</a></li>" for n in range(1, 4))
    html = page(
        f"<main><h1>All the news</h1><ul class='cards'>{cards}</ul>"
        f"<div class='index'><h2>A</h2><ul>{index}</ul></div></main>"
        f"<div class='about'><p>{PROSE}</p><p>{PROSE}</p></div>",
        '<script type="application/ld+json">{"@type": "CollectionPage"}</script>',
    )
    found = extract(html, url="https://news.example/all")
    assert "Story number 3 from the quay" in found.text
    assert "Index entry 2" in found.text
    assert found.kind == "listing"


def paper(n: int) -> str:
    return (
        f"<dt><a href='/abs/{n}'>[{n}] paper:{n}00</a> [ <a href='/pdf/{n}'>pdf</a> ]</dt>"
        f"<dd><div class='list-title'>Title: Tidal currents of the eastern quay, part {n}</div>"
        f"<div class='list-authors'><a href='/a/{n}'>Ann Lee</a>, <a href='/b/{n}'>Ben Ng</a>"
        "</div><div class='list-notes'>Notes: twelve pages, four figures, read at the pilots'"
        " spring meeting on the eastern quay</div>"
        f"<div class='list-subjects'>Subjects: Hydrography and harbours (h.{n})</div></dd>"
    )


PAPERS = (
    "<html><head><title>Recent papers</title></head><body>"
    "<div class='flex-wrap-footer'><header><a href='/'>Home</a></header>"
    "<main><h1>Recent submissions</h1><dl id='articles'>"
    + "".join(paper(n) for n in range(1, 9))
    + "</dl></main><footer><a href='/terms'>Terms</a></footer></div></body></html>"
)


def test_a_definition_list_of_papers_naming_their_authors_is_a_listing():
    # Each entry names its authors (a class "authors"), as a thread's posts do: a
    # definition list's entries are a listing's items all the same.
    found = extract(PAPERS, url="https://papers.example/list/recent", metadata=True)
    assert found.kind == "listing"


def test_a_list_in_the_main_box_of_a_wrapper_named_after_the_footer_is_the_list():
    # The box that keeps the footer at the window's foot holds <main>: not a frame, and
    # the list's items print whole, with the authors' names (links).
    found = extract(PAPERS, url="https://papers.example/list/recent")
    for n in range(1, 9):
        assert f"eastern quay, part {n}" in found.text
    assert found.text.count("Ann Lee") == 8
    assert "Terms" not in found.text


def shelf_row(n: int) -> str:
    return (
        f"<tr><td class='number'>{n}</td><td><a class='title' href='/book/{n}'>"
        f"Tide tables of the eastern quay, volume {n}</a><br>by <a href='/author/{n}'>"
        f"Ann Lee</a><div>4.{n} average rating from {n}00 readers</div></td>"
        "<td><div class='shelf'><form action='/shelf/add' method='post'>"
        "<input type='hidden' name='book' value='1'><button type='submit'>Want to read"
        "</button></form><div class='stars'>Rate this book <a href='#' class='star'>"
        "1 of 5 stars</a><a href='#' class='star'>2 of 5 stars</a></div></div></td></tr>"
    )


def test_an_items_controls_go_and_its_title_and_text_stay():
    # A form and buttons beside each item (shelve it, rate it) are what a reader does
    # with the item, not what it is.
    html = page(
        "<main><h1>The best tide books</h1><table class='list'>"
        + "".join(shelf_row(n) for n in range(1, 9))
        + "</table></main>",
        '<script type="application/ld+json">{"@type": "CollectionPage"}</script>',
    )
    found = extract(html, url="https://books.example/list/best")
    assert found.kind == "listing"
    for n in range(1, 9):
        assert f"eastern quay, volume {n}" in found.text
        assert f"4.{n} average rating" in found.text
    assert "Want to read" not in found.text
    assert "Rate this book" not in found.text
    assert "of 5 stars" not in found.text


def test_a_card_with_its_button_stays_whole():
    # A card holds its linked title beside its button: the item itself, not its controls.
    cards = "".join(
        f"<tr class='card'><td><a href='/p/{n}'>Brass tide clock model {n}</a>"
        f"<p>Hand made in Falmouth, {n + 10} cm</p><form action='/basket'>"
        f"<input type='hidden' name='item' value='{n}'><button>Add to basket</button></form>"
        "</td></tr>"
        for n in range(1, 7)
    )
    html = page(
        f"<main><h1>Clocks</h1><table class='cards'>{cards}</table></main>"
        "<div><p>The shop on the quay opens at nine and shuts at six.</p></div>",
        '<script type="application/ld+json">{"@type": "CollectionPage"}</script>',
    )
    found = extract(html, url="https://shop.example/clocks")
    assert found.kind == "listing"
    assert "shuts at six" not in found.text  # the list, not the page read whole
    for n in range(1, 7):
        assert f"Brass tide clock model {n}" in found.text
        assert f"Falmouth, {n + 10} cm" in found.text


def _chart(items: str) -> str:
    return page(f"<main><h1>Best sellers in kettles</h1><p>{PROSE}</p><ol>{items}</ol></main>")


def test_a_charts_items_that_write_their_own_rank_are_numbered_once():
    # A chart numbers each item in its text ("#1") and in its <ol>: "1. #1 ..." said it twice.
    items = "".join(
        f"<li><span>#{n}</span> <a href='/k/{n}'>Kettle {n}</a> boils a litre fast</li>"
        for n in range(1, 12)
    )
    text = extract(_chart(items), url="https://shop.example/best").text
    assert "- #1 Kettle 1 boils" in text and "- #11 Kettle 11 boils" in text
    assert "1. #1" not in text and "11. #11" not in text


def test_an_ordered_lists_own_numbers_stay_when_its_items_write_none():
    # A recipe's steps open with a quantity, not their rank: "2. 2 eggs" keeps its number.
    items = "".join(
        f"<li>{n} {thing} into the bowl, then stir it well</li>"
        for n, thing in enumerate(("cup of flour", "eggs", "spoons of sugar"), start=1)
    )
    text = extract(_chart(items), url="https://shop.example/recipe").text
    assert "1. 1 cup of flour" in text and "2. 2 eggs" in text


def test_the_marker_of_an_item_that_ranks_itself():
    from wf.extract import ranks

    assert ranks.marker("3. ", "#3 Kettle") == "- " and ranks.marker("3. ", "3. Kettle") == "- "
    assert ranks.marker("3. ", "3) Kettle") == "- " and ranks.marker("10. ", "#10") == "- "
    assert ranks.marker("3. ", "#31 Kettle") == "3. "  # another number
    assert ranks.marker("3. ", "3 eggs") == "3. " and ranks.marker("- ", "#3 Kettle") == "- "


def test_a_cards_rating_hidden_from_screen_readers_but_spoken_by_its_label_is_printed():
    # Each card's rating is a link labelled for screen readers; the stars' words and the
    # count inside it are hidden from them (aria-hidden), and shown to the eye: printed.
    # A hidden box whose words no label speaks (a carousel's other slide) stays out.
    cards = "".join(
        f"<li class='card'><a href='/b/{n}'>Tide tables volume {n}</a>"
        f"<a href='/r/{n}' aria-label='4.{n} out of 5 stars, {n}1,20{n} ratings'>"
        f"<i aria-hidden='true'><span>4.{n} out of 5 stars</span></i> "
        f"<span aria-hidden='true'>{n}1,20{n}</span></a>"
        f"<span class='price'>${n}.99 paperback</span></li>"
        for n in range(1, 9)
    )
    html = page(
        f"<main><h1>Best sellers in books</h1><ol class='grid'>{cards}</ol>"
        "<div aria-label='Featured books'><p aria-hidden='true'>A slide no label speaks "
        "of, hidden from every reader of the page.</p></div></main>"
    )
    text = extract(html, url="https://books.example/best-sellers").text
    for n in range(1, 9):
        assert f"Tide tables volume {n}" in text
        assert f"4.{n} out of 5 stars {n}1,20{n}" in " ".join(text.split())
    assert "A slide no label speaks" not in text


def test_a_long_list_of_labels_is_not_counted_once_per_label() -> None:
    # listing.card_label asked len() of each label's box: lxml counts every child, so a
    # list of 20000 cards, each beside a label of links, cost 7.6 s. It reads at most
    # CARD_CHILDREN + 1 children now.
    from lxml import html as lxml_html

    from wf.extract.kinds.listing import card_label
    from wf.extract.records import BlockRecord

    class Box(lxml_html.HtmlElement):
        armed = False  # lxml's own fromstring asks len() of the <body>

        def __len__(self) -> int:
            if Box.armed and self.get("class") == "grid":
                raise AssertionError("the whole list counted")
            return super().__len__()

    parser = lxml_html.HTMLParser()
    parser.set_element_class_lookup(lxml_html.etree.ElementDefaultClassLookup(element=Box))
    card = "<div class='card'><h3><a href='/p'>Brass clock</a></h3><p>A clock.</p></div>"
    label = "<div class='label'><a href='/c'>Clocks</a></div>"
    root = lxml_html.fromstring(f"<div class='grid'>{(card + label) * 20}</div>", parser=parser)
    framed = lxml_html.fromstring(
        f"<div class='grid'><div>{card}{label}</div></div>", parser=parser
    )
    Box.armed = True
    for el, kept in ((root.find_class("label")[3], True), (framed.find_class("label")[0], False)):
        b = BlockRecord(el, 0, "div", 6, 6, "", 1, 1, None)
        b.text = b.link = 6
        assert card_label(el, b) is not kept
