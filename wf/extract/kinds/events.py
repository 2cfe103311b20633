"""An issue tracker's timeline events between its comments ("dora added the bug label",
"closed this as completed", "mentioned this issue"), and the issue's header line
("ann opened this issue on Mar 3 · 4 comments"): boxes that show an author and a date
as posts do, but say what was done to the issue, not what anyone wrote. Read by
thread.py, which leaves them out of the thread."""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from wf.extract.kinds.posts_tuning import EVENT_MAX, EVENT_PHRASES

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

_EVENT = re.compile("(?:" + "|".join(EVENT_PHRASES) + ")", re.IGNORECASE)
EVENT_ELEMENTS = 60  # elements of a box at most: an event is a line, its links and icons


def event(el: Any) -> bool:
    """Whether a short box (EVENT_MAX characters, EVENT_ELEMENTS elements) reads, after
    its first named link (the actor's), as an event of the issue
    (posts_tuning.EVENT_PHRASES). The box is read no further than those bounds: a long
    post, or a box of many empty elements, costs next to nothing."""
    if sum(1 for _ in islice(el.iter(), EVENT_ELEMENTS + 1)) > EVENT_ELEMENTS:
        return False
    pieces = list(el.itertext())
    if sum(len(piece) for piece in pieces) > EVENT_MAX:
        return False
    text = " ".join("".join(pieces).split())
    for link in el.iter("a"):
        name = " ".join("".join(link.itertext()).split())
        if name:
            after = text[text.find(name) + len(name) :].strip()
            return _EVENT.match(after) is not None
    return False


def drop(posts: list[BlockRecord]) -> set[int]:
    """The indices of the posts that are events (event), each dropped from the page."""
    from wf.extract.parse import drop as drop_el

    gone = set()
    for post in posts:
        if post.el.getparent() is not None and event(post.el):
            drop_el(post.el)
            gone.add(post.index)
    return gone
