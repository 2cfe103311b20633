"""The hard backstop: the total deadline and SIGTERM hold even while C code runs.

Python runs signal handlers and timers only between bytecodes. libxml2 building a tree,
the ``re`` engine backtracking or a PDF library looping holds the main thread (often the
interpreter lock too) for as long as it likes, so a soft deadline checked in Python, or a
SIGTERM handler, may never get to run. The backstop therefore lives outside the working
interpreter: at start-up the process forks once. The parent keeps the pid the caller knows
and becomes a supervisor that only waits; the child (the worker) runs the command.

- The worker tells the supervisor each deadline it works under (``arm``/``disarm``) by
  writing it in memory the two share (common/watchslots.py: no message, no signal; a
  slot's first use, or a deadline when every slot is taken, goes as a line on a pipe and
  a SIGUSR1). Past the earliest armed deadline plus ``GRACE`` the supervisor kills the
  worker with SIGKILL, prints the tool's one error line (and, with --json, the error
  document) and exits 28, as the worker would have.
- SIGTERM, SIGINT and SIGHUP sent to the supervisor are passed on to the worker (a
  terminal's Ctrl-C reaches both already); if the worker has not ended ``SIGNAL_GRACE``
  later it is killed and the supervisor exits 143 or 130 with the usual line.
- The worker's exit status becomes the supervisor's; a worker killed by a signal takes the
  supervisor down with the same signal.
- With --json the worker builds each deadline's error document itself while it arms it,
  with the same function the tool uses, and sends it along (and, once its command line is
  loaded, the document for no deadline). The supervisor's late path only writes: no
  import of the tool's modules after a deadline has passed, when a loaded machine made
  those imports cost most (the CLI and pipeline modules took up to 0.7 s under load). A
  signal's document is the same one with its ``error`` replaced.
- The worker's main thread sets PR_SET_PDEATHSIG right after the fork: a supervisor
  killed with SIGKILL (by a harness) takes the worker, and the browser bound to it, down at
  once. (It costs _ctypes, 0.5 ms; faulthandler's C timer, tried first, was re-armed from
  every page's thread and stalled batches now and then.)

Why a supervisor process and not a timer in the worker: a watchdog thread needs the
interpreter lock, which ``re`` and parts of lxml do not release; SIGALRM runs its Python
handler only between bytecodes; and a killer child could end the worker only with
SIGKILL, leaving the caller exit 137 and no error line. The supervisor is a fork of the
process before any work (about 1 ms, copy-on-write) that sleeps in sigtimedwait.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from common.watchslots import POLL, Slot, Slots

# Past its deadline a worker gets this long to end by itself before it is killed (in the
# hostile suite the soft deadlines of the fetch, the extractor and the regex fallback end at
# most 0.31 s past theirs, counted from spawn, start-up included). The contract is "ended by
# the deadline plus at most 1 s", measured from spawn: the rest is for start-up and for
# writing the error line.
GRACE = 0.35
# After a signal the worker cleans up (a browser killed, its profile removed, a partial
# file deleted) before it ends: 0.35 s was too little on a loaded machine (2 cores, load
# 8: the profile was left behind in 2 runs of 4). The contract is "ended within 1 s of the
# signal"; the supervisor's own report takes a few ms once the worker is gone.
SIGNAL_GRACE = 0.7
# Longest description sent with a deadline; keeps each message within PIPE_BUF (atomic).
_WHAT_MAX = 1500

_WATCHED = (signal.SIGCHLD, signal.SIGUSR1, signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_FORWARDED = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
# si_code values of a signal sent by a process (kill, tgkill, sigqueue), as opposed to one
# the kernel raised (a terminal's Ctrl-C already reached the whole process group).
_SENT_BY_PROCESS = {0, -1, -6}

JsonError = Callable[[Any, str | None], dict[str, Any]]
# The tool's one error line for an exception (common.run.error_line), passed in: the
# runner imports this module, and this one writes the line the runner would.
ErrorLine = Callable[[str, Any], None]


class _Worker:
    """The worker's end: where to send deadlines (and, with --json, their documents)."""

    def __init__(
        self, supervisor: int, fd: int, json_error: JsonError | None, slots: Slots
    ) -> None:
        self.supervisor = supervisor
        self.fd = fd
        self.json_error = json_error
        self.tokens = itertools.count(1)
        self.armed: dict[int, float] = {}
        # A document can outgrow PIPE_BUF; the batch's threads must not interleave lines.
        self.lock = threading.Lock()
        self.slots = slots


