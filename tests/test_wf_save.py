"""wf/save.py: files in the scratch dir (confined names, atomic and private writes, the
pruning of what wf wrote), and --save, --save-path and auto-save through the CLI."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from common.errors import UsageError, WriteError
from tests.helpers import ALLOW, saved_files
from tests.servers import respond
from wf.save import (
    SAVED_LIST,
    STAMP,
    ScratchLimits,
    _unlink_same,
    confine_name,
    default_name,
    prune,
    save_bytes,
    save_name,
)

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


# ------------------------------------------------ issue 16: what the mutation run found


@pytest.mark.parametrize("name", ["a\0b", "a\nb", "a\rb", "\r"])
def test_save_path_with_nul_or_a_line_break_says_so(name):
    with pytest.raises(UsageError) as info:
        confine_name(name)
    assert str(info.value) == "--save-path must not contain NUL or newline characters"


def test_save_name_numbers_the_placeholder():
    assert save_name("page-{n}.txt", 3) == "page-3.txt"
    assert save_name("{n}-{n}", 12) == "12-12"
    assert save_name("fixed.txt", 3) == "fixed.txt"


_STAMPED = r"-\d{8}-\d{6}-[0-9a-f]{6}"


@pytest.mark.parametrize(
    ("url", "stem"),
    [
        ("http://127.0.0.1:8080/a", "127.0.0.1"),
        ("https://Ex_Ample.COM/x", "ex_ample.com"),
        ("http://[::1]/", "1"),  # ":" is not kept, and a name never starts with "-"
        ("http://[::]/", "document"),  # nothing left once the "-" are stripped
        ("file:///tmp/x", "document"),  # no host
        (None, "document"),
    ],
)
def test_default_name_is_the_host_made_safe(url, stem):
    name = default_name(url, None, text=True)
    assert re.fullmatch(re.escape(stem) + _STAMPED + r"\.txt", name), name


@pytest.mark.parametrize(
    ("content_type", "ext"),
    [
        ("application/pdf", ".pdf"),
        ("application/pdf; a=b; c=d", ".pdf"),
        ("IMAGE/PNG; charset=binary", ".png"),
        (" image/jpeg ;x=y", ".jpg"),
        ("application/x-unknown", ".bin"),
        (None, ".bin"),
    ],
)
def test_default_name_takes_its_extension_from_the_type(content_type, ext):
    name = default_name("http://h.example/", content_type, text=False)
    assert re.fullmatch(r"h\.example" + _STAMPED + re.escape(ext), name), name
    assert default_name("http://h.example/", content_type, text=True).endswith(".txt")


def _open(folder: Path) -> int:
    from common.paths import open_dir

    return open_dir(folder)


def test_unlink_same_removes_the_entry_seen_and_nothing_else(tmp_path):
    target = put(tmp_path, "target", 10, 0)
    link = tmp_path / "link"
    link.symlink_to(target)
    fd = _open(tmp_path)
    try:
        # The link itself is what was seen: it goes, what it points to stays.
        assert _unlink_same(fd, "link", os.stat(link, follow_symlinks=False)) is True
        assert not link.is_symlink() and target.exists()
        # Replaced since it was seen: left alone.
        seen = os.stat(target)
        target.unlink()
        put(tmp_path, "target", 10, DAY)
        assert _unlink_same(fd, "target", seen) is False and target.exists()
        assert _unlink_same(fd, "gone", seen) is False
    finally:
        os.close(fd)


def _chosen_dir(tmp_path: Path, names: list[str]) -> Path:
    d = tmp_path / "scratch"
    for name in names:
        save_bytes(b"y", name, directory=d, chosen=True)
        os.utime(d / name, (NOW - 8 * DAY, NOW - 8 * DAY))
    return d


def test_the_list_of_save_path_names_is_rewritten_without_the_pruned_ones(tmp_path):
    # A name that is not UTF-8 on disk comes back from listdir with surrogate escapes.
    odd = os.fsdecode(b"caf\xe9.txt")
    d = _chosen_dir(tmp_path, ["old.txt", "b-old.txt", odd, "a.txt"])
    os.utime(d / odd, (NOW, NOW))
    os.utime(d / "a.txt", (NOW, NOW))
    assert pruned(d, ScratchLimits(7 * DAY, 0), force=True) == ["b-old.txt", "old.txt"]
    listed = d / SAVED_LIST
    assert listed.read_bytes() == b"a.txt\ncaf\xe9.txt\n"
    assert os.stat(listed).st_mode & 0o777 == 0o600
    assert sorted(p.name for p in d.iterdir()) == sorted([SAVED_LIST, odd, "a.txt"])


def test_the_list_is_never_rewritten_through_a_planted_link(tmp_path, monkeypatch):
    d = _chosen_dir(tmp_path, ["old.txt", "new.txt"])
    os.utime(d / "new.txt", (NOW, NOW))  # kept: the new list is not empty
    outside = put(tmp_path, "outside", 5, 0)
    monkeypatch.setattr("wf.save.secrets.token_hex", lambda n: "0" * (2 * n))
    (d / ".wf-0000000000000000.list").symlink_to(outside)
    pruned(d, ScratchLimits(7 * DAY, 0), force=True)
    assert outside.read_bytes() == b"x" * 5


def test_a_list_that_cannot_be_replaced_leaves_no_temporary_file(tmp_path, monkeypatch):
    d = _chosen_dir(tmp_path, ["old.txt", "new.txt"])
    os.utime(d / "new.txt", (NOW, NOW))
    real = os.replace

    def refuse(src, dst, **kw):
        if dst == SAVED_LIST:
            raise PermissionError(13, "refused")
        return real(src, dst, **kw)

    monkeypatch.setattr("wf.save.os.replace", refuse)
    assert pruned(d, ScratchLimits(7 * DAY, 0), force=True) == ["old.txt"]
    assert sorted(p.name for p in d.iterdir()) == sorted([SAVED_LIST, "new.txt"])
    assert (d / SAVED_LIST).read_bytes() == b"old.txt\nnew.txt\n"


@pytest.mark.parametrize(
    ("name", "expected"), [("a/b/", "b"), ("dir/fileX/", "fileX"), ("  spaced.txt  ", "spaced.txt")]
)
def test_save_path_loses_trailing_slashes_before_its_base_is_taken(name, expected):
    assert confine_name(name) == expected


@pytest.mark.parametrize("name", [".", "a/.", ".."])
def test_save_path_of_dots_names_no_file(name):
    with pytest.raises(UsageError) as info:
        confine_name(name)
    assert str(info.value) == f"--save-path {name!r} has no file name (only its base name is used)"


def test_save_path_of_invisible_characters_is_refused_by_its_visible_part():
    with pytest.raises(UsageError) as info:
        confine_name("a\u200bb")
    assert str(info.value) == (
        "--save-path 'ab' holds control, invisible or undecodable characters "
        "(only plain text names are saved)"
    )


def test_save_path_of_255_bytes_is_the_longest():
    assert confine_name("é" * 127 + "a") == "é" * 127 + "a"  # 255 bytes
    with pytest.raises(UsageError) as info:
        confine_name("é" * 128)  # 256 bytes
    assert str(info.value) == "--save-path file name is longer than 255 bytes"


def test_the_list_of_save_path_names_is_private_and_never_written_through_a_link(tmp_path):
    d = tmp_path / "scratch"
    save_bytes(b"y", "kept.txt", directory=d, chosen=True)
    assert (d / SAVED_LIST).read_bytes() == b"kept.txt\n"
    assert os.stat(d / SAVED_LIST).st_mode & 0o777 == 0o600
    other = tmp_path / "other"
    outside = put(tmp_path, "outside", 5, 0)
    other.mkdir()
    (other / SAVED_LIST).symlink_to(outside)
    save_bytes(b"y", "mine.txt", directory=other, chosen=True)
    assert outside.read_bytes() == b"x" * 5 and (other / "mine.txt").exists()


@pytest.mark.parametrize(("age", "due"), [(3599, False), (3600, True), (-60, True)])
def test_prune_is_due_an_hour_after_the_stamp_not_before(tmp_path, age, due):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    put(d, auto_name(1), 10, 2 * DAY)
    put(d, STAMP, 0, age)  # a stamp from the future (a clock set back) is not believed
    assert pruned(d, ScratchLimits(DAY, 0)) == ([auto_name(1)] if due else [])
    assert os.stat(d / STAMP).st_mtime == (NOW if due else NOW - age)


def test_a_new_stamp_is_private(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    assert pruned(d, ScratchLimits(DAY, 0)) == []
    assert os.stat(d / STAMP).st_mode & 0o777 == 0o600


def test_a_planted_stamp_link_is_never_followed(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    outside = put(tmp_path, "outside", 5, 2 * DAY)
    (d / STAMP).symlink_to(outside)
    put(d, auto_name(1), 10, 2 * DAY)
    assert pruned(d, ScratchLimits(DAY, 0)) == []
    assert os.stat(outside).st_mtime == NOW - 2 * DAY


def test_with_both_rules_off_nothing_is_pruned_not_even_leftovers(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    put(d, ".wf-0123456789abcdef.part", 10, 2 * 3600)
    assert pruned(d, ScratchLimits(0, 0)) == []
    assert sorted(p.name for p in d.iterdir()) == [".wf-0123456789abcdef.part"]


def test_the_file_kept_is_never_pruned_at_its_age(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    put(d, auto_name(1), 10, 8 * DAY)
    put(d, auto_name(2), 10, 8 * DAY)
    assert pruned(d, ScratchLimits(DAY, 0), force=True, keep=auto_name(1)) == [auto_name(2)]
    # Without a name to keep, a --save-path name of any spelling goes at its age.
    e = _chosen_dir(tmp_path / "e", ["XXXX"])
    assert pruned(e, ScratchLimits(DAY, 0), force=True) == ["XXXX"]


def _list_elsewhere(tmp_path: Path, listed: bytes) -> Path:
    """A scratch dir whose list of --save-path names is a link to a file outside."""
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    put(d, "victim.txt", 10, 8 * DAY)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(listed)
    (d / SAVED_LIST).symlink_to(elsewhere)
    return d


def test_a_planted_list_link_names_nothing(tmp_path):
    d = _list_elsewhere(tmp_path, b"victim.txt\n")
    assert pruned(d, ScratchLimits(DAY, 0), force=True) == []
    assert (d / "victim.txt").exists()


def test_a_list_that_is_not_a_file_names_nothing_and_pruning_goes_on(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    (d / SAVED_LIST).mkdir()
    put(d, auto_name(1), 10, 8 * DAY)
    assert pruned(d, ScratchLimits(DAY, 0), force=True) == [auto_name(1)]


def test_only_the_first_4_mib_of_the_list_are_read(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    pad = b"p" * 99 + b"\n"
    head = pad * ((4 << 20) // 100) + b"q" * ((4 << 20) % 100 - 1) + b"\n"
    assert len(head) == 4 << 20
    (d / SAVED_LIST).write_bytes(head + b"late.txt\n")
    put(d, "late.txt", 10, 8 * DAY)
    assert pruned(d, ScratchLimits(DAY, 0), force=True) == []
    assert (d / "late.txt").exists()


@pytest.mark.parametrize(
    ("max_age", "age", "gone"), [(DAY, DAY, False), (DAY, DAY + 1, True), (1, 2, True)]
)
def test_prune_by_age_at_its_boundary(tmp_path, max_age, age, gone):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    put(d, auto_name(1), 10, age)
    assert pruned(d, ScratchLimits(max_age, 0), force=True) == ([auto_name(1)] if gone else [])


def test_a_link_of_our_name_shape_does_not_count_towards_the_size_cap(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    big = put(tmp_path, "big", 1000, 9 * DAY)
    link = d / auto_name(1)
    link.symlink_to(big)
    put(d, auto_name(2), 100, 2 * DAY)
    put(d, auto_name(3), 100, DAY)
    assert pruned(d, ScratchLimits(0, 250), force=True) == []
    assert big.exists() and link.is_symlink()


def test_entries_that_vanish_or_are_not_ours_do_not_stop_the_pruning(tmp_path, monkeypatch):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    (d / auto_name(1)).mkdir()  # our name shape, but a directory
    put(d, auto_name(3), 10, 8 * DAY)
    real = os.listdir
    # In this order, and with a name removed between the listing and its stat.
    monkeypatch.setattr(
        "wf.save.os.listdir", lambda fd: [auto_name(1), auto_name(2), *sorted(real(fd))]
    )
    assert pruned(d, ScratchLimits(DAY, 0), force=True) == [auto_name(3)]


def test_a_cap_of_one_byte_prunes_every_auto_named_file_but_the_kept_one(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    for n in (1, 2, 3):
        put(d, auto_name(n), 10, (5 - n) * 3600)  # 1 is the oldest
    # The file kept is the oldest: skipped, and the others still go.
    assert pruned(d, ScratchLimits(0, 1), force=True, keep=auto_name(1)) == [
        auto_name(2),
        auto_name(3),
    ]
    assert [p.name for p in d.iterdir()] == [auto_name(1)]


def test_a_scratch_dir_that_is_a_file_names_the_variable_that_moves_it(tmp_path):
    target = tmp_path / "file"
    target.write_text("")
    with pytest.raises(WriteError) as info:
        save_bytes(b"x", "f.txt", directory=target)
    assert str(info.value) == (
        f"cannot use the scratch dir {target}: it is a symbolic link or not a directory "
        "(set WF_SCRATCH_DIR to a directory of your own)"
    )


def test_a_file_gone_before_the_size_pass_does_not_stop_it(tmp_path, monkeypatch):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    for n in (1, 2, 3):
        put(d, auto_name(n), 10, (5 - n) * 3600)  # 1 is the oldest
    real, seen = os.stat, set()

    def stat(name, **kw):
        # The oldest vanishes between the listing pass and the size pass.
        if name == auto_name(1) and name in seen:
            raise FileNotFoundError(2, "gone")
        seen.add(name)
        return real(name, **kw)

    monkeypatch.setattr("wf.save.os.stat", stat)
    assert pruned(d, ScratchLimits(0, 10), force=True) == [auto_name(2), auto_name(3)]


def test_a_scratch_dir_that_cannot_be_opened_says_why(tmp_path, monkeypatch):
    def refuse(path, **kw):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("wf.save.open_dir", refuse)
    with pytest.raises(WriteError) as info:
        save_bytes(b"x", "f.txt", directory=tmp_path)
    assert str(info.value) == f"cannot open the scratch dir {tmp_path}: Permission denied"


def test_a_scratch_dir_that_changed_after_its_check_is_refused_and_left_alone(
    tmp_path, monkeypatch
):
    # Replaced between the check and the open: the descriptor's own stat is checked too.
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    (d / "XXXX").write_text("not wf's")
    monkeypatch.setattr("wf.save.problem", lambda st: "it changed")
    stdout = os.dup(1)
    try:
        with pytest.raises(WriteError) as info:
            save_bytes(b"x", "f.txt", directory=d)
        closed = os.fstat(1).st_ino != os.fstat(stdout).st_ino
    except OSError:
        closed = True
    finally:
        os.dup2(stdout, 1)
        os.close(stdout)
    assert not closed  # nothing but what save_bytes opened is closed
    assert str(info.value) == f"cannot use the scratch dir {d}: it changed (set WF_SCRATCH_DIR)"
    assert sorted(p.name for p in d.iterdir()) == ["XXXX"]


def test_the_temporary_file_has_the_name_pruning_knows(tmp_path, monkeypatch):
    from wf.save import _PART_NAME

    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    seen: list[str] = []
    real = os.fsync

    def fsync(fd):
        seen.extend(os.listdir(d))
        return real(fd)

    monkeypatch.setattr("wf.save.os.fsync", fsync)
    save_bytes(b"x", "f.txt", directory=d)
    assert len(seen) == 1 and _PART_NAME.match(seen[0]), seen


def test_a_planted_temporary_link_is_never_written_through(tmp_path, monkeypatch):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    outside = put(tmp_path, "outside", 5, 0)
    monkeypatch.setattr("wf.save.secrets.token_hex", lambda n: "0" * (2 * n))
    (d / ".wf-0000000000000000.part").symlink_to(outside)
    with pytest.raises(WriteError):
        save_bytes(b"new", "f.txt", directory=d)
    assert outside.read_bytes() == b"x" * 5 and not (d / "f.txt").exists()


def test_a_save_removes_nothing_but_its_temporary_file(tmp_path):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    (d / "XXXX").write_text("not wf's")
    save_bytes(b"x", "f.txt", directory=d)
    assert sorted(p.name for p in d.iterdir()) == ["XXXX", "f.txt"]


def test_the_file_just_saved_is_never_pruned_even_over_the_cap(tmp_path):
    d = tmp_path / "scratch"
    path = save_bytes(b"x" * 10, auto_name(1), directory=d, limits=ScratchLimits(0, 1))
    assert path.read_bytes() == b"x" * 10 and (d / STAMP).exists()


def test_pruning_after_a_save_is_one_trace_line(tmp_path, capfd):
    from common import trace

    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)
    for n in (1, 2):
        old = time.time() - 30 * DAY  # save_bytes prunes at the real time
        os.utime(put(d, auto_name(n), 10, 0), (old, old))
    trace.enable("wf")
    try:
        save_bytes(b"x", "f.txt", directory=d, limits=ScratchLimits(DAY, 0))
    finally:
        trace.enable("wf", False)
    assert capfd.readouterr().err == "wf: * scratch: pruned 2 old or surplus files of wf's\n"


def test_a_failed_write_closes_and_removes_its_temporary_file(tmp_path, monkeypatch):
    d = tmp_path / "scratch"
    d.mkdir(mode=0o700)

    def fail(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("wf.save.os.fsync", fail)
    import fcntl

    from common.paths import open_dir

    def high_open_dir(path):
        fd = open_dir(path)
        try:
            return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        finally:
            os.close(fd)

    # A cron job's closed stdin: the temporary file is then descriptor 0.
    monkeypatch.setattr("wf.save.open_dir", high_open_dir)
    stdin = os.dup(0)
    os.close(0)
    try:
        with pytest.raises(WriteError) as info:
            save_bytes(b"x", "f.txt", directory=d)
        try:
            os.fstat(0)
            left_open = True
        except OSError:
            left_open = False
    finally:
        os.dup2(stdin, 0)
        os.close(stdin)
    assert not left_open
    assert str(info.value) == (
        f"cannot write {d / 'f.txt'}: Input/output error (WF_SCRATCH_DIR chooses the directory)"
    )
    assert list(d.iterdir()) == []
