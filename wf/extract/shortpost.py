"""A short post whole, on a page where no block stood out: a blog's post of a paragraph or
two beside its theme's sidebar ("About me", the archive) holds less prose than the page's
floor, and the page would be printed whole, navigation and all. The post is the box
around the heading that the page's <title> repeats, nearest to it that holds prose; of
several such headings (the blog's name in its banner, the post's title), the box with
the most prose; never a box named as boilerplate or the page's <header> (the banner
around the blog's name). Bounded: shortpost_tuning.POST_SCAN blocks, POST_LEVELS ancestors."""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING

from wf.extract import shortpost_tuning
from wf.extract.records import GOOD_MIN, negative

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


_BANNER = re.compile(shortpost_tuning.POST_BANNER, re.IGNORECASE)


def _banner(b: BlockRecord) -> bool:
    names = f"{b.el.get('class') or ''} {b.el.get('id') or ''}"
    return _BANNER.search(names) is not None


def _frame(box: BlockRecord) -> bool:
    """The site's frame or banner (around the blog's name and tag line), never a post."""
    return box.tag in shortpost_tuning.POST_NOT or negative(box) or _banner(box)


def post_box(blocks: list[BlockRecord], title: str | None) -> int:
    """The index of the block of a short post whole, or -1: the box of prose nearest a
    heading the title repeats; on a page without such a box, the nearest box around
    the first such heading that holds more than it (a page of an address and hours)."""
    page_title = _words(title or "")
    if len(page_title) < shortpost_tuning.POST_TITLE_MIN:
        return -1
    best, most, bare = -1, 0.0, -1
    for b in islice(blocks, shortpost_tuning.POST_SCAN):
        if b.tag not in shortpost_tuning.POST_HEADINGS:
            continue
        text = _words("".join(islice(b.el.itertext(), shortpost_tuning.POST_TITLE_PIECES)))
        if len(text) < shortpost_tuning.POST_TITLE_MIN or text not in page_title:
            continue
        i = b.parent
        for _ in range(shortpost_tuning.POST_LEVELS):
            if i <= 0 or blocks[i].tag in ("body", "html"):
                break
            box = blocks[i]
            if box.raw >= GOOD_MIN:
                if _frame(box):
                    break
                if box.raw > most:
                    best, most = i, box.raw
                break
            if bare < 0 and box.text >= len(text) + shortpost_tuning.POST_BARE_MIN:
                bare = -2 if _frame(box) else i  # the first heading's box, or none
            i = box.parent
    return best if best >= 0 else max(bare, -1)
