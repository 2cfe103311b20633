"""wf/warc/: --warc reads response records through the pipeline (a path, a .gz, stdin),
counting the others; --warc-out archives every answer, complete or absent, and reads
back to the same text. Archives are built here, with wf.warc.write.record."""

from __future__ import annotations

import gzip
import io
import json
import tracemalloc
from pathlib import Path

import pytest

from tests.helpers import ALLOW
from tests.servers import respond
from wf.warc.read import http_payload, inflated, records
from wf.warc.write import digest, http_response, record

ARTICLE = (
    b"<html><head><title>Page %d</title></head><body><nav><a href='/'>Home</a></nav>"
    b"<article><h1>Heading %d</h1><p>"
    + b"A sentence of the article body, long enough. "
    * 12
    + b"</p>"
    b"</article></body></html>"
)


def _page(n: int) -> bytes:
    return ARTICLE.replace(b"%d", str(n).encode())


def _archive(compress: bool = False) -> bytes:
    recs = [record("warcinfo", b"software: test\r\n", content_type="application/warc-fields")]
    for n in range(3):
        url = f"https://example.com/{n}"
        recs.append(record("request", b"GET / HTTP/1.1\r\n\r\n", target_uri=url))
        block = http_response(200, {"content-type": "text/html"}, _page(n))
        recs.append(
            record("response", block, target_uri=url, payload=_page(n), record_id=f"<urn:x:{n}>")
        )
    gone = http_response(404, {"content-type": "text/html"}, b"<p>gone</p>")
    recs.append(record("response", gone, target_uri="https://example.com/gone"))
    png = http_response(200, {"content-type": "image/png"}, b"\x89PNG\r\n\x1a\n" + bytes(64))
    recs.append(record("response", png, target_uri="https://example.com/i.png"))
    if compress:
        return b"".join(gzip.compress(r) for r in recs)
    return b"".join(recs)


@pytest.mark.parametrize("compress", [False, True])
def test_warc_prints_a_json_line_per_page_with_the_record_keys(wf, tmp_path, compress):
    path = tmp_path / ("a.warc.gz" if compress else "a.warc")
    path.write_bytes(_archive(compress))
    r = wf("--warc", path)
    assert r.code == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["warc_target_uri"] for d in lines] == [f"https://example.com/{n}" for n in range(3)]
    assert [d["warc_record_id"] for d in lines] == ["<urn:x:0>", "<urn:x:1>", "<urn:x:2>"]
    assert all(d["status"] == 200 and d["warc_date"] for d in lines)
    assert lines[1]["title"] == "Page 1" and "Heading 1" in lines[1]["text"]
    assert "Home" not in lines[1]["text"]  # the pipeline's extraction, not the raw page
    assert r.stderr == ""


def test_warc_from_stdin_and_the_tally_under_verbose(wf):
    r = wf("--warc", "-", "-v", input=_archive(True))
    assert r.code == 0
    assert len(r.stdout.splitlines()) == 3
    assert (
        "wf: note: 9 WARC records, 3 read; skipped: 3 request record, 1 warcinfo record, "
        "1 status 404, 1 binary body" in r.stderr
    )
    assert "skipped: status 404" in r.stderr


def test_warc_payload_chunked_and_gzipped_is_decoded():
    body = _page(7)
    packed = gzip.compress(body)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(packed), packed)
    block = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunked
    )
    payload = http_payload(block, 1 << 20)
    assert (payload.status, payload.content_type, payload.body) == (200, "text/html", body)


def test_a_block_over_the_cap_is_skipped_unread():
    big = record("resource", b"x" * (8 << 20), target_uri="https://example.com/big")
    after = record("response", http_response(200, {}, b"<p>x</p>"), target_uri="https://e/x")
    stream = io.BufferedReader(io.BytesIO(big + after))  # type: ignore[arg-type]
    del big
    tracemalloc.start()
    got = list(records(stream, 1 << 20))  # type: ignore[arg-type]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [r.skipped is not None for r in got] == [True, False]
    assert peak < (4 << 20), peak  # the 8 MB block was never held


def test_a_gzip_bomb_record_is_skipped_in_bounded_memory(inflater):
    # 64 MB of zeros in a member of about 64 KB: inflated a step at a time (at most
    # 1 MB a step, with either inflater) and never held whole.
    bomb = record("resource", bytes(64 << 20), target_uri="https://example.com/bomb")
    after = record("response", http_response(200, {}, b"<p>x</p>"), target_uri="https://e/x")
    packed = gzip.compress(bomb, 1) + gzip.compress(after)
    del bomb
    tracemalloc.start()
    got = list(records(inflated(io.BytesIO(packed)), 1 << 20))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [r.skipped is not None for r in got] == [True, False]
    assert peak < (8 << 20), peak


