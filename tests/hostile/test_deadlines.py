"""Servers that hold a connection open, and inputs that would run for ever: each case must
end at the total deadline (plus at most one second) with exit 28 and one clear line.

Timed as real processes, from spawn to exit. The cases mostly wait, so they run two at
a time (a module fixture starts them all; each test waits for its own); the in-process
resolver case runs on its own."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ALLOW, ENGINE_VARIABLES
from tests.hostile import proc
from tests.hostile.handlers import QuickServer, drip, forever, head, stall
from tests.servers import Handler, http_response

WIDTH = 2  # cases running at once


@dataclass
class Setup:
    """What a case's setup can reach: servers that close at the end, a private dir."""

    home: Path
    servers: list[Any] = field(default_factory=list)

    def serve(self, handler: Handler) -> QuickServer:
        srv = QuickServer(handler)
        self.servers.append(srv)
        return srv


@dataclass
class Case:
    setup: Callable[[Setup], tuple[list[str], dict[str, str]]]  # -> argv, extra environment
    timeout: float = 1.0
    tool: str = "wf"
    check: Callable[[proc.Run, Setup], None] | None = None


def _wf_case(handler: Handler, *extra: str, path: str = "", timeout: float = 1.0):
    def setup(s: Setup) -> tuple[list[str], dict[str, str]]:
        srv = s.serve(handler)
        return ["wf", *ALLOW, "--timeout", f"{timeout:g}", *extra, srv.url + path], {}

    return setup


def _listen_only(s: Setup) -> tuple[list[str], dict[str, str]]:
    # The kernel completes the handshake; nobody ever reads the request.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    s.servers.append(sock)
    return ["wf", *ALLOW, "--timeout", "1", f"http://127.0.0.1:{sock.getsockname()[1]}/"], {}


def _tls_to_silent(s: Setup) -> tuple[list[str], dict[str, str]]:
    # A plain TCP server on an https URL: it reads the ClientHello and never replies.
    url = s.serve(stall).url.replace("http://", "https://")
    return ["wf", *ALLOW, "--timeout", "1", url], {}


def _slow_hop(conn: socket.socket, req: bytes) -> None:
    time.sleep(0.3)
    n = int(req.split(b" ", 2)[1].strip(b"/") or 0)
    conn.sendall(http_response(302, b"", {"Location": f"/{n + 1}"}))


def _batch(s: Setup) -> tuple[list[str], dict[str, str]]:
    # The deadline is per page (man wf); four pages share the pool of four workers.
    return ["wf", *ALLOW, "--timeout", "1", *[s.serve(stall).url for _ in range(4)]], {}


def _regex_input(s: Setup) -> tuple[list[str], dict[str, str]]:
    page = s.home / "page.txt"
    page.write_text(("a" * 5000 + "!\n") * 3)
    # The lookahead keeps it off RE2 (which ends (a+)+$ at once): Python's re, the fallback,
    # must still stop at the deadline.
    return ["wf", "--timeout", "1", "--input", str(page), "--filter", "(?=a)(a+)+$"], {}


def _regex_after_fetch(conn: socket.socket, req: bytes) -> None:
    line = b"b" * 3000 + b"a" * 19 + b"\n"  # (.*a){20} backtracks for ever on it
    conn.sendall(http_response(200, line * 5, {"Content-Type": "text/plain"}))


def _ws_case(handler: Handler):
    def setup(s: Setup) -> tuple[list[str], dict[str, str]]:
        srv = s.serve(handler)
        return ["ws", "--timeout", "2", "rust async"], {name: srv.url for name in ENGINE_VARIABLES}

    return setup


def _requests_between(low: int, high: int):
    def check(r: proc.Run, s: Setup) -> None:
        assert low <= len(s.servers[0].requests) <= high

    return check


def _four_lines(r: proc.Run, s: Setup) -> None:
    lines = r.stderr.splitlines()
    assert len(lines) == 4 and all(line.startswith("wf: (28) timed out") for line in lines), (
        r.stderr
    )


def _names_the_regex(r: proc.Run, s: Setup) -> None:
    assert "(a+)+$" in r.stderr and "total deadline" in r.stderr, r.stderr


