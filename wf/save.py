"""Files in the scratch dir: confined names, whole-file writes (temporary file, then rename).

A saved file is complete or absent: it is written beside its final name, flushed to disk,
then renamed over it. rename() replaces a symbolic link rather than following it, so an
entry that points out of the scratch dir is never written through. The scratch dir is
used only when it is ours (common/paths.py).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import time
from pathlib import Path
from urllib.parse import urlsplit

from common.errors import UsageError, WriteError
from common.paths import ensure_dir, open_dir, problem, scratch_dir

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")

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


def save_bytes(data: bytes, name: str, *, directory: Path | None = None) -> Path:
    """Write ``data`` to ``directory/name`` atomically with mode 0600; return the absolute path.

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
