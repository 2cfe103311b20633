"""wf/sniff.py: what a body is (HTML, text printed as it is, binary saved, empty),
directly and through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import ALLOW
from tests.servers import respond
from wf.sniff import classify

PROMETHEUS = (
    b"# HELP http_requests_total The total number of HTTP requests.\n"
    b"# TYPE http_requests_total counter\n"
    b'http_requests_total{method="post",code="200"} 1027 1395066363000\n'
    b'http_requests_total{method="post",code="400"}    3 1395066363000\n'
    b"# HELP rpc_duration_seconds A summary.\n"
    b'rpc_duration_seconds{quantile="0.5"} 4773\n'
    b"rpc_duration_seconds_sum 1.7560473e+07\n"
)


# ------------------------------------------------------------------ core


@pytest.mark.parametrize(
    "ctype,body,kind",
    [
        ("text/html; charset=utf-8", b"<p>x</p>", "html"),
        ("application/xhtml+xml", b"<html/>", "html"),
        ("text/plain; version=0.0.4", PROMETHEUS, "text"),
        ("application/json", b'{"a": 1}', "text"),
        ("application/rss+xml", b"<rss/>", "feed"),
        ("text/csv", b"a,b\n1,2\n", "text"),
        ("image/png", b"\x89PNG\r\n\x1a\nxxxx", "binary"),
        ("text/html", b"\x89PNG\r\n\x1a\nxxxx", "binary"),
        ("", b"<!DOCTYPE html><html><body>x</body></html>", "html"),
        ("", b"plain words\n", "text"),
        # Saved pages and fragments that open with a script, a meta or a heading (the
        # WHATWG sniffing signatures and their common neighbours).
        ("", b"<script>window.location='/x'</script>\n<noscript>moved</noscript>", "html"),
        ("", b'\n  <META http-equiv="refresh" content="0;url=/x">', "html"),
        ("", b"<meta charset=utf-8><title>Notes</title><h2>Monday</h2>", "html"),
        ("application/octet-stream", b"<h3>Minutes</h3> of the meeting", "html"),
        ("", b"<scripts are how we ship>\n", "text"),
        ("", b"a < b and <b is bold\n", "text"),
        ("application/pdf", b"%PDF-1.7", "pdf"),
        ("text/html", b"", "empty"),
    ],
)
def test_classify(ctype, body, kind):
    assert classify(ctype, body)[0] == kind


# ------------------------------------------------------------------ CLI


def test_prometheus_exposition_is_printed_byte_for_byte(wf, serve):
    srv = serve(
        respond(200, PROMETHEUS, {"Content-Type": "text/plain; version=0.0.4; charset=utf-8"})
    )
    r = wf(*ALLOW, srv.url)
    assert r.code == 0 and r.stdout.encode() == PROMETHEUS
    r = wf(*ALLOW, "--filter", "^rpc_", srv.url)
    assert (
        r.stdout
        == 'rpc_duration_seconds{quantile="0.5"} 4773\nrpc_duration_seconds_sum 1.7560473e+07\n'
    )


def test_json_body_is_printed_unchanged(wf, serve):
    body = b'{\n  "a": [1, 2],\n  "b": "\xc3\xa9"\n}\n'
    srv = serve(respond(200, body, {"Content-Type": "application/json"}))
    assert wf(*ALLOW, srv.url).stdout.encode() == body


def test_empty_body_is_empty_result(wf, serve):
    srv = serve(respond(204))
    r = wf(*ALLOW, "--json", srv.url)
    obj = json.loads(r.stdout)
    assert r.code == 0 and obj["status"] == 204 and obj["text"] == "" and obj["error"] is None
    srv2 = serve(respond(200, b"", {"Content-Type": "text/html"}))
    r = wf(*ALLOW, srv2.url)
    assert (r.code, r.stdout) == (0, "")


def test_binary_is_saved_not_printed(wf, serve, scratch):
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10
    srv = serve(respond(200, png, {"Content-Type": "image/png"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 0
    m = re.fullmatch(r"\[wf: binary content \(image/png, 2568 bytes\) saved to (\S+)\]\n", r.stdout)
    assert m, r.stdout
    assert Path(m.group(1)).read_bytes() == png and Path(m.group(1)).parent == scratch
