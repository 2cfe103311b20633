"""wf/render/waits.py: --wait-for and --wait as decisions over a page that answers as a
script says and a clock the test moves (no browser here; the real one is in
test_wf_render_browser.py): ready, late, never, a selector the browser refuses, a busy
page, a closed one; the fixed wait inside and past the deadline; the probe's quoting."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from common.policy import Policy
from tests.fixtures.render.server import FixtureServer, browser_skip_reason
from tests.helpers import ALLOW, VENV_BIN
from wf.extract import extract_text
from wf.render import RenderOptions, RenderSession
from wf.render.cdp import CDPClosed, CDPTimeout
from wf.render.waits import Waits, probe_expression, wait_fixed, wait_for


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.now += seconds


class Page:
    """Answers Runtime.evaluate with the states given, one per call (the last repeats);
    an exception in the list is raised instead. Each call costs 10 ms of the clock."""

    def __init__(self, clock: Clock, *states: Any) -> None:
        self.clock = clock
        self.states = list(states)
        self.calls: list[dict[str, Any]] = []

    def call(self, method: str, *, timeout: float, **params: Any) -> dict[str, Any]:
        assert method == "Runtime.evaluate" and timeout > 0
        self.calls.append(params)
        self.clock.now += 0.01
        state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
        if isinstance(state, BaseException):
            raise state
        return {"result": {"type": "string", "value": state}}


def run_wait_for(page: Page, clock: Clock, until: float, selector: str = "#done") -> str | None:
    return wait_for(page, selector, until=until, clock=clock, sleep=clock.sleep)


def test_ready_at_once() -> None:
    clock = Clock()
    page = Page(clock, "ready")
    assert run_wait_for(page, clock, until=110.0) is None
    assert len(page.calls) == 1
    assert page.calls[0]["returnByValue"] is True


def test_ready_after_a_while() -> None:
    clock = Clock()
    page = Page(clock, "loading", "absent", "empty", "empty", "ready")
    assert run_wait_for(page, clock, until=110.0) is None
    assert len(page.calls) == 5
    assert clock.now < 100.5


def test_busy_or_navigating_pages_are_asked_again() -> None:
    from wf.render.cdp import CDPError

    clock = Clock()
    page = Page(clock, CDPTimeout("busy"), CDPError("context gone"), {"odd": 1}, "ready")
    assert run_wait_for(page, clock, until=110.0) is None


def test_a_closed_page_is_no_wait() -> None:
    clock = Clock()
    with pytest.raises(CDPClosed):
        run_wait_for(Page(clock, CDPClosed("gone")), clock, until=110.0)


@pytest.mark.parametrize(
    ("state", "why"),
    [
        ("absent", "it was not there"),
        ("empty", "it was there without text"),
        ("loading", "the page had not loaded"),
    ],
)
def test_the_deadline_ends_the_wait(state: str, why: str) -> None:
    clock = Clock()
    note = run_wait_for(Page(clock, state), clock, until=102.0)
    assert note == (
        f'--wait-for "#done": the deadline ended the wait after 2.0 s ({why}); '
        "printed what the page held then"
    )
    assert 102.0 <= clock.now < 102.1


def test_a_selector_the_browser_cannot_match() -> None:
    clock = Clock()
    note = run_wait_for(Page(clock, "invalid"), clock, until=110.0, selector="p:contains(x)")
    assert note == (
        '--wait-for "p:contains(x)": the browser cannot match this selector; '
        "printed the page without waiting for it"
    )
    assert clock.now < 100.1


def test_the_selector_is_data_in_the_probe() -> None:
    hostile = "x'); alert(1); ('"
    expression = probe_expression(hostile)
    assert expression.endswith(f"({json.dumps(hostile)})")
    assert "Document.prototype.querySelector.call" in expression


def test_wait_fixed_inside_the_deadline() -> None:
    clock = Clock()
    assert wait_fixed(1500, until=110.0, clock=clock, sleep=clock.sleep) is None
    assert clock.now == pytest.approx(101.5)


def test_wait_fixed_cut_by_the_deadline() -> None:
    clock = Clock()
    note = wait_fixed(5000, until=102.0, clock=clock, sleep=clock.sleep)
    assert (
        note
        == "--wait 5000: the deadline ended the wait after 2000 ms; printed what the page held then"
    )
    assert clock.now == pytest.approx(102.0)


def test_waits_are_off_by_default() -> None:
    assert not Waits()
    assert Waits(selector="#a") and Waits(fixed_ms=10)


# ------------------------------------------------------------------ in a real Chromium

REASON = browser_skip_reason()
F = TypeVar("F", bound=Callable[..., Any])


def needs_browser(test: F) -> F:
    marked: F = pytest.mark.browser(
        pytest.mark.skipif(REASON is not None, reason=REASON or "")(test)
    )
    return marked


@pytest.fixture(scope="module")
def session() -> Iterator[RenderSession]:
    s = RenderSession(
        RenderOptions(mode="always", timeout=15),
        policy=Policy(allow_hosts=frozenset({"127.0.0.1"})),
    )
    yield s
    s.close()


def rendered_text(
    session: RenderSession, url: str, waits: Waits | None, timeout: float
) -> tuple[str, list[str]]:
    r = session.render(url, deadline=time.monotonic() + timeout, waits=waits)
    return extract_text(r.html), r.notes


@needs_browser
def test_the_quiet_wait_reads_a_late_page_early(
    session: RenderSession, server: FixtureServer
) -> None:
    text, notes = rendered_text(session, server.url("late.html"), None, 15)
    assert text == "Loading the timetable, please wait."
    assert notes == []


@needs_browser
def test_wait_for_reads_the_page_once_the_element_has_text(
    session: RenderSession, server: FixtureServer
) -> None:
    text, notes = rendered_text(session, server.url("late.html"), Waits(selector="#done"), 15)
    assert text.startswith("# Harbour timetable")
    assert "The first ferry leaves at six" in text
    assert notes == []


@needs_browser
def test_the_deadline_ends_wait_for_with_a_note(
    session: RenderSession, server: FixtureServer
) -> None:
    text, notes = rendered_text(session, server.url("later.html"), Waits(selector="#never"), 3)
    assert text == "Loading the timetable, please wait."
    assert len(notes) == 1
    assert notes[0].startswith('--wait-for "#never": the deadline ended the wait after ')
    assert notes[0].endswith("(it was not there); printed what the page held then")


@needs_browser
def test_a_fixed_wait_after_load(session: RenderSession, server: FixtureServer) -> None:
    text, notes = rendered_text(session, server.url("late.html"), Waits(fixed_ms=2500), 15)
    assert text.startswith("# Harbour timetable") and notes == []
    text, notes = rendered_text(session, server.url("later.html"), Waits(fixed_ms=9000), 3)
    assert text == "Loading the timetable, please wait."
    assert notes[0].startswith("--wait 9000: the deadline ended the wait after ")


# ------------------------------------------------------------------ the command line


def wf_process(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(VENV_BIN / "wf"), *ALLOW, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=timeout,
    )


@needs_browser
def test_wf_render_always_wait_for_prints_the_late_text(server: FixtureServer) -> None:
    r = wf_process("--render", "always", "--wait-for", "#done", server.url("late.html"))
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == (
        "# Harbour timetable\n\n"
        "The first ferry leaves at six and the last one returns at midnight.\n"
    )
    quiet = wf_process("--render", "always", server.url("late.html"))
    assert (quiet.returncode, quiet.stdout) == (0, "Loading the timetable, please wait.\n")


@needs_browser
def test_wf_says_when_the_deadline_ended_the_wait(server: FixtureServer) -> None:
    r = wf_process(
        "--render", "always", "--timeout", "4", "--wait-for", "#never", server.url("later.html")
    )
    assert r.returncode == 0
    assert r.stdout == "Loading the timetable, please wait.\n"
    assert r.stderr.startswith('wf: note: --wait-for "#never": the deadline ended the wait after ')
    assert r.stderr.count("\n") == 1


@needs_browser
def test_select_applies_to_the_rendered_page(server: FixtureServer) -> None:
    # The static page has no .byline: auto mode renders it before giving the selector up.
    r = wf_process("--select", ".byline", server.url("spa.html"))
    assert (r.returncode, r.stdout) == (0, "By the survey team\n")
    never = wf_process("--render", "never", "--select", ".byline", server.url("spa.html"))
    assert never.returncode == 65 and never.stdout == ""
    assert never.stderr.startswith("wf: (65) --select '.byline' matched nothing on ")
