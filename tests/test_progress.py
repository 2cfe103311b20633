"""common/progress.py and the progress line in common/output.py: drawn on a terminal (a
pty here), never on a pipe, nor with NO_COLOR, TERM=dumb or --quiet; wf --quiet."""

from __future__ import annotations

import os
import select
import subprocess

import pytest

from common import output
from tests.helpers import ALLOW, subprocess_env, tool_path
from tests.servers import http_response

ERASE = b"\r\x1b[K"


def pages(conn, request: bytes) -> None:
    path = request.split(b" ", 2)[1]
    if path == b"/missing":
        conn.sendall(http_response(404, b"nope", {"Content-Type": "text/plain"}))
    else:
        conn.sendall(http_response(200, b"page " + path + b"\n", {"Content-Type": "text/plain"}))


def run_wf(args: list[str], *, tty: bool, **env: str) -> tuple[int, bytes, bytes]:
    """wf as a real process; its stderr a pty (a terminal) or a pipe."""
    environ = subprocess_env(**env)
    if "NO_COLOR" not in env:
        environ.pop("NO_COLOR", None)  # the developer's own setting would hide the line
    if not tty:
        r = subprocess.run([tool_path("wf"), *args], capture_output=True, env=environ, timeout=60)
        return r.returncode, r.stdout, r.stderr
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [tool_path("wf"), *args], stdout=subprocess.PIPE, stderr=slave, env=environ
    )
    os.close(slave)
    err = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        assert ready, "wf wrote nothing for 60 s"
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every end of the pty's other side is closed
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    out = proc.stdout.read() if proc.stdout else b""
    return proc.wait(60), out, err


@pytest.fixture
def site(serve):
    srv = serve(pages)
    return [srv.url + "one", srv.url + "missing", srv.url + "two"]


def test_a_terminal_sees_one_updating_line_erased_at_the_end(site):
    code, out, err = run_wf([*ALLOW, *site], tty=True, TERM="xterm")
    assert code == 4
    assert out == f"==> {site[0]} <==\npage /one\n==> {site[2]} <==\npage /two\n".encode()
    assert ERASE + b"wf: 0/3 done" in err
    assert ERASE + b"wf: 3/3 done, 1 failed" + ERASE in err
    assert err.endswith(ERASE)  # nothing of the line is left on the screen
    # The error line went above the progress line, whole, on a line of its own.
    assert ERASE + f"wf: (4) HTTP 404 from {site[1]}".encode() in err


@pytest.mark.parametrize(
    ("tty", "env", "flags"),
    [
        (False, {}, []),  # a pipe: cron, an agent, a log file
        (True, {"NO_COLOR": "1"}, []),
        (True, {"TERM": "dumb"}, []),
        (True, {}, ["--quiet"]),
    ],
    ids=["pipe", "NO_COLOR", "TERM=dumb", "--quiet"],
)
def test_no_progress_line_when_nobody_watches_or_it_is_turned_off(site, tty, env, flags):
    code, out, err = run_wf([*ALLOW, *flags, *site], tty=tty, **{"TERM": "xterm", **env})
    assert code == 4 and b"page /two" in out
    assert b"done" not in err and b"\x1b" not in err and b"\r\n" * 2 not in err
    assert err.replace(b"\r\n", b"\n") == f"wf: (4) HTTP 404 from {site[1]}\n".encode()


def test_one_url_has_no_progress_line(site):
    code, _out, err = run_wf([*ALLOW, site[0]], tty=True, TERM="xterm")
    assert (code, err) == (0, b"")


def test_quiet_drops_notes_but_keeps_errors(wf, serve):
    srv = serve(lambda conn, req: conn.sendall(http_response(302, b"moved, no Location\n")))
    assert "wf: note: HTTP 302 without a Location header" in wf(*ALLOW, srv.url).stderr
    r = wf(*ALLOW, "--quiet", srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "moved, no Location\n", "")
    r = wf(*ALLOW, "-q", srv.url + "x", "http://127.0.0.2:9/")
    assert r.code == 77 and r.stderr.startswith("wf: (77) refused 127.0.0.2")
    assert "note:" not in r.stderr


def test_interactive_reads_the_environment(monkeypatch):
    monkeypatch.setattr(os, "isatty", lambda fd: True)
    monkeypatch.setattr("sys.stderr", open(os.devnull, "w"))  # noqa: SIM115 - closed by pytest
    assert output.interactive({"TERM": "xterm"})
    assert output.interactive({"TERM": "xterm", "NO_COLOR": ""})  # empty: not set (no-color.org)
    assert not output.interactive({"TERM": "xterm", "NO_COLOR": "0"})
    assert not output.interactive({"TERM": "dumb"})
    previous = output.use(output.Environment(quiet=True))
    try:
        assert not output.interactive({"TERM": "xterm"})
    finally:
        output.use(previous)
    monkeypatch.setattr(os, "isatty", lambda fd: False)
    assert not output.interactive({"TERM": "xterm"})


def test_the_supervisor_clears_a_line_a_killed_worker_left(monkeypatch, tmp_path):
    err = open(tmp_path / "err", "w+")  # noqa: SIM115 - closed below
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    output.clear_line()  # not a terminal: nothing
    monkeypatch.setattr(os, "isatty", lambda fd: True)
    output.clear_line()
    monkeypatch.setenv("NO_COLOR", "1")
    output.clear_line()
    err.close()
    assert (tmp_path / "err").read_bytes() == ERASE
