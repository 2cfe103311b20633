"""wf.api and ws.api: the library is the CLI's core. ``wf.extract``/``wf.fetch`` give the
--json line the CLI prints, options fail with the CLI's messages, errors carry the exit
code, pages pickle, and threads get the serial answers."""

from __future__ import annotations

import gzip
import json
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import wf
import ws
from common.errors import Blocked, HTTPClientError, ToolError, UsageError
from tests.helpers import ENGINE_VARIABLES, invoke
from tests.servers import respond

FIXTURES = Path(__file__).parent / "fixtures" / "extract"
BENCH = Path(__file__).parent.parent.parent / "shared" / "extract-bench" / "scrapinghub" / "html"


def _pages() -> list[tuple[str, bytes]]:
    """Our own fixtures, and the bench's pages when the folder is there."""
    pages = [(p.name, p.read_bytes()) for p in sorted(FIXTURES.glob("*.html"))]
    if BENCH.is_dir():
        pages += [(p.name, gzip.decompress(p.read_bytes())) for p in sorted(BENCH.iterdir())[:60]]
    return pages


def _stable(page: wf.api.Page) -> dict[str, object]:
    doc = dict(page.document)
    doc.pop("elapsed_ms")
    return doc


def test_extract_is_what_wf_input_json_prints(tmp_path):
    html = (FIXTURES / "article.html").read_bytes()
    path = tmp_path / "a.html"
    path.write_bytes(html)
    args = ["--input", str(path), "--base-url", "https://example.com/a/", "--json", "--links"]
    r = invoke("wf", [*args, "--max-length", "0"])
    assert r.code == 0, r.stderr
    printed = json.loads(r.stdout)
    page = wf.extract(html, url="https://example.com/a/", links=True)
    mine = json.loads(page.to_json())
    for doc in (printed, mine):
        doc.pop("elapsed_ms")
        doc.pop("url")
    assert mine == printed
    assert page.kind == "article"  # the extractor's page kind
    assert page.text == printed["text"] and page.metadata == printed["metadata"]
    assert page.links == printed["links"] and page.title == printed["title"]
    assert (
        wf.extract_text(html, url="https://example.com/a/")
        == wf.extract(html, url="https://example.com/a/").text
    )


def test_extract_stays_callable_after_the_extractor_package_is_imported():
    import wf.extract.core  # noqa: F401  rebinds wf.extract to the package

    assert wf.extract("<p>one two three</p>").text == "one two three"


def test_a_page_pickles():
    html = (FIXTURES / "article.html").read_bytes()
    page = wf.extract(html, url="https://example.com/a/", links=True)
    again = pickle.loads(pickle.dumps(page))
    assert again == page
    assert again.to_json() == page.to_json()


def test_eight_threads_give_exactly_the_serial_output():
    pages = _pages()
    serial = [_stable(wf.extract(body, url=f"https://example.com/{name}")) for name, body in pages]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(
            pool.map(
                lambda item: _stable(wf.extract(item[1], url=f"https://example.com/{item[0]}")),
                pages,
            )
        )
    assert threaded == serial


@pytest.mark.parametrize(
    ("flags", "args"),
    [
        ({"max_length": -1}, ["--max-length", "-1"]),
        ({"filter": "("}, ["--filter", "("]),
        ({"from_line": 5, "to_line": 2}, ["--from", "5", "--to", "2"]),
        ({"pages": "x"}, ["--pages", "x"]),
    ],
)
def test_a_bad_value_is_a_value_error_with_the_cli_message(tmp_path, flags, args):
    path = tmp_path / "a.html"
    path.write_bytes(b"<p>x</p>")
    r = invoke("wf", ["--input", str(path), *args])
    assert r.code == 2
    cli_message = r.stderr.removeprefix("wf: (2) ").strip()
    with pytest.raises(ValueError) as caught:
        wf.extract("<p>x</p>", **flags)
    assert isinstance(caught.value, UsageError) and caught.value.code == 2
    assert caught.value.message == cli_message


