"""How many copies of a big page wf holds at once. One astral character makes Python hold
every character of a str in four bytes, so 10 MB of ASCII and one emoji is 40 MB a copy:
the page goes to libxml2 as its UTF-8 bytes (no str of it), a huge text node is let go
before its collapsed text is joined, and a page's str is made only when asked for.
Python's allocations are measured with tracemalloc (libxml2's own are not in it)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wf.extract import extract
from wf.extract.markdown import MarkdownWriter
from wf.extract.spaces import CHUNK as _CHUNK
from wf.extract.spaces import collapse

MB = 1 << 20
EMOJI = "\U0001f600"


def _peak(work: Callable[[], Any]) -> int:
    """Python's peak allocation while ``work`` runs, above what was allocated before."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        work()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "parts",
    [
        ["a b  c\n d"],
        ["  ", "\n"],
        ["a " * _CHUNK + EMOJI],
        ["\n   " + "word \n " * (_CHUNK // 3) + EMOJI + "  \n"],
        [" \u00a0 ", "x" * (2 * _CHUNK), " \u00a0\t"],
        [" " * (_CHUNK + 5), "tail  "],
        ["line one " * (_CHUNK // 4), "\x00", "  line two \u00e9  ", "\x00", "\x00"],
        ["a\u00adb " * (_CHUNK // 2), "\u200b" + EMOJI],
    ],
    ids=["short", "space", "long", "long-spaced", "nbsp-edges", "blank-start", "br", "policy"],
)
def test_a_run_collapses_as_its_parts_joined(parts):
    from wf.extract.spaces import collapse_run

    expected = collapse("".join(parts))
    given = list(parts)
    assert collapse_run(given) == expected
    assert given == []


def _page(chars: int) -> bytes:
    return b"<html><body><p>\n  " + b"a " * (chars // 2) + EMOJI.encode() + b"\n</p></body></html>"


def test_a_huge_text_node_is_held_once_while_its_text_is_written():
    from lxml import etree

    root = etree.fromstring(_page(2 * MB), etree.HTMLParser(encoding="utf-8"))
    node = 4 * 2 * MB  # the node's str: four bytes a character
    writer = MarkdownWriter()
    peak = _peak(lambda: writer.write(root))
    assert writer.text().endswith("a a " + EMOJI)
    # The node with the collapsed pieces (a quarter of it: they are ASCII) and a chunk's
    # work, then the text: about twice the node. Holding the node and the text at once
    # made it three times.
    assert peak < 2.5 * node, f"{peak / MB:.1f} MB traced for a node of {node / MB:.0f} MB"


def test_a_big_utf8_page_is_parsed_from_its_bytes():
    body = _page(2 * MB)
    assert extract(body).text == extract(body.decode()).text
    page = 4 * 2 * MB  # the page's str
    peak = _peak(lambda: extract(body))
    # As above: no str of the page besides the text node (four times the page's size
    # with a str of the page and the node and the text held at once).
    assert peak < 2.5 * page, f"{peak / MB:.1f} MB traced for a page of {page / MB:.0f} MB"


@pytest.mark.parametrize(
    "body",
    [
        b"<p>" + b"x &amp; y <br> z  " * 200_000 + "\u00e9".encode(),
        b"<p>a\x01b\x0c" + b"c \x00d " * 300_000,  # controls, NUL
        b"<div>" * 700 + b"deep " * 300_000,  # deeper than libxml2 goes
    ],
    ids=["entities-and-breaks", "controls", "deep"],
)
def test_big_bytes_and_their_str_give_the_same_text(body):
    assert len(body) > 1_000_000
    assert extract(body).text == extract(body.decode()).text


def test_the_html_str_is_made_once_and_replaces_the_bytes():
    from wf.pipeline import Html

    html = Html("<p>\U0001f600</p>".encode())
    text = html.text()
    assert text == "<p>\U0001f600</p>" and html.data is text and html.text() is text
    assert Html("<p>x</p>").text() == "<p>x</p>"


# ---------------------------------------------------------------- lines without the list

LINE_TEXT = st.text(alphabet="ab \n\U0001f600\u0301", max_size=40)


@given(text=LINE_TEXT, limit=st.integers(0, 45))
@settings(max_examples=300, deadline=None)
def test_the_preview_from_the_head_is_the_preview_from_every_line(text, limit):
    from wf import lines
    from wf.shown import _head, _line_count, _utf8_size

    every = lines.split_lines(text)
    assert _line_count(text) == len(every)
    assert _utf8_size(text) == len(text.encode())
    head = _head(text, limit)
    want = lines.page_lines(every, 1 if every else None, limit)
    got = lines.page_lines(head, 1 if head else None, limit)
    assert (got.lines, got.first, got.last, got.partial) == (
        want.lines,
        want.first,
        want.last,
        want.partial,
    )
    assert got.cut_from == want.cut_from


@given(text=LINE_TEXT, max_length=st.integers(0, 45), autosave=st.integers(1, 60))
@settings(max_examples=300, deadline=None)
def test_a_page_shown_whole_is_what_the_line_pipeline_gives(
    tmp_path_factory, text, max_length, autosave
):
    from wf import lines
    from wf.options import WfFlags, make_options
    from wf.shown import apply_lines
    from wf.view import PageResult

    scratch = tmp_path_factory.mktemp("scratch")
    env = {"WF_SCRATCH_DIR": str(scratch), "WF_AUTOSAVE_BYTES": str(autosave)}
    page = PageResult(url="u")
    apply_lines(page, text, make_options(env, WfFlags(max_length=max_length)))
    every = lines.split_lines(text)
    assert page.total == len(every)
    if page.saved_to:  # auto-saved: a preview of the first lines
        limit = min(lines_preview_chars(), max_length)
        shown = lines.page_lines(every, 1 if every else None, limit)
        matched = len(every)
    else:
        sel = lines.select_lines(every)
        shown = lines.page_lines(sel.lines, sel.first, max_length)
        matched = sel.matched
        assert page.truncated == (shown.last != sel.last or shown.partial)
    assert (page.text, page.matched, page.first, page.last, page.partial) == (
        "\n".join(shown.lines),
        matched,
        shown.first,
        shown.last,
        shown.partial,
    )


def lines_preview_chars() -> int:
    from wf.options import PREVIEW_CHARS

    return PREVIEW_CHARS
