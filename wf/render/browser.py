"""Find, launch and kill Chromium; the launch circuit breaker.

A launched browser lives in its own process group with a fresh 0700 profile directory
that also holds its TMPDIR, XDG config and cache dirs, so killing the group and removing
the directory leaves nothing behind. A private browser gets PR_SET_PDEATHSIG, so it dies
with the thread that started it even when wf is killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from common.errors import RenderError, Timeout

BROWSER_NAMES = (
    "google-chrome",
    "google-chrome-stable",
    "chromium",
    "chromium-browser",
    "microsoft-edge",
    "brave-browser",
)
LAUNCH_TIMEOUT = 15.0
PROFILE_PREFIX = "chrome-"

# Background services that would otherwise start timers, fetch models or phone home;
# in the default profile they also cost start-up time.
_DISABLED_FEATURES = (
    "NetworkTimeServiceQuerying",
    "MediaRouter",
    "DialMediaRouteProvider",
    "Translate",
    "OptimizationHints",
    "OptimizationGuideModelDownloading",
    "OptimizationGuideOnDeviceModel",
    "AutofillServerCommunication",
    "CertificateTransparencyComponentUpdater",
    "InterestFeedContentSuggestions",
    "DnsOverHttps",
    # Each new window (one per incognito context) otherwise loads the omnibox popup as
    # two WebUI pages in a renderer of their own: measured on Chromium 156, 0.7 s of
    # CPU per context and about a quarter of a core while idle; the context took
    # 0.24 s to set up with them and 0.16 to 0.18 s without.
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    "WebUIOmniboxFullPopup",
)

BASE_FLAGS = (
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
    "--disable-features=" + ",".join(_DISABLED_FEATURES),
    # No initial tab: measured 0.1 to 0.2 s faster to a usable DevTools socket.
    "--no-startup-window",
    # Our targets are never "visible"; their timers must still run at full speed.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    # WebRTC may only use the proxy (our policy proxy), never its own UDP sockets.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    # Outside our contexts (each has its own policy proxy) every request goes to a
    # closed port: the browser's own background traffic fails closed. "<-loopback>"
    # stops Chromium from sending loopback and link-local addresses around it.
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    # Names are resolved by the policy proxy only, never by the browser itself.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)


class BrowserMissing(RenderError):
    """No browser to launch; it does not count as a launch failure."""


def find_browser(explicit: str | None = None) -> str:
    """WF_RENDER_BROWSER (an absolute path) first, then the usual names on PATH."""
    if explicit:
        path = Path(explicit)
        if not path.is_absolute():
            raise BrowserMissing(f"WF_RENDER_BROWSER must be an absolute path, not {explicit!r}")
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise BrowserMissing(f"WF_RENDER_BROWSER={explicit} is not an executable file")
        return str(path)
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return unwrap(found)
    raise BrowserMissing(
        "no Chromium-based browser found (install chromium, e.g. apt-get install chromium, "
        "or set WF_RENDER_BROWSER to its path)"
    )


_SCRIPT_VAR = re.compile(rb"^(LIBDIR|APPNAME)=([\w./+${}-]+)\s*$", re.MULTILINE)


def unwrap(path: str) -> str:
    """The binary behind Debian's and Ubuntu's chromium shell wrapper.

    The wrapper (LIBDIR=/usr/lib/chromium, APPNAME=chromium, then exec) costs about
    50 ms of shell start-up and adds only flags we do not want (extensions, API keys)
    or set ourselves (--disable-dev-shm-usage). Anything else is returned as it is.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(16384)
    except OSError:
        return path
    if not head.startswith(b"#!"):
        return path
    found = dict(_SCRIPT_VAR.findall(head))
    if b"LIBDIR" not in found or b"APPNAME" not in found:
        return path
    app = os.fsdecode(found[b"APPNAME"])
    libdir = os.fsdecode(found[b"LIBDIR"]).replace("${APPNAME}", app).replace("$APPNAME", app)
    if "$" in app + libdir:
        return path
    real = os.path.join(libdir, app)
    try:
        with open(real, "rb") as fh:
            is_elf = fh.read(4) == b"\x7fELF"
    except OSError:
        return path
    return real if is_elf and os.access(real, os.X_OK) else path


def launch_args(binary: str, profile: Path) -> list[str]:
    args = [binary, *BASE_FLAGS]
    args.append(f"--user-data-dir={profile / 'data'}")
    args.append(f"--disk-cache-dir={profile / 'cache' / 'disk'}")
    if os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start its sandbox as root
    if _small_dev_shm():
        args.append("--disable-dev-shm-usage")
    return args


def _small_dev_shm() -> bool:
    # Containers often give /dev/shm 64 MB, which Chromium outgrows and then crashes.
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return True
    return st.f_bavail * st.f_frsize < 512 * 1024 * 1024


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


