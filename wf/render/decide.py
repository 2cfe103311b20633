"""Whether a page is rendered, and which text wins: the static extraction unless the page
looks like a JavaScript shell (or --render always), then the rendered one when it says
more. A render that fails leaves the static text (or the page's __NEXT_DATA__ state) in
auto mode. ``LazyBrowser`` is the run's one browser, started on the first render.

Import-light: the browser machinery loads only when a page is rendered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from common import trace
from common.errors import RenderError, Timeout
from wf.options import ALWAYS, WfOptions
from wf.render.detect import MAX_TEXT_BYTES, NOSCRIPT, looks_like_js_shell, recover_next_data
from wf.view import Log, PageResult

if TYPE_CHECKING:
    from wf.extract import Extracted
    from wf.render.session import RenderSession


class LazyBrowser:
    """One lazily started render session for the whole run (a batch shares it)."""

    def __init__(self, opts: WfOptions) -> None:
        self.opts = opts
        self._session: RenderSession | None = None

    def get(self) -> RenderSession:
        if self._session is None:
            from wf.render.session import RenderSession

            self._session = RenderSession(
                self.opts.rendering,
                policy=self.opts.net.policy,
                user_agent=self.opts.net.user_agent,
            )
        return self._session

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


def _static_stands(static: Extracted, html_text: Callable[[], str], deadline: float) -> bool:
    """Whether the static text needs no render: it is too long to be a shell's
    (looks_like_js_shell's first answer, told without the page's str, which a big page
    would make for nothing), or the page shows no sign of one. The check reads the whole
    page for each kind of sign (0.2-0.45 s on 10 MB of tags): past the deadline it answers
    no, and there is no time to render anyway."""
    from common.late import late

    if len(static.text) >= MAX_TEXT_BYTES:
        return True
    return not looks_like_js_shell(html_text(), static.text, late(deadline))


def maybe_render(
    page: PageResult,
    html_text: Callable[[], str],
    static: Extracted,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser,
    deadline: float,
) -> Extracted:
    """The static text, or the rendered one when the page looks JavaScript-rendered (or
    --render always) and rendering gives more; ``html_text`` gives the static HTML as a
    str, made only when it is read."""
    from wf.extract import extract

    always = opts.render == ALWAYS
    if not always and _static_stands(static, html_text, deadline):
        trace.trace("render: not needed (static text of %d characters)", len(static.text))
        return static
    started = time.monotonic()
    trace.trace("render: %s", "--render always" if always else "the page looks JavaScript-rendered")
    if not always:
        log("page looks JavaScript-rendered; rendering in headless Chromium")
    try:
        waits = opts.steering.waits
        rendered = browser.get().render(page.final_url or page.url, deadline=deadline, waits=waits)
    except (RenderError, Timeout) as exc:
        trace.trace("render: failed after %d ms: %s", trace.ms(started), exc.message)
        # In auto mode a render that fails or runs out of time still leaves the static text.
        if always:
            raise
        state = recover_next_data(html_text())
        if state:
            page.notes.append(
                f"rendering failed ({exc.message}); printed the page's __NEXT_DATA__ state instead"
            )
            log(f"note: {exc.message}; printing the page's __NEXT_DATA__ JSON state instead")
            static.text = state
            return static
        page.notes.append(f"page renders client-side and may be incomplete: {exc.message}")
        log(f"note: page renders client-side and may be incomplete ({exc.message})")
        return static
    page.notes.extend(f"blocked by the network policy: {b}" for b in rendered.blocked)
    for note in rendered.notes:  # a wait the deadline ended is said on stderr too
        page.note(note, log if note.startswith("--wait") else None)
    # Scripts ran, so a reader never sees <noscript>: in a scripting DOM its content is raw
    # text (nothing nests inside it), and a non-greedy match removes exactly one element.
    html_seen = NOSCRIPT.sub("", rendered.html)
    result = extract(
        html_seen,
        url=rendered.final_url,
        full=opts.full,
        link_markers=opts.links,
        deadline=deadline,
        metadata=opts.as_json or opts.meta,
        selection=opts.steering.selection,
        images=opts.steering.images,
    )
    trace.trace(
        "render: %d ms, %d characters rendered against %d static; %d requests blocked",
        trace.ms(started),
        len(result.text.strip()),
        len(static.text.strip()),
        len(rendered.blocked),
    )
    if always or len(result.text.strip()) > len(static.text.strip()):
        trace.trace("render: kept the rendered text")
        page.rendered = True
        page.final_url = rendered.final_url or page.final_url
        return result
    page.notes.append("rendered text was not richer than the static text; kept the static text")
    trace.trace("render: kept the static text")
    return static
