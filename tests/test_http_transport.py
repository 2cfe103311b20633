"""common/http/transport.py: a request on http.client sends what urllib3 sent (the
request target, the head in the same order, Content-Length), offers TLS as urllib3 did, and
reads a body no further than its framing. The hostile suite (tests/hostile/) runs its
framing, TLS, size, redirect and deadline cases through this path too; these check what
the path does itself."""

from __future__ import annotations

import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest

from common.errors import TransferError
from common.http.client import NetOptions, fetch
from common.http.deadline import ConnectionGuard
from common.http.transport import _target, send, stream
from common.policy import Policy
from tests.servers import http_response

LOCAL = NetOptions(timeout=10, policy=Policy(allow_hosts=frozenset({"127.0.0.1"})))


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("http://h", "/"),
        ("http://h/a/./b/../c?x=1", "/a/c?x=1"),
        ("http://h/a/b/..", "/a/"),
        ("http://h/..//a", "/a"),
        ("http://h/a/.well-known/x", "/a/.well-known/x"),
        ("http://h/a?q=../x", "/a?q=../x"),
        ("http://h/%e2%82%ac?q=%c3%a9", "/%E2%82%AC?q=%C3%A9"),
        ("http://h/%zz%", "/%25zz%25"),
        ("http://h/%41%zz?q=%41", "/%2541%25zz?q=%41"),
        ("http://h/a#frag", "/a"),
        # ".." above the root stays at the root; a trailing "." or ".." leaves a "/".
        ("http://h/../a", "/a"),
        ("http://h/..", "/"),
        ("http://h/a/b/.", "/a/b/"),
        # Escaped as UTF-8 without a "%" in sight, a lone surrogate (from undecodable
        # bytes in argv) included.
        ("http://h/a b/é", "/a%20b/%C3%A9"),
        ("http://h/\udcff", "/%ED%B3%BF"),
        ("http://h/?é", "/?%C3%A9"),
        # An escape in upper case is one too: its "%" is kept.
        ("http://h/%AB%cd", "/%AB%CD"),
    ],
)
def test_the_request_target_is_urllib3s(url, target):
    assert _target(url) == target


def _capture(serve, answer: bytes):  # type: ignore[no-untyped-def]
    got: list[bytes] = []

    def handler(conn: socket.socket, request: bytes) -> None:
        got.append(request)
        conn.sendall(answer)
        # The client closes its side once the answer is read: nothing is left open.
        conn.settimeout(5)
        got.append(conn.recv(1))

    return serve(handler), got


def test_the_head_goes_out_in_urllib3s_order(serve):
    srv, got = _capture(serve, http_response(200, b"ok"))
    resp = fetch(srv.url + "p?q=1", LOCAL, method="POST", data={"a": "b c"})
    assert (resp.status, resp.body) == (200, b"ok")
    head, _, body = got[0].partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0] == "POST /p?q=1 HTTP/1.1"
    names = [line.split(":", 1)[0] for line in lines[1:]]
    assert names == [
        "Host",
        "Content-Length",
        "User-Agent",
        "Accept",
        "Accept-Language",
        "Accept-Encoding",
        "Content-Type",
    ]
    assert f"Host: 127.0.0.1:{srv.port}" in lines and "Content-Length: 5" in lines
    assert body == b"a=b+c"
    deadline = time.monotonic() + 5
    while len(got) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert got[1:] == [b""]  # closed after the answer


def test_an_empty_post_says_content_length_0_and_a_get_says_none(serve):
    srv, got = _capture(serve, http_response(200, b"ok"))
    fetch(srv.url, LOCAL, method="POST")
    assert b"\r\nContent-Length: 0\r\n" in got[0]
    srv, got = _capture(serve, http_response(200, b"ok"))
    fetch(srv.url, LOCAL)
    assert b"content-length" not in got[0].lower()


def test_a_body_shorter_than_its_length_broke_off_with_the_counts(serve):
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"x" * 40
    srv = serve(lambda conn, req: conn.sendall(answer))
    with pytest.raises(TransferError) as err:
        fetch(srv.url, LOCAL)
    assert err.value.message == (
        "transfer from 127.0.0.1 broke off: IncompleteRead(40 bytes read, 60 more expected)"
    )


