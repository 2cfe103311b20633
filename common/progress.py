"""The progress line of a batch: ``wf: 12/40 done, 1 failed``, redrawn in place on stderr
as pages finish (in any order) and erased at the end.

Drawn only when common.output says someone is watching (stderr a terminal, NO_COLOR unset,
not --quiet): a pipe, a log file, cron and an agent's harness get nothing, so their stderr
stays one line per diagnostic.
"""

from __future__ import annotations

import threading
import time

from common import output

# Redraws closer together than this are skipped (the last one never is): a batch of
# thousands of quick pages must not spend its time on the terminal.
_MIN_INTERVAL = 0.05


class Progress:
    """Counts finished pages from any thread; draws nothing when ``shown`` is False."""

    def __init__(self, tool: str, total: int, *, shown: bool) -> None:
        self.tool = tool
        self.total = total
        self.shown = shown
        self.done = 0
        self.failed = 0
        self._lock = threading.Lock()
        self._drawn_at = 0.0
        if shown:
            output.status(self.line())

    def line(self) -> str:
        failed = f", {self.failed} failed" if self.failed else ""
        return f"{self.tool}: {self.done}/{self.total} done{failed}"

    def finished(self, failed: bool) -> None:
        """One page finished (``failed``: with an error)."""
        with self._lock:
            self.done += 1
            self.failed += failed
            now = time.monotonic()
            if not self.shown:
                return
            if self.done < self.total and now - self._drawn_at < _MIN_INTERVAL:
                return
            self._drawn_at = now
            output.status(self.line())

    def close(self) -> None:
        """Erase the line (a finished batch leaves no trace of it on the screen)."""
        if self.shown:
            output.status(None)
            self.shown = False


def start(tool: str, total: int) -> Progress:
    """A progress line for ``total`` pages: shown for two or more, on a watched stderr."""
    return Progress(tool, total, shown=total > 1 and output.interactive())
