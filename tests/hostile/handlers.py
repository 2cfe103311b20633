"""Hostile connection handlers for tests.servers.RawServer: each one is a function of
(connection, request bytes) that sends exactly the bytes of one misbehaving server."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterable

from tests.servers import Handler, RawServer, http_response

# Handlers that stall wait on this instead of sleeping, so the suite's servers stop at
# the end of the session rather than holding threads for the whole stall.
STOP = threading.Event()
FOREVER = 30.0


def stall(conn: socket.socket, request: bytes) -> None:
    """Accept, read the request, never answer."""
    STOP.wait(FOREVER)


def drip(data: bytes, every: float, *, then: Iterable[bytes] = ()) -> Handler:
    """Send ``data`` one byte every ``every`` seconds, then each of ``then``."""

    def handler(conn: socket.socket, request: bytes) -> None:
        for i in range(len(data)):
            conn.sendall(data[i : i + 1])
            if STOP.wait(every):
                return
        for part in then:
            conn.sendall(part)

    return handler


def forever(head: bytes, piece: bytes, every: float = 0.0) -> Handler:
    """Send ``head``, then ``piece`` again and again until the client goes away."""

    def handler(conn: socket.socket, request: bytes) -> None:
        conn.sendall(head)
        end = time.monotonic() + FOREVER
        while time.monotonic() < end and not STOP.is_set():
            conn.sendall(piece)
            if every:
                time.sleep(every)

    return handler


def raw(data: bytes, *, reset: bool = False, linger: float = 0.0) -> Handler:
    """Send exactly ``data``; then close, with a TCP reset when ``reset`` is true."""

    def handler(conn: socket.socket, request: bytes) -> None:
        conn.sendall(data)
        if linger:
            time.sleep(linger)
        if reset:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    return handler


def head(status: int = 200, headers: dict[str, str] | None = None) -> bytes:
    """A status line and headers with no Content-Length (and no Connection: close)."""
    lines = [f"HTTP/1.1 {status} X"] + [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def path_of(request: bytes) -> str:
    """The request line's path; "" for a request cut before it (a browser that closes a
    connection it opened ahead, as Chromium does while a page redirects itself in a loop:
    the server's thread must not die of it)."""
    parts = request.split(b" ", 2)
    return parts[1].decode("latin-1") if len(parts) > 1 else ""


def routes(table: dict[str, bytes]) -> Handler:
    """Answer each path with its bytes from ``table``; anything else is a 404."""

    def handler(conn: socket.socket, request: bytes) -> None:
        conn.sendall(table.get(path_of(request), http_response(404, b"")))

    return handler


# RawServer.close wakes its accept loop at once; the name stays for the suite's readers.
QuickServer = RawServer


class EagerServer(QuickServer):
    """A server whose handler runs as soon as a connection is accepted, before any
    request is read (a server that speaks first, or one that does not speak HTTP)."""

    def _serve(self, conn: socket.socket) -> None:
        try:
            self.handler(conn, b"")
        except OSError:
            pass
        finally:
            conn.close()
