"""ws -n beyond one page and --page N: every engine that has a next page, served by a local
engine that numbers its results by page (DuckDuckGo html and lite, Brave, Mojeek,
SearxNG), reached through the endpoint variables. Also the lite backend end to end."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.helpers import WS_FIXTURES, invoke
from tests.servers import http_response

HTML = "text/html; charset=utf-8"
# Each engine's page size as the real one has it (DuckDuckGo: 10 first, 15 after).
SIZES = {"duckduckgo": (10, 15), "duckduckgo-lite": (10, 15), "brave": (20, 20)}
SIZES |= {"mojeek": (10, 10), "searxng": (10, 10)}
VARIABLES = {
    "duckduckgo": "WS_DUCKDUCKGO_URL",
    "duckduckgo-lite": "WS_DUCKDUCKGO_LITE_URL",
    "brave": "WS_BRAVE_URL",
    "mojeek": "WS_MOJEEK_URL",
    "searxng": "SEARXNG_URL",
}
LAST_PAGE = 4


def _url(page: int, i: int) -> str:
    return f"https://site{page}.example/r{i}"


def _items(engine: str, page: int) -> list[tuple[str, str]]:
    """(url, title) of a page; each page after the first repeats the previous page's last
    result first, as engines do when their offsets overlap."""
    first, later = SIZES[engine]
    n = first if page == 1 else later
    items = [(_url(page, i), f"Result {page}.{i}") for i in range(n)]
    if page > 1:
        before = first if page == 2 else later
        items[0] = (_url(page - 1, before - 1), "A repeat")
    return items


# -- each engine's markup, as small as its parser allows


def _ddg(page: int, query: str) -> bytes:
    rows = "".join(
        f'<div class="result results_links web-result"><h2 class="result__title">'
        f'<a class="result__a" href="{u}">{t}</a></h2>'
        f'<a class="result__snippet" href="{u}">About {t}.</a></div>'
        for u, t in _items("duckduckgo", page)
    )
    form = ""
    if page < LAST_PAGE:
        s = 10 + (page - 1) * 15
        form = (
            '<div class="nav-link"><form action="/html/" method="post">'
            '<input type="submit" class="btn btn--alt" value="Next" />'
            f'<input type="hidden" name="q" value="{query}" />'
            f'<input type="hidden" name="s" value="{s}" />'
            f'<input type="hidden" name="dc" value="{s + 1}" />'
            f'<input type="hidden" name="vqd" value="4-token-{page}" />'
            "</form></div>"
        )
    return f'<html><body><div id="links" class="results">{rows}</div>{form}</body></html>'.encode()


def _lite(page: int, query: str) -> bytes:
    rows = "".join(
        f'<tr><td valign="top">{i + 1}.&nbsp;</td><td><a rel="nofollow" href="{u}" '
        f"class='result-link'>{t}</a></td></tr>"
        f"<tr><td>&nbsp;</td><td class='result-snippet'>About {t}.</td></tr>"
        f"<tr><td>&nbsp;</td><td><span class='link-text'>{urlsplit(u).hostname}</span></td></tr>"
        "<tr><td>&nbsp;</td><td>&nbsp;</td></tr>"
        for i, (u, t) in enumerate(_items("duckduckgo-lite", page))
    )
    form = ""
    if page < LAST_PAGE:
        s = 10 + (page - 1) * 15
        form = (
            '<table><tr><td><form action="/lite/" method="post">'
            '<input type="submit" class=\'navbutton\' value="Next Page &gt;">'
            f'<input type="hidden" name="q" value="{query}">'
            f'<input type="hidden" name="s" value="{s}">'
            f'<input type="hidden" name="dc" value="{s + 1}">'
            f'<input type="hidden" name="vqd" value="4-token-{page}">'
            "</form></td></tr></table>"
        )
    return (
        f'<html><body><div class="filters"><table border="0">{rows}</table>{form}</div>'
        "</body></html>"
    ).encode()


def _brave(page: int, query: str) -> bytes:
    rows = "".join(
        f'<div class="snippet" data-pos="{i}" data-type="web"><a href="{u}">'
        f'<div class="title">{t}</div></a><div class="content">About {t}.</div></div>'
        for i, (u, t) in enumerate(_items("brave", page))
    )
    nav = ""
    if page < LAST_PAGE:
        nav = (
            f'<div id="pagination"><a href="/search?q=x&amp;offset={page}&amp;spellcheck=0"'
            ' class="button"><span>Next</span></a></div>'
        )
    return f'<html><body><main><div id="results">{rows}</div>{nav}</main></body></html>'.encode()


def _mojeek(page: int, query: str) -> bytes:
    rows = "".join(
        f'<li><h2><a href="{u}">{t}</a></h2><p class="s">About {t}.</p></li>'
        for u, t in _items("mojeek", page)
    )
    nav = ""
    if page < LAST_PAGE:
        nav = f'<div class="pagination"><ul><li><a href="/search?q=x&amp;s={page * 10 + 1}">Next</a></li></ul></div>'
    return f'<html><body><ul class="results-standard">{rows}</ul>{nav}</body></html>'.encode()


def _searxng(page: int, query: str) -> bytes:
    if page > LAST_PAGE:
        return json.dumps({"query": query, "results": []}).encode()
    results = [{"url": u, "title": t, "content": f"About {t}."} for u, t in _items("searxng", page)]
    return json.dumps({"query": query, "results": results}).encode()


MARKUP: dict[str, Callable[[int, str], bytes]] = {
    "duckduckgo": _ddg,
    "duckduckgo-lite": _lite,
    "brave": _brave,
    "mojeek": _mojeek,
    "searxng": _searxng,
}


def _params(request: bytes) -> dict[str, str]:
    head, _, body = request.partition(b"\r\n\r\n")
    target = head.split(b" ", 2)[1].decode()
    params = dict(parse_qsl(urlsplit(target).query, keep_blank_values=True))
    if head.startswith(b"POST"):
        params.update(parse_qsl(body.decode(), keep_blank_values=True))
    return params


def page_of(engine: str, params: dict[str, str]) -> int:
    """The page a request asks for, in each engine's own terms."""
    if engine in ("duckduckgo", "duckduckgo-lite"):
        s = int(params.get("s") or 0)
        return 1 if s == 0 else 2 + (s - 10) // 15
    if engine == "brave":
        return int(params.get("offset") or 0) + 1
    if engine == "mojeek":
        return (int(params.get("s") or 1) - 1) // 10 + 1
    return int(params.get("pageno") or 1)


