"""ws end to end: the chain and the CLI against local engines on 127.0.0.1, reached through
the endpoint variables (WS_DUCKDUCKGO_URL, WS_BRAVE_URL, WS_MOJEEK_URL, SEARXNG_URL)."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import SEARCH_CAPTURES, WS_FIXTURES, Result, invoke
from tests.servers import http_response

HTML = "text/html; charset=utf-8"
JSON_TYPE = "application/json"
PATHS = {
    "duckduckgo": "/ddg/html/",
    "duckduckgo-lite": "/ddg/lite/",
    "brave": "/brave/search",
    "mojeek": "/mojeek/search",
    "searxng": "/searx/search",
}
HANG = "hang"


class Engines:
    """One local server playing every engine; each path answers what the test says."""

    def __init__(self, serve: Callable, searxng: bool = False) -> None:
        self.routes: dict[str, object] = {}
        self.searxng = searxng
        self.srv = serve(self._handle)

    def answer(
        self,
        provider: str,
        status: int,
        body: bytes | Path = b"",
        ctype: str = HTML,
        **headers: str,
    ) -> None:
        data = body.read_bytes() if isinstance(body, Path) else body
        self.routes[PATHS[provider]] = (status, data, {"Content-Type": ctype, **headers})

    def hang(self, provider: str) -> None:
        self.routes[PATHS[provider]] = HANG

    def _handle(self, conn: socket.socket, request: bytes) -> None:
        if b" " not in request:
            return  # closed before a request was sent: an attempt cancelled as it connected
        path = request.split(b" ", 2)[1].decode().split("?", 1)[0]
        route = self.routes.get(path, (404, b"not here", {"Content-Type": "text/plain"}))
        if route == HANG:
            time.sleep(3)
            return
        status, body, headers = route  # type: ignore[misc]
        conn.sendall(http_response(status, body, headers))

    @property
    def env(self) -> dict[str, str]:
        base = self.srv.url.rstrip("/")
        env = {
            "WS_DUCKDUCKGO_URL": base + PATHS["duckduckgo"],
            "WS_DUCKDUCKGO_LITE_URL": base + PATHS["duckduckgo-lite"],
            "WS_BRAVE_URL": base + PATHS["brave"],
            "WS_MOJEEK_URL": base + PATHS["mojeek"],
        }
        if self.searxng:
            env["SEARXNG_URL"] = base + "/searx"
        return env

    def asked(self) -> list[str]:
        """The engines asked, in order."""
        names = {v: k for k, v in PATHS.items()}
        return [
            names.get(r.split(b" ", 2)[1].decode().split("?", 1)[0], "?") for r in self.srv.requests
        ]

    def requests(self, provider: str) -> list[bytes]:
        return [
            r for r in self.srv.requests if r.split(b" ", 2)[1].decode().startswith(PATHS[provider])
        ]


@pytest.fixture
def engines(serve) -> Engines:
    return Engines(serve)


def ws(engines: Engines | None, *args: str, env: dict[str, str] | None = None) -> Result:
    full = dict(engines.env) if engines else {}
    full.update(env or {})
    return invoke("ws", [str(a) for a in args], env=full)


def health_key(engines: Engines, provider: str) -> str:
    """The health file's key of one engine of ``engines`` (kept per endpoint)."""
    from ws.backends import BY_NAME
    from ws.health import key

    return key(provider, engines.env[BY_NAME[provider].env])


def all_blocked(engines: Engines) -> None:
    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("duckduckgo-lite", 202, WS_FIXTURES / "ddg_lite_anomaly.html")
    engines.answer("brave", 429, WS_FIXTURES / "brave_429.html")
    engines.answer("mojeek", 403, WS_FIXTURES / "mojeek_403.html")


# ---------------------------------------------------------------- exit codes


