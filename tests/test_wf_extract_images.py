"""wf/extract/images.py: an image's address (srcset's largest, <picture> sources,
lazy-loading attributes, src; absolute, http(s) only), alt, caption and size; decorative
images left out (empty alt, presentation roles, pixels, icons); markers that no alt can
break; the list of a subtree, one per address."""

from __future__ import annotations

from typing import Any

import pytest

from wf.extract import Link, parse
from wf.extract.images import (
    Image,
    Images,
    collect,
    image_of,
    largest,
    marker,
    srcset_candidates,
)

BASE = "https://example.com/a/page.html"


def img(html: str) -> Any:
    root = parse.parse(f"<html><body>{html}</body></html>".encode())
    assert root is not None
    found = next(root.iter("img"))
    return found


def src(html: str) -> str | None:
    found = image_of(img(html), BASE)
    return found.src if found else None


def test_srcset_candidates_as_html_parses_them() -> None:
    assert srcset_candidates("a.jpg 100w, b.jpg 300w,c.jpg 200w") == [
        ("a.jpg", 100.0, "w"),
        ("b.jpg", 300.0, "w"),
        ("c.jpg", 200.0, "w"),
    ]
    # A comma inside a URL belongs to it; a comma right after it ends the candidate.
    assert srcset_candidates("https://c.example/w_100,h_50/x.jpg 1x, y.jpg, z.jpg 2x") == [
        ("https://c.example/w_100,h_50/x.jpg", 1.0, "x"),
        ("y.jpg", 1.0, "x"),
        ("z.jpg", 2.0, "x"),
    ]
    # Bad descriptors drop their candidate.
    assert srcset_candidates("a.jpg 0w, b.jpg -2x, c.jpg bogus, d.jpg 3x") == [("d.jpg", 3.0, "x")]
    assert srcset_candidates("  ,, ") == []


def test_largest_prefers_width_then_density() -> None:
    assert largest("a.jpg 100w, b.jpg 900w, c.jpg 300w") == "b.jpg"
    assert largest("a.jpg, b.jpg 3x, c.jpg 2x") == "b.jpg"
    assert largest("a.jpg 2x, b.jpg 500w") == "b.jpg"  # widths name real pixels
    assert largest("") is None


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ('<img alt="x" src="p.jpg">', "https://example.com/a/p.jpg"),
        (
            '<img alt="x" src="/p.jpg" srcset="s.jpg 100w, l.jpg 800w">',
            "https://example.com/a/l.jpg",
        ),
        # Lazy loading: the real address waits in data-* while src holds a placeholder.
        (
            '<img alt="x" src="data:image/gif;base64,R0lGOD" data-src="real.jpg">',
            "https://example.com/a/real.jpg",
        ),
        (
            '<img alt="x" src="blank.gif" data-srcset="m.jpg 400w, xl.jpg 1600w">',
            "https://example.com/a/xl.jpg",
        ),
        ('<img alt="x" data-original="//cdn.example/o.jpg">', "https://cdn.example/o.jpg"),
        # <picture>: the sources' candidates count.
        (
            '<picture><source srcset="big.webp 1200w" type="image/webp"><img alt="x" src="small.jpg"></picture>',
            "https://example.com/a/big.webp",
        ),
        ('<img alt="x" src="data:image/png;base64,AAAA">', None),
        ('<img alt="x" src="javascript:alert(1)">', None),
        ('<img alt="x">', None),
        ('<img alt="x" src=" \n/p\tq.jpg ">', "https://example.com/pq.jpg"),
    ],
)
def test_the_address_of_an_image(html: str, expected: str | None) -> None:
    assert src(html) == expected


@pytest.mark.parametrize(
    "html",
    [
        '<img src="a.jpg" alt="">',
        '<img src="a.jpg" alt="  ">',
        '<img src="a.jpg" alt="logo" role="presentation">',
        '<img src="a.jpg" alt="logo" aria-hidden="true">',
        '<img src="t.gif" alt="x" width="1" height="1">',
        '<img src="i.png" alt="share" width="16">',
        '<img src="i.png" alt="rule" width="600" height="2px">',
    ],
)
def test_decorative_images_are_left_out(html: str) -> None:
    assert image_of(img(html), BASE) is None


def test_an_image_without_alt_is_kept() -> None:
    found = image_of(img('<img src="a.jpg" width="640" height="480">'), BASE)
    assert found == Image("https://example.com/a/a.jpg", "", None, 640, 480)


