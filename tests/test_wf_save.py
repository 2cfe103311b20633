"""wf/save.py: files in the scratch dir (confined names, atomic and private writes, the
pruning of what wf wrote), and --save, --save-path and auto-save through the CLI."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from common.errors import UsageError, WriteError
from tests.helpers import ALLOW, saved_files
from tests.servers import respond
from wf.save import STAMP, ScratchLimits, confine_name, prune, save_bytes

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


# ------------------------------------------------------------------ pruning the scratch dir

DAY = 86400.0
NOW = 1_900_000_000.0


def auto_name(n: int, ext: str = "txt") -> str:
    return f"example.com-20260101-0000{n:02d}-{n:06x}.{ext}"


def put(folder: Path, name: str, size: int, age: float) -> Path:
    path = folder / name
    path.write_bytes(b"x" * size)
    os.utime(path, (NOW - age, NOW - age))
    return path


def pruned(folder: Path, limits: ScratchLimits, **kw) -> list[str]:
    from common.paths import open_dir

    fd = open_dir(folder)
    try:
        return sorted(prune(fd, limits, now=NOW, **kw))
    finally:
        os.close(fd)


def test_prune_by_age_removes_only_what_wf_wrote(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    old, fresh = auto_name(1), auto_name(2, "pdf")
    put(d, old, 10, 8 * DAY)
    put(d, fresh, 10, 6 * DAY)
    put(d, "notes.txt", 10, 30 * DAY)  # not a name wf gives, never recorded: not ours
    put(d, ".wf-0123456789abcdef.part", 10, 2 * 3600)  # a crashed write's leftover
    put(d, ".wf-fedcba9876543210.part", 10, 60)  # a write in progress
    assert pruned(d, ScratchLimits(7 * DAY, 0), force=True) == sorted(
        [old, ".wf-0123456789abcdef.part"]
    )
    assert sorted(p.name for p in d.iterdir()) == sorted(
        [fresh, "notes.txt", ".wf-fedcba9876543210.part"]
    )


def test_prune_by_size_removes_the_oldest_first_and_never_the_new_file(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    for n in range(1, 6):
        put(d, auto_name(n), 100, (10 - n) * 3600)  # 1 is the oldest
    newest = auto_name(9)
    put(d, newest, 300, 0)
    # 800 bytes in all, 500 allowed: the three oldest go; the file just saved stays.
    limits = ScratchLimits(0, 500)
    assert pruned(d, limits, force=True, keep=newest) == [auto_name(n) for n in (1, 2, 3)]
    assert sorted(p.name for p in d.iterdir()) == [auto_name(4), auto_name(5), newest]


def test_prune_never_follows_links_nor_touches_foreign_files(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    outside = tmp_path / "precious"
    outside.mkdir()
    target = put(outside, auto_name(1), 10, 30 * DAY)
    link = d / auto_name(2)
    link.symlink_to(target)
    os.utime(link, (NOW - 30 * DAY, NOW - 30 * DAY), follow_symlinks=False)
    (d / auto_name(3)).mkdir()  # a directory of our name shape
    os.utime(d / auto_name(3), (NOW - 30 * DAY, NOW - 30 * DAY))
    foreign = put(d, auto_name(4), 10, 30 * DAY)
    if os.geteuid() == 0:
        os.chown(foreign, 4242, 4242)
    else:
        foreign.unlink()  # a file of another owner needs root to make
    assert pruned(d, ScratchLimits(DAY, 1), force=True) == []
    assert target.exists() and link.is_symlink() and (d / auto_name(3)).is_dir()
    assert foreign.exists() or os.geteuid() != 0


def test_save_path_names_go_only_at_their_age(tmp_path):
    d = tmp_path / "scratch"
    save_bytes(b"y" * 500, "report.txt", directory=d, chosen=True)
    save_bytes(b"y" * 500, "other.txt", directory=d, chosen=True)
    os.utime(d / "report.txt", (NOW - 8 * DAY, NOW - 8 * DAY))
    os.utime(d / "other.txt", (NOW - 1 * DAY, NOW - 1 * DAY))
    put(d, "unrecorded.txt", 10, 30 * DAY)
    # Over the size cap, yet a --save-path file is never pruned before its age.
    assert pruned(d, ScratchLimits(7 * DAY, 1), force=True) == ["report.txt"]
    assert (d / "other.txt").exists() and (d / "unrecorded.txt").exists()
    assert pruned(d, ScratchLimits(12 * 3600, 1), force=True) == ["other.txt"]


def test_prune_runs_at_most_once_an_hour(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    limits = ScratchLimits(DAY, 0)
    put(d, auto_name(1), 10, 2 * DAY)
    assert pruned(d, limits) == [auto_name(1)]  # no stamp yet: due
    put(d, auto_name(2), 10, 2 * DAY)
    assert pruned(d, limits) == []  # the stamp says it ran just now
    os.utime(d / STAMP, (NOW - 3601, NOW - 3601))
    assert pruned(d, limits) == [auto_name(2)]


def test_a_cron_run_prunes_the_scratch_dir(wf, serve, scratch):
    scratch.mkdir(mode=0o700)
    stale = scratch / auto_name(1)
    stale.write_bytes(b"old\n")
    long_ago = os.stat(scratch).st_mtime - 8 * DAY
    os.utime(stale, (long_ago, long_ago))
    srv = serve(respond(200, b"x" * 20_000 + b"\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, srv.url)  # auto-saved
    assert r.stdout.startswith("[wf: page too large to inline")
    assert not stale.exists() and (scratch / STAMP).exists()
    assert len([p for p in scratch.iterdir() if p.suffix == ".txt"]) == 1


def test_the_preview_of_a_short_line_then_a_huge_one_shows_both(wf, serve, scratch):
    # An 11 MB rendered page used to preview as its first line alone: "# Big DOM".
    body = b"# Big DOM\n" + b"x" * 30_000 + b"\ntail\n"
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    obj = json.loads(wf(*ALLOW, "--json", srv.url).stdout)
    first, second = obj["text"].split("\n")
    assert first == "# Big DOM" and second == "x" * (5000 - 10)
    assert obj["lines"] == {"total": 3, "matched": 3, "from": 1, "to": 2, "partial": True}
    assert any("--from 2 --to 2 --max-length 0 --no-save" in n for n in obj["notes"])
    head = wf(*ALLOW, srv.url).stdout.split("\n", 1)[0]
    assert "line 2 is cut at 4990 of 30000 characters" in head
    assert "--from 2 --to 2 --max-length 0 --no-save" in head and "Page on with --from 3" in head


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
        assert [p.read_bytes() for p in saved_files(scratch)] == [body]
    else:
        assert r.stdout.encode() == body
        assert saved_files(scratch) == []


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
