"""Who is at the other end of a loopback TCP connection: the owner of the peer's socket.

A TCP listener on 127.0.0.1 can be reached by every local user, and its port is public
in /proc/net/tcp. Unix sockets have SO_PEERCRED; TCP has nothing of the kind, but the
kernel knows the owner of every socket of the network namespace. The peer of an accepted
connection is the socket whose local end is our remote end and whose remote end is our
local end. We ask for it by those four values over NETLINK_SOCK_DIAG (one lookup in the
kernel's hash); where that is not available, we read /proc/net/tcp and tcp6, which walk
the whole hash table (about 2 ms of CPU each on a 262 144-bucket table, against 16 us).
Only a socket that still has a file (inode not 0) is believed: a closed socket waiting
out TIME_WAIT or FIN_WAIT is listed with uid 0 and no inode, so as root a stranger's
closed connection would look like ours.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
import sys
from typing import Literal, NamedTuple

# Both tables: a client may reach an IPv4 listener from an IPv6 socket through a
# v4-mapped address (::ffff:127.0.0.1), and then it is listed in tcp6.
TABLES = ("/proc/net/tcp", "/proc/net/tcp6")

Endpoint = tuple[str, int]  # (canonical address, port)
ByteOrder = Literal["little", "big"]
_HEX = "0123456789ABCDEFabcdef"

# linux/netlink.h, linux/sock_diag.h, linux/inet_diag.h
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLMSG_ERROR = 2
NLM_F_REQUEST = 1
_NLMSGHDR = struct.Struct("=IHHII")  # len, type, flags, seq, pid
_REQ_V2 = struct.Struct("=BBBxI")  # family, protocol, ext, pad, states
_SOCKID = struct.Struct("!HH16s16s")  # sport, dport, src, dst (network order)
_SOCKID_TAIL = struct.Struct("=III")  # interface, cookie (INET_DIAG_NOCOOKIE: all ones)
_MSG_UID_INODE = struct.Struct("=II")  # inet_diag_msg: uid, inode after 4+48+12 bytes
_MSG_UID_AT = _NLMSGHDR.size + 4 + 48 + 12
DIAG_TIMEOUT = 1.0


class Entry(NamedTuple):
    local: Endpoint
    remote: Endpoint
    uid: int
    inode: int


def parse_line(line: str, byteorder: ByteOrder = sys.byteorder) -> Entry | None:
    """One line of /proc/net/tcp or tcp6; None for the header or a line we cannot read.

    The kernel prints each 32-bit word of an address as the integer it is in host
    memory, so on a little-endian machine 127.0.0.1 is ``0100007F``; ports are plain.
    """
    fields = line.split()
    # sl local remote st tx:rx tr:when retrnsmt uid timeout inode ...
    if len(fields) < 10 or not fields[0].endswith(":") or not fields[0][:-1].isdigit():
        return None
    uid, inode = fields[7], fields[9]
    if not (uid.isascii() and uid.isdigit() and inode.isascii() and inode.isdigit()):
        return None
    try:
        local = _endpoint(fields[1], byteorder)
        remote = _endpoint(fields[2], byteorder)
    except ValueError:
        return None
    return Entry(local, remote, int(uid), int(inode))


def _endpoint(text: str, byteorder: ByteOrder) -> Endpoint:
    addr_hex, sep, port_hex = text.partition(":")
    # int(x, 16) would also take "0x", "_" and signs: only the kernel's own digits pass.
    if not sep or len(addr_hex) not in (8, 32) or len(port_hex) != 4 or text.strip(_HEX) != ":":
        raise ValueError(text)
    raw = b"".join(
        int(addr_hex[i : i + 8], 16).to_bytes(4, byteorder) for i in range(0, len(addr_hex), 8)
    )
    return _canonical(str(ipaddress.ip_address(raw))), int(port_hex, 16)


def _canonical(address: str) -> str:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def peer_ends(conn: socket.socket) -> tuple[Endpoint, Endpoint] | None:
    """The ends of the peer's socket of ``conn``, (its local, its remote): ours reversed."""
    try:
        ours = conn.getsockname()
        theirs = conn.getpeername()
    except OSError:
        return None
    return (_canonical(theirs[0]), int(theirs[1])), (_canonical(ours[0]), int(ours[1]))


