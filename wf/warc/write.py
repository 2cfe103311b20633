"""WARC/1.1 records written: ``wf --warc-out FILE`` keeps every answer fetched (a request
and a response record each, with WARC-Block-Digest and WARC-Payload-Digest), and tests
and ``make scale`` build archives with ``record``. The file is complete or absent: records
go to a temporary file beside it, renamed over FILE when the run ends well.

The response record holds the body as wf read it (Content-Encoding and chunked framing
undone): its Content-Encoding and Transfer-Encoding headers are kept as
X-Crawler-Content-Encoding and X-Crawler-Transfer-Encoding, as Common Crawl does.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import os
import tempfile
import threading
import uuid
from datetime import UTC, datetime
from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from common.errors import WriteError

if TYPE_CHECKING:
    from common.http.client import Response

_DROPPED = {"content-length", "content-encoding", "transfer-encoding"}


def digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def record(
    warc_type: str,
    block: bytes,
    *,
    target_uri: str | None = None,
    content_type: str | None = None,
    payload: bytes | None = None,
    date: str | None = None,
    record_id: str | None = None,
    extra: dict[str, str] | None = None,
) -> bytes:
    """One record's bytes (headers, block, the two line ends)."""
    headers = {
        "WARC-Type": warc_type,
        "WARC-Record-ID": record_id or f"<urn:uuid:{uuid.uuid4()}>",
        "WARC-Date": date or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    if target_uri is not None:
        headers["WARC-Target-URI"] = target_uri
    headers.update(extra or {})
    if content_type is not None:
        headers["Content-Type"] = content_type
    headers["WARC-Block-Digest"] = digest(block)
    if payload is not None:
        headers["WARC-Payload-Digest"] = digest(payload)
    headers["Content-Length"] = str(len(block))
    head = "WARC/1.1\r\n" + "".join(f"{k}: {_value(v)}\r\n" for k, v in headers.items())
    return head.encode("utf-8") + b"\r\n" + block + b"\r\n\r\n"


def _value(text: str) -> str:
    """A header value on one line: a server's CR or LF would start a header of its own."""
    return "".join(" " if ch in "\r\n" else ch for ch in text)


def http_response(status: int, headers: dict[str, str], body: bytes) -> bytes:
    """An HTTP/1.1 answer as a response record's block, framed by Content-Length."""
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    lines = [f"HTTP/1.1 {status} {reason}".rstrip()]
    for name, value in headers.items():
        if name.lower() in _DROPPED:
            if name.lower() != "content-length":
                lines.append(f"X-Crawler-{name.title()}: {_value(value)}")
            continue
        lines.append(f"{name.title()}: {_value(value)}")
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "replace") + body


def http_request(url: str, headers: dict[str, str]) -> bytes:
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    lines = [f"GET {target} HTTP/1.1", f"Host: {parts.netloc.rpartition('@')[2]}"]
    lines += [f"{name}: {_value(value)}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "replace")


class WarcWriter:
    """Records appended from any thread; ``commit`` renames the file into place,
    ``discard`` removes it. A name ending in .gz gets one gzip member per record (the
    form readers seek in)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.compress = path.endswith(".gz")
        self._lock = threading.Lock()
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            # Found now, not at the rename after every fetch: nothing is fetched for an
            # archive that cannot be written.
            raise WriteError(f"cannot write --warc-out {path}: Is a directory")
        try:
            fd, self._temp = tempfile.mkstemp(prefix=".wf-warc-", suffix=".part", dir=folder)
        except OSError as exc:
            raise WriteError(f"cannot write --warc-out {path}: {exc.strerror or exc}") from None
        self._file = os.fdopen(fd, "wb")
        self.failed = False
        info = b"software: wf\r\nformat: WARC File Format 1.1\r\n"
        self._append(record("warcinfo", info, content_type="application/warc-fields"))

    def _append(self, data: bytes) -> None:
        if self.compress:
            data = gzip.compress(data, compresslevel=6)
        with self._lock:
            try:
                self._file.write(data)
            except OSError as exc:
                self.failed = True  # a record is missing: the file is never committed
                raise WriteError(
                    f"cannot write --warc-out {self.path}: {exc.strerror or exc}"
                ) from None

    def add(self, resp: Response, request_headers: dict[str, str]) -> None:
        """The request sent for ``resp`` and its answer, linked by WARC-Concurrent-To."""
        target = resp.final_url
        block = http_response(resp.status, resp.headers, resp.body)
        response_id = f"<urn:uuid:{uuid.uuid4()}>"
        answer = record(
            "response",
            block,
            target_uri=target,
            content_type="application/http;msgtype=response",
            payload=resp.body,
            record_id=response_id,
        )
        request = record(
            "request",
            http_request(target, request_headers),
            target_uri=target,
            content_type="application/http;msgtype=request",
            extra={"WARC-Concurrent-To": response_id},
        )
        self._append(request)
        self._append(answer)

    def commit(self) -> None:
        if self.failed:
            self.discard()
            raise WriteError(f"cannot write --warc-out {self.path}: a record could not be written")
        with self._lock:
            try:
                self._file.flush()
                os.fsync(self._file.fileno())
                self._file.close()
                os.replace(self._temp, self.path)
            except OSError as exc:
                self.discard()
                raise WriteError(
                    f"cannot write --warc-out {self.path}: {exc.strerror or exc}"
                ) from None

    def discard(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass
        try:
            os.unlink(self._temp)
        except OSError:
            pass
