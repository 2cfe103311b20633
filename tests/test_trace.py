"""common/trace.py, the -v trace of both tools, against local servers: each hop of a redirect
chain with the address connected and its status, the policy's decision, the charset and
its source, the type branch and the extractor's choice; stdout the same with and without
-v; nothing on stderr without it."""

from __future__ import annotations

import json
import re
import socket

import pytest

from common import trace
from tests.helpers import ALLOW, WS_FIXTURES, invoke
from tests.servers import http_response

ARTICLE = (
    b"<html><head><meta charset='iso-8859-1'><title>T</title></head><body>"
    b"<nav><a href='/x'>Home</a> <a href='/y'>About</a></nav>"
    b"<article class='post'><h1>A title</h1>"
    + b"".join(
        b"<p>" + b"Caf\xe9 prose that runs long enough to count as such. " * 4 + b"</p>"
        for _ in range(4)
    )
    + b"<div class='share-links'>Share this on social media, please, and thanks for reading</div>"
    b"</article><footer>Footer text</footer></body></html>"
)


def chain(conn: socket.socket, request: bytes) -> None:
    """/a -> 302 /b -> 301 /c (absolute) -> 200, a Latin-1 page that says so in <meta>."""
    path = request.split(b" ", 2)[1]
    host = next(
        line.split(b":", 1)[1].strip()
        for line in request.split(b"\r\n")
        if line.lower().startswith(b"host:")
    )
    if path == b"/a":
        conn.sendall(http_response(302, headers={"Location": "/b"}))
    elif path == b"/b":
        conn.sendall(http_response(301, headers={"Location": f"http://{host.decode()}/c"}))
    else:
        conn.sendall(http_response(200, ARTICLE, {"Content-Type": "text/html"}))


def traced(stderr: str) -> list[str]:
    lines = stderr.splitlines()
    assert lines and all(line.startswith("wf: * ") for line in lines), stderr
    return [line.removeprefix("wf: * ") for line in lines]


def test_each_hop_of_a_redirect_chain_with_address_status_and_timing(wf, serve):
    srv = serve(chain)
    base = srv.url.rstrip("/")
    r = wf(*ALLOW, "-v", base + "/a")
    assert r.code == 0, r.stderr
    lines = traced(r.stderr)
    hops = [line for line in lines if line.startswith("HTTP ")]
    peer = f"127.0.0.1 port {srv.port}"
    shape = r"HTTP {} from {}, first byte \d+ ms, {} bytes \({} on the wire\) in \d+ ms: GET {}"
    assert len(hops) == 3, lines
    assert re.fullmatch(shape.format(302, peer, 0, 0, re.escape(base + "/a")), hops[0])
    assert re.fullmatch(shape.format(301, peer, 0, 0, re.escape(base + "/b")), hops[1])
    size = len(ARTICLE)
    assert re.fullmatch(shape.format(200, peer, size, size, re.escape(base + "/c")), hops[2])
    assert f"redirect: HTTP 302 to {base}/b" in lines
    assert f"redirect: HTTP 301 to {base}/c" in lines
    # Before every hop: the policy's decision, then the address actually connected.
    assert lines.count("policy: 127.0.0.1 allowed: on the allowed-host list") == 3
    connected = [line for line in lines if line.startswith("connected to ")]
    assert len(connected) == 3
    assert all(re.fullmatch(rf"connected to {peer} \(127.0.0.1\) in \d+ ms", c) for c in connected)
    # The order of one hop: policy, connect, answer.
    first = lines.index("policy: 127.0.0.1 allowed: on the allowed-host list")
    assert lines[first + 1].startswith("connected to ") and lines[first + 2] == hops[0]


