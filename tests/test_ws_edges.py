"""ws as a demanding user meets it (review 25): hostile rows in an engine's page, option
values urllib cannot split, and the CLI's promises to scripts and agents. Engines are
played by servers on 127.0.0.1, reached through the endpoint variables."""

from __future__ import annotations

import json

import pytest

from tests.helpers import WS_FIXTURES, assert_one_line_error, invoke
from tests.servers import respond

# engines and overdue are fixtures: pytest finds them by name in this module.
from tests.test_ws_cli import AT_THE_DEADLINE, _only, _options, engines, overdue  # noqa: F401
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


def test_a_query_longer_than_the_engines_take_is_a_usage_error(serve, monkeypatch):
    # 100 000 characters went out as URLs no engine takes: "every provider failed" (69).
    import ws
    from ws.api import OptionError
    from ws.config import QUERY_MAX

    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    r = invoke("ws", ["a" * (QUERY_MAX + 1)])
    assert_one_line_error(r, 2, f"QUERY is {QUERY_MAX + 1} characters long", tool="ws")
    with pytest.raises(OptionError, match="characters long"):
        ws.search("b " * QUERY_MAX)
    assert (r.stdout, srv.requests) == ("", [])
    assert invoke("ws", ["a" * QUERY_MAX]).code == 0  # at the bound: asked


# ---------------------------------------------------------------- work after the bytes
# Work is counted (bytes searched, subtrees read, snippets looked for), never timed.


class _CountedBytes(bytes):
    """A page whose find() and rfind() count the bytes they search."""

    searched = 0

    def find(self, sub, start=None, end=None):  # type: ignore[no-untyped-def,override]
        start = start or 0
        end = len(self) if end is None else end
        end = end + len(self) if end < 0 else end
        at = bytes.find(self, sub, start, end)
        _CountedBytes.searched += max(0, (at if at >= 0 else end) - start)
        return at

    def rfind(self, sub, start=None, end=None):  # type: ignore[no-untyped-def,override]
        start = start or 0
        end = len(self) if end is None else end
        at = bytes.rfind(self, sub, start, end)
        _CountedBytes.searched += max(0, end - (at if at >= 0 else start))
        return at


@pytest.mark.parametrize(
    "blocks",
    [
        # data-pos in tags that never close: each block's search for its data-type ran to
        # the end of the page.
        b'<div data-pos="1" ' * 4000 + b' data-type="web" ',
        # data-pos many times over in one tag: each looked back for the tag's opening.
        b"<div " + b'data-pos="1" ' * 4000 + b' data-type="web">',
    ],
    ids=["unclosed-tags", "one-tag"],
)
def test_brave_reads_its_result_blocks_in_one_pass(blocks):
    from ws.backends import brave

    body = _CountedBytes(b"<html><body><main>" + blocks + b"</main></body></html>")
    _CountedBytes.searched = 0
    brave._web_blocks(body, body.find(b"<main"), body.find(b"</main>"))
    # Quadratic, this was about 2000 times the page.
    assert _CountedBytes.searched <= 8 * len(body), (_CountedBytes.searched, len(body))


def test_lite_looks_for_each_rows_snippet_once(monkeypatch):
    from ws.backends import duckduckgo_lite as lite

    n = 300
    links = "".join(
        f'<td><a class="result-link" href="https://a.example/{i}">A{i}</a></td>' for i in range(n)
    )
    body = f"<table><tr>{links}</tr><tr><td>{'<b>x</b>' * n}</td></tr></table>"
    asked = []
    real = lite._snippet
    monkeypatch.setattr(lite, "_snippet", lambda row: asked.append(row) or real(row))
    answer = BY_NAME["duckduckgo-lite"].classify(200, HTML, _page(body), Query("a"))
    assert len(answer.results) == n
    # One row of links: its snippet (and the tags of the rows after it) read once, not
    # once per link.
    assert len(asked) == 1


