"""Hostile command lines: numbers out of range, save paths that try to leave the scratch
dir, URLs that try to fool the parser or the policy. Every one ends with exit 2, 3 or 77
and one line, or has a documented meaning; none leaves a traceback or a stray file."""

from __future__ import annotations

import os
import socket
import time

import pytest

from tests.helpers import ALLOW, saved_files
from tests.servers import http_response, respond

TEXT = {"Content-Type": "text/plain"}


def lines_server(serve, n: int = 50):
    body = "".join(f"line {i}\n" for i in range(1, n + 1)).encode()
    return serve(respond(200, body, TEXT))


def _usage(r, *needles: str) -> None:
    assert r.code == 2, (r.code, r.stderr)
    assert r.stderr.startswith("wf: (2) ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr
    for needle in needles:
        assert needle in r.stderr, r.stderr


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "args",
    [
        ("--from", "0"),
        ("--to", "-1"),
        ("--to", "0"),
        ("--from", "-5"),
        ("--from", "5", "--to", "2"),
        ("--max-length", "-1"),
        ("--from", "1.5"),
        ("--from", "0x10"),
        ("--from", ""),
        ("--timeout", "0"),
        ("--timeout", "-1"),
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "1e400"),
        ("--timeout", "86401"),
        ("--max-bytes", "0"),
        ("--max-bytes", "-1"),
        ("--max-bytes", "nan"),
        ("--max-bytes", "inf"),
        ("--max-bytes", "1e30"),
        ("--max-bytes", "10Q"),
        ("--max-bytes", ""),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, tuple) else a,
)
def test_out_of_range_numbers_are_usage_errors(wf, serve, args):
    srv = lines_server(serve)
    r = wf(*ALLOW, *args, srv.url)
    _usage(r)
    assert srv.requests == []  # refused before any traffic


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WF_MAX_LENGTH", "abc"),
        ("WF_TIMEOUT", "soon"),
        ("WF_TIMEOUT", "0"),
        ("WF_TIMEOUT", "86401"),
        ("WF_MAX_BYTES", "lots"),
        ("WF_AUTOSAVE_BYTES", "1e3"),
        ("WF_RENDER", "sometimes"),
        ("WF_RENDER_TIMEOUT", "soon"),
        ("WF_RENDER_TIMEOUT", "0"),
        ("WF_RENDER_KEEPALIVE", "-1"),
    ],
)
def test_bad_values_in_the_environment_are_usage_errors(wf, serve, monkeypatch, name, value):
    # Checked at start-up with the flags, so the line names the variable, not a flag it
    # stands in for, and nothing is fetched first.
    srv = lines_server(serve)
    monkeypatch.setenv(name, value)
    r = wf(*ALLOW, srv.url)
    _usage(r, f"wf: (2) {name}={value!r}")
    assert "--" not in r.stderr, r.stderr
    assert srv.requests == []


def test_a_bad_render_timeout_fails_before_any_request(wf, serve, monkeypatch):
    # Once read only when a page needed rendering: after the fetch, as a per-page error,
    # or not at all for a page that did not need it.
    srv = lines_server(serve)
    monkeypatch.setenv("WF_RENDER_TIMEOUT", "soon")
    r = wf(*ALLOW, srv.url)
    _usage(r, "WF_RENDER_TIMEOUT='soon' is not a number of seconds")
    assert r.stdout == "" and srv.requests == []


def test_max_length_below_zero_in_the_environment_is_a_usage_error(wf, serve, monkeypatch):
    srv = lines_server(serve)
    monkeypatch.setenv("WF_MAX_LENGTH", "-3")
    r = wf(*ALLOW, srv.url)
    assert r.stderr == "wf: (2) WF_MAX_LENGTH='-3': must be 0 (no limit) or more, not -3\n"
    _usage(r)
    assert srv.requests == []
    # The flag's own value is named as the flag.
    r = wf(*ALLOW, "--max-length", "-3", srv.url)
    assert r.stderr == "wf: (2) --max-length must be 0 (no limit) or more, not -3\n"


def test_a_flag_at_its_default_value_still_beats_the_variable(wf, serve, monkeypatch):
    srv = lines_server(serve)
    monkeypatch.setenv("WF_MAX_BYTES", "10")
    assert wf(*ALLOW, srv.url).code == 63  # the variable is read...
    r = wf(*ALLOW, "--max-bytes", "10M", srv.url)  # ...and a flag given says otherwise
    assert r.code == 0 and r.stdout.startswith("line 1\n"), r.stderr


