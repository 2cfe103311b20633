"""Browser profile directories: where they go, what they hold, how they are removed.

A launched browser gets a fresh 0700 profile directory that also holds its TMPDIR, XDG
config and cache dirs, so removing the directory leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from pathlib import Path

from common.errors import RenderError

PROFILE_PREFIX = "chrome-"

SHM = "/dev/shm"


def profile_root() -> Path:
    """Where browser profiles go: the runtime dir, a tmpfs on a desktop (/run/user/UID).

    Without one (servers, containers, cron) the runtime dir is on disk; there /dev/shm is
    used when it is ours to use: Chromium writes about a hundred files at start-up,
    measured 0.1 s faster to launch on tmpfs than on ext4. /dev/shm is world-writable, so
    a ``wf-render-<uid>`` that someone else made (or a symlink) is passed over, and the
    runtime dir, which gets the same ownership rule (common/paths.py), is used instead.
    Raises RenderError when no directory is ours to use.
    """
    from common.paths import DirUnusable, NotOurs, check_dir, ensure_dir, runtime_dir

    if not (os.environ.get("WF_RUNTIME_DIR") or os.environ.get("XDG_RUNTIME_DIR")):
        shm = Path(SHM) / f"wf-render-{os.geteuid()}"
        with contextlib.suppress(OSError):
            shm.mkdir(mode=0o700)
        try:
            if not (check_dir(shm).st_mode & 0o077):
                return shm
        except (OSError, NotOurs):
            pass  # not ours, or not there: the runtime dir then
    try:
        return ensure_dir(
            runtime_dir() / "render", "WF_RUNTIME_DIR", private=True, what="profile dir"
        )
    except DirUnusable as exc:
        raise RenderError(exc.message) from None


# Chromium puts a unix socket at $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket
# and aborts when that path exceeds sun_path (108 bytes).
MAX_TMPDIR = 60


def launch_env(profile: Path) -> dict[str, str]:
    env = dict(os.environ)
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")):
        (profile / sub).mkdir(mode=0o700, exist_ok=True)
        env[var] = str(profile / sub)
    env["TMPDIR"] = str(_tmpdir(profile))
    return env


def _tmpdir(profile: Path) -> Path:
    """profile/tmp, or when that is too long a short directory it links to."""
    inside = profile / "tmp"
    if len(str(inside)) <= MAX_TMPDIR:
        inside.mkdir(mode=0o700)
        return inside
    base = tempfile.gettempdir()
    if len(base) > MAX_TMPDIR - 20:
        base = "/tmp"
    short = Path(tempfile.mkdtemp(prefix="wfc-", dir=base))
    inside.symlink_to(short)
    return short


def remove_profile(profile: Path) -> None:
    """The profile directory, and the short TMPDIR it may link to."""
    short = _short_tmpdir(profile)
    if short is not None:
        remove_tree(short)
    remove_tree(profile)


def _short_tmpdir(profile: Path) -> Path | None:
    """Where profile/tmp links, if it is a short TMPDIR that _tmpdir made for us.

    The link is read, never followed: its target is removed only when it has the shape
    _tmpdir gives it (a ``wfc-`` directory directly in the temporary dir or /tmp) and is
    a real directory of ours, so a link planted in a stale profile cannot point the
    clean-up at anything else.
    """
    from common.paths import problem

    try:
        target = Path(os.readlink(profile / "tmp"))
    except OSError:
        return None
    if not target.name.startswith("wfc-") or str(target.parent) not in (
        tempfile.gettempdir(),
        "/tmp",
    ):
        return None
    try:
        st = os.lstat(target)
    except OSError:
        return None
    if problem(st) is not None or stat.S_IMODE(st.st_mode) != 0o700:
        return None
    return target


def remove_tree(path: Path) -> None:
    """Remove a directory tree without following any symlink in it (common/paths.py)."""
    from common.paths import remove_tree as remove

    # A dying helper may still create a file while we delete; retry briefly.
    for _ in range(20):
        try:
            remove(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)
    with contextlib.suppress(OSError):
        remove(path)
