"""common/http/transport.py: a direct request on http.client sends what urllib3 sent (the
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
from common.http.transport import _target
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


def _tls_pki(tmp: Path) -> Path:
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=tmp, check=True, capture_output=True)

    openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=transport test CA",
    )  # fmt: skip
    openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
        "-subj", "/CN=127.0.0.1",
    )  # fmt: skip
    (tmp / "ext").write_text("subjectAltName=IP:127.0.0.1\n")
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
