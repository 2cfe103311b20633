"""pychrome's Tab, speaking over a wire (wf/render/wire.py) instead of a websocket.

A module of its own so that pychrome (about 0.1 s to import) loads only when a page is
rendered: wf/render/cdp.py imports it on first use, or early through ``preload`` while the
browser starts."""

from __future__ import annotations

import logging
import queue
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

from wf.render.cdp_errors import CLOSED, CDPClosed, CDPError, CDPTimeout
from wf.render.wire import Message, Sink, Wire, WireClosed

# The longest a handler may keep stop() waiting for the event thread: handlers only
# record or hand work to other threads, so a live one is done in microseconds.
STOP_JOIN = 1.0

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

    def __init__(self, wire: Wire, session: str | None, on_error: Callable[[str], None]) -> None:
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
        """End the session; its event thread has ended when this returns (unless called
        from a handler, or a handler outlasts STOP_JOIN): a library call that closed its
        browser leaves no thread of it behind."""
        if self._stopped.is_set():
            self._join_events()  # the wire ended it, or another thread is stopping it
            return False
        self._wire.unregister(self._session)
        self._gone()
        self._join_events()
        return True

    def _join_events(self) -> None:
        thread = self._handle_event_th
        if thread.ident is not None and thread is not threading.current_thread():
            thread.join(STOP_JOIN)

    def _gone(self) -> None:
        self._stopped.set()
        self.status = self.status_stopped
        # Wake the event thread (it would otherwise sleep out its wait) and every
        # waiting call now.
        self.event_queue.put(None)
        for box in list(self.method_results.values()):
            box.put(CLOSED)

    def _incoming(self, message: Message) -> None:
        if "method" in message:
            self.event_queue.put(message)
        elif "id" in message:
            box = self.method_results.get(message["id"])
            if box is not None:
                box.put(message)

    def _handle_event_loop(self) -> None:
        while not self._stopped.is_set():
            event = self.event_queue.get()  # _gone puts None in to end the wait
            if event is None:
                break
            handler = self.event_handlers.get(event["method"])
            if handler is not None:
                try:
                    handler(**event.get("params", {}))
                except Exception as exc:
                    self._on_error(f"{event['method']} handler failed: {type(exc).__name__}: {exc}")

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
            if answer is CLOSED:
                raise CDPClosed(f"connection closed during {method}")
            if "error" in answer:
                error = answer["error"]
                text = error.get("message", error) if isinstance(error, dict) else error
                raise CDPError(f"{method}: {text}")
            result = answer.get("result", {})
            results.append(result if isinstance(result, dict) else {})
        return results
