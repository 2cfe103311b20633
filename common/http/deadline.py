"""The total deadline of a fetch: every socket it opens is connected under the policy and
shut down when the deadline passes, and an interrupted batch can end all fetches at once.
An ``Abort`` ends one fetch from another thread (ws cancels the loser of a hedged pair)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from common import trace
from common.errors import ConnectError, Timeout, ToolError
from common.policy import Policy, resolve_checked

_ACTIVE: set[ConnectionGuard] = set()
_ACTIVE_LOCK = threading.Lock()


def abort_fetches() -> None:
    """End every fetch in flight now, as if its deadline had passed: an interrupted batch
    must not wait for its slowest server."""
    with _ACTIVE_LOCK:
        guards = list(_ACTIVE)
        waiting = list(_WAITING)
    for guard in guards:
        guard._fire()
    for wake in waiting:
        wake.set()


class Abort:
    """Ends the fetches it is given to, from any thread: their sockets are shut down as if
    the deadline had passed, and a fetch that starts after ``fire`` ends at once."""

    def __init__(self) -> None:
        self.fired = False
        self._guards: set[ConnectionGuard] = set()
        self._lock = threading.Lock()

    def fire(self) -> None:
        with self._lock:
            self.fired = True
            guards = list(self._guards)
        for guard in guards:
            guard._fire()

    def _join(self, guard: ConnectionGuard) -> bool:
        with self._lock:
            if self.fired:
                return False
            self._guards.add(guard)
            return True

    def _leave(self, guard: ConnectionGuard) -> None:
        with self._lock:
            self._guards.discard(guard)


class ConnectionGuard:
    """One fetch's connection guard: policy at connect time, and the total deadline.

    At the deadline a timer shuts down every socket this fetch opened, so a server that
    trickles one byte a second cannot hold a read open past it.
    """

    def __init__(
        self, policy: Policy, deadline: float, *, proxied: bool, abort: Abort | None = None
    ) -> None:
        self.policy = policy
        self.deadline = deadline
        self.proxied = proxied
        self.expired = False
        self.peer: str | None = None  # the address connected last, for the -v trace
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self._timer.daemon = True
        self._timer.start()
        with _ACTIVE_LOCK:
            _ACTIVE.add(self)
        self._abort = abort
        if abort is not None and not abort._join(self):
            self._fire()

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.expired = True
            raise Timeout("timed out: the total deadline passed")
        return left

    def _fire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                _shut(sock)

    def track(self, sock: socket.socket) -> None:
        """Shut ``sock`` down at the deadline too: the TLS socket made from one ``connect``
        returned, which took over its descriptor (the plain one no longer reaches it)."""
        with self._lock:
            self._socks.append(sock)
            if self.expired:
                _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()
        with _ACTIVE_LOCK:
            _ACTIVE.discard(self)
        if self._abort is not None:
            self._abort._leave(self)

    def connect(self, host: str, port: int, timeout: float | None, options: Any) -> socket.socket:
        if self.proxied:
            # The proxy is operator configuration; the target was checked before.
            from common.policy import resolve

            addrs = resolve(host, port, deadline=self.deadline)
            trace.trace("policy: proxy %s not checked (the operator's configuration)", host)
        else:
            addrs = resolve_checked(self.policy, host, port, deadline=self.deadline)
        last: Exception | None = None
        for addr in addrs:
            family = socket.AF_INET6 if addr.version == 6 else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            with self._lock:
                if self.expired:
                    sock.close()
                    raise Timeout("timed out: the total deadline passed")
                self._socks.append(sock)
            try:
                for opt in options or ():
                    sock.setsockopt(*opt)
                limit = self.remaining()
                if isinstance(timeout, (int, float)):
                    limit = min(limit, float(timeout))
                sock.settimeout(limit)
                started = time.monotonic()
                sock.connect((str(addr), port))
                sock.settimeout(self.remaining())
                self.peer = f"{addr} port {port}"
                trace.trace(
                    "connected to %s port %d (%s) in %d ms", addr, port, host, trace.ms(started)
                )
                return sock
            except TimeoutError:
                sock.close()
                raise Timeout(f"timed out connecting to {host} port {port}") from None
            except ToolError:
                sock.close()
                raise
            except OSError as exc:
                sock.close()
                last = exc
                trace.trace("could not connect to %s port %d (%s): %s", addr, port, host, exc)
        reason = getattr(last, "strerror", None) or str(last)
        raise ConnectError(f"could not connect to {host} port {port}: {reason}")


def _shut(sock: socket.socket) -> None:
    # socket.socket's shutdown, also for a TLS socket: ssl's own would drop the TLS state
    # under a read another thread is in; this ends that read as the peer's close would.
    try:
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass


_WAITING: set[threading.Event] = set()


def pause(seconds: float) -> bool:
    """Sleep (a retry's back-off) unless abort_fetches ends it first; True when it did.
    An interrupted batch must not wait for a back-off any more than for a server."""
    wake = threading.Event()
    with _ACTIVE_LOCK:
        _WAITING.add(wake)
    try:
        return wake.wait(max(0.0, seconds))
    finally:
        with _ACTIVE_LOCK:
            _WAITING.discard(wake)