def test_caption_size_and_alt() -> None:
    html = (
        '<figure><div><img src="c.jpg" alt="  A   cat\n on a mat " width="800px" height="x">'
        "</div><figcaption>The <b>cat</b>,\n sitting.</figcaption></figure>"
    )
    found = image_of(img(html), BASE)
    assert found == Image(
        "https://example.com/a/c.jpg", "A cat on a mat", "The cat, sitting.", 800, None
    )
    assert found.as_json() == {
        "src": "https://example.com/a/c.jpg",
        "alt": "A cat on a mat",
        "caption": "The cat, sitting.",
        "width": 800,
        "height": None,
    }


def test_alt_is_capped() -> None:
    found = image_of(img(f'<img src="a.jpg" alt="{"word " * 200}">'), BASE)
    assert found is not None and len(found.alt) == 300 and found.alt.endswith("\u2026")


def test_markers_cannot_be_forged() -> None:
    assert marker("a cat", 3) == "![a cat](3)"
    assert marker("x](9) ![y", 1) == "![x\\](9) !\\[y](1)"
    assert marker("back\\", 2) == "![back\\\\](2)"


def test_one_number_per_address() -> None:
    images = Images()
    a, b = Image("https://e/a", "a"), Image("https://e/b", "b")
    assert [images.add(a), images.add(b), images.add(Image("https://e/a", "again"))] == [1, 2, 1]
    assert images.items == [a, b]


def test_collect_a_subtree_in_document_order() -> None:
    root = parse.parse(
        b'<html><body><div id="main"><img src="1.jpg" alt="one"><p>text<img src="2.jpg" alt="two"></p>'
        b'<img src="1.jpg" alt="one again"><img src="px.gif" alt="" ></div>'
        b'<aside><img src="3.jpg" alt="three"></aside></body></html>'
    )
    main = root.find(".//div")
    got = collect(main, BASE)
    assert [(i.src.rsplit("/", 1)[1], i.alt) for i in got] == [("1.jpg", "one"), ("2.jpg", "two")]


# ------------------------------------------------------------------ through the extractor

ARTICLE = b"""<html><body><nav><a href="/">home</a> <a href="/b">b</a></nav><article><h1>T</h1>
<p>Some long paragraph of prose text that is the article body and goes on for a while.</p>
<figure><picture><source srcset="big.webp 1200w"><img src="small.jpg" alt="A [cat]" width="600">
</picture><figcaption>The cat</figcaption></figure>
<p>More prose with <a href="/x">a link</a> that goes on, so that the article is the choice.</p>
<div class="photo-wrap"><img src="b.jpg" alt="B"></div>
<p>An icon <img src="i.png" alt="i" width="16"> and a pixel <img src="p.gif" width="1" height="1"></p>
<div class="related"><a href="/r"><img src="r.jpg" alt="R"> Related</a></div>
</article></body></html>"""


def test_markers_where_the_images_stand() -> None:
    from wf.extract import extract

    got = extract(ARTICLE, url="https://e.com/a/", images=True)
    assert got.text.split("\n\n")[2:5] == [
        "![A \\[cat\\]](1)",
        "The cat",
        "More prose with a link that goes on, so that the article is the choice.",
    ]
    assert "![B](2)" in got.text
    assert "![R]" not in got.text and "![i]" not in got.text  # a teaser, an icon
    assert [i.src for i in got.images or []] == [
        "https://e.com/a/big.webp",
        "https://e.com/a/b.jpg",
    ]
    assert got.links == [Link("a link", "https://e.com/x")]


def test_numbered_with_the_links_under_link_markers() -> None:
    from wf.extract import extract

    got = extract(ARTICLE, url="https://e.com/a/", images=True, link_markers=True)
    assert "![A \\[cat\\]](1)" in got.text and "a link[2]" in got.text and "![B](3)" in got.text
    assert [link.url for link in got.links] == [
        "https://e.com/a/big.webp",
        "https://e.com/x",
        "https://e.com/a/b.jpg",
    ]


def test_without_images_nothing_changes() -> None:
    from wf.extract import extract

    plain = extract(ARTICLE, url="https://e.com/a/")
    assert plain.images is None
    assert "![" not in plain.text and "The cat" not in plain.text


def test_image_fields_leave_under_the_text_policy() -> None:
    from wf.extract import extract

    page = b'<html><body><p>Prose long enough to be the page, prose and more prose here.</p><figure><img src="a.jpg" alt="x\xe2\x80\xaey"><figcaption>c\xe2\x80\xaed</figcaption></figure></body></html>'
    got = extract(page, url="https://e.com/", images=True, full=True)
    assert got.images is not None and len(got.images) == 1
    assert "\u202e" not in got.images[0].alt and "\u202e" not in (got.images[0].caption or "")
