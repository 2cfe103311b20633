"""ws/chain.py's timing: each engine on its own local server (127.0.0.1), so that a test
can count the connections each one got, hold one open, and see when ws closed it.

Timings are asserted loosely (a lower bound where the design promises a wait, a generous
upper bound against hangs): the machine is shared and these are not speed tests."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import WS_FIXTURES, Result, invoke
from tests.servers import http_response

HTML = "text/html; charset=utf-8"
# The default chain, in its order (searxng takes part only when SEARXNG_URL is set).
VARIABLES = {
    "duckduckgo": "WS_DUCKDUCKGO_URL",
    "duckduckgo-lite": "WS_DUCKDUCKGO_LITE_URL",
    "brave": "WS_BRAVE_URL",
    "mojeek": "WS_MOJEEK_URL",
}
PAGES = {
    "duckduckgo": WS_FIXTURES / "ddg_get.html",
    "duckduckgo-lite": WS_FIXTURES / "ddg_lite_results.html",
    "brave": WS_FIXTURES / "brave_results.html",
    "mojeek": WS_FIXTURES / "mojeek_results.html",
}


class Meter:
    """How many requests the engines of one test hold at once, at most."""

    def __init__(self) -> None:
        self.now = 0
        self.peak = 0
        self.lock = threading.Lock()

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


class Engine:
    """One engine on a server of its own: answers (after ``delay``), or hangs until the
    client closes the connection, noting when that happened."""

    def __init__(self, serve: Callable, meter: Meter) -> None:
        self.meter = meter
        self.reply: tuple[int, bytes, dict[str, str]] | None = None
        self.delay = 0.0
        self.after: threading.Event | None = None  # answer only once this is set
        self.closed_at: list[float] = []
        self.stop = threading.Event()
        self.srv = serve(self._handle)

    def answer(self, status: int, body: bytes | Path, **headers: str) -> None:
        data = body.read_bytes() if isinstance(body, Path) else body
        self.reply = (status, data, {"Content-Type": HTML, **headers})

    def _handle(self, conn: socket.socket, request: bytes) -> None:
        self.meter.enter()
        try:
            if self.reply is None:
                self._hang(conn)
                return
            if self.after is not None:
                self.after.wait(10)
            if self.delay:
                time.sleep(self.delay)
            status, body, headers = self.reply
            conn.sendall(http_response(status, body, headers))
        finally:
            self.meter.leave()

    def _hang(self, conn: socket.socket) -> None:
        conn.settimeout(0.05)
        give_up = time.monotonic() + 20
        while not self.stop.is_set() and time.monotonic() < give_up:
            try:
                if conn.recv(1) == b"":
                    self.closed_at.append(time.monotonic())
                    return
            except TimeoutError:
                continue
            except OSError:
                self.closed_at.append(time.monotonic())
                return

    @property
    def connections(self) -> int:
        return self.srv.connections


@pytest.fixture
def engines(serve) -> dict[str, Engine]:  # type: ignore[no-untyped-def]
    meter = Meter()
    made = {name: Engine(serve, meter) for name in VARIABLES}
    yield made
    for engine in made.values():
        engine.stop.set()


def ws(engines: dict[str, Engine], *args: str, **env: str) -> Result:
    full = {VARIABLES[name]: e.srv.url + name for name, e in engines.items()}
    full.update(env)
    return invoke("ws", [*args], env=full)


def _timed(engines: dict[str, Engine], *args: str, **env: str) -> tuple[Result, float]:
    start = time.monotonic()
    r = ws(engines, *args, **env)
    return r, time.monotonic() - start


def _closed(engine: Engine, within: float = 2.0) -> int:
    """How many of the engine's connections the client has closed, waiting a little for
    the server thread (it looks every 50 ms) to notice a close that already happened."""
    give_up = time.monotonic() + within
    while not engine.closed_at and time.monotonic() < give_up:
        time.sleep(0.02)
    return len(engine.closed_at)


def _no_search_threads(within: float = 2.0) -> bool:
    give_up = time.monotonic() + within
    while time.monotonic() < give_up:
        if not [t for t in threading.enumerate() if t.name.startswith("ws-")]:
            return True
        time.sleep(0.02)
    return False


def test_a_hanging_first_engine_is_hedged_and_cancelled(engines):
    lite = engines["duckduckgo-lite"]
    lite.answer(200, PAGES["duckduckgo-lite"])
    lite.delay = 0.2
    engines["brave"].answer(200, PAGES["brave"])
    engines["mojeek"].answer(200, PAGES["mojeek"])
    r, took = _timed(engines, "rust", "--json", "--timeout", "20", WS_HEDGE="0.5")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["provider"] == "duckduckgo-lite" and len(doc["results"]) == 3
    # Within the hedge delay plus lite's answer time (and slack for a busy machine); far
    # below duckduckgo's share of the deadline (20 s / 4).
    assert 0.65 <= took < 4.0, took
    outcomes = [(a["provider"], a["outcome"]) for a in doc["attempts"]]
    assert outcomes == [("duckduckgo", "cancelled"), ("duckduckgo-lite", "ok")]
    cancelled = doc["attempts"][0]
    assert cancelled["message"] == "duckduckgo-lite answered first"
    assert cancelled["status"] is None
    assert 500 <= cancelled["elapsed_ms"] < 4000
    # Never a third request while two are in flight, and nothing said about the loser.
    assert engines["brave"].connections == 0 and engines["mojeek"].connections == 0
    assert r.stderr == ""
    # Cancelled means the connection was really closed, and the attempt's thread ended.
    assert _closed(engines["duckduckgo"]) == 1
    assert _no_search_threads()


def _rows_page(rows: int) -> bytes:
    """A DuckDuckGo results page of many rows: a second or so of reading."""
    row = (
        '<div class="result"><h2><a class="result__a" href="https://r{i}.example/">Row {i}'
        '</a></h2><a class="result__snippet">About row {i}</a></div>'
    )
    return ("<html><body>" + "".join(row.format(i=i) for i in range(rows))).encode()


def test_a_losers_page_stops_being_read_before_search_returns(engines, monkeypatch):
    # The hedge (lite) answers while duckduckgo's long page is being read: the loser
    # stops at its next row, and ws.search returns with none of its work left running,
    # instead of waiting the parse out or leaving it running in a thread.
    import ws
    from ws.backends import html

    rows = 10_000
    read: list[float] = []
    started = threading.Event()
    real = html.result_of

    def counted(link, provider, **kw):  # type: ignore[no-untyped-def]
        if provider == "duckduckgo":
            read.append(time.monotonic())
            started.set()
        return real(link, provider, **kw)

    monkeypatch.setattr(html, "result_of", counted)
    ddg, lite = engines["duckduckgo"], engines["duckduckgo-lite"]
    ddg.answer(200, _rows_page(rows))
    ddg.delay = 0.3  # past the hedge delay: lite is asked beside it
    lite.answer(200, PAGES["duckduckgo-lite"])
    lite.after = started  # lite answers once duckduckgo's page is being read
    env = {VARIABLES[name]: e.srv.url + name for name, e in engines.items()}
    start = time.monotonic()
    found = ws.search(
        "rust", environ={**env, "WS_HEDGE": "0.1"}, timeout=20, allow_private=True, use_cache=False
    )
    returned = time.monotonic()
    left = [t.name for t in threading.enumerate() if t.name.startswith("ws-")]
    assert found.provider == "duckduckgo-lite"
    outcomes = [(a["provider"], a["outcome"]) for a in found.document["attempts"]]
    assert outcomes == [("duckduckgo", "cancelled"), ("duckduckgo-lite", "ok")]
    assert left == []
    assert read and max(read) < returned
    assert len(read) < rows  # stopped part of the way, not read to the end
    time.sleep(0.2)
    assert max(read) < returned  # and nothing read after search returned
    assert returned - start < 5.0


def _until_stopped(within: float) -> None:
    """Wait in an attempt's thread until the run ends the attempt (within ``within``
    seconds; where nothing can stop the reader, the whole wait)."""
    from ws.backends.base import Stopped, check_stop

    give_up = time.monotonic() + within
    while time.monotonic() < give_up:
        try:
            check_stop()
        except Stopped:
            return
        time.sleep(0.01)


def test_a_losers_results_stop_being_cleaned_before_search_returns(engines, monkeypatch):
    # Its page read, the loser cleans its results (ws.results.finalise: thousands of long
    # URLs of a hostile page cost seconds) once, in the walk, counting what the pages gave
    # (the chain keeps -n of that list: ws.paging.kept). The other engine wins during the
    # pass: the loser stops at its next result, not at the end of the list.
    import ws
    from ws import results as results_module

    rows = 10_000
    cleaned: list[float] = []
    started = threading.Event()
    real = results_module.url_key
    pause_at = 1

    def counted(url, parts=None):  # type: ignore[no-untyped-def]
        if threading.current_thread().name == "ws-duckduckgo":
            cleaned.append(time.monotonic())
            if len(cleaned) == pause_at:
                started.set()
                _until_stopped(5.0)  # lite answers and wins meanwhile
        return real(url, parts)

    monkeypatch.setattr(results_module, "url_key", counted)
    ddg, lite = engines["duckduckgo"], engines["duckduckgo-lite"]
    # One page linked by every row: each pass reads all of them (-n counts only new ones).
    ddg.answer(200, _rows_page(rows).replace(b"https://r", b"https://one.example/#r"))
    ddg.delay = 0.3  # past the hedge delay: lite is asked beside it
    lite.answer(200, PAGES["duckduckgo-lite"])
    lite.after = started  # lite answers once duckduckgo's results are being cleaned
    env = {VARIABLES[name]: e.srv.url + name for name, e in engines.items()}
    found = ws.search(
        "rust", environ={**env, "WS_HEDGE": "0.1"}, timeout=20, allow_private=True, use_cache=False
    )
    returned = time.monotonic()
    assert found.provider == "duckduckgo-lite"
    outcomes = [(a["provider"], a["outcome"]) for a in found.document["attempts"]]
    assert outcomes == [("duckduckgo", "cancelled"), ("duckduckgo-lite", "ok")]
    assert _no_search_threads()
    assert pause_at <= len(cleaned) < pause_at + 10  # stopped at the next result or so
    assert max(cleaned) < returned


def test_without_hedging_the_first_engine_keeps_its_whole_share(engines):
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    engines["brave"].answer(200, PAGES["brave"])
    r, took = _timed(engines, "rust", "--json", "--timeout", "4", WS_HEDGE="0")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [(a["provider"], a["outcome"]) for a in doc["attempts"]] == [
        ("duckduckgo", "timeout"),
        ("duckduckgo-lite", "ok"),
    ]
    # A quarter of the 4 s deadline is duckduckgo's share (four engines in the chain):
    # lite is asked only after it.
    assert took >= 0.95 and doc["attempts"][0]["elapsed_ms"] >= 950
    assert engines["brave"].connections == 0
    assert r.stderr == (
        "ws: duckduckgo: timeout (no answer within its share of the deadline (1.0 s of "
        "--timeout 4 s))\n"
    )


def test_the_hedging_example_of_the_man_page(engines):
    # man/ws.1's HEDGING figures, run as written: the default 30 s deadline, four backends,
    # DuckDuckGo hanging and DuckDuckGo Lite answering at once. Slow on purpose (7.5 s).
    import re

    from tests.helpers import ROOT

    text = " ".join((ROOT / "man" / "ws.1").read_text().split("\n.SH HEDGING\n")[1].split())
    delay, share = re.search(
        r"results after the ([\d.]+) s delay.*? it waits out DuckDuckGo's share of the "
        r"deadline, ([\d.]+) s \(30 s shared by the four backends\)",
        text,
    ).groups()
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    r, took = _timed(engines, "rust", "--json")
    doc = json.loads(r.stdout)
    assert doc["provider"] == "duckduckgo-lite"
    assert float(delay) <= took < float(delay) + 2.0
    assert float(delay) * 1000 <= doc["attempts"][0]["elapsed_ms"] < float(delay) * 1000 + 2000

    r, took = _timed(engines, "rust", "--json", WS_HEDGE="0")
    doc = json.loads(r.stdout)
    first = doc["attempts"][0]
    assert first["outcome"] == "timeout" and doc["provider"] == "duckduckgo-lite"
    assert f"({share} s of --timeout 30 s)" in first["message"]
    assert float(share) <= took < float(share) + 2.0


def test_a_quick_failure_of_the_hedge_lets_the_next_engine_in_at_once(engines):
    engines["duckduckgo-lite"].answer(429, WS_FIXTURES / "brave_429.html")
    brave = engines["brave"]
    brave.answer(200, PAGES["brave"])
    brave.delay = 0.3
    engines["mojeek"].answer(200, PAGES["mojeek"])
    r, took = _timed(engines, "rust", "--json", "--timeout", "30", WS_HEDGE="0.4")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [(a["provider"], a["outcome"]) for a in doc["attempts"]] == [
        ("duckduckgo", "cancelled"),
        ("duckduckgo-lite", "blocked"),
        ("brave", "ok"),
    ]
    # brave took lite's place at once, not a second hedge delay later; still no more
    # than two requests in flight at any moment.
    assert 0.65 <= took < 3.5, took
    assert engines["duckduckgo"].meter.peak == 2
    assert engines["mojeek"].connections == 0
    assert r.stderr.splitlines() == ["ws: duckduckgo-lite: blocked (HTTP 429, rate-limit page)"]
    assert _closed(engines["duckduckgo"]) == 1
    assert _no_search_threads()


def test_an_answer_before_the_hedge_delay_asks_nobody_else(engines):
    engines["duckduckgo"].answer(200, PAGES["duckduckgo"])
    engines["brave"].answer(200, PAGES["brave"])
    r = ws(engines, "rust", "--json", WS_HEDGE="5")
    assert r.code == 0 and json.loads(r.stdout)["provider"] == "duckduckgo"
    assert [name for name, e in engines.items() if e.connections] == ["duckduckgo"]


@pytest.mark.parametrize("value", ["soon", "-1", "inf", "nan"])
def test_a_bad_ws_hedge_is_a_usage_error_before_any_request(engines, value):
    r = ws(engines, "rust", WS_HEDGE=value)
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.startswith(f"ws: (2) WS_HEDGE={value!r} ") and r.stderr.count("\n") == 1
    assert sum(e.connections for e in engines.values()) == 0


def test_providers_shows_the_hedge_delay(engines):
    assert json.loads(ws(engines, "--providers", "--json").stdout)["hedge"] == 2.5
    info = json.loads(ws(engines, "--providers", "--json", WS_HEDGE="0").stdout)
    assert info["hedge"] == 0
    text = ws(engines, "--providers", WS_HEDGE="0").stdout
    assert "  hedge          off (WS_HEDGE=0): one provider at a time" in text


def test_abort_ends_a_fetch_in_flight_from_another_thread(engines):
    from common.errors import Timeout
    from common.http.client import NetOptions, fetch
    from common.http.deadline import Abort
    from common.policy import Policy

    hung = engines["duckduckgo"]
    abort = Abort()
    threading.Timer(0.3, abort.fire).start()
    start = time.monotonic()
    net = NetOptions(timeout=10, policy=Policy(allow_private=True))
    with pytest.raises(Timeout):
        fetch(hung.srv.url, net, abort=abort)
    assert time.monotonic() - start < 3
    give_up = time.monotonic() + 2
    while not hung.closed_at and time.monotonic() < give_up:
        time.sleep(0.02)
    assert hung.closed_at, "the aborted fetch left its connection open"
    # Fired already: a fetch that starts now ends at once, without a connection.
    before = hung.connections
    with pytest.raises(Timeout):
        fetch(hung.srv.url, net, abort=abort)
    assert hung.connections == before
