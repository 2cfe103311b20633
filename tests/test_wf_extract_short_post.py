"""A blog's post of a paragraph beside its theme's sidebar, where no block of the page
stands out: the post whole is printed (the box around the heading the <title> repeats),
not the page with its banner, archive and "About me". Every page here is a small one of
our own."""

from __future__ import annotations

import pytest

from wf.extract import extract_text

BANNER = (
    "<div id='header'><h1 class='title'><a href='/'>Ann's Garden Notes</a></h1>"
    "<p class='description'>Notes on gardening, seeds and the weather in the north</p></div>"
)
SIDEBAR = (
    "<div id='sidebar-wrapper'><div class='widget'><h2>Blog Archive</h2><ul>"
    + "".join(f"<li><a href='/2026/{m:02d}/'>2026 ({m})</a></li>" for m in range(1, 13))
    + "</ul></div><div class='widget Profile'><h2>About Me</h2><p>I am a gardener living "
    "in the north; I write about vegetables, seeds and the weather every week on this "
    "little blog of mine, since 2009.</p></div></div>"
)
BODY = (
    "The first tomatoes of the year are ripe. We picked a whole bowl today and ate half "
    "of them still warm."
)
POSTS = {
    # Blogger: the post inside a box named for its date.
    "blogger": (
        "<div class='date-outer'><h2 class='date-header'><span>Tuesday, 4 August 2026"
        "</span></h2><div class='post-outer'><div class='post hentry'><h3 class='post-title"
        f" entry-title'>Tomatoes are in</h3><div class='post-body entry-content'>{BODY}"
        "</div><div class='post-footer'>Posted by Ann at 10:12 <a href='#c'>2 comments</a>"
        "</div></div></div></div>"
    ),
    # WordPress: the post's title linked, as on an index's card.
    "wordpress": (
        "<main id='main'><article class='post type-post'><header class='entry-header'><h2 "
        "class='entry-title'><a href='/tomatoes'>Tomatoes are in</a></h2></header><div "
        f"class='entry-content'><p>{BODY}</p></div><footer class='entry-footer'>Posted in "
        "<a href='/c/veg'>Vegetables</a></footer></article></main>"
    ),
}


def _page(title: str, post: str) -> str:
    return (
        f"<html><head><title>{title}</title></head><body><div id='outer-wrapper'>{BANNER}"
        f"<div id='main-wrapper'>{post}</div>{SIDEBAR}</div><div id='footer'><p>Powered by "
        "Blogger.</p></div></body></html>"
    )


@pytest.mark.parametrize("theme", sorted(POSTS))
def test_a_short_post_where_nothing_stands_out_is_printed_alone(theme: str) -> None:
    text = extract_text(_page("Tomatoes are in | Ann's Garden Notes", POSTS[theme]))
    assert "ate half of them still warm" in text
    assert "About Me" not in text
    assert "2026 (7)" not in text


def test_the_blogs_banner_is_no_post() -> None:
    """A guard: a title that is the blog's name alone names its banner, not a post; the
    page is not cut down to its banner."""
    text = extract_text(_page("Ann's Garden Notes", POSTS["blogger"]))
    assert "ate half of them still warm" in text


def test_a_page_of_many_links_under_a_heading_is_not_a_short_post() -> None:
    """A guard: a heading the title repeats over a line, above an index of links longer
    than the line: the page without its named boilerplate adds more than the box."""
    items = "".join(
        f"<li><a href='/p/{n}'>Garden product number {n} with a long name</a></li>"
        for n in range(40)
    )
    html = (
        "<html><head><title>Best sellers in garden tools</title></head><body><div>"
        "<div class='banner-x'><h1>Best sellers in garden tools</h1><p>Our most popular "
        f"products based on sales, updated every hour.</p></div><ol>{items}</ol></div>"
        "</body></html>"
    )
    assert "Garden product number 39" in extract_text(html)


_COLOPHONS = {
    "blogger": "<div class='x-2'>Simple theme. Powered by <a href='/b'>Blogger</a>.</div>",
    "wordpress": "<div class='x-2'><a href='/w'>Proudly powered by WordPress</a></div>",
    # Without a copyright sign, which another rule leaves out whatever the line says.
    "hugo": "<p>Ann's notes · Powered by <a href='/h'>Hugo</a> &amp; <a href='/t'>Ananke</a></p>",
    "french": "<div class='x-2'><p>Propulsé par <a href='/g'>Ghost</a></p></div>",
}


@pytest.mark.parametrize("name", sorted(_COLOPHONS))
def test_the_sites_colophon_is_left_out_of_a_short_page_read_whole(name: str) -> None:
    """A short post's page read whole, its footer named as nothing: the line that names
    the platform the site is built with is never its content."""
    html = (
        "<html><head><title>Ann's notes</title></head><body><div class='x-1'><h2>Back "
        "home</h2><p>We are back from two weeks in the mountains. Photos soon, once I sort "
        "through the nine hundred I took.</p></div>"
        f"{_COLOPHONS[name]}</body></html>"
    )
    text = extract_text(html)
    assert "two weeks in the mountains" in text
    assert "owered by" not in text
    assert "Propulsé" not in text


def test_a_sentence_about_what_powers_a_thing_stays() -> None:
    """Guards: "powered by" followed by no platform (a landing page's "Powered by
    cutting-edge research."), and a platform's name inside a sentence, are text."""
    html = (
        "<html><head><title>t</title></head><body><main><h1>Fast models</h1><p>Run open "
        "models on demand.</p><p>Powered by cutting-edge research.</p><p>Our status page "
        "runs on a small server powered by WordPress and a cache.</p></main></body></html>"
    )
    text = extract_text(html)
    assert "Powered by cutting-edge research." in text
    assert "powered by WordPress and a cache" in text


