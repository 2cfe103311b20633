"""Bounds on what an HTML parser is handed (common/parse_limits.py): tags and attributes,
on str (wf) and bytes (ws), counted before libxml2 sees the page."""

from __future__ import annotations

import re

import pytest

from common import parse_limits
from common.parse_limits import (
    COUNTED_FROM,
    MAX_ATTRIBUTES,
    MAX_ATTRIBUTES_PER_ELEMENT,
    cap_attributes,
    limit,
)

# -- tags ----------------------------------------------------------------------------------


def test_a_page_within_the_tag_cap_is_read_whole():
    from common.tag_counts import MAX_TAGS, cap_tags

    text = "<i>" * MAX_TAGS
    assert cap_tags(text) == (text, 0)


@pytest.mark.parametrize(
    "text",
    [
        "<p>a</p>" * 100_000,  # tags spread evenly
        "x" * 2_000_000 + "<b>" * 160_000,  # all of them at the end
        "<b>" * 160_000 + "y" * 2_000_000,  # all of them at the start
        "<" * 150_001,
    ],
    ids=["even", "late", "early", "bare"],
)
def test_a_page_past_the_tag_cap_is_cut_before_its_last_allowed_tag(text):
    from common.tag_counts import MAX_TAGS, cap_tags

    out, total = cap_tags(text)
    assert total == text.count("<")
    assert text.startswith(out)
    assert out.count("<") == MAX_TAGS - 1
    assert text[len(out)] == "<"  # cut where a tag begins, never inside one


def test_tag_cap_on_bytes():
    from common.tag_counts import MAX_TAGS, cap_tags

    out, total = cap_tags(b"<b>" * (MAX_TAGS + 10))
    assert total == MAX_TAGS + 10
    assert out.count(b"<") == MAX_TAGS - 1


# -- start tags (pages whose tags are never closed) ----------------------------------------


@pytest.mark.parametrize("count", [49_999, 50_000, 50_001])
def test_start_tag_cap_at_its_boundary(count):
    from common.tag_counts import MAX_START_TAGS, cap_elements

    assert MAX_START_TAGS == 50_000  # man wf.1, LIMITS ON WORK AFTER THE BYTES ARRIVE
    text = "<li>a" * count + "end"
    out, total, starts = cap_elements(text)
    if count <= MAX_START_TAGS:
        assert (out, total, starts) == (text, 0, 0)
    else:
        assert (total, starts) == (count, count)
        assert out == "<li>a" * (MAX_START_TAGS - 1)


def test_end_tags_are_no_start_tags():
    from common.tag_counts import MAX_TAGS, cap_elements

    balanced = "<p>a</p>" * 49_000  # 98 000 "<", 49 000 start tags: within both caps
    assert cap_elements(balanced) == (balanced, 0, 0)
    # End tags alone make no element: only the tag cap cuts them.
    out, total, starts = cap_elements("</p>" * 160_000)
    assert (total, starts) == (160_000, 0) and out.count("<") == MAX_TAGS - 1


@pytest.mark.parametrize("kind", [str, bytes])
def test_start_tags_are_counted_exactly_across_chunks(kind):
    """End tags split between two of the counting chunks (a "<" at a chunk's end, its "/"
    at the next one's start) neither cut early nor late: the cut is the one a count tag
    by tag gives."""
    import random

    from common.tag_counts import MAX_START_TAGS, cap_elements

    rnd = random.Random(16)
    pieces = ["<b>", "</b>", "x", "<i>y", "</i>", "<!-- c -->", "zz"]
    text = "".join(rnd.choice(pieces) for _ in range(300_000))
    data = text if kind is str else text.encode()
    out, _, starts = cap_elements(data)
    lt, end = ("<", "</") if kind is str else (b"<", b"</")
    assert starts == data.count(lt) - data.count(end) > MAX_START_TAGS
    kept = out.count(lt) - out.count(end)
    assert kept == MAX_START_TAGS - 1
    assert data[len(out) : len(out) + 1] == lt[:1] and data[len(out) + 1 : len(out) + 2] != (
        "/" if kind is str else b"/"
    )