def test_rows_nested_in_rows_are_read_once(monkeypatch):
    from ws.backends import html

    depth, filler = 200, 2000
    body = _page(
        '<div class="result">' * depth
        + "<b>x</b>" * filler
        + '<a class="result__a" href="https://tokio.rs/">Tokio</a>'
        + "</div>" * depth
    )
    read = [0]
    real = html.xpath

    def counted(expr):  # type: ignore[no-untyped-def]
        find = real(expr)

        def run(node):  # type: ignore[no-untyped-def]
            if not expr.startswith("//"):  # a row's own search, through its subtree
                read[0] += sum(1 for _ in node.iter())
            return find(node)

        return run

    monkeypatch.setattr(html, "xpath", counted)
    answer = BY_NAME["duckduckgo"].classify(200, HTML, body, Query("tokio"))
    assert [r.url for r in answer.results] == ["https://tokio.rs/"]
    # Each nested row searched the whole subtree under it: depth times the page.
    assert read[0] <= 3 * (depth + filler + 1), read[0]


def test_brave_blocks_nested_in_blocks_are_read_once(monkeypatch):
    from ws.backends import brave

    depth, filler = 200, 2000
    body = _page(
        "<main>"
        + '<div data-type="web">' * depth
        + "<div>x</div>" * filler
        + '<a href="https://tokio.rs/"><div class="title">Tokio</div></a>'
        + "</div>" * depth
        + "</main>"
    )
    read = [0]
    real = brave._result

    def counted(node):  # type: ignore[no-untyped-def]
        read[0] += sum(1 for _ in node.iter())
        return real(node)

    monkeypatch.setattr(brave, "_result", counted)
    answer = BY_NAME["brave"].classify(200, HTML, body, Query("tokio"))
    assert [r.url for r in answer.results] == ["https://tokio.rs/"]
    assert read[0] <= 3 * (depth + 2 * filler + 2), read[0]


@pytest.mark.parametrize(
    "links",
    [
        b'<a href="?offset=1">' * 12000,  # never closed: each looked for its </a> to the end
        b"<a " * 12000,  # no tag end: each looked for its href to the end
        b"<a " + b'href="?offset=1" ' * 12000 + b">",  # one tag, its href tried 12000 times
    ],
    ids=["unclosed", "no-tag-end", "many-hrefs"],
)
def test_brave_reads_its_pagination_in_one_pass(links):
    import time

    from ws.backends import brave
    from ws.backends.html import ResultsPage

    page = ResultsPage(b'<nav id="pagination">' + links + b"</nav>", None)
    # A pattern's reading cannot be counted from outside: CPU time, then, with a bound
    # far above the linear read (about 0.01 s) and far below the quadratic one (2 to 13 s).
    start = time.process_time()
    assert brave.next_page(page) is None
    assert time.process_time() - start < 1.0


def test_brave_pagination_still_names_its_next_offset():
    from ws.backends import brave
    from ws.backends.html import ResultsPage

    body = (
        b'<nav id="pagination"><a href="/search?q=a&amp;offset=0">Previous</a> '
        b'<a class="btn" href="/search?q=a&amp;offset=2" >Next <b>page</b></a  ></nav>'
    )
    assert brave.next_page(ResultsPage(body, None)) == {"offset": "2"}


# ---------------------------------------------------------------- the health file


def _own_health_file(path, provider: str, url: str, until: str) -> None:
    """A health file of ours (0600 in our 0700 dir) with one entry, its until as written."""
    from ws.health import key

    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    name = json.dumps(key(provider, url))
    entry = f'{{"until": {until}, "blocks": 1, "failures": 0, "reason": "blocked", "code": 75}}'
    (path / "health.json").write_text(f'{{"version": 1, "providers": {{{name}: {entry}}}}}')
    (path / "health.json").chmod(0o600)


@pytest.mark.parametrize("until", ["1e20", "1e400", "-1e20"])
def test_a_health_entry_past_the_clock_fails_no_search(serve, monkeypatch, tmp_path, until):
    # 1e20 is beyond what the platform's clock can show, 1e400 reads as infinity: every
    # search and --providers failed as an internal error (exit 1, "this is a bug").
    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    _own_health_file(tmp_path / "wsstate", "duckduckgo", srv.url, until)
    # Named, it is asked even while it rests (a rest is read as an hour at most).
    r = invoke("ws", ["tokio", "--urls", "--provider", "duckduckgo"])
    assert (r.code, r.stdout) == (0, "https://tokio.rs/\n"), r.stderr
    _own_health_file(tmp_path / "wsstate", "duckduckgo", srv.url, until)
    r = invoke("ws", ["--providers", "--json"])
    assert r.code == 0, r.stderr
    assert json.loads(r.stdout)["health"]["duckduckgo"]["state"] in ("ok", "resting")
    # Unnamed, it is skipped while it rests, and the others are asked (the page is
    # DuckDuckGo's: theirs find nothing in it).
    r = invoke("ws", ["tokio", "--json"])
    assert "this is a bug" not in r.stderr and r.code in (0, 69), r.stderr
    assert json.loads(r.stdout)["attempts"][0]["outcome"] in ("ok", "skipped")


