"""common/run.py and common/entry.py: a tool as a whole process (start-up imports,
closed pipes, stdin, signals, python -m, UTF-8 output)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.helpers import ALLOW, subprocess_env, tool_path
from tests.servers import respond

HEAVY = ("lxml", "urllib3", "pychrome", "websocket", "requests")


@pytest.mark.parametrize("tool", ["wf", "ws"])
def test_help_does_not_import_heavy_modules(tool):
    code = (
        f"import sys; from {tool}.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print('HEAVY', [m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env()
    )
    assert "Usage:" in r.stdout
    assert "HEAVY []" in r.stderr, r.stderr


def test_common_knows_click_only_in_the_runner_and_the_shared_options():
    # The core is usable without a command line: click belongs to run.py and clickopts.py.
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "common"
    users = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(n == "click" or n.startswith("click.") for n in names):
                users.add(path.relative_to(root).as_posix())
    assert users == {"clickopts.py", "run.py"}


@pytest.mark.parametrize("tool", ["wf", "ws"])
def test_python_dash_m_and_console_script(tool):
    r1 = subprocess.run([sys.executable, "-m", tool, "--version"], capture_output=True, text=True)
    r2 = subprocess.run([tool_path(tool), "--version"], capture_output=True, text=True)
    assert r1.returncode == 0 and r2.returncode == 0
    assert r1.stdout.startswith(f"{tool} ") and r1.stdout == r2.stdout


def _big_text_server(serve):
    body = "".join(f"line {i}\n" for i in range(200_000)).encode()
    return serve(respond(200, body, {"Content-Type": "text/plain"}))


def test_closed_pipe_exits_0_quietly(serve):
    srv = _big_text_server(serve)
    cmd = f"{tool_path('wf')} --allow-host 127.0.0.1 --no-save --max-length 0 {srv.url} | head -1"
    r = subprocess.run(
        ["bash", "-o", "pipefail", "-c", cmd],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=30,
    )
    assert r.stdout == "line 0\n"
    assert r.stderr == ""
    assert r.returncode == 0


def test_stdin_is_not_read_without_dash(serve):
    srv = serve(respond(200, b"page\n", {"Content-Type": "text/plain"}))
    # stdin is a pipe that never closes: reading it would hang until the timeout.
    proc = subprocess.Popen(
        [tool_path("wf"), *ALLOW, srv.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    try:
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0 and out == b"page\n"


def test_dash_reads_urls_from_stdin(serve):
    a = serve(respond(200, b"A\n", {"Content-Type": "text/plain"}))
    b = serve(respond(200, b"B\n", {"Content-Type": "text/plain"}))
    r = subprocess.run(
        [tool_path("wf"), *ALLOW, "-"],
        input=f"{a.url}\n\n# c\n{b.url}\n",
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=30,
    )
    assert r.returncode == 0
    assert r.stdout == f"==> {a.url} <==\nA\n==> {b.url} <==\nB\n"


@pytest.mark.parametrize("args", [["-"], ["--input", "-"]])
def test_closed_stdin_reads_as_empty(args):
    # Supervisors start jobs with fd 0 closed: Python's sys.stdin is then None.
    def run(redirect: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["sh", "-c", f'exec "$@" {redirect}', "_", tool_path("wf"), *args],
            capture_output=True,
            text=True,
            env=subprocess_env(),
            timeout=30,
        )

    closed, empty = run("<&-"), run("</dev/null")
    assert "this is a bug" not in closed.stderr
    assert (closed.returncode, closed.stdout, closed.stderr) == (
        empty.returncode,
        empty.stdout,
        empty.stderr,
    )
    if args == ["-"]:
        assert closed.returncode == 2 and "no URL given" in closed.stderr


@pytest.mark.parametrize(
    ("tool", "args", "hint"),
    [
        ("ws", ["-v flag meaning"], "a query that starts with '-' goes after --: ws -- ARG"),
        ("ws", ["-q"], "a query that starts with '-' goes after --: ws -- ARG"),
        ("wf", ["-zz"], "a URL that starts with '-' goes after --: wf -- ARG"),
    ],
)
def test_an_unknown_option_says_that_double_dash_ends_the_options(tool, args, hint):
    from tests.helpers import assert_one_line_error, invoke

    r = invoke(tool, args)
    assert_one_line_error(r, 2, "No such option", hint, f"see {tool} --help", tool=tool)


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_during_fetch(serve, request, sig, code):
    # The handler stalls until the test ends, not 10 s past it: a thread left sleeping
    # outlived the test and took a SIGUSR1 meant for tests/test_watchdog.py's supervisor.
    ended = threading.Event()
    request.addfinalizer(ended.set)
    srv = serve(lambda conn, req: ended.wait(10))
    proc = subprocess.Popen(
        [tool_path("wf"), *ALLOW, srv.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
    )
    deadline = time.monotonic() + 10
    while not srv.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == code
    assert out == b""
    assert err.decode().count("\n") == 1 and err.startswith(b"wf: (")
    assert b"Traceback" not in err


def test_output_is_utf8_whatever_the_locale(serve):
    srv = serve(respond(200, "café ☕\n".encode(), {"Content-Type": "text/plain; charset=utf-8"}))
    r = subprocess.run(
        [tool_path("wf"), *ALLOW, srv.url],
        capture_output=True,
        env=subprocess_env(LC_ALL="C", LANG="C", PYTHONIOENCODING="ascii"),
        timeout=30,
    )
    assert r.returncode == 0 and r.stdout == "café ☕\n".encode()
