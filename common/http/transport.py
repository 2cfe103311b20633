"""One direct (not proxied) HTTP/1.1 exchange on the standard library's http.client: the
guarded connect (common.http.deadline), urllib3's TLS settings, the strict head
(common.http.framing) and a body read in chunks that must match its announced length.

urllib3 costs about 20 ms of import on every run; without a proxy nothing of it is needed,
so common.http.client sends direct requests here and keeps urllib3 for proxies (CONNECT
tunnels, proxy credentials). What goes on the wire is what urllib3 sent: the same request
target, headers in the same order, Content-Length the same way, TCP_NODELAY, and for
https the same verification, minimum version, ALPN and SNI.
"""

from __future__ import annotations

import http.client
import re
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from common.errors import TransferError
from common.http.deadline import Deadline
from common.http.framing import strict_response
from common.http.url import default_port

# Methods whose request carries a body, so an empty one is sent as Content-Length: 0
# (what urllib3 and http.client both do).
_BODY_METHODS = frozenset({"PATCH", "POST", "PUT"})
_NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def _tls_context() -> Any:
    """A client context as urllib3 makes one: the system's CA store (SSL_CERT_FILE
    honoured), certificate and host name verified, TLS 1.2 at least, no compression or
    session tickets, HTTP/1.1 by ALPN. Made per connection, as urllib3 does, so that a
    change of SSL_CERT_FILE between fetches is seen."""
    import ssl

    ctx = ssl.create_default_context()  # CERT_REQUIRED, check_hostname, SSLKEYLOGFILE
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.options |= ssl.OP_NO_COMPRESSION | ssl.OP_NO_TICKET
    ctx.hostname_checks_common_name = False
    if getattr(ctx, "post_handshake_auth", None) is not None:
        ctx.post_handshake_auth = True
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


class _Connection(http.client.HTTPConnection):
    """http.client's connection with its socket from the guard: policy per address
    connected, the total deadline over every socket, abort from another thread."""

    response_class = strict_response()

    def __init__(self, host: str, port: int, *, guard: Deadline, timeout: float, tls: bool) -> None:
        # The Host header and SNI name drop a trailing dot (as urllib3's do); the lookup
        # keeps the name as given.
        super().__init__(host.rstrip("."), port, timeout=timeout)
        self.default_port = 443 if tls else 80
        self._dns_host = host
        self._guard = guard
        self._tls = tls

    def connect(self) -> None:
        sock = self._guard.connect(self._dns_host, self.port, self.timeout, _NODELAY)
        if self._tls:
            # The handshake runs under the read timeout, and the guard still shuts the
            # underlying socket down at the deadline.
            sock.settimeout(self.timeout)
            sock = _tls_context().wrap_socket(
                sock, server_hostname=self.host, do_handshake_on_connect=False
            )
            # The TLS socket takes the descriptor over: the guard's deadline reaches the
            # connection, handshake included, only through it (with urllib3 it did not:
            # a server trickling a byte a second held a read until the watchdog's
            # backstop ended the process).
            self._guard.track(sock)
            try:
                sock.do_handshake()
            except BaseException:
                sock.close()
                raise
        # Each wait for bytes is bounded by the attempt's timeout (urllib3's read timeout).
        sock.settimeout(self.timeout)
        self.sock = sock


def request(
    url: str,
    method: str,
    headers: dict[str, str],
    body: bytes | None,
    guard: Deadline,
    timeout: float,
) -> tuple[_Connection, http.client.HTTPResponse]:
    """Send one request straight to the URL's host and read the head of its answer.
    The caller closes the connection; exceptions are http.client's, ssl's and OSError
    (common.http.client maps them to exit codes) or the guard's ToolError."""
    parts = urlsplit(url)
    tls = parts.scheme == "https"
    conn = _Connection(
        parts.hostname or "", default_port(parts), guard=guard, timeout=timeout, tls=tls
    )
    try:
        names = {name.lower() for name in headers}
        conn.putrequest(
            method,
            _target(url),
            skip_host="host" in names,
            skip_accept_encoding="accept-encoding" in names,
        )
        if "content-length" not in names and "transfer-encoding" not in names:
            if body is not None:
                conn.putheader("Content-Length", str(len(body)))
            elif method in _BODY_METHODS:
                conn.putheader("Content-Length", "0")
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        return conn, conn.getresponse()
    except BaseException:
        conn.close()
        raise


def _target(url: str) -> str:
    """The request target as urllib3 sent it: the path with its dot segments removed,
    "/" when empty, and the query, each with urllib3's escaping; never the fragment."""
    parts = urlsplit(url)
    path = _without_dot_segments(parts.path) if "." in parts.path else parts.path
    path = _escaped(path or "/", _PATH_CHARS)
    return f"{path}?{_escaped(parts.query, _QUERY_CHARS)}" if parts.query else path


_PATH_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/"
)
_QUERY_CHARS = _PATH_CHARS | {"?"}


def _escaped(text: str, allowed: frozenset[str]) -> str:
    """urllib3's escaping (util/url.py): escapes upper-cased, anything not allowed
    escaped, and when one "%" starts no escape, every "%" escaped as "%25" (servers see
    "/%zz%" as "/%25zz%25", as they did)."""
    if "%" not in text and all(c in allowed for c in text):
        return text
    text, escapes = re.subn(r"%[a-fA-F0-9]{2}", lambda m: m.group(0).upper(), text)
    raw = text.encode("utf-8", "surrogatepass")
    keep_percent = escapes == raw.count(b"%")
    out = []
    for byte in raw:
        char = chr(byte)
        if (keep_percent and char == "%") or (byte < 128 and char in allowed):
            out.append(char)
        else:
            out.append(f"%{byte:02X}")
    return "".join(out)


def _without_dot_segments(path: str) -> str:
    # urllib3's rule (util/url.py), so that the same URL asks for the same resource.
    out: list[str] = []
    for segment in path.split("/"):
        if segment == ".":
            continue
        if segment != "..":
            out.append(segment)
        elif out:
            out.pop()
    if path.startswith("/") and (not out or out[0]):
        out.insert(0, "")
    if path.endswith(("/.", "/..")):
        out.append("")
    return "/".join(out)


def stream(resp: http.client.HTTPResponse, size: int, host: str) -> Iterator[bytes]:
    """The body in chunks of at most ``size`` bytes. A body shorter than its
    Content-Length is a transfer that broke off (http.client would return it as whole)."""
    got = 0
    while chunk := resp.read(size):
        got += len(chunk)
        yield chunk
    left = resp.length  # what the Content-Length announced and did not come
    if left:
        raise TransferError(
            f"transfer from {host} broke off: IncompleteRead({got} bytes read, "
            f"{left} more expected)"
        )
