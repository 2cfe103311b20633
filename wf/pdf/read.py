"""PDFium, in child processes: the pages' text, the information dictionary and the outline
of one document.

PDFium is C++ that will meet malformed and hostile files. Each document is read in forked
children (readers), so that whatever PDFium does stays there:

- a crash (SIGSEGV, an abort on a failed allocation) ends a reader, not wf: the pages it
  read are kept, and a note names the pages it left;
- memory: each reader's address space is capped (RLIMIT_AS, MEMORY_BYTES above what it
  has at the fork), which PDFium's allocations count against;
- time: the parent waits on the readers' pipes only until the run's deadline, then kills
  them (SIGKILL) and raises Timeout; the watchdog's supervisor stands behind that, and
  SIGTERM reaches the parent, which is in select(), not in C code;
- a reader dies with the thread that forked it (PR_SET_PDEATHSIG), so a killed wf leaves
  no reader behind.

A small file (under SHARE_BYTES) goes to the thread's kept reader, a child that stays
between documents: a fork from a big process and a cold PDFium (its first pass through
fonts and caches) cost 3 to 10 ms, more than reading a one-page file takes a warm reader
(1 to 2 ms), so a batch pays them once per thread. wf sends it the document through a
pipe; it answers as a one-shot reader does, then ``idle``. Its limits are the same: its
address space is capped at its start; at the deadline or on a signal it is killed, and a
crash costs the pages of that document only: the next document gets a fresh reader. It
is replaced after KEPT_DOCUMENTS documents or KEPT_GROWTH more resident memory, ended
when its thread ends (PR_SET_PDEATHSIG, and the thread-local's finaliser reaps it), and
reaped at exit.

A big file is read by one-shot readers, shared out between up to MAX_READERS of them,
one per idle core: PDFium is single-threaded, opening a file takes each reader
milliseconds, and each reads its own run of the pages selected (the k-th of n runs, in
order). On an idle machine that divides the wall time by the cores.

A reader sends frames as it goes (wf.pdf.pdfium: what a reader does inside PDFium, the
frames, and how they fold into a ``Reading``). Everything a reader needs is imported before
the fork (once per process), so a batch of PDFs pays the imports once and a reader imports
nothing.

Without fork (another platform) one reader runs in-process.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from common.errors import DocumentUnreadable, Timeout
from wf.pdf.pagespec import PageSpec
from wf.pdf.pdfium import Reading, apply, encode, frames, read_part

MAX_READERS = 4  # children sharing one big document's pages
SHARE_BYTES = 256 << 10  # a file at least this big is shared between readers
MEMORY_BYTES = 1 << 30  # address space the reader may add to what it had at the fork
KEPT_DOCUMENTS = 500  # documents a kept reader reads before it is replaced
KEPT_GROWTH = 128 << 20  # resident bytes a kept reader may gain before it is replaced


def readers(body: bytes) -> int:
    """How many children read one document: a big file is shared out by pages between the
    idle cores (PDFium is single-threaded; each child opens the file, which takes
    milliseconds, and reads its own run of pages). A small one is not worth a second fork.
    A busy core gains nothing: measured on the 117-page thesis at a load of 8 on 2 cores,
    two readers took 15 % more CPU than one and no less wall time, since each parses the
    document's fonts and warms PDFium's caches on its own."""
    if len(body) < SHARE_BYTES:
        return 1
    cores = len(os.sched_getaffinity(0))
    try:
        # A core counts as busy only when a whole one is: the 1-minute average lags,
        # and the remains of a finished job (0.7 of a core) would halve a quiet
        # machine's speed.
        idle = cores - int(os.getloadavg()[0])
    except OSError:  # no load average to read: as if idle
        idle = cores
    return max(1, min(MAX_READERS, cores, idle))


def read(
    body: bytes,
    pages: PageSpec | None,
    *,
    max_pages: int,
    deadline: float,
) -> Reading:
    """Read ``body`` with PDFium: the pages ``pages`` selects (None: all), at most
    ``max_pages`` of them. Raises DocumentUnreadable (71) for an encrypted or unopenable file,
    Timeout (28) at the deadline."""
    # Imported here, before the fork, once per process: a child imports nothing.
    import ctypes  # noqa: F401
    import fcntl  # noqa: F401
    import logging  # noqa: F401
    import resource  # noqa: F401

    import pypdfium2  # noqa: F401

    if not hasattr(os, "fork"):
        reading = Reading()

        def fold(frame: tuple[Any, ...]) -> None:
            apply(reading, frame)

        read_part(body, pages, max_pages, (0, 1), fold)
        return reading
    if len(body) < SHARE_BYTES:
        return _read_kept(body, pages, max_pages, deadline)
    n = readers(body)
    children: list[tuple[int, int]] = []  # (pid, read end)
    parts = [Reading() for _ in range(n)]
    done = [False] * n
    statuses: list[int] = []
    try:
        for k in range(n):
            children.append(_spawn(body, pages, max_pages, (k, n)))
        _collect(children, parts, done, deadline)
    finally:
        # Every child is ended and reaped here, whatever happened: a timeout, a signal.
        for k, (pid, fd) in enumerate(children):
            with contextlib.suppress(OSError):
                os.close(fd)
            if not done[k]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            try:
                statuses.append(os.waitpid(pid, 0)[1])
            except ChildProcessError:
                statuses.append(0)
    for part, finished, status in zip(parts, done, statuses, strict=True):
        if not finished:
            part.stopped = _why(status)
            seen = {number for number, _ in part.pages} | set(part.failed)
            part.unread = [number for number in part.share if number not in seen]
    return _merge(parts)


class _Kept:
    """A reader that stays between documents, for the small ones: a fork, and PDFium's
    first pass through its fonts and caches, cost more than reading a one-page file, so a
    batch pays them once per thread, not once per document. It is fed documents one after
    another through a pipe and answers with the same frames as a one-shot reader, then
    ``idle``; the limits are the same (its address space capped at its start, killed at
    the deadline or on a signal, a crash costs only its pages and it is replaced)."""

    def __init__(self) -> None:
        self.pid, self.requests, self.replies = _spawn_kept()
        self.buffer = bytearray()
        self.frames: deque[tuple[Any, ...] | None] = deque()
        self.busy = False  # a document was sent and its ``idle`` is still to come
        self.status: int | None = None
        self.owner = os.getpid()
        _KEPT.add(self)

    def send(self, request: tuple[Any, ...], deadline: float) -> None:
        view = memoryview(encode(request))
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("timed out: reading the PDF was still running at the total deadline")
            _, ready, _ = select.select([], [self.requests], [], left)
            if ready:
                try:
                    view = view[os.write(self.requests, view) :]
                except BlockingIOError:
                    continue
                except BrokenPipeError:  # it is gone: its pipe's end says so next
                    return

    def next_frame(self, deadline: float) -> tuple[Any, ...] | None:
        """The reader's next frame; None once it has exited (or sent what no reader of
        ours sends). Raises Timeout at the deadline."""
        while not self.frames:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("timed out: reading the PDF was still running at the total deadline")
            ready, _, _ = select.select([self.replies], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.replies, 1 << 20)
            if not chunk:
                return None
            self.frames.extend(frames(self.buffer, chunk))
        return self.frames.popleft()

    def end(self) -> int:
        """Kill and reap the reader (once); its wait status."""
        if os.getpid() != self.owner:
            # A fork (another reader) is tearing down the thread states it inherited: the
            # reader is not its child, and the one it is a copy of is another's to end.
            return 0
        if self.status is None:
            for fd in (self.requests, self.replies):
                with contextlib.suppress(OSError):
                    os.close(fd)
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            try:
                self.status = os.waitpid(self.pid, 0)[1]
            except ChildProcessError:
                self.status = 0
        return self.status

    def __del__(self) -> None:  # the thread that owned it has ended
        with contextlib.suppress(Exception):
            self.end()


_local = threading.local()  # .reader: this thread's kept reader, when it has one
_KEPT: weakref.WeakSet[_Kept] = weakref.WeakSet()


@atexit.register
def close_readers() -> None:
    """End and reap every kept reader. At exit: PR_SET_PDEATHSIG ends them too, but only
    once wf has gone; reaped here, a finished wf leaves no process behind, not even for a
    moment. A benchmark calls it to have the readers' CPU time counted (RUSAGE_CHILDREN
    counts reaped children only)."""
    for kept in list(_KEPT):
        kept.end()


def _read_kept(body: bytes, pages: PageSpec | None, max_pages: int, deadline: float) -> Reading:
    """One document through this thread's kept reader (a fresh one if it has none, or if
    the last one ended)."""
    kept: _Kept | None = getattr(_local, "reader", None)
    _local.reader = None  # this call holds it until it is known to be reusable
    if kept is not None and kept.status is not None:  # close_readers ended it
        kept = None
    reading = Reading()
    error: str | None = None
    try:
        if kept is not None and kept.busy and kept.next_frame(deadline) != ("idle",):
            kept.end()  # it retired (exited) after its last document, or broke
            kept = None
        if kept is None:
            kept = _Kept()
        kept.busy = True
        kept.send((body, pages, max_pages), deadline)
        while True:
            frame = kept.next_frame(deadline)
            if frame is None:  # it ended in the middle: a crash, or its memory cap
                reading.stopped = _why(kept.end())
                seen = {number for number, _ in reading.pages} | set(reading.failed)
                reading.unread = [number for number in reading.share if number not in seen]
                kept = None
                break
            if frame[0] == "error":
                error = frame[1]
                break
            if apply(reading, frame):
                break
    except BaseException:
        # The deadline, a signal: the reader is somewhere in PDFium; it goes.
        if kept is not None:
            kept.end()
        raise
    _local.reader = kept
    if error is not None:
        raise DocumentUnreadable(error)
    return reading


def _fork(child: Callable[[], None]) -> int:
    """Fork a reader that runs ``child`` and exits (status 1 if it raised); its pid.

    As in wf.lines: SIGINT and SIGTERM are blocked across the fork, since a signal between
    the fork and the child's own handlers would send the child up the parent's stack as a
    second wf; the child takes the default handlers, then the parent's mask."""
    from common.pdeath import die_with  # before the fork: the child imports nothing

    stop = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, stop)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            for sig in stop:
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
            die_with(parent)  # a killed wf (or thread that forked it) leaves no reader
            child()
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    return pid


