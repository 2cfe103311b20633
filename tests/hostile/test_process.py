"""Whole-process hostility: closed and full output streams, signals in the middle of a
fetch, a batch, a regex or a search, and a scratch dir that is full or read-only. Exit
codes as documented (0, 23, 130, 143), one line on stderr, nothing left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers import (
    ALLOW,
    ENGINE_VARIABLES,
    ROOT,
    man_forwarded_signals,
    saved_files,
    tool_path,
)
from tests.hostile import proc
from tests.hostile.handlers import FOREVER, STOP, stall
from tests.servers import http_response, respond

TEXT = {"Content-Type": "text/plain"}
BIG = "".join(f"line {i}\n" for i in range(100_000)).encode()


def _pipe(command: str) -> proc.Run:
    return proc.run(["bash", "-o", "pipefail", "-c", command], env=proc.env())


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


# ---------------------------------------------------------------- output streams


def test_json_into_head_c1(serve):
    srv = serve(respond(200, BIG, TEXT))
    r = _pipe(
        f"{tool_path('wf')} --allow-host 127.0.0.1 --json --no-save --max-length 0 {srv.url} | head -c 1"
    )
    assert (r.code, r.stdout, r.stderr) == (0, b"{", "")


def test_batch_into_head_1(serve):
    urls = " ".join(serve(respond(200, BIG, TEXT)).url for _ in range(3))
    r = _pipe(f"{tool_path('wf')} --allow-host 127.0.0.1 --no-save --max-length 0 {urls} | head -1")
    assert r.code == 0 and r.stdout.startswith(b"==> ") and r.stderr == ""
    assert not r.leftovers


def test_ws_into_head_1(serve):
    body = (ROOT / "tests" / "fixtures" / "ws" / "searxng_results.json").read_bytes()
    srv = serve(respond(200, body, {"Content-Type": "application/json"}))
    env = {name: srv.url for name in ENGINE_VARIABLES}
    prefix = " ".join(f"{k}={v}" for k, v in env.items())
    r = _pipe(f"{prefix} {tool_path('ws')} --provider searxng 'rust async' | head -1")
    assert r.code == 0 and r.stdout.count(b"\n") == 1 and r.stderr == ""


def test_stdout_closed_exits_23(serve):
    # Not a reader that went away (that is exit 0): there never was anywhere to write.
    srv = serve(respond(200, b"hello\n", TEXT))
    r = _pipe(f"{tool_path('wf')} --allow-host 127.0.0.1 {srv.url} >&-")
    assert (r.code, r.stderr) == (23, "wf: (23) cannot write the result: stdout is closed\n")


def test_stdout_on_a_full_device_exits_23(serve):
    srv = serve(respond(200, BIG, TEXT))
    r = _pipe(
        f"{tool_path('wf')} --allow-host 127.0.0.1 --no-save --max-length 0 {srv.url} > /dev/full"
    )
    assert r.code == 23, r.stderr
    assert r.stderr.startswith("wf: (23) ") and r.stderr.count("\n") == 1, r.stderr


# ---------------------------------------------------------------- signals


def _signal_when(ready, sig: int, *, group: bool = False):
    def started(p: subprocess.Popen[bytes]) -> None:
        proc.wait_for(lambda: ready(p))
        (os.killpg if group else os.kill)(p.pid, sig)

    return started


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_during_a_batch_of_stalled_fetches(serve, sig, code):
    servers = [serve(stall) for _ in range(6)]
    start = time.monotonic()
    r = proc.run(
        ["wf", *ALLOW, *[s.url for s in servers]],
        env=proc.env(),
        started=_signal_when(
            lambda p: sum(len(s.requests) for s in servers) >= 4, sig, group=sig == signal.SIGINT
        ),
    )
    assert r.code == code, r.stderr
    assert time.monotonic() - start < 5, "the batch waited for its workers"
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"wf: ({code}) ")
    assert r.stdout == b"" and not r.leftovers


@pytest.mark.parametrize(
    ("sig", "code", "group"),
    [(signal.SIGTERM, 143, False), (signal.SIGINT, 130, True)],
    ids=["sigterm", "ctrl-c-to-the-group"],
)
def test_signal_during_a_backtracking_regex(tmp_path, sig, code, group):
    page = tmp_path / "page.txt"
    page.write_text(("a" * 5000 + "!\n") * 3)
    seen: list[int] = []

    def regex_running(p: subprocess.Popen[bytes]) -> bool:
        # wf's own child is the watchdog's worker; the regex runs in the worker's child.
        seen[:] = [c for worker in _children(p.pid) for c in _children(worker)]
        return bool(seen)

    # The lookahead keeps it off RE2, which has no child and ends (a+)+$ at once: the
    # fallback to Python's re (its note is the first stderr line) runs in the child.
    r = proc.run(
        ["wf", "--input", str(page), "--filter", "(?=a)(a+)+$"],
        env=proc.env(),
        started=_signal_when(regex_running, sig, group=group),
    )
    assert r.code == code, r.stderr
    assert r.stderr.count("\n") == 2 and "Traceback" not in r.stderr
    assert seen and not r.leftovers
    assert not any(proc.alive(pid) for pid in seen)


def test_a_killed_worker_leaves_no_match_running(tmp_path):
    # SIGKILL, which the supervisor sends a worker past its grace and which no handler
    # sees: the worker's child, matching a backtracking regex, must die with it rather
    # than run on for ever at full CPU, its parent gone.
    page = tmp_path / "page.txt"
    page.write_text(("a" * 5000 + "!\n") * 3)
    seen: list[tuple[int, int]] = []

    def kill_the_worker(p: subprocess.Popen[bytes]) -> None:
        def matching() -> bool:
            seen[:] = [(w, c) for w in _children(p.pid) for c in _children(w)][:1]
            return bool(seen)

        proc.wait_for(matching)
        os.kill(seen[0][0], signal.SIGKILL)

    r = proc.run(
        ["wf", "--input", str(page), "--filter", "(?=a)(a+)+$"],
        env=proc.env(),
        started=kill_the_worker,
    )
    assert r.code != 0 and seen
    assert not r.leftovers, "the matcher outlived its killed worker"
    assert not proc.alive(seen[0][1])


# Every signal the supervisor passes on, as both man pages name them (tests/test_docs.py
# checks they name common/watchdog.py's list), one case each, sent to the supervisor alone:
# the worker must get it and end. SIGHUP has no handler of ours: the worker dies of it,
# and the supervisor with it. A signal a page adds without an outcome here fails.
OUTCOME = {"SIGTERM": 143, "SIGINT": 130, "SIGHUP": -signal.SIGHUP}
DOCUMENTED_SIGNALS = sorted(set(man_forwarded_signals("wf.1")) | set(man_forwarded_signals("ws.1")))


@pytest.mark.parametrize("name", DOCUMENTED_SIGNALS)
def test_each_forwarded_signal_reaches_the_worker(serve, name):
    from common.watchdog import _FORWARDED

    assert name in OUTCOME, f"{name} is documented as passed on but has no outcome here"
    sig = getattr(signal, name)
    assert sig in _FORWARDED
    code = OUTCOME[name]
    srv = serve(stall)
    start = time.monotonic()
    r = proc.run(
        ["wf", *ALLOW, "--timeout", "60", srv.url],
        env=proc.env(),
        started=_signal_when(lambda p: srv.requests, sig),
    )
    assert r.code == code, r.stderr
    assert time.monotonic() - start < 10, "the worker did not get the signal"
    if sig != signal.SIGHUP:
        assert r.stderr.startswith(f"wf: ({code}) ") and r.stderr.count("\n") == 1
    assert r.stdout == b"" and not r.leftovers


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_signal_during_a_search(serve, sig, code):
    srv = serve(stall)
    env = proc.env(**{name: srv.url for name in ENGINE_VARIABLES})
    r = proc.run(["ws", "anything"], env=env, started=_signal_when(lambda p: srv.requests, sig))
    assert r.code == code, r.stderr
    assert r.stderr.splitlines()[-1].startswith(f"ws: ({code}) ") and "Traceback" not in r.stderr
    assert r.stdout == b"" and not r.leftovers


def test_sigterm_while_saving_leaves_no_part_file(serve, scratch):
    # Half the body arrives, then the server holds the rest: the signal always lands
    # mid-transfer (so one exit code, 143), and no temporary or partial file may stay in
    # the scratch dir.
    whole = http_response(200, BIG, TEXT)

    def half_then_hold(conn, request):
        conn.sendall(whole[: len(whole) // 2])
        STOP.wait(FOREVER)

    srv = serve(half_then_hold)
    r = proc.run(
        ["wf", *ALLOW, "--save", srv.url],
        env=proc.env(),
        started=_signal_when(lambda p: srv.requests, signal.SIGTERM),
    )
    assert r.code == 143, r.stderr
    assert r.stderr.splitlines()[-1].startswith("wf: (143) ")
    assert not scratch.exists() or saved_files(scratch) == []


# ---------------------------------------------------------------- a full or read-only scratch dir


def _in_mount_namespace(mount: str, scratch: Path, argv: list[str]) -> proc.Run:
    """Run argv with ``mount`` applied to the scratch dir in a private mount namespace;
    the listing of the dir after the run ends stdout after a '@@' line."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    scratch.mkdir(exist_ok=True)
    script = f'{mount} "$0" && "$@"; rc=$?; echo "@@"; ls -A "$0"; exit $rc'
    r = proc.run(
        ["unshare", "--mount", "sh", "-c", script, str(scratch), tool_path(argv[0]), *argv[1:]],
        env=proc.env(),
    )
    if "@@" not in r.text and "mount" in r.stderr:
        pytest.skip(f"cannot mount here: {r.stderr.strip()}")
    return r


