"""wf.extract: HTML -> clean text, as pure functions on small pages of our own, hostile
inputs, and a handful of real pages from ../shared/extract-bench/ (skipped when absent)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import SHARED, recall
from wf.extract import Extracted, Link, extract, extract_text

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "extract"
BENCH = SHARED / "extract-bench" / "scrapinghub"


def page(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


# -- main content ------------------------------------------------------------------------


def test_article_keeps_the_story_and_drops_the_site_around_it():
    text = extract_text(page("article.html"))
    assert text.startswith("# Tide tables and the moon\n\nTwice a day the sea climbs")
    assert "every lunar day of about twenty-four hours and fifty minutes." in text
    assert text.rstrip().endswith("harbour office almanac and on the national tide service.")
    for boilerplate in (
        "cookies",  # cookie banner
        "Home",
        "About us",  # navigation
        "Most read",
        "Lighthouse keeper",  # sidebar
        "Share on social media",  # share buttons
        "Great article",
        "Subscribe to my channel",  # comments
        "© 2026",
        "Terms",  # footer
        "Morwenna",  # byline
        "analytics",
        "font-family",  # script and style
    ):
        assert boilerplate not in text, boilerplate


def test_structure_is_light_markdown():
    text = extract_text(page("article.html"))
    assert "\n## Why two tides a day\n" in text
    assert "\n### A worked example\n" in text
    assert (
        "- Spring tides come with the full and the new moon.\n"
        "- Neap tides come with the quarter moons.\n"
        "  - Their range is the smallest of the month.\n"
    ) in text
    assert "3. Read the height column first.\n4. Then read the time column." in text
    assert "```\nhigh water  06:12  4.8 m\nlow water   12:31  0.9 m\n```" in text
    assert "> The tide waits for no one, but it always keeps its appointments." in text
    assert (
        "| Port | High water |\n| --- | --- |\n| Falmouth | 06:12 |\n| Penzance | 06:27 |"
    ) in text
    # Paragraphs are separated by exactly one blank line, inline whitespace collapsed.
    assert "\n\n\n" not in text
    assert "wall and twice a day it falls back, and the timetable" in text


def test_figures_frame_tables_and_listings_but_pictures_are_left_out():
    html = (
        "<html><body><article><h1>Using the tool</h1><p>The tool reads the configuration "
        "file and reports what it would change, so every step can be reviewed first.</p>"
        '<figure class="wp-block-table"><table><tr><th>Flag</th><th>Meaning</th></tr>'
        "<tr><td>-n</td><td>dry run</td></tr></table><figcaption>Table 1</figcaption></figure>"
        "<figure><pre><code>tool --dry-run config.yml</code></pre></figure>"
        '<figure><img src="x.jpg"><figcaption>The tool in use at the harbour office.'
        "</figcaption></figure><p>Run it without the flag to apply the changes once you "
        "are happy with what it printed.</p></article></body></html>"
    )
    text = extract_text(html)
    assert "| Flag | Meaning |\n| --- | --- |\n| -n | dry run |" in text
    assert "```\ntool --dry-run config.yml\n```" in text
    assert "harbour office" not in text and "Table 1" not in text


def tables(rows: str, around: str = "{}") -> str:
    return extract_text(ARTICLE.format(around.format(f"<table>{rows}</table>")))


def test_a_table_has_its_separator_row_after_the_header():
    text = tables(
        "<thead><tr><th>Lander</th><th>Crew</th></tr></thead>"
        "<tbody><tr><td>Starship</td><td>4</td></tr><tr><td>Blue Moon</td><td>4</td></tr></tbody>"
    )
    assert "\n\n| Lander | Crew |\n| --- | --- |\n| Starship | 4 |\n| Blue Moon | 4 |\n\n" in text
    # Header cells without a <thead>
    text = tables("<tr><th>Lander</th><th>Crew</th></tr><tr><td>Starship</td><td>4</td></tr>")
    assert "| Lander | Crew |\n| --- | --- |\n| Starship | 4 |" in text


def test_a_table_without_a_header_row_takes_its_first_row_as_header():
    # Markdown has no table without a header; a row of empty cells is no row.
    text = tables(
        "<tr><td></td><td> </td></tr><tr><td>Starship</td><td>4</td></tr>"
        "<tr><td>Blue Moon</td><td>4</td></tr>"
    )
    assert "| Starship | 4 |\n| --- | --- |\n| Blue Moon | 4 |" in text


def test_cells_with_no_row_around_them_are_kept():
    """Hand-written tables leave out <tr>, and libxml2 adds none: the cells are a row, not
    lost (they printed nothing, even with full=True)."""
    text = tables("<td>Starship</td><td>4</td><td>Blue Moon</td><td>4</td>")
    assert "| Starship | 4 | Blue Moon | 4 |\n| --- | --- | --- | --- |" in text
    assert "| Starship | 4 |" in extract_text(
        "<html><body><table><td>Starship<td>4</table></body></html>", full=True
    )
    # Cells before the first <tr> make the first row.
    text = tables("<td>Lander</td><td>Crew</td><tr><td>Starship</td><td>4</td></tr>")
    assert "| Lander | Crew |\n| --- | --- |\n| Starship | 4 |" in text


def test_a_header_narrower_than_the_rows_is_padded():
    # Renderers cut the cells of a row that reach past the header.
    text = tables(
        '<tr><th>Lander</th><th colspan="2">Crew and mass</th></tr>'
        "<tr><td>Starship</td><td>4</td><td>120 t</td></tr><tr><td>Blue Moon</td></tr>"
    )
    assert (
        "| Lander | Crew and mass |  |\n| --- | --- | --- |\n| Starship | 4 | 120 t |\n"
        "| Blue Moon |"
    ) in text


def test_a_table_in_a_list_or_a_quote_keeps_its_separator_inside():
    rows = "<tr><th>Lander</th><th>Crew</th></tr><tr><td>Starship</td><td>4</td></tr>"
    text = tables(rows, "<ul><li>{}</li></ul>")
    assert "- | Lander | Crew |\n  | --- | --- |\n  | Starship | 4 |" in text
    text = tables(rows, "<blockquote>{}</blockquote>")
    assert "> | Lander | Crew |\n> | --- | --- |\n> | Starship | 4 |" in text


def test_a_layout_table_gets_no_separator():
    text = tables(
        "<tr><td>" + "A paragraph of prose laid out in a table cell. " * 8 + "</td>"
        "<td>Another cell</td></tr>"
    )
    assert "A paragraph of prose laid out" in text and "---" not in text


def test_a_data_table_with_one_long_cell_stays_a_table():
    # A comparison of many rows, one description longer than a cell of data usually is.
    rows = "".join(f"<tr><td>Service {n}</td><td>Runs jobs</td></tr>" for n in range(12))
    long = (
        "<tr><td>Service X</td><td>" + "Runs jobs on a schedule across regions. " * 9 + "</td></tr>"
    )
    text = tables("<tr><th>Name</th><th>What it does</th></tr>" + rows + long)
    assert "| Name | What it does |\n| --- | --- |\n| Service 0 | Runs jobs |" in text
    assert "| Service X | Runs jobs on a schedule" in text


def test_title_is_the_documents_title():
    assert extract(page("article.html")).title == "Tide tables and the moon | The Harbour Gazette"
    assert extract("<html><body><h1>Only  a\nheading</h1></body></html>").title == "Only a heading"
    assert extract("<p>no title at all</p>").title is None


@pytest.mark.parametrize(
    "code", [c for c in range(1, 0x20) if c not in (0x09, 0x0A, 0x0D)] + [0x7F]
)
def test_a_control_character_in_the_text_is_dropped_and_breaks_no_line(code: int):
    # libxml2 keeps C0 controls in its tree; the text's line-break marker must never be one.
    # The six that Python counts as white space (VT, FF, FS, GS, RS, US) may part words.
    ch = chr(code)
    page = f"<html><head><title>The{ch} title</title></head><body><p>one{ch}two three</p></body></html>"
    got = extract(page)
    assert got.text == "onetwo three" or (ch.isspace() and got.text == "one two three")
    assert got.title == "The title"
    assert "\n" not in got.text and not any(ord(c) < 0x20 or c == "\x7f" for c in got.title)


def test_a_nul_in_the_page_is_no_line_break_either():
    assert extract_text("<p>one\x00two three<br>four</p>") == "onetwo three\nfour"


def test_hidden_elements_are_dropped():
    text = extract_text(page("hidden.html"))
    assert "The visible paragraph is long enough" in text
    assert "Second visible paragraph, also long enough to read." in text
    for hidden in (
        "hidden attribute",
        "no reader",
        "Inline display",
        "visibility",
        "closed dialog",
        "Template",
        "secret",
    ):
        assert hidden not in text, hidden
    full = extract_text(page("hidden.html"), full=True)
    assert "secret" not in full and "Template" not in full and "no reader" not in full


def test_a_hidden_separator_leaves_the_words_beside_it_apart():
    # A byline's facts split by a separator hidden from screen readers: gone, but the
    # facts stay two words apart ("ago3" is no word).
    dot = "<span aria-hidden='true'><span>\u00b7</span></span>"
    html = (
        "<div><span>The Tech Blog</span>"
        f"{dot}<span>1d ago</span>{dot}<span><span>3 min read</span></span></div>"
    )
    assert extract_text(html) == "The Tech Blog 1d ago 3 min read"
    # An icon with no text of its own adds nothing.
    assert extract_text("<p>Ne<i aria-hidden='true'></i>xt page</p>") == "Next page"


@pytest.mark.parametrize(
    ("style", "hides"),
    [
        ("display:none", True),
        ("DISPLAY : NONE", True),
        ("color: red; Visibility:\tHidden", True),
        ("overflow:hidden; display:block", False),
        ("background:url(none.png)", False),
        ("", False),
        # Case-blind matching folds more than str.lower() does: these are searched as
        # they are, not lowered first.
        ("visibility:h\u0130dden", True),
        ("visibility:h\u0131dden", True),
        ("di\u017fplay:none", True),
        ("display:\u00a0block", False),
    ],
)
def test_a_style_hides_exactly_when_the_case_blind_pattern_finds_it(style: str, hides: bool):
    from wf.extract.hidden import _STYLE_HIDDEN, _hides

    assert _hides(style) is hides
    assert hides is (_STYLE_HIDDEN.search(style) is not None)


def _nested_paragraphs() -> Any:
    # libxml2 never nests a <p> in a <p>, but a tree built by hand (or a future parser)
    # can: the inner one must not be counted twice.
    from lxml import etree

    root = etree.fromstring("<html><body><p>" + "outer text " * 9 + "</p></body></html>")
    inner = etree.SubElement(root.find("body/p"), "p")
    inner.text = "inner text " * 9
    return root


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><p>" + "word " * 40 + "</p><div>" + "other " * 30 + "</div></body></html>",
        "<html><body>" + "<p>short one</p>" * 40 + "<div>" + "tail " * 50 + "</div></body></html>",
        "<html><body><div>" + "no paragraphs at all " * 20 + "</div></body></html>",
        "<html><body><p>  spaced   \n  out   </p><p>a</p><p></p></body></html>",
        None,
    ],
)
def test_the_hidden_share_is_judged_as_by_the_whole_pages_length(html: str | None):
    # hidden_elements measures paragraphs before the whole page: the verdict must be the one
    # the whole page's length gives, for every share around the 3/4 line.
    from lxml import etree

    from common.xpath import text_length
    from wf.extract.hidden import mostly

    root = _nested_paragraphs() if html is None else etree.fromstring(html, etree.HTMLParser())
    length = text_length()
    total = length(root)
    for part in sorted({1.0, total * 0.5, total * 0.75, total * 0.75 + 1, total - 1, total}):
        if part > 0:
            assert mostly(part, root, length) is (part > 0.75 * total), (part, total)


def test_a_page_that_hides_everything_until_a_script_runs_still_gives_its_text():
    html = (
        '<html><body><div style="display:none" id="app"><h1>Quarterly report</h1>'
        "<p>Revenue grew in every region during the quarter, led by the northern stores, "
        "while costs stayed flat thanks to the new supply contracts.</p></div></body></html>"
    )
    assert "Revenue grew in every region" in extract_text(html)


def test_an_unclosed_box_in_a_menu_button_does_not_swallow_the_article():
    # libxml2 ignores </button> while a <div> opened in the button is open: the page
    # after it nests in the button, which is dropped with everything in it.
    html = (
        "<html><body><header><div class='menu'><button aria-label='Menu'><div>"
        "<svg><use href='#icon-menu'></use></svg><div> </button></div>"
        "<a href='/'>Home</a></header><main><article><h1>Digital marketing</h1>"
        "<p>Digital marketing is the use of websites, apps, social media and search "
        "engines to promote and sell products and services to the people who use them.</p>"
        "<p>It grew with the web in the 1990s and now works alongside print, radio and "
        "television advertising, with data on who saw an advert and who bought.</p>"
        "</article></main><footer>About us</footer></body></html>"
    )
    text = extract_text(html)
    assert text.startswith("# Digital marketing\n\nDigital marketing is the use")
    assert "who saw an advert and who bought." in text


def test_full_mode_keeps_navigation_and_footer_but_no_scripts():
    text = extract_text(page("article.html"), full=True)
    for kept in (
        "Home",
        "About us",
        "Lighthouse keeper",
        "Great article",
        "© 2026",
        "Terms",
        "cookies",
        "# Tide tables and the moon",
        "| Falmouth | 06:12 |",
    ):
        assert kept in text, kept
    assert "analytics" not in text and "font-family" not in text


def test_thin_main_content_falls_back_to_the_whole_page():
    text = extract_text(page("listing.html"))
    for kept in ("Ash-handled border spade", "£34.00", "- Blade: carbon steel", "In stock"):
        assert kept in text, kept
    assert (
        extract_text(
            "<html><body><nav><a href='/a'>Alpha</a> <a href='/b'>Beta</a></nav></body></html>"
        )
        == "Alpha Beta"
    )


SHORT_POST = """<html><head><title>A short note</title></head><body>
<a class="skip-link" href="#content">Skip to main content</a>
<header class="site-header"><p class="site-title"><a href="/">Ann's garden notes</a></p>
<p class="site-description">Notes on gardening and code</p></header>
<main id="content"><article class="post">{heading}
<p>The last tomatoes came in today, green and hard; they are ripening on the sill.</p>
<p>Next year I will plant them two weeks earlier.</p></article></main>
<footer><a href="https://wordpress.org/">Proudly powered by WordPress</a></footer>
</body></html>"""


def test_a_short_post_whole_is_not_widened_to_its_site_chrome():
    # A thin choice is widened to the page when it may have missed the text; a short
    # post with its title (the page's <h1>) has missed nothing but the site's banner.
    text = extract_text(SHORT_POST.format(heading="<h1>Tomatoes in December</h1>"))
    assert text.startswith("# Tomatoes in December\n\nThe last tomatoes")
    assert "Skip to" not in text and "Ann's garden" not in text and "Notes on" not in text
    # Without its own title it may be a box of the page: the page is read wide, as before.
    text = extract_text(SHORT_POST.format(heading=""))
    assert "Notes on gardening and code" in text and "The last tomatoes" in text


BLOG_THEME_POST = """<html><head><title>Tomatoes in December | Ann's garden notes</title>
</head><body><div id="page"><a class="screen-reader-text" href="#content">Skip to content</a>
<div class="site-branding"><p class="site-title"><a href="/">Ann's garden notes</a></p>
<p class="site-description">Notes on gardening and code</p></div>
<div class="menu-main"><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li>
<li><a href="/archive">Archive</a></li><li><a href="/contact">Contact</a></li></ul></div>
<div id="content"><div id="primary"><div class="post-12 post">{heading}
<div class="entry-meta">March 3, 2024</div><div class="entry-content"><p>The last tomatoes
came in today, green and hard; they are ripening on the sill beside the chillies.</p></div>
</div></div><div class="widget-area"><h2>Recent posts</h2><ul><li><a href="/a">Beans</a></li>
</ul></div><div><h2>About me</h2><p>I write about my allotment.</p></div></div>
<div class="site-info">Proudly powered by WordPress</div></div></body></html>"""


def test_a_short_post_in_a_blog_themes_boxes_is_not_widened_to_its_site_chrome():
    # No <article>, no <main>: the post is known by its title, an <h2> that the page's
    # <title> repeats (older blog themes), or an <h1> in whatever box.
    for heading in ("<h2>Tomatoes in December</h2>", "<h1>Tomatoes in December</h1>"):
        text = extract_text(BLOG_THEME_POST.format(heading=heading))
        assert "The last tomatoes" in text and "beside the chillies" in text
        assert "Notes on" not in text and "powered by" not in text, heading
    # A heading the title does not repeat (a section of the page): read wide, as before.
    text = extract_text(BLOG_THEME_POST.format(heading="<h2>From the greenhouse</h2>"))
    assert "Notes on gardening and code" in text and "The last tomatoes" in text


def test_a_short_post_declared_an_article_is_not_grown_past_its_title():
    # A thin choice grows to the ancestors that add text without links (a product's
    # price and specifications around its description); a short post declared an article
    # stops at the box that holds its <h1>: around it are the blog's "About me" and tag line.
    page_html = BLOG_THEME_POST.format(heading="<h1>Tomatoes in December</h1>").replace(
        "<head>", '<head><meta property="og:type" content="article">'
    )
    text = extract_text(page_html)
    assert text.startswith("# Tomatoes in December\n\nThe last tomatoes")
    assert "my allotment" not in text and "Notes on" not in text


def test_an_article_wrapped_in_a_boilerplate_name_is_still_found():
    text = extract_text(page("wrapped_in_sidebar_name.html"))
    assert text.startswith("# Repairing a dry-stone wall\n\nStart by taking")
    assert "will stand for a century." in text
    assert "Archive" not in text and "walls" not in text and "contact link" not in text


def test_a_page_builder_that_names_every_paragraph_a_widget():
    text = extract_text(page("page_builder.html"))
    assert text.startswith("# Garden design and care\n\nWe design gardens")
    assert "so that the garden grows into the design instead of away from it." in text
    assert "Contact" not in text and "Green Hands" not in text and "01234" not in text


def test_comments_longer_than_the_article_stay_out():
    text = extract_text(page("comments_outweigh.html"))
    assert "the harbour master held all departures until it was towed clear." in text
    assert "nobody told us anything" not in text and "cancellations" not in text


def test_teasers_for_other_pages_and_calls_to_action_stay_out():
    text = extract_text(page("related_teasers.html"))
    assert text.startswith("# New footbridge opens over the river")
    assert text.endswith("between seven and ten in the morning and four and seven in the evening.")
    for teaser in (
        "Station car park",
        "See also",
        "Riverside path",
        "town hall",
        "old mill",
        "newsletter",
    ):
        assert teaser not in text, teaser


def test_a_listing_page_keeps_its_titles_and_excerpts():
    text = extract_text(page("blog_index.html"))
    assert "## Winter paddling: staying warm on cold water" in text
    assert "## Learning your first roll" in text
    assert "Rolling is less about strength than timing." in text
    assert "Older posts" not in text and "About us" not in text and "12 January" not in text


def test_a_collapsible_section_s_heading_linked_to_its_own_anchor_stays():
    # A tutorial whose sections are <details> titled by their <summary>'s heading, the
    # heading's words a link to its own anchor: a link list by its words, a heading all
    # the same.
    sections = "".join(
        f"<details class='collapsible' open><summary><h2 id='s{n}'><a href='#s{n}'>"
        f"<strong>{title}</strong></a></h2></summary><p>{title} first. The harbour master "
        "keeps the tide tables for every berth along the eastern quay, and the pilots read "
        "them each morning before the first ships come in.</p></details>"
        for n, title in enumerate(("Introduction", "Key Takeaways", "Conclusion"))
    )
    html = (
        "<html><head><title>Reading tide tables</title></head><body><nav><a href='/'>Home"
        "</a> <a href='/tutorials'>Tutorials</a></nav><article><h1>Reading tide tables</h1>"
        f"{sections}<details><summary><a href='/more'>More tutorials</a></summary><ul><li><a "
        "href='/t/1'>Knots</a></li><li><a href='/t/2'>Charts</a></li></ul></details>"
        "</article></body></html>"
    )
    lines = extract_text(html).split("\n")
    for title in ("Introduction", "Key Takeaways", "Conclusion"):
        assert f"## {title}" in lines
    assert "More tutorials" not in lines


def test_an_article_s_reading_time_on_a_line_of_its_own_goes():
    body = "".join(
        f"<p>Paragraph {n}. The harbour master keeps the tide tables for every berth along "
        "the eastern quay, and the pilots read them each morning before the ships come.</p>"
        for n in range(4)
    )
    for line in ("11 min read", "3 MIN. READ", "Reading Time: 11 minutes"):
        html = (
            "<html><head><title>Tide tables</title></head><body><article><h1>Tide tables</h1>"
            f"<p>{line}</p>{body}"
            "<p>It takes 5 min to read the table.</p></article></body></html>"
        )
        lines = extract_text(html).split("\n")
        assert not any(line.lower() in x.lower() for x in lines), line
        assert "Paragraph 3." in extract_text(html)
        assert "It takes 5 min to read the table." in lines


def test_a_heading_that_only_names_reading_time_is_a_section_s_title():
    body = "".join(
        f"<p>Paragraph {n}. Children who read for twenty minutes a day before bed meet far "
        "more words in a year than those who read for five, the librarians found.</p>"
        for n in range(3)
    )
    for heading in ("<h2>Reading time</h2>", "<h3>Read time</h3>"):
        html = (
            "<html><head><title>Bedtime books</title></head><body><article><h1>Bedtime "
            f"books</h1>{body}{heading}{body}</article></body></html>"
        )
        lines = extract_text(html).split("\n")
        assert heading.startswith("<h2>") == ("## Reading time" in lines), heading
        assert heading.startswith("<h3>") == ("### Read time" in lines), heading
    # The site's line with its minutes goes, a heading or not.
    html = html.replace("<h3>Read time</h3>", "<h3>Reading Time: 11 minutes</h3>")
    assert "Reading Time" not in extract_text(html)


def test_minutes_of_reading_in_an_article_s_list_are_its_words():
    body = (
        "<p>Children who keep a routine sleep better and learn more, the study of four "
        "hundred families found over two years of visits and diaries.</p>"
    )
    items = ("20 minutes exercise", "30 minutes reading", "10 minutes tidying")
    html = (
        "<html><head><title>Routine</title></head><body><article><h1>Routine</h1>"
        f"{body}<ul>{''.join(f'<li>{x}</li>' for x in items)}</ul>{body}"
        "<p>5 minutes reading time</p></article></body></html>"
    )
    lines = extract_text(html).split("\n")
    assert [f"- {x}" in lines for x in items] == [True, True, True]
    assert not any("reading time" in x for x in lines)


def test_a_closing_copyright_line_is_dropped():
    # "© 2010-2018 ..." at the very end, as "Copyright ..." is: the site, not the text.
    body = (
        "<p>The footbridge between the station and the old town opened on Saturday, two "
        "years after the council approved it.</p><p>Riders must push their bicycles across "
        "during the busy hours of the morning and the evening.</p>"
    )
    html = (
        f"<html><body><article>{body}<div><p>Town guide \u00a9 2010-2018 the Town Council."
        " 24-Nov-2021</p></div></article></body></html>"
    )
    text = extract_text(html)
    assert "\u00a9" not in text and text.endswith("the morning and the evening.")
    # A © inside the text, not before a year, stays.
    kept = html.replace("\u00a9 2010-2018", "\u00a9 the council, 2018")
    assert "\u00a9 the council" in extract_text(kept)


def test_a_paragraph_that_is_only_an_address_is_dropped():
    html = (
        "<html><body><article><p>https://news.example.org/2026/03/footbridge-opens-1234</p>"
        "<p>The footbridge between the station and the old town opened on Saturday, two "
        "years after the council approved it.</p><p>Riders must push their bicycles across "
        "during the busy hours of the morning and the evening.</p></article></body></html>"
    )
    text = extract_text(html)
    assert "https://" not in text and text.startswith("The footbridge between")
    assert "https://news.example.org" in extract_text(html, full=True)


@pytest.mark.parametrize(
    ("names", "boilerplate"),
    [
        ("share-buttons", True),
        ("relatedPosts", True),  # camelCase words
        ("site_footer", True),
        ("comments-area post-comments", True),
        ("comentarios", True),
        ("top-ad", True),
        ("header", False),  # "ad" only as a whole word
        ("commentary-body", False),
        ("article-body pagination-first", False),  # a content word alone outweighs
        ("article-footer", True),  # but not inside the same word
        ("layout has-sidebar", False),  # what a block holds, not what it is
        ("card no-image", False),
        ("social-media-embed", False),  # quoted posts are content
        ("entry-content", False),
    ],
)
def test_boilerplate_names(names: str, boilerplate: bool):
    from wf.extract.names import negative_words

    assert negative_words(names) is boilerplate


# -- links -------------------------------------------------------------------------------


def test_link_markers_number_links_in_order_with_absolute_urls():
    html = (
        "<html><body><article><p>The harbour office has the "
        '<a href="/tables/2026">almanac</a>, the <a href="https://tides.example.org/f">tide '
        'service</a> has live data, and the <a href="tables/2026/../2026">same almanac</a> '
        'is linked twice. <a href="javascript:void(0)">Script links</a>, '
        '<a href="#top">anchors</a> and <a href="ftp://files.example/x">other schemes</a> '
        'are no links to follow; <a href="mailto:office@example.org">mail</a> is.</p>'
        "</article></body></html>"
    )
    result = extract(html, url="https://gazette.example/", link_markers=True)
    assert "the almanac[1], the tide service[2] has live data" in result.text
    assert "the same almanac[1] is linked twice" in result.text
    assert "Script links, anchors and other schemes are" in result.text
    assert "mail[3] is." in result.text
    assert result.links == [
        Link("almanac", "https://gazette.example/tables/2026"),
        Link("tide service", "https://tides.example.org/f"),
        Link("mail", "mailto:office@example.org"),
    ]
    plain = extract(html, url="https://gazette.example/")
    assert "[1]" not in plain.text and plain.links == result.links


ARTICLE = (
    "<html><body><article><h1>Moon landers</h1><p>Five companies will build landers for "
    "the agency, which wants crews on the moon before the end of the decade and a base "
    "there soon after.</p>{}<p>The first uncrewed test flight is planned for next year, "
    "from the coast, weather permitting.</p></article></body></html>"
)


def test_adjacent_anchors_to_one_target_are_one_link():
    html = ARTICLE.format(
        '<p>It joins the <a href="/artemis">Arte</a><a href="/artemis">mis m</a>'
        '<a href="/artemis">oon program</a>, led by <a href="/p/e">President '
        '</a> <a href="/p/e">Emmanuel Macron</a>; the <a href="/artemis">program</a> '
        'is <a href="/artemis">funded</a> until 2030.</p>'
    )
    result = extract(html, url="https://news.example/", link_markers=True)
    assert "the Artemis moon program[1], led by President Emmanuel Macron[2];" in result.text
    # Words between two anchors to one target keep them apart: two places, two markers.
    assert "the program[1] is funded[1] until 2030." in result.text
    assert result.links == [
        Link("Artemis moon program", "https://news.example/artemis"),
        Link("President Emmanuel Macron", "https://news.example/p/e"),
    ]
    plain = extract(html, url="https://news.example/")
    assert "the Artemis moon program, led by" in plain.text and plain.links == result.links


def test_anchors_apart_stay_apart():
    html = ARTICLE.format(
        '<p>See the <a href="/a">almanac</a> first. Later the <a href="/b">tide</a>'
        '<a href="/a">tables</a>, and the <a href="/a">same</a><br><a href="/a">almanac</a>'
        ' again, then <a href="/a">the</a><a href="/a"> almanac</a>.</p>'
        '<table><tr><td><a href="/a">first</a></td><td><a href="/a">second</a></td></tr>'
        "<tr><td>one</td><td>two</td></tr></table>"
    )
    result = extract(html, url="https://news.example/", link_markers=True)
    assert "Later the tide[2]tables[1], and the same[1]\nalmanac[1] again" in result.text
    # A run of anchors to a target seen before keeps the link's first text.
    assert "then the almanac[1]." in result.text
    assert [link.text for link in result.links] == ["almanac", "tide"]
    # Cells are apart however close their anchors are (the main text leaves out a table
    # of links: the whole page keeps it).
    result = extract(html, url="https://news.example/", full=True, link_markers=True)
    assert "| first[1] | second[1] |" in result.text


def test_base_href_and_relative_links():
    html = (
        '<html><head><base href="/docs/v2/"></head><body><p>See the <a href="intro.html">'
        "introduction</a> before anything else, it explains the terms used everywhere.</p>"
        "</body></html>"
    )
    result = extract(html, url="https://example.org/start", link_markers=True)
    assert result.links == [Link("introduction", "https://example.org/docs/v2/intro.html")]
    assert "introduction[1] before" in result.text
    # Without a page address a relative link cannot be made absolute: it is left out.
    assert extract(html.replace('<base href="/docs/v2/">', "")).links == []


def test_extract_text_is_extract_dot_text():
    html = page("article.html")
    assert extract_text(html) == extract(html).text
    assert extract_text(html, full=True) == extract(html, full=True).text


# -- the page's bytes beside its text (utf8=) ---------------------------------------------


def test_utf8_source_is_the_body_only_when_it_is_the_texts_utf8():
    from wf.extract.core import FAST_MAX
    from wf.extract.parse import utf8_source

    text = "<p>Caf\u00e9 \u201ccr\u00e8me\u201d \U0001f600</p>"
    body = text.encode("utf-8")
    assert utf8_source(body, text, "utf-8") is body  # the body itself: no copy
    assert utf8_source(b"\xef\xbb\xbf" + body, text, "utf-8") == body  # after its BOM
    assert utf8_source(memoryview(body), text, "utf-8") is None  # bytes only
    # Decoded from another charset, or with a byte replaced: the bytes are no copy.
    latin = "<p>Caf\u00e9</p>"
    assert utf8_source(latin.encode("cp1252"), latin, "windows-1252") is None
    bad = b"<p>Caf\xe9 au lait</p>"
    assert utf8_source(bad, bad.decode("utf-8", "replace"), "utf-8") is None
    # A page too big for the fast parse is parsed carefully, from the text.
    big = "<p>" + "a" * FAST_MAX + "</p>"
    assert utf8_source(big.encode(), big, "utf-8") is None


def test_the_parser_takes_the_bytes_given_beside_the_text():
    text = "<html><body><p>" + "The text as decoded, read from the str. " * 5 + "</p></body></html>"
    other = text.replace("decoded", "given").encode()
    # The caller vouches that the bytes are the text's UTF-8: they are what is parsed.
    assert "as given" in extract(text, utf8=other).text
    assert "as given" in extract_text(text, utf8=other)
    assert "as decoded" in extract(text).text


def test_the_bytes_are_not_used_once_the_page_was_cut():
    html = "<html><body><p>first</p>" + "<p>a</p>" * 100_000 + "<p>never read</p></body></html>"
    result = extract(html, full=True, utf8=html.encode())
    assert "never read" not in result.text
    assert result.notes == ["the page has 100004 start tags; text extracted from the first 50000"]


def test_a_control_character_beside_the_bytes_still_takes_the_careful_path():
    html = "<html><body><p>Bell\x07 and escape\x1b in a sentence of some length.</p></body></html>"
    assert extract_text(html, utf8=html.encode()) == extract_text(html)
    assert "Bell and escape in a sentence" in extract_text(html, utf8=html.encode())


# -- pages that break naive code ---------------------------------------------------------


def test_control_characters_do_not_stop_the_parser():
    html = (
        "<html><body><p>Tab\there, bell\x07 and nul\x00 and escape\x1b characters in a sentence.</p>"
        "<p>The paragraph after them is still read.</p></body></html>"
    )
    text = extract_text(html)
    assert "bell and nul and escape characters" in text
    assert "The paragraph after them is still read." in text
    assert extract_text(html.encode()) == text


def test_a_form_around_the_whole_page_is_not_boilerplate():
    text = extract_text(page("aspnet_form.html"))
    assert text.startswith("# Road closure on Mill Lane")
    assert "temporary stops will be placed outside the library" in text
    assert "VIEWSTATE" not in text and "Accessibility" not in text


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("header_content.html", "Every night the agent copies what changed to two regions"),
        ("aside_content.html", "The curlews came back in the second week of February"),
        ("noscript_content.html", "The reading room opens at nine every weekday"),
    ],
)
def test_content_in_header_aside_or_noscript_is_found(name: str, expected: str):
    text = extract_text(page(name))
    assert expected in text
    assert len(text) > 250


def test_broken_markup_still_reads():
    text = extract_text(page("broken.html"))
    assert "runs into the next one with misnested formatting that a browser still shows" in text
    assert "bare ampersand, a stray end tag and an unknown &bogus; entity" in text
    assert "| cell without end tags | second cell |" in text
    assert "Last words after the custom element close the piece." in text


def test_xhtml_is_read_as_html():
    result = extract(page("page.xhtml").decode())
    assert result.title == "An XHTML page"
    assert result.text.startswith("# Strict documents\n\nSelf-closing tags such as\nline breaks")
    assert "xml" not in result.text.split("XML declaration")[0]


def test_bytes_with_a_meta_charset_are_decoded():
    result = extract(page("latin1.html"))
    assert result.title == "Cafés"
    assert "Le café crème coûte deux euros, et la crème brûlée" in result.text


def test_a_huge_single_line():
    words = "tide " * 400_000  # 2 MB of text on one line
    text = extract_text(f"<html><body><p>start {words}end</p><p>next</p></body></html>")
    assert text.startswith("start tide tide")
    assert "tide end" in text and len(text) > 2_000_000


@pytest.mark.parametrize(
    "word",
    ["tide ", "café ", "слово ", "潮汐 ", "tide\U0001f30a ", "tide\u200b "],
    ids=["ascii", "latin", "cyrillic", "cjk", "astral", "invisible"],
)
def test_a_huge_text_node_keeps_its_line_breaks_in_any_script(word):
    # Over a megabyte of text in one node goes a chunk at a time through the text policy,
    # which removes every control character, the <br> marker among them.
    words = word * (1_100_000 // len(word))
    html = f"<html><body><p>{words}end<br>start {word * 3}end<br><br>last</p></body></html>"
    lines = extract_text(html).split("\n")
    assert len(lines) == 4 and lines[2] == "", [line[-20:] for line in lines]
    assert lines[0].endswith(" end") and len(lines[0]) > 900_000
    assert lines[1].startswith("start ") and lines[1].endswith(" end") and lines[3] == "last"


def test_wf_prints_the_line_breaks_of_a_huge_text_node(wf):
    html = f"<p>{'слово ' * 200_000}end<br>start</p>"
    r = wf("--input", "-", "--max-length", "0", input=html.encode())
    assert r.code == 0, r.stderr
    assert r.stdout.endswith(" end\nstart\n")


def test_forty_five_thousand_nested_divs():
    # Far past libxml2's depth limit (2048), and within the tag caps (150 000 "<", 50 000
    # start tags).
    html = (
        "<html><body><p>Before the nesting.</p>"
        + "<div>" * 45_000
        + "deep inside"
        + "</div>" * 45_000
        + "<p>After the nesting.</p></body></html>"
    )
    for full in (False, True):
        text = extract_text(html, full=full)
        assert "deep inside" in text
        assert "Before the nesting." in text and "After the nesting." in text


@pytest.mark.parametrize(
    "opening, closing",
    [("<ul><li>level ", "</li></ul>"), ("<blockquote><p>level</p>", "</blockquote>")],
)
def test_deeply_nested_lists_and_quotes_cost_output_linear_in_their_text(opening, closing):
    # Indenting each level by its depth made 2 000 levels print millions of spaces.
    depth = 2_000
    html = f"<html><body><article>{opening * depth}{closing * depth}<p>{'Words of prose. ' * 40}</p></article></body></html>"
    text = extract_text(html)
    assert text.count("level") > 1_000
    longest = max(len(line) for line in text.split("\n") if "level" in line)
    assert longest < 60, longest
    # The shallow levels keep their own indentation: the cap only bounds the deep ones.
    lines = [line for line in text.split("\n") if "level" in line]
    assert len({len(line) - len(line.lstrip("> ")) for line in lines[:5]}) == 5


def test_a_huge_text_node_costs_a_few_times_its_size_in_memory():
    import subprocess
    import sys

    # In a child process, so that its peak resident size is this extraction's alone.
    code = (
        "import resource\n"
        "from wf.extract import extract_text\n"
        "html = '<html><body><p>' + 'word ' * 2_000_000 + '</p></body></html>'\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "text = extract_text(html)\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(len(text), after - before)\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert int(out[0]) == 9_999_999
    # 10 MB of text: the tree, the text and the output are each about that size; a list
    # of its two million words alone would add over 100 MB.
    assert int(out[1]) < 80 * 1024, f"{int(out[1]) // 1024} MB over the peak before"


def test_past_the_deadline_the_text_comes_back_without_structure():
    import time

    html = (
        "<html><body>" + "<div><p>alpha <b>beta</b></p><p>gamma</p></div>" * 3000 + "</body></html>"
    )
    result = extract(html, deadline=time.monotonic() - 1)
    assert result.text.startswith("alpha\nbeta\ngamma\nalpha\n")
    assert result.text.count("gamma") == 3000 and result.links == []
    assert extract(html, deadline=time.monotonic() + 60).text.startswith("alpha beta\n\ngamma")


@pytest.mark.parametrize(
    "html",
    ["", "   ", "<!DOCTYPE html>", "<html></html>", "<", "&", "\x00\x01", "<p>", "plain words"],
)
def test_degenerate_documents_give_a_string(html: str):
    for value in (html, html.encode()):
        result = extract(value)
        assert isinstance(result, Extracted) and isinstance(result.text, str)
    assert extract_text("plain words") == "plain words"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300),
        st.lists(
            st.sampled_from(
                [
                    "<div>",
                    "</div>",
                    "<p>",
                    "</p>",
                    "<a href='/x'>",
                    "</a>",
                    "<table>",
                    "<td>",
                    "<pre>",
                    "<li>",
                    "<ul>",
                    "<br>",
                    "<h2>",
                    "<script>",
                    "<!--",
                    "-->",
                    "<svg>",
                    "words and more words. ",
                    "&amp;",
                    "&#0;",
                    "\x00",
                    "\ufffd",
                    "é",
                    "<form>",
                    "<noscript>",
                    "<nav>",
                    "<header>",
                    "<blockquote>",
                    "<br/>",
                    "<?xml ?>",
                ]
            ),
            max_size=60,
        ).map("".join),
    ),
    st.booleans(),
    st.booleans(),
)
def test_any_input_gives_text_and_never_raises(html, full, markers):
    result = extract(html, url="https://example.org/a/", full=full, link_markers=markers)
    assert isinstance(result.text, str)
    assert all(isinstance(link, Link) for link in result.links)
    if markers:
        numbers = {int(n) for n in re.findall(r"\[(\d+)\]", result.text)}
        assert numbers <= set(range(1, len(result.links) + 1))


def test_threads_extract_side_by_side():
    from concurrent.futures import ThreadPoolExecutor

    names = sorted(p.name for p in FIXTURES.iterdir())
    alone = {name: extract(page(name)) for name in names}
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda name: (name, extract(page(name))), names * 4))
    for name, result in together:
        assert result == alone[name], name


def test_long_class_values_are_not_all_held_after_their_pages():
    """The verdicts kept by class value from page to page (names.py, codetext.py) hold
    about a million characters of them at most: a page's class value of 100 000
    characters, one per page, no longer piles up until 20 000 of them."""
    from wf.extract import codetext, names

    for i in range(24):
        long = f"nav-{i} " + "x" * 100_000
        extract(
            f'<html><body><div class="{long}" id="menu{i}"><a href="/a">A</a></div>'
            f"<article><h1>Tides</h1><p>{'The tide came in. ' * 40}</p>"
            f'<pre class="{long}">print(1)</pre></article></body></html>'
        )
    for cache in (
        names._token_cache,
        names._hits_cache,
        names._class_kinds,
        codetext._class_cache,
    ):
        assert sum(map(len, cache)) <= (1 << 20) + 100_020
    # negative_block's verdicts by (class, id) pair count the characters of both values
    pairs = names._pair_cache
    assert pairs and sum(len(c or "") + len(i or "") for c, i in pairs) <= (1 << 20) + 100_020


def test_verdicts_are_emptied_when_full(monkeypatch):
    from wf.extract import verdicts

    monkeypatch.setattr(verdicts, "VERDICT_CHARS", 10)
    kept: dict[str, int] = {}
    assert [verdicts.keep(kept, k, v, 3) for k, v in (("a", 1), ("b", 2), ("c", 3))] == [1, 2, 3]
    verdicts.keep(kept, "d", 4, 3)  # a fourth entry: the three before it go
    assert kept == {"d": 4}
    verdicts.keep(kept, "e" * 9, 5, 3)  # ten characters of keys: still held
    assert kept == {"d": 4, "e" * 9: 5}
    verdicts.keep(kept, "f", 6, 3)  # eleven
    assert kept == {"f": 6}


def test_a_key_larger_than_the_bound_is_not_kept(monkeypatch):
    """A class value of more characters than a cache holds in all is answered, not kept:
    kept, it stayed held after its page (a page's 9 MB class: 18 MB in two caches)."""
    from wf.extract import codetext, names, verdicts

    monkeypatch.setattr(verdicts, "VERDICT_CHARS", 10)
    kept: dict[str, int] = {"a": 1}
    assert verdicts.keep(kept, "b" * 11, 2, 3) == 2
    assert kept == {"a": 1}  # neither kept nor emptied for it
    pairs: dict[tuple[str | None, str | None], int] = {}
    assert verdicts.keep(pairs, ("c" * 6, "d" * 5), 3, 3) == 3
    assert pairs == {}
    monkeypatch.undo()
    big = " ".join(f"k{i:07d}" for i in range(120_000))  # 1 080 000 characters
    extract(
        f'<html><body><div class="{big}" id="menu"><a href="/a">A</a></div>'
        f"<article><h1>Tides</h1><p>{'The tide came in. ' * 40}</p>"
        f'<pre class="{big}">print(1)</pre></article></body></html>'
    )
    for cache in (names._hits_cache, names._class_kinds, codetext._class_cache):
        assert big not in cache
    assert not [pair for pair in names._pair_cache if big in pair]


def test_a_class_value_is_judged_as_far_as_its_first_names_read_characters(monkeypatch):
    """A class value of a million new words cost seconds of regexes in one block, past any
    deadline (names._fold): its tokens are read as far as NAMES_READ characters."""
    from lxml import etree

    from wf.extract import names
    from wf.extract.name_tokens import tokens
    from wf.extract.names_tuning import NAMES_READ

    filler = " ".join(f"w{i:07d}" for i in range(20_000))  # 180 000 characters, new words
    assert tokens(filler) == filler[:NAMES_READ].split()[:-1]
    assert tokens("nav main") == ["nav", "main"]
    asked: list[str] = []
    real = names._token_kind
    monkeypatch.setattr(names, "_token_kind", lambda token: asked.append(token) or real(token))
    late = etree.fromstring(f'<div class="{filler} sidebar"><p>Text.</p></div>')
    assert not names.negative_block(late, "div")  # "sidebar" is past the bound
    assert 0 < len(asked) <= NAMES_READ // 9 + 1
    early = etree.fromstring(f'<div class="sidebar {filler}"><p>Text.</p></div>')
    assert names.negative_block(early, "div")


def test_a_long_class_value_keeps_its_first_tokens_whatever_white_space_parts_them():
    """The bound cuts a value of tokens parted by tabs, newlines or no-break spaces as one
    parted by spaces: its first tokens stay (none of them did without a space before the
    bound), and so does a whole token the bound ends exactly."""
    from lxml import etree

    from wf.extract import names
    from wf.extract.name_tokens import tokens
    from wf.extract.names_tuning import NAMES_READ

    words = [f"t{i:07d}" for i in range(NAMES_READ // 8)]  # 9 characters each with a part
    for part in (" ", "\t", "\n", "\r\n", "\xa0", " \n\t "):
        value = part.join(words)
        head = value[:NAMES_READ]
        whole = head.split() if value[NAMES_READ].isspace() else head.split()[:-1]
        assert tokens(value) == whole
        assert tokens(value)[:3] == words[:3]
        page = etree.fromstring(f'<div class="sidebar{part}{value}"><p>Text.</p></div>')
        assert names.negative_block(page, "div"), repr(part)
    ended = "a" * (NAMES_READ - 4) + " nav" + " main"  # the bound falls after "nav"
    assert tokens(ended)[-1] == "nav"


# -- real pages --------------------------------------------------------------------------


@pytest.mark.skipif(not BENCH.is_dir(), reason="../shared/extract-bench/ is absent")
def test_real_pages_keep_most_of_their_article():
    truth = json.loads((BENCH / "ground-truth.json").read_text(encoding="utf-8"))
    for key in sorted(truth)[::30]:
        html = gzip.decompress((BENCH / "html" / f"{key}.html.gz").read_bytes())
        kept = recall(extract_text(html), truth[key]["articleBody"])
        assert kept > 0.8, (key, kept)


# -- the tag cap ---------------------------------------------------------------------------


def test_extraction_says_when_the_page_was_cut():
    html = "<html><body><p>first</p>" + "<p>a</p>" * 100_000 + "<p>never read</p></body></html>"
    result = extract(html, full=True)
    assert result.text.startswith("first")
    assert "never read" not in result.text
    assert result.notes == ["the page has 100004 start tags; text extracted from the first 50000"]
    assert extract("<p>small</p>").notes == []


@pytest.mark.parametrize("space", [chr(c) for c in range(0x3001) if chr(c).isspace()])
def test_only_html_spaces_collapse_in_non_ascii_text(space: str) -> None:
    # collapse() takes str.split()'s shortcut on non-ASCII text only when HTML's spaces are
    # the only white space in it: a no-break or ideographic space stays inside the line.
    from wf.extract.spaces import collapse

    raw = f"  caf\u00e9 {space}au{space}lait \t\n "
    expected = re.sub(r"[ \t\n\r\f]+", " ", raw).strip()
    assert collapse(raw) == expected


_CHILD = st.sampled_from(["span", "b", "p"])
_WORD = st.sampled_from(["", "a", " b ", "\u00b7"])


@given(
    children=st.lists(st.tuples(_CHILD, _WORD, _WORD, st.booleans()), max_size=12),
    text=_WORD,
)
def test_dropping_hidden_elements_at_once_is_dropping_them_one_by_one(children, text):
    # hidden.drop_all sets each parent's text once (a paragraph of a hundred thousand
    # hidden separators was rebuilt once per separator); the tree it leaves is parse.drop's.
    import lxml.html

    from wf.extract.hidden import drop_all
    from wf.extract.parse import drop

    def tree() -> tuple[Any, list[Any]]:
        body = lxml.html.fromstring("<div></div>")
        body.text = text or None
        gone = []
        for tag, inner, tail, hide in children:
            child = lxml.html.Element(tag)
            child.text, child.tail = inner or None, tail or None
            body.append(child)
            if hide:
                gone.append(child)
        return body, gone

    one, gone = tree()
    for el in gone:
        if el.text and not el.text.isspace():
            el.tail = " " + (el.tail or "")
        drop(el)
    at_once, gone = tree()
    drop_all(gone)
    assert lxml.html.tostring(at_once) == lxml.html.tostring(one)


def test_a_long_row_of_spans_is_not_counted_once_per_span() -> None:
    # spaces.apart asked len() of the row's box for each span: lxml counts every child,
    # so 20000 spans in a row cost 4.6 s. It reads at most nine children now.
    from lxml import html as lxml_html

    from wf.extract.spaces import apart

    class Row(lxml_html.HtmlElement):
        armed = False  # lxml's own fromstring asks len() of the <body>

        def __len__(self) -> int:
            if Row.armed and self.tag == "div":
                raise AssertionError("the whole row counted")
            return super().__len__()

    lookup = lxml_html.etree.ElementDefaultClassLookup(element=Row)
    parser = lxml_html.HTMLParser()
    parser.set_element_class_lookup(lookup)
    root = lxml_html.fromstring("<div>" + "<span>ab</span>" * 50 + "</div>", parser=parser)
    small = lxml_html.fromstring("<div><span>ab</span><span>cd</span></div>", parser=parser)
    spans, pair = list(root.iter("span")), list(small.iter("span"))
    Row.armed = True
    assert apart(spans[10], "ab", "ab") is False
    assert apart(pair[1], "cd", "ab") is True


def test_a_union_search_finds_what_libxml2_finds_in_the_same_order() -> None:
    # common.xpath.union merges a union's branches itself (libxml2's merge is quadratic):
    # elements before their attributes, attributes in their order, a node two branches
    # find once, and an element libxml2 puts beside the page's root.
    from lxml import etree

    from common.xpath import branches, union

    page = (
        "<html><body><a class='focusable hidden' href='#x' style='a' hidden>x</a>"
        "<dialog style='x'><noscript>n</noscript></dialog><p title='a|b'>t</p></body></html>"
        "<html><div style='b'>late</div></html>"
    )
    root = etree.HTML(page)
    search = (
        "//*/@style|//*/@hidden|//dialog|//a/@href[starts-with(., '#')]"
        "|//a/@class[contains(., 'focusable')]|//*/@class[contains(., 'hidden')]"
        "|//noscript|//@title[contains(., '|')]"
    )
    assert len(branches(search)) == 8

    def found(hits: list[Any]) -> list[tuple[Any, str]]:
        return [(h, "") if hasattr(h, "tag") else (h.getparent(), h.attrname) for h in hits]

    expected = found(root.xpath(search))
    assert len(expected) == 9 and expected[-1][0].text == "late"
    got = found(union(root, search))
    assert [el for el, _ in got] == [el for el, _ in expected]
    assert [name for _, name in got] == [name for _, name in expected]


def test_searches_run_apart_merge_as_libxml2s_union(monkeypatch: pytest.MonkeyPatch) -> None:
    # common.xpath.merged, the cleaning's merge of the class words' hits with the
    # "focusable" links' (each searched once): libxml2's union of the two, in page order,
    # a node both found once; the page is read to order them only when the second found
    # a node the first did not.
    from lxml import etree

    from common import xpath

    words = "//*/@class[contains(., 'hidden') or contains(., 'sr-only')]"
    focus = "//a/@class[contains(., 'focusable')]"

    def found(hits: list[Any]) -> list[tuple[Any, str]]:
        return [(h.getparent(), h.attrname) for h in hits]

    root = etree.HTML(
        "<html><body><a class='sr-only-focusable' href='#m'>s</a><div class='hidden'>h</div>"
        "<a class='focusable'>f</a><p class='hidden'>p</p></body></html>"
    )
    both = xpath.merged(root, [root.xpath(words), root.xpath(focus)])
    assert found(both) == found(root.xpath(f"{words}|{focus}")) and len(both) == 4

    def whole_page(node: object) -> None:
        raise AssertionError("every node of the page was read to order the hits")

    monkeypatch.setattr(xpath, "_document", whole_page)
    root = etree.HTML(
        "<html><body><div class='hidden'>h</div><a class='sr-only-focusable' href='#m'>s</a>"
        "<a class='visually-hidden-focusable'>f</a></body></html>"
    )
    first = root.xpath(words)
    both = xpath.merged(root, [first, root.xpath(focus)])
    assert found(both) == found(first) and len(both) == 3


def test_a_tag_search_finds_what_libxml2_finds_in_the_same_order() -> None:
    # common.xpath.tagged, lxml's walk in place of "//dialog" and "//noscript" (the
    # cleaning's searches): the same elements in page order, those beside the page's
    # root included, and none at once for a name the page does not use.
    from lxml import etree

    from common.xpath import tagged

    page = (
        "<html><body><dialog id='a'><p>x</p><dialog id='b'></dialog></dialog>"
        "<noscript>n</noscript><div><dialog id='c' open></dialog></div></body></html>"
        "<html><dialog id='d'></dialog></html>"
    )
    root = etree.HTML(page)
    inner = root.find(".//p")
    for tag in ("dialog", "noscript", "marquee"):
        expected = root.xpath(f"//{tag}")
        assert tagged(inner, tag) == expected
    assert [el.get("id") for el in tagged(root, "dialog")] == ["a", "b", "c", "d"]


def test_an_elements_opening_is_read_no_further_than_asked() -> None:
    # common.xpath.text_start: the widening's timed entries, a product's identifiers and
    # the tab panels' comparison read an element's opening; a megabyte in one text node
    # is cut, not copied, and an element shorter than asked is read whole.
    from lxml import html as lxml_html

    from common.xpath import text_start

    root = lxml_html.fromstring("<div> 12' <b>Goal</b> for the quay" + "x" * 1_000_000 + "</div>")
    assert text_start(root, 14) == " 12' Goal for "
    assert len(text_start(root, 2000)) == 2000
    assert text_start(lxml_html.fromstring("<p>a <i>b</i></p>"), 50) == "a b"


def test_an_elements_text_is_read_up_to_the_piece_past_a_limit() -> None:
    # common.xpath.text_upto, the one bounded read of an element's text (a post's first
    # words, a consent notice's sample, a dateline, a section's title): its pieces up to
    # the one that goes past the limit, that one whole, and no piece after it is read.
    from lxml import html as lxml_html

    from common.xpath import text_upto

    root = lxml_html.fromstring("<div>ab<b>cd</b>ef<i>gh</i></div>")
    assert text_upto(root, 3) == (["ab", "cd"], True)
    assert text_upto(root, 4) == (["ab", "cd", "ef"], True)
    assert text_upto(root, 8) == (["ab", "cd", "ef", "gh"], False)
    read: list[str] = []

    class Counted:
        def itertext(self):  # the pieces as the read asks for them
            for piece in ("x" * 5, "y", "z"):
                read.append(piece)
                yield piece

    assert text_upto(Counted(), 4) == (["xxxxx"], True) and read == ["xxxxx"]


def test_the_cleaning_asks_libxml2_for_no_union(monkeypatch: pytest.MonkeyPatch) -> None:
    # A union's branches are merged by libxml2 comparing each hit with all found before
    # it: 10000 hidden boxes beside 10000 skip links cost 16.6 s. Each branch is searched
    # apart now (common.xpath.union), in a thread of its own so no search is cached yet.
    from concurrent.futures import ThreadPoolExecutor

    from tests.helpers import union_searches

    unions = union_searches(monkeypatch)
    row = "<p>Words of the page here.</p><a href='#s'>skip</a><div hidden>h</div><noscript>n</noscript>"
    page = f"<html><body>{row * 20}</body></html>"
    for full in (False, True):
        with ThreadPoolExecutor(1) as pool:
            text = pool.submit(extract, page, full=full).result().text
        assert text.count("Words of the page here.") == 20
    assert unions == []


# -- <wbr> -----------------------------------------------------------------------------


@pytest.mark.parametrize("wbr", ["<wbr>", "<wbr/>", "<WBR >", "<wbr></wbr>"])
def test_the_text_after_a_line_break_opportunity_is_kept(wbr: str) -> None:
    # libxml2 knows no <wbr> and nested the rest of the paragraph in it; the cleaning
    # that drops it took that text along: "0.4061675<wbr>3677i, after ..." stopped there.
    lead = "The gear turns the shaft at a fixed ratio through every season. " * 3
    page = (
        f"<html><body><main><p>{lead}</p><p>Call gearbox::{wbr}Widget::{wbr}share "
        "to get a <b>handle</b>, then spin it.</p></main></body></html>"
    )
    assert "Call gearbox::Widget::share to get a handle, then spin it." in extract_text(page)
    assert "spin it." in extract_text(page.encode())


def test_a_word_broken_at_every_letter_is_read_whole() -> None:
    # libxml2 nests each <wbr> in the one before: a chain past its depth limit is
    # flattened, and the word runs on across the tags it drops (no space between).
    page = "<html><body><main><p>" + "w<wbr>" * 10_000 + "end.</p></main></body></html>"
    assert "w" * 10_000 + "end." in extract_text(page, full=True)
    assert "w" * 10_000 + "end." in extract_text(page.replace("<wbr>", "<wbr/>"))


def test_the_cleaning_leaves_no_line_break_opportunity_to_nest_the_text() -> None:
    from wf.extract.parse import clean, parse

    # Under libxml2's depth limit the chain stays in the tree: the cleaning unwraps it,
    # and the text is as deep as the paragraph.
    root = parse(("<html><body><p>" + "w<wbr>" * 1000 + "end.</p></body></html>").encode())
    clean(root, main=True)
    assert root.find(".//wbr") is None and "".join(root.itertext()) == "w" * 1000 + "end."


# What the fast parse keeps and the careful one removes: C0 controls but tab and line ends,
# and DEL. One that reaches the text (those str.split() reads as spaces are collapsed
# away before) sends the page to the careful parse; a space or another character does not.
_CONTROLS = [*map(chr, (*range(0x09), *range(0x0E, 0x1C), 0x7F))]


@pytest.mark.parametrize(
    ("char", "careful"),
    [(c, True) for c in _CONTROLS]
    + [(c, False) for c in ("\t", "\n", "\r", "\x0b", "\x1f", "\xa0", "\x80", "é", "潮")],
)
def test_each_control_character_and_only_those_send_a_page_to_the_careful_parse(
    capsys, char, careful
):
    from common import trace

    prose = "The tide came in over the flats while the gulls circled the harbour wall. " * 3
    html = f"<html><body><article><p>{prose}{char}and went out.</p></article></body></html>"
    trace.enable("wf", True)
    try:
        text = extract_text(html)
    finally:
        trace.enable("wf", False)
    said = "parsing again carefully" in capsys.readouterr().err
    assert said is careful, repr(char)
    assert "and went out." in text
    assert not any(c in text for c in [*_CONTROLS, "\ufffd"])


def test_a_failure_inside_the_extractor_is_said_not_hidden(monkeypatch):
    # Any input gives text (the tags stripped), but a bug, or a kind module that does not
    # import, says so in a note (stderr, --json) rather than pass for a page read badly.
    from wf.extract import core

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom " + "x" * 1000)

    monkeypatch.setattr(core, "_run", broken)
    result = extract("<html><body><nav>Menu</nav><p>Plain words here.</p></body></html>")
    assert "Plain words here." in result.text
    (note,) = result.notes
    assert note.startswith("extraction failed (RuntimeError: boom x")
    assert note.endswith("...); the page's text with its tags stripped instead (this is a bug)")
    assert len(note) < 300


def test_a_reference_to_a_control_character_costs_the_page_no_text():
    # libxml2 puts a page's `&#3;` (or `&#x1b`, without its semicolon) in the tree as the
    # character, and lxml refuses a text made of it: a hidden element's tail joined to
    # the text before it raised, and the page fell to its text with the tags stripped.
    html = (
        "<html><head><title>Tides</title></head><body><article><h1>Tides</h1>"
        "<p>The tide turns twice a day on this coast, and the harbour empties at low "
        "water&#3;<span hidden>x</span> so that boats sit on the mud until it returns.</p>"
        "<p>Fishermen plan their days around it&#x1b<span style='display:none'>y</span> "
        "and the tables printed each year by the harbour master.</p></article></body></html>"
    )
    found = extract(html, url="https://news.example/tides")
    assert not any("failed" in note for note in found.notes)
    assert "# Tides" in found.text and "the harbour empties at low water" in found.text
    assert "\x03" not in found.text and "\x1b" not in found.text


def test_a_deadline_past_when_the_metadata_is_read_gives_the_text_without_the_cleaning(
    monkeypatch,
):
    # The parse, the title and the metadata may take a page's time before its first look
    # at the deadline: then the cleaning (and its search for hidden boxes) is not paid; the
    # page's text comes in document order, without what the cleaning drops whole first.
    import time

    from wf.extract import extract, metadata, parse

    page = (
        "<html><head><title>The title</title><meta name='description' content='About it'>"
        "</head><body><nav><a href='/'>Home</a></nav><script>var x = 1;</script>"
        "<article><h1>Heading</h1><p>First paragraph of prose.</p><style>p{}</style>"
        "<p>Second <button>Share</button>paragraph.</p></article></body></html>"
    )
    read = metadata.extract
    cleanings: list[int] = []
    clean = parse.clean

    def slow(*args, **kwargs):
        found = read(*args, **kwargs)
        time.sleep(0.3)  # past the deadline below, however fast the machine
        return found

    def counted(*args, **kwargs):
        cleanings.append(1)
        return clean(*args, **kwargs)

    monkeypatch.setattr(metadata, "extract", slow)
    monkeypatch.setattr(parse, "clean", counted)
    r = extract(page, url=None, metadata=True, deadline=time.monotonic() + 0.2)
    assert cleanings == []
    assert r.text == "Home\nHeading\nFirst paragraph of prose.\nSecond paragraph."
    assert r.title == "The title" and r.kind is None and r.links == []
    assert r.metadata is not None and r.metadata["description"] == "About it"
    # In time, the same page is cleaned and structured.
    r = extract(page, url=None, metadata=True, deadline=time.monotonic() + 30)
    assert cleanings == [1] and "# Heading" in r.text and "var x" not in r.text


@pytest.mark.parametrize("seed", range(4))
def test_a_class_value_s_head_holds_the_tokens_read_and_no_more(seed):
    """name_tokens.head (what the layout copies' regexes read of a class value) is the
    value's start and holds exactly its tokens as read; found in one pass from the end: a
    search for the cut token tried every start, 0.25 s on one 17 KB value."""
    import random

    from wf.extract.name_tokens import head, tokens
    from wf.extract.names_tuning import NAMES_READ

    rng = random.Random(seed)
    values = ["a" * 8000 + " " + "b" * 9000, "x" * (NAMES_READ + 5), "nav main"]
    for _ in range(300):
        size = NAMES_READ + rng.choice((-2, -1, 0, 1, 2, 40))
        values.append("".join(rng.choice("ab \t\n\xa0") for _ in range(size)))
    for value in values:
        kept = head(value)
        assert value.startswith(kept) and kept.split() == tokens(value)
