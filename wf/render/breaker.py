"""The launch circuit breaker: a browser that keeps failing to start is not retried
for a while."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from common.errors import RenderError
from wf.render.state import read_private, write_private


class CircuitBreaker:
    """Two launch failures in a row stop launch attempts for five minutes.

    The state lives in a file, so a cron job that runs wf every minute does not try
    (and fail) to start a broken browser every minute.
    """

    THRESHOLD = 2
    COOL_DOWN = 300.0

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, float]:
        try:
            data = json.loads(read_private(self.path))
            return {"failures": float(data["failures"]), "last": float(data["last"])}
        except (OSError, ValueError, KeyError, TypeError):
            return {"failures": 0.0, "last": 0.0}

    def check(self) -> None:
        state = self._read()
        if state["failures"] < self.THRESHOLD:
            return
        wait = self.COOL_DOWN - (time.time() - state["last"])
        if wait > 0:
            raise RenderError(
                f"browser launch failed {int(state['failures'])} times in a row; not trying again "
                f"for {wait:.0f} s (circuit breaker; delete {self.path} to retry now)"
            )

    def failed(self) -> None:
        """Count a failure. Raises DirUnusable when the state dir cannot be made ours (the
        breaker is then off; the caller says so)."""
        # After a cool-down one attempt is let through; if it fails too the count is
        # still past the threshold, so the breaker opens again at once.
        state = self._read()
        self._write({"failures": state["failures"] + 1, "last": time.time()})

    def succeeded(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()

    def _write(self, state: dict[str, float]) -> None:
        from common.paths import ensure_dir

        # Made here, at the first failure to keep, not by every render.
        ensure_dir(self.path.parent, "WF_STATE_DIR", what="state dir")
        # Only a convenience: a state file that cannot be written leaves the breaker off.
        with contextlib.suppress(OSError):
            write_private(self.path, json.dumps(state))
