"""``wf --warc FILE...``: every response record whose answer is a 200 with HTML, a PDF or
a feed goes through wf's pipeline (wf.pipeline.process, as a fetched page does), one JSON
line each with the record's WARC-Target-URI, WARC-Record-ID and WARC-Date. Other records
are counted, and named under -v. One record is held at a time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from common import trace
from common.errors import ToolError
from wf.options import WfOptions
from wf.view import Log, PageResult

if TYPE_CHECKING:
    from wf.warc.read import Record

READ_KINDS = ("html", "pdf", "feed")


class Tally:
    """What the records were: pages read, and the others by reason."""

    def __init__(self) -> None:
        self.records = 0
        self.pages = 0
        self.skipped: Counter[str] = Counter()

    def skip(self, reason: str, record_id: str) -> None:
        self.skipped[reason] += 1
        trace.trace("warc: record %s skipped: %s", record_id or "without an id", reason)

    def summary(self) -> str:
        others = ", ".join(f"{n} {why}" for why, n in self.skipped.most_common())
        return f"{self.records} WARC records, {self.pages} read" + (
            f"; skipped: {others}" if others else ""
        )


def warc_documents(
    paths: Sequence[str],
    opts: WfOptions,
    *,
    log: Log,
    tally: Tally | None = None,
) -> Iterator[tuple[dict[str, Any], PageResult]]:
    """The JSON object of each page in the files, in order, with the page it describes
    (its error, its kind)."""
    from wf.warc.read import open_warc, records

    tally = tally or Tally()
    # The block holds the HTTP head too, and a compressed body decodes to at most the cap.
    max_block = opts.net.max_bytes + (1 << 20)
    for path in paths:
        stream = open_warc(path)
        try:
            for record in records(stream, max_block):
                tally.records += 1
                found = _document(record, opts, log, tally)
                if found is not None:
                    yield found
        finally:
            if path != "-":
                stream.close()


def _document(
    record: Record, opts: WfOptions, log: Log, tally: Tally
) -> tuple[dict[str, Any], PageResult] | None:
    from common.text import one_line
    from wf import sniff
    from wf.pipeline import Document, process
    from wf.warc.read import http_payload

    record_id = one_line(record.headers.get("warc-record-id", ""))
    if record.type != "response":
        tally.skip(f"{record.type or 'untyped'} record", record_id)
        return None
    if record.skipped is not None:
        tally.skip(record.skipped, record_id)
        return None
    try:
        payload = http_payload(record.block, opts.net.max_bytes)
    except ToolError as exc:
        tally.skip(f"unreadable answer ({exc.kind})", record_id)
        return None
    if payload.status != 200:
        tally.skip(f"status {payload.status}", record_id)
        return None
    kind, _ = sniff.classify(payload.content_type or None, payload.body)
    if kind not in READ_KINDS:
        tally.skip(f"{kind} body", record_id)
        return None
    target = record.headers.get("warc-target-uri", "").strip("<>")
    doc = Document(target, target, payload.status, payload.content_type, payload.body)
    del payload
    page = process(target, opts, log=log, browser=None, response=doc)
    tally.pages += 1
    found = {
        "warc_target_uri": one_line(target),
        "warc_record_id": record_id,
        "warc_date": one_line(record.headers.get("warc-date", "")) or None,
        **page.as_json(),
    }
    return found, page


def print_warc(opts: WfOptions, paths: list[str]) -> int:
    """The CLI's --warc: JSON Lines on stdout, an error line for each page that failed;
    the exit code is the first failure's. With -v, the records' tally at the end."""
    from common import output, run

    def log(message: str) -> None:
        if opts.verbose:  # a page's notes are in its JSON line; -v says them too
            output.diag("wf", message)

    tally = Tally()
    first_error = 0
    for document, page in warc_documents(paths, opts, log=log, tally=tally):
        error = page.error
        if error is not None:
            run.error_line("wf", error)
            first_error = first_error or error.code
        output.write_json(document)
    if opts.verbose:
        output.diag("wf", f"note: {tally.summary()}")
    return first_error