@pytest.mark.parametrize(
    ("flags", "args", "rule"),
    [
        ({"timeout": 0}, ["--timeout", "0"], "must be more than 0 and at most 86400 seconds"),
        ({"timeout": -1}, ["--timeout", "-1"], "must be more than 0 and at most 86400 seconds"),
        ({"timeout": 1e9}, ["--timeout", "1e9"], "must be more than 0 and at most 86400 seconds"),
        ({"max_bytes": 0}, ["--max-bytes", "0"], "size out of range: '0'"),
        ({"max_bytes": -5}, ["--max-bytes", "-5"], "size out of range: '-5'"),
    ],
)
def test_a_value_only_click_checks_on_the_command_line_is_checked_for_the_library(
    tmp_path, flags, args, rule
):
    path = tmp_path / "a.html"
    path.write_bytes(b"<p>x</p>")
    r = invoke("wf", ["--input", str(path), *args])
    assert r.code == 2 and rule in r.stderr
    with pytest.raises(ValueError) as caught:
        wf.extract("<p>x</p>", **flags)
    assert isinstance(caught.value, UsageError) and caught.value.code == 2
    assert args[0] in caught.value.message and rule in caught.value.message


@pytest.mark.parametrize("html", [None, 12, ["<p>x</p>"]])
def test_a_document_that_is_neither_str_nor_bytes_is_a_type_error(html):
    with pytest.raises(TypeError, match="str or bytes"):
        wf.extract(html)


def test_a_bytearray_is_read_as_bytes():
    assert wf.extract(bytearray(b"<p>one two</p>")).text == "one two"


def test_a_list_option_given_one_str_is_that_one_value(serve):
    html = "<body><div><p>left out</p></div><main><p>one two</p></main></body>"
    assert wf.extract(html, select="main").text == wf.extract(html, select=("main",)).text
    assert "left out" not in wf.extract(html, select="main").text
    ok = serve(respond(200, b"<p>served</p>", {"Content-Type": "text/html"}))
    assert "served" in wf.fetch(ok.url + "/a", allow_hosts="127.0.0.1").text
    # Engines on loopback: a check that let these through would reach only `hits`.
    hits = serve(respond(200, b"{}", {"Content-Type": "application/json"}))
    env = {name: hits.url + "/e" for name in ENGINE_VARIABLES}
    with pytest.raises(ValueError, match="'nope'"):
        ws.search("q", engines="brave,nope", environ=env, allow_private=True, use_cache=False)
    with pytest.raises(ValueError, match="'not a domain'"):
        ws.search("q", allow="not a domain", environ=env, allow_private=True, use_cache=False)
    assert hits.connections == 0


def test_an_empty_query_is_a_value_error_before_any_request(serve):
    # Every engine points at a loopback server: had the check a bug, the request would
    # reach it (and fail the test), not a search engine.
    hits = serve(respond(200, b"{}", {"Content-Type": "application/json"}))
    everywhere = {name: hits.url + "/e" for name in ENGINE_VARIABLES}
    with pytest.raises(ValueError, match="missing QUERY"):
        ws.search("   ", environ=everywhere, allow_private=True, use_cache=False)
    assert hits.connections == 0


def test_an_unknown_option_is_a_type_error():
    with pytest.raises(TypeError, match="no_such"):
        wf.extract("<p>x</p>", no_such=1)


def test_fetch_gives_the_page_and_errors_carry_the_exit_code(serve):
    body = b"<html><head><title>Hello</title></head><body><p>Served text here.</p></body></html>"
    ok = serve(respond(200, body, {"Content-Type": "text/html"}))
    page = wf.fetch(ok.url + "/a", options=wf.build_options(allow_hosts=("127.0.0.1",)))
    assert (page.status, page.kind, page.title) == (200, "article", "Hello")
    assert "Served text here." in page.text
    assert page.content_type == "text/html" and page.final_url == ok.url + "/a"
    missing = serve(respond(404, b"gone", {"Content-Type": "text/plain"}))
    with pytest.raises(HTTPClientError) as caught:
        wf.fetch(missing.url + "/b", options=wf.build_options(allow_hosts=("127.0.0.1",)))
    assert (caught.value.code, caught.value.kind) == (4, "http_4xx")
    assert pickle.loads(pickle.dumps(caught.value)).message == caught.value.message


