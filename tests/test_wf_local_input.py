"""--input and `wf -` read within bounds (wf/local_input.py): a device that never ends is
cut at --max-bytes (exit 63), a pipe or FIFO that never finishes ends at --timeout (exit
28), and `wf -`'s URL list has a size cap (exit 2). No network: local files and pipes only."""

from __future__ import annotations

import os
import subprocess
import threading

import pytest

from tests.helpers import assert_one_line_error, subprocess_env, tool_path
from wf import local_input
from wf.local_input import read_input


def test_a_device_that_never_ends_is_cut_at_max_bytes(wf):
    r = wf("--input", "/dev/zero", "--max-bytes", "1M")
    assert r.stdout == ""
    assert_one_line_error(r, 63, "--input /dev/zero", "larger than the cap of 1048576 bytes")


def test_json_names_the_input_in_its_error_object(wf):
    import json

    r = wf("--json", "--input", "/dev/zero", "--max-bytes", "64K")
    found = json.loads(r.stdout)
    assert (r.code, found["url"], found["error"]["code"]) == (63, "/dev/zero", 63)


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_refused(tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_bytes(b"x" * 1000)
    assert read_input(str(doc), limit=1000, timeout=5) == b"x" * 1000
    from common.errors import TooLarge

    with pytest.raises(TooLarge):
        read_input(str(doc), limit=999, timeout=5)


def test_stdin_without_a_descriptor_is_capped_too(wf):
    # CliRunner's stdin is a buffer in memory (no fileno), as a library caller's may be.
    r = wf("--input", "-", "--max-bytes", "1K", input=b"<p>" + b"a" * 2000 + b"</p>")
    assert_one_line_error(r, 63, "--input -")
    assert wf("--input", "-", input=b"short\n").stdout == "short\n"


def _wf_process(*args: str, **kw: object) -> subprocess.CompletedProcess[bytes]:
    # A real process: a regression to a blocking read fails at the subprocess timeout
    # instead of hanging the suite.
    return subprocess.run(
        [tool_path("wf"), *args], env=subprocess_env(), capture_output=True, timeout=60, **kw
    )


def test_a_fifo_without_a_writer_ends_at_the_deadline(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = _wf_process("--input", str(fifo), "--timeout", "0.5")
    err = r.stderr.decode()
    assert r.returncode == 28 and r.stdout == b""
    assert err.startswith("wf: (28) timed out reading --input ") and err.count("\n") == 1
    assert "--retry" not in err  # no server to retry


def test_a_pipe_that_never_closes_ends_at_the_deadline():
    proc = subprocess.Popen(
        [tool_path("wf"), "--input", "-", "--timeout", "0.5"],
        env=subprocess_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"<p>a start, and then nothing more</p>")
    proc.stdin.flush()
    try:
        proc.wait(timeout=60)  # stdin stays open (communicate would close it)
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.returncode == 28 and out == b""
    assert b"(37 bytes read)" in err


def test_a_fifo_whose_writer_comes_late_is_read_whole(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = threading.Event()

    def writer() -> None:
        started.wait(10)
        with open(fifo, "wb") as fh:  # blocks until wf has opened the FIFO to read
            fh.write(b"<p>written ")
            fh.flush()
            fh.write(b"in two parts</p>")

    t = threading.Thread(target=writer)
    t.start()
    started.set()
    try:
        r = _wf_process("--input", str(fifo), "--timeout", "30")
    finally:
        t.join(60)
    assert (r.returncode, r.stdout) == (0, b"written in two parts\n"), r.stderr


def test_a_url_list_past_its_cap_is_a_usage_error(wf, monkeypatch):
    monkeypatch.setattr(local_input, "URL_LIST_MAX", 100)
    r = wf("-", input=b"http://127.0.0.1:9/a\n" * 10)
    assert r.stdout == ""
    assert_one_line_error(r, 2, "URLs on standard input")


def test_a_url_list_within_its_cap_keeps_its_lines(monkeypatch):
    import io
    import sys

    fake = io.TextIOWrapper(io.BytesIO(b"# a comment\nhttp://a.test/\n\n  http://b.test/ \n"))
    monkeypatch.setattr(sys, "stdin", fake)
    from wf.cli import _targets

    assert _targets(("-", "http://c.test/")) == [
        "http://a.test/",
        "http://b.test/",
        "http://c.test/",
    ]