def peer_uid(conn: socket.socket) -> int | None:
    """The uid owning the other end of ``conn`` (accepted on this machine), or None when
    no live socket in this network namespace matches it."""
    ends = peer_ends(conn)
    if ends is None:
        return None
    uid = diag_uid(*ends)
    if uid is not None:
        return uid
    # Not found, or no sock_diag (a kernel without inet_diag, a seccomp filter): the
    # tables say the same, at a higher price.
    return table_uid(*ends, TABLES)


def diag_uid(local: Endpoint, remote: Endpoint) -> int | None:
    """The uid of the live TCP socket with exactly these ends, asked of the kernel over
    NETLINK_SOCK_DIAG; None when it is not found, closed, or the kernel cannot say."""
    family = socket.AF_INET6 if ":" in local[0] else socket.AF_INET
    if (":" in remote[0]) != (family == socket.AF_INET6):
        return None
    request = _REQ_V2.pack(family, socket.IPPROTO_TCP, 0, 0xFFFFFFFF) + _sockid(local, remote)
    message = _NLMSGHDR.pack(
        _NLMSGHDR.size + len(request), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 1, 0
    )
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG) as nl:
            nl.settimeout(DIAG_TIMEOUT)
            nl.sendto(message + request, (0, 0))
            answer = nl.recv(65536)
    except (OSError, AttributeError):  # AttributeError: no AF_NETLINK off Linux
        return None
    return parse_diag_answer(answer, local, remote)


def _sockid(local: Endpoint, remote: Endpoint) -> bytes:
    def packed(address: str) -> bytes:
        raw = ipaddress.ip_address(address).packed
        return raw + bytes(16 - len(raw))

    return _SOCKID.pack(
        local[1], remote[1], packed(local[0]), packed(remote[0])
    ) + _SOCKID_TAIL.pack(0, 0xFFFFFFFF, 0xFFFFFFFF)


def parse_diag_answer(answer: bytes, local: Endpoint, remote: Endpoint) -> int | None:
    """The uid in the kernel's answer to our lookup, when it names a live socket with
    these ends; None for an error (ENOENT: no such socket) or anything else."""
    if len(answer) < _MSG_UID_AT + _MSG_UID_INODE.size:
        return None
    length, kind, _flags, _seq, _pid = _NLMSGHDR.unpack_from(answer)
    if kind != SOCK_DIAG_BY_FAMILY or length > len(answer):
        return None
    family = answer[_NLMSGHDR.size]
    sport, dport, src, dst = _SOCKID.unpack_from(answer, _NLMSGHDR.size + 4)
    uid, inode = _MSG_UID_INODE.unpack_from(answer, _MSG_UID_AT)
    if family not in (socket.AF_INET, socket.AF_INET6) or inode == 0:
        return None
    size = 4 if family == socket.AF_INET else 16
    found = (
        (_canonical(str(ipaddress.ip_address(src[:size]))), sport),
        (_canonical(str(ipaddress.ip_address(dst[:size]))), dport),
    )
    return int(uid) if found == (local, remote) else None


def table_uid(local: Endpoint, remote: Endpoint, tables: tuple[str, ...]) -> int | None:
    """The uid of the live TCP socket with exactly these ends, read from /proc/net/tcp
    and tcp6 (``tables``); None when no live socket matches."""
    # Only lines with the peer's port are parsed: the table holds every socket of the
    # namespace, and this runs once per accepted connection.
    port_field = f":{local[1]:04X} "
    for path in tables:
        try:
            with open(path, encoding="ascii", errors="replace") as fh:
                for line in fh:
                    if port_field not in line:
                        continue
                    entry = parse_line(line)
                    if (
                        entry is not None
                        and entry.inode != 0
                        and entry.local == local
                        and entry.remote == remote
                    ):
                        return entry.uid
        except OSError:
            continue
    return None


def from_us(conn: socket.socket) -> bool:
    """Is the other end of ``conn`` a socket of our own user?"""
    uid = peer_uid(conn)
    # The kernel records as a socket's owner the file system uid of the process that
    # made it: the effective uid, unless someone set the two apart.
    return uid is not None and uid == os.geteuid()
