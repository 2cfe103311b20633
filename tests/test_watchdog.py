"""common/watchdog.py in process: the worker's messages (arm, disarm, prepare) as bytes on
the pipe, the supervisor's reading of them, its deadlines and a signal's grace, the kill,
the report and the exit code, and install's three ways (no backstop, worker, supervisor)
with fork and _exit stood in for, so that the supervisor's loop runs in the test process
(mutmut sees only what runs there). hostile/test_process.py and
hostile/test_after_the_bytes.py run the same supervisor as real processes."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import signal
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from common import pdeath, watchdog
from common.errors import Interrupted, Terminated, Timeout
from common.watchslots import POLL, SLOTS, Slots
from tests.helpers import man_forwarded_signals

PR_SET_PDEATHSIG, PR_GET_PDEATHSIG = 1, 2
_REAL_EXIT = os._exit
_REAL_KILL = os.kill


def _pdeathsig() -> int:
    value = ctypes.c_int(-1)
    assert ctypes.CDLL(None, use_errno=True).prctl(PR_GET_PDEATHSIG, ctypes.byref(value)) == 0
    return value.value


class _Exited(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


@pytest.fixture(autouse=True)
def one_process_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The watchdog signals one process, never a group: os.kill of 0 or a negative pid
    fails the test. Here a group is the test session and mutmut's workers with it (a mutant
    that has a supervisor kill pid 0 ended whole runs), so a forked copy that tries it
    ends at once instead of going back into the session."""
    me = os.getpid()

    def kill(pid: int, sig: int) -> None:
        if isinstance(pid, int) and pid <= 0:
            if os.getpid() != me:
                _REAL_EXIT(97)
            raise AssertionError(f"os.kill({pid}, {sig}) signals a process group")
        _REAL_KILL(pid, sig)

    monkeypatch.setattr(os, "kill", kill)


def _tasks() -> list[str]:
    return os.listdir("/proc/self/task") if os.path.isdir("/proc/self/task") else ["main"]


def _alone(wait: float = 30.0) -> None:
    """Wait for the test process to be single-threaded, as a real supervisor is. The
    supervisor's loop blocks the watched signals in the main thread only; a worker's SIGUSR1
    (or a forwarded SIGTERM) is sent to the process, and the kernel hands it to any thread
    that does not block it. A thread an earlier test left running (a test server's handler
    still sleeping: several at load 5 to 9) then took it with its default action, and the
    whole run ended, killed by SIGUSR1, around this file. Fail this test naming them
    instead."""
    import threading

    from common import parse_thread

    parse_thread.release()  # the main thread's parsing helper (it lives as long as its caller)
    end = time.monotonic() + wait
    for thread in threading.enumerate():
        if thread is not threading.main_thread():
            thread.join(max(0.0, end - time.monotonic()))
    while len(_tasks()) > 1 and time.monotonic() < end:
        time.sleep(0.05)  # a thread that ended in Python may still be leaving the kernel
    left = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    assert len(_tasks()) == 1, f"threads left by earlier tests: {left or _tasks()}"


@pytest.fixture
def signals() -> Iterator[None]:
    """The test process's signal mask, SIGUSR1's handler and PDEATHSIG as they were, and
    no watched signal left pending (the supervisor's loop blocks them). The test process
    has no other thread (``_alone``), as the supervisor it stands in for has none."""
    _alone()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    kept = (signal.SIGUSR1, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)
    handlers = {sig: signal.getsignal(sig) for sig in kept}
    yield
    signal.pthread_sigmask(signal.SIG_BLOCK, watchdog._WATCHED)
    while signal.sigtimedwait(watchdog._WATCHED, 0) is not None:
        pass
    for sig, handler in handlers.items():
        signal.signal(sig, handler)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)


@pytest.fixture
def children() -> Iterator[Callable[..., int]]:
    """fork(body): a child that runs body() and ends; killed and reaped after the test.
    Forked from a single-threaded process: a fork while another thread holds a lock (the
    stream's, the import lock) leaves the child stuck on it."""
    _alone()
    pids: list[int] = []

    def fork(body: Callable[[], object] = lambda: time.sleep(30)) -> int:
        pid = os.fork()
        if pid == 0:
            try:
                body()
            finally:
                _REAL_EXIT(0)
        pids.append(pid)
        return pid

    yield fork
    for pid in pids:
        try:
            _REAL_KILL(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass


@pytest.fixture
def no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watchdog, "_worker", None)


def _alive(pid: int) -> bool:
    return os.waitpid(pid, os.WNOHANG) == (0, 0)


def _status(pid: int) -> int:
    return os.waitpid(pid, 0)[1]


def _document(exc: Any, what: str | None) -> dict[str, Any]:
    return {"built_by": os.getpid(), "what": what, "error": exc.as_json()}