class PagedEngine:
    """One engine on a local server; ``fail_page`` answers that page with a block."""

    def __init__(
        self,
        serve: Callable,
        engine: str,
        fail_page: int | None = None,
        drop_page: int | None = None,
    ) -> None:
        self.engine = engine
        self.fail_page = fail_page
        self.drop_page = drop_page
        self.srv = serve(self._handle)

    def _handle(self, conn: socket.socket, request: bytes) -> None:
        params = _params(request)
        page = page_of(self.engine, params)
        if page == self.drop_page:
            return  # the connection closes without an answer
        if page == self.fail_page:
            conn.sendall(http_response(429, b"slow down", {"Content-Type": "text/plain"}))
            return
        ctype = "application/json" if self.engine == "searxng" else HTML
        body = MARKUP[self.engine](page, params.get("q", ""))
        conn.sendall(http_response(200, body, {"Content-Type": ctype}))

    @property
    def asked(self) -> list[dict[str, str]]:
        return [_params(r) for r in self.srv.requests]

    def ws(self, *args: str) -> dict:
        env = {VARIABLES[self.engine]: self.srv.url.rstrip("/") + "/search"}
        r = invoke("ws", ["paging test", "--provider", self.engine, "--json", *args], env=env)
        assert r.code == 0, r.stderr
        return json.loads(r.stdout)


ENGINES = list(MARKUP)


