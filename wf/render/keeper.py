"""WF_RENDER_KEEPALIVE=S: one browser shared by wf processes, stopped after S seconds idle.

A small keeper process (``python -m wf.render.keeper``) owns the browser: it launches it
(the browser dies with the keeper through PR_SET_PDEATHSIG), talks to it over its DevTools
pipe, relays that pipe to a Unix socket only our uid may use (wf/render/relay.py), writes
a state file with the pids, and removes browser, profile, socket and state once nobody
has used it for S seconds, or at once when asked (``stop``: ``wf --render-stop``,
wf.stop_render_keepalive). In the runtime dir (0700):

- ``launch.lock``: held while a wf process looks for a browser or starts a keeper, and
  by a keeper while it shuts down, so concurrent wf processes start one browser;
- ``users.lock``: each wf process using the browser holds it shared; the keeper stops
  only when it can take it exclusively;
- ``keeper.json``: keeper pid, browser pid, profile, and for each pid what identifies
  the process (uid, start time, executable). Its mtime is the last use;
- ``browser.sock``: the relay, 0600; a connecting process must have our uid, and wf
  checks that the listener is the recorded keeper.

When its browser is gone the keeper removes the state file, both locks and the directory
(under launch.lock, and only when no user holds users.lock and no newer keeper serves
from it). A process that waited on a lock file removed meanwhile sees, once it holds the
lock, that the name no longer leads to its file, and opens the new one (``file_lock``).

The runtime dir is used only when it is ours (common/paths.py); even so, locks and the
state file are opened with O_NOFOLLOW and must be regular files of ours, and a pid from
the state file is signalled only while it is still the process that was recorded
(procs.is_ours, through a pidfd so the pid cannot be reused in between). A forged or
stale state file is thrown away, never acted on.

No TCP port is opened: another local user can neither open the socket (mode, directory,
peer uid) nor reach the browser any other way (man wf, SECURITY).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, cast

from common.errors import RenderError, Timeout, ToolError
from wf.render.chromium import LAUNCH_TIMEOUT, Launched, launch
from wf.render.locks import file_lock, open_lock, still_named
from wf.render.procs import identity, is_ours, kill_browser, sweep_stale_profiles
from wf.render.profiles import profile_root
from wf.render.relay import SOCKET
from wf.render.state import read_private, write_private
from wf.render.wire import Wire

STATE = "keeper.json"
ERROR = "keeper.error"
LAUNCH_LOCK = "launch.lock"
USERS_LOCK = "users.lock"
TICK = 0.25


def keepalive_dir() -> Path:
    """The keepers' directory in the runtime dir. Raises RenderError when there is none
    that other wf processes could find (the runtime dir is a private one of this process)."""
    from common.paths import DirUnusable, ensure_dir, runtime_dir, runtime_fallback

    try:
        root = runtime_dir()
    except DirUnusable as exc:
        raise RenderError(exc.message) from None
    why = runtime_fallback()
    if why is not None:
        raise RenderError(f"keep-alive is off: {why}")
    try:
        return ensure_dir(
            root / "render-keepalive", "WF_RUNTIME_DIR", private=True, what="keep-alive dir"
        )
    except DirUnusable as exc:
        raise RenderError(exc.message) from None


@dataclass
class SharedBrowser:
    launched: Launched
    users_fd: int
    state_path: Path

    def release(self) -> None:
        self.launched.wire.close()
        with contextlib.suppress(OSError, NotImplementedError):
            os.utime(self.state_path, follow_symlinks=False)
        with contextlib.suppress(OSError):
            os.close(self.users_fd)


def attach(binary: str, idle: float, *, deadline: float, root: Path | None = None) -> SharedBrowser:
    """Use the shared browser, starting a keeper for it when none is running."""
    import fcntl

    root = root or keepalive_dir()
    with file_lock(root / LAUNCH_LOCK, deadline=deadline):
        state = read_state(root)
        wire = _connect(root, state, deadline) if state is not None else None
        if state is not None and wire is None:
            stop_keeper(state)
            state = None
        if state is None or wire is None:
            state = _start_keeper(binary, idle, root, deadline)
            wire = _connect(root, state, deadline)
            if wire is None:
                stop_keeper(state)
                raise RenderError("the keep-alive keeper started but its socket does not answer")
        try:
            users_fd = open_lock(root / USERS_LOCK)
        except BaseException:
            wire.close()
            raise
        # Never blocks: the keeper only tries, under launch.lock.
        fcntl.flock(users_fd, fcntl.LOCK_SH)
    state_path = root / STATE
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(state_path, follow_symlinks=False)
    launched = Launched(pid=state["browser_pid"], profile=Path(state["profile"]), wire=wire)
    return SharedBrowser(launched=launched, users_fd=users_fd, state_path=state_path)


class KeeperState(TypedDict):
    """keeper.json as read_state accepts it (the keeper also writes its binary)."""

    keeper_pid: int
    keeper: dict[str, object]  # procs.identity of the keeper
    browser_pid: int
    browser: dict[str, object]  # procs.identity of the browser
    profile: str


# What read_state checks before it trusts the file as a KeeperState.
_FIELDS: dict[str, type | tuple[type, ...]] = {
    "keeper_pid": int,
    "keeper": dict,
    "browser_pid": int,
    "browser": dict,
    "profile": str,
}


def read_state(root: Path) -> KeeperState | None:
    """The state file, when it is a file of ours with every field of the right type."""
    try:
        data = json.loads(read_private(root / STATE))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for key, kind in _FIELDS.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            return None
    return cast(KeeperState, data)


def _connect(root: Path, state: KeeperState, deadline: float) -> Wire | None:
    """A wire to the recorded keeper's browser, or None when it does not serve any more."""
    from wf.render.relay import connect

    if not (
        is_ours(state["keeper_pid"], state["keeper"])
        and is_ours(state["browser_pid"], state["browser"])
    ):
        return None
    try:
        return connect(
            root, state["keeper_pid"], timeout=min(1.0, max(0.05, deadline - time.monotonic()))
        )
    except OSError:
        return None


