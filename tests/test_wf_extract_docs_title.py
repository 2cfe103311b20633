"""Documentation pages of our own: the title and lead a manual draws in a header box
beside its body box, and the links that offer to edit the page or only step to the
previous or next one (wf/extract/kinds/docs.py `with_title`, `drop_edit_links`;
wf/extract/kinds/docs_chrome.py `drop_step_links`)."""

from __future__ import annotations

from wf.extract import extract_text

URL = "https://manual.example/docs/layout/grids"
PROSE = (
    "A grid places its items in rows and columns at once, and each item can span as many "
    "tracks as it needs while the others flow around it. "
)
LEAD = "Grids lay out a page in two dimensions; this guide explains all the fundamentals."

_PREREQUISITES = "".join(
    f"<li>{n} and how the boxes of a page are laid out</li>"
    for n in ("Boxes", "Normal flow", "Floats")
)
# The page's contents after its body, a box no name gives away: links, beside the body.
_CONTENTS = (
    "<div><p>In this article</p><ul>"
    + "".join(f'<li><a href="#part-{n}">Part {n} of the grids guide</a></li>' for n in range(1, 7))
    + "</ul></div>"
)


def _page(foot: str = _CONTENTS) -> str:
    sections = "".join(f"<h2>Part {n}</h2><p>{PROSE * 3}</p>" for n in range(1, 7))
    return (
        "<html><head><title>Grids | Manual</title></head><body>"
        '<nav class="site-nav"><a href="/">Home</a> <a href="/docs">Docs</a></nav>'
        '<main id="content"><div class="page-head">'
        f'<h1>Grids</h1><p><a href="/docs/grid">Grids</a> {LEAD}</p>'
        f"<table><tr><th>Before this:</th><td><ul>{_PREREQUISITES}</ul></td></tr></table></div>"
        f'<div class="page-body">{sections}</div>{foot}</main>'
        "<footer><p>Copyright the authors.</p></footer></body></html>"
    )


def test_a_manuals_header_box_keeps_the_title_and_lead() -> None:
    # The body's prose outscores the header box of the title, the lead and a box of
    # prerequisites' links: the page had lost its title and lead.
    text = extract_text(_page(), url=URL)
    assert text.startswith("# Grids")
    assert LEAD in text
    assert text.count("A grid places") == 18


def test_what_follows_the_body_stays_out() -> None:
    # The parent taken for the title holds the page's foot after the body: a table of
    # contents, a box of links to the pages before and after this one.
    text = extract_text(_page(), url=URL)
    assert LEAD in text
    assert "In this article" not in text and "Part 1 of" not in text


def test_a_short_pages_foot_does_not_cost_it_its_title() -> None:
    # A short page: the foot after the body (a feedback bar, the pages before and after)
    # outweighs a header's share of the body, but it is left out when the box around both
    # is taken, so only what stands before the body is weighed.
    foot = (
        "<div><p>Was this page helpful?</p><button>Yes</button><button>No</button>"
        '<a href="https://github.com/x/manual/issues/new">Report a problem with the page</a>'
        '</div><div><a href="/docs/layout/floats">Floats and how they wrap</a>'
        '<a href="/docs/layout/flexbox">Flexbox and its axes</a></div>'
    )
    page = (
        "<html><head><title>Grids | Manual</title></head><body>"
        '<nav class="site-nav"><a href="/">Home</a> <a href="/docs">Docs</a></nav>'
        '<div id="content-area"><header><h1>Grids</h1><p>Rows and columns at once.</p></header>'
        f'<div class="prose" id="content"><p>{PROSE * 2}</p><p>{PROSE}</p></div>{foot}</div>'
        "<footer><p>Copyright the authors.</p></footer></body></html>"
    )
    text = extract_text(page, url=URL)
    assert text.startswith("# Grids\n\nRows and columns at once.")
    assert text.count("A grid places") == 3
    assert "helpful" not in text and "Flexbox and" not in text


def test_a_wrapper_that_adds_much_is_not_taken_for_its_title() -> None:
    # A box around the body that adds more than a header's share of text (a list of the
    # manual's other guides before it) is the page's frame, not its header: the body
    # stays the choice.
    guides = "".join(
        f'<li><a href="/docs/g{n}">Guide {n} to laying out the boxes of a page</a></li>'
        for n in range(20)
    )
    page = _page().replace(
        '<div class="page-head">', f"<ul>{guides}</ul>" + '<div class="page-head">'
    )
    text = extract_text(page, url=URL)
    assert "Guide 3 to" not in text
    assert text.count("A grid places") == 18


def test_a_link_offering_to_edit_the_page_is_left_out() -> None:
    edit = '<a href="https://github.com/x/manual/edit/main/grids.md">Edit this page on GitHub</a>'
    page = _page().replace("</div></main>", f"<p>{PROSE}</p></div>{edit}</main>")
    text = extract_text(page, url=URL)
    assert "Edit this page" not in text
    # ...on a documentation page only, and by its whole text: a sentence that links the
    # words stays.
    assert "Edit this page" in extract_text(
        page.replace("/docs/", "/blog/"), url=URL.replace("/docs/", "/blog/")
    )
    said = page.replace(edit, f"<p>To fix a typo, {edit} and send the change.</p>")
    assert "Edit this page on GitHub and send" in extract_text(said, url=URL)


