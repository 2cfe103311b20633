"""The deadline as the CPU work after the bytes asks it. ``late(deadline)`` is the
question a pass asks between its steps; OutOfTime is what a pass raises once the answer
is yes. One exception for every pass (the tag counts, the text policy, the extraction's
walks, a feed's summaries, the JavaScript-shell check, an empty page's searches), so that
a pass that calls another lets that one's OutOfTime through instead of translating it."""

from __future__ import annotations

import time
from collections.abc import Callable


class OutOfTime(Exception):
    """The caller's deadline passed while a page was being read."""


def late(deadline: float | None) -> Callable[[], bool] | None:
    """Whether ``deadline`` (time.monotonic()) has passed, as the passes ask it; None for
    no deadline (never asked)."""
    if deadline is None:
        return None
    return lambda: time.monotonic() > deadline
