"""Choosing the main content: one walk that scores every block, then the best subtree.

Each block's own text (its text and that of its inline descendants) is classed:
prose (long enough, not trailing off in an ellipsis) counts as good, link text and
short labels as bad. A subtree's score is good minus bad, so the winner is the region
that holds most of the prose without dragging navigation along. Blocks named as
boilerplate (nav, aside, footer, figure; class and id words such as share, related,
comments) are not walked into: all their text is bad. When that leaves no article, the
page is walked again to see whether a boilerplate name wrapped the article itself.

Checks then settle the choice, on the chosen block and its larger child boxes only:
a consent dialog or a notice asking for JavaScript, known by its text in any box (the
platforms' names and dialog roles are already boilerplate), is made boilerplate and the
page scored again. A box drawn over the page (fixed) or alone at the very start or end of
<body> is read with a sparser consent vocabulary: consent managers put their dialogs
there, named or not. A notice about scripts inside a short article drops its own box,
not the article. A consent dialog that leaves the first look thin is set aside while the
page is walked whole (its article may sit in a box named as boilerplate), and the prose of
boxes that are never content leaves the page's total there. A thread of reader comments
after the article (sibling entries of one shape: a byline, a paragraph, a reply link) is
left out by that shape, whatever it is named. And the choice widens to an ancestor that
holds much more prose of the same kind (a wiki's trivia list chosen out of the article
that holds it).

Last, siblings of the choice that score a fifth of it join it (an article split into
boxes around an advertisement): their parent is chosen and its other children are cut.
A choice that is still thin (a product's short description) widens to the ancestors that
add text but few links: the product's specifications, not the recommendations beside it.
A choice with prose leaves out the teaser cards in it whose excerpt is too short to be
prose, and small boxes around a form that pitch something (a newsletter's sign-up).
Teaser cards weigh only by their links: related stories inside the article's box do not
sink it.

Inside the choice, link lists are left out: a list item or paragraph whose own words make
a sentence of its links stays, a list is judged item by item and a table as a whole.
"""

from __future__ import annotations

from typing import Any

from wf.extract.kinds import siblings
from wf.extract.names import class_kind, never_content
from wf.extract.notices import held_above, hold, never_content_prose, skip_notices
from wf.extract.prune import prune, prune_lenient, prune_named
from wf.extract.records import (
    GOOD_MIN,
    GOOD_MIN_DENSE,
    THIN_PROSE,
    THIN_PROSE_DENSE,
    Analysis,
    BlockRecord,
    OutOfTime,
    aggregate,
    best_block,
    check_time,
    negative,
    walk,
)
from wf.extract.widen import drop_bare_cards, grow_thin, merge_siblings, skip_threads, widen

# What the rest of wf.extract takes from here.
__all__ = [
    "THIN_PROSE",
    "THIN_PROSE_DENSE",
    "GOOD_MIN",
    "GOOD_MIN_DENSE",
    "Analysis",
    "BlockRecord",
    "OutOfTime",
    "check_time",
    "choose",
    "prune",
    "prune_lenient",
    "prune_named",
]


def _wrappers(blocks: list[BlockRecord], total: float) -> set[int]:
    """Blocks named as boilerplate that hold most of the page's prose: wrappers."""
    return {
        i
        for i, b in enumerate(blocks)
        if b.raw > 0.5 * total and negative(b) and not never_content(b.el)
    }


def _repeated(blocks: list[BlockRecord], total: float) -> set[int]:
    """The wrappers, and blocks of prose that share a boilerplate name with two or more
    others, or with one other when the two hold most of the page's prose: a page
    builder's `widget-container` around every paragraph is markup, not boilerplate. The
    name is compared without its tokens that hold digits (`elementor-element-4f3a2b1`,
    `block_12`): builders number every element."""
    groups: dict[str, list[int]] = {}
    for i, b in enumerate(blocks):
        if b.raw >= GOOD_MIN and negative(b) and not never_content(b.el):
            groups.setdefault(class_kind(b.el.get("class")), []).append(i)
    repeated = {
        i
        for name, group in groups.items()
        if name
        and (
            len(group) >= 3 or (len(group) == 2 and sum(blocks[i].raw for i in group) > 0.5 * total)
        )
        for i in group
    }
    return repeated | _wrappers(blocks, total) if repeated else repeated


def _thin(blocks: list[BlockRecord], best: int, total: float) -> bool:
    return best < 0 or blocks[best].good < max(THIN_PROSE, 0.1 * total)