def _spawn_kept() -> tuple[int, int, int]:
    """Fork a kept reader: its pid, the end that takes its requests, the end its frames
    come from."""
    import fcntl

    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()

    def child() -> None:
        # Nothing PDFium might print reaches wf's output; and it keeps no descriptor of
        # wf's (wf's stdout, another reader's pipe, whose end it would hold open).
        # Its pipe's ends are moved above 2 first: a caller may have 0, 1 or 2 closed,
        # and then a pipe can have one of those numbers.
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD, 3) for fd in (request_read, reply_write)]
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        low = 3
        for fd in sorted(ends):
            os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, 1 << 16)
        _child_limits()
        _serve(*ends)

    pid = _fork(child)
    os.close(request_read)
    os.close(reply_write)
    os.set_blocking(request_write, False)
    return pid, request_write, reply_read


def _serve(requests: int, replies: int) -> None:
    """A kept reader's loop: a document in, its frames out, then ``idle``; it exits when
    wf closes the pipe, or after KEPT_DOCUMENTS documents or KEPT_GROWTH more resident
    memory (what PDFium keeps, or a fragmented heap, is not carried on for ever)."""

    def send(frame: tuple[Any, ...]) -> None:
        view = memoryview(encode(frame))
        while view:
            view = view[os.write(replies, view) :]

    buffer = bytearray()
    start = _resident()
    for count in range(1, KEPT_DOCUMENTS + 1):
        request = None
        while request is None:
            chunk = os.read(requests, 1 << 20)
            if not chunk:
                return
            for frame in frames(buffer, chunk):
                request = frame
                break
        body, pages, max_pages = request
        del request
        read_part(body, pages, max_pages, (0, 1), send)
        del body
        if count == KEPT_DOCUMENTS or _resident() - start > KEPT_GROWTH:
            return  # without ``idle``: wf then knows to fork another
        send(("idle",))


