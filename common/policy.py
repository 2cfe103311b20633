"""The network policy (SSRF guard): canonicalise an address and decide allow or refuse.

Everything here is pure except ``resolve_checked``, which asks the system resolver once
and checks every address it returns. The HTTP client (common.http) and the browser's
policy proxy (wf.render.proxy) connect only to an address this module has checked, so
a name that resolves differently the second time (DNS rebinding) gains nothing.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from common import trace
from common.errors import DNSError, PolicyRefused, Timeout, UsageError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

ALLOWED_SCHEMES = ("http", "https")

# Names of cloud metadata services; their subdomains too. Refused whatever the flags say.
METADATA_NAMES = ("metadata.google.internal", "metadata.goog", "instance-data")
# 168.63.129.16 is Azure's wire server (instance metadata, agent and DNS traffic).
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200", "168.63.129.16")
)

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_ULA = ipaddress.ip_network("fc00::/7")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# 6to4: 2002:AABB:CCDD::/48 reaches the IPv4 host AA.BB.CC.DD through a relay.
_6TO4 = ipaddress.ip_network("2002::/16")
# IETF protocol assignments (RFC 6890): PCP and TURN anycast, NAT64 discovery, DS-Lite;
# Python counts only parts of it as private and the rest as global.
_IETF_V4 = ipaddress.ip_network("192.0.0.0/24")
_DOC_V4 = tuple(
    ipaddress.ip_network(n) for n in ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24")
)
_DOC_V6 = (ipaddress.ip_network("2001:db8::/32"), ipaddress.ip_network("3fff::/20"))
_BENCHMARK = ipaddress.ip_network("198.18.0.0/15")
_THIS_NET = ipaddress.ip_network("0.0.0.0/8")

_PRIVATE_KINDS = (
    "loopback address",
    "private address",
    "shared (CGNAT) address",
    "unique-local address",
)


@dataclass(frozen=True)
class Policy:
    """What a fetch may connect to. The default allows only global unicast addresses."""

    allow_private: bool = False
    # Canonical names (lower case, no trailing dot, IDNA) and canonical address strings.
    allow_hosts: frozenset[str] = field(default_factory=frozenset)

    def with_hosts(self, *hosts: str) -> Policy:
        """A copy that also allows these hosts (operator-configured endpoints)."""
        extra = {canonical_host(h) for h in hosts if h}
        return Policy(self.allow_private, self.allow_hosts | extra)


def parse_ip(text: str) -> IPAddress | None:
    """Parse an address in any notation a URL parser or inet_aton accepts.

    Accepts dotted IPv4 with decimal, octal (leading 0) or hex (0x) parts and one to four
    parts (``2130706433``, ``0x7f.1``, ``0177.0.0.1``), bracketed IPv6 with or without a
    zone id. IPv4-mapped and IPv4-compatible IPv6 come back as the IPv4 address, so one
    rule decides for every spelling of the same destination.
    """
    host = text.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        host = host.split("%", 1)[0]
        try:
            addr: IPAddress = ipaddress.IPv6Address(host)
        except ValueError:
            return None
        return _unmap(addr)
    return _parse_ipv4_loose(host.rstrip("."))


def _unmap(addr: IPAddress) -> IPAddress:
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return addr.ipv4_mapped
        # IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); not :: or ::1.
        packed = addr.packed
        if packed[:12] == b"\0" * 12 and int(addr) > 1:
            return ipaddress.IPv4Address(packed[12:])
        if addr in _NAT64:
            return ipaddress.IPv4Address(packed[12:])
    return addr


def _parse_ipv4_loose(host: str) -> ipaddress.IPv4Address | None:
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or any(p == "" for p in parts):
        return None
    values: list[int] = []
    for part in parts:
        p = part.lower()
        try:
            if p.startswith("0x"):
                v = int(p[2:] or "0", 16)
            elif len(p) > 1 and p.startswith("0"):
                v = int(p, 8)
            else:
                if not p.isdigit():
                    return None
                v = int(p, 10)
        except ValueError:
            return None
        values.append(v)
    # The last part fills the remaining bytes (inet_aton semantics).
    *head, last = values
    if any(v > 255 for v in head) or last >= 256 ** (4 - len(head)):
        return None
    number = 0
    for v in head:
        number = number * 256 + v
    number = number * 256 ** (4 - len(head)) + last
    return ipaddress.IPv4Address(number)


def canonical_host(host: str) -> str:
    """Lower case, no brackets or trailing dot, IDNA for names, canonical text for addresses."""
    addr = parse_ip(host)
    if addr is not None:
        return str(addr)
    name = host.strip().strip("[]").rstrip(".").lower()
    try:
        return name.encode("idna").decode("ascii")
    except UnicodeError:
        return name


def _6to4_embedded(addr: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside a 6to4 address (bits 16-47), else None."""
    if isinstance(addr, ipaddress.IPv6Address) and addr in _6TO4:
        return ipaddress.IPv4Address(addr.packed[2:6])
    return None


