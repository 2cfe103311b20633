"""-v/--verbose: why a page or a search came out as it did, one line at a time on stderr.

Every line starts with the tool's name and ``* `` (``wf: * hop 1: ...``), so that a reader
(or ``grep -v '^wf: \\* '``) tells the trace from the diagnostics, which keep their form.
The trace never touches stdout: a run prints the same result with and without -v.

Call sites are one line, ``trace.trace("charset %s from %s", name, source)``: the format
is applied only when the trace is on, so a call costs a function call and a test of a
module global when it is off. Work that is needed only for the trace (describing the
extractor's choice) goes behind ``if trace.enabled:``; read it as ``trace.enabled``, a
module attribute, never ``from common.trace import enabled`` (that copies the value).

Lines go through common.output.diag: cleaned by common.text (a URL or a header quoted from
a server cannot put an escape sequence on the terminal or split the line) and capped like
every diagnostic. In a batch the pages run in threads; each page's lines carry its number
in the batch (``wf: * [2] hop 1: ...``) so that interleaved lines stay attributable.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

# The one switch. Set once at start-up (enable) before any worker thread exists.
enabled = False
_tool = ""
_local = threading.local()


def enable(tool: str, on: bool = True) -> None:
    """Turn the trace on (or off) for this process, its lines headed by ``tool``."""
    global enabled, _tool
    _tool = tool
    enabled = on


def trace(fmt: str, *args: object) -> None:
    """One trace line: ``fmt % args``, formatted only when the trace is on."""
    if not enabled:
        return
    from common.output import diag

    try:
        line = fmt % args if args else fmt
    except (TypeError, ValueError):  # a call site's mistake must not end the run
        line = f"{fmt} {args!r}"
    diag(_tool, f"* {getattr(_local, 'label', '')}{line}")


@contextmanager
def label(text: str | None) -> Iterator[None]:
    """Lines traced by this thread inside the block start with ``[text] ``."""
    with prefixed(f"[{text}] " if text else ""):
        yield


def prefix() -> str:
    """What this thread's lines start with now (label's), for work handed to another."""
    return str(getattr(_local, "label", ""))


@contextmanager
def prefixed(text: str) -> Iterator[None]:
    """Lines traced by this thread inside the block start with ``text``, another
    thread's prefix()."""
    previous = getattr(_local, "label", "")
    _local.label = text
    try:
        yield
    finally:
        _local.label = previous


def ms(start: float) -> int:
    """Milliseconds since ``start`` (a time.monotonic() reading)."""
    return int((time.monotonic() - start) * 1000)
