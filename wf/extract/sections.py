"""The sections of a page as written: the headings left with nothing under them once
boilerplate was cut go (a "See also" over a pruned list of links), but not a run of
titles that are links, each heading a card of its own (a manual's index of the pages
under it: "Social login", then Apple, GitHub, Google, each a linked card), nor a
sentence of prose set in a heading's type, which stays as a paragraph."""

from __future__ import annotations

import re
from typing import Any

from wf.extract import tuning

# A written block: (separator before it, text, plain paragraph, links seen so far).
Block = tuple[str, str, bool, int]

# How many levels above a heading a link around it is looked for (a card's link wraps
# its picture and title in a few boxes).
LINK_LEVELS = 8


def in_link(heading: Any) -> bool:
    """Whether a heading is inside a link: a card's title."""
    for level, up in enumerate(heading.iterancestors()):
        if level >= LINK_LEVELS:
            return False
        if up.tag == "a":
            return True
    return False


_SENTENCE_END = re.compile(r"[.!?][\"\u201d\u2019)]*$")


def _sentence(text: str) -> str | None:
    """A heading's text without its marks when it is a sentence of prose
    (tuning.HEADING_PROSE_WORDS words or more, and a full stop, a question or an
    exclamation mark at its end) or longer than any title (tuning.HEADING_PROSE_LONG
    words or more), else None."""
    body = text.lstrip("#").strip()
    words = len(body.split())
    if words >= tuning.HEADING_PROSE_LONG:
        return body  # no title runs so long, however it ends (cut short by "...")
    if words >= tuning.HEADING_PROSE_WORDS and _SENTENCE_END.search(body):
        return body
    return None


def _card_title(i: int, levels: list[int], linked: set[int]) -> bool:
    """Whether a heading is a linked title beside another of its level: one of a run of
    cards, whose link is their content (a lone one, a picture's number, is not)."""
    if i not in linked:
        return False
    return any(
        j in linked and 0 <= j < len(levels) and levels[j] == levels[i] for j in (i - 1, i + 1)
    )


def _empty(out: list[Block], levels: list[int], i: int) -> bool:
    """Whether out[i] is a heading followed by one of its level or above, with no link
    seen since the block before it."""
    level = levels[i]
    if not level:
        return False
    following = levels[i + 1] if i + 1 < len(out) else 1
    seen_before = out[i - 1][3] if i else 0
    return bool(following) and following <= level and out[i][3] == seen_before


def _runs(empty: list[bool], levels: list[int]) -> set[int]:
    """The indices of the headings in a run of tuning.HEADING_RUN or more, each left
    with nothing under it and of the same level as the one before: a list of features
    written as headings ("Up to 11 hours", "Water resistant", "Two in one"), not the
    titles of sections whose text was cut (one or two, between other text). Each
    heading is looked at once."""
    listed: set[int] = set()
    start = 0
    for i in range(len(empty) + 1):
        going = i < len(empty) and empty[i] and (i == start or levels[i] == levels[i - 1])
        if going:
            continue
        if i - start >= tuning.HEADING_RUN:
            listed.update(range(start, i))
        start = i + 1 if i < len(empty) and not empty[i] else i
    return listed


def drop_empty(
    out: list[Block], levels: list[int], linked: set[int]
) -> tuple[list[Block], list[int]]:
    """The blocks without the headings left with nothing under them: a heading followed
    by one of its level or above, with no link seen since the block before it, unless it
    is one of a run of linked titles (`linked`: the indices of headings inside a link) or
    of a list written as headings (_runs). Such a heading that is a sentence of prose
    stays, as a paragraph."""
    keep_out: list[Block] = []
    keep_levels: list[int] = []
    # Headings only: the blocks of most pages are mostly paragraphs, and a page whose
    # headings all have something under them keeps every block.
    empty = [False] * len(out)
    for i, level in enumerate(levels):
        if level and _empty(out, levels, i):
            empty[i] = True
    if not any(empty):
        keep_out, keep_levels = list(out), list(levels)
        if keep_out and keep_out[0][0]:
            keep_out[0] = ("", *keep_out[0][1:])
        return keep_out, keep_levels
    # A sentence set in a heading's type (page builders write a feature's text as an
    # <h6> under its <h2> title) is that section's paragraph, and no title of a list.
    prose = [_sentence(block[1]) if empty[i] else None for i, block in enumerate(out)]
    listed = _runs([e and p is None for e, p in zip(empty, prose, strict=True)], levels)
    for i, block in enumerate(out):
        level = levels[i]
        if empty[i] and i not in listed and not _card_title(i, levels, linked):
            said = prose[i]
            if said is None:
                continue
            block, level = (block[0], said, True, block[3]), 0
        keep_out.append(block)
        keep_levels.append(level)
    if keep_out and keep_out[0][0]:
        keep_out[0] = ("", *keep_out[0][1:])
    return keep_out, keep_levels