_NEWS = (
    '<div class="row site-shout-box"><p>March 3: <a href="/news/9-2">Manual 9.2 '
    "released!</a></p></div>"
)
_OLD = (
    '<div class="theme-doc-version-banner alert"><p>This is documentation for Manual 8, '
    'which is no longer maintained. See the <a href="/docs/9/grids">latest version</a>.'
    "</p></div>"
)


def test_a_manuals_banners_are_left_out() -> None:
    # The site's news over every page, read with the page when no block stands out, and
    # the warning that an older version is shown, under the title: the manual's chrome,
    # named so.
    small = (
        "<html><head><title>Grids | Manual</title></head><body>"
        f'{_NEWS}<div class="content"><h1>Grids</h1>{_OLD}<p>{LEAD}</p></div>'
        "</body></html>"
    )
    text = extract_text(small, url=URL)
    assert LEAD in text
    assert "released" not in text and "Manual 9.2" not in text
    assert "no longer maintained" not in text and "latest version" not in text
    # ...on a documentation page only, and while the box named so is as small as a banner.
    blog = URL.replace("/docs/", "/blog/")
    assert "no longer maintained" in extract_text(small.replace("/docs/", "/blog/"), url=blog)
    big = small.replace(f"<p>{LEAD}</p>", f"<p>{LEAD}</p><p>{PROSE * 8}</p>").replace(
        '<div class="content">', '<div class="content announcements">'
    )
    assert PROSE.strip() in extract_text(big, url=URL)


def test_the_line_saying_when_the_page_was_updated_is_left_out() -> None:
    # The manual's foot under its last paragraph, in the chosen box: the words and a date,
    # nothing else; the outermost box that says only that goes (<p><small><i>).
    for stamp in (
        "This page was last updated on 2026-01-26 15:45:07Z",
        "Last updated on Mar 3, 2024 by Ann Smith",
        "Last update: 2024-05-01",
    ):
        foot = f'<p align="center"><small><i>{stamp}</i></small></p>'
        page = _page().replace("</div><div><p>In this article", f"{foot}</div><div><p>In this")
        text = extract_text(page, url=URL)
        assert text.count("A grid places") == 18
        assert "last updated" not in text.lower() and "update:" not in text.lower()
    # ...not a sentence that says more, and not off a documentation page.
    said = "Last updated on Mar 3, 2024: the grid's gaps now take percentages."
    page = _page().replace("</div><div><p>In this article", f"<p>{said}</p></div><div><p>In")
    assert said in extract_text(page, url=URL)
    blog = URL.replace("/docs/", "/blog/")
    foot = "<p><small>Last updated on Mar 3, 2024</small></p>"
    page = _page().replace("</div><div><p>In this article", f"{foot}</div><div><p>In this")
    assert "Last updated on Mar 3, 2024" in extract_text(page.replace("/docs/", "/blog/"), url=blog)


_STEPS = (
    '<ul class="prev-next"><li><a class="button" href="/docs/layout/floats"> Previous </a></li>'
    '<li><a class="button" href="/docs/layout/flexbox"> Next </a></li></ul>'
)


def test_the_bare_steps_to_the_previous_and_next_page_are_left_out() -> None:
    # A guide's pair of buttons above its first paragraph and under its last (MDN's), by
    # their whole text: the list goes whole, not as an empty one.
    page = _page().replace('<div class="page-body">', f'<div class="page-body">{_STEPS}')
    page = page.replace("</div><div><p>In this article", f"{_STEPS}</div><div><p>In this")
    text = extract_text(page, url=URL)
    assert text.count("A grid places") == 18
    assert "Previous" not in text and "Next" not in text
    assert "\n-\n" not in text and not text.rstrip().endswith("-")
    # ...not a step that names its page, nor the word in a sentence.
    named = page.replace(" Next </a>", " Next: Flexbox </a>")
    assert "Next: Flexbox" in extract_text(named, url=URL)
    said = page.replace(
        f"{_STEPS}</div><div><p>In this",
        '<p>When the grid is done, <a href="/docs/layout/flexbox">next</a> comes flexbox.</p>'
        "</div><div><p>In this",
    )
    assert "done, next comes flexbox" in extract_text(said, url=URL)


def test_a_step_word_set_in_bold_inside_a_sentence_stays() -> None:
    # The link stands alone in its <strong>, but the <strong> stands in a sentence: the
    # box that would go must stand alone too.
    said = _page().replace(
        "</div><div><p>In this article",
        '<p>When the grid is done, choose <strong><a href="/docs/layout/flexbox">Next</a>'
        "</strong> to read on.</p></div><div><p>In this article",
    )
    assert "choose Next to read on" in " ".join(extract_text(said, url=URL).split())


def test_doxygens_title_box_is_the_pages_title() -> None:
    # Doxygen draws the title as a box in a header beside the body, both in <body>.
    page = (
        "<html><head><title>Gearbox: Gear Class Reference</title>"
        '<meta name="generator" content="Doxygen 1.9.8"></head><body>'
        '<div id="top"><div id="projectname">Gearbox</div></div>'
        '<div class="header"><div class="summary"><a href="#pub-methods">Public Member '
        'Functions</a></div><div class="headertitle"><div class="title">Gear Class Reference'
        f'</div></div></div><div class="contents"><p>{PROSE * 3}</p></div></body></html>'
    )
    text = extract_text(page, url="https://manual.example/api/classGear.html")
    assert text.startswith("# Gear Class Reference\n\nA grid places")
    # Another generator's box so named is its own.
    other = page.replace("Doxygen 1.9.8", "Hugo 0.120")
    assert "# Gear" not in extract_text(other, url="https://manual.example/api/classGear.html")