TEXT = {"Content-Type": "text/plain"}
CASES: dict[str, Case] = {
    "accepts-and-never-answers": Case(_wf_case(stall)),
    "listens-but-never-accepts": Case(_listen_only),
    "headers-one-byte-per-second": Case(
        _wf_case(drip(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello", 1.0), timeout=2),
        2,
    ),
    "body-trickles-until-close": Case(_wf_case(forever(head(200, TEXT), b"a", every=0.05))),
    "body-trickles-content-length": Case(
        _wf_case(forever(head(200, {**TEXT, "Content-Length": "1000000"}), b"a", every=0.05))
    ),
    "body-trickles-chunked": Case(
        _wf_case(
            forever(head(200, {**TEXT, "Transfer-Encoding": "chunked"}), b"1\r\na\r\n", every=0.05)
        )
    ),
    "tls-handshake-never-finishes": Case(_tls_to_silent),
    "slow-redirect-chain": Case(_wf_case(_slow_hop, path="0"), check=_requests_between(2, 5)),
    "batch-of-stalled-servers": Case(_batch, check=_four_lines),
    "backtracking-regex-on-input": Case(_regex_input, check=_names_the_regex),
    "backtracking-regex-after-fetch": Case(
        _wf_case(_regex_after_fetch, "--filter", "(?=b)(.*a){20}", timeout=2), 2
    ),
    "search-engines-never-answer": Case(_ws_case(stall), 2, "ws"),
    "search-engines-trickle": Case(
        _ws_case(forever(head(200, {"Content-Type": "text/html"}), b"<", every=0.05)), 2, "ws"
    ),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    """Start every case, WIDTH at a time; yield name -> (future Run, its Setup)."""
    pool = ThreadPoolExecutor(WIDTH)
    started: dict[str, tuple[Future[proc.Run], Setup]] = {}
    for name, case in CASES.items():
        s = Setup(tmp_path_factory.mktemp(name))
        argv, extra = case.setup(s)
        dirs = {
            f"WF_{d.upper()}_DIR": str(s.home / d)
            for d in ("scratch", "state", "runtime", "config")
        }
        ws_dirs = {"WS_CONFIG_DIR": str(s.home / "ws"), "WS_STATE_DIR": str(s.home / "wsstate")}
        env = proc.env(**dirs, **ws_dirs, **extra)
        started[name] = (pool.submit(proc.run, argv, env=env), s)
    yield started
    pool.shutdown(wait=True)
    for _, s in started.values():
        for srv in s.servers:
            srv.close()


@pytest.mark.parametrize("name", list(CASES))
def test_ends_at_the_deadline_with_exit_28(runs, figures, name):
    case = CASES[name]
    future, setup = runs[name]
    r = future.result()
    figures.deadline(case.timeout, r.elapsed)
    assert r.code == 28, r.stderr
    assert r.stdout == b"" and not r.leftovers
    last = r.stderr.splitlines()[-1] if r.stderr else ""
    assert last.startswith(f"{case.tool}: (28) "), r.stderr
    if case.tool == "wf" and name != "batch-of-stalled-servers":
        # A regex RE2 cannot run adds its one note (Python's re) before the error line.
        notes = 1 if name.startswith("backtracking-regex") else 0
        assert r.stderr.count("\n") == 1 + notes, r.stderr
    if case.check:
        case.check(r, setup)


def test_resolver_that_never_answers(wf, monkeypatch, figures):
    # getaddrinfo has no timeout of its own; in-process so the resolver can be replaced.
    release = threading.Event()

    def hang(*args: object, **kw: object) -> None:
        release.wait(10)
        raise socket.gaierror(socket.EAI_AGAIN, "released")

    monkeypatch.setattr(socket, "getaddrinfo", hang)
    try:
        start = time.monotonic()
        r = wf("--timeout", "1", "http://slow-dns.test/")
        elapsed = time.monotonic() - start
    finally:
        release.set()
    figures.deadline(1, elapsed)
    assert r.code == 28 and r.stderr.startswith("wf: (28) timed out") and r.stderr.count("\n") == 1