def test_the_note_names_the_start_tags():
    text, cut = limit("<html><body><ul>" + "<li>a" * 90_000)
    assert cut.notes() == ["the page has 90003 start tags; text extracted from the first 50000"]
    assert text.count("<li>") == 50_000 - 1 - 3


# -- attributes ----------------------------------------------------------------------------


def _tag(n: int, *, valued: bool = False, name: str = "p", width: int = 0) -> str:
    attrs = " ".join(f"a{i:0{width}}=1" if valued else f"a{i:0{width}}" for i in range(n))
    return f"<{name} {attrs}>"


def _attrs_of(tag_text: str) -> int:
    from lxml import etree

    root = etree.fromstring(tag_text, etree.HTMLParser())
    return max(len(el.attrib) for el in root.iter())


def test_an_ordinary_page_is_left_as_it_is():
    page = (
        "<html><body>"
        + "".join(
            f'<a href="/x/{i}" class="c{i} d" data-id="{i}" title="t {i}">link {i}</a>'
            for i in range(2000)
        )
        + _tag(MAX_ATTRIBUTES_PER_ELEMENT)
        + "</body></html>"
    )
    assert cap_attributes(page) == (page, 0, 0)


@pytest.mark.parametrize("valued", [False, True])
def test_one_element_keeps_exactly_the_per_element_cap(valued):
    # Names long enough for a tag of over 2 KB: shorter ones are never cut (see below).
    tag = _tag(MAX_ATTRIBUTES_PER_ELEMENT + 1, valued=valued, width=12)
    page = "<html><body>" + tag + "hello</body></html>"
    out, elements, dropped = cap_attributes(page)
    assert (elements, dropped) == (1, 1)
    assert _attrs_of(out) == MAX_ATTRIBUTES_PER_ELEMENT
    assert "hello" in out and f"a{MAX_ATTRIBUTES_PER_ELEMENT - 1:012}" in out
    assert f"a{MAX_ATTRIBUTES_PER_ELEMENT:012}" not in out


def test_a_tag_shorter_than_a_window_is_never_cut():
    # Under 1 KB a tag holds under 512 attributes, which cost libxml2 next to nothing.
    page = _tag(400) + "x"
    assert len(page) < 2 * 1024 and cap_attributes(page) == (page, 0, 0)


def test_attributes_without_white_space_between_them_are_counted():
    # libxml2 reads a="1"b="2" as two attributes: "=" counts as well as white space.
    attrs = "".join(f'a{i}=""' for i in range(40_000))
    out, elements, dropped = cap_attributes(f"<p {attrs}>x</p>")
    assert elements == 1 and dropped == 40_000 - MAX_ATTRIBUTES_PER_ELEMENT
    assert _attrs_of(out) == MAX_ATTRIBUTES_PER_ELEMENT


def test_the_total_is_capped_across_elements():
    per = 100
    count = MAX_ATTRIBUTES // per + 50
    padding = "<p>" + "x" * COUNTED_FROM + "</p>"  # counted only on a page this long
    page = "".join(_tag(per, name="i") + "t</i>" for _ in range(count)) + padding
    out, elements, dropped = cap_attributes(page)
    assert dropped == count * per - MAX_ATTRIBUTES
    kept = sum(len(t.split()) - 1 for t in re.findall(r"<i[^>]*>", out))
    assert kept == MAX_ATTRIBUTES
    assert out.count("t</i>") == count  # the text stays


