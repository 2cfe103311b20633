"""Browser discovery, launch, cleanup, the circuit breaker and the keep-alive keeper,
with a fake browser (a shell script): these run anywhere, no Chromium needed."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from common.errors import PolicyRefused, RenderError, Timeout
from common.policy import Policy
from tests.fixtures.render.server import processes_mentioning, wait_until
from tests.helpers import FAKE_CDP, children, fake_browser, group_members
from wf.render import RenderOptions, RenderSession
from wf.render import breaker as breaker_mod
from wf.render import chromium as chromium_mod
from wf.render import keeper as keeper_mod
from wf.render import procs as procs_mod
from wf.render import profiles as profiles_mod
from wf.render.breaker import CircuitBreaker
from wf.render.chromium import BrowserMissing, find_browser, launch
from wf.render.procs import browser_processes, sweep_stale_profiles

# Answers on its DevTools pipe like Chromium, and leaves two helpers that name the profile
# in their command line: one in its process group, one in a session of its own (as
# Chromium's crash handler does).
FAKE = textwrap.dedent(
    f"""\
    echo "$$ TMPDIR=$TMPDIR XDG_CONFIG_HOME=$XDG_CONFIG_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME $*" >> "$FAKE_LOG"
    mkdir -p "$dir"
    case "$FAKE_MODE" in
      exit) echo "[1:1:ERROR] fake browser: cannot start" >&2; exit 3;;
      hang) exec tail -f "$dir/../stderr.log";;
    esac
    tail -f "$dir/../stderr.log" >/dev/null 2>&1 &
    setsid tail -f "$dir/../stderr.log" >/dev/null 2>&1 &
    {FAKE_CDP}
    """
)


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "fake.log"))
    return fake_browser(tmp_path, monkeypatch, FAKE)


def launches(tmp_path: Path) -> list[str]:
    log = tmp_path / "fake.log"
    return log.read_text().splitlines() if log.exists() else []


def root(tmp_path: Path) -> Path:
    r = tmp_path / "profiles"
    r.mkdir(exist_ok=True)
    return r


# ---------------------------------------------------------------- discovery


def test_explicit_browser_must_be_an_absolute_executable(fake: Path, tmp_path: Path) -> None:
    assert find_browser(str(fake)) == str(fake)
    with pytest.raises(BrowserMissing, match="absolute path"):
        find_browser("chromium")
    with pytest.raises(BrowserMissing, match="not an executable"):
        find_browser(str(tmp_path / "nothing"))
    plain = tmp_path / "plain"
    plain.write_text("")
    with pytest.raises(BrowserMissing, match="not an executable"):
        find_browser(str(plain))


def test_path_search_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bindir = tmp_path / "path"
    bindir.mkdir()
    monkeypatch.setenv("PATH", str(bindir))
    with pytest.raises(BrowserMissing, match="apt-get install chromium"):
        find_browser(None)
    for name in ("brave-browser", "chromium", "google-chrome-stable"):
        exe = bindir / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
        assert find_browser(None) == str(exe)  # each name beats the ones before it
    (bindir / "google-chrome").write_text("#!/bin/sh\n")
    (bindir / "google-chrome").chmod(0o755)
    assert find_browser(None) == str(bindir / "google-chrome")


def test_debians_shell_wrapper_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bindir, libdir = tmp_path / "bin", tmp_path / "lib" / "chromium"
    bindir.mkdir()
    libdir.mkdir(parents=True)
    real = libdir / "chromium"
    real.write_bytes(Path("/bin/true").read_bytes())  # any ELF executable
    real.chmod(0o755)
    wrapper = bindir / "chromium"
    wrapper.write_text(
        f'#!/bin/sh\nAPPNAME=chromium\nLIBDIR={tmp_path}/lib/$APPNAME\nexec $LIBDIR/$APPNAME "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", str(bindir))
    assert find_browser(None) == str(real)
    real.write_text("#!/bin/sh\n")  # not a binary: keep the wrapper
    assert find_browser(None) == str(wrapper)
    other = bindir / "google-chrome"
    other.write_text('#!/bin/bash\nexec /opt/google/chrome/chrome "$@"\n')
    other.chmod(0o755)
    assert find_browser(None) == str(other)  # not that wrapper shape: as it is


def test_profiles_go_to_a_private_tmpfs_dir_without_a_runtime_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import common.paths

    shm = tmp_path / "shm"
    shm.mkdir()
    monkeypatch.setattr(profiles_mod, "SHM", str(shm))
    monkeypatch.setattr(common.paths, "runtime_dir", lambda create=True: tmp_path / "runtime")
    (tmp_path / "runtime").mkdir()
    assert profiles_mod.profile_root() == tmp_path / "runtime" / "render"  # WF_RUNTIME_DIR is set
    monkeypatch.delenv("WF_RUNTIME_DIR")
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    mine = profiles_mod.profile_root()
    assert mine == shm / f"wf-render-{os.getuid()}"
    assert stat.S_IMODE(mine.stat().st_mode) == 0o700
    mine.chmod(0o755)  # not private any more (someone else may have made it): not used
    assert profiles_mod.profile_root() == tmp_path / "runtime" / "render"


# ---------------------------------------------------------------- launch and cleanup


def test_launch_flags_environment_and_cleanup(fake: Path, tmp_path: Path) -> None:
    launched = launch(str(fake), profile_root=root(tmp_path), deadline=time.monotonic() + 10)
    try:
        profile = launched.profile
        assert stat.S_IMODE(profile.stat().st_mode) == 0o700
        line = launches(tmp_path)[0]
        for flag in (
            "--headless",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}/data",
            "--disable-background-networking",
            "--disable-quic",
            "--proxy-bypass-list=<-loopback>",
        ):
            assert f" {flag}" in line, flag
        assert "--disable-crashpad-for-testing" not in line  # it crashes the network service
        assert "--remote-debugging-port" not in line and "--remote-debugging-address" not in line
        # DevTools on fds 3 and 4 only; nothing of the parent's beyond them and stdio.
        fds = sorted(int(fd) for fd in os.listdir(f"/proc/{launched.pid}/fd"))
        assert fds == [0, 1, 2, 3, 4], fds
        assert os.readlink(f"/proc/{launched.pid}/fd/0") == "/dev/null"
        assert os.readlink(f"/proc/{launched.pid}/fd/3").startswith("pipe:")
        assert (" --no-sandbox" in line) == (os.geteuid() == 0)
        for var in ("TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            value = Path(line.split(f"{var}=", 1)[1].split(" ", 1)[0])
            # (TMPDIR may be a short directory the profile links to: see the next test)
            assert value.is_relative_to(profile) or value == (profile / "tmp").resolve(), var
        assert wait_until(lambda: len(browser_processes(launched.pid, profile)) == 3)
        assert launched.alive()
    finally:
        launched.kill()
    assert not launched.alive()
    assert browser_processes(launched.pid, profile) == []  # the setsid helper too
    assert not profile.exists()
    launched.kill()  # idempotent


def test_a_fork_that_cannot_happen_is_a_timeout_not_a_hang(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fork waits for the interpreter's import lock, which a cancel raised inside an
    # import can leave held for good (a caller's signal handler): launch waited for the
    # browser's thread with no limit, and the render hung.
    real_popen, go = subprocess.Popen, threading.Event()

    def stuck(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        go.wait(10)
        return real_popen(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(chromium_mod.subprocess, "Popen", stuck)
    fds, ours = set(os.listdir("/proc/self/fd")), children()
    t0 = time.monotonic()
    with pytest.raises(Timeout, match="timed out starting the browser"):
        launch(str(fake), profile_root=root(tmp_path), deadline=t0 + 0.5)
    assert time.monotonic() - t0 < 2
    assert list(root(tmp_path).iterdir()) == []
    waiter = next(t for t in threading.enumerate() if t.name == "wf-browser")
    go.set()  # the fork happens after all: the browser it starts is killed at once
    waiter.join(10)
    assert not waiter.is_alive() and children() == ours  # killed and reaped
    assert set(os.listdir("/proc/self/fd")) <= fds  # its copies of the pipes are closed


def test_a_long_profile_path_gets_a_short_tmpdir(fake: Path, tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 40)
    deep.mkdir(parents=True)
    launched = launch(str(fake), profile_root=deep, deadline=time.monotonic() + 10)
    tmpdir = Path(launches(tmp_path)[0].split("TMPDIR=", 1)[1].split(" ", 1)[0])
    assert len(str(tmpdir)) <= profiles_mod.MAX_TMPDIR
    assert tmpdir.is_dir() and (launched.profile / "tmp").resolve() == tmpdir.resolve()
    launched.kill()
    assert not tmpdir.exists() and not launched.profile.exists()


def test_a_browser_that_exits_at_launch(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "exit")
    with pytest.raises(
        RenderError, match=r"exited during launch \(code 3\): .*fake browser: cannot start"
    ):
        launch(str(fake), profile_root=root(tmp_path), deadline=time.monotonic() + 10)
    assert list(root(tmp_path).iterdir()) == []


def test_a_browser_that_never_answers_on_its_pipe(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "hang")
    monkeypatch.setattr(chromium_mod, "LAUNCH_TIMEOUT", 0.5)
    with pytest.raises(RenderError, match="did not answer on its DevTools pipe"):
        launch(str(fake), profile_root=root(tmp_path), deadline=time.monotonic() + 10)
    with pytest.raises(Timeout):  # the render deadline comes first: a timeout, not a failure
        launch(str(fake), profile_root=root(tmp_path), deadline=time.monotonic() + 0.3)
    assert list(root(tmp_path).iterdir()) == []
    pid = int(launches(tmp_path)[0].split()[0])
    assert not procs_mod.running(pid)


def test_the_browser_outlives_the_thread_that_launched_it(fake: Path, tmp_path: Path) -> None:
    box = {}
    t = threading.Thread(
        target=lambda: box.update(
            l=launch(str(fake), profile_root=root(tmp_path), deadline=time.monotonic() + 10)
        )
    )
    t.start()
    t.join()
    time.sleep(0.3)
    launched = box["l"]
    assert launched.alive()  # PR_SET_PDEATHSIG is per thread: a pool thread ending must not kill it
    launched.kill()


def test_a_killed_owner_takes_the_browser_with_it_and_the_next_launch_sweeps(
    fake: Path, tmp_path: Path
) -> None:
    script = textwrap.dedent(
        f"""
        import os, sys, time
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        from pathlib import Path
        from wf.render.chromium import launch
        l = launch({str(fake)!r}, profile_root=Path({str(root(tmp_path))!r}), deadline=time.monotonic() + 10)
        print(l.pid, l.profile, flush=True)
        time.sleep(60)
        """
    )
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pid_text, profile_text = owner.stdout.readline().split()  # type: ignore[union-attr]
    pid, profile = int(pid_text), Path(profile_text)
    assert procs_mod.running(pid)
    owner.kill()  # SIGKILL: no cleanup code runs in the owner
    owner.wait()
    assert wait_until(lambda: not procs_mod.running(pid))  # PR_SET_PDEATHSIG
    assert profile.exists()  # nobody removed it...
    sweep_stale_profiles(root(tmp_path))  # ...until the next launch sweeps it
    assert not profile.exists()
    assert browser_processes(-1, profile) == []


def test_sweep_keeps_profiles_of_live_owners(tmp_path: Path) -> None:
    r = root(tmp_path)
    mine = r / f"chrome-{os.getpid()}-abc"
    mine.mkdir()
    other = r / "unrelated"
    other.mkdir()
    sweep_stale_profiles(r)
    assert mine.exists() and other.exists()


# ---------------------------------------------------------------- circuit breaker


def test_circuit_breaker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(breaker_mod.time, "time", lambda: now[0])
    breaker = CircuitBreaker(tmp_path / "state" / "circuit.json")
    breaker.check()
    breaker.failed()
    breaker.check()  # one failure: still trying
    breaker.failed()
    with pytest.raises(RenderError, match=r"failed 2 times in a row; not trying again for 300 s"):
        breaker.check()
    now[0] += 299
    with pytest.raises(RenderError, match="circuit breaker"):
        breaker.check()
    now[0] += 2
    breaker.check()  # cooled down: one more attempt
    breaker.failed()
    with pytest.raises(RenderError):
        breaker.check()  # that attempt failed too: open again at once
    breaker.succeeded()
    breaker.check()
    assert not (tmp_path / "state" / "circuit.json").exists()


def test_the_state_dir_is_made_only_when_a_failure_is_stored(fake: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    breaker = session_for(fake)._breaker()
    assert breaker is not None
    breaker.check()
    breaker.succeeded()
    assert not state.exists()  # nothing stored, no directory
    breaker.failed()
    assert (state / "render-circuit.json").is_file()
    assert os.stat(state).st_mode & 0o777 == 0o700
    state.chmod(0o777)  # a state dir others can write is not used, as before
    assert session_for(fake)._breaker() is None


def session_for(browser: Path | str) -> RenderSession:
    return RenderSession(
        RenderOptions(mode="always", timeout=5, browser=str(browser)),
        policy=Policy(allow_hosts=frozenset({"127.0.0.1"})),
    )


@pytest.fixture
def mute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake starts, but nothing answers on its DevTools pipe: a failed launch."""
    monkeypatch.setenv("FAKE_MODE", "hang")
    monkeypatch.setattr(chromium_mod, "LAUNCH_TIMEOUT", 0.5)


