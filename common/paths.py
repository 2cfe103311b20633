"""Where files go: scratch (saved bodies), state, runtime and config, each overridable by
environment (WF_SCRATCH_DIR, WF_CACHE_DIR, WF_STATE_DIR, WF_RUNTIME_DIR, WF_CONFIG_DIR;
WS_CONFIG_DIR, WS_STATE_DIR and WS_CACHE_DIR for ws). platformdirs is imported only when a
path is asked for, and on Linux only when the XDG variables and HOME leave it to
platformdirs.

A directory is used only when it is ours: owned by the effective uid, not writable by
group or others, and not a symbolic link (checked on a descriptor opened with O_NOFOLLOW,
so what is checked is what is used). Its parents are opened one by one from the root
without following a link another user could have made, and each must be owned by us or
root and writable by nobody else (a sticky directory such as /tmp is fine): root running
wf with another user's HOME must not let that user steer it. Directories we create, the
missing parents among them, are 0700. wf runs as root from cron, and the shared
temporary directory lets any local user create a name first: whatever a stranger made
there could steer our locks, state and clean-up.

Without XDG_RUNTIME_DIR the runtime dir is ``$TMPDIR/wf-runtime-<uid>``. If someone
else got there first (or left a symlink), this process uses a fresh directory that
mkdtemp names unpredictably, removed at exit, rather than failing: refusing would let
any local user turn rendering off for root's cron jobs by creating one directory.
``runtime_fallback()`` says when that happened; keep-alive needs a directory other
processes can find, so it is off then.
"""

from __future__ import annotations

import atexit
import errno
import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

from common.errors import UsageError, WriteError


class DirUnusable(WriteError):
    """A directory wf needs cannot be created, or is not ours to use."""

    def __init__(self, message: str, *, path: Path, variable: str) -> None:
        super().__init__(message)
        self.path = path
        self.variable = variable


_fallback: tuple[Path, str] | None = None  # (fresh runtime dir, why the usual one was not used)