def test_max_length_zero_means_no_limit(wf, serve):
    srv = lines_server(serve, 5000)
    r = wf(*ALLOW, "--no-save", "--max-length", "0", srv.url)
    assert r.code == 0 and r.stdout.count("\n") == 5000 and "[wf:" not in r.stdout


HUGE = str(10**30)


def test_huge_from_is_past_the_end(wf, serve):
    r = wf(*ALLOW, "--json", "--from", HUGE, lines_server(serve).url)
    import json

    obj = json.loads(r.stdout)
    assert r.code == 0 and obj["text"] == "" and obj["lines"]["matched"] == 50
    assert any("past the last line" in n for n in obj["notes"])


@pytest.mark.parametrize(
    "args",
    [
        ("--to", HUGE),
        ("--max-length", HUGE),
        ("--from", "1", "--to", HUGE),
        ("--max-bytes", "4G"),
        ("--timeout", "86400"),
    ],
)
def test_huge_but_valid_numbers_work(wf, serve, args):
    r = wf(*ALLOW, *args, lines_server(serve, 3).url)
    assert (r.code, r.stdout) == (0, "line 1\nline 2\nline 3\n"), r.stderr


# ---------------------------------------------------------------- save paths


def test_dot_dot_etc_passwd_is_saved_as_passwd_in_the_scratch_dir(
    wf, serve, scratch, tmp_path, monkeypatch
):
    # From cwd tmp/x/y, ../../etc/passwd would be tmp/etc/passwd: a decoy, not the real one.
    decoy = tmp_path / "etc" / "passwd"
    decoy.parent.mkdir()
    decoy.write_text("root:x:0:0\n")
    (tmp_path / "x" / "y").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "x" / "y")
    r = wf(*ALLOW, "--save-path", "../../etc/passwd", lines_server(serve, 3).url)
    assert r.code == 0, r.stderr
    assert decoy.read_text() == "root:x:0:0\n"
    assert (scratch / "passwd").read_text() == "line 1\nline 2\nline 3\n"
    assert str(scratch / "passwd") in r.stdout


@pytest.mark.parametrize(
    ("given", "saved"),
    [("dir/", "dir"), ("a\\b", "b"), ("./x/../y", "y"), ("  spaced  ", "spaced"), ("-rf", "-rf")],
)
def test_save_path_keeps_only_its_base_name(wf, serve, scratch, given, saved):
    r = wf(*ALLOW, "--save-path", given, lines_server(serve, 3).url)
    assert r.code == 0, r.stderr
    assert [p.name for p in saved_files(scratch)] == [saved]


