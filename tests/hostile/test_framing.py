"""Answers whose framing lies: endless bodies, lying lengths, broken chunked encoding,
resets, answers cut short. Each ends with its documented code and one clear line, and
nothing partial is ever saved as if it were complete."""

from __future__ import annotations

import pytest

from tests.helpers import ALLOW, assert_one_line_error
from tests.hostile.handlers import forever, head, raw
from tests.servers import http_response

TEXT = {"Content-Type": "text/plain"}


def test_endless_body_without_length_hits_the_cap(wf, serve, scratch_files):
    srv = serve(forever(head(200, TEXT), b"x" * 65536))
    r = wf(*ALLOW, "--save", "--max-bytes", "1M", srv.url)
    assert_one_line_error(r, 63, "larger than the cap of 1048576 bytes")
    assert r.stdout == "" and scratch_files() == []


def test_content_length_longer_than_the_body(wf, serve, scratch_files):
    srv = serve(raw(head(200, {**TEXT, "Content-Length": "100000"}) + b"only this much\n"))
    r = wf(*ALLOW, "--save", srv.url)
    assert_one_line_error(r, 56, "broke off")
    assert r.stdout == "" and scratch_files() == []


def test_content_length_shorter_than_the_body_reads_only_what_it_announced(wf, serve):
    # HTTP framing: bytes after the announced length are not part of the answer.
    srv = serve(raw(head(200, {**TEXT, "Content-Length": "6"}) + b"hello\nand a lot more\n" * 100))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "hello\n", "")


@pytest.mark.parametrize(
    "value",
    ["abc", "-5", "5, 9", "1e3", "0x10"],
    ids=["letters", "negative", "two-values", "exponent", "hex"],
)
def test_invalid_content_length_is_a_malformed_answer(wf, serve, value):
    srv = serve(raw(head(200, {**TEXT, "Content-Length": value}) + b"hello world\n"))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 8, "malformed answer")


def test_conflicting_content_lengths(wf, serve):
    srv = serve(
        raw(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
            b"Content-Length: 12\r\n\r\nhello world\n"
        )
    )
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 8, "malformed answer")


CHUNKED = head(200, {**TEXT, "Transfer-Encoding": "chunked"})


@pytest.mark.parametrize(
    "body",
    [
        b"zz\r\nhello\r\n0\r\n\r\n",  # a size that is not hex
        b"5\r\nhello\r\n4\r\nab",  # the connection closes inside a chunk
        b"5\r\nhello\r\n",  # no last chunk before the close
        b"ffffffffffffffffffff\r\nhello",  # a size that overflows
        b"5\r\nhelloXX\r\n0\r\n\r\n",  # chunk longer than its size
    ],
    ids=["size-not-hex", "cut-in-chunk", "no-last-chunk", "size-overflow", "chunk-too-long"],
)
def test_broken_chunked_encoding_exits_56(wf, serve, scratch_files, body):
    srv = serve(raw(CHUNKED + body))
    r = wf(*ALLOW, "--save", srv.url)
    assert_one_line_error(r, 56, "broke off")
    assert r.stdout == "" and scratch_files() == []


def test_chunked_wins_over_content_length(wf, serve):
    srv = serve(
        raw(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n6\r\nhello\n\r\n0\r\n\r\n"
        )
    )
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout) == (0, "hello\n")


def test_reset_in_the_middle_of_the_body(wf, serve, scratch_files):
    srv = serve(raw(head(200, {**TEXT, "Content-Length": "1000000"}) + b"x" * 300_000, reset=True))
    r = wf(*ALLOW, "--save", srv.url)
    assert_one_line_error(r, 56, "broke off")
    assert scratch_files() == []


def test_reset_in_the_middle_of_an_endless_body(wf, serve, scratch_files):
    srv = serve(raw(head(200, TEXT) + b"x" * 300_000, reset=True))
    r = wf(*ALLOW, "--save", srv.url)
    assert_one_line_error(r, 56, "broke off")
    assert scratch_files() == []


def test_reset_before_any_answer_exits_7(wf, serve):
    srv = serve(raw(b"", reset=True))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 7, "before any answer")


def test_close_without_a_single_byte_exits_7(wf, serve):
    srv = serve(raw(b""))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 7, "before any answer")


@pytest.mark.parametrize(
    "data",
    [
        b"HTTP/1.1 20",  # inside the status line
        b"HTTP/1.1 200 OK\r\n",  # after the status line
        b"HTTP/1.1 200 OK\r\nContent-Type: text/pl",  # inside a header
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n",  # no blank line
    ],
    ids=["in-status-line", "after-status-line", "in-header", "before-blank-line"],
)
def test_answer_cut_before_the_headers_end_exits_8(wf, serve, data):
    srv = serve(raw(data))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 8, "malformed answer")


@pytest.mark.parametrize(
    "data",
    [
        b"HELLO WORLD\r\n\r\n",
        b"<html><body>no status line at all</body></html>",
        b"HTTP/1.1 abc OK\r\n\r\n",
        b"HTTP/1.1 99999 OK\r\n\r\n",
        b"HTTP/9.9 200 OK\r\n\r\n",
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(32)),
    ],
    ids=["words", "http-0.9-body", "status-not-a-number", "status-too-long", "version-9", "binary"],
)
def test_bad_status_line_exits_8(wf, serve, data):
    srv = serve(raw(data))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 8, "malformed answer")


def test_gzip_body_cut_short_exits_56(wf, serve, scratch_files):
    import gzip

    packed = gzip.compress(b"hello world\n" * 10_000)
    srv = serve(raw(head(200, {**TEXT, "Content-Encoding": "gzip"}) + packed[: len(packed) // 2]))
    r = wf(*ALLOW, "--save", srv.url)
    assert_one_line_error(r, 56)
    assert scratch_files() == []


def test_corrupt_gzip_body_exits_56(wf, serve):
    srv = serve(
        raw(
            http_response(
                200,
                b"\x1f\x8b\x08\x00garbage-not-deflate" * 10,
                {**TEXT, "Content-Encoding": "gzip"},
            )
        )
    )
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 56, "corrupt gzip body")


def test_binary_body_cut_short_is_not_saved(wf, serve, scratch_files):
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 50_000
    srv = serve(raw(head(200, {"Content-Type": "image/png", "Content-Length": "200000"}) + png))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 56, "broke off")
    assert scratch_files() == []
