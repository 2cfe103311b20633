"""Content-Encoding: the codings we offer, and decoders whose every stage is capped, so a
compression bomb costs at most the cap."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from functools import cache
from typing import Any

from common.errors import BadResponse, TooLarge, TransferError

# Most a decoder may produce per call: zlib builds its output in blocks and then joins
# them, so one unbounded call briefly holds twice what it returns.
_DECODE_STEP = 1024 * 1024
# urllib3 refuses longer chains too (MultiDecoder.max_decode_links), but only after we
# would have built one decoder per token.
MAX_ENCODINGS = 5


class _Inflate:
    """zlib with a bounded output per call; handles concatenated gzip members and raw
    deflate sent as "deflate" (a common server mistake)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._first = True
        self._fed = False
        self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS if kind == "gzip" else zlib.MAX_WBITS)

    def complete(self) -> bool:
        return self._obj.eof or not self._fed

    def feed(self, data: bytes, limit: int) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        while data:
            try:
                out = self._obj.decompress(data, limit)
            except zlib.error:
                if self.kind == "deflate" and self._first:
                    self._obj = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._first = False
                    continue
                raise TransferError(f"corrupt {self.kind} body") from None
            self._first = False
            if out:
                yield out
            if self._obj.unconsumed_tail:
                data = self._obj.unconsumed_tail
            elif self._obj.eof and self._obj.unused_data and self.kind == "gzip":
                data = self._obj.unused_data
                self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
            else:
                data = b""


class _Brotli:
    kind = "br"

    def __init__(self) -> None:
        import brotli

        self._obj = brotli.Decompressor()
        self._fed = False

    def complete(self) -> bool:
        return bool(self._obj.is_finished()) or not self._fed

    def feed(self, data: bytes, limit: int) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        out = self._obj.process(data, output_buffer_limit=limit)
        if out:
            yield out
        # Drain until it needs input: can_accept_more_data() turns true while output from
        # the input already taken is still pending (a small bomb's whole stream is one
        # chunk), so stopping there cut the body short (exit 56 for a whole stream).
        while not self._obj.is_finished():
            out = self._obj.process(b"", output_buffer_limit=limit)
            if not out:
                break
            yield out


class _Zstd:
    kind = "zstd"

    def __init__(self) -> None:
        self._obj = _zstd_module().ZstdDecompressor()
        self._fed = False

    def complete(self) -> bool:
        return bool(self._obj.eof) or not self._fed

    def feed(self, data: bytes, limit: int) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        out = self._obj.decompress(data, max_length=limit)
        if out:
            yield out
        while not self._obj.eof and not self._obj.needs_input:
            out = self._obj.decompress(b"", max_length=limit)
            if not out:
                break
            yield out


def _brotli_ok() -> bool:
    try:
        import brotli

        # The cap needs output_buffer_limit (brotli 1.2). Asked by calling it: the C
        # method has no signature that inspect could read, so asking inspect said no.
        brotli.Decompressor().process(b"", output_buffer_limit=1)
        return True
    except Exception:
        return False


def _zstd_module() -> Any:
    """compression.zstd (Python 3.14), else its backport for older Pythons: the same API."""
    try:
        from compression import zstd
    except ImportError:
        from backports import zstd
    return zstd


def _zstd_ok() -> bool:
    try:
        _zstd_module()
        return True
    except Exception:
        return False


@cache
def accept_encoding() -> str:
    """Only what we can decode with bounded memory is offered."""
    names = (
        ["gzip", "deflate"] + (["br"] if _brotli_ok() else []) + (["zstd"] if _zstd_ok() else [])
    )
    return ", ".join(names)


_TOKEN = re.compile(r"[^,\s]+")


def encodings(content_encoding: str, host: str) -> list[str]:
    """The coding tokens, in the order they were applied; more than MAX_ENCODINGS is a
    malformed answer. Counted lazily, so a 6 MB header never becomes a list of tokens."""
    tokens: list[str] = []
    for match in _TOKEN.finditer(content_encoding):
        if len(tokens) == MAX_ENCODINGS:
            raise BadResponse(
                f"malformed answer from {host}: Content-Encoding lists more than {MAX_ENCODINGS} codings"
            )
        tokens.append(match.group().lower())
    return tokens


def decoders(content_encoding: str, host: str) -> list[Any]:
    out: list[Any] = []
    for token in reversed(encodings(content_encoding, host)):
        if token in ("identity", "none"):
            continue
        if token in ("gzip", "x-gzip"):
            out.append(_Inflate("gzip"))
        elif token == "deflate":
            out.append(_Inflate("deflate"))
        elif token == "br" and _brotli_ok():
            out.append(_Brotli())
        elif token == "zstd" and _zstd_ok():
            out.append(_Zstd())
        else:
            raise BadResponse(f"unsupported Content-Encoding {token!r}")
    return out


# wf's option that raises the cap on a body (wf --max-bytes).
CAP_FLAG = "--max-bytes"


class Sink:
    """Collects the body through the decoder chain; every stage is capped at max_bytes."""

    def __init__(self, decoders: list[Any], max_bytes: int, flag: str | None = CAP_FLAG) -> None:
        self.decoders = decoders
        self.max_bytes = max_bytes
        self.flag = flag  # what raises the cap, for the error (None: nothing does)
        self.counts = [0] * len(decoders)
        self.parts: list[bytes] = []
        self.size = 0

    def feed(self, data: bytes) -> None:
        self._push(0, data)

    def _push(self, stage: int, data: bytes) -> None:
        if stage == len(self.decoders):
            self.size += len(data)
            if self.size > self.max_bytes:
                raise too_large(self.max_bytes, decoded=bool(self.decoders), flag=self.flag)
            self.parts.append(data)
            return
        limit = min(self.max_bytes - self.counts[stage] + 1, _DECODE_STEP)
        for out in self.decoders[stage].feed(data, max(1, limit)):
            self.counts[stage] += len(out)
            if self.counts[stage] > self.max_bytes:
                raise too_large(self.max_bytes, decoded=True, flag=self.flag)
            self._push(stage + 1, out)

    def body(self) -> bytes:
        return b"".join(self.parts)

    def check_complete(self, host: str) -> None:
        """A compressed stream that stops before its end is a cut transfer, not a body."""
        for decoder in self.decoders:
            if not decoder.complete():
                raise TransferError(
                    f"transfer from {host} broke off: the {decoder.kind} stream ends early"
                )


def too_large(cap: int, *, decoded: bool, flag: str | None = CAP_FLAG) -> TooLarge:
    """The error of a body over ``cap``, naming the ``flag`` that raises it: ws has none,
    and its error named wf's."""
    what = "decompressed body" if decoded else "body"
    hint = f" (raise it with {flag})" if flag else ""
    return TooLarge(f"{what} is larger than the cap of {cap} bytes{hint}")