def test_absolute_save_path_keeps_only_its_base_name(wf, serve, scratch, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    r = wf(*ALLOW, "--save-path", str(outside / "stolen.txt"), lines_server(serve, 3).url)
    assert r.code == 0, r.stderr
    assert list(outside.iterdir()) == []
    assert (scratch / "stolen.txt").exists()


@pytest.mark.parametrize(
    "name",
    ["a\x00b", "a\nb", "a\rb", "..", ".", "", "/", "../..", "x" * 256, "é" * 128],
    ids=[
        "nul",
        "newline",
        "cr",
        "dotdot",
        "dot",
        "empty",
        "slash",
        "dotdot-dotdot",
        "256-bytes",
        "256-utf8-bytes",
    ],
)
def test_impossible_save_names_are_usage_errors(wf, serve, scratch, name):
    srv = lines_server(serve, 3)
    r = wf(*ALLOW, "--save-path", name, srv.url)
    _usage(r, "--save-path")
    assert srv.requests == []
    assert not scratch.exists() or list(scratch.iterdir()) == []


@pytest.mark.parametrize("target_kind", ["file", "dir", "dangling"])
def test_symlink_in_the_scratch_dir_is_replaced_not_followed(
    wf, serve, scratch, tmp_path, target_kind
):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim"
    if target_kind == "file":
        victim.write_text("precious\n")
    elif target_kind == "dir":
        victim.mkdir()
    scratch.mkdir()
    (scratch / "evil").symlink_to(victim)
    r = wf(*ALLOW, "--save-path", "evil", lines_server(serve, 3).url)
    assert r.code == 0, r.stderr
    assert not (scratch / "evil").is_symlink()
    assert (scratch / "evil").read_text() == "line 1\nline 2\nline 3\n"
    if target_kind == "file":
        assert victim.read_text() == "precious\n"
    elif target_kind == "dir":
        assert list(victim.iterdir()) == []
    else:
        assert not victim.exists()
    assert sorted(p.name for p in outside.iterdir()) == (
        [] if target_kind == "dangling" else ["victim"]
    )


def test_real_etc_passwd_is_never_written(serve, tmp_path):
    """The literal /etc/passwd. As root it runs in a mount namespace whose /etc is an
    empty tmpfs, so even a broken build could not touch the real file; otherwise the
    file is not writable anyway."""
    from tests.hostile import proc

    srv = lines_server(serve, 3)
    argv = ["wf", *ALLOW, "--save-path", "/etc/passwd", srv.url]
    if os.geteuid() == 0:
        probe = proc.run(["unshare", "--mount", "true"])
        if probe.code != 0:
            pytest.skip("root, but no mount namespace here (unshare --mount failed)")
        from tests.helpers import tool_path

        script = 'mount -t tmpfs tmpfs /etc && "$@"; rc=$?; echo "@@ $(ls -A /etc)"; exit $rc'
        argv = ["unshare", "--mount", "sh", "-c", script, "_", tool_path("wf"), *argv[1:]]
    r = proc.run(argv, env=proc.env())
    assert r.code == 0, r.stderr
    scratch = tmp_path / "scratch"
    assert (scratch / "passwd").read_text() == "line 1\nline 2\nline 3\n"
    if os.geteuid() == 0:
        assert r.text.rstrip().endswith("@@"), r.text  # nothing appeared in /etc


# ---------------------------------------------------------------- URLs


@pytest.fixture
def forbidden(serve):
    """A server on 127.0.0.2, which the cases' policy (only 127.0.0.1) does not allow."""
    return serve(respond(200, b"secret\n", TEXT), host="127.0.0.2")


def _refused(r, forbidden) -> None:
    # Every trick ends at the policy (exit 77), on the address it really leads to.
    assert r.code == 77, r.stderr
    assert r.stderr.startswith("wf: (77) refused ") and "127.0.0.2: loopback address" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    time.sleep(0.1)
    assert forbidden.connections == 0


@pytest.mark.parametrize(
    "template",
    [
        "http://127.0.0.1@127.0.0.2:{p}/",
        "http://127.0.0.1:{p}@127.0.0.2:{p}/",
        "http://127.0.0.2:{p}#@127.0.0.1:{p}/",
        "http://127.0.0.2:{p}?@127.0.0.1:{p}/",
        "http://127.0.0.1:{p}\\@127.0.0.2:{p}/",
        "http://user:pa@ss@127.0.0.2:{p}/",
        "http://%31%32%37.0.0.1@127.0.0.2:{p}/",
        "http://127.0.0.1%00@127.0.0.2:{p}/",
        "http://\uff11\uff12\uff17.\uff10.\uff10.\uff12:{p}/",
        "http://127\u30020\u30020\u30022:{p}/",
        "http://2130706434:{p}/",
        "http://0x7f.2:{p}/",
        "http://[::ffff:127.0.0.2]:{p}/",
        "http://127.0.0.2.:{p}/",
    ],
    ids=[
        "userinfo",
        "userinfo-port",
        "fragment-at",
        "query-at",
        "backslash-at",
        "two-at",
        "encoded-userinfo",
        "nul-userinfo",
        "fullwidth-digits",
        "ideographic-dots",
        "decimal",
        "hex-short",
        "v4-mapped",
        "trailing-dot",
    ],
)
def test_url_tricks_do_not_reach_a_forbidden_host(wf, forbidden, template):
    r = wf(*ALLOW, template.format(p=forbidden.port))
    _refused(r, forbidden)


def test_userinfo_for_an_allowed_host_is_sent_as_basic_auth(wf, serve):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(*ALLOW, srv.url.replace("http://", "http://127.0.0.2@"))
    assert (r.code, r.stdout) == (0, "ok\n")
    assert b"\r\nAuthorization: Basic MTI3LjAuMC4yOg==\r\n" in srv.requests[0]


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://[fe80::1%25eth0]/", "link-local address"),  # never connects: refused
        ("http://[fe80::1%eth0]:80/", "link-local address"),  # never connects: refused
        ("http://[fe80::1]/", "link-local address"),  # never connects: refused
        (
            "http://169.254.169.254/",  # never connects: refused
            "cloud metadata address (never allowed)",
        ),
        ("http://[::ffff:169.254.169.254]/", "cloud metadata address (never allowed)"),
        (
            "http://[fd00:ec2::254]/",  # never connects: refused
            "cloud metadata address (never allowed)",
        ),
        (
            "http://metadata.google.internal/",  # never connects: refused
            "cloud metadata service (never allowed)",
        ),
        ("http://0.0.0.0:1/", "unspecified address"),
        ("http://[::]:1/", "unspecified address"),
    ],
)
def test_link_local_and_metadata_targets_are_refused_without_a_packet(wf, url, reason):
    # The loopback-only guard fails the test if anything tries to connect or resolve.
    r = wf("--allow-private", url)
    assert r.code == 77, r.stderr
    assert r.stderr.count("\n") == 1
    assert r.stderr.startswith("wf: (77) refused ") and f": {reason}" in r.stderr, r.stderr