class _Lines:
    """An error_line that records (tool, exception)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __call__(self, tool: str, exc: Any) -> None:
        self.calls.append((tool, exc))

    def said(self) -> list[tuple[str, type, str]]:
        return [(tool, type(exc), exc.message) for tool, exc in self.calls]


# ------------------------------------------------------------------ which runs are guarded


@pytest.mark.parametrize("argv", [[], ["--help"], ["-h"], ["--version"]])
def test_help_and_version_need_no_supervisor(argv):
    assert watchdog.needed(argv) is False


@pytest.mark.parametrize("argv", [["x"], ["-"], ["--help", "x"], ["--version", "x"], ["-v"]])
def test_any_other_command_line_needs_one(argv):
    assert watchdog.needed(argv) is True


@pytest.mark.parametrize(
    ("argv", "installed"),
    [
        (["--json", "x"], [("wf", True)]),
        (["x"], [("wf", False)]),
        (["x", "--jsonl"], [("wf", False)]),
        (["--help"], []),
    ],
)
def test_supervise_installs_for_work_and_tells_it_about_json(monkeypatch, argv, installed):
    calls: list[tuple[Any, ...]] = []
    json_error, error_line = object(), object()

    def install(tool: str, **kw: Any) -> None:
        assert kw["json_error"] is json_error and kw["error_line"] is error_line
        calls.append((tool, kw["wants_json"]))

    monkeypatch.setattr(watchdog, "install", install)
    watchdog.supervise("wf", argv, json_error, error_line)  # type: ignore[arg-type]
    assert calls == installed


# ------------------------------------------------------------------ the worker's messages


@pytest.fixture
def pipe_worker(monkeypatch, signals, no_worker) -> Iterator[Callable[..., Any]]:
    """A worker whose supervisor is this process (SIGUSR1 counted) and whose pipe we read."""
    fds: list[int] = []
    got: list[int] = []
    signal.signal(signal.SIGUSR1, lambda *a: got.append(1))

    def make(json_error: Any = None, *, full: bool = True) -> Any:
        """full: every shared slot taken, so that deadlines go by the pipe."""
        r, w = os.pipe()
        fds.extend((r, w))
        os.set_blocking(r, False)
        slots = Slots()
        for _ in range(SLOTS if full else 0):
            slots.take(1.0, "", "")
        worker = watchdog._Worker(os.getpid(), w, json_error, slots)
        monkeypatch.setattr(watchdog, "_worker", worker)

        def read() -> str:
            try:
                return os.read(r, 1 << 20).decode()
            except BlockingIOError:
                return ""

        return types.SimpleNamespace(worker=worker, read=read, usr1=got)

    yield make
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def test_without_a_supervisor_arm_and_disarm_do_nothing(no_worker):
    assert watchdog.supervised() is False
    assert watchdog.arm(time.monotonic() + 1, "x") == 0
    watchdog.disarm(1)
    watchdog.prepare()
    with watchdog.deadline(time.monotonic() + 1, "x"):
        pass


def test_arm_sends_the_deadline_and_a_token(pipe_worker):
    p = pipe_worker()
    assert watchdog.supervised() is True
    assert watchdog.arm(12.25, "the page\nnext\rline") == 1
    assert p.read() == "A 1 12.25 the page next line\n"
    assert watchdog.arm(13.5) == 2
    assert p.read() == "A 2 13.5 \n"
    assert p.worker.armed == {1: 12.25, 2: 13.5}
    assert len(p.usr1) == 2


@pytest.mark.parametrize("length", [1499, 1500, 1501])
def test_a_long_description_is_cut_to_what_max(pipe_worker, length):
    p = pipe_worker()
    watchdog.arm(1.0, "w" * length)
    assert p.read() == "A 1 1.0 " + "w" * min(length, 1500) + "\n"


def test_with_json_each_deadline_carries_the_workers_document(pipe_worker):
    p = pipe_worker(json_error=_document)
    watchdog.arm(2.5, "é page")
    message = "timed out: the work on é page ran past the total deadline and was stopped"
    document = json.dumps(
        {
            "built_by": os.getpid(),
            "what": "é page",
            "error": {"code": 28, "kind": "timeout", "message": message},
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )
    assert p.read() == f"A 1 2.5 é page\nJ 1 {document}\n"
    watchdog.arm(3.0)
    assert json.loads(p.read().split("\n")[1].split(" ", 2)[2])["error"]["message"] == (
        "timed out: the work ran past the total deadline and was stopped"
    )


def test_a_document_that_cannot_be_built_is_left_to_the_supervisor(pipe_worker):
    def broken(exc: Any, what: str | None) -> dict[str, Any]:
        raise RuntimeError("no")

    p = pipe_worker(json_error=broken)
    watchdog.arm(2.0, "x")
    watchdog.prepare()
    assert p.read() == "A 1 2.0 x\n"


def test_disarm_sends_the_token_and_forgets_it(pipe_worker):
    p = pipe_worker()
    token = watchdog.arm(5.0, "x")
    p.read()
    watchdog.disarm(0)
    assert p.read() == ""
    watchdog.disarm(token)
    assert p.read() == f"D {token}\n" and p.worker.armed == {}
    watchdog.disarm(token)  # twice: still one message each, nothing to forget
    assert p.read() == f"D {token}\n"


def test_a_deadline_block_disarms_even_when_it_raises(pipe_worker):
    p = pipe_worker()
    with pytest.raises(KeyError), watchdog.deadline(7.0, "block"):
        assert p.worker.armed == {1: 7.0}
        raise KeyError
    assert p.read() == "A 1 7.0 block\nD 1\n"


def test_prepare_sends_the_document_for_no_deadline(pipe_worker):
    p = pipe_worker(json_error=_document)
    watchdog.prepare()
    sent = p.read()
    assert sent.startswith("J 0 ") and sent.endswith("}\n") and sent.count("\n") == 1
    assert json.loads(sent[4:]) == {
        "built_by": os.getpid(),
        "what": None,
        "error": {"code": 143, "kind": "terminated", "message": "terminated"},
    }
    q = pipe_worker()  # no --json: nothing to send
    watchdog.prepare()
    assert q.read() == ""


def test_a_supervisor_gone_is_no_error(pipe_worker):
    p = pipe_worker()
    # A pid no process can have (past the kernel's pid_max): a reaped child's pid may
    # already be another process's on a busy machine, which the SIGUSR1 would reach.
    with open("/proc/sys/kernel/pid_max") as f:
        gone = int(f.read()) + 1
    with pytest.raises(ProcessLookupError):
        _REAL_KILL(gone, 0)
    p.worker.supervisor = gone
    watchdog.arm(1.0, "x")  # ProcessLookupError swallowed
    assert p.read() == "A 1 1.0 x\n"
    os.close(p.worker.fd)
    watchdog.arm(1.0, "y")  # a closed pipe: swallowed too


def test_a_message_longer_than_a_pipe_buffer_arrives_whole(pipe_worker, children):
    p = pipe_worker(json_error=lambda exc, what: {"pad": "p" * 200_000})
    expected = len('A 1 1.0 x\nJ 1 {"pad":""}\n') + 200_000
    r, w = os.pipe()
    p.worker.fd = w

    def reader() -> None:
        os.close(w)
        data = b""
        while chunk := os.read(r, 65536):
            data += chunk
        _REAL_EXIT(0 if len(data) == expected else 3)

    pid = children(reader)
    os.close(r)
    watchdog.arm(1.0, "x")
    os.close(w)
    assert os.waitstatus_to_exitcode(_status(pid)) == 0


def test_arm_takes_a_shared_slot_and_tells_only_of_its_first_use(pipe_worker):
    p = pipe_worker(json_error=_document, full=False)
    assert watchdog.arm(5.5, "page\rone") == -1
    assert p.read() == "S 0\n" and len(p.usr1) == 1
    slot = p.worker.slots.read(0)
    assert (slot.deadline, slot.what) == (5.5, "page one")
    assert json.loads(slot.document)["error"]["message"] == (
        "timed out: the work on page one ran past the total deadline and was stopped"
    )
    assert watchdog.arm(6.0) == -2
    assert p.read() == "S 1\n"
    watchdog.disarm(-1)  # cleared in place: nothing on the pipe
    assert p.read() == "" and p.worker.slots.read(0).deadline == 0.0
    assert watchdog.arm(7.0, "again") == -1  # slot 0 again, already watched
    assert p.read() == "" and len(p.usr1) == 2
    assert p.worker.slots.read(0).what == "again" and p.worker.armed == {}


def test_without_json_a_slot_holds_no_document(pipe_worker):
    p = pipe_worker(full=False)
    assert watchdog.arm(5.0, "x") == -1
    assert p.worker.slots.read(0).document == ""


def test_a_document_too_big_for_a_slot_goes_by_the_pipe(pipe_worker):
    p = pipe_worker(json_error=lambda exc, what: {"pad": "p" * 20_000}, full=False)
    assert watchdog.arm(5.0, "x") == 1
    assert p.read() == 'A 1 5.0 x\nJ 1 {"pad":"' + "p" * 20_000 + '"}\n'
    assert p.worker.slots.read(0).deadline == 0.0


def test_text_that_is_not_utf_8_is_replaced_not_raised(pipe_worker):
    p = pipe_worker()
    watchdog.arm(1.0, "file \udc80name")  # a surrogate-escaped byte from a file name
    assert p.read() == "A 1 1.0 file ?name\n"


def test_timeout_names_what_was_stopped():
    assert watchdog._timeout("").message == (
        "timed out: the work ran past the total deadline and was stopped"
    )
    assert watchdog._timeout("x").message == (
        "timed out: the work on x ran past the total deadline and was stopped"
    )
    assert isinstance(watchdog._timeout("x"), Timeout)


# ------------------------------------------------------------------ the supervisor's parts


def _supervisor(pid: int, fd: int, *, wants_json: bool = False, json_error: Any = None) -> Any:
    lines = _Lines()
    s = watchdog._Supervisor("wf", pid, fd, wants_json, json_error, lines, Slots())
    s.lines = lines
    return s


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    r, w = os.pipe()
    yield r, w
    for fd in (r, w):
        try:
            os.close(fd)
        except OSError:
            pass


def test_the_supervisor_reads_whole_lines_only(pipe):
    r, w = pipe
    s = _supervisor(0, r)
    assert os.get_blocking(r) is False
    s._read()  # nothing yet
    os.write(w, b'A 3 10.5 the page of x\nJ 3 {"a":1}\nA 4 2.0\nA 5 7')
    s._read()
    assert s.armed == {3: (10.5, "the page of x"), 4: (2.0, "")}
    assert s.documents == {3: '{"a":1}'} and s.pending == b"A 5 7"
    os.write(w, b".0 z\nD 3\nD 9\nX 1\n")
    s._read()
    assert s.armed == {4: (2.0, ""), 5: (7.0, "z")} and s.documents == {}
    assert s.pending == b""


def test_the_supervisor_reads_what_it_is_sent_as_sent(pipe):
    """A description that begins with a space (a newline the worker replaced), a document
    with spaces in it, bytes that are not UTF-8: each read as it came, and the supervisor
    never raises on what the pipe holds (a supervisor that raised would end the run with
    exit 1)."""
    r, w = pipe
    s = _supervisor(0, r)
    document = '{"error":{"message":"timed out: the work on a b"}}'
    os.write(w, f"A 1 5.0  after a newline\nJ 1 {document}\n".encode())
    os.write(w, b'A 2 6.0 caf\xe9 \xff\nJ 2 {"w":"\xe9"}\n')
    s._read()
    assert s.armed == {1: (5.0, " after a newline"), 2: (6.0, "caf\ufffd \ufffd")}
    assert s.documents == {1: document, 2: '{"w":"\ufffd"}'}


def test_the_last_lines_of_a_worker_that_ended_are_read(pipe):
    r, w = pipe
    s = _supervisor(0, r)
    os.write(w, b"A 1 5.0 x\nA 2 6.0 y\nD 1\n")
    os.close(w)  # the worker's last words, then the end of the pipe, in one wake-up
    s._read()
    assert s.armed == {2: (6.0, "y")} and s.pending == b""


def test_the_supervisor_reads_everything_waiting(pipe):
    r, w = pipe
    s = _supervisor(0, r)
    import fcntl

    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 1 << 20)
    os.write(w, b"".join(f"A {i} {i}.0 {'x' * 100}\n".encode() for i in range(1, 1001)))
    s._read()
    assert len(s.armed) == 1000 and s.pending == b""
    os.close(w)
    s._read()  # end of file: no loop


@pytest.mark.parametrize(("when", "waits"), [(100.0, [0.35]), (99.0, [0.0])])
def test_the_loop_waits_until_the_next_due_time_and_no_longer(
    pipe, children, monkeypatch, when, waits
):
    """sigtimedwait is given the time left to the earliest deadline plus the grace (never
    less than 0); past it the worker is killed."""
    pid = children()
    s = _supervisor(pid, pipe[0])
    s.armed = {1: (when, "x")}
    clock = [100.0]
    asked: list[float] = []

    def wait(mask: object, timeout: float) -> None:
        assert set(mask) == set(watchdog._WATCHED)  # type: ignore[call-overload]
        asked.append(timeout)
        clock[0] = 100.0 + 0.35  # the wait ran out
        return None

    monkeypatch.setattr(watchdog.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(signal, "sigtimedwait", wait)
    code = s.run()
    monkeypatch.undo()
    assert code == 28 and asked == pytest.approx(waits)


def test_the_supervisor_watches_the_slots_it_is_told_of(pipe):
    r, w = pipe
    s = _supervisor(0, r)
    os.write(w, b"S 3\nS 15\nS 16\nS x\n")
    s._read()
    assert s.slots.watched == {3, 15}


def test_with_a_slot_in_use_the_supervisor_looks_again_within_poll(pipe, monkeypatch):
    s = _supervisor(0, pipe[0])
    monkeypatch.setattr(watchdog.time, "monotonic", lambda: 10.0)
    s.slots.watch("0")
    assert s._due() == 10.0 + POLL
    s.slots.write(0, 10.0, b"x")
    assert s._due() == 10.0 + POLL  # 10.35 is later
    s.slots.write(0, 9.0, b"x")
    assert s._due() == 9.0 + watchdog.GRACE
    s.slots.write(0, 0.0)
    s.armed = {1: (9.5, "")}
    assert s._due() == 9.5 + watchdog.GRACE


def test_the_works_are_the_pipes_and_the_slots_earliest_first(pipe):
    s = _supervisor(0, pipe[0])
    s.armed = {1: (50.0, "a"), 2: (30.0, "c")}
    s.documents = {1: "d1"}
    s.slots.watch("0")
    s.slots.write(0, 40.0, b"b", b"")
    s.slots.watch("1")
    s.slots.write(1, 45.0, b"e", b"d5")
    works = s._works()
    assert [(w[0], w[1], w[2]) for w in works] == [
        (30.0, "c", None),
        (40.0, "b", None),
        (45.0, "e", "d5"),
        (50.0, "a", "d1"),
    ]
    assert [None if w[3] is None else w[3].index for w in works] == [None, 0, 1, None]


def test_works_with_the_same_deadline_keep_the_order_they_were_armed_in(pipe):
    """A batch arms its pages with one deadline, the same URL may come twice: such works
    are never compared beyond their deadline (a document or a slot has no order)."""
    s = _supervisor(0, pipe[0])
    s.armed = {1: (50.0, "b"), 2: (50.0, "a"), 3: (50.0, "a")}
    s.documents = {3: "d3"}
    for index in (0, 1):
        s.slots.watch(str(index))
        s.slots.write(index, 50.0, b"a", b"")
    works = s._works()
    assert [(w[1], w[2]) for w in works] == [("b", None), ("a", None), ("a", "d3")] + [
        ("a", None)
    ] * 2
    assert [None if w[3] is None else w[3].index for w in works] == [None, None, None, 0, 1]


@pytest.mark.parametrize("document", ['{"from":"slot"}', ""])
def test_a_late_slot_kills_with_its_what_and_document(pipe, children, capsys, document):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.slots.watch("2")
    s.slots.write(2, time.monotonic() - 1, b"the slot page", document.encode())
    s.armed = {1: (time.monotonic() + 100, "later")}
    assert s._expire() == 28
    message = "timed out: the work on the slot page ran past the total deadline and was stopped"
    assert s.lines.said() == [("wf", Timeout, message)]
    out = json.loads(capsys.readouterr().out)
    if document:
        assert out == {"from": "slot"}
    else:
        assert out["built_by"] == os.getpid() and out["what"] == "the slot page"
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)


def test_a_late_slot_the_page_has_just_moved_on_from_is_not_enforced(pipe, children, monkeypatch):
    pid = children()
    s = _supervisor(pid, pipe[0])
    s.slots.watch("0")
    s.slots.write(0, time.monotonic() - 1, b"x")
    asked: list[int] = []
    monkeypatch.setattr(s.slots, "unchanged", lambda slot: asked.append(slot.index) or False)
    assert s._expire() is None and asked == [0]
    assert _alive(pid) and s.lines.calls == []


def test_a_signal_takes_the_document_of_a_slot(pipe, children, capsys):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.kill_at, s.kill_signal = time.monotonic() - 1, signal.SIGTERM
    s.slots.watch("0")
    s.slots.write(0, time.monotonic() + 50, b"page", b'{"w":"slot"}')
    s.documents = {0: '{"w":0}'}
    assert s._expire() == 143
    assert json.loads(capsys.readouterr().out)["w"] == "slot"


def test_the_next_wake_up_is_the_earliest_deadline_plus_grace_or_a_signals_end(pipe):
    s = _supervisor(0, pipe[0])
    assert s._due() is None
    s.armed = {1: (10.0, ""), 2: (5.0, "")}
    assert s._due() == 5.0 + watchdog.GRACE
    s.kill_at = 6.0
    assert s._due() == 5.0 + watchdog.GRACE
    s.kill_at = 5.2
    assert s._due() == 5.2
    s.armed = {}
    assert s._due() == 5.2


@pytest.mark.parametrize("code", sorted(watchdog._SENT_BY_PROCESS))
def test_a_signal_a_process_sent_is_passed_on(pipe, children, code):
    pid = children()
    s = _supervisor(pid, pipe[0])
    before = time.monotonic()
    s._forward(types.SimpleNamespace(si_code=code, si_signo=signal.SIGTERM))
    assert before + watchdog.SIGNAL_GRACE <= s.kill_at <= time.monotonic() + watchdog.SIGNAL_GRACE
    assert s.kill_signal == signal.SIGTERM
    status = _status(pid)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM


def test_the_signal_list_is_the_kernels_user_codes():
    assert {0, -1, -6} == watchdog._SENT_BY_PROCESS  # SI_USER, SI_QUEUE, SI_TKILL
    assert {signal.SIGTERM, signal.SIGINT, signal.SIGHUP} == watchdog._FORWARDED


@pytest.mark.parametrize("code", [128, 1, -2, -5])
def test_a_signal_the_kernel_raised_is_not_passed_on(pipe, children, code):
    pid = children()
    s = _supervisor(pid, pipe[0])
    s._forward(types.SimpleNamespace(si_code=code, si_signo=signal.SIGINT))
    assert s.kill_signal == signal.SIGINT and s.kill_at is not None
    assert _alive(pid)


def test_a_second_signal_keeps_the_first_ones_grace(pipe, children):
    pid = children()
    s = _supervisor(pid, pipe[0])
    s._forward(types.SimpleNamespace(si_code=128, si_signo=signal.SIGINT))
    first = s.kill_at
    time.sleep(0.01)
    s._forward(types.SimpleNamespace(si_code=128, si_signo=signal.SIGTERM))
    assert (s.kill_at, s.kill_signal) == (first, signal.SIGINT)


def test_forwarding_to_a_worker_gone_is_no_error(pipe, children):
    pid = children(lambda: None)
    _status(pid)
    s = _supervisor(pid, pipe[0])
    s._forward(types.SimpleNamespace(si_code=0, si_signo=signal.SIGTERM))
    assert s.kill_signal == signal.SIGTERM


def test_reap(pipe, children):
    pid = children()
    s = _supervisor(pid, pipe[0])
    assert s._reap() is None
    _REAL_KILL(pid, signal.SIGKILL)
    time.sleep(0.05)
    while (status := s._reap()) is None:
        time.sleep(0.01)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert s._reap() == 1 << 8  # no such child any more


def test_expire_before_the_deadline_plus_grace_does_nothing(pipe, children, monkeypatch):
    pid = children()
    s = _supervisor(pid, pipe[0])
    os.write(pipe[1], b"A 1 100.0 x\n")
    monkeypatch.setattr(watchdog.time, "monotonic", lambda: 100.0 + watchdog.GRACE - 0.001)
    assert s._expire() is None
    monkeypatch.undo()
    assert s.armed == {1: (100.0, "x")}  # read first
    assert _alive(pid) and s.lines.calls == []


@pytest.mark.parametrize(
    ("armed", "late"),
    [
        ({1: (100.0, "earlier")}, 0.0),  # at the deadline plus the grace exactly
        ({1: (100.0, "late"), 2: (99.0, "earlier"), 3: (200.0, "later")}, 0.0),
        ({3: (200.0, "later"), 2: (99.0, "earlier"), 1: (100.0, "late")}, 0.5),
    ],
)
def test_expire_kills_at_the_earliest_late_deadline(
    pipe, children, monkeypatch, capsys, armed, late
):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.armed = dict(armed)
    s.documents = {1: '{"d":1}', 2: '{"d":2}', 3: '{"d":3}'}
    want = min(armed.items(), key=lambda kv: kv[1][0])[0]
    now = 100.0 + watchdog.GRACE + late
    monkeypatch.setattr(watchdog.time, "monotonic", lambda: now)
    code = s._expire()
    monkeypatch.undo()
    assert code == 28
    message = "timed out: the work on earlier ran past the total deadline and was stopped"
    assert s.lines.said() == [("wf", Timeout, message)]
    assert capsys.readouterr().out == f'{{"d":{want}}}\n'
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # killed and reaped


def test_expire_builds_the_document_late_when_the_worker_sent_none(pipe, children, capsys):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.armed = {4: (time.monotonic() - 5, "")}
    assert s._expire() == 28
    doc = json.loads(capsys.readouterr().out)
    assert doc == {
        "built_by": os.getpid(),
        "what": "",
        "error": {
            "code": 28,
            "kind": "timeout",
            "message": "timed out: the work ran past the total deadline and was stopped",
        },
    }


def test_a_signals_grace_not_yet_over(pipe, children, monkeypatch):
    pid = children()
    s = _supervisor(pid, pipe[0])
    s.kill_at, s.kill_signal = 50.0, signal.SIGTERM
    monkeypatch.setattr(watchdog.time, "monotonic", lambda: 49.999)
    assert s._expire() is None
    monkeypatch.undo()
    assert _alive(pid)


@pytest.mark.parametrize(
    ("sig", "kind", "message", "code"),
    [
        (signal.SIGTERM, Terminated, "terminated by SIGTERM", 143),
        (signal.SIGINT, Interrupted, "interrupted", 130),
        (signal.SIGHUP, Terminated, f"terminated by signal {int(signal.SIGHUP)}", 143),
    ],
)
def test_a_signals_grace_over_kills_with_the_signals_error(
    pipe, children, monkeypatch, capsys, sig, kind, message, code
):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.kill_at, s.kill_signal = 50.0, sig
    s.armed = {7: (80.0, "the page"), 5: (90.0, "the page")}
    s.documents = {5: '{"w":5}', 7: '{"w":7,"error":null}', 0: '{"w":0}'}
    monkeypatch.setattr(watchdog.time, "monotonic", lambda: 50.0)
    assert s._expire() == code
    monkeypatch.undo()
    assert s.lines.said() == [("wf", kind, message)]
    error = {"code": code, "kind": kind.kind, "message": message}
    # The document of the earliest deadline on the one thing being worked on.
    assert json.loads(capsys.readouterr().out) == {"w": 7, "error": error}
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)


@pytest.mark.parametrize(
    ("armed", "token"),
    [
        ({}, 0),  # no deadline: the document for none
        ({3: (80.0, "a"), 4: (81.0, "b")}, 0),  # two things at once: name neither
        ({6: (80.0, ""), 4: (81.0, "b")}, 0),
        ({2: (80.0, ""), 8: (85.0, "")}, 2),
    ],
)
def test_which_document_a_signal_takes(pipe, children, capsys, armed, token):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.kill_at, s.kill_signal = time.monotonic() - 1, signal.SIGTERM
    s.armed = dict(armed)
    s.documents = {t: json.dumps({"t": t}) for t in (0, 2, 3, 4, 6, 8)}
    assert s._expire() == 143
    assert json.loads(capsys.readouterr().out)["t"] == token


def test_a_signals_document_built_late_names_one_thing_or_none(pipe, children, capsys):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.kill_at, s.kill_signal = time.monotonic() - 1, signal.SIGTERM
    s.armed = {3: (80.0, "the page")}
    s._expire()
    assert json.loads(capsys.readouterr().out)["what"] == "the page"
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.kill_at, s.kill_signal = time.monotonic() - 1, signal.SIGTERM
    s.armed = {3: (80.0, "a"), 4: (80.0, "b")}
    s._expire()
    assert json.loads(capsys.readouterr().out)["what"] is None


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (None, None),
        ("not json", None),
        ("[1, 2]", None),
        ('{"a":"é","error":1}', '{"a":"é","error":{"code":143,"kind":"terminated","message":"t"}}'),
    ],
)
def test_with_error_puts_the_error_in_the_workers_document(document, expected):
    assert watchdog._Supervisor._with_error(document, Terminated("t")) == expected


def test_the_report_without_json_is_the_line_alone(pipe, capsys):
    s = _supervisor(0, pipe[0], wants_json=False, json_error=_document)
    s._report(Terminated("t"), "x", '{"a":1}')
    assert s.lines.said() == [("wf", Terminated, "t")]
    assert capsys.readouterr().out == ""
    s = _supervisor(0, pipe[0], wants_json=True, json_error=None)
    s._report(Terminated("t"), "x", '{"a":1}')
    assert capsys.readouterr().out == ""


def test_the_report_writes_the_document_or_builds_it(pipe, capsys):
    s = _supervisor(0, pipe[0], wants_json=True, json_error=_document)
    s._report(Terminated("t"), "x", '{"a":1}')
    assert capsys.readouterr().out == '{"a":1}\n'
    s._report(Terminated("t"), "the x", None)
    assert json.loads(capsys.readouterr().out)["what"] == "the x"

    def broken(exc: Any, what: str | None) -> dict[str, Any]:
        raise RuntimeError("no")

    s = _supervisor(0, pipe[0], wants_json=True, json_error=broken)
    s._report(Terminated("t"), None, None)  # swallowed: the line and the code still tell
    assert s.lines.said() == [("wf", Terminated, "t")]


# ------------------------------------------------------------------ exit codes


@pytest.fixture
def own_kill(monkeypatch) -> list[tuple[int, int]]:
    """os.kill of this very process recorded instead of done (the supervisor re-raises a
    worker's fatal signal on itself)."""
    sent: list[tuple[int, int]] = []
    me = os.getpid()
    guarded = os.kill  # one_process_at_a_time's

    def kill(pid: int, sig: int) -> None:
        if pid == me:
            sent.append((pid, sig))
        else:
            guarded(pid, sig)

    monkeypatch.setattr(os, "kill", kill)
    return sent


def test_an_exit_status_passes_through(pipe, children):
    pid = children(lambda: _REAL_EXIT(7))
    assert watchdog._exit_code(_status(pid)) == 7
    pid = children(lambda: _REAL_EXIT(0))
    assert watchdog._exit_code(_status(pid)) == 0


@pytest.mark.parametrize("sig", [signal.SIGUSR2, signal.SIGKILL, signal.SIGALRM])
def test_a_worker_killed_by_a_signal_takes_the_supervisor_down_with_it(
    signals, children, own_kill, sig
):
    pid = children()
    _REAL_KILL(pid, sig)
    handler = None if sig == signal.SIGKILL else signal.getsignal(sig)
    if handler is not None:
        signal.signal(sig, lambda *a: None)
    signal.pthread_sigmask(signal.SIG_BLOCK, {sig} - {signal.SIGKILL})
    try:
        assert watchdog._exit_code(_status(pid)) == 128 + sig
        if sig != signal.SIGKILL:
            assert signal.getsignal(sig) == signal.SIG_DFL
            assert sig not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        assert own_kill == [(os.getpid(), sig)]
    finally:
        if handler is not None:
            signal.signal(sig, handler)


def test_the_supervisors_exit_code_reports_a_signal_it_passed_on(pipe, children, capsys):
    pid = children()
    s = _supervisor(pid, pipe[0], wants_json=True, json_error=_document)
    s.documents = {0: '{"w":0,"error":null}'}
    s.kill_signal = signal.SIGTERM
    _REAL_KILL(pid, signal.SIGTERM)
    assert s._exit_code(_status(pid)) == 143
    assert s.lines.said() == [("wf", Terminated, "terminated by SIGTERM")]
    error = {"code": 143, "kind": "terminated", "message": "terminated by SIGTERM"}
    assert json.loads(capsys.readouterr().out) == {"w": 0, "error": error}


def test_a_worker_ending_by_itself_is_its_own_code(pipe, children, capsys):
    pid = children(lambda: _REAL_EXIT(4))
    s = _supervisor(pid, pipe[0])
    s.kill_signal = signal.SIGTERM
    assert s._exit_code(_status(pid)) == 4 and s.lines.calls == []


def test_a_hangup_passed_on_has_no_line_of_its_own(pipe, children, own_kill):
    pid = children()
    s = _supervisor(pid, pipe[0])
    s.kill_signal = signal.SIGHUP
    _REAL_KILL(pid, signal.SIGHUP)
    handler = signal.getsignal(signal.SIGHUP)
    try:
        assert s._exit_code(_status(pid)) == 128 + signal.SIGHUP
    finally:
        signal.signal(signal.SIGHUP, handler)
    assert s.lines.calls == [] and own_kill == [(os.getpid(), signal.SIGHUP)]


def test_kill_reaps_and_a_gone_pid_is_no_error(children):
    pid = children()
    watchdog._kill(pid)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)
    watchdog._kill(pid)  # gone: nothing to do