def test_two_launch_failures_stop_launch_attempts(fake: Path, tmp_path: Path, mute: None) -> None:
    for _ in range(2):
        with session_for(fake) as s, pytest.raises(RenderError, match="did not answer on its"):
            s.render("http://127.0.0.1:1/", deadline=time.monotonic() + 5)
    assert len(launches(tmp_path)) == 2
    with session_for(fake) as s, pytest.raises(RenderError, match="circuit breaker"):
        s.render("http://127.0.0.1:1/", deadline=time.monotonic() + 5)
    assert len(launches(tmp_path)) == 2  # not launched again
    assert list((tmp_path / "runtime" / "render").iterdir()) == []  # each failure cleaned up


def test_a_failed_prewarm_is_reported_by_render_and_counted_once(
    fake: Path, tmp_path: Path, mute: None
) -> None:
    with session_for(fake) as s:
        s.prewarm()
        with pytest.raises(RenderError, match="did not answer on its"):
            s.render("http://127.0.0.1:1/", deadline=time.monotonic() + 5)
    assert len(launches(tmp_path)) == 1
    assert '"failures": 1.0' in (tmp_path / "state" / "render-circuit.json").read_text()


def test_a_devtools_client_that_never_loads_is_a_timeout_not_a_hang(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pychrome loads in a thread beside the launch; an import that never ends there (the
    # import lock left held by a cancel) made the render wait for it with no limit.
    from wf.render import session as session_mod

    go = threading.Event()
    monkeypatch.setattr(session_mod, "preload", lambda: go.wait(10))
    with session_for(fake) as s:
        t0 = time.monotonic()
        with pytest.raises(Timeout, match="DevTools client"):
            s.render("http://127.0.0.1:1/", deadline=t0 + 1)
        assert time.monotonic() - t0 < 3
        go.set()  # before close(), which waits for that thread (3 s at most)
    assert list((tmp_path / "runtime" / "render").iterdir()) == []  # its browser is gone


def test_a_missing_browser_is_not_a_launch_failure(tmp_path: Path) -> None:
    for _ in range(3):
        with session_for(tmp_path / "no-such-browser") as s, pytest.raises(BrowserMissing):
            s.render("http://127.0.0.1:1/", deadline=time.monotonic() + 5)
    assert not (tmp_path / "state" / "render-circuit.json").exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.2/",
        "file:///etc/passwd",
        "http://169.254.169.254/",  # never connects: refused
    ],
)
def test_a_refused_url_never_starts_a_browser(fake: Path, tmp_path: Path, url: str) -> None:
    with session_for(fake) as s, pytest.raises(PolicyRefused):
        s.render(url, deadline=time.monotonic() + 5)
    assert launches(tmp_path) == []


