"""Renders in a real headless Chromium, inside a loopback-only network namespace."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from common.errors import PolicyRefused, Timeout
from common.policy import Policy
from tests.fixtures.render.server import (
    FixtureServer,
    Tripwire,
    browser_skip_reason,
    wait_until,
)
from wf.extract import extract_text
from wf.render import Rendered, RenderOptions, RenderSession
from wf.render import tab as tab_mod
from wf.render.procs import browser_processes

REASON = browser_skip_reason()
pytestmark = [pytest.mark.browser, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

POLICY = Policy(allow_hosts=frozenset({"127.0.0.1"}))


@pytest.fixture(scope="module")
def session() -> Iterator[RenderSession]:
    """One browser for the module's renders (as a batch shares one)."""
    s = RenderSession(RenderOptions(mode="always", timeout=15), policy=POLICY)
    yield s
    s.close()


def render(session: RenderSession, url: str, timeout: float = 15) -> Rendered:
    return session.render(url, deadline=time.monotonic() + timeout)


def test_a_single_page_app_renders(session: RenderSession, server: FixtureServer) -> None:
    r = render(session, server.url("spa.html"))
    text = extract_text(r.html)
    assert text.startswith("# Field notes from a quiet valley")
    assert "Our last survey day ended with a storm" in text
    assert (r.final_url, r.status, r.blocked, r.notes) == (server.url("spa.html"), 200, [], [])
    assert set(r.timings) == {"launch", "context", "navigate", "quiet", "dom", "total"}


def test_content_fetched_after_load_is_waited_for(
    session: RenderSession, server: FixtureServer
) -> None:
    text = extract_text(render(session, server.url("spa_fetch.html")).html)
    assert "This paragraph arrived from an API call that took a while to answer." in text


def test_content_added_by_a_short_timer_is_waited_for(
    session: RenderSession, server: FixtureServer
) -> None:
    assert "added by a timer 400 ms after" in extract_text(
        render(session, server.url("spa_timer.html")).html
    )


def test_open_shadow_roots_are_read(session: RenderSession, server: FixtureServer) -> None:
    text = extract_text(render(session, server.url("shadow.html")).html)
    assert "Text that lives inside an open shadow root." in text
    assert "And a nested shadow root inside it." in text


def test_a_dialog_does_not_block_the_page(session: RenderSession, server: FixtureServer) -> None:
    assert "written after an alert box was closed" in extract_text(
        render(session, server.url("dialog.html")).html
    )


def test_the_rendered_dom_is_capped(
    session: RenderSession, server: FixtureServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tab_mod, "DOM_CAP", 1_000_000)  # the page makes 1.5 MB
    r = render(session, server.url("big.html"), timeout=30)
    assert len(r.html) == 1_000_000
    assert r.notes and r.notes[0].startswith("rendered DOM cut at 1000000 of 15")


def test_a_page_that_never_settles_is_read_when_its_time_is_up(
    session: RenderSession, server: FixtureServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tab_mod, "SETTLE_CAP", 1.0)
    r = render(session, server.url("churn.html"))
    assert "The ticker above changes every 30 ms, forever." in extract_text(r.html)


def test_an_endless_script_is_stopped_at_the_deadline(
    session: RenderSession, server: FixtureServer
) -> None:
    with pytest.raises(Timeout, match="render timed out"):
        render(session, server.url("busy.html"), timeout=2)
    # The browser is still fine for the next page.
    assert "Field notes" in render(session, server.url("spa.html")).html


def test_a_server_that_never_answers_is_a_timeout(
    session: RenderSession, server: FixtureServer
) -> None:
    with pytest.raises(Timeout):
        render(session, f"{server.origin}/hang", timeout=1)


def test_an_error_status_is_reported(session: RenderSession, server: FixtureServer) -> None:
    r = render(session, f"{server.origin}/status/404")
    assert r.status == 404 and "Status 404" in r.html


def test_a_redirect_to_a_forbidden_address_is_refused(
    session: RenderSession, server: FixtureServer, tripwire: Tripwire
) -> None:
    with pytest.raises(PolicyRefused, match="127.0.0.2"):
        render(session, f"{server.origin}/redirect?to={tripwire.origin}/top")
    with pytest.raises(PolicyRefused, match="127.0.0.2"):
        render(session, server.url("jsnav.html"))
    time.sleep(0.2)
    assert tripwire.hits == []


def test_a_download_is_refused_and_nothing_is_written(
    session: RenderSession, server: FixtureServer, tmp_path: Path
) -> None:
    with pytest.raises(Exception, match="ERR_ABORTED"):
        render(session, f"{server.origin}/download")
    home = Path(os.path.expanduser("~"))
    assert not list(home.glob("Downloads/wf-download-test*"))