def test_kill_of_a_process_that_is_not_our_child(children):
    r, w = os.pipe()

    def grandparent() -> None:
        pid = os.fork()
        if pid == 0:
            time.sleep(30)
            _REAL_EXIT(0)
        os.write(w, str(pid).encode())
        os.waitpid(pid, 0)

    children(grandparent)
    grandchild = int(os.read(r, 100))
    os.close(r)
    os.close(w)
    watchdog._kill(grandchild)  # killed; waitpid's ChildProcessError swallowed
    for _ in range(200):
        try:
            _REAL_KILL(grandchild, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    else:
        pytest.fail("not killed")


@pytest.mark.parametrize(
    ("sig", "expected"),
    [
        (signal.SIGINT, (Interrupted, "interrupted")),
        (signal.SIGTERM, (Terminated, "terminated by SIGTERM")),
        (signal.SIGHUP, None),
    ],
)
def test_signal_error(sig, expected):
    exc = watchdog._signal_error(sig)
    assert (None if exc is None else (type(exc), exc.message)) == expected


# ------------------------------------------------------------------ PDEATHSIG


def test_prctl_is_libcs(signals):
    prctl = pdeath._prctl()
    assert type(prctl).__name__ == "Function"  # through _ctypes, not the fallback
    assert prctl(PR_SET_PDEATHSIG, signal.SIGUSR2, 0, 0, 0) == 0
    assert _pdeathsig() == signal.SIGUSR2
    assert prctl(PR_SET_PDEATHSIG, 99_999, 0, 0, 0) == -1  # an int result, signed


def test_prctl_falls_back_to_ctypes(signals, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "_ctypes", None)
    prctl = pdeath._prctl()
    assert type(prctl).__name__ == "_FuncPtr"
    assert prctl(PR_SET_PDEATHSIG, signal.SIGUSR2, 0, 0, 0) == 0
    assert _pdeathsig() == signal.SIGUSR2
    ctypes.set_errno(0)
    assert prctl(PR_SET_PDEATHSIG, 99_999, 0, 0, 0) == -1
    assert ctypes.get_errno() == errno.EINVAL  # use_errno: the failure's errno kept


def test_a_child_dies_with_its_parent(signals, monkeypatch):
    exits: list[int] = []
    monkeypatch.setattr(os, "_exit", exits.append)
    pdeath.die_with(os.getppid())
    assert _pdeathsig() == signal.SIGKILL and exits == []
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)
    pdeath.die_with(os.getppid() + 100_000)  # already gone: end now
    assert exits == [1]


