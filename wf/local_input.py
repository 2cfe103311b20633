"""--input's document read as a fetched body is: at most --max-bytes of it and within
--timeout. A file is whatever the path names: /dev/zero never ends and read() of it grew
until the memory ran out; a FIFO or a pipe whose writer never writes nor closes held the
run for ever, past any deadline (a cron job's wf never exited)."""

from __future__ import annotations

import os
import select
import sys
import time
from typing import BinaryIO

from common.errors import Timeout, TooLarge, UsageError

CHUNK = 1 << 20
# `wf -`'s list of URLs: about 200 000 of them. It has no deadline (the program writing it
# may search for half a minute first), and unbounded, `wf - < /dev/zero` read until the
# memory ran out.
URL_LIST_MAX = 16 << 20


def url_list() -> str:
    """The URLs `wf -` reads from standard input, as text (a byte no encoding allows
    becomes U+FFFD: its line is then an invalid URL, reported as such); a usage error
    (exit 2) past URL_LIST_MAX bytes."""
    if sys.stdin is None:  # fd 0 closed (a supervisor's job): no URLs
        return ""
    data = sys.stdin.buffer.read(URL_LIST_MAX + 1)
    if len(data) > URL_LIST_MAX:
        raise UsageError(
            f"more than {URL_LIST_MAX >> 20} MiB of URLs on standard input; split the list"
        )
    return data.decode(sys.stdin.encoding or "utf-8", "replace")


def read_input(path: str, *, limit: int, timeout: float) -> bytes:
    """The bytes of ``path`` (``-``: standard input): TooLarge (exit 63) past ``limit``
    bytes, Timeout (exit 28) when they have not all come within ``timeout`` seconds, a
    usage error (exit 2) when the path cannot be read."""
    deadline = time.monotonic() + timeout
    try:
        if path == "-":
            # A closed fd 0 (a supervisor's job) leaves sys.stdin None: read as empty.
            if sys.stdin is None:
                return b""
            return _from_stream(sys.stdin.buffer, path, limit, deadline)
        # Not blocking: opening a FIFO waits for its writer, for ever without one.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            return _from_fd(fd, path, limit, deadline)
        finally:
            os.close(fd)
    except OSError as exc:
        raise UsageError(f"cannot read --input {path}: {exc.strerror or exc}") from None


def _from_stream(stream: BinaryIO, path: str, limit: int, deadline: float) -> bytes:
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # no descriptor (a library caller's or a test's stream)
        data = stream.read(limit + 1)
        return _within(data, path, limit)
    # Left blocking: its open file description may be a terminal's or a pipe's shared
    # with the shell, which one made non-blocking and never restored (a SIGKILL) would
    # break. poll() says when a read will not wait.
    return _from_fd(fd, path, limit, deadline)


def _from_fd(fd: int, path: str, limit: int, deadline: float) -> bytes:
    """Chunks until the end, each waited for no later than ``deadline``."""
    chunks: list[bytes] = []
    size = 0
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(left * 1000):
            late = Timeout(f"timed out reading --input {path} ({size} bytes read)")
            late.step = "raise --timeout, or check what writes to it"  # no server to retry
            raise late
        try:
            chunk = os.read(fd, min(CHUNK, limit + 1 - size))
        except BlockingIOError:  # woken with nothing to read after all
            continue
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise _too_large(path, limit)


def _within(data: bytes, path: str, limit: int) -> bytes:
    if len(data) > limit:
        raise _too_large(path, limit)
    return data


def _too_large(path: str, limit: int) -> TooLarge:
    return TooLarge(
        f"--input {path} is larger than the cap of {limit} bytes (raise it with --max-bytes)"
    )