def test_charset_type_branch_and_the_extractors_choice(wf, serve):
    srv = serve(chain)
    r = wf(*ALLOW, "-v", srv.url + "c")
    lines = traced(r.stderr)
    assert "type: html (Content-Type text/html; the body sniffed as text/html)" in lines
    assert "charset: cp1252, from the document's <meta> or XML declaration" in lines
    chose = next(line for line in lines if line.startswith("extract: chose "))
    assert chose.startswith("extract: chose body > article.post, score ")
    dropped = next(line for line in lines if line.startswith("extract: dropped "))
    assert "div.share-links (boilerplate name, " in dropped
    assert "save: none (the text is within WF_AUTOSAVE_BYTES (10000))" in lines


def test_charset_from_the_header_and_from_the_bytes(wf, serve):
    srv = serve(
        lambda conn, req: conn.sendall(
            http_response(200, "héllo\n".encode(), {"Content-Type": "text/plain; charset=utf-8"})
        )
    )
    assert "charset: utf-8, from the Content-Type header" in traced(
        wf(*ALLOW, "-v", srv.url).stderr
    )
    bare = serve(lambda conn, req: conn.sendall(http_response(200, "héllo\n".encode())))
    assert "charset: utf-8, from the bytes (valid UTF-8)" in traced(
        wf(*ALLOW, "-v", bare.url).stderr
    )


def test_the_policy_line_says_why_an_address_passed_or_not(wf, serve):
    srv = serve(lambda conn, req: conn.sendall(http_response(200, b"ok\n")))
    r = wf("--allow-private", "-v", srv.url.replace("127.0.0.1", "localhost"))
    assert "policy: localhost (127.0.0.1) allowed: loopback address, --allow-private" in r.stderr
    # 127.0.0.2 stands in for a forbidden destination: refused before any socket is opened.
    r = wf(*ALLOW, "-v", f"http://127.0.0.2:{srv.port}/")
    assert r.code == 77
    assert "wf: * policy: refused 127.0.0.2: loopback address; allow it with" in r.stderr
    assert "connected to" not in r.stderr


def test_stdout_is_the_same_with_and_without_v_and_stderr_is_empty_without(wf, serve):
    srv = serve(chain)
    url = srv.url + "a"
    plain, verbose = wf(*ALLOW, url), wf(*ALLOW, "-v", url)
    assert plain.stdout == verbose.stdout and plain.stdout.startswith("# A title")
    assert plain.stderr == "" and verbose.stderr
    plain, verbose = wf(*ALLOW, "--json", url, url), wf(*ALLOW, "--json", "-v", url, url)
    assert plain.stderr == "" and verbose.stderr

    def steady(out: str) -> list[dict]:
        docs = [json.loads(line) for line in out.splitlines()]
        for doc in docs:
            doc.pop("elapsed_ms")
        return docs

    assert steady(plain.stdout) == steady(verbose.stdout)


def test_a_batch_labels_each_pages_lines(wf, serve):
    srv = serve(lambda conn, req: conn.sendall(http_response(200, b"ok\n")))
    r = wf(*ALLOW, "-v", srv.url + "one", srv.url + "two")
    lines = traced(r.stderr)
    assert any(line.startswith("[1] HTTP 200 ") and line.endswith("/one") for line in lines)
    assert any(line.startswith("[2] HTTP 200 ") and line.endswith("/two") for line in lines)
    assert all(line.startswith(("[1] ", "[2] ")) for line in lines)


def test_server_text_in_a_trace_line_cannot_reach_the_terminal(wf, serve):
    ctype = "text/plain\x1b]0;owned\x07\x1b[2J"
    srv = serve(
        lambda conn, req: conn.sendall(http_response(200, b"ok\n", {"Content-Type": ctype}))
    )
    r = wf(*ALLOW, "-v", srv.url)
    assert r.code == 0 and r.stdout == "ok\n"
    assert "wf: * type: text (Content-Type text/plain]0;owned[2J; the body sniffed" in r.stderr
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr


def test_trace_formats_only_when_on(capsys):
    class Loud:
        def __str__(self) -> str:
            raise AssertionError("formatted while the trace is off")

    trace.enable("wf", False)
    trace.trace("value %s", Loud())
    assert capsys.readouterr().err == ""
    trace.enable("wf", True)
    try:
        with trace.label("3"):
            trace.trace("x=%d %s", 5, "\x1b[31mred")
        trace.trace("%d needs a number", "not one")  # a bad call site still writes a line
    finally:
        trace.enable("wf", False)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "wf: * [3] x=5 [31mred"
    assert err[1].startswith("wf: * %d needs a number")


def test_ws_traces_each_attempt_with_address_status_and_outcome(serve):
    from tests.test_ws_cli import Engines

    engines = Engines(serve)
    engines.answer("duckduckgo", 202, WS_FIXTURES / "ddg_anomaly.html")
    engines.answer("brave", 200, WS_FIXTURES / "brave_results.html")
    # Each run starts with no remembered health: the first run's block would otherwise
    # make the second skip DuckDuckGo.
    plain = invoke("ws", ["rust", "--allow-private"], env=engines.env)
    invoke("ws", ["--reset-health"], env=engines.env)
    r = invoke("ws", ["rust", "-v", "--allow-private"], env=engines.env)
    assert r.code == plain.code == 0 and r.stdout == plain.stdout
    trace_lines = [x for x in r.stderr.splitlines() if x.startswith("ws: * ")]
    others = [x for x in r.stderr.splitlines() if not x.startswith("ws: * ")]
    assert others == plain.stderr.splitlines()
    text = "\n".join(trace_lines)
    assert re.search(r"ws: \* attempt duckduckgo: POST http://127\.0\.0\.1:\d+/ddg/html/", text)
    assert re.search(r"ws: \* HTTP 202 from 127\.0\.0\.1 port \d+, first byte \d+ ms", text)
    assert re.search(r"ws: \* attempt duckduckgo: blocked, HTTP 202, \d+ ms: ", text)
    assert re.search(r"ws: \* attempt brave: ok, HTTP 200, \d+ ms: HTTP 200, \d+ results?", text)
    # The endpoints the operator configured are allowed by name.
    assert "ws: * policy: 127.0.0.1 allowed: on the allowed-host list" in text


@pytest.fixture(autouse=True)
def _trace_off():
    yield
    trace.enable("wf", False)


def test_render_decisions_and_a_failed_launch(wf, serve, monkeypatch):
    srv = serve(chain)
    r = wf(*ALLOW, "-v", srv.url + "c")
    assert "wf: * render: not needed (static text of " in r.stderr
    monkeypatch.setenv("WF_RENDER_BROWSER", "/bin/false")  # exits at once: no browser runs
    r = wf(*ALLOW, "-v", "--render", "always", srv.url + "c")
    assert r.code == 70
    lines = traced(r.stderr.replace(r.stderr.splitlines()[-1] + "\n", ""))
    assert "render: --render always" in lines
    assert any(re.fullmatch(r"render: failed after \d+ ms: /bin/false exited .*", x) for x in lines)


def test_the_extractors_fallback_is_traced(wf, tmp_path):
    page = tmp_path / "menu.html"
    page.write_text("<html><body><nav><a href='/a'>Home</a> <a href='/b'>About us</a></nav>")
    r = wf("-v", "--input", str(page))
    assert r.stdout == "Home About us\n"
    lines = [x for x in r.stderr.splitlines() if x.startswith("wf: * extract: ")]
    assert lines == [
        "wf: * extract: no block stood out (12 characters of text): the whole page",
        "wf: * extract: fallback: 0 characters, next to nothing; took the whole page (13)",
    ]


def test_a_saved_text_is_traced_as_saved_and_not_also_as_unsaved(wf, tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(ARTICLE)
    r = wf("-v", "--save", "--input", str(page))
    assert r.code == 0, r.stderr
    lines = traced(r.stderr)
    saved = [line for line in lines if line.startswith("save: ")]
    assert len(saved) == 1 and re.fullmatch(r"save: \d+ bytes to .+\.txt", saved[0]), saved
