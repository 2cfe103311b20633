"""wf end to end on HTML: bundled pages and real pages from ../shared/extract-bench/,
served over HTTP from 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from tests.helpers import ALLOW, ROOT, SHARED, recall
from tests.servers import respond

BENCH = SHARED / "extract-bench" / "scrapinghub"
DEMO = ROOT / "tests" / "demo"


def test_article_main_content_as_markdown(wf, serve):
    srv = serve(
        respond(
            200, (DEMO / "article.html").read_bytes(), {"Content-Type": "text/html; charset=utf-8"}
        )
    )
    r = wf(*ALLOW, srv.url)
    assert r.code == 0, r.stderr
    out = r.stdout
    assert out.startswith("# Keeping cron jobs honest")
    assert "## One table, never renumbered" in out
    assert "- Exit 6 means the host name could not be resolved." in out
    assert "```\nwf: (6) could not resolve host example.invalid\n```" in out
    assert "> A cron job that fails loudly" in out
    assert "| Question | Good answer |" in out
    for boilerplate in ("cookies", "Subscribe", "Ten YAML mistakes", "© 2026", "analytics"):
        assert boilerplate not in out


def test_full_mode_keeps_navigation_but_not_scripts(wf, serve):
    srv = serve(respond(200, (DEMO / "article.html").read_bytes(), {"Content-Type": "text/html"}))
    out = wf(*ALLOW, "--full", srv.url).stdout
    assert "Ten YAML mistakes" in out and "Terms" in out
    assert "analytics" not in out and "font-family" not in out


def test_links_markers_and_list(wf, serve):
    srv = serve(respond(200, (DEMO / "article.html").read_bytes(), {"Content-Type": "text/html"}))
    r = wf(*ALLOW, "--links", "--filter", "cron guide", srv.url)
    text, _, refs = r.stdout.partition("\n\n")
    m = re.search(r"cron guide\[(\d+)\]", text)
    assert m, r.stdout
    assert f"[{m.group(1)}]: {srv.url}guides/cron" in refs.splitlines()
    obj = json.loads(wf(*ALLOW, "--json", srv.url).stdout)
    assert {"text": "exit code reference", "url": "https://example.org/exit-codes"} in obj["links"]
    assert obj["title"] == "Keeping cron jobs honest: exit codes that say what failed"


def test_charset_from_meta_and_header(wf, serve):
    body = '<html><head><meta charset="iso-8859-1"><title>t</title></head><body><p>Café crème brûlée, a long enough paragraph to count as content here.</p></body></html>'
    srv = serve(respond(200, body.encode("latin-1"), {"Content-Type": "text/html"}))
    obj = json.loads(wf(*ALLOW, "--json", srv.url).stdout)
    assert "Café crème brûlée" in obj["text"] and obj["charset"] == "cp1252"


def test_input_mode_resolves_links_against_base_url(wf, tmp_path):
    doc = tmp_path / "page.html"
    doc.write_bytes((DEMO / "article.html").read_bytes())
    r = wf(
        "--input",
        str(doc),
        "--base-url",
        "https://example.com/blog/",
        "--links",
        "--filter",
        "guide",
    )
    assert "https://example.com/guides/cron" in r.stdout


@pytest.mark.skipif(not BENCH.is_dir(), reason="../shared/extract-bench/ is absent")
def test_real_pages_over_http(wf, serve):
    truth = json.loads((BENCH / "ground-truth.json").read_text())
    ids = sorted(truth)[:: max(1, len(truth) // 6)][:6]
    for page_id in ids:
        html = gzip.decompress((BENCH / "html" / f"{page_id}.html.gz").read_bytes())
        srv = serve(respond(200, html, {"Content-Type": "text/html; charset=utf-8"}))
        r = wf(*ALLOW, "--json", "--no-save", "--max-length", "0", srv.url)
        obj = json.loads(r.stdout)
        assert obj["error"] is None
        assert recall(obj["text"].lower(), truth[page_id]["articleBody"].lower()) > 0.8, page_id


def test_a_page_past_the_tag_cap_is_printed_in_part_with_a_note(wf, serve):
    body = b"<html><body><p>first</p>" + b"<p>a</p>" * 100_000 + b"<p>never read</p></body></html>"
    srv = serve(respond(200, body, {"Content-Type": "text/html; charset=utf-8"}))
    r = wf(*ALLOW, "--full", "--no-save", "--max-length", "0", srv.url)
    assert r.code == 0, r.stderr
    assert r.stdout.startswith("first\n") and "never read" not in r.stdout
    assert (
        "wf: note: the page has 100004 start tags; text extracted from the first 50000" in r.stderr
    )
    r = wf(*ALLOW, "--json", "--no-save", "--max-length", "0", srv.url)
    assert json.loads(r.stdout)["notes"] == [
        "the page has 100004 start tags; text extracted from the first 50000"
    ]
