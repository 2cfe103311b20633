"""A topic's statistics printed above its first post ("13 answers /", "Last post:
01/12/2025 at 6:49 pm", "2 replies · 340 views"): the board's counts and the time of its
latest post, no words of the thread; and the button there that opens the reply form
("Post Reply", posts_tuning.TOPIC_ACTIONS). Each box before the first post that holds few
elements and says only that (posts_tuning.TOPIC_COUNTS, LAST_POST followed by a date and
nothing else) leaves the content; boxes inside a post, or from a box shaped as one (a
reply too short to be found as a post) on, are not read. The counts are read in English,
German, French, Spanish, Dutch and Portuguese ("2 Antworten", "3 réponses"), the number
before its word or after it as a label's ("Replies: 2 · Views: 340")."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import posts_tuning

_COUNTS = re.compile(posts_tuning.TOPIC_COUNTS, re.IGNORECASE)
_LAST = re.compile(posts_tuning.LAST_POST, re.IGNORECASE)
_ACTIONS = re.compile(posts_tuning.TOPIC_ACTIONS, re.IGNORECASE)
_BOXES = frozenset(posts_tuning.TOPIC_BOXES)
FEW_ELEMENTS = posts_tuning.TOPIC_BOX_ELEMENTS


def topic_line(text: str) -> bool:
    """Whether a box's text is a topic's counts, the time of its latest post or the
    button that opens its reply form, and nothing else."""
    from wf.extract.kinds.post_dates import whole_date

    if not text or len(text) > posts_tuning.TOPIC_LINE_MAX:
        return False
    if _COUNTS.fullmatch(text) or _ACTIONS.fullmatch(text):
        return True
    last = _LAST.fullmatch(text)
    return last is not None and whole_date(last.group(1))


def drop_stats(box: Any, posts: list[Any]) -> int:
    """The boxes of a topic's statistics before the first of the posts in the content's
    box go; how many. One walk of the box in page order, up to the first post: each
    box is read only when it holds FEW_ELEMENTS at most, and no further than a line."""
    from wf.extract.parse import drop

    mine = set(posts)
    # A box of a post's tag and class is a post too short to be found as one ("2 replies"
    # may be a reply's whole text): the walk stops at it, its words kept.
    shapes = {(p.tag, p.get("class")) for p in posts}
    found: set[Any] = set()
    for el in box.iter():
        if el in mine or (el.tag, el.get("class")) in shapes:
            break
        if el.tag not in _BOXES or not found.isdisjoint(islice(el.iterancestors(), FEW_ELEMENTS)):
            continue
        if sum(1 for _ in islice(el.iterdescendants(), FEW_ELEMENTS + 1)) > FEW_ELEMENTS:
            continue
        text = " ".join("".join(islice(el.itertext(), FEW_ELEMENTS * 2 + 1)).split())
        if topic_line(text):
            found.add(el)
    for el in found:
        drop(el)
    return len(found)
