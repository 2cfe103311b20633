"""The work that parses with lxml, done in a helper thread that retires: the names libxml2
keeps stay bounded in a process that reads page after page.

libxml2 interns every element and attribute name it parses (and short texts) in a
dictionary that lxml keeps per thread and frees only when the thread ends, whatever parser
object parsed (lxml 6.2, libxml2 2.14, measured: a new parser per page frees nothing, a
thread that ends frees it all). So a program that extracts page after page in one thread
(`wf --warc`, a batch, a library caller in a cluster's worker) keeps every name it has
ever met: about 14 new ones a page across wceb-2026's 650 pages (data-* attributes, custom
elements), and a page of 200 000 made-up attribute names left 6-8 MB behind for good.

So after its first page a calling thread hands that work to a helper thread of its own,
and the helper retires once it has been handed RETIRE_BYTES of input: the next call
starts a new one, and the old one's dictionary goes with it (once the trees it built are
freed). The helper allocates from a malloc arena of its own, which a host program's other
work does not fragment: in one process that runs trafilatura's extraction in the main
thread between wf's pages (the extraction benchmark's way), wf made 212.2 pages/s in a
helper against 198.2 in the main thread (208.6 against 185.0 on a loaded machine). A
hand-over costs 21-27 us, under one percent of a page's extraction. Work that is already
in a helper (an extraction a feed's entry asks for) runs where it is.

A helper ends with its calling thread (a pool's worker that ends takes its helper along)
and is never shared: callers in several threads parse in parallel as before.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar, cast

from common import trace

T = TypeVar("T")

# Input one helper is handed before it retires: what the dictionary can grow by is bounded
# by what it parsed. A new helper pays a thread's start and its caches' warm-up (lxml's
# parser, the compiled XPath expressions) once per this much, and each retirement leaves
# the malloc arena a little more spread: at 16 MB, `wf --warc` over 1 555 pages peaked at
# 88-90 MB RSS, at 64 MB at 78 MB, as with no retirement at all (79 MB; every page in the
# calling thread: 63 MB). Pages of 100 000 made-up names each then hold 31-52 MB.
RETIRE_BYTES = 64 * 2**20

_local = threading.local()


class _Helper:
    """One helper thread, and how much input it has been handed."""

    def __init__(self) -> None:
        self.jobs: SimpleQueue[Callable[[], None] | None] = SimpleQueue()
        self.done: SimpleQueue[tuple[bool, Any]] = SimpleQueue()
        self.handed = 0
        self.busy = False
        self.thread = threading.Thread(
            target=_serve, args=(self.jobs,), name="wf-parse", daemon=True
        )
        self.thread.start()
        # The calling thread can end without a word (a pool's worker): its locals go, and
        # with them the last reference to this object, which tells the helper to end.
        weakref.finalize(self, self.jobs.put, None)

    def retire(self) -> None:
        """The helper ends once the job it may still be running is over."""
        self.jobs.put(None)


def _serve(jobs: SimpleQueue[Callable[[], None] | None]) -> None:
    _local.inside = True
    while True:
        job = jobs.get()
        if job is None:
            return
        job()


def parsing(work: Callable[[], T], size: int) -> T:
    """``work()``, run in this thread's helper; ``size``: the characters or bytes of input
    it parses. Its exception, if it raises one, is raised here."""
    if getattr(_local, "inside", False):
        return work()
    if not getattr(_local, "began", False):
        # A thread's first page is parsed where it is: a process that reads one (the
        # command line) pays no hand-over and no second malloc arena beside the first
        # (which added 5 MB to the peak of a 10 MB page).
        _local.began = True
        return work()
    helper: _Helper | None = getattr(_local, "helper", None)
    if helper is None or helper.busy or helper.handed >= RETIRE_BYTES:
        if helper is not None:
            helper.retire()
            if not helper.busy:
                # Ended before the next starts: glibc hands a thread that starts the
                # malloc arena of one that has ended; started beside the old one, it may
                # take an arena of its own. A busy one (its caller was interrupted while
                # it waited) finishes that job alone and ends.
                helper.thread.join()
        try:
            helper = _local.helper = _Helper()
        except RuntimeError:  # no thread to be had (a process or cgroup limit): here, then
            _local.helper = None
            return work()
    helper.handed += size
    done = helper.done
    prefix = trace.prefix()

    def job() -> None:
        result: tuple[bool, Any]
        try:
            with trace.prefixed(prefix):  # the caller's label on the lines traced here
                result = (True, work())
        except BaseException as exc:  # noqa: BLE001 - handed back and raised in the caller
            result = (False, exc)
        done.put(result)
        # An exception's traceback holds this frame: without its result, no cycle keeps
        # the exception (and what it holds) waiting for the garbage collector.
        del result

    helper.busy = True
    helper.jobs.put(job)
    ok, value = done.get()
    helper.busy = False
    if ok:
        return cast(T, value)
    try:
        raise value
    finally:
        # The traceback holds this frame: without these, no cycle keeps the helper
        # (and its thread) alive until the garbage collector runs.
        del value, helper


def release() -> None:
    """This thread's helper ends now, and the next call starts another: for a caller
    about to fork (a child gets no thread but the one that forked), or one done with
    pages that wants no thread left behind."""
    helper: _Helper | None = getattr(_local, "helper", None)
    _local.helper = None
    if helper is not None:
        helper.retire()
        helper.thread.join()


def _forget() -> None:
    # A forked child has only the thread that forked: its helper stayed in the parent.
    _local.helper = None


os.register_at_fork(after_in_child=_forget)