def open_dir(path: Path | str, *, dir_fd: int | None = None) -> int:
    """A descriptor of a directory that is not a symlink (O_NOFOLLOW on the last part)."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(path, flags, dir_fd=dir_fd)


def problem(st: os.stat_result) -> str | None:
    """Why a directory with this stat is not ours to use, or None."""
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    if st.st_uid != os.geteuid():
        return f"it is owned by uid {st.st_uid}, not by us (uid {os.geteuid()})"
    if st.st_mode & 0o022:
        return f"it is writable by group or others (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


class NotOurs(Exception):
    """Why an existing directory is not ours to use."""


def check_dir(path: Path, *, private: bool = False) -> os.stat_result:
    """Raise NotOurs unless ``path`` is a directory we own that nobody else can write, in
    parents nobody else can change (``_walk``); OSError when it is missing.

    With ``private``, a mode that still lets group or others read is tightened to 0700:
    nobody else could write to it, so nothing in it was planted."""
    fd = open_ours(path, private=private)
    try:
        return os.fstat(fd)
    finally:
        os.close(fd)


def open_ours(path: Path | str, *, private: bool = False) -> int:
    """A descriptor of the existing directory ``path`` after check_dir's checks: what is
    read through it is what was checked. Raise NotOurs or OSError."""
    return _checked(_walk(os.path.abspath(path), create=False), private)


def _checked(fd: int, private: bool) -> int:
    try:
        st = os.fstat(fd)
        why = problem(st)
        if why:
            raise NotOurs(why)
        if private and st.st_mode & 0o077:
            os.fchmod(fd, 0o700)
        return fd
    except BaseException:
        os.close(fd)
        raise


def ensure_dir(
    path: Path, variable: str, *, private: bool = False, what: str = "directory"
) -> Path:
    """Create ``path`` and any missing parents (each 0700), then make sure it is ours;
    raise DirUnusable. Every component is opened from the root down without following
    a link another user could have made (``_walk``)."""
    hint = f"set {variable} to a directory of your own"
    path = Path(os.path.abspath(path))
    try:
        os.close(_checked(_walk(str(path), create=True), private))
    except NotOurs as exc:
        raise DirUnusable(
            f"cannot use the {what} {path}: {exc} ({hint})", path=path, variable=variable
        ) from None
    except OSError as exc:
        raise DirUnusable(
            f"cannot create the {what} {path}: {exc.strerror or exc} ({hint})",
            path=path,
            variable=variable,
        ) from None
    return path


_MAX_LINKS = 40  # as the kernel's own limit on links followed in one lookup


def _walk(path: str, *, create: bool) -> int:
    """A descriptor of the directory ``path`` (absolute); with ``create``, made (0700)
    where missing, else FileNotFoundError.

    Root running wf with another user's HOME must not let that user steer it: a link in
    ``~/.cache`` could send wf's writes into any directory of root's, and a directory
    that user owns lets them swap what wf checked for a link before wf uses it. So each
    parent is opened with O_NOFOLLOW from the root down and must be owned by us or root
    and not writable by others (a sticky one such as /tmp is fine: nobody can replace
    what another put there) nor by a group other than ours. A link is followed only
    when it is owned by us or root and sits in such a directory: nobody else could have
    made it. The last component is never followed: the caller checks what it is."""
    # Reversed, so that the next name is a pop() from the end (a link's target is pushed).
    todo = [name for name in reversed(path.split("/")) if name and name != "."]
    done: list[str] = []  # where we are, for messages only
    fd = open_dir("/")
    links = 0
    uid, gid = os.geteuid(), os.getegid()
    try:
        while todo:
            name = todo.pop()
            _trusted_parent(os.fstat(fd), done, uid, gid)
            try:
                nxt = open_dir(name, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o700, dir_fd=fd)
                except FileExistsError:
                    pass
                nxt = open_dir(name, dir_fd=fd)  # a link raced in: ELOOP, refused
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                if not todo:
                    raise NotOurs("it is a symbolic link or not a directory") from None
                entry = os.stat(name, dir_fd=fd, follow_symlinks=False)
                here = _shown([*done, name])
                if not stat.S_ISLNK(entry.st_mode):
                    raise NotOurs(f"its parent {here} is not a directory") from None
                if entry.st_uid not in (uid, 0):
                    raise NotOurs(
                        f"its parent {here} is a link owned by uid {entry.st_uid}, "
                        f"not by us or root"
                    ) from None
                links += 1
                if links > _MAX_LINKS:
                    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP)) from None
                target = os.readlink(name, dir_fd=fd)
                if target.startswith("/"):
                    os.close(fd)
                    fd = -1
                    fd = open_dir("/")
                    done = []
                todo.extend(n for n in reversed(target.split("/")) if n and n != ".")
                continue
            os.close(fd)
            fd = nxt
            if name == "..":
                del done[-1:]
            else:
                done.append(name)
        return fd
    except BaseException:
        if fd >= 0:
            os.close(fd)
        raise


def _shown(names: list[str]) -> str:
    return "/" + "/".join(names)


def _trusted_parent(st: os.stat_result, where: list[str], uid: int, gid: int) -> None:
    """Raise NotOurs unless nobody but us and root can change what is in this directory."""
    if st.st_uid != uid and st.st_uid != 0:
        raise NotOurs(f"its parent {_shown(where)} is owned by uid {st.st_uid}, not by us or root")
    mode = st.st_mode
    if mode & 0o022 and not mode & stat.S_ISVTX and (mode & 0o002 or st.st_gid != gid):
        raise NotOurs(
            f"its parent {_shown(where)} is writable by others (mode {stat.S_IMODE(mode):04o})"
        )


# platformdirs' Unix answers for the kinds asked here: the XDG variable when it holds an
# absolute path, else the default under an absolute HOME (tests/test_paths_xdg.py holds
# both to platformdirs). Importing platformdirs costs about 5 ms of every search (its unix
# module brings tempfile, shutil, bz2, lzma and random), a tenth of the imports we own.
_XDG = {
    "cache": ("XDG_CACHE_HOME", "~/.cache"),
    "state": ("XDG_STATE_HOME", "~/.local/state"),
    "config": ("XDG_CONFIG_HOME", "~/.config"),
}


def xdg_path(kind: str, app: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """Where platformdirs would put ``kind`` on Linux, or None when only it can tell
    (another platform, Android, a HOME that is unset or relative). ``environ`` stands in
    for os.environ."""
    env = os.environ if environ is None else environ
    if not sys.platform.startswith("linux") or kind not in _XDG:
        return None
    if "ANDROID_DATA" in env or "ANDROID_ROOT" in env:
        return None
    name, default = _XDG[kind]
    base = env.get(name, "")
    if not os.path.isabs(base):
        home = env.get("HOME")
        if home is None or not os.path.isabs(home):
            return None
        base = os.path.join(home, default.removeprefix("~/"))
    return Path(os.path.join(base, app))


def _platform(kind: str, app: str, variable: str, environ: Mapping[str, str] | None = None) -> Path:
    fast = xdg_path(kind, app, environ)
    if fast is not None:
        return fast
    if environ is not None:
        # platformdirs reads os.environ, which a caller's own environment replaces whole.
        raise DirUnusable(
            f"no {kind} dir for {app} in the environment given (set {variable}, or "
            f"XDG_{kind.upper()}_HOME or HOME to an absolute path)",
            path=Path(),
            variable=variable,
        )
    import warnings

    import platformdirs

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # stderr carries one line per diagnostic, ours
            return Path(getattr(platformdirs, f"user_{kind}_dir")(app, appauthor=False))
    except (OSError, RuntimeError, KeyError) as exc:
        raise DirUnusable(
            f"no {kind} dir for {app}: {exc} (set {variable} to a directory of your own)",
            path=Path(),
            variable=variable,
        ) from None


def _override(variable: str, environ: Mapping[str, str] | None = None) -> Path | None:
    value = (os.environ if environ is None else environ).get(variable, "").strip()
    if not value:
        return None
    if environ is not None and (value == "~" or value.startswith("~/")):
        # expanduser would read os.environ's HOME: the given environment's, else the
        # password database's (as expanduser does without HOME).
        home = environ.get("HOME", "")
        if not os.path.isabs(home):
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        return Path(home) / value[2:]
    return Path(value).expanduser()


def scratch_dir(*, create: bool = True) -> Path:
    """Saved bodies and full views (``--save``, auto-save, binary answers)."""
    path = _override("WF_SCRATCH_DIR") or _platform("cache", "wf", "WF_SCRATCH_DIR")
    return ensure_dir(path, "WF_SCRATCH_DIR", what="scratch dir") if create else path


def cache_dir(
    tool: str = "wf", *, create: bool = True, environ: Mapping[str, str] | None = None
) -> Path:
    """A tool's cache (wf's HTTP cache of ``--cache``, ws's results), overridable by
    <TOOL>_CACHE_DIR. wf's platform cache dir is also its scratch dir: the HTTP cache gets
    a directory of its own there, so that size caps and clean-up of saved files and of
    cache entries never meet. ``environ`` (here and below) stands in for os.environ, whole:
    a library caller's own environment."""
    variable = f"{tool.upper()}_CACHE_DIR"
    path = _override(variable, environ)
    if path is None:
        path = _platform("cache", tool, variable, environ)
        if tool == "wf":
            path = path / "http"
    return ensure_dir(path, variable, what="cache dir") if create else path


