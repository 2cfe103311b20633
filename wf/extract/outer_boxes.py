"""The walk up from a text to the outermost box around it whose whole short text a rule
matches: how the rules that drop a line of chrome by its words find that line's box (a
manual's "Last updated" stamp and "Was this page helpful?", a board's prompt to rate a
post). Each rule brings its reader (how much of a box it reads, and how), its stop (where
the walk ends) and its number of levels; the walk reads each box once per search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = dict[Any, "str | None"]  # the boxes read for one search, and their short text


def stands_in(node: Any) -> Any:
    """The element a text node (an XPath text() result) stands in: the text after an
    element is its parent's."""
    el = node.getparent()
    if node.is_tail and el is not None:
        el = el.getparent()
    return el


def outermost_box(
    el: Any,
    matches: Callable[[str], object],
    reader: Callable[[Any], str | None],
    levels: int,
    stop: Callable[[Any], bool],
    read: Read | None = None,
) -> Any:
    """The outermost box from `el` up, `levels` boxes at most, whose text as `reader` gives
    it `matches`; None when none does. The walk ends at a box `stop` names (not read), at
    the tree's top, or at a box `reader` gives up on (None: too long). `read`: the boxes
    the search read before, each read once however many of its texts it starts from (a
    hundred seeds in one paragraph after hundreds of empty boxes)."""
    outer = None
    for _ in range(levels):
        if el is None or stop(el):
            break
        if read is None:
            text = reader(el)
        elif el in read:
            text = read[el]
        else:
            text = read[el] = reader(el)
        if text is None:
            break
        if matches(text):
            outer = el
        el = el.getparent()
    return outer
