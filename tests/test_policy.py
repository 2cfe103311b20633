"""The network policy as pure functions: no packet leaves for any of these addresses.

Only ``resolve``/``resolve_checked`` touch the resolver, and those tests replace
socket.getaddrinfo with a stand-in so no lookup leaves the machine either."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from common.errors import DNSError, PolicyRefused
from common.policy import (
    METADATA_ADDRESSES,
    Policy,
    canonical_host,
    check_address,
    check_name,
    parse_ip,
    policy_from_env,
    refusal_reason,
    resolve_checked,
)
from tests.helpers import ROOT

# The exact reason label each address gets under the default policy: a test that checked only
# that some reason exists would let a metadata address fall back to its range's label (as
# 100.100.100.200 would to CGNAT), which --allow-private then allows.
REFUSED_BY_DEFAULT = {
    "127.0.0.1": "loopback address",
    "10.1.2.3": "private address",
    "172.16.0.1": "private address",
    "192.168.1.1": "private address",
    "100.64.0.1": "shared (CGNAT) address",
    "169.254.1.1": "link-local address",
    "169.254.169.254": "cloud metadata address",
    "100.100.100.200": "cloud metadata address",
    "168.63.129.16": "cloud metadata address",
    "0.0.0.0": "unspecified address",
    "0.1.2.3": "'this network' address",
    "255.255.255.255": "broadcast address",
    "224.0.0.251": "multicast address",
    "192.0.2.10": "documentation address",
    "198.51.100.1": "documentation address",
    "203.0.113.9": "documentation address",
    "198.18.0.1": "benchmarking address",
    "192.0.0.9": "IETF protocol address",
    "240.0.0.1": "reserved address",
    "::1": "loopback address",
    "::": "unspecified address",
    "fc00::1": "unique-local address",
    "fd12:3456::1": "unique-local address",
    "fe80::1": "link-local address",
    "fec0::1": "site-local address",
    "fd00:ec2::254": "cloud metadata address",
    "ff02::1": "multicast address",
    "2001:db8::1": "documentation address",
    "3fff::1": "documentation address",
    "100::1": "reserved address",
}

ALLOWED = ["8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001::200e"]


@pytest.mark.parametrize("addr", sorted(REFUSED_BY_DEFAULT))
def test_default_refuses(addr):
    assert refusal_reason(ipaddress.ip_address(addr)) == REFUSED_BY_DEFAULT[addr]


def _man_metadata_addresses(page: str) -> list[str]:
    """The metadata addresses a man page lists: every address after "metadata services"."""
    text = (ROOT / "man" / page).read_text().replace("\\", "")
    start = text.index("cloud metadata services (")
    listed = text[start : text.index(")", text.index("168.63.129.16", start))]
    found = [w.strip(",;.") for w in listed.split() if parse_ip(w.strip(",;.")) is not None]
    return found


@pytest.mark.parametrize("page", ["wf.1", "ws.1"])
def test_man_page_lists_exactly_the_metadata_addresses(page):
    listed = {ipaddress.ip_address(a) for a in _man_metadata_addresses(page)}
    assert listed == set(METADATA_ADDRESSES)


@pytest.mark.parametrize("addr", sorted(_man_metadata_addresses("wf.1")))
def test_every_documented_metadata_address_is_refused_with_allow_private(addr):
    ip = ipaddress.ip_address(addr)
    assert refusal_reason(ip, allow_private=True) == "cloud metadata address"
    assert refusal_reason(ip) == "cloud metadata address"
    everything = Policy(allow_private=True, allow_hosts=frozenset({addr}))
    with pytest.raises(PolicyRefused, match=r": cloud metadata address \(never allowed\)$"):
        check_address(everything, addr, ip)
    with pytest.raises(PolicyRefused, match=r": cloud metadata address \(never allowed\)$"):
        check_name(everything, addr)


@pytest.mark.parametrize("addr", ALLOWED)
def test_default_allows_global_unicast(addr):
    assert refusal_reason(ipaddress.ip_address(addr)) is None


@pytest.mark.parametrize(
    "spelling",
    [
        "2130706433",
        "0x7f000001",
        "0177.0.0.1",
        "0x7f.0.0.1",
        "127.1",
        "127.0.1",
        "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
        "[::127.0.0.1]",
        "127.0.0.1.",
        "[0:0:0:0:0:ffff:127.0.0.1]",
    ],
)
def test_other_notations_of_loopback_are_normalised(spelling):
    assert parse_ip(spelling) == ipaddress.ip_address("127.0.0.1")
    with pytest.raises(PolicyRefused, match="loopback"):
        check_name(Policy(), spelling)


def test_metadata_spellings_are_normalised():
    assert parse_ip("2852039166") == ipaddress.ip_address("169.254.169.254")
    assert parse_ip("0xa9fea9fe") == ipaddress.ip_address("169.254.169.254")
    assert parse_ip("[::ffff:a9fe:a9fe]") == ipaddress.ip_address("169.254.169.254")
    for spelling in ("2852039166", "0xa9.0xfe.0xa9.0xfe", "[::ffff:169.254.169.254]"):
        with pytest.raises(PolicyRefused, match="metadata"):
            check_name(Policy(allow_private=True), spelling)


def test_zone_ids_are_stripped():
    assert parse_ip("[fe80::1%eth0]") == ipaddress.ip_address("fe80::1")


def test_names_are_not_addresses():
    for name in ("example.com", "1.2.3.4.5", "256.1.1.1.1", "0xg", "localhost", "1e3"):
        assert parse_ip(name) is None


@pytest.mark.parametrize(
    "name",
    [
        "metadata.google.internal",
        "METADATA.goog.",
        "x.metadata.goog",
        "instance-data",
        "a.instance-data",
    ],
)
def test_metadata_names_always_refused(name):
    with pytest.raises(PolicyRefused, match="metadata"):
        check_name(Policy(allow_private=True, allow_hosts=frozenset({canonical_host(name)})), name)


def test_allow_private_allows_private_ranges_but_not_link_local_or_metadata():
    policy = Policy(allow_private=True)
    for addr in ("127.0.0.1", "10.0.0.1", "192.168.0.1", "100.64.1.1", "fd00::1", "::1"):
        check_address(policy, addr, ipaddress.ip_address(addr))
    for addr in ("169.254.1.1", "fe80::1", "169.254.169.254"):
        with pytest.raises(PolicyRefused):
            check_address(policy, addr, ipaddress.ip_address(addr))


def test_allow_host_is_exact():
    policy = Policy(allow_hosts=frozenset({"127.0.0.1"}))
    check_address(policy, "127.0.0.1", ipaddress.ip_address("127.0.0.1"))
    with pytest.raises(PolicyRefused, match="127.0.0.2"):
        check_address(policy, "127.0.0.2", ipaddress.ip_address("127.0.0.2"))


def test_allow_host_by_name_allows_its_addresses():
    policy = Policy(allow_hosts=frozenset({"intranet.test"}))
    check_address(policy, "intranet.test", ipaddress.ip_address("10.0.0.5"))
    with pytest.raises(PolicyRefused):
        check_address(policy, "other.test", ipaddress.ip_address("10.0.0.5"))


def test_refusal_names_rule_and_way_to_allow():
    with pytest.raises(PolicyRefused) as info:
        check_address(Policy(), "10.0.0.1", ipaddress.ip_address("10.0.0.1"))
    assert "private address" in info.value.message and "--allow-private" in info.value.message
    assert info.value.code == 77


def _fake_getaddrinfo(answers):
    def fake(host, port, *a, **kw):
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (
                socket.AF_INET6 if ":" in ip else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (ip, port),
            )
            for ip in answers[host]
        ]

    return fake


def test_resolve_checked_refuses_a_mixed_answer(monkeypatch):
    # A name that lists a public and a private address (rebinding set-up) is refused whole.
    monkeypatch.setattr(
        socket, "getaddrinfo", _fake_getaddrinfo({"mixed.test": ["8.8.8.8", "10.0.0.1"]})
    )
    with pytest.raises(PolicyRefused, match="10.0.0.1"):
        resolve_checked(Policy(), "mixed.test", 80)


def test_resolve_checked_returns_checked_addresses(monkeypatch):
    monkeypatch.setattr(
        socket, "getaddrinfo", _fake_getaddrinfo({"ok.test": ["8.8.8.8", "2606:4700::1"]})
    )
    addrs = resolve_checked(Policy(), "ok.test", 80)
    assert [str(a) for a in addrs] == ["8.8.8.8", "2606:4700::1"]


@pytest.fixture
def traced(capfd):
    """-v on for one test; what it wrote on stderr, line by line."""
    from common import trace

    capfd.readouterr()
    trace.enable("wf")
    try:
        yield lambda: capfd.readouterr().err.splitlines()
    finally:
        trace.enable("wf", False)


def test_resolve_checked_traces_why_each_address_was_allowed(monkeypatch, traced):
    answers = {"ok.test": ["8.8.8.8"], "box.test": ["10.0.0.5"], "v6.test": ["::ffff:10.0.0.6"]}
    monkeypatch.setattr(socket, "getaddrinfo", _fake_getaddrinfo(answers))
    resolve_checked(Policy(), "ok.test", 80)
    assert traced() == ["wf: * policy: ok.test (8.8.8.8) allowed: public address"]
    # A literal is shown once; its kind is the one --allow-private let through.
    resolve_checked(Policy(allow_private=True), "127.0.0.1", 80)
    assert traced() == ["wf: * policy: 127.0.0.1 allowed: loopback address, --allow-private"]
    # Allowed by its name (as written, matched in canonical form) though its address is not.
    resolve_checked(Policy(allow_hosts=frozenset({"box.test"})), "Box.Test.", 80)
    assert traced() == ["wf: * policy: Box.Test. (10.0.0.5) allowed: on the allowed-host list"]
    # Allowed by its address, an IPv4-mapped answer matched as the IPv4 address it maps.
    resolve_checked(Policy(allow_hosts=frozenset({"10.0.0.6"})), "v6.test", 80)
    mapped = ipaddress.ip_address("::ffff:10.0.0.6")  # ::ffff:a00:6 before Python 3.13
    assert traced() == [f"wf: * policy: v6.test ({mapped}) allowed: on the allowed-host list"]
    resolve_checked(Policy(allow_private=True, allow_hosts=frozenset({"10.0.0.6"})), "box.test", 80)
    assert traced() == [
        "wf: * policy: box.test (10.0.0.5) allowed: private address, --allow-private"
    ]


def test_resolve_checked_traces_the_refusal_it_raises(monkeypatch, traced):
    monkeypatch.setattr(
        socket, "getaddrinfo", _fake_getaddrinfo({"mixed.test": ["8.8.8.8", "10.0.0.1"]})
    )
    with pytest.raises(PolicyRefused) as info:
        resolve_checked(Policy(), "mixed.test", 80)
    assert info.value.message.startswith("refused mixed.test (10.0.0.1): private address; ")
    assert traced() == [f"wf: * policy: {info.value.message}"]


def test_resolve_checked_maps_lookup_failure_to_dns_error(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", _fake_getaddrinfo({}))
    with pytest.raises(DNSError):
        resolve_checked(Policy(), "nowhere.test", 80)


def test_rebinding_name_is_checked_on_the_address_actually_used(monkeypatch):
    """The client connects only to an address the policy checked: a name that resolves to a
    forbidden address is refused before any socket connects."""
    from common.http.client import NetOptions, fetch

    monkeypatch.setattr(socket, "getaddrinfo", _fake_getaddrinfo({"rebind.test": ["127.0.0.2"]}))

    def no_connect(*a, **kw):
        raise AssertionError("a socket tried to connect")

    monkeypatch.setattr(socket.socket, "connect", no_connect)
    with pytest.raises(PolicyRefused, match="loopback"):
        fetch(
            "http://rebind.test/", NetOptions(policy=Policy(allow_hosts=frozenset({"127.0.0.1"})))
        )


def test_policy_from_env_reads_flags_and_env():
    p = policy_from_env({"WF_ALLOW_PRIVATE": "1", "WF_ALLOW_HOSTS": "a.test, B.test."})
    assert p.allow_private and p.allow_hosts == {"a.test", "b.test"}
    p = policy_from_env({"WF_ALLOW_PRIVATE": "1"}, allow_private=False, allow_hosts=("127.0.0.1",))
    assert not p.allow_private and p.allow_hosts == {"127.0.0.1"}


# ---------------------------------------------------------------- issue 10: new refused ranges


@pytest.mark.parametrize(
    ("addr", "reason"),
    [
        ("2002:7f00:1::", "6to4 address embedding 127.0.0.1 (loopback address)"),
        ("2002:a00:1::1", "6to4 address embedding 10.0.0.1 (private address)"),
        ("2002:c000:201::", "6to4 address embedding 192.0.2.1 (documentation address)"),
        ("2002:a9fe:101:1::1", "6to4 address embedding 169.254.1.1 (link-local address)"),
        ("2002:c000:5::", "6to4 address embedding 192.0.0.5 (IETF protocol address)"),
        ("192.0.0.1", "IETF protocol address"),
        ("192.0.0.9", "IETF protocol address"),
        ("192.0.0.170", "IETF protocol address"),
        ("192.0.0.255", "IETF protocol address"),
    ],
)
def test_6to4_and_ietf_protocol_addresses_are_refused(addr, reason):
    assert refusal_reason(ipaddress.ip_address(addr)) == reason


def test_6to4_of_a_global_address_is_allowed():
    # 2002:808:808:: reaches 8.8.8.8 through a relay: as global as 8.8.8.8 itself.
    assert refusal_reason(ipaddress.ip_address("2002:808:808::1")) is None
    assert refusal_reason(ipaddress.ip_address("2001:db7::1")) is None


def test_6to4_of_a_private_address_follows_allow_private():
    addr = ipaddress.ip_address("2002:a00:1::1")
    assert refusal_reason(addr, allow_private=True) is None
    with pytest.raises(PolicyRefused) as info:
        check_address(Policy(), "six.test", addr)
    assert (
        "--allow-private" in info.value.message
        and "--allow-host 2002:a00:1::1" in info.value.message
    )


def test_ietf_protocol_range_stays_refused_with_allow_private():
    # Python counts 192.0.0.0/29 and 192.0.0.170/31 as private: not a LAN all the same.
    for addr in ("192.0.0.1", "192.0.0.170", "192.0.0.9"):
        assert (
            refusal_reason(ipaddress.ip_address(addr), allow_private=True)
            == "IETF protocol address"
        )
    check_address(
        Policy(allow_hosts=frozenset({"192.0.0.9"})), "192.0.0.9", ipaddress.ip_address("192.0.0.9")
    )


@pytest.mark.parametrize(
    "spelling",
    [
        "168.63.129.16",
        "2822734096",
        "[::ffff:a83f:8110]",
        "[2002:a83f:8110::]",
        "[2002:a9fe:a9fe::1]",
        "[64:ff9b::168.63.129.16]",
    ],
)
def test_azure_wire_server_and_6to4_metadata_are_never_allowed(spelling):
    everything = Policy(
        allow_private=True, allow_hosts=frozenset({canonical_host(spelling), "168.63.129.16"})
    )
    with pytest.raises(PolicyRefused, match="cloud metadata address"):
        check_name(everything, spelling)


# ---------------------------------------------------------------- issue 10: advice that is true


def test_refusal_of_localhost_names_the_address_and_what_allows_it():
    # --allow-host 127.0.0.1 with http://localhost/: localhost is also ::1.
    policy = Policy(allow_hosts=frozenset({"127.0.0.1"}))
    check_address(policy, "localhost", ipaddress.ip_address("127.0.0.1"))
    with pytest.raises(PolicyRefused) as info:
        check_address(policy, "localhost", ipaddress.ip_address("::1"))
    message = info.value.message
    assert message.startswith("refused localhost (::1): loopback address; ")
    assert "--allow-host ::1" in message and "--allow-host localhost" in message
    # Each piece of advice, taken, allows it.
    for value in ("::1", "localhost"):
        advised = policy_from_env({}, allow_hosts=("127.0.0.1", value))
        check_address(advised, "localhost", ipaddress.ip_address("::1"))
    check_address(policy_from_env({}, allow_private=True), "localhost", ipaddress.ip_address("::1"))


def test_refusal_of_a_non_private_kind_does_not_advise_allow_private():
    with pytest.raises(PolicyRefused) as info:
        check_address(Policy(), "docs.test", ipaddress.ip_address("192.0.2.7"))
    message = info.value.message
    assert "--allow-host 192.0.2.7" in message and "--allow-host docs.test" in message
    assert "--allow-private" not in message


# ---------------------------------------------------------------- issue 10: --allow-host values


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ("127.0.0.1:8001", "--allow-host 127.0.0.1"),
        ("localhost:8080", "--allow-host localhost"),
        ("[::1]:8001", "--allow-host ::1"),
        ("", "--allow-host 127.0.0.1"),
        ("   ", "--allow-host 127.0.0.1"),
        ("http://127.0.0.1:8001/x", "--allow-host 127.0.0.1"),
        ("https://Example.COM/", "--allow-host example.com"),
        ("example.com/path", "--allow-host example.com"),
        (" example.com", "spaces"),
        ("a b.test", "spaces"),
        ("*.example.com", "patterns"),
        ("exa$mple.com", "not a valid host"),
    ],
)
def test_bad_allow_host_values_are_usage_errors_with_a_hint(value, hint):
    from common.errors import UsageError

    with pytest.raises(UsageError) as info:
        policy_from_env({}, allow_hosts=(value,))
    assert info.value.code == 2
    assert info.value.message.startswith("--allow-host takes a host name or address without a port")
    assert hint in info.value.message


def test_bad_allow_hosts_variable_is_named():
    from common.errors import UsageError

    with pytest.raises(UsageError, match=r"^WF_ALLOW_HOSTS takes .*: WF_ALLOW_HOSTS 127\.0\.0\.1$"):
        policy_from_env({"WF_ALLOW_HOSTS": "a.test, 127.0.0.1:8001"})


@pytest.mark.parametrize(
    ("value", "canonical"),
    [
        ("::1", "::1"),
        ("[::1]", "::1"),
        ("127.0.0.1", "127.0.0.1"),
        ("Example.COM.", "example.com"),
        ("bücher.test", "xn--bcher-kva.test"),
        ("localhost", "localhost"),
        ("0x7f.1", "127.0.0.1"),
        ("under_score.test", "under_score.test"),
    ],
)
def test_good_allow_host_values_are_canonical(value, canonical):
    assert policy_from_env({}, allow_hosts=(value,)).allow_hosts == {canonical}


# ---------------------------------------------------------------- issue 16: mutation survivors
# Each test below kills mutants of common/policy.py that the suite let live (make mutation).


def test_with_hosts_adds_canonical_hosts_and_keeps_the_rest():
    base = Policy(allow_private=True, allow_hosts=frozenset({"a.example"}))
    wider = base.with_hosts("B.Example.", "", "[::1]")
    assert wider.allow_private is True
    assert wider.allow_hosts == frozenset({"a.example", "b.example", "::1"})
    assert base.with_hosts() == base
    assert Policy().with_hosts("x.example").allow_private is False


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[::1", None),  # half a bracket pair is no address
        ("::1]", None),
        ("[fe80::1%a%b]", "fe80::1"),  # everything from the first "%" is the zone
        ("1.2.3.4X", None),
        ("[::2]", "0.0.0.2"),  # IPv4-compatible, as inet_pton reads it
        ("[::1]", "::1"),  # but ::1 stays loopback IPv6
        ("1.2.3.4.0", None),  # five parts
        ("0x", "0.0.0.0"),  # inet_aton reads a bare 0x as 0
        ("127.0.0.0x", "127.0.0.0"),
        ("1.2.3.08", None),  # 08 is octal, and 8 is no octal digit
        ("1.2.3.07", "1.2.3.7"),
        ("1.2.3.010", "1.2.3.8"),
        ("255.1.1.1", "255.1.1.1"),
        ("256.1.1.1", None),
        ("256.0.0.1", None),
        ("1.2.3.256", None),
        ("1.2.65535", "1.2.255.255"),
        ("1.2.65536", None),
        ("1.16777215", "1.255.255.255"),
        ("1.16777216", None),
        ("4294967295", "255.255.255.255"),
        ("4294967296", None),
    ],
)
def test_parse_ip_edges(text, expected):
    got = parse_ip(text)
    assert got == (None if expected is None else ipaddress.ip_address(expected))


@pytest.mark.parametrize(
    ("host", "canonical"),
    [
        ("[Example.COM]", "example.com"),
        ("XBOX.example", "xbox.example"),
        ("[WWW.XBOX.]", "www.xbox"),
        ("  Bücher.example. ", "xn--bcher-kva.example"),
    ],
)
def test_canonical_host_edges(host, canonical):
    assert canonical_host(host) == canonical


def test_teredo_and_other_special_ipv6_is_refused_as_reserved():
    # Not global, yet neither reserved nor private in any earlier rule.
    assert refusal_reason(ipaddress.ip_address("2001::1")) == "reserved address"
    assert refusal_reason(ipaddress.ip_address("2001:2::1")) == "reserved address"


def test_refusal_of_a_literal_address_names_it_once():
    addr = ipaddress.ip_address("10.0.0.1")
    with pytest.raises(PolicyRefused) as info:
        check_address(Policy(), "10.0.0.1", addr)
    assert info.value.message == (
        "refused 10.0.0.1: private address; allow it with --allow-host 10.0.0.1, "
        "or --allow-private (or WF_ALLOW_PRIVATE=1)"
    )


def test_check_scheme():
    from common.policy import check_scheme

    check_scheme("http", "http://a.example/")
    check_scheme("HTTPS", "HTTPS://a.example/")
    with pytest.raises(PolicyRefused) as info:
        check_scheme("ftp", "ftp://a.example/")
    assert info.value.message == "refused ftp://a.example/: scheme 'ftp' is not http or https"
    with pytest.raises(PolicyRefused) as info:
        check_scheme("", "a.example")
    assert info.value.message == "refused a.example: scheme '(none)' is not http or https"


class _Lookup:
    """socket.getaddrinfo's stand-in: records how it was called (and from which thread),
    answers what the test says, optionally after ``release`` is set."""

    def __init__(self, answer, *, release=None, fail=None) -> None:
        self.answer, self.release, self.fail = answer, release, fail
        self.calls: list[tuple] = []
        self.threads: list[tuple[str, bool]] = []

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):  # noqa: A002
        import threading

        self.calls.append((host, port, type))
        me = threading.current_thread()
        self.threads.append((me.name, me.daemon))
        if self.release is not None:
            self.release.wait(5)
        if self.fail is not None:
            raise self.fail
        return self.answer


def _info(*addrs: str, family=None):
    out = []
    for a in addrs:
        fam = family or (socket.AF_INET6 if ":" in a else socket.AF_INET)
        out.append((fam, socket.SOCK_STREAM, 6, "", (a, 80)))
    return out


def test_resolve_asks_once_for_the_canonical_name_in_a_daemon_thread(monkeypatch):
    from common.policy import resolve

    lookup = _Lookup(_info("8.8.8.8", "8.8.8.8", "2606:4700::1"))
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    assert resolve("Example.COM.", 8443) == [
        ipaddress.ip_address("8.8.8.8"),
        ipaddress.ip_address("2606:4700::1"),
    ]
    assert lookup.calls == [("example.com", 8443, socket.SOCK_STREAM)]
    # A daemon thread: a lookup that never returns cannot keep the process alive.
    assert lookup.threads == [("wf-resolve", True)]


def test_resolve_of_a_literal_asks_nobody(monkeypatch):
    from common.policy import resolve

    lookup = _Lookup([])
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    assert resolve("127.0.0.1", 80) == [ipaddress.ip_address("127.0.0.1")]
    assert resolve("[::1]", 80) == [ipaddress.ip_address("::1")]
    assert lookup.calls == []


def test_resolve_skips_other_families_and_zone_ids(monkeypatch):
    from common.policy import resolve

    answer = _info("/tmp/x", family=socket.AF_UNIX) + _info("fe80::1%a%b", "1.2.3.4")
    monkeypatch.setattr(socket, "getaddrinfo", _Lookup(answer))
    assert resolve("z.test", 80) == [
        ipaddress.ip_address("fe80::1"),
        ipaddress.ip_address("1.2.3.4"),
    ]


@pytest.mark.parametrize("answer", [[], _info("/tmp/x", family=socket.AF_UNIX)])
def test_resolve_without_an_address_is_a_dns_error(monkeypatch, answer):
    from common.policy import resolve

    monkeypatch.setattr(socket, "getaddrinfo", _Lookup(answer))
    with pytest.raises(DNSError) as info:
        resolve("empty.test", 80)
    assert info.value.message == "could not resolve host empty.test"


@pytest.mark.parametrize("error", [OSError("nope"), UnicodeError("bad label")])
def test_resolve_failure_is_a_dns_error(monkeypatch, error):
    from common.policy import resolve

    monkeypatch.setattr(socket, "getaddrinfo", _Lookup([], fail=error))
    with pytest.raises(DNSError) as info:
        resolve("fail.test", 80)
    assert info.value.message == "could not resolve host fail.test"


def test_resolve_gives_up_at_the_deadline(monkeypatch):
    import threading
    import time

    from common.errors import Timeout
    from common.policy import resolve

    release = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", _Lookup(_info("8.8.8.8"), release=release))
    try:
        with pytest.raises(Timeout) as info:
            resolve("slow.test", 80, deadline=time.monotonic() + 0.2)
        assert info.value.message == "timed out resolving slow.test"
        # A deadline already past: no wait at all, even for an answer on its way.
        threading.Timer(0.6, release.set).start()
        with pytest.raises(Timeout):
            resolve("slow.test", 80, deadline=time.monotonic() - 1)
    finally:
        release.set()


def test_resolve_checked_checks_a_literal_and_passes_port_and_deadline(monkeypatch):
    import threading
    import time

    from common.errors import Timeout

    policy = Policy(allow_hosts=frozenset({"127.0.0.1"}))
    assert resolve_checked(policy, "127.0.0.1", 80) == [ipaddress.ip_address("127.0.0.1")]
    lookup = _Lookup(_info("8.8.8.8"))
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    resolve_checked(Policy(), "ok.test", 8080)
    assert lookup.calls == [("ok.test", 8080, socket.SOCK_STREAM)]
    release = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", _Lookup(_info("8.8.8.8"), release=release))
    try:
        with pytest.raises(Timeout):
            resolve_checked(Policy(), "slow.test", 80, deadline=time.monotonic() + 0.2)
    finally:
        release.set()


@pytest.mark.parametrize(
    ("value", "allowed"),
    [
        ("1", True),
        ("true", True),
        ("TRUE", True),
        ("Yes", True),
        (" on ", True),
        ("ON", True),
        ("0", False),
        ("no", False),
        ("off", False),
        ("", False),
        ("2", False),
    ],
)
def test_wf_allow_private_values(monkeypatch, value, allowed):
    assert policy_from_env({"WF_ALLOW_PRIVATE": value}).allow_private is allowed
    # Without a mapping the process environment is read.
    monkeypatch.setenv("WF_ALLOW_PRIVATE", value)
    assert policy_from_env().allow_private is allowed


def test_building_a_policy_leaves_the_proxy_variables_alone():
    # They are the CLI's own step at start-up (tests/hostile/test_proxy_env.py): a policy
    # is built from what it is given, with no check on the side.
    policy = policy_from_env({"HTTPS_PROXY": "socks5://127.0.0.1:1080"})
    assert policy == policy_from_env({})


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("http:///path", ", not a URL 'http:///path'"),
        (":80", ", not ':80'"),
        ("bad!:80", ", not 'bad!:80'"),
        ("X:80", ", not 'X:80': --allow-host x"),
    ],
)
def test_allow_host_hints_only_what_could_match(value, message):
    from common.errors import UsageError
    from common.policy import allow_host_value

    with pytest.raises(UsageError) as info:
        allow_host_value(value, "--allow-host")
    assert info.value.message == (
        "--allow-host takes a host name or address without a port or scheme" + message
    )


def test_allow_host_shows_at_most_100_characters_of_a_value():
    from common.errors import UsageError
    from common.policy import allow_host_value

    with pytest.raises(UsageError) as info:
        allow_host_value("a" * 150 + " b", "--allow-host")
    assert info.value.message.endswith(f"; {'a' * 100!r} has spaces in it")


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("a", True),
        (".".join(["a" * 63] * 3 + ["b" * 61]), True),  # 253 characters
        (".".join(["a" * 63] * 3 + ["b" * 62]), False),  # 254
    ],
)
def test_allow_host_name_length(name, valid):
    from common.errors import UsageError
    from common.policy import allow_host_value

    if valid:
        assert allow_host_value(name, "--allow-host") == name
    else:
        with pytest.raises(UsageError, match="is not a valid host name"):
            allow_host_value(name, "--allow-host")


# ---------------------------------------------------------------- hung lookups are bounded


class _HungResolver:
    """socket.getaddrinfo that answers 192.0.2.1 only once ``release`` is set (as a resolver
    that hangs would never): no lookup leaves the machine, and the test sets ``release``
    at its end so that no thread stays behind."""

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()
        self.calls: list[str] = []

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):  # noqa: A002
        self.calls.append(host)
        self.release.wait(60)  # bounded even if the test failed before setting it
        return _info("192.0.2.1")


def _resolver_threads() -> set:
    import threading

    return {t for t in threading.enumerate() if t.name == "wf-resolve" and t.is_alive()}


@pytest.fixture
def hung(monkeypatch):
    """A hung resolver for one test; afterwards every lookup it held has returned."""
    before = _resolver_threads()
    fake = _HungResolver()
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    try:
        yield fake
    finally:
        fake.release.set()
        for thread in _resolver_threads() - before:
            thread.join(5)
        assert _resolver_threads() - before == set()


def test_lookups_of_one_name_share_one_pending_thread(hung):
    import threading
    import time

    from common.errors import Timeout
    from common.policy import resolve

    before = _resolver_threads()
    # A long-running worker whose resolver hangs, asked the same host again and again:
    # each call gives up at its deadline, and all of them wait on one lookup.
    for _ in range(20):
        with pytest.raises(Timeout):
            resolve("hung.test", 443, deadline=time.monotonic() + 0.01)
    assert hung.calls == ["hung.test"]
    assert len(_resolver_threads() - before) == 1
    # Callers still waiting when the answer comes get it, from that one lookup.
    got: list[list] = []
    waiting = [
        threading.Thread(target=lambda: got.append(resolve("Hung.Test.", 80, deadline=None)))
        for _ in range(3)
    ]
    for thread in waiting:
        thread.start()
    hung.release.set()
    for thread in waiting:
        thread.join(5)
    assert got == [[ipaddress.ip_address("192.0.2.1")]] * 3
    assert hung.calls == ["hung.test"]
    # Once it has returned, the next call asks anew (answers are shared, never cached).
    assert resolve("hung.test", 80) == [ipaddress.ip_address("192.0.2.1")]
    assert hung.calls == ["hung.test", "hung.test"]


def test_past_a_fixed_number_of_hung_lookups_a_new_one_fails_at_once(hung):
    import time

    from common.errors import Timeout
    from common.policy import MAX_HUNG_LOOKUPS, resolve

    before = _resolver_threads()
    names = [f"hung{n}.test" for n in range(MAX_HUNG_LOOKUPS)]
    for name in names:
        with pytest.raises(Timeout) as timed_out:
            resolve(name, 80, deadline=time.monotonic() + 0.01)
        assert timed_out.value.code == 28
    assert len(_resolver_threads() - before) == MAX_HUNG_LOOKUPS
    # One more host: no thread, no lookup, no wait for the deadline (it is far away),
    # but the resolver's error, exit 6, on one line.
    with pytest.raises(DNSError) as info:
        resolve("another.test", 80, deadline=time.monotonic() + 30)
    assert info.value.code == 6
    assert info.value.message == (
        "could not resolve host another.test: the system resolver has not answered "
        f"{MAX_HUNG_LOOKUPS} earlier lookups"
    )
    assert hung.calls == names
    assert len(_resolver_threads() - before) == MAX_HUNG_LOOKUPS
    # A host already pending is still waited for, on its own thread.
    with pytest.raises(Timeout):
        resolve(names[0], 80, deadline=time.monotonic() + 0.01)
    assert hung.calls == names
    # Once the resolver answers, the hung lookups end and every host resolves again.
    hung.release.set()
    for thread in _resolver_threads() - before:
        thread.join(5)
    assert resolve("another.test", 80) == [ipaddress.ip_address("192.0.2.1")]


def test_a_forked_child_does_not_wait_on_its_parent_s_lookups(hung, monkeypatch):
    import os
    import time

    from common.errors import Timeout
    from common.policy import resolve

    parent = os.getpid()
    fake = hung.__call__

    def answers_in_a_child(host, port, *args, **kw):
        if os.getpid() != parent:
            return _info("192.0.2.7")
        return fake(host, port, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", answers_in_a_child)
    with pytest.raises(Timeout):
        resolve("forked.test", 80, deadline=time.monotonic() + 0.01)
    pid = os.fork()
    if pid == 0:
        # The parent's lookup has no thread here: waiting on it would time out.
        try:
            ok = resolve("forked.test", 80, deadline=time.monotonic() + 2) == [
                ipaddress.ip_address("192.0.2.7")
            ]
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
