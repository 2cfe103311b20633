"""wf/render/peer.py: the owner of the other end of a loopback connection, read from
/proc/net/tcp and tcp6 (lines as a little-endian Linux prints them, and live sockets)."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.helpers import NOBODY, as_user
from wf.render import peer
from wf.render.peer import Entry, parse_line, peer_uid

LINUX = pytest.mark.skipif(
    not os.path.exists("/proc/net/tcp"), reason="needs Linux's /proc/net/tcp"
)
ROOT_ONLY = pytest.mark.skipif(
    os.geteuid() != 0, reason="a socket of another uid needs root (CI runs as root)"
)

# Lines of a real x86-64 kernel (6.x): a listener, an established IPv4 connection, the
# IPv6 loopback, a v4-mapped client in tcp6, a socket waiting in an accept queue (no
# inode yet) and a connection in TIME_WAIT (uid 0, no inode).
V4_LISTEN = (
    "   0: 0100007F:D607 00000000:0000 0A 00000000:00000000 00:00000000 00000000"
    "     0        0 401151 1 00000000e7e4ae01 100 0 0 10 0"
)
V4_ESTABLISHED = (
    "   1: 0100007F:9C3A 0200007F:D607 01 00000000:00000000 00:00000000 00000000"
    "  1000        0 401153 1 00000000dfd2c825 20 0 0 10 -1"
)
V6_LOOPBACK = (
    "   2: 00000000000000000000000001000000:92EE 00000000000000000000000001000000:9861 01"
    " 00000000:00000000 00:00000000 00000000 65534        0 401150 2 0000000026776de4 20 0 0 10 -1"
)
V6_MAPPED = (
    "   1: 0000000000000000FFFF00000100007F:9C3A 0000000000000000FFFF00000100007F:D607 01"
    " 00000000:00000000 00:00000000 00000000     0        0 401152 2 00000000eae3c41f 20 0 0 10 -1"
)
V6_GLOBAL = (
    "   4: B80D0120000000000000000001000000:0050 00000000000000000000000001000000:C001 01"
    " 00000000:00000000 00:00000000 00000000    33        0 5 2 0000000026776de4 20 0 0 10 -1"
)
IN_ACCEPT_QUEUE = (
    "   3: 00000000000000000000000001000000:9861 00000000000000000000000001000000:92EE 01"
    " 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000075d0f40e 20 0 0 10 -1"
)
TIME_WAIT = (
    "   5: 0100007F:9C3B 0100007F:D607 06 00000000:00000000 03:00001770 00000000"
    "     0        0 0 3 00000000b2c1d0e9"
)
HEADER = (
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
    "   uid  timeout inode"
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (V4_LISTEN, Entry(("127.0.0.1", 0xD607), ("0.0.0.0", 0), 0, 401151)),
        (V4_ESTABLISHED, Entry(("127.0.0.1", 0x9C3A), ("127.0.0.2", 0xD607), 1000, 401153)),
        (V6_LOOPBACK, Entry(("::1", 0x92EE), ("::1", 0x9861), NOBODY, 401150)),
        # A v4-mapped address is the IPv4 address: an IPv6 client of an IPv4 listener.
        (V6_MAPPED, Entry(("127.0.0.1", 0x9C3A), ("127.0.0.1", 0xD607), 0, 401152)),
        # Each 32-bit word is byte-swapped on its own, not the address as a whole.
        (V6_GLOBAL, Entry(("2001:db8::1", 80), ("::1", 0xC001), 33, 5)),
        (IN_ACCEPT_QUEUE, Entry(("::1", 0x9861), ("::1", 0x92EE), 0, 0)),
        (TIME_WAIT, Entry(("127.0.0.1", 0x9C3B), ("127.0.0.1", 0xD607), 0, 0)),
    ],
)
def test_lines_of_a_little_endian_kernel(line: str, expected: Entry) -> None:
    assert parse_line(line, "little") == expected


def test_a_big_endian_kernel_prints_the_bytes_in_order() -> None:
    line = V4_ESTABLISHED.replace("0100007F:", "7F000001:").replace("0200007F:", "7F000002:")
    entry = parse_line(line, "big")
    assert entry is not None
    assert entry.local == ("127.0.0.1", 0x9C3A) and entry.remote == ("127.0.0.2", 0xD607)


@pytest.mark.parametrize(
    "line",
    [
        HEADER,
        "",
        "   1: 0100007F:9C3A",  # cut short
        V4_ESTABLISHED.replace("0100007F:9C3A", "0100007G:9C3A"),  # not hex
        V4_ESTABLISHED.replace("0100007F:9C3A", "100007F:9C3A"),  # 7 digits
        V4_ESTABLISHED.replace("0100007F:9C3A", "0100007F9C3A"),  # no port separator
        V4_ESTABLISHED.replace("0100007F:9C3A", "0100007F:9C3A0"),  # 5-digit port
        V4_ESTABLISHED.replace("0100007F:9C3A", "0100007F:0x3A"),  # int() would take it
        V4_ESTABLISHED.replace("0100007F:9C3A", "0x00007F:9C3A"),
        V4_ESTABLISHED.replace("0100007F:9C3A", "0100_07F:9C3A"),
        V4_ESTABLISHED.replace("  1000 ", " -1000 "),
        V4_ESTABLISHED.replace("  1000 ", "  10x0 "),
        V4_ESTABLISHED.replace("401153", "inode"),
        V4_ESTABLISHED.replace("   1:", "   x:"),
    ],
)
def test_what_is_not_a_socket_line(line: str) -> None:
    assert parse_line(line, "little") is None


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    yield s
    s.close()


@LINUX
def test_our_own_connection_is_ours(listener: socket.socket) -> None:
    with socket.create_connection(listener.getsockname(), timeout=5):
        conn, _ = listener.accept()
        with conn:
            assert peer_uid(conn) == os.geteuid()
            assert peer.from_us(conn)


@LINUX
def test_an_ipv6_client_of_an_ipv4_listener_is_found_in_tcp6(listener: socket.socket) -> None:
    if not socket.has_ipv6 or not os.path.exists("/proc/net/tcp6"):
        pytest.skip("no IPv6 in this kernel")
    port = listener.getsockname()[1]
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as c:
        c.connect(("::ffff:127.0.0.1", port))
        conn, _ = listener.accept()
        with conn:
            assert peer_uid(conn, ("/proc/net/tcp",)) is None  # it is not in the IPv4 table
            assert peer_uid(conn) == os.geteuid()


@LINUX
@ROOT_ONLY
def test_a_socket_of_another_user_is_theirs(listener: socket.socket) -> None:
    address = listener.getsockname()

    def connect_and_wait() -> bytes:
        with socket.create_connection(address, timeout=10) as c:
            return c.recv(1)  # until the test has looked and closed its end

    with ThreadPoolExecutor(1) as pool:
        child = pool.submit(as_user, NOBODY, connect_and_wait)
        listener.settimeout(10)
        conn, _ = listener.accept()
        with conn:
            uid, ours = peer_uid(conn), peer.from_us(conn)
        assert child.result(timeout=10) == b""
    assert uid == NOBODY
    assert not ours


@LINUX
def test_a_closed_peer_is_not_believed(listener: socket.socket) -> None:
    """Once the peer has closed, its socket is listed with uid 0 and no inode (TIME_WAIT,
    FIN_WAIT): as root that would read as ours, whoever it was."""
    c = socket.create_connection(listener.getsockname(), timeout=5)
    conn, _ = listener.accept()
    with conn:
        c.close()
        time.sleep(0.05)
        assert peer_uid(conn) is None
        assert not peer.from_us(conn)


@LINUX
def test_a_connection_not_in_the_tables_is_nobodys(
    listener: socket.socket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "tcp"
    empty.write_text(HEADER + "\n" + V4_LISTEN + "\n")
    with socket.create_connection(listener.getsockname(), timeout=5):
        conn, _ = listener.accept()
        with conn:
            assert peer_uid(conn) == os.geteuid()  # the control: it is in the real ones
            assert peer_uid(conn, (str(empty), str(tmp_path / "missing"))) is None
            monkeypatch.setattr(peer, "TABLES", (str(empty),))
            assert not peer.from_us(conn)
