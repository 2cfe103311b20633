"""Hostile redirects: loops, endless chains, forbidden targets in every spelling, other
schemes, odd relative targets, a 30x without a Location. Forbidden targets never see a
connection: they listen on 127.0.0.2, which the policy of each case does not allow."""

from __future__ import annotations

import time

import pytest

from tests.helpers import ALLOW, assert_one_line_error
from tests.hostile.handlers import path_of
from tests.servers import http_response, respond


def redirect(location: str, status: int = 302):
    return respond(status, b"", {"Location": location})


def test_two_url_loop(wf, serve):
    def handler(conn, req):
        nxt = "/b" if path_of(req) == "/a" else "/a"
        conn.sendall(http_response(301, b"", {"Location": nxt}))

    srv = serve(handler)
    r = wf(*ALLOW, srv.url + "a")
    assert_one_line_error(r, 47, "redirect loop")
    assert len(srv.requests) == 2


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_endless_chain_stops_after_ten_hops(wf, serve, status):
    def handler(conn, req):
        n = int(path_of(req).strip("/") or 0)
        conn.sendall(http_response(status, b"", {"Location": f"/{n + 1}"}))

    srv = serve(handler)
    r = wf(*ALLOW, srv.url + "0")
    assert_one_line_error(r, 47, "more than 10")
    assert len(srv.requests) == 11


def test_loop_through_userinfo_variants(wf, serve):
    # The same target with and without credentials is still the same target.
    srv = serve(
        lambda conn, req: conn.sendall(
            http_response(302, b"", {"Location": f"http://u:p@127.0.0.1:{conn.getsockname()[1]}/x"})
        )
    )
    r = wf(*ALLOW, srv.url + "x")
    assert_one_line_error(r, 47)
    assert len(srv.requests) <= 3


@pytest.mark.parametrize(
    "spelling",
    [
        "127.0.0.2",
        "2130706434",
        "0x7f000002",
        "0177.0.0.2",
        "127.2",
        "0x7f.0.0.2",
        "[::ffff:127.0.0.2]",
        "[::ffff:7f00:2]",
        "127.0.0.2.",
        "u:p@127.0.0.2",
        "127.0.0.1@127.0.0.2",
    ],
)
def test_redirect_to_a_forbidden_address_in_any_spelling(wf, serve, spelling):
    forbidden = serve(respond(200, b"secret"), host="127.0.0.2")
    srv = serve(redirect(f"http://{spelling}:{forbidden.port}/"))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 77, "refused")
    time.sleep(0.1)
    assert forbidden.connections == 0


def test_scheme_relative_redirect_to_a_forbidden_address(wf, serve):
    forbidden = serve(respond(200, b"secret"), host="127.0.0.2")
    srv = serve(redirect(f"//127.0.0.2:{forbidden.port}/x"))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 77, "127.0.0.2")
    time.sleep(0.1)
    assert forbidden.connections == 0


def test_redirect_to_a_metadata_address_even_with_allow_private(wf, serve):
    srv = serve(redirect("http://169.254.169.254/latest/meta-data/"))  # never connects: refused
    r = wf("--allow-private", srv.url)
    assert_one_line_error(r, 77, "metadata")


@pytest.mark.parametrize(
    "location",
    [
        "file:///etc/passwd",
        "gopher://127.0.0.1:70/_GET",
        "ftp://127.0.0.1/",
        "javascript:alert(1)",
        "data:text/html,<b>x</b>",
        "FILE:///etc/shadow",
        "dict://127.0.0.1:11211/stat",
        "javascript:\x1b]0;pwned\x07\x1b[2J",
    ],
    ids=["file", "gopher", "ftp", "javascript", "data", "FILE", "dict", "javascript-escapes"],
)
def test_redirect_to_another_scheme_is_refused(wf, serve, location):
    srv = serve(redirect(location))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 77, "is not http or https")
    assert len(srv.requests) == 1