def test_no_prctl_is_no_death_signal(signals, monkeypatch):
    exits: list[int] = []
    monkeypatch.setattr(os, "_exit", exits.append)

    def missing() -> Any:
        raise AttributeError("prctl")

    monkeypatch.setattr(pdeath, "_prctl", missing)
    pdeath.die_with(os.getppid() + 100_000)
    assert exits == [] and _pdeathsig() == 0


# ------------------------------------------------------------------ install, its three ways


def test_no_backstop_when_the_environment_says_so(monkeypatch, no_worker):
    monkeypatch.setenv("WF_WS_NO_BACKSTOP", "1")
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked"))
    watchdog.install("wf", wants_json=True, json_error=_document, error_line=_Lines())
    assert watchdog._worker is None


@pytest.mark.parametrize("name", ["fork", "sigtimedwait"])
def test_no_backstop_without_fork_or_sigtimedwait(monkeypatch, no_worker, name):
    monkeypatch.delenv("WF_WS_NO_BACKSTOP", raising=False)
    monkeypatch.delattr(os if name == "fork" else signal, name)
    if name != "fork":
        monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked"))
    watchdog.install("wf", wants_json=True, json_error=_document, error_line=_Lines())
    assert watchdog._worker is None


def _fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_a_failed_fork_leaves_nothing_behind(monkeypatch, signals, no_worker):
    monkeypatch.delenv("WF_WS_NO_BACKSTOP", raising=False)

    def fork() -> int:
        raise OSError("no more processes")

    monkeypatch.setattr(os, "fork", fork)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    fds = _fds()
    watchdog.install("wf", wants_json=False, json_error=None, error_line=_Lines())
    assert watchdog._worker is None
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask
    assert _fds() == fds


