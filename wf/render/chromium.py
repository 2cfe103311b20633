"""Find and launch Chromium.

A launched browser lives in its own process group with a fresh profile directory
(wf/render/profiles.py), so killing the group (wf/render/procs.py) and removing the
directory leaves nothing behind. A private browser gets PR_SET_PDEATHSIG, so it dies
with the thread that started it even when wf is killed with SIGKILL.

DevTools goes over ``--remote-debugging-pipe`` (the browser's fds 3 and 4), never a port:
a port on 127.0.0.1 lets any local user drive the browser as us (read our files through
a file input, write them through a download). The browser also exits when its pipe
closes, which happens however wf ends.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from common.errors import RenderError, Timeout
from wf.render.procs import kill_browser, running, sweep_stale_profiles
from wf.render.profiles import PROFILE_PREFIX, launch_env, remove_profile
from wf.render.wire import Wire

BROWSER_NAMES = (
    "google-chrome",
    "google-chrome-stable",
    "chromium",
    "chromium-browser",
    "microsoft-edge",
    "brave-browser",
)
LAUNCH_TIMEOUT = 15.0

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
    # No initial tab: measured 0.1 to 0.2 s faster to a usable DevTools connection.
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
    # DevTools on fds 3 and 4 only: no socket another local user could reach.
    "--remote-debugging-pipe",
)
# Puts the pipe's ends at fds 3 and 4, where Chromium looks for them. Popen cannot place
# a descriptor at a given number (its own error pipe may hold 3 or 4, and close_fds runs
# after preexec_fn), but it places stdin and stdout reliably; the shell moves them.
_PIPE_SHIM = 'exec "$@" 3<&0 4>&1 </dev/null >/dev/null'


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


@dataclass
class Launched:
    """A running browser: its DevTools wire and what it takes to clean it up."""

    pid: int
    profile: Path
    wire: Wire
    proc: subprocess.Popen[bytes] | None = None
    waiter: threading.Thread | None = None  # _spawn's thread, which reaps the browser

    def alive(self) -> bool:
        if self.proc is not None:
            return self.proc.poll() is None
        return running(self.pid)

    def kill(self) -> None:
        """End the browser and remove its profile; idempotent. The pipe is closed first
        (our reader thread ends, and a browser that outlived a SIGKILL below would quit by
        itself), then the whole browser is killed at once: letting it quit by itself was
        measured 100 ms slower to close (bench_render, cold), and its profile is thrown
        away anyway."""
        self.wire.close()
        kill_browser(self.pid, self.profile, self.proc)
        if self.waiter is not None and self.waiter is not threading.current_thread():
            # It has reaped the browser (kill_browser waited for that): it is ending.
            self.waiter.join(1.0)


def launch(
    binary: str,
    *,
    profile_root: Path,
    deadline: float,
    owner: int | None = None,
    abort: threading.Event | None = None,
) -> Launched:
    """Start the browser and wait until it answers on its DevTools pipe. Raises
    RenderError or Timeout; gives up (RenderError) as soon as ``abort`` is set."""
    sweep_stale_profiles(profile_root)
    profile = Path(
        tempfile.mkdtemp(prefix=f"{PROFILE_PREFIX}{owner or os.getpid()}-", dir=profile_root)
    )
    try:
        env = launch_env(profile)
        log = open(profile / "stderr.log", "wb")  # noqa: SIM115 (the child keeps it)
        # Ours: read from_browser, write to_browser; the browser's ends are closed here
        # once it has them, so its exit is our end-of-file, and ours closing is its.
        to_browser, from_browser = os.pipe(), os.pipe()
        try:
            proc, waiter = _spawn(
                launch_args(binary, profile),
                env,
                log,
                stdin=to_browser[0],
                stdout=from_browser[1],
                deadline=deadline,
            )
        except BaseException:
            for fd in (*to_browser, *from_browser):
                os.close(fd)
            raise
        finally:
            log.close()
    except OSError as exc:
        remove_profile(profile)
        raise RenderError(f"cannot start {binary}: {exc.strerror or exc}") from None
    except Timeout:
        remove_profile(profile)
        raise
    os.close(to_browser[0])
    os.close(from_browser[1])
    wire = Wire(from_browser[0], to_browser[1], name="wf-cdp-pipe")
    launched = Launched(pid=proc.pid, profile=profile, wire=wire, proc=proc, waiter=waiter)
    try:
        _wait_for_answer(launched, binary, deadline, abort)
    except BaseException:
        launched.kill()
        raise
    return launched


def _spawn(
    args: list[str],
    env: dict[str, str],
    log: IO[bytes],
    *,
    stdin: int,
    stdout: int,
    deadline: float,
) -> tuple[subprocess.Popen[bytes], threading.Thread]:
    """Popen from a thread that lives exactly as long as the browser.

    PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process: a
    render called from a short-lived pool thread must not take the browser down with it.

    Waited for until the deadline only (Timeout): a fork needs the interpreter's import
    lock, and an exception a signal handler raised inside an import (a caller's cancel)
    can leave that lock held by the main thread for good; the render then hung here.
    """
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved before fork
    # What the thread started: the browser, or the error that stopped it.
    procs: list[subprocess.Popen[bytes]] = []
    failed: list[OSError] = []
    started = threading.Event()
    abandoned: list[bool] = []  # set when we stopped waiting: the browser has no user
    lock = threading.Lock()
    # The thread's own copies, valid until its Popen returns however late: ours are
    # closed by launch() as soon as it stops waiting.
    fds = [os.dup(stdin), os.dup(stdout), os.dup(log.fileno())]

    def child_setup() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG

    def keeper() -> None:
        # The browser dies with this thread; the worker process, with the watchdog's
        # supervisor (common/watchdog.py sets that up).
        try:
            try:
                proc = subprocess.Popen(
                    ["/bin/sh", "-c", _PIPE_SHIM, "sh", *args],
                    stdin=fds[0],
                    stdout=fds[1],
                    stderr=fds[2],
                    env=env,
                    close_fds=True,
                    start_new_session=True,
                    preexec_fn=child_setup,  # noqa: PLW1509 (only a pre-resolved prctl call)
                )
            finally:
                for fd in fds:
                    os.close(fd)
        except OSError as exc:
            failed.append(exc)
            started.set()
            return
        with lock:
            procs.append(proc)
            late = bool(abandoned)
        started.set()
        if late:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    waiter = threading.Thread(target=keeper, name="wf-browser", daemon=True)
    waiter.start()
    if not started.wait(max(0.0, deadline - time.monotonic())):
        with lock:
            if not procs and not failed:
                abandoned.append(True)
                raise Timeout("timed out starting the browser (the render deadline passed)")
    started.wait()  # set at once: the thread has just got its answer
    if failed:
        raise failed[0]
    return procs[0], waiter


def _wait_for_answer(
    launched: Launched, binary: str, deadline: float, abort: threading.Event | None
) -> None:
    """Until the browser answers a first command on its pipe (it reads the pipe once it
    is ready), it exits, ``abort`` is set, or time runs out."""
    import queue

    limit = min(deadline, time.monotonic() + LAUNCH_TIMEOUT)
    box = launched.wire.call_raw("Browser.getVersion")
    while True:
        try:
            answer = box.get(timeout=0.005)
        except queue.Empty:
            answer = {}
        if answer and "result" in answer:
            return
        if answer is None or not launched.alive():
            if launched.proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    launched.proc.wait(timeout=1.0)
            code = launched.proc.returncode if launched.proc else None
            raise RenderError(
                f"{binary} exited during launch (code {code}){_stderr_tail(launched.profile)}"
            )
        if answer:
            raise RenderError(f"{binary} refused DevTools on its pipe: {answer.get('error')}")
        if abort is not None and abort.is_set():
            raise RenderError("browser launch abandoned: wf is shutting down")
        now = time.monotonic()
        if now >= limit:
            if limit >= deadline:
                raise Timeout("timed out launching the browser (the render deadline passed)")
            raise RenderError(
                f"{binary} did not answer on its DevTools pipe within {LAUNCH_TIMEOUT:g} s"
            )


def _stderr_tail(profile: Path) -> str:
    try:
        text = (profile / "stderr.log").read_bytes()[-4000:].decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and "dbus" not in ln]
    return f": {lines[-1][:300]}" if lines else ""