@pytest.mark.parametrize(
    ("location", "expected_path"),
    [
        ("/a b/ü?q=ä ö", "/a%20b/%C3%BC?q=%C3%A4%20%C3%B6"),
        ("../../../x/../y", "/y"),
        ("  /padded  ", "/padded"),
        ("?only=query", "/start?only=query"),
        ("/%zz%", "/%25zz%25"),
        ("\\\\127.0.0.2\\x", "/%5C%5C127.0.0.2%5Cx"),
        ("/x\x1b[2J", None),
        ("/" + "a" * 40_000, None),
    ],
    ids=[
        "spaces-and-unicode",
        "dot-segments",
        "padded",
        "query-only",
        "bad-percent",
        "backslashes",
        "escape",
        "40k-path",
    ],
)
def test_relative_redirect_with_odd_characters(wf, serve, location, expected_path):
    def handler(conn, req):
        path = path_of(req)
        if path == "/start":
            conn.sendall(http_response(302, b"", {"Location": location}))
        else:
            conn.sendall(http_response(200, path.encode() + b"\n", {"Content-Type": "text/plain"}))

    srv = serve(handler)
    r = wf(*ALLOW, srv.url + "start")
    if expected_path is None:
        assert_one_line_error(r, 77, "refused redirect to an invalid URL")
        assert len(srv.requests) == 1
    else:
        assert (r.code, r.stdout) == (0, expected_path + "\n"), r.stderr


