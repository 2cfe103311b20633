"""Property tests of the network policy: an address gets the same decision in every
notation a URL parser or inet_aton accepts as on its canonical form, and the parser reads
each notation as the address the operating system would connect to.

Pure functions only: nothing here resolves a name or opens a socket."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import InvalidURL, PolicyRefused
from common.http.url import normalise_url
from common.policy import Policy, canonical_host, check_name, parse_ip, refusal_reason

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POLICIES = (Policy(), Policy(allow_private=True))

# Ranges where the decision changes, so that generated addresses sit on both sides of
# every rule; plus anything at all.
_NETWORKS = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "100.100.100.200/32",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "169.254.169.254/32",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
    "255.255.255.255/32",
    "8.8.8.0/24",
    "1.1.1.0/24",
    "93.184.215.0/24",
]


@st.composite
def ipv4(draw: st.DrawFn) -> ipaddress.IPv4Address:
    if draw(st.booleans()):
        net = ipaddress.ip_network(draw(st.sampled_from(_NETWORKS)))
        offset = draw(st.integers(0, net.num_addresses - 1))
        return net.network_address + offset
    return ipaddress.IPv4Address(draw(st.integers(0, 2**32 - 1)))


def _number(draw: st.DrawFn, value: int) -> str:
    """One part in decimal, octal (leading 0) or hex (0x/0X), with optional padding."""
    style = draw(st.sampled_from(["dec", "oct", "hex", "HEX"]))
    if style == "dec" or (style == "oct" and value == 0):
        return str(value)
    if style == "oct":
        return "0" * draw(st.integers(1, 3)) + format(value, "o")
    digits = format(value, "x" if style == "hex" else "X")
    return ("0x" if style == "hex" else "0X") + "0" * draw(st.integers(0, 2)) + digits


@st.composite
def ipv4_notation(draw: st.DrawFn, addr: ipaddress.IPv4Address) -> str:
    """addr written as inet_aton reads it: 1 to 4 parts, the last one filling the rest."""
    n = int(addr)
    parts = draw(st.integers(1, 4))
    octets = list(addr.packed)
    head = octets[: parts - 1]
    rest = n & ((1 << (8 * (5 - parts))) - 1) if parts > 1 else n
    text = ".".join([_number(draw, o) for o in head] + [_number(draw, rest)])
    return text + ("." if draw(st.booleans()) and draw(st.booleans()) else "")


@st.composite
def mapped_notation(draw: st.DrawFn, addr: ipaddress.IPv4Address) -> str:
    """addr inside IPv6: IPv4-mapped (dotted or hex), expanded, NAT64, IPv4-compatible."""
    hi, lo = int(addr) >> 16, int(addr) & 0xFFFF
    forms = [
        f"::ffff:{addr}",
        f"::ffff:{hi:x}:{lo:x}",
        f"0:0:0:0:0:ffff:{addr}",
        f"0000:0000:0000:0000:0000:FFFF:{hi:04X}:{lo:04X}",
        f"64:ff9b::{addr}",
    ]
    if int(addr) > 1:
        forms.append(f"::{addr}")
    text = draw(st.sampled_from(forms))
    return f"[{text}]"


def _decision(policy: Policy, host: str) -> str | None:
    """The policy's verdict on a host: None for allowed, else the reason it gives."""
    try:
        check_name(policy, host)
    except PolicyRefused as exc:
        return exc.message.split(": ", 1)[1].split(";", 1)[0]
    return None


def _canonical_decision(policy: Policy, addr: ipaddress._BaseAddress) -> str | None:
    return _decision(policy, str(addr))


@SETTINGS
@given(st.data())
def test_ipv4_in_any_notation_gets_the_canonical_decision(data: st.DataObject) -> None:
    addr = data.draw(ipv4())
    text = data.draw(st.one_of(ipv4_notation(addr), mapped_notation(addr)))
    assert parse_ip(text) == addr, text
    assert canonical_host(text) == str(addr)
    for policy in POLICIES:
        assert _decision(policy, text) == _canonical_decision(policy, addr), (text, policy)
        want = refusal_reason(addr, allow_private=policy.allow_private)
        assert (_decision(policy, text) is None) == (want is None)


