"""The keep-alive's lock files (wf/render/keeper.py): flocks on files of ours, never
opened through a symlink, and a lock file removed while it was waited on (a retiring
keeper removes them) is opened anew rather than trusted."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from common.errors import RenderError, Timeout


@contextlib.contextmanager
def file_lock(path: Path, *, deadline: float) -> Iterator[int]:
    """An exclusive flock on a file (created 0600) until the block ends; polled, so the
    deadline applies."""
    import fcntl

    while True:
        try:
            fd = open_lock(path)
        except RenderError:
            if path.parent.exists() or time.monotonic() >= deadline:
                raise
            _remake(path.parent)  # a retiring keeper removed the directory just now
            continue
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise Timeout(f"timed out waiting for the lock {path}") from None
                    time.sleep(0.01)
        except BaseException:
            os.close(fd)
            raise
        if not still_named(fd, path):
            # A retiring keeper removed the file while we waited: that lock guards nothing.
            os.close(fd)
            continue
        try:
            yield fd
        finally:
            os.close(fd)
        return


def _remake(root: Path) -> None:
    from common.paths import DirUnusable, ensure_dir

    try:
        ensure_dir(root, "WF_RUNTIME_DIR", private=True, what="keep-alive dir")
    except DirUnusable as exc:
        raise RenderError(exc.message) from None


def still_named(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    here = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (here.st_dev, here.st_ino)


def open_lock(path: Path) -> int:
    """A lock file of ours, created 0600; never through a symlink. Raises RenderError."""
    import stat

    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise RenderError(f"cannot open the lock {path}: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
        os.close(fd)
        raise RenderError(f"cannot use the lock {path}: not a file of ours")
    return fd