def test_results_exit_0_with_numbered_text(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    r = ws(engines, "rust", "async")
    assert (r.code, r.stderr) == (0, "")
    assert r.stdout == (
        'Search results for: "rust async" (via DuckDuckGo, 2 results)\n'
        "\n"
        "1. Getting Started - Asynchronous Programming in Rust\n"
        "   https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?highlight=future&lang=en#top\n"
        "   Welcome to Asynchronous Programming in Rust & friends! This book aims to be a comprehensive guide.\n"
        "\n"
        "2. Tutorial | Tokio - An asynchronous Rust runtime\n"
        "   https://tokio.rs/tokio/tutorial?a=1&b=x+y%20z\n"
        "   Tokio is an asynchronous runtime for the Rust programming language.\n"
    )
    assert engines.asked() == ["duckduckgo"]
    assert engines.requests("duckduckgo")[0].startswith(b"POST ")
    assert b"q=rust+async" in engines.requests("duckduckgo")[0]


def test_blocked_then_empty_then_ok_says_why_the_others_failed(engines):
    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("duckduckgo-lite", 202, WS_FIXTURES / "ddg_lite_anomaly.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_no_results.html")
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    r = ws(engines, "rust async", "--json")
    assert r.code == 0
    assert r.stderr == (
        "ws: duckduckgo: blocked (HTTP 202, anomaly page)\n"
        "ws: duckduckgo-lite: blocked (HTTP 202, anomaly page)\n"
        "ws: brave: empty (HTTP 200, no results page)\n"
    )
    doc = json.loads(r.stdout)
    assert doc["provider"] == "mojeek" and doc["error"] is None
    assert [(a["provider"], a["outcome"], a["status"]) for a in doc["attempts"]] == [
        ("duckduckgo", "blocked", 202),
        ("duckduckgo-lite", "blocked", 202),
        ("brave", "empty", 200),
        ("mojeek", "ok", 200),
    ]
    assert [x["url"] for x in doc["results"]] == ["https://tokio.rs/", "https://async.rs/"]
    assert engines.asked() == ["duckduckgo", "duckduckgo-lite", "brave", "mojeek"]


def test_all_blocked_exits_75(engines):
    all_blocked(engines)
    r = ws(engines, "rust")
    assert r.code == 75 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[:4] == [
        "ws: duckduckgo: blocked (HTTP 202, anomaly page)",
        "ws: duckduckgo-lite: blocked (HTTP 202, anomaly page)",
        "ws: brave: blocked (HTTP 429, rate-limit page)",
        "ws: mojeek: blocked (HTTP 403, CAPTCHA page)",
    ]
    assert lines[4] == (
        "ws: (75) every provider was blocked or rate-limited "
        "(duckduckgo, duckduckgo-lite, brave, mojeek); try again later, "
        "or set SEARXNG_URL to a SearxNG instance you run (see man ws)"
    )
    assert len(lines) == 5


def test_all_empty_exits_66(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_no_results.html")
    engines.answer("duckduckgo-lite", 200, WS_FIXTURES / "ddg_lite_no_results.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_no_results.html")
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_no_results.html")
    r = ws(engines, "xqzvbnmw")
    assert r.code == 66 and r.stdout == ""
    assert (
        r.stderr.splitlines()[-1]
        == 'ws: (66) no results for "xqzvbnmw" (duckduckgo, duckduckgo-lite, brave, mojeek)'
    )


def test_empty_where_answered_and_unreachable_elsewhere_is_still_66(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_no_results.html")
    engines.answer("duckduckgo-lite", 200, WS_FIXTURES / "ddg_lite_no_results.html")
    engines.hang("brave")
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_no_results.html")
    opts = _options(engines, "xqzvbnmw", attempt_timeout=0.3)
    from ws.chain import run

    report = run(opts)
    assert [a.outcome for a in report.attempts] == ["empty", "empty", "timeout", "empty"]
    assert report.error is not None and report.error.code == 66


def test_mixed_failures_exit_69(engines):
    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("duckduckgo-lite", 202, WS_FIXTURES / "ddg_lite_anomaly.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_no_results.html")
    engines.answer("mojeek", 500, b"oops")
    r = ws(engines, "rust")
    assert r.code == 69
    assert "ws: mojeek: http_error (HTTP 500)" in r.stderr.splitlines()
    assert r.stderr.splitlines()[-1] == (
        "ws: (69) every provider failed (duckduckgo: blocked, duckduckgo-lite: blocked, "
        "brave: empty, mojeek: http_error)"
    )


def test_all_failing_the_same_way_gives_that_code(engines):
    for name in ("duckduckgo", "duckduckgo-lite", "brave", "mojeek"):
        engines.answer(name, 503, b"down")
    r = ws(engines, "rust")
    assert r.code == 5
    assert r.stderr.splitlines()[-1].startswith(
        "ws: (5) every provider failed: duckduckgo: HTTP 503;"
    )


@pytest.mark.parametrize(("status", "code", "health"), [(500, 5, 1), (499, 4, 0)])
def test_a_5xx_is_a_server_failure_and_counts_against_the_provider(engines, status, code, health):
    from ws.health import load

    for name in ("duckduckgo", "duckduckgo-lite", "brave", "mojeek"):
        engines.answer(name, status, b"down")
    r = ws(engines, "rust")
    assert r.code == code, r.stderr
    # A failure of the provider (rests after three in a row), not of the request.
    entry = load().get(health_key(engines, "mojeek"))
    assert (entry.failures if entry else 0) == health


def test_a_redirect_loop_is_an_http_error_of_its_own_code(engines):
    from common.errors import TooManyRedirects
    from ws.chain import run

    for name in ("duckduckgo", "brave"):
        engines.answer(name, 302, b"", Location=PATHS[name])
    report = run(_only(_options(engines, "rust"), "duckduckgo", "brave"))
    assert [(a.outcome, a.status, a.error) for a in report.attempts] == [
        ("http_error", None, TooManyRedirects)
    ] * 2
    assert type(report.error) is TooManyRedirects and report.error.code == 47


def test_results_none_of_which_can_be_used_are_an_empty_answer(engines):
    import re

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    r = ws(
        engines, "rust", "--provider", "duckduckgo", "--block", "github.io", "--block", "tokio.rs"
    )
    assert r.stderr.splitlines()[0] == (
        "ws: duckduckgo: empty (HTTP 200, 2 results, all from blocked domains)"
    )
    engines.answer(
        "duckduckgo",
        200,
        re.sub(rb"uddg=https?%3A", b"uddg=ftp%3A", (WS_FIXTURES / "ddg_get.html").read_bytes()),
    )
    r = ws(engines, "rust", "--provider", "duckduckgo")
    assert r.stderr.splitlines()[0] == "ws: duckduckgo: empty (HTTP 200, no usable http(s) results)"


def test_an_empty_answer_and_a_layout_change_fail_as_two_different_things(engines):
    # Each failed attempt carries the exit-code row of its outcome: an empty answer is
    # "no results", a page the parser cannot read is a failure of its own, so together
    # they are two kinds of failure, summed up by outcome.
    from common.errors import AllFailed, NoResults
    from ws.chain import run

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_no_results.html")
    engines.answer("brave", 200, b"<html><body><p>A redesigned page.</p></body></html>")
    report = run(_only(_options(engines, "rust"), "duckduckgo", "brave"))
    assert [(a.outcome, a.status, a.error) for a in report.attempts] == [
        ("empty", 200, NoResults),
        ("parse_error", 200, AllFailed),
    ]
    assert type(report.error) is AllFailed and report.error.message == (
        "every provider failed (duckduckgo: empty, brave: parse_error)"
    )


def test_results_all_filtered_away_are_an_answered_empty_attempt(engines):
    # The engine answered (its status is kept): with nothing left after --block, the run
    # has no results, as a search nobody has results for, not a failure of the engine.
    from common.errors import NoResults
    from ws.chain import run

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    options = _options(engines, "rust", block=("github.io", "tokio.rs"))
    report = run(_only(options, "duckduckgo"))
    (a,) = report.attempts
    assert (a.outcome, a.status, a.error, a.message) == (
        "empty",
        200,
        NoResults,
        "HTTP 200, 2 results, all from blocked domains",
    )
    assert type(report.error) is NoResults
    assert report.error.message == 'no results for "rust" (duckduckgo)'


def test_layout_change_is_a_parse_error_not_no_results(engines):
    for name in ("duckduckgo", "duckduckgo-lite", "brave", "mojeek"):
        engines.answer(name, 200, b"<html><body><p>A redesigned page.</p></body></html>")
    r = ws(engines, "rust")
    assert r.code == 69
    assert (
        "ws: brave: parse_error (HTTP 200 page with no results and no 'no results' marker;"
        in r.stderr
    )


def test_connection_refused_everywhere_exits_7():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    url = f"http://127.0.0.1:{port}"
    r = ws(
        None,
        "rust",
        env={
            "WS_DUCKDUCKGO_URL": url + "/d",
            "WS_DUCKDUCKGO_LITE_URL": url + "/l",
            "WS_BRAVE_URL": url + "/b",
            "WS_MOJEEK_URL": url + "/m",
        },
    )
    assert r.code == 7
    assert r.stderr.splitlines()[0].startswith(
        f"ws: duckduckgo: network (could not connect to 127.0.0.1 port {port}"
    )


def test_verbose_traces_each_attempt_with_its_status_or_a_dash(engines):
    import re

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    engines.answer("duckduckgo-lite", 202, WS_FIXTURES / "ddg_lite_anomaly.html")
    env = {"WS_DUCKDUCKGO_URL": f"http://127.0.0.1:{port}/d"}
    r = ws(engines, "rust", "-v", "--provider", "duckduckgo", env=env)
    traced = [line for line in r.stderr.splitlines() if line.startswith("ws: * attempt ")]
    assert (
        traced[0] == f"ws: * attempt duckduckgo: POST http://127.0.0.1:{port}/d (WS_DUCKDUCKGO_URL)"
    )
    assert re.fullmatch(
        rf"ws: \* attempt duckduckgo: network, HTTP -, \d+ ms: could not connect to "
        rf"127\.0\.0\.1 port {port}.*",
        traced[1],
    ), traced
    assert re.fullmatch(
        r"ws: \* attempt duckduckgo-lite: blocked, HTTP 202, \d+ ms: HTTP 202, anomaly page",
        traced[3],
    ), traced


def test_slow_engines_share_the_deadline_and_each_is_asked(engines):
    for name in ("duckduckgo", "duckduckgo-lite", "brave", "mojeek"):
        engines.hang(name)
    start = time.monotonic()
    r = ws(engines, "rust", "--timeout", "2", "--json")
    took = time.monotonic() - start
    assert r.code == 28 and took < 4.0
    # A quarter of 2 s each: the first three are cut at their share, the last at the deadline.
    assert r.stderr.splitlines() == [
        "ws: duckduckgo: timeout (no answer within its share of the deadline (0.5 s of --timeout 2 s))",
        "ws: duckduckgo-lite: timeout (no answer within its share of the deadline (0.5 s of --timeout 2 s))",
        "ws: brave: timeout (no answer within its share of the deadline (0.5 s of --timeout 2 s))",
        "ws: mojeek: timeout (no answer before the total deadline (--timeout 2 s))",
        "ws: (28) every provider timed out (duckduckgo, duckduckgo-lite, brave, mojeek) "
        "(raise --timeout or WS_TIMEOUT)",
    ]
    assert engines.asked() == ["duckduckgo", "duckduckgo-lite", "brave", "mojeek"]
    attempts = json.loads(r.stdout)["attempts"]
    for a in attempts:
        assert a["outcome"] == "timeout" and 300 <= a["elapsed_ms"] < 1400, attempts


def test_the_deadline_report_names_only_the_providers_asked():
    from common.errors import Timeout
    from ws.chain import Attempt, failure

    asked = [Attempt("duckduckgo", "timeout", None, 5000, "no answer", Timeout)]
    error = failure(asked, "q", ["brave", "mojeek"])
    assert isinstance(error, Timeout)
    assert error.message == (
        "every provider asked timed out (duckduckgo); not asked before the deadline: brave, mojeek"
    )


def test_ws_timeout_sets_the_total_deadline(engines):
    for name in ("duckduckgo", "duckduckgo-lite", "brave", "mojeek"):
        engines.hang(name)
    start = time.monotonic()
    # A quarter each for the four engines of the default chain.
    r = ws(engines, "rust", env={"WS_TIMEOUT": "0.8"})
    took = time.monotonic() - start
    assert r.code == 28 and took < 2.0
    assert r.stderr.splitlines()[0] == (
        "ws: duckduckgo: timeout (no answer within its share of the deadline (0.2 s of --timeout 0.8 s))"
    )


def test_the_timeout_flag_beats_ws_timeout(engines):
    assert _providers(engines, env={"WS_TIMEOUT": "7.5"})["timeout"] == 7.5
    assert _providers(engines, "--timeout", "3", env={"WS_TIMEOUT": "7.5"})["timeout"] == 3
    # Given on the command line, the default value is still the user's choice.
    assert _providers(engines, "--timeout", "30", env={"WS_TIMEOUT": "7.5"})["timeout"] == 30
    assert _providers(engines)["timeout"] == 30


@pytest.mark.parametrize("value", ["soon", "0", "-1", "nan", "inf", "86401"])
def test_a_bad_ws_timeout_is_a_usage_error_before_any_request(engines, value):
    r = ws(engines, "rust", env={"WS_TIMEOUT": value})
    assert r.code == 2 and engines.srv.requests == [] and r.stdout == ""
    assert r.stderr.startswith(f"ws: (2) WS_TIMEOUT={value!r} ") and r.stderr.count("\n") == 1


def _options(engines: Engines, query: str, **changes):
    import os

    from ws.config import make_options

    env = {**os.environ, **engines.env}
    return dataclasses.replace(make_options(query, environ=env), **changes)


def test_a_hanging_provider_is_cut_at_its_limit_and_the_next_one_answers(engines):
    from ws.chain import run

    engines.hang("duckduckgo")
    engines.answer("duckduckgo-lite", 202, WS_FIXTURES / "ddg_lite_anomaly.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    lines: list[str] = []
    start = time.monotonic()
    report = run(_options(engines, "rust async", attempt_timeout=0.4), say=lines.append)
    took = time.monotonic() - start
    assert report.provider == "brave" and len(report.results) == 2
    first = report.attempts[0]
    assert (first.outcome, first.status) == ("timeout", None)
    assert 350 <= first.elapsed_ms < 1500 and took < 2.5
    assert lines == [
        "duckduckgo: timeout (no answer within the per-attempt limit of 0.4 s)",
        "duckduckgo-lite: blocked (HTTP 202, anomaly page)",
    ]


def _engine_class(entry: object) -> type:
    """The engine's own class: the registry holds a lazy stand-in shared by every engine,
    so patching its class would change them all."""
    return type(getattr(entry, "backend", entry))


class Overdue:
    """Makes one provider's answer take long to parse, as one step of a parse (a call into
    libxml2) cannot be interrupted: its attempt outlives its limit. The parse waits until the run cancels
    its attempts (``until_cancel``) or until the test ends."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.cancelled = threading.Event()
        self.released = threading.Event()
        self.threads: list[tuple[str, bool]] = []  # the attempts' threads: name, daemon

    def __call__(self, provider: str, *, until_cancel: bool = False) -> None:
        from common.http.deadline import Abort
        from ws.backends import BY_NAME

        backend = _engine_class(BY_NAME[provider])
        classify, fire = backend.classify, Abort.fire
        event = self.cancelled if until_cancel else self.released

        def slow_classify(self_: object, *args: object) -> object:
            thread = threading.current_thread()
            self.threads.append((thread.name, thread.daemon))
            event.wait(10)
            return classify(self_, *args)  # type: ignore[arg-type]

        def fire_and_tell(abort: Abort) -> None:
            fire(abort)
            self.cancelled.set()

        self.monkeypatch.setattr(backend, "classify", slow_classify)
        self.monkeypatch.setattr(Abort, "fire", fire_and_tell)


@pytest.fixture
def overdue(monkeypatch):
    made = Overdue(monkeypatch)
    yield made
    made.released.set()


def _only(options, *providers: str):
    chosen = tuple(e for p in providers for e in options.endpoints if e.backend.name == p)
    return dataclasses.replace(options, endpoints=chosen)


AT_THE_DEADLINE = "no answer before the total deadline (--timeout 1 s)"


def test_an_attempt_that_outlives_the_deadline_is_stopped_as_a_timeout(engines, overdue):
    from common.errors import Timeout
    from ws.chain import run

    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    overdue("mojeek")
    start = time.monotonic()
    report = run(_only(_options(engines, "rust", timeout=1.0), "mojeek"))
    took_ms = (time.monotonic() - start) * 1000
    (a,) = report.attempts
    assert (a.provider, a.outcome, a.status, a.message, a.error, a.notes) == (
        "mojeek",
        "timeout",
        None,
        AT_THE_DEADLINE,
        Timeout,
        [],
    )
    # Waited for to the deadline and _LATE past it, then _LATE more once cancelled: the
    # run ends before the watchdog's backstop would (GRACE past the deadline), so that
    # what it has is printed.
    from common.watchdog import GRACE

    assert 1000 <= a.elapsed_ms <= took_ms < (1.0 + GRACE) * 1000
    assert a.as_json() == {
        "provider": "mojeek",
        "outcome": "timeout",
        "status": None,
        "elapsed_ms": a.elapsed_ms,
        "message": AT_THE_DEADLINE,
        "retry_at": None,
    }
    assert (report.provider, report.results) == (None, [])
    assert type(report.error) is Timeout
    assert report.error.message == "every provider timed out (mojeek)"
    # A daemon, so that it cannot keep the process alive; named for the thread checks.
    assert overdue.threads == [("ws-mojeek", True)]


def test_an_answer_after_the_run_gave_up_is_a_timeout_that_keeps_its_notes(engines, overdue):
    from common.errors import Timeout
    from ws.chain import run

    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    overdue("mojeek", until_cancel=True)
    lines: list[str] = []
    options = _only(_options(engines, "rust", timeout=1.0, safe="moderate"), "mojeek")
    report = run(options, say=lines.append)
    (a,) = report.attempts
    note = "--safe moderate has no Mojeek equivalent (only on or off); ignored"
    # Results that come after the run gave up are not used: the attempt timed out.
    assert (a.provider, a.outcome, a.status, a.message, a.error, a.notes) == (
        "mojeek",
        "timeout",
        None,
        AT_THE_DEADLINE,
        Timeout,
        [note],
    )
    assert a.as_json()["message"] == f"{AT_THE_DEADLINE}; {note}"
    assert lines == [f"mojeek: {note}", f"mojeek: timeout ({AT_THE_DEADLINE})"]
    assert (report.provider, report.results) == (None, [])
    assert type(report.error) is Timeout


def test_a_block_that_ends_a_cancelled_attempt_is_kept(engines, overdue):
    from ws.chain import run
    from ws.health import load

    engines.answer("mojeek", 403, WS_FIXTURES / "mojeek_403.html")
    overdue("mojeek", until_cancel=True)  # its answer is read once the hedge has won
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    report = run(_only(_options(engines, "rust", hedge=0.05), "mojeek", "duckduckgo"))
    assert report.provider == "duckduckgo"
    first = report.attempts[0]
    # It ended on its own, with a block worth remembering, not as cancelled.
    assert (first.provider, first.outcome, first.status) == ("mojeek", "blocked", 403)
    assert load()[health_key(engines, "mojeek")].blocks == 1


def _long_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a cancelled attempt take up to 10 s to end on its own before the run stops
    waiting for it (1 s in ws): on a loaded machine the loser of a hedged pair can need
    more than the second to get to the end its test is about, and would then be stopped
    by the run instead, whatever that end."""
    from ws import chain

    monkeypatch.setattr(chain, "_GRACE", 10.0)


def test_an_attempt_that_fails_on_its_own_after_it_was_cancelled_is_cancelled(
    engines, overdue, monkeypatch
):
    # The hedged loser reads its first page once the hedge has won (and cancelled it),
    # then fails on its second page with an error of its own, not a timeout (the page's
    # URL is over the length cap: refused before any connection). The run cancelled it:
    # it is reported as cancelled, not as that failure.
    from common.http.url import MAX_URL_LENGTH
    from ws import config
    from ws.backends import BY_NAME
    from ws.backends.base import Query
    from ws.chain import run

    # A query past what the CLI takes (ws.config.QUERY_MAX): only a URL over the cap fails.
    monkeypatch.setattr(config, "QUERY_MAX", MAX_URL_LENGTH)
    mojeek = BY_NAME["mojeek"]
    endpoint = engines.env["WS_MOJEEK_URL"]
    fixed = len(mojeek.build(Query("x"), endpoint).url) - 1
    query = "x" * (MAX_URL_LENGTH - fixed)  # the first page's URL is at the cap exactly
    assert len(mojeek.build(Query(query), endpoint).url) == MAX_URL_LENGTH
    assert len(mojeek.build(Query(query), endpoint, {"s": "11"}).url) > MAX_URL_LENGTH
    page = (
        '<html><body><ul class="results-standard"><li><h2><a class="title" '
        'href="https://a.example/">A</a></h2><p class="s">first</p></li></ul>'
        '<div class="pagination"><a href="/search?q=x&amp;s=11">Next</a></div></body></html>'
    )
    engines.answer("mojeek", 200, page.encode())
    overdue("mojeek", until_cancel=True)  # its first page is read once the hedge has won
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    _long_grace(monkeypatch)
    lines: list[str] = []
    options = _options(engines, query, hedge=0.05)
    report = run(_only(options, "mojeek", "duckduckgo"), say=lines.append)
    assert report.provider == "duckduckgo"
    loser = report.attempts[0]
    assert (loser.provider, loser.outcome, loser.status, loser.error, loser.notes) == (
        "mojeek",
        "cancelled",
        None,
        None,
        [],
    )
    assert loser.message == "duckduckgo answered first"
    assert lines == []


def test_a_fused_run_keeps_the_answers_it_has_when_the_others_outlive_the_deadline(
    engines, overdue
):
    from ws.chain import run

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.hang("brave")
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    overdue("mojeek")
    options = _options(engines, "rust", timeout=1.0, fuse=True)
    report = run(_only(options, "duckduckgo", "brave", "mojeek"))
    assert report.error is None
    assert (report.provider, report.providers) == ("duckduckgo", ["duckduckgo"])
    assert [r.url for r in report.results] == [
        "https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?highlight=future&lang=en#top",
        "https://tokio.rs/tokio/tutorial?a=1&b=x+y%20z",
    ]
    # Each attempt of a fused run may take the whole deadline: brave, which hangs, is cut
    # at it; mojeek, still parsing (in a step that asks nothing), is given up on _LATE
    # after it.
    assert [(a.provider, a.outcome, a.message) for a in report.attempts] == [
        ("duckduckgo", "ok", "HTTP 200, 2 results"),
        ("brave", "timeout", AT_THE_DEADLINE),
        ("mojeek", "timeout", AT_THE_DEADLINE),
    ]
    assert report.attempts[1].elapsed_ms >= 900 and report.attempts[2].elapsed_ms >= 1000


def test_a_deadline_gone_before_any_provider_is_asked_names_them_all(engines):
    from common.errors import Timeout
    from ws.chain import run

    report = run(_options(engines, "rust", timeout=1e-9))
    assert (report.attempts, report.results, engines.srv.requests) == ([], [], [])
    assert type(report.error) is Timeout and report.error.message == (
        "no provider was asked before the total deadline "
        "(duckduckgo, duckduckgo-lite, brave, mojeek)"
    )


def test_the_run_arms_the_watchdog_with_its_deadline_and_query(engines, monkeypatch):
    # In a tool process the supervisor kills a run past this deadline and names the query
    # in its error line; in process arm() is a no-op, so record what it is given.
    from common import watchdog
    from ws.chain import run

    armed: list[tuple[float, str]] = []
    monkeypatch.setattr(watchdog, "arm", lambda when, what="": armed.append((when, what)) or 0)
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    before = time.monotonic()
    run(_options(engines, "rust async", timeout=7.0))
    after = time.monotonic()
    ((when, what),) = armed
    assert before + 7.0 <= when <= after + 7.0 and what == "rust async"


def test_a_resting_provider_is_skipped_saying_until_when(engines):
    import os

    from ws.health import clock

    until = time.time() + 600
    entry = {"until": until, "blocks": 0, "failures": 3, "reason": ""}
    path = Path(os.environ["WS_STATE_DIR"]) / "health.json"
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    providers = {health_key(engines, "duckduckgo"): entry}
    path.write_text(json.dumps({"version": 1, "providers": providers}))
    path.chmod(0o600)
    engines.answer("duckduckgo-lite", 200, WS_FIXTURES / "ddg_lite_results.html")
    r = ws(engines, "rust", "--json")
    assert r.code == 0 and "duckduckgo" not in engines.asked()
    # No reason recorded: "failures". Not asked, it has no line on stderr; -v has one.
    why = f"resting after failures until {clock(until)}"
    assert r.stderr == ""
    traced = ws(engines, "rust", "-v").stderr
    assert f"ws: * duckduckgo: skipped ({why}; ws --reset-health ends the rest)\n" in traced
    assert json.loads(r.stdout)["attempts"][0] == {
        "provider": "duckduckgo",
        "outcome": "skipped",
        "status": None,
        "elapsed_ms": 0,
        "message": why,
        "retry_at": clock(until),
    }


def test_a_bug_in_one_attempt_is_an_internal_error_not_the_provider_s(engines, monkeypatch):
    from common.errors import InternalError
    from ws.backends import BY_NAME
    from ws.chain import run

    def broken(*args: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(_engine_class(BY_NAME["duckduckgo"]), "classify", broken)
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    lines: list[str] = []
    report = run(_only(_options(engines, "rust"), "duckduckgo"), say=lines.append)
    (a,) = report.attempts
    why = "unexpected error in broken (test_ws_cli.py:{}): RuntimeError: boom (this is a bug)"
    why = why.format(broken.__code__.co_firstlineno + 1)
    assert (a.provider, a.outcome, a.status, a.message, a.error) == (
        "duckduckgo",
        "internal_error",
        None,
        why,
        InternalError,
    )
    assert type(report.error) is InternalError and report.error.code == 1
    assert report.error.message == f"duckduckgo: {why}"
    assert lines == [f"duckduckgo: internal_error ({why})"]


def test_a_bug_on_the_command_line_exits_1_and_names_the_provider(engines, monkeypatch):
    # Run in this process (invoke): the patched parser is the one the CLI uses.
    from ws.backends import BY_NAME

    def broken(*args: object) -> object:
        raise KeyError("rows")

    monkeypatch.setattr(_engine_class(BY_NAME["brave"]), "classify", broken)
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    r = ws(engines, "rust", "--provider", "brave", env={"WS_HEDGE": "0"})
    lines = r.stderr.splitlines()
    assert r.code == 1 and r.stdout == "", r.stderr
    assert lines[0].startswith("ws: brave: internal_error (unexpected error in broken")
    assert lines[0].endswith("KeyError: 'rows' (this is a bug))")
    # The others were asked and failed (404 here): named in the run's error line.
    assert lines[-1].startswith("ws: (1) brave: unexpected error in broken")
    others = "duckduckgo: http_error, duckduckgo-lite: http_error, mojeek: http_error"
    assert lines[-1].endswith(f"(this is a bug) (the others: {others})")
    assert len(lines) == 5  # one line an attempt, one for the run


def test_a_bug_in_one_attempt_leaves_the_others_results(engines, monkeypatch):
    from ws.backends import BY_NAME
    from ws.chain import run

    def broken(*args: object) -> object:
        raise TypeError("odd answer")

    monkeypatch.setattr(_engine_class(BY_NAME["duckduckgo"]), "classify", broken)
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    options = _only(_options(engines, "rust", hedge=0.0), "duckduckgo", "brave")
    report = run(options)
    assert report.error is None and report.provider == "brave" and len(report.results) == 2
    assert [a.outcome for a in report.attempts] == ["internal_error", "ok"]
    fused = run(dataclasses.replace(options, fuse=True))
    assert fused.error is None and fused.providers == ["brave"]
    assert [a.outcome for a in fused.attempts] == ["internal_error", "ok"]


@pytest.mark.parametrize("fused", [False, True])
def test_a_bug_building_a_request_ends_that_attempt_only(engines, monkeypatch, fused):
    from ws.backends import BY_NAME
    from ws.chain import run

    def broken(*args: object) -> object:
        raise ValueError("no such parameter")

    monkeypatch.setattr(_engine_class(BY_NAME["brave"]), "build", broken)
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    lines: list[str] = []
    options = _options(engines, "rust", hedge=0.0, fuse=fused)
    report = run(_only(options, "brave", "mojeek"), say=lines.append)
    assert report.error is None and report.providers == ["mojeek"]
    assert [a.outcome for a in report.attempts] == ["internal_error", "ok"]
    assert engines.asked() == ["mojeek"]
    assert lines == [f"brave: internal_error ({report.attempts[0].message})"]
    assert "ValueError: no such parameter (this is a bug)" in lines[0]


def test_a_bug_the_fetch_caught_is_internal_too(engines, monkeypatch):
    # common.http.failures maps an exception it did not expect to a ToolError of code 1
    # ("... (this is a bug)"): a bug as much as one raised in a parser.
    from common.errors import InternalError, ToolError
    from common.http import client
    from ws.chain import run

    def fetch(url: str, *args: object, **kwargs: object) -> object:
        raise ToolError("unexpected error talking to 127.0.0.1: boom (this is a bug)")

    calls = _recorded(monkeypatch)
    monkeypatch.setattr(client, "fetch", fetch)
    report = run(_only(_options(engines, "rust"), "brave"))
    ((a,),) = [report.attempts]
    assert (a.outcome, a.error) == ("internal_error", InternalError)
    assert type(report.error) is InternalError
    assert [events for events, _wait in calls] == [{}]  # the provider not blamed


def test_a_bug_tells_the_health_file_nothing(engines, monkeypatch):
    from ws.backends import BY_NAME
    from ws.chain import run

    calls = _recorded(monkeypatch)

    def broken(*args: object) -> object:
        raise AttributeError("no rows")

    monkeypatch.setattr(_engine_class(BY_NAME["duckduckgo"]), "classify", broken)
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.answer("brave", 500, b"down")
    options = _only(_options(engines, "rust", hedge=0.0), "duckduckgo", "brave")
    report = run(options)
    assert [a.outcome for a in report.attempts] == ["internal_error", "http_error"]
    ((events, _wait),) = calls
    assert list(events) == [health_key(engines, "brave")]


def _recorded(monkeypatch) -> list[tuple[dict, float]]:
    """What the run hands ws.health.record: the events and how long it may wait."""
    from ws import health

    calls: list[tuple[dict, float]] = []
    monkeypatch.setattr(
        health, "record", lambda events, *, wait, environ=None: calls.append((events, wait))
    )
    return calls


def test_what_each_attempt_tells_the_health_file(engines, monkeypatch):
    import os

    from ws.backends import BY_NAME
    from ws.chain import run
    from ws.health import BLOCKED, FAILED, HEALTHY

    until = time.time() + 600
    path = Path(os.environ["WS_STATE_DIR"]) / "health.json"
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    resting = {"until": until, "blocks": 1, "failures": 0, "reason": "blocked"}
    resting_key = health_key(engines, "duckduckgo-lite")
    path.write_text(json.dumps({"version": 1, "providers": {resting_key: resting}}))
    path.chmod(0o600)
    engines.answer("duckduckgo", 429, WS_FIXTURES / "brave_429.html", **{"Retry-After": "120"})
    engines.answer("brave", 404, b"gone")
    engines.answer("mojeek", 500, b"down")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    closed = s.getsockname()[1]
    s.close()
    from ws.config import make_options

    env = {**os.environ, **engines.env, "SEARXNG_URL": f"http://127.0.0.1:{closed}"}
    calls = _recorded(monkeypatch)
    run(make_options("rust", environ=env))
    ((events, wait),) = calls
    # Kept per endpoint: the provider's name, then its URL.
    told = {name.split()[0]: (e.kind, e.reason, e.retry_after) for name, e in events.items()}
    assert sorted(events) == sorted(f"{n} {env[BY_NAME[n].env]}" for n in told)
    # The resting provider was skipped: it tells nothing, and nor does it hide the others.
    assert sorted(told) == ["brave", "duckduckgo", "mojeek", "searxng"]
    assert told["duckduckgo"][0] == BLOCKED and told["duckduckgo"][2] == 120.0
    assert told["duckduckgo"][1].startswith("blocked: HTTP 429"), told
    assert told["brave"] == (HEALTHY, "", None)  # a 4xx is the request's fault
    assert told["mojeek"] == (FAILED, "http_error: HTTP 500", None)
    assert told["searxng"][0] == FAILED, told
    assert told["searxng"][1].startswith(f"network: could not connect to 127.0.0.1 port {closed}")
    assert wait == 2.0  # the deadline is far: the lock is waited for 2 s at most


def test_the_health_update_never_waits_past_the_deadline(engines, monkeypatch):
    from ws.chain import run

    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("duckduckgo-lite", 200, WS_FIXTURES / "ddg_lite_results.html")
    calls = _recorded(monkeypatch)
    start = time.monotonic()
    run(_options(engines, "rust", timeout=1.0))
    ((_, wait),) = calls
    left = start + 1.0 - time.monotonic()
    # What is left of the deadline when the run records, less 50 ms.
    assert left - 0.05 - 0.03 <= wait <= left - 0.05 + 0.045, (wait, left)


def test_a_default_endpoint_gets_no_exception_from_the_policy(monkeypatch):
    # Only an endpoint the operator set (a variable) may be on a private network; a
    # default one that resolves to loopback is refused like any other host.
    import os

    from ws.chain import run
    from ws.config import make_options

    def loopback(host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        assert host == "html.duckduckgo.com", host
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(socket, "getaddrinfo", loopback)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WS_", "SEARXNG"))}
    env["WS_STATE_DIR"] = os.environ["WS_STATE_DIR"]
    report = run(_only(make_options("rust", environ=env), "duckduckgo"))
    (a,) = report.attempts
    assert (a.provider, a.outcome) == ("duckduckgo", "network"), a
    assert "refused html.duckduckgo.com" in a.message and "loopback" in a.message, a.message


def test_the_loser_of_a_hedged_pair_is_cancelled_with_its_notes(engines):
    from ws.chain import run

    engines.hang("mojeek")
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    options = _options(engines, "rust", hedge=0.05, safe="moderate")
    report = run(_only(options, "mojeek", "duckduckgo"))
    assert report.provider == "duckduckgo" and len(report.results) == 2
    loser = report.attempts[0]
    # Cancelled once the hedge, started 0.05 s in, has answered: the wait for the hedge
    # is not rounded up to a second.
    winner = report.attempts[1]
    assert loser.elapsed_ms - winner.elapsed_ms < 700, (loser.elapsed_ms, winner.elapsed_ms)
    note = "--safe moderate has no Mojeek equivalent (only on or off); ignored"
    assert (loser.provider, loser.outcome, loser.status, loser.error, loser.notes) == (
        "mojeek",
        "cancelled",
        None,
        None,
        [note],
    )
    assert loser.as_json()["message"] == f"duckduckgo answered first; {note}"


def test_the_per_attempt_limit_bounds_every_page_of_an_attempt(serve):
    import os

    from ws.chain import run
    from ws.config import make_options

    first_page = (WS_FIXTURES / "ddg_lite_results.html").read_bytes()
    asked: list[int] = []

    def lite(conn: socket.socket, request: bytes) -> None:
        asked.append(len(asked) + 1)
        if len(asked) == 1:
            time.sleep(1.0)  # the first page takes half the limit
            conn.sendall(http_response(200, first_page, {"Content-Type": HTML}))
        else:
            time.sleep(5)  # the second never comes

    srv = serve(lite)
    env = {**os.environ, "WS_DUCKDUCKGO_LITE_URL": srv.url.rstrip("/") + PATHS["duckduckgo-lite"]}
    options = dataclasses.replace(make_options("rust", environ=env), attempt_timeout=2.0)
    report = run(_only(options, "duckduckgo-lite"))
    (a,) = report.attempts
    assert a.outcome == "ok" and asked == [1, 2], (a.outcome, a.message, asked)
    # Each fetch of the attempt is given what is left of the per-attempt limit, which its
    # timeout names (about 1 s here), not the whole limit.
    (note,) = a.notes
    head, _, tail = note.partition(" s (what was left of the overall deadline); ")
    assert head.startswith("page 2: timed out after ") and 0.5 < float(head.split()[-1]) < 1.5
    assert tail == "keeping the 3 results of the pages before", note
    # The second page has what is left of the 2 s, not 2 s of its own (3 s in all).
    assert 1900 <= a.elapsed_ms < 2600, a.elapsed_ms


def _hang_until_closed(conn: socket.socket, within: float = 5.0) -> None:
    """Send nothing; return once the client has closed the connection (or ``within``)."""
    conn.settimeout(0.05)
    give_up = time.monotonic() + within
    while time.monotonic() < give_up:
        try:
            if conn.recv(1) == b"":
                return
        except TimeoutError:
            continue
        except OSError:
            return


def test_a_hedged_loser_cancelled_during_its_next_page_is_cancelled_without_a_note(
    serve, monkeypatch
):
    # A walk that cancellation ends between pages raises as a first page would: the
    # attempt was cancelled, not cut short by a failed page worth a note.
    import os

    from ws.chain import run
    from ws.config import make_options

    first_page = (WS_FIXTURES / "ddg_lite_results.html").read_bytes()
    asked: list[int] = []
    second_page_asked = threading.Event()

    def lite(conn: socket.socket, request: bytes) -> None:
        asked.append(len(asked) + 1)
        if len(asked) == 1:
            conn.sendall(http_response(200, first_page, {"Content-Type": HTML}))
        else:
            second_page_asked.set()
            _hang_until_closed(conn)  # the second page never comes

    def brave(conn: socket.socket, request: bytes) -> None:
        second_page_asked.wait(10)  # the hedge wins while lite waits for its second page
        conn.sendall(http_response(200, (WS_FIXTURES / "brave_results.html").read_bytes()))

    env = {
        **os.environ,
        "WS_DUCKDUCKGO_LITE_URL": serve(lite).url.rstrip("/") + PATHS["duckduckgo-lite"],
        "WS_BRAVE_URL": serve(brave).url.rstrip("/") + PATHS["brave"],
    }
    options = dataclasses.replace(make_options("rust", environ=env), hedge=0.05)
    _long_grace(monkeypatch)
    lines: list[str] = []
    report = run(_only(options, "duckduckgo-lite", "brave"), say=lines.append)
    assert report.provider == "brave" and asked == [1, 2], (report.provider, asked)
    loser = report.attempts[0]
    assert (loser.provider, loser.outcome, loser.status, loser.error, loser.notes) == (
        "duckduckgo-lite",
        "cancelled",
        None,
        None,
        [],
    )
    assert loser.as_json()["message"] == "brave answered first"
    assert lines == []


def _chain_clock(monkeypatch: pytest.MonkeyPatch, readings: Callable[[], float]) -> None:
    """ws.chain's monotonic clock replaced by ``readings``, for an instant the real clock
    (nanoseconds apart from one reading to the next) never gives twice. The fetches below
    the chain keep the real clock: the readings start from it, so that their limits agree."""
    import types

    from ws import attempt, chain

    clock = types.SimpleNamespace(monotonic=readings, time=time.time)
    monkeypatch.setattr(chain, "time", clock)
    monkeypatch.setattr(attempt, "time", clock)


@pytest.mark.parametrize(
    ("providers", "timeout", "why"),
    [
        # The last provider, whose ceiling is all the time left: the deadline cuts it.
        (("mojeek",), 0.5, "no answer before the total deadline (--timeout 0.5 s)"),
        # One of two, whose share of the deadline is exactly the ceiling.
        (("mojeek", "duckduckgo"), 1.0, "no answer within the per-attempt limit of 0.5 s"),
    ],
)
def test_an_attempt_whose_ceiling_is_exactly_its_time_names_the_limit_that_cuts_it(
    engines, monkeypatch, providers, timeout, why
):
    from ws.chain import run

    start = time.monotonic()
    # No time passes between the run's start and its attempt.
    _chain_clock(monkeypatch, lambda: start)
    engines.hang("mojeek")
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    options = _options(engines, "rust", timeout=timeout, attempt_timeout=0.5)
    report = run(_only(options, *providers))
    first = report.attempts[0]
    assert (first.provider, first.outcome, first.message) == ("mojeek", "timeout", why)


def test_a_chain_that_first_looks_at_the_clock_at_its_deadline_asks_nobody(engines, monkeypatch):
    from common.errors import Timeout
    from ws.chain import run

    start = time.monotonic()
    readings = iter([start])  # the run's start; every later reading is its deadline exactly
    _chain_clock(monkeypatch, lambda: next(readings, start + 1.0))
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    report = run(_options(engines, "rust", timeout=1.0))
    # At the deadline an attempt would have no time at all: nobody is asked.
    assert (report.attempts, report.results, engines.srv.requests) == ([], [], [])
    assert type(report.error) is Timeout and report.error.message == (
        "no provider was asked before the total deadline "
        "(duckduckgo, duckduckgo-lite, brave, mojeek)"
    )


def test_an_attempt_overdue_at_the_deadline_plus_grace_is_stopped_at_once(engines, monkeypatch):
    # The chain waits for an attempt in flight until the deadline plus _GRACE, and not a
    # moment longer: here the clock reads exactly that from the moment the attempt is in
    # flight, and the run ends then, not at the attempt's own limit 5 s later.
    from common.errors import Timeout
    from ws import chain
    from ws.chain import run

    before = set(threading.enumerate())
    start = time.monotonic()
    overdue_at = start + 5.0 + chain._GRACE
    in_flight = threading.Event()  # once set, stays set: the clock never goes back

    def readings() -> float:
        if any(t.name == "ws-mojeek" and t not in before for t in threading.enumerate()):
            in_flight.set()
        return overdue_at if in_flight.is_set() else start

    _chain_clock(monkeypatch, readings)
    engines.hang("mojeek")
    report = run(_only(_options(engines, "rust", timeout=5.0), "mojeek"))
    took = time.monotonic() - start
    (a,) = report.attempts
    assert (a.outcome, a.message, a.error) == (
        "timeout",
        "no answer before the total deadline (--timeout 5 s)",
        Timeout,
    )
    # Stopped by the run at the deadline plus _GRACE (by its clock), not timed out by itself.
    assert a.elapsed_ms == int((overdue_at - start) * 1000)
    assert took < 4.0, took  # well before the 5 s, with room for a loaded machine


def test_the_hedge_starts_at_its_instant_even_in_the_deadline_s_last_second(engines, monkeypatch):
    # The clock reads the hedge's instant exactly from the moment the first attempt is in
    # flight: the next provider starts then, although less than _GRACE is left of the
    # deadline (10 s, hedge 9.5 s), and its answer wins.
    from ws.chain import run

    before = set(threading.enumerate())
    start = time.monotonic()
    in_flight = threading.Event()  # once set, stays set: the clock never goes back

    def readings() -> float:
        if any(t.name == "ws-mojeek" and t not in before for t in threading.enumerate()):
            in_flight.set()
        return start + 9.5 if in_flight.is_set() else start

    _chain_clock(monkeypatch, readings)
    engines.hang("mojeek")
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    options = _options(engines, "rust", timeout=10.0, hedge=9.5)
    report = run(_only(options, "mojeek", "duckduckgo"))
    took = time.monotonic() - start
    assert report.provider == "duckduckgo"
    assert [(a.provider, a.outcome, a.message) for a in report.attempts] == [
        ("mojeek", "cancelled", "duckduckgo answered first"),
        ("duckduckgo", "ok", "HTTP 200, 2 results"),
    ]
    # At once, not when mojeek's own share (5 s) is over.
    assert took < 4.0, took


def test_a_hedge_due_in_the_deadline_s_last_second_still_starts_the_next_provider(engines, overdue):
    # The hedge is due 0.6 s into a 1.5 s deadline, with less than _GRACE left: the wait
    # for it ends with nothing finished (mojeek's answer is read only once the run has
    # cancelled it), and the run starts duckduckgo rather than give up.
    from ws.chain import run

    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    overdue("mojeek", until_cancel=True)
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    options = _options(engines, "rust", timeout=1.5, hedge=0.6)
    report = run(_only(options, "mojeek", "duckduckgo"))
    assert report.provider == "duckduckgo"
    assert [(a.provider, a.outcome, a.message) for a in report.attempts] == [
        ("mojeek", "cancelled", "duckduckgo answered first"),
        ("duckduckgo", "ok", "HTTP 200, 2 results"),
    ]


def test_waiting_for_an_attempt_the_run_sleeps_rather_than_polls(engines, monkeypatch):
    # Until the deadline plus _GRACE the run sleeps on the attempts' queue: it reads its
    # clock a few times in all, where a loop that polled would read it thousands of times.
    from ws.chain import run

    reads: list[float] = []

    def readings() -> float:
        reads.append(time.monotonic())
        return reads[-1]

    _chain_clock(monkeypatch, readings)
    engines.hang("mojeek")
    report = run(_only(_options(engines, "rust", timeout=1.5), "mojeek"))
    assert [a.outcome for a in report.attempts] == ["timeout"]
    assert len(reads) < 30, len(reads)


def test_an_attempt_s_elapsed_time_is_its_clock_s_in_milliseconds(engines, monkeypatch):
    # The attempt's thread sees its clock move by exactly one second from its start to
    # its end (the run's own readings stay real): 1000 ms, no more, no less.
    from ws.chain import run

    start = time.monotonic()
    started: set[threading.Thread] = set()

    def readings() -> float:
        thread = threading.current_thread()
        if not thread.name.startswith("ws-"):
            return time.monotonic()
        if thread in started:
            return start + 1.0
        started.add(thread)
        return start

    _chain_clock(monkeypatch, readings)
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    report = run(_only(_options(engines, "rust"), "duckduckgo"))
    (a,) = report.attempts
    assert (a.outcome, a.elapsed_ms) == ("ok", 1000)
    assert a.as_json()["elapsed_ms"] == 1000


def test_usage_errors_exit_2(engines):
    cases = [
        (
            ["rust", "--allow", "a.example", "--block", "b.example"],
            "--allow and --block cannot be used together",
        ),
        ([], "missing QUERY"),
        (["rust", "--region", "Germany"], "--region 'Germany' is not a country-language code"),
        (["rust", "--provider", "google"], "unknown provider 'google' (from --provider)"),
        (["rust", "--provider", "searxng"], "provider searxng (from --provider) needs SEARXNG_URL"),
        (["rust", "--json", "--urls"], "--json and --urls cannot be used together"),
        (["rust", "--allow", "not a domain"], "--allow 'not a domain' is not a domain name"),
        (["rust", "-n", "0"], "Invalid value for '-n' / '--max-results'"),
        (["rust", "--time", "h"], "Invalid value for '--time'"),
    ]
    for args, message in cases:
        r = ws(engines, *args)
        assert r.code == 2, args
        assert r.stdout == "" or "--json" in args
        assert r.stderr.startswith("ws: (2) ") and message in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1
    assert engines.srv.requests == []


def test_a_bad_endpoint_variable_is_a_usage_error(engines):
    r = ws(engines, "rust", env={"WS_BRAVE_URL": "file:///etc/passwd"})
    assert r.code == 2 and engines.srv.requests == []
    assert r.stderr == "ws: (2) WS_BRAVE_URL='file:///etc/passwd' is not an http(s) URL\n"


# ---------------------------------------------------------------- output forms


def test_json_has_every_key_on_success_and_failure(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    ok = json.loads(ws(engines, "rust", "--json", "-n", "1").stdout)
    assert list(ok) == ["query", "provider", "providers", "results", "attempts", "error", "cached"]
    assert ok["providers"] == ["duckduckgo"]
    assert ok["results"] == [
        {
            "rank": 1,
            "title": "Getting Started - Asynchronous Programming in Rust",
            "url": "https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?highlight=future&lang=en#top",
            "snippet": "Welcome to Asynchronous Programming in Rust & friends! This book aims to be a comprehensive guide.",
            "provider": "duckduckgo",
            "published": "2024-03-02",
        }
    ]
    attempt = ok["attempts"][0]
    assert list(attempt) == ["provider", "outcome", "status", "elapsed_ms", "message", "retry_at"]
    assert attempt["retry_at"] is None
    assert attempt["message"] == "HTTP 200, 1 result" and isinstance(attempt["elapsed_ms"], int)

    all_blocked(engines)
    r = ws(engines, "rust", "--json")
    failed = json.loads(r.stdout)
    assert r.code == 75
    assert (failed["provider"], failed["results"]) == (None, [])
    assert failed["error"]["code"] == 75 and failed["error"]["kind"] == "blocked"
    assert [a["outcome"] for a in failed["attempts"]] == ["blocked"] * 4

    usage = ws(engines, "--json")
    assert usage.code == 2
    assert json.loads(usage.stdout) == {
        "query": None,
        "provider": None,
        "providers": [],
        "results": [],
        "attempts": [],
        "error": {"code": 2, "kind": "usage", "message": 'missing QUERY: ws "what to search for"'},
        "cached": False,
    }


def test_urls_prints_only_urls(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    r = ws(engines, "rust", "--urls")
    assert r.stdout == (
        "https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?highlight=future&lang=en#top\n"
        "https://tokio.rs/tokio/tutorial?a=1&b=x+y%20z\n"
    )


def test_allow_is_sent_as_site_and_applied_again_locally(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    engines.answer("duckduckgo-lite", 200, WS_FIXTURES / "ddg_lite_results.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    r = ws(engines, "rust", "--allow", "docs.rs", "--urls")
    assert r.stdout == "https://docs.rs/futures/latest/futures/\n"
    assert r.stderr == (
        "ws: duckduckgo: empty (HTTP 200, 2 results, none from the allowed domains)\n"
        "ws: duckduckgo-lite: empty (HTTP 200, 3 results, none from the allowed domains)\n"
    )
    assert b"q=rust+site%3Adocs.rs" in engines.requests("duckduckgo")[0]
    assert b"q=rust+site%3Adocs.rs" in engines.requests("duckduckgo-lite")[0]
    assert b"q=rust+site%3Adocs.rs" in engines.requests("brave")[0]


def test_block_drops_results_from_a_domain_and_its_subdomains(engines):
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    r = ws(engines, "rust", "--block", "github.io", "--urls")
    assert r.stdout == "https://tokio.rs/tokio/tutorial?a=1&b=x+y%20z\n"


def test_unsupported_options_are_ignored_with_a_note(engines):
    engines.answer("mojeek", 200, WS_FIXTURES / "mojeek_results.html")
    r = ws(engines, "rust", "--provider", "mojeek", "--safe", "moderate", "--urls")
    assert r.code == 0
    assert (
        r.stderr
        == "ws: mojeek: --safe moderate has no Mojeek equivalent (only on or off); ignored\n"
    )


# ---------------------------------------------------------------- the chain and its configuration


def test_region_time_page_and_user_agent_reach_the_engine(engines):
    from urllib.parse import parse_qs

    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    args = ("--region", "de-de", "--time", "w", "--page", "2", "--user-agent", "probe/1")
    r = ws(engines, "rust", *args, "--urls")
    assert r.code == 0, r.stderr
    assert b"\r\nuser-agent: probe/1\r\n" in engines.requests("duckduckgo")[0].lower()
    form = parse_qs(engines.requests("duckduckgo")[0].split(b"\r\n\r\n", 1)[1].decode())
    assert (form["q"], form["kl"], form["df"], form["s"]) == (["rust"], ["de-de"], ["w"], ["10"])


def test_provider_moves_to_the_front_and_the_others_stay_as_fallbacks(engines):
    engines.answer("mojeek", 429, b"slow down")
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    r = ws(engines, "rust", "--provider", "mojeek")
    assert r.code == 0 and "(via DuckDuckGo, 2 results)" in r.stdout
    assert engines.asked() == ["mojeek", "duckduckgo"]


def test_searxng_joins_the_chain_after_duckduckgo_when_set(serve):
    engines = Engines(serve, searxng=True)
    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("duckduckgo-lite", 202, WS_FIXTURES / "ddg_lite_anomaly.html")
    engines.answer("searxng", 200, WS_FIXTURES / "searxng_results_new.json", JSON_TYPE)
    r = ws(engines, "rust", "--json")
    assert r.code == 0
    assert engines.asked() == ["duckduckgo", "duckduckgo-lite", "searxng"]
    assert r.stderr == (
        "ws: duckduckgo: blocked (HTTP 202, anomaly page)\n"
        "ws: duckduckgo-lite: blocked (HTTP 202, anomaly page)\n"
        "ws: searxng: unresponsive engines: google (CAPTCHA), bing (timeout)\n"
    )
    assert b"format=json" in engines.requests("searxng")[0]
    doc = json.loads(r.stdout)
    assert (
        doc["attempts"][2]["message"]
        == "HTTP 200, 1 result; unresponsive engines: google (CAPTCHA), bing (timeout)"
    )


def test_searxng_without_json_enabled_says_how_to_fix_it(serve):
    engines = Engines(serve, searxng=True)
    engines.answer("searxng", 403, b"<html><body><h1>403 Forbidden</h1></body></html>")
    engines.answer("duckduckgo", 200, WS_FIXTURES / "ddg_get.html")
    r = ws(engines, "rust", "--provider", "searxng", "--urls")
    assert r.code == 0
    assert r.stderr == (
        "ws: searxng: http_error (HTTP 403: the instance does not serve JSON; "
        "enable json in settings.yml: search.formats: [html, json])\n"
    )


def _providers(engines: Engines | None, *args: str, env: dict[str, str] | None = None) -> dict:
    r = ws(engines, "--providers", "--json", *args, env=env)
    assert r.code == 0, r.stderr
    return json.loads(r.stdout)


def test_flags_beat_environment_beat_config_file(engines, tmp_path):
    (tmp_path / "wsconfig").mkdir()
    (tmp_path / "wsconfig" / "ws.toml").write_text('provider = "mojeek"\n')
    info = _providers(engines)
    assert (info["provider"], info["provider_source"]) == (
        "mojeek",
        str(tmp_path / "wsconfig" / "ws.toml"),
    )
    assert [e["provider"] for e in info["chain"]] == [
        "mojeek",
        "duckduckgo",
        "duckduckgo-lite",
        "brave",
    ]
    info = _providers(engines, env={"WS_PROVIDER": "brave"})
    assert (info["provider"], info["provider_source"]) == ("brave", "WS_PROVIDER")
    info = _providers(engines, "--provider", "ddg", env={"WS_PROVIDER": "brave"})
    assert (info["provider"], info["provider_source"]) == ("duckduckgo", "--provider")
    assert [e["provider"] for e in info["chain"]] == [
        "duckduckgo",
        "duckduckgo-lite",
        "brave",
        "mojeek",
    ]
    info = _providers(engines, "--provider", "auto", env={"WS_PROVIDER": "brave"})
    assert [e["provider"] for e in info["chain"]] == [
        "duckduckgo",
        "duckduckgo-lite",
        "brave",
        "mojeek",
    ]


def test_a_broken_config_file_is_a_usage_error(engines, tmp_path):
    (tmp_path / "wsconfig").mkdir()
    (tmp_path / "wsconfig" / "ws.toml").write_text("provider = \n")
    r = ws(engines, "rust")
    assert (
        r.code == 2
        and engines.srv.requests == []
        and r.stderr.startswith(f"ws: (2) cannot read {tmp_path / 'wsconfig' / 'ws.toml'}:")
    )


@pytest.mark.parametrize("planted", ["dev-zero", "fifo", "directory", "large", "deep", "not-utf8"])
def test_a_config_file_ws_cannot_use_is_a_usage_error_at_once(
    engines, tmp_path, monkeypatch, planted
):
    """Only a regular file of at most CONFIG_MAX bytes is read: a link to /dev/zero held
    3.8 GB after 5 s, a FIFO waited for a writer for ever, and nested arrays past the
    recursion limit were an internal error (exit 1)."""
    from ws import config

    (tmp_path / "wsconfig").mkdir()
    path = tmp_path / "wsconfig" / "ws.toml"
    if planted == "dev-zero":
        path.symlink_to("/dev/zero")
    elif planted == "fifo":
        os.mkfifo(path)
    elif planted == "directory":
        path.mkdir()
    elif planted == "large":
        monkeypatch.setattr(config, "CONFIG_MAX", 64)
        path.write_text("# " + "x" * 100 + '\nprovider = "mojeek"\n')
    elif planted == "deep":
        path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    else:
        path.write_bytes(b'provider = "\xff"\n')
    r = ws(engines, "rust")
    assert r.code == 2 and engines.srv.requests == [] and r.stdout == ""
    assert r.stderr.startswith(f"ws: (2) cannot read {path}: ") and r.stderr.count("\n") == 1


def test_providers_lists_endpoints_and_what_is_configured(engines):
    r = ws(None, "--providers")
    assert r.code == 0 and r.stderr == ""
    assert r.stdout.splitlines()[:6] == [
        "Provider chain (preferred: auto, the default):",
        "  1. duckduckgo       https://html.duckduckgo.com/html/  (default endpoint)",
        "  2. duckduckgo-lite  https://lite.duckduckgo.com/lite/  (default endpoint)",
        "  3. brave            https://search.brave.com/search  (default endpoint)",
        "  4. mojeek           https://www.mojeek.com/search  (default endpoint)",
        "  -  searxng          not in the chain: set SEARXNG_URL to an instance's root URL",
    ]
    mirrored = ws(engines, "--providers", env={"SEARXNG_URL": "http://127.0.0.1:8888"})
    assert (
        f"  1. duckduckgo       {engines.env['WS_DUCKDUCKGO_URL']}  (from WS_DUCKDUCKGO_URL, trusted by the network policy)"
        in mirrored.stdout
    )
    assert (
        "  3. searxng          http://127.0.0.1:8888  (from SEARXNG_URL, trusted by the network policy)"
        in mirrored.stdout
    )


def test_endpoint_trust_covers_that_host_only(engines, serve):
    # The configured engine redirects to another loopback address: not trusted, refused.
    other = serve(lambda conn, req: conn.sendall(http_response(200, b"never")), host="127.0.0.2")
    engines.answer("duckduckgo", 302, b"", Location=other.url + "html/")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    r = ws(engines, "rust", "--urls")
    assert r.code == 0
    assert r.stderr.startswith("ws: duckduckgo: network (refused 127.0.0.2: loopback address;")
    assert other.requests == []


@pytest.mark.skipif(
    not SEARCH_CAPTURES.is_dir(), reason=f"real captures not found at {SEARCH_CAPTURES}"
)
def test_real_captures_through_the_chain(serve):
    engines = Engines(serve, searxng=True)
    engines.answer("duckduckgo", 202, SEARCH_CAPTURES / "duckduckgo" / "anomaly_captcha.html")
    # The capture is the lite endpoint's anomaly page, the html one serves the same.
    engines.answer("duckduckgo-lite", 202, SEARCH_CAPTURES / "duckduckgo" / "anomaly_captcha.html")
    engines.answer("searxng", 200, SEARCH_CAPTURES / "searxng" / "public_instance_botcheck.html")
    engines.answer("brave", 200, SEARCH_CAPTURES / "brave" / "results.html")
    r = ws(engines, "javascript tutorial", "-n", "3")
    assert r.code == 0
    assert r.stderr == (
        "ws: duckduckgo: blocked (HTTP 202, anomaly page)\n"
        "ws: duckduckgo-lite: blocked (HTTP 202, anomaly page)\n"
        "ws: searxng: blocked (HTTP 200, bot-check page)\n"
    )
    lines = r.stdout.splitlines()
    assert lines[0] == 'Search results for: "javascript tutorial" (via Brave, 3 results)'
    assert lines[2:5] == [
        "1. JavaScript Tutorial",
        "   https://www.w3schools.com/js/",
        "   JavaScript is easy to learn. This tutorial covers everything from basic JavaScript up to the latest 2026 version.",
    ]
    assert [line for line in lines if line[:1].isdigit()] == [
        "1. JavaScript Tutorial",
        "2. The Modern JavaScript Tutorial",
        "3. JavaScript Tutorial",
    ]


def test_help_names_the_variable_of_each_policy_flag() -> None:
    r = invoke("ws", ["--help"])
    flat = " ".join(r.stdout.split())
    assert "--allow-private" in flat and "[env WF_ALLOW_PRIVATE=1]" in flat
    assert "--allow-host HOST" in flat and "[env WF_ALLOW_HOSTS=a,b]" in flat


def test_captures_of_our_own_through_the_chain(serve):
    """The chain of test_real_captures_through_the_chain on fixtures of our own, so that a
    fresh clone runs it: DuckDuckGo's anomaly page (202) and a SearxNG instance's bot
    check are blocked, and Brave's results are printed."""
    engines = Engines(serve, searxng=True)
    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("duckduckgo-lite", 200, WS_FIXTURES / "ddg_lite_anomaly.html")
    engines.answer("searxng", 200, WS_FIXTURES / "searxng_botcheck.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    r = ws(engines, "rust async", "-n", "1")
    assert r.code == 0, r.stderr
    assert r.stderr == (
        "ws: duckduckgo: blocked (HTTP 202, anomaly page)\n"
        "ws: duckduckgo-lite: blocked (HTTP 200, anomaly page)\n"
        "ws: searxng: blocked (HTTP 200, bot-check page)\n"
    )
    lines = r.stdout.splitlines()
    assert lines[0] == 'Search results for: "rust async" (via Brave, 1 result)'
    assert [line for line in lines if line[:1].isdigit()] == [lines[2]]
    assert lines[3] == "   https://rust-lang.github.io/async-book/"


def test_interrupted_search_json_names_its_query(engines, monkeypatch):
    # Ctrl-C (or SIGTERM) mid-search is answered by run_cli, which sees only the error:
    # the document still names the query that was stopped, and the next run's does not.
    from ws import api

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "answer", interrupted)
    r = ws(engines, "--json", "  hello   world ")
    assert r.code == 130
    stopped = json.loads(r.stdout)
    assert stopped["query"] == "hello world"
    assert stopped["error"]["kind"] == "interrupted"
    assert r.stderr == "ws: (130) interrupted\n"
    usage = ws(engines, "--json")
    assert usage.code == 2 and json.loads(usage.stdout)["query"] is None


@pytest.mark.parametrize("first", [("hello",), ("--json", "hello")], ids=["text", "json"])
def test_a_usage_error_after_a_stopped_search_names_no_query(engines, monkeypatch, first):
    # In one process (tests, embedding), a run whose arguments click refuses never reaches
    # the command: the query of the search stopped before it is none of its.
    from ws import api

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "answer", interrupted)
    assert ws(engines, *first).code == 130
    usage = ws(engines, "--json", "--max-results", "many", "other")
    assert usage.code == 2, usage.stderr
    assert json.loads(usage.stdout)["query"] is None