def stop_keeper(state: KeeperState) -> None:
    """Stop a keeper that no longer serves (its browser died or stopped answering).

    Only the keeper that was recorded: a pid that is now another process (reused, or
    written by someone else) is left alone."""
    pid, recorded = state["keeper_pid"], state["keeper"]
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return  # gone already
    try:
        # Checked after the pidfd exists: the pidfd names the process that was checked.
        if not is_ours(pid, recorded):
            return
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(pidfd, signal.SIGTERM)
        limit = time.monotonic() + 3.0
        while is_ours(pid, recorded) and time.monotonic() < limit:
            time.sleep(0.02)
        if is_ours(pid, recorded):
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    finally:
        os.close(pidfd)


def stop(*, deadline: float) -> KeeperState | None:
    """Stop the shared browser now (``wf --render-stop``, wf.stop_render_keepalive): the
    state of the keeper stopped, or None when none was running. Returns once the keeper
    and every process of its browser are gone.

    Under launch.lock, so that no wf starts a keeper or attaches meanwhile; a wf that is
    rendering through it at this moment loses its browser, as in a crash. The keeper
    cannot take launch.lock to retire, so its files are removed here."""
    from common.paths import DirUnusable, runtime_dir

    try:
        if not (runtime_dir(create=False) / "render-keepalive").is_dir():
            return None  # no keeper ever served from here, or the last one retired
    except DirUnusable:
        return None
    root = keepalive_dir()
    with file_lock(root / LAUNCH_LOCK, deadline=deadline):
        state = read_state(root)
        if state is None:
            return None
        running = is_ours(state["browser_pid"], state["browser"])
        if is_ours(state["keeper_pid"], state["keeper"]):
            running = True
            stop_keeper(state)  # SIGTERM: it kills its browser; SIGKILL after 3 s
            limit = time.monotonic() + 2.0
            while is_ours(state["keeper_pid"], state["keeper"]) and time.monotonic() < limit:
                time.sleep(0.01)
        # A keeper killed outright leaves its browser to PR_SET_PDEATHSIG, and helpers
        # that left the browser's group to nobody: ended here, the profile with them.
        profile = Path(state["profile"])
        if is_ours(state["browser_pid"], state["browser"]):
            kill_browser(state["browser_pid"], profile)
        sweep_stale_profiles(profile.parent)
        _clear(root, state["keeper_pid"])
    return state if running else None


def _start_keeper(binary: str, idle: float, root: Path, deadline: float) -> KeeperState:
    from wf.render import detach

    with contextlib.suppress(FileNotFoundError):
        (root / STATE).unlink()
    with contextlib.suppress(FileNotFoundError):
        (root / ERROR).unlink()
    env = dict(os.environ)
    project = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (project, env.get("PYTHONPATH", "")) if p)
    # Its own session, no inherited stdio: Ctrl-C in the terminal and a reader waiting
    # for the end of wf's output must not involve the keeper. Not our child (detach.py):
    # it would stay a zombie in a long-lived caller once it retires.
    args = [sys.executable, "-m", "wf.render.keeper", binary, repr(idle), str(root)]
    try:
        pid, pidfd = detach.start(args, env, deadline=deadline)
    except RenderError as exc:
        raise RenderError(_error_message(root) or exc.message) from None
    try:
        while True:
            state = read_state(root)
            if state is not None and state.get("keeper_pid") == pid:
                return state
            if detach.ended(pidfd):
                message = _error_message(root) or "the keep-alive keeper exited before it served"
                raise RenderError(message)
            if time.monotonic() >= deadline:
                with contextlib.suppress(OSError):
                    signal.pidfd_send_signal(pidfd, signal.SIGTERM)
                raise Timeout("timed out starting the shared browser")
            time.sleep(0.01)
    finally:
        os.close(pidfd)


