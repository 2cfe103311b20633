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
    head = value[:NAMES_READ]
    found = head.split()
    # Cut by any white space split() parts tokens at (a tab, a newline, a no-break
    # space: a multi-line class attribute holds no space at all), and only when the bound
    # falls inside a token.
    if found and not head[-1].isspace() and not value[NAMES_READ].isspace():
        found.pop()
    return found


def head(value: str) -> str:
    """``value`` as far as NAMES_READ characters, for the judges that read a value whole
    (a regex over its text): ``tokens`` as the value wrote them, its white space kept."""
    if len(value) <= NAMES_READ or value[NAMES_READ].isspace():
        return value[:NAMES_READ]
    cut = value[:NAMES_READ]
    if cut[-1].isspace():
        return cut
    # The token the bound cuts goes, as in tokens: rsplit finds it in one pass from the
    # end (a search for "\S*\Z" tried every start, 0.25 s on one 17 KB value).
    last = cut.rsplit(maxsplit=1)[-1]
    return cut[: len(cut) - len(last)]
