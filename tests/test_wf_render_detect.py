"""When wf renders: the JavaScript-shell heuristic, __NEXT_DATA__ recovery."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wf.extract import extract_text
from wf.render import looks_like_js_shell, recover_next_data
from wf.render.detect import shell_signals

FIXTURES = Path(__file__).parent / "fixtures" / "render"
PAD = "<script>" + "var x = 1;\n" * 250 + "</script>"  # 2750 bytes of script


def shell(body: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>App</title>{head}</head><body>{body}{PAD}</body></html>"
    )


@pytest.mark.parametrize(
    "body",
    [
        '<div id="root"></div>',
        "<div id='app'>  </div>",
        '<div id="__next"><!-- server rendered nothing --></div>',
        '<div id="___gatsby"></div>',
        '<main id="q-app"></main>',
        "<noscript>You need to enable JavaScript to run this app.</noscript>",
        "<noscript><p>This site requires JavaScript.</p></noscript>",
        '<div data-reactroot=""></div>',
        '<app-root ng-version="17.0.0"></app-root>',
        '<div id="x" data-v-app></div>',
        "<script>window.__NUXT__={}</script>",
        '<div data-sveltekit-preload-data="hover"></div>',
        '<script src="flutter_bootstrap.js"></script>',
        "<script>window.__remixContext = {};</script>",
        '<script id="__NEXT_DATA__" type="application/json">{}</script>',
    ],
)
def test_a_big_quiet_page_with_a_signal_is_a_shell(body: str) -> None:
    html = shell(body)
    assert looks_like_js_shell(html, extract_text(html))


def test_no_signal_no_render() -> None:
    html = shell('<div id="content"></div>')
    assert extract_text(html) == "" or len(extract_text(html)) < 400
    assert not looks_like_js_shell(html, extract_text(html))


def test_a_small_page_is_not_a_shell_even_with_a_signal() -> None:
    html = '<html><body><div id="root"></div><script src="a.js"></script></body></html>'
    assert len(html) < 2000
    assert not looks_like_js_shell(html, "")


def test_a_page_with_text_is_not_a_shell() -> None:
    text = "A real article paragraph with enough words to read. " * 10
    html = shell(f'<div id="root"></div><article><p>{text}</p></article>')
    assert len(extract_text(html).encode()) >= 400
    assert not looks_like_js_shell(html, extract_text(html))


def test_thresholds_are_in_bytes() -> None:
    # 150 characters of Greek are 300 bytes (under 400): still a shell.
    html = shell('<div id="root"></div><p>' + "αβγ" * 50 + "</p>")
    assert looks_like_js_shell(html, "αβγ" * 50)
    # 200 characters of Greek are 400 bytes: no longer "under 400 bytes".
    assert not looks_like_js_shell(html, "αβ" * 100)
    # 700 characters of three bytes each: under 2000 characters, over 2000 bytes.
    raw = '<div id="root"></div><!--' + "€" * 700 + "-->"
    assert len(raw) < 2000 < len(raw.encode())
    assert looks_like_js_shell(raw, "")


def test_a_mount_point_with_content_is_no_signal() -> None:
    html = shell('<div id="root"><p>Server-rendered.</p></div>')
    assert "empty mount point" not in shell_signals(html)
    assert shell_signals(shell('<div id="rooted"></div>')) == []


def test_noscript_without_a_request_for_javascript_is_no_signal() -> None:
    html = shell('<noscript><img src="pixel.gif"></noscript>')
    assert shell_signals(html) == []


@pytest.mark.parametrize(
    "hostile",
    [
        "<noscript>" * 10_000,  # no end tag: each one read on to the end of the page
        '<div id="' * 10_000,  # attributes that ran on past "<" into the next tags
        '<div id="root"><!--' * 10_000,  # comments without an end
    ],
)
def test_signals_cost_linear_time_on_hostile_pages(hostile: str) -> None:
    # Milliseconds now; 6, 19 and 9 s each before (quadratic), and wf runs
    # this on every page with little text, --render never included.
    start = time.process_time()
    assert looks_like_js_shell(hostile, "") in (True, False)
    assert time.process_time() - start < 2


def test_the_fixture_spa_is_detected() -> None:
    for name in ("spa.html", "spa_fetch.html"):
        html = (FIXTURES / name).read_text()
        assert looks_like_js_shell(html, extract_text(html)), name


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=5000), st.text(max_size=600))
def test_never_raises(raw: str, text: str) -> None:
    assert looks_like_js_shell(raw, text) in (True, False)
    assert recover_next_data(raw) is None or isinstance(recover_next_data(raw), str)


# ---------------------------------------------------------------- __NEXT_DATA__


def next_page(data: object) -> str:
    return shell(
        f'<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>'
    )


def test_next_data_page_props_are_recovered_pretty() -> None:
    data = {
        "props": {"pageProps": {"title": "Ünïcode title", "items": [1, 2]}},
        "page": "/",
        "buildId": "x",
    }
    text = recover_next_data(next_page(data))
    assert text is not None
    assert json.loads(text) == {"title": "Ünïcode title", "items": [1, 2]}
    assert "Ünïcode" in text and '\n  "items"' in text


def test_next_data_without_page_props_is_returned_whole() -> None:
    data = {"props": {"pageProps": {}}, "page": "/x", "query": {"q": "1"}}
    assert json.loads(recover_next_data(next_page(data)) or "") == data


def test_next_data_is_capped_at_a_line_end() -> None:
    data = {"props": {"pageProps": {"rows": [f"row number {i}" for i in range(5000)]}}}
    text = recover_next_data(next_page(data), cap=1000)
    assert text is not None
    head, last = text.rsplit("\n", 1)
    assert len(head) <= 1000
    assert last.startswith("... (cut at ") and "characters)" in last
    assert head.endswith('",')  # whole lines only


@pytest.mark.parametrize(
    "html",
    [
        shell('<div id="root"></div>'),
        shell('<script id="__NEXT_DATA__" type="application/json">{not json</script>'),
    ],
)
def test_no_next_data(html: str) -> None:
    assert recover_next_data(html) is None


# ------------------------------------------------ issue 16: the thresholds at their boundaries


def sized_shell(size: int, filler: str = "x") -> str:
    """An empty mount point padded with a comment to exactly ``size`` bytes of UTF-8."""
    head = '<div id="root"></div><!--'
    room = size - len(head.encode()) - len("-->")
    per = len(filler.encode())
    assert room % per == 0
    html = head + filler * (room // per) + "-->"
    assert len(html.encode()) == size
    return html


@pytest.mark.parametrize(("size", "shell"), [(1999, False), (2000, True), (2001, True)])
def test_html_size_threshold_at_its_boundary(size: int, shell: bool) -> None:
    """man wf.1: "at least 2000 bytes of HTML"."""
    assert looks_like_js_shell(sized_shell(size), "") is shell


@pytest.mark.parametrize(("size", "shell"), [(1996, False), (2000, True), (2004, True)])
def test_html_size_threshold_counts_four_byte_characters(size: int, shell: bool) -> None:
    # 2000 bytes of four-byte characters are 500 characters plus the markup: the quick
    # check on characters must not turn such a page away.
    html = sized_shell(size - 24, "\U0001f600") + "x" * 24
    assert len(html.encode()) == size
    assert looks_like_js_shell(html, "") is shell


@pytest.mark.parametrize(("size", "shell"), [(399, True), (400, False), (401, False)])
def test_text_size_threshold_at_its_boundary(size: int, shell: bool) -> None:
    """man wf.1: "whose extracted text is under 400 bytes"."""
    assert looks_like_js_shell(sized_shell(3000), "t" * size) is shell


@pytest.mark.parametrize("past", [False, True])
def test_the_render_decision_asks_the_deadline_during_the_shell_check(past: bool) -> None:
    # Past the deadline the check answers no and no browser is asked for; before it, the
    # same page is a shell and the browser is asked for (here it refuses, as a test's
    # stand-in, which leaves the static text with a note).
    from common.errors import RenderError
    from wf.extract import extract
    from wf.options import make_options
    from wf.render.decide import maybe_render
    from wf.view import PageResult

    html = shell('<div id="root"></div>')
    asked: list[str] = []

    class Browser:
        def get(self) -> None:
            asked.append("browser")
            raise RenderError("no browser in this test")

    static = extract(html)
    deadline = time.monotonic() + (-1.0 if past else 60.0)
    page = PageResult(url="https://app.example/")
    result = maybe_render(
        page, lambda: html, static, make_options({}), log=lambda line: None,
        browser=Browser(), deadline=deadline,  # type: ignore[arg-type]
    )  # fmt: skip
    assert result is static
    assert asked == ([] if past else ["browser"])
