"""One HTTP/1.1 exchange on the standard library's http.client, straight to the URL's host
or through a proxy: the guarded connect (common.http.deadline), TLS, the CONNECT tunnel
(common.http.tunnel), the strict head (common.http.framing) and a body read in chunks
that must match its announced length.

``send`` only picks the route, as requests' ``send`` picks a pool: everything after the
connect is the same code for both. http.client rather than urllib3 because urllib3's
import alone cost a search 25 to 30 ms of CPU time, which put ``ws`` behind its peer ddgs
(README, "Dependencies and why"). What goes on the wire is what urllib3 sent: the same
request target, headers in the same order, Content-Length the same way, TCP_NODELAY, and
for https the same verification, minimum version, ALPN and SNI.
"""

from __future__ import annotations

import http.client
import re
import socket
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import SplitResult, urlsplit

from common.errors import TransferError
from common.http.deadline import ConnectionGuard
from common.http.framing import StrictResponse
from common.http.url import basic_auth, default_port

# Methods whose request carries a body, so an empty one is sent as Content-Length: 0
# (what urllib3 and http.client both do).
_BODY_METHODS = frozenset({"PATCH", "POST", "PUT"})
_NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def _tls_context(environ: Mapping[str, str] | None = None) -> Any:
    """A client context as urllib3 and requests make one: the system's CA store
    (SSL_CERT_FILE honoured), certificate and host name verified, TLS 1.2 at least, no
    compression or session tickets, HTTP/1.1 by ALPN. Made per connection, so that a
    change of SSL_CERT_FILE between fetches is seen. ``environ`` (a library caller's,
    None: os.environ) is where SSL_CERT_FILE, SSL_CERT_DIR and SSLKEYLOGFILE are read."""
    import ssl

    # CERT_REQUIRED, check_hostname, SSLKEYLOGFILE: create_default_context's, both ways.
    ctx = ssl.create_default_context() if environ is None else _context_in(environ)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.options |= ssl.OP_NO_COMPRESSION | ssl.OP_NO_TICKET
    ctx.hostname_checks_common_name = False
    if getattr(ctx, "post_handshake_auth", None) is not None:
        ctx.post_handshake_auth = True
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


def _context_in(environ: Mapping[str, str]) -> Any:
    """create_default_context's context, its CA store and key log read in ``environ``:
    that function reads SSLKEYLOGFILE in os.environ (and opens the file), and OpenSSL's
    default store (load_default_certs) is found by getenv, in the process's environment,
    whatever the caller gave."""
    import os
    import ssl
    import sys

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # CERT_REQUIRED, check_hostname
    if sys.version_info >= (3, 13):  # what create_default_context adds there
        ctx.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
    paths = ssl.get_default_verify_paths()
    cafile = environ.get(paths.openssl_cafile_env) or paths.openssl_cafile
    capath = environ.get(paths.openssl_capath_env) or paths.openssl_capath
    # As OpenSSL's default store: a file or directory that is not there is none (and a
    # directory variable may list several); with neither, nothing verifies.
    file = cafile if os.path.isfile(cafile) else None
    folder = capath if any(map(os.path.isdir, capath.split(os.pathsep))) else None
    if file is not None or folder is not None:
        ctx.load_verify_locations(file, folder)
    keylog = environ.get("SSLKEYLOGFILE")
    if keylog and hasattr(ctx, "keylog_filename"):
        ctx.keylog_filename = keylog
    return ctx


def _handshake(
    sock: Any,
    name: str,
    guard: ConnectionGuard,
    timeout: float | None,
    *,
    inside_tls: bool = False,
    environ: Mapping[str, str] | None = None,
) -> Any:
    """``sock`` after a TLS handshake with ``name``, the TLS socket tracked by the guard
    before the handshake starts. ``inside_tls``: ``sock`` is the TLS to an https://
    proxy, and this session runs inside it. ``environ``: as _tls_context's."""
    # The handshake runs under the read timeout, and the guard still shuts the
    # underlying socket down at the deadline.
    sock.settimeout(timeout)
    if inside_tls:
        from common.http.tunnel import TlsInTls

        inner = TlsInTls(sock, _tls_context(environ), name)
        inner.do_handshake()
        return inner
    tls = _tls_context(environ).wrap_socket(
        sock, server_hostname=name, do_handshake_on_connect=False
    )
    # The TLS socket takes the descriptor over: the guard's deadline reaches the
    # connection, handshake included, only through it (urllib3 wrapped and shook hands in
    # one call: a server trickling a byte a second held a read until the watchdog's
    # backstop ended the process).
    guard.track(tls)
    try:
        tls.do_handshake()
    except BaseException:
        tls.close()
        raise
    return tls


