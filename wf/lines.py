"""The line pipeline: full view -> --filter -> --exclude -> --from/--to window -> --max-length.

It knows nothing of HTML or HTTP: it takes the text and the options and returns lines.
Regexes run on RE2, which matches in time linear in the line (a pattern such as
``(a+)+$`` costs what ``a+$`` costs). The few patterns RE2 cannot run (backreferences,
lookaround) run on Python's re in a forked child with a time limit, because re cannot be
interrupted and backtracks for ever on such a pattern.
"""

from __future__ import annotations

import os
import re
import select
import signal
import time
import warnings
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from common.errors import Timeout, UsageError

REGEX_SECONDS = 5.0
TOOL = "wf"


@dataclass(frozen=True)
class Regex:
    """A compiled --filter or --exclude: RE2 when it can run the pattern, else Python's re
    (``fallback`` then says why, for the note)."""

    pattern: str
    search: Callable[[str], Any]
    fallback: str | None = None

    @property
    def linear(self) -> bool:
        return self.fallback is None


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


def compile_regex(pattern: str, option: str) -> Regex:
    """Validate before any network traffic; an invalid regex is a usage error (2). A valid
    pattern RE2 cannot run falls back to Python's re, with one note on stderr."""
    try:
        with warnings.catch_warnings():
            # re warns on stderr about "[[" and the like; every stderr line must be wf's own.
            warnings.simplefilter("ignore")
            checked = re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"invalid regex for {option} {pattern!r}: {exc}") from None
    translated, why = _for_re2(pattern)
    if translated is not None:
        import re2  # only here: most runs have no regex

        options = re2.Options()
        options.log_errors = False  # RE2 would log the refusal on stderr itself
        try:
            return Regex(pattern, re2.compile(translated, options).search)
        except re2.error as exc:
            why = _re2_reason(exc)
    from common.output import diag

    fallback = f"{option} {pattern!r} runs on Python's re ({why}), limited to {REGEX_SECONDS:g} s"
    diag(TOOL, f"note: {fallback}")
    return Regex(pattern, checked.search, fallback)


def _re2_reason(exc: Exception) -> str:
    detail = exc.args[0] if exc.args else exc
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    return f"RE2 cannot run it: {detail}"


# Python's \w, \d and \s are Unicode classes; RE2's are ASCII. Outside a [...] set each
# becomes a set, inside one its members (a negated class cannot go inside a set).
_OUTSIDE = {
    "w": r"[\p{L}\p{N}_]",
    "W": r"[^\p{L}\p{N}_]",
    "d": r"\p{Nd}",
    "D": r"\P{Nd}",
    "s": r"[\t-\r\x1c-\x1f\x85\p{Z}]",
    "S": r"[^\t-\r\x1c-\x1f\x85\p{Z}]",
    "Z": r"\z",
}
_INSIDE = {"w": r"\p{L}\p{N}_", "d": r"\p{Nd}", "s": r"\t-\r\x1c-\x1f\x85\p{Z}"}
_HEX = {"x": 2, "u": 4, "U": 8}
_NO_MIN = re.compile(r"\{,\d+\}")


def _for_re2(pattern: str) -> tuple[str | None, str]:
    """The pattern in RE2 syntax with Python's meaning, or None and why there is none."""
    out: list[str] = []
    in_set = False
    set_start = -1
    i, n = 0, len(pattern)
    boundary = False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            i += 2
            if e in _HEX:
                digits = pattern[i : i + _HEX[e]]
                out.append(f"\\x{{{digits}}}")
                i += _HEX[e]
            elif in_set and e in _INSIDE:
                out.append(_INSIDE[e])
            elif in_set and e in "WDS":
                return None, f"\\{e} inside a set has no RE2 form with Python's Unicode meaning"
            elif not in_set and e in _OUTSIDE:
                out.append(_OUTSIDE[e])
            else:
                boundary = boundary or (e in "bB" and not in_set)
                out.append("\\" + e)
            continue
        if in_set:
            if c == "]":
                # Right after "[" or "[^" a "]" is a member, not the end of the set.
                in_set = i == set_start
                c = "\\]" if in_set else c
            elif c == "[":
                c = "\\["  # a member for Python; RE2 would read "[:" as a class name
        elif c == "[":
            in_set = True
            out.append(c)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            set_start = i
            continue
        elif c == "{" and _NO_MIN.match(pattern, i):
            c = "{0"  # Python reads {,n} as {0,n}; RE2 as the characters themselves
        out.append(c)
        i += 1
    # RE2's \b and \B know only ASCII letters: next to \w or a non-ASCII letter they would
    # find no boundary where Python finds one.
    if boundary and (not pattern.isascii() or "\\w" in pattern or "\\W" in pattern):
        return None, "its \\b or \\B meets non-ASCII letters, and RE2's word boundary is ASCII"
    return "".join(out), ""


