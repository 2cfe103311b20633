"""Our browser processes, found through /proc: alive or not, which belong to one
browser, killing them all, and telling a process apart from a later one with its pid.

Only processes of our own uid are ever touched.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from wf.render.profiles import PROFILE_PREFIX, remove_profile


def running(pid: int) -> bool:
    """The process exists and is not a zombie (a killed child waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def browser_processes(pgid: int, profile: Path) -> list[int]:
    """Live processes of one browser: its process group, plus helpers that left the
    group (the crash handler double-forks into its own session) but name the profile.
    Only our own processes: anyone can start one whose command line names our profile."""
    marker = str(profile).encode() + b"/"
    found: list[int] = []
    uid = os.geteuid()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != uid:
                continue
            with open(f"/proc/{entry.name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            if fields[0] in (b"Z", b"X"):
                continue
            if int(fields[2]) != pgid:
                with open(f"/proc/{entry.name}/cmdline", "rb") as fh:
                    if marker not in fh.read():
                        continue
        except (OSError, IndexError, ValueError):
            continue
        found.append(int(entry.name))
    return found


def kill_browser(pid: int, profile: Path, proc: subprocess.Popen[bytes] | None = None) -> None:
    """SIGKILL the whole browser (its profile is throwaway, so no graceful shutdown),
    wait until no process of it is left, then remove the profile directory."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    # A killed process writes nothing more: remove the profile while the kernel tears
    # the processes down (that takes 30 to 60 ms for the browser's address space).
    remove_profile(profile)
    if proc is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2.0)
    limit = time.monotonic() + 3.0
    while True:
        left = [p for p in browser_processes(pid, profile) if p != os.getpid()]
        if not left or time.monotonic() > limit:
            break
        for p in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGKILL)
        time.sleep(0.01)
    if profile.exists():  # a helper outside the group wrote to it before it died
        remove_profile(profile)


def identity(pid: int) -> dict[str, object] | None:
    """What tells a process apart from a later one with the same pid: real uid, start
    time (clock ticks after boot, /proc/PID/stat field 22) and executable. None when it
    is gone, a zombie, or not ours to inspect."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        if fields[0] in (b"Z", b"X"):
            return None
        with open(f"/proc/{pid}/status", "rb") as fh:
            uid_line = next(ln for ln in fh if ln.startswith(b"Uid:"))
        return {
            "uid": int(uid_line.split()[1]),
            "start": int(fields[19]),
            "exe": os.readlink(f"/proc/{pid}/exe"),
        }
    except (OSError, IndexError, ValueError, StopIteration):
        return None


def is_ours(pid: object, recorded: object) -> bool:
    """``pid`` is still the process whose identity() we recorded, and it runs as us."""
    if (
        not isinstance(pid, int)
        or isinstance(pid, bool)
        or pid <= 1
        or not isinstance(recorded, dict)
    ):
        return False
    now = identity(pid)
    return now is not None and now["uid"] == os.getuid() and now == recorded


def sweep_stale_profiles(root: Path) -> None:
    """Remove profiles whose owner is gone (wf or a keeper killed with SIGKILL)."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(PROFILE_PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        if entry.stat(follow_symlinks=False).st_uid != os.geteuid():
            continue  # not made by us: not ours to remove
        owner = entry.name[len(PROFILE_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit() or running(int(owner)):
            continue
        profile = Path(entry.path)
        # Until none is left (bounded): a helper still dying could write into the
        # profile after it is removed, or be found alive by the next sweep.
        limit = time.monotonic() + 1.0
        while (left := browser_processes(-1, profile)) and time.monotonic() < limit:
            for p in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(p, signal.SIGKILL)
            time.sleep(0.01)
        remove_profile(profile)
