"""Start a process that is not our child: the keep-alive keeper (wf/render/keeper.py).

A keeper started as our child would, once it retires, stay a zombie in a long-lived
program that uses wf as a library, until that program happened to start another child.
So wf starts an intermediate process that forks the real one (``detach``, on its side),
writes its pid, and exits once wf has a pidfd for it; the kernel then hands the process
to init (or the nearest subreaper), which reaps it.
"""

from __future__ import annotations

import os
import select
import subprocess
import time

from common.errors import RenderError, Timeout


def start(args: list[str], env: dict[str, str], *, deadline: float) -> tuple[int, int]:
    """Run ``args`` (a program that calls ``detach`` first) in a session of its own, with
    no stdio of ours; returns the detached process's pid and a pidfd of it. Raises
    RenderError when it ended before it detached, Timeout past the deadline."""
    proc = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        close_fds=True,
        start_new_session=True,
    )
    assert proc.stdin is not None and proc.stdout is not None  # both are pipes
    pid, pidfd = None, -1
    try:
        pid = _read_pid(proc.stdout.fileno(), deadline)
        if pid is not None:
            # While the intermediate lives, nobody can reap the process, so its pid is
            # not reused: the pidfd names it, and not a later process.
            pidfd = os.pidfd_open(pid)
    finally:
        if pidfd < 0:
            proc.kill()  # out of time or failed: no keeper should start after this
        proc.stdin.close()  # the intermediate exits on this
        proc.stdout.close()
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if pid is None:
        raise RenderError(f"{args[0]} exited with code {proc.returncode} before it started")
    return pid, pidfd


def _read_pid(fd: int, deadline: float) -> int | None:
    """The one line the intermediate writes; None when it ended without writing it."""
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise Timeout("timed out starting the shared browser")
        chunk = os.read(fd, 64)
        if not chunk or len(data) > 64:
            return None
        data += chunk
    text = data.decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def ended(pidfd: int) -> bool:
    """Whether the process of ``pidfd`` has ended (its pidfd is readable then)."""
    return bool(select.select([pidfd], [], [], 0)[0])


def detach() -> None:
    """The started program's side: go on in a child, while this process writes the
    child's pid, waits until ``start`` has closed our stdin, and exits."""
    pid = os.fork()
    if pid:
        os.write(1, f"{pid}\n".encode())
        os.read(0, 1)  # end of file once start() holds its pidfd
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