def _listing(r: proc.Run) -> list[str]:
    return r.text.rsplit("@@\n", 1)[1].split()


@pytest.mark.parametrize(
    ("args", "body", "ctype", "code"),
    [
        (("--save",), BIG, TEXT, 23),
        ((), BIG, TEXT, 0),
        ((), b"\x89PNG\r\n\x1a\n" + b"\0" * 200_000, {"Content-Type": "image/png"}, 0),
    ],
    ids=["save", "auto-save", "binary"],
)
def test_full_scratch_dir_without_a_partial_file(serve, scratch, args, body, ctype, code):
    """--save fails (exit 23); a save nobody asked for is reported in one note (exit 0)."""
    srv = serve(respond(200, body, ctype))
    r = _in_mount_namespace(
        "mount -t tmpfs -o size=64k,mode=0700 tmpfs", scratch, ["wf", *ALLOW, *args, srv.url]
    )
    assert r.code == code, r.stderr
    head = "wf: (23) cannot write" if code else "wf: note: "
    assert r.stderr.startswith(head) and r.stderr.count("\n") == 1
    assert "No space left on device" in r.stderr
    assert _listing(r) == []


def test_read_only_scratch_dir_exits_23(serve, scratch):
    srv = serve(respond(200, BIG, TEXT))
    r = _in_mount_namespace(
        "mount -t tmpfs -o ro,mode=0700 tmpfs", scratch, ["wf", *ALLOW, "--save", srv.url]
    )
    assert r.code == 23 and "Read-only file system" in r.stderr, r.stderr
    assert _listing(r) == []


def test_scratch_dir_that_cannot_be_created_exits_23(serve, tmp_path, monkeypatch):
    srv = serve(respond(200, BIG, TEXT))
    parent = tmp_path / "ro"
    parent.mkdir()
    monkeypatch.setenv("WF_SCRATCH_DIR", str(parent / "sub" / "scratch"))
    r = _in_mount_namespace("mount -t tmpfs -o ro tmpfs", parent, ["wf", *ALLOW, "--save", srv.url])
    assert r.code == 23 and "cannot create the scratch dir" in r.stderr, r.stderr


def test_scratch_dir_without_write_permission_for_a_user(serve, tmp_path, monkeypatch):
    """The same refusal through permissions, for a user that root cannot stand in for."""
    if os.geteuid() == 0:
        pytest.skip("root writes through any permission; the read-only mount case covers it")
    srv = serve(respond(200, BIG, TEXT))
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o500)
    monkeypatch.setenv("WF_SCRATCH_DIR", str(ro))
    r = proc.run(["wf", *ALLOW, "--save", srv.url], env=proc.env())
    assert r.code == 23 and list(ro.iterdir()) == []
