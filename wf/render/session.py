"""RenderSession: one per wf process. The browser starts on the first render, is
health-checked before each later one, and is shared by concurrent renders (a batch)."""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from common.errors import DNSError, RenderError, Timeout, ToolError
from common.http.url import default_port
from common.policy import Policy, check_scheme
from wf.options import RenderOptions
from wf.render.breaker import CircuitBreaker
from wf.render.cdp import CDPClosed, CDPError, CDPTimeout, Connection, preload
from wf.render.chromium import Launched, find_browser, launch
from wf.render.crew import CLOSE_GRACE, Crew
from wf.render.intercept import CheckedResolver, FetchInterceptor
from wf.render.profiles import profile_root
from wf.render.rendered import Rendered
from wf.render.tab import BrowserLink, Context, render_in
from wf.render.waits import Waits

HEALTH_TIMEOUT = 2.0
HEALTH_FRESH = 2.0  # seconds after a successful render in which no ping is needed
SPARE_TIMEOUT = 15.0


class RenderSession:
    def __init__(
        self, opts: RenderOptions, *, policy: Policy, user_agent: str | None = None
    ) -> None:
        self.opts = opts
        self.policy = policy
        self.user_agent = user_agent
        self._resolver = CheckedResolver(policy)
        self._lock = threading.Lock()
        self._closed = False
        self._launched: Launched | None = None
        self._shared: Any = None  # keeper.SharedBrowser when WF_RENDER_KEEPALIVE is set
        self._link: BrowserLink | None = None
        self._spare: Future[Context] | None = None
        self._spare_pool: ThreadPoolExecutor | None = None
        self._renders = 0
        self._last_ok = 0.0
        self._warming: threading.Thread | None = None
        self._warm_error: BaseException | None = None
        self._closing = threading.Event()
        self._notes: list[str] = []  # conveniences turned off, for the next Rendered
        self._noted: set[str] = set()
        self._lock_notes = threading.Lock()
        # Every thread the session starts that outlives the code starting it: close()
        # returns once they have ended (wf/render/crew.py).
        self._crew = Crew()
        atexit.register(self.close)

    def __enter__(self) -> RenderSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def prewarm(self) -> None:
        """Start the browser and a first context in the background, e.g. while the page
        is fetched statically in ``--render always`` mode. render() waits for them, and a
        failed launch is reported by render(), not tried a second time."""
        with self._lock:
            if self._closed or self._link is not None or self._warming is not None:
                return
            self._warming = self._crew.start(self._prewarm, name="wf-prewarm")

    def _prewarm(self) -> None:
        try:
            link, _ = self._browser(time.monotonic() + self.opts.timeout)
        except Exception as exc:
            self._warm_error = exc
            return
        with self._lock:
            if not self._closed and self._spare is None and self._link is link:
                self._spare = self._spares().submit(
                    Context, link, deadline=time.monotonic() + SPARE_TIMEOUT
                )

    def render(self, url: str, *, deadline: float, waits: Waits | None = None) -> Rendered:
        start = time.monotonic()
        deadline = min(deadline, start + self.opts.timeout)
        self._check_target(url, deadline)
        link, launch_time = self._browser(deadline)
        t_ctx = time.monotonic()
        try:
            try:
                ctx = self._context(link, deadline)
            except CDPClosed:
                if launch_time:
                    raise
                # The browser we reused died since it last answered: start another.
                self._discard(link)
                link, launch_time = self._browser(deadline)
                t_ctx = time.monotonic()
                ctx = self._context(link, deadline)
            context_time = time.monotonic() - t_ctx
            try:
                outcome = render_in(ctx, url, deadline=deadline, waits=waits)
            finally:
                # After, not during: made alongside a render (even during its quiet
                # wait), the next context slowed that render down as much as it saved.
                self._prepare_spare(link)
        except RenderError:
            self._forget_if_dead(link)
            raise
        except CDPTimeout:
            raise Timeout(f"render timed out after {time.monotonic() - start:.1f} s") from None
        except CDPError as exc:
            self._forget_if_dead(link)
            raise RenderError(f"browser failed during render: {exc}") from None
        self._last_ok = time.monotonic()
        timings = {
            "launch": launch_time,
            "context": context_time,
            **outcome.timings,
            "total": time.monotonic() - start,
        }
        return Rendered(
            html=outcome.html,
            final_url=outcome.final_url,
            status=outcome.status,
            blocked=outcome.blocked,
            timings=timings,
            notes=[*self._take_notes(), *outcome.notes],
        )

    def close(self) -> None:
        """Stop the browser and every thread of the session; idempotent.

        The work runs on a thread of its own: an exception a signal handler raises in
        the caller (a cancel) then interrupts only the wait for it, not the closing,
        which went unfinished (the browser, its threads and a zombie left running) when
        the cancel came while the session was closing. The exception goes on once the
        session is closed."""
        self._closing.set()  # a launch in progress (another thread) gives up at once
        closed = threading.Event()

        def close() -> None:
            try:
                self._close()
            finally:
                closed.set()

        closer = threading.Thread(target=close, name="wf-close", daemon=True)
        try:
            closer.start()
        except RuntimeError:  # at interpreter exit (atexit) no thread may start
            self._close()
            return
        # An Event first, not join(): Python 3.11's join() interrupted by an exception
        # marks the thread ended while it runs, and a second join() returns at once.
        try:
            closed.wait()
        except BaseException:
            closed.wait()
            closer.join()
            raise
        closer.join()  # it has set the Event: only its last steps are left

    def _close(self) -> None:
        with self._lock:
            self._closed = True
            self._teardown()
            pool, self._spare_pool = self._spare_pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        # The browser is gone, so each of them is ending (a call on its connection
        # fails at once); waited for, so that none outlives the caller's call.
        self._crew.join(time.monotonic() + CLOSE_GRACE)
        with contextlib.suppress(Exception):
            atexit.unregister(self.close)

    # ------------------------------------------------------------ internals

    def _context(self, link: BrowserLink, deadline: float) -> Context:
        """The spare context when one is (being) prepared, else a new one."""
        with self._lock:
            spare, self._spare = self._spare, None
            self._renders += 1
        if spare is not None:
            try:
                ctx = spare.result(timeout=max(0.0, deadline - time.monotonic()))
            except BaseException as exc:
                # Not waited for to the end (out of time, or a cancel raised here): the
                # context made after all is disposed of by the thread that made it,
                # which close() joins; forgotten, its proxy's thread lived on for good.
                spare.add_done_callback(_dispose_spare)
                if not isinstance(exc, Exception):
                    raise
                ctx = None
            if (
                ctx is not None
                and ctx.link is link
                and ctx.page is not None
                and not ctx.page.closed
            ):
                return ctx
            if ctx is not None:
                ctx.dispose()
        return Context(link, deadline=deadline)

    def _prepare_spare(self, link: BrowserLink) -> None:
        """From the second render on, more are likely (a batch): prepare the next
        context now, so the next render skips about 0.2 s of context set-up."""
        with self._lock:
            if (
                self._closed
                or self._spare is not None
                or self._renders < 2
                or self._link is not link
            ):
                return
            self._spare = self._spares().submit(
                Context, link, deadline=time.monotonic() + SPARE_TIMEOUT
            )

    def _spares(self) -> ThreadPoolExecutor:
        if self._spare_pool is None:
            self._spare_pool = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="wf-spare", initializer=self._crew.enlist
            )
        return self._spare_pool

    def _check_target(self, url: str, deadline: float) -> None:
        """The top-level URL itself must pass the policy before a browser starts."""
        parts = urlsplit(url)
        check_scheme(parts.scheme, url[:200])
        if not parts.hostname:
            raise RenderError(f"cannot render {url[:200]}: no host")
        port = default_port(parts)
        try:
            self._resolver.addresses(parts.hostname, port, deadline=deadline)
        except DNSError as exc:
            raise RenderError(f"cannot render: {exc.message}") from None

    def _browser(self, deadline: float) -> tuple[BrowserLink, float]:
        warming = self._warming
        if warming is not None and warming is not threading.current_thread():
            t0 = time.monotonic()
            warming.join(max(0.0, deadline - t0))  # its launch is this render's launch
            link, _ = self._browser_now(deadline)
            return link, time.monotonic() - t0
        return self._browser_now(deadline)

    def _browser_now(self, deadline: float) -> tuple[BrowserLink, float]:
        with self._lock:
            if self._closed:
                raise RenderError("the render session is closed")
            if self._warm_error is not None:
                error, self._warm_error = self._warm_error, None
                raise error
            if self._link is not None:
                if self._healthy(self._link, deadline):
                    return self._link, 0.0
                self._teardown()
            t0 = time.monotonic()
            self._link = self._start(deadline)
            return self._link, time.monotonic() - t0

    def _healthy(self, link: BrowserLink, deadline: float) -> bool:
        if link.conn.closed or (self._launched is not None and not self._launched.alive()):
            return False
        if time.monotonic() - self._last_ok < HEALTH_FRESH:
            return True  # it answered a moment ago; a ping would only queue behind its work
        try:
            link.conn.call(
                "Browser.getVersion",
                timeout=min(HEALTH_TIMEOUT, max(0.05, deadline - time.monotonic())),
            )
        except CDPError:
            return False
        self._last_ok = time.monotonic()
        return True

    def _note(self, note: str) -> None:
        """Say once, on stderr and in the next render's notes, that a convenience is off."""
        from common.output import diag

        with self._lock_notes:
            if note in self._noted:
                return
            self._noted.add(note)
            self._notes.append(note)
        diag("wf", f"note: {note}")

    def _take_notes(self) -> list[str]:
        with self._lock_notes:
            notes, self._notes = self._notes, []
        return notes

    def _breaker(self) -> CircuitBreaker | None:
        """The launch circuit breaker, or None (with a note) when there is no state dir
        of ours: it only saves repeated failed launches, so rendering goes on without it."""
        from common.paths import DirUnusable, state_dir

        try:
            path = state_dir(create=False)
            if os.path.lexists(path):
                state_dir()  # there already: used only when it is ours
            # Created on the first failure only: a render that stores nothing makes no dir.
            return CircuitBreaker(path / "render-circuit.json")
        except DirUnusable as exc:
            self._note(f"no launch circuit breaker: {exc.message}")
            return None

    def _count_failure(self, breaker: CircuitBreaker) -> None:
        from common.paths import DirUnusable

        try:
            breaker.failed()
        except DirUnusable as exc:  # no state dir of ours to keep the count in
            self._note(f"no launch circuit breaker: {exc.message}")

    def _keeper_root(self) -> Any:
        """The keep-alive directory, or None (with a note): then the browser is private."""
        from wf.render.keeper import keepalive_dir

        try:
            return keepalive_dir()
        except RenderError as exc:
            message = exc.message.removeprefix("keep-alive is off: ")
            self._note(f"keep-alive is off (this browser is private to this run): {message}")
            return None

    def _start(self, deadline: float) -> BrowserLink:
        binary = find_browser(self.opts.browser)  # a missing browser is not a failure
        breaker = self._breaker()
        if breaker is not None:
            breaker.check()
        shared_root = self._keeper_root() if self.opts.keepalive > 0 else None
        # No directory of ours for profiles is no failure of the browser: not counted.
        profiles = profile_root() if shared_root is None else None
        from common.paths import runtime_fallback

        why = runtime_fallback()
        if why is not None and shared_root is None and self.opts.keepalive <= 0:  # else said above
            self._note(f"using a private runtime dir for this run: {why}")
        # pychrome loads while the browser starts (about 0.1 s saved).
        importer = self._crew.start(preload, name="wf-preload")
        try:
            if shared_root is not None:
                from wf.render.keeper import attach

                self._shared = attach(
                    binary, self.opts.keepalive, deadline=deadline, root=shared_root
                )
                launched = self._shared.launched
            else:
                assert profiles is not None
                launched = self._launched = launch(
                    binary, profile_root=profiles, deadline=deadline, abort=self._closing
                )
            # Bounded: an import in another thread can hang for good (the import lock
            # left held by a cancel raised inside an import), and then _connect would too.
            importer.join(max(0.0, deadline - time.monotonic()))
            if importer.is_alive():
                raise Timeout("timed out loading the DevTools client (pychrome)")
            link = self._connect(launched, deadline)
        except RenderError:
            if breaker is not None and not self._closing.is_set():  # shutting down is no failure
                self._count_failure(breaker)
            self._teardown()
            raise
        except CDPError as exc:
            if breaker is not None and not self._closing.is_set():
                self._count_failure(breaker)
            self._teardown()
            raise RenderError(f"cannot talk to the browser: {exc}") from None
        except BaseException:
            self._teardown()
            raise
        if breaker is not None:
            breaker.succeeded()
        return link

    def _connect(self, launched: Launched, deadline: float) -> BrowserLink:
        timeout = max(0.1, min(5.0, deadline - time.monotonic()))
        conn = Connection(launched.wire)
        try:
            # Downloads are refused browser-wide as well as in each context (tab.py).
            version, _ = conn.call_batch(
                [("Browser.getVersion", {}), ("Browser.setDownloadBehavior", {"behavior": "deny"})],
                timeout=timeout,
            )
            interceptor = FetchInterceptor(conn, self._resolver, crew=self._crew)
            interceptor.enable(timeout=timeout)
        except BaseException:
            conn.close()
            raise
        ua, metadata = _user_agent(self.user_agent, version)
        return BrowserLink(
            conn=conn,
            interceptor=interceptor,
            resolver=self._resolver,
            user_agent=ua,
            ua_metadata=metadata,
            crew=self._crew,
        )

    def _discard(self, link: BrowserLink) -> None:
        with self._lock:
            if self._link is link:
                self._teardown()

    def _forget_if_dead(self, link: BrowserLink) -> None:
        with self._lock:
            if self._link is link and not self._healthy(link, time.monotonic() + HEALTH_TIMEOUT):
                self._teardown()

    def _teardown(self) -> None:
        """Disconnect, and kill a private browser; safe to call at any point."""
        spare, self._spare = self._spare, None
        if spare is not None:
            spare.add_done_callback(_dispose_spare)
        link, self._link = self._link, None
        if link is not None:
            link.interceptor.close()
            link.conn.close()
        launched, self._launched = self._launched, None
        if launched is not None:
            launched.kill()
        shared, self._shared = self._shared, None
        if shared is not None:
            with contextlib.suppress(OSError, ToolError):
                shared.release()


def _dispose_spare(future: Future[Context]) -> None:
    with contextlib.suppress(Exception):
        future.result().dispose()


def _user_agent(
    explicit: str | None, version: dict[str, Any]
) -> tuple[str | None, dict[str, Any] | None]:
    """The user's --user-agent as it is; else the browser's own without "Headless"."""
    if explicit:
        return explicit, None
    ua = str(version.get("userAgent", ""))
    if not ua:
        return None, None
    ua = ua.replace("HeadlessChrome", "Chrome")
    product = str(version.get("product", ""))  # HeadlessChrome/156.0.8078.108
    full = product.split("/", 1)[1] if "/" in product else ""
    major = full.split(".", 1)[0] or "0"
    metadata = {
        "brands": [
            {"brand": "Chromium", "version": major},
            {"brand": "Not.A/Brand", "version": "99"},
        ],
        "fullVersionList": [
            {"brand": "Chromium", "version": full or major},
            {"brand": "Not.A/Brand", "version": "99.0.0.0"},
        ],
        "platform": "Linux",
        "platformVersion": "",
        "architecture": "x86",
        "model": "",
        "mobile": False,
    }
    return ua, metadata
