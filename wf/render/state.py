"""Small private state files (the keeper's record, the circuit breaker): read and
written only when they are ours, never through a symlink."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

STATE_LIMIT = 65536


def read_private(path: Path) -> str:
    """A small state file of ours: not through a symlink, owned by us, not writable by
    others; OSError otherwise."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            raise PermissionError(f"{path} is not a file of ours")
        return os.read(fd, STATE_LIMIT).decode("utf-8")
    finally:
        os.close(fd)


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` with a new 0600 file: written under a fresh name (O_EXCL, never
    through a symlink), then renamed over it, which replaces a symlink, not its target."""
    import secrets

    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
