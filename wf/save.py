"""Files in the scratch dir: confined names, whole-file writes (temporary file, then rename),
and the pruning that keeps the dir from growing for ever.

A saved file is complete or absent: it is written beside its final name, flushed to disk,
then renamed over it. rename() replaces a symbolic link rather than following it, so an
entry that points out of the scratch dir is never written through. The scratch dir is
used only when it is ours (common/paths.py).

Pruning (``prune``) runs after a save, at most once per PRUNE_EVERY (the mtime of a stamp
file), and removes only what wf wrote: regular files owned by us whose names have the
shape ``default_name`` gives, leftover ``.part`` files, and the ``--save-path`` names
recorded in a list when they were saved. Auto-named files go when older than
WF_SCRATCH_MAX_AGE or, oldest first, while all of them together exceed WF_SCRATCH_MAX;
``--save-path`` files only at their age. Everything happens on the directory's
descriptor with lstat and unlink, which never follow a symbolic link.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from common.errors import UsageError, WriteError
from common.paths import ensure_dir, open_dir, problem, scratch_dir

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# What default_name and save_bytes write, and nothing else: pruning touches these.
_AUTO_NAME = re.compile(r"[A-Za-z0-9._-]+-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}\.[a-z0-9]{1,4}\Z")
_PART_NAME = re.compile(r"\.wf-[0-9a-f]{16}\.part\Z")
SAVED_LIST = ".wf-saved-names"  # the --save-path names wf wrote, one a line
STAMP = ".wf-pruned"  # its mtime is the last pruning
PRUNE_EVERY = 3600.0
PART_AGE = 3600.0  # a write never takes an hour: an older .part is a crash's leftover
PLACEHOLDER = "{n}"
BOOKKEEPING = (SAVED_LIST, STAMP)  # wf's own files in the scratch dir, not saved pages


@dataclass(frozen=True)
class ScratchLimits:
    """WF_SCRATCH_MAX_AGE and WF_SCRATCH_MAX; 0 turns a rule off."""

    max_age: float = 7 * 86400.0
    max_bytes: int = 500 * 1024 * 1024


_EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "image/svg+xml": ".svg",
    "application/pdf": ".pdf",
    "application/zip": ".zip",
    "application/gzip": ".gz",
    "application/x-gzip": ".gz",
    "application/octet-stream": ".bin",
    "audio/mpeg": ".mp3",
    "video/mp4": ".mp4",
}


def confine_name(name: str) -> str:
    """Only the base name of ``--save-path`` is used; refuse names that cannot be files."""
    if "\0" in name or "\n" in name or "\r" in name:
        raise UsageError("--save-path must not contain NUL or newline characters")
    base = name.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].strip()
    from common.text import inline, one_line

    if inline(base) != base:
        # wf echoes the name in a marker line; cleaned there, it would name another file.
        raise UsageError(
            f"--save-path {one_line(base)!r} holds control, invisible or undecodable "
            "characters (only plain text names are saved)"
        )
    if base in ("", ".", ".."):
        raise UsageError(f"--save-path {name!r} has no file name (only its base name is used)")
    if len(base.encode("utf-8", "surrogateescape")) > 255:
        raise UsageError("--save-path file name is longer than 255 bytes")
    return base


def save_name(template: str, number: int) -> str:
    """The --save-path name of the ``number``-th URL (1-based): ``{n}`` becomes the number."""
    return template.replace(PLACEHOLDER, str(number))


def default_name(url: str | None, content_type: str | None, *, text: bool) -> str:
    host = urlsplit(url).hostname if url else None
    stem = _UNSAFE.sub("-", host or "document").strip("-") or "document"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    tag = hashlib.sha1(f"{url}{time.time_ns()}{os.getpid()}".encode()).hexdigest()[:6]
    if text:
        ext = ".txt"
    else:
        mime = (content_type or "").split(";", 1)[0].strip().lower()
        ext = _EXTENSIONS.get(mime, ".bin")
    return f"{stem}-{stamp}-{tag}{ext}"


def save_bytes(
    data: bytes,
    name: str,
    *,
    directory: Path | None = None,
    limits: ScratchLimits | None = None,
    chosen: bool = False,
) -> Path:
    """Write ``data`` to ``directory/name`` atomically with mode 0600; return the absolute path.
    ``chosen``: the name is the user's (--save-path), recorded so that pruning knows it is
    ours. With ``limits``, the dir is pruned afterwards when it is time to.

    Raises WriteError; DirUnusable (a WriteError) when the directory cannot be made or is
    not ours. Every step after the check works on the directory's descriptor, so the
    directory that was checked is the one written to."""
    folder = (
        scratch_dir()
        if directory is None
        else ensure_dir(directory, "WF_SCRATCH_DIR", what="scratch dir")
    )
    try:
        folder = folder.resolve()
        dfd = open_dir(folder)
    except OSError as exc:
        raise WriteError(f"cannot open the scratch dir {folder}: {exc.strerror or exc}") from None
    target = folder / name
    fd, tmp = -1, ""
    try:
        why = problem(os.fstat(dfd))
        if why:
            raise WriteError(f"cannot use the scratch dir {folder}: {why} (set WF_SCRATCH_DIR)")
        tmp = f".wf-{secrets.token_hex(8)}.part"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o600, dir_fd=dfd)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        tmp = ""
        if chosen:
            _record(dfd, name)
        if limits is not None:
            removed = prune(dfd, limits, keep=name)
            if removed:
                from common import trace

                trace.trace("scratch: pruned %d old or surplus files of wf's", len(removed))
    except OSError as exc:
        raise WriteError(
            f"cannot write {target}: {exc.strerror or exc} (WF_SCRATCH_DIR chooses the directory)"
        ) from None
    finally:
        if fd >= 0:
            os.close(fd)
        if tmp:
            try:
                os.unlink(tmp, dir_fd=dfd)
            except OSError:
                pass
        os.close(dfd)
    return target


def _record(dfd: int, name: str) -> None:
    """Add a --save-path name to the list pruning reads (O_APPEND: one write per line, so
    concurrent wf processes do not mix their lines)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(SAVED_LIST, flags, 0o600, dir_fd=dfd)
    except OSError:
        return  # only pruning needs it; the file itself is saved
    try:
        os.write(fd, name.encode("utf-8", "surrogateescape") + b"\n")
    except OSError:
        pass
    finally:
        os.close(fd)