def _error_message(root: Path) -> str:
    try:
        message = read_private(root / ERROR).strip()
    except (OSError, ValueError):
        return ""
    return message or "the keep-alive keeper failed to start the browser"


# ---------------------------------------------------------------- the keeper process


def _serve(binary: str, idle: float, root: Path) -> int:
    from wf.render import relay

    stop: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        stop.append(signum)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    os.umask(0o077)  # the socket, like every file of ours, is private from its creation
    try:
        launched = launch(
            binary,
            profile_root=profile_root(),
            deadline=time.monotonic() + LAUNCH_TIMEOUT,
            owner=os.getpid(),
        )
    except ToolError as exc:
        with contextlib.suppress(OSError):
            write_private(root / ERROR, exc.message + "\n")
        return 1
    try:
        listener, bound = relay.listen(root)
        # Downloads refused for the whole browser; each wf also refuses them per context.
        launched.wire.call_raw("Browser.setDownloadBehavior", {"behavior": "deny"})
    except OSError as exc:
        launched.kill()
        with contextlib.suppress(OSError):
            write_private(root / ERROR, f"the keep-alive keeper cannot listen: {exc}\n")
        return 1
    state = {
        "keeper_pid": os.getpid(),
        "keeper": identity(os.getpid()),
        "browser_pid": launched.pid,
        "browser": identity(launched.pid),
        "profile": str(launched.profile),
        "binary": binary,
    }
    state_path = root / STATE
    write_private(state_path, json.dumps(state))

    def keep_going() -> bool:
        if stop or not launched.alive():
            return False
        return not (_idle_for(state_path) >= idle and _shut_if_unused(root, state_path, idle))

    try:
        relay.serve(launched.wire, listener, keep_going=keep_going, tick=TICK)
    finally:
        _unlink_socket(root, bound)
        launched.kill()
        _retire(root)
    return 0


def _unlink_socket(root: Path, bound: tuple[int, int]) -> None:
    """Our socket's name, unless a newer keeper has bound its own there meanwhile."""
    with contextlib.suppress(OSError):
        st = os.lstat(root / SOCKET)
        if (st.st_dev, st.st_ino) == bound:
            (root / SOCKET).unlink()


def _retire(root: Path) -> None:
    """The browser is gone: remove our state file, then the lock files and the directory,
    unless someone is starting a browser (launch.lock held), a newer keeper serves from
    here, or a user still holds users.lock (it finds no state next time and starts anew)."""
    import fcntl

    try:
        launch_fd = open_lock(root / LAUNCH_LOCK)
    except RenderError:
        return
    try:
        try:
            fcntl.flock(launch_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        if still_named(launch_fd, root / LAUNCH_LOCK):
            _clear(root, os.getpid())
    finally:
        os.close(launch_fd)


def _clear(root: Path, keeper_pid: int) -> None:
    """Under launch.lock, the keeper ``keeper_pid`` gone: its state file, then both lock
    files and the directory when no user holds users.lock and no newer keeper serves."""
    import fcntl

    current = read_state(root)
    if current is not None:
        if current.get("keeper_pid") != keeper_pid:
            return
        try:
            (root / STATE).unlink()
        except FileNotFoundError:
            pass
        except OSError:
            return
    try:
        users_fd = open_lock(root / USERS_LOCK)
    except RenderError:
        return
    try:
        fcntl.flock(users_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        # Both held: nobody is between opening and locking either file (attach opens
        # users.lock only under launch.lock), so removing them strands no one.
        for name in (USERS_LOCK, LAUNCH_LOCK):
            with contextlib.suppress(FileNotFoundError):
                (root / name).unlink()
        with contextlib.suppress(OSError):
            root.rmdir()  # only when empty (a launch error file stays for the next wf)
    except OSError:  # BlockingIOError: a user still holds it
        return
    finally:
        os.close(users_fd)


def _idle_for(state_path: Path) -> float:
    try:
        return time.time() - os.lstat(state_path).st_mtime
    except OSError:
        return float("inf")  # our state file is gone: nobody can find us any more


def _shut_if_unused(root: Path, state_path: Path, idle: float) -> bool:
    """Under launch.lock, with no user holding users.lock: still idle? Then stop."""
    import fcntl

    fds = []
    try:
        for name in (LAUNCH_LOCK, USERS_LOCK):
            try:
                fd = open_lock(root / name)
            except RenderError:
                return True  # our directory is not ours any more: stop serving from it
            fds.append(fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            if not still_named(fd, root / name):
                return False  # another keeper retired these files: try again next tick
        if _idle_for(state_path) < idle:
            return False
        with contextlib.suppress(FileNotFoundError):
            state_path.unlink()  # from here on, a new wf starts a new keeper
        return True
    finally:
        for fd in fds:
            os.close(fd)


def main(argv: list[str]) -> int:
    from wf.render.detach import detach

    binary, idle, root = argv[0], float(argv[1]), Path(argv[2])
    detach()
    return _serve(binary, idle, root)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
