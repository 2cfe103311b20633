"""common/entry.py in process: the supervisor asked for (or not, for completion), the
command line's main run after it, Ctrl-C before the CLI catches it, and exit_now's way
out (in a forked child, so that the test process lives on). test_run.py and
test_ws_startup.py run it as real console scripts."""

from __future__ import annotations

import os
import sys
import threading
import types
from typing import Any

import pytest

from common import entry, watchdog


@pytest.mark.parametrize(
    ("tool", "argv", "env", "wanted"),
    [
        ("wf", ["--completion", "bash"], {}, True),
        ("wf", ["--completion=zsh"], {}, True),
        ("ws", ["x", "--completion"], {}, True),
        ("wf", ["--completions"], {}, False),
        ("wf", ["--completionx=bash"], {}, False),
        ("wf", ["https://example.com/"], {}, False),
        ("wf", [], {"_WF_COMPLETE": "bash_complete"}, True),
        ("ws", [], {"_WS_COMPLETE": "bash_complete"}, True),
        ("ws", [], {"_WF_COMPLETE": "bash_complete"}, False),
        ("wf", [], {"_WF_COMPLETE": ""}, False),
    ],
)
def test_completion_needs_no_supervisor(monkeypatch, tool, argv, env, wanted):
    monkeypatch.delenv("_WF_COMPLETE", raising=False)
    monkeypatch.delenv("_WS_COMPLETE", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert entry._completion(tool, argv) is wanted


class _Cli:
    """A stand-in for wf.cli: main() does what the test says; _json_error is recorded."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, main: Any) -> None:
        self.module = types.ModuleType("fake_cli_for_entry")
        self.module.main = main  # type: ignore[attr-defined]
        self.module._json_error = lambda exc, what: {"exc": exc, "what": what}  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "fake_cli_for_entry", self.module)
        self.calls: list[str] = []
        self.supervised: list[tuple[Any, ...]] = []
        monkeypatch.setattr(watchdog, "supervise", lambda *args: self.supervised.append(args))
        monkeypatch.setattr(watchdog, "prepare", lambda: self.calls.append("prepare"))


def test_run_supervises_then_runs_main(monkeypatch):
    ran: list[str] = []
    cli = _Cli(monkeypatch, lambda: ran.append("main"))
    monkeypatch.delenv("_WF_COMPLETE", raising=False)
    monkeypatch.setattr(sys, "argv", ["wf", "-v", "https://example.com/"])
    from common.run import error_line

    def json_error(exc: Any, what: str | None) -> dict[str, Any]:
        return {}

    entry.run("wf", "fake_cli_for_entry", json_error)
    assert ran == ["main"] and cli.calls == ["prepare"]
    # The supervisor gets the tool, its arguments, the JSON errors and the error line.
    assert cli.supervised == [("wf", ["-v", "https://example.com/"], json_error, error_line)]


def test_run_skips_the_supervisor_for_completion(monkeypatch):
    ran: list[str] = []
    cli = _Cli(monkeypatch, lambda: ran.append("main"))
    monkeypatch.setattr(sys, "argv", ["ws", "--completion", "bash"])
    entry.run("ws", "fake_cli_for_entry", lambda exc, what: {})
    assert ran == ["main"] and cli.supervised == [] and cli.calls == ["prepare"]


def test_ctrl_c_before_the_cli_catches_it_is_130_with_its_line(monkeypatch, capsys):
    def interrupted() -> None:
        raise KeyboardInterrupt

    _Cli(monkeypatch, interrupted)
    monkeypatch.setattr(sys, "argv", ["wf", "x"])
    with pytest.raises(SystemExit) as ended:
        entry.run("wf", "fake_cli_for_entry", lambda exc, what: {})
    assert ended.value.code == 130
    assert capsys.readouterr().err == "wf: (130) interrupted\n"


def test_exit_now_raises_system_exit_for_a_code_that_is_not_a_number():
    for code in (None, "message", 1.0):
        with pytest.raises(SystemExit) as ended:
            entry.exit_now(code)
        assert ended.value.code == code


def test_exit_now_waits_for_threads_that_are_not_daemons():
    release = threading.Event()
    worker = threading.Thread(target=release.wait, daemon=False)
    worker.start()
    try:
        with pytest.raises(SystemExit) as ended:
            entry.exit_now(3)
        assert ended.value.code == 3
    finally:
        release.set()
        worker.join()


def _in_child(body: Any) -> tuple[int, bytes]:
    """Run ``body`` in a forked child whose stdout is a pipe: (exit code, what it wrote).
    The child never returns into pytest."""
    # exit_now called in this process too (a code that is not a number: SystemExit), so
    # that a tool tracing which tests call it (mutmut) sees these tests call it.
    with pytest.raises(SystemExit):
        entry.exit_now("not a number")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.dup2(write, 1)
            sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the child's own
            body()
        finally:
            os._exit(99)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        out = fh.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out


def test_exit_now_runs_atexit_flushes_and_keeps_the_code():
    def child() -> None:
        import atexit

        atexit.register(lambda: sys.stdout.write("atexit ran\n"))
        sys.stdout.write("buffered, ")
        daemon = threading.Thread(target=threading.Event().wait, daemon=True)
        daemon.start()  # a daemon thread does not hold the exit up
        entry.exit_now(7)

    assert _in_child(child) == (7, b"buffered, atexit ran\n")


def test_exit_now_leaves_its_own_thread_out_of_the_count():
    # The calling thread is not a daemon (a main thread never is): only the others count.
    def child() -> None:
        me = types.SimpleNamespace(daemon=False)
        threading.current_thread = lambda: me  # type: ignore[assignment]
        threading.enumerate = lambda: [me]  # type: ignore[assignment]
        entry.exit_now(4)

    assert _in_child(child) == (4, b"")


def test_exit_now_survives_a_closed_stdout():
    def child() -> None:
        sys.stdout.write("written at the close, ")
        sys.stdout.close()  # exit_now's flush then raises ValueError: not a failure
        entry.exit_now(5)

    assert _in_child(child) == (5, b"written at the close, ")
