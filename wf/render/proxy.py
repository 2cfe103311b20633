"""The policy proxy: every connection of one browser context goes through it.

Fetch interception never sees WebSocket connections or ``<link rel=preconnect>``, and
Chromium would send loopback and link-local destinations around a proxy unless told
``<-loopback>``; so each context is given this proxy with that bypass list, and every
connection arrives here (CONNECT, or an absolute-URI request). The proxy resolves names
itself, checks every address with the policy, connects only to a checked one, and
forwards one request per client connection, so a reused connection cannot smuggle a
second, unchecked destination. It lives in the wf process: when wf dies the port closes
and the context's requests fail (closed, not open).

Its port on 127.0.0.1 is open to every local user (and listed in /proc/net/tcp), so it
serves only connections from a socket of our own user (wf/render/peer.py) and closes any
other at once without a byte: nobody else may use it as an open proxy that runs as us,
nor have it add our upstream proxy's credentials to their requests.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import cast
from urllib.parse import urlsplit

from common.errors import DNSError, PolicyRefused, Timeout
from common.policy import IPAddress
from wf.render.crew import Crew
from wf.render.intercept import RESOLVE_TIMEOUT, CheckedResolver, RefusedLog
from wf.render.peer import from_us

CONNECT_TIMEOUT = 10.0
IDLE_TIMEOUT = 30.0
CLOSE_JOIN = 1.0  # close() waits this long at most for a thread still ending
MAX_HEAD = 64 * 1024
MAX_INTERIM = 10


class PolicyProxy:
    """A forward proxy for one browser context that connects only where the policy allows."""

    def __init__(
        self,
        resolver: CheckedResolver,
        blocked: RefusedLog,
        *,
        upstream_for: Callable[[str], str | None] | None = None,
    ) -> None:
        self._resolver = resolver
        self._blocked = blocked
        self._upstream_for = upstream_for or _env_proxy
        self._lock = threading.Lock()
        self._socks: set[socket.socket] = set()
        self._closed = False
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        self.address = f"127.0.0.1:{self.port}"
        self._connections = Crew()  # each client's thread, joined by close()
        self._accepter = threading.Thread(target=self._accept_loop, name="wf-proxy", daemon=True)
        self._accepter.start()

    def close(self) -> None:
        """Close every connection, and return once the proxy's threads have ended: each
        wakes when its sockets are shut down (one still connecting upstream, or waiting
        for a name, is waited for CLOSE_JOIN at most)."""
        with self._lock:
            self._closed = True
            socks = list(self._socks)
            self._socks.clear()
        # Shut down first, close after the threads have ended: a socket closed under a
        # tunnel's epoll leaves it, and the tunnel's thread slept on for IDLE_TIMEOUT
        # (30 s) after the render had returned; a shut-down one wakes it at once.
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        self._accepter.join(CLOSE_JOIN)  # no connection thread starts after it ends
        self._listener.close()
        self._connections.join(time.monotonic() + CLOSE_JOIN)
        for s in socks:
            _close(s)

    def __enter__(self) -> PolicyProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _track(self, sock: socket.socket) -> bool:
        with self._lock:
            if self._closed:
                return False
            self._socks.add(sock)
            return True

    def _untrack(self, sock: socket.socket) -> None:
        with self._lock:
            self._socks.discard(sock)
        _close(sock)

    def _accept_loop(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self._track(client):
                _close(client)
                return
            self._connections.start(partial(self._serve, client), name="wf-proxy-conn")

    def _serve(self, client: socket.socket) -> None:
        upstream: socket.socket | None = None
        try:
            if not from_us(client):
                return
            client.settimeout(IDLE_TIMEOUT)
            head, rest = _read_head(client)
            if head is None:
                return
            upstream = self._handle(client, head, rest)
        except OSError:
            pass
        finally:
            self._untrack(client)
            if upstream is not None:
                self._untrack(upstream)

    def _handle(self, client: socket.socket, head: bytes, rest: bytes) -> socket.socket | None:
        lines = head.decode("latin-1").split("\r\n")
        try:
            method, target, version = lines[0].split(" ")
        except ValueError:
            _reply(client, 400, "malformed request line")
            return None
        if method.upper() == "CONNECT":
            host, port = _split_authority(target)
            url = f"{host}:{port}"
        else:
            parts = urlsplit(target)
            if parts.scheme.lower() != "http" or not parts.hostname:
                _reply(client, 400, "only absolute http:// URLs and CONNECT are proxied")
                return None
            if any(h.lower().startswith("transfer-encoding:") for h in lines[1:]):
                # Without a length we could not stop after this one request.
                _reply(client, 501, "chunked request bodies are not proxied")
                return None
            host, port, url = parts.hostname, parts.port or 80, target
        if not host or port is None:
            _reply(client, 400, "bad target")
            return None
        try:
            addrs = self._resolver.addresses(
                host, port, deadline=time.monotonic() + RESOLVE_TIMEOUT
            )
        except PolicyRefused as exc:
            kind = "connection" if method.upper() == "CONNECT" else "request"
            self._blocked.add(f"{kind} to {url[:300]} at the proxy ({exc.message})")
            _reply(client, 403, exc.message)
            return None
        except (DNSError, Timeout) as exc:
            _reply(client, 502, exc.message)
            return None
        proxy = self._upstream_for(
            f"https://{host}:{port}/" if method.upper() == "CONNECT" else url
        )
        upstream = self._connect(addrs, port, proxy)
        if upstream is None:
            _reply(client, 502, f"cannot connect to {host} port {port}")
            return None
        if not self._track(upstream):
            _close(upstream)
            return None
        if method.upper() == "CONNECT":
            if proxy:
                # The upstream proxy answers the CONNECT itself.
                kept = [h for h in lines[1:] if h and not _hop_header(h)]
                upstream.sendall(_head_bytes([lines[0], *kept, *_proxy_auth(proxy)]) + rest)
            else:
                client.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                if rest:
                    upstream.sendall(rest)
            _splice(client, upstream)
            return upstream
        self._forward_one(
            client,
            upstream,
            lines,
            rest,
            proxy=proxy,
            method=method,
            version=version,
            target=target,
        )
        return upstream

    def _connect(
        self, addrs: list[IPAddress], port: int, proxy: str | None
    ) -> socket.socket | None:
        if proxy:
            # The upstream proxy is operator configuration, as in common.http.
            p = urlsplit(proxy)
            try:
                return socket.create_connection(
                    (p.hostname, p.port or 8080), timeout=CONNECT_TIMEOUT
                )
            except OSError:
                return None
        for addr in addrs:
            family = socket.AF_INET6 if addr.version == 6 else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.settimeout(CONNECT_TIMEOUT)
            try:
                sock.connect((str(addr), port))
            except OSError:
                sock.close()
                continue
            sock.settimeout(IDLE_TIMEOUT)
            return sock
        return None

    def _forward_one(
        self,
        client: socket.socket,
        upstream: socket.socket,
        lines: list[str],
        rest: bytes,
        *,
        proxy: str | None,
        method: str,
        version: str,
        target: str,
    ) -> None:
        """One request, then the answer; the client may not send a second request here."""
        headers = [h for h in lines[1:] if h and not _hop_header(h)]
        length = 0
        for h in headers:
            if h.lower().startswith("content-length:"):
                value = h.split(":", 1)[1].strip()
                length = int(value) if value.isdigit() else 0
        if not proxy:
            parts = urlsplit(target)
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        auth = _proxy_auth(proxy) if proxy else []
        out = _head_bytes([f"{method} {target} {version}", *headers, *auth, "Connection: close"])
        upstream.sendall(out + rest[:length])
        remaining = length - len(rest[:length])
        while remaining > 0:
            chunk = client.recv(min(65536, remaining))
            if not chunk:
                return
            upstream.sendall(chunk)
            remaining -= len(chunk)
        # Interim 1xx heads are dropped (up to MAX_INTERIM, as in common.http: the browser
        # needs none of them, and an endless stream of them must not hold the connection);
        # the final head says "close".
        buf = b""
        for _ in range(MAX_INTERIM + 1):
            head, buf = _read_head(upstream, buf)
            if head is None:
                return
            status_line, *resp = head.decode("latin-1").split("\r\n")
            code = status_line.split(" ", 2)[1] if " " in status_line else ""
            if code.startswith("1") and code != "101":
                continue
            kept = [h for h in resp if h and not _hop_header(h)]
            client.sendall(_head_bytes([status_line, *kept, "Connection: close"]) + buf)
            break
        else:
            _reply(client, 502, f"more than {MAX_INTERIM} interim (1xx) answers from the server")
            return
        _copy(upstream, client)


_HOP = (
    "connection:",
    "proxy-connection:",
    "keep-alive:",
    "proxy-authorization:",
    "proxy-authenticate:",
)


def _hop_header(line: str) -> bool:
    return line.lower().startswith(_HOP)


def _head_bytes(lines: list[str]) -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _proxy_auth(proxy: str) -> list[str]:
    """Proxy-Authorization for an upstream proxy URL with user:password in it."""
    parts = urlsplit(proxy)
    if parts.username is None:
        return []
    from common.http.url import basic_auth

    return [f"Proxy-Authorization: {basic_auth(parts)}"]


def _read_head(sock: socket.socket, data: bytes = b"") -> tuple[bytes | None, bytes]:
    """(head without its blank line, bytes read past it); head None at EOF or overflow."""
    while b"\r\n\r\n" not in data:
        if len(data) > MAX_HEAD:
            return None, b""
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _split_authority(target: str) -> tuple[str, int | None]:
    host, _, port = target.rpartition(":")
    if not port.isdigit() or not host:
        return "", None
    return host.strip("[]"), int(port)


def _reply(sock: socket.socket, code: int, message: str) -> None:
    reasons = {400: "Bad Request", 403: "Forbidden", 501: "Not Implemented", 502: "Bad Gateway"}
    body = (message + "\n").encode("utf-8", "replace")
    head = (
        f"HTTP/1.1 {code} {reasons.get(code, 'Error')}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    with contextlib.suppress(OSError):
        sock.sendall(head.encode("ascii") + body)


def _copy(src: socket.socket, dst: socket.socket) -> None:
    while True:
        chunk = src.recv(65536)
        if not chunk:
            return
        dst.sendall(chunk)


def _splice(a: socket.socket, b: socket.socket) -> None:
    """Copy both ways until both sides have closed, or nothing moves for IDLE_TIMEOUT."""
    sel = selectors.DefaultSelector()
    peers = {a: b, b: a}
    try:
        for s in peers:
            s.setblocking(True)
            sel.register(s, selectors.EVENT_READ)
    except (OSError, ValueError):
        # The proxy's close() shut a side from another thread (the session ended): a
        # closed socket's descriptor is -1, which the selector refuses with ValueError,
        # and that escaped the connection's thread as a traceback on stderr.
        sel.close()
        return
    open_ends = 2
    try:
        while open_ends:
            events = sel.select(IDLE_TIMEOUT)
            if not events:
                return
            for key, _ in events:
                src = cast(socket.socket, key.fileobj)  # only sockets are registered
                data = src.recv(65536)
                if not data:
                    sel.unregister(src)
                    open_ends -= 1
                    with contextlib.suppress(OSError):
                        peers[src].shutdown(socket.SHUT_WR)
                    continue
                peers[src].sendall(data)
    finally:
        sel.close()


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def _env_proxy(url: str) -> str | None:
    from common.http.proxy_env import proxy_for

    return proxy_for(url)
