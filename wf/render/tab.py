"""One render in one tab: a fresh incognito context, one page, navigate, wait until the DOM is
quiet, read the DOM (capped), dispose of the context.

The quiet wait is adaptive. A page is done when it has parsed (and loaded, or has
been parsing-complete for a while), no script, fetch or XHR request is in flight, no
short timer is pending, and the DOM has not changed for a window that starts at 50 ms
and grows with the longest unexplained pause the page has shown before changing again
(capped at 500 ms). A page that never settles is read when its time is up.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from common.errors import PolicyRefused, RenderError, Timeout
from wf.render.cdp import CDPClosed, CDPError, CDPTimeout, Connection
from wf.render.crew import Crew
from wf.render.intercept import CheckedResolver, FetchInterceptor, RefusedLog
from wf.render.proxy import PolicyProxy
from wf.render.waits import Waits, wait_fixed, wait_for

DOM_CAP = 10 * 1024 * 1024  # characters of serialised DOM
MIN_QUIET = 0.05
MAX_QUIET = 0.5
POLL = 0.02
LOAD_GRACE = 1.0  # parsed this long without a load event: stop waiting for images
TIMER_BUDGET = 1.5  # short timers hold the wait at most this long after parsing
LONG_REQUEST = 3.0  # a request older than this is a long poll, not page building
SETTLE_CAP = 5.0  # never wait longer than this after parsing for the DOM to settle
READ_MARGIN = 1.0  # time kept for reading the DOM before the render deadline
TRACKED_TYPES = ("Script", "XHR", "Fetch")


def _script(name: str) -> str:
    # Package data, so an installed wheel carries it (pyproject.toml: package-data).
    return resources.files("wf.render").joinpath("js", name).read_text(encoding="utf-8")


TRACKER_JS = _script("tracker.js")  # installed in the top frame before the page's scripts
READ_JS = _script("read.js")  # a function of the cap, called as (READ_JS)(DOM_CAP)


@dataclass
class BrowserLink:
    """What a render needs of the running browser (shared by concurrent renders)."""

    conn: Connection
    interceptor: FetchInterceptor
    resolver: CheckedResolver
    user_agent: str | None
    ua_metadata: dict[str, Any] | None
    # The session's: threads a render leaves running (disposal, a dialog's answer) are
    # enlisted here, and the session's close waits for them.
    crew: Crew = field(default_factory=Crew)


@dataclass
class TabOutcome:
    html: str
    final_url: str
    status: int | None
    blocked: list[str]
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class _Requests:
    """Script, fetch and XHR requests in flight, from the page's Network events.

    A script counts until it has loaded (it runs after that); a fetch or XHR until its
    answer's headers arrive, because a page may never read a body it does not need, and
    then Chromium never finishes loading it. Body bytes still arriving count as activity.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[str, float] = {}
        self._seen: set[str] = set()
        self.last_change = time.monotonic()

    def sent(self, requestId: str, type: str = "", loaderId: str = "", **_: Any) -> None:  # noqa: A002 (CDP's name)
        # A worker's own script has no loader: its end is reported to the worker's
        # target, never to the page's, so it would look pending forever.
        if type in TRACKED_TYPES and loaderId:
            with self._lock:
                self._live.setdefault(requestId, time.monotonic())
                self._seen.add(requestId)
                self.last_change = time.monotonic()

    def answered(self, requestId: str, type: str = "", **_: Any) -> None:  # noqa: A002
        if type in ("XHR", "Fetch"):
            self.ended(requestId)

    def data(self, requestId: str, **_: Any) -> None:
        if requestId in self._seen:
            self.last_change = time.monotonic()

    def ended(self, requestId: str, **_: Any) -> None:
        with self._lock:
            if self._live.pop(requestId, None) is not None:
                self.last_change = time.monotonic()

    def pending(self, now: float) -> int:
        with self._lock:
            return sum(1 for t in self._live.values() if now - t < LONG_REQUEST)


