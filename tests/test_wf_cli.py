"""wf's command line as a whole: a batch of URLs in input order, --input without the
network."""

from __future__ import annotations

import json
import time

import pytest

from tests.helpers import ALLOW
from tests.servers import respond


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
