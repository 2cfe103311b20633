"""The line pipeline: full view -> --filter -> --exclude -> --from/--to window -> --max-length.

It knows nothing of HTML or HTTP: it takes the text and the options and returns lines.
Regexes run in a forked child with a time limit, because Python's re cannot be
interrupted and a pattern such as ``(a+)+$`` backtracks for ever on a long line.
"""

from __future__ import annotations

import os
import re
import select
import signal
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from common.errors import Timeout, UsageError

REGEX_SECONDS = 5.0


@dataclass
class Selection:
    lines: list[str]
    total: int
    matched: int
    first: int | None  # 1-based line numbers in the filtered view, None when empty
    last: int | None


def split_lines(text: str) -> list[str]:
    """Lines as a reader counts them; a final newline does not make an extra empty line."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def compile_regex(pattern: str, option: str) -> re.Pattern[str]:
    """Validate before any network traffic; an invalid regex is a usage error (2)."""
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"invalid regex for {option} {pattern!r}: {exc}") from None


def _matching(
    lines: Sequence[str], keep: re.Pattern[str] | None, drop: re.Pattern[str] | None
) -> list[int]:
    return [
        i
        for i, line in enumerate(lines)
        if (keep is None or keep.search(line)) and not (drop is not None and drop.search(line))
    ]


def match_lines(
    lines: Sequence[str],
    keep: re.Pattern[str] | None,
    drop: re.Pattern[str] | None,
    *,
    seconds: float = REGEX_SECONDS,
    deadline: float | None = None,
) -> list[int]:
    """Indices of the lines kept by --filter and not dropped by --exclude, within a time limit
    and within the run's total deadline (a time.monotonic() value) when there is one."""
    if keep is None and drop is None:
        return list(range(len(lines)))
    if not hasattr(os, "fork"):
        return _matching(lines, keep, drop)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: match, send the indices, leave without cleanup handlers
        code = 0
        try:
            os.close(read_fd)
            data = array("I", _matching(lines, keep, drop)).tobytes()
            view = memoryview(data)
            while view:
                view = view[os.write(write_fd, view) :]
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    chunks: list[bytes] = []
    end = time.monotonic() + seconds
    # The regex limit never outlasts --timeout: the deadline is the tool's whole contract.
    at_deadline = False
    if deadline is not None and deadline < end:
        end, at_deadline = deadline, True
    finished = False
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([read_fd], [], [], left)
            if not ready:
                break
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        if not finished:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(pid, 0)
    if not finished:
        which = " and ".join(
            f"{name} {p.pattern!r}" for name, p in (("--filter", keep), ("--exclude", drop)) if p
        )
        if at_deadline:
            raise Timeout(
                f"timed out: regex {which} was still running at the total deadline "
                "(catastrophic backtracking?)"
            )
        raise UsageError(
            f"regex {which} ran longer than {seconds:g} s on this page "
            "(catastrophic backtracking?); simplify it"
        )
    if os.waitstatus_to_exitcode(status) != 0:
        return _matching(lines, keep, drop)
    out = array("I")
    out.frombytes(b"".join(chunks))
    return out.tolist()


def select_lines(
    lines: Sequence[str],
    *,
    keep: re.Pattern[str] | None = None,
    drop: re.Pattern[str] | None = None,
    from_line: int | None = None,
    to_line: int | None = None,
    deadline: float | None = None,
) -> Selection:
    """Filter, exclude, then cut the 1-based inclusive window out of the filtered view."""
    kept = [lines[i] for i in match_lines(lines, keep, drop, deadline=deadline)]
    start = (from_line or 1) - 1
    stop = len(kept) if to_line is None else min(to_line, len(kept))
    window = kept[start:stop] if start < stop else []
    return Selection(
        lines=window,
        total=len(lines),
        matched=len(kept),
        first=start + 1 if window else None,
        last=start + len(window) if window else None,
    )


def truncate(text: str, limit: int) -> tuple[str, int]:
    """Cut at a line end at or before ``limit`` characters (at the limit itself when the
    first line is longer). Returns the kept text and how many characters were cut."""
    if limit <= 0 or len(text) <= limit:
        return text, 0
    cut = text.rfind("\n", 0, limit + 1)
    if cut <= 0:
        cut = limit
    kept = text[:cut]
    return kept, len(text) - len(kept)
