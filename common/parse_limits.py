"""Bounds on what an HTML parser is handed, counted before libxml2 sees a byte.

libxml2 builds its whole tree before any deadline of ours can act, and some inputs cost it
far more than their size: about 300 bytes of memory an element, and time quadratic in the
attributes of one element (it compares each new attribute with every earlier one: 40 000
attributes on one <p>, a 350 KB page, took 11 s). Both tools cut such pages here, say what
was cut, and leave the watchdog (common/watchdog.py) as the last line, not the first.

Works on str (wf's extractor) and bytes (ws's result pages) alike.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import islice, repeat
from typing import AnyStr, Generic, overload

from common.late import OutOfTime
from common.tag_counts import MAX_START_TAGS, MAX_TAGS, angles, cap_elements

__all__ = ["MAX_START_TAGS", "MAX_TAGS", "Cut", "cap_attributes", "cap_elements", "limit"]

# Quadratic cost per element: 256 attributes cost libxml2 0.5 ms, 5 000 cost 0.1 s, 20 000
# cost 1 s. Real elements carry a few dozen at most.
MAX_ATTRIBUTES_PER_ELEMENT = 256
# Memory: libxml2 keeps 125 bytes a bare attribute and 275 with a value (measured), at
# least 62 bytes for each character of source an attribute takes. Attributes in all are
# counted on pages over COUNTED_FROM characters only: a smaller page cannot hold more than
# about 60 MB of them, and counting costs 4 ns a character (a quarter of the extraction's
# time on the pages of extract-bench over 200 000 characters, where the count began before).
MAX_ATTRIBUTES = 100_000
COUNTED_FROM = 1_000_000
# Tags as long as two windows are always found, from one window on sometimes: an attribute
# takes two characters at least, so a tag that goes unseen holds under 1 024 attributes,
# which cost libxml2 under 3 ms.
_WINDOW = 1024
# How much of a long tag is read before it counts as long enough to count precisely.
_HEAD = 4096
# The attribute scan asks ``late`` (limit) after this much more of the page, or of one
# tag's attributes: at most 0.15 s between two asks on hostile 10 MB pages, where it took
# up to a second. The counts of "<" before it (40 to 65 ms on 8 MB, in C) ask too, after
# each megabyte read (common.tag_counts.ASK_EVERY): a page they stop is cut to nothing.
_CHECK_EVERY = 65_536
_CHECK_ATTRIBUTES = 8192
# For tests of the watchdog only: parse the page as it came.
OFF_ENV = "WF_WS_NO_PARSE_LIMITS"


@dataclass
class Cut:
    """What was left out of a page, for a note."""

    tags: int = 0  # "<" in the page when it was cut at MAX_TAGS or MAX_START_TAGS, else 0
    start_tags: int = 0  # start tags in the page when it was cut at MAX_START_TAGS, else 0
    elements: int = 0  # elements whose attributes were cut
    attributes: int = 0  # attributes dropped
    # Past the deadline: how much of how much was read (the page is cut there), else -1.
    read: int = -1
    size: int = 0
    unit: str = "characters"

    def notes(self) -> list[str]:
        out = []
        if self.read >= 0:
            out.append(
                f"out of time while the page was checked before its parse: text extracted "
                f"from the first {self.read} of its {self.size} {self.unit}"
            )
        if self.start_tags:
            out.append(
                f"the page has {self.start_tags} start tags; text extracted from the first "
                f"{MAX_START_TAGS}"
            )
        elif self.tags:
            out.append(f"the page has {self.tags} tags; text extracted from the first {MAX_TAGS}")
        if self.attributes:
            out.append(
                f"{self.attributes} attributes dropped from {self.elements} "
                f"element{'s' if self.elements != 1 else ''} (at most "
                f"{MAX_ATTRIBUTES_PER_ELEMENT} an element and {MAX_ATTRIBUTES} a page are parsed)"
            )
        return out


def limit(
    text: AnyStr,
    chars: int | None = None,
    late: Callable[[], bool] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
) -> tuple[AnyStr, Cut]:
    """``text`` within every bound above, and what was cut from it. ``chars``: the length
    of the text that ``text`` (bytes) encodes, which decides whether the page is long
    enough to count its attributes (COUNTED_FROM), so that its UTF-8 is cut as the text
    would be. ``late()``: whether the caller's deadline has passed; once it is, the scan
    stops and the page is cut before the first tag it has not read (Cut.read). ``environ``
    (a library caller's, None: os.environ) is where OFF_ENV is read."""
    cut = Cut()
    if (os.environ if environ is None else environ).get(OFF_ENV) == "1":
        return text, cut
    size = len(text)  # the page's, as the note says: before the tags' bounds cut it
    try:
        text, cut.tags, cut.start_tags = cap_elements(text, late)
    except OutOfTime:
        text, read = text[:0], 0  # no tag of it read yet
    else:
        text, cut.elements, cut.attributes, read = _cap_attributes(text, chars, late)
    if read >= 0:
        cut.read, cut.size = read, size
        cut.unit = "bytes" if isinstance(text, bytes) else "characters"
    return text, cut


def cap_attributes(text: AnyStr, chars: int | None = None) -> tuple[AnyStr, int, int]:
    """``text`` with no long start tag over MAX_ATTRIBUTES_PER_ELEMENT attributes and, on
    a page over COUNTED_FROM characters, no more than MAX_ATTRIBUTES in all; also the
    number of elements cut and attributes dropped.

    Attributes past a bound are removed from the tag; its name and text stay. Only the
    long tags of a page are looked at (see _long_tag_starts). A page over COUNTED_FROM
    characters is counted in one pass and, when over the bound, read tag by tag, skipping
    the contents of script, style and the other elements whose text libxml2 never parses
    as tags. ``chars``, as in limit."""
    out, elements, dropped, _read = _cap_attributes(text, chars, None)
    return out, elements, dropped


def _cap_attributes(
    text: AnyStr, chars: int | None, late: Callable[[], bool] | None
) -> tuple[AnyStr, int, int, int]:
    """cap_attributes, and where the scan stopped when ``late()`` said so (the text is cut
    there), else -1."""
    short = (len(text) if chars is None else chars) <= COUNTED_FROM
    if not short:
        p = _p(type(text))
        # One pass in C over every tag's attribute text: white space or "=" precede each
        # attribute, so this counts at least as many as libxml2 would build (4 ns a
        # character on the long pages of extract-bench; a loop over the tags took 14).
        joined = p.space.join(p.bodies.findall(text))
        if sum(joined.count(c) for c in p.separators) <= MAX_ATTRIBUTES:
            short = True  # as few attributes as a short page: only long tags to check
        elif late is not None and late():
            return text[:0], 0, 0, 0  # no tag of it read yet
    if short:
        # "<" and ">" alone find the long tags: the 15 patterns (1 ms to compile, in
        # every search's start-up) wait for a page that has one.
        starts = _long_tag_starts(text, *angles(type(text)))
        if not starts:
            return text, 0, 0, -1
    p = _p(type(text))
    scan = _Scan(text, p, late)
    # A short page: only tags with a long run of attribute text, found by the cheapest
    # pattern first; a long one: every tag.
    try:
        if short:
            scan.long_tags(starts)
        else:
            scan.every_tag()
    except _Late as stop:
        at = stop.args[0]
        return _without(text[:at], scan.edits, p), len(scan.edits), scan.dropped, at
    if not scan.edits:
        return text, 0, 0, -1
    return _without(text, scan.edits, p), len(scan.edits), scan.dropped, -1


class _Late(Exception):
    """The deadline passed: the page is cut at args[0], before a tag not yet read."""


class _Scan(Generic[AnyStr]):
    """One page's attribute scan: the spans to remove (``edits``, in page order), the
    attributes they drop, and the asks of ``late`` between stretches of the page."""

    def __init__(self, text: AnyStr, p: _Patterns[AnyStr], late: Callable[[], bool] | None):
        self.text: AnyStr = text
        self.p: _Patterns[AnyStr] = p
        self.late = late
        self.edits: list[tuple[int, int]] = []
        self.dropped = 0
        self.raw: _RawText[AnyStr] = _RawText(text, p)

    def long_tags(self, starts: list[int]) -> None:
        text, p, raw, late = self.text, self.p, self.raw, self.late
        pos = 0
        ask_at = _CHECK_EVERY
        for at in starts:
            m = p.name.match(text, at) if at >= pos else None
            if m is None:
                continue
            if at >= ask_at and late is not None:
                ask_at = at + _CHECK_EVERY
                if late():
                    raise _Late(at)
            begin = m.end()
            head = _head_end(text, begin, p)
            if (
                head - begin < _HEAD
                and _estimate(text[begin:head], p) <= MAX_ATTRIBUTES_PER_ELEMENT
            ):
                continue  # an ordinary long tag: a srcset, a style, some JSON
            # Most long "tags" of an ordinary page are minified code in a script.
            if raw.in_script(at):
                continue
            end, ends = self.attributes(at, begin)
            if len(ends) > MAX_ATTRIBUTES_PER_ELEMENT and at not in raw:
                self.edits.append((ends[MAX_ATTRIBUTES_PER_ELEMENT - 1], end))
                self.dropped += len(ends) - MAX_ATTRIBUTES_PER_ELEMENT
            pos = end

    def every_tag(self) -> None:
        text, p, late = self.text, self.p, self.late
        budget = MAX_ATTRIBUTES
        pos = 0
        ask_at = _CHECK_EVERY
        for m in p.tag.finditer(text):
            if m.start() < pos:
                continue
            if pos >= ask_at and late is not None:
                ask_at = pos + _CHECK_EVERY
                if late():
                    raise _Late(m.start())
            pos = m.end()
            # A long tag's start first: over a bound, its whole is too (split whole: 0.2 s).
            a, b = m.span(2)
            estimate = _estimate(text[a : min(b, a + _CHECK_EVERY)], p)
            if b - a > _CHECK_EVERY and estimate <= min(MAX_ATTRIBUTES_PER_ELEMENT, budget):
                estimate = _estimate(m.group(2), p)
            if estimate <= MAX_ATTRIBUTES_PER_ELEMENT and estimate <= budget:
                budget -= estimate
            else:
                pos, ends = self.attributes(m.start(), m.start(2))
                keep = min(len(ends), MAX_ATTRIBUTES_PER_ELEMENT, budget)
                budget -= keep
                if keep < len(ends):
                    self.edits.append((ends[keep - 1] if keep else m.start(2), pos))
                    self.dropped += len(ends) - keep
            name = m.group(1).lower()
            if name in p.raw:
                close = p.raw_end[name].search(text, pos)
                pos = close.start() if close else len(text)

    def attributes(self, tag: int, at: int) -> tuple[int, list[int]]:
        """Where the tag at ``tag``, its attribute text at ``at``, ends (quoted values may
        hold ">"), and where each of its attributes ends (a long one asks ``late``)."""
        text, late = self.text, self.late
        tag_body = self.p.tag_body.match(text, at)
        assert tag_body is not None  # it matches the empty string too
        end = tag_body.end()
        found = self.p.attr.finditer(text, at, end)
        if late is None or end - at < _CHECK_EVERY:
            return end, [a.end() for a in found]
        ends: list[int] = []
        while not late():
            batch = [a.end() for a in islice(found, _CHECK_ATTRIBUTES)]
            if not batch:
                return end, ends
            ends += batch
        raise _Late(tag)


def _without(text: AnyStr, edits: list[tuple[int, int]], p: _Patterns[AnyStr]) -> AnyStr:
    """``text`` without the spans ``edits`` names (in order, none overlapping)."""
    parts: list[AnyStr] = []
    pos = 0
    for start, end in edits:
        parts.append(text[pos:start])
        pos = end
    parts.append(text[pos:])
    return p.empty.join(parts)


def _head_end(text: AnyStr, begin: int, p: _Patterns[AnyStr]) -> int:
    """Where the first _HEAD characters of a tag's text from ``begin`` end: at its first
    "<" or ">", else _HEAD on. Two searches in C, where a regex over the same characters
    cost ten times as much (most long tags are scripts' code, read to the cap)."""
    stop = begin + _HEAD
    gt = text.find(p.gt, begin, stop)
    lt = text.find(p.lt, begin, stop if gt < 0 else gt)
    if lt >= 0:
        return lt
    return gt if gt >= 0 else min(stop, len(text))


def _estimate(body: AnyStr, p: _Patterns[AnyStr]) -> int:
    """At least as many attributes as libxml2 finds in a tag's text: it needs white space
    or "=" before each one."""
    return len(body.split()) + body.count(p.eq)


def _long_tag_starts(text: AnyStr, lt: AnyStr, gt: AnyStr) -> list[int]:
    """Where the tags with at least 2 * _WINDOW characters of attribute text begin (and
    some from _WINDOW on).

    The page is looked at in windows of _WINDOW characters, each from its end back to its
    last "<", which on ordinary markup is a few characters away: the searches run one a
    window from map() (in C: 0.02 ms for a page of extract-bench, where a loop in Python
    took 0.1 ms, a regex scan 0.5 and a split at every "<" 0.2), and most pages stop
    there, every window holding a "<". A window without "<" is inside text, a script or a
    long tag; only the last case is a candidate. (A quoted ">" or "<" inside a tag can hide
    it from this count: the watchdog is the line behind.)"""
    size = len(text)
    lasts = list(
        map(
            text.rfind, repeat(lt), range(0, size, _WINDOW), range(_WINDOW, size + _WINDOW, _WINDOW)
        )
    )
    out: list[int] = []
    if -1 not in lasts:
        return out
    last = checked = -1
    for i, at in enumerate(lasts):
        if at >= 0:
            last = at
        elif last >= 0 and last != checked:
            checked = last
            # The tag that began at `last` runs on through this window.
            if text.find(gt, last, min((i + 1) * _WINDOW, size)) < 0:
                out.append(last)
    return out


class _RawText(Generic[AnyStr]):
    """Where the page's script, style and other raw-text elements lie, found on first
    use: only pages with a long tag of many "attributes" ask."""

    def __init__(self, text: AnyStr, p: _Patterns[AnyStr]) -> None:
        self.text: AnyStr = text
        self.p: _Patterns[AnyStr] = p
        self.starts: list[int] | None = None
        self.ends: list[int] = []
        self.scripts: list[int] | None = None
        self.script_ends: list[int] = []
        self.scanned = 0  # where the search for the next script starts

    def in_script(self, at: int) -> bool:
        """Is ``at`` inside a script (written in lower case, as nearly all are)? Two
        forward searches a script, read only as far as ``at`` asks (callers ask in page
        order, so each part of the page is read once, and not past the last long tag);
        the full list of raw-text spans (``in``) takes a case-blind regex over the page."""
        scripts, ends = self.scripts, self.script_ends
        if scripts is None:
            scripts = self.scripts = []
        text = self.text
        opening, closing = self.p.script_tags
        while self.scanned <= at:
            start = text.find(opening, self.scanned)
            if start < 0:
                self.scanned = len(text) + 1
                break
            end = text.find(closing, start)
            end = len(text) if end < 0 else end
            scripts.append(start)
            ends.append(end)
            self.scanned = end  # past "<script": the next one starts after this one ends
        i = bisect.bisect_right(scripts, at) - 1
        return i >= 0 and at < ends[i]

    def __contains__(self, at: int) -> bool:
        if self.starts is None:
            self.starts = []
            pos = 0
            while (m := self.p.raw_open.search(self.text, pos)) is not None:
                close = self.p.raw_end[m.group(1).lower()].search(self.text, m.end())
                pos = close.start() if close else len(self.text)
                self.starts.append(m.end())
                self.ends.append(pos)
        i = bisect.bisect_right(self.starts, at) - 1
        return i >= 0 and at < self.ends[i]


# Two instances, made once each and never compared or printed: no __eq__, __hash__ or
# __repr__ compiled at import (0.5 ms of every search).
@dataclass(frozen=True, eq=False, repr=False)
class _Patterns(Generic[AnyStr]):
    """The delimiters the scanner looks for, as str or as bytes."""

    lt: AnyStr
    gt: AnyStr
    eq: AnyStr
    empty: AnyStr
    space: AnyStr
    separators: tuple[AnyStr, ...]
    raw: frozenset[AnyStr]
    raw_end: dict[AnyStr, re.Pattern[AnyStr]]
    raw_open: re.Pattern[AnyStr]
    script_tags: tuple[AnyStr, AnyStr]
    tag_body: re.Pattern[AnyStr]
    name: re.Pattern[AnyStr]
    bodies: re.Pattern[AnyStr]
    tag: re.Pattern[AnyStr]
    attr: re.Pattern[AnyStr]


# Elements whose content libxml2 (2.14, as HTML5) reads as text, never as tags.
_RAW_TEXT = ("script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes")


@overload
def _p(kind: type[str]) -> _Patterns[str]: ...
@overload
def _p(kind: type[bytes]) -> _Patterns[bytes]: ...
def _p(kind: type[str] | type[bytes]) -> _Patterns[str] | _Patterns[bytes]:
    return _bytes_patterns() if kind is bytes else _str_patterns()


@cache
def _str_patterns() -> _Patterns[str]:
    return _build(str)  # each piece as written


@cache
def _bytes_patterns() -> _Patterns[bytes]:
    return _build(str.encode)


def _build(conv: Callable[[str], AnyStr]) -> _Patterns[AnyStr]:
    # No tag pattern crosses a "<" or ">", so a failed match never rescans what the last
    # one read: each runs in time linear in the page.
    return _Patterns(
        lt=conv("<"),
        gt=conv(">"),
        eq=conv("="),
        empty=conv(""),
        space=conv(" "),
        separators=tuple(conv(c) for c in "= \t\n\r\f"),
        raw=frozenset(conv(n) for n in _RAW_TEXT),
        raw_end={conv(n): re.compile(conv(f"</{n}"), re.IGNORECASE) for n in _RAW_TEXT},
        script_tags=(conv("<script"), conv("</script")),
        raw_open=re.compile(conv(rf"<({'|'.join(_RAW_TEXT)})\b[^>]*>"), re.IGNORECASE),
        tag=re.compile(conv(r"<([a-zA-Z][^\s<>/]*)([^<>]*)")),
        bodies=re.compile(conv(r"<[a-zA-Z][^\s<>/]*([^<>]*)")),
        name=re.compile(conv(r"<[a-zA-Z][^\s<>/]*")),
        tag_body=re.compile(conv(r"""(?:[^>"']++|"[^"]*+"|'[^']*+')*+""")),
        attr=re.compile(conv(r"""[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?""")),
    )