def test_ipv6_loopback_with_a_zone_id(wf, serve):
    try:
        srv = serve(respond(200, b"over ::1\n", TEXT), host="::1")
    except OSError:
        pytest.skip("no IPv6 loopback here")
    r = wf("--allow-private", f"http://[::1%25lo]:{srv.port}/")
    assert (r.code, r.stdout) == (0, "over ::1\n"), r.stderr


def test_idna_name_is_sent_as_punycode(wf, serve, loopback_only):
    srv = serve(respond(200, b"ok\n", TEXT))
    loopback_only["xn--bcher-kva.test"] = ("127.0.0.1",)
    r = wf("--allow-host", "bücher.test", f"http://BÜCHER.test:{srv.port}/")
    assert (r.code, r.stdout) == (0, "ok\n"), r.stderr
    assert f"host: xn--bcher-kva.test:{srv.port}".encode() in srv.requests[0].lower()


def test_fullwidth_localhost_is_still_localhost(wf, serve):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(f"http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:{srv.port}/")
    assert r.code == 77 and "loopback" in r.stderr, r.stderr
    assert srv.connections == 0


@pytest.mark.parametrize(
    "url",
    [
        "http://" + "a" * 64 + ".test/",
        "http://a..b/",
        "http://xn--/",
        "http://xn--a-\u00e9.test/",
        "http://\u200b/",
        "http://a b/",
        "http://[::1/",
        "http://[zz::1]/",
        "http://127.0.0.1:99999/",
        "http://127.0.0.1:-1/",
        "http://127.0.0.1:8o/",
        "http:///path",
        "http:/127.0.0.1/",
        "http:127.0.0.1",
        "//127.0.0.1/",
        "http://a<b/",
        "http://a%2fb/",
        "http://1.2.3.4.5/",
        "http://a.b.0x1f/",
        "http://a.b.123/",
        f"http://{'a.' * 127}a/",
    ],
)
def test_malformed_urls_exit_3(wf, url):
    # None of these may reach the resolver (the guard fails the test on a lookup).
    r = wf("--allow-private", url)
    assert r.code == 3, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "char",
    ["\x00", "\x07", "\t", "\x1b", "\x7f", "\n", "\r"],
    ids=["nul", "bel", "tab", "esc", "del", "lf", "cr"],
)
def test_control_characters_in_a_url_exit_3(wf, serve, char):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(*ALLOW, srv.url + "a" + char + "b")
    assert r.code == 3 and "control characters" in r.stderr, r.stderr
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr and srv.requests == []


def test_c1_control_in_a_path_is_percent_encoded(wf, serve):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(*ALLOW, srv.url + "a\u0085\u009bb")
    assert r.code == 0 and srv.requests[0].startswith(b"GET /a%C2%85%C2%9Bb HTTP/1.1\r\n")


def test_url_of_100_kb_exits_3(wf, serve):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(*ALLOW, srv.url + "?" + "q" * 100_000)
    assert r.code == 3 and "characters long" in r.stderr and srv.requests == []
    assert len(r.stderr) < 500


@pytest.mark.parametrize("scheme", ["HTTP", "Http", "hTtP"])
def test_schemes_in_odd_case_work(wf, serve, scheme):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(*ALLOW, srv.url.replace("http", scheme, 1))
    assert (r.code, r.stdout) == (0, "ok\n")