def _resident() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _spawn(
    body: bytes,
    pages: PageSpec | None,
    max_pages: int,
    part: tuple[int, int],
) -> tuple[int, int]:
    read_fd, write_fd = os.pipe()

    def child() -> None:
        os.close(read_fd)
        # Nothing PDFium might print reaches wf's stderr, which carries wf's lines only.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        _child_limits()

        def send(frame: tuple[Any, ...]) -> None:
            view = memoryview(encode(frame))
            while view:
                view = view[os.write(write_fd, view) :]

        read_part(body, pages, max_pages, part, send)

    pid = _fork(child)
    os.close(write_fd)
    return pid, read_fd


def _collect(
    children: list[tuple[int, int]], parts: list[Reading], done: list[bool], deadline: float
) -> None:
    """Every child's frames into its Reading until each pipe closes, or the deadline."""
    buffers = {fd: bytearray() for _, fd in children}
    which = {fd: k for k, (_, fd) in enumerate(children)}
    open_fds = set(buffers)
    while open_fds:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Timeout("timed out: reading the PDF was still running at the total deadline")
        ready, _, _ = select.select(list(open_fds), [], [], left)
        for fd in ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                open_fds.discard(fd)
                continue
            k = which[fd]
            for frame in frames(buffers[fd], chunk):
                if frame is None:  # a frame no child of ours writes
                    open_fds.discard(fd)
                    break
                done[k] = apply(parts[k], frame) or done[k]


def _merge(parts: list[Reading]) -> Reading:
    """One document's reading from its readers' (each had a run of pages, in order)."""
    # Every reader opened the same file; only reader 0 sends the dictionary and outline.
    out = Reading(
        count=max(part.count for part in parts),
        info=parts[0].info,
        outline=parts[0].outline,
        skipped=max(part.skipped for part in parts),
    )
    for part in parts:
        out.pages.extend(part.pages)
        out.failed.extend(part.failed)
        out.cut.extend(part.cut)
        out.unread.extend(part.unread)
        out.share.extend(part.share)
        out.stopped = out.stopped or part.stopped
        if part.capped is not None and out.capped is None:
            out.capped = part.capped
    return out


def _child_limits() -> None:
    import resource

    try:
        with open("/proc/self/statm") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = max(size + MEMORY_BYTES, 1 << 20)
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft == resource.RLIM_INFINITY or want < soft:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (OSError, ValueError):
        pass


def _why(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return f"PDFium crashed ({name}: a hostile file, or out of memory)"
    return "the PDF reader stopped early (out of memory?)"