@SETTINGS
@given(st.data())
def test_ipv4_notation_is_the_address_inet_aton_connects_to(data: st.DataObject) -> None:
    addr = data.draw(ipv4())
    text = data.draw(ipv4_notation(addr)).rstrip(".")
    # glibc's inet_aton is what getaddrinfo uses for a numeric host: no lookup, no packet.
    assert socket.inet_aton(text) == addr.packed, text
    assert parse_ip(text) == addr


@SETTINGS
@given(st.data())
def test_url_host_in_any_notation_gets_the_canonical_decision(data: st.DataObject) -> None:
    addr = data.draw(ipv4())
    text = data.draw(st.one_of(ipv4_notation(addr), mapped_notation(addr)))
    port = data.draw(st.sampled_from(["", ":80", ":8080"]))
    userinfo = data.draw(st.sampled_from(["", "user@", "u:p@", "127.0.0.1@", "8.8.8.8@"]))
    scheme = data.draw(st.sampled_from(["http", "HTTP", "https", "hTtPs"]))
    url = f"{scheme}://{userinfo}{text}{port}/path?q=1#frag"
    try:
        normalised = normalise_url(url)
    except InvalidURL:
        pytest.fail(f"valid URL refused: {url}")
    from urllib.parse import urlsplit

    host = urlsplit(normalised).hostname or ""
    assert parse_ip(host) == addr, (url, normalised)
    for policy in POLICIES:
        assert _decision(policy, host) == _canonical_decision(policy, addr), (url, policy)


@st.composite
def ipv6(draw: st.DrawFn) -> ipaddress.IPv6Address:
    special = [
        "::",
        "::1",
        "fe80::",
        "fc00::",
        "fd00:ec2::254",
        "ff02::",
        "2001:db8::",
        "64:ff9b::",
        "2606:4700:4700::",
        "2a00:1450::",
        "fec0::",
        "100::",
        "2001::",
        "3fff::",
    ]
    base = int(ipaddress.IPv6Address(draw(st.sampled_from(special))))
    if draw(st.booleans()):
        return ipaddress.IPv6Address(base | draw(st.integers(0, 2**16 - 1)))
    return ipaddress.IPv6Address(draw(st.integers(0, 2**128 - 1)))


@SETTINGS
@given(st.data())
def test_ipv6_in_any_notation_gets_the_canonical_decision(data: st.DataObject) -> None:
    addr = data.draw(ipv6())
    forms = [addr.compressed, addr.exploded, addr.compressed.upper(), addr.exploded.upper()]
    if int(addr) & 0xFFFFFFFF:
        v4 = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
        forms.append(":".join(addr.exploded.split(":")[:6]) + f":{v4}")
    text = data.draw(st.sampled_from(forms))
    zone = data.draw(st.sampled_from(["", "%eth0", "%1", "%25lo"]))
    unmapped = parse_ip(addr.compressed)
    assert socket.inet_pton(socket.AF_INET6, text) == addr.packed
    assert parse_ip(f"[{text}{zone}]") == unmapped
    for policy in POLICIES:
        assert _decision(policy, f"[{text}{zone}]") == _canonical_decision(policy, unmapped), text


@SETTINGS
@given(st.text(alphabet="0123456789abcdefxX.:[]%", min_size=1, max_size=24))
def test_anything_address_shaped_is_parsed_or_left_a_name(text: str) -> None:
    # Never raises; when it parses, the canonical text parses back to the same address.
    addr = parse_ip(text)
    if addr is not None:
        assert parse_ip(str(addr)) == addr
        for policy in POLICIES:
            assert _decision(policy, text) == _canonical_decision(policy, addr)


@SETTINGS
@given(st.data())
def test_6to4_gets_the_decision_of_the_ipv4_address_inside(data: st.DataObject) -> None:
    # 2002:AABB:CCDD::/48 is routed to AA.BB.CC.DD: refused exactly when that address is.
    addr = data.draw(ipv4())
    tail = data.draw(st.integers(0, 2**80 - 1))
    six = ipaddress.IPv6Address((0x2002 << 112) | (int(addr) << 80) | tail)
    for policy in POLICIES:
        inner = refusal_reason(addr, allow_private=policy.allow_private)
        outer = refusal_reason(six, allow_private=policy.allow_private)
        assert (outer is None) == (inner is None), (six, inner, outer)
