"""Who is at the other end of a loopback TCP connection: the owner of the peer's socket.

A TCP listener on 127.0.0.1 can be reached by every local user, and its port is public
in /proc/net/tcp. Unix sockets have SO_PEERCRED; TCP has nothing of the kind, but the
kernel lists every socket of the network namespace in /proc/net/tcp and tcp6 with the
uid of its owner. The peer of an accepted connection is the line whose local end is our
remote end and whose remote end is our local end. Only a socket that still has a file
(inode not 0) is believed: a closed socket waiting out TIME_WAIT or FIN_WAIT is listed
with uid 0 and no inode, so as root a stranger's closed connection would look like ours.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from typing import Literal, NamedTuple

# Both tables: a client may reach an IPv4 listener from an IPv6 socket through a
# v4-mapped address (::ffff:127.0.0.1), and then it is listed in tcp6.
TABLES = ("/proc/net/tcp", "/proc/net/tcp6")

Endpoint = tuple[str, int]  # (canonical address, port)
ByteOrder = Literal["little", "big"]
_HEX = "0123456789ABCDEFabcdef"


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


def peer_uid(conn: socket.socket, tables: tuple[str, ...] | None = None) -> int | None:
    """The uid owning the other end of ``conn`` (accepted on this machine), or None when
    no live socket in this network namespace matches it."""
    try:
        ours = conn.getsockname()
        theirs = conn.getpeername()
    except OSError:
        return None
    want_local = (_canonical(theirs[0]), int(theirs[1]))
    want_remote = (_canonical(ours[0]), int(ours[1]))
    # Only lines with the peer's port are parsed: the table holds every socket of the
    # namespace, and this runs once per accepted connection.
    port_field = f":{want_local[1]:04X} "
    for path in TABLES if tables is None else tables:
        try:
            with open(path, encoding="ascii", errors="replace") as fh:
                for line in fh:
                    if port_field not in line:
                        continue
                    entry = parse_line(line)
                    if (
                        entry is not None
                        and entry.inode != 0
                        and entry.local == want_local
                        and entry.remote == want_remote
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