Pinned = Callable[[str], bool] | None


def _matching(
    lines: Sequence[str], keep: Regex | None, drop: Regex | None, pinned: Pinned = None
) -> list[int]:
    if pinned is not None:
        # Structure lines (a PDF's page separators) are never a match of --filter and
        # never dropped by --exclude: they stay exactly when no --filter is given.
        return [
            i
            for i, line in enumerate(lines)
            if (keep is None and pinned(line))
            or (
                not pinned(line)
                and (keep is None or keep.search(line))
                and not (drop is not None and drop.search(line))
            )
        ]
    return [
        i
        for i, line in enumerate(lines)
        if (keep is None or keep.search(line)) and not (drop is not None and drop.search(line))
    ]


def match_lines(
    lines: Sequence[str],
    keep: Regex | None,
    drop: Regex | None,
    *,
    seconds: float = REGEX_SECONDS,
    deadline: float | None = None,
    pinned: Pinned = None,
) -> list[int]:
    """Indices of the lines kept by --filter and not dropped by --exclude, within a time limit
    and within the run's total deadline (a time.monotonic() value) when there is one."""
    if keep is None and drop is None:
        return list(range(len(lines)))
    # RE2 runs in linear time: no child, no time limit needed.
    if all(p is None or p.linear for p in (keep, drop)) or not hasattr(os, "fork"):
        return _matching(lines, keep, drop, pinned)
    return _match_in_child(lines, keep, drop, pinned, seconds, deadline)


def _match_in_child(
    lines: Sequence[str],
    keep: Regex | None,
    drop: Regex | None,
    pinned: Pinned,
    seconds: float,
    deadline: float | None,
) -> list[int]:
    """Python's re cannot be interrupted: the match runs in a forked child, killed when the
    time is up. A child that failed otherwise leaves the match to this process."""
    read_fd, write_fd = os.pipe()
    pid = _fork_matcher(lines, keep, drop, pinned, read_fd, write_fd)
    os.close(write_fd)
    end, at_deadline = _match_end(seconds, deadline)
    data, status = _collect(pid, read_fd, end)
    if data is None:
        raise _overrun(keep, drop, seconds, at_deadline)
    if os.waitstatus_to_exitcode(status) != 0:
        return _matching(lines, keep, drop, pinned)
    out = array("I")
    out.frombytes(data)
    return out.tolist()


def _fork_matcher(
    lines: Sequence[str],
    keep: Regex | None,
    drop: Regex | None,
    pinned: Pinned,
    read_fd: int,
    write_fd: int,
) -> int:
    """The child that matches and writes the kept indices to ``write_fd``; its pid."""
    from common.pdeath import die_with  # before the fork: the child imports nothing

    # A Ctrl-C between the fork and the child's try would send the child up the parent's
    # stack as a second wf: signals wait until the child has its default handlers back
    # (SIGINT and SIGTERM then simply end it) and the parent is past the fork.
    stop = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, stop)
    # The pragmas: tests/mutation/README.md says why these lines have no mutants.
    parent = os.getpid()  # pragma: no mutate
    pid = os.fork()  # pragma: no mutate
    if pid == 0:  # pragma: no mutate
        # The child: match, send the indices, leave without cleanup handlers; killed with
        # its parent (a worker the supervisor kills past its grace leaves no match running).
        for sig in stop:
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        code = 0
        try:
            die_with(parent)  # pragma: no mutate
            os.close(read_fd)
            data = array("I", _matching(lines, keep, drop, pinned)).tobytes()
            view = memoryview(data)
            while view:
                view = view[os.write(write_fd, view) :]
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    return pid


