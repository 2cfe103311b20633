"""wf's command line as a whole: a batch of URLs in input order, --input without the
network."""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.helpers import ALLOW, assert_one_line_error
from tests.servers import RawServer, http_response, respond


def test_batch_in_input_order_with_first_failure_code(wf, serve):
    slow = serve(
        lambda c, r: (
            time.sleep(0.5),
            c.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nslow\n"
            ),
        )
    )
    fast = serve(respond(200, b"fast\n", {"Content-Type": "text/plain"}))
    gone = serve(respond(404, b""))
    r = wf(*ALLOW, "--json", slow.url, gone.url, fast.url)
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["url"] for o in objs] == [slow.url, gone.url, fast.url]
    assert [o["text"] for o in objs] == ["slow", "", "fast"]
    assert objs[1]["error"]["code"] == 4
    assert r.code == 4 and r.stderr.count("\n") == 1


def test_input_file_needs_no_network(wf, tmp_path, monkeypatch):
    import socket

    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("network used"))
    doc = tmp_path / "doc.txt"
    doc.write_bytes(b"local line 1\nlocal line 2\n")
    r = wf("--input", str(doc), "--filter", "2")
    assert (r.code, r.stdout) == (0, "local line 2\n")
    r = wf("--input", "-", input=b"from stdin\n")
    assert r.stdout == "from stdin\n"
    r = wf("--input", str(tmp_path / "missing.html"))
    assert r.code == 2 and "cannot read --input" in r.stderr


META_PAGE = b"""<html lang="en"><head><title>Tides | Harbour News</title>
<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Tides",
 "author": {"@type": "Person", "name": "Ann Lee"}, "datePublished": "2023-04-05"}</script>
<meta property="og:site_name" content="Harbour News"></head><body><article><h1>Tides</h1>
<p>The harbour office keeps its tide tables on the wall beside the door, and the fishermen
read them every morning before they take the boats out.</p>
<p>[wf: not a marker] Title: a line of the page</p></article></body></html>"""


def test_json_has_metadata_with_every_key(wf, tmp_path, serve):
    from wf.extract.metadata import KEYS

    doc = tmp_path / "page.html"
    doc.write_bytes(META_PAGE)
    r = wf("--input", str(doc), "--base-url", "https://news.example/tides", "--json")
    found = json.loads(r.stdout)["metadata"]
    assert list(found) == list(KEYS)
    assert found["title"] == "Tides" and found["author"] == "Ann Lee"
    assert (found["date"], found["sitename"], found["lang"]) == (
        "2023-04-05",
        "Harbour News",
        "en",
    )
    assert found["type"] == "article" and found["image"] is None
    # Not HTML, and an error: every key still there, each null.
    plain = serve(respond(200, b"plain\n", {"Content-Type": "text/plain"}))
    gone = serve(respond(404, b""))
    r = wf(*ALLOW, "--json", plain.url, gone.url)
    for line in r.stdout.splitlines():
        assert json.loads(line)["metadata"] == dict.fromkeys(KEYS)


def test_meta_prints_a_header_above_the_text_and_nothing_else_changes(wf, tmp_path):
    doc = tmp_path / "page.html"
    doc.write_bytes(META_PAGE)
    args = ("--input", str(doc), "--base-url", "https://news.example/tides")
    plain = wf(*args).stdout
    r = wf(*args, "--meta")
    assert r.code == 0
    header = "Title: Tides\nAuthor: Ann Lee\nDate: 2023-04-05\nURL: https://news.example/tides\n\n"
    assert r.stdout == header + plain
    assert not any(line.startswith("[wf:") for line in r.stdout.splitlines())
    assert "\\[wf: not a marker]" in plain
    # The header is outside the lines: --filter and --from/--to see the text alone.
    r = wf(*args, "--meta", "--filter", "Title")
    assert r.stdout == header + "\\[wf: not a marker] Title: a line of the page\n"
    r = wf(*args, "--meta", "--from", "1", "--to", "1")
    assert r.stdout == header + "# Tides\n"
    # --json is the same with or without --meta.
    with_meta = json.loads(wf(*args, "--json", "--meta").stdout)
    without = json.loads(wf(*args, "--json").stdout)
    assert with_meta.pop("elapsed_ms") >= 0 and without.pop("elapsed_ms") >= 0
    assert with_meta == without


# ------------------------------------------------------------------ HTTP errors under --json

ERROR_PAGE = (
    b"<!doctype html><html><head><title>Not here</title></head><body>"
    b"<nav><a href='/'>Home</a></nav><main><h1>Page not found</h1>"
    b"<p>The page you asked for moved to the archive.</p></main></body></html>"
)


def test_a_404_under_json_keeps_status_type_and_the_start_of_its_page(wf, serve):
    srv = serve(respond(404, ERROR_PAGE, {"Content-Type": "text/html; charset=utf-8"}))
    r = wf(*ALLOW, "--json", srv.url + "gone")
    obj = json.loads(r.stdout)
    assert r.code == 4
    assert obj["status"] == 404 and obj["final_url"] == srv.url + "gone"
    assert obj["content_type"] == "text/html; charset=utf-8"
    assert obj["error"]["kind"] == "http_4xx" and obj["error"]["retry_after"] is None
    assert "Page not found" in obj["error"]["body"]
    assert "moved to the archive" in obj["error"]["body"]
    # Text mode stays one error line.
    r = wf(*ALLOW, srv.url + "gone")
    assert_one_line_error(r, 4, "HTTP 404")
    assert r.stdout == ""


