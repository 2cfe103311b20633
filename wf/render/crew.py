"""The threads one render session starts, so that its close() can wait for them.

A program that imports wf (wf.api.fetch, a worker in a cluster) must find nothing of a
call still running once the call has returned. Each part stops what it started where
it can (a session's event thread in pychrome_tab.QuietTab.stop, a proxy's threads in
PolicyProxy.close, the browser's waiter in Launched.kill); the threads that outlive
the code that starts them (a context disposed in the background, a dialog answered,
the pools' workers) are enlisted in the session's Crew, which RenderSession.close
joins once the browser is gone, when every one of them ends at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

# What close() waits at most for threads that are already ending (a wait that outlasts
# it means a thread is stuck in C code, where nothing could stop it).
CLOSE_GRACE = 3.0


class Crew:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def start(self, target: Callable[[], None], *, name: str) -> threading.Thread:
        """A daemon thread running ``target``, enlisted before it starts."""
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._add(thread)
        thread.start()
        return thread

    def enlist(self) -> None:
        """Enlist the calling thread: a pool's initializer, so its workers are joined."""
        self._add(threading.current_thread())

    def _add(self, thread: threading.Thread) -> None:
        with self._lock:
            # Ended ones are dropped here, so a long batch does not grow the list.
            self._threads = [t for t in self._threads if t.ident is None or t.is_alive()]
            self._threads.append(thread)

    def join(self, deadline: float) -> list[threading.Thread]:
        """Wait until every enlisted thread (also one enlisted meanwhile) has ended, or
        the deadline passes; returns the ones still running."""
        me = threading.current_thread()
        while True:
            with self._lock:
                live = [
                    t for t in self._threads if t is not me and (t.ident is None or t.is_alive())
                ]
                self._threads = live
            started = [t for t in live if t.ident is not None]
            if not started or time.monotonic() >= deadline:
                return started
            for thread in started:
                thread.join(max(0.0, deadline - time.monotonic()))
