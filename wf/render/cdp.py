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
from collections.abc import Callable
from typing import Any, Protocol

from wf.render.cdp_errors import CDPClosed, CDPError, CDPTimeout
from wf.render.wire import Wire, WireClosed

__all__ = ["CDPClosed", "CDPError", "CDPTimeout", "Connection", "preload"]


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
    from wf.render.pychrome_tab import QuietTab

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
