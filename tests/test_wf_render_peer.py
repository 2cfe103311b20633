"""wf/render/peer.py: the owner of the other end of a loopback connection, read from
/proc/net/tcp and tcp6 (lines as a little-endian Linux prints them, and live sockets)."""

from __future__ import annotations

import os
import socket
import struct
import time
from collections.abc import Callable, Iterator
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


# A real answer of the kernel (6.x, x86-64) to our lookup of a peer that had closed:
# found, in FIN_WAIT2 under the TIME_WAIT timer, with uid 0 and no inode.
CLOSED_ANSWER = bytes.fromhex(
    "600000001400000001000000cc55000002050300c1deba697f000001000000000000000000000000"
    "7f00000100000000000000000000000000000000051000000000000008ea00000000000000000000"
    "000000000000000008000f0000000000"
)
CLOSED_ENDS = (("127.0.0.1", 0xC1DE), ("127.0.0.1", 0xBA69))


def diag_answer(
    local: tuple[bytes, int], remote: tuple[bytes, int], uid: int, inode: int, family: int
) -> bytes:
    """An inet_diag_msg as the kernel sends it (addresses packed, 16 bytes each)."""
    body = struct.pack("=BBBB", family, 1, 0, 0)
    body += struct.pack("!HH16s16s", local[1], remote[1], local[0], remote[0])
    body += struct.pack("=III", 0, 0, 0) + struct.pack("=IIIII", 0, 0, 0, uid, inode)
    return struct.pack("=IHHII", 16 + len(body), 20, 0, 1, 4242) + body


LOOP4 = socket.inet_aton("127.0.0.1") + bytes(12)
MAPPED = socket.inet_pton(socket.AF_INET6, "::ffff:127.0.0.1")
ENDS = (("127.0.0.1", 40000), ("127.0.0.1", 8080))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (diag_answer((LOOP4, 40000), (LOOP4, 8080), 1000, 77, socket.AF_INET), 1000),
        # An IPv6 socket on v4-mapped addresses is the IPv4 peer.
        (diag_answer((MAPPED, 40000), (MAPPED, 8080), 1000, 77, socket.AF_INET6), 1000),
        (diag_answer((LOOP4, 40000), (LOOP4, 8080), 1000, 0, socket.AF_INET), None),  # closed
        (diag_answer((LOOP4, 40001), (LOOP4, 8080), 1000, 77, socket.AF_INET), None),
        (diag_answer((LOOP4, 40000), (LOOP4, 8081), 1000, 77, socket.AF_INET), None),
        (diag_answer((bytes(16), 40000), (LOOP4, 8080), 1000, 77, socket.AF_INET), None),
        (diag_answer((LOOP4, 40000), (LOOP4, 8080), 1000, 77, socket.AF_UNIX), None),
        (diag_answer((LOOP4, 40000), (LOOP4, 8080), 1000, 77, socket.AF_INET)[:87], None),
        # NLMSG_ERROR with -ENOENT: no such socket.
        (struct.pack("=IHHIIi", 36, 2, 0, 1, 4242, -2) + bytes(80), None),
    ],
)
def test_answers_of_sock_diag(answer: bytes, expected: int | None) -> None:
    assert peer.parse_diag_answer(answer, *ENDS) == expected


def test_a_real_answer_for_a_closed_peer_is_not_believed() -> None:
    assert peer.parse_diag_answer(CLOSED_ANSWER, *CLOSED_ENDS) is None
    # The same answer with an inode would be believed: it is the inode that tells.
    with_inode = CLOSED_ANSWER[:84] + struct.pack("=I", 5) + CLOSED_ANSWER[88:]
    assert peer.parse_diag_answer(with_inode, *CLOSED_ENDS) == 0


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    yield s
    s.close()


Lookup = Callable[[socket.socket], int | None]


def by_diag(conn: socket.socket) -> int | None:
    ends = peer.peer_ends(conn)
    assert ends is not None
    return peer.diag_uid(*ends)


def by_tables(conn: socket.socket) -> int | None:
    ends = peer.peer_ends(conn)
    assert ends is not None
    return peer.table_uid(*ends, peer.TABLES)


# Each way on its own, and peer_uid (sock_diag, then the tables).
LOOKUPS = pytest.mark.parametrize("lookup", [by_diag, by_tables, peer_uid])


@LINUX
@LOOKUPS
def test_our_own_connection_is_ours(listener: socket.socket, lookup: Lookup) -> None:
    with socket.create_connection(listener.getsockname(), timeout=5):
        conn, _ = listener.accept()
        with conn:
            assert lookup(conn) == os.geteuid()
            assert peer.from_us(conn)


@LINUX
@LOOKUPS
def test_an_ipv6_client_of_an_ipv4_listener_is_found(
    listener: socket.socket, lookup: Lookup
) -> None:
    if not socket.has_ipv6 or not os.path.exists("/proc/net/tcp6"):
        pytest.skip("no IPv6 in this kernel")
    port = listener.getsockname()[1]
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as c:
        c.connect(("::ffff:127.0.0.1", port))
        conn, _ = listener.accept()
        with conn:
            ends = peer.peer_ends(conn)
            assert ends is not None
            # It is listed in tcp6 only.
            assert peer.table_uid(*ends, ("/proc/net/tcp",)) is None
            assert lookup(conn) == os.geteuid()


@LINUX
@ROOT_ONLY
@LOOKUPS
def test_a_socket_of_another_user_is_theirs(listener: socket.socket, lookup: Lookup) -> None:
    address = listener.getsockname()

    def connect_and_wait() -> bytes:
        with socket.create_connection(address, timeout=10) as c:
            return c.recv(1)  # until the test has looked and closed its end

    with ThreadPoolExecutor(1) as pool:
        child = pool.submit(as_user, NOBODY, connect_and_wait)
        listener.settimeout(10)
        conn, _ = listener.accept()
        with conn:
            uid, ours = lookup(conn), peer.from_us(conn)
        assert child.result(timeout=10) == b""
    assert uid == NOBODY
    assert not ours


@LINUX
@LOOKUPS
def test_a_closed_peer_is_not_believed(listener: socket.socket, lookup: Lookup) -> None:
    """Once the peer has closed, its socket is listed with uid 0 and no inode (TIME_WAIT,
    FIN_WAIT): as root that would read as ours, whoever it was."""
    c = socket.create_connection(listener.getsockname(), timeout=5)
    conn, _ = listener.accept()
    with conn:
        c.close()
        time.sleep(0.05)
        assert lookup(conn) is None
        assert not peer.from_us(conn)


@LINUX
def test_without_sock_diag_the_tables_answer_and_without_both_nobody(
    listener: socket.socket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "tcp"
    empty.write_text(HEADER + "\n" + V4_LISTEN + "\n")
    with socket.create_connection(listener.getsockname(), timeout=5):
        conn, _ = listener.accept()
        with conn:
            # A netlink protocol the kernel does not have, as without inet_diag.
            monkeypatch.setattr(peer, "NETLINK_SOCK_DIAG", 31)
            assert by_diag(conn) is None
            assert peer_uid(conn) == os.geteuid()
            assert peer.from_us(conn)
            monkeypatch.setattr(peer, "TABLES", (str(empty), str(tmp_path / "missing")))
            assert peer_uid(conn) is None
            assert not peer.from_us(conn)
