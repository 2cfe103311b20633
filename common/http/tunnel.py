"""Through a proxy: the CONNECT that opens a tunnel to an https:// target, and TLS to the
target inside the TLS to an https:// proxy. Imported only when a proxy is configured."""

from __future__ import annotations

import io
import socket
import ssl
from typing import Any

from common.http.framing import StrictResponse


def open_tunnel(sock: socket.socket, host: str, port: int, auth: str | None = None) -> None:
    """Ask the proxy on ``sock`` for a tunnel to host:port; OSError when it refuses.

    The request is RFC 9110's (HTTP/1.1, Host naming the target, an IPv6 address in
    brackets), as curl and current Python send it. The answer is read as strictly as any
    other (common.http.framing: bounded head, interim answers skipped); its body, if any,
    is not read: after a 2xx the bytes are the target's. ``auth`` is the proxy URL's own
    Basic credentials, for the proxy only (the target never sees them)."""
    target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    credentials = f"Proxy-Authorization: {auth}\r\n" if auth else ""
    head = f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n{credentials}\r\n"
    sock.sendall(head.encode("ascii"))
    answer = StrictResponse(sock, method="CONNECT")
    try:
        answer.begin()
        if answer.status != 200:
            # urllib3's words (and http.client's), which the error line has always shown.
            raise OSError(f"Tunnel connection failed: {answer.status} {answer.reason.strip()}")
    finally:
        answer.close()


class TlsInTls:
    """TLS to the target inside the TLS to an https:// proxy.

    ssl cannot wrap an SSLSocket in a second TLS session, so the inner one runs on memory
    buffers and its records travel through the outer socket. This offers what http.client
    uses of a socket (sendall, makefile, settimeout, close). The guard tracks the outer
    socket, which carries every byte: shutting it down at the deadline ends the inner
    session's reads and handshake as well."""

    def __init__(self, outer: ssl.SSLSocket, context: ssl.SSLContext, server_hostname: str) -> None:
        self._outer = outer
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self._tls = context.wrap_bio(
            self._incoming, self._outgoing, server_hostname=server_hostname
        )

    def do_handshake(self) -> None:
        self._run(self._tls.do_handshake)

    def _run(self, step: Any, *args: Any) -> Any:
        """One TLS operation, fed from the outer socket until it has what it needs."""
        while True:
            try:
                result = step(*args)
            except ssl.SSLWantReadError:
                pass
            else:
                self._flush()
                return result
            # Outside the except clause: an outer read that times out or fails must not be
            # chained to this want of bytes, which common.http.failures would take for
            # the cause (a TLS error, exit 35, for what was the deadline or a timeout).
            self._flush()
            data = self._outer.recv(65536)
            if data:
                self._incoming.write(data)
            else:
                self._incoming.write_eof()

    def _flush(self) -> None:
        pending = self._outgoing.read()
        if pending:
            self._outer.sendall(pending)

    def sendall(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[self._run(self._tls.write, view) :]

    def recv_into(self, buffer: Any, nbytes: int = 0) -> int:
        try:
            count: int = self._run(self._tls.read, nbytes or len(buffer), buffer)
        except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
            # The end of the stream, as an SSLSocket reports it (suppress_ragged_eofs): a
            # body cut short is then told by its framing.
            return 0
        return count

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        return io.BufferedReader(_Reader(self))

    def settimeout(self, value: float | None) -> None:
        self._outer.settimeout(value)

    def close(self) -> None:
        self._outer.close()


class _Reader(io.RawIOBase):
    def __init__(self, sock: TlsInTls) -> None:
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self._sock.recv_into(buffer)
