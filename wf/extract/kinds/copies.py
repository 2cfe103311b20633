"""A box that repeats an earlier box word for word is printed once.

A landing page writes some of its sections more than once, for the layouts it switches
between (a hero for phones, one for tablets, one for desktops; a carousel's clones of its
slides), and a stylesheet shows one copy at a time. Read whole, the page printed every
copy. A box of tuning.COPY_MIN characters or more whose text, after collapsing white
space, is an earlier box's goes with its subtree when a box on the path from either copy
up to the box that holds both is named for a screen size (tuning.LAYOUT_COPY: `hidden-md`,
`hide-on-mobile`, Tailwind's `hidden md:block`); not when that earlier box is not printed
(it or a box around it pruned) or holds it (a wrapper and its only child read alike).
Only whole boxes go, and only a layout's: a blog's front page shows one post in several
lists and a shop one line under several products, and those are the page's content.
Read on a landing page only (choose.py): on other kinds it measured no better.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord

Prune = Callable[[Any, "BlockRecord"], bool]


def _key(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


_LAYOUT = re.compile(tuning.LAYOUT_COPY)


def layout_named(names: str) -> bool:
    """Whether a class attribute names a box for a screen size (tuning.LAYOUT_COPY)."""
    return _LAYOUT.search(names.lower()) is not None


def _layouts(first: Any, copy: Any) -> bool:
    """Whether the two copies are a layout's each: a box on the path from one of them up
    to the box that holds both is named for a screen size (`hidden-md`, `mobile-only`,
    `lg:block`)."""
    around = set(first.iterancestors())
    for el in (copy, *copy.iterancestors()):
        if el in around:
            top = el
            break
    else:
        return False
    for start in (first, copy):
        el = start
        while el is not None and el is not top:
            names = el.get("class")
            if names and layout_named(names):
                return True
            el = el.getparent()
    return False


def _printed(blocks: list[BlockRecord], b: BlockRecord, top: int, prune: Prune) -> bool:
    """Whether neither b nor a box around it, up to blocks[top], is pruned."""
    i = b.index
    while i >= top:
        cur = blocks[i]
        if prune(cur.el, cur):
            return False
        if i == top:
            break
        i = cur.parent
    return True


def copies(analysis: Analysis, prune: Prune) -> set[Any]:
    """The boxes, inside the choice (or the page when it is read whole), that repeat an
    earlier printed box's text word for word."""
    blocks = analysis.blocks
    top = max(analysis.best_index, 0)
    end = blocks[top].end if blocks else 0
    # Copies have the same length: the text of a box is read only when another box of
    # its length is there, a few boxes on most pages.
    by_length: dict[int, list[BlockRecord]] = {}
    for b in blocks[top:end]:
        if b.text >= tuning.COPY_MIN:
            by_length.setdefault(b.text, []).append(b)
    found: set[Any] = set()
    for group in by_length.values():
        if len(group) < 2:
            continue
        first: dict[str, BlockRecord] = {}
        outer = group[0]
        for n, b in enumerate(group):  # in page order
            if n and b.index < outer.end:
                continue  # inside a box of its length: a wrapper's, it reads alike
            outer = b
            key = _key(b.el)
            earlier = first.get(key)
            if earlier is None:
                if _printed(blocks, b, top, prune):
                    first[key] = b
            elif earlier.end <= b.index and _layouts(earlier.el, b.el):
                found.add(b.el)
    # The outermost copies: a copy's boxes of another length are its copies too.
    return {el for el in found if not any(a in found for a in el.iterancestors())}


def once(analysis: Analysis, prune: Prune) -> Prune:
    """`prune`, and the copies of earlier boxes too."""
    found = copies(analysis, prune)
    if not found:
        return prune
    trace.trace(
        "extract: %d boxes repeat an earlier box word for word, a copy for another screen "
        "size: printed once",
        len(found),
    )

    def pruned(el: Any, b: BlockRecord) -> bool:
        return el in found or prune(el, b)

    return pruned
