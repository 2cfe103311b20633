"""Shared fixtures. Every server a test starts listens on 127.0.0.0/8; no test sends a
packet anywhere else."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import SCRUBBED, Result, invoke
from tests.servers import RawServer


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No proxies or policy flags from the developer's shell; private dirs per test."""
    for name in SCRUBBED:
        monkeypatch.delenv(name, raising=False)
    for name, sub in (
        ("WF_SCRATCH_DIR", "scratch"),
        ("WF_CACHE_DIR", "cache"),
        ("WF_STATE_DIR", "state"),
        ("WF_RUNTIME_DIR", "runtime"),
        ("WF_CONFIG_DIR", "config"),
        ("WS_CONFIG_DIR", "wsconfig"),
        ("WS_STATE_DIR", "wsstate"),
        ("WS_CACHE_DIR", "wscache"),
    ):
        monkeypatch.setenv(name, str(tmp_path / sub))
    # ws's result cache would answer a test's second search from its first: the tests of
    # the cache turn it on.
    monkeypatch.setenv("WS_CACHE_TTL", "0")


def _loopback(host: str) -> bool:
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    # ::ffff:127.0.0.1 is IPv4 loopback reached from an IPv6 socket (Python 3.11 calls it
    # not loopback).
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, tuple[str, ...]]]:
    """Every in-process test: connects only to loopback, and lookups only for numeric
    hosts, localhost and the names a test maps in the returned table (name -> loopback
    addresses). Anything else fails the test before a packet is sent, even when pytest
    runs outside the loopback-only namespace."""
    table: dict[str, tuple[str, ...]] = {}
    stray: list[str] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(address: object) -> None:
        if isinstance(address, tuple) and not _loopback(str(address[0])):
            stray.append(f"connect to {address!r}")
            raise AssertionError(f"test tried to connect to {address!r}")

    def connect(self: socket.socket, address: object) -> None:
        check(address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: object) -> int:
        check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: object, port: object, *args: object, **kw: object) -> list:  # type: ignore[type-arg]
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name in table:
            family = socket.AF_INET6 if ":" in table[name][0] else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (a, int(port or 0))) for a in table[name]]
        try:
            ipaddress.ip_address(name.split("%", 1)[0])
        except ValueError:
            # A name under .invalid (RFC 6761) never resolves anywhere: answering "not
            # found" is the truth, so a test may ask on purpose.
            if name != "localhost" and not name.rstrip(".").endswith(".invalid"):
                stray.append(f"lookup of {name!r}")
                raise socket.gaierror(
                    socket.EAI_NONAME, f"test guard: no lookup of {name!r}"
                ) from None
        return real_getaddrinfo(host, port, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield table
    assert not stray, f"the code under test tried to leave loopback: {stray}"


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    return tmp_path / "scratch"


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    return ("127.0.0.1", 0)


@pytest.fixture
def wf() -> Callable[..., Result]:
    return lambda *args, **kw: invoke("wf", [str(a) for a in args], **kw)


@pytest.fixture
def serve() -> Iterator[Callable[..., RawServer]]:
    """Start RawServers (or a subclass, with cls=) that close when the test ends."""
    started: list[RawServer] = []

    def start(handler, host: str = "127.0.0.1", *, cls=RawServer, **kw) -> RawServer:  # type: ignore[no-untyped-def]
        srv = cls(handler, host, **kw)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.close()


@pytest.fixture
def tripwire():  # type: ignore[no-untyped-def]
    """A server on 127.0.0.2 (forbidden in the render tests) that records any request.
    Whatever the test asserts, it fails if anything reached the tripwire, unless the test
    set ``expect_hits`` (a control that allows 127.0.0.2)."""
    from tests.fixtures.render.server import Tripwire

    t = Tripwire()
    yield t
    t.close()
    if not t.expect_hits:
        assert t.hits == [], f"something reached the forbidden address: {t.hits}"


@pytest.fixture
def server(tripwire):  # type: ignore[no-untyped-def]
    """The render fixture pages on 127.0.0.1, pointing their forbidden vectors at tripwire."""
    from tests.fixtures.render.server import FixtureServer

    s = FixtureServer(forbidden=tripwire.origin)
    yield s
    s.close()