def choose(
    body: Any,
    deadline: float | None = None,
    dense: bool = False,
    kind: str | None = None,
    kept: frozenset[Any] = frozenset(),
) -> Analysis:
    """Score every block and keep the best subtree (`dense`: the page is written in
    Chinese or Japanese, where prose is fewer characters; `kept`: boxes walked and read
    as content whatever their names say, records.walk).

    When boilerplate names leave almost no prose (a page that wraps its article in
    `<div class="has-sidebar">`), score again without the names that held most of it.
    """
    gm = GOOD_MIN_DENSE if dense else GOOD_MIN
    blocks = walk(body, deadline=deadline, kept=kept)
    result = Analysis(blocks=blocks, kind=kind)
    if not blocks:
        return result
    aggregate(blocks, set(), gm)
    total = blocks[0].raw
    best = best_block(blocks)
    skipped = sum(b.own for b in blocks if b.last is None)
    # Notices (consent dialogs, requests for JavaScript) that outscore what the first walk
    # found: without them the page may be thin, its article in a box whose name reads as
    # boilerplate; they stay set aside while the page is walked whole, and come back only
    # when no article turns up.
    held: list[Any] = []
    checked = -1  # the block the notices were looked for in, while the records stand
    if skipped and best >= 0:
        best = checked = skip_notices(blocks, best, gm, held)
        if held:
            hold(blocks, held, True)
            aggregate(blocks, set(), gm)
            best = best_block(blocks)
            checked = -1
    if skipped and _thin(blocks, best, total + skipped):
        check_time(deadline)
        checked = -1
        blocks, best, total = _rewalk(body, result, held, gm, deadline, kept)
    if held and _thin(blocks, best, total):
        # No article without them either: the consent text is the page's own.
        hold(blocks, held, False)
        aggregate(blocks, set(), gm)
        best = best_block(blocks)
    if best >= 0 and best != checked:
        best = skip_notices(blocks, best, gm)
    if best >= 0:
        _settle(result, blocks, best, kind, dense, gm)
    return result


def _rewalk(
    body: Any,
    result: Analysis,
    held: list[Any],
    gm: int,
    deadline: float | None,
    kept: frozenset[Any] = frozenset(),
) -> tuple[list[BlockRecord], int, float]:
    """The page walked whole, to learn which boilerplate names held its prose: the
    wrappers exempted first, then the repeated names (the page's names are then
    unreliable: `result.lenient`). The new records, the best block and the page's prose."""
    # Walk everything this time, to learn which boilerplate names held the prose.
    blocks = result.blocks = walk(body, skip_boilerplate=False, deadline=deadline, kept=kept)
    aggregate(blocks, set(), gm)
    # The page's prose without the boxes that can never be its content (a consent
    # manager's legal text, reader comments): a wrapper holds most of the rest.
    total = blocks[0].raw - never_content_prose(blocks)
    if held:
        hold(blocks, held, True)
        aggregate(blocks, set(), gm)
        total -= sum(b.raw for b in blocks if b.el in held and not held_above(blocks, b, held))
    best = best_block(blocks)
    # First the wrappers; failing those, the repeated names (the page's names are
    # then unreliable, and prune leniently inside the content).
    exempt: set[int] = set()
    for more, lenient in ((_wrappers, False), (_repeated, True)):
        if not _thin(blocks, best, total):
            break
        added = more(blocks, total) - exempt
        if held:
            added = {i for i in added if blocks[i].el not in held}
        if not added:
            continue
        aggregate(blocks, exempt | added, gm)
        chosen = best_block(blocks)
        # Repeated names hold the page's prose whatever its length: a short page of two
        # numbered text widgets is read as the two, not as the whole page.
        enough = min(THIN_PROSE, 0.5 * total) if lenient else THIN_PROSE
        if chosen >= 0 and blocks[chosen].good >= enough:
            exempt |= added
            best = chosen
            result.lenient = lenient
            break
        aggregate(blocks, exempt, gm)  # no article there either: keep the names' verdict
    for i in exempt:
        blocks[i].neg = False
    return blocks, best, total


def _settle(
    result: Analysis, blocks: list[BlockRecord], best: int, kind: str | None, dense: bool, gm: int
) -> None:
    """The choice settled: a comment thread after an article left out (not on a thread),
    widened to an ancestor, over posts or cards of one shape (siblings.py, which also
    says the kind it shows) and siblings that continue it, grown when thin."""
    if kind != "thread":
        best = skip_threads(blocks, best, gm)
    best = widen(blocks, best)
    best, shown = siblings.widen(blocks, best, kind)
    if shown and result.kind in (None, "article"):
        result.kind = shown
    if shown:
        best = widen(blocks, best)
    elif result.kind in (None, "article"):  # what the structure shows, if anything
        result.kind = siblings.inner(blocks, best, kind) or result.kind
    best = merge_siblings(blocks, best)
    if blocks[best].good < (THIN_PROSE_DENSE if dense else THIN_PROSE):
        best = grow_thin(blocks, best, kind == "article")
    else:
        drop_bare_cards(blocks, best)
    result.best = blocks[best].el
    result.best_index = best
