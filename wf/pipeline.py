"""One page through wf, the spine of the tool: fetch (--retry, --cache) -> what the body
is (wf.sniff) -> extract the HTML (wf.extract; rendered when it needs it, wf.render.decide;
an empty page explained, wf.empty), read the PDF (wf.pdf) or the feed (wf.feedtext), or save
the binary -> the lines shown (wf.shown) -> a PageResult (wf.view).

Data flows one way; nothing here knows about click. ``process`` returns a PageResult whose
``output`` is what text mode prints and whose ``as_json`` is the --json object.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from common import trace, watchdog
from common.errors import ToolError, WriteError
from common.http.client import Response, raise_for_status
from common.text import one_line
from wf import sniff
from wf.options import ALWAYS, NEVER, WfOptions
from wf.shown import apply_lines, save_binary
from wf.targets import refuse_local_path
from wf.view import Log, PageResult, meta_header, printable_in_time

if TYPE_CHECKING:
    from wf.render.decide import LazyBrowser

BATCH_WORKERS = 4
# --warc-out: hears of every answer fetched (wf.warc.write.WarcWriter.add).
Archive = Callable[[Response], None]


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


def process(
    target: str,
    opts: WfOptions,
    *,
    log: Log,
    browser: LazyBrowser | None = None,
    local_body: bytes | None = None,
    number: int = 1,
    response: Document | None = None,
    archive: Archive | None = None,
) -> PageResult:
    """Run one URL (or a local document when ``local_body`` is given, or an answer fetched
    before, ``response``: a WARC record's) through the pipeline."""
    start = time.monotonic()
    # The target may be any line of stdin; it is echoed in headers and JSON, never fetched
    # from here (fetch refuses a URL with control characters).
    page = PageResult(url=one_line(target))
    if opts.steering.images:
        page.images = []  # --json then always has the key: a PDF or an error has none
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
            response=response,
            archive=archive,
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
    response: Document | None = None,
    archive: Archive | None = None,
) -> None:
    try:
        if response is not None:
            doc = response
        elif local_body is None:
            refuse_local_path(target)
            if opts.steering.robots is not None:
                from common.http.url import normalise_url

                normalise_url(target)  # an invalid URL is exit 3, not robots.txt's refusal
                opts.steering.robots.check(target, deadline)
            if browser is not None and opts.render == ALWAYS:
                browser.get().prewarm()  # the browser starts during the static fetch
            resp = _fetch(page, target, opts, deadline, log=log)
            if archive is not None:  # --warc-out: the answer as it came, errors included
                archive(resp)
            if resp.status >= 400:
                from wf.errorpage import describe_error

                describe_error(page, resp, deadline)
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
            page.note(f"cache not used: {exc.message}", log)
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
    page.kind = kind
    page.content_type = doc.content_type or mime or None
    trace.trace(
        "type: %s (Content-Type %s; the body sniffed as %s)%s",
        kind,
        doc.content_type or "none",
        mime or "nothing known",
        ", printed as it is (--raw)" if opts.raw and kind == "html" else "",
    )
    if kind == "binary":
        save_binary(page, doc.body, doc.final_url or doc.source, mime, opts, log=log, number=number)
        return
    if kind == "empty":
        apply_lines(page, "", opts, deadline, log=log, number=number)
        return
    if kind == "pdf" and not opts.raw:
        _build_pdf(page, doc, opts, log=log, deadline=deadline, number=number)
        return
    if kind == "pdf":  # --raw: the bytes, which are no text to print
        save_binary(page, doc.body, doc.final_url or doc.source, mime, opts, log=log, number=number)
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
        text = printable_in_time(page, text, deadline, log)
        apply_lines(page, text, opts, deadline, log=log, number=number)
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
        _markdown_metadata(page, doc, text, opts)
    del decoded
    text = printable_in_time(page, text, deadline, log)
    apply_lines(page, text, opts, deadline, log=log, number=number)


def _markdown_metadata(page: PageResult, doc: Document, text: str, opts: WfOptions) -> None:
    """A Markdown answer (--accept-markdown asked for it) is printed as served; its front
    matter is the page's metadata."""
    from wf.markdown_answer import is_markdown, metadata

    if opts.raw or not (opts.as_json or opts.meta) or not is_markdown(doc.content_type):
        return
    page.metadata = metadata(text, page.final_url or opts.base_url)
    page.title = page.metadata.get("title")


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
        page.note(note, log)
    apply_lines(
        page,
        printable_in_time(page, result.text, deadline, log),
        opts,
        deadline,
        log=log,
        number=number,
        pinned=pdf.is_separator,
    )