def test_a_rest_is_read_as_ending_within_the_hour():
    from ws import health

    now = 1_800_000_000.0
    text = json.dumps(
        {"providers": {"p u": {"until": 1e20, "blocks": 1, "failures": 0, "reason": "b"}}}
    )
    entry = health.parse(text, now)["p u"]
    assert entry.resting(now) and entry.until == now + health.BLOCK_REST_MAX
    inf = '{"providers": {"p u": {"until": 1e400, "blocks": 1, "failures": 0}}}'
    assert health.parse(inf, now) == {}


def test_providers_json_gives_every_health_key_for_every_provider(serve, monkeypatch, tmp_path):
    # A provider with nothing remembered had no "reason": a reader indexing it failed.
    srv = serve(respond(200, b"", HTML))
    _point_all_at(monkeypatch, srv)
    _own_health_file(tmp_path / "wsstate", "duckduckgo", srv.url, "1")
    r = invoke("ws", ["--providers", "--json"])
    states = json.loads(r.stdout)["health"]
    keys = {"state", "retry_at", "blocks", "failures", "reason"}
    assert [set(s) for s in states.values()] == [keys] * len(states), states
    assert states["duckduckgo"]["reason"] == "blocked" and states["brave"]["reason"] is None


# ---------------------------------------------------------------- entities

ABOUT_ENTITIES = "What does &amp;nbsp; mean in &amp;lt;p&amp;gt;?"  # as the page spells it
READ = "What does &nbsp; mean in &lt;p&gt;?"  # what a reader of the page sees
PAGES = {
    "duckduckgo": DDG_ROW.format(href="https://so.example/q/1", title=ABOUT_ENTITIES),
    "duckduckgo-lite": LITE_ROW.format(href="https://so.example/q/1", title=ABOUT_ENTITIES),
    "brave": (
        '<main><div data-pos="0" data-type="web"><a href="https://so.example/q/1">'
        f'<div class="title">{ABOUT_ENTITIES}</div></a>'
        f'<div class="content">{ABOUT_ENTITIES}</div></div></main>'
    ),
    "mojeek": (
        '<ul class="results-standard"><li><h2><a href="https://so.example/q/1">'
        f'{ABOUT_ENTITIES}</a></h2><p class="s">{ABOUT_ENTITIES}</p></li></ul>'
    ),
}


@pytest.mark.parametrize("provider", sorted(PAGES))
def test_a_pages_text_is_decoded_once(provider):
    # lxml decodes the page's entities; finalise decoded them again, and a title about
    # "&nbsp;" became one about a blank ("What does mean in <p>?").
    from ws.results import finalise

    answer = BY_NAME[provider].classify(200, HTML, _page(PAGES[provider]), Query("nbsp"))
    (result,), _ = finalise(answer.results)
    assert result.title == READ
    if provider != "duckduckgo-lite":  # its snippet row is not in this page
        assert result.snippet in (READ, f"about {READ}")


def test_searxngs_json_text_is_decoded_once():
    from ws.results import finalise

    item = {"url": "https://so.example/q/1", "title": "Rust &amp; friends", "content": "a &lt; b"}
    body = json.dumps({"results": [item]}).encode()
    answer = BY_NAME["searxng"].classify(
        200, {"content-type": "application/json"}, body, Query("q")
    )
    (result,), _ = finalise(answer.results)
    assert (result.title, result.snippet) == ("Rust & friends", "a < b")


def test_a_title_about_entities_reaches_the_output_as_the_page_shows_it(serve, monkeypatch):
    srv = serve(respond(200, _page(PAGES["duckduckgo"]), HTML))
    _point_all_at(monkeypatch, srv)
    r = invoke("ws", ["nbsp", "--json", "--provider", "duckduckgo"])
    assert json.loads(r.stdout)["results"][0]["title"] == READ


# ---------------------------------------------------------------- one page, several spellings


