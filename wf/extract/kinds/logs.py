"""A log pasted into a thread's post (a build's output, a server's traceback) is cut to
its head (posts_tuning.LOG_KEEP lines): what follows repeats what the head shows, and a
post of three sentences with five hundred lines of log under them reads as the log."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import posts_tuning as pt

_STAMP = re.compile(pt.LOG_STAMP, re.IGNORECASE | re.MULTILINE)


def cut(text: str) -> tuple[str, int] | None:
    """The head of `text` when it is a log longer than LOG_KEEP lines, and how many lines
    (or entries, for a log that lost its line breaks) went; None when it stays whole."""
    if len(text) < pt.LOG_MIN:
        return None
    stamps = [m.start() for m in islice(_STAMP.finditer(text), pt.LOG_KEEP + 1)]
    if len(stamps) < pt.LOG_STAMPS:
        return None
    lines = text.rstrip("\n").split("\n")
    if len(lines) > pt.LOG_KEEP:
        return "\n".join(lines[: pt.LOG_KEEP]), len(lines) - pt.LOG_KEEP
    if len(lines) == 1 and len(stamps) > pt.LOG_KEEP:  # entries run on in one line
        rest = sum(1 for _ in _STAMP.finditer(text, stamps[pt.LOG_KEEP]))
        return text[: stamps[pt.LOG_KEEP]].rstrip(), rest
    return None


def cut_logs(box: Any) -> int:
    """Each log in `box`'s code blocks (<pre>, and the box of a <code> outside one) cut
    to its head, a line saying how many lines went in place of the rest. How many were
    cut."""
    done = 0
    seen: set[Any] = set()
    # Taken before any is cut, and cut innermost first: a cut never leaves a block to
    # come out of the tree.
    for el in reversed(list(islice(box.iter("pre", "code"), pt.LOG_SCAN))):
        if el.tag == "code":
            if _in_pre(el):
                continue
            # A log that lost its line breaks: a paragraph of <code> runs, read as one.
            parent = el.getparent()
            el = parent if parent is not None and parent.tag == "p" else el
            if el in seen:
                continue
            seen.add(el)
        inner = _inner(el)
        text, over = _read(inner)
        found = cut(text)
        if found is None:
            continue
        head, gone = found
        more = f"{gone}{'+' if over else ''} more"
        for child in list(inner):
            inner.remove(child)
        inner.text = f"{head}\n… ({more} lines)" if "\n" in head else f"{head} … ({more})"
        done += 1
    return done


def _inner(el: Any) -> Any:
    """The box that holds a block's text alone, a few levels down at most: in
    <pre><code class="lang-auto"> the <code> is cut and its language stays."""
    for _ in range(pt.LOG_LEVELS):
        if len(el) != 1 or (el.text or "").strip() or (el[0].tail or "").strip():
            break
        el = el[0]
    return el


def _read(el: Any) -> tuple[str, bool]:
    """An element's text up to LOG_READ characters, and whether there was more (nested
    blocks of a hostile page are not each read whole)."""
    parts: list[str] = []
    size = 0
    for part in el.itertext():
        parts.append(part)
        size += len(part)
        if size > pt.LOG_READ:
            return "".join(parts)[: pt.LOG_READ], True
    return "".join(parts), False


def _in_pre(el: Any) -> bool:
    """Whether a <code> is in a <pre> (read with it), looking a few levels up only."""
    parent = el.getparent()
    for _ in range(pt.LOG_LEVELS):
        if parent is None:
            return False
        if parent.tag == "pre":
            return True
        parent = parent.getparent()
    return False
