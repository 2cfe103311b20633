"""wf's steering options end to end, against local servers: --select and --remove (exit
65 when nothing matches, a cron job seeing a layout change, exit 2 before any request),
--images in text and JSON, Markdown asked for and printed as served (front matter as
metadata), --robots (refusal with exit 77 and kind robots, once per host, 5xx), and a
polite batch (--per-host, --delay, order kept)."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from tests.helpers import ALLOW, assert_one_line_error
from tests.hostile.handlers import path_of
from tests.servers import http_response

HTML = {"Content-Type": "text/html; charset=utf-8"}

PAGE = b"""<html><head><title>Prices</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<div id="prices"><h2>Today</h2><p>Apples cost two coins a pound at the market this morning.</p>
<aside class="ad">Buy a cart!</aside><p>Pears cost three coins a pound, up from two last week.</p></div>
<footer>Footer text that no reader wants, about cookies and the rest.</footer>
</body></html>"""

CHANGED = PAGE.replace(b'id="prices"', b'id="price-list"')


def pages(table: dict[str, bytes]):  # type: ignore[no-untyped-def]
    def handler(conn: socket.socket, request: bytes) -> None:
        conn.sendall(table.get(path_of(request), http_response(404, b"")))

    return handler


# ------------------------------------------------------------------ --select, --remove


def test_select_prints_only_the_container(wf, serve) -> None:
    srv = serve(pages({"/": http_response(200, PAGE, HTML)}))
    r = wf(*ALLOW, srv.url, "--select", "#prices", "--remove", ".ad")
    assert r.code == 0, r.stderr
    assert r.stdout == (
        "## Today\n\nApples cost two coins a pound at the market this morning.\n\n"
        "Pears cost three coins a pound, up from two last week.\n"
    )


def test_no_match_is_exit_65_with_one_line(wf, serve) -> None:
    srv = serve(pages({"/": http_response(200, PAGE, HTML)}))
    r = wf(*ALLOW, srv.url, "--select", "#gone")
    assert r.stdout == ""
    assert_one_line_error(r, 65, f"--select '#gone' matched nothing on {srv.url}")
    j = wf(*ALLOW, srv.url, "--select", "#gone", "--json")
    assert j.code == 65
    assert json.loads(j.stdout)["error"]["kind"] == "no_match"


def test_a_cron_job_sees_the_layout_change(wf, serve) -> None:
    table = {"/": http_response(200, PAGE, HTML)}
    srv = serve(pages(table))
    first = wf(*ALLOW, srv.url, "--select", "#prices")
    assert first.code == 0 and "Apples" in first.stdout
    table["/"] = http_response(200, CHANGED, HTML)  # the site redesigned the page
    second = wf(*ALLOW, srv.url, "--select", "#prices")
    assert second.code == 65 and second.stdout == ""


@pytest.mark.parametrize("selector", ["div[", "p::text", ""])
def test_an_invalid_selector_is_exit_2_before_any_request(wf, serve, selector: str) -> None:
    srv = serve(pages({"/": http_response(200, PAGE, HTML)}))
    for option in ("--select", "--remove"):
        r = wf(*ALLOW, srv.url, option, selector)
        assert_one_line_error(r, 2, option)
    assert srv.requests == []


# ------------------------------------------------------------------ --images

ARTICLE = b"""<html><body><article><h1>Cats</h1>
<p>A long paragraph about cats that goes on so that this is the article on the page.</p>
<figure><img src="/cat.jpg" srcset="/cat-400.jpg 400w, /cat-1600.jpg 1600w" alt="A cat" width="800">
<figcaption>The cat, asleep.</figcaption></figure>
<p>Another long paragraph, with <a href="/more">more</a>, so the article has two.</p>
<img src="/pixel.gif" width="1" height="1" alt="">
</article></body></html>"""


def test_images_in_the_text_and_in_json(wf, serve) -> None:
    srv = serve(pages({"/": http_response(200, ARTICLE, HTML)}))
    r = wf(*ALLOW, srv.url, "--images")
    assert r.code == 0, r.stderr
    assert "![A cat](1)\n\nThe cat, asleep." in r.stdout
    j = json.loads(wf(*ALLOW, srv.url, "--images", "--json").stdout)
    assert j["images"] == [
        {
            "src": f"{srv.url}cat-1600.jpg",
            "alt": "A cat",
            "caption": "The cat, asleep.",
            "width": 800,
            "height": None,
        }
    ]
    plain = json.loads(wf(*ALLOW, srv.url, "--json").stdout)
    assert "images" not in plain and "![" not in plain["text"]
    # With --images the key is always there: an error page has no images.
    gone = json.loads(wf(*ALLOW, f"{srv.url}nothing", "--images", "--json").stdout)
    assert gone["images"] == [] and gone["error"]["code"] == 4
    assert list(gone)[-1] == "error"


def test_images_share_the_link_list(wf, serve) -> None:
    srv = serve(pages({"/": http_response(200, ARTICLE, HTML)}))
    r = wf(*ALLOW, srv.url, "--images", "--links")
    assert "![A cat](1)" in r.stdout and "more[2]" in r.stdout
    assert r.stdout.endswith(f"\n\n[1]: {srv.url}cat-1600.jpg\n[2]: {srv.url}more\n")


# ------------------------------------------------------------------ Markdown from the server

MARKDOWN = b"""---
title: Install guide
author: Ada
date: 2024-03-01
---
# Install

