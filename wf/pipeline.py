"""One page through wf: fetch -> type branch -> extract (-> render) -> lines -> save/truncate.

Data flows one way; nothing here knows about click. ``process`` returns a PageResult whose
``output`` is what text mode prints and whose ``as_json`` is the --json object.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from common import trace, watchdog
from common.errors import RenderError, Timeout, ToolError, WriteError
from common.http.client import Response, raise_for_status
from common.text import clean_text, escape_markers, inline, one_line
from wf import lines, sniff
from wf.options import ALWAYS, NEVER, PREVIEW_CHARS, WfOptions
from wf.save import default_name, save_bytes, save_name

if TYPE_CHECKING:
    from wf.render import RenderSession

Log = Callable[[str], None]
BATCH_WORKERS = 4


@dataclass
class PageResult:
    url: str
    final_url: str | None = None
    status: int | None = None
    content_type: str | None = None
    charset: str | None = None
    title: str | None = None
    # wf.extract.metadata's keys, each str or None; None until a page's HTML is extracted.
    metadata: dict[str, str | None] | None = None
    text: str = ""
    total: int = 0
    matched: int = 0
    first: int | None = None
    last: int | None = None
    truncated: bool = False
    partial: bool = False  # the last line printed is cut (lines.page_lines)
    saved_to: str | None = None
    bytes: int = 0
    rendered: bool = False
    links: list[dict[str, str]] = field(default_factory=list)
    entries: list[dict[str, str | None]] | None = None  # a feed's (wf.feed), else None
    notes: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)  # --meta: lines printed above all
    markers: list[str] = field(default_factory=list)  # lines printed before the text
    trailer: list[str] = field(default_factory=list)  # lines printed after the text
    elapsed_ms: int = 0
    attempts: int = 0  # requests sent for the page (0: none, e.g. a cache hit or --input)
    cache: str = "off"  # --cache: hit, revalidated, miss; off without it
    error: ToolError | None = None
    # A PDF's page count and outline (wf.pdf.meta.outline); None for any other body.
    pdf_pages: int | None = None
    outline: list[dict[str, Any]] | None = None
    # An HTTP error's answer: the start of its page's text and Retry-After in seconds.
    error_body: str | None = None
    retry_after: int | None = None

    @property
    def output(self) -> str:
        return "".join(self.output_pieces())

    def output_pieces(self) -> Iterator[str]:
        """What text mode prints (``output``), line by line: the page's text is written as
        it is, never copied into one string with the lines around it."""
        parts = [*self.header, *self.markers]
        if self.text:
            parts.append(self.text)
        parts.extend(self.trailer)
        for part in parts:
            yield part
            yield "\n"

    def as_json(self) -> dict[str, Any]:
        # The text is clean already; the fields below may quote the user, the server or a
        # file name, and a raw C1 control or line separator in JSON is still one on screen.
        return {
            "url": one_line(self.url),
            "final_url": one_line(self.final_url) or None,
            "status": self.status,
            "content_type": one_line(self.content_type) or None,
            "charset": self.charset,
            "title": one_line(self.title) or None,
            "metadata": _metadata_json(self.metadata),
            "text": self.text,
            "lines": {
                "total": self.total,
                "matched": self.matched,
                "from": self.first,
                "to": self.last,
                "partial": self.partial,
            },
            "truncated": self.truncated,
            "saved_to": one_line(self.saved_to) or None,
            "bytes": self.bytes,
            "rendered": self.rendered,
            "links": self.links,
            "entries": self.entries,
            "pages": self.pdf_pages,
            "outline": self.outline,
            "notes": [one_line(note) for note in self.notes],
            "elapsed_ms": self.elapsed_ms,
            "attempts": self.attempts,
            "cache": self.cache,
            "error": _error_json(self.error, self),
        }


def _metadata_json(found: dict[str, str | None] | None) -> dict[str, str | None]:
    from wf.extract.metadata import KEYS

    # Every key always, in one order, then a PDF's own keys (wf.pdf.meta.EXTRA_KEYS); the
    # values left wf.extract.metadata and wf.pdf.meta one-line already.
    found = found or {}
    keys = [*KEYS, *(key for key in found if key not in KEYS)]
    return {key: one_line(found.get(key)) or None for key in keys}


def _error_json(error: ToolError | None, page: PageResult) -> dict[str, Any] | None:
    if error is None:
        return None
    # An error can quote the server (a header, a URL); stderr gets it cleaned by diag.
    out = error.as_json()
    out["message"] = one_line(out.get("message"))
    if page.status is not None and page.status >= 400:
        out["retry_after"] = page.retry_after
        out["body"] = page.error_body
    return out


def meta_header(page: PageResult) -> list[str]:
    """--meta: ``Title:``, ``Author:``, ``Date:`` (each when known) and ``URL:`` lines, then
    a blank line. Not marker lines: they never start with ``[wf:``, and each value is one
    line under common.text's policy."""
    found = page.metadata or {}
    lines_ = [
        f"{label}: {value}"
        for label, value in (
            ("Title", one_line(found.get("title") or page.title)),
            ("Author", one_line(found.get("author"))),
            ("Date", one_line(found.get("date"))),
            ("URL", one_line(page.final_url or page.url)),
        )
        if value
    ]
    return [*lines_, ""] if lines_ else []


def marker(text: str) -> str:
    """Marker lines are the only lines wf adds to a page's text; they look like this. Page
    lines that look the same are escaped (common.text.escape_markers), and what a marker
    quotes (a path, a file name) is cleaned here, so a marker is always one line of wf's."""
    return f"[wf: {inline(text)}]"


class Html:
    """A page's HTML on its way through extraction: valid UTF-8 bytes
    (common.decode.decode_for_parser), which libxml2 reads as they are, or a str. The str
    of bytes is made only when asked for (a page with little text, which the JavaScript
    and empty-page checks read), and then replaces them: one copy of the page is held."""

    def __init__(self, data: str | bytes) -> None:
        self.data = data

    def text(self) -> str:
        if isinstance(self.data, bytes):
            self.data = self.data.decode("utf-8")
        return self.data


@dataclass
class Document:
    """A body ready for the line pipeline."""

    source: str
    final_url: str | None
    status: int | None
    content_type: str
    body: bytes


class LazyBrowser:
    """One lazily started render session for the whole run (a batch shares it)."""

    def __init__(self, opts: WfOptions) -> None:
        self.opts = opts
        self._session: RenderSession | None = None

    def get(self) -> RenderSession:
        if self._session is None:
            from wf.render import RenderSession

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


def process(
    target: str,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None = None,
    local_body: bytes | None = None,
    number: int = 1,
) -> PageResult:
    """Run one URL (or a local document when ``local_body`` is given) through the pipeline."""
    start = time.monotonic()
    # The target may be any line of stdin; it is echoed in headers and JSON, never fetched
    # from here (fetch refuses a URL with control characters).
    page = PageResult(url=one_line(target))
    deadline = start + opts.net.timeout
    with watchdog.deadline(deadline, target):
        _process(
            page,
            target,
            opts,
            deadline,
            log=log,
            browser=browser,
            local_body=local_body,
            number=number,
        )
    if opts.meta and page.error is None:
        page.header = meta_header(page)
    page.elapsed_ms = int((time.monotonic() - start) * 1000)
    return page


def _process(
    page: PageResult,
    target: str,
    opts: WfOptions,
    deadline: float,
    *,
    log: Log,
    browser: LazyBrowser | None,
    local_body: bytes | None,
    number: int,
) -> None:
    try:
        if local_body is None:
            if browser is not None and opts.render == ALWAYS:
                browser.get().prewarm()  # the browser starts during the static fetch
            resp = _fetch(page, target, opts, deadline, log=log)
            if resp.status >= 400:
                _describe_error(page, resp, deadline)
            _check_status(resp, log)
            doc = Document(target, resp.final_url, resp.status, resp.content_type, resp.body)
            del resp  # the body lives on in doc alone, which lets it go once decoded
        else:
            doc = Document(target, opts.base_url, None, "", local_body)
        _build(page, doc, opts, log=log, browser=browser, deadline=deadline, number=number)
    except ToolError as exc:
        page.error = exc


def _fetch(
    page: PageResult, target: str, opts: WfOptions, deadline: float, *, log: Log
) -> Response:
    """The fetch with --retry and --cache; records attempts and the cache's answer."""
    from common.http.retry import Attempts, fetch_retrying

    tally = Attempts()

    def get(extra: Mapping[str, str]) -> Response:
        return fetch_retrying(
            target,
            opts.net,
            retries=opts.retry,
            deadline=deadline,
            headers=extra,
            log=log,
            attempts=tally,
        )

    try:
        if not opts.cache:
            return get({})
        from common.http.cache import cached_fetch, open_cache
        from common.http.client import policy_scope, request_headers

        try:
            cache = open_cache(opts.cache_max)
        except WriteError as exc:
            _note(page, log, f"cache not used: {exc.message}")
            return get({})
        page.cache = "miss"  # what a fetch that fails was: only a hit sends nothing
        resp, page.cache = cached_fetch(
            target,
            request_headers(opts.net),
            cache,
            get,
            scope=policy_scope(target, opts.net),
            max_body=opts.net.max_bytes,
        )
        return resp
    finally:
        page.attempts = tally.count


ERROR_BODY_CHARS = 2000
# The start of an error page is what says why; extraction never needs the rest of it.
ERROR_BODY_BYTES = 256 * 1024


def _describe_error(page: PageResult, resp: Response, deadline: float) -> None:
    """What an agent needs from an HTTP error: where it came from, its type, when to come
    back (Retry-After) and the start of what the error page says."""
    page.final_url = resp.final_url
    page.status = resp.status
    page.content_type = resp.content_type or None
    page.bytes = len(resp.body)
    page.retry_after = retry_after_seconds(resp.headers.get("retry-after"))
    try:
        page.error_body = _error_text(resp, deadline)
    except ToolError:
        page.error_body = None  # the status is the error; a page we cannot read is no other


def _error_text(resp: Response, deadline: float) -> str | None:
    from common.decode import decode_body

    body = resp.body[:ERROR_BODY_BYTES]
    kind, _mime = sniff.classify(resp.content_type or None, body)
    if kind not in ("html", "text"):
        return None
    decoded, _charset = decode_body(body, resp.content_type or None)
    if kind == "html":
        from wf.extract import extract

        found = extract(decoded, url=resp.final_url, deadline=deadline).text
        # An error page is often nothing but a heading and a line, which the main-content
        # choice can pass over as boilerplate.
        decoded = found if found.strip() else extract(decoded, full=True, deadline=deadline).text
    text = printable(decoded).strip()
    if not text:
        return None
    shown = lines.page_lines(lines.split_lines(text), 1, ERROR_BODY_CHARS)
    return "\n".join(shown.lines)


def retry_after_seconds(value: str | None, now: float | None = None) -> int | None:
    """Retry-After (RFC 9110 10.2.3) in whole seconds from now: delta-seconds or an
    HTTP-date (a date in the past is 0); None when absent or unreadable. --retry reads
    the same header with the same rules (common.http.retry.retry_after)."""
    import math

    from common.http.retry import retry_after

    found = retry_after({} if value is None else {"retry-after": value}, now)
    return None if found is None else math.ceil(found)


def _check_status(resp: Response, log: Log) -> None:
    raise_for_status(resp)
    if 300 <= resp.status < 400:
        log(f"note: HTTP {resp.status} without a Location header; showing its body")


def _build(
    page: PageResult,
    doc: Document,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None,
    deadline: float,
    number: int = 1,
) -> None:
    page.final_url = doc.final_url
    page.status = doc.status
    page.bytes = len(doc.body)
    kind, mime = sniff.classify(doc.content_type or None, doc.body)
    page.content_type = doc.content_type or mime or None
    trace.trace(
        "type: %s (Content-Type %s; the body sniffed as %s)%s",
        kind,
        doc.content_type or "none",
        mime or "nothing known",
        ", printed as it is (--raw)" if opts.raw and kind == "html" else "",
    )
    if kind == "binary":
        _save_binary(page, doc, mime, opts, log=log, number=number)
        return
    if kind == "empty":
        _apply_lines(page, "", opts, deadline, log=log, number=number)
        return
    if kind == "pdf" and not opts.raw:
        _build_pdf(page, doc, opts, log=log, deadline=deadline, number=number)
        return
    if kind == "pdf":  # --raw: the bytes, which are no text to print
        _save_binary(page, doc, mime, opts, log=log, number=number)
        return
    from common.decode import decode_body, decode_for_parser

    if kind == "html" and not opts.raw:
        # Valid UTF-8 goes to libxml2 as the bytes it is: no str of the page is made (10 MB
        # of ASCII and one astral character is a 40 MB str).
        data, page.charset = decode_for_parser(doc.body, doc.content_type or None)
        doc.body = b""  # up to --max-bytes that extraction does not need to hold as well
        html = Html(data)
        del data  # held by html alone, which may trade it for its str
        text = _extract_html(page, html, opts, log=log, browser=browser, deadline=deadline)
        del html
        _apply_lines(page, printable(text), opts, deadline, log=log, number=number)
        return
    decoded, page.charset = decode_body(doc.body, doc.content_type or None)
    doc.body = b""
    if kind == "feed" and not opts.raw:
        found = _extract_feed(page, decoded, opts, log=log, deadline=deadline)
        if found is None:  # no feed inside after all: read as the page it may be
            found = _extract_html(
                page, Html(decoded), opts, log=log, browser=browser, deadline=deadline
            )
        text = found
    else:
        text = decoded
    del decoded
    _apply_lines(page, printable(text), opts, deadline, log=log, number=number)


def _build_pdf(
    page: PageResult,
    doc: Document,
    opts: WfOptions,
    *,
    log: Log,
    deadline: float,
    number: int,
) -> None:
    """A PDF's pages through PDFium (wf.pdf), then the line pipeline. The page separators
    are not matched by --filter and not dropped by --exclude (wf.pdf.is_separator)."""
    from wf import pdf

    page.content_type = page.content_type or "application/pdf"
    body, doc.body = doc.body, b""
    started = time.monotonic()
    result = pdf.extract(
        body,
        pages=opts.pages,
        full=opts.full,
        max_pages=opts.pdf_max_pages,
        deadline=deadline,
    )
    trace.trace(
        "pdf: %d pages in the document, read in %d ms; %d bookmarks",
        result.pages,
        trace.ms(started),
        len(result.outline),
    )
    page.pdf_pages = result.pages
    page.outline = result.outline
    page.metadata = result.metadata
    page.title = result.metadata.get("title")
    for note in result.notes:
        _note(page, log, note)
    _apply_lines(
        page,
        printable(result.text),
        opts,
        deadline,
        log=log,
        number=number,
        pinned=pdf.is_separator,
    )


def printable(text: str) -> str:
    """A page's text as wf prints it: common.text's policy (no control or invisible
    characters; CR, CRLF, U+2028 and U+2029 end a line), then page lines that begin like a
    marker line escaped. --filter, --from/--to and --json all see this text."""
    return escape_markers(clean_text(text))


def _save_binary(
    page: PageResult,
    doc: Document,
    mime: str,
    opts: WfOptions,
    *,
    log: Log | None = None,
    number: int = 1,
) -> None:
    what = mime or "binary data"
    asked = bool(opts.save or opts.save_path)
    name = (
        save_name(opts.save_path, number)
        if opts.save_path
        else default_name(doc.final_url or doc.source, mime, text=False)
    )
    try:
        path = save_bytes(doc.body, name, limits=opts.scratch, chosen=bool(opts.save_path))
    except WriteError as exc:
        if asked:  # --save: the file was the point
            raise
        # Nobody asked for a file: a body that cannot be kept is reported, not an error.
        page.markers.append(
            marker(f"binary content ({what}, {len(doc.body)} bytes) not saved: {exc.message}")
        )
        _note(page, log, f"binary content ({what}) not printed and not saved: {exc.message}")
        return
    page.saved_to = str(path)
    trace.trace("save: binary content, %d bytes to %s", len(doc.body), path)
    page.markers.append(marker(f"binary content ({what}, {len(doc.body)} bytes) saved to {path}"))
    page.notes.append(f"binary content ({what}) saved, not printed")


def _note(page: PageResult, log: Log | None, note: str) -> None:
    page.notes.append(note)
    if log is not None:
        log(f"note: {note}")


def _extract_feed(
    page: PageResult, text: str, opts: WfOptions, *, log: Log, deadline: float
) -> str | None:
    """A feed's entries as text (wf.feed), or None when the body holds no feed."""
    from wf.feed import render

    result = render(
        text,
        url=page.final_url or opts.base_url,
        markers=opts.links,
        deadline=deadline,
        want_entries=opts.as_json,
    )
    for note in result.notes:
        _note(page, log, note)
    if result.feed is None:
        return None
    page.title = result.title
    page.metadata = result.metadata
    page.links = result.links
    page.entries = result.entries
    return result.text


def _extract_html(
    page: PageResult,
    html: Html,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None,
    deadline: float,
) -> str:
    from wf.extract import extract

    base = page.final_url or opts.base_url
    result = extract(
        html.data,
        url=base,
        full=opts.full,
        link_markers=opts.links,
        deadline=deadline,
        metadata=opts.as_json or opts.meta,
    )
    can_render = browser is not None and page.status is not None
    if opts.render != NEVER and browser is not None and can_render:
        result = _maybe_render(
            page, html, result, opts, log=log, browser=browser, deadline=deadline
        )
    page.title = result.title
    page.metadata = result.metadata
    page.links = [{"text": link.text, "url": link.url} for link in result.links]
    for note in result.notes:  # a page read only in part: never silently
        page.notes.append(note)
        log(f"note: {note}")
    _explain_empty(page, html, result.text, opts, log=log, can_render=can_render)
    return result.text


def _explain_empty(
    page: PageResult, html: Html, text: str, opts: WfOptions, *, log: Log, can_render: bool
) -> None:
    """A page whose text is empty or tiny says why, as far as it shows it (the fetch
    worked: the exit code stays 0)."""
    from wf.empty import is_tiny, why_empty

    if not is_tiny(text):
        return
    note = why_empty(
        html.text(),
        text,
        page.final_url or page.url,
        never=opts.render == NEVER,
        rendered=page.rendered,
        can_render=can_render,
    )
    if note:
        _note(page, log, note)


def _maybe_render(
    page: PageResult,
    html: Html,
    static: Any,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser,
    deadline: float,
) -> Any:
    from wf.extract import extract
    from wf.render import looks_like_js_shell, recover_next_data
    from wf.render.detect import MAX_TEXT_BYTES, NOSCRIPT

    always = opts.render == ALWAYS
    # A static text this long is no shell's (looks_like_js_shell's first answer), told
    # without the page's str, which a big page would make for nothing.
    long_text = len(static.text) >= MAX_TEXT_BYTES
    if not always and (long_text or not looks_like_js_shell(html.text(), static.text)):
        trace.trace("render: not needed (static text of %d characters)", len(static.text))
        return static
    started = time.monotonic()
    trace.trace("render: %s", "--render always" if always else "the page looks JavaScript-rendered")
    if not always:
        log("page looks JavaScript-rendered; rendering in headless Chromium")
    try:
        rendered = browser.get().render(page.final_url or page.url, deadline=deadline)
    except (RenderError, Timeout) as exc:
        trace.trace("render: failed after %d ms: %s", trace.ms(started), exc.message)
        # In auto mode a render that fails or runs out of time still leaves the static text.
        if always:
            raise
        state = recover_next_data(html.text())
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
    page.notes.extend(rendered.notes)
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


def _apply_lines(
    page: PageResult,
    text: str,
    opts: WfOptions,
    deadline: float | None = None,
    *,
    log: Log | None = None,
    pinned: Callable[[str], bool] | None = None,
    number: int = 1,
) -> None:
    # The page's lines as a list cost about 50 bytes each besides their text (a 10 MB page
    # of short lines: 40 MB), and a line list is needed only to select lines: a file, a
    # preview and a page shown whole are cut from the text itself.
    page.total = _line_count(text)
    if opts.save or opts.save_path:
        name = save_name(opts.save_path, number) if opts.save_path else None
        _save_view(page, text, name, what="full text", opts=opts)
    elif (
        not opts.narrows
        and opts.max_length > 0  # 0 asks for the whole text, here, not a file
        and _utf8_size(text) > opts.autosave_bytes
    ):
        trace.trace("save: auto-save, the text is over WF_AUTOSAVE_BYTES (%d)", opts.autosave_bytes)
        _preview(page, text, opts, log=log)
        return
    trace.trace("save: none (%s)", _why_not_saved(opts))
    page.notes.extend(r.fallback for r in (opts.filter, opts.exclude) if r and r.fallback)
    selects = opts.filter or opts.exclude or opts.from_line or opts.to_line
    if text and not selects and (opts.max_length <= 0 or len(text) <= opts.max_length):
        # Every line, whole: what select_lines and page_lines give, without the list.
        page.text = text[:-1] if text.endswith("\n") else text
        page.matched = page.last = page.total
        page.first = 1
        _append_link_list(page, opts)
        return
    full_view = lines.split_lines(text)
    sel = lines.select_lines(
        full_view,
        keep=opts.filter,
        drop=opts.exclude,
        from_line=opts.from_line,
        to_line=opts.to_line,
        deadline=deadline,
        pinned=pinned,
    )
    shown = lines.page_lines(sel.lines, sel.first, opts.max_length)
    page.matched, page.first, page.last = sel.matched, shown.first, shown.last
    page.partial = shown.partial
    page.text = "\n".join(shown.lines)
    window_end = sel.last or 0
    if shown.last is not None and (shown.last < window_end or shown.partial):
        page.truncated = True
        parts = [
            f"output truncated at {shown.shown} of {shown.total} characters "
            f"(lines {shown.first}-{shown.last} of {sel.matched})"
        ]
        if shown.partial:
            parts.append(_whole_line_hint(shown, opts))
        if shown.last < window_end:
            parts.append(
                f"see the rest with --from {shown.last + 1}, or raise --max-length (0 = no limit)"
            )
        note = "; ".join(parts)
        page.trailer.append(marker(note))
        page.notes.append(note)
    elif opts.from_line and sel.matched and not sel.lines:
        # Exit 0 with nothing printed: say why on stderr too, not only in --json.
        _note(page, log, f"--from {opts.from_line} is past the last line ({sel.matched})")
    _append_link_list(page, opts)


def _why_not_saved(opts: WfOptions) -> str:
    if opts.narrows:
        return "--no-save, or a part of the page was asked for"
    if opts.max_length == 0:
        return "--max-length 0 prints the whole text"
    return f"the text is within WF_AUTOSAVE_BYTES ({opts.autosave_bytes})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _whole_line_hint(shown: lines.Page, opts: WfOptions) -> str:
    """The one command that prints a cut line whole (the same filters, since line numbers
    count the filtered view)."""
    same = " with the same --filter/--exclude" if opts.filter or opts.exclude else ""
    n = shown.last
    return (
        f"line {n} is cut at {len(shown.lines[-1])} of {shown.cut_from} characters; "
        f"print it whole with --from {n} --to {n} --max-length 0 --no-save{same}"
    )


def _line_count(text: str) -> int:
    """len(lines.split_lines(text)), without the list."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


_SIZE_SLICE = 1 << 20


def _utf8_size(text: str) -> int:
    """len(text.encode("utf-8")), a slice at a time: the whole text is never copied."""
    if text.isascii():
        return len(text)
    return sum(
        len(text[at : at + _SIZE_SLICE].encode("utf-8")) for at in range(0, len(text), _SIZE_SLICE)
    )


def _head(text: str, limit: int) -> list[str]:
    """The text's first lines, each whole, as many as page_lines(..., limit) can reach: the
    lines that begin within ``limit + 1`` characters of the start (every line for 0, no
    limit)."""
    end = text.find("\n", limit + 1) if limit > 0 else -1
    return lines.split_lines(text if end < 0 else text[:end])


def _preview(page: PageResult, text: str, opts: WfOptions, *, log: Log | None) -> None:
    """Auto-save: the whole text to a file, a preview under the same paging contract."""
    limit = min(PREVIEW_CHARS, opts.max_length)
    head = _head(text, limit)
    shown = lines.page_lines(head, 1 if head else None, limit)
    try:
        path = _save_view(page, text, None, what=None, opts=opts)
    except WriteError as exc:
        # Auto-save is a convenience: without a usable scratch dir the preview stands.
        where = "the whole text was not saved"
        _note(page, log, f"auto-save failed ({exc.message}); text is a preview")
    else:
        where = f"the whole text is in {path}"
        page.notes.append(f"auto-saved: full text in {path}; text is a preview")
    count = len(shown.lines)
    showing = f"showing the first {_count(count, 'line')}"
    if shown.partial:
        hint = _whole_line_hint(shown, opts)
        showing += f" ({hint})"
        page.notes.append(hint)  # --json has no marker line: the way to the rest is here
    after = (shown.last or 0) + 1
    ask = "ask for a range with --from N --to M, or for lines with --filter REGEX"
    go_on = f"Page on with --from {after}; {ask}" if after <= page.total else "A" + ask[1:]
    page.markers.append(
        marker(
            f"page too large to inline ({_count(len(text), 'character')}, "
            f"{_count(page.total, 'line')}); {where}; {showing}. {go_on}"
        )
    )
    page.text = "\n".join(shown.lines)
    page.truncated = True
    page.partial = shown.partial
    page.matched, page.first, page.last = page.total, shown.first, shown.last
    _append_link_list(page, opts)


def _save_view(
    page: PageResult, text: str, name: str | None, *, what: str | None, opts: WfOptions
) -> Path:
    data = text.encode("utf-8")
    if not data.endswith(b"\n") and data:
        data += b"\n"
    path = save_bytes(
        data,
        name or default_name(page.final_url or page.url, None, text=True),
        limits=opts.scratch,
        chosen=name is not None,
    )
    page.saved_to = str(path)
    trace.trace("save: %d bytes to %s", len(data), path)
    if what:
        page.markers.append(
            marker(f"saved {what} ({len(data)} bytes, {page.total} lines) to {path}")
        )
        page.notes.append(f"saved {what} to {path}")
    return path


def _append_link_list(page: PageResult, opts: WfOptions) -> None:
    """With --links, list the targets whose markers survived the line pipeline."""
    if not opts.links or not page.links:
        return
    import re

    present = sorted({int(n) for n in re.findall(r"\[(\d+)\]", page.text)})
    refs = [f"[{n}]: {page.links[n - 1]['url']}" for n in present if 0 < n <= len(page.links)]
    if refs:
        page.trailer[:0] = ["", *refs]


def _labelled(
    n: str, target: str, opts: WfOptions, *, on_done: Callable[[PageResult], None] | None, **kw: Any
) -> PageResult:
    """One page of a batch: its trace lines carry its number, and on_done hears of it."""
    with trace.label(n):
        page = process(target, opts, **kw)
    if on_done is not None:
        on_done(page)
    return page


def process_many(
    targets: Sequence[str],
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None,
    on_done: Callable[[PageResult], None] | None = None,
) -> Iterator[PageResult]:
    """Fetch concurrently with a small pool; yield pages in input order. ``on_done`` hears
    of each page as it finishes, in any order, from the pool's threads (the progress line)."""
    if len(targets) == 1:
        yield process(targets[0], opts, log=log, browser=browser)
        return
    pool = ThreadPoolExecutor(max_workers=min(BATCH_WORKERS, len(targets)))
    futures = [
        pool.submit(_labelled, str(n), t, opts, log=log, browser=browser, on_done=on_done, number=n)
        for n, t in enumerate(targets, 1)
    ]
    try:
        for future in futures:
            yield future.result()
    except BaseException:
        # A signal, or a reader that went away: the pages in flight are not wanted, and
        # waiting for them would hold the exit until the slowest server's deadline.
        from common.http.deadline import abort_fetches

        for future in futures:
            future.cancel()
        abort_fetches()
        raise
    finally:
        for future in futures:
            future.cancel()
        pool.shutdown(wait=True)