def state_dir(
    tool: str = "wf", *, create: bool = True, environ: Mapping[str, str] | None = None
) -> Path:
    variable = f"{tool.upper()}_STATE_DIR"
    path = _override(variable, environ) or _platform("state", tool, variable, environ)
    return ensure_dir(path, variable, what="state dir") if create else path


def runtime_dir(*, create: bool = True) -> Path:
    """Locks, keep-alive state and (without /dev/shm) browser profiles; always 0700."""
    explicit = _override("WF_RUNTIME_DIR")
    if explicit is not None:
        return (
            ensure_dir(explicit, "WF_RUNTIME_DIR", private=True, what="runtime dir")
            if create
            else explicit
        )
    if _fallback is not None:
        return _fallback[0]
    xdg = os.environ.get("XDG_RUNTIME_DIR", "").strip()
    if xdg and os.path.isabs(xdg):
        # sudo and su keep the invoking user's XDG_RUNTIME_DIR: used only when it is ours
        # and 0700, as the XDG spec requires.
        try:
            usable = not (check_dir(Path(xdg)).st_mode & 0o077)
        except (OSError, NotOurs):
            usable = False
        if usable:
            path = Path(xdg) / "wf"
            return (
                ensure_dir(path, "WF_RUNTIME_DIR", private=True, what="runtime dir")
                if create
                else path
            )
    import tempfile  # with shutil and random: only a run that needs a runtime dir pays

    path = Path(tempfile.gettempdir()) / f"wf-runtime-{os.geteuid()}"
    if not create:
        return path
    try:
        return ensure_dir(path, "WF_RUNTIME_DIR", private=True, what="runtime dir")
    except DirUnusable as exc:
        return _fresh_runtime(path, exc.message)