Run `pip install thing`.
"""


def negotiating(conn: socket.socket, request: bytes) -> None:
    """Markdown to a client that asks for it first, HTML to others."""
    head = request.split(b"\r\n\r\n", 1)[0].lower()
    accept = next((line for line in head.split(b"\r\n") if line.startswith(b"accept:")), b"")
    if b"text/markdown" in accept:
        conn.sendall(http_response(200, MARKDOWN, {"Content-Type": "text/markdown; charset=utf-8"}))
    else:
        conn.sendall(http_response(200, b"<html><body><p>HTML version</p></body></html>", HTML))


def test_markdown_is_asked_for_and_printed_as_served(wf, serve) -> None:
    srv = serve(negotiating)
    r = wf(*ALLOW, srv.url)
    assert r.code == 0, r.stderr
    assert r.stdout == MARKDOWN.decode()
    assert b"accept: text/markdown, text/html;q=0.9, */*;q=0.8\r\n" in srv.requests[0].lower()
    j = json.loads(wf(*ALLOW, srv.url, "--json").stdout)
    assert (j["metadata"]["title"], j["metadata"]["author"], j["metadata"]["date"]) == (
        "Install guide",
        "Ada",
        "2024-03-01",
    )
    assert j["title"] == "Install guide"


def test_asking_for_markdown_can_be_turned_off(wf, serve) -> None:
    srv = serve(negotiating)
    assert wf(*ALLOW, srv.url, "--no-accept-markdown").stdout == "HTML version\n"
    assert wf(*ALLOW, srv.url, env={"WF_ACCEPT_MARKDOWN": "0"}).stdout == "HTML version\n"
    # -H Accept is the user's word over ours.
    assert wf(*ALLOW, srv.url, "-H", "Accept: text/html").stdout == "HTML version\n"


# ------------------------------------------------------------------ --robots

ROBOTS = b"user-agent: *\ndisallow: /private/\ncrawl-delay: 0.2\n"


def test_robots_refuses_a_disallowed_url_naming_the_rule(wf, serve) -> None:
    srv = serve(
        pages(
            {
                "/robots.txt": http_response(200, ROBOTS),
                "/private/x": http_response(200, PAGE, HTML),
                "/": http_response(200, PAGE, HTML),
            }
        )
    )
    r = wf(*ALLOW, f"{srv.url}private/x", "--robots")
    assert_one_line_error(
        r, 77, f'robots.txt of 127.0.0.1 disallows {srv.url}private/x: line 2 "disallow: /private/"'
    )
    assert [path_of(q) for q in srv.requests] == ["/robots.txt"]  # the page was not asked
    j = json.loads(wf(*ALLOW, f"{srv.url}private/x", "--robots", "--json").stdout)
    assert (j["error"]["code"], j["error"]["kind"]) == (77, "robots")
    assert wf(*ALLOW, srv.url, env={"WF_ROBOTS": "1"}).code == 0
    # Without --robots nothing is asked of robots.txt.
    before = len(srv.requests)
    assert wf(*ALLOW, f"{srv.url}private/x").code == 0
    assert [path_of(q) for q in srv.requests[before:]] == ["/private/x"]


def test_robots_is_read_once_per_host_in_a_batch(wf, serve) -> None:
    srv = serve(
        pages(
            {"/robots.txt": http_response(200, ROBOTS)}
            | {f"/{i}": http_response(200, PAGE, HTML) for i in range(3)}
        )
    )
    urls = "".join(f"{srv.url}{i}\n" for i in range(3))
    r = wf(*ALLOW, "-", "--robots", input=urls)
    assert r.code == 0, r.stderr
    assert [path_of(q) for q in srv.requests].count("/robots.txt") == 1


def test_an_unreachable_robots_txt_allows_nothing(wf, serve) -> None:
    srv = serve(pages({"/robots.txt": http_response(503, b"")}))
    assert_one_line_error(wf(*ALLOW, srv.url, "--robots"), 77, "could not be read (HTTP 503)")


# ------------------------------------------------------------------ a polite batch


class Counting:
    """A server that answers after a pause and records how many requests it held at once
    and when each began."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.starts: list[float] = []

    def __call__(self, conn: socket.socket, request: bytes) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
            self.starts.append(time.monotonic())
        time.sleep(0.15)
        with self.lock:
            self.now -= 1
        body = (
            b"<html><body><p>" + path_of(request).encode() + b" is the page here.</p></body></html>"
        )
        conn.sendall(http_response(200, body, HTML))