def test_a_page_under_the_counted_size_keeps_its_attributes():
    # Under COUNTED_FROM characters a page holds at most about 60 MB of attributes.
    page = "".join(_tag(100, name="i") + "t</i>" for _ in range(MAX_ATTRIBUTES // 100 + 50))
    assert len(page) < COUNTED_FROM
    assert cap_attributes(page) == (page, 0, 0)


def test_utf8_is_counted_as_long_as_the_text_it_encodes():
    # wf checks the limits on a page's UTF-8 (wf/extract/source.py): a page under
    # COUNTED_FROM characters whose UTF-8 is longer keeps its attributes, as its text does.
    attrs = "".join(_tag(100, name="i") + "t</i>" for _ in range(MAX_ATTRIBUTES // 100 + 50))
    text = attrs + "<p>" + "\u00e9" * (COUNTED_FROM - len(attrs) - 10) + "</p>"
    data = text.encode()
    assert len(text) <= COUNTED_FROM < len(data)
    assert cap_attributes(text) == (text, 0, 0)
    assert cap_attributes(data, len(text)) == (data, 0, 0)
    assert limit(data, len(text)) == (data, parse_limits.Cut())


def test_bytes_as_well_as_text():
    page = _tag(1000).encode() + b"x"
    out, elements, dropped = cap_attributes(page)
    assert isinstance(out, bytes) and (elements, dropped) == (1, 1000 - MAX_ATTRIBUTES_PER_ELEMENT)


def test_a_long_tag_of_few_attributes_is_kept():
    srcset = ", ".join(f"/img/{i}.jpg {i}w" for i in range(60))
    page = f'<img src="/a.jpg" srcset="{srcset}" alt="x">'
    assert cap_attributes(page) == (page, 0, 0)


def test_limit_says_what_it_cut_and_can_be_turned_off_for_tests(monkeypatch):
    page = _tag(500) + "x"
    out, cut = limit(page)
    assert cut.attributes == 500 - MAX_ATTRIBUTES_PER_ELEMENT and cut.elements == 1
    assert cut.notes() == [
        f"{500 - MAX_ATTRIBUTES_PER_ELEMENT} attributes dropped from 1 element (at most "
        f"{MAX_ATTRIBUTES_PER_ELEMENT} an element and {MAX_ATTRIBUTES} a page are parsed)"
    ]
    monkeypatch.setenv(parse_limits.OFF_ENV, "1")
    assert limit(page) == (page, parse_limits.Cut())


def test_unclosed_tags_and_stray_brackets_scan_in_linear_time():
    import time

    for page in ("<p " + "a " * 500_000, "<" * 1_000_000, "<p" + ' a="' * 200_000):
        start = time.process_time()
        cap_attributes(page)
        assert time.process_time() - start < 2.0


def test_a_long_page_of_many_small_tags_is_capped_in_total():
    # Over COUNTED_FROM characters, every tag's attributes are counted.
    page = "".join(f"<b x{i % 7} y>t</b>" for i in range(MAX_ATTRIBUTES))
    page += "<p>" + "x" * COUNTED_FROM + "</p>"
    out, elements, dropped = cap_attributes(page)
    assert dropped == 2 * MAX_ATTRIBUTES - MAX_ATTRIBUTES
    assert elements == MAX_ATTRIBUTES // 2


def test_script_text_that_looks_like_tags_is_not_touched():
    script = "<script>for(i=0;i<n.length;i++){" + "var x=1;" * 400 + "}</script>"
    long_page = script * 40 + "<p>" + "word " * 50_000 + "</p>"
    long_page += "<p>" + "x" * COUNTED_FROM + "</p>"
    assert len(long_page) > COUNTED_FROM
    assert cap_attributes(long_page) == (long_page, 0, 0)
    assert cap_attributes(script) == (script, 0, 0)


# -- issue 16: each documented bound at its boundary ----------------------------------------


@pytest.mark.parametrize("count", [149_999, 150_000, 150_001])
def test_tag_cap_at_its_boundary(count):
    from common.tag_counts import MAX_TAGS, cap_tags

    assert MAX_TAGS == 150_000  # man wf.1, LIMITS ON WORK AFTER THE BYTES ARRIVE
    text = "<i>" * count + "end"
    out, total = cap_tags(text)
    if count <= MAX_TAGS:
        assert (out, total) == (text, 0)
    else:
        assert total == count and out == "<i>" * (MAX_TAGS - 1)


@pytest.mark.parametrize(("count", "dropped"), [(255, 0), (256, 0), (257, 1)])
def test_per_element_attribute_cap_at_its_boundary(count, dropped):
    assert MAX_ATTRIBUTES_PER_ELEMENT == 256
    tag = _tag(count, width=20)  # a start tag longer than the part read ahead (4 KB)
    assert len(tag) > 4096
    page = f"<html><body>{tag}hello</p></body></html>"
    out, elements, cut = cap_attributes(page)
    assert (elements, cut) == ((1, dropped) if dropped else (0, 0))
    assert _attrs_of(out) == min(count, 256)
    assert "hello" in out


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_page_attribute_cap_at_its_boundary(extra):
    assert MAX_ATTRIBUTES == 100_000
    per = 100
    tags = [_tag(per, name="i") + "t</i>" for _ in range(MAX_ATTRIBUTES // per)]
    if extra < 0:
        tags[-1] = _tag(per - 1, name="i") + "t</i>"
    elif extra > 0:
        tags.append(_tag(extra, name="i") + "t</i>")
    padding = "<p>" + "x" * COUNTED_FROM + "</p>"
    page = "".join(tags) + padding
    out, _elements, dropped = cap_attributes(page)
    assert dropped == max(extra, 0)
    kept = sum(len(t.split()) - 1 for t in re.findall(r"<i[^>]*>", out))
    assert kept == MAX_ATTRIBUTES + min(extra, 0)


@pytest.mark.parametrize(("size", "counted"), [(COUNTED_FROM, False), (COUNTED_FROM + 1, True)])
def test_attributes_are_counted_from_their_page_size(size, counted):
    # MAX_ATTRIBUTES + 100 short attributes, padded to exactly ``size`` characters.
    tags = "".join(_tag(100, name="i") + "t</i>" for _ in range(MAX_ATTRIBUTES // 100 + 1))
    page = tags + "<p>" + "x" * (size - len(tags) - 7) + "</p>"
    assert len(page) == size
    out, _elements, dropped = cap_attributes(page)
    assert dropped == (100 if counted else 0)


def _long_tag_starts_one_window_at_a_time(text: str) -> list[int]:
    """_long_tag_starts as first written, a loop over the windows: the reference."""
    window = parse_limits._WINDOW
    out: list[int] = []
    last = checked = -1
    for start in range(0, len(text), window):
        end = min(start + window, len(text))
        at = text.rfind("<", start, end)
        if at >= 0:
            last = at
        elif last >= 0 and last != checked:
            checked = last
            if text.find(">", last, end) < 0:
                out.append(last)
    return out


@pytest.mark.parametrize("seed", range(20))
def test_long_tags_are_found_in_the_same_windows_as_by_a_loop(seed):
    import random

    rng = random.Random(seed)
    pieces = ("<", ">", "x", " a=1", "\n")
    sizes = (1, 5, 300, 1023, 1024, 1025, 2047, 2048, 3000)
    for _ in range(50):
        text = "".join(rng.choice(pieces) * rng.choice(sizes) for _ in range(rng.randint(0, 12)))
        expected = _long_tag_starts_one_window_at_a_time(text)
        assert parse_limits._long_tag_starts(text, "<", ">") == expected
        assert parse_limits._long_tag_starts(text.encode(), b"<", b">") == expected


@pytest.mark.parametrize(
    ("tag", "end"),
    [
        ('<p class="x">text', 12),  # at its ">"
        ("<p a<b c=1>", 4),  # at a "<", as the scan of long tags reads a tag
        ("<p " + "a=1 " * 2000, 2 + parse_limits._HEAD),  # capped, with no "<" or ">"
        ("<p a=1 b=2", 10),  # at the end of the page
    ],
)
def test_a_long_tags_first_part_ends_at_its_first_angle_bracket_or_the_cap(tag: str, end: int):
    # The text after the name that the short page's check reads: up to the first "<"
    # or ">", at most _HEAD characters, as str and as bytes alike.
    for text in (tag, tag.encode()):
        p = parse_limits._p(type(text))
        m = p.name.match(text, 0)
        assert m is not None and m.end() == 2
        assert parse_limits._head_end(text, m.end(), p) == end
