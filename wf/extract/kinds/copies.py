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

On every kind, and in the page read whole when the choice is thin, a short box drawn
twice side by side (pairs: a thread's title and byline once for phones, once for
desktops, their parts in another order and each with its own counts) prints once: the
copy named for small screens goes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import copies_tuning
from wf.extract.name_tokens import head

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord

Prune = Callable[[Any, "BlockRecord"], bool]


def _key(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


_LAYOUT = re.compile(tuning.LAYOUT_COPY)


# layout_named()'s verdicts by class attribute, at most _NAMES_KEPT of them, each of
# _NAME_KEPT_MAX characters at most (nothing bounds an attribute's length, and the verdicts
# outlive the page): a page repeats its class values, and the search cost 1 to 5 µs each
# time (pairs asks it of most short boxes of the content).
_layout_names: dict[str, bool] = {}
_NAMES_KEPT = 4096
_NAME_KEPT_MAX = 256


def layout_named(names: str) -> bool:
    """Whether a class attribute names a box for a screen size (tuning.LAYOUT_COPY)."""
    found = _layout_names.get(names)
    if found is None:
        found = _LAYOUT.search(names.lower()) is not None
        if len(names) <= _NAME_KEPT_MAX:
            if len(_layout_names) >= _NAMES_KEPT:
                _layout_names.clear()
            _layout_names[names] = found
    return found


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
            if names and layout_named(head(names)):
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


_SMALL = re.compile(copies_tuning.LAYOUT_SMALL)
# Element siblings after a box looked at for its pair: the copies stand side by side.
_PAIR_NEXT = 2


def _words(box: Any) -> set[str] | None:
    """The words of a box that hold a letter (its counts left out); None when it holds
    more than copies_tuning.LAYOUT_PAIR_ELEMENTS elements (no head or byline: a nest of
    boxes, each beside a sibling, is read a bounded number of elements each)."""
    pieces: list[str] = []
    for n, el in enumerate(box.iter()):
        if n >= copies_tuning.LAYOUT_PAIR_ELEMENTS:
            return None
        if el.text and isinstance(el.tag, str):
            pieces.append(el.text)
        if el.tail and el is not box:
            pieces.append(el.tail)
    text = " ".join(pieces).lower()
    return {w for w in text.split() if any(c.isalpha() for c in w)}


def _sizes(names: str) -> list[str]:
    """The screen-size names of a class attribute (tuning.LAYOUT_COPY), in order: a copy
    for another screen is named for another."""
    return sorted(_LAYOUT.findall(names.lower()))


def _next_box(el: Any) -> Any:
    """The element after `el` among its siblings (a comment or two skipped), or None."""
    nxt = el.getnext()
    for _ in range(_PAIR_NEXT):
        if nxt is None or isinstance(nxt.tag, str):
            return nxt
        nxt = nxt.getnext()
    return None


def pairs(analysis: Analysis, prune: Prune, going: set[Any], whole: bool = False) -> set[Any]:
    """Of two boxes side by side inside the choice, each named for another screen size, that
    print nearly the same words (copies_tuning.LAYOUT_PAIR_SHARE: one drawn for phones, one for
    desktops, their parts in another order), the one for small screens (or the second),
    when the other is printed and not `going` (a copy word for word); `whole`: in the
    page read whole. Each box is read with the one after it only, a few elements of
    each, a few hundred pairs at most: one walk."""
    blocks = analysis.blocks
    top = 0 if whole else max(analysis.best_index, 0)
    end = blocks[top].end if blocks else 0
    found: set[Any] = set()
    records: dict[Any, BlockRecord] | None = None  # built once a pair is found
    tries = 0
    for b in blocks[top:end]:
        if not 0 < b.text <= copies_tuning.LAYOUT_PAIR_MAX:
            continue  # told by its record, before its class is read
        # Read as far as NAMES_READ, as the names are: each search of a 10 MB value took 1 s.
        names = head(b.el.get("class") or "")
        if not names or not layout_named(names):
            continue
        other = _next_box(b.el)
        other_names = head(other.get("class") or "") if other is not None else None
        if not other_names or not layout_named(other_names):
            continue
        if _sizes(names) == _sizes(other_names):
            continue  # drawn for the same screens: two items (a grid's cells), not copies
        tries += 1
        if tries > copies_tuning.LAYOUT_PAIR_TRIES:
            break  # a page of thousands of such boxes is no page of two layouts
        mine, theirs = _words(b.el), _words(other)
        if mine is None or theirs is None:
            continue
        both = len(mine | theirs)
        if len(mine & theirs) < max(
            copies_tuning.LAYOUT_PAIR_SHARE * both, copies_tuning.LAYOUT_PAIR_WORDS
        ):
            continue
        small_first = _SMALL.search(names.lower()) is not None
        small_second = _SMALL.search(other_names.lower()) is not None
        gone, kept = (b.el, other) if small_first and not small_second else (other, b.el)
        if records is None:
            records = {r.el: r for r in blocks[top:end]}
        record = records.get(kept)
        if kept not in going and record is not None and _printed(blocks, record, top, prune):
            found.add(gone)
    return found


def once(analysis: Analysis, prune: Prune, whole: bool = True) -> Prune:
    """`prune`, and the copies of earlier boxes too (`whole`: word for word, of
    tuning.COPY_MIN characters or more; always: a short box drawn for two screen sizes,
    pairs)."""
    found = copies(analysis, prune) if whole else set()
    found |= pairs(analysis, prune, found)
    if not found:
        return prune
    trace.trace(
        "extract: %d boxes repeat a box beside or above them, a copy for another screen "
        "size: printed once",
        len(found),
    )

    def pruned(el: Any, b: BlockRecord) -> bool:
        return el in found or prune(el, b)

    return pruned


def wide_once(analysis: Analysis, wide: Prune) -> Prune:
    """`wide` (the page read whole without its named boilerplate, when the choice is thin),
    and the boxes drawn for small screens beside their copy (pairs) too: found when first
    asked, as most pages are never read so."""
    found: set[Any] | None = None

    def pruned(el: Any, b: BlockRecord) -> bool:
        nonlocal found
        if found is None:
            found = pairs(analysis, wide, set(), whole=True)
        return el in found or wide(el, b)

    return pruned
