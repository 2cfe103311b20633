"""What wf prints for one page: ``PageResult`` (the pipeline fills it), its text-mode
lines, its --json object, the --meta header and the marker lines (as ws/view.py is for ws).
Pure data and formatting; common.output writes it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from common.errors import ToolError
from common.text import OutOfTime, clean_text, escape_markers, inline, one_line

Log = Callable[[str], None]


@dataclass
class PageResult:
    url: str
    # What the page is: for HTML the extractor's page kind (article, thread, documentation,
    # product, listing, landing; html under --full), else wf.sniff's (pdf, feed, text,
    # binary, empty).
    kind: str | None = None
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
    # --images: the text's images (wf.extract.images), as JSON objects; None without it.
    images: list[dict[str, Any]] | None = None

    def note(self, note: str, log: Log | None = None) -> None:
        """A note for the page's JSON, said on stderr as well when there is a ``log``."""
        self.notes.append(note)
        if log is not None:
            log(f"note: {note}")

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
        found = self._as_json()
        if self.images is not None:  # --images only: a run without it prints what it did
            found = {**found, "images": self.images}
            found["error"] = found.pop("error")  # the error stays the last key
        return found

    def _as_json(self) -> dict[str, Any]:
        # The text is clean already; the fields below may quote the user, the server or a
        # file name, and a raw C1 control or line separator in JSON is still one on screen.
        return {
            "url": one_line(self.url),
            "final_url": one_line(self.final_url) or None,
            "status": self.status,
            "content_type": one_line(self.content_type) or None,
            "charset": self.charset,
            "title": one_line(self.title) or None,
            "metadata": metadata_json(self.metadata),
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
            "error": error_json(self.error, self),
        }


def metadata_json(found: dict[str, str | None] | None) -> dict[str, str | None]:
    from wf.extract.metadata import KEYS

    # Every key always, in one order, then a PDF's own keys (wf.pdf.meta.EXTRA_KEYS); the
    # values left wf.extract.metadata and wf.pdf.meta one-line already.
    found = found or {}
    keys = [*KEYS, *(key for key in found if key not in KEYS)]
    return {key: one_line(found.get(key)) or None for key in keys}


def error_json(error: ToolError | None, page: PageResult) -> dict[str, Any] | None:
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


def printable(text: str) -> str:
    """A page's text as wf prints it: common.text's policy (no control or invisible
    characters; CR, CRLF, U+2028 and U+2029 end a line), then page lines that begin like a
    marker line escaped. --filter, --from/--to and --json all see this text."""
    return escape_markers(clean_text(text))


def printable_in_time(page: PageResult, text: str, deadline: float | None, log: Log) -> str:
    """printable(text), the policy asking the page's deadline (time.monotonic()) between
    slices of a long text: a pass over 10 MB where every other character is to go takes
    0.25-0.5 s, after an extraction that may have met the deadline already. Past it, the
    part cleaned so far, and a note that says so."""
    from common.late import late

    try:
        return escape_markers(clean_text(text, late(deadline)))
    except OutOfTime as cut:
        page.note(
            "out of time while the text was cleaned for output: "
            f"the first {cut.read} of its {len(text)} characters",
            log,
        )
        return escape_markers(cut.done)
