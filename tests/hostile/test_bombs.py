"""Compression bombs: a few KB or MB on the wire that expand to gigabytes. wf and ws stop
at the size cap with exit 63, early, and their peak memory stays within 100 MB of an idle
run (measured on the real process)."""

from __future__ import annotations

import struct
import zlib
from functools import cache

import pytest

from tests.helpers import ALLOW, ENGINE_VARIABLES, saved_files
from tests.hostile import proc
from tests.servers import respond

BLOCK = 16 << 20  # zero bytes per repeated deflate block
GiB = 1 << 30


@cache
def _zero_block() -> bytes:
    # A full flush leaves the block byte-aligned and free of references to earlier data,
    # so it can be repeated as often as wanted: 16 MiB of zeros in about 16 KB.
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(b"\0" * BLOCK) + c.flush(zlib.Z_FULL_FLUSH)


def raw_deflate(total: int) -> bytes:
    return _zero_block() * (total // BLOCK) + b"\x03\x00"  # final empty block


def gzip_bomb(total: int) -> bytes:
    # The trailer's CRC is left at zero: a client that keeps to its cap never reaches it.
    return (
        b"\x1f\x8b\x08\x00\0\0\0\0\x02\xff"
        + raw_deflate(total)
        + struct.pack("<II", 0, total % 2**32)
    )


def zlib_bomb(total: int) -> bytes:
    return b"\x78\xda" + raw_deflate(total) + b"\0\0\0\0"


def zstd_bomb(total: int) -> bytes:
    """A zstd frame of RLE blocks (4 bytes per 128 KiB), built by hand."""
    frame = struct.pack("<I", 0xFD2FB528) + bytes([0x00, 0x58])  # no size, 16 MiB window
    block = 128 << 10
    count = total // block
    rle = (block << 3 | 1 << 1).to_bytes(3, "little") + b"\0"
    last = (block << 3 | 1 << 1 | 1).to_bytes(3, "little") + b"\0"
    return frame + rle * (count - 1) + last


def _bomb_case(serve, idle_kb, figures, body: bytes, encoding: str, *extra: str) -> proc.Run:
    srv = serve(respond(200, body, {"Content-Type": "text/html", "Content-Encoding": encoding}))
    r = proc.run(["wf", *ALLOW, *extra, srv.url], env=proc.env(), measure=True)
    figures.memory(r.peak_kb, idle_kb)
    return r


def _too_large(r: proc.Run, tool: str = "wf") -> None:
    assert r.code == 63, r.stderr
    assert r.stderr.startswith(f"{tool}: (63) ") and r.stderr.count("\n") == 1, r.stderr
    assert "decompressed body is larger than the cap" in r.stderr
    assert not r.leftovers


@pytest.mark.parametrize(
    "encoding,make",
    [
        ("gzip", gzip_bomb),
        ("x-gzip", gzip_bomb),
        ("deflate", zlib_bomb),
        ("deflate-raw", raw_deflate),
    ],
    ids=["gzip", "x-gzip", "deflate", "raw-deflate-as-deflate"],
)
def test_one_gigabyte_bomb_stops_at_the_cap(serve, idle_kb, figures, encoding, make):
    body = make(GiB)
    assert len(body) < 1_100_000
    r = _bomb_case(serve, idle_kb, figures, body, encoding.replace("-raw", ""))
    _too_large(r)
    assert r.elapsed < 10


def test_nested_gzip_of_a_few_kilobytes_expanding_to_four_gigabytes(serve, idle_kb, figures):
    body = zlib.compress(gzip_bomb(4 * GiB), 9, wbits=31)  # gzip of a gzip bomb
    assert len(body) < 10_000
    r = _bomb_case(serve, idle_kb, figures, body, "gzip, gzip")
    _too_large(r)


def test_many_concatenated_gzip_members(serve, idle_kb, figures):
    member = gzip_bomb(BLOCK)
    r = _bomb_case(serve, idle_kb, figures, member * 64, "gzip")
    _too_large(r)


def test_a_raised_cap_still_bounds_memory(serve, idle_kb, figures):
    r = _bomb_case(serve, idle_kb, figures, gzip_bomb(GiB), "gzip", "--max-bytes", "60M")
    _too_large(r)
    assert "cap of 62914560 bytes" in r.stderr


def test_gzip_file_inside_gzip_encoding_is_saved_not_expanded(serve, scratch, figures, idle_kb):
    # The transfer encoding is undone once; the file it carried stays a .gz file.
    inner = gzip_bomb(GiB)
    body = zlib.compress(inner, 9, wbits=31)
    srv = serve(
        respond(200, body, {"Content-Type": "application/gzip", "Content-Encoding": "gzip"})
    )
    r = proc.run(["wf", *ALLOW, srv.url], env=proc.env(), measure=True)
    figures.memory(r.peak_kb, idle_kb)
    assert r.code == 0, r.stderr
    saved = saved_files(scratch)
    assert len(saved) == 1 and saved[0].suffix == ".gz"
    assert saved[0].read_bytes() == inner
    assert r.text.startswith("[wf: binary content (application/gzip")


def _offered(srv) -> str:
    for line in srv.requests[0].split(b"\r\n"):
        if line.lower().startswith(b"accept-encoding:"):
            return line.split(b":", 1)[1].decode().strip()
    return ""


def brotli_bomb(total: int) -> bytes:
    """``total`` zero bytes as brotli, compressed 16 MiB at a time (a few hundred bytes)."""
    import brotli

    c = brotli.Compressor(quality=5)
    return b"".join([c.process(b"\0" * (16 << 20)) for _ in range(total >> 24)] + [c.finish()])


# The test extra installs both decoders (brotli, backports.zstd before Python 3.14), so
# their caps run here; the path without them is below, with the import made to fail.
@pytest.mark.parametrize(("encoding", "make"), [("br", brotli_bomb), ("zstd", zstd_bomb)])
def test_br_and_zstd_bombs_stop_at_the_cap(serve, idle_kb, figures, encoding, make):
    from common.http.decompress import accept_encoding

    assert encoding in accept_encoding().split(", "), "the test extra installs this decoder"
    body = make(256 << 20 if encoding == "br" else GiB)
    assert len(body) < 1 << 20
    r = _bomb_case(serve, idle_kb, figures, body, encoding)
    _too_large(r)


@pytest.mark.parametrize(("encoding", "make"), [("br", brotli_bomb), ("zstd", zstd_bomb)])
def test_br_and_zstd_bodies_under_the_cap_are_decoded(wf, serve, encoding, make):
    # One byte under and at the cap decode whole; one over is exit 63.
    body = make(16 << 20)
    for cap, code in (((16 << 20) + 1, 0), (16 << 20, 0), ((16 << 20) - 1, 63)):
        srv = serve(
            respond(200, body, {"Content-Type": "text/plain", "Content-Encoding": encoding})
        )
        r = wf(*ALLOW, "--max-bytes", str(cap), "--save", srv.url)
        assert r.code == code, r.stderr
        if code == 63:
            assert "decompressed body is larger than the cap" in r.stderr


def _without(monkeypatch, *modules: str) -> None:
    """Make these imports fail, as on a Python without the package."""
    import sys

    from common.http.decompress import accept_encoding

    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)
    accept_encoding.cache_clear()