def test_a_damaged_warc_is_an_error_line(wf, tmp_path):
    path = tmp_path / "bad.warc"
    path.write_bytes(b"WARC/1.1\r\nContent-Length: nope\r\n\r\n")
    r = wf("--warc", path)
    assert r.code == 8 and r.stderr.startswith("wf: (8) ") and "Content-Length" in r.stderr


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("keep", [0.3, 0.6, 0.97])
def test_an_archive_cut_short_exits_56_with_the_pages_before_the_cut(wf, tmp_path, compress, keep):
    # Plain or gzip, cut in a record's headers, its block or a member: the file is not all
    # there (56, as a body that broke off), which is not a damaged file (8).
    data = _archive(compress)
    path = tmp_path / ("cut.warc.gz" if compress else "cut.warc")
    path.write_bytes(data[: int(len(data) * keep)])
    r = wf("--warc", path)
    assert r.code == 56, r.stderr
    assert r.stderr.startswith("wf: (56) WARC file ") and r.stderr.count("\n") == 1
    for line in r.stdout.splitlines():
        assert json.loads(line)["warc_target_uri"].startswith("https://example.com/")


def test_warc_out_round_trip_gives_the_same_text(wf, tmp_path, serve):
    one = serve(respond(200, _page(1), {"Content-Type": "text/html"}))
    two = serve(respond(200, _page(2), {"Content-Type": "text/html; charset=utf-8"}))
    out = tmp_path / "crawl.warc.gz"
    urls = [one.url.rstrip("/") + "/a", two.url.rstrip("/") + "/b"]
    fetched = wf(*ALLOW, "--json", "--max-length", "0", "--warc-out", out, *urls)
    assert fetched.code == 0, fetched.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["crawl.warc.gz"]  # no temporary left
    again = wf("--warc", out)
    assert again.code == 0, again.stderr
    before = [json.loads(line) for line in fetched.stdout.splitlines()]
    after = [json.loads(line) for line in again.stdout.splitlines()]
    # The archive is in the order the answers came, which the batch's threads decide.
    after.sort(key=lambda d: urls.index(d["warc_target_uri"]))
    assert [d["warc_target_uri"] for d in after] == urls
    for b, a in zip(before, after, strict=True):
        assert (a["text"], a["title"], a["metadata"], a["links"]) == (
            b["text"],
            b["title"],
            b["metadata"],
            b["links"],
        )
    with gzip.open(out) as fh:
        kinds = []
        for rec in records(fh, 1 << 20):  # type: ignore[arg-type]
            kinds.append(rec.type)
            assert rec.headers["warc-block-digest"] == digest(rec.block)
            if rec.type == "response":
                body = http_payload(rec.block, 1 << 20).body
                assert rec.headers["warc-payload-digest"] == digest(body)
    assert kinds[0] == "warcinfo" and sorted(kinds[1:]) == ["request"] * 2 + ["response"] * 2


def test_warc_out_that_names_a_directory_fails_before_any_fetch(wf, tmp_path, serve):
    server = serve(respond(200, _page(1), {"Content-Type": "text/html"}))
    r = wf(*ALLOW, "--warc-out", tmp_path, server.url)
    assert r.code == 23 and r.stdout == ""
    assert r.stderr == f"wf: (23) cannot write --warc-out {tmp_path}: Is a directory\n"
    assert server.connections == 0 and list(tmp_path.iterdir()) == []


def test_warc_out_is_absent_when_the_run_is_interrupted(wf, tmp_path, serve, monkeypatch):
    import wf.pipeline as pipeline

    def interrupted(*args, **kw):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "process_many", interrupted)
    out = tmp_path / "crawl.warc"
    r = wf(*ALLOW, "--warc-out", out, "http://127.0.0.1:9/")
    assert r.code == 130
    assert list(tmp_path.iterdir()) == []


def test_warc_options_that_cannot_go_together(wf, tmp_path):
    r = wf("--warc")
    assert r.code == 2 and "--warc needs WARC files" in r.stderr
    r = wf("--warc", "--warc-out", tmp_path / "x.warc", tmp_path / "in.warc")
    assert r.code == 2 and "--warc-out" in r.stderr
    r = wf("--warc", Path("/proc/nonexistent.warc"))
    assert r.code == 2 and "cannot read --warc" in r.stderr


