"""common/output.py's result writers: what they write, byte for byte, and that a page's
text is never copied whole on the way out (one astral character makes every copy of a str
four bytes a character: 40 MB for 10 MB of text)."""

from __future__ import annotations

import io
import json
import tracemalloc
from typing import Any

import pytest

from common import output

MB = 1 << 20


def _patch_stdout(monkeypatch: pytest.MonkeyPatch, stream: Any) -> None:
    # Not sys.stdout: pytest's capture sets that again once the fixtures are set up. The
    # environment object is what a test replaces.
    monkeypatch.setattr(output, "_environment", output.Environment(stdout=stream))


@pytest.fixture
def stdout(monkeypatch: pytest.MonkeyPatch) -> io.BytesIO:
    buffer = io.BytesIO()
    _patch_stdout(monkeypatch, buffer)
    return buffer


def _big_text() -> str:
    # 8 MB of text with something to escape in JSON on every line, one emoji at the end.
    return 'a "quoted" \\ back\tslash \u00e9\n' * 300_000 + "\U0001f600"


@pytest.mark.parametrize(
    "obj",
    [
        {"url": "u", "text": _big_text(), "lines": {"total": 1}, "notes": ["n\u2028"]},
        {"text": "x" * (1 << 16) + "\x01\udcff", "n": None, "f": 1.5},
        {"text": "short", "title": None},
        {},
        [1, "two"],
        {"1": "a" * 70_000, 2: "b"},  # a key that is no str: json.dumps's own way
    ],
)
def test_json_is_exactly_what_json_dumps_writes(stdout, obj):
    output.write_json(obj)
    expected = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert stdout.getvalue() == expected.encode("utf-8", "surrogateescape")


def test_text_in_pieces_is_the_pieces_joined(stdout):
    text = _big_text()
    output.write_pieces(["[wf: marker]", "\n", text, "\n", "", "tail\n"])
    assert stdout.getvalue() == ("[wf: marker]\n" + text + "\ntail\n").encode()


def _peak_while(write) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        write()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


class _Sink:
    """A stdout that keeps only the number of bytes written."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, data: bytes) -> int:
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_a_big_text_is_written_without_a_whole_copy(monkeypatch, as_json):
    sink = _Sink()
    _patch_stdout(monkeypatch, sink)
    text = _big_text()
    size = len(text) * 4  # bytes of the str: four a character
    if as_json:
        peak = _peak_while(lambda: output.write_json({"url": "u", "text": text}))
    else:
        peak = _peak_while(lambda: output.write_pieces(["[wf: x]", "\n", text, "\n"]))
    assert sink.size > len(text)
    # A slice at a time: a few MB, where json.dumps and a join each held a whole copy.
    assert peak < size // 4, f"{peak / MB:.1f} MB traced for a {size / MB:.0f} MB text"


def test_the_environment_holds_the_streams_and_quiet_mode():
    # One object says where output goes and what may be said there: a test swaps it whole.
    out, err = io.BytesIO(), io.BytesIO()
    previous = output.use(output.Environment(stdout=out, stderr=err, environ={}, quiet=True))
    try:
        output.write("page\n")
        output.diag("wf", "note: dropped under --quiet")
        output.diag("wf", "(6) could not resolve host x")
        assert not output.interactive()  # a BytesIO is no terminal, and quiet besides
    finally:
        assert output.use(previous).stdout is out
    assert out.getvalue() == b"page\n"
    assert err.getvalue() == b"wf: (6) could not resolve host x\n"
    assert output.Environment(environ={"NO_COLOR": "1"}).no_color()
    assert not output.Environment(environ={"NO_COLOR": ""}).no_color()
