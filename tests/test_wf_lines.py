"""wf/lines.py: the line pipeline (split, filter, exclude, window, max length) directly
and through the CLI; patterns run on RE2 with Python's meaning."""

from __future__ import annotations

import json
import re
import time

import pytest

from common.errors import UsageError
from tests.helpers import ALLOW
from tests.servers import respond
from wf import lines

# ------------------------------------------------------------------ core


def test_split_lines_counts_like_a_reader():
    assert lines.split_lines("") == []
    assert lines.split_lines("a\nb\n") == ["a", "b"]
    assert lines.split_lines("a\n\nb") == ["a", "", "b"]


def test_filter_and_exclude_narrow_the_view_before_the_window_numbers_it():
    # --filter and --exclude commute (a line stays when it matches one and not the other),
    # so no output can show which runs first; what the order of the pipeline does show is
    # that --from/--to count lines of the narrowed view, not of the page.
    text = [
        f"{w} {i}" for i, w in enumerate(["apple", "banana", "apple pie", "cherry", "apple tart"])
    ]
    keep, drop = lines.compile_regex("apple", "--filter"), lines.compile_regex("pie", "--exclude")
    sel = lines.select_lines(text, keep=keep, drop=drop, from_line=2, to_line=9)
    assert sel.lines == ["apple tart 4"]
    assert (sel.total, sel.matched, sel.first, sel.last) == (5, 2, 2, 2)
    # The window alone counts the page's lines: its second line is "banana 1".
    sel = lines.select_lines(text, from_line=2, to_line=2)
    assert sel.lines == ["banana 1"]


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


# ------------------------------------------------------------------ CLI


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


def test_huge_numbers_are_fine(wf, serve):
    srv = serve(respond(200, b"a\nb\n", {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--from", "1", "--to", str(10**30), "--max-length", str(10**30), srv.url)
    assert (r.code, r.stdout) == (0, "a\nb\n")


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
