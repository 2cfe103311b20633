"""Each backend on its own: the request it builds and how it reads answers, on small
fixtures of our own (tests/fixtures/ws) and on real captures (../shared/fixtures/search).
No network here: classify() takes status, headers and body."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers import SEARCH_CAPTURES, WS_FIXTURES
from ws.backends import BY_NAME
from ws.backends.base import Query
from ws.backends.duckduckgo import unwrap
from ws.backends.searxng import ENABLE_JSON, search_url
from ws.results import finalise

needs_captures = pytest.mark.skipif(
    not SEARCH_CAPTURES.is_dir(),
    reason=f"real captures not found at {SEARCH_CAPTURES} (read in place, never copied)",
)
HTML = {"content-type": "text/html; charset=utf-8"}
JSON = {"content-type": "application/json"}


def classify(provider: str, path: Path, status: int = 200, query: str = "rust async", headers=None):
    headers = headers or (JSON if path.suffix == ".json" else HTML)
    return BY_NAME[provider].classify(status, headers, path.read_bytes(), Query(query))


def params(request) -> dict[str, list[str]]:
    if request.method == "POST":
        return {k: [v] for k, v in request.data.items()}
    return parse_qs(urlsplit(request.url).query, keep_blank_values=True)


# ---------------------------------------------------------------- DuckDuckGo


def test_ddg_get_page_unwraps_uddg_links_completely_and_drops_ads():
    answer = classify("duckduckgo", WS_FIXTURES / "ddg_get.html")
    results, _ = finalise(answer.results)
    assert answer.outcome == "ok"
    assert [r.url for r in results] == [
        "https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?highlight=future&lang=en#top",
        "https://tokio.rs/tokio/tutorial?a=1&b=x+y%20z",
    ]
    assert results[0].title == "Getting Started - Asynchronous Programming in Rust"
    assert results[0].snippet == (
        "Welcome to Asynchronous Programming in Rust & friends! This book aims to be a comprehensive guide."
    )
    assert results[0].published == "2024-03-02"
    assert not any("y.js" in r.url or "shop.example" in r.url for r in answer.results)


@pytest.mark.parametrize(
    ("href", "target"),
    [
        (
            "//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fp%3Fx%3D1%26y%3D2&rut=9",
            "https://a.example/p?x=1&y=2",
        ),
        ("https://duckduckgo.com/l/?rut=9&uddg=http%3A%2F%2Fb.example%2F", "http://b.example/"),
        ("/l/?uddg=https%3A%2F%2Fc.example%2F%253F", "https://c.example/%3F"),
        ("https://direct.example/a?b=c", "https://direct.example/a?b=c"),
        ("https://duckduckgo.com/y.js?ad_domain=x.example&u3=https%3A%2F%2Fx.example", None),
        ("//duckduckgo.com/l/?rut=9", None),
    ],
)
def test_ddg_unwrap(href, target):
    assert unwrap(href) == target


def test_ddg_no_results_page_is_empty():
    answer = classify("duckduckgo", WS_FIXTURES / "ddg_no_results.html", query="xqzvbnmw")
    assert (answer.outcome, answer.message) == ("empty", "HTTP 200, no results page")


def test_ddg_anomaly_page_is_blocked_with_200_or_202():
    assert (
        classify("duckduckgo", WS_FIXTURES / "ddg_anomaly.html").message == "HTTP 200, anomaly page"
    )
    answer = classify("duckduckgo", WS_FIXTURES / "ddg_anomaly.html", status=202)
    assert (answer.outcome, answer.message) == ("blocked", "HTTP 202, anomaly page")


def test_ddg_202_with_an_empty_body_is_still_blocked():
    answer = BY_NAME["duckduckgo"].classify(202, HTML, b"", Query("q"))
    assert answer.outcome == "blocked"


def test_ddg_request_is_a_post_form_with_region_time_safe_and_site():
    q = Query("rust async", allow=("docs.rs",), region="de-de", time="w", safe="off")
    req = BY_NAME["duckduckgo"].build(q, "https://html.duckduckgo.com/html/")
    assert req.method == "POST" and req.url == "https://html.duckduckgo.com/html/"
    assert req.data == {
        "q": "rust async site:docs.rs",
        "b": "",
        "kl": "de-de",
        "df": "w",
        "kp": "-2",
    }
    assert req.notes == []


def test_ddg_request_without_options_has_no_region_and_no_filters():
    req = BY_NAME["duckduckgo"].build(Query("x"), "http://127.0.0.1:9/html/")
    assert req.data == {"q": "x", "b": "", "kl": "wt-wt"}


def test_several_allowed_domains_are_or_ed_where_the_engine_can():
    q = Query("tls", allow=("a.example", "b.example"))
    assert (
        BY_NAME["duckduckgo"].build(q, "http://127.0.0.1/").data["q"]
        == "tls (site:a.example OR site:b.example)"
    )
    req = BY_NAME["mojeek"].build(q, "http://127.0.0.1/search")
    assert params(req)["q"] == ["tls"]
    assert req.notes == ["several --allow domains are applied to the results only (no OR)"]


@needs_captures
def test_ddg_real_post_page():
    answer = classify(
        "duckduckgo", SEARCH_CAPTURES / "duckduckgo" / "results_post.html", query="eino"
    )
    results, _ = finalise(answer.results)
    assert answer.outcome == "ok" and len(results) == 10
    assert (results[0].title, results[0].url) == (
        "GitHub - cloudwego/eino: The ultimate LLM/AI application development ...",
        "https://github.com/cloudwego/eino",
    )
    assert results[0].snippet.startswith(
        "Eino is a framework for building LLM applications in Golang"
    )
    assert results[1].title == "Eino: 概述 | CloudWeGo"
    assert results[1].published == "2025-06-23"
    assert "Eino['aino]" in results[1].snippet and '"i know"' in results[1].snippet
    assert results[-1].url == "https://en.wikipedia.org/wiki/Eino"


def test_ddg_last_page_drops_the_google_pseudo_result():
    """Our own copy of the last page's shape: its only entry, "EOF", links to a Google
    search for the query; it is no result, so the page is empty (the real capture below
    checks the same when ../shared is there)."""
    answer = classify("duckduckgo", WS_FIXTURES / "ddg_last_page.html")
    assert (answer.outcome, answer.results) == ("empty", [])


DDG_ENTRY = """<div class="result results_links web-result"><div class="result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="{href}">{title}</a></h2>
</div></div>"""


@pytest.mark.parametrize(
    ("href", "kept"),
    [
        ("http://www.google.com/search?hl=en&amp;q=rust", False),
        ("https://google.com/search?q=rust", False),
        ("https://www.google.de/search?q=rust", False),
        ("https://google.co.uk/search?q=rust", False),
        # Only Google's search page is the pseudo result: other Google pages and other
        # hosts that merely start or end like it are real results.
        ("https://www.google.com/maps?q=rust", True),
        ("https://notgoogle.com/search?q=rust", True),
        ("https://docs.rs/search?q=google", True),
    ],
)
def test_ddg_only_a_google_search_link_is_the_pseudo_result(href, kept):
    real = DDG_ENTRY.format(href="https://tokio.rs/tokio/tutorial", title="Tokio")
    pseudo = DDG_ENTRY.format(href=href, title="EOF")
    body = f'<html><body><div id="links">{real}{pseudo}</div></body></html>'.encode()
    answer = BY_NAME["duckduckgo"].classify(200, HTML, body, Query("rust"))
    urls = [r.url for r in answer.results]
    assert urls[0] == "https://tokio.rs/tokio/tutorial"
    assert len(urls) == (2 if kept else 1)


@needs_captures
def test_ddg_real_last_page_drops_the_google_pseudo_result():
    answer = classify(
        "duckduckgo", SEARCH_CAPTURES / "duckduckgo" / "last_page_post.html", query="eino"
    )
    assert (answer.outcome, answer.results) == ("empty", [])


@needs_captures
def test_ddg_real_no_results_page():
    assert (
        classify("duckduckgo", SEARCH_CAPTURES / "duckduckgo" / "no_results_post.html").outcome
        == "empty"
    )


@needs_captures
@pytest.mark.parametrize("status", [200, 202])
def test_ddg_real_anomaly_page_is_never_no_results(status):
    answer = classify(
        "duckduckgo", SEARCH_CAPTURES / "duckduckgo" / "anomaly_captcha.html", status=status
    )
    assert (answer.outcome, answer.message) == ("blocked", f"HTTP {status}, anomaly page")


# ---------------------------------------------------------------- Brave


def test_brave_own_page_results_titles_snippets_and_dates():
    answer = classify("brave", WS_FIXTURES / "brave_results.html")
    results, _ = finalise(answer.results)
    assert [(r.title, r.url) for r in results] == [
        ("Asynchronous Programming in Rust", "https://rust-lang.github.io/async-book/"),
        ("futures - Rust", "https://docs.rs/futures/latest/futures/"),
    ]
    assert results[0].snippet == "The async book: futures, executors & tasks."
    assert results[0].published == "2024-03-02"
    assert results[1].published is None


def test_brave_results_are_found_in_markup_spelled_differently():
    body = (
        (WS_FIXTURES / "brave_results.html")
        .read_bytes()
        .replace(b'data-type="web"', b"data-type=web")
    )
    answer = BY_NAME["brave"].classify(200, HTML, body, Query("rust async"))
    assert [r.url for r in answer.results] == [
        "https://rust-lang.github.io/async-book/",
        "https://docs.rs/futures/latest/futures/",
    ]


def test_brave_429_is_blocked():
    answer = classify("brave", WS_FIXTURES / "brave_429.html", status=429)
    assert answer.outcome == "blocked" and answer.message.startswith("HTTP 429")


def test_brave_no_results_page_is_empty_and_an_unknown_page_is_a_parse_error():
    assert (
        classify("brave", WS_FIXTURES / "brave_no_results.html", query="xqzvbnmw").outcome
        == "empty"
    )
    answer = BY_NAME["brave"].classify(
        200, HTML, b"<html><body><div>new layout</div></body></html>", Query("q")
    )
    assert answer.outcome == "parse_error"
    assert "layout may have changed" in answer.message


def test_brave_request_uses_its_own_terms():
    q = Query("rust", region="uk-en", time="m", safe="on")
    req = BY_NAME["brave"].build(q, "https://search.brave.com/search")
    assert req.method == "GET"
    assert params(req) == {"q": ["rust"], "source": ["web"], "tf": ["pm"]}
    assert req.headers["Cookie"] == "safesearch=strict; country=gb; useLocation=0"


@needs_captures
def test_brave_real_page():
    answer = classify(
        "brave", SEARCH_CAPTURES / "brave" / "results.html", query="javascript tutorial"
    )
    results, _ = finalise(answer.results)
    assert answer.outcome == "ok" and len(results) == 20
    assert (results[0].title, results[0].url) == (
        "JavaScript Tutorial",
        "https://www.w3schools.com/js/",
    )
    assert results[0].snippet == (
        "JavaScript is easy to learn. This tutorial covers everything from basic JavaScript up to "
        "the latest 2026 version."
    )
    # The cluster of sub-links under the first result is not a result of its own.
    assert "https://www.w3schools.com/css/default.asp" not in [r.url for r in results]
    third = results[2]
    assert third.url == "https://www.javascripttutorial.net/" and third.published == "2024-12-13"
    assert third.snippet.startswith("Welcome to the JavaScriptTutorial.net website!")
    assert results[-1].url == "https://www.simplilearn.com/tutorials/javascript-tutorial"
    assert all("\n" not in r.title and r.title == r.title.strip() for r in results)


# ---------------------------------------------------------------- Mojeek


def test_mojeek_own_page():
    answer = classify("mojeek", WS_FIXTURES / "mojeek_results.html")
    results, _ = finalise(answer.results)
    assert [(r.title, r.url, r.snippet) for r in results] == [
        (
            "Tokio - An asynchronous Rust runtime",
            "https://tokio.rs/",
            'Build reliable network applications with Rust. Tokio is "fast".',
        ),
        ("async-std", "https://async.rs/", ""),
    ]


def test_mojeek_403_is_blocked_and_no_results_is_empty():
    assert (
        classify("mojeek", WS_FIXTURES / "mojeek_403.html", status=403).message
        == "HTTP 403, CAPTCHA page"
    )
    assert (
        classify("mojeek", WS_FIXTURES / "mojeek_no_results.html", query="xqzvbnmw").outcome
        == "empty"
    )


def test_a_query_about_captchas_that_found_nothing_is_empty_not_blocked():
    body = (
        (WS_FIXTURES / "mojeek_no_results.html")
        .read_bytes()
        .replace(b"xqzvbnmw", b"captcha solver")
    )
    answer = BY_NAME["mojeek"].classify(200, HTML, body, Query("captcha solver"))
    assert answer.outcome == "empty"


def test_mojeek_first_page_never_sends_s_and_maps_options():
    q = Query("rust", region="de-de", time="d", safe="moderate")
    req = BY_NAME["mojeek"].build(q, "https://www.mojeek.com/search")
    p = params(req)
    assert "s" not in p
    assert p == {
        "q": ["rust"],
        "since": [(date.today() - timedelta(days=1)).strftime("%Y%m%d")],
        "reg": ["de"],
    }
    assert req.notes == ["--safe moderate has no Mojeek equivalent (only on or off); ignored"]
    other = BY_NAME["mojeek"].build(
        Query("rust", region="jp-jp", safe="on"), "https://www.mojeek.com/search"
    )
    assert params(other) == {"q": ["rust"], "safe": ["1"]}
    assert other.notes == ["--region jp-jp: Mojeek has no such region; ignored"]


@needs_captures
def test_mojeek_real_page():
    answer = classify(
        "mojeek", SEARCH_CAPTURES / "mojeek" / "results.html", query="javascript tutorial"
    )
    results, _ = finalise(answer.results)
    assert answer.outcome == "ok" and len(results) == 10
    assert (results[0].title, results[0].url) == (
        "The Modern JavaScript Tutorial",
        "https://javascript.info/",
    )
    assert results[0].snippet == (
        "The Modern JavaScript Tutorial ... Main course contains 2 parts which cover JavaScript as "
        "a programming language and working with a browser."
    )
    assert (results[1].title, results[1].snippet) == ("w3schools.com/js", "")
    assert sum(1 for r in results if r.snippet) == 9


# ---------------------------------------------------------------- SearxNG


def test_searxng_json_with_number_of_results():
    answer = classify("searxng", WS_FIXTURES / "searxng_results.json")
    results, _ = finalise(answer.results)
    assert answer.outcome == "ok" and answer.notes == []
    assert [(r.title, r.url, r.snippet, r.published) for r in results] == [
        ("Tokio & friends", "https://tokio.rs/", "An asynchronous runtime.", None),
        (
            "Asynchronous Programming in Rust",
            "https://rust-lang.github.io/async-book/",
            "The async book.",
            "2024-03-02",
        ),
    ]


def test_searxng_json_without_number_of_results_reports_unresponsive_engines():
    answer = classify("searxng", WS_FIXTURES / "searxng_results_new.json")
    assert answer.outcome == "ok"
    assert answer.results[0].published == "2025-01-16T08:30:00+01:00"
    assert answer.notes == ["unresponsive engines: google (CAPTCHA), bing (timeout)"]


def test_searxng_empty_results_list_is_empty():
    answer = classify("searxng", WS_FIXTURES / "searxng_empty.json", query="xqzvbnmw")
    assert (answer.outcome, answer.message) == ("empty", "HTTP 200, no results")


def test_searxng_without_json_enabled_says_how_to_fix_it():
    answer = BY_NAME["searxng"].classify(
        403, {"content-type": "text/html"}, b"<h1>Forbidden</h1>", Query("q")
    )
    assert answer.outcome == "http_error"
    assert answer.message.endswith("enable json in settings.yml: search.formats: [html, json]")
    html = BY_NAME["searxng"].classify(
        200, HTML, b"<html><body><form>search</form></body></html>", Query("q")
    )
    assert html.outcome == "parse_error" and html.message.endswith(ENABLE_JSON)


def test_searxng_429_and_malformed_json():
    assert BY_NAME["searxng"].classify(429, JSON, b"", Query("q")).outcome == "blocked"
    bad = BY_NAME["searxng"].classify(200, JSON, b'{"results": ', Query("q"))
    assert bad.outcome == "parse_error" and "malformed JSON" in bad.message
    odd = BY_NAME["searxng"].classify(
        200, JSON, json.dumps({"results": [{"title": "no url"}, 3]}).encode(), Query("q")
    )
    assert odd.outcome == "empty"


def test_searxng_bot_check_page_of_our_own_is_blocked_not_empty():
    answer = classify("searxng", WS_FIXTURES / "searxng_botcheck.html", headers=HTML)
    assert (answer.outcome, answer.message) == ("blocked", "HTTP 200, bot-check page")


@needs_captures
def test_searxng_public_instance_bot_check_is_blocked_not_empty():
    answer = classify(
        "searxng", SEARCH_CAPTURES / "searxng" / "public_instance_botcheck.html", headers=HTML
    )
    assert (answer.outcome, answer.message) == ("blocked", "HTTP 200, bot-check page")


def test_searxng_request():
    q = Query("rust", allow=("docs.rs",), region="de-de", time="y", safe="moderate")
    req = BY_NAME["searxng"].build(q, "http://127.0.0.1:8888/")
    assert req.url.startswith("http://127.0.0.1:8888/search?")
    assert params(req) == {
        "q": ["rust site:docs.rs"],
        "format": ["json"],
        "language": ["de-DE"],
        "time_range": ["year"],
        "safesearch": ["1"],
    }


@pytest.mark.parametrize(
    ("root", "url"),
    [
        ("http://127.0.0.1:8888", "http://127.0.0.1:8888/search"),
        ("http://127.0.0.1:8888/searx/", "http://127.0.0.1:8888/searx/search"),
        ("http://127.0.0.1:8888/search", "http://127.0.0.1:8888/search"),
    ],
)
def test_searxng_search_url(root, url):
    assert search_url(root) == url


# ---------------------------------------------------------------- DuckDuckGo lite


def test_lite_results_rows_with_snippets_and_no_sponsored_row():
    answer = classify("duckduckgo-lite", WS_FIXTURES / "ddg_lite_results.html")
    results, _ = finalise(answer.results)
    assert answer.outcome == "ok"
    assert [(r.title, r.url, r.snippet) for r in results] == [
        (
            "Asynchronous Programming in Rust",
            "https://rust-lang.github.io/async-book/",
            "Welcome to Asynchronous Programming in Rust & friends!",
        ),
        (
            "Tutorial | Tokio",
            "https://tokio.rs/tokio/tutorial?a=1",
            "Tokio is an asynchronous runtime for the Rust programming language.",
        ),
        # No snippet row: the address row is not taken for one.
        ("async-std", "https://async.rs/", ""),
    ]
    assert {r.provider for r in results} == {"duckduckgo-lite"}
    following = answer.find_next()
    assert following is not None and following["vqd"] == "4-1234567890"
    assert (following["s"], following["dc"]) == ("10", "11")


def test_lite_no_results_page_is_empty():
    answer = classify("duckduckgo-lite", WS_FIXTURES / "ddg_lite_no_results.html", query="xqzvbnmw")
    assert (answer.outcome, answer.message) == ("empty", "HTTP 200, no results page")


@pytest.mark.parametrize("status", [200, 202])
def test_lite_anomaly_page_is_blocked(status):
    answer = classify("duckduckgo-lite", WS_FIXTURES / "ddg_lite_anomaly.html", status=status)
    assert (answer.outcome, answer.message) == ("blocked", f"HTTP {status}, anomaly page")


@needs_captures
@pytest.mark.parametrize("status", [200, 202])
def test_lite_real_anomaly_page_is_blocked(status):
    # The capture is what the lite endpoint served a script (a peer saved it as ddg_lite).
    answer = classify(
        "duckduckgo-lite",
        SEARCH_CAPTURES / "duckduckgo" / "anomaly_captcha.html",
        status=status,
        query="does caffeine affect sleep",
    )
    assert answer.outcome == "blocked" and "anomaly page" in answer.message


def test_lite_request_is_the_html_form_with_region_time_and_safe():
    q = Query("rust", region="de-de", time="w", safe="off")
    req = BY_NAME["duckduckgo-lite"].build(q, "https://lite.duckduckgo.com/lite/")
    assert (req.method, req.url) == ("POST", "https://lite.duckduckgo.com/lite/")
    assert req.data == {"q": "rust", "kl": "de-de", "df": "w", "kp": "-2", "b": ""}
    assert req.headers["Referer"] == "https://lite.duckduckgo.com/"
    following = BY_NAME["duckduckgo-lite"].build(
        Query("rust", page=2), "https://lite.duckduckgo.com/lite/", {"s": "10", "vqd": "4-x"}
    )
    assert following.data is not None
    assert (following.data["s"], following.data["vqd"]) == ("10", "4-x")
    assert "b" not in following.data


# ---------------------------------------------------------------- next pages on real captures


@needs_captures
@pytest.mark.parametrize(
    ("provider", "capture", "query", "expected"),
    [
        ("duckduckgo", "duckduckgo/results_post.html", "eino", {"s": "10", "dc": "11"}),
        ("brave", "brave/results.html", "javascript tutorial", {"offset": "1"}),
        ("mojeek", "mojeek/results.html", "javascript tutorial", {"s": "11"}),
    ],
)
def test_real_pages_name_their_next_page(provider, capture, query, expected):
    answer = classify(provider, SEARCH_CAPTURES / capture, query=query)
    following = answer.find_next()
    assert following is not None
    assert {k: following[k] for k in expected} == expected
    if provider == "duckduckgo":
        assert following["vqd"] == "4-167208798460794982980732831674372650598"


@needs_captures
def test_ddg_real_last_page_has_no_next_page():
    page = (SEARCH_CAPTURES / "duckduckgo" / "last_page_post.html").read_bytes()
    from ws.backends.html import ResultsPage, next_form

    assert next_form(ResultsPage(page, "text/html")) is None


# ---------------------------------------------------------------- issue 16: mutation survivors
# ws/backends/antibot.py: the flow every HTML engine shares, checked on small pages.


def _ddg(status: int, body: bytes, query: Query, headers=None):
    return BY_NAME["duckduckgo"].classify(status, headers or HTML, body, query)


def _results_page(title: str = "Tokio") -> bytes:
    entry = DDG_ENTRY.format(href="https://tokio.rs/", title=title)
    return f'<html><body><div id="links">{entry}</div></body></html>'.encode()


def test_results_are_ok_with_the_status_as_message():
    answer = _ddg(200, _results_page(), Query("rust"))
    assert (answer.outcome, answer.message) == ("ok", "HTTP 200")


def test_a_2xx_status_only_is_read_as_an_answer():
    answer = _ddg(299, _results_page(), Query("rust"))
    assert (answer.outcome, answer.message) == ("ok", "HTTP 299")
    answer = _ddg(300, _results_page(), Query("rust"))
    assert (answer.outcome, answer.message) == ("http_error", "HTTP 300")


@pytest.mark.parametrize(
    ("status", "outcome", "message"),
    [
        (403, "blocked", "HTTP 403, forbidden"),
        (429, "blocked", "HTTP 429, rate limited"),
        (404, "http_error", "HTTP 404"),
        (500, "http_error", "HTTP 500"),
        (503, "http_error", "HTTP 503"),
    ],
)
def test_error_statuses_with_an_empty_body(status, outcome, message):
    answer = _ddg(status, b"", Query("rust"))
    assert (answer.outcome, answer.message) == (outcome, message)


def test_an_error_status_names_the_anti_bot_page_that_came_with_it():
    body = b"<html><body><p>Please verify you are human.</p></body></html>"
    answer = _ddg(503, body, Query("rust"))
    assert (answer.outcome, answer.message) == ("http_error", "HTTP 503, CAPTCHA page")


def test_a_bot_page_with_200_is_blocked():
    body = b"<html><body><p>Checking your browser before accessing.</p></body></html>"
    answer = _ddg(200, body, Query("rust"))
    assert (answer.outcome, answer.message) == ("blocked", "HTTP 200, bot-check page")


def test_the_query_as_sent_is_taken_out_before_looking_for_bot_phrases():
    # DuckDuckGo is sent "x site:captcha.example"; a page that echoes it says "captcha"
    # only inside the query: it is not a CAPTCHA page, whatever the status.
    query = Query("x", allow=("captcha.example",))
    echo = b'<html><body><p>Nothing about "x site:captcha.example" here.</p></body></html>'
    assert _ddg(200, echo, query).outcome == "parse_error"
    assert _ddg(403, echo, query).message == "HTTP 403, forbidden"


def test_the_query_is_replaced_by_a_space_not_removed():
    # So that the words on each side of it never join into a phrase of an anti-bot page.
    body = b"<html><body><p>accesszzzdenied</p></body></html>"
    assert _ddg(403, body, Query("zzz")).message == "HTTP 403, access-denied page"
    assert _ddg(403, b"<html><body><p>accesszzzdenied</p></body></html>", Query("q")).message == (
        "HTTP 403, forbidden"
    )


def test_brave_no_results_phrase_is_read_without_the_query_as_sent():
    # Brave is sent "rust site:a.example": taken out whole (with a space in its place),
    # the words around it form "no results found".
    body = b"<html><body><p>no resultsrust site:a.examplefound</p></body></html>"
    answer = BY_NAME["brave"].classify(200, HTML, body, Query("rust", allow=("a.example",)))
    assert (answer.outcome, answer.message) == ("empty", "HTTP 200, no results page")


@pytest.mark.parametrize("body", [b"", b"  \r\n\t "])
def test_an_empty_200_is_a_parse_error(body):
    answer = _ddg(200, body, Query("rust"))
    assert (answer.outcome, answer.message) == ("parse_error", "HTTP 200 with an empty body")


def test_an_unknown_layout_is_a_parse_error_that_says_so():
    answer = _ddg(200, b"<html><body><h1>Welcome</h1></body></html>", Query("rust"))
    assert (answer.outcome, answer.message) == (
        "parse_error",
        "HTTP 200 page with no results and no 'no results' marker; the page layout may have changed",
    )


def test_the_charset_of_the_content_type_is_used():
    # No <meta> charset: only the header says the page is windows-1251.
    body = _results_page("Привет мир").replace(b"<html>", b"<html><head></head>")
    body = body.decode("utf-8").encode("windows-1251")
    headers = {"content-type": "text/html; charset=windows-1251"}
    answer = _ddg(200, body, Query("rust"), headers=headers)
    assert [r.title for r in answer.results] == ["Привет мир"]


def test_an_engine_without_or_classifies_a_query_with_several_allowed_domains():
    # Mojeek cannot OR site: terms; the query it was sent is the bare text, and reading its
    # answer must not trip over the note that says so.
    query = Query("rust async", allow=("a.example", "b.example"))
    answer = classify("mojeek", WS_FIXTURES / "mojeek_results.html", query=query.text)
    mojeek = BY_NAME["mojeek"]
    again = mojeek.classify(200, HTML, (WS_FIXTURES / "mojeek_results.html").read_bytes(), query)
    assert again.outcome == answer.outcome == "ok"
    assert [r.url for r in again.results] == [r.url for r in answer.results]


# ---------------------------------------------------------------- stopping a reader


@pytest.mark.parametrize(
    ("provider", "page"),
    [
        ("duckduckgo", "ddg_get.html"),
        ("duckduckgo-lite", "ddg_lite_results.html"),
        ("brave", "brave_results.html"),
        ("mojeek", "mojeek_results.html"),
        ("searxng", "searxng_results.json"),
    ],
)
def test_every_reader_stops_once_its_attempt_has_ended(provider, page):
    # The chain's hedged loser: its page is read no further once the run ended it
    # (ws.paging.walk sets what says so for the attempt's thread).
    from common.errors import Timeout
    from ws.backends.base import Stopped, stop_when

    path = WS_FIXTURES / page
    assert classify(provider, path).outcome == "ok"
    ended = False
    with stop_when(lambda: ended):
        assert classify(provider, path).outcome == "ok"  # not ended: read whole
        ended = True
        with pytest.raises(Stopped) as stopped:
            classify(provider, path)
    # A Timeout, as a fetch its Abort ended is: the chain says "cancelled" for both.
    assert isinstance(stopped.value, Timeout)
    assert classify(provider, path).outcome == "ok"  # another thread's work, or none


@pytest.mark.parametrize(
    ("provider", "page", "status", "read", "unread"),
    [
        ("mojeek", "mojeek_403.html", 403, "CAPTCHA page", "forbidden"),
        ("brave", "brave_429.html", 429, "rate-limit page", "rate limited"),
    ],
)
def test_a_block_read_once_the_attempt_ended_is_still_a_block(provider, page, status, read, unread):
    # The status says blocked; the kind of page is only the message's detail, not read
    # once the run ended the attempt: the block is kept (ws.health rests the engine).
    from ws.backends.base import BLOCKED, stop_when

    path = WS_FIXTURES / page
    whole = classify(provider, path, status)
    with stop_when(lambda: True):
        ended = classify(provider, path, status)
    assert whole.outcome == ended.outcome == BLOCKED
    assert (whole.message, ended.message) == (f"HTTP {status}, {read}", f"HTTP {status}, {unread}")


def test_a_ddg_202_read_once_the_attempt_ended_is_still_a_block():
    from ws.backends.base import BLOCKED, stop_when

    with stop_when(lambda: True):
        answer = classify("duckduckgo", WS_FIXTURES / "ddg_anomaly.html", 202)
    assert (answer.outcome, answer.message) == (BLOCKED, "HTTP 202, anomaly page")


def test_a_reader_s_stop_is_its_own_thread_s_and_ends_with_its_block():
    import threading

    from ws.backends.base import Stopped, check_stop, stop_when

    elsewhere: list[BaseException] = []

    def other() -> None:
        try:
            check_stop()  # another thread: nothing ended it
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            elsewhere.append(exc)

    outer_ended = False
    with stop_when(lambda: outer_ended):
        with stop_when(lambda: True):
            with pytest.raises(Stopped):
                check_stop()
            thread = threading.Thread(target=other)
            thread.start()
            thread.join()
        check_stop()  # the outer block's again: not ended yet
        outer_ended = True
        with pytest.raises(Stopped):
            check_stop()
    check_stop()  # outside every block: nothing stops a reader
    assert elsewhere == []


def test_brave_s_next_page_stops_once_the_attempt_has_ended():
    # Looked for after the results were read: a pagination of many links without Next
    # (300 000 of them: a second of CPU) is read no further once the run ended the attempt.
    from ws.backends import brave
    from ws.backends.base import Stopped, stop_when
    from ws.backends.html import ResultsPage

    links = b'<a href="/search?offset=1">Previous</a>' * 1000
    page = ResultsPage(b'<nav id="pagination">' + links + b"</nav>", "text/html")
    assert brave.next_page(page) is None
    with stop_when(lambda: True), pytest.raises(Stopped):
        brave.next_page(page)


def test_brave_s_web_blocks_stop_once_the_attempt_has_ended():
    # The results list is cut into its blocks from the bytes, one step a data-pos mark
    # (300 000 of them in 10 MB: half a second of CPU), before any parse asks: a step asks
    # whether the run ended the attempt, as every other reader's row does.
    from ws.backends import brave
    from ws.backends.base import Stopped, stop_when
    from ws.backends.html import ResultsPage

    fragments: list[bytes] = []

    class Page(ResultsPage):
        def fragment(self, data: bytes) -> object:
            fragments.append(data)
            return super().fragment(data)

    block = b'<div data-pos="{0}" data-type="web"><a href="https://a.test/{0}">t{0}</a></div>'
    body = b"<main>" + b"".join(block.replace(b"{0}", b"%d" % i) for i in range(200)) + b"</main>"
    assert len(brave.parse(Page(body, "text/html"))) == 200 and len(fragments) == 1
    asks: list[int] = []
    with stop_when(lambda: asks.append(1) or True), pytest.raises(Stopped):
        brave.parse(Page(body, "text/html"))
    assert len(asks) == 1 and len(fragments) == 1  # stopped at the first mark, no parse


def test_the_next_page_form_is_any_form_around_a_next_button():
    from ws.backends.html import ResultsPage, next_form

    def fields(body: str) -> dict[str, str] | None:
        return next_form(ResultsPage(f"<html><body>{body}</body></html>".encode(), "text/html"))

    hidden = '<input type="hidden" name="{0}" value="{1}">'
    prev = '<form><input type="submit" value="Previous">' + hidden.format("s", "0") + "</form>"
    nxt = '<form><div><input type="submit" value="Next Page &gt;"></div>{0}</form>'
    assert fields(prev) is None
    assert fields(prev + nxt.format(hidden.format("s", "30") + hidden.format("dc", "31"))) == {
        "s": "30",
        "dc": "31",
    }
    # Deep in a table, a field before the button, an empty value, fields of no form.
    table = '<table><tr><td>{0}</td><td><input type="submit" value="NEXT"></td></tr></table>'
    inner = "<form>" + table.format(hidden.format("vqd", "4-x") + '<input type="hidden" name="b">')
    assert fields(hidden.format("q", "out") + inner + "</form>") == {"vqd": "4-x", "b": ""}
    assert fields(nxt.format("")) is None  # a Next button, no fields: no form to send


def test_the_next_page_form_is_looked_for_no_further_once_the_attempt_has_ended():
    # 10 000 forms each with a Next button: one XPath took 1 s of CPU in libxml2 (its
    # merge of the forms' fields is quadratic), which nothing could end.
    from ws.backends.base import Stopped, stop_when
    from ws.backends.html import ResultsPage, next_form

    form = '<form><input type="submit" value="Next"><input type="hidden" name="s{0}"></form>'
    page = ResultsPage("".join(form.format(i) for i in range(100)).encode(), "text/html")
    assert len(next_form(page) or {}) == 100
    with stop_when(lambda: True), pytest.raises(Stopped):
        next_form(page)


def test_an_html_engine_is_read_from_what_it_declares():
    # One shared flow (antibot.HtmlBackend.classify) reads each engine's declarations: its
    # parser, its next page, and its no-results words or box; an engine that declares
    # words does not read a box another declared, and the reverse.
    from ws.backends.antibot import HtmlBackend
    from ws.backends.html import ResultsPage
    from ws.results import Result

    def links(page: ResultsPage) -> list[Result]:
        return [Result(title="t", url=u, snippet="") for u in page.doc.xpath("//a/@href")]

    class Words(HtmlBackend):
        no_results = ("nothing here",)
        parse = staticmethod(links)
        next_page = staticmethod(lambda page: {"p": "2"})

    class Box(Words):
        no_results_box = "//*[@id='none']"

    found = Words().classify(200, HTML, b'<p><a href="https://a.example/">a</a></p>', Query("q"))
    assert found.outcome == "ok" and [r.url for r in found.results] == ["https://a.example/"]
    assert found.find_next() == {"p": "2"}
    said = b"<p>Nothing here for you</p>"
    boxed = b"<div id='none'>0 hits</div>"
    assert Words().classify(200, HTML, said, Query("q")).outcome == "empty"
    assert Words().classify(200, HTML, boxed, Query("q")).outcome == "parse_error"
    assert Box().classify(200, HTML, boxed, Query("q")).outcome == "empty"
    assert Box().classify(200, HTML, said, Query("q")).outcome == "parse_error"
