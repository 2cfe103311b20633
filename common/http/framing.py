"""The head of an answer, read strictly: http.client minus its leniencies, with bounds on
the size of the head and on interim answers."""

from __future__ import annotations

import http.client
import re
from typing import Any

# Bounds on the head of an answer, far above what real servers send (a few KB of headers,
# one interim 103 at most), so that a flood is refused before it costs memory. Python's
# http.client also refuses more than 100 header lines in one head and lines over 64 KiB.
MAX_HEADER_BYTES = 256 * 1024
MAX_HEADER_LINES = 500
MAX_INTERIM = 10


class Malformed(http.client.HTTPException):
    """A head that breaks the framing rules or our bounds."""


class BrokenChunks(http.client.HTTPException):
    """A chunked body with something else where a chunk size is due."""


class _HeadReader:
    """The answer's file, counting what a head reads against the bounds."""

    def __init__(self, fp: Any) -> None:
        self.fp = fp
        self.last: bytes | None = None
        self.size = 0
        self.lines = 0

    def readline(self, limit: int = -1) -> bytes:
        self.last = self.fp.readline(limit)
        self.size += len(self.last)
        self.lines += 1
        if self.size > MAX_HEADER_BYTES:
            raise Malformed(f"the headers are larger than {MAX_HEADER_BYTES // 1024} KiB")
        if self.lines > MAX_HEADER_LINES:
            raise Malformed(f"more than {MAX_HEADER_LINES} header lines")
        return self.last

    def __getattr__(self, name: str) -> Any:
        return getattr(self.fp, name)


class StrictResponse(http.client.HTTPResponse):
    """http.client's response, minus its leniencies and with bounds on the head.

    A head cut off by the end of the connection would count as complete, and an invalid
    Content-Length would mean "read until close": both would pass a partial body as a
    whole one, and RFC 9112 makes them framing errors. Every head (interim ones included)
    counts against MAX_HEADER_BYTES and MAX_HEADER_LINES; interim 1xx answers other than
    101 are skipped, up to MAX_INTERIM (http.client itself skips only 100 Continue and
    would return a 103 Early Hints as the answer).
    """

    # _read_status and _MAXLINE are http.client internals that typeshed leaves out.
    def _read_status(self) -> tuple[str, int, str]:
        for _ in range(MAX_INTERIM + 1):
            version, status, reason = super()._read_status()  # type: ignore[misc]
            if not 100 <= status < 200 or status == 101:
                return version, status, reason
            self._skip_head()
        raise Malformed(f"more than {MAX_INTERIM} interim (1xx) answers")

    def _skip_head(self) -> None:
        while True:
            line = self.fp.readline(http.client._MAXLINE + 1)  # type: ignore[attr-defined]
            if len(line) > http.client._MAXLINE:  # type: ignore[attr-defined]
                raise http.client.LineTooLong("header line")
            if line in (b"\r\n", b"\n", b""):
                return

    def _read_next_chunk_size(self) -> int:
        # http.client's, but a line that is no size says so in words: http.client
        # raised int()'s ValueError ("invalid literal for int() with base 16: b''").
        # _MAXLINE and _close_conn are http.client internals that typeshed leaves out.
        line = self.fp.readline(http.client._MAXLINE + 1)  # type: ignore[attr-defined]
        if len(line) > http.client._MAXLINE:  # type: ignore[attr-defined]
            raise http.client.LineTooLong("chunk size")
        try:
            return int(line.split(b";", 1)[0], 16)
        except ValueError:
            self._close_conn()  # type: ignore[attr-defined]
            raise BrokenChunks(chunk_size_error(line)) from None

    def begin(self) -> None:
        if self.headers is not None:
            return
        fp, reader = self.fp, _HeadReader(self.fp)
        self.fp = reader
        try:
            super().begin()
        finally:
            if self.fp is reader:
                self.fp = fp
        if reader.last == b"":
            raise Malformed("the connection closed before the headers ended")
        values = {
            v.strip() for h in self.headers.get_all("content-length") or () for v in h.split(",")
        }
        if (
            values
            and not self.chunked
            and (len(values) > 1 or not re.fullmatch(r"[0-9]+", min(values)))
        ):
            raise Malformed(f"invalid Content-Length {', '.join(sorted(values))!r}")


def chunk_size_error(line: bytes) -> str:
    """What it means when a chunked body has ``line`` where a chunk size is due, in words:
    no line at all is the end of the connection, a body cut short."""
    if not line:
        return "the body was cut short: the connection closed before the last chunk"
    shown = line.split(b";", 1)[0].strip()[:40].decode("latin-1")
    what = repr(shown) if shown else "an empty line"
    return f"the chunked encoding is broken: {what} where a chunk size should be"