def test_only_short_lines_that_name_a_colophons_verb_are_read_for_one(monkeypatch) -> None:
    """The colophon's test reads a short line's text with notices.sample only when the
    line holds one of its verbs: a page's hundreds of short lines are not each walked
    (the test cost 2 % of the extraction). A verb split from its platform by a link
    (the Blogger case above) is still found."""
    from wf.extract import notices

    read: list[str] = []
    sample = notices.sample

    def counted(el, b, size=notices.NOTICE_SAMPLE):  # type: ignore[no-untyped-def]
        read.append(el.tag)
        return sample(el, b, size)

    monkeypatch.setattr(notices, "sample", counted)
    lines = "".join(f"<li>Seed packet number {n}, sown in spring</li>" for n in range(200))
    html = (
        "<html><head><title>Ann's notes</title></head><body><div class='x-1'><h2>Back "
        "home</h2><p>We are back from two weeks in the mountains. Photos soon, once I sort "
        f"through the nine hundred I took.</p><ul>{lines}</ul></div>"
        f"{_COLOPHONS['blogger']}</body></html>"
    )
    text = extract_text(html)
    assert "Seed packet number 199" in text and "Blogger" not in text
    assert read.count("li") == 0


_COLUMN = (
    "<div class='col-md-4'><h3>Recent posts</h3><ul>"
    + "".join(
        f"<li><a href='/p{i}'>An older post about seeds, number {i}</a></li>" for i in range(10)
    )
    + "</ul><h3>Categories</h3><ul>"
    + "".join(f"<li><a href='/c{i}'>Category {i}</a></li>" for i in range(8))
    + "</ul></div>"
)
_SHORT_POSTS = {
    "article-h1": (
        f"<article><h1>Tomatoes are in</h1><p class='date'>4 August 2026</p><p>{BODY}</p></article>"
    ),
    "entry-h2": (
        "<div class='entry'><h2 class='title'>Tomatoes are in</h2><div class='text'>"
        f"<p>{BODY}</p></div></div>"
    ),
}


@pytest.mark.parametrize("left", [False, True])
@pytest.mark.parametrize("post", sorted(_SHORT_POSTS))
def test_a_short_post_beside_a_column_of_link_lists_is_printed_alone(post: str, left: bool) -> None:
    """A short post in a grid column beside a column of recent posts and categories,
    named as nothing: those lists of links, in a box of their own, are no text the
    post missed, and the page is not printed whole."""
    main = f"<div class='col-md-8'>{_SHORT_POSTS[post]}</div>"
    row = _COLUMN + main if left else main + _COLUMN
    html = (
        "<html><head><title>Tomatoes are in - Ann's Garden Notes</title></head><body>"
        "<div class='top'><a href='/'>Home</a> <a href='/about'>About</a></div>"
        f"<div class='container'><div class='row'>{row}</div></div></body></html>"
    )
    text = extract_text(html)
    assert "ate half of them still warm" in text
    assert "number 3" not in text
    assert "Category 5" not in text


_DETAILS = {
    "list": (
        "<dl><dt>Adresse</dt><dd>Marktplatz 1, 12345 Beispielhausen</dd><dt>Telefon</dt>"
        "<dd>0123 45678</dd><dt>Öffnungszeiten</dt><dd>Mo–Fr 8–12 Uhr, Do 14–18 Uhr</dd></dl>"
    ),
    # Next to nothing: the box is still the page, not the page whole.
    "line": "<p>Marktplatz 1, 12345 Beispielhausen · Do 14–18 Uhr</p>",
}


def _office(menu: str, details: str = _DETAILS["list"]) -> str:
    return (
        "<html><head><title>Bürgerbüro Nord - Stadt Beispielhausen</title></head><body>"
        "<div class='top'><a href='/'>Start</a> <a href='/rathaus'>Rathaus</a></div>"
        f"<div class='wrap'>{menu}<div class='main'><h1>Bürgerbüro Nord</h1>{details}</div>"
        "</div></body></html>"
    )


@pytest.mark.parametrize("details", sorted(_DETAILS))
def test_a_page_of_an_address_and_hours_beside_a_menu_is_printed_alone(details: str) -> None:
    """A public office's page holds no prose at all: its name, address and hours. The box
    around its heading, the one the title repeats, is the page, not the page whole with
    its section's long menu (named as nothing, in a column of its own)."""
    menu = (
        "<div class='col'><ul>"
        + "".join(f"<li><a href='/t/{i}'>Bürgerservice Thema {i}</a></li>" for i in range(25))
        + "</ul></div>"
    )
    text = extract_text(_office(menu, _DETAILS[details]))
    assert "Marktplatz 1" in text
    assert "Do 14–18 Uhr" in text
    assert "Thema 12" not in text


def test_a_page_of_an_address_beside_text_of_its_own_is_read_whole() -> None:
    """A guard: beside a box without prose, a column with text of its own (not a menu)
    is what the page says too; the page is read whole."""
    column = (
        "<div class='col'><p>Das Bürgerbüro hilft bei Ausweisen, Meldebescheinigungen und "
        "Führungszeugnissen; Termine vergeben wir online und am Telefon.</p><p>Bitte bringen "
        "Sie zu jedem Termin einen gültigen Ausweis und die nötigen Unterlagen mit.</p></div>"
    )
    text = extract_text(_office(column))
    assert "Marktplatz 1" in text
    assert "Termine vergeben wir online" in text
