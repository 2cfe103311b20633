"""Small local servers for tests: every one listens on 127.0.0.0/8 only.

``RawServer`` hands each accepted connection to a function, so a test can send exactly
the bytes it wants (slow headers, lying lengths, resets) and see every request it got.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

Handler = Callable[[socket.socket, bytes], None]


def read_request(conn: socket.socket, limit: int = 1 << 20) -> bytes:
    """Read one request head (and a Content-Length body) from a connection."""
    conn.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data and len(data) < limit:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            need = int(line.split(b":", 1)[1].strip() or 0)
            while len(rest) < need:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                rest += chunk
    return head + b"\r\n\r\n" + rest


def http_response(
    status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None
) -> bytes:
    reason = {
        200: "OK",
        204: "No Content",
        301: "Moved Permanently",
        302: "Found",
        404: "Not Found",
        429: "Too Many Requests",
        500: "Internal Server Error",
    }.get(status, "X")
    head = {"Content-Length": str(len(body)), "Connection": "close"}
    head.update(headers or {})
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{k}: {v}" for k, v in head.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class RawServer:
    """A threaded TCP server on ``host`` whose connections go to ``handler``."""

    def __init__(
        self,
        handler: Handler,
        host: str = "127.0.0.1",
        *,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        assert host.startswith("127.") or host == "::1", "test servers listen on loopback only"
        self.handler = handler
        self.tls = tls
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.host = host
        self.port = self.sock.getsockname()[1]
        self.requests: list[bytes] = []
        self.connections = 0
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._accept = threading.Thread(target=self._loop, daemon=True)
        self._accept.start()

    @property
    def url(self) -> str:
        scheme = "https" if self.tls else "http"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{host}:{self.port}/"

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            t.start()
            self._threads.append(t)

    def _serve(self, conn: socket.socket) -> None:
        try:
            if self.tls is not None:
                conn.settimeout(5)
                conn = self.tls.wrap_socket(conn, server_side=True)
            request = read_request(conn)
            self.requests.append(request)
            self.handler(conn, request)
        except (OSError, ssl.SSLError):
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def close(self) -> None:
        self._stop.set()
        try:
            # Wakes the accept loop now instead of at its next 0.2 s poll.
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self._accept.join(2)

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def respond(status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None) -> Handler:
    def handler(conn: socket.socket, request: bytes) -> None:
        conn.sendall(http_response(status, body, headers))

    return handler


def self_signed_context(tmp: Path, *, days: int = 2, name: str = "localhost") -> ssl.SSLContext:
    """A server context with a certificate made here by openssl (self-signed)."""
    key, cert = tmp / "key.pem", tmp / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            str(days),
            "-subj",
            f"/CN={name}",
            "-addext",
            f"subjectAltName=DNS:{name},IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    return ctx
