"""Nothing a rendered wf.fetch starts outlives it: threads, descriptors, processes and
profile directories, whether the call succeeds, times out, is cancelled by a signal or
loses its browser mid-render. The Crew that makes the session wait for its threads is
tested first, with no browser; the calls need Chromium in a loopback-only namespace."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import wf.api
from common.errors import RenderError, Timeout
from tests.fixtures.render.server import browser_skip_reason
from tests.helpers import children
from wf.render.crew import Crew

# ---------------------------------------------------------------- the crew


def test_join_waits_for_every_enlisted_thread_also_one_enlisted_meanwhile() -> None:
    crew = Crew()
    go = threading.Event()
    ended: list[str] = []

    def late() -> None:
        time.sleep(0.2)
        ended.append("late")

    def first() -> None:
        go.wait(5)
        crew.start(late, name="wf-test-late")  # enlisted while close() is joining
        ended.append("first")

    crew.start(first, name="wf-test-first")
    threading.Timer(0.1, go.set).start()
    assert crew.join(time.monotonic() + 5) == []
    assert ended == ["first", "late"]


def test_join_gives_up_at_its_deadline_and_names_what_still_runs() -> None:
    crew = Crew()
    stop = threading.Event()
    thread = crew.start(lambda: stop.wait(10), name="wf-test-stuck")
    t0 = time.monotonic()
    assert crew.join(t0 + 0.2) == [thread]
    assert time.monotonic() - t0 < 2
    stop.set()
    assert crew.join(time.monotonic() + 5) == []


def test_a_pool_s_workers_are_enlisted_and_joined() -> None:
    crew = Crew()
    pool = ThreadPoolExecutor(max_workers=2, initializer=crew.enlist)
    futures = [pool.submit(time.sleep, 0.2) for _ in range(2)]
    pool.shutdown(wait=False)
    workers = crew.join(time.monotonic() + 5)
    assert workers == [] and all(f.done() for f in futures)


# ---------------------------------------------------------------- whole calls

REASON = browser_skip_reason()

# In a process of its own, so that its threads and descriptors are not counted as ours.
SERVE = (
    "import sys, time; sys.path.insert(0, sys.argv[1]);"
    "from tests.fixtures.render.server import FixtureServer;"
    "s = FixtureServer(); print(s.port, flush=True); time.sleep(600)"
)


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    root = str(Path(__file__).resolve().parents[1])
    proc = subprocess.Popen([sys.executable, "-c", SERVE, root], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    port = int(proc.stdout.readline())
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


class Cancelled(BaseException):
    """What a signal handler raises to cancel a call (as KeyboardInterrupt would)."""


def _children() -> set[int]:
    # zombies included: a child nobody reaped is a leak
    return {pid for pid, _state in children()}


def _fds() -> dict[str, str]:
    found = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            found[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # the directory's own descriptor, closed once listed
    return found


def _kill_browser_soon(others: set[int], stop: threading.Event) -> threading.Thread:
    """SIGKILL each browser of ours 0.3 s after it appears (a child of ours, not one of
    ``others``) until ``stop``: a browser killed while it was prewarmed is replaced by the
    render with a new one (session.py, a dead browser is not reused), which a single kill
    left alive to run the busy page to the deadline (Timeout, not RenderError)."""

    def run() -> None:
        killed: set[int] = set()
        while not stop.is_set():
            if found := _children() - others - killed:
                time.sleep(0.3)
                for pid in found:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                killed |= found
            time.sleep(0.01)

    thread = threading.Thread(target=run, name="test-killer", daemon=True)
    thread.start()
    return thread


def _ok(origin: str) -> None:
    page = wf.api.fetch(f"{origin}/f/spa.html", render="always", allow_hosts="127.0.0.1")
    assert "Field notes from a quiet valley" in page.text


def _timeout(origin: str) -> None:
    with pytest.raises(Timeout):
        wf.api.fetch(f"{origin}/f/busy.html", render="always", allow_hosts="127.0.0.1", timeout=2)


def _cancel(origin: str) -> None:
    def cancel(signum: int, frame: object) -> None:
        raise Cancelled

    previous = signal.signal(signal.SIGALRM, cancel)
    try:
        signal.setitimer(signal.ITIMER_REAL, 1.0)  # mid-render: the page never settles
        with pytest.raises(Cancelled):
            wf.api.fetch(
                f"{origin}/f/busy.html", render="always", allow_hosts="127.0.0.1", timeout=10
            )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


CALLS: dict[str, Callable[[str], None]] = {"ok": _ok, "timeout": _timeout, "cancel": _cancel}


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
@pytest.mark.parametrize("how", [*CALLS, "crash"])
def test_a_rendered_fetch_leaves_nothing_behind(how: str, origin: str, tmp_path: Path) -> None:
    url = origin
    # What earlier tests left running is not this call's.
    before_threads, before_fds, before_children = set(threading.enumerate()), _fds(), _children()
    profiles = tmp_path / "runtime" / "render"  # WF_RUNTIME_DIR is per test (conftest)
    for _ in range(2):  # the second call finds what the first may have left
        if how == "crash":
            stop = threading.Event()
            killer = _kill_browser_soon(before_children, stop)
            try:
                with pytest.raises(RenderError):
                    wf.api.fetch(
                        f"{url}/f/busy.html", render="always", allow_hosts="127.0.0.1", timeout=10
                    )
            finally:
                stop.set()
                killer.join()
        else:
            CALLS[how](url)
        # Right when the call has returned: not a moment later. The calling thread's
        # parsing helper (common.parse_thread) is no render's: it serves this thread's
        # pages for as long as the thread lives (release() ends it).
        left = [t.name for t in set(threading.enumerate()) - before_threads]
        assert [name for name in left if name != "wf-parse"] == []
        assert left.count("wf-parse") <= 1
        assert _children() - before_children == set()
        assert {fd: to for fd, to in _fds().items() if before_fds.get(fd) != to} == {}
        assert not profiles.exists() or list(profiles.iterdir()) == []


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_a_cancel_while_waiting_for_the_spare_context_leaves_no_proxy(
    origin: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from common.policy import Policy
    from wf.render import RenderOptions, RenderSession
    from wf.render import session as session_mod
    from wf.render.tab import Context

    go, made = threading.Event(), threading.Event()

    class SlowSpare(Context):
        def __init__(self, *args: object, **kwargs: object) -> None:
            if threading.current_thread().name.startswith("wf-spare"):
                go.wait(10)  # the render waits for it, and is cancelled meanwhile
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            if threading.current_thread().name.startswith("wf-spare"):
                made.set()

    monkeypatch.setattr(session_mod, "Context", SlowSpare)
    before = set(threading.enumerate())
    policy = Policy(allow_hosts=frozenset({"127.0.0.1"}))
    session = RenderSession(RenderOptions(mode="always", timeout=15), policy=policy)
    previous = signal.signal(signal.SIGALRM, _raise_cancelled)
    try:
        session.prewarm()  # the first context is made beside the launch, as a spare
        signal.setitimer(signal.ITIMER_REAL, 1.5)
        with pytest.raises(Cancelled):
            session.render(f"{origin}/f/spa.html", deadline=time.monotonic() + 15)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    go.set()
    assert made.wait(10)  # the spare was made after all, with its proxy
    session.close()
    assert [t.name for t in set(threading.enumerate()) - before] == []


def _raise_cancelled(signum: int, frame: object) -> None:
    raise Cancelled


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_a_cancel_while_the_session_closes_waits_for_the_close(
    origin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from common.policy import Policy
    from wf.render import RenderOptions, RenderSession
    from wf.render import chromium as chromium_mod

    real_kill = chromium_mod.kill_browser

    def slow_kill(*args: Any, **kwargs: Any) -> None:
        time.sleep(0.6)  # the cancel comes while the browser is being closed
        real_kill(*args, **kwargs)

    monkeypatch.setattr(chromium_mod, "kill_browser", slow_kill)
    before, children = set(threading.enumerate()), _children()
    policy = Policy(allow_hosts=frozenset({"127.0.0.1"}))
    session = RenderSession(RenderOptions(mode="always", timeout=15), policy=policy)
    session.render(f"{origin}/f/spa.html", deadline=time.monotonic() + 15)
    previous = signal.signal(signal.SIGALRM, _raise_cancelled)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Cancelled):
            session.close()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # The cancel went on only once the session was closed: nothing of it is left.
    assert [t.name for t in set(threading.enumerate()) - before] == []
    assert _children() - children == set()
    assert list((tmp_path / "runtime" / "render").iterdir()) == []
