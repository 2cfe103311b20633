"""A page nested deeper than libxml2 accepts, flattened after the bytes (wf/extract/depth.py):
the tag pattern read once per tag (it tried every split of what follows a "<" with no
">" after it between two repeats: 800 "<a" after a deep page took 13 s), and the deadline
asked every so many tags. The flattening is checked against itself as it was, on random
pages; counted asks and a deadline already past, never timing."""

from __future__ import annotations

import random
import re

import pytest

from tests.helpers import Asks
from wf.extract import depth, parse

# flatten as it was: its tag pattern and its rules, for the answer the new one must give.
TAG_AS_SPECIFIED = re.compile(rb"<(/?)([a-zA-Z][^\s/>]*)[^>]*?(/?)>")


def flatten_as_specified(data: bytes, max_depth: int) -> bytes:
    out: list[bytes] = []
    level = pos = 0
    for m in TAG_AS_SPECIFIED.finditer(data):
        closing, name, selfclose = m.group(1), m.group(2).lower(), m.group(3)
        if name == b"wbr":
            out.append(data[pos : m.start()])
            pos = m.end()
            continue
        if name in depth._NO_DEPTH or selfclose:
            continue
        if closing:
            level -= 1
            drop = level >= max_depth
        else:
            drop = level >= max_depth
            level += 1
        if drop:
            out.append(data[pos : m.start()])
            out.append(b" ")
            pos = m.end()
        level = max(level, 0)
    out.append(data[pos:])
    return b"".join(out)


PIECES = (
    b"<div>", b"</div>", b"<DIV class=a>", b"<span/>", b"<b / >", b"</b>", b"<p>", b"<br/>",
    b"<wbr>", b"<a", b"<", b">", b"/", b"/>", b" ", b"\n", b"x", b"word", b"<i\tx='/'>",
    b"</ div>", b"<1>", b"<a<b>", b"=",
)  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_a_page_flattened_is_what_the_pattern_as_specified_gives(monkeypatch, seed):
    monkeypatch.setattr(depth, "MAX_DEPTH", 3)
    rnd = random.Random(seed)
    dropped = 0
    for _ in range(4_000):
        page = b"".join(rnd.choices(PIECES, k=rnd.randint(0, 60)))
        expected = flatten_as_specified(page, 3)
        assert depth.flatten(page) == expected, page
        assert depth.flatten(page, lambda: False) == expected, page
        dropped += expected != page
    assert dropped > 1_000  # the pages go past the depth, not only stay within it


class _Searches:
    """The tag pattern, its searches' bounds recorded."""

    def __init__(self) -> None:
        self.pattern = depth._TAG
        self.ends: list[int] = []

    def finditer(self, data: bytes, pos: int = 0, endpos: int = 1 << 62):  # type: ignore[no-untyped-def]
        self.ends.append(min(endpos, len(data)))
        return self.pattern.finditer(data, pos, endpos)

    def sub(self, repl: bytes, data: bytes) -> bytes:
        return self.pattern.sub(repl, data)


def test_no_tag_is_looked_for_past_the_last_closing_bracket(monkeypatch):
    # Each "<" with no ">" after it was tried against all that follows (13 s for 800).
    page = b"<html><body>" + b"<div>" * 600 + b"x" + b"<a" * 100
    searches = _Searches()
    monkeypatch.setattr(depth, "_TAG", searches)
    flattened = depth.flatten(page)
    assert searches.ends == [page.rfind(b">") + 1]
    assert flattened.endswith(b"x" + b"<a" * 100)


def test_a_deep_page_is_flattened_asking_the_deadline_every_so_many_tags():
    page = b"<html><body>" + b"<div>a" * 5_000 + b"</div>" * 5_000 + b"</body></html>"
    assert depth.flatten(page, late := Asks()) == depth.flatten(page)
    assert late.asks == 10_004 // depth._ASKED
    # Late at the 2nd ask: every tag from there on goes, and no text.
    cut = depth.flatten(page, Asks(from_ask=2))
    assert cut.count(b"<") < 2 * depth._ASKED
    assert cut.replace(b" ", b"").endswith(b"a" * 3_000)
    assert re.sub(rb"<[^>]*>| ", b"", cut) == b"a" * 5_000
    # A stretch of long tags is asked about by its bytes too.
    long_tags = (b'<div a="' + b"x" * 100_000 + b'">y') * 10
    assert depth.flatten(long_tags, late := Asks()) == depth.flatten(long_tags)
    assert late.asks >= 3


def test_the_careful_parse_of_a_deep_page_asks_the_deadline():
    page = b"<html><body>" + b"<div>a" * 5_000 + b"</body></html>"
    root = parse.parse(page, late := Asks(from_ask=1))
    assert late.asks == 1
    assert root is not None and "".join(root.itertext()).count("a") == 5_000
