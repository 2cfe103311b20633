"""--pages: which pages of a PDF go into the line pipeline.

Forms: ``3``, ``3-7``, ``3-`` (to the end), ``-7`` (from the first), and lists of those
joined by commas (``1,4-6``). Pages are numbered from 1. Parsed at start-up (a bad value is
exit 2 before any traffic); resolved against the page count once the document is open.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from common.errors import UsageError

_PART = re.compile(r"(\d+)?(?:(-)(\d+)?)?")


@dataclass(frozen=True)
class PageSpec:
    """Inclusive 1-based ranges; None as an end means the last page."""

    text: str
    ranges: tuple[tuple[int, int | None], ...]

    def select(self, count: int) -> list[int]:
        """The 0-based indices of the pages chosen, in document order, each once."""
        chosen: set[int] = set()
        for first, last in self.ranges:
            stop = count if last is None else min(last, count)
            chosen.update(range(first - 1, stop))
        return sorted(chosen)

    def size(self, count: int) -> int:
        """How many pages of ``count`` are chosen, without listing them."""
        spans = sorted(
            (first, count if last is None else min(last, count)) for first, last in self.ranges
        )
        total, reach = 0, 0
        for first, last in spans:
            first = max(first, reach + 1)
            if last >= first:
                total += last - first + 1
                reach = last
        return total


def parse_pages(value: str, option: str = "--pages") -> PageSpec:
    """A --pages value; raises UsageError (2) naming the option."""
    text = value.strip()
    ranges: list[tuple[int, int | None]] = []
    for part in text.split(","):
        part = part.strip()
        match = _PART.fullmatch(part)
        if not part or match is None or part == "-":
            raise UsageError(f"{option} {value!r}: expected pages such as 3, 3-7, 3-, -7 or 1,4-6")
        first_s, dash, last_s = match.groups()
        first = int(first_s) if first_s else 1
        last = int(last_s) if last_s else (None if dash else first)
        if first < 1 or (last is not None and last < 1):
            raise UsageError(f"{option} {value!r}: pages are numbered from 1")
        if last is not None and last < first:
            raise UsageError(f"{option} {value!r}: {first}-{last} ends before it starts")
        ranges.append((first, last))
    return PageSpec(text, tuple(ranges))
