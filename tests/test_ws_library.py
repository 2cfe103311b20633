"""ws as a library (ws.api) and what the chain owes it: the reading of an answer asks the
deadline as it goes (no supervisor ends a library call), results handed out are copies,
a usage error found inside an attempt is the run's and never the provider's, ``environ``
replaces os.environ whole, and a fused answer that lost an engine to a timeout, a
network failure, a 5xx or a bug is not kept. Local engines on 127.0.0.1; deadlines tested with clocks that read past them and
with counted asks, never with timing."""

from __future__ import annotations

import json
import os
import random
import threading
import time
from pathlib import Path

import pytest

from common.errors import HTTPServerError, Timeout, UsageError
from tests.helpers import WS_FIXTURES, Asks, invoke
from tests.servers import http_response
from tests.test_ws_cli import _chain_clock, _only, _options, engines, overdue

__all__ = ["engines", "overdue"]  # fixtures, used by name

HTML = {"content-type": "text/html; charset=utf-8"}
# Each engine's results page among the project's fixtures, and a query it answers.
PAGES = {
    "duckduckgo": "ddg_get.html",
    "duckduckgo-lite": "ddg_lite_results.html",
    "brave": "brave_results.html",
    "mojeek": "mojeek_results.html",
}


# -------------------------------------------------- 1. the reading asks the deadline


@pytest.mark.parametrize("provider", sorted(PAGES))
def test_an_engine_s_page_read_past_its_deadline_stops_at_the_next_step(provider):
    from ws.backends import BY_NAME
    from ws.backends.base import OK, Late, Query, stop_when

    body = (WS_FIXTURES / PAGES[provider]).read_bytes()
    backend = BY_NAME[provider]
    with stop_when(lambda: False, time.monotonic() + 3600):
        assert backend.classify(200, HTML, body, Query("rust")).outcome == OK
    with stop_when(lambda: False, time.monotonic() - 1.0), pytest.raises(Late):
        backend.classify(200, HTML, body, Query("rust"))


def test_a_json_engine_s_answer_read_past_its_deadline_stops_too():
    from ws.backends import BY_NAME
    from ws.backends.base import Late, Query, stop_when

    body = (WS_FIXTURES / "searxng_results.json").read_bytes()
    with stop_when(lambda: False, time.monotonic() - 1.0), pytest.raises(Late):
        BY_NAME["searxng"].classify(200, {"content-type": "application/json"}, body, Query("q"))


def test_the_visible_text_of_a_long_page_asks_between_windows(monkeypatch):
    # One split of 8 MB of text held the interpreter lock 0.15 s: it is read a window at
    # a time, with an ask between two.
    from ws.backends import html
    from ws.backends.base import Stopped, stop_when

    monkeypatch.setattr(html, "_WINDOW", 1000)
    words = " ".join(f"w{i}" for i in range(6000))  # 40 KB: 40 windows
    body = f"<html><body><p>{words}</p><p>\n  end </p></body></html>".encode()
    asks = Asks()
    with stop_when(asks):
        text = html.ResultsPage(body, "text/html").visible_text
    assert text == words + " end"
    assert asks.asks >= len(words) // 1000
    with stop_when(Asks(from_ask=10)), pytest.raises(Stopped):
        html.ResultsPage(body, "text/html").visible_text  # noqa: B018 - the read is the test