def is_metadata_address(addr: IPAddress) -> bool:
    addr = _unmap(addr)
    return addr in METADATA_ADDRESSES or _6to4_embedded(addr) in METADATA_ADDRESSES


def is_metadata_name(name: str) -> bool:
    name = canonical_host(name)
    return any(name == m or name.endswith("." + m) for m in METADATA_NAMES)


def refusal_reason(addr: IPAddress, *, allow_private: bool = False) -> str | None:
    """Why this address is refused under the default rules, or None when it is allowed."""
    addr = _unmap(addr)
    if is_metadata_address(addr):
        return "cloud metadata address"
    embedded = _6to4_embedded(addr)
    if embedded is not None:
        inner = refusal_reason(embedded, allow_private=allow_private)
        return None if inner is None else f"6to4 address embedding {embedded} ({inner})"
    if addr.is_unspecified:
        return "unspecified address"
    if addr.is_multicast:
        return "multicast address"
    if isinstance(addr, ipaddress.IPv4Address):
        if addr == ipaddress.IPv4Address("255.255.255.255"):
            return "broadcast address"
        if addr in _THIS_NET:
            return "'this network' address"
        if addr.is_link_local:
            return "link-local address"
        if any(addr in n for n in _DOC_V4):
            return "documentation address"
        if addr in _BENCHMARK:
            return "benchmarking address"
        if addr in _IETF_V4:
            return "IETF protocol address"
        private = addr.is_loopback or addr in _CGNAT or (addr.is_private and not addr.is_reserved)
        if private:
            return None if allow_private else _private_kind(addr)
        if addr.is_reserved or not addr.is_global:
            return "reserved address"
        return None
    if addr.is_link_local:
        return "link-local address"
    if addr.is_site_local:
        return "site-local address"
    if any(addr in n for n in _DOC_V6):
        return "documentation address"
    if addr.is_loopback or addr in _ULA:
        return None if allow_private else _private_kind(addr)
    if addr.is_reserved or not addr.is_global:
        return "reserved address"
    return None


def _private_kind(addr: IPAddress) -> str:
    if addr.is_loopback:
        return "loopback address"
    if isinstance(addr, ipaddress.IPv4Address) and addr in _CGNAT:
        return "shared (CGNAT) address"
    if isinstance(addr, ipaddress.IPv6Address):
        return "unique-local address"
    return "private address"


def check_name(policy: Policy, host: str) -> None:
    """Refuse a host by its name alone (metadata services, forbidden literal addresses)."""
    name = canonical_host(host)
    if is_metadata_name(name):
        raise PolicyRefused(f"refused {host}: cloud metadata service (never allowed)")
    addr = parse_ip(host)
    if addr is not None:
        check_address(policy, host, addr)


def check_address(policy: Policy, host: str, addr: IPAddress) -> None:
    """Raise PolicyRefused unless the policy allows connecting to ``addr`` for ``host``."""
    addr = _unmap(addr)
    if is_metadata_address(addr):
        raise PolicyRefused(f"refused {host} ({addr}): cloud metadata address (never allowed)")
    name = canonical_host(host)
    if name in policy.allow_hosts or str(addr) in policy.allow_hosts:
        return
    reason = refusal_reason(addr, allow_private=policy.allow_private)
    if reason is None:
        return
    shown = host if name == str(addr) else f"{host} ({addr})"
    raise PolicyRefused(f"refused {shown}: {reason}; {how_to_allow(name, addr, reason)}")


