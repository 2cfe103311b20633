"""The small wrapper over pychrome 0.2.4 that makes it safe to use from wf.

What it mends, each measured against Chromium 156:
- the websocket opens with a timeout and without per-frame UTF-8 validation in pure
  Python (a 10 MB DOM took seconds to validate);
- every command has a timeout, and errors come back as exceptions, never as
  ``warnings`` printed to stderr;
- a close frame or a dropped socket ends the receive loop quietly (pychrome prints a
  JSONDecodeError traceback), and the DEBUG environment variable never makes it print
  protocol messages to stdout;
- message ids come from a thread-safe counter, so several threads may send at once;
- a failing event handler is reported to ``on_error`` instead of the logging module.

Event handlers still run one at a time on one thread: a handler that has slow work to
do (the network policy does DNS) must hand it to another thread.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

CONNECT_TIMEOUT = 5.0
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


_TabFactory = Callable[[str, float, Callable[[str], None]], _Tab]
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
        import websocket

    # pychrome logs handler and socket errors; never let them reach stderr.
    logging.getLogger("pychrome").addHandler(logging.NullHandler())
    logging.getLogger("pychrome").propagate = False

    # pychrome has no annotations, so its Tab is Any to the checker, and strict mode
    # refuses a subclass of Any; the _Tab protocol above is what the rest of wf sees.
    class QuietTab(pychrome.Tab):  # type: ignore[misc]
        def __init__(
            self, ws_url: str, connect_timeout: float, on_error: Callable[[str], None]
        ) -> None:
            super().__init__(id=ws_url.rsplit("/", 1)[-1], type="cdp", webSocketDebuggerUrl=ws_url)
            self.debug = False
            self._connect_timeout = connect_timeout
            self._on_error = on_error
            self._ids = itertools.count(1)
            self._recv_th.name = "wf-cdp-recv"
            self._handle_event_th.name = "wf-cdp-events"

        def start(self) -> bool:
            try:
                self._ws = websocket.create_connection(
                    self._websocket_url,
                    timeout=self._connect_timeout,
                    enable_multithread=True,
                    suppress_origin=True,
                    skip_utf8_validation=True,
                )
            except (OSError, websocket.WebSocketException) as exc:
                raise CDPClosed(f"cannot connect to {self._websocket_url}: {exc}") from None
            self._started = True
            self.status = self.status_started
            self._stopped.clear()
            self._recv_th.start()
            self._handle_event_th.start()
            return True

        def stop(self) -> bool:
            if self._stopped.is_set():
                return False
            self._stopped.set()
            self.status = self.status_stopped
            ws = self._ws
            if ws is not None:
                # No close handshake: websocket-client would wait up to 3 s for the
                # answer while our receive thread reads the same socket.
                # abort() shuts the socket down, which also wakes the receive thread.
                # (websocket-client ships py.typed but leaves these two unannotated.)
                for end in (ws.abort, ws.shutdown):
                    try:
                        end()  # type: ignore[no-untyped-call]
                    except Exception:
                        pass
            return True

        def _recv_loop(self) -> None:
            ws = self._ws
            ws.settimeout(0.5)
            while not self._stopped.is_set():
                try:
                    raw = ws.recv()
                except websocket.WebSocketTimeoutException:
                    continue
                except Exception:
                    break
                if not raw:  # a close frame
                    break
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue
                if "method" in message:
                    self.event_queue.put(message)
                elif "id" in message:
                    box = self.method_results.get(message["id"])
                    if box is not None:
                        box.put(message)
            self._stopped.set()
            self.status = self.status_stopped
            # Wake every waiting call now (pychrome would notice within a second).
            for box in list(self.method_results.values()):
                box.put(_CLOSED)

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

        def call_method(self, _method: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
            timeout = kwargs.pop("_timeout")
            if self._stopped.is_set():
                raise CDPClosed(f"connection closed before {_method}")
            message = {"id": next(self._ids), "method": _method, "params": kwargs}
            try:
                result: dict[str, Any] = self._send(message, timeout=timeout)
            except pychrome.TimeoutException:
                raise CDPTimeout(f"no answer to {_method} within {timeout:.1f} s") from None
            except (pychrome.PyChromeException, websocket.WebSocketException, OSError):
                raise CDPClosed(f"connection closed during {_method}") from None
            if result is _CLOSED:
                raise CDPClosed(f"connection closed during {_method}")
            if "error" in result:
                raise CDPError(f"{_method}: {result['error'].get('message', result['error'])}")
            answer: dict[str, Any] = result.get("result", {})
            return answer

        def call_batch(
            self, calls: list[tuple[str, dict[str, Any]]], timeout: float
        ) -> list[dict[str, Any]]:
            """Send every command at once, then wait for every answer: the browser runs
            them in order, and we pay one round trip instead of one per command."""
            if self._stopped.is_set():
                raise CDPClosed("connection closed before a batch")
            ids = [next(self._ids) for _ in calls]
            boxes: dict[int, queue.Queue[dict[str, Any]]] = {i: queue.Queue() for i in ids}
            self.method_results.update(boxes)
            limit = time.monotonic() + timeout
            try:
                for i, (method, params) in enumerate(calls):
                    self._ws.send(json.dumps({"id": ids[i], "method": method, "params": params}))
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
            except (websocket.WebSocketException, OSError):
                raise CDPClosed("connection closed during a batch") from None
            finally:
                for i in ids:
                    self.method_results.pop(i, None)
            results = []
            for (method, _params), answer in zip(calls, answers, strict=True):
                if answer is _CLOSED:
                    raise CDPClosed(f"connection closed during {method}")
                if "error" in answer:
                    raise CDPError(f"{method}: {answer['error'].get('message', answer['error'])}")
                results.append(answer.get("result", {}))
            return results

    _TAB_CLASS = QuietTab


class Connection:
    """One websocket to one DevTools target (the browser, or one page)."""

    def __init__(
        self,
        ws_url: str,
        *,
        timeout: float = CONNECT_TIMEOUT,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.ws_url = ws_url
        self.errors: list[str] = []
        self._tab = _tab_class()(ws_url, max(0.05, timeout), on_error or self.errors.append)
        self._tab.start()

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
        self._tab.stop()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
