"""`wf --render` end to end: the CLI's behaviour with and without a browser, and that a
wf process leaves no browser process and no profile behind, however it ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.fixtures.render.server import (
    FixtureServer,
    Tripwire,
    browser_skip_reason,
    processes_mentioning,
    wait_until,
)
from tests.helpers import ALLOW, VENV_BIN, group_members
from wf.render import keeper as keeper_mod
from wf.render import relay
from wf.render.cdp import Connection

REASON = browser_skip_reason()
WF = str(VENV_BIN / "wf")
RENDER_LINE = "wf: page looks JavaScript-rendered; rendering in headless Chromium"


def wf_process(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """wf as a real process (conftest's ``wf`` fixture runs the CLI in process)."""
    return subprocess.run(
        [WF, *ALLOW, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def assert_clean(tmp_path: Path) -> None:
    """No process names our dirs, and no profile is left in the runtime dir."""
    assert wait_until(lambda: processes_mentioning(tmp_path) == [], timeout=5), (
        processes_mentioning(tmp_path)
    )
    runtime = tmp_path / "runtime"
    left = (
        [p.name for p in runtime.rglob("*") if p.name.startswith(("chrome-", "wfc-"))]
        if runtime.exists()
        else []
    )
    assert left == []


# ---------------------------------------------------------------- without a browser


NO_BROWSER = {"WF_RENDER_BROWSER": "/nonexistent/chrome"}


def test_auto_without_a_browser_prints_the_static_text_with_a_note(server: FixtureServer) -> None:
    r = wf_process(server.url("spa.html"), env=NO_BROWSER)
    assert r.returncode == 0
    assert r.stdout == "You need to enable JavaScript to run this app.\n"
    lines = r.stderr.splitlines()
    assert lines[0] == RENDER_LINE
    assert lines[1].startswith("wf: note: page renders client-side and may be incomplete")
    assert "WF_RENDER_BROWSER=/nonexistent/chrome" in lines[1]
    assert len(lines) == 2  # the failed render's note is the word on the page's text
    page = json.loads(wf_process(server.url("spa.html"), "--json", env=NO_BROWSER).stdout)
    assert page["rendered"] is False and any("renders client-side" in n for n in page["notes"])


def test_auto_without_a_browser_recovers_next_data(server: FixtureServer) -> None:
    r = wf_process(server.url("next.html"), env=NO_BROWSER)
    assert r.returncode == 0
    assert '"title": "Harbour timetable"' in r.stdout and '"to": "Lighthouse Point"' in r.stdout
    assert "__NEXT_DATA__" in r.stderr.splitlines()[1]


def test_always_without_a_browser_is_exit_70(server: FixtureServer) -> None:
    r = wf_process("--render", "always", server.url("spa.html"), env=NO_BROWSER)
    assert r.returncode == 70
    assert r.stdout == ""
    assert r.stderr.startswith(
        "wf: (70) WF_RENDER_BROWSER=/nonexistent/chrome is not an executable file"
    )
    assert len(r.stderr.splitlines()) == 1


def test_never_does_not_try_and_says_the_page_needs_rendering(server: FixtureServer) -> None:
    r = wf_process("--render", "never", server.url("spa.html"), env=NO_BROWSER)
    assert r.returncode == 0
    assert r.stdout == "You need to enable JavaScript to run this app.\n"
    assert r.stderr.startswith("wf: note: little text (46 characters): page looks JavaScript")
    assert "--render never kept it static, --render auto would try\n" in r.stderr
    assert r.stderr.count("\n") == 1


def test_an_ordinary_page_is_not_rendered(server: FixtureServer) -> None:
    r = wf_process(f"{server.origin}/status/200", env=NO_BROWSER)
    assert r.returncode == 0 and r.stderr == ""


# ---------------------------------------------------------------- with Chromium


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
@pytest.mark.parametrize("mode", ["auto", "always"])
def test_a_javascript_page_renders(server: FixtureServer, tmp_path: Path, mode: str) -> None:
    r = wf_process("--render", mode, server.url("spa.html"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# Field notes from a quiet valley\n")
    assert "Our last survey day ended with a storm" in r.stdout
    assert "enable JavaScript" not in r.stdout  # <noscript> is not what a reader sees
    assert r.stderr == (RENDER_LINE + "\n" if mode == "auto" else "")
    assert_clean(tmp_path)


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
@pytest.mark.parametrize("keepalive", ["0", "30"], ids=["private", "keep-alive"])
def test_json_reports_what_the_policy_blocked(
    server: FixtureServer, tripwire: Tripwire, tmp_path: Path, keepalive: str
) -> None:
    # Through the keeper's relay too: the interception is the wf process's own.
    env = {"WF_RENDER_KEEPALIVE": keepalive}
    r = wf_process("--render", "always", "--json", server.url("one_blocked.html"), env=env)
    state = keeper_mod.read_state(tmp_path / "runtime" / "render-keepalive")
    if state is not None:
        keeper_mod.stop_keeper(state)
    assert (state is not None) == (keepalive != "0")
    page = json.loads(r.stdout)
    assert page["rendered"] is True and "A page with one image from elsewhere" in page["text"]
    blocked = [n for n in page["notes"] if n.startswith("blocked by the network policy: ")]
    assert blocked == [
        f"blocked by the network policy: {tripwire.origin}/pixel.png (refused 127.0.0.2: "
        "loopback address; allow it with --allow-host 127.0.0.2, "
        "or --allow-private (or WF_ALLOW_PRIVATE=1))"
    ]
    assert tripwire.hits == []
    assert_clean(tmp_path)


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_render_timeout_is_exit_28_and_clean(server: FixtureServer, tmp_path: Path) -> None:
    r = wf_process("--render", "always", server.url("busy.html"), env={"WF_RENDER_TIMEOUT": "2"})
    assert r.returncode == 28
    assert r.stderr.startswith("wf: (28) render timed out")
    assert_clean(tmp_path)


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_auto_mode_keeps_the_static_text_when_the_render_times_out(
    server: FixtureServer, tmp_path: Path
) -> None:
    r = wf_process(server.url("busy_shell.html"), env={"WF_RENDER_TIMEOUT": "2"})
    assert r.returncode == 0
    assert r.stdout == "You need to enable JavaScript to run this app.\n"
    assert r.stderr.splitlines()[1].startswith(
        "wf: note: page renders client-side and may be incomplete (render timed out"
    )
    assert_clean(tmp_path)


def start_busy_render(server: FixtureServer, tmp_path: Path) -> subprocess.Popen[str]:
    """A wf process in the middle of rendering a page whose script never stops."""
    proc = subprocess.Popen(
        [WF, *ALLOW, "--render", "always", server.url("busy.html")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "WF_RENDER_TIMEOUT": "30"},
    )
    # The page was fetched twice (statically, then by the browser): it is rendering.
    assert wait_until(lambda: server.paths.count("/f/busy.html") >= 2, timeout=20)
    assert processes_mentioning(tmp_path)
    return proc


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_mid_render_leaves_nothing(
    server: FixtureServer, tmp_path: Path, sig: int, code: int
) -> None:
    proc = start_busy_render(server, tmp_path)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == code
    assert err.splitlines()[-1].startswith(f"wf: ({code}) ")
    assert_clean(tmp_path)


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_sigkill_takes_the_browser_down_and_the_next_run_sweeps(
    server: FixtureServer, tmp_path: Path
) -> None:
    proc = start_busy_render(server, tmp_path)
    proc.kill()
    proc.wait()
    # PR_SET_PDEATHSIG: the browser dies with wf, even though wf ran no cleanup code.
    assert wait_until(lambda: processes_mentioning(tmp_path) == [], timeout=10), (
        processes_mentioning(tmp_path)
    )
    assert list((tmp_path / "runtime" / "render").glob("chrome-*"))  # its profile is left...
    assert wf_process("--render", "always", server.url("spa.html")).returncode == 0
    assert_clean(tmp_path)  # ...until the next launch removes it


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_keepalive_shares_one_browser_across_runs(server: FixtureServer, tmp_path: Path) -> None:
    env = {"WF_RENDER_KEEPALIVE": "30"}
    root = tmp_path / "runtime" / "render-keepalive"
    # timeout: a keeper that kept wf's stdout open would make this wait for 30 s.
    first = wf_process("--render", "always", server.url("spa.html"), env=env, timeout=15)
    assert first.returncode == 0 and "Field notes" in first.stdout
    state = keeper_mod.read_state(root)
    assert state is not None
    second = wf_process("--render", "always", server.url("shadow.html"), env=env, timeout=15)
    assert second.returncode == 0 and "open shadow root" in second.stdout
    assert keeper_mod.read_state(root) == state  # the same browser served both
    # Each wf had a browser session of its own through the keeper's socket; when it hung
    # up, the contexts it made went with it.
    with Connection(relay.connect(root, state["keeper_pid"], timeout=5)) as conn:
        contexts = conn.call("Target.getBrowserContexts", timeout=5)
        assert contexts["browserContextIds"] == []
    keeper_mod.stop_keeper(state)
    assert_clean(tmp_path)
    assert keeper_mod.read_state(root) is None


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_keepalive_browser_stops_when_idle(server: FixtureServer, tmp_path: Path) -> None:
    r = wf_process("--render", "always", server.url("spa.html"), env={"WF_RENDER_KEEPALIVE": "1"})
    assert r.returncode == 0
    assert processes_mentioning(tmp_path)  # still there for the next run...
    time.sleep(1.0)
    assert_clean(tmp_path)  # ...until a second of idleness passed
    assert keeper_mod.read_state(tmp_path / "runtime" / "render-keepalive") is None


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_render_stop_ends_the_shared_browser_at_once(server: FixtureServer, tmp_path: Path) -> None:
    root = tmp_path / "runtime" / "render-keepalive"
    r = wf_process("--render", "always", server.url("spa.html"), env={"WF_RENDER_KEEPALIVE": "600"})
    assert r.returncode == 0 and "Field notes" in r.stdout
    state = keeper_mod.read_state(root)
    assert state is not None and group_members(state["browser_pid"])
    stop = wf_process("--render-stop", timeout=30)
    assert (stop.returncode, stop.stdout, stop.stderr) == (0, "", "")
    # Gone when wf exits: keeper, browser and every process of its group, profile, files.
    assert group_members(state["browser_pid"]) == []
    assert processes_mentioning(tmp_path) == []
    assert keeper_mod.read_state(root) is None and not root.exists()
    assert_clean(tmp_path)
    # None running: exit 0 all the same, a line under -v.
    again = wf_process("--render-stop", "-v", timeout=30)
    assert again.returncode == 0 and again.stdout == ""
    assert again.stderr == "wf: * render: no shared browser is running (WF_RENDER_KEEPALIVE)\n"
    usage = wf_process("--render-stop", server.url("spa.html"), timeout=30)
    assert usage.returncode == 2 and "--render-stop" in usage.stderr


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_the_library_stops_the_shared_browser(server: FixtureServer, tmp_path: Path) -> None:
    import wf

    root = tmp_path / "runtime" / "render-keepalive"
    r = wf_process("--render", "always", server.url("spa.html"), env={"WF_RENDER_KEEPALIVE": "600"})
    assert r.returncode == 0
    state = keeper_mod.read_state(root)
    assert state is not None
    assert wf.stop_render_keepalive(timeout=10) is True
    assert group_members(state["browser_pid"]) == [] and processes_mentioning(tmp_path) == []
    assert not root.exists()
    assert wf.stop_render_keepalive() is False
    with pytest.raises(ValueError, match="--timeout takes a number of seconds"):
        wf.stop_render_keepalive(timeout="5")  # type: ignore[arg-type]


@pytest.mark.browser
@pytest.mark.skipif(REASON is not None, reason=REASON or "")
@pytest.mark.parametrize(
    ("mode", "page", "code"), [("always", "busy.html", 70), ("auto", "busy_shell.html", 0)]
)
def test_render_stop_mid_render_is_a_crash_for_that_render(
    server: FixtureServer, tmp_path: Path, mode: str, page: str, code: int
) -> None:
    root = tmp_path / "runtime" / "render-keepalive"
    proc = subprocess.Popen(
        [WF, *ALLOW, "--render", mode, server.url(page)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "WF_RENDER_TIMEOUT": "30", "WF_RENDER_KEEPALIVE": "600"},
    )
    # Fetched twice (statically, then by the browser): it is rendering.
    assert wait_until(lambda: server.paths.count(f"/f/{page}") >= 2, timeout=20)
    assert keeper_mod.read_state(root) is not None
    assert wf_process("--render-stop", timeout=30).returncode == 0
    out, err = proc.communicate(timeout=20)  # long before its 30 s render deadline
    assert proc.returncode == code, err
    if code == 0:
        assert out == "You need to enable JavaScript to run this app.\n"
    else:
        assert err.splitlines()[-1].startswith("wf: (70) ")
    assert_clean(tmp_path)
