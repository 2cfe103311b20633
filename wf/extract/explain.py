"""The extractor's choice in words, for the -v trace: which block won and by what score,
the runner-up, and what was dropped inside the winner and why.

Reads what wf.extract.blocks already computed (an ``Analysis`` and its ``BlockRecord``s);
changes nothing and is called only when the trace is on.
"""

from __future__ import annotations

from typing import Any

from common import trace
from wf.extract import blocks
from wf.extract.names import STRUCTURAL_NEGATIVE
from wf.extract.records import negative

# Blocks named in the "dropped" line; the rest are counted.
_LISTED = 4
# Path segments shown, innermost last, and the characters of each: the line stays short
# enough for the cap every diagnostic has.
_PATH_DEPTH = 3
_LABEL_CHARS = 40


def choice(analysis: blocks.Analysis, prune: Any = None) -> None:
    """Trace the choice ``blocks.choose`` made (nothing when the trace is off); `prune`
    is the kind's rule for what goes inside the content (the article's by default)."""
    if not trace.enabled:
        return
    records = analysis.blocks
    if not records:
        trace.trace("extract: no blocks in the page")
        return
    total = records[0].text
    best = analysis.best_index
    if best < 0:
        trace.trace("extract: no block stood out (%d characters of text): the whole page", total)
        return
    chosen = records[best]
    trace.trace(
        "extract: chose %s, score %s (prose %d, links and labels %d), %d of the page's %d "
        "characters",
        _path(records, best),
        _score(chosen),
        chosen.good,
        chosen.bad,
        chosen.text,
        total,
    )
    runner = _runner_up(records, best)
    if runner >= 0:
        second = records[runner]
        trace.trace(
            "extract: runner-up %s, score %s, %d characters",
            _path(records, runner),
            _score(second),
            second.text,
        )
    if analysis.lenient:
        trace.trace("extract: the page's class names repeat on its prose: pruned by tags only")
    if prune is None:
        prune = blocks.prune_lenient if analysis.lenient else blocks.prune
    dropped = _dropped(records, best, prune)
    if dropped:
        shown = ", ".join(f"{_label(b)} ({why}, {b.text})" for b, why in dropped[:_LISTED])
        more = f" and {len(dropped) - _LISTED} more" if len(dropped) > _LISTED else ""
        trace.trace(
            "extract: dropped %d blocks inside it (%d characters): %s%s",
            len(dropped),
            sum(b.text for b, _ in dropped),
            shown,
            more,
        )


def _score(b: blocks.BlockRecord) -> str:
    return f"{b.good - b.bad:.0f}"


def _label(b: blocks.BlockRecord) -> str:
    el = b.el
    ident = (el.get("id") or "").split()
    classes = (el.get("class") or "").split()[:2]
    label = b.tag + "".join(f"#{i}" for i in ident[:1]) + "".join(f".{c}" for c in classes)
    return label if len(label) <= _LABEL_CHARS else label[: _LABEL_CHARS - 3] + "..."


def _path(records: list[blocks.BlockRecord], index: int) -> str:
    parts: list[str] = []
    while index >= 0 and len(parts) < _PATH_DEPTH:
        parts.append(_label(records[index]))
        index = records[index].parent
    return ("... > " if index >= 0 else "") + " > ".join(reversed(parts))


def _subtree_end(records: list[blocks.BlockRecord], index: int) -> int:
    depth = records[index].depth
    end = index + 1
    while end < len(records) and records[end].depth > depth:
        end += 1
    return end


def _runner_up(records: list[blocks.BlockRecord], best: int) -> int:
    """The best-scoring block that is neither inside the winner nor around it, nor inside
    boilerplate: the region the extractor did not take."""
    around = set()
    i = best
    while i >= 0:
        around.add(i)
        i = records[i].parent
    end = _subtree_end(records, best)
    inside = [False] * len(records)
    found, top = -1, 0.0
    for i, b in enumerate(records):
        parent = b.parent
        inside[i] = b.boiler or (parent >= 0 and inside[parent])
        if inside[i] or i in around or best <= i < end:
            continue
        score = b.good - b.bad
        if score > top:
            found, top = i, score
    return found


def _dropped(
    records: list[blocks.BlockRecord], best: int, prune: Any
) -> list[tuple[blocks.BlockRecord, str]]:
    """The outermost blocks inside the winner that the writer leaves out, with the reason."""
    out: list[tuple[blocks.BlockRecord, str]] = []
    end = _subtree_end(records, best)
    i = best + 1
    while i < end:
        b = records[i]
        if prune(b.el, b):
            out.append((b, _why(b)))
            i = _subtree_end(records, i)
            continue
        i += 1
    return out


def _why(b: blocks.BlockRecord) -> str:
    if b.cut:
        return "a sibling that did not join"
    if b.boiler and b.card:
        return "teaser card"
    if b.tag in STRUCTURAL_NEGATIVE:
        return f"<{b.tag}>"
    if negative(b):
        return "boilerplate name"
    return "link list"