class Context:
    """A fresh incognito context with one blank page, set up and ready to navigate.

    It has its own policy proxy and its own record of what the policy blocked, so
    concurrent renders (a batch) report only their own blocked requests.
    """

    def __init__(self, link: BrowserLink, *, deadline: float) -> None:
        self.link = link
        self.blocked = RefusedLog()
        self.requests = _Requests()
        self.proxy = PolicyProxy(link.resolver, self.blocked)
        self.ctx_id: str | None = None
        self.page: Connection | None = None
        self._disposed = False
        try:
            self._open(deadline)
        except BaseException:
            self.dispose()
            raise

    def _open(self, deadline: float) -> None:
        conn = self.link.conn
        self.ctx_id = _field(
            conn.call(
                "Target.createBrowserContext",
                timeout=_left(deadline),
                disposeOnDetach=True,
                proxyServer=f"http://{self.proxy.address}",
                proxyBypassList="<-loopback>",
            ),
            "browserContextId",
        )
        _, created = conn.call_batch(
            [
                (
                    "Browser.setDownloadBehavior",
                    {"behavior": "deny", "browserContextId": self.ctx_id},
                ),
                ("Target.createTarget", {"url": "about:blank", "browserContextId": self.ctx_id}),
            ],
            timeout=_left(deadline),
        )
        target = _field(created, "targetId")
        self.blocked.frames.add(target)
        page = self.page = conn.attach(target, timeout=min(5.0, _left(deadline)))
        page.on("Network.requestWillBeSent", self.requests.sent)
        page.on("Network.responseReceived", self.requests.answered)
        page.on("Network.dataReceived", self.requests.data)
        page.on("Network.loadingFinished", self.requests.ended)
        page.on("Network.loadingFailed", self.requests.ended)
        page.on("Page.frameAttached", lambda frameId, **_: self.blocked.frames.add(frameId))
        crew = self.link.crew
        page.on("Page.javascriptDialogOpening", lambda **_: _dismiss_dialog(page, crew))
        setup: list[tuple[str, dict[str, Any]]] = [
            ("Page.enable", {}),
            # A file chooser the page opens is taken over and never answered: nothing
            # from our disk reaches a page through a file input.
            ("Page.setInterceptFileChooserDialog", {"enabled": True}),
            ("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}),
            ("Page.addScriptToEvaluateOnNewDocument", {"source": TRACKER_JS}),
        ]
        if self.link.user_agent:
            override: dict[str, Any] = {
                "userAgent": self.link.user_agent,
                "acceptLanguage": "en-US,en;q=0.9",
            }
            if self.link.ua_metadata:
                override["userAgentMetadata"] = self.link.ua_metadata
            setup.append(("Network.setUserAgentOverride", override))
        # Navigating in the same batch was measured 15 ms faster, but then the tracker
        # sometimes missed the first document: the renderer was not ready for it yet.
        page.call_batch(setup, timeout=_left(deadline))

    def dispose(self) -> None:
        if self._disposed:
            return
        self._disposed = True
        try:
            if self.page is not None:
                self.page.close()
            if self.ctx_id is not None:
                with contextlib.suppress(CDPError):
                    self.link.conn.call(
                        "Target.disposeBrowserContext", timeout=2.0, browserContextId=self.ctx_id
                    )
        finally:
            self.proxy.close()

    def dispose_soon(self) -> None:
        """Dispose in the background: the browser may be busy making the next context,
        and the render's result does not wait for that. If the browser goes away first,
        the context goes with it (a private browser is killed; a shared one disposes of
        our contexts when our connection closes)."""
        if self.page is not None:
            self.page.close()  # no more events from a page that is done
        self.link.crew.start(self.dispose, name="wf-dispose")


def _field(answer: dict[str, Any], name: str) -> str:
    value = answer.get(name)
    if not isinstance(value, str):
        raise CDPError(f"the browser's answer has no {name}")
    return value


def render_in(ctx: Context, url: str, *, deadline: float, waits: Waits | None = None) -> TabOutcome:
    """Render ``url`` in a prepared context, then dispose of it; ``waits`` (--wait-for,
    --wait) change what the render waits for before it reads the page.

    Raises RenderError, Timeout, or PolicyRefused when a redirect leads where the
    policy forbids."""
    t0 = time.monotonic()
    interceptor = ctx.link.interceptor
    interceptor.watch(ctx.blocked)
    try:
        outcome = _drive(ctx, url, deadline=deadline, waits=waits or Waits())
        outcome.blocked = ctx.blocked.items()
        return outcome
    except CDPTimeout:
        raise Timeout(f"render timed out after {time.monotonic() - t0:.1f} s") from None
    except CDPError as exc:
        raise RenderError(f"browser failed during render: {exc}") from None
    finally:
        interceptor.unwatch(ctx.blocked)
        ctx.dispose_soon()


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise CDPTimeout("deadline passed")
    return left


def _drive(ctx: Context, url: str, *, deadline: float, waits: Waits) -> TabOutcome:
    assert ctx.page is not None
    page = ctx.page
    timings: dict[str, float] = {}
    t1 = time.monotonic()
    try:
        nav = page.call("Page.navigate", timeout=_left(deadline), url=url)
    except CDPTimeout:
        with contextlib.suppress(CDPError):
            page.call("Page.stopLoading", timeout=_grace(deadline))
        raise Timeout(f"render timed out: {url[:200]} did not answer in time") from None
    error = nav.get("errorText")
    if error:
        _navigation_failed(url, error, ctx.blocked)
    notes: list[str] = []
    if waits.selector:  # --wait-for: the element with text, not quiet, says it is done
        notes += filter(None, [wait_for(page, waits.selector, until=deadline - READ_MARGIN)])
        quiet_start = time.monotonic()
        timings["navigate"] = quiet_start - t1
    else:
        timings["navigate"], quiet_start = _wait_quiet(
            page, ctx.requests, deadline=deadline, t_nav=t1
        )
    if waits.fixed_ms:
        notes += filter(None, [wait_fixed(waits.fixed_ms, until=deadline - READ_MARGIN)])
    t3 = time.monotonic()
    timings["quiet"] = t3 - quiet_start
    data = _read_dom(page, deadline)
    timings["dom"] = time.monotonic() - t3
    final_url = data.get("url") or url
    if final_url.startswith("chrome-error:"):
        # The page went somewhere the browser could not load: a script navigation or
        # a redirect the policy refused, or a network error.
        reasons = ctx.blocked.items()
        if reasons:
            raise PolicyRefused(f"the page led to an address the policy refuses: {reasons[-1]}")
        raise RenderError(f"the browser could not load {url[:200]} (it showed an error page)")
    html = data.get("html") or ""
    if (data.get("length") or 0) > len(html):
        notes.append(f"rendered DOM cut at {DOM_CAP} of {data['length']} characters")
    return TabOutcome(
        html=html,
        final_url=final_url,
        status=data.get("status"),
        blocked=[],
        timings=timings,
        notes=notes,
    )


def _navigation_failed(url: str, error: str, blocked: RefusedLog) -> None:
    if "ERR_BLOCKED_BY_CLIENT" in error or "ERR_TUNNEL_CONNECTION_FAILED" in error:
        reasons = blocked.items()
        if reasons:
            raise PolicyRefused(f"the page led to an address the policy refuses: {reasons[0]}")
    raise RenderError(f"browser could not load {url[:200]}: {error}")


def _wait_quiet(
    page: Connection, requests: _Requests, *, deadline: float, t_nav: float
) -> tuple[float, float]:
    """Poll until the page is quiet; returns (navigate time, when the quiet wait began)."""
    hard_limit = deadline - READ_MARGIN
    parsed_at: float | None = None
    while True:
        now = time.monotonic()
        limit = hard_limit if parsed_at is None else min(hard_limit, parsed_at + SETTLE_CAP)
        if now >= limit:
            break
        state = _poll(page, timeout=max(0.05, min(2.0, limit - now)))
        now = time.monotonic()
        if state is not None:
            ready, since_mut, gap, timers, js_pending, since_dcl, since_act = state
            if ready != "loading" and parsed_at is None:
                parsed_at = now - max(0.0, since_dcl / 1000.0)
            window = min(MAX_QUIET, max(MIN_QUIET, 1.5 * gap / 1000.0))
            loaded = ready == "complete" or (
                ready == "interactive" and since_dcl / 1000.0 >= LOAD_GRACE
            )
            busy = (
                js_pending > 0
                or requests.pending(now) > 0
                or (timers > 0 and parsed_at is not None and now - parsed_at < TIMER_BUDGET)
            )
            quiet_for = min(since_mut / 1000.0, since_act / 1000.0, now - requests.last_change)
            if loaded and not busy and quiet_for >= window:
                break
        time.sleep(POLL)
    if parsed_at is None:
        # Never parsed: either still about:blank (no answer) or one endless script.
        _stop_scripts(page, deadline)
        raise Timeout("render timed out before the page finished parsing")
    return parsed_at - t_nav, parsed_at


POLL_JS = _script("poll.js")


def _poll(page: Connection, *, timeout: float) -> list[Any] | None:
    try:
        result = page.call(
            "Runtime.evaluate", timeout=timeout, expression=POLL_JS, returnByValue=True
        )
        if result.get("result", {}).get("value") == "no tracker":
            page.call("Runtime.evaluate", timeout=timeout, expression=TRACKER_JS)
            return None
    except CDPTimeout:
        return None  # the page's main thread is busy; try again until the limit
    except CDPClosed:
        raise
    except CDPError:
        return None  # the page navigated meanwhile (its context is gone); ask the new one
    value = result.get("result", {}).get("value")
    return value if isinstance(value, list) and len(value) == 7 else None


def _read_dom(page: Connection, deadline: float) -> dict[str, Any]:
    for attempt in range(3):
        try:
            result = page.call(
                "Runtime.evaluate",
                timeout=max(0.2, deadline - time.monotonic()),
                expression=f"({READ_JS})({DOM_CAP})",
                returnByValue=True,
            )
            break
        except CDPTimeout:
            _stop_scripts(page, deadline)
            raise Timeout("render timed out: a script kept the page busy (stopped it)") from None
        except CDPClosed:
            raise
        except CDPError:
            if attempt == 2:
                raise
            time.sleep(POLL)  # the page navigated while we read it: read the new one
    if "exceptionDetails" in result:
        raise RenderError(
            f"could not read the rendered DOM: {result['exceptionDetails'].get('text', 'error')}"
        )
    value = result.get("result", {}).get("value")
    if not isinstance(value, dict):
        raise RenderError("could not read the rendered DOM")
    return value


def _grace(deadline: float) -> float:
    """Time for a last command once the deadline is near or past: the rest, at least 0.1 s."""
    return max(0.1, min(1.0, deadline - time.monotonic()))


def _stop_scripts(page: Connection, deadline: float) -> None:
    # Runs on the renderer's IO thread, so it stops even `while (true) {}`.
    with contextlib.suppress(CDPError):
        page.call("Runtime.terminateExecution", timeout=_grace(deadline))


def _dismiss_dialog(page: Connection, crew: Crew) -> None:
    # alert/confirm/prompt block the page's scripts; answer from another thread so the
    # event thread keeps delivering events meanwhile.
    def answer() -> None:
        with contextlib.suppress(CDPError, CDPClosed):
            page.call("Page.handleJavaScriptDialog", timeout=2.0, accept=True)

    crew.start(answer, name="wf-dialog")
