"""One PDF reader's work inside PDFium (wf.pdf.read forks the readers): open the
document, read the text of its run of pages, and (reader 0) the information dictionary and
the outline; and the frames it sends as it goes (a 4-byte length, then a pickle of a
tuple), folded into a ``Reading`` on wf's side.

Frames: ``open`` with the page count, the pages it has, the dictionary and the outline;
one ``page`` per page read or failed; ``capped`` when TOTAL_CHARS stopped it; then
``done`` (or ``error``, when the file cannot be opened).
"""

from __future__ import annotations

import pickle
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from common.errors import DocumentUnreadable
from wf.pdf.pagespec import PageSpec

PAGE_CHARS = 200_000  # characters kept of one page (a dense page of 6 pt type has 20 000)
TOTAL_CHARS = 20_000_000  # characters kept of one document
OUTLINE_DEPTH = 15
FRAME = struct.Struct("<I")
FRAME_MAX = 64 << 20

Send = Callable[[tuple[Any, ...]], None]


@dataclass
class Reading:
    """What the reader got from one document."""

    count: int = 0  # pages in the document
    info: dict[str, str] = field(default_factory=dict)
    outline: list[tuple[int, str, int | None]] = field(default_factory=list)
    pages: list[tuple[int, str]] = field(default_factory=list)  # (1-based number, raw text)
    failed: list[int] = field(default_factory=list)  # 1-based numbers of unreadable pages
    cut: list[int] = field(default_factory=list)  # pages whose text was over PAGE_CHARS
    capped: int | None = None  # the page after which TOTAL_CHARS stopped the reading
    skipped: int = 0  # pages past max_pages, not read
    stopped: str | None = None  # why a reader ended early (a crash), when one did
    unread: list[int] = field(default_factory=list)  # pages a reader that stopped left
    share: list[int] = field(default_factory=list)  # the 1-based pages this reader had


def frames(buffer: bytearray, chunk: bytes) -> Iterator[tuple[Any, ...] | None]:
    """The whole frames in ``buffer`` once ``chunk`` is added (the rest stays there);
    None for a frame too big to be ours."""
    buffer += chunk
    while len(buffer) >= FRAME.size:
        (size,) = FRAME.unpack_from(buffer)
        if size > FRAME_MAX:
            yield None
            return
        if len(buffer) < FRAME.size + size:
            return
        data = bytes(buffer[FRAME.size : FRAME.size + size])
        del buffer[: FRAME.size + size]
        # The child is a fork of this process: its pickles are trusted.
        yield pickle.loads(data)


def apply(reading: Reading, frame: tuple[Any, ...]) -> bool:
    """Fold one frame into ``reading``; True at ``done``. Errors are raised here."""
    kind = frame[0]
    if kind == "open":
        _, reading.count, reading.info, reading.outline, reading.skipped, reading.share = frame
    elif kind == "page":
        _, number, text, cut = frame
        if text is None:
            reading.failed.append(number)
        else:
            reading.pages.append((number, text))
            if cut:
                reading.cut.append(number)
    elif kind == "capped":
        reading.capped = frame[1]
    elif kind == "error":
        raise DocumentUnreadable(frame[1])
    elif kind == "done":
        return True
    return False


def read_part(
    body: bytes,
    pages: PageSpec | None,
    max_pages: int,
    part: tuple[int, int],
    send: Send,
) -> None:
    """Open the document and read the pages of ``part`` (k, n): the k-th of n runs of the
    pages selected. Reader 0 also sends the information dictionary and the outline."""
    import logging

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    # pypdfium2 warns through logging (a circular outline, say), which would reach stderr
    # through logging's last-resort handler: every stderr line is wf's own.
    quiet = logging.getLogger("pypdfium2")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    try:
        doc = pdfium.PdfDocument(body)
    except pdfium.PdfiumError as exc:
        send(("error", _open_error(getattr(exc, "err_code", None), raw)))
        return
    count = len(doc)
    # A page tree may claim a billion pages: only the first max_pages are ever listed.
    upto = min(count, max_pages)
    indices = list(range(upto)) if pages is None else pages.select(upto)
    skipped = (count if pages is None else pages.size(count)) - len(indices)
    k, n = part
    indices = indices[k * len(indices) // n : (k + 1) * len(indices) // n]
    first = k == 0
    info, outline = (_info(doc), _outline(doc)) if first else ({}, [])
    send(("open", count, info, outline, skipped, [i + 1 for i in indices]))
    total = 0
    for index in indices:
        text: str | None
        cut = False
        try:
            page = doc[index]
            try:
                textpage = page.get_textpage()
                try:
                    chars = textpage.count_chars()
                    cut = chars > PAGE_CHARS
                    text = textpage.get_text_bounded() if not cut else _first(textpage)
                finally:
                    textpage.close()
            finally:
                page.close()
        except (pdfium.PdfiumError, ValueError, OSError, AssertionError):
            text = None
        send(("page", index + 1, text, cut))
        total += len(text or "")
        if total > TOTAL_CHARS // n:
            send(("capped", index + 1))
            break
    send(("done",))


def _first(textpage: Any) -> str:
    """The first PAGE_CHARS characters of a page (get_text_range reads only those)."""
    return str(textpage.get_text_range(0, PAGE_CHARS))


def _open_error(code: int | None, raw: Any) -> str:
    if code == raw.FPDF_ERR_PASSWORD:
        return "document cannot be read: the PDF is encrypted and needs a password"
    if code == raw.FPDF_ERR_SECURITY:
        return "document cannot be read: the PDF uses an unsupported security handler"
    return "document cannot be read: the PDF is damaged (PDFium could not open it)"


def _info(doc: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for key in ("Title", "Author", "Subject", "Producer", "CreationDate", "ModDate"):
        try:
            out[key] = str(doc.get_metadata_value(key))
        except Exception:  # a value PDFium cannot give is simply absent
            continue
    return out


def _outline(doc: Any) -> list[tuple[int, str, int | None]]:
    from wf.pdf.meta import OUTLINE_MAX

    out: list[tuple[int, str, int | None]] = []
    try:
        for mark in doc.get_toc(max_depth=OUTLINE_DEPTH):
            dest = mark.get_dest()
            page = dest.get_index() if dest is not None else None
            out.append((mark.level, str(mark.get_title()), page))
            if len(out) >= OUTLINE_MAX:
                break
    except Exception:  # a broken outline leaves the bookmarks found so far
        pass
    return out


def encode(frame: tuple[Any, ...]) -> bytes:
    """One frame as it goes down a pipe: its length, then its pickle."""
    data = pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL)
    return FRAME.pack(len(data)) + data
