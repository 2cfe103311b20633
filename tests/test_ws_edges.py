"""ws as a demanding user meets it (review 25): hostile rows in an engine's page, option
values urllib cannot split, and the CLI's promises to scripts and agents. Engines are
played by servers on 127.0.0.1, reached through the endpoint variables."""

from __future__ import annotations

import pytest

from tests.helpers import assert_one_line_error, invoke
from tests.servers import respond
from ws.backends import BY_NAME
from ws.backends.base import Query

HTML = {"content-type": "text/html; charset=utf-8"}
# A href urllib.parse.urlsplit raises ValueError on: an IPv6 bracket never closed.
UNSPLITTABLE = "http://[bad/x"
DDG_ROW = (
    '<div class="result"><h2><a class="result__a" href="{href}">{title}</a></h2>'
    '<a class="result__snippet">about {title}</a></div>'
)
LITE_ROW = '<tr><td><a class="result-link" href="{href}">{title}</a></td></tr>'
ENDPOINTS = ("WS_DUCKDUCKGO_URL", "WS_DUCKDUCKGO_LITE_URL", "WS_BRAVE_URL", "WS_MOJEEK_URL")


def _point_all_at(monkeypatch, srv) -> None:
    # Every engine of the chain, so that no fallback ever leaves loopback.
    for var in ENDPOINTS:
        monkeypatch.setenv(var, srv.url)


def _page(rows: str) -> bytes:
    return f"<html><body>{rows}</body></html>".encode()


# ---------------------------------------------------------------- hostile rows


@pytest.mark.parametrize(
    "bad",
    [UNSPLITTABLE, "//duckduckgo.com/l/?uddg=http%3A%2F%2F%5Bbad%2F"],
    ids=["direct", "wrapped"],
)
@pytest.mark.parametrize(
    ("provider", "row"),
    [("duckduckgo", DDG_ROW), ("duckduckgo-lite", LITE_ROW)],
    ids=["html", "lite"],
)
def test_a_row_whose_link_urllib_cannot_split_is_dropped_alone(provider, row, bad):
    # One such row used to fail the whole attempt as an internal error ("this is a bug").
    body = _page(
        row.format(href=bad, title="Bad") + row.format(href="https://tokio.rs/", title="Tokio")
    )
    answer = BY_NAME[provider].classify(200, HTML, body, Query("tokio"))
    assert answer.outcome == "ok"
    assert [r.url for r in answer.results] == ["https://tokio.rs/"]


def test_a_mojeek_next_link_urllib_cannot_split_is_no_next_page():
    body = _page(
        '<ul class="results-standard"><li><h2><a href="https://tokio.rs/">Tokio</a></h2>'
        '<p class="s">async</p></li></ul>'
        f'<div class="pagination"><a href="{UNSPLITTABLE}?s=11">Next</a></div>'
    )
    answer = BY_NAME["mojeek"].classify(200, HTML, body, Query("tokio"))
    assert answer.outcome == "ok"
    assert answer.find_next() is None


def test_an_engine_page_with_an_unsplittable_link_still_gives_its_results(serve, monkeypatch):
    rows = DDG_ROW.format(href=UNSPLITTABLE, title="Bad") + DDG_ROW.format(
        href="https://tokio.rs/", title="Tokio"
    )
    srv = serve(respond(200, _page(rows), {"Content-Type": HTML["content-type"]}))
    _point_all_at(monkeypatch, srv)
    r = invoke("ws", ["tokio", "--provider", "duckduckgo", "--urls"])
    assert (r.code, r.stdout, r.stderr) == (0, "https://tokio.rs/\n", "")


@pytest.mark.parametrize("flag", ["--allow", "--block"])
def test_a_domain_urllib_cannot_split_is_a_usage_error(flag):
    r = invoke("ws", ["tokio", flag, UNSPLITTABLE])
    assert_one_line_error(r, 2, "is not a domain name", tool="ws")


# ---------------------------------------------------------------- the query


@pytest.mark.parametrize("query", ["\u200b", "\x1b", "\u202e\u2066", "\x1b \u200b"])
def test_a_query_of_only_invisible_characters_is_missing(serve, monkeypatch, query):
    # It cleans up to nothing: it was sent to the engines as an empty search, whose
    # answer was printed under 'Search results for: ""' with exit 0.
    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    r = invoke("ws", [query])
    assert_one_line_error(r, 2, "missing QUERY", tool="ws")
    assert (r.stdout, srv.requests) == ("", [])


def test_the_library_refuses_a_query_of_only_invisible_characters(serve, monkeypatch):
    import ws
    from ws.api import OptionError

    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    with pytest.raises(OptionError, match="missing QUERY"):
        ws.search("\u200b\x1b")
    assert srv.requests == []