_worker: _Worker | None = None


# Command lines that do no work worth guarding: no fork for them.
_TRIVIAL: tuple[list[str], ...] = ([], ["--help"], ["-h"], ["--version"])


def needed(argv: list[str]) -> bool:
    """Does this command line do work worth a supervisor? Not help or the version."""
    return argv not in _TRIVIAL


def supervise(
    tool: str, argv: list[str], json_error: JsonError | None, error_line: ErrorLine
) -> None:
    """``install`` for a command line that needs it (--json after ``--`` is an argument)."""
    if needed(argv):
        options = argv[: argv.index("--")] if "--" in argv else argv
        install(tool, wants_json="--json" in options, json_error=json_error, error_line=error_line)


def install(
    tool: str, *, wants_json: bool, json_error: JsonError | None, error_line: ErrorLine
) -> None:
    """Fork: the parent supervises and never returns; the child returns and does the work.
    Without fork (another platform) or when the environment says so, nothing happens."""
    global _worker
    if not hasattr(os, "fork") or not hasattr(signal, "sigtimedwait"):
        return
    if os.environ.get("WF_WS_NO_BACKSTOP") == "1":
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    # The worker's collector would otherwise write to the header of every object the two
    # processes share, copying nearly every page of the heap.
    import gc

    # What the supervisor's report needs, loaded before any deadline can pass (the worker
    # loads these too, to run the command line; error_line's module is loaded already).
    import common.errors
    import common.output
    import common.text  # noqa: F401

    gc.freeze()
    slots = Slots()
    read_fd, write_fd = os.pipe()
    # Blocked before the fork, so nothing that reaches the supervisor early is lost.
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _WATCHED)
    # Taken before the fork: a worker that asked after it would get its reaper's pid from a
    # supervisor already gone, and die_with would take that for its parent.
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        os.close(read_fd)
        os.close(write_fd)
        return
    if pid == 0:
        os.close(read_fd)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        _worker = _Worker(parent, write_fd, json_error if wants_json else None, slots)
        from common.pdeath import die_with

        die_with(_worker.supervisor)
        return
    os.close(write_fd)
    try:
        supervisor = _Supervisor(tool, pid, read_fd, wants_json, json_error, error_line, slots)
        code = supervisor.run()
    except BaseException:  # never leave a worker behind, whatever went wrong here
        _kill(pid)
        code = 1
    os._exit(code)


def supervised() -> bool:
    """Is this process a supervised worker (one that ends when its command does)?"""
    return _worker is not None


def arm(deadline: float, what: str = "") -> int:
    """Tell the supervisor that work must end by ``deadline`` (time.monotonic()); returns
    a token for ``disarm``. A no-op (token 0) without a supervisor."""
    w = _worker
    if w is None:
        return 0
    clean = what.replace("\n", " ").replace("\r", " ")[:_WHAT_MAX]
    document = _document(w, _timeout(clean), clean) if w.json_error is not None else ""
    index, first = w.slots.take(deadline, clean, document)
    if index is not None:
        if first:  # from now on the supervisor reads this slot
            _send(w, f"S {index}\n")
        return -1 - index
    token = next(w.tokens)
    w.armed[token] = deadline
    _send(w, f"A {token} {deadline!r} {clean}\n" + (f"J {token} {document}\n" if document else ""))
    return token