@pytest.mark.parametrize(
    "spellings",
    [
        # An engine that shows the address as an IRI, one that escapes it, in either case.
        ("https://de.wikipedia.org/wiki/Köln", "https://de.wikipedia.org/wiki/K%C3%B6ln"),
        ("https://de.wikipedia.org/wiki/K%c3%b6ln", "https://de.wikipedia.org/wiki/K%C3%B6ln"),
        ("https://example.com/%7Euser/", "https://example.com/~user"),
        ("https://bücher.example/a", "https://xn--bcher-kva.example/a"),
    ],
)
def test_engines_spelling_one_page_differently_fuse_into_one_result(spellings):
    from ws.fuse import fuse
    from ws.results import Result, url_key

    a, b = spellings
    assert url_key(a) == url_key(b)
    fused = fuse([("duckduckgo", [Result("A", a)]), ("brave", [Result("B", b)])])
    assert [r.providers for r in fused] == [("duckduckgo", "brave")]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://example.com/a%2Fb", "https://example.com/a/b"),  # an escaped slash is data
        ("https://example.com/a%3Fb", "https://example.com/a?b"),
        ("https://example.com/K%C3%B6ln", "https://example.com/K%C3%B6lN"),
    ],
)
def test_escapes_that_mean_something_else_stay_apart(a, b):
    from ws.results import url_key

    assert url_key(a) != url_key(b)


def test_the_visible_text_of_a_deep_page_costs_one_read():
    # Read when a page has no results (is it a bot check? a "no results" page?), by every
    # engine that answered it: ws --all against four engines answering this page spent
    # 4 s of CPU there and ran past a 3 s deadline.
    import time

    from ws.backends.html import ResultsPage

    body = (
        b"<html><head><style>p{}</style></head><body>"
        + b"<div>" * 250
        + b"<b>x</b>y" * 49000
        + b"<script>var unusual = 'traffic';</script>"
        + b"</div>" * 250
    )
    page = ResultsPage(body, None)
    page.doc  # noqa: B018 - the parse is not what is timed
    start = time.process_time()
    text = page.visible_text
    # CPU time (the XPath's reading cannot be counted from outside): about 0.75 s with
    # the ancestor axis, 0.05 s now.
    assert time.process_time() - start < 0.25
    assert text.startswith("x y x y") and "unusual" not in text and "p{}" not in text


# ---------------------------------------------------------------- the library


@pytest.mark.parametrize(
    ("option", "flag"),
    [
        ({"max_results": "3"}, "--max-results"),
        ({"max_results": 2.5}, "--max-results"),
        ({"page": "2"}, "--page"),
        ({"timeout": "3"}, "--timeout"),
        ({"region_code": 5}, "--region"),
        ({"allow": [5]}, "--allow"),
        ({"engines": 5}, "--engines"),
        # Taken for their truth: all_engines="no" asked every engine at once.
        ({"all_engines": "no"}, "--all"),
        ({"use_cache": "no"}, "--no-cache"),
        ({"allow_private": "no"}, "--allow-private"),
        # An AttributeError ('int' object has no attribute 'get').
        ({"environ": 5}, "environ"),
    ],
)
def test_a_library_option_of_the_wrong_type_names_its_flag(serve, monkeypatch, option, flag):
    # Each raised a TypeError or AttributeError from deep inside ('<' not supported
    # between instances of 'str' and 'int'), or was taken (2.5 results).
    import ws
    from ws.api import OptionError

    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    with pytest.raises(OptionError, match=f"^{flag} takes "):
        ws.search("tokio", **option)
    assert srv.requests == []


def test_a_proxy_variable_no_fetch_can_use_fails_a_library_search_before_any_request(
    serve, monkeypatch
):
    # Each attempt failed on it as a network failure: three such searches rested every
    # engine for 2 minutes in the health file the CLI reads too.
    import ws
    from ws import health
    from ws.api import OptionError

    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    monkeypatch.setenv("http_proxy", "socks5://127.0.0.1:9")
    for _ in range(3):
        with pytest.raises(OptionError, match=r"^http_proxy=socks5://127\.0\.0\.1:9: unsupported"):
            ws.search("tokio")
    assert srv.requests == [] and health.load() == {}