@pytest.mark.parametrize("engine", ENGINES)
def test_thirty_results_walk_the_pages_with_duplicates_dropped(serve, engine):
    paged = PagedEngine(serve, engine)
    doc = paged.ws("-n", "30")
    urls = [r["url"] for r in doc["results"]]
    assert len(urls) == 30 and len(set(urls)) == 30
    assert [r["rank"] for r in doc["results"]] == list(range(1, 31))
    # In the engine's order, page after page; each page's repeat of the one before is gone.
    first, later = SIZES[engine]
    expected = [u for page in range(1, LAST_PAGE + 1) for u, _ in _items(engine, page)]
    expected = list(dict.fromkeys(expected))[:30]
    assert urls == expected
    pages = [page_of(engine, p) for p in paged.asked]
    needed = 1 + -(-(30 - first) // (later - 1))  # later pages bring one repeat each
    assert pages == list(range(1, needed + 1))
    assert doc["attempts"][0]["message"] == "HTTP 200, 30 results"


@pytest.mark.parametrize("engine", ["duckduckgo", "duckduckgo-lite"])
def test_duckduckgo_follows_the_pages_own_next_form(serve, engine):
    paged = PagedEngine(serve, engine)
    paged.ws("-n", "30")
    first, second, third = paged.asked
    assert first.get("b") == "" and "vqd" not in first
    assert (second["s"], second["dc"], second["vqd"]) == ("10", "11", "4-token-1")
    assert (third["s"], third["vqd"]) == ("25", "4-token-2")
    # Our own terms win over the form's echo of them.
    assert second["q"] == "paging test" and second["kl"] == "wt-wt"


@pytest.mark.parametrize(
    ("engine", "param", "value"),
    [
        ("duckduckgo", "s", "25"),
        ("duckduckgo-lite", "s", "25"),
        ("brave", "offset", "2"),
        ("mojeek", "s", "21"),
        ("searxng", "pageno", "3"),
    ],
)
def test_page_n_starts_at_that_page(serve, engine, param, value):
    paged = PagedEngine(serve, engine)
    doc = paged.ws("--page", "3", "-n", "5")
    assert paged.asked[0][param] == value and len(paged.asked) == 1
    assert doc["results"][0]["url"] == _items(engine, 3)[0][0]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_first_page_with_enough_results_is_the_only_request(serve, engine):
    paged = PagedEngine(serve, engine)
    doc = paged.ws()
    assert len(doc["results"]) == 10 and len(paged.asked) == 1


def test_the_last_page_ends_the_walk(serve):
    paged = PagedEngine(serve, "mojeek")
    doc = paged.ws("-n", "100")
    # Four pages of 10, each later one repeating one result: 37, and no fifth request.
    assert len(doc["results"]) == 37
    assert [page_of("mojeek", p) for p in paged.asked] == [1, 2, 3, 4]


def test_a_blocked_later_page_keeps_the_results_so_far_with_a_note(serve):
    paged = PagedEngine(serve, "duckduckgo", fail_page=2)
    env = {"WS_DUCKDUCKGO_URL": paged.srv.url + "html/"}
    r = invoke("ws", ["paging test", "--provider", "duckduckgo", "-n", "30", "--urls"], env=env)
    assert r.code == 0 and len(r.stdout.splitlines()) == 10
    assert r.stderr == (
        "ws: duckduckgo: page 2: blocked (HTTP 429, rate limited); "
        "keeping the 10 results of the pages before\n"
    )


@pytest.mark.parametrize(("cancelled", "fused"), [(False, False), (True, False), (True, True)])
def test_a_later_page_lost_ends_the_walk_unless_the_attempt_was_cancelled(serve, cancelled, fused):
    import os

    from common.errors import ToolError
    from common.http.client import NetOptions
    from ws import paging
    from ws.backends import BY_NAME
    from ws.backends.base import Query
    from ws.config import make_options

    paged = PagedEngine(serve, "mojeek", drop_page=2)
    url = paged.srv.url + "search"
    environ = {**os.environ, "WS_MOJEEK_URL": url}
    engines = ("mojeek",) if fused else ()  # --engines mojeek: results fused, as --all's
    options = make_options("q", environ=environ, max_results=30, engines=engines)
    backend, query = BY_NAME["mojeek"], Query("q")
    net = NetOptions(policy=options.policy.with_hosts("127.0.0.1"))
    args = (backend, url, backend.build(query, url), query, options, net, time.monotonic() + 5)
    if cancelled and not fused:
        # Ended once page 2 was asked for: ended from the start, the walk would stop
        # reading page 1 (ws.backends.base.Stopped) and never ask for page 2.
        with pytest.raises(ToolError):
            paging.walk(*args, cancelled=lambda: len(paged.asked) >= 2)
    else:
        # Fused, the run ends an attempt only at the total deadline: page 1 is its answer.
        _, answer = paging.walk(*args, cancelled=lambda: cancelled and len(paged.asked) >= 2)
        assert len(answer.results) == 10 and answer.notes[0].startswith("page 2: ")
        stopped = "page 2: stopped at the total deadline; keeping the 10 results"
        assert answer.notes[0].startswith(stopped) == cancelled
        assert answer.cleaned is not None and len(answer.cleaned[0]) == 10
    assert len(paged.asked) == 2


def test_all_prints_page_1_when_the_deadline_stops_page_2_being_read(serve, monkeypatch, tmp_path):
    # ws --all (here --engines mojeek): page 2 has answered and is being read (its results
    # cleaned, held here until the run ends the attempt: 0.1 s past the total deadline).
    # Page 1's results were in hand: they are the engine's answer, with a note; a part of
    # the answer, which the result cache does not keep (a later run got it as the whole).
    import os
    import threading

    import ws
    from ws import results as results_module
    from ws.backends.base import Stopped, check_stop

    paged = PagedEngine(serve, "mojeek")
    page_2 = {url for url, _ in _items("mojeek", 2)} - {url for url, _ in _items("mojeek", 1)}
    real = results_module.url_key
    held: list[str] = []

    def slow(url, parts=None):  # type: ignore[no-untyped-def]
        if url in page_2 and threading.current_thread().name == "ws-mojeek" and not held:
            held.append(url)
            while True:  # until the run ends the attempt (Stopped), as a long read would be
                try:
                    check_stop()
                except Stopped:
                    break
                time.sleep(0.01)
        return real(url, parts)

    monkeypatch.setattr(results_module, "url_key", slow)
    found = ws.search(
        "paging test",
        engines="mojeek",
        max_results=30,
        timeout=1,
        environ={
            **os.environ,
            "WS_MOJEEK_URL": paged.srv.url + "search",
            "WS_CACHE_TTL": "600",  # on (conftest's WS_CACHE_DIR: tmp_path / "wscache")
        },
        allow_private=True,
    )
    assert held and [page_of("mojeek", p) for p in paged.asked] == [1, 2]
    assert not found.cached and not list((tmp_path / "wscache").rglob("*.json"))
    assert [r["url"] for r in found.document["results"]] == [u for u, _ in _items("mojeek", 1)]
    (attempt,) = found.document["attempts"]
    assert attempt["outcome"] == "ok"
    assert attempt["message"] == (
        "HTTP 200, 10 results; page 2: stopped at the total deadline; "
        "keeping the 10 results of the pages before"
    )


def test_a_bad_page_is_a_usage_error(serve):
    paged = PagedEngine(serve, "duckduckgo")
    r = invoke("ws", ["q", "--page", "0"], env={"WS_DUCKDUCKGO_URL": paged.srv.url})
    assert r.code == 2 and "--page" in r.stderr and paged.srv.requests == []


# ---------------------------------------------------------------- the lite backend end to end


def test_lite_answers_when_the_html_endpoint_is_blocked(serve):
    def handle(conn: socket.socket, request: bytes) -> None:
        if b" /html/" in request.split(b"\r\n", 1)[0]:
            body = (WS_FIXTURES / "ddg_anomaly.html").read_bytes()
            conn.sendall(http_response(202, body, {"Content-Type": HTML}))
        else:
            body = (WS_FIXTURES / "ddg_lite_results.html").read_bytes()
            conn.sendall(http_response(200, body, {"Content-Type": HTML}))

    srv = serve(handle)
    env = {"WS_DUCKDUCKGO_URL": srv.url + "html/", "WS_DUCKDUCKGO_LITE_URL": srv.url + "lite/"}
    r = invoke("ws", ["rust async", "-n", "3"], env=env)
    assert r.code == 0
    assert r.stderr == "ws: duckduckgo: blocked (HTTP 202, anomaly page)\n"
    assert r.stdout.splitlines()[0] == (
        'Search results for: "rust async" (via DuckDuckGo Lite, 3 results)'
    )
    lite = srv.requests[1]
    assert lite.startswith(b"POST /lite/ ") and b"q=rust+async" in lite


@pytest.mark.parametrize("fused", [False, True])
def test_each_result_is_cleaned_once(serve, monkeypatch, fused):
    # The walk cleans its pages' results to count them (ws.results.finalise); the chain
    # keeps -n of that list (ws.paging.kept) instead of a second pass over a hostile
    # page's thousands of results, one the run's stop could end after the walk.
    import os
    import threading

    import ws
    from ws import results as results_module

    paged = PagedEngine(serve, "mojeek")
    real = results_module.url_key
    seen: list[str] = []

    def counted(url, parts=None):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "ws-mojeek":
            seen.append(url)
        return real(url, parts)

    monkeypatch.setattr(results_module, "url_key", counted)
    which = {"engines": "mojeek"} if fused else {"provider": "mojeek"}
    found = ws.search(
        "paging test",
        max_results=15,
        environ={**os.environ, "WS_MOJEEK_URL": paged.srv.url + "search"},
        allow_private=True,
        use_cache=False,
        **which,
    )
    assert len(found.document["results"]) == 15 and len(paged.asked) == 2
    # Page 1's ten counted after page 1, then with page 2's ten: 30, each pass once.
    assert len(seen) == 30
