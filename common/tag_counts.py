"""The bounds on a page's tags, counted before libxml2 sees it (common/parse_limits.py
applies them first, then its bounds on attributes): "<" and start tags counted by chunks
in C, on str and bytes alike (13 to 22 ms for 8 MB of tags), asking the caller's
``late()`` between stretches of ASK_EVERY characters read (OutOfTime once it says so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import AnyStr, overload

from common.late import OutOfTime

# 1 000 000 tiny <p> (8 MB) peaked at 376 MB and ended 2 s past their deadline; cut at
# this many "<", they stay within 100 MB and their deadline. The largest of the 181
# extract-bench pages has 3 229 "<".
MAX_TAGS = 150_000
# The bound on elements: a start tag (a "<" not followed by "/") makes at most one. With
# its text node and the extractor's record of it, an element costs up to a kilobyte, and
# attributes up to 250 bytes more each: 300 000 bare "<li>a", 150 000 elements within
# MAX_TAGS, peaked 145 MB over an idle wf, a balanced page of 150 000 tags with styled
# items 97 MB. Cut here, the worst of such shapes stays under 85 MB. A balanced page meets
# this bound at about 100 000 "<"; the largest extract-bench page has 9 909 start tags.
MAX_START_TAGS = 50_000
_CHUNK = 8192
# The counts ask ``late`` after this many characters read: 3.5 ms at most between two
# asks on 8 MB pages of tags (load 1.3), where the whole count, 30 to 65 ms, asked
# nothing. A page no longer than this is counted without an ask.
ASK_EVERY = 1 << 20


class _Asks:
    """The asks of ``late`` (None: never) as the counts read: one after each ASK_EVERY
    characters read in all, over every pass."""

    __slots__ = ("late", "read", "ask_at")

    def __init__(self, late: Callable[[], bool] | None) -> None:
        self.late = late
        self.read = 0
        self.ask_at = ASK_EVERY

    def step(self, n: int) -> None:
        """``n`` more characters read; OutOfTime when this ask finds the deadline past."""
        self.read += n
        if self.read >= self.ask_at and self.late is not None:
            self.ask_at = self.read + ASK_EVERY
            if self.late():
                raise OutOfTime


def _count(text: AnyStr, sub: AnyStr, asks: _Asks, start: int = 0, end: int | None = None) -> int:
    """``text.count(sub, start, end)``, a stretch of ASK_EVERY at a time with an ask
    between two (each counts the ``sub`` that start in it)."""
    end = len(text) if end is None else min(end, len(text))
    if asks.late is None or end - start <= ASK_EVERY:
        asks.step(max(0, end - start))
        return text.count(sub, start, end)
    found = 0
    for at in range(start, end, ASK_EVERY):
        stop = min(at + ASK_EVERY, end)
        found += text.count(sub, at, min(stop + len(sub) - 1, end))
        asks.step(stop - at)
    return found


def cap_tags(text: AnyStr, late: Callable[[], bool] | None = None) -> tuple[AnyStr, int]:
    """``text`` cut before its MAX_TAGS-th "<" (and the number of "<" it had), or
    ``(text, 0)`` when it has no more than that. ``late``: see cap_elements."""
    return _cap_tags(text, _Asks(late))


def _cap_tags(text: AnyStr, asks: _Asks) -> tuple[AnyStr, int]:
    if len(text) <= MAX_TAGS:
        return text, 0  # cannot hold more "<" than characters (most pages: no count)
    lt = angles(type(text))[0]
    if not _more_than(text, lt, MAX_TAGS, asks):
        return text, 0
    total = _count(text, lt, asks)
    seen = pos = 0
    while True:  # counted chunk by chunk in C; the loop runs a thousand times on 8 MB
        end = pos + _CHUNK
        found = text.count(lt, pos, end)
        asks.step(_CHUNK)
        if seen + found >= MAX_TAGS:
            break
        seen += found
        pos = end
    for _ in range(MAX_TAGS - seen):  # the last few thousand, one by one
        pos = text.find(lt, pos) + 1
    return text[: pos - 1], total


def cap_elements(text: AnyStr, late: Callable[[], bool] | None = None) -> tuple[AnyStr, int, int]:
    """``text`` within MAX_TAGS and MAX_START_TAGS, the number of "<" it had when it was
    cut (else 0), and the number of its start tags when MAX_START_TAGS cut it (else 0).
    ``late()`` (None: never asked) is asked after each ASK_EVERY characters read; once it
    is true the count stops with OutOfTime."""
    asks = _Asks(late)
    lt = angles(type(text))[0]
    if len(text) <= MAX_START_TAGS or not _more_than(text, lt, MAX_START_TAGS, asks):
        return text, 0, 0  # too few "<" for either bound (MAX_TAGS is the larger)
    cut, total = _cap_tags(text, asks)
    ends = lt + (b"/" if isinstance(lt, bytes) else "/")
    starts = _count(cut, lt, asks) - _count(cut, ends, asks)
    if starts <= MAX_START_TAGS:
        return cut, total, 0
    # The MAX_START_TAGS-th start tag: counted by chunks in C (a chunk never ends between
    # the "<" and the "/" of an end tag), then one "<" at a time.
    seen = pos = 0
    while True:
        end = pos + _CHUNK
        if cut[end - 1 : end] == lt:
            end += 1
        found = cut.count(lt, pos, end) - cut.count(ends, pos, end)
        asks.step(end - pos)
        if seen + found >= MAX_START_TAGS:
            break
        seen += found
        pos = end
    while True:
        pos = cut.find(lt, pos)
        if cut[pos + 1 : pos + 2] not in (b"/", "/"):
            seen += 1
            if seen == MAX_START_TAGS:
                break
        pos += 1
    every = total or _count(text, lt, asks)
    return text[:pos], every, every - _count(text, ends, asks)


def _more_than(text: AnyStr, lt: AnyStr, bound: int, asks: _Asks) -> bool:
    """Whether ``text`` holds more than ``bound`` of ``lt``, counted only while the rest
    could still take it over, the rest holding no more "<" than characters: a page of
    200 000 characters is read to about 50 000 for MAX_TAGS. A stretch at most ASK_EVERY
    long at a time, with an ask after each."""
    size = len(text)
    seen = pos = 0
    while seen + size - pos > bound:
        end = pos + min(max(seen + size - pos - bound, _CHUNK), ASK_EVERY)
        seen += text.count(lt, pos, end)
        asks.step(min(end, size) - pos)
        pos = end
        if seen > bound:
            return True
    return False


@overload
def angles(kind: type[str]) -> tuple[str, str]: ...
@overload
def angles(kind: type[bytes]) -> tuple[bytes, bytes]: ...
def angles(kind: type[str] | type[bytes]) -> tuple[str, str] | tuple[bytes, bytes]:
    """ "<" and ">" in the page's own type."""
    return (b"<", b">") if kind is bytes else ("<", ">")
