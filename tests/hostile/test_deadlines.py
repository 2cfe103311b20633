"""Servers that hold a connection open: each case must end at the total deadline (plus at
most one second) with exit 28 and one clear line. Timed as real processes, spawn to exit."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from tests.hostile import proc
from tests.hostile.handlers import drip, forever, head, stall
from tests.servers import http_response

ALLOW = ("--allow-host", "127.0.0.1")
T = 1.0  # the deadline of every case, in seconds


def _timed_out(r: proc.Run) -> None:
    assert r.code == 28, r.stderr
    assert r.stdout == b""
    assert r.stderr.startswith("wf: (28) timed out") and r.stderr.count("\n") == 1, r.stderr
    assert not r.leftovers


def test_accepts_and_never_answers(serve, figures):
    srv = serve(stall)
    r = proc.run(["wf", *ALLOW, "--timeout", str(T), srv.url], env=proc.env())
    figures.deadline(T, r.elapsed)
    _timed_out(r)


def test_listens_but_never_accepts(figures):
    # The kernel completes the handshake; nobody ever reads the request.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    try:
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
        r = proc.run(["wf", *ALLOW, "--timeout", str(T), url], env=proc.env())
    finally:
        sock.close()
    figures.deadline(T, r.elapsed)
    _timed_out(r)


def test_headers_one_byte_per_second(serve, figures):
    srv = serve(drip(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello", 1.0))
    r = proc.run(["wf", *ALLOW, "--timeout", "2", srv.url], env=proc.env())
    figures.deadline(2, r.elapsed)
    _timed_out(r)


@pytest.mark.parametrize(
    "framing",
    [{}, {"Content-Length": "1000000"}, {"Transfer-Encoding": "chunked"}],
    ids=["until-close", "content-length", "chunked"],
)
def test_body_trickles_for_ever(serve, figures, framing):
    piece = b"1\r\na\r\n" if framing.get("Transfer-Encoding") else b"a"
    srv = serve(forever(head(200, {"Content-Type": "text/plain", **framing}), piece, every=0.05))
    r = proc.run(["wf", *ALLOW, "--timeout", str(T), srv.url], env=proc.env())
    figures.deadline(T, r.elapsed)
    _timed_out(r)


def test_endless_interim_100_continue_answers(serve, figures):
    srv = serve(forever(b"", b"HTTP/1.1 100 Continue\r\n\r\n", every=0.02))
    r = proc.run(["wf", *ALLOW, "--timeout", str(T), srv.url], env=proc.env())
    figures.deadline(T, r.elapsed)
    _timed_out(r)


def test_tls_handshake_never_finishes(serve, figures):
    # A plain TCP server on an https URL: it reads the ClientHello and never replies.
    srv = serve(stall)
    url = srv.url.replace("http://", "https://")
    r = proc.run(["wf", *ALLOW, "--timeout", str(T), url], env=proc.env())
    figures.deadline(T, r.elapsed)
    _timed_out(r)


def test_slow_redirect_chain_shares_one_deadline(serve, figures):
    def hop(conn, req):
        time.sleep(0.3)
        n = int(req.split(b" ", 2)[1].strip(b"/") or 0)
        conn.sendall(http_response(302, b"", {"Location": f"/{n + 1}"}))

    srv = serve(hop)
    r = proc.run(["wf", *ALLOW, "--timeout", str(T), srv.url + "0"], env=proc.env())
    figures.deadline(T, r.elapsed)
    _timed_out(r)
    assert 2 <= len(srv.requests) <= 5


def test_batch_of_stalled_servers(serve, figures):
    # The deadline is per page (man wf); four pages share the pool of four workers.
    urls = [serve(stall).url for _ in range(4)]
    r = proc.run(["wf", *ALLOW, "--timeout", str(T), *urls], env=proc.env())
    figures.deadline(T, r.elapsed)
    assert r.code == 28 and not r.leftovers
    lines = r.stderr.splitlines()
    assert len(lines) == 4 and all(line.startswith("wf: (28) timed out") for line in lines)


def test_resolver_that_never_answers(wf, monkeypatch, figures):
    # getaddrinfo has no timeout of its own; in-process so the resolver can be replaced.
    release = threading.Event()

    def hang(*args, **kw):
        release.wait(10)
        raise socket.gaierror(socket.EAI_AGAIN, "released")

    monkeypatch.setattr(socket, "getaddrinfo", hang)
    try:
        start = time.monotonic()
        r = wf("--timeout", str(T), "http://slow-dns.test/")
        elapsed = time.monotonic() - start
    finally:
        release.set()
    figures.deadline(T, elapsed)
    assert r.code == 28 and r.stderr.startswith("wf: (28) timed out") and r.stderr.count("\n") == 1


def test_backtracking_regex_on_a_long_line_keeps_the_deadline(tmp_path, figures):
    page = tmp_path / "page.txt"
    page.write_text(("a" * 5000 + "!\n") * 3)
    r = proc.run(["wf", "--timeout", str(T), "--input", str(page), "--filter", "(a+)+$"],
                 env=proc.env())
    figures.deadline(T, r.elapsed)
    assert r.code == 28, r.stderr
    assert r.stderr.startswith("wf: (28) ") and "(a+)+$" in r.stderr and r.stderr.count("\n") == 1
    assert not r.leftovers


def test_backtracking_regex_after_a_fetch_keeps_the_deadline(serve, figures):
    line = b"b" * 3000 + b"a" * 19 + b"\n"
    srv = serve(lambda conn, req: conn.sendall(
        http_response(200, line * 5, {"Content-Type": "text/plain"})))
    r = proc.run(["wf", *ALLOW, "--timeout", "2", "--filter", "(.*a){20}", srv.url], env=proc.env())
    figures.deadline(2, r.elapsed)
    assert r.code == 28, r.stderr
    assert not r.leftovers
