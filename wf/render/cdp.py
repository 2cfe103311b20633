"""The small wrapper over pychrome 0.2.4 that makes it safe to use from wf.

pychrome's Tab speaks over a websocket; ours speaks over a wire (wf/render/wire.py): the
browser's DevTools pipe, or a keeper's Unix socket, never a TCP port. A page is a
flattened session on the same wire (``Connection.attach``). What else it mends, each
measured against Chromium 156:
- every command has a timeout, and errors come back as exceptions, never as
  ``warnings`` printed to stderr;
- the end of the wire ends every session quietly and wakes every waiting call, and the
  DEBUG environment variable never makes it print protocol messages to stdout;
- message ids come from the wire's thread-safe counter, so several threads may send at once;
- a failing event handler is reported to ``on_error`` instead of the logging module.

Event handlers still run one at a time on one thread per session: a handler that has
slow work to do (the network policy does DNS) must hand it to another thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from wf.render.wire import Message, Sink, Wire, WireClosed

_CLOSED: dict[str, Any] = {"error": {"message": "connection closed"}}  # wakes waiting calls


class CDPError(Exception):
    """The browser answered a command with an error."""


class CDPTimeout(CDPError):
    """No answer within the command's timeout."""


class CDPClosed(CDPError):
    """The connection is gone (browser exited, target closed, or we closed it)."""


class _Tab(Protocol):
    """What Connection uses of the QuietTab below (pychrome itself has no annotations)."""

    _stopped: threading.Event

    def start(self) -> bool: ...
    def stop(self) -> bool: ...
    def call_method(self, _method: str, *args: Any, **kwargs: Any) -> dict[str, Any]: ...
    def call_batch(
        self, calls: list[tuple[str, dict[str, Any]]], timeout: float
    ) -> list[dict[str, Any]]: ...
    def set_listener(self, event: str, callback: Callable[..., None] | None) -> object: ...


_TabFactory = Callable[[Wire, "str | None", Callable[[str], None]], _Tab]
_TAB_CLASS: _TabFactory | None = None
_TAB_LOCK = threading.Lock()


def preload() -> None:
    """Import pychrome now (about 0.1 s), e.g. while the browser is starting."""
    _tab_class()


def _tab_class() -> _TabFactory:
    """pychrome's Tab with the fixes above; built on first use so pychrome loads lazily."""
    with _TAB_LOCK:
        if _TAB_CLASS is None:
            _build_tab_class()
        assert _TAB_CLASS is not None  # _build_tab_class set it
        return _TAB_CLASS


