"""The types of the option values a library caller gives (wf.api, ws.api), checked as click
checks the command line's: a value of the wrong type is the CLI's usage error naming the
flag, not an exception from deep inside (wf.extract(timeout="5") raised "'<' not
supported between instances of 'int' and 'str'", select=5 "'int' object is not
iterable"), nor taken for what its truth says (all_engines="no" asked every engine).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _texts(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)


# Each kind: what it accepts, and how a message names it. A kind ending in "?" takes None
# too (the flag not given).
KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "whole": (_whole, "a whole number"),
    "seconds": (_number, "a number of seconds"),
    "flag": (_flag, "True or False"),
    "text": (_text, "a string"),
    "texts": (_texts, "a string or a list of strings"),
}


def wrong(flag: str, kind: str, value: Any) -> str | None:
    """The usage error's message when ``value`` is not of ``kind`` (of KINDS), else None."""
    if kind.endswith("?") and value is None:
        return None
    good, words = KINDS[kind.rstrip("?")]
    if good(value):
        return None
    shown = repr(value)
    if len(shown) > 80:  # a megabyte of the wrong type is not printed whole
        shown = shown[:77] + "..."
    return f"{flag} takes {words}, not {shown}"


def wrong_environ(environ: Any) -> str | None:
    """The message when ``environ`` is neither None (os.environ) nor a mapping."""
    if environ is None or isinstance(environ, Mapping):
        return None
    return f"environ takes a mapping of variable names to values, not {type(environ).__name__}"