class _Connection(http.client.HTTPConnection):
    """http.client's connection with its socket from the guard (policy per address
    connected, the total deadline over every socket, abort from another thread), to the
    URL's host or to the proxy, then through the tunnel and TLS when the URL is https."""

    response_class = StrictResponse

    def __init__(
        self,
        url: SplitResult,
        proxy: SplitResult | None,
        guard: ConnectionGuard,
        timeout: float,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        host = url.hostname or ""
        # The Host header and SNI name drop a trailing dot (as urllib3's do); the lookup,
        # and the proxy's CONNECT, keep the name as given.
        super().__init__(host.rstrip("."), default_port(url), timeout=timeout)
        self._tls = url.scheme == "https"
        self.default_port = 443 if self._tls else 80
        self._dns_host = host
        self._proxy = proxy
        self._guard = guard
        self._environ = environ  # where TLS reads its CA store (_tls_context)

    def connect(self) -> None:
        guard, proxy, env = self._guard, self._proxy, self._environ
        if proxy is None:
            sock = guard.connect(self._dns_host, self.port, self.timeout, _NODELAY)
        else:
            name = proxy.hostname or ""
            sock = guard.connect(name, default_port(proxy), self.timeout, _NODELAY)
            if proxy.scheme == "https":
                sock = _handshake(sock, name.rstrip("."), guard, self.timeout, environ=env)
            if self._tls:
                from common.http.tunnel import open_tunnel

                # The CONNECT's answer waits under the attempt's timeout too.
                sock.settimeout(self.timeout)
                open_tunnel(sock, self._dns_host, self.port, _proxy_auth(proxy))
        if self._tls:
            inside = proxy is not None and proxy.scheme == "https"
            sock = _handshake(sock, self.host, guard, self.timeout, inside_tls=inside, environ=env)
        # Each wait for bytes is bounded by the attempt's timeout (urllib3's read timeout).
        sock.settimeout(self.timeout)
        self.sock = sock


def send(
    url: str,
    method: str,
    headers: dict[str, str],
    body: bytes | None,
    guard: ConnectionGuard,
    timeout: float,
    proxy: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[_Connection, http.client.HTTPResponse]:
    """Send one request, straight to the URL's host or through ``proxy`` (an http:// or
    https:// proxy URL: an https URL through a CONNECT tunnel, an http one as an
    absolute-form request to the proxy), and read the head of its answer. ``environ``
    (None: os.environ) is where TLS reads SSL_CERT_FILE and the like. The caller
    closes the connection; exceptions are http.client's, ssl's and OSError
    (common.http.client maps them to exit codes) or the guard's ToolError."""
    parts = urlsplit(url)
    via = urlsplit(proxy) if proxy else None
    conn = _Connection(parts, via, guard, timeout, environ)
    target = _target(url)
    if via is not None and parts.scheme == "http":
        # The proxy forwards it: the request names the whole URL, and http.client takes
        # the Host header from it.
        target = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{target}"
    try:
        names = {name.lower() for name in headers}
        conn.putrequest(
            method,
            target,
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
        if via is not None and parts.scheme == "http" and (auth := _proxy_auth(via)):
            # The proxy reads it and forwards the rest; an https URL's goes on the CONNECT.
            conn.putheader("Proxy-Authorization", auth)
        conn.endheaders(body)
        return conn, conn.getresponse()
    except BaseException:
        conn.close()
        raise


def _proxy_auth(proxy: SplitResult) -> str | None:
    """The proxy URL's userinfo as Basic credentials (curl's rule), or None."""
    return None if proxy.username is None else basic_auth(proxy)


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