@dataclass
class Launched:
    """A running browser: its DevTools endpoint and what it takes to clean it up."""

    pid: int
    port: int
    ws_path: str
    profile: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{self.ws_path}"

    def page_ws_url(self, target_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/devtools/page/{target_id}"

    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        return running(self.pid)

    def kill(self) -> None:
        """Kill every process of this browser and remove its profile; idempotent."""
        kill_browser(self.pid, self.profile, self.proc)


def launch(
    binary: str,
    *,
    profile_root: Path,
    deadline: float,
    owner: int | None = None,
    abort: threading.Event | None = None,
) -> Launched:
    """Start the browser and wait for its DevTools port. Raises RenderError or Timeout;
    gives up (RenderError) as soon as ``abort`` is set."""
    sweep_stale_profiles(profile_root)
    profile = Path(
        tempfile.mkdtemp(prefix=f"{PROFILE_PREFIX}{owner or os.getpid()}-", dir=profile_root)
    )
    try:
        env = launch_env(profile)
        log = open(profile / "stderr.log", "wb")  # noqa: SIM115 (the child keeps it)
        try:
            proc = _spawn(launch_args(binary, profile), env, log)
        finally:
            log.close()
    except OSError as exc:
        remove_profile(profile)
        raise RenderError(f"cannot start {binary}: {exc.strerror or exc}") from None
    launched = Launched(pid=proc.pid, port=0, ws_path="", profile=profile, proc=proc)
    try:
        launched.port, launched.ws_path = _wait_for_port(launched, binary, deadline, abort)
    except BaseException:
        launched.kill()
        raise
    return launched


def _spawn(args: list[str], env: dict[str, str], log: object) -> subprocess.Popen[bytes]:
    """Popen from a thread that lives exactly as long as the browser.

    PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process: a
    render called from a short-lived pool thread must not take the browser down with it.
    """
    import ctypes

    from common import watchdog

    prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved before fork
    box: dict[str, object] = {}
    started = threading.Event()

    def child_setup() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG

    def keeper() -> None:
        # The browser dies with this thread, and this thread (the worker process) with the
        # watchdog's supervisor, even when that one is killed with SIGKILL.
        watchdog.die_with_supervisor()
        try:
            proc = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,  # type: ignore[arg-type]
                env=env,
                close_fds=True,
                start_new_session=True,
                preexec_fn=child_setup,  # noqa: PLW1509 (only a pre-resolved prctl call)
            )
        except OSError as exc:
            box["error"] = exc
            started.set()
            return
        box["proc"] = proc
        started.set()
        proc.wait()

    threading.Thread(target=keeper, name="wf-browser", daemon=True).start()
    started.wait()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["proc"]  # type: ignore[return-value]


def _wait_for_port(
    launched: Launched, binary: str, deadline: float, abort: threading.Event | None
) -> tuple[int, str]:
    limit = min(deadline, time.monotonic() + LAUNCH_TIMEOUT)
    port_file = launched.profile / "data" / "DevToolsActivePort"
    while True:
        try:
            lines = port_file.read_text().split()
        except (FileNotFoundError, UnicodeDecodeError):
            lines = []
        if len(lines) >= 2 and lines[0].isdigit():
            return int(lines[0]), lines[1]
        if not launched.alive():
            code = launched.proc.returncode if launched.proc else None
            raise RenderError(
                f"{binary} exited during launch (code {code}){_stderr_tail(launched.profile)}"
            )
        if abort is not None and abort.is_set():
            raise RenderError("browser launch abandoned: wf is shutting down")
        now = time.monotonic()
        if now >= limit:
            if limit >= deadline:
                raise Timeout("timed out launching the browser (the render deadline passed)")
            raise RenderError(
                f"{binary} did not open its DevTools port within {LAUNCH_TIMEOUT:g} s"
            )
        time.sleep(min(0.005, limit - now))


def _stderr_tail(profile: Path) -> str:
    try:
        text = (profile / "stderr.log").read_bytes()[-4000:].decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and "dbus" not in ln]
    return f": {lines[-1][:300]}" if lines else ""


# ---------------------------------------------------------------- cleanup


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


# ---------------------------------------------------------------- circuit breaker


class CircuitBreaker:
    """Two launch failures in a row stop launch attempts for five minutes.

    The state lives in a file, so a cron job that runs wf every minute does not try
    (and fail) to start a broken browser every minute.
    """

    THRESHOLD = 2
    COOL_DOWN = 300.0

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, float]:
        try:
            data = json.loads(read_private(self.path))
            return {"failures": float(data["failures"]), "last": float(data["last"])}
        except (OSError, ValueError, KeyError, TypeError):
            return {"failures": 0.0, "last": 0.0}

    def check(self) -> None:
        state = self._read()
        if state["failures"] < self.THRESHOLD:
            return
        wait = self.COOL_DOWN - (time.time() - state["last"])
        if wait > 0:
            raise RenderError(
                f"browser launch failed {int(state['failures'])} times in a row; not trying again "
                f"for {wait:.0f} s (circuit breaker; delete {self.path} to retry now)"
            )

    def failed(self) -> None:
        # After a cool-down one attempt is let through; if it fails too the count is
        # still past the threshold, so the breaker opens again at once.
        state = self._read()
        self._write({"failures": state["failures"] + 1, "last": time.time()})

    def succeeded(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()

    def _write(self, state: dict[str, float]) -> None:
        # Only a convenience: a state dir that cannot be written leaves the breaker off.
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_private(self.path, json.dumps(state))


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
