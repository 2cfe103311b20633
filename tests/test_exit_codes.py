"""One test per exit code that a local server can produce (wf through its CLI wrapper)."""

from __future__ import annotations

import gzip
import json
import shlex
import socket
import time

import pytest

from common.errors import EXIT_TABLE
from tests.helpers import ALLOW, Result, invoke
from tests.servers import http_response, respond, self_signed_context


def test_success_prints_body_and_exits_0(wf, serve):
    srv = serve(respond(200, b"hello\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "hello\n", "")


def test_404_exits_4(wf, serve):
    srv = serve(respond(404, b"nope", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 4
    assert r.stdout == ""
    assert r.stderr == f"wf: (4) HTTP 404 from {srv.url}\n"


def test_500_exits_5(wf, serve):
    srv = serve(respond(500, b"boom"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 5
    assert r.stderr == (
        f"wf: (5) HTTP 500 from {srv.url} (the server failed: try again later, or --retry N)\n"
    )


def test_unresolvable_host_exits_6(wf):
    r = wf("http://host.invalid/")
    assert r.code == 6
    assert r.stderr == (
        "wf: (6) could not resolve host host.invalid (check the host name, the network, or "
        "the proxy variables (http_proxy, https_proxy, no_proxy))\n"
    )


def test_closed_port_exits_7(wf):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    r = wf(*ALLOW, f"http://127.0.0.1:{port}/")
    assert r.code == 7
    assert "could not connect to 127.0.0.1" in r.stderr
    assert r.stderr.endswith(
        " (check the host and port, or the proxy variables (http_proxy, https_proxy, "
        "no_proxy); --retry N tries again)\n"
    )


def test_sleeping_server_exits_28_within_timeout_plus_one_second(wf, serve):
    srv = serve(lambda conn, req: time.sleep(5))
    start = time.monotonic()
    r = wf(*ALLOW, "--timeout", "1", srv.url)
    took = time.monotonic() - start
    assert r.code == 28
    assert took < 2.0
    assert r.stderr.startswith("wf: (28) timed out")
    assert r.stderr.endswith(" (raise --timeout, or --retry N for a server that stalls)\n")


def test_self_signed_https_exits_35(wf, serve, tmp_path):
    srv = serve(respond(200, b"secret"), tls=self_signed_context(tmp_path))
    r = wf(*ALLOW, srv.url)
    assert r.code == 35
    assert "certificate" in r.stderr


def test_redirect_loop_exits_47(wf, serve):
    srv = serve(respond(302, b"", {"Location": "/a"}))
    r = wf(*ALLOW, srv.url + "a")
    assert r.code == 47
    assert "redirect loop" in r.stderr


def test_eleven_redirects_exit_47(wf, serve):
    def hop(conn, req):
        n = int(req.split(b" ", 2)[1].strip(b"/") or 0)
        conn.sendall(http_response(302, b"", {"Location": f"/{n + 1}"}))

    srv = serve(hop)
    r = wf(*ALLOW, srv.url + "0")
    assert r.code == 47
    assert "more than 10" in r.stderr
    assert len(srv.requests) == 11


def test_ten_redirects_are_followed(wf, serve):
    def hop(conn, req):
        n = int(req.split(b" ", 2)[1].strip(b"/") or 0)
        if n == 10:
            conn.sendall(http_response(200, b"arrived\n", {"Content-Type": "text/plain"}))
        else:
            conn.sendall(http_response(301, b"", {"Location": f"/{n + 1}"}))

    srv = serve(hop)
    r = wf(*ALLOW, srv.url + "0")
    assert (r.code, r.stdout) == (0, "arrived\n")


def test_oversized_body_exits_63(wf, serve):
    srv = serve(respond(200, b"x" * 200_000, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--max-bytes", "100K", srv.url)
    assert r.code == 63
    assert "larger than the cap of 102400 bytes" in r.stderr


def test_gzip_bomb_exits_63(wf, serve):
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)
    assert len(bomb) < 100_000
    srv = serve(respond(200, bomb, {"Content-Type": "text/plain", "Content-Encoding": "gzip"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 63
    assert "decompressed body is larger than the cap" in r.stderr


def test_429_exits_75(wf, serve):
    srv = serve(respond(429, b"slow down"))
    r = wf(*ALLOW, srv.url)
    assert r.code == 75
    assert r.stderr.startswith("wf: (75) HTTP 429")


def test_loopback_without_allowance_exits_77_and_server_sees_nothing(wf, serve):
    srv = serve(respond(200, b"should not be read"))
    r = wf(srv.url)
    assert r.code == 77
    assert "loopback address" in r.stderr and "--allow-private" in r.stderr
    time.sleep(0.2)
    assert srv.connections == 0 and srv.requests == []


def test_redirect_to_forbidden_address_exits_77_and_target_sees_nothing(wf, serve):
    forbidden = serve(respond(200, b"private"), host="127.0.0.2")
    srv = serve(respond(302, b"", {"Location": forbidden.url}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 77
    assert "127.0.0.2" in r.stderr
    time.sleep(0.2)
    assert len(srv.requests) == 1
    assert forbidden.connections == 0


def test_redirect_to_other_scheme_is_refused_77(wf, serve):
    srv = serve(respond(302, b"", {"Location": "file:///etc/passwd"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 77 and "'file' is not http or https" in r.stderr


def test_unsupported_scheme_on_command_line_exits_3(wf):
    r = wf("gopher://127.0.0.1/")
    assert r.code == 3 and r.stderr.startswith("wf: (3) unsupported scheme 'gopher'")


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("/tmp/page.html", "/tmp/page.html is a local file, not an http(s) URL: read it"),
        ("./page.html", "./page.html is a local file, not an http(s) URL: read it"),
        (
            "File://localhost/tmp/page%20one.html",
            "File://localhost/tmp/page%20one.html is a local file, not an http(s) URL: read it",
        ),
    ],
)
def test_local_path_as_url_exits_3_naming_input(wf, tmp_path, monkeypatch, target, said):
    # The path exists and holds a page: wf still reads no file named as a URL.
    (tmp_path / "page.html").write_text("<p>secret words</p>")
    (tmp_path / "page one.html").write_text("<p>secret words</p>")
    monkeypatch.chdir(tmp_path)
    target, said = (t.replace("/tmp/", f"{tmp_path}/") for t in (target, said))
    path = target if target.startswith((".", "/")) else f"{tmp_path}/page one.html"
    r = wf(target)
    assert r.code == 3 and r.stdout == "", r.stderr
    assert r.stderr == f"wf: (3) {said} with wf --input {shlex.quote(path)}\n"


@pytest.mark.parametrize(
    ("target", "path"),
    [
        ("file://localhost/DIR/page.html", "/DIR/page.html"),
        ("FILE:/DIR/page.html", "/DIR/page.html"),
        ("file:///DIR/my%20page.html", "/DIR/my page.html"),
        (" /DIR/page.html", "/DIR/page.html"),
    ],
)
def test_a_file_url_names_the_path_input_reads(wf, tmp_path, target, path):
    # The hint is the file's path, as --input reads it: no host, no scheme, no escapes.
    target, path = (t.replace("/DIR", str(tmp_path)) for t in (target, path))
    r = wf(target)
    hint = f": read it with wf --input {shlex.quote(path)}\n"
    assert r.code == 3 and r.stderr.endswith(hint), r.stderr


@pytest.mark.parametrize(
    ("target", "path"),
    [
        ("/DIR/my page's.html", "/DIR/my page's.html"),
        ("file:///DIR/a%20b%24%28x%29.html", "/DIR/a b$(x).html"),
        ("~/my page.html", "~/my page.html"),
    ],
)
def test_the_hint_is_a_command_the_shell_reads_back(wf, tmp_path, target, path):
    # Pasted into a shell, the hint reads the file: its path one word, "~/" expanded.
    target, path = (t.replace("/DIR", str(tmp_path)) for t in (target, path))
    r = wf(target)
    hint = r.stderr.rstrip("\n").partition(": read it with ")[2]
    assert r.code == 3 and hint.startswith("wf --input "), r.stderr
    if path.startswith("~/"):
        assert hint.startswith("wf --input ~/'"), r.stderr  # the shell expands it
        hint, path = hint.replace("~/", "", 1), path[2:]
    assert shlex.split(hint) == ["wf", "--input", path], r.stderr


def test_a_file_url_on_another_host_names_no_local_path(wf):
    r = wf("file://fileserver/share/page.html")
    assert r.code == 3 and r.stderr == (
        "wf: (3) file://fileserver/share/page.html is a file: URL, not an http(s) URL\n"
    )


@pytest.mark.parametrize("target", ["file:8080/page", "file:8080", "File:80?q=1"])
def test_a_host_named_file_and_its_port_is_no_local_path(target):
    # "file:8080/page" is http://file:8080/page, as "localhost:8080/page" is: its fetch
    # is no local file's. Tested without the network: the host is no loopback address.
    from wf.targets import refuse_local_path

    refuse_local_path(target)  # raises nothing


@pytest.mark.parametrize(
    "target",
    ["localhost", "example.com", "example.com/docs/page.html", "page.html", "localhost:8080/x"],
)
def test_a_name_that_is_also_a_host_is_no_local_path(target):
    # Relative names that are host names are fetched as curl does (http:// before them),
    # never refused as files. Tested without the network: no request is made.
    from common.http.url import normalise_url
    from wf.targets import refuse_local_path

    refuse_local_path(target)  # raises nothing
    assert normalise_url(target).startswith("http://" + target.partition("/")[0])


def test_a_host_and_port_without_a_scheme_is_fetched(wf, serve):
    srv = serve(respond(200, b"hello\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url.removeprefix("http://"))
    assert (r.code, r.stdout, r.stderr) == (0, "hello\n", "")


def test_a_link_without_its_scheme_is_no_local_path(wf):
    r = wf("//127.0.0.1/page")
    assert r.code == 3 and "--input" not in r.stderr and "no host" in r.stderr, r.stderr


def test_bad_option_exits_2(wf):
    r = wf("--from", "x", "http://127.0.0.1/")
    assert r.code == 2 and r.stderr.startswith("wf: (2) ") and r.stderr.count("\n") == 1


def test_json_error_object_has_every_key(wf):
    r = wf("--json", "http://host.invalid/")
    assert r.code == 6
    obj = json.loads(r.stdout)
    assert obj["error"] == {
        "code": 6,
        "kind": "dns",
        "message": "could not resolve host host.invalid",
    }
    for key in (
        "url",
        "final_url",
        "status",
        "content_type",
        "charset",
        "title",
        "text",
        "lines",
        "truncated",
        "saved_to",
        "bytes",
        "rendered",
        "links",
        "entries",
        "notes",
        "elapsed_ms",
    ):
        assert key in obj


def test_credentials_dropped_on_cross_host_redirect(wf, serve):
    other = serve(respond(200, b"ok\n", {"Content-Type": "text/plain"}), host="127.0.0.3")
    srv = serve(respond(302, b"", {"Location": other.url}))
    r = wf(
        "--allow-host",
        "127.0.0.1",
        "--allow-host",
        "127.0.0.3",
        srv.url.replace("http://", "http://user:pw@"),
    )
    assert r.code == 0, r.stderr
    assert b"authorization: basic" in srv.requests[0].lower()
    assert b"authorization" not in other.requests[0].lower()


# ------------------------------------------------ issue 16: --max-bytes at its boundary

CAP = 1000


def _framed(body: bytes, framing: str) -> bytes:
    head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
    if framing == "length":
        return f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body
    if framing == "chunked":
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in (body[:300], body[300:]) if p)
        return f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + chunks + b"0\r\n\r\n"
    if framing == "gzip":
        packed = gzip.compress(body)
        return (
            f"{head}Content-Encoding: gzip\r\nContent-Length: {len(packed)}\r\n\r\n".encode()
            + packed
        )
    return f"{head}\r\n".encode() + body  # read until the server closes


@pytest.mark.parametrize("framing", ["length", "chunked", "close", "gzip"])
@pytest.mark.parametrize(("size", "code"), [(CAP - 1, 0), (CAP, 0), (CAP + 1, 63)])
def test_max_bytes_at_its_boundary(wf, serve, framing, size, code):
    """man wf.1: bodies *larger than* SIZE are refused, on the wire and after decoding;
    a body of exactly SIZE bytes is read whole."""
    tail = b"z" * (size % 100 - 1) + b"\n" if size % 100 else b""
    body = (b"y" * 99 + b"\n") * (size // 100) + tail
    assert len(body) == size
    answer = _framed(body, framing)
    srv = serve(lambda conn, _req: conn.sendall(answer))
    r = wf(*ALLOW, "--max-bytes", str(CAP), "--save", srv.url)
    assert r.code == code, r.stderr
    if code == 63:
        assert r.stderr.startswith("wf: (63) ") and f"cap of {CAP} bytes" in r.stderr
    else:
        assert r.stdout.startswith(f"[wf: saved full text ({size} bytes")


# ------------------------------------------ issue 25: one case per row of the exit table
#
# Every code of common/errors.py's table (which both man pages' EXIT STATUS list; tests/
# test_docs.py checks) is driven here through the real CLI, one case per code, the cases
# parametrised from the table itself: a code added without a case here fails, and so does
# a case whose code left the table. Each case returns the tool's result and the tool's
# name; the test asserts the exit code and the one error line that names it.

TEXT = {"Content-Type": "text/plain"}
WS_PATHS = {
    "WS_DUCKDUCKGO_URL": ("/ddg/html/", "ddg"),
    "WS_DUCKDUCKGO_LITE_URL": ("/ddg/lite/", "ddg_lite"),
    "WS_BRAVE_URL": ("/brave/search", "brave"),
    "WS_MOJEEK_URL": ("/mojeek/search", "mojeek"),
}


def _ws_engines(serve, answers: dict[str, tuple[int, bytes]]) -> dict[str, str]:
    """One local server playing every engine (path -> status and body); its variables."""

    def handle(conn, req):
        path = req.split(b" ", 2)[1].decode().split("?", 1)[0]
        status, body = answers[path]
        conn.sendall(http_response(status, body, {"Content-Type": "text/html; charset=utf-8"}))

    srv = serve(handle)
    base = srv.url.rstrip("/")
    return {var: base + path for var, (path, _) in WS_PATHS.items()}


def _signalled(serve, sig: int):
    """A real wf process (supervisor and all) sent ``sig`` while its fetch stalls."""
    import os

    from tests.hostile import proc
    from tests.hostile.handlers import stall

    srv = serve(stall)

    def started(p):
        proc.wait_for(lambda: srv.requests)
        os.kill(p.pid, sig)

    r = proc.run(["wf", *ALLOW, "--timeout", "60", srv.url], env=proc.env(), started=started)
    return Result(r.code, r.text, r.stderr)


def _case_0(wf, ws, serve, tmp_path, monkeypatch):
    return wf(*ALLOW, serve(respond(200, b"hello\n", TEXT)).url)


def _case_1(wf, ws, serve, tmp_path, monkeypatch):
    import wf.pipeline as pipeline

    def broken(*args, **kw):
        raise RuntimeError("planted")

    monkeypatch.setattr(pipeline, "_fetch", broken)
    return wf(*ALLOW, serve(respond(200, b"x\n", TEXT)).url)


def _case_2(wf, ws, serve, tmp_path, monkeypatch):
    return wf("--timeout", "soon", "http://127.0.0.1/")


def _case_3(wf, ws, serve, tmp_path, monkeypatch):
    return wf("gopher://127.0.0.1/")


def _case_4(wf, ws, serve, tmp_path, monkeypatch):
    return wf(*ALLOW, serve(respond(404, b"nope", TEXT)).url)


def _case_5(wf, ws, serve, tmp_path, monkeypatch):
    return wf(*ALLOW, serve(respond(500, b"boom", TEXT)).url)


def _case_6(wf, ws, serve, tmp_path, monkeypatch):
    return wf("http://host.invalid/")


def _case_7(wf, ws, serve, tmp_path, monkeypatch):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return wf(*ALLOW, f"http://127.0.0.1:{port}/")


def _case_8(wf, ws, serve, tmp_path, monkeypatch):
    srv = serve(lambda conn, req: conn.sendall(b"NOT HTTP AT ALL\r\n\r\n"))
    return wf(*ALLOW, srv.url)


def _case_23(wf, ws, serve, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    srv = serve(respond(200, b"hello\n", TEXT))
    # The scratch dir would be made inside a regular file: --save cannot write.
    return wf(*ALLOW, "--save", srv.url, env={"WF_SCRATCH_DIR": str(blocker / "scratch")})


def _case_28(wf, ws, serve, tmp_path, monkeypatch):
    return wf(*ALLOW, "--timeout", "1", serve(lambda conn, req: time.sleep(3)).url)


def _case_35(wf, ws, serve, tmp_path, monkeypatch):
    srv = serve(respond(200, b"secret"), tls=self_signed_context(tmp_path))
    return wf(*ALLOW, srv.url)


def _case_47(wf, ws, serve, tmp_path, monkeypatch):
    return wf(*ALLOW, serve(respond(302, b"", {"Location": "/a"})).url + "a")


def _case_56(wf, ws, serve, tmp_path, monkeypatch):
    cut = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nten bytes!"
    return wf(*ALLOW, serve(lambda conn, req: conn.sendall(cut)).url)


def _case_63(wf, ws, serve, tmp_path, monkeypatch):
    srv = serve(respond(200, b"x" * 5000, TEXT))
    return wf(*ALLOW, "--max-bytes", "1000", srv.url)


def _case_65(wf, ws, serve, tmp_path, monkeypatch):
    page = b"<html><body><article><p>Some text here.</p></article></body></html>"
    srv = serve(respond(200, page, {"Content-Type": "text/html"}))
    return wf(*ALLOW, "--select", ".nowhere", srv.url)


def _case_66(wf, ws, serve, tmp_path, monkeypatch):
    from tests.helpers import WS_FIXTURES

    answers = {
        path: (200, (WS_FIXTURES / f"{stem}_no_results.html").read_bytes())
        for path, stem in WS_PATHS.values()
    }
    return ws("xqzvbnmw", env=_ws_engines(serve, answers))


def _case_69(wf, ws, serve, tmp_path, monkeypatch):
    from tests.helpers import WS_FIXTURES

    answers = {
        "/ddg/html/": (202, (WS_FIXTURES / "ddg_anomaly.html").read_bytes()),
        "/ddg/lite/": (202, (WS_FIXTURES / "ddg_lite_anomaly.html").read_bytes()),
        "/brave/search": (200, (WS_FIXTURES / "brave_no_results.html").read_bytes()),
        "/mojeek/search": (500, b"oops"),
    }
    return ws("rust", env=_ws_engines(serve, answers))


def _case_70(wf, ws, serve, tmp_path, monkeypatch):
    page = b"<html><body><p>Some text here.</p></body></html>"
    srv = serve(respond(200, page, {"Content-Type": "text/html"}))
    return wf(
        *ALLOW, "--render", "always", srv.url, env={"WF_RENDER_BROWSER": "/nonexistent/chrome"}
    )


def _case_71(wf, ws, serve, tmp_path, monkeypatch):
    from tests import pdfmake

    body = pdfmake.make_pdf([["Secret text"]], user_password="secret")
    return wf(*ALLOW, serve(respond(200, body, {"Content-Type": "application/pdf"})).url)


def _case_75(wf, ws, serve, tmp_path, monkeypatch):
    return wf(*ALLOW, serve(respond(429, b"slow down", TEXT)).url)


def _case_77(wf, ws, serve, tmp_path, monkeypatch):
    return wf(serve(respond(200, b"should not be read", TEXT)).url)


def _case_130(wf, ws, serve, tmp_path, monkeypatch):
    import signal

    return _signalled(serve, signal.SIGINT)


def _case_143(wf, ws, serve, tmp_path, monkeypatch):
    import signal

    return _signalled(serve, signal.SIGTERM)


# code -> (the tool, the case, what its error line says)
EXIT_CASES = {
    0: ("wf", _case_0, ""),
    1: ("wf", _case_1, "this is a bug"),
    2: ("wf", _case_2, "--timeout"),
    3: ("wf", _case_3, "unsupported scheme"),
    4: ("wf", _case_4, "HTTP 404"),
    5: ("wf", _case_5, "HTTP 500"),
    6: ("wf", _case_6, "could not resolve host"),
    7: ("wf", _case_7, "could not connect"),
    8: ("wf", _case_8, "status line"),
    23: ("wf", _case_23, "a-file"),
    28: ("wf", _case_28, "timed out"),
    35: ("wf", _case_35, "certificate"),
    47: ("wf", _case_47, "redirect loop"),
    56: ("wf", _case_56, "broke off"),
    63: ("wf", _case_63, "cap of 1000 bytes"),
    65: ("wf", _case_65, ".nowhere"),
    66: ("ws", _case_66, "no results"),
    69: ("ws", _case_69, "every provider failed"),
    70: ("wf", _case_70, "/nonexistent/chrome"),
    71: ("wf", _case_71, "encrypted"),
    75: ("wf", _case_75, "HTTP 429"),
    77: ("wf", _case_77, "loopback"),
    130: ("wf", _case_130, "interrupted"),
    143: ("wf", _case_143, "terminated"),
}


def _documented_codes() -> list[int]:
    """The codes of the table and of both man pages' EXIT STATUS (which must agree)."""
    import re

    from tests.helpers import ROOT

    codes = {code for code, _, _ in EXIT_TABLE}
    for page in ("wf.1", "ws.1"):
        section = (ROOT / "man" / page).read_text().split(".SH EXIT STATUS", 1)[1]
        section = section.split("\n.SH ", 1)[0]
        codes |= {int(n) for n in re.findall(r"^\.TP\n\.B (\d+)$", section, flags=re.M)}
    return sorted(codes)


def test_every_case_is_a_code_of_the_table():
    assert sorted(EXIT_CASES.keys() - {code for code, _, _ in EXIT_TABLE}) == []


@pytest.mark.parametrize("code", _documented_codes())
def test_each_code_of_the_table_is_reached_through_the_cli(code, wf, serve, tmp_path, monkeypatch):
    assert code in EXIT_CASES, f"exit code {code} is in the table but has no case here"
    tool, case, needle = EXIT_CASES[code]

    def ws(*args, **kw):
        return invoke("ws", [str(a) for a in args], **kw)

    r = case(wf, ws, serve, tmp_path, monkeypatch)
    assert r.code == code, (r.code, r.stderr)
    if code == 0:
        assert (r.stdout, r.stderr) == ("hello\n", "")
        return
    # The last line is the error (ws prints a line per provider asked before it).
    last = r.stderr.splitlines()[-1]
    assert last.startswith(f"{tool}: ({code}) "), r.stderr
    assert needle in last, r.stderr
    assert "Traceback" not in r.stderr
    if code != 1:
        assert "this is a bug" not in r.stderr