@pytest.mark.parametrize("wants_json", [True, False])
def test_the_worker_side_of_install(monkeypatch, signals, no_worker, wants_json):
    import gc

    monkeypatch.setenv("WF_WS_NO_BACKSTOP", "0")
    monkeypatch.setattr(os, "fork", lambda: 0)
    # The supervisor's pid is read before the fork: here, as if this process's parent read it.
    parent, getpid = os.getppid(), os.getpid
    monkeypatch.setattr(os, "getpid", lambda: parent)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    fds = _fds()
    try:
        watchdog.install("wf", wants_json=wants_json, json_error=_document, error_line=_Lines())
        monkeypatch.setattr(os, "getpid", getpid)
        w = watchdog._worker
        assert w is not None and watchdog.supervised()
        assert w.supervisor == parent
        assert w.json_error is (_document if wants_json else None)
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask
        assert _fds() == fds | {str(w.fd)}  # the write end alone is kept
        with pytest.raises(BrokenPipeError):  # the read end is closed
            os.write(w.fd, b"x")
        assert _pdeathsig() == signal.SIGKILL
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        if watchdog._worker is not None:
            os.close(watchdog._worker.fd)


# A supervisor SIGKILLed between the fork and the worker's first step; the worker, told
# nothing, would carry on under its reaper and write its pid to the file named last.
_SUPERVISOR_GONE = """
import os, signal, sys, time
from common import watchdog
real_fork = os.fork
def fork():
    supervisor = os.getpid()
    pid = real_fork()
    if pid:
        os.kill(supervisor, signal.SIGKILL)
    me = os.getpid()
    with open(sys.argv[1], "w") as out:
        out.write(str(me))
    while os.getppid() == supervisor:
        time.sleep(0.01)
    return 0
os.fork = fork
watchdog.install("wf", wants_json=False, json_error=None, error_line=print)
with open(sys.argv[2], "w") as out:
    out.write(str(os.getpid()))
"""