# ---------------------------------------------------------------- keep-alive keeper


def keeper_state(tmp_path: Path) -> dict[str, object] | None:
    return keeper_mod.read_state(tmp_path / "runtime" / "render-keepalive")


def test_keeper_shares_one_browser_and_stops_when_idle(fake: Path, tmp_path: Path) -> None:
    shared = [keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 10) for _ in range(2)]
    state = keeper_state(tmp_path)
    assert state is not None and len(launches(tmp_path)) == 1
    assert shared[0].launched.pid == shared[1].launched.pid == state["browser_pid"]
    profile = Path(str(state["profile"]))
    assert profile.is_dir()
    shared[0].release()
    time.sleep(1.0)
    assert keeper_state(tmp_path) is not None  # one user still holds it
    shared[1].release()
    assert wait_until(lambda: keeper_state(tmp_path) is None, timeout=5)
    assert wait_until(lambda: not profile.exists(), timeout=5)
    assert not procs_mod.running(int(state["browser_pid"]))  # type: ignore[call-overload]
    assert wait_until(lambda: not procs_mod.running(int(state["keeper_pid"])))  # type: ignore[call-overload]
    # Nothing is left behind: no lock file, no state, not even the directory.
    assert wait_until(lambda: not (tmp_path / "runtime" / "render-keepalive").exists(), timeout=5)


