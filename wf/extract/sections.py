"""The sections of a page as written: the headings left with nothing under them once
boilerplate was cut go (a "See also" over a pruned list of links), but not a run of
titles that are links, each heading a card of its own (a manual's index of the pages
under it: "Social login", then Apple, GitHub, Google, each a linked card), nor a heading
as long as a paragraph (a landing page's run of <h6> sentences)."""

from __future__ import annotations

from typing import Any

from wf.extract.tuning import HEADING_PROSE

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


def _card_title(i: int, levels: list[int], linked: set[int]) -> bool:
    """Whether a heading is a linked title beside another of its level: one of a run of
    cards, whose link is their content (a lone one, a picture's number, is not)."""
    if i not in linked:
        return False
    return any(
        j in linked and 0 <= j < len(levels) and levels[j] == levels[i] for j in (i - 1, i + 1)
    )


def drop_empty(
    out: list[Block], levels: list[int], linked: set[int]
) -> tuple[list[Block], list[int]]:
    """The blocks without the headings left with nothing under them: a heading followed
    by one of its level or above, with no link seen since the block before it, unless it
    is one of a run of linked titles (`linked`: the indices of headings inside a link) or
    a paragraph set in a heading's type (tuning.HEADING_PROSE characters or more)."""
    keep_out: list[Block] = []
    keep_levels: list[int] = []
    for i, block in enumerate(out):
        level = levels[i]
        if level:
            following = levels[i + 1] if i + 1 < len(out) else 1
            seen_before = out[i - 1][3] if i else 0
            empty = following and following <= level and block[3] == seen_before
            if empty and len(block[1]) < HEADING_PROSE and not _card_title(i, levels, linked):
                continue
        keep_out.append(block)
        keep_levels.append(level)
    if keep_out and keep_out[0][0]:
        keep_out[0] = ("", *keep_out[0][1:])
    return keep_out, keep_levels
