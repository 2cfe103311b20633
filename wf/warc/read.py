"""A streaming WARC/1.0 and 1.1 reader: records one at a time from a file, a .gz of
gzip members (one per record, or one for the whole file) or stdin, in constant memory.

Our own, not warcio's or FastWARC's: wf reads only response records and their HTTP
payload, which is a small job, and the time per record goes to extraction, not to
reading (README, "Dependencies": reading a 400-record WARC is a few per cent of
extracting it with either library or this reader). Every field is hostile: header lines,
their count and a block's length are bounded; a block past the cap is skipped unread.
"""

from __future__ import annotations

import io
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import IO, TYPE_CHECKING, cast

from common.errors import BadResponse, TooLarge, TransferError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

MAX_HEADER_LINE = 64 * 1024
MAX_HEADERS = 256
_SKIP_STEP = 1 << 20
# gzip input: compressed bytes taken at a time, the most one step inflates them to, and
# the buffer readline fills.
_INFLATE_STEP = 1 << 16
_INFLATED_MAX = 1 << 20
_INFLATED_BUFFER = 1 << 16


@dataclass
class Record:
    """One WARC record: its headers (names lowercased) and block, or ``skipped`` (why its
    block was not read: larger than the cap)."""

    version: str
    headers: dict[str, str]
    block: bytes
    skipped: str | None = None

    @property
    def type(self) -> str:
        return self.headers.get("warc-type", "").lower()


def open_warc(path: str) -> io.BufferedIOBase:
    """The file (``-``: stdin), decompressed when it starts as gzip does."""
    if path == "-":
        stdin = sys.stdin.buffer
        # A stream without peek (a test runner's, a pipe wrapper's) is buffered here.
        stream = cast(
            io.BufferedReader,
            stdin if hasattr(stdin, "peek") else io.BufferedReader(stdin),
        )
    else:
        try:
            stream = open(path, "rb")  # noqa: SIM115  closed by the caller
        except OSError as exc:
            from common.errors import UsageError

            raise UsageError(f"cannot read --warc {path}: {exc.strerror or exc}") from None
    if stream.peek(2)[:2] == b"\x1f\x8b":
        return inflated(stream)
    return stream


def inflated(stream: IO[bytes]) -> io.BufferedReader:
    """A gzip stream of one member or many (a record per member streams) as the bytes it
    holds, buffered for readline."""
    return io.BufferedReader(_Members(stream), _INFLATED_BUFFER)