def test_a_retired_keeper_is_no_zombie_of_ours(fake: Path, tmp_path: Path) -> None:
    # A program using wf as a library lives on after the keeper retires: a keeper that
    # were its child would stay there as a zombie until it started another child.
    before = children()
    shared = keeper_mod.attach(str(fake), 0.3, deadline=time.monotonic() + 10)
    state = keeper_state(tmp_path)
    assert state is not None
    assert children() == before  # the keeper is not ours to reap, nor its starter
    shared.release()
    assert wait_until(lambda: not procs_mod.running(int(state["keeper_pid"])), timeout=5)  # type: ignore[call-overload]
    assert children() == before


def test_a_lock_file_removed_while_waited_on_is_opened_anew(tmp_path: Path) -> None:
    path = tmp_path / "launch.lock"
    got: list[bool] = []

    def waiter() -> None:
        with keeper_mod.file_lock(path, deadline=time.monotonic() + 5) as fd:
            got.append(keeper_mod.still_named(fd, path))

    with keeper_mod.file_lock(path, deadline=time.monotonic() + 5):
        t = threading.Thread(target=waiter)
        t.start()
        time.sleep(0.1)
        path.unlink()  # as a retiring keeper does, holding the lock
    t.join(5)
    assert got == [True] and path.exists()


