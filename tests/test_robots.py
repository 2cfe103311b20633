"""common/robots.py: RFC 9309's examples as a table (groups, the longest match, Allow on a
tie, ``*`` and ``$``, percent-encoding), Crawl-delay, the parse limit; what a fetch's
outcome means (4xx, 5xx, unreachable, redirects past five, a body past the cap) against
local servers; once per host per run, and kept under --cache for 24 hours."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from common.errors import PolicyRefused
from common.http.cache import HttpCache
from common.http.client import NetOptions
from common.policy import Policy
from common.robots import (
    MAX_PARSE_BYTES,
    PARSED,
    UNAVAILABLE,
    UNREACHABLE,
    Robots,
    RobotsFiles,
    decide,
    fetch_robots,
    matches,
    normalise,
    parse,
    robots_url,
    select_group,
    share_of,
)
from tests.hostile.handlers import routes
from tests.servers import http_response

POLICY = Policy(allow_hosts=frozenset({"127.0.0.1"}))

# RFC 9309 5.1, the simple example.
SIMPLE = b"""\
User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
"""

# RFC 9309 5.2, the longest match.
LONGEST = b"""\
User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
"""


def allowed(body: bytes, agent: str, path: str) -> bool:
    group = select_group(parse(body), agent)
    return decide(group.rules if group else (), path).allowed


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        # foobot: everything disallowed but two pages.
        ("foobot", "/example/page.html", True),
        ("foobot", "/example/allowed.gif", True),
        ("foobot", "/", False),
        ("foobot", "/publications/", False),
        ("FooBot", "/example/other.html", False),  # product tokens match without case
        # barbot and bazbot share one group.
        ("barbot", "/example/page.html", False),
        ("bazbot", "/example/page.html", False),
        ("barbot", "/example/other.html", True),
        ("bazbot", "/", True),
        # quxbot's group is empty: everything is allowed, the * group does not apply.
        ("quxbot", "/example/", True),
        ("quxbot", "/x.gif", True),
        # Anyone else gets the * group.
        ("wf", "/example/", False),
        ("wf", "/example/page.html", False),
        ("wf", "/images/a.gif", False),
        ("wf", "/images/a.gif?x=1", True),  # $ ends the pattern: a query follows here
        ("wf", "/publications/", True),
        ("wf", "/", True),
    ],
)
def test_rfc_simple_example(agent: str, path: str, expected: bool) -> None:
    assert allowed(SIMPLE, agent, path) is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/example/page/", True),
        ("/example/page/other.html", True),
        ("/example/page/disallowed.gif", False),
    ],
)
def test_rfc_longest_match_example(path: str, expected: bool) -> None:
    assert allowed(LONGEST, "foobot", path) is expected


def test_allow_wins_a_tie_whatever_the_order() -> None:
    for body in (
        b"user-agent: *\ndisallow: /page\nallow: /page\n",
        b"user-agent: *\nallow: /page\ndisallow: /page\n",
        # Equal length with a wildcard: still a tie, still Allow.
        b"user-agent: *\ndisallow: /pa*e\nallow: /page\n",
    ):
        assert allowed(body, "wf", "/page") is True
    # One character longer decides against the shorter Allow.
    assert allowed(b"user-agent: *\nallow: /page\ndisallow: /pages\n", "wf", "/pages") is False


def test_the_decision_names_the_rule_and_its_line() -> None:
    group = select_group(parse(SIMPLE), "wf")
    assert group is not None
    decision = decide(group.rules, "https://example.com/example/x", where="robots.txt")
    assert not decision.allowed
    assert decision.rule is not None and decision.rule.line == 3
    assert decision.reason == 'robots.txt line 3 "Disallow: /example/" disallows it'
    assert decide(group.rules, "/other").reason == "no rule of robots.txt matches"


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("/", "/anything", True),
        ("/fish", "/fish.html", True),
        ("/fish", "/Fish.asp", False),  # case matters in paths
        ("/fish*", "/fishheads/yummy.html", True),
        ("/fish/", "/fish", False),
        ("/*.php", "/folder/filename.php?parameters", True),
        ("/*.php", "/windows.PHP", False),
        ("/*.php$", "/filename.php", True),
        ("/*.php$", "/filename.php?parameters", False),
        ("/*.php$", "/filename.php5", False),
        ("/fish*.php", "/fishheads/catfish.php?parameters", True),
        ("/fish*.php", "/Fish.PHP", False),
        ("/this/*/exactly", "/this/path/exactly", True),
        ("/this/path/exactly$", "/this/path/exactly", True),
        ("/this/path/exactly$", "/this/path/exactly/more", False),
        ("/a*b*c$", "/aXbYc", True),
        ("/a*b*c$", "/aXbYcd", False),
        ("/a*b$", "/ab", True),
        ("/a*ab$", "/ab", False),  # the last piece may not overlap the first
        ("*", "/", True),
        ("$", "/", False),
    ],
)
def test_wildcards_and_the_end_anchor(pattern: str, path: str, expected: bool) -> None:
    assert matches(normalise(pattern), normalise(path, special="*$")) is expected


def test_many_stars_are_linear() -> None:
    pattern = "/" + "a*" * 5000 + "b"
    path = "/" + "a" * 100_000
    start = time.process_time()
    assert matches(pattern, path) is False
    # Backtracking would take far longer; this is a bound on the algorithm, not a timing.
    assert time.process_time() - start < 5


@pytest.mark.parametrize(
    ("pattern", "url_path"),
    [
        # RFC 9309 2.2.2's table: each pattern matches the path beside it.
        ("/foo/bar?baz=quz", "/foo/bar?baz=quz"),
        ("/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https://foo.bar"),
        ("/foo/bar/\u30c4", "/foo/bar/%E3%83%84"),
        ("/foo/bar/%E3%83%84", "/foo/bar/\u30c4"),
        ("/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84"),
        ("/foo/bar/%62%61%7A", "/foo/bar/baz"),
        # 2.2.3: a literal * or $ in a URL is written %2A or %24 in a rule.
        ("/path/file-with-a-%2A.html", "/path/file-with-a-*.html"),
        ("/path/foo-%24", "/path/foo-$"),
    ],
)
def test_percent_encoding_is_compared_normalised(pattern: str, url_path: str) -> None:
    body = f"user-agent: *\ndisallow: {pattern}\n".encode()
    assert allowed(body, "wf", f"https://example.com{url_path}") is False


def test_groups_of_one_agent_are_merged() -> None:
    body = b"user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"
    for path in ("/foo", "/bar", "/baz"):
        assert allowed(body, "examplebot", path) is False
    assert allowed(body, "examplebot", "/qux") is True


def test_our_token_and_the_star_group() -> None:
    body = b"user-agent: *\ndisallow: /\n\nuser-agent: wf/1.0\nallow: /\ndisallow: /private\n"
    assert allowed(body, "wf", "/page") is True  # "wf/1.0" names the product token wf
    assert allowed(body, "wf", "/private/x") is False
    assert allowed(body, "other", "/page") is False
    # A token that merely starts with ours is another crawler's.
    assert allowed(b"user-agent: wfbot\ndisallow: /\n", "wf", "/page") is True


def test_no_group_and_no_rules_allow_everything() -> None:
    assert select_group(parse(b""), "wf") is None
    assert allowed(b"user-agent: other\ndisallow: /\n", "wf", "/") is True
    # Rules before any user-agent line belong to no group.
    assert allowed(b"disallow: /\nuser-agent: *\nallow: /x\n", "wf", "/y") is True
    # An empty Disallow disallows nothing.
    assert allowed(b"user-agent: *\ndisallow:\n", "wf", "/") is True


def test_comments_case_and_spacing() -> None:
    body = b"\xef\xbb\xbfUSER-AGENT :  *   # everyone\n  DisAllow :/secret # hidden\n\n\nfoo: bar\n"
    assert allowed(body, "wf", "/secret/x") is False
    assert allowed(body, "wf", "/public") is True


def test_robots_txt_itself_is_always_allowed() -> None:
    assert allowed(b"user-agent: *\ndisallow: /\n", "wf", "/robots.txt") is True
    assert allowed(b"user-agent: *\ndisallow: /\n", "wf", "/robots.txt?x") is False


def test_a_user_agent_after_rules_starts_a_new_group() -> None:
    body = b"user-agent: a\ndisallow: /a\nuser-agent: b\ndisallow: /b\n"
    groups = parse(body)
    assert [g.agents for g in groups] == [("a",), ("b",)]
    assert allowed(body, "a", "/b") is True


def test_crawl_delay() -> None:
    body = b"user-agent: *\ncrawl-delay: 2.5\ndisallow: /x\n\nuser-agent: wf\ncrawl-delay: 1e9\n"
    assert select_group(parse(body), "wf").crawl_delay == 60.0  # type: ignore[union-attr]
    assert select_group(parse(body), "other").crawl_delay == 2.5  # type: ignore[union-attr]
    for bad in (b"nan", b"-1", b"soon", b"inf"):
        group = select_group(parse(b"user-agent: *\ncrawl-delay: " + bad + b"\n"), "wf")
        assert group is not None and group.crawl_delay is None


def test_only_the_first_500_kib_are_parsed() -> None:
    filler = b"# " + b"x" * 1000 + b"\n"
    head = b"user-agent: *\ndisallow: /early\n"
    body = head + filler * ((MAX_PARSE_BYTES - len(head)) // len(filler) + 1) + b"disallow: /late\n"
    assert len(body) > MAX_PARSE_BYTES
    assert allowed(body, "wf", "/early") is False
    assert allowed(body, "wf", "/late") is True
    # A line cut at the limit is not read as a shorter rule.
    exact = b"user-agent: *\n" + b"#" * (MAX_PARSE_BYTES - 14 - 3) + b"\n" + b"disallow: /\n"
    assert allowed(exact, "wf", "/x") is True


def test_invalid_utf8_does_not_stop_the_parse() -> None:
    assert allowed(b"user-agent: *\ndisallow: /\xff\xfe\ndisallow: /x\n", "wf", "/x") is False


def test_robots_url_of_an_origin() -> None:
    assert robots_url("https://u:p@Example.com:8443/a/b?c") == "https://example.com:8443/robots.txt"
    assert robots_url("http://[::1]/x") == "http://[::1]/robots.txt"


def test_share_of_the_deadline() -> None:
    assert share_of(100.0, now=90.0) == pytest.approx(92.0)
    assert share_of(100.0, now=0.0) == pytest.approx(5.0)  # the ceiling
    assert share_of(100.0, now=101.0) == pytest.approx(101.0)  # nothing left


def test_states_decide_without_rules() -> None:
    gone = Robots(UNAVAILABLE, "http://h/robots.txt", why="HTTP 404")
    down = Robots(UNREACHABLE, "http://h/robots.txt", why="HTTP 503")
    assert gone.decide("http://h/x").allowed is True
    refused = down.decide("http://h/x")
    assert refused.allowed is False
    assert refused.reason == "http://h/robots.txt: HTTP 503; RFC 9309 says nothing is allowed then"


# ------------------------------------------------------------------ fetching, local servers


def options(**kw: object) -> NetOptions:
    kw.setdefault("timeout", 10.0)
    kw.setdefault("policy", POLICY)
    return NetOptions(**kw)  # type: ignore[arg-type]


def later() -> float:
    return time.monotonic() + 10


@pytest.mark.parametrize(
    ("status", "state", "page_allowed"),
    [
        (404, UNAVAILABLE, True),
        (403, UNAVAILABLE, True),
        (500, UNREACHABLE, False),
        (503, UNREACHABLE, False),
    ],
)
def test_status_of_the_answer(serve, status: int, state: str, page_allowed: bool) -> None:
    srv = serve(routes({"/robots.txt": http_response(status, b"user-agent: *\nallow: /\n")}))
    robots, _ = fetch_robots(srv.url + "robots.txt", options(), later())
    assert robots.state == state
    assert robots.decide(srv.url + "page").allowed is page_allowed


def test_a_parsed_file_from_a_server(serve) -> None:
    body = b"user-agent: wf\ndisallow: /private\ncrawl-delay: 1\n"
    srv = serve(routes({"/robots.txt": http_response(200, body, {"Content-Type": "text/plain"})}))
    robots, resp = fetch_robots(srv.url + "robots.txt", options(), later())
    assert robots.state == PARSED and resp is not None
    assert robots.decide(srv.url + "private/a").allowed is False
    assert robots.decide(srv.url + "public").allowed is True
    assert robots.crawl_delay() == 1.0
    # Asked for as a crawler asks: without the page's -H headers.
    assert b"x-secret" not in srv.requests[0].lower()


def test_h_headers_are_not_sent_for_robots(serve) -> None:
    srv = serve(routes({"/robots.txt": http_response(200, b"")}))
    fetch_robots(srv.url + "robots.txt", options(headers=(("X-Secret", "1"),)), later())
    assert b"x-secret" not in srv.requests[0].lower()


def hops(n: int, final: bytes) -> dict[str, bytes]:
    """/robots.txt redirects n times, then answers ``final``."""
    table = {f"/r{i}": http_response(301, b"", {"Location": f"/r{i + 1}"}) for i in range(1, n)}
    table["/robots.txt"] = http_response(301, b"", {"Location": "/r1" if n > 1 else "/r"})
    table[f"/r{n}" if n > 1 else "/r"] = final
    return table


def test_five_redirects_are_followed(serve) -> None:
    srv = serve(routes(hops(5, http_response(200, b"user-agent: *\ndisallow: /\n"))))
    robots, _ = fetch_robots(srv.url + "robots.txt", options(), later())
    assert robots.state == PARSED
    assert robots.decide(srv.url + "x").allowed is False
    assert len(srv.requests) == 6


def test_a_sixth_redirect_makes_the_file_unavailable(serve) -> None:
    srv = serve(routes(hops(6, http_response(200, b"user-agent: *\ndisallow: /\n"))))
    robots, resp = fetch_robots(srv.url + "robots.txt", options(), later())
    assert (robots.state, resp) == (UNAVAILABLE, None)
    assert robots.why == "too many redirects (more than 5)"
    assert robots.decide(srv.url + "x").allowed is True
    assert len(srv.requests) == 6  # the sixth Location is not followed


def test_unreachable_means_nothing_is_allowed(serve) -> None:
    srv = serve(routes({}))
    port = srv.port
    srv.close()
    robots, resp = fetch_robots(f"http://127.0.0.1:{port}/robots.txt", options(), later())
    assert robots.state == UNREACHABLE and resp is None
    assert robots.decide(f"http://127.0.0.1:{port}/x").allowed is False


def test_a_silent_server_takes_only_robots_share(serve) -> None:
    def stall(conn: socket.socket, request: bytes) -> None:
        time.sleep(3)

    srv = serve(stall)
    start = time.monotonic()
    robots, _ = fetch_robots(srv.url + "robots.txt", options(), time.monotonic() + 5)
    assert time.monotonic() - start < 2.5  # a fifth of the 5 s left, not all of it
    assert robots.state == UNREACHABLE


def test_a_body_over_the_fetch_cap_is_unreachable(serve) -> None:
    srv = serve(routes({"/robots.txt": http_response(200, b"#" * 2048)}))
    robots, _ = fetch_robots(srv.url + "robots.txt", options(max_bytes=1024), later())
    assert robots.state == UNREACHABLE
    assert "larger than" in robots.why


def test_a_large_file_is_parsed_to_the_limit(serve) -> None:
    body = b"user-agent: *\ndisallow: /a\n" + b"#" * (MAX_PARSE_BYTES + 100) + b"\ndisallow: /b\n"
    srv = serve(routes({"/robots.txt": http_response(200, body)}))
    robots, _ = fetch_robots(srv.url + "robots.txt", options(), later())
    assert robots.state == PARSED
    assert robots.decide(srv.url + "a").allowed is False
    assert robots.decide(srv.url + "b").allowed is True


def test_a_refused_redirect_is_the_policy_s(serve) -> None:
    srv = serve(
        routes(
            {"/robots.txt": http_response(301, b"", {"Location": "http://127.0.0.9/robots.txt"})}
        )
    )
    with pytest.raises(PolicyRefused) as err:
        fetch_robots(srv.url + "robots.txt", options(), later())
    assert err.value.message.startswith("robots.txt: ")


def test_once_per_host_per_run_across_threads(serve) -> None:
    srv = serve(routes({"/robots.txt": http_response(200, b"user-agent: *\ndisallow: /x\n")}))
    files = RobotsFiles(options())
    results: list[bool] = []

    def ask() -> None:
        results.append(files.get(srv.url + "x/1", later()).decide(srv.url + "x/1").allowed)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [False] * 8
    assert len(srv.requests) == 1


def test_kept_in_the_cache_for_24_hours(serve, tmp_path: Path) -> None:
    srv = serve(routes({"/robots.txt": http_response(200, b"user-agent: *\ndisallow: /x\n")}))
    cache = HttpCache(tmp_path / "cache", 1 << 20)
    (tmp_path / "cache").mkdir(mode=0o700)
    assert RobotsFiles(options(), cache).get(srv.url, later()).state == PARSED
    again = RobotsFiles(options(), cache).get(srv.url, later())  # another run
    assert again.decide(srv.url + "x").allowed is False
    assert len(srv.requests) == 1
    # A day later the entry is not used.
    files = RobotsFiles(options(), cache)
    real = time.time
    try:
        time.time = lambda: real() + 24 * 3600 + 1  # type: ignore[assignment]
        files.get(srv.url, later())
    finally:
        time.time = real  # type: ignore[assignment]
    assert len(srv.requests) == 2


def test_an_unreachable_answer_is_not_kept(serve, tmp_path: Path) -> None:
    srv = serve(routes({"/robots.txt": http_response(503, b"")}))
    cache = HttpCache(tmp_path / "cache", 1 << 20)
    (tmp_path / "cache").mkdir(mode=0o700)
    assert RobotsFiles(options(), cache).get(srv.url, later()).state == UNREACHABLE
    assert RobotsFiles(options(), cache).get(srv.url, later()).state == UNREACHABLE
    assert len(srv.requests) == 2


def test_check_names_the_rule_and_tells_the_crawl_delay(serve) -> None:
    from common.errors import RobotsRefused

    body = b"user-agent: *\ncrawl-delay: 3\ndisallow: /private/\n"
    srv = serve(routes({"/robots.txt": http_response(200, body)}))
    heard: list[tuple[str, float]] = []
    files = RobotsFiles(options(), on_delay=lambda url, s: heard.append((url, s)))
    assert files.check(srv.url + "public", later()).allowed
    with pytest.raises(RobotsRefused) as err:
        files.check(srv.url + "private/x", later())
    assert (err.value.code, err.value.kind) == (77, "robots")
    assert err.value.message == (
        f'robots.txt of 127.0.0.1 disallows {srv.url}private/x: line 3 "disallow: /private/"'
    )
    assert heard == [(srv.url + "public", 3.0)]  # once, when the file was read


def test_check_of_an_unreadable_file(serve) -> None:
    from common.errors import RobotsRefused

    srv = serve(routes({"/robots.txt": http_response(503, b"")}))
    with pytest.raises(RobotsRefused) as err:
        RobotsFiles(options()).check(srv.url + "x", later())
    assert err.value.message == (
        "robots.txt of 127.0.0.1 could not be read (HTTP 503); RFC 9309 says nothing is allowed then"
    )


def test_the_cache_is_opened_on_first_use(serve, tmp_path: Path) -> None:
    srv = serve(routes({"/robots.txt": http_response(200, b"user-agent: *\ndisallow: /x\n")}))
    (tmp_path / "c").mkdir(mode=0o700)
    opened: list[int] = []

    def opener() -> HttpCache:
        opened.append(1)
        return HttpCache(tmp_path / "c", 1 << 20)

    RobotsFiles(options(), open_cache=opener).get(srv.url, later())
    RobotsFiles(options(), open_cache=opener).get(srv.url, later())
    assert len(opened) == 2 and len(srv.requests) == 1

    def broken() -> HttpCache:
        raise OSError("not ours")

    assert RobotsFiles(options(), open_cache=broken).get(srv.url, later()).state == PARSED
