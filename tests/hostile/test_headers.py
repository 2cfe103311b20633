"""Header floods: thousands of headers, one header of a megabyte, a header line that never
ends. Each is a malformed answer (exit 8), found early and in bounded memory."""

from __future__ import annotations

import pytest

from tests.hostile import proc
from tests.hostile.handlers import forever, raw

ALLOW = ("--allow-host", "127.0.0.1")
STATUS = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"


def _malformed(r: proc.Run) -> None:
    assert r.code == 8, r.stderr
    assert r.stderr.startswith("wf: (8) malformed answer from 127.0.0.1") and r.stderr.count("\n") == 1
    assert r.stdout == b"" and not r.leftovers


@pytest.mark.parametrize(
    "handler",
    [
        raw(STATUS + b"".join(b"X-H-%d: v\r\n" % i for i in range(10_000)) + b"\r\nbody"),
        raw(STATUS + b"X-Big: " + b"a" * (1 << 20) + b"\r\n\r\nbody"),
        forever(STATUS + b"X-Endless: ", b"a" * 65536),
        forever(b"HTTP/1.1 200 ", b"O" * 65536),
        forever(STATUS, b"X-Again: v\r\n" * 1000),
        raw(STATUS + b"X-Folded: a\r\n" + b" b\r\n" * 5000 + b"\r\nbody"),
    ],
    ids=["10000-headers", "one-1MB-header", "endless-header-line", "endless-status-line",
         "endless-headers", "5000-continuation-lines"],
)
def test_header_flood_exits_8_in_bounded_memory(serve, idle_kb, figures, handler):
    srv = serve(handler)
    r = proc.run(["wf", *ALLOW, "--timeout", "10", srv.url], env=proc.env(), measure=True)
    figures.memory(r.peak_kb, idle_kb)
    _malformed(r)
    assert r.elapsed < 5


def test_a_hundred_headers_are_fine(wf, serve):
    srv = serve(raw(STATUS + b"".join(b"X-H-%d: v\r\n" % i for i in range(90))
                    + b"Content-Length: 3\r\n\r\nok\n"))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout) == (0, "ok\n")


@pytest.mark.parametrize(
    "line",
    [b"X-Nul: a\x00b", b"X-Latin: caf\xe9", b"X-Utf8: caf\xc3\xa9", b"no colon at all",
     b": empty name", b"X-Ctl: \x1b[31mred"],
    ids=["nul", "latin-1", "utf-8", "no-colon", "empty-name", "escape"],
)
def test_odd_header_bytes_do_not_break_the_page(wf, serve, line):
    srv = serve(raw(STATUS + line + b"\r\nContent-Length: 3\r\n\r\nok\n"))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "ok\n", "")


def test_control_characters_in_a_header_do_not_reach_the_terminal(wf, serve):
    # A redirect note and an error message quote server data: it must stay one line.
    srv = serve(raw(b"HTTP/1.1 404 Not\x1b[2J Found\r\nContent-Length: 0\r\n\r\n"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 4 and r.stderr.count("\n") == 1 and "\x1b" not in r.stderr


def test_content_type_with_a_hostile_charset(wf, serve):
    ct = "text/plain; charset=" + "x" * 10_000
    srv = serve(raw(STATUS.replace(b"text/plain", ct.encode()) + b"Content-Length: 6\r\n\r\nhello\n"))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout) == (0, "hello\n")
