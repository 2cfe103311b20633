"""An ordered list's item that writes its own rank ("#1", "1.", "1)") is printed with a
bullet, not with the list's number too: a chart of best sellers numbers its items in
their text and in an <ol>, and "1. #1 The title" said the rank twice."""

from __future__ import annotations

import re

# The item's own rank: "#1" before anything but a digit, or "1." or "1)" before a space.
_OWN = re.compile(r"#(\d+)(?!\d)|(\d+)[.)](?=\s|$)")


def marker(given: str, first: str) -> str:
    """The marker for an item whose first line is `first`: "- " when `given` is an
    ordered marker ("3. ") whose number the line opens with, else `given`."""
    if not given[:1].isdigit():
        return given
    found = _OWN.match(first)
    if found is None or (found.group(1) or found.group(2)) != given[:-2]:
        return given
    return "- "