@pytest.mark.parametrize(
    "url",
    [
        "FILE:///etc/passwd",
        "File://localhost/etc/passwd",
        "GOPHER://127.0.0.1/",
        "javascript:alert(1)",
        "data:text/plain,hi",
        "ftp://127.0.0.1/",
        "HTTPS+X://127.0.0.1/",
        "ws://127.0.0.1/",
    ],
)
def test_other_schemes_in_any_case_exit_3(wf, url):
    r = wf("--allow-private", url)
    # A file: URL is refused before its scheme is read, as a local file (test_exit_codes).
    said = "is a local file" if url.lower().startswith("file:") else "unsupported scheme"
    assert r.code == 3 and said in r.stderr, r.stderr


def test_surrounding_whitespace_is_ignored(wf, serve):
    srv = serve(respond(200, b"ok\n", TEXT))
    r = wf(*ALLOW, f"  {srv.url}\n")
    assert (r.code, r.stdout) == (0, "ok\n")


def test_hostile_urls_on_stdin_each_get_their_line(wf, serve, forbidden):
    good = serve(respond(200, b"ok\n", TEXT))
    urls = [
        good.url,
        "gopher://x/",
        f"http://127.0.0.1@127.0.0.2:{forbidden.port}/",
        "http://a b/",
        "http://" + "x" * 40_000,
    ]
    r = wf(*ALLOW, "-", input="\n".join(urls) + "\n")
    assert r.code == 3  # the first error's code
    assert r.stdout == f"==> {good.url} <==\nok\n"
    assert len(r.stderr.splitlines()) == 4 and all(
        line.startswith("wf: (") for line in r.stderr.splitlines()
    )
    assert forbidden.connections == 0


@pytest.mark.parametrize("number", [2**32, 2**64, 10**40])
def test_a_host_that_is_a_number_too_big_for_ipv4_exits_3(wf, number):
    r = wf(f"http://{number}/")
    assert r.code == 3 and "invalid host name" in r.stderr, r.stderr


def test_request_line_cannot_be_split_by_the_url(wf, serve):
    srv = serve(lambda conn, req: conn.sendall(http_response(200, b"ok\n", TEXT)))
    r = wf(*ALLOW, srv.url + "a%0d%0aX-Injected:%20yes")
    assert r.code == 0
    assert b"\r\nX-Injected" not in srv.requests[0]


def test_nothing_listens_on_the_port(wf):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = wf(*ALLOW, f"http://127.0.0.1:{port}/")
    assert r.code == 7


UA_REFUSED = "--user-agent: the value holds control characters (one line only)"


@pytest.mark.parametrize("tool", ["wf", "ws"])
@pytest.mark.parametrize("ua", ["a\r\nX-Evil: 1", "a\nb", "a\x01b", "a\x1b[2Jb", "a\x7f"])
def test_user_agent_is_checked_as_a_header_value(serve, tool, ua):
    """--user-agent is a header value as -H's are: one line, no control characters, exit 2
    before any request (CR/LF was 'this is a bug', a C0 control was sent raw)."""
    from tests.helpers import ENGINE_VARIABLES, assert_one_line_error, invoke

    srv = serve(respond(200, b"ok", {"Content-Type": "text/plain"}))
    env = {name: srv.url for name in ENGINE_VARIABLES}
    target = [*ALLOW, srv.url] if tool == "wf" else ["rust"]
    r = invoke(tool, [*target, "--user-agent", ua], env=env)
    assert_one_line_error(r, 2, UA_REFUSED, tool=tool)
    assert srv.requests == []


@pytest.mark.parametrize("tool", ["wf", "ws"])
def test_user_agent_beyond_latin1_is_sent_as_utf8(serve, tool):
    """As -H sends such a value: its UTF-8 bytes (it was a latin-1 error)."""
    from tests.helpers import ENGINE_VARIABLES, invoke

    srv = serve(respond(200, b"ok", {"Content-Type": "text/plain"}))
    env = {name: srv.url for name in ENGINE_VARIABLES}
    target = [*ALLOW, srv.url] if tool == "wf" else ["--provider", "searxng", "rust"]
    r = invoke(tool, [*target, "--user-agent", "bot \U0001f600 Zo\u00eb"], env=env)
    assert "this is a bug" not in r.stderr and "latin-1" not in r.stderr, r.stderr
    assert b"\r\nUser-Agent: bot \xf0\x9f\x98\x80 Zo\xc3\xab\r\n" in srv.requests[0]
    if tool == "wf":
        assert (r.code, r.stdout) == (0, "ok\n")