def test_search_gives_the_ws_json_and_raises_the_exit_code(serve):
    answer = {"results": [{"url": "https://example.org/r", "title": "A result", "content": "s"}]}
    srv = serve(respond(200, json.dumps(answer).encode(), {"Content-Type": "application/json"}))
    env = {"SEARXNG_URL": srv.url + "/searx"}
    found = ws.search("query", provider="searxng", environ=env, allow_private=True, use_cache=False)
    assert [r["url"] for r in found.results] == ["https://example.org/r"]
    assert json.loads(found.to_json())["provider"] == "searxng"
    assert pickle.loads(pickle.dumps(found)) == found
    blocked = serve(respond(429, b"slow down", {"Content-Type": "text/plain"}))
    everywhere = {name: blocked.url + "/e" for name in ENGINE_VARIABLES}
    with pytest.raises(ToolError) as caught:
        ws.search("query", environ=everywhere, allow_private=True, use_cache=False)
    assert isinstance(caught.value, Blocked) and (caught.value.code, caught.value.kind) == (
        75,
        "blocked",
    )
    with pytest.raises(ValueError, match="--max-results must be at least 1"):
        ws.search("q", max_results=0)


def test_a_str_is_text_whatever_charset_its_meta_names():
    html = (
        '<html><head><meta charset="iso-8859-1"><title>Café</title></head>'
        "<body><p>Un café noir, s'il vous plaît, avec du texte.</p></body></html>"
    )
    assert wf.extract_text(html) == "Un café noir, s'il vous plaît, avec du texte."
    assert wf.extract(html).title == "Café"
    assert wf.extract("\ufeff" + html).text == wf.extract(html).text
    assert "plaît" in wf.extract("<p>plaît \ud800 x</p>").text  # a lone surrogate is no crash


def test_kind_is_the_page_kind_for_html_and_the_body_kind_otherwise():
    assert wf.extract((FIXTURES / "article.html").read_bytes()).kind == "article"
    assert wf.extract(b"plain words, no markup at all").kind == "text"
    assert wf.extract("<p>x</p>", full=True).kind == "html"  # --full: no content chosen


@pytest.mark.parametrize(
    ("flags", "flag"),
    [
        # Each raised a TypeError or AttributeError from deep inside ("'<' not supported
        # between instances of 'int' and 'str'", "'int' object is not iterable"), or was
        # taken for its truth (full="no" read the page whole).
        ({"timeout": "5"}, "--timeout"),
        ({"max_length": "10"}, "--max-length"),
        ({"from_line": "a"}, "--from"),
        ({"select": 5}, "--select"),
        ({"remove": [5]}, "--remove"),
        ({"filter": 5}, "--filter"),
        ({"full": "no"}, "--full"),
        ({"cache": 1}, "--cache"),
        ({"allow_hosts": 5}, "--allow-host"),
        ({"environ": 5}, "environ"),
    ],
)
def test_a_library_option_of_the_wrong_type_names_its_flag(flags, flag):
    with pytest.raises(ValueError, match=f"^{flag} takes ") as caught:
        wf.extract("<p>x</p>", **flags)
    assert isinstance(caught.value, UsageError) and caught.value.code == 2


def test_every_flag_type_is_checked_for_the_library():
    from dataclasses import fields

    from wf.api import KIND_OF
    from wf.options import WfFlags

    assert {str(f.type) for f in fields(WfFlags)} <= set(KIND_OF)


def test_library_options_of_the_right_types_still_extract():
    page = wf.extract(
        "<p>one</p><p>two</p>",
        timeout=5,
        max_length=None,
        from_line=1,
        full=True,
        cache=None,
        select=["p"],
        environ={},
    )
    assert page.text == "one\n\ntwo"
