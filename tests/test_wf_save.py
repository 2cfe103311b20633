"""wf/save.py: files in the scratch dir (confined names, atomic and private writes),
and --save, --save-path and auto-save through the CLI."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from common.errors import UsageError, WriteError
from tests.helpers import ALLOW
from tests.servers import respond
from wf.save import confine_name, save_bytes

# ------------------------------------------------------------------ core


@pytest.mark.parametrize(
    "name,expected", [("../../x", "x"), ("/etc/x", "x"), ("a/b/c.txt", "c.txt"), ("..\\..\\y", "y")]
)
def test_save_path_keeps_only_the_base_name(name, expected):
    assert confine_name(name) == expected


@pytest.mark.parametrize("name", ["", "/", "..", "dir/..", "a\0b", "a\nb"])
def test_save_path_without_a_usable_name_is_usage_error(name):
    with pytest.raises(UsageError):
        confine_name(name)


def test_save_is_atomic_and_private(tmp_path):
    path = save_bytes(b"data", "f.txt", directory=tmp_path)
    assert path.read_bytes() == b"data"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_save_replaces_a_link_instead_of_following_it(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "f.txt").symlink_to(outside)
    save_bytes(b"new", "f.txt", directory=scratch)
    assert outside.read_text() == "keep me"
    assert not (scratch / "f.txt").is_symlink() and (scratch / "f.txt").read_bytes() == b"new"


def test_save_into_readonly_dir_is_write_error_and_leaves_nothing(tmp_path):
    if os.geteuid() == 0:
        # root ignores permission bits: use a directory that is not one.
        target = tmp_path / "file"
        target.write_text("")
        with pytest.raises(WriteError):
            save_bytes(b"x", "f.txt", directory=target)
        return
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o500)
    with pytest.raises(WriteError):
        save_bytes(b"x", "f.txt", directory=ro)
    assert list(ro.iterdir()) == []


# ------------------------------------------------------------------ CLI


def test_save_writes_full_view_and_says_where(wf, serve, scratch):
    body = b"alpha\nbeta\ngamma\n"
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--save-path", "../../notes.txt", "--filter", "beta", srv.url)
    first, rest = r.stdout.split("\n", 1)
    assert first == f"[wf: saved full text (17 bytes, 3 lines) to {scratch / 'notes.txt'}]"
    assert rest == "beta\n"
    assert (scratch / "notes.txt").read_bytes() == body


def test_autosave_of_a_large_page(wf, serve, scratch):
    body = "".join(f"paragraph {i} " + "word " * 20 + "\n" for i in range(400)).encode()
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    head, preview = r.stdout.split("\n", 1)
    assert head.startswith("[wf: page too large to inline")
    path = Path(re.search(r"the whole text is in (\S+);", head).group(1))
    assert path.read_bytes() == body and path.parent == scratch
    assert 4000 < len(preview) <= 5001
    assert "--from" in head and "--filter" in head
    # Any narrowing option turns auto-save off.
    r = wf(*ALLOW, "--filter", "paragraph 7 ", srv.url)
    assert r.stdout.startswith("paragraph 7 ") and r.stdout.count("\n") == 1
    r = wf(*ALLOW, "--no-save", "--max-length", "0", srv.url)
    assert r.stdout.encode() == body


def test_autosave_threshold_from_env(wf, serve):
    srv = serve(respond(200, b"x" * 300 + b"\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url, env={"WF_AUTOSAVE_BYTES": "100"})
    assert r.stdout.startswith("[wf: page too large to inline")


# ------------------------------------------------ issue 16: auto-save at its boundary


@pytest.mark.parametrize(("size", "saved"), [(9_999, False), (10_000, False), (10_001, True)])
def test_autosave_default_threshold_at_its_boundary(wf, serve, scratch, size, saved):
    """man wf.1: a full view *larger than* 10000 bytes (the default) is auto-saved; one of
    exactly 10000 bytes is printed whole."""
    line = b"x" * 99 + b"\n"
    body = (line * (size // 100 + 1))[: size - 1] + b"\n"
    assert len(body) == size
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 0, r.stderr
    if saved:
        assert r.stdout.startswith("[wf: page too large to inline")
        assert [p.read_bytes() for p in scratch.iterdir()] == [body]
    else:
        assert r.stdout.encode() == body
        assert not scratch.exists() or not any(scratch.iterdir())


@pytest.mark.parametrize(("limit", "saved"), [(300, True), (301, False), (302, False)])
def test_autosave_threshold_from_env_at_its_boundary(wf, serve, limit, saved):
    """The threshold counts UTF-8 bytes of the full view: 150 two-byte characters and a
    newline are 301 bytes (151 characters)."""
    body = "é" * 150 + "\n"
    srv = serve(respond(200, body.encode(), {"Content-Type": "text/plain; charset=utf-8"}))
    r = wf(*ALLOW, srv.url, env={"WF_AUTOSAVE_BYTES": str(limit)})
    assert r.code == 0, r.stderr
    if saved:
        assert r.stdout.startswith("[wf: page too large to inline")
    else:
        assert r.stdout == body