def _build_tab_class() -> None:
    global _TAB_CLASS
    import logging
    import queue
    import warnings

    with warnings.catch_warnings():
        # pychrome imports requests, which warns on stderr about some dependency versions.
        warnings.simplefilter("ignore")
        import pychrome

    # pychrome logs handler errors; never let them reach stderr.
    logging.getLogger("pychrome").addHandler(logging.NullHandler())
    logging.getLogger("pychrome").propagate = False

    # pychrome has no annotations, so its Tab is Any to the checker, and strict mode
    # refuses a subclass of Any; the _Tab protocol above is what the rest of wf sees.
    class QuietTab(pychrome.Tab):  # type: ignore[misc]
        """One session on a wire: the browser's (``session`` None) or a page's. Its
        messages arrive from the wire's reader thread (``_incoming``); pychrome's own
        receive thread is never started."""

        def __init__(
            self, wire: Wire, session: str | None, on_error: Callable[[str], None]
        ) -> None:
            super().__init__(id=session or "browser", type="cdp")
            self.debug = False
            self._wire = wire
            self._session = session
            self._on_error = on_error
            self._handle_event_th.name = "wf-cdp-events"

        def start(self) -> bool:
            self._started = True
            self.status = self.status_started
            self._stopped.clear()
            self._wire.register(self._session, Sink(self._incoming, self._gone))
            if self._stopped.is_set():
                raise CDPClosed("the browser's DevTools wire is closed")
            self._handle_event_th.start()
            return True

        def stop(self) -> bool:
            if self._stopped.is_set():
                return False
            self._wire.unregister(self._session)
            self._gone()
            return True

        def _gone(self) -> None:
            self._stopped.set()
            self.status = self.status_stopped
            # Wake every waiting call now.
            for box in list(self.method_results.values()):
                box.put(_CLOSED)

        def _incoming(self, message: Message) -> None:
            if "method" in message:
                self.event_queue.put(message)
            elif "id" in message:
                box = self.method_results.get(message["id"])
                if box is not None:
                    box.put(message)

        def _handle_event_loop(self) -> None:
            while not self._stopped.is_set():
                try:
                    event = self.event_queue.get(timeout=0.5)
                except queue.Empty:
                    continue
                handler = self.event_handlers.get(event["method"])
                if handler is not None:
                    try:
                        handler(**event.get("params", {}))
                    except Exception as exc:
                        self._on_error(
                            f"{event['method']} handler failed: {type(exc).__name__}: {exc}"
                        )

        def _message(self, ident: int, method: str, params: dict[str, Any]) -> Message:
            message: Message = {"id": ident, "method": method, "params": params}
            if self._session is not None:
                message["sessionId"] = self._session
            return message

        def call_method(self, _method: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
            timeout = kwargs.pop("_timeout")
            return self.call_batch([(_method, kwargs)], timeout)[0]

        def call_batch(
            self, calls: list[tuple[str, dict[str, Any]]], timeout: float
        ) -> list[dict[str, Any]]:
            """Send every command at once, then wait for every answer: the browser runs
            them in order, and we pay one round trip instead of one per command."""
            first = calls[0][0] if len(calls) == 1 else "a batch"
            if self._stopped.is_set():
                raise CDPClosed(f"connection closed before {first}")
            ids = [self._wire.next_id() for _ in calls]
            boxes: dict[int, queue.Queue[dict[str, Any]]] = {i: queue.Queue() for i in ids}
            self.method_results.update(boxes)
            limit = time.monotonic() + timeout
            try:
                for i, (method, params) in enumerate(calls):
                    self._wire.send(self._message(ids[i], method, params))
                answers = []
                for i, (method, _params) in enumerate(calls):
                    while True:
                        left = limit - time.monotonic()
                        if left <= 0:
                            raise CDPTimeout(f"no answer to {method} within {timeout:.1f} s")
                        if self._stopped.is_set() and boxes[ids[i]].empty():
                            raise CDPClosed(f"connection closed during {method}")
                        try:
                            answers.append(boxes[ids[i]].get(timeout=min(left, 0.5)))
                            break
                        except queue.Empty:
                            continue
            except WireClosed:
                raise CDPClosed(f"connection closed during {first}") from None
            finally:
                for i in ids:
                    self.method_results.pop(i, None)
            results = []
            for (method, _params), answer in zip(calls, answers, strict=True):
                if answer is _CLOSED:
                    raise CDPClosed(f"connection closed during {method}")
                if "error" in answer:
                    error = answer["error"]
                    text = error.get("message", error) if isinstance(error, dict) else error
                    raise CDPError(f"{method}: {text}")
                result = answer.get("result", {})
                results.append(result if isinstance(result, dict) else {})
            return results

    _TAB_CLASS = QuietTab


class Connection:
    """One DevTools session on a wire: the browser's own, or a page's (``attach``)."""

    def __init__(
        self,
        wire: Wire,
        *,
        session: str | None = None,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.wire = wire
        self.session = session
        self.errors: list[str] = []
        self._on_error = on_error or self.errors.append
        self._tab = _tab_class()(wire, session, self._on_error)
        self._tab.start()

    def attach(self, target_id: str, *, timeout: float) -> Connection:
        """A session of its own for one target (a page), on the same wire."""
        session = self.call(
            "Target.attachToTarget", timeout=timeout, targetId=target_id, flatten=True
        ).get("sessionId")
        if not isinstance(session, str):
            raise CDPError("Target.attachToTarget: no session in the answer")
        return Connection(self.wire, session=session, on_error=self._on_error)

    def call(self, method: str, *, timeout: float, **params: Any) -> dict[str, Any]:
        """Send one command and wait at most ``timeout`` seconds for its answer."""
        if timeout <= 0:
            raise CDPTimeout(f"no time left for {method}")
        return self._tab.call_method(method, _timeout=timeout, **params)

    def call_batch(
        self, calls: list[tuple[str, dict[str, Any]]], *, timeout: float
    ) -> list[dict[str, Any]]:
        """Several commands in one round trip; their answers in the same order."""
        if timeout <= 0:
            raise CDPTimeout("no time left for a batch")
        return self._tab.call_batch(calls, timeout)

    def on(self, event: str, handler: Callable[..., None] | None) -> None:
        """Call ``handler(**params)`` for each ``event`` (None removes it)."""
        self._tab.set_listener(event, handler)

    @property
    def closed(self) -> bool:
        return self._tab._stopped.is_set()

    def wait_closed(self, timeout: float) -> bool:
        return self._tab._stopped.wait(timeout)

    def close(self) -> None:
        """Stop this session's messages; a page's session is also detached (not waited
        for). The wire stays open for the others."""
        if not self._tab.stop() or self.session is None:
            return
        try:
            self.wire.send(
                {
                    "id": self.wire.next_id(),
                    "method": "Target.detachFromTarget",
                    "params": {"sessionId": self.session},
                }
            )
        except WireClosed:
            pass

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
