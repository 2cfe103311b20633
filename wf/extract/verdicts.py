"""Verdicts kept between pages, and patterns searched without case at a case-sensitive
search's cost: what wf/extract/names.py and its peers judge by class, id and text runs
through these, once per distinct value, on every page."""

from __future__ import annotations

import re
from typing import TypeVar

_K = TypeVar("_K", str, tuple[str | None, str | None])
_V = TypeVar("_V")
# The characters of each cache's keys (by its id) for keep(): the caches stay plain dicts,
# whose lookups cost a third less than a subclass's.
_held: dict[int, int] = {}
VERDICT_CHARS = 1 << 20


def keep(cache: dict[_K, _V], key: _K, value: _V, entries: int) -> _V:
    """`value` kept for `key` in a cache of verdicts by class or id value (or token) that
    outlives its page (pages repeat their names), and returned. At most `entries` of them
    and about VERDICT_CHARS characters of keys (a value is no longer than its key; a longer
    key is not kept): unbounded in characters, 100 pages of one 200 000-character class
    each left 84 MB held after them. Emptied whole when full; under threads the count of
    characters is approximate (an addition lost)."""
    size = len(key) if isinstance(key, str) else len(key[0] or "") + len(key[1] or "")
    if size > VERDICT_CHARS:
        return value
    held = _held.get(id(cache), 0) + size
    if len(cache) >= entries or held > VERDICT_CHARS:
        cache.clear()
        held = size
    cache[key] = value
    _held[id(cache)] = held
    return value


class CaseBlind:
    """A pattern searched as re.IGNORECASE searches it, with the same verdict. On ASCII
    text (most class names, styles and short paragraphs) the lowered text is searched
    with a case-sensitive copy: a case-blind search tries every letter both ways and
    costs five to ten times as much. The pattern is written in lower case (asserted),
    so that lowering the text is all its case-blindness does there."""

    __slots__ = ("_blind", "_exact")

    def __init__(self, pattern: str) -> None:
        assert pattern == pattern.lower(), pattern
        self._blind = re.compile(pattern, re.IGNORECASE)
        self._exact = re.compile(pattern)

    def found(self, text: str) -> bool:
        if text.isascii():
            return self._exact.search(text.lower()) is not None
        return self._blind.search(text) is not None

    def matches(self, text: str) -> set[str]:
        """The matched strings, lowered."""
        if text.isascii():
            return {m.group() for m in self._exact.finditer(text.lower())}
        return {m.group().lower() for m in self._blind.finditer(text)}