def test_a_chunk_size_that_is_not_hex_broke_off(serve):
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n"
    srv = serve(lambda conn, req: conn.sendall(answer))
    with pytest.raises(TransferError, match="broke off"):
        fetch(srv.url, LOCAL)


def _tls_pki(tmp: Path, name: str | None = "IP:127.0.0.1", cn: str = "127.0.0.1") -> Path:
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=tmp, check=True, capture_output=True)

    openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=transport test CA",
    )  # fmt: skip
    openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
        "-subj", f"/CN={cn}",
    )  # fmt: skip
    # No name: a certificate that names its host only by its subject's common name.
    (tmp / "ext").write_text(f"subjectAltName={name}\n" if name else "")
    openssl(
        "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "leaf.pem", "-days", "2", "-extfile", "ext",
    )  # fmt: skip
    return tmp


def test_tls_offers_http11_by_alpn_and_at_least_tls12(serve, tmp_path, monkeypatch):
    pki = _tls_pki(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / "leaf.pem", pki / "leaf.key")
    ctx.set_alpn_protocols(["h2", "http/1.1"])
    seen: list[object] = []

    def handler(conn: ssl.SSLSocket, request: bytes) -> None:  # type: ignore[override]
        seen.extend([conn.selected_alpn_protocol(), conn.version()])
        conn.sendall(http_response(200, b"over tls"))

    srv = serve(handler, tls=ctx)
    resp = fetch(srv.url, LOCAL)
    assert (resp.status, resp.body) == (200, b"over tls")
    assert seen[0] == "http/1.1" and seen[1] in ("TLSv1.2", "TLSv1.3")


@pytest.mark.filterwarnings("ignore:ssl.TLSVersion.TLSv1_1 is deprecated:DeprecationWarning")
def test_a_server_that_offers_only_tls11_is_refused(serve, tmp_path, monkeypatch):
    from common.errors import TLSError

    pki = _tls_pki(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / "leaf.pem", pki / "leaf.key")
    try:
        ctx.minimum_version = ssl.TLSVersion.TLSv1_1
        ctx.maximum_version = ssl.TLSVersion.TLSv1_1
        ctx.set_ciphers("ALL:@SECLEVEL=0")
    except (ValueError, ssl.SSLError) as exc:
        pytest.skip(f"this OpenSSL cannot serve TLS 1.1: {exc}")
    srv = serve(lambda conn, req: conn.sendall(http_response(200, b"old")), tls=ctx)
    with pytest.raises(TLSError):
        fetch(srv.url, LOCAL)
    assert srv.requests == []


def test_the_deadline_ends_a_tls_body_that_trickles(serve, tmp_path, monkeypatch):
    # The guard shuts the TLS socket down at the deadline (it took the plain socket's
    # descriptor over). Before, one read of a byte every 0.2 s lasted until the body's
    # end: 8 s here, the watchdog's backstop being the only limit.
    from common.errors import Timeout

    pki = _tls_pki(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / "leaf.pem", pki / "leaf.key")

    def trickle(conn: socket.socket, request: bytes) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n")
        for _ in range(40):
            conn.sendall(b"x")
            time.sleep(0.2)

    srv = serve(trickle, tls=ctx)
    opts = NetOptions(timeout=1, policy=LOCAL.policy)
    start = time.monotonic()
    with pytest.raises(Timeout):
        fetch(srv.url, opts)
    assert time.monotonic() - start < 2.5


# Below, the transport called directly. _Wire stands in for the guard: its connect hands
# the client one end of a socket pair, so the test reads the exact bytes of a request and
# nothing reaches a network, whatever host the URL names.

NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


