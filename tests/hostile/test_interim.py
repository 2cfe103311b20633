"""Interim 1xx answers before the real one (issue 10, item 3): 103 Early Hints, 102
Processing and a 100 Continue nobody asked for are skipped by wf, ws and the render
proxy, up to 10 of them; the real answer is the one used. Before, wf printed nothing and
exited 0 (--json said status 103) and ws reported "http_error (HTTP 103)"."""

from __future__ import annotations

import json
import socket
import time

import pytest

from common.policy import Policy
from tests.helpers import ALLOW, ENGINE_VARIABLES, invoke
from tests.hostile.handlers import raw
from tests.servers import RawServer, http_response
from wf.render.intercept import CheckedResolver, RefusedLog
from wf.render.proxy import PolicyProxy

PAGE = b"<html><head><title>Real</title></head><body><p>The real answer.</p></body></html>"
HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
PROCESSING = b"HTTP/1.1 102 Processing\r\n\r\n"
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
REAL = http_response(200, PAGE, {"Content-Type": "text/html"})

INTERIM = {
    "103": HINTS,
    "102": PROCESSING,
    "100-103-102": CONTINUE + HINTS + PROCESSING,
    "ten-103": HINTS * 10,
}


@pytest.mark.parametrize("interim", list(INTERIM.values()), ids=list(INTERIM))
def test_wf_skips_interim_answers(wf, serve, interim):
    srv = serve(raw(interim + REAL))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "The real answer.\n", "")
    r = wf(*ALLOW, "--json", srv.url)
    page = json.loads(r.stdout)
    assert r.code == 0 and page["status"] == 200 and page["title"] == "Real"


def test_eleven_interim_answers_are_a_malformed_answer(wf, serve):
    srv = serve(raw(HINTS * 11 + REAL))
    r = wf(*ALLOW, srv.url)
    assert r.code == 8 and r.stdout == "", r.stderr
    assert (
        r.stderr == "wf: (8) malformed answer from 127.0.0.1: more than 10 interim (1xx) answers\n"
    )


def test_interim_answers_before_a_redirect(wf, serve):
    def handler(conn, request):
        if request.startswith(b"GET /next "):
            conn.sendall(HINTS + REAL)
        else:
            conn.sendall(HINTS + http_response(302, b"", {"Location": "/next"}))

    srv = serve(handler)
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout) == (0, "The real answer.\n"), r.stderr


def test_ws_skips_interim_answers(serve, monkeypatch):
    results = {
        "results": [{"url": "https://c.example/ok", "title": "Fine result", "content": "Ordinary."}]
    }
    answer = http_response(200, json.dumps(results).encode(), {"Content-Type": "application/json"})
    srv = serve(raw(HINTS + PROCESSING + answer))
    for var in ENGINE_VARIABLES:
        monkeypatch.setenv(var, srv.url)
    r = invoke("ws", ["--provider", "searxng", "--json", "rust async"])
    assert r.code == 0, r.stderr
    obj = json.loads(r.stdout)
    assert [x["url"] for x in obj["results"]] == ["https://c.example/ok"]
    assert obj["attempts"][0]["outcome"] == "ok"


# ---------------------------------------------------------------- the render proxy


@pytest.fixture
def proxy():
    p = PolicyProxy(
        CheckedResolver(Policy(allow_hosts=frozenset({"127.0.0.1"}))),
        RefusedLog(),
        upstream_for=lambda url: None,
    )
    yield p
    p.close()


def _through(proxy: PolicyProxy, server: RawServer) -> bytes:
    request = (
        f"GET http://127.0.0.1:{server.port}/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
    )
    got = b""
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as s:
        s.sendall(request.encode())
        end = time.monotonic() + 5
        while time.monotonic() < end:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    return got


@pytest.mark.parametrize("interim", list(INTERIM.values()), ids=list(INTERIM))
def test_render_proxy_skips_interim_answers(proxy, serve, interim):
    srv = serve(raw(interim + REAL))
    got = _through(proxy, srv)
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 "), got[:200]
    assert body == PAGE and b" 103 " not in got and b" 102 " not in got


def test_render_proxy_ends_an_endless_run_of_interim_answers(proxy, serve):
    srv = serve(raw(HINTS * 11 + REAL))
    got = _through(proxy, srv)
    assert got.startswith(b"HTTP/1.1 502 "), got[:200]
    assert b"more than 10 interim (1xx) answers" in got and b"Early Hints" not in got


def test_endless_100_continue_ends_at_the_bound_not_the_deadline(serve, figures):
    # Was a deadline case (exit 28 after --timeout); the bound of 10 ends it at once.
    from tests.hostile import proc
    from tests.hostile.handlers import forever

    srv = serve(forever(b"", CONTINUE, every=0.02))
    r = proc.run(["wf", *ALLOW, "--timeout", "5", srv.url], env=proc.env())
    figures.deadline(5, r.elapsed)
    assert r.code == 8 and r.stdout == b"" and not r.leftovers, r.stderr
    assert "more than 10 interim (1xx) answers" in r.stderr and r.elapsed < 2
