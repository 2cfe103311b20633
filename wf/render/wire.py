"""The one DevTools channel to a browser: NUL-delimited JSON over two file descriptors.

Chromium started with ``--remote-debugging-pipe`` reads commands from its fd 3 and writes
answers and events to its fd 4; no socket exists, so no other local user can reach the
browser. A keep-alive browser is reached the same way through its keeper's Unix socket
(wf/render/keeper.py). Everything on one wire shares it: the browser's own session
(messages without ``sessionId``) and every page attached with ``flatten`` (messages that
carry the page's ``sessionId``). One reader thread splits the stream and hands each
message to the session it names; message ids are unique on the wire.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import select
import threading
from collections.abc import Callable
from typing import Any

Message = dict[str, Any]
# A message far larger than a capped DOM (10 M characters, 6 bytes each when escaped) is no
# browser's answer: the wire is closed instead of growing without bound.
MAX_MESSAGE = 128 * 1024 * 1024
CHUNK = 1 << 20


class WireClosed(Exception):
    """The wire is gone: the browser exited, the keeper hung up, or we closed it."""


class Sink:
    """Where one session's messages go: ``deliver`` on the reader thread, ``gone`` once."""

    def __init__(self, deliver: Callable[[Message], None], gone: Callable[[], None]) -> None:
        self.deliver = deliver
        self.gone = gone


class Wire:
    """NUL-delimited JSON messages over ``read_fd`` and ``write_fd`` (which may be one
    socket). The wire owns both descriptors and closes them."""

    def __init__(self, read_fd: int, write_fd: int, *, name: str = "wf-cdp-wire") -> None:
        self._rfd = read_fd
        self._wfd = write_fd
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._write_lock = threading.Lock()
        self._lock = threading.Lock()
        self._sinks: dict[str | None, Sink] = {}
        self._waiting: dict[int, queue.Queue[Message | None]] = {}
        self._router: Callable[[Message], None] | None = None
        self._ids = itertools.count(1)
        self._closing = False
        self._closed = threading.Event()
        self._reader = threading.Thread(target=self._read_loop, name=name, daemon=True)
        self._reader.start()

    # ------------------------------------------------------------ sending

    def next_id(self) -> int:
        return next(self._ids)

    def send(self, message: Message) -> None:
        """Write one message whole (ids and sessions are the caller's). Raises WireClosed."""
        # ensure_ascii: the text holds no NUL byte (a NUL in a string is written \\u0000).
        data = json.dumps(message, separators=(",", ":")).encode("ascii") + b"\0"
        with self._write_lock:
            if self._closing:
                raise WireClosed("the DevTools wire is closed")
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self._wfd, view) :]
            except OSError as exc:
                raise WireClosed(f"the DevTools wire is closed: {exc.strerror or exc}") from None

    def call_raw(self, method: str, params: Message | None = None) -> queue.Queue[Message | None]:
        """Send a browser-level command; its answer (None when the wire closes) arrives in
        the returned queue. For the few callers that have no session: launch, the relay."""
        box: queue.Queue[Message | None] = queue.Queue()
        ident = self.next_id()
        with self._lock:
            if self._closed.is_set():
                box.put(None)
                return box
            self._waiting[ident] = box
        try:
            self.send({"id": ident, "method": method, "params": params or {}})
        except WireClosed:
            with self._lock:
                self._waiting.pop(ident, None)
            box.put(None)
        return box

    # ------------------------------------------------------------ receiving

    def register(self, session_id: str | None, sink: Sink) -> None:
        """Messages of ``session_id`` (None: the browser's own session) go to ``sink``;
        ``sink.gone`` is called at once when the wire is already closed."""
        with self._lock:
            if not self._closed.is_set():
                self._sinks[session_id] = sink
                return
        sink.gone()

    def unregister(self, session_id: str | None) -> None:
        with self._lock:
            self._sinks.pop(session_id, None)

    def route_all(self, router: Callable[[Message], None]) -> None:
        """Every message not answering a ``call_raw`` goes to ``router`` (the keeper's relay)."""
        self._router = router

    # ------------------------------------------------------------ lifetime

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def wait_closed(self, timeout: float) -> bool:
        return self._closed.wait(timeout)

    def close(self) -> None:
        """Stop reading and writing; the other end sees end-of-file. Idempotent."""
        with self._write_lock:
            if self._closing:
                return
            self._closing = True
            if self._wfd != self._rfd:
                with contextlib.suppress(OSError):
                    os.close(self._wfd)
                self._wfd = -1
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"x")  # the reader wakes from poll and closes the rest
        if threading.current_thread() is not self._reader:
            self._reader.join(2.0)

    def _read_loop(self) -> None:
        buf = bytearray()
        scanned = 0  # bytes of buf already known to hold no NUL
        poller = select.poll()
        poller.register(self._rfd, select.POLLIN)
        poller.register(self._wake_r, select.POLLIN)
        try:
            while not self._closing:
                ready = {fd for fd, _ in poller.poll()}
                if self._wake_r in ready or self._closing:
                    break
                chunk = os.read(self._rfd, CHUNK)
                if not chunk:
                    break
                buf += chunk
                start = 0
                while (end := buf.find(b"\0", max(start, scanned))) >= 0:
                    self._dispatch(bytes(buf[start:end]))
                    start = end + 1
                    scanned = start
                del buf[:start]
                scanned = len(buf)
                if len(buf) > MAX_MESSAGE:
                    break
        except OSError:
            pass
        finally:
            self._finish()

    def _dispatch(self, raw: bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        ident = message.get("id")
        if isinstance(ident, int):
            with self._lock:
                box = self._waiting.pop(ident, None)
            if box is not None:
                box.put(message)
                return
        router = self._router
        if router is not None:
            router(message)
            return
        session = message.get("sessionId")
        with self._lock:
            sink = self._sinks.get(session if isinstance(session, str) else None)
        if sink is not None:
            sink.deliver(message)

    def _finish(self) -> None:
        with self._write_lock:
            self._closing = True
            # Each descriptor exactly once: a number closed twice may already name
            # another thread's new file.
            for fd in {self._rfd, self._wfd, self._wake_r, self._wake_w} - {-1}:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._wfd = -1
        with self._lock:
            self._closed.set()
            sinks, self._sinks = list(self._sinks.values()), {}
            waiting, self._waiting = list(self._waiting.values()), {}
        for box in waiting:
            box.put(None)
        for sink in sinks:
            with contextlib.suppress(Exception):
                sink.gone()
