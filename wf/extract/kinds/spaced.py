"""The text of a post's date box as the page shows it, and whether it names its day,
read by byline.py."""

from __future__ import annotations

import re
from typing import Any

from wf.extract import tuning


def spaced(el: Any, most: int | None = None) -> str:
    """A date box's text, a space between pieces of its elements that would glue a word
    or number to the next ("Mar 1, 2026" beside "10 a.m." in a box of its own); "12" and
    ":30" stay one. `most`: read no further once it holds more than that many characters
    besides spaces, for a caller that wants a short box only: a box named for time around
    a thread's nested replies (GitHub's "timeline-comment"), in each of them, would be
    read whole once per box around it."""
    out, seen = "", 0
    for piece in el.itertext():
        if out and piece and out[-1].isalnum() and piece[0].isalnum():
            out += " "
        out += piece
        if most is not None:
            seen += len(piece) - sum(map(str.isspace, piece))
            if seen > most:
                break
    return " ".join(out.split())


def day_named(text: str) -> bool:
    """Whether a text names its day by a month or a weekday ("February 26", "Tuesday at
    4:27 AM": shown so, not as a time ago)."""
    from wf.extract.metadata.dates import MONTHS

    days = tuning.POST_WEEKDAYS
    # A weekday's short name after a number is a unit of a time ago ("2mo", "1 Mo.").
    units = {m.group(1) for m in _AFTER_NUMBER.finditer(text.lower())}
    return any(w in MONTHS or (w in days and w not in units) for w in _WORDS.findall(text.lower()))


_AFTER_NUMBER = re.compile(r"\d\s?([^\W\d_]+)")
_WORDS = re.compile(r"[^\W\d_]+")
