"""--wait-for and --wait: what a render waits for besides the page going quiet.

``--wait-for CSS`` replaces the quiet wait: the page is read as soon as an element
matching the selector exists and has text. ``--wait MS`` waits that long more once the
page is loaded (after the quiet wait, or after --wait-for). Both count against the
render's deadline: when the deadline ends a wait, the page is read as it is then, and
the wait's note says so (the caller prints it with the page).

The waits take the page's connection (anything with wf.render.cdp.Connection's
``call``) and a clock, so that the decisions are tested without a browser.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

from wf.steering import Waits  # the options' type; tab.py and session.py take it from here

__all__ = ["Waits", "probe_expression", "wait_fixed", "wait_for"]

POLL = 0.05  # seconds between two looks for the selector
PROBE_TIMEOUT = 2.0  # at most this for one look: a busy page is asked again


def _script() -> str:
    return resources.files("wf.render").joinpath("js", "wait_for.js").read_text(encoding="utf-8")


def probe_expression(selector: str) -> str:
    """The expression that asks the page about ``selector`` (JSON-quoted: a selector is
    data, never code)."""
    return f"({_script()})({json.dumps(selector)})"


def _probe(page: Any, expression: str, timeout: float) -> str | None:
    from wf.render.cdp import CDPClosed, CDPError

    try:
        answer = page.call(
            "Runtime.evaluate", timeout=timeout, expression=expression, returnByValue=True
        )
    except CDPClosed:
        raise
    except CDPError:
        return None  # busy (timed out) or navigating (its context is gone): ask again
    value = answer.get("result", {}).get("value") if isinstance(answer, dict) else None
    return value if isinstance(value, str) else None


def wait_for(
    page: Any,
    selector: str,
    *,
    until: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> str | None:
    """Poll until an element matching ``selector`` has text: None then; else, at
    ``until`` or when the browser cannot match the selector, the note to print."""
    expression = probe_expression(selector)
    shown = json.dumps(selector[:80])
    started = clock()
    last: str | None = None
    while True:
        now = clock()
        if now >= until:
            seen = {"empty": "it was there without text", "absent": "it was not there"}
            why = seen.get(last or "", "the page had not loaded")
            return (
                f"--wait-for {shown}: the deadline ended the wait after "
                f"{now - started:.1f} s ({why}); printed what the page held then"
            )
        state = _probe(page, expression, max(0.05, min(PROBE_TIMEOUT, until - now)))
        if state == "ready":
            return None
        if state == "invalid":
            return (
                f"--wait-for {shown}: the browser cannot match this selector; "
                "printed the page without waiting for it"
            )
        last = state or last
        sleep(max(0.0, min(POLL, until - clock())))


def wait_fixed(
    ms: int,
    *,
    until: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> str | None:
    """Wait ``ms`` more (within ``until``): None when the whole wait fitted, else the note."""
    start = clock()
    end = start + ms / 1000.0
    if end <= until:
        sleep(max(0.0, end - start))
        return None
    sleep(max(0.0, until - start))
    waited = max(0.0, until - start) * 1000
    return (
        f"--wait {ms}: the deadline ended the wait after {waited:.0f} ms; "
        "printed what the page held then"
    )