def _match_end(seconds: float, deadline: float | None) -> tuple[float, bool]:
    """When the match must be over (a time.monotonic() value), and whether that is the
    run's total deadline: the regex limit never outlasts --timeout, the tool's contract."""
    end = time.monotonic() + seconds
    if deadline is not None and deadline < end:
        return deadline, True
    return end, False


def _collect(pid: int, read_fd: int, end: float) -> tuple[bytes | None, int]:
    """What the child wrote, read to end of file, or None when ``end`` came first (the
    child is then killed); and the child's wait status. ``read_fd`` is closed."""
    chunks: list[bytes] = []
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
    return (b"".join(chunks) if finished else None), status


def _overrun(
    keep: Regex | None, drop: Regex | None, seconds: float, at_deadline: bool
) -> Timeout | UsageError:
    """The error of a match still running when its time was up: the total deadline's
    timeout, or the regex limit's usage error."""
    which = " and ".join(
        f"{name} {p.pattern!r}" for name, p in (("--filter", keep), ("--exclude", drop)) if p
    )
    if at_deadline:
        return Timeout(
            f"timed out: regex {which} was still running at the total deadline "
            "(catastrophic backtracking?)"
        )
    return UsageError(
        f"regex {which} ran longer than {seconds:g} s on this page "
        "(catastrophic backtracking?); simplify it"
    )


def select_lines(
    lines: Sequence[str],
    *,
    keep: Regex | None = None,
    drop: Regex | None = None,
    from_line: int | None = None,
    to_line: int | None = None,
    deadline: float | None = None,
    pinned: Pinned = None,
) -> Selection:
    """Filter, exclude, then cut the 1-based inclusive window out of the filtered view.
    Lines ``pinned`` says yes to are kept when there is no --filter, dropped when there is
    one, whatever the patterns say."""
    kept = [lines[i] for i in match_lines(lines, keep, drop, deadline=deadline, pinned=pinned)]
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


@dataclass
class Page:
    """What one window prints under --max-length: whole lines, and at most one cut line,
    the last. ``first`` and ``last`` number exactly the lines in ``lines`` (1-based in
    the filtered view); ``partial`` says the last of them is cut, ``cut_from`` how long
    that line is whole."""

    lines: list[str]
    first: int | None
    last: int | None
    partial: bool = False
    cut_from: int = 0  # characters in the whole line when ``partial``
    shown: int = 0  # characters printed
    total: int = 0  # characters the window held before the limit


def page_lines(window: Sequence[str], first: int | None, limit: int) -> Page:
    """The paging contract: whole lines while they fit in ``limit`` characters (lines
    joined by newlines; 0 = no limit). A line that could never fit (longer than
    ``limit`` by itself) is cut to what is left and ends the page as a partial line; a
    line that merely does not fit now ends the page before it, so the next page, from
    ``last + 1``, starts with it whole. Paging by ``last + 1`` thus reaches every line."""
    total = sum(map(len, window)) + max(0, len(window) - 1)
    if first is None or not window:
        return Page([], None, None, total=total)
    if limit <= 0 or total <= limit:
        return Page(list(window), first, first + len(window) - 1, shown=total, total=total)
    out: list[str] = []
    used = 0
    for line in window:
        sep = 1 if out else 0
        if used + sep + len(line) <= limit:
            out.append(line)
            used += sep + len(line)
            continue
        room = limit - used - sep
        if len(line) > limit and room > 0:
            kept = cut_at(line, room)
            if kept:
                out.append(kept)
                used += sep + len(kept)
                return Page(out, first, first + len(out) - 1, True, len(line), used, total)
        break
    # Never empty here: the first line either fits or, longer than the (positive) limit,
    # is cut to a non-empty prefix and returned above.
    return Page(out, first, first + len(out) - 1, shown=used, total=total)


def cut_at(line: str, limit: int) -> str:
    """The first ``limit`` characters of ``line`` (code points, never bytes), moved back so
    that a combining mark or a zero-width joiner is not parted from the character before
    it; a line of nothing but such marks is cut at the limit itself."""
    import unicodedata

    cut = min(max(limit, 0), len(line))
    while 0 < cut < len(line) and (
        unicodedata.combining(line[cut]) or "\u200d" in line[cut - 1 : cut + 1]
    ):
        cut -= 1
    return line[: cut or limit]
