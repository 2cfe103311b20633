"""Run wf or ws as a real process and measure what the hostile suite asserts on: the
exit code, the wall time, the peak resident memory (with ``measure=True``: from wait4 in
tests/hostile/peak.py, which covers the process and every child it waited for) and
whether anything was left behind in its process group.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import subprocess_env, tool_path


@dataclass
class Run:
    code: int
    stdout: bytes
    stderr: str
    elapsed: float  # seconds from spawn to exit
    peak_kb: int  # peak RSS of the process and its reaped children (0 unless measured)
    leftovers: bool  # processes of its group still alive after it exited

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", "replace")


def run(
    argv: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
    limit: float = 60.0,
    cwd: str | Path | None = None,
    started: Callable[[subprocess.Popen[bytes]], None] | None = None,
    measure: bool = False,
) -> Run:
    """Run ``argv`` (a tool name first is looked up in the venv) in its own session.

    ``limit`` is a watchdog, not an assertion: past it the group is killed so a broken
    case fails on its timing instead of hanging the suite.
    """
    args = [tool_path(argv[0]) if argv[0] in ("wf", "ws") else argv[0], *argv[1:]]
    report = None
    if measure:
        fd, report = tempfile.mkstemp(prefix="peak-")
        os.close(fd)
        args = [sys.executable, str(Path(__file__).with_name("peak.py")), report, *args]
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as inp,
    ):
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        start = time.monotonic()
        proc = subprocess.Popen(
            args,
            stdin=inp if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env if env is not None else subprocess_env(),
            cwd=cwd,
            start_new_session=True,
        )
        done = threading.Event()

        def watchdog() -> None:
            if not done.wait(limit):
                _kill_group(proc.pid)

        threading.Thread(target=watchdog, daemon=True).start()
        try:
            if started is not None:
                started(proc)
            _, status, _usage = os.wait4(proc.pid, 0)
        finally:
            done.set()
        elapsed = time.monotonic() - start
        peak = 0
        if report is not None:
            text = Path(report).read_text().split()
            os.unlink(report)
            if text:
                status, peak = int(text[0]), int(text[1])
        proc.returncode = os.waitstatus_to_exitcode(status)
        leftovers = _group_alive(proc.pid)
        if leftovers:
            _kill_group(proc.pid)
        out.seek(0)
        err.seek(0)
        return Run(
            proc.returncode,
            out.read(),
            err.read().decode("utf-8", "replace"),
            elapsed,
            peak,
            leftovers,
        )


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group lives on LEFTOVER_GRACE seconds after its leader
    exited: one that a signal is ending, or a zombie its new parent has not reaped yet
    (a busy machine takes its time over both), is not left behind."""
    end = time.monotonic() + LEFTOVER_GRACE
    while True:
        # Children that outlive the leader keep its process group; reap any that died.
        try:
            while os.waitpid(-pgid, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        if not _live_members(pgid) or time.monotonic() >= end:
            return bool(_live_members(pgid))
        time.sleep(0.05)


LEFTOVER_GRACE = 3.0


def _live_members(pgid: int) -> list[int]:
    """The pids of the group's processes that are neither zombies nor dead."""
    found = []
    for entry in Path("/proc").iterdir():
        fields = _stat(entry) if entry.name.isdigit() else None
        if fields and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that runs (a zombie, waiting for its reaper, does not)."""
    fields = _stat(Path(f"/proc/{pid}"))
    return bool(fields) and fields[0] not in ("Z", "X")


def _stat(entry: Path) -> list[str]:
    """/proc/PID/stat's fields after the command's name (state, ppid, pgrp, ...); [] when
    the process is gone."""
    try:
        return (entry / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def wait_for(predicate: Callable[[], object], seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("condition not reached in time")
        time.sleep(0.02)


def env(**extra: str) -> dict[str, str]:
    """The subprocess environment of the suite: private dirs come from the test's own
    environment (conftest points them at tmp_path), rendering is off unless asked for."""
    base = {"WF_RENDER": "never"}
    base.update(extra)
    return subprocess_env(**base)