def test_redirect_to_its_own_fragment_is_a_loop(wf, serve):
    srv = serve(redirect("#again"))
    r = wf(*ALLOW, srv.url + "start")
    assert_one_line_error(r, 47, "redirect loop")
    assert len(srv.requests) == 1


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_without_location_shows_its_body_with_a_note(wf, serve, status):
    srv = serve(respond(status, b"moved somewhere\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout) == (0, "moved somewhere\n")
    assert r.stderr == f"wf: note: HTTP {status} without a Location header; showing its body\n"


def test_redirect_with_an_empty_location(wf, serve):
    srv = serve(respond(302, b"", {"Location": ""}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 0 and r.stderr.startswith("wf: note: HTTP 302 without a Location")


def test_redirect_with_an_invalid_port(wf, serve):
    srv = serve(redirect("http://127.0.0.1:99999/"))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 77, "refused redirect to an invalid URL")


def test_redirect_to_https_without_a_server_there(wf, serve):
    srv = serve(redirect("https://127.0.0.1:1/"))
    r = wf(*ALLOW, srv.url)
    assert_one_line_error(r, 7, "could not connect")


@pytest.mark.parametrize(
    ("location", "expected_path"),
    [
        ("/café".encode(), "/caf%C3%A9"),
        ("/日本/ü?q=ä ö".encode(), "/%E6%97%A5%E6%9C%AC/%C3%BC?q=%C3%A4%20%C3%B6"),
        (b"/caf\xe9", "/caf%C3%A9"),  # not UTF-8: read as Latin-1, as before
    ],
    ids=["utf-8", "utf-8-path-and-query", "latin-1"],
)
def test_raw_non_ascii_location_is_read_as_utf8_first(wf, serve, location, expected_path):
    # http.client decodes header bytes as Latin-1: /café arrived as /caf%C3%83%C2%A9.
    def handler(conn, req):
        if path_of(req) == "/start":
            conn.sendall(
                b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\nLocation: " + location + b"\r\n\r\n"
            )
        else:
            conn.sendall(
                http_response(200, path_of(req).encode() + b"\n", {"Content-Type": "text/plain"})
            )

    srv = serve(handler)
    r = wf(*ALLOW, srv.url + "start")
    assert (r.code, r.stdout) == (0, expected_path + "\n"), r.stderr


# ------------------------------------------------ issue 16: the limits at their boundaries


@pytest.mark.parametrize(("hops", "code"), [(9, 0), (10, 0), (11, 47)])
def test_redirect_count_at_its_boundary(wf, serve, hops, code):
    """man wf.1: at most 10 redirects are followed; the eleventh is exit 47."""

    def handler(conn, req):
        n = int(path_of(req).strip("/") or 0)
        if n < hops:
            conn.sendall(http_response(302, b"", {"Location": f"/{n + 1}"}))
        else:
            conn.sendall(http_response(200, b"arrived\n", {"Content-Type": "text/plain"}))

    srv = serve(handler)
    r = wf(*ALLOW, srv.url + "0")
    if code == 0:
        assert r.code == 0, r.stderr
        assert r.stdout == "arrived\n"
        assert len(srv.requests) == hops + 1
    else:
        assert_one_line_error(r, 47, "more than 10")
        assert len(srv.requests) == 11


def _headers_of(request: bytes) -> dict[str, str]:
    head = request.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head)}


CALLER_CREDENTIALS = {
    "Cookie": "session=s3cret",
    "Authorization": "Bearer t0ken",
    "Proxy-Authorization": "Basic cHJveHk6cHc=",
}


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_caller_credential_headers_never_reach_another_host(serve, status):
    """Cookie and Authorization headers the caller gives stay with the host they were
    given for: a redirect to 127.0.0.2 (another host, allowed by the policy) gets none of
    them, while the headers that are not credentials still go."""
    from common.http.client import NetOptions, fetch
    from common.policy import Policy

    other = serve(respond(200, b"ok", {"Content-Type": "text/plain"}), host="127.0.0.2")
    first = serve(redirect(other.url + "landing", status))
    policy = Policy(allow_hosts=frozenset({"127.0.0.1", "127.0.0.2"}))
    resp = fetch(
        first.url,
        NetOptions(timeout=10, policy=policy),
        headers={**CALLER_CREDENTIALS, "X-Trace": "kept"},
    )
    assert resp.status == 200 and resp.body == b"ok"
    sent_first = _headers_of(first.requests[0])
    sent_other = _headers_of(other.requests[0])
    for name, value in CALLER_CREDENTIALS.items():
        assert sent_first[name.lower()] == value
        assert name.lower() not in sent_other
    assert sent_other["x-trace"] == "kept"


def start_then_end(conn, req):
    """/start redirects to /end on the same origin; /end answers "ok"."""
    if path_of(req) == "/start":
        conn.sendall(http_response(302, b"", {"Location": "/end"}))
    else:
        conn.sendall(http_response(200, b"ok", {"Content-Type": "text/plain"}))


def test_caller_credential_headers_follow_a_redirect_on_the_same_host(serve):
    """The strip is for other hosts only: a redirect on the same host keeps them (so the
    test above fails for the right reason, not because headers are never sent twice)."""
    from common.http.client import NetOptions, fetch
    from common.policy import Policy

    srv = serve(start_then_end)
    policy = Policy(allow_hosts=frozenset({"127.0.0.1"}))
    fetch(srv.url + "start", NetOptions(timeout=10, policy=policy), headers=CALLER_CREDENTIALS)
    assert len(srv.requests) == 2
    for name, value in CALLER_CREDENTIALS.items():
        assert _headers_of(srv.requests[1])[name.lower()] == value


USER_CREDENTIALS = {"Authorization": "Bearer t0ken", "Cookie": "s=1", "X-Api-Key": "k3y"}


def _with_credentials() -> list[str]:
    return [arg for name, value in USER_CREDENTIALS.items() for arg in ("-H", f"{name}: {value}")]


def test_credentials_never_follow_a_redirect_to_another_port_of_the_same_host(wf, serve):
    """The origin is scheme, host and port (as curl has it): :A redirecting to :B on the
    same address is another origin, and gets neither -H headers nor userinfo."""
    other = serve(respond(200, b"ok", {"Content-Type": "text/plain"}))
    first = serve(redirect(f"http://127.0.0.1:{other.port}/landing"))
    url = first.url.replace("http://", "http://u:pw@") + "start"
    r = wf(*ALLOW, *_with_credentials(), url)
    assert (r.code, r.stdout) == (0, "ok\n"), r.stderr
    sent_first, sent_other = _headers_of(first.requests[0]), _headers_of(other.requests[0])
    for name, value in USER_CREDENTIALS.items():
        assert sent_first[name.lower()] == value
        assert name.lower() not in sent_other
    assert "authorization" not in sent_other and sent_other["user-agent"]


def test_credentials_never_follow_a_redirect_from_https_to_http(wf, serve, tmp_path, monkeypatch):
    """https to http on the same host and port number would send the token in clear text."""
    from tests.servers import self_signed_context

    plain = serve(respond(200, b"ok", {"Content-Type": "text/plain"}))
    ctx = self_signed_context(tmp_path, name="127.0.0.1")
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "cert.pem"))
    secure = serve(redirect(f"http://127.0.0.1:{plain.port}/landing"), tls=ctx)
    r = wf(*ALLOW, *_with_credentials(), secure.url + "start")
    assert (r.code, r.stdout) == (0, "ok\n"), r.stderr
    sent_plain = _headers_of(plain.requests[0])
    for name in USER_CREDENTIALS:
        assert name.lower() not in sent_plain


def test_credentials_follow_a_redirect_within_the_origin(wf, serve):
    """The control: a redirect on the same scheme, host and port keeps them all."""

    srv = serve(start_then_end)
    r = wf(*ALLOW, *_with_credentials(), srv.url + "start")
    assert r.code == 0, r.stderr
    for name, value in USER_CREDENTIALS.items():
        assert _headers_of(srv.requests[1])[name.lower()] == value