class _Wire:
    def __init__(self, answer: bytes = OK) -> None:
        self.client, self.server = socket.socketpair()
        self.server.sendall(answer)
        self.asked: list[tuple[object, ...]] = []
        self.tracked: list[socket.socket] = []

    def connect(self, host: str, port: int, timeout: float, options: object) -> socket.socket:
        self.asked.append((host, port, timeout, options))
        return self.client

    def track(self, sock: socket.socket) -> None:
        self.tracked.append(sock)

    def sent(self) -> bytes:
        """What the client wrote: all of it is buffered once its answer's head is read."""
        self.server.setblocking(False)
        data = b""
        while True:
            try:
                chunk = self.server.recv(65536)
            except BlockingIOError:
                return data
            if not chunk:
                return data
            data += chunk

    def close(self) -> None:
        self.client.close()
        self.server.close()


@pytest.fixture
def wire():  # type: ignore[no-untyped-def]
    made: list[_Wire] = []

    def make(answer: bytes = OK) -> _Wire:
        made.append(_Wire(answer))
        return made[-1]

    yield make
    for w in made:
        w.close()


def test_a_get_on_the_wire(wire):
    # The name as given goes to the lookup; the Host header drops its trailing dot and the
    # default port; GET sends no Content-Length; the socket asks for TCP_NODELAY.
    w = wire()
    conn, resp = send("http://Example.org./a/../b?q=é", "GET", {"User-Agent": "t"}, None, w, 7)
    assert (resp.status, resp.read()) == (200, b"ok")
    conn.close()
    assert w.asked == [("example.org.", 80, 7, NODELAY)]
    assert w.sent() == (
        b"GET /b?q=%C3%A9 HTTP/1.1\r\nHost: example.org\r\nAccept-Encoding: identity\r\n"
        b"User-Agent: t\r\n\r\n"
    )


def test_a_port_in_the_url_reaches_the_guard_and_the_host_header(wire):
    w = wire()
    send("http://example.org:8080/", "HEAD", {}, None, w, 5)[0].close()
    assert w.asked == [("example.org", 8080, 5, NODELAY)]
    assert w.sent().split(b"\r\n")[:2] == [b"HEAD / HTTP/1.1", b"Host: example.org:8080"]


def test_https_asks_the_guard_for_port_443(wire):
    class Refused(_Wire):
        def connect(self, *args: object) -> socket.socket:
            self.asked.append(args)
            raise ConnectionRefusedError("refused")

    w = Refused()
    try:
        with pytest.raises(ConnectionRefusedError):
            send("https://example.org/", "GET", {}, None, w, 5)
    finally:
        w.close()
    assert w.asked == [("example.org", 443, 5, NODELAY)]


def test_callers_host_and_accept_encoding_replace_http_clients(wire):
    w = wire()
    headers = {"host": "other.example", "ACCEPT-ENCODING": "gzip"}
    send("http://example.org/", "GET", headers, None, w, 5)[0].close()
    assert w.sent() == (b"GET / HTTP/1.1\r\nhost: other.example\r\nACCEPT-ENCODING: gzip\r\n\r\n")


@pytest.mark.parametrize(
    ("method", "headers", "body", "sent"),
    [
        ("POST", {}, b"abc", b"Content-Length: 3\r\n\r\nabc"),
        ("GET", {}, b"", b"Content-Length: 0\r\n\r\n"),
        ("PUT", {}, None, b"Content-Length: 0\r\n\r\n"),
        ("PATCH", {}, None, b"Content-Length: 0\r\n\r\n"),
        ("DELETE", {}, None, b"Accept-Encoding: identity\r\n\r\n"),
        # The caller's framing header stands alone: no second length, none for chunked.
        ("POST", {"content-length": "3"}, b"abc", b"identity\r\ncontent-length: 3\r\n\r\nabc"),
        ("POST", {"Transfer-Encoding": "chunked"}, None, b"identity\r\nTransfer-Encoding: chunked\r\n\r\n"),
    ],
)  # fmt: skip
def test_content_length_as_urllib3_sent_it(wire, method, headers, body, sent):
    w = wire()
    send("http://example.org/", method, headers, body, w, 5)[0].close()
    out = w.sent()
    assert out.endswith(sent)
    assert out.lower().count(b"content-length") == sent.lower().count(b"content-length")