@pytest.mark.parametrize(("per_host", "peak"), [(None, 2), ("1", 1)])
def test_per_host_bounds_the_pages_at_once(wf, serve, per_host: str | None, peak: int) -> None:
    counting = Counting()
    srv = serve(counting)
    urls = "".join(f"{srv.url}{i}\n" for i in range(6))
    extra = ["--per-host", per_host] if per_host else []
    r = wf(*ALLOW, "-", *extra, input=urls)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[1::2] == [f"/{i} is the page here." for i in range(6)]
    assert counting.peak == peak


def test_delay_spaces_the_starts(wf, serve) -> None:
    counting = Counting()
    srv = serve(counting)
    urls = "".join(f"{srv.url}{i}\n" for i in range(3))
    assert wf(*ALLOW, "-", "--delay", "300", input=urls).code == 0
    gaps = [b - a for a, b in zip(counting.starts, counting.starts[1:], strict=False)]
    # Measured where the server sees them: the connection adds its jitter; without --delay
    # the first two start together.
    assert len(gaps) == 2 and all(gap >= 0.25 for gap in gaps), gaps


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--per-host", "0"], "--per-host"),
        (["--delay", "-1"], "--delay"),
        (["--wait", "-5"], "--wait"),
        (["--render", "never", "--wait-for", "#x"], "--wait-for"),
        (["--render", "never", "--wait", "100"], "--wait"),
    ],
)
def test_bad_steering_values_are_usage_errors(wf, serve, args: list[str], words: str) -> None:
    srv = serve(pages({}))
    assert_one_line_error(wf(*ALLOW, srv.url, *args), 2, words)
    assert srv.requests == []


def test_a_small_selection_is_printed_whole_and_without_the_page_s_notes(wf, serve) -> None:
    slot = (
        b'<html><body><p>Cookies: we ask about them here.</p><div id="slot"> </div></body></html>'
    )
    srv = serve(
        pages({"/": http_response(200, PAGE, HTML), "/slot": http_response(200, slot, HTML)})
    )
    # A lone heading is no empty section when it is what was asked for.
    assert (wf(*ALLOW, srv.url, "--select", "#prices h2").stdout) == "## Today\n"
    r = wf(*ALLOW, srv.url, "--select", "nav")
    # The page's footer talks of cookies: no consent-wall note for a part the user chose.
    assert (r.code, r.stdout, r.stderr) == (0, "Home About\n", "")
    empty = wf(*ALLOW, f"{srv.url}slot", "--select", "#slot")
    assert (empty.code, empty.stdout) == (0, "")
    assert empty.stderr == "wf: note: --select matched elements without text\n"


def test_robots_txt_is_kept_under_cache_between_runs(wf, serve) -> None:
    table = {"/robots.txt": http_response(200, ROBOTS), "/": http_response(200, PAGE, HTML)}
    srv = serve(pages(table))
    for _ in range(2):
        assert wf(*ALLOW, srv.url, "--robots", "--cache").code == 0
    assert [path_of(q) for q in srv.requests].count("/robots.txt") == 1
    # Without --cache each run asks again.
    wf(*ALLOW, srv.url, "--robots")
    assert [path_of(q) for q in srv.requests].count("/robots.txt") == 2


def test_crawl_delay_spaces_a_batch(wf, serve) -> None:
    counting = Counting()

    def handler(conn: socket.socket, request: bytes) -> None:
        if path_of(request) == "/robots.txt":
            conn.sendall(http_response(200, b"user-agent: *\ncrawl-delay: 1\n"))
        else:
            counting(conn, request)

    srv = serve(handler)
    urls = "".join(f"{srv.url}{i}\n" for i in range(3))
    assert wf(*ALLOW, "-", "--robots", input=urls).code == 0
    # The first page started before robots.txt was read by the others; from then on the
    # starts are Crawl-delay apart.
    gaps = [b - a for a, b in zip(counting.starts, counting.starts[1:], strict=False)]
    assert len(gaps) == 2 and gaps[-1] >= 0.8, gaps  # without it: about 0.2 s (a page)


def test_no_match_on_a_page_with_text_is_not_rendered_to_look_again(wf, serve) -> None:
    # Big, with an empty mount point and a noscript notice, but its static text is long:
    # no JavaScript shell, so auto mode gives the selector up without a browser.
    prose = b"".join(
        b"<p>Paragraph %d of the static article, long enough to read.</p>" % i for i in range(40)
    )
    page = (
        b'<html><body><noscript>Please enable JavaScript.</noscript><div id="root"></div>'
        + prose
        + b"</body></html>"
    )
    srv = serve(pages({"/": http_response(200, page, HTML)}))
    r = wf(*ALLOW, srv.url, "--select", "#gone", env={"WF_RENDER_BROWSER": "/nonexistent/chrome"})
    assert_one_line_error(r, 65, "matched nothing")