def test_a_worker_whose_supervisor_is_gone_before_it_starts_does_not_carry_on(tmp_path):
    """The supervisor's pid is the one taken before the fork: read in the worker after a
    supervisor died, it is the reaper's, which die_with took for a parent still there."""
    import subprocess
    import sys

    from tests.helpers import ROOT

    started, carried_on = tmp_path / "started", tmp_path / "carried_on"
    env = {k: v for k, v in os.environ.items() if k != "WF_WS_NO_BACKSTOP"}
    proc = subprocess.Popen(
        [sys.executable, "-c", _SUPERVISOR_GONE, str(started), str(carried_on)], cwd=ROOT, env=env
    )
    assert proc.wait(timeout=30) == -signal.SIGKILL
    end = time.monotonic() + 10
    while not started.exists() or not started.read_text():
        assert time.monotonic() < end
        time.sleep(0.01)
    worker = int(started.read_text())
    while Path(f"/proc/{worker}").exists() and _state(worker) not in ("Z", "X"):
        assert time.monotonic() < end, "the worker still runs"
        time.sleep(0.01)
    assert not carried_on.exists()


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"


@pytest.fixture
def supervise_here(monkeypatch, signals, no_worker) -> Callable[..., Any]:
    """install() with this process as the supervisor: fork is real but the worker runs
    ``body`` and ends, and the supervisor's os._exit raises with the code instead."""
    monkeypatch.delenv("WF_WS_NO_BACKSTOP", raising=False)
    real_fork = os.fork
    forked: list[int] = []

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    me = os.getpid()
    own_kills: list[int] = []
    guarded = os.kill  # one_process_at_a_time's

    def exit_(code: int) -> None:
        if os.getpid() != me:  # a forked copy took the supervisor's branch: end it
            _REAL_EXIT(code)
        raise _Exited(code)

    def kill(pid: int, sig: int) -> None:
        # The supervisor re-raises a worker's fatal signal on itself: here, the test
        # process. Noted instead (the worker, a fork, still signals for real).
        if os.getpid() == me and pid == me:
            own_kills.append(sig)
        else:
            guarded(pid, sig)

    def run(body: Callable[[], object], *, wants_json: bool = False) -> Any:
        monkeypatch.setattr(os, "fork", fork)
        monkeypatch.setattr(os, "_exit", exit_)
        monkeypatch.setattr(os, "kill", kill)
        lines = _Lines()
        started = time.monotonic()
        fds = _fds()
        try:
            watchdog.install("wf", wants_json=wants_json, json_error=_document, error_line=lines)
        except _Exited as done:
            monkeypatch.setattr(os, "_exit", _REAL_EXIT)
            for fd in _fds() - fds:  # the read end, which the real _exit would close
                try:
                    os.close(int(fd))
                except OSError:
                    pass
            with pytest.raises(ChildProcessError):
                os.waitpid(forked[0], 0)  # the worker is gone and reaped
            return types.SimpleNamespace(
                code=done.code,
                lines=lines,
                elapsed=time.monotonic() - started,
                own_kills=list(own_kills),
            )
        # The worker: never back into the test session. install returned here without a
        # fork (or the test process took the worker's branch): the body, which signals
        # its parent, must not run in the test process, whose parent is mutmut's.
        if os.getpid() == me:
            pytest.fail("install returned in the supervisor's process")
        try:
            body()
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        except BaseException:
            code = 99
        _REAL_EXIT(code)

    return run