def test_warc_out_that_fails_to_write_a_record_leaves_no_file(tmp_path):
    """A record that could not be written (here: over RLIMIT_FSIZE) makes the archive
    incomplete, and an incomplete archive is never renamed into place."""
    import multiprocessing
    import resource
    import signal

    def child(folder: str, done: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
        from common.errors import WriteError
        from common.http.client import Response
        from wf.warc.write import WarcWriter

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))
        writer = WarcWriter(folder + "/out.warc")
        big = Response(
            "http://x/", "http://x/", 200, {"content-type": "text/html"}, b"x" * 80_000, 1
        )
        outcome = []
        for step in (lambda: writer.add(big, {}), writer.commit):
            try:
                step()
                outcome.append("ok")
            except WriteError:
                outcome.append("write error")
        done.put(outcome)

    ctx = multiprocessing.get_context("fork")
    done = ctx.Queue()
    proc = ctx.Process(target=child, args=(str(tmp_path), done))
    proc.start()
    proc.join(30)
    assert done.get(timeout=5) == ["write error", "write error"]
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(params=["isal", "zlib"])
def inflater(request, monkeypatch):
    """Each gzip test runs on ISA-L's inflater (what wf uses when python-isal is there)
    and on zlib's (what it falls back to)."""
    import zlib

    from isal import isal_zlib

    from wf.warc import read

    module = isal_zlib if request.param == "isal" else zlib
    monkeypatch.setattr(read, "inflater_module", lambda: module)
    return module


def test_the_gzip_reader_takes_isal_when_it_is_there_and_zlib_when_not(monkeypatch):
    import sys

    from wf.warc.read import inflater_module

    assert inflater_module().__name__ == "isal.isal_zlib"
    monkeypatch.setitem(sys.modules, "isal", None)  # import isal fails
    assert inflater_module().__name__ == "zlib"


@pytest.mark.parametrize("compress", [False, True])
def test_a_cut_or_flipped_archive_fails_only_as_a_tool_error(compress, inflater):
    """Every prefix of an archive, and one byte flipped at every place in its heads (or,
    compressed, in its first members): the reader ends cleanly or raises a ToolError,
    never anything else (zlib's own error included)."""
    from common.errors import ToolError

    data = _archive(compress)

    def read_all(blob: bytes) -> None:
        stream = io.BufferedReader(io.BytesIO(blob))  # type: ignore[arg-type]
        if blob[:2] == b"\x1f\x8b":
            stream = inflated(stream)
        for rec in records(stream, 1 << 20):
            if rec.type == "response":
                try:
                    http_payload(rec.block, 1 << 20)
                except ToolError:
                    pass

    for cut in range(0, len(data), 37):
        try:
            read_all(data[:cut])
        except ToolError:
            pass
    for at in range(0, 600, 3):
        flipped = bytearray(data)
        flipped[at] ^= 0x5A
        try:
            read_all(bytes(flipped))
        except ToolError:
            pass


def test_gzip_members_read_as_one_stream_in_any_steps(inflater):
    """A member per record, zero padding between members (as gzip allows), one member
    inflating to more than a step's buffer: the bytes of the plain archive, whatever the
    sizes asked for."""
    plain = _archive() + record("resource", bytes(300_000), target_uri="https://e/zeros")
    members = [gzip.compress(plain[:1000]), gzip.compress(plain[1000:]), b""]
    packed = members[0] + b"\0" * 7 + members[1]
    for size in (1, 4096, 1 << 20):
        stream = inflated(io.BytesIO(packed))
        got = b""
        while chunk := stream.read(size):
            got += chunk
        assert got == plain
    assert [r.type for r in records(inflated(io.BytesIO(packed)), 1 << 20)][-1] == "resource"
    cut = inflated(io.BytesIO(packed[:-5]))
    with pytest.raises(EOFError):
        cut.read()


def test_the_library_reads_the_same_lines_as_the_cli(wf, tmp_path):
    import wf.api as api

    path = tmp_path / "a.warc.gz"
    path.write_bytes(_archive(True))
    printed = [json.loads(line) for line in wf("--warc", path).stdout.splitlines()]
    pages = list(api.warc_pages(str(path)))
    assert [p.kind for p in pages] == ["article"] * 3
    mine = [json.loads(p.to_json()) for p in pages]
    for doc in (*printed, *mine):
        doc.pop("elapsed_ms")
    assert mine == printed
