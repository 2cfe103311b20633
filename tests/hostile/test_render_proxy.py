"""Another local user at the render policy proxy (issue 23).

The proxy listens on 127.0.0.1, where every local user can reach it, and its port is
listed in /proc/net/tcp. Played by uid 65534 in a forked child, that user must get
nothing from it: not a tunnel, not a forwarded request, not our upstream proxy with our
credentials added, not even an error answer. Our own connections, made beside theirs
to the same proxy, are served. Dropping to another uid needs root, as in CI.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator

import pytest

from common.policy import Policy
from tests.fixtures.render.server import Tripwire
from tests.helpers import NOBODY, as_user
from tests.servers import RawServer, http_response
from wf.render.intercept import CheckedResolver, RefusedLog
from wf.render.proxy import PolicyProxy

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists("/proc/net/tcp"),
    reason="playing another local user needs root and Linux (CI runs as root)",
)


def exchange(port: int, request: bytes) -> bytes:
    """Send ``request`` to the proxy and read until it closes (or 5 s pass)."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        while True:
            try:
                chunk = s.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            got += chunk
    return got


@pytest.fixture
def target() -> Iterator[RawServer]:
    with RawServer(lambda c, r: c.sendall(http_response(200, b"served"))) as server:
        yield server


@pytest.fixture
def proxy() -> Iterator[tuple[PolicyProxy, RefusedLog]]:
    blocked = RefusedLog()
    p = PolicyProxy(
        CheckedResolver(Policy(allow_hosts=frozenset({"127.0.0.1"}))),
        blocked,
        upstream_for=lambda url: None,
    )
    yield p, blocked
    p.close()


def requests(server_port: int, tripwire_port: int) -> list[bytes]:
    return [
        f"CONNECT 127.0.0.1:{server_port} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
        f"GET http://127.0.0.1:{server_port}/x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(),
        # Not even the policy's refusal is answered.
        f"GET http://127.0.0.2:{tripwire_port}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
        b"BROKEN\r\n\r\n",
    ]


@pytest.mark.parametrize("which", range(4))
def test_another_user_gets_nothing_and_we_are_served(
    proxy: tuple[PolicyProxy, RefusedLog], target: RawServer, tripwire: Tripwire, which: int
) -> None:
    p, blocked = proxy
    request = requests(target.port, tripwire.port)[which]
    theirs = as_user(NOBODY, lambda: exchange(p.port, request))
    assert theirs == b""
    time.sleep(0.1)
    assert target.requests == [] and target.connections == 0
    assert blocked.items() == []
    # The control: the same request from us, to the same proxy, is answered.
    ours = exchange(p.port, request)
    assert ours.startswith(b"HTTP/1.1 "), ours
    if which < 2:
        assert ours.endswith(b"served") and len(target.requests) == 1


def test_our_upstream_credentials_are_not_lent(tripwire: Tripwire) -> None:
    heads: list[bytes] = []

    def upstream_proxy(conn: socket.socket, request: bytes) -> None:
        heads.append(request)
        conn.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")

    with RawServer(upstream_proxy) as upstream:
        p = PolicyProxy(
            CheckedResolver(Policy(allow_hosts=frozenset({"127.0.0.1"}))),
            RefusedLog(),
            upstream_for=lambda url: f"http://wf:s3cret@127.0.0.1:{upstream.port}",
        )
        try:
            request = b"CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n"
            theirs = as_user(NOBODY, lambda: exchange(p.port, request))
            time.sleep(0.1)
            assert theirs == b"" and heads == [] and upstream.connections == 0
            ours = exchange(p.port, request)
        finally:
            p.close()
    assert ours.startswith(b"HTTP/1.1 200")
    assert len(heads) == 1 and b"Proxy-Authorization: Basic d2Y6czNjcmV0" in heads[0]


def test_a_connection_nobody_can_be_found_for_is_refused(
    proxy: tuple[PolicyProxy, RefusedLog], target: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fail closed: when neither sock_diag nor the tables know the peer, not even our own
    connection is served."""
    from wf.render import peer

    p, _ = proxy
    monkeypatch.setattr(peer, "NETLINK_SOCK_DIAG", 31)  # a protocol the kernel lacks
    monkeypatch.setattr(peer, "TABLES", ("/proc/nonexistent/tcp",))
    request = f"GET http://127.0.0.1:{target.port}/x HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    assert exchange(p.port, request) == b""
    assert target.connections == 0
