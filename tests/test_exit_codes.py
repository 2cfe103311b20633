"""One test per exit code that a local server can produce (wf through its CLI wrapper)."""

from __future__ import annotations

import gzip
import json
import socket
import time

import pytest

from tests.helpers import ALLOW
from tests.servers import http_response, respond, self_signed_context


def test_success_prints_body_and_exits_0(wf, serve):
    srv = serve(respond(200, b"hello\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "hello\n", "")


def test_404_exits_4(wf, serve):
    srv = serve(respond(404, b"nope", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 4
    assert r.stdout == ""
    assert r.stderr == f"wf: (4) HTTP 404 from {srv.url}\n"


def test_500_exits_5(wf, serve):
    srv = serve(respond(500, b"boom"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 5
    assert r.stderr == (
        f"wf: (5) HTTP 500 from {srv.url} (the server failed: try again later, or --retry N)\n"
    )


def test_unresolvable_host_exits_6(wf):
    r = wf("http://host.invalid/")
    assert r.code == 6
    assert r.stderr == (
        "wf: (6) could not resolve host host.invalid (check the host name, the network, or "
        "the proxy variables (http_proxy, https_proxy, no_proxy))\n"
    )


def test_closed_port_exits_7(wf):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    r = wf(*ALLOW, f"http://127.0.0.1:{port}/")
    assert r.code == 7
    assert "could not connect to 127.0.0.1" in r.stderr
    assert r.stderr.endswith(
        " (check the host and port, or the proxy variables (http_proxy, https_proxy, "
        "no_proxy); --retry N tries again)\n"
    )


def test_sleeping_server_exits_28_within_timeout_plus_one_second(wf, serve):
    srv = serve(lambda conn, req: time.sleep(5))
    start = time.monotonic()
    r = wf(*ALLOW, "--timeout", "1", srv.url)
    took = time.monotonic() - start
    assert r.code == 28
    assert took < 2.0
    assert r.stderr.startswith("wf: (28) timed out")
    assert r.stderr.endswith(" (raise --timeout, or --retry N for a server that stalls)\n")


def test_self_signed_https_exits_35(wf, serve, tmp_path):
    srv = serve(respond(200, b"secret"), tls=self_signed_context(tmp_path))
    r = wf(*ALLOW, srv.url)
    assert r.code == 35
    assert "certificate" in r.stderr


def test_redirect_loop_exits_47(wf, serve):
    srv = serve(respond(302, b"", {"Location": "/a"}))
    r = wf(*ALLOW, srv.url + "a")
    assert r.code == 47
    assert "redirect loop" in r.stderr


def test_eleven_redirects_exit_47(wf, serve):
    def hop(conn, req):
        n = int(req.split(b" ", 2)[1].strip(b"/") or 0)
        conn.sendall(http_response(302, b"", {"Location": f"/{n + 1}"}))

    srv = serve(hop)
    r = wf(*ALLOW, srv.url + "0")
    assert r.code == 47
    assert "more than 10" in r.stderr
    assert len(srv.requests) == 11


def test_ten_redirects_are_followed(wf, serve):
    def hop(conn, req):
        n = int(req.split(b" ", 2)[1].strip(b"/") or 0)
        if n == 10:
            conn.sendall(http_response(200, b"arrived\n", {"Content-Type": "text/plain"}))
        else:
            conn.sendall(http_response(301, b"", {"Location": f"/{n + 1}"}))

    srv = serve(hop)
    r = wf(*ALLOW, srv.url + "0")
    assert (r.code, r.stdout) == (0, "arrived\n")


def test_oversized_body_exits_63(wf, serve):
    srv = serve(respond(200, b"x" * 200_000, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--max-bytes", "100K", srv.url)
    assert r.code == 63
    assert "larger than the cap of 102400 bytes" in r.stderr


def test_gzip_bomb_exits_63(wf, serve):
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)
    assert len(bomb) < 100_000
    srv = serve(respond(200, bomb, {"Content-Type": "text/plain", "Content-Encoding": "gzip"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 63
    assert "decompressed body is larger than the cap" in r.stderr


def test_429_exits_75(wf, serve):
    srv = serve(respond(429, b"slow down"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 75
    assert r.stderr.startswith("wf: (75) HTTP 429")


def test_loopback_without_allowance_exits_77_and_server_sees_nothing(wf, serve):
    srv = serve(respond(200, b"should not be read"))
    r = wf(srv.url)
    assert r.code == 77
    assert "loopback address" in r.stderr and "--allow-private" in r.stderr
    time.sleep(0.2)
    assert srv.connections == 0 and srv.requests == []


def test_redirect_to_forbidden_address_exits_77_and_target_sees_nothing(wf, serve):
    forbidden = serve(respond(200, b"private"), host="127.0.0.2")
    srv = serve(respond(302, b"", {"Location": forbidden.url}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 77
    assert "127.0.0.2" in r.stderr
    time.sleep(0.2)
    assert len(srv.requests) == 1
    assert forbidden.connections == 0


def test_redirect_to_other_scheme_is_refused_77(wf, serve):
    srv = serve(respond(302, b"", {"Location": "file:///etc/passwd"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 77 and "'file' is not http or https" in r.stderr


def test_unsupported_scheme_on_command_line_exits_3(wf):
    r = wf("gopher://127.0.0.1/")
    assert r.code == 3 and r.stderr.startswith("wf: (3) unsupported scheme 'gopher'")


def test_bad_option_exits_2(wf):
    r = wf("--from", "x", "http://127.0.0.1/")
    assert r.code == 2 and r.stderr.startswith("wf: (2) ") and r.stderr.count("\n") == 1


def test_json_error_object_has_every_key(wf):
    r = wf("--json", "http://host.invalid/")
    assert r.code == 6
    obj = json.loads(r.stdout)
    assert obj["error"] == {
        "code": 6,
        "kind": "dns",
        "message": "could not resolve host host.invalid",
    }
    for key in (
        "url",
        "final_url",
        "status",
        "content_type",
        "charset",
        "title",
        "text",
        "lines",
        "truncated",
        "saved_to",
        "bytes",
        "rendered",
        "links",
        "entries",
        "notes",
        "elapsed_ms",
    ):
        assert key in obj


def test_credentials_dropped_on_cross_host_redirect(wf, serve):
    other = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}), host="127.0.0.3")
    srv = serve(respond(302, b"", {"Location": other.url}))
    r = wf(
        "--allow-host",
        "127.0.0.1",
        "--allow-host",
        "127.0.0.3",
        srv.url.replace("http://", "http://user:pw@"),
    )
    assert r.code == 0, r.stderr
    assert b"authorization: basic" in srv.requests[0].lower()
    assert b"authorization" not in other.requests[0].lower()


# ------------------------------------------------ issue 16: --max-bytes at its boundary

CAP = 1000


def _framed(body: bytes, framing: str) -> bytes:
    head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
    if framing == "length":
        return f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body
    if framing == "chunked":
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (body[:300], body[300:]) if p)
        return f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + chunks + b"0\r\n\r\n"
    if framing == "gzip":
        packed = gzip.compress(body)
        return (
            f"{head}Content-Encoding: gzip\r\nContent-Length: {len(packed)}\r\n\r\n".encode()
            + packed
        )
    return f"{head}\r\n".encode() + body  # read until the server closes


@pytest.mark.parametrize("framing", ["length", "chunked", "close", "gzip"])
@pytest.mark.parametrize(("size", "code"), [(CAP - 1, 0), (CAP, 0), (CAP + 1, 63)])
def test_max_bytes_at_its_boundary(wf, serve, framing, size, code):
    """man wf.1: bodies *larger than* SIZE are refused, on the wire and after decoding;
    a body of exactly SIZE bytes is read whole."""
    tail = b"z" * (size % 100 - 1) + b"\n" if size % 100 else b""
    body = (b"y" * 99 + b"\n") * (size // 100) + tail
    assert len(body) == size
    answer = _framed(body, framing)
    srv = serve(lambda conn, _req: conn.sendall(answer))
    r = wf(*ALLOW, "--max-bytes", str(CAP), "--save", srv.url)
    assert r.code == code, r.stderr
    if code == 63:
        assert r.stderr.startswith("wf: (63) ") and f"cap of {CAP} bytes" in r.stderr
    else:
        assert r.stdout.startswith(f"[wf: saved full text ({size} bytes")
