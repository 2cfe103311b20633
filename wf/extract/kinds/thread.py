"""A thread (a forum topic, a question and its answers, an issue and its comments): the
question or first post, then every answer or reply in page order.

The kind's own rule, independent of the article scoring: the page is walked whole, names
ignored, and its posts are the largest group (by prose) of sibling boxes of one tag and
class (numbering tokens left out), tuning.SIBLINGS_MIN_THREAD of them or more holding
prose. Their box is the content; it grows to the ancestors that add prose with few links
(the question above a box of answers). Inside it, a box named as boilerplate is dropped
only when it holds no prose of its own (votes, share and follow buttons, "log in to
reply"): platforms name every post `comment`, which the article rule reads as boilerplate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord

POST_TAGS = frozenset(("div", "article", "section", "li", "tr", "table"))
GROW_LEVELS = 2  # ancestors of the posts' box looked at for the question
GROW_LINKS_MAX = 3  # an ancestor adds at most 1/3 of its added text in links


def _posts_box(blocks: list[BlockRecord]) -> tuple[int, int] | None:
    """The index of the box of the page's posts, and how many posts; None if none."""
    from wf.extract.names import class_kind

    groups: dict[tuple[int, str, str], list[BlockRecord]] = {}
    for b in blocks:
        if b.parent < 0 or b.tag not in POST_TAGS or b.text == b.own:
            continue  # a post holds blocks (its byline, its paragraphs)
        key = (b.parent, b.tag, class_kind(b.el.get("class")))
        groups.setdefault(key, []).append(b)
    best, best_prose, count = None, 0.0, 0
    for (parent, _, _), members in groups.items():
        posts = [m for m in members if m.raw >= tuning.POST_PROSE]
        prose = sum(m.raw for m in posts)
        if len(posts) >= tuning.SIBLINGS_MIN_THREAD and prose > best_prose:
            best, best_prose, count = parent, prose, len(posts)
    return None if best is None else (best, count)


def _grow(blocks: list[BlockRecord], index: int) -> int:
    cur = blocks[index]
    for _ in range(GROW_LEVELS):
        if cur.parent < 0:
            break
        a = blocks[cur.parent]
        if a.tag in ("html", "body"):
            break
        added, prose = a.text - cur.text, a.raw - cur.raw
        if prose < tuning.POST_PROSE or (a.link - cur.link) * GROW_LINKS_MAX > added:
            break
        cur = a
    return cur.index


def choose(body: Any, deadline: float | None, gm: int) -> Analysis | None:
    """The thread's posts as an Analysis for the writer, or None when the page shows no
    posts (then the article rule chooses)."""
    from wf.extract.records import Analysis, aggregate, walk

    blocks = walk(body, skip_boilerplate=False, deadline=deadline)
    if not blocks:
        return None
    aggregate(blocks, set(), gm)
    found = _posts_box(blocks)
    if found is None:
        trace.trace("extract: thread: no posts of one shape found")
        return None
    index, count = found
    box = _grow(blocks, index)
    trace.trace(
        "extract: thread: %d posts in <%s class=%r>; the content is <%s>",
        count,
        blocks[index].tag,
        (blocks[index].el.get("class") or "")[:40],
        blocks[box].tag,
    )
    return Analysis(
        blocks=blocks, best=blocks[box].el, best_index=box, kind=tuning.THREAD, by_kind=True
    )


def prune(el: Any, b: BlockRecord) -> bool:
    """Inside a thread: nav, asides and footers go, and named boxes without prose, and
    link lists; posts stay whatever they are named."""
    from wf.extract.names import STRUCTURAL_NEGATIVE
    from wf.extract.prune import link_list
    from wf.extract.records import negative

    if b.tag in STRUCTURAL_NEGATIVE and b.tag != "figure":
        return True
    if not b.raw and negative(b):
        return True
    return link_list(b)
