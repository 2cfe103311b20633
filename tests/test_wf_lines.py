"""wf/lines.py: the line pipeline (split, filter, exclude, window, max length) directly
and through the CLI; patterns run on RE2 with Python's meaning."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common.errors import Timeout, UsageError
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


def test_page_keeps_whole_lines_and_never_splits_characters():
    page = lines.page_lines(["aaa", "bbb", "ccc"], 1, 9)
    assert (page.lines, page.first, page.last, page.partial) == (["aaa", "bbb"], 1, 2, False)
    page = lines.page_lines(["é" * 10], 4, 4)
    assert (page.lines, page.first, page.last, page.partial) == (["éééé"], 4, 4, True)
    assert page.cut_from == 10
    # A combining mark stays with its letter; a joiner with what it joins.
    assert lines.cut_at("abe\u0301cd", 3) == "ab"
    assert lines.cut_at("ab\u200dcd", 3) == "a"
    page = lines.page_lines(["short"], 1, 0)
    assert (page.lines, page.last, page.partial) == (["short"], 1, False)


def test_a_line_that_fits_on_the_next_page_is_not_cut_here():
    page = lines.page_lines(["aaaa", "bbbbbb", "cc"], 1, 8)
    assert (page.lines, page.last, page.partial) == (["aaaa"], 1, False)


def test_a_line_exactly_the_limit_long_goes_whole_to_the_next_page():
    # It fits a page by itself, so it is not cut here: the next page starts with it.
    page = lines.page_lines(["ab", "xxxx"], 1, 4)
    assert page == lines.Page(["ab"], 1, 1, shown=2, total=7)
    assert lines.page_lines(["xxxx"], 2, 4).lines == ["xxxx"]


def test_a_line_longer_than_the_limit_is_cut_after_short_ones():
    # The preview of a page whose first line is short and second one huge (defect 2).
    page = lines.page_lines(["# Big DOM", "x" * 1000, "tail"], 1, 100)
    assert page.lines == ["# Big DOM", "x" * 90]
    assert (page.first, page.last, page.partial, page.cut_from) == (1, 2, True, 1000)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="ab\u0301é", max_size=40), max_size=25),
    st.integers(min_value=1, max_value=60),
)
def test_paging_by_to_plus_one_reaches_every_line(text_lines, limit):
    """The contract agents page by: from = the previous to + 1 reaches every line, each
    page prints exactly the lines it numbers, and a line is cut only when it alone is
    longer than the limit and it is the last of its page."""
    seen: list[int] = []
    start = 1
    while start <= len(text_lines):
        page = lines.page_lines(text_lines[start - 1 :], start, limit)
        assert page.first == start and page.last is not None
        assert len(page.lines) == page.last - page.first + 1
        assert len("\n".join(page.lines)) <= limit
        for i, shown in enumerate(page.lines, start):
            whole = text_lines[i - 1]
            if i == page.last and page.partial:
                assert len(whole) > limit and whole.startswith(shown) and shown != whole
            else:
                assert shown == whole
        seen.extend(range(page.first, page.last + 1))
        start = page.last + 1
    assert seen == list(range(1, len(text_lines) + 1))


# ------------------------------------------------------------------ CLI


def test_window_and_max_length_markers(wf, serve):
    body = "".join(f"row {i}\n" for i in range(1, 101)).encode()
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--from", "3", "--to", "5", srv.url)
    assert r.stdout == "row 3\nrow 4\nrow 5\n"
    r = wf(*ALLOW, "--from", "10", "--max-length", "20", "--json", srv.url)
    obj = json.loads(r.stdout)
    assert obj["text"] == "row 10\nrow 11\nrow 12"
    # lines.from and lines.to are the lines printed, not the window asked for.
    assert obj["truncated"] is True and obj["lines"] == {
        "total": 100,
        "matched": 100,
        "from": 10,
        "to": 12,
        "partial": False,
    }
    r = wf(*ALLOW, "--from", "10", "--max-length", "20", srv.url)
    assert r.stdout.splitlines()[-1].startswith("[wf: output truncated at 20 of ")
    assert "--from 13" in r.stdout


def test_from_past_the_last_line_says_so_on_stderr(wf, serve):
    body = "".join(f"row {i}\n" for i in range(1, 11)).encode()
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--from", "500", srv.url)
    assert (r.code, r.stdout) == (0, "")
    assert r.stderr == "wf: note: --from 500 is past the last line (10)\n"
    r = wf(*ALLOW, "--from", "500", "--quiet", srv.url)
    assert (r.code, r.stdout, r.stderr) == (0, "", "")
    r = wf(*ALLOW, "--from", "500", "--json", srv.url)
    assert json.loads(r.stdout)["notes"] == ["--from 500 is past the last line (10)"]


# A 41-line page, as in issue 13: short lines, one line far longer than any limit below,
# and lines a little longer than the smaller limits.
PAGED = [f"line {i} " + "w" * (i * 7 % 50) for i in range(1, 42)]
PAGED[19] = "long " + "L" * 2500
PAGED[30] = "é" * 120


@pytest.mark.parametrize("limit", [50, 100, 300, 1000, 20000])
def test_paging_by_lines_to_plus_one_reaches_every_line(wf, serve, limit):
    body = ("\n".join(PAGED) + "\n").encode()
    srv = serve(respond(200, body, {"Content-Type": "text/plain; charset=utf-8"}))
    got: dict[int, str] = {}
    start, pages = 1, 0
    while True:
        r = wf(*ALLOW, "--json", "--max-length", str(limit), "--from", str(start), srv.url)
        obj = json.loads(r.stdout)
        lf, lt = obj["lines"]["from"], obj["lines"]["to"]
        if lf is None:
            break
        assert lf == start
        printed = obj["text"].split("\n")
        assert len(printed) == lt - lf + 1 and len(obj["text"]) <= limit
        for n, text in zip(range(lf, lt + 1), printed, strict=True):
            if n == lt and obj["lines"]["partial"]:
                assert len(PAGED[n - 1]) > limit and PAGED[n - 1].startswith(text)
                marker_cmd = f"--from {n} --to {n} --max-length 0 --no-save"
                assert any(marker_cmd in note for note in obj["notes"])
                whole = wf(*ALLOW, *marker_cmd.split(), srv.url)
                text = whole.stdout.removesuffix("\n")
            got[n] = text
        pages += 1
        start = lt + 1
        if lt == obj["lines"]["matched"]:
            break
    assert [got[n] for n in range(1, 42)] == PAGED
    assert pages >= (2 if limit < 20000 else 1)


def test_one_huge_line_names_the_command_that_prints_it_whole(wf, serve):
    # A single-line JSON body: "--from 2" used to be the advice, and printed nothing.
    body = b'{"data": "' + b"x" * 200_000 + b'"}'
    srv = serve(respond(200, body, {"Content-Type": "application/json"}))
    for extra in (["--no-save"], []):  # printed in part; auto-saved with a preview
        r = wf(*ALLOW, "--max-length", "100", *extra, srv.url)
        out = r.stdout.rstrip("\n").split("\n")
        text, note = (out[0], out[1]) if extra else (out[1], out[0])
        assert text == body.decode()[:100]
        assert "line 1 is cut at 100 of 200012 characters" in note
        assert "--from 1 --to 1 --max-length 0 --no-save" in note and "--from 2" not in note
    obj = json.loads(wf(*ALLOW, "--max-length", "100", "--json", srv.url).stdout)
    assert obj["lines"] == {"total": 1, "matched": 1, "from": 1, "to": 1, "partial": True}
    r = wf(*ALLOW, "--from", "1", "--to", "1", "--max-length", "0", "--no-save", srv.url)
    assert r.stdout.encode() == body + b"\n"


def test_max_length_zero_prints_everything_and_saves_nothing(wf, serve, scratch):
    body = "".join(f"paragraph {i} " + "word " * 20 + "\n" for i in range(400)).encode()
    srv = serve(respond(200, body, {"Content-Type": "text/plain"}))
    r = wf(*ALLOW, "--max-length", "0", srv.url)
    assert r.stdout.encode() == body and "[wf:" not in r.stdout
    r = wf(*ALLOW, "--json", srv.url, env={"WF_MAX_LENGTH": "0"})
    obj = json.loads(r.stdout)
    assert obj["saved_to"] is None and obj["truncated"] is False
    assert obj["text"].encode() + b"\n" == body
    assert not scratch.exists() or list(scratch.iterdir()) == []


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
    r"[ab]\s\w",  # \s and \w after a set are outside it again
    r"[]\s]",  # a "]" right after "[" is a member: the \s is still inside
    r"[[:alpha:]]",  # for Python a "[" and letters, then a "]"; not RE2's class
    r"\w+\.",  # an escape that is not \b or \B keeps RE2
    r"a[bc]d",  # a set after the start of the pattern
    r"^[ab]",  # a "^" before a set is not its negation
    r"[^]\s]",  # nor is a "]" right after "[^" its end
    r"a{b",  # a "{" that starts no count is a character
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
    "X",
    "a",
    "a]",
    "a x",
    "a\u3000",
    "é.",
    "a[d",
    "abd",
    "a{b",
    "a{0b",
]


@pytest.mark.parametrize("pattern", RE2_PATTERNS)
def test_re2_patterns_match_what_python_re_matches(pattern):
    regex = lines.compile_regex(pattern, "--filter")
    assert regex.linear, regex.fallback
    assert regex.pattern == pattern
    python = re.compile(pattern)
    for text in RE2_TEXTS:
        assert bool(regex.search(text)) == bool(python.search(text)), (pattern, text)


@pytest.mark.parametrize(
    "pattern",
    [
        *(r"(\w)\1", r"a(?=b)", r"(?<!a)b", r"[\W]", r"\bпривет\b", r"п\B", r"(?x) a b"),
        *(r"\b\w+", r"\B\W"),  # a boundary beside \w or \W, in ASCII alone
    ],
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


# ------------------------------------------------ issue 16: what the mutation run found


def test_the_note_says_why_re2_refused_the_pattern(capfd):
    regex = lines.compile_regex(r"(\w)\1", "--filter")
    assert regex.fallback == (
        r"--filter '(\\w)\\1' runs on Python's re "
        r"(RE2 cannot run it: invalid escape sequence: \1), limited to 5 s"
    )
    assert capfd.readouterr().err == f"wf: note: {regex.fallback}\n"


def test_re2_reason_reads_bytes_text_and_no_detail_at_all():
    assert lines._re2_reason(ValueError(b"bad \xff byte")) == "RE2 cannot run it: bad \ufffd byte"
    assert lines._re2_reason(ValueError("plain")) == "RE2 cannot run it: plain"
    assert lines._re2_reason(ValueError()) == "RE2 cannot run it: "


# A PDF's page separators are pinned: kept without --filter, dropped with one, whatever
# the patterns say.
PAGES = ["-- page 1 --", "alpha", "beta", "-- page 2 --", "alpha beta", "gamma"]


def _separator(line: str) -> bool:
    return line.startswith("-- page")


def test_pinned_lines_stay_without_a_filter_whatever_exclude_says():
    drop = lines.compile_regex("beta|page", "--exclude")
    sel = lines.select_lines(PAGES, drop=drop, pinned=_separator)
    assert sel.lines == ["-- page 1 --", "alpha", "-- page 2 --", "gamma"]
    assert lines.match_lines(PAGES, None, None, pinned=_separator) == [0, 1, 2, 3, 4, 5]


def test_pinned_lines_go_with_a_filter_even_when_it_matches_them():
    keep = lines.compile_regex("alpha|page", "--filter")
    sel = lines.select_lines(PAGES, keep=keep, pinned=_separator)
    assert (sel.lines, sel.matched) == (["alpha", "alpha beta"], 2)
    drop = lines.compile_regex("beta", "--exclude")
    sel = lines.select_lines(PAGES, keep=keep, drop=drop, pinned=_separator)
    assert sel.lines == ["alpha"]


def test_pinned_lines_go_with_a_filter_on_python_re_too():
    # The backreference keeps the pattern off RE2: the match runs in the child.
    keep = lines.compile_regex(r"(-)\1 page|alpha", "--filter")
    assert not keep.linear
    assert lines.match_lines(PAGES, keep, None, pinned=_separator) == [1, 4]
    assert lines.match_lines(PAGES, keep, None) == [0, 1, 3, 4]


def test_the_window_after_the_last_line_numbers_nothing():
    sel = lines.select_lines(["a", "b", "c"], from_line=3, to_line=2)
    assert (sel.lines, sel.first, sel.last, sel.matched, sel.total) == ([], None, None, 3, 3)
    sel = lines.select_lines(["a", "b", "c"], from_line=2)
    assert (sel.lines, sel.first, sel.last) == (["b", "c"], 2, 3)


def test_patterns_on_python_re_give_the_same_lines_through_the_child():
    # Enough lines that the indices come back in several reads of the pipe.
    text = [f"{'ab' if i % 3 else 'b'} {i}" for i in range(40_000)]
    keep = lines.compile_regex(r"a(?=b)", "--filter")
    drop = lines.compile_regex(r"(?<=b )\d*7$", "--exclude")
    assert not keep.linear and not drop.linear
    want = [i for i in range(40_000) if i % 3 and not str(i).endswith("7")]
    assert lines.match_lines(text, keep, drop) == want
    sel = lines.select_lines(text, keep=keep, drop=drop, from_line=2, to_line=3)
    assert sel.lines == [text[want[1]], text[want[2]]] and sel.matched == len(want)


def test_a_backtracking_regex_ends_at_the_total_deadline_with_exit_28():
    keep = lines.compile_regex(r"(?=a)(a+)+$", "--filter")
    start = time.monotonic()
    with pytest.raises(Timeout) as info:
        lines.select_lines(["a" * 40 + "!"], keep=keep, deadline=start + 0.5)
    assert time.monotonic() - start < 3
    assert str(info.value) == (
        "timed out: regex --filter '(?=a)(a+)+$' was still running at the total deadline "
        "(catastrophic backtracking?)"
    )


def test_a_backtracking_regex_names_both_patterns_and_its_limit():
    keep = lines.compile_regex(r"(?=a)(a+)+$", "--filter")
    drop = lines.compile_regex("z", "--exclude")
    with pytest.raises(UsageError) as info:
        lines.match_lines(["a" * 40 + "!"], keep, drop, seconds=0.5, deadline=time.monotonic() + 60)
    assert str(info.value) == (
        "regex --filter '(?=a)(a+)+$' and --exclude 'z' ran longer than 0.5 s on this page "
        "(catastrophic backtracking?); simplify it"
    )


def test_the_note_names_the_ascii_word_boundary():
    regex = lines.compile_regex(r"\bпривет\b", "--exclude")
    assert regex.fallback == (
        r"--exclude '\\bпривет\\b' runs on Python's re "
        r"(its \b or \B meets non-ASCII letters, and RE2's word boundary is ASCII), "
        "limited to 5 s"
    )


def test_an_invalid_regex_is_named_with_python_s_reason():
    with pytest.raises(UsageError) as info:
        lines.compile_regex("a(", "--exclude")
    assert str(info.value) == (
        "invalid regex for --exclude 'a(': missing ), unterminated subpattern at position 1"
    )


def test_a_window_that_fits_exactly_is_whole_and_counted_exactly():
    page = lines.page_lines(["ab", "cd"], 1, 5)
    assert (page.lines, page.partial, page.shown, page.total) == (["ab", "cd"], False, 5, 5)


@pytest.mark.parametrize(
    ("line", "limit", "kept"),
    [
        ("abc", 0, ""),
        ("abc", 5, "abc"),
        ("abc", 3, "abc"),
        ("a\u200dbc", 3, "a\u200db"),  # the joiner two back joins nothing at the cut
        ("a\u0301\u0301\u0301b", 3, "a\u0301\u0301"),  # back to 0: cut at the limit
        ("ab\u0301\u0301c", 3, "a"),
    ],
)
def test_cut_at_moves_back_only_over_marks_and_joiners(line, limit, kept):
    assert lines.cut_at(line, limit) == kept


def test_an_empty_window_is_an_empty_page():
    assert lines.page_lines([], None, 5) == lines.Page([], None, None, total=0)
    assert lines.page_lines(["abc"], None, 5) == lines.Page([], None, None, total=3)
    assert lines.page_lines(["abc"], 1, 0).total == 3


def test_a_cut_line_of_one_character_still_ends_the_page():
    # "ab", the newline, and room for one character of the long line.
    page = lines.page_lines(["ab", "x" * 10], 1, 4)
    assert page == lines.Page(["ab", "x"], 1, 2, True, cut_from=10, shown=4, total=13)
    page = lines.page_lines(["x" * 10], 7, 4)
    assert page == lines.Page(["xxxx"], 7, 7, True, cut_from=10, shown=4, total=10)
    page = lines.page_lines(["ab", "cd", "ef"], 3, 5)
    assert page == lines.Page(["ab", "cd"], 3, 4, shown=5, total=8)


def test_patterns_on_re2_run_in_this_process(monkeypatch):
    def no_fork():
        raise AssertionError("RE2 patterns need no child")

    monkeypatch.setattr("wf.lines.os.fork", no_fork)
    keep = lines.compile_regex("a", "--filter")
    drop = lines.compile_regex("b", "--exclude")
    assert lines.match_lines(["a", "ab", "c"], keep, drop) == [0]
    assert lines.match_lines(["a", "ab", "c"], None, drop) == [0, 2]
    assert lines.match_lines(["a", "ab", "c"], None, None) == [0, 1, 2]


def test_a_python_re_match_runs_once_in_the_child_never_again_here(monkeypatch):
    # The parent matches itself only when the child failed; a child that succeeds (or
    # sets its signals up) and says so spares it the work, and its time limit holds.
    calls: list[int] = []
    matching = lines._matching

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(os.getpid())
        return matching(*args, **kwargs)

    monkeypatch.setattr(lines, "_matching", counted)
    keep = lines.compile_regex(r"(\w)\1", "--filter")
    assert not keep.linear
    assert lines.match_lines(["book", "cat", "moon"], keep, None) == [0, 2]
    assert calls == []  # the child's call was made in the child
    # A limit under a second is a limit like any other: the answer is read until then.
    assert lines.match_lines(["book", "cat", "moon"], keep, None, seconds=0.9) == [0, 2]


def test_a_child_that_fails_leaves_the_match_to_the_parent_at_once(monkeypatch, tmp_path):
    parent = os.getpid()
    matching = lines._matching

    def failing_in_the_child(*args, **kwargs):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            raise MemoryError("the child's address space is capped")
        return matching(*args, **kwargs)

    monkeypatch.setattr(lines, "_matching", failing_in_the_child)
    keep = lines.compile_regex(r"(\w)\1", "--filter")
    start = time.monotonic()
    try:
        kept = lines.match_lines(["book", "cat", "moon"], keep, None, seconds=2.0)
    finally:
        if os.getpid() != parent:  # a child that got out of match_lines: it must not
            (tmp_path / "escaped").touch()
            os._exit(0)
    assert kept == [0, 2] and not (tmp_path / "escaped").exists()
    assert time.monotonic() - start < 1.5  # the child said so; no wait for the limit


def test_a_failed_child_leaves_exclude_and_pinned_lines_to_the_parent(monkeypatch):
    # The parent's own match, after a child that failed, is the same match: --exclude and
    # the pinned lines count as they do in the child (and in-process on RE2).
    parent = os.getpid()
    matching = lines._matching

    def failing_in_the_child(*args, **kwargs):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            os._exit(1)  # the child dies before it answers, as at its memory cap
        return matching(*args, **kwargs)

    monkeypatch.setattr(lines, "_matching", failing_in_the_child)
    # The backreference keeps the pattern off RE2; it also matches each separator's "--".
    drop = lines.compile_regex(r"(-)\1|beta", "--exclude")
    assert not drop.linear
    assert lines.match_lines(PAGES, None, drop, pinned=_separator) == [0, 1, 3, 5]
    keep = lines.compile_regex(r"(-)\1|a$", "--filter")
    assert lines.match_lines(PAGES, keep, drop, pinned=_separator) == [1, 5]


@pytest.mark.parametrize("late", [0.0, 1.0])
def test_a_regex_limit_already_spent_ends_the_match_with_its_error(late):
    # No time left before the first wait: the match still ends with the limit's error,
    # never with an answer.
    keep = lines.compile_regex(r"(\w)\1", "--filter")
    with pytest.raises(UsageError) as info:
        lines.match_lines(["book"], keep, None, seconds=-late)
    assert str(info.value).startswith(r"regex --filter '(\\w)\\1' ran longer than ")
    with pytest.raises(Timeout) as timed_out:
        lines.match_lines(["book"], keep, None, deadline=time.monotonic() - late)
    assert str(timed_out.value).startswith("timed out: regex --filter")