def _extract_feed(
    page: PageResult, text: str, opts: WfOptions, *, log: Log, deadline: float
) -> str | None:
    """A feed's entries as text (wf.feedtext), or None when the body holds no feed."""
    from common.parse_thread import parsing
    from wf.feedtext import feed_text

    result = parsing(
        lambda: feed_text(
            text,
            url=page.final_url or opts.base_url,
            markers=opts.links,
            deadline=deadline,
            want_entries=opts.as_json,
        ),
        len(text),
    )
    for note in result.notes:
        page.note(note, log)
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
    from common.errors import NoMatch
    from wf.extract import Extracted, extract

    base = page.final_url or opts.base_url
    steer = opts.steering
    can_render = browser is not None and page.status is not None
    missed: NoMatch | None = None
    try:
        result = extract(
            html.data,
            url=base,
            full=opts.full,
            link_markers=opts.links,
            deadline=deadline,
            metadata=opts.as_json or opts.meta,
            selection=steer.selection,
            images=steer.images,
        )
    except NoMatch as exc:
        if not can_render or not _shell_to_render(html, opts, base):
            raise
        # The static page has no match: the rendered one may (a page its scripts build).
        missed, result = exc, Extracted(title=None, text="", links=[])
    if opts.render != NEVER and browser is not None and can_render:
        from wf.render.decide import maybe_render

        result = maybe_render(
            page, html.text, result, opts, log=log, browser=browser, deadline=deadline
        )
    if missed is not None and not page.rendered:
        raise missed
    if steer.images:
        page.images = [image.as_json() for image in result.images or []]
    page.title = result.title
    page.metadata = result.metadata
    page.kind = result.kind or page.kind
    page.links = [{"text": link.text, "url": link.url} for link in result.links]
    for note in result.notes:  # a page read only in part: never silently
        page.notes.append(note)
        log(f"note: {note}")
    if steer.selection is not None and steer.selection.select:
        # The user chose the part: the whole page's walls and shells are not its story.
        if not result.text.strip():
            page.note("--select matched elements without text", log)
        return result.text
    from wf.empty import explain

    explain(page, html.text, result.text, opts, log=log, can_render=can_render, deadline=deadline)
    return result.text


def _shell_to_render(html: Html, opts: WfOptions, base: str | None) -> bool:
    """Whether a page whose static HTML --select found nothing in is rendered to look
    again: always under --render always; in auto mode when the page (its whole static
    text, not the selection's) looks JavaScript-built, as any page is judged."""
    if opts.render == NEVER:
        return False
    if opts.render == ALWAYS:
        return True
    from wf.extract import extract_text
    from wf.render.detect import looks_like_js_shell

    return looks_like_js_shell(html.text(), extract_text(html.data, url=base))


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
    archive: Archive | None = None,
) -> Iterator[PageResult]:
    """Fetch concurrently with a small pool; yield pages in input order. ``on_done`` hears
    of each page as it finishes, in any order, from the pool's threads (the progress line)."""
    if len(targets) == 1:
        yield process(targets[0], opts, log=log, browser=browser, archive=archive)
        return
    from common.http.deadline import abort_fetches
    from wf import batch

    steer = opts.steering
    plan = batch.Schedule(
        [batch.host_of(t, i) for i, t in enumerate(targets)],
        per_host=steer.per_host,
        delay=steer.delay_ms / 1000.0,
        workers=BATCH_WORKERS,
    )
    if steer.robots is not None:
        # robots.txt's Crawl-delay, for the server of the URL that read it.
        steer.robots.on_delay = lambda url, seconds: plan.set_delay(batch.host_of(url, -1), seconds)

    def work(index: int, target: str) -> PageResult:
        n = index + 1
        return _labelled(
            str(n),
            target,
            opts,
            log=log,
            browser=browser,
            on_done=on_done,
            number=n,
            archive=archive,
        )

    # A signal, or a reader that went away: the pages in flight are not wanted, and
    # waiting for them would hold the exit until the slowest server's deadline.
    yield from batch.run(targets, work, schedule=plan, abandon=abort_fetches)