def how_to_allow(name: str, addr: IPAddress, reason: str) -> str:
    """Advice that is true of this policy: --allow-host takes the address refused, or the
    name (which then allows whatever it resolves to); --allow-private covers private kinds."""
    ways = [f"--allow-host {addr}"]
    if name != str(addr):
        ways.append(f"--allow-host {name} (the name, whatever it resolves to)")
    if reason.removesuffix(")").endswith(_PRIVATE_KINDS):
        ways.append("--allow-private (or WF_ALLOW_PRIVATE=1)")
    return "allow it with " + ", or ".join(ways)


def check_scheme(scheme: str, url: str) -> None:
    if scheme.lower() not in ALLOWED_SCHEMES:
        raise PolicyRefused(f"refused {url}: scheme {scheme or '(none)'!r} is not http or https")


# A lookup that never returns (a resolver that hangs) keeps its thread however long the
# process lives, and getaddrinfo cannot be cancelled. So the threads are bounded: callers
# asking for the same name share one pending lookup, and once MAX_HUNG_LOOKUPS lookups
# have outlived a caller's deadline, a lookup of another name fails at once instead of
# starting one more thread. It fails as "could not resolve host" (DNSError, exit 6), not
# as a timeout (28): no deadline passed, and 28's advice (raise --timeout) cannot help
# while the resolver does not answer; 6's (check the network) is the right next step.
MAX_HUNG_LOOKUPS = 8