def test_https_to_port_443_names_the_host_alone(wire, tmp_path, monkeypatch):
    # TLS over the socket pair: SNI and the Host header both drop the trailing dot and,
    # on 443, the port; the client offers http/1.1 by ALPN and hands the TLS socket to
    # the guard (whose deadline then reaches it).
    import threading

    pki = _tls_pki(tmp_path, "DNS:example.org")
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / "leaf.pem", pki / "leaf.key")
    ctx.set_alpn_protocols(["http/1.1"])
    seen: list[object] = []
    ctx.sni_callback = lambda sock, name, context: seen.append(name)  # type: ignore[assignment,misc]
    w = wire(b"")

    def serve_tls() -> None:
        w.server.settimeout(10)
        tls = ctx.wrap_socket(w.server, server_side=True)
        from tests.servers import read_request

        seen.extend([tls.selected_alpn_protocol(), read_request(tls)])
        tls.sendall(OK)

    t = threading.Thread(target=serve_tls, daemon=True)
    t.start()
    conn, resp = send("https://example.org./", "GET", {}, None, w, 10)
    assert (resp.status, resp.read()) == (200, b"ok")
    t.join(10)
    assert w.asked == [("example.org.", 443, 10, NODELAY)]
    assert w.tracked == [conn.sock]
    assert seen == [
        "example.org",
        "http/1.1",
        b"GET / HTTP/1.1\r\nHost: example.org\r\nAccept-Encoding: identity\r\n\r\n",
    ]
    conn.close()


