"""The network policy inside the browser, without a browser: the verdict on a URL, the
policy proxy over raw sockets, and the Fetch interception handler with a fake connection.

Forbidden destinations are stand-ins on 127.0.0.2 with a Tripwire listening there; names
resolve through a replaced getaddrinfo, so no test sends a packet off this machine."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from common.policy import Policy
from tests.fixtures.render.server import Tripwire, wait_until
from tests.servers import RawServer, http_response
from wf.render.intercept import CheckedResolver, FetchInterceptor, RefusedLog, url_verdict
from wf.render.proxy import PolicyProxy

ONLY_127_0_0_1 = Policy(allow_hosts=frozenset({"127.0.0.1"}))


@pytest.fixture
def names(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """A resolver for made-up names; a lookup of anything else fails the test."""
    table: dict[str, list[str]] = {
        "good.test": ["127.0.0.1"],
        "evil.test": ["127.0.0.2"],
        "mixed.test": ["127.0.0.1", "127.0.0.2"],
    }
    calls: list[str] = []

    def fake(host: str, port: Any, *args: Any, **kw: Any) -> list[Any]:
        calls.append(host)
        if host == "nowhere.test":
            raise socket.gaierror(-2, "Name or service not known")
        assert host in table, f"unexpected lookup of {host}"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port or 0)) for a in table[host]]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    table["_calls"] = calls  # type: ignore[assignment]
    return table


def verdict(url: str, policy: Policy = ONLY_127_0_0_1) -> tuple[str, str] | None:
    return url_verdict(CheckedResolver(policy), url, deadline=time.monotonic() + 5)


# ---------------------------------------------------------------- verdicts


@pytest.mark.parametrize(
    "url",
    ["data:text/html,hi", "blob:http://127.0.0.1/uuid", "about:blank", "http://127.0.0.1:8080/x"],
)
def test_allowed(url: str) -> None:
    assert verdict(url) is None


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.2/x",
        "https://127.0.0.2:8443/",
        "http://[::ffff:127.0.0.2]/",  # as Chromium spells a mapped address
        "http://[::ffff:7f00:2]/",
        "http://0x7f.2/",
        "http://2130706434/",
        "http://169.254.169.254/latest/meta-data/",  # never connects: a verdict
        "http://metadata.google.internal/computeMetadata/v1/",  # never connects: a verdict
        "http://[::1]/",
        "http://10.0.0.1/",  # never connects: a verdict
    ],
)
def test_refused(url: str) -> None:
    got = verdict(url)
    assert got is not None and got[0] == "BlockedByClient", got
    assert got[1].startswith("refused")


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://127.0.0.1/", "chrome://settings", "javascript:alert(1)"]
)
def test_other_schemes_are_refused(url: str) -> None:
    got = verdict(url)
    assert got is not None and got[0] == "BlockedByClient" and "scheme" in got[1]


def test_names_are_resolved_once_and_every_address_checked(names: dict[str, Any]) -> None:
    resolver = CheckedResolver(ONLY_127_0_0_1.with_hosts("good.test", "mixed.test"))
    resolver_strict = CheckedResolver(ONLY_127_0_0_1)
    assert url_verdict(resolver, "http://good.test/a", deadline=time.monotonic() + 5) is None
    assert url_verdict(resolver, "http://good.test/b", deadline=time.monotonic() + 5) is None
    assert names["_calls"].count("good.test") == 1  # cached
    refused = url_verdict(resolver_strict, "http://evil.test/", deadline=time.monotonic() + 5)
    assert refused is not None and refused[0] == "BlockedByClient"
    # A name that is allowed by name is allowed whatever it resolves to (--allow-host);
    # a name that is not, with one forbidden address among its answers, is refused.
    assert url_verdict(resolver, "http://mixed.test/", deadline=time.monotonic() + 5) is None
    mixed = url_verdict(resolver_strict, "http://mixed.test/", deadline=time.monotonic() + 5)
    assert mixed is not None and mixed[0] == "BlockedByClient"
    missing = url_verdict(resolver, "http://nowhere.test/", deadline=time.monotonic() + 5)
    assert missing is not None and missing[0] == "NameNotResolved"


# ---------------------------------------------------------------- the proxy


@pytest.fixture
def proxy() -> Iterator[tuple[PolicyProxy, RefusedLog]]:
    blocked = RefusedLog()
    p = PolicyProxy(CheckedResolver(ONLY_127_0_0_1), blocked, upstream_for=lambda url: None)
    yield p, blocked
    p.close()


def talk(port: int, data: bytes, *, until: bytes | None = None, timeout: float = 5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        return read_all(s, until=until)


def read_all(s: socket.socket, *, until: bytes | None = None) -> bytes:
    got = b""
    while True:
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        got += chunk
        if until is not None and until in got:
            break
    return got


def test_connect_to_an_allowed_host_tunnels(proxy: tuple[PolicyProxy, RefusedLog]) -> None:
    p, blocked = proxy
    with RawServer(lambda c, r: c.sendall(http_response(200, b"through the tunnel"))) as server:
        with socket.create_connection(("127.0.0.1", p.port), timeout=5) as s:
            s.sendall(
                f"CONNECT 127.0.0.1:{server.port} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
            )
            assert read_all(s, until=b"\r\n\r\n").startswith(b"HTTP/1.1 200")
            s.sendall(b"GET /inside HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_all(s).endswith(b"through the tunnel")
        assert server.requests[0].startswith(b"GET /inside HTTP/1.1")
    assert blocked.items() == []


@pytest.mark.parametrize(
    "target", ["127.0.0.2:{port}", "[::ffff:127.0.0.2]:{port}", "0x7f.0.0.2:{port}"]
)
def test_connect_to_a_forbidden_host_is_refused(
    proxy: tuple[PolicyProxy, RefusedLog], tripwire: Tripwire, target: str
) -> None:
    p, blocked = proxy
    authority = target.format(port=tripwire.port)
    answer = talk(p.port, f"CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 403")
    assert b"loopback address" in answer
    assert len(blocked.items()) == 1 and "at the proxy" in blocked.items()[0]
    time.sleep(0.2)
    assert tripwire.hits == []


def test_an_absolute_request_is_forwarded_once_and_closed(
    proxy: tuple[PolicyProxy, RefusedLog], tripwire: Tripwire
) -> None:
    p, _ = proxy

    def answer(conn: socket.socket, request: bytes) -> None:
        conn.sendall(
            http_response(200, b"hello", {"Connection": "keep-alive", "Keep-Alive": "timeout=5"})
        )

    with RawServer(answer) as server:
        first = f"GET http://127.0.0.1:{server.port}/path?q=1 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nProxy-Connection: keep-alive\r\n\r\n"
        # A second request on the same connection, to a forbidden host: never forwarded.
        second = f"GET http://127.0.0.2:{tripwire.port}/ HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n"
        got = talk(p.port, (first + second).encode())
        assert wait_until(lambda: server.requests)
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert b"Connection: close" in head and b"keep-alive" not in head.lower()
    assert body == b"hello"
    forwarded = server.requests[0]
    assert forwarded.startswith(b"GET /path?q=1 HTTP/1.1\r\n")
    assert b"Connection: close" in forwarded and b"proxy-connection" not in forwarded.lower()
    assert len(server.requests) == 1
    time.sleep(0.2)
    assert tripwire.hits == []


def test_a_request_body_is_forwarded_exactly(proxy: tuple[PolicyProxy, RefusedLog]) -> None:
    p, _ = proxy
    with RawServer(lambda c, r: c.sendall(http_response(204))) as server:
        request = (
            f"POST http://127.0.0.1:{server.port}/form HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"
            "abcdeGET /smuggled HTTP/1.1\r\n\r\n"
        )
        assert talk(p.port, request.encode()).startswith(b"HTTP/1.1 204")
    assert server.requests[0].endswith(b"\r\n\r\nabcde")
    assert b"smuggled" not in b"".join(server.requests)


def test_interim_answers_are_dropped_and_the_final_one_closes(
    proxy: tuple[PolicyProxy, RefusedLog],
) -> None:
    p, _ = proxy

    def answer(conn: socket.socket, request: bytes) -> None:
        conn.sendall(b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")
        conn.sendall(http_response(200, b"final", {"Connection": "keep-alive"}))

    with RawServer(answer) as server:
        got = talk(
            p.port, f"GET http://127.0.0.1:{server.port}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        )
    # Issue 10: interim answers are skipped (at most 10), as in common.http.
    final = got
    assert (
        b"Early Hints" not in got
        and final.startswith(b"HTTP/1.1 200")
        and b"Connection: close" in final
        and final.endswith(b"final")
    )


@pytest.mark.parametrize(
    ("request_head", "status"),
    [
        ("GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
        ("GET https://127.0.0.1/ HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
        ("BROKEN\r\n\r\n", b"400"),
        ("CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n", b"400"),
        (
            "POST http://127.0.0.1:{port}/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            b"501",
        ),
        ("GET http://127.0.0.2:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n", b"403"),
    ],
)
def test_what_the_proxy_refuses(
    proxy: tuple[PolicyProxy, RefusedLog], tripwire: Tripwire, request_head: str, status: bytes
) -> None:
    p, _ = proxy
    with RawServer(lambda c, r: c.sendall(http_response(200))) as server:
        port = tripwire.port if "127.0.0.2" in request_head else server.port
        got = talk(p.port, request_head.format(port=port).encode())
        assert got.split(b" ", 2)[1] == status
        assert server.requests == []
    time.sleep(0.1)
    assert tripwire.hits == []


def test_an_upstream_proxy_gets_only_allowed_destinations(tripwire: Tripwire) -> None:
    heads: list[bytes] = []

    def upstream_proxy(conn: socket.socket, request: bytes) -> None:
        heads.append(request)
        conn.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        conn.sendall(conn.recv(100))  # echo what comes through the tunnel

    with RawServer(upstream_proxy) as upstream:
        blocked = RefusedLog()
        p = PolicyProxy(
            CheckedResolver(ONLY_127_0_0_1),
            blocked,
            upstream_for=lambda url: f"http://127.0.0.1:{upstream.port}",
        )
        try:
            with socket.create_connection(("127.0.0.1", p.port), timeout=5) as s:
                s.sendall(b"CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n")
                assert read_all(s, until=b"\r\n\r\n").startswith(b"HTTP/1.1 200")
                s.sendall(b"ping")
                assert read_all(s, until=b"ping").endswith(b"ping")
            refused = talk(p.port, f"CONNECT 127.0.0.2:{tripwire.port} HTTP/1.1\r\n\r\n".encode())
        finally:
            p.close()
    assert refused.startswith(b"HTTP/1.1 403")
    assert len(heads) == 1 and heads[0].startswith(b"CONNECT 127.0.0.1:443 ")
    assert tripwire.hits == []


def test_closing_the_proxy_ends_its_tunnels(proxy: tuple[PolicyProxy, RefusedLog]) -> None:
    p, _ = proxy
    release = threading.Event()

    def slow(conn: socket.socket, request: bytes) -> None:
        release.wait(10)

    with RawServer(slow) as server, socket.create_connection(("127.0.0.1", p.port), timeout=5) as s:
        s.sendall(f"CONNECT 127.0.0.1:{server.port} HTTP/1.1\r\n\r\n".encode())
        assert read_all(s, until=b"\r\n\r\n").startswith(b"HTTP/1.1 200")
        s.sendall(b"GET / HTTP/1.1\r\n\r\n")
        p.close()
        assert read_all(s) == b""  # the tunnel closed instead of waiting for the server
        release.set()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", p.port), timeout=1).close()


def test_close_returns_once_the_proxy_s_threads_have_ended() -> None:
    # What a context's proxy started must not outlive the render that closed it.
    before = set(threading.enumerate())
    p = PolicyProxy(CheckedResolver(ONLY_127_0_0_1), RefusedLog(), upstream_for=lambda url: None)
    release = threading.Event()
    with (
        RawServer(lambda conn, request: release.wait(10)) as server,
        socket.create_connection(("127.0.0.1", p.port), timeout=5) as tunnel,
        socket.create_connection(("127.0.0.1", p.port), timeout=5) as half,
    ):
        tunnel.sendall(f"CONNECT 127.0.0.1:{server.port} HTTP/1.1\r\n\r\n".encode())
        assert read_all(tunnel, until=b"\r\n\r\n").startswith(b"HTTP/1.1 200")
        half.sendall(b"GET http://127.0.0.1/ HTTP/1.1\r\n")  # a head that never ends

        def ours() -> list[threading.Thread]:
            return [t for t in set(threading.enumerate()) - before if t.name.startswith("wf-proxy")]

        assert wait_until(lambda: len(ours()) == 3)  # the accept loop and two connections
        p.close()
        assert ours() == []
        release.set()


# ---------------------------------------------------------------- Fetch interception


class FakeBrowser:
    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def on(self, event: str, handler: Any) -> None:
        self.handlers[event] = handler

    def call(self, method: str, *, timeout: float, **params: Any) -> dict[str, Any]:
        self.calls.append((method, params))
        return {}

    def pause(self, request_id: str, url: str, frame: str = "") -> None:
        self.handlers["Fetch.requestPaused"](
            requestId=request_id,
            request={"url": url, "method": "GET"},
            frameId=frame,
            resourceType="Image",
        )


def test_fetch_interception_continues_or_fails_each_request() -> None:
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    interceptor.enable(timeout=5)
    assert browser.calls[0][0] == "Fetch.enable"
    assert browser.calls[0][1]["patterns"] == [{"urlPattern": "*", "requestStage": "Request"}]
    page_a, page_b = RefusedLog(), RefusedLog()
    page_a.frames.add("A")
    page_b.frames.add("B")
    interceptor.watch(page_a)
    interceptor.watch(page_b)
    browser.pause("1", "http://127.0.0.1/ok", "A")
    browser.pause("2", "http://127.0.0.2/img.png", "A")
    browser.pause("3", "http://[::ffff:7f00:2]/worker", "")  # a worker: no frame of ours
    browser.pause("4", "file:///etc/passwd", "B")
    assert wait_until(lambda: len(browser.calls) == 5)
    decided = {
        params["requestId"]: (method, params.get("errorReason"))
        for method, params in browser.calls[1:]
    }
    assert decided == {
        "1": ("Fetch.continueRequest", None),
        "2": ("Fetch.failRequest", "BlockedByClient"),
        "3": ("Fetch.failRequest", "BlockedByClient"),
        "4": ("Fetch.failRequest", "BlockedByClient"),
    }
    assert [b.split(" ")[0] for b in page_a.items()] == [
        "http://127.0.0.2/img.png",
        "http://[::ffff:7f00:2]/worker",
    ]
    assert [b.split(" ")[0] for b in page_b.items()] == [
        "http://[::ffff:7f00:2]/worker",
        "file:///etc/passwd",
    ]
    interceptor.unwatch(page_a)
    interceptor.close()
    browser.pause("5", "http://127.0.0.2/late")  # after close: ignored, no exception


def test_a_failing_check_fails_the_request_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    import wf.render.intercept as intercept_mod

    def broken(*a: Any, **k: Any) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(intercept_mod, "url_verdict", broken)
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    browser.pause("9", "http://127.0.0.1/")
    assert wait_until(lambda: len(browser.calls) == 1)
    assert browser.calls[0] == ("Fetch.failRequest", {"requestId": "9", "errorReason": "Failed"})
    interceptor.close()


def test_blocked_entries_are_unique_and_capped() -> None:
    b = RefusedLog()
    for i in range(80):
        b.add(f"http://127.0.0.2/{i}")
        b.add(f"http://127.0.0.2/{i}")
    items = b.items()
    assert len(items) == 51 and items[-1] == "... and 30 more"


# ---------------------------------------------------------------- issue 16: mutation survivors


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http:///x", ("AddressUnreachable", "refused http:///x: no host")),
        ("http://[::1/", ("AddressUnreachable", "refused http://[::1/: invalid URL")),
        (
            "relative/path",
            ("BlockedByClient", "refused relative/path: scheme '(none)' is not http or https"),
        ),
        (
            "ftp://127.0.0.1/" + "f" * 300,
            (
                "BlockedByClient",
                f"refused {('ftp://127.0.0.1/' + 'f' * 300)[:200]}: scheme 'ftp' is not http or https",
            ),
        ),
        (
            "http:///" + "x" * 300,
            ("AddressUnreachable", f"refused {('http:///' + 'x' * 300)[:200]}: no host"),
        ),
        (
            "http://[::1/" + "x" * 300,
            ("AddressUnreachable", f"refused {('http://[::1/' + 'x' * 300)[:200]}: invalid URL"),
        ),
    ],
)
def test_verdicts_exactly(url: str, expected: tuple[str, str]) -> None:
    assert verdict(url) == expected


class _Lookups:
    """getaddrinfo's stand-in: records (host, port), answers 127.0.0.1 (or 127.0.0.2 for
    evil.test), waits for ``release`` first when it is given."""

    def __init__(self, release: threading.Event | None = None) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.release = release

    def __call__(self, host: str, port: Any, *args: Any, **kw: Any) -> list[Any]:
        self.calls.append((host, port))
        if self.release is not None:
            self.release.wait(5)
        if host == "nowhere.test":
            raise socket.gaierror(-2, "Name or service not known")
        addr = "127.0.0.2" if host == "evil.test" else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (addr, port or 0))]


def test_the_port_of_the_url_reaches_the_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    lookups = _Lookups()
    monkeypatch.setattr(socket, "getaddrinfo", lookups)
    resolver = CheckedResolver(ONLY_127_0_0_1.with_hosts("a.test", "b.test"))
    assert url_verdict(resolver, "http://a.test:8080/", deadline=time.monotonic() + 5) is None
    assert url_verdict(resolver, "https://b.test/", deadline=time.monotonic() + 5) is None
    assert lookups.calls == [("a.test", 8080), ("b.test", 443)]


def test_a_slow_lookup_times_out_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", _Lookups(release))
    resolver = CheckedResolver(ONLY_127_0_0_1.with_hosts("slow.test"))
    try:
        got = url_verdict(resolver, "http://slow.test/", deadline=time.monotonic() + 0.2)
        assert got == ("TimedOut", "timed out resolving slow.test")
    finally:
        release.set()


def test_answers_and_refusals_are_cached_for_their_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    import wf.render.intercept as intercept_mod

    clock = [100.0]
    monkeypatch.setattr(intercept_mod, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    lookups = _Lookups()
    monkeypatch.setattr(socket, "getaddrinfo", lookups)
    resolver = CheckedResolver(ONLY_127_0_0_1.with_hosts("good.test"))
    ttl = CheckedResolver.TTL
    resolver.addresses("good.test", 80, deadline=time.monotonic() + 5)
    clock[0] = 100.0 + ttl - 0.001
    resolver.addresses("good.test", 80, deadline=time.monotonic() + 5)
    assert len(lookups.calls) == 1  # still fresh
    clock[0] = 100.0 + ttl
    resolver.addresses("good.test", 80, deadline=time.monotonic() + 5)
    assert len(lookups.calls) == 2  # expired at exactly its TTL
    # A refusal and a failed lookup are remembered too.
    from common.errors import DNSError, PolicyRefused

    for name, error in (("evil.test", PolicyRefused), ("nowhere.test", DNSError)):
        before = len(lookups.calls)
        with pytest.raises(error):
            resolver.addresses(name, 80, deadline=time.monotonic() + 5)
        clock[0] += ttl / 2
        with pytest.raises(error):
            resolver.addresses(name, 80, deadline=time.monotonic() + 5)
        assert len(lookups.calls) == before + 1


class TimedBrowser(FakeBrowser):
    def __init__(self) -> None:
        super().__init__()
        self.timeouts: list[tuple[str, float]] = []

    def call(self, method: str, *, timeout: float, **params: Any) -> dict[str, Any]:
        self.timeouts.append((method, timeout))
        return super().call(method, timeout=timeout, **params)


def test_interception_calls_carry_their_timeouts_and_long_urls_are_cut() -> None:
    browser = TimedBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    interceptor.enable(timeout=7.5)
    log = RefusedLog()
    interceptor.watch(log)
    long_url = "http://127.0.0.2/" + "p" * 400
    browser.pause("1", "http://127.0.0.1/ok")
    browser.pause("2", long_url)
    browser.pause("3", "")
    try:
        assert wait_until(lambda: len(browser.calls) == 4)
    finally:
        interceptor.close()
    assert sorted(browser.timeouts) == [
        ("Fetch.continueRequest", 5.0),
        ("Fetch.enable", 7.5),
        ("Fetch.failRequest", 5.0),
        ("Fetch.failRequest", 5.0),
    ]
    reasons = {p["requestId"]: p.get("errorReason") for _m, p in browser.calls[1:]}
    assert reasons == {"1": None, "2": "BlockedByClient", "3": "BlockedByClient"}
    items = sorted(log.items())
    assert items[0] == " (refused : scheme '(none)' is not http or https)"
    assert items[1].startswith(long_url[:300] + " (refused 127.0.0.2: loopback address")


def test_a_paused_request_without_a_url_is_refused_not_failed() -> None:
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    browser.handlers["Fetch.requestPaused"](requestId="7", request={})
    try:
        assert wait_until(lambda: len(browser.calls) == 1)
    finally:
        interceptor.close()
    assert browser.calls[0][1]["errorReason"] == "BlockedByClient"


def test_unwatch_stops_reports_and_forgives_a_log_never_watched() -> None:
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    log = RefusedLog()
    interceptor.watch(log)
    interceptor.unwatch(log)
    interceptor.unwatch(RefusedLog())
    browser.pause("1", "http://127.0.0.2/x")
    try:
        assert wait_until(lambda: len(browser.calls) == 1)
    finally:
        interceptor.close()
    assert log.items() == []


def test_four_workers_decide_and_close_neither_waits_nor_runs_the_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import wf.render.intercept as intercept_mod

    release = threading.Event()
    running: list[str] = []

    def slow(*a: Any, **k: Any) -> None:
        running.append(threading.current_thread().name)
        release.wait(5)

    monkeypatch.setattr(intercept_mod, "url_verdict", slow)
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    try:
        for i in range(7):
            browser.pause(str(i), "http://127.0.0.1/")
        assert wait_until(lambda: len(running) == 4)
        time.sleep(0.3)
        assert len(running) == 4  # four at a time, the rest queued
        assert all(name.startswith("wf-intercept_") for name in running)
        closer = threading.Thread(target=interceptor.close)
        closer.start()
        closer.join(2)
        assert not closer.is_alive()  # close does not wait for the running checks
    finally:
        release.set()
    assert wait_until(lambda: len(browser.calls) == 4)
    time.sleep(0.3)
    assert len(running) == 4  # the queued three were cancelled


def test_a_paused_request_without_a_url_is_reported_as_such() -> None:
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1))
    log = RefusedLog()
    interceptor.watch(log)
    browser.handlers["Fetch.requestPaused"](requestId="8", request={}, frameId="F")
    try:
        assert wait_until(lambda: len(browser.calls) == 1)
    finally:
        interceptor.close()
    assert log.items() == [" (refused : scheme '(none)' is not http or https)"]


def test_each_check_has_the_resolve_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    import wf.render.intercept as intercept_mod

    monkeypatch.setattr(intercept_mod, "RESOLVE_TIMEOUT", 1.0)
    release = threading.Event()
    slow = _Lookups(release)
    monkeypatch.setattr(socket, "getaddrinfo", slow)
    browser = FakeBrowser()
    resolver = CheckedResolver(ONLY_127_0_0_1.with_hosts("slow.test"))
    interceptor = FetchInterceptor(browser, resolver)
    try:
        browser.pause("1", "http://slow.test/")
        assert wait_until(lambda: len(browser.calls) == 1)
    finally:
        release.set()
        interceptor.close()
    assert browser.calls[0][1]["errorReason"] == "TimedOut"
    # A lookup that answers in 50 ms is within it.
    quick = threading.Event()
    threading.Timer(0.05, quick.set).start()
    monkeypatch.setattr(socket, "getaddrinfo", _Lookups(quick))
    browser = FakeBrowser()
    interceptor = FetchInterceptor(browser, CheckedResolver(ONLY_127_0_0_1.with_hosts("a.test")))
    try:
        browser.pause("2", "http://a.test/")
        assert wait_until(lambda: len(browser.calls) == 1)
    finally:
        interceptor.close()
    assert browser.calls[0][0] == "Fetch.continueRequest"


@pytest.mark.parametrize("closed", ["client", "upstream"])
def test_a_side_closed_before_the_splice_ends_it_quietly(closed: str) -> None:
    # The proxy's close() shuts every connection it tracks from another thread; one shut
    # between the upstream's connect and the splice reached the selector as descriptor
    # -1, and its ValueError escaped the connection's thread as a traceback on stderr.
    from wf.render.proxy import _splice

    client, ours = socket.socketpair()
    upstream, theirs = socket.socketpair()
    try:
        (client if closed == "client" else upstream).close()
        assert _splice(client, upstream) is None
    finally:
        for s in (client, ours, upstream, theirs):
            s.close()
