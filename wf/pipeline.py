"""One page through wf: fetch -> type branch -> extract (-> render) -> lines -> save/truncate.

Data flows one way; nothing here knows about click. ``process`` returns a PageResult whose
``output`` is what text mode prints and whose ``as_json`` is the --json object.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from common import watchdog
from common.errors import RenderError, Timeout, ToolError, WriteError
from common.http.client import Response, fetch, raise_for_status
from common.text import clean_text, escape_markers, inline, one_line
from wf import lines, sniff
from wf.options import ALWAYS, NEVER, PREVIEW_CHARS, WfOptions
from wf.save import confine_name, default_name, save_bytes

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
    saved_to: str | None = None
    bytes: int = 0
    rendered: bool = False
    links: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)  # --meta: lines printed above all
    markers: list[str] = field(default_factory=list)  # lines printed before the text
    trailer: list[str] = field(default_factory=list)  # lines printed after the text
    elapsed_ms: int = 0
    error: ToolError | None = None
    # A PDF's page count and outline (wf.pdf.meta.outline); None for any other body.
    pdf_pages: int | None = None
    outline: list[dict[str, Any]] | None = None

    @property
    def output(self) -> str:
        parts = [*self.header, *self.markers]
        if self.text:
            parts.append(self.text)
        parts.extend(self.trailer)
        return "\n".join(parts) + "\n" if parts else ""

    def as_json(self) -> dict[str, Any]:
        # The text is clean already; the fields below may quote the user, the server or a
        # file name, and a raw C1 control or line separator in JSON is still one on screen.
        out = {
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
            },
            "truncated": self.truncated,
            "saved_to": one_line(self.saved_to) or None,
            "bytes": self.bytes,
            "rendered": self.rendered,
            "links": self.links,
            "notes": [one_line(note) for note in self.notes],
            "elapsed_ms": self.elapsed_ms,
            "error": _error_json(self.error),
        }
        if self.pdf_pages is not None:
            out["pages"] = self.pdf_pages
            out["outline"] = self.outline or []
        return out


def _metadata_json(found: dict[str, str | None] | None) -> dict[str, str | None]:
    from wf.extract.metadata import KEYS

    # Every key always, in one order, then a PDF's own keys (wf.pdf.meta.EXTRA_KEYS); the
    # values left wf.extract.metadata and wf.pdf.meta one-line already.
    found = found or {}
    keys = [*KEYS, *(key for key in found if key not in KEYS)]
    return {key: one_line(found.get(key)) or None for key in keys}


def _error_json(error: ToolError | None) -> dict[str, Any] | None:
    if error is None:
        return None
    # An error can quote the server (a header, a URL); stderr gets it cleaned by diag.
    out = error.as_json()
    out["message"] = one_line(out.get("message"))
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
) -> PageResult:
    """Run one URL (or a local document when ``local_body`` is given) through the pipeline."""
    start = time.monotonic()
    # The target may be any line of stdin; it is echoed in headers and JSON, never fetched
    # from here (fetch refuses a URL with control characters).
    page = PageResult(url=one_line(target))
    deadline = start + opts.net.timeout
    with watchdog.deadline(deadline, target):
        _process(page, target, opts, deadline, log=log, browser=browser, local_body=local_body)
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
) -> None:
    try:
        if local_body is None:
            if browser is not None and opts.render == ALWAYS:
                browser.get().prewarm()  # the browser starts during the static fetch
            resp = fetch(target, opts.net, deadline=deadline)
            _check_status(resp, log)
            doc = Document(target, resp.final_url, resp.status, resp.content_type, resp.body)
            del resp  # the body lives on in doc alone, which lets it go once decoded
        else:
            doc = Document(target, opts.base_url, None, "", local_body)
        _build(page, doc, opts, log=log, browser=browser, deadline=deadline)
    except ToolError as exc:
        page.error = exc


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
) -> None:
    page.final_url = doc.final_url
    page.status = doc.status
    page.bytes = len(doc.body)
    kind, mime = sniff.classify(doc.content_type or None, doc.body)
    page.content_type = doc.content_type or mime or None
    if kind == "binary":
        _save_binary(page, doc, mime, log=log, asked=bool(opts.save or opts.save_path))
        return
    if kind == "empty":
        _apply_lines(page, "", opts, deadline, log=log)
        return
    if kind == "pdf" and not opts.raw:
        _build_pdf(page, doc, opts, log=log, deadline=deadline)
        return
    if kind == "pdf":  # --raw: the bytes, which are no text to print
        _save_binary(page, doc, mime, log=log, asked=bool(opts.save or opts.save_path))
        return
    from common.decode import decode_body

    decoded, page.charset = decode_body(doc.body, doc.content_type or None)
    doc.body = b""  # up to --max-bytes that extraction does not need to hold as well
    if kind == "html" and not opts.raw:
        text = _extract_html(page, decoded, opts, log=log, browser=browser, deadline=deadline)
        del decoded  # a 10 MB body of one astral character and ASCII is a 40 MB str
    else:
        text = decoded
    _apply_lines(page, printable(text), opts, deadline, log=log)


def _build_pdf(
    page: PageResult, doc: Document, opts: WfOptions, *, log: Log, deadline: float
) -> None:
    """A PDF's pages through PDFium (wf.pdf), then the line pipeline. The page separators
    are not matched by --filter and not dropped by --exclude (wf.pdf.is_separator)."""
    from wf import pdf

    page.content_type = page.content_type or "application/pdf"
    body, doc.body = doc.body, b""
    result = pdf.extract(
        body,
        pages=opts.pages,
        full=opts.full,
        max_pages=opts.pdf_max_pages,
        deadline=deadline,
    )
    page.pdf_pages = result.pages
    page.outline = result.outline
    page.metadata = result.metadata
    page.title = result.metadata.get("title")
    for note in result.notes:
        _note(page, log, note)
    _apply_lines(page, printable(result.text), opts, deadline, log=log, pinned=pdf.is_separator)


def printable(text: str) -> str:
    """A page's text as wf prints it: common.text's policy (no control or invisible
    characters; CR, CRLF, U+2028 and U+2029 end a line), then page lines that begin like a
    marker line escaped. --filter, --from/--to and --json all see this text."""
    return escape_markers(clean_text(text))


def _save_binary(
    page: PageResult, doc: Document, mime: str, *, log: Log | None = None, asked: bool = False
) -> None:
    what = mime or "binary data"
    try:
        path = save_bytes(doc.body, default_name(doc.final_url or doc.source, mime, text=False))
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
    page.markers.append(marker(f"binary content ({what}, {len(doc.body)} bytes) saved to {path}"))
    page.notes.append(f"binary content ({what}) saved, not printed")


def _note(page: PageResult, log: Log | None, note: str) -> None:
    page.notes.append(note)
    if log is not None:
        log(f"note: {note}")


def _extract_html(
    page: PageResult,
    html: str,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None,
    deadline: float,
) -> str:
    from wf.extract import extract

    base = page.final_url or opts.base_url
    result = extract(
        html,
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
    page: PageResult, html: str, text: str, opts: WfOptions, *, log: Log, can_render: bool
) -> None:
    """A page whose text is empty or tiny says why, as far as it shows it (the fetch
    worked: the exit code stays 0)."""
    from wf.empty import is_tiny, why_empty

    if not is_tiny(text):
        return
    note = why_empty(
        html,
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
    html: str,
    static: Any,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser,
    deadline: float,
) -> Any:
    from wf.extract import extract
    from wf.render import looks_like_js_shell, recover_next_data
    from wf.render.detect import NOSCRIPT

    always = opts.render == ALWAYS
    if not always and not looks_like_js_shell(html, static.text):
        return static
    if not always:
        log("page looks JavaScript-rendered; rendering in headless Chromium")
    try:
        rendered = browser.get().render(page.final_url or page.url, deadline=deadline)
    except (RenderError, Timeout) as exc:
        # In auto mode a render that fails or runs out of time still leaves the static text.
        if always:
            raise
        state = recover_next_data(html)
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
    if always or len(result.text.strip()) > len(static.text.strip()):
        page.rendered = True
        page.final_url = rendered.final_url or page.final_url
        return result
    page.notes.append("rendered text was not richer than the static text; kept the static text")
    return static


def _apply_lines(
    page: PageResult,
    text: str,
    opts: WfOptions,
    deadline: float | None = None,
    *,
    log: Log | None = None,
    pinned: Callable[[str], bool] | None = None,
) -> None:
    full_view = lines.split_lines(text)
    page.total = len(full_view)
    if opts.save or opts.save_path:
        name = confine_name(opts.save_path) if opts.save_path else None
        _save_view(page, text, name, what="full text")
    elif not opts.narrows and len(text.encode("utf-8")) > opts.autosave_bytes:
        preview, _cut = lines.truncate(text, PREVIEW_CHARS)
        shown = lines.split_lines(preview)
        try:
            path = _save_view(page, text, None, what=None)
        except WriteError as exc:
            # Auto-save is a convenience: without a usable scratch dir the preview stands.
            where = "the whole text was not saved"
            _note(page, log, f"auto-save failed ({exc.message}); text is a preview")
        else:
            where = f"the whole text is in {path}"
            page.notes.append(f"auto-saved: full text in {path}; text is a preview")
        page.markers.append(
            marker(
                f"page too large to inline ({len(text)} characters, {len(full_view)} lines); "
                f"{where}; showing the first {len(shown)} lines. "
                "Ask for a range with --from N --to M, or for lines with --filter REGEX"
            )
        )
        page.text = preview
        page.truncated = True
        page.matched, page.first, page.last = (
            len(full_view),
            (1 if shown else None),
            len(shown) or None,
        )
        _append_link_list(page, opts)
        return
    page.notes.extend(r.fallback for r in (opts.filter, opts.exclude) if r and r.fallback)
    sel = lines.select_lines(
        full_view,
        keep=opts.filter,
        drop=opts.exclude,
        from_line=opts.from_line,
        to_line=opts.to_line,
        deadline=deadline,
        pinned=pinned,
    )
    page.matched, page.first, page.last = sel.matched, sel.first, sel.last
    body = "\n".join(sel.lines)
    kept, cut = lines.truncate(body, opts.max_length)
    page.text = kept
    if cut:
        page.truncated = True
        kept_lines = len(lines.split_lines(kept))
        nxt = (sel.first or 1) + kept_lines
        note = (
            f"output truncated at {len(kept)} of {len(body)} characters ({cut} cut); "
            f"see the rest with --from {nxt}, or raise --max-length (0 = no limit)"
        )
        page.trailer.append(marker(note))
        page.notes.append(note)
    elif opts.from_line and sel.matched and not sel.lines:
        page.notes.append(f"--from {opts.from_line} is past the last line ({sel.matched})")
    _append_link_list(page, opts)


def _save_view(page: PageResult, text: str, name: str | None, *, what: str | None) -> Path:
    data = text.encode("utf-8")
    if not data.endswith(b"\n") and data:
        data += b"\n"
    path = save_bytes(data, name or default_name(page.final_url or page.url, None, text=True))
    page.saved_to = str(path)
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


def process_many(
    targets: Sequence[str],
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None,
) -> Iterator[PageResult]:
    """Fetch concurrently with a small pool; yield pages in input order."""
    if len(targets) == 1:
        yield process(targets[0], opts, log=log, browser=browser)
        return
    pool = ThreadPoolExecutor(max_workers=min(BATCH_WORKERS, len(targets)))
    futures = [pool.submit(process, t, opts, log=log, browser=browser) for t in targets]
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
