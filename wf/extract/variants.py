"""A Framer site's copies of a section for its other breakpoints are printed once.

Framer renders a component once per breakpoint it looks different at (desktop, tablet,
phone), each copy a sibling box of class `ssr-variant` with a `hidden-XXXX` class for
every breakpoint it is not shown at; a stylesheet shows one at a time. Read whole, the
page printed the hero, the figures and the footer two or three times, and the copies are
not word for word alike (a phone's hero drops a line), so the landing page's rule for
layout copies (kinds/copies.py) missed them. A variant goes when most of its words
(tuning.VARIANT_SAME) are in a variant kept before it among its siblings; a variant of
other words (the next component's, rendered beside it) stays.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from common.xpath import compiled
from wf.extract import variants_tuning as tuning

_VARIANTS = (
    "//*[contains(@class, 'ssr-variant')]"
    "[contains(concat(' ', normalize-space(@class), ' '), ' ssr-variant ')]"
)


def _words(el: Any) -> set[str]:
    """The words of a variant's first tuning.VARIANT_TEXTS text pieces."""
    text = " ".join(islice(el.itertext(), tuning.VARIANT_TEXTS))
    return set(text.lower().split())


def copies(root: Any) -> list[Any]:
    """The `ssr-variant` boxes whose words are mostly in an earlier kept sibling's."""
    found = compiled(_VARIANTS)(root)
    if len(found) < 2:
        return []
    gone: list[Any] = []
    kept: dict[Any, list[set[str]]] = {}  # a parent's variants kept so far, latest last
    dropped: set[Any] = set()
    for el in islice(found, tuning.VARIANT_MAX):  # in page order: outer boxes first
        parent = el.getparent()
        if parent is None or parent in dropped:
            continue
        words = _words(el)
        earlier = kept.setdefault(parent, [])
        if words and any(
            len(words & seen) >= tuning.VARIANT_SAME * len(words)
            for seen in earlier[-tuning.VARIANT_BACK :]
        ):
            gone.append(el)
            dropped.add(el)
            continue
        earlier.append(words)
    return gone
