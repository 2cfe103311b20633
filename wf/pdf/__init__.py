"""PDF bodies to text for the line pipeline, through PDFium (pypdfium2).

pypdfium2 is imported only here, when a body is a PDF: ``wf --help`` and HTML pages never
load it, and this path loads nothing of the HTML machinery (no lxml).

``extract`` reads the pages (wf.pdf.read, in a child process), cleans each page and drops
running headers and footers (wf.pdf.clean), and joins the pages, each after a separator
line ``--- page N ---``. The caller gets the text, the notes a reader should see, and the
JSON extras (page count, metadata, outline).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from common.errors import DocumentUnreadable
from wf.pdf.clean import is_separator
from wf.pdf.pagespec import PageSpec, parse_pages

__all__ = ["PdfText", "PageSpec", "extract", "is_separator", "parse_pages"]

DEFAULT_MAX_PAGES = 2_000


@dataclass
class PdfText:
    text: str
    pages: int  # pages in the document
    metadata: dict[str, str | None]
    outline: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)


def extract(
    body: bytes,
    *,
    pages: PageSpec | None,
    full: bool,
    max_pages: int,
    deadline: float,
) -> PdfText:
    """The text of a PDF body. Raises DocumentUnreadable (71) when it is encrypted without
    a usable empty password or no page can be read, Timeout (28) at the deadline."""
    from wf.pdf import clean, meta
    from wf.pdf.pdfium import PAGE_CHARS
    from wf.pdf.read import read

    reading = read(
        body,
        pages,
        max_pages=max_pages,
        deadline=deadline,
    )
    if not reading.pages and reading.stopped:
        raise DocumentUnreadable(
            f"document cannot be read: {reading.stopped} before any page was read"
        )
    if not reading.pages and (reading.failed or reading.count == 0):
        raise DocumentUnreadable(
            "document cannot be read: the PDF is damaged (no page could be read)"
        )
    notes: list[str] = []
    if reading.stopped:
        left = f"page(s) {_numbers(reading.unread)} not read" if reading.unread else "pages lost"
        notes.append(f"{reading.stopped}: {left}; the pages read are printed")
    if reading.failed:
        notes.append(
            f"PDF damaged: {len(reading.failed)} page(s) could not be read "
            f"({_numbers(reading.failed)}); the others are printed"
        )
    if reading.skipped:
        notes.append(
            f"PDF has {reading.count} pages; read the first {max_pages} only "
            f"(WF_PDF_MAX_PAGES), {reading.skipped} selected page(s) left out"
        )
    if reading.cut:
        notes.append(f"page text cut at {PAGE_CHARS} characters on page(s) {_numbers(reading.cut)}")
    if reading.capped is not None:
        notes.append(f"PDF text too large: reading stopped after page {reading.capped}")
    if pages is not None and not reading.pages and not reading.failed and reading.count:
        notes.append(f"--pages {pages.text}: the PDF has only {reading.count} page(s)")
    numbers = [number for number, _ in reading.pages]
    texts = [clean.page_lines(text) for _, text in reading.pages]
    if reading.pages and not any(text.strip() for text in texts):
        notes.append(
            "PDF has no text layer (scanned pages or images only); nothing to print "
            "(wf does no OCR)"
        )
        texts = ["" for _ in texts]
    elif not full:
        texts, _dropped = clean.drop_running(texts)
    return PdfText(
        text=clean.join_pages(list(zip(numbers, texts, strict=True))) if any(texts) else "",
        pages=reading.count,
        metadata=meta.metadata(reading.info, body),
        outline=meta.outline(reading.outline),
        notes=notes,
    )


def _numbers(numbers: list[int], shown: int = 10) -> str:
    head = ", ".join(str(n) for n in numbers[:shown])
    return head + (f" and {len(numbers) - shown} more" if len(numbers) > shown else "")
