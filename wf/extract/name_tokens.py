"""A class or id value's tokens, read as far as names_tuning.NAMES_READ characters: the
judges of names (names.py) run regexes on each new token, and a value of ten megabytes
with a million new words cost a page seconds past any deadline in one block."""

from __future__ import annotations

from wf.extract.names_tuning import NAMES_READ


def tokens(value: str) -> list[str]:
    """``value.split()``, without the tokens past NAMES_READ characters (nor the one the
    bound cuts: a part of a word could name what the word does not)."""
    if len(value) <= NAMES_READ:
        return value.split()
    return value[:NAMES_READ].rpartition(" ")[0].split()