def test_library_options_of_the_right_types_still_search(serve, monkeypatch):
    import ws

    srv = serve(respond(200, _page(DDG_ROW.format(href="https://tokio.rs/", title="T")), HTML))
    _point_all_at(monkeypatch, srv)
    found = ws.search(
        "tokio", max_results=2, timeout=5, region_code=None, allow="tokio.rs", provider="ddg"
    )
    assert [r["url"] for r in found.results] == ["https://tokio.rs/"]


def test_providers_ignores_a_query_that_cleans_up_to_nothing():
    r = invoke("ws", ["--providers", "\u200b"])
    assert r.code == 0 and r.stdout.startswith("Provider chain"), r.stderr


# ---------------------------------------------------------------- --json after --


def test_json_after_double_dash_is_the_query_not_the_flag(monkeypatch):
    # A failure printed the JSON error document on stdout for a text run whose query was
    # "--json"; the supervisor would have too.
    from common import watchdog

    r = invoke("ws", ["--bogus", "--", "--json"])
    assert (r.code, r.stdout) == (2, "")
    assert_one_line_error(r, 2, "No such option", tool="ws")
    r = invoke("ws", ["--bogus", "--json", "--", "q"])
    assert r.code == 2 and json.loads(r.stdout)["error"]["code"] == 2
    told: list[bool] = []
    monkeypatch.setattr(watchdog, "install", lambda tool, **kw: told.append(kw["wants_json"]))
    watchdog.supervise("ws", ["q", "--", "--json"], None, lambda tool, exc: None)
    watchdog.supervise("ws", ["--json", "--", "q"], None, lambda tool, exc: None)
    assert told == [False, True]


# ---------------------------------------------------------------- the deadline with --engines


def test_an_answer_parsed_past_the_deadline_leaves_the_others_results(serve):
    # DuckDuckGo answers at once; Lite answers just before the deadline with a page whose
    # parse runs well past it (parse limits off: 100 000 attributes). The run waited a
    # second for that parse, the watchdog ended it 0.35 s past the deadline, and ws
    # exited 28 with nothing printed though DuckDuckGo's results were in hand.
    import time

    from tests.hostile import proc

    timeout = 2.0
    attrs = " ".join(f"a{i}=1" for i in range(100_000))
    slow = f"<html><body><p {attrs}>x</p></body></html>".encode()
    fast = _page(DDG_ROW.format(href="https://tokio.rs/", title="Tokio"))

    def handler(conn, request):  # type: ignore[no-untyped-def]
        if b"/lite" in request.split(b"\r\n", 1)[0]:
            time.sleep(timeout - 0.4)
            conn.sendall(_response(slow))
        else:
            conn.sendall(_response(fast))

    srv = serve(handler)
    env = proc.env(
        WF_WS_NO_PARSE_LIMITS="1",
        WS_DUCKDUCKGO_URL=srv.url + "html",
        WS_DUCKDUCKGO_LITE_URL=srv.url + "lite",
        WS_BRAVE_URL=srv.url + "brave",
        WS_MOJEEK_URL=srv.url + "mojeek",
    )
    args = ["--engines", "duckduckgo,duckduckgo-lite", "--timeout", str(timeout), "--json"]
    r = proc.run(["ws", "tokio", *args], env=env)
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [x["url"] for x in doc["results"]] == ["https://tokio.rs/"]
    outcomes = {a["provider"]: a["outcome"] for a in doc["attempts"]}
    assert outcomes == {"duckduckgo": "ok", "duckduckgo-lite": "timeout"}


def _response(body: bytes) -> bytes:
    from tests.servers import http_response

    return http_response(200, body, {"Content-Type": HTML["content-type"]})


def test_an_attempt_given_up_on_is_said_with_its_request_s_notes(engines, overdue):  # noqa: F811
    # Still parsing when the run gave up on it: it had no stderr line, and its request's
    # note (--safe moderate on Mojeek) was lost.
    from ws.chain import run

    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    overdue("mojeek")  # its parse holds until the test ends
    lines: list[str] = []
    options = _only(_options(engines, "rust", timeout=1.0, safe="moderate"), "mojeek")
    report = run(options, say=lines.append)
    note = "--safe moderate has no Mojeek equivalent (only on or off); ignored"
    assert lines == [f"mojeek: {note}", f"mojeek: timeout ({AT_THE_DEADLINE})"]
    assert report.attempts[0].notes == [note]