def test_the_supervisor_passes_the_workers_code_on(supervise_here):
    got = supervise_here(lambda: _REAL_EXIT(5))
    assert got.code == 5 and got.lines.calls == [] and got.own_kills == []


def test_the_supervisor_kills_a_worker_past_its_deadline(supervise_here, capsys):
    def body() -> None:
        watchdog.arm(time.monotonic() + 0.2, "the page")
        time.sleep(30)

    got = supervise_here(body, wants_json=True)
    assert got.code == 28 and 0.2 + watchdog.GRACE <= got.elapsed < 10 and got.own_kills == []
    message = "timed out: the work on the page ran past the total deadline and was stopped"
    assert got.lines.said() == [("wf", Timeout, message)]
    doc = json.loads(capsys.readouterr().out)
    assert doc["built_by"] != os.getpid() and doc["what"] == "the page"


def test_a_disarmed_deadline_is_not_enforced(supervise_here):
    def body() -> None:
        with watchdog.deadline(time.monotonic() + 0.1, "short"):
            pass
        watchdog.arm(time.monotonic() + 30, "long")
        time.sleep(0.1 + watchdog.GRACE + 0.3)
        _REAL_EXIT(3)

    got = supervise_here(body)
    assert got.code == 3 and got.lines.calls == []


# Every signal the man pages say the supervisor passes on (tests/test_docs.py checks they
# are common/watchdog.py's list), one case each, in process: the worker gets it, and one
# that stays busy is killed after the grace with the signal's line and code. A signal a
# page adds without an outcome here fails.
_STUCK_OUTCOME = {
    "SIGTERM": (143, Terminated, "terminated by SIGTERM"),
    "SIGINT": (130, Interrupted, "interrupted"),
    "SIGHUP": (143, Terminated, f"terminated by signal {int(signal.SIGHUP)}"),
}
_DOCUMENTED = sorted(set(man_forwarded_signals("wf.1")) | set(man_forwarded_signals("ws.1")))