def prepare() -> None:
    """With --json, hand the supervisor the error document for no deadline (a signal
    before or between deadlines), once the tool's modules are loaded."""
    w = _worker
    if w is None:
        return
    from common.errors import Terminated

    document = _document(w, Terminated("terminated"), None)
    if document:
        _send(w, f"J 0 {document}\n")


def _document(w: _Worker, exc: Any, what: str | None) -> str:
    """The error document for ``exc`` as one line of JSON ("" without --json). Built in
    the worker, before any deadline passes, so that the supervisor only writes it."""
    if w.json_error is None:
        return ""
    try:
        document = w.json_error(exc, what)
    except Exception:
        return ""  # the supervisor builds it itself, late
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _timeout(what: str) -> Any:
    from common.errors import Timeout

    about = f" on {what}" if what else ""
    return Timeout(f"timed out: the work{about} ran past the total deadline and was stopped")


def disarm(token: int) -> None:
    w = _worker
    if w is None or not token:
        return
    if token < 0:  # a slot: cleared, and nothing to tell (the supervisor reads it)
        w.slots.give_back(-1 - token)
        return
    w.armed.pop(token, None)
    _send(w, f"D {token}\n")


@contextmanager
def deadline(when: float, what: str = "") -> Any:
    token = arm(when, what)
    try:
        yield
    finally:
        disarm(token)


def _send(w: _Worker, message: str) -> None:
    data = message.encode("utf-8", "replace")
    try:
        with w.lock:
            while data:
                data = data[os.write(w.fd, data) :]
        os.kill(w.supervisor, signal.SIGUSR1)
    except OSError:
        pass  # the supervisor is gone; the orphan backstop ends us


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        return
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