@pytest.fixture
def fresh_accept_encoding():
    from common.http.decompress import accept_encoding

    yield
    accept_encoding.cache_clear()


@pytest.mark.parametrize(
    ("encoding", "modules", "body"),
    [
        ("br", ("brotli",), b"\x1b\xff\xff\x0f" + b"\0" * 64),
        ("zstd", ("compression", "compression.zstd", "backports", "backports.zstd"), None),
    ],
)
def test_without_the_decoder_the_encoding_is_not_offered_and_exits_8(
    wf, serve, monkeypatch, fresh_accept_encoding, encoding, modules, body
):
    _without(monkeypatch, *modules)
    if body is None:
        body = zstd_bomb(16 << 20)
    srv = serve(respond(200, body, {"Content-Type": "text/html", "Content-Encoding": encoding}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 8, r.stderr
    assert r.stderr == f"wf: (8) unsupported Content-Encoding {encoding!r}\n"
    offered = _offered(srv).split(", ")
    assert encoding not in offered and offered[:2] == ["gzip", "deflate"]


def test_unrequested_encoding_is_not_offered(serve, wf):
    from common.http.decompress import accept_encoding

    srv = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}))
    assert wf(*ALLOW, srv.url).code == 0
    assert _offered(srv) == accept_encoding()
    assert set(accept_encoding().split(", ")) <= {"gzip", "deflate", "br", "zstd"}


@pytest.mark.parametrize("encoding", ["compress", "gzip, lzma", "exi"])
def test_unknown_content_encoding_exits_8(wf, serve, encoding):
    srv = serve(
        respond(200, b"hello", {"Content-Type": "text/plain", "Content-Encoding": encoding})
    )
    r = wf(*ALLOW, srv.url)
    assert r.code == 8 and r.stderr.startswith("wf: (8) unsupported Content-Encoding"), r.stderr


def test_search_backend_bomb(serve, idle_kb, figures):
    srv = serve(
        respond(
            200, gzip_bomb(GiB), {"Content-Type": "application/json", "Content-Encoding": "gzip"}
        )
    )
    env = proc.env(**dict.fromkeys(ENGINE_VARIABLES, srv.url))
    r = proc.run(["ws", "--timeout", "20", "anything"], env=env, measure=True)
    figures.memory(r.peak_kb, idle_kb)
    assert r.code == 63, r.stderr
    assert not r.leftovers
    assert r.stderr.splitlines()[-1].startswith("ws: (63) ")