def test_concurrent_users_start_one_keeper(fake: Path, tmp_path: Path) -> None:
    got: list[int] = []

    def user() -> None:
        s = keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 10)
        got.append(s.launched.pid)
        s.release()

    threads = [threading.Thread(target=user) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 1 and len(launches(tmp_path)) == 1
    assert wait_until(lambda: keeper_state(tmp_path) is None, timeout=5)
    assert wait_until(lambda: not (tmp_path / "runtime" / "render-keepalive").exists(), timeout=5)
    # A user after the keeper retired starts a fresh one in a fresh directory.
    again = keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 10)
    again.release()
    assert len(launches(tmp_path)) == 2
    assert wait_until(lambda: not (tmp_path / "runtime" / "render-keepalive").exists(), timeout=5)


def test_a_dead_shared_browser_is_replaced(fake: Path, tmp_path: Path) -> None:
    first = keeper_mod.attach(str(fake), 30.0, deadline=time.monotonic() + 10)
    first.release()
    state = keeper_state(tmp_path)
    assert state is not None
    os.kill(int(state["browser_pid"]), 9)  # type: ignore[call-overload]
    assert wait_until(lambda: not procs_mod.running(int(state["browser_pid"])))  # type: ignore[call-overload]
    # The keeper notices and cleans up; meanwhile or after, a new user gets a new one.
    second = keeper_mod.attach(str(fake), 0.5, deadline=time.monotonic() + 10)
    assert second.launched.pid != state["browser_pid"]
    second.release()
    assert wait_until(lambda: keeper_state(tmp_path) is None, timeout=5)
    assert wait_until(lambda: not procs_mod.running(int(state["keeper_pid"])), timeout=5)  # type: ignore[call-overload]