@pytest.mark.parametrize("window", [1, 2, 3, 5, 8, 64])
def test_the_windowed_collapse_is_split_and_join(monkeypatch, window):
    from ws.backends import html

    monkeypatch.setattr(html, "_WINDOW", window)
    rng = random.Random(window)
    alphabet = ["a", "b", "é", " ", "  ", "\n", "\t", "\xa0", "\u3000", "\u2028", "\x1c", "\x85"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        assert html.collapsed(text) == " ".join(text.split()), repr(text)


def test_the_bot_check_asks_before_each_search_of_the_page():
    from ws.backends.antibot import _BOT_MARKUP, _BOT_PHRASES, bot_check
    from ws.backends.base import Query, stop_when
    from ws.backends.html import ResultsPage

    page = ResultsPage(b"<html><body><p>nothing here</p></body></html>", "text/html")
    asks = Asks()
    with stop_when(asks):
        assert bot_check(page, Query("q")) is None
    assert asks.asks >= len(_BOT_MARKUP) + len(_BOT_PHRASES)


# 1 000 000 tiny paragraphs, 8 MB: the count of its tags before the parse took 40 to 65 ms
# of C with no ask of the deadline.
TAGS_8MB = b"<html><body>" + b"<p>a</p>" * 1_000_000


def test_the_tag_count_before_the_parse_asks_the_deadline_as_it_reads():
    from common.tag_counts import ASK_EVERY, cap_elements

    asks = Asks()
    assert cap_elements(TAGS_8MB, asks) == cap_elements(TAGS_8MB)  # the same cut
    assert asks.asks >= len(TAGS_8MB) // ASK_EVERY


@pytest.mark.parametrize("every", [1, 2, 3, 7, 64])
def test_the_tag_count_s_stretches_count_what_one_count_does(monkeypatch, every):
    # A "</" across two stretches is counted once, in the stretch it starts in.
    from common import tag_counts

    monkeypatch.setattr(tag_counts, "ASK_EVERY", every)
    rng = random.Random(every)
    for _ in range(300):
        text = "".join(rng.choice("<</p>") for _ in range(rng.randrange(0, 80)))
        start = rng.randrange(0, len(text) + 1)
        end = rng.randrange(start, len(text) + 2)
        for sub in ("<", "</"):
            asks = tag_counts._Asks(Asks())
            assert tag_counts._count(text, sub, asks, start, end) == text.count(sub, start, end)


def test_a_tag_count_past_the_deadline_cuts_the_page_to_nothing_at_its_first_ask():
    from common.parse_limits import limit

    late = Asks(from_ask=1)
    out, cut = limit(TAGS_8MB, late=late)
    assert late.asks == 1 and out == b"" and (cut.read, cut.size) == (0, len(TAGS_8MB))


def test_an_engine_page_whose_tags_are_counted_past_the_deadline_stops_there():
    # The stop is asked before the limits and after them (2 asks); the counts ask on the
    # way: the third ask, inside them, finds the attempt ended and the parse never starts.
    from ws.backends.base import Stopped, stop_when
    from ws.backends.html import parse_html

    asks = Asks(from_ask=3)
    with stop_when(asks), pytest.raises(Stopped):
        parse_html(TAGS_8MB)
    assert asks.asks == 4


def _reader_past_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The readers' clock (ws.backends.base.clock) reads an hour on: every ask finds the
    deadline passed. The fetches keep the real clock (common.http's), so the bytes come."""
    from ws.backends import base

    real = base.clock
    monkeypatch.setattr(base, "clock", lambda: real() + 3600)


def test_an_answer_still_read_at_the_total_deadline_is_a_timeout(engines, monkeypatch):
    from ws.chain import run

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    _reader_past_its_deadline(monkeypatch)
    report = run(_only(_options(engines, "rust", timeout=30.0), "duckduckgo"))
    (a,) = report.attempts
    assert (a.provider, a.outcome, a.message, a.error) == (
        "duckduckgo",
        "timeout",
        "no answer before the total deadline (--timeout 30 s): its page was still being read",
        Timeout,
    )
    assert type(report.error) is Timeout and engines.asked() == ["duckduckgo"]


def test_a_library_search_whose_pages_are_read_past_its_deadline_raises_timeout(
    engines, monkeypatch, tmp_path
):
    import ws

    for provider in PAGES:
        engines.answer(provider, 200, WS_FIXTURES / PAGES[provider])
    _reader_past_its_deadline(monkeypatch)
    environ = {**os.environ, **engines.env, "WS_CACHE_TTL": "600"}
    with pytest.raises(Timeout) as caught:
        ws.search("rust", all_engines=True, timeout=30, environ=environ)
    assert caught.value.code == 28 and "every provider timed out" in caught.value.message
    assert sorted(engines.asked()) == sorted(PAGES)
    assert not list((tmp_path / "wscache").rglob("*.json"))


def test_no_wait_of_the_run_ends_later_than_late_past_the_deadline(engines, monkeypatch, overdue):
    # Once the attempt is in flight the run's clock reads its deadline plus 1 s: the run
    # waits for nothing past the deadline plus _LATE (a wait of the library's caller, who
    # has no supervisor to end it), the overdue attempt's parse given up on.
    from ws import chain
    from ws.chain import run

    before = set(threading.enumerate())
    start = time.monotonic()

    def readings() -> float:
        mine = any(t.name == "ws-mojeek" and t not in before for t in threading.enumerate())
        return start + 2.0 if mine else start

    _chain_clock(monkeypatch, readings)
    wakes: list[float] = []
    real_next = chain._Search._next

    def next_(self: chain._Search, wake: float):  # type: ignore[no-untyped-def]
        wakes.append(wake)
        return real_next(self, wake)

    monkeypatch.setattr(chain._Search, "_next", next_)
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    overdue("mojeek")
    report = run(_only(_options(engines, "rust", timeout=1.0, fuse=True), "mojeek"))
    (a,) = report.attempts
    assert (a.outcome, a.error) == ("timeout", Timeout)
    assert wakes and max(wakes) <= start + 1.0 + chain._LATE


# -------------------------------------------------- 2. results handed out are copies


def test_results_are_copies_a_caller_may_change(engines):
    import ws

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    found = ws.search("rust", engines="duckduckgo,brave", environ={**os.environ, **engines.env})
    before = found.to_json()
    first = found.results[0]
    assert first["providers"] and first["ranks"]  # a fused result: a list and a dict in it
    first["title"] = "changed"
    first["providers"].append("changed")
    first["ranks"]["changed"] = 1
    found.results.clear()
    assert found.to_json() == before and len(found) == len(json.loads(before)["results"])
    assert found.results[0]["title"] != "changed"


def test_the_document_is_a_copy_and_the_results_read_only(engines, tmp_path):
    import ws

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    env = {**os.environ, **engines.env, "WS_CACHE_DIR": str(tmp_path), "WS_CACHE_TTL": "600"}
    found = ws.search("rust", engines="duckduckgo,brave", environ=env)
    before = found.to_json()
    doc = found.document
    assert json.dumps(doc, ensure_ascii=False, separators=(",", ":")) == before
    doc["query"] = "changed"
    doc["results"][0]["title"] = "changed"
    doc["results"][0]["providers"].append("changed")
    doc["results"][0]["ranks"]["changed"] = 1
    doc["attempts"][0]["outcome"] = "changed"
    doc["providers"].append("changed")
    doc["results"].clear()
    assert found.to_json() == before and found.document == json.loads(before)
    assert found.query == "rust" and len(found) == len(json.loads(before)["results"])
    with pytest.raises(AttributeError):
        found.document = doc  # type: ignore[misc]
    import copy
    import pickle

    # Read-only, and still pickled and copied as a cluster's workers need.
    assert pickle.loads(pickle.dumps(found)) == found == copy.deepcopy(found)
    # The next search is the cache's answer, as it was stored.
    again = ws.search("rust", engines="duckduckgo,brave", environ=env)
    assert again.cached and again.results == found.results


# -------------------------------------------------- 3. a usage error inside an attempt


def _usage_error_in_fetch(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every fetch raises the usage error a variable no fetch can use raises (as if it was
    changed after the check at start-up); returns the URLs asked."""
    from common.http import client

    asked: list[str] = []

    def fetch(url: str, *args: object, **kwargs: object) -> object:
        asked.append(url)
        raise UsageError("HTTPS_PROXY=socks5://x: unsupported proxy scheme 'socks5'")

    monkeypatch.setattr(client, "fetch", fetch)
    return asked


@pytest.mark.parametrize("fuse", [False, True])
def test_a_usage_error_in_an_attempt_ends_the_run_and_spares_the_provider(
    engines, monkeypatch, fuse
):
    from ws import health
    from ws.chain import run

    asked = _usage_error_in_fetch(monkeypatch)
    options = _options(engines, "rust", fuse=fuse, hedge=0.0)
    lines: list[str] = []
    for _ in range(health.FAILURES_TO_REST + 1):
        report = run(options, say=lines.append)
        assert type(report.error) is UsageError and report.error.code == 2
        assert report.error.message.startswith("HTTPS_PROXY=socks5://x: unsupported")
        assert report.results == [] and report.provider is None
    # Three network failures in a row would rest a provider: these count for nothing.
    assert health.load() == {}
    assert not (Path(os.environ["WS_STATE_DIR"]) / health.FILE_NAME).exists()
    assert "usage_error" in [a.outcome for a in report.attempts]
    if not fuse:
        # The chain stops at the first: every other provider would fail the same way.
        assert [a.outcome for a in report.attempts] == ["usage_error"]
        assert len(asked) == health.FAILURES_TO_REST + 1
    assert not any("usage_error" in line for line in lines)


def test_the_cli_exits_2_on_a_usage_error_found_in_an_attempt(engines, monkeypatch):
    from ws import health

    _usage_error_in_fetch(monkeypatch)
    r = invoke("ws", ["rust"], env=engines.env)
    assert r.code == 2 and r.stdout == ""
    assert r.stderr == "ws: (2) HTTPS_PROXY=socks5://x: unsupported proxy scheme 'socks5'\n"
    assert health.load() == {}


def test_the_library_raises_option_error_for_a_usage_error_found_in_an_attempt(
    engines, monkeypatch
):
    import ws
    from ws.api import OptionError

    _usage_error_in_fetch(monkeypatch)
    with pytest.raises(OptionError) as caught:
        ws.search("rust", environ={**os.environ, **engines.env})
    assert caught.value.code == 2 and isinstance(caught.value, ValueError)


# -------------------------------------------------- 4. environ= replaces os.environ


def _tripwire(serve):  # type: ignore[no-untyped-def]
    """A server on 127.0.0.1 that no request may reach (what os.environ points at)."""
    return serve(lambda conn, request: conn.sendall(http_response(500, b"", {})))


def test_environ_governs_the_dirs_the_config_and_the_proxy(engines, serve, tmp_path, monkeypatch):
    import ws

    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    (theirs / "config").mkdir(parents=True)
    # os.environ's config would choose brave; its proxy is a tripwire.
    (theirs / "config" / "ws.toml").write_text('provider = "brave"\n')
    trip = _tripwire(serve)
    for name, sub in (("CACHE", "cache"), ("STATE", "state"), ("CONFIG", "config")):
        monkeypatch.setenv(f"WS_{name}_DIR", str(theirs / sub))
        monkeypatch.setenv(f"XDG_{name}_HOME", str(theirs / "xdg"))
    monkeypatch.setenv("HOME", str(theirs))
    monkeypatch.setenv("http_proxy", trip.url)
    monkeypatch.setenv("HTTPS_PROXY", "socks5://127.0.0.1:9")  # a usage error if read
    # The caller's own: its proxy answers every engine (a forward proxy sees absolute URLs).
    proxy = serve(
        lambda conn, request: (
            conn.sendall(http_response(200, (WS_FIXTURES / "ddg_get.html").read_bytes(), HTML))
            if b" http://127.0.0.1:" in request.split(b"\r\n", 1)[0]
            else conn.sendall(http_response(500, b"", {}))
        )
    )
    engines.answer("duckduckgo", 500)  # never asked directly: the proxy answers
    environ = {
        **engines.env,
        "http_proxy": proxy.url,
        "WS_CACHE_TTL": "600",
        "WS_CACHE_DIR": str(mine / "cache"),
        "WS_STATE_DIR": str(mine / "state"),
        "WS_CONFIG_DIR": str(mine / "config"),
    }
    found = ws.search("rust", environ=environ)
    assert found.provider == "duckduckgo" and len(found) == 2
    assert trip.requests == [] and engines.srv.requests == [] and len(proxy.requests) == 1
    assert list((mine / "cache").glob("*.json")) and not (theirs / "cache").exists()
    assert ws.search("rust", environ=environ).cached  # the cache the caller named
    # Health: a failing engine is remembered in the caller's state dir only.
    engines.answer("duckduckgo", 500)
    environ.pop("http_proxy")
    with pytest.raises(HTTPServerError):
        ws.search("rust", engines="duckduckgo", environ=environ, use_cache=False)
    assert (mine / "state" / "health.json").exists() and not (theirs / "state").exists()


def test_an_environ_without_dirs_keeps_nothing_and_reads_no_config(engines, tmp_path, monkeypatch):
    import ws

    theirs = tmp_path / "theirs"
    (theirs / "config").mkdir(parents=True)
    (theirs / "config" / "ws.toml").write_text("provider = [not toml")  # fails if read
    for name in ("CACHE", "STATE", "CONFIG"):
        monkeypatch.setenv(f"WS_{name}_DIR", str(theirs / name.lower()))
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    environ = {**engines.env, "WS_CACHE_TTL": "600"}  # no HOME, no XDG_*, no WS_*_DIR
    assert len(ws.search("rust", environ=environ)) == 2
    assert not ws.search("rust", environ=environ).cached
    assert sorted(p.name for p in theirs.iterdir()) == ["config"]


def test_a_dir_variable_with_a_tilde_is_the_given_home_s():
    from common.paths import cache_dir, config_dir, state_dir

    env = {"HOME": "/nonexistent/home", "WS_CACHE_DIR": "~/c", "XDG_STATE_HOME": "/x/state"}
    assert cache_dir("ws", create=False, environ=env) == Path("/nonexistent/home/c")
    assert state_dir("ws", create=False, environ=env) == Path("/x/state/ws")
    assert config_dir("ws", environ=env) == Path("/nonexistent/home/.config/ws")


def test_the_proxy_check_at_the_start_reads_the_given_environ(engines, monkeypatch):
    import ws
    from ws.api import OptionError

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    monkeypatch.setenv("HTTPS_PROXY", "socks5://127.0.0.1:9")
    assert len(ws.search("rust", environ={**engines.env})) == 2
    with pytest.raises(OptionError, match="unsupported proxy scheme"):
        ws.search("rust", environ={**engines.env, "HTTP_PROXY": "socks5://127.0.0.1:9"})


def _one_engine(serve, body: bytes, engine: str = "brave", **server: object) -> dict[str, str]:
    """An environment whose ``engine`` is a local server answering ``body``, and nothing
    more: no dirs (no cache, health or config), no proxy, no CA store variable."""
    from ws.backends import BY_NAME

    srv = serve(lambda conn, request: conn.sendall(http_response(200, body, HTML)), **server)
    return {BY_NAME[engine].env: srv.url.rstrip("/") + "/" + engine}


def test_tls_reads_its_ca_store_from_the_given_environ(serve, tmp_path, monkeypatch):
    import ws
    from common.errors import TLSError
    from tests.servers import self_signed_context

    page = (WS_FIXTURES / "brave_results.html").read_bytes()
    env = _one_engine(serve, page, tls=self_signed_context(tmp_path, name="127.0.0.1"))
    trusted = {**env, "SSL_CERT_FILE": str(tmp_path / "cert.pem")}
    # os.environ's store would refuse the server: only the given one trusts it.
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "nothing.pem"))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path / "nothing"))
    assert len(ws.search("rust", engines="brave", environ=trusted)) == 2
    # And the other way: os.environ's store trusts it, the given environ (the system's
    # store, as a process without the variables has) does not.
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "cert.pem"))
    with pytest.raises(TLSError, match="TLS error with 127.0.0.1: self-signed certificate"):
        ws.search("rust", engines="brave", environ=env)


def test_tls_key_log_is_the_given_environ_s(serve, tmp_path, monkeypatch):
    import ws
    from tests.servers import self_signed_context

    page = (WS_FIXTURES / "brave_results.html").read_bytes()
    env = _one_engine(serve, page, tls=self_signed_context(tmp_path, name="127.0.0.1"))
    env["SSL_CERT_FILE"] = str(tmp_path / "cert.pem")
    monkeypatch.setenv("SSLKEYLOGFILE", str(tmp_path / "poison.log"))
    assert len(ws.search("rust", engines="brave", environ=env)) == 2
    assert not (tmp_path / "poison.log").exists()
    logged = {**env, "SSLKEYLOGFILE": str(tmp_path / "keys.log")}
    assert len(ws.search("rust", engines="brave", environ=logged)) == 2
    assert "CLIENT_HANDSHAKE_TRAFFIC_SECRET" in (tmp_path / "keys.log").read_text()


def test_the_parse_limits_switch_is_read_in_the_given_environ(serve, monkeypatch):
    # A results page behind 60 000 empty tags: the limits cut it at 50 000 start tags,
    # results and all; with the switch on, it is parsed whole.
    import ws
    from common.errors import AllFailed
    from common.parse_limits import MAX_START_TAGS, OFF_ENV

    page = (WS_FIXTURES / "mojeek_results.html").read_bytes()
    page = page.replace(b"<body>", b"<body>" + b"<i></i>" * (MAX_START_TAGS + 10_000), 1)
    assert page.count(b"<i></i>") > MAX_START_TAGS
    env = _one_engine(serve, page, "mojeek")
    monkeypatch.setenv(OFF_ENV, "1")
    with pytest.raises(AllFailed, match="mojeek: "):
        ws.search("rust", engines="mojeek", environ=env)
    monkeypatch.delenv(OFF_ENV)
    assert len(ws.search("rust", engines="mojeek", environ={**env, OFF_ENV: "1"})) > 0


# -------------------------------------------------- 5. a partial fused answer is not kept


@pytest.mark.parametrize("lost", [None, "timeout", "network", "internal_error", "http_error"])
def test_a_fused_answer_that_lost_an_engine_is_not_kept(engines, monkeypatch, lost):
    import dataclasses
    import socket

    from tests.test_ws_cli import _engine_class
    from ws import cache
    from ws.api import answer
    from ws.backends import BY_NAME
    from ws.config import Endpoint

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    if lost == "timeout":
        engines.hang("brave")  # cut at its attempt limit, long before the total deadline
    elif lost == "http_error":
        engines.answer("brave", 503, b"down")
    elif lost == "internal_error":

        def broken(*args: object) -> object:
            raise TypeError("an odd answer")

        monkeypatch.setattr(_engine_class(BY_NAME["brave"]), "classify", broken)
    options = _options(
        engines, "rust", fuse=True, attempt_timeout=0.5, timeout=20.0, cache_ttl=600.0
    )
    options = _only(options, "duckduckgo", "brave")
    if lost == "network":
        with socket.socket() as closed:  # a port nobody listens on: connection refused
            closed.bind(("127.0.0.1", 0))
            port = closed.getsockname()[1]
        brave = Endpoint(BY_NAME["brave"], f"http://127.0.0.1:{port}/brave", "WS_BRAVE_URL")
        options = dataclasses.replace(options, endpoints=(options.endpoints[0], brave))
    report, hit = answer(options, lambda line: None)
    assert hit is None and report.error is None and report.providers[0] == "duckduckgo"
    assert [a.outcome for a in report.attempts] == ["ok", lost or "ok"]
    assert report.cut == (lost is not None)
    # A later identical search asks the engines again rather than get the part as whole.
    assert (cache.load(options) is None) == (lost is not None)