def test_the_body_comes_in_chunks_of_at_most_size(wire):
    w = wire(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789")
    conn, resp = send("http://example.org/", "GET", {}, None, w, 5)
    assert list(stream(resp, 4, "example.org")) == [b"0123", b"4567", b"89"]
    conn.close()


def test_a_short_body_counts_every_chunk_it_read(wire):
    w = wire(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n012345")
    w.server.shutdown(socket.SHUT_WR)
    conn, resp = send("http://example.org/", "GET", {}, None, w, 5)
    chunks: list[bytes] = []
    with pytest.raises(TransferError) as err:
        for chunk in stream(resp, 4, "example.org"):
            chunks.append(chunk)
    conn.close()
    assert chunks == [b"0123", b"45"]
    assert err.value.message == (
        "transfer from example.org broke off: IncompleteRead(6 bytes read, 4 more expected)"
    )


def _guard(seconds: float) -> ConnectionGuard:
    return ConnectionGuard(LOCAL.policy, time.monotonic() + seconds, proxied=False)


def _silent_listener():  # type: ignore[no-untyped-def]
    # The kernel completes the TCP handshake; nobody ever reads or answers.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    return sock


def test_a_silent_answer_ends_at_the_attempts_timeout(serve):
    # Within a long total deadline, an attempt's timeout bounds each wait for bytes.
    srv = serve(lambda conn, req: time.sleep(8))
    guard = _guard(6)
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        send(srv.url, "GET", {}, None, guard, 0.5)
    guard.cancel()
    assert time.monotonic() - start < 3


def test_a_silent_tls_handshake_ends_at_the_attempts_timeout():
    listener = _silent_listener()
    guard = _guard(6)
    start = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            send(f"https://127.0.0.1:{listener.getsockname()[1]}/", "GET", {}, None, guard, 0.5)
    finally:
        guard.cancel()
        listener.close()
    assert time.monotonic() - start < 3


def test_a_silent_tls_handshake_ends_at_the_deadline():
    # The total deadline shuts the TLS socket down mid-handshake, under a longer timeout.
    listener = _silent_listener()
    guard = _guard(0.5)
    start = time.monotonic()
    try:
        with pytest.raises(OSError):
            send(f"https://127.0.0.1:{listener.getsockname()[1]}/", "GET", {}, None, guard, 8)
    finally:
        guard.cancel()
        listener.close()
    assert time.monotonic() - start < 3


def test_a_silent_https_proxy_ends_at_the_deadline():
    # The TLS socket to an https:// proxy is the guard's before its handshake starts.
    listener = _silent_listener()
    guard = ConnectionGuard(LOCAL.policy, time.monotonic() + 0.5, proxied=True)
    proxy = f"https://127.0.0.1:{listener.getsockname()[1]}"
    start = time.monotonic()
    try:
        with pytest.raises(OSError):
            send("https://example.org/", "GET", {}, None, guard, 8, proxy)
    finally:
        guard.cancel()
        listener.close()
    assert time.monotonic() - start < 3


def test_a_proxy_silent_on_connect_ends_at_the_attempts_timeout():
    # The CONNECT's answer is waited for under the attempt's timeout, as any answer is.
    listener = _silent_listener()
    guard = ConnectionGuard(LOCAL.policy, time.monotonic() + 6, proxied=True)
    proxy = f"http://127.0.0.1:{listener.getsockname()[1]}"
    start = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            send("https://example.org/", "GET", {}, None, guard, 0.5, proxy)
    finally:
        guard.cancel()
        listener.close()
    assert time.monotonic() - start < 3


def _hello_extensions(hello: bytes) -> tuple[bytes, bytes, dict[int, bytes]]:
    """A ClientHello handshake message: its session id, compression methods, extensions."""
    import struct

    p = 4 + 2 + 32  # handshake header, legacy version, random
    session_id = hello[p + 1 : p + 1 + hello[p]]
    p += 1 + hello[p]
    p += 2 + struct.unpack("!H", hello[p : p + 2])[0]  # cipher suites
    compression = hello[p + 1 : p + 1 + hello[p]]
    p += 1 + hello[p]
    end = p + 2 + struct.unpack("!H", hello[p : p + 2])[0]
    p += 2
    extensions: dict[int, bytes] = {}
    while p < end:
        kind, size = struct.unpack("!HH", hello[p : p + 4])
        extensions[kind] = hello[p + 4 : p + 4 + size]
        p += 4 + size
    return session_id, compression, extensions


def test_the_client_hello_is_urllib3s(wire):
    # The exact offer, read off the wire: SNI without the trailing dot, TLS 1.3 and 1.2
    # only, http/1.1 by ALPN, post-handshake auth offered, no session ticket asked for, no
    # compression, and a session id (OpenSSL's middlebox compatibility, kept on).
    import struct
    import threading

    w = wire(b"")
    hello: list[bytes] = []

    def read_hello() -> None:
        w.server.settimeout(10)
        head = w.server.recv(5, socket.MSG_WAITALL)
        hello.append(w.server.recv(struct.unpack("!H", head[3:5])[0], socket.MSG_WAITALL))
        w.server.shutdown(socket.SHUT_RDWR)

    t = threading.Thread(target=read_hello, daemon=True)
    t.start()
    with pytest.raises(ssl.SSLError):
        send("https://example.org./", "GET", {}, None, w, 10)
    t.join(10)
    session_id, compression, ext = _hello_extensions(hello[0])
    assert (len(session_id), compression) == (32, b"\x00")
    assert ext[0] == b"\x00\x0e\x00\x00\x0bexample.org"  # server_name
    assert ext[43] == b"\x04\x03\x04\x03\x03"  # supported_versions: 1.3, 1.2
    assert ext[16] == b"\x00\x09\x08http/1.1"  # ALPN
    assert ext[49] == b""  # post_handshake_auth
    assert 35 not in ext  # session_ticket


def test_a_certificate_naming_its_host_only_in_its_common_name_is_refused(
    wire, tmp_path, monkeypatch
):
    # As urllib3 does (and browsers): the subject's CN is not a host name any more.
    import threading

    pki = _tls_pki(tmp_path, None, cn="example.org")
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / "leaf.pem", pki / "leaf.key")
    w = wire(b"")

    def serve_tls() -> None:
        w.server.settimeout(10)
        try:
            ctx.wrap_socket(w.server, server_side=True).sendall(OK)
        except OSError:
            pass

    t = threading.Thread(target=serve_tls, daemon=True)
    t.start()
    with pytest.raises(ssl.SSLCertVerificationError, match="Hostname mismatch"):
        send("https://example.org/", "GET", {}, None, w, 10)
    t.join(10)