def _stamp_due(dfd: int, now: float) -> bool:
    """True (and the stamp renewed) when the last pruning is PRUNE_EVERY ago or never was."""
    try:
        st = os.stat(STAMP, dir_fd=dfd, follow_symlinks=False)
        if stat.S_ISREG(st.st_mode) and 0 <= now - st.st_mtime < PRUNE_EVERY:
            return False
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(STAMP, flags, 0o600, dir_fd=dfd)
    try:
        os.utime(fd, (now, now))
    finally:
        os.close(fd)
    return True


def _chosen_names(dfd: int) -> set[str]:
    try:
        fd = os.open(SAVED_LIST, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
    except OSError:
        return set()
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
            return set()
        with os.fdopen(os.dup(fd), "rb") as fh:
            raw = fh.read(4 << 20)
    finally:
        os.close(fd)
    return {line.decode("utf-8", "surrogateescape") for line in raw.splitlines() if line}


def prune(
    dfd: int,
    limits: ScratchLimits,
    *,
    keep: str = "",
    now: float | None = None,
    force: bool = False,
) -> list[str]:
    """Remove what wf wrote in the scratch dir open as ``dfd`` that is past its age or over
    the size cap (oldest first); never ``keep`` (the file just saved). Runs when the stamp
    says an hour has passed, or with ``force``. Returns the names removed. A failure only
    leaves files in place: pruning is housekeeping, never the reason a run fails."""
    now = time.time() if now is None else now
    try:
        if not force and (limits == ScratchLimits(0, 0) or not _stamp_due(dfd, now)):
            return []
        return _prune(dfd, limits, keep, now)
    except OSError:
        return []


def _prune(dfd: int, limits: ScratchLimits, keep: str, now: float) -> list[str]:
    chosen = _chosen_names(dfd)
    uid = os.geteuid()
    auto: list[tuple[float, str, int, int]] = []  # (mtime, name, size, inode)
    removed: list[str] = []
    for name in os.listdir(dfd):
        part = bool(_PART_NAME.match(name))
        # A --save-path name of the auto shape is still the user's: pruned only at its age.
        is_auto = bool(_AUTO_NAME.match(name)) and name not in chosen
        if not (part or is_auto or name in chosen):
            continue  # not a name wf gives: never ours to remove
        try:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_uid != uid:
            continue  # a link, a directory, or someone else's file
        age = now - st.st_mtime
        if name == keep:
            if is_auto:
                auto.append((st.st_mtime, name, st.st_size, st.st_ino))
            continue
        limit = PART_AGE if part else limits.max_age
        expired = limit > 0 and age > limit
        if expired:
            if _unlink_same(dfd, name, st):
                removed.append(name)
        elif is_auto:
            auto.append((st.st_mtime, name, st.st_size, st.st_ino))
    if limits.max_bytes > 0:
        total = sum(size for _, _, size, _ in auto)
        for _mtime, name, size, ino in sorted(auto):
            if total <= limits.max_bytes:
                break
            if name == keep:
                continue
            try:
                st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            except OSError:
                continue
            if st.st_ino == ino and _unlink_same(dfd, name, st):
                removed.append(name)
                total -= size
    gone = {n for n in chosen if n in removed}
    if gone:
        _rewrite_list(dfd, chosen - gone)
    return removed


def _unlink_same(dfd: int, name: str, seen: os.stat_result) -> bool:
    """Unlink ``name`` if it is still the file that was looked at (unlink never follows
    a link; the check narrows the window in which a concurrent wf could have replaced it)."""
    try:
        st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        if (st.st_ino, st.st_mtime_ns) != (seen.st_ino, seen.st_mtime_ns):
            return False
        os.unlink(name, dir_fd=dfd)
        return True
    except OSError:
        return False


def _rewrite_list(dfd: int, names: set[str]) -> None:
    """The list without the names pruned (a name appended meanwhile by another wf may be
    lost: that file is then kept, never removed wrongly)."""
    tmp = f".wf-{secrets.token_hex(8)}.list"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o600, dir_fd=dfd)
    try:
        data = b"".join(n.encode("utf-8", "surrogateescape") + b"\n" for n in sorted(names))
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    try:
        os.replace(tmp, SAVED_LIST, src_dir_fd=dfd, dst_dir_fd=dfd)
    except OSError:
        os.unlink(tmp, dir_fd=dfd)