def test_a_keeper_that_cannot_launch_says_why(
    fake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_MODE", "exit")
    with pytest.raises(RenderError, match="fake browser: cannot start"):
        keeper_mod.attach(str(fake), 5.0, deadline=time.monotonic() + 10)
    assert keeper_state(tmp_path) is None


# ---------------------------------------------------------------- stopping it early


def test_stop_ends_the_keeper_and_every_process_of_its_browser(fake: Path, tmp_path: Path) -> None:
    keepalive = tmp_path / "runtime" / "render-keepalive"
    keeper_mod.attach(str(fake), 30.0, deadline=time.monotonic() + 10).release()
    state = keeper_state(tmp_path)
    assert state is not None
    browser, keeper = int(state["browser_pid"]), int(state["keeper_pid"])  # type: ignore[call-overload]
    profile = Path(str(state["profile"]))
    # The fake browser's helpers: one in its group, one in a session of its own.
    assert len(processes_mentioning(profile)) >= 2 and group_members(browser)
    assert keeper_mod.stop(deadline=time.monotonic() + 10) == state
    # Gone when stop returns, not some time later: keeper, browser, both helpers.
    assert not procs_mod.running(keeper) and not procs_mod.running(browser)
    assert group_members(browser) == [] and processes_mentioning(tmp_path) == []
    assert not profile.exists() and not keepalive.exists()
    # None left to stop: no error, nothing made.
    assert keeper_mod.stop(deadline=time.monotonic() + 10) is None
    assert not keepalive.exists()
    # The next user starts a fresh keeper.
    again = keeper_mod.attach(str(fake), 0.3, deadline=time.monotonic() + 10)
    again.release()
    assert len(launches(tmp_path)) == 2
    assert wait_until(lambda: not keepalive.exists(), timeout=5)


def test_stop_takes_the_browser_from_a_user_still_attached(fake: Path, tmp_path: Path) -> None:
    shared = keeper_mod.attach(str(fake), 30.0, deadline=time.monotonic() + 10)
    state = keeper_state(tmp_path)
    assert state is not None
    assert keeper_mod.stop(deadline=time.monotonic() + 10) == state
    assert processes_mentioning(tmp_path) == []
    assert keeper_state(tmp_path) is None
    shared.release()  # a user that lost its browser lets go without an error
    # Its users.lock kept the lock files (a retiring keeper leaves them so too); the next
    # user finds no state and starts anew.
    again = keeper_mod.attach(str(fake), 0.3, deadline=time.monotonic() + 10)
    assert again.launched.pid != state["browser_pid"]
    again.release()
    assert wait_until(lambda: not (tmp_path / "runtime" / "render-keepalive").exists(), timeout=5)


def test_stop_waits_for_the_launch_lock_until_its_deadline(fake: Path, tmp_path: Path) -> None:
    keeper_mod.attach(str(fake), 30.0, deadline=time.monotonic() + 10).release()
    root = tmp_path / "runtime" / "render-keepalive"
    try:
        # Another wf starting a browser holds launch.lock: stop gives up at its deadline.
        with keeper_mod.file_lock(root / keeper_mod.LAUNCH_LOCK, deadline=time.monotonic() + 5):
            with pytest.raises(Timeout):
                keeper_mod.stop(deadline=time.monotonic() + 0.3)
            assert keeper_state(tmp_path) is not None
    finally:
        keeper_mod.stop(deadline=time.monotonic() + 10)
    assert processes_mentioning(tmp_path) == []