def inflater_module() -> ModuleType:
    """ISA-L's inflater (python-isal) when it is installed, zlib's otherwise: the same
    API, caps included (``max_length``), and 2.2 times as fast on the WARC of the
    extraction sets (README, "Dependencies"), which is most of what reading costs."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib
    return isal_zlib


class _Members(io.RawIOBase):
    """gzip members one after another, inflated in large steps.

    gzip.GzipFile inflates 8 KiB at a time, each step through Python code. As GzipFile
    does, zero bytes between members are skipped; one step of input never yields more than
    ``_INFLATED_MAX`` bytes, however much it inflates to."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._zlib = inflater_module()
        self._inflater = self._zlib.decompressobj(zlib.MAX_WBITS | 16)  # the gzip wrapper
        self._input = b""  # compressed bytes read and not yet inflated
        self._begun = False  # the current member has had input
        self._out = memoryview(b"")  # inflated bytes not yet handed on

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        while not self._out:
            if not self._inflate():
                return 0
        with memoryview(buffer) as view:
            n = min(len(view), len(self._out))
            view[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def _inflate(self) -> bool:
        """One step: the next input inflated into ``_out`` (maybe nothing); False at the
        end of the stream."""
        if not self._input:
            self._input = self._raw.read(_INFLATE_STEP)
            if not self._input:
                if self._begun and not self._inflater.eof:
                    raise EOFError("the file ends inside a gzip member")
                return False
        if self._inflater.eof:  # the next member, after any zero padding
            self._input = self._input.lstrip(b"\0")
            if not self._input:
                return True
            self._inflater = self._zlib.decompressobj(zlib.MAX_WBITS | 16)
            self._begun = False
        try:
            self._out = memoryview(self._inflater.decompress(self._input, _INFLATED_MAX))
        except self._zlib.error as exc:  # isal's IsalError is no zlib.error
            raise zlib.error(str(exc)) from None
        self._begun = True
        if self._inflater.eof:
            self._input = self._inflater.unused_data
        else:
            self._input = self._inflater.unconsumed_tail
        return True

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


def records(stream: io.BufferedIOBase, max_block: int) -> Iterator[Record]:
    """Each record in turn. A block over ``max_block`` bytes comes back empty, with
    ``skipped`` saying why; a damaged file raises BadResponse naming the byte it reached."""
    try:
        while True:
            line = _line(stream)
            while line in (b"\r\n", b"\n"):  # the two line ends after a block
                line = _line(stream)
            if not line:
                return
            version = line.rstrip(b"\r\n").decode("latin-1")
            if version not in ("WARC/1.0", "WARC/1.1", "WARC/0.18", "WARC/0.17"):
                raise BadResponse(f"not a WARC record: {version[:40]!r}")
            headers = _headers(stream)
            length = _length(headers)
            if length > max_block:
                _skip(stream, length)
                yield Record(version, headers, b"", f"block of {length} bytes over the cap")
                continue
            block = stream.read(length)
            if len(block) != length:
                raise TransferError("WARC file ends inside a record")
            yield Record(version, headers, block)
    except EOFError as exc:
        # Cut short, as a plain file cut inside a record is: the file is not wrong, it
        # is not all there (a crawler still writing it, a copy broken off).
        raise TransferError(f"WARC file cut short: {exc}") from None
    except (OSError, zlib.error) as exc:
        raise BadResponse(f"unreadable WARC file: {exc}") from None


def _line(stream: io.BufferedIOBase) -> bytes:
    line = stream.readline(MAX_HEADER_LINE + 1)
    if len(line) > MAX_HEADER_LINE:
        raise BadResponse(f"WARC header line longer than {MAX_HEADER_LINE} bytes")
    return line


def _headers(stream: io.BufferedIOBase) -> dict[str, str]:
    headers: dict[str, str] = {}
    for _ in range(MAX_HEADERS):
        line = _line(stream)
        if not line:
            raise TransferError("WARC file ends inside a record's headers")
        if line in (b"\r\n", b"\n"):
            return headers
        name, sep, value = line.decode("utf-8", "replace").partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    raise BadResponse(f"WARC record with more than {MAX_HEADERS} header lines")


def _length(headers: dict[str, str]) -> int:
    value = headers.get("content-length", "")
    if not value.isdigit() or len(value) > 18:
        raise BadResponse(f"WARC record without a valid Content-Length: {value[:30]!r}")
    return int(value)


def _skip(stream: io.BufferedIOBase, length: int) -> None:
    while length:
        got = len(stream.read(min(length, _SKIP_STEP)))
        if not got:
            raise TransferError("WARC file ends inside a record")
        length -= got


@dataclass
class Payload:
    """A response record's HTTP answer: status, headers (lowercased), decoded body."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


def http_payload(block: bytes, max_bytes: int) -> Payload:
    """The HTTP message in a response record's block: chunked framing undone, then the
    Content-Encoding (capped at ``max_bytes`` at every stage, as a fetch is)."""
    head, sep, body = block.partition(b"\r\n\r\n")
    if not sep:
        head, sep, body = block.partition(b"\n\n")
    if not sep:
        raise BadResponse("response record without an HTTP header")
    lines = head.decode("latin-1").splitlines()
    parts = lines[0].split(" ", 2) if lines else []
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise BadResponse("response record without an HTTP status line")
    headers: dict[str, str] = {}
    for line in lines[1 : MAX_HEADERS + 1]:
        name, colon, value = line.partition(":")
        if colon:
            key = name.strip().lower()
            headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = _dechunk(body)
    coding = headers.get("content-encoding", "").strip()
    if coding and coding.lower() != "identity":
        body = _decode(body, coding, max_bytes)
    elif len(body) > max_bytes:
        raise TooLarge(f"body is larger than the cap of {max_bytes} bytes")
    return Payload(int(parts[1]), headers, body)


def _dechunk(data: bytes) -> bytes:
    out: list[bytes] = []
    at = 0
    while True:
        end = data.find(b"\n", at)
        if end < 0:
            raise TransferError("bad chunked encoding in a response record")
        size_text = data[at:end].split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise TransferError("bad chunked encoding in a response record") from None
        if size == 0:
            return b"".join(out)
        out.append(data[end + 1 : end + 1 + size])
        at = end + 1 + size
        at += 2 if data[at : at + 2] == b"\r\n" else 1


def _decode(body: bytes, coding: str, max_bytes: int) -> bytes:
    from common.http.decompress import Sink, decoders

    sink = Sink(decoders(coding, "the WARC record"), max_bytes)
    sink.feed(body)
    sink.check_complete("the WARC record")
    return sink.body()