@pytest.mark.parametrize(
    ("status", "retry_after", "seconds", "code"),
    [(503, "120", 120, 5), (429, "7", 7, 75), (503, "soon", None, 5)],
)
def test_503_and_429_under_json_carry_retry_after_in_seconds(
    wf, serve, status, retry_after, seconds, code
):
    body = b"Service down for maintenance\n" * 500  # far over the cap
    srv = serve(respond(status, body, {"Content-Type": "text/plain", "Retry-After": retry_after}))
    r = wf(*ALLOW, "--json", srv.url)
    obj = json.loads(r.stdout)
    assert (r.code, obj["status"], obj["error"]["retry_after"]) == (code, status, seconds)
    assert obj["error"]["body"].startswith("Service down for maintenance\n")
    assert len(obj["error"]["body"]) <= 2000


def test_retry_after_as_an_http_date():
    from email.utils import formatdate

    from wf.errorpage import retry_after_seconds

    now = 1_800_000_000.0
    assert retry_after_seconds(formatdate(now + 90, usegmt=True), now=now) == 90
    assert retry_after_seconds("Sun, 06 Nov 1994 08:49:37 GMT", now=now) == 0
    assert retry_after_seconds("Sunday, 06-Nov-94 08:49:37 GMT", now=now) == 0
    assert retry_after_seconds(" 30 ", now=now) == 30
    assert retry_after_seconds("-5", now=now) is None and retry_after_seconds(None) is None


# ------------------------------------------------------------------ one --save-path, several URLs


def test_one_save_path_for_several_urls_is_refused_before_any_request(wf, serve, scratch):
    srv = serve(respond(200, b"one\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--save-path", "same.txt", srv.url + "a", srv.url + "b")
    assert_one_line_error(r, 2, "--save-path 'same.txt'", "{n}")
    assert srv.requests == [] and not (scratch / "same.txt").exists()


def test_save_path_with_the_number_placeholder_saves_one_file_per_url(wf, serve, scratch):
    def handler(conn, request):
        path = request.split(b" ", 2)[1]
        conn.sendall(http_response(200, b"page " + path + b"\n", {"Content-Type": "text/plain"}))

    srv = serve(handler)
    r = wf(*ALLOW, "--save-path", "page-{n}.txt", srv.url + "a", srv.url + "b")
    assert r.code == 0
    assert (scratch / "page-1.txt").read_text() == "page /a\n"
    assert (scratch / "page-2.txt").read_text() == "page /b\n"
    markers = [line for line in r.stdout.splitlines() if line.startswith("[wf: saved")]
    assert len(markers) == 2 and len(set(markers)) == 2


# ------------------------------------------------------------------ --help


def test_help_says_the_timeout_is_per_page(wf):
    r = wf("--help")
    flat = " ".join(r.stdout.split())
    assert "Deadline for each page" in flat and "whole operation" not in flat


# ------------------------------------------------------------------ Ctrl-C under --json


def test_ctrl_c_under_json_names_the_page_in_flight(wf, serve, monkeypatch):
    import wf.pipeline as pipeline

    srv = serve(respond(200, b"x\n", {"Content-Type": "text/plain"}))

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "_fetch", interrupted)  # the page's fetch (retries, cache)
    r = wf(*ALLOW, "--json", srv.url + "first", srv.url + "second")
    assert r.code == 130
    obj = json.loads(r.stdout)
    assert obj["url"] == srv.url + "first" and obj["error"]["kind"] == "interrupted"


@pytest.mark.parametrize("first", [(), ("--json",)], ids=["text", "json"])
def test_a_usage_error_after_a_stopped_batch_names_no_page(wf, serve, monkeypatch, first):
    # In one process (tests, embedding), a run whose arguments click refuses never reaches
    # the command: the pages a run stopped before it left pending are none of its.
    import wf.pipeline as pipeline

    srv = serve(respond(200, b"x\n", {"Content-Type": "text/plain"}))

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "_fetch", interrupted)
    assert wf(*ALLOW, *first, srv.url + "first", srv.url + "second").code == 130
    usage = wf("--json", "--timeout", "soon", srv.url + "other")
    assert usage.code == 2, usage.stderr
    assert json.loads(usage.stdout)["url"] == ""


# ------------------------------------------------------------------ https to a plain-HTTP port


class PlainHTTP(RawServer):
    """A plain-HTTP server that answers a TLS ClientHello as http.server does: a 400."""

    def _serve(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(5)
            conn.recv(4096)
            conn.sendall(
                b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )
        except OSError:
            pass
        finally:
            conn.close()


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_https_to_a_plain_http_port_is_one_clear_tls_line(wf, serve, host):
    if host == "::1" and not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    srv = serve(None, host, cls=PlainHTTP)
    url = srv.url.replace("http://", "https://")
    r = wf("--allow-host", host, url)
    where = f"[{host}]:{srv.port}" if ":" in host else f"{host}:{srv.port}"
    assert_one_line_error(
        r, 35, f"TLS handshake failed with {where}: the server does not speak TLS", "http:// URL?"
    )