class _Supervisor:
    def __init__(
        self,
        tool: str,
        pid: int,
        fd: int,
        wants_json: bool,
        json_error: JsonError | None,
        error_line: ErrorLine,
        slots: Slots,
    ) -> None:
        self.tool = tool
        self.error_line = error_line
        self.pid = pid
        self.fd = fd
        self.wants_json = wants_json
        self.json_error = json_error
        self.armed: dict[int, tuple[float, str]] = {}
        # token -> the worker's error document for it, as JSON (0: for no deadline).
        self.documents: dict[int, str] = {}
        self.pending = b""
        self.kill_at: float | None = None  # a forwarded signal's grace period
        self.kill_signal = 0
        self.slots = slots
        os.set_blocking(fd, False)

    def run(self) -> int:
        while True:
            status = self._reap()
            if status is not None:
                return self._exit_code(status)
            due = self._due()
            timeout = None if due is None else max(0.0, due - time.monotonic())
            info = (
                signal.sigtimedwait(_WATCHED, timeout)
                if timeout is not None
                else signal.sigwaitinfo(_WATCHED)
            )
            if info is None:
                code = self._expire()
                if code is not None:
                    return code
                continue
            if info.si_signo == signal.SIGUSR1:
                self._read()
            elif info.si_signo in _FORWARDED:
                self._forward(info)

    def _reap(self) -> int | None:
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return 1 << 8
        return status if pid else None

    def _due(self) -> float | None:
        times = [when + GRACE for when, _ in self.armed.values()]
        if self.kill_at is not None:
            times.append(self.kill_at)
        if self.slots.watched:
            # A slot may be set at any time without a word: look again within POLL.
            times.append(time.monotonic() + POLL)
            times.extend(slot.deadline + GRACE for slot in self.slots.armed())
        return min(times) if times else None

    def _works(self) -> list[tuple[float, str, str | None, Slot | None]]:
        """Each deadline armed now, earliest first: (deadline, what, its document, its
        slot; None for one sent on the pipe)."""
        out: list[tuple[float, str, str | None, Slot | None]] = [
            (when, what, self.documents.get(token), None)
            for token, (when, what) in self.armed.items()
        ]
        out.extend((s.deadline, s.what, s.document or None, s) for s in self.slots.armed())
        return sorted(out, key=lambda work: work[0])

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        for line in lines:
            kind, _, rest = line.decode("utf-8", "replace").partition(" ")
            if kind == "A":
                token, when, what = (rest.split(" ", 2) + [""])[:3]
                self.armed[int(token)] = (float(when), what)
            elif kind == "D":
                self.armed.pop(int(rest), None)
                self.documents.pop(int(rest), None)
            elif kind == "J":
                token, _, document = rest.partition(" ")
                self.documents[int(token)] = document
            elif kind == "S":
                self.slots.watch(rest)

    def _forward(self, info: Any) -> None:
        if info.si_code in _SENT_BY_PROCESS:
            try:
                os.kill(self.pid, info.si_signo)
            except OSError:
                pass
        if self.kill_at is None:
            self.kill_at = time.monotonic() + SIGNAL_GRACE
            self.kill_signal = info.si_signo

    def _expire(self) -> int | None:
        """Kill the worker if a deadline (or a signal's grace) is really past."""
        self._read()  # a disarm may have come in with the last wake-up
        now = time.monotonic()
        works = self._works()
        if self.kill_at is not None and now >= self.kill_at:
            from common.errors import Terminated

            exc: Any = _signal_error(self.kill_signal) or Terminated(
                f"terminated by signal {self.kill_signal}"
            )
            whats = {work[1] for work in works}
            what = whats.pop() if len(whats) == 1 else None
            documents = [work[2] for work in works if work[1] == what]
            document = self._with_error(documents[0] if documents else self.documents.get(0), exc)
        else:
            late = [work for work in works if work[0] + GRACE <= now]
            if not late or (late[0][3] is not None and not self.slots.unchanged(late[0][3])):
                return None  # the first late one is a slot the page has just moved on from
            _, what, document, _ = late[0]
            exc = _timeout(what)
        _kill(self.pid)
        self._report(exc, what, document)
        return int(exc.code)

    @staticmethod
    def _with_error(document: str | None, exc: Any) -> str | None:
        """The worker's document with this error in it: every document keeps the error
        as ``exc.as_json()`` under "error"."""
        if document is None:
            return None
        try:
            parsed = json.loads(document)
            parsed["error"] = exc.as_json()
        except (ValueError, TypeError):
            return None
        return json.dumps(parsed, ensure_ascii=False, separators=(",", ":"))

    def _exit_code(self, status: int) -> int:
        """The worker's status as ours. A worker that a SIGTERM or SIGINT we passed on
        killed before it could say so itself (it came before the handlers were set up)
        still ends in the tool's line and code."""
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == self.kill_signal:
            exc = _signal_error(self.kill_signal)
            if exc is not None:
                self._report(exc, None, self._with_error(self.documents.get(0), exc))
                return int(exc.code)
        return _exit_code(status)

    def _report(self, exc: Any, what: str | None, document: str | None) -> None:
        from common.output import clear_line, write, write_json

        clear_line()  # a killed worker's progress line would run into this one
        self.error_line(self.tool, exc)
        if not self.wants_json or self.json_error is None:
            return
        try:
            if document is not None:
                write(document + "\n")
            else:  # killed before it could send one (still starting): built here, late
                write_json(self.json_error(exc, what))
        except Exception:
            pass  # a closed or full stdout: the error line and the code still tell


def _signal_error(sig: int) -> Any:
    from common.errors import Interrupted, Terminated

    if sig == signal.SIGINT:
        return Interrupted("interrupted")
    if sig == signal.SIGTERM:
        return Terminated("terminated by SIGTERM")
    return None


def _exit_code(status: int) -> int:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            signal.signal(sig, signal.SIG_DFL)  # SIGKILL has no handler to reset
        except (OSError, ValueError):
            pass
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
            os.kill(os.getpid(), sig)
        except (OSError, ValueError):
            pass
        return 128 + sig
    return os.waitstatus_to_exitcode(status)