@pytest.mark.parametrize("name", _DOCUMENTED)
def test_each_signal_passed_on_reaches_the_worker_and_a_stuck_one_is_killed_after_the_grace(
    supervise_here, name
):
    assert name in _STUCK_OUTCOME, f"{name} is documented as passed on but has no outcome here"
    sig = getattr(signal, name)
    r, w = os.pipe()

    def body() -> None:
        os.close(r)
        signal.signal(sig, lambda *a: os.write(w, b"got"))  # and stays busy
        _REAL_KILL(os.getppid(), sig)
        time.sleep(30)

    try:
        got = supervise_here(body)
    finally:
        os.close(w)
    with open(r, "rb") as pipe:
        received = pipe.read()
    code, kind, message = _STUCK_OUTCOME[name]
    assert received == b"got"
    assert got.code == code and watchdog.SIGNAL_GRACE <= got.elapsed < 10
    assert got.lines.said() == [("wf", kind, message)] and got.own_kills == []


def test_a_worker_that_dies_of_the_signal_passed_on(supervise_here, capsys):
    def body() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        watchdog.prepare()
        time.sleep(0.1)
        _REAL_KILL(os.getppid(), signal.SIGINT)
        time.sleep(30)

    got = supervise_here(body, wants_json=True)
    assert got.code == 130 and got.own_kills == []
    assert got.lines.said() == [("wf", Interrupted, "interrupted")]
    doc = json.loads(capsys.readouterr().out)
    assert doc["what"] is None and doc["error"]["kind"] == "interrupted"


def test_a_worker_dead_of_a_signal_nobody_sent_takes_the_supervisor_down(supervise_here):
    got = supervise_here(lambda: _REAL_KILL(os.getpid(), signal.SIGUSR2))
    assert got.code == 128 + signal.SIGUSR2 and got.own_kills == [signal.SIGUSR2]
    assert got.lines.calls == []


def test_the_supervisor_never_leaves_its_worker_behind(supervise_here, monkeypatch):
    def broken(self: Any) -> int:
        raise RuntimeError("bug")

    monkeypatch.setattr(watchdog._Supervisor, "run", broken)
    got = supervise_here(lambda: time.sleep(30))
    assert got.code == 1 and got.lines.calls == []