def test_the_user_agent_does_not_say_headless(
    session: RenderSession, server: FixtureServer
) -> None:
    server.user_agents.clear()
    text = extract_text(render(session, server.url("ua.html")).html)
    assert "Chrome/" in text and "Headless" not in text
    assert server.user_agents and all(
        "Headless" not in ua and "Chrome/" in ua for ua in server.user_agents
    )


def test_an_explicit_user_agent_is_used(server: FixtureServer) -> None:
    with RenderSession(RenderOptions(mode="always"), policy=POLICY, user_agent="wf-test/1.0") as s:
        text = extract_text(render(s, server.url("ua.html")).html)
    assert "agent: wf-test/1.0" in text


def test_names_are_resolved_by_wf_and_checked(
    server: FixtureServer, tripwire: Tripwire, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only this process can resolve these names (there is no DNS in the namespace): the
    # page loads because the browser hands names to the policy proxy, which resolves and
    # checks them; a name that resolves to a forbidden address is refused.
    real = socket.getaddrinfo
    names = {"pages.wf-test": "127.0.0.1", "evil.wf-test": "127.0.0.2"}

    def fake(host: str, port: object, *args: object, **kw: object) -> object:
        return real(names.get(host, host), port, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    policy = Policy(allow_hosts=frozenset({"127.0.0.1", "pages.wf-test"}))
    with RenderSession(RenderOptions(mode="always"), policy=policy) as s:
        r = render(s, f"http://pages.wf-test:{server.port}/f/spa.html")
        assert "Field notes from a quiet valley" in extract_text(r.html)
        assert r.final_url == f"http://pages.wf-test:{server.port}/f/spa.html"
        with pytest.raises(PolicyRefused, match=r"evil.wf-test \(127.0.0.2\)"):
            render(
                s,
                f"http://pages.wf-test:{server.port}/redirect?to=http://evil.wf-test:{tripwire.port}/",
            )
    time.sleep(0.2)
    assert tripwire.hits == []


def test_a_context_brings_up_its_page_and_no_browser_ui(
    session: RenderSession, server: FixtureServer
) -> None:
    # Chromium 156 gave each new window (one per incognito context) an omnibox popup
    # made of two WebUI pages in a renderer of their own: 0.7 s of CPU a context.
    render(session, server.url("spa.html"))  # the browser is up
    link = session._link
    assert link is not None
    ctx = tab_mod.Context(link, deadline=time.monotonic() + 10)
    try:
        time.sleep(0.3)  # the window's own pages would be loading by now
        infos = link.conn.call("Target.getTargets", timeout=5, filter=[{}])["targetInfos"]
        mine = sorted(t["type"] for t in infos if t.get("browserContextId") == ctx.ctx_id)
    finally:
        ctx.dispose()
    assert mine == ["page", "tab"]


def test_concurrent_renders_share_the_browser(
    session: RenderSession, server: FixtureServer
) -> None:
    results: list[str] = []
    errors: list[BaseException] = []

    def one(name: str) -> None:
        try:
            results.append(extract_text(render(session, server.url(name)).html))
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=one, args=(n,))
        for n in ("spa.html", "spa_fetch.html", "shadow.html", "spa_timer.html")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(results) == 4 and all(results)


def test_a_dead_browser_is_replaced(server: FixtureServer) -> None:
    with RenderSession(RenderOptions(mode="always"), policy=POLICY) as s:
        first = render(s, server.url("spa.html"))
        assert first.timings["launch"] > 0
        launched = s._launched
        assert launched is not None
        os.killpg(launched.pid, signal.SIGKILL)
        second = render(s, server.url("spa.html"))  # health check fails: relaunch
        assert second.timings["launch"] > 0 and "Field notes" in second.html
        assert s._launched is not None and s._launched.pid != launched.pid
    assert browser_processes(launched.pid, launched.profile) == []
    assert not launched.profile.exists()


def test_close_leaves_no_process_and_no_profile(server: FixtureServer) -> None:
    before = set(threading.enumerate())  # (the module's session has threads of its own)
    s = RenderSession(RenderOptions(mode="always"), policy=POLICY)
    render(s, server.url("spa.html"))
    render(s, server.url("spa.html"))  # a second render prepares a spare context
    launched = s._launched
    assert launched is not None and launched.profile.exists()
    s.close()
    assert browser_processes(launched.pid, launched.profile) == []
    assert not launched.profile.exists()
    # The pipe's reader and every session's event thread end with it; no zombie is left.
    assert launched.wire.closed

    def ours() -> list[str]:
        return [t.name for t in set(threading.enumerate()) - before if t.name.startswith("wf-cdp")]

    assert wait_until(lambda: not ours(), timeout=3), ours()
    assert launched.proc is not None and launched.proc.returncode is not None