def _fresh_runtime(usual: Path, why: str) -> Path:
    import tempfile

    global _fallback
    try:
        fresh = Path(tempfile.mkdtemp(prefix=f"{usual.name}-", dir=usual.parent))
    except OSError as exc:
        raise DirUnusable(
            f"{why}; and no private directory in {usual.parent}: {exc.strerror or exc}",
            path=usual,
            variable="WF_RUNTIME_DIR",
        ) from None
    _fallback = (fresh, why)
    atexit.register(_remove_quietly, fresh)
    return fresh


def runtime_fallback() -> str | None:
    """Why this process uses a runtime dir of its own, or None when it uses the usual one."""
    return _fallback[1] if _fallback is not None else None


def config_dir(
    tool: str = "wf", *, create: bool = False, environ: Mapping[str, str] | None = None
) -> Path:
    variable = f"{tool.upper()}_CONFIG_DIR"
    path = _override(variable, environ) or _platform("config", tool, variable, environ)
    if create:
        return ensure_dir(path, variable, what="config dir")
    try:
        # Read only: a dotfiles symlink is fine, a directory a stranger can write is not.
        st = os.stat(path)
    except OSError:
        return path
    if stat.S_ISDIR(st.st_mode) and (st.st_uid not in (os.geteuid(), 0) or st.st_mode & 0o022):
        raise UsageError(
            f"cannot use the config dir {path}: owned by uid {st.st_uid}, mode {stat.S_IMODE(st.st_mode):04o} "
            f"(it must be yours and not writable by others; set {variable})"
        )
    return path


def _remove_quietly(path: Path) -> None:
    try:
        remove_tree(path)
    except OSError:
        pass


def remove_tree(path: Path | str) -> None:
    """Remove ``path`` and everything under it without following a symbolic link anywhere.

    The walk works on descriptors (shutil.rmtree's fd-based version, given the parent's
    descriptor): a symlink planted inside is unlinked, never entered, and a symlink in
    place of ``path`` itself is unlinked, not followed.
    """
    import shutil

    if not shutil.rmtree.avoids_symlink_attacks:  # pragma: no cover (Linux always has it)
        return
    path = Path(path)
    try:
        parent = open_dir(path.parent)
    except OSError:
        return
    try:
        try:
            st = os.stat(path.name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            return
        if not stat.S_ISDIR(st.st_mode):
            os.unlink(path.name, dir_fd=parent)
            return
        shutil.rmtree(path.name, dir_fd=parent)
    finally:
        os.close(parent)
