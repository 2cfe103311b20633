"""The line pipeline, saving and content types: the core directly and through the CLI."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from common.errors import UsageError, WriteError
from tests.helpers import ALLOW
from tests.servers import respond
from wf import lines
from wf.save import confine_name, save_bytes
from wf.sniff import classify

PROMETHEUS = (
    b"# HELP http_requests_total The total number of HTTP requests.\n"
    b"# TYPE http_requests_total counter\n"
    b'http_requests_total{method="post",code="200"} 1027 1395066363000\n'
    b'http_requests_total{method="post",code="400"}    3 1395066363000\n'
    b"# HELP rpc_duration_seconds A summary.\n"
    b'rpc_duration_seconds{quantile="0.5"} 4773\n'
    b"rpc_duration_seconds_sum 1.7560473e+07\n"
)


# ------------------------------------------------------------------ core


def test_split_lines_counts_like_a_reader():
    assert lines.split_lines("") == []
    assert lines.split_lines("a\nb\n") == ["a", "b"]
    assert lines.split_lines("a\n\nb") == ["a", "", "b"]


def test_filter_then_exclude_then_window():
    text = [
        f"{w} {i}" for i, w in enumerate(["apple", "banana", "apple pie", "cherry", "apple tart"])
    ]
    keep, drop = lines.compile_regex("apple", "--filter"), lines.compile_regex("pie", "--exclude")
    sel = lines.select_lines(text, keep=keep, drop=drop, from_line=2, to_line=9)
    assert sel.lines == ["apple tart 4"]
    assert (sel.total, sel.matched, sel.first, sel.last) == (5, 2, 2, 2)


def test_window_past_the_end_is_empty():
    sel = lines.select_lines(["a", "b"], from_line=5)
    assert sel.lines == [] and sel.first is None and sel.matched == 2


def test_hostile_regex_is_bounded_in_time():
    # The lookahead keeps the pattern off RE2: Python's re runs it, under the time limit.
    keep = lines.compile_regex(r"(?=a)(a+)+$", "--filter")
    assert not keep.linear
    start = time.monotonic()
    with pytest.raises(UsageError, match="ran longer than"):
        lines.match_lines(["a" * 40 + "!"], keep, None, seconds=1.0)
    assert time.monotonic() - start < 3


def test_invalid_regex_is_usage_error():
    with pytest.raises(UsageError) as info:
        lines.compile_regex("(", "--filter")
    assert info.value.code == 2


def test_truncate_prefers_line_ends_and_never_splits_characters():
    assert lines.truncate("aaa\nbbb\nccc", 9) == ("aaa\nbbb", 4)
    kept, cut = lines.truncate("é" * 10, 4)
    assert kept == "éééé" and cut == 6
    assert lines.truncate("short", 0) == ("short", 0)


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


@pytest.mark.parametrize(
    "ctype,body,kind",
    [
        ("text/html; charset=utf-8", b"<p>x</p>", "html"),
        ("application/xhtml+xml", b"<html/>", "html"),
        ("text/plain; version=0.0.4", PROMETHEUS, "text"),
        ("application/json", b'{"a": 1}', "text"),
        ("application/rss+xml", b"<rss/>", "text"),
        ("text/csv", b"a,b\n1,2\n", "text"),
        ("image/png", b"\x89PNG\r\n\x1a\nxxxx", "binary"),
        ("text/html", b"\x89PNG\r\n\x1a\nxxxx", "binary"),
        ("", b"<!DOCTYPE html><html><body>x</body></html>", "html"),
        ("", b"plain words\n", "text"),
        ("application/pdf", b"%PDF-1.7", "binary"),
        ("text/html", b"", "empty"),
    ],
)
def test_classify(ctype, body, kind):
    assert classify(ctype, body)[0] == kind


# ------------------------------------------------------------------ CLI


def test_prometheus_exposition_is_printed_byte_for_byte(wf, serve):
    srv = serve(
        respond(200, PROMETHEUS, {"Content-Type": "text/plain; version=0.0.4; charset=utf-8"})
    )
    r = wf(*ALLOW, srv.url)
    assert r.code == 0 and r.stdout.encode() == PROMETHEUS
    r = wf(*ALLOW, "--filter", "^rpc_", srv.url)
    assert (
        r.stdout
        == 'rpc_duration_seconds{quantile="0.5"} 4773\nrpc_duration_seconds_sum 1.7560473e+07\n'
    )


def test_json_body_is_printed_unchanged(wf, serve):
    body = b'{\n  "a": [1, 2],\n  "b": "\xc3\xa9"\n}\n'
    srv = serve(respond(200, body, {"Content-Type": "application/json"}))
    assert wf(*ALLOW, srv.url).stdout.encode() == body


def test_empty_body_is_empty_result(wf, serve):
    srv = serve(respond(204))
    r = wf(*ALLOW, "--json", srv.url)
    obj = json.loads(r.stdout)
    assert r.code == 0 and obj["status"] == 204 and obj["text"] == "" and obj["error"] is None
    srv2 = serve(respond(200, b"", {"Content-Type": "text/html"}))
    r = wf(*ALLOW, srv2.url)
    assert (r.code, r.stdout) == (0, "")


def test_binary_is_saved_not_printed(wf, serve, scratch):
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10
    srv = serve(respond(200, png, {"Content-Type": "image/png"}))
    r = wf(*ALLOW, srv.url)
    assert r.code == 0
    m = re.fullmatch(r"\[wf: binary content \(image/png, 2568 bytes\) saved to (\S+)\]\n", r.stdout)
    assert m, r.stdout
    assert Path(m.group(1)).read_bytes() == png and Path(m.group(1)).parent == scratch


def test_window_and_max_length_markers(wf, serve):
    body = "".join(f"row {i}\n" for i in range(1, 101)).encode()
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--from", "3", "--to", "5", srv.url)
    assert r.stdout == "row 3\nrow 4\nrow 5\n"
    r = wf(*ALLOW, "--from", "10", "--max-length", "20", "--json", srv.url)
    obj = json.loads(r.stdout)
    assert obj["text"] == "row 10\nrow 11\nrow 12"
    assert obj["truncated"] is True and obj["lines"] == {
        "total": 100,
        "matched": 100,
        "from": 10,
        "to": 100,
    }
    r = wf(*ALLOW, "--from", "10", "--max-length", "20", srv.url)
    assert r.stdout.splitlines()[-1].startswith("[wf: output truncated at 20 of ")
    assert "--from 13" in r.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--from", "0"],
        ["--to", "-1"],
        ["--from", "5", "--to", "2"],
        ["--max-length", "-5"],
        ["--no-save", "--save"],
        ["--filter", "(a"],
        ["--save-path", ".."],
        ["--timeout", "0"],
    ],
)
def test_bad_values_exit_2_before_any_request(wf, serve, args):
    srv = serve(respond(200, b"x"))
    r = wf(*ALLOW, *args, srv.url)
    assert r.code == 2 and r.stderr.startswith("wf: (2) ") and r.stderr.count("\n") == 1
    assert srv.requests == []


def test_huge_numbers_are_fine(wf, serve):
    srv = serve(respond(200, b"a\nb\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--from", "1", "--to", str(10**30), "--max-length", str(10**30), srv.url)
    assert (r.code, r.stdout) == (0, "a\nb\n")


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


def test_batch_in_input_order_with_first_failure_code(wf, serve):
    slow = serve(
        lambda c, r: (
            time.sleep(0.5),
            c.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nslow\n"
            ),
        )
    )
    fast = serve(respond(200, b"fast\n", {"Content-Type": "text/plain"}))
    gone = serve(respond(404, b""))
    r = wf(*ALLOW, "--json", slow.url, gone.url, fast.url)
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["url"] for o in objs] == [slow.url, gone.url, fast.url]
    assert [o["text"] for o in objs] == ["slow", "", "fast"]
    assert objs[1]["error"]["code"] == 4
    assert r.code == 4 and r.stderr.count("\n") == 1


def test_input_file_needs_no_network(wf, tmp_path, monkeypatch):
    import socket

    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("network used"))
    doc = tmp_path / "doc.txt"
    doc.write_bytes(b"local line 1\nlocal line 2\n")
    r = wf("--input", str(doc), "--filter", "2")
    assert (r.code, r.stdout) == (0, "local line 2\n")
    r = wf("--input", "-", input=b"from stdin\n")
    assert r.stdout == "from stdin\n"
    r = wf("--input", str(tmp_path / "missing.html"))
    assert r.code == 2 and "cannot read --input" in r.stderr


# ------------------------------------------------------------------ RE2 with Python's meaning

RE2_PATTERNS = [
    r"\w+",
    r"[\w-]+$",
    r"^[^\s]+x",
    r"\bfoo\b",
    r"[]a]",
    r"[^]a]+",
    r"\x41\u00e9",
    r"a{,2}b",
    r"\d+\Z",
    r"(?i)CAFÉ",
    r"[[:a]",
    r"\S+$",
    r"^\s*#",
    r"\W\w",
]
RE2_TEXTS = [
    "héllo wörld",
    "a-b_c",
    "x y z",
    "foo bar",
    "привет мир",
    "aa",
    "]",
    "b",
    "Aé",
    "aab",
    "123",
    "٣٤",
    "café",
    "[:a",
    "  # comment",
    "x\u3000y",
    "ab]",
    "\u00a0#",
]


@pytest.mark.parametrize("pattern", RE2_PATTERNS)
def test_re2_patterns_match_what_python_re_matches(pattern):
    regex = lines.compile_regex(pattern, "--filter")
    assert regex.linear, regex.fallback
    python = re.compile(pattern)
    for text in RE2_TEXTS:
        assert bool(regex.search(text)) == bool(python.search(text)), (pattern, text)


@pytest.mark.parametrize(
    "pattern", [r"(\w)\1", r"a(?=b)", r"(?<!a)b", r"[\W]", r"\bпривет\b", r"(?x) a b"]
)
def test_patterns_re2_cannot_run_fall_back_to_re_with_a_note(pattern, capfd):
    regex = lines.compile_regex(pattern, "--exclude")
    assert not regex.linear
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and err.startswith("wf: note: --exclude") and "Python's re" in err
    python = re.compile(pattern)
    for text in [*RE2_TEXTS, "привет", "ab", "b"]:
        assert bool(regex.search(text)) == bool(python.search(text))


def test_re2_ends_a_backtracking_pattern_in_linear_time():
    regex = lines.compile_regex(r"(a+)+$", "--filter")
    start = time.monotonic()
    assert lines.match_lines(["a" * 40 + "b"] * 200, regex, None) == []
    assert time.monotonic() - start < 0.5