class _Lookup:
    """One getaddrinfo call in its own thread, and what the callers waiting on it need."""

    def __init__(self, name: str, port: int) -> None:
        self.name, self.port = name, port
        self.done = threading.Event()
        self.answer: Sequence[tuple[int, int, int, str, tuple[Any, ...]]] | None = None
        self.hung = False  # a caller gave up on it: it may never end

    def run(self) -> None:
        try:
            self.answer = socket.getaddrinfo(self.name, self.port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            pass  # no answer: a DNS error for every caller
        finally:
            with _LOOKUPS_LOCK:
                if _PENDING.get(self.name) is self:
                    del _PENDING[self.name]
            self.done.set()


_LOOKUPS_LOCK = threading.Lock()
_PENDING: dict[str, _Lookup] = {}


def _forget_lookups() -> None:
    # A forked child has none of its parent's threads: their lookups will never end there.
    global _LOOKUPS_LOCK
    _LOOKUPS_LOCK = threading.Lock()
    _PENDING.clear()


os.register_at_fork(after_in_child=_forget_lookups)


def _lookup(host: str, name: str, port: int) -> _Lookup:
    """The pending lookup of ``name``, or a new one; DNSError when too many have hung."""
    with _LOOKUPS_LOCK:
        pending = _PENDING.get(name)
        if pending is not None:
            return pending
        hung = sum(1 for p in _PENDING.values() if p.hung)
        if hung >= MAX_HUNG_LOOKUPS:
            trace.trace("policy: %d lookups have not returned; not asking for %s", hung, name)
            raise DNSError(
                f"could not resolve host {host}: the system resolver has not answered "
                f"{hung} earlier lookups"
            )
        lookup = _PENDING[name] = _Lookup(name, port)
    try:
        threading.Thread(target=lookup.run, name="wf-resolve", daemon=True).start()
    except BaseException:
        with _LOOKUPS_LOCK:
            del _PENDING[name]
        raise
    return lookup


def resolve(host: str, port: int, *, deadline: float | None = None) -> list[IPAddress]:
    """Resolve a name once, within the deadline (getaddrinfo itself has no timeout)."""
    literal = parse_ip(host)
    if literal is not None:
        return [literal]
    lookup = _lookup(host, canonical_host(host), port)
    if not lookup.done.wait(None if deadline is None else max(0.0, deadline - time.monotonic())):
        with _LOOKUPS_LOCK:
            lookup.hung = True
        raise Timeout(f"timed out resolving {host}")
    if lookup.answer is None:
        raise DNSError(f"could not resolve host {host}")
    seen: list[IPAddress] = []
    for family, _t, _p, _c, sockaddr in lookup.answer:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        addr = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if addr not in seen:
            seen.append(addr)
    if not seen:
        raise DNSError(f"could not resolve host {host}")
    return seen


def resolve_checked(
    policy: Policy, host: str, port: int, *, deadline: float | None = None
) -> list[IPAddress]:
    """Resolve once and check every address; refuse the host if any address is refused.

    Failing closed on a mixed answer keeps a name that lists one public and one private
    address from reaching the private one on a retry.
    """
    try:
        check_name(policy, host)
        addrs = resolve(host, port, deadline=deadline)
        for addr in addrs:
            check_address(policy, host, addr)
    except PolicyRefused as exc:
        trace.trace("policy: %s", exc.message)
        raise
    for addr in addrs:
        if trace.enabled:
            shown = host if canonical_host(host) == str(addr) else f"{host} ({addr})"
            trace.trace("policy: %s allowed: %s", shown, _allowed_by(policy, host, addr))
    return addrs


def _allowed_by(policy: Policy, host: str, addr: IPAddress) -> str:
    """Why the policy let an address through, for the -v trace."""
    if canonical_host(host) in policy.allow_hosts or str(_unmap(addr)) in policy.allow_hosts:
        return "on the allowed-host list"
    kind = refusal_reason(_unmap(addr))
    return f"{kind}, --allow-private" if kind else "public address"


def policy_from_env(
    environ: dict[str, str] | None = None,
    *,
    allow_private: bool | None = None,
    allow_hosts: tuple[str, ...] = (),
) -> Policy:
    """Flags beat the environment: WF_ALLOW_PRIVATE=1 and WF_ALLOW_HOSTS=a,b.

    Every host value is checked (UsageError with a hint), so that a mistake ends the
    command before any fetch. The proxy variables are the CLI's own step
    (common.http.proxy_env.check_proxy_environment).
    """
    env = os.environ if environ is None else environ
    if allow_private is None:
        allow_private = env.get("WF_ALLOW_PRIVATE", "").strip().lower() in (
            "1",
            "true",
            "yes",
            "on",
        )
    # Spaces around the commas of the variable are forgiven, empty items skipped.
    hosts = [
        allow_host_value(h.strip(), "WF_ALLOW_HOSTS")
        for h in env.get("WF_ALLOW_HOSTS", "").split(",")
        if h.strip()
    ]
    hosts += [allow_host_value(h, "--allow-host") for h in allow_hosts]
    return Policy(allow_private=allow_private, allow_hosts=frozenset(hosts))


# Compiled on first use (re's cache): only --allow-host and WF_ALLOW_HOSTS need them.
_HOST_LABEL = r"^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$"
_HOST_PORT = r"^(\[[^\]]*\]|[^:\[\]]*):([0-9]*)$"


def allow_host_value(value: str, source: str) -> str:
    """The canonical form of one --allow-host (or WF_ALLOW_HOSTS) value; UsageError with
    a hint for what the policy could never match: a port, a URL, an empty value, spaces.
    The policy matches host names and addresses exactly, so these would allow nothing."""
    what = f"{source} takes a host name or address without a port or scheme"
    shown = repr(value[:100])
    if not value.strip():
        raise UsageError(f"{what}, not an empty value: {source} 127.0.0.1")
    if value != value.strip() or any(c.isspace() for c in value):
        raise UsageError(f"{what}; {shown} has spaces in it")
    if "://" in value or "/" in value:
        from urllib.parse import urlsplit

        try:
            host = urlsplit(value if "://" in value else "//" + value).hostname
        except ValueError:
            host = None
        hint = f": {source} {canonical_host(host)}" if host else ""
        raise UsageError(f"{what}, not a URL {shown}{hint}")
    if parse_ip(value) is not None:
        return canonical_host(value)
    port = re.match(_HOST_PORT, value)
    if port is not None:
        host = port.group(1)
        hint = (
            f": {source} {canonical_host(host)}"
            if host.strip("[]") and _valid_allow_host(host)
            else ""
        )
        raise UsageError(f"{what}, not {shown}{hint}")
    if "*" in value:
        raise UsageError(f"{what}; {shown}: patterns are not supported, name each host")
    if not _valid_allow_host(value):
        raise UsageError(f"{what}; {shown} is not a valid host name or address")
    return canonical_host(value)


def _valid_allow_host(host: str) -> bool:
    if parse_ip(host) is not None:
        return True
    name = canonical_host(host)
    return 0 < len(name) <= 253 and all(re.match(_HOST_LABEL, label) for label in name.split("."))
