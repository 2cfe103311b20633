"""Posts, cards and rows: the chosen block as one of several siblings of one shape.

The best-scoring block of a thread is one post (the longest answer), of a listing one
card: the page's content is the box that holds them all. Walking up from the chosen
block, an ancestor is taken when the box on the path to it has siblings of its tag and
class (numbering tokens left out) that make most of the ancestor's text, enough of them
holding prose (tuning.SIBLINGS_MIN, or SIBLINGS_MIN_THREAD on a page declared a thread:
a question and its one answer). The structure also names the kind when the page did not
declare one: siblings with prose are posts (a thread), siblings of linked titles are
cards (a listing); a definition list's entries are a listing's items, whatever they name.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def _signature(b: BlockRecord) -> tuple[str, str]:
    from wf.extract.names import class_kind

    return b.tag, class_kind(b.el.get("class"))


def _children(blocks: list[BlockRecord], parent: BlockRecord, tag: str) -> list[BlockRecord]:
    """A block's child blocks of one tag."""
    found = []
    j, end = parent.index + 1, parent.end
    while j < end:  # child by child, over their subtrees
        child = blocks[j]
        if child.tag == tag:
            found.append(child)
        j = child.end
    return found


_MARK = re.compile(tuning.POST_MARK, re.IGNORECASE)


def marked(b: BlockRecord) -> bool:
    """Whether a box shows who wrote it or when (tuning.POST_MARK), among its first
    tuning.MARK_SCAN elements: nested boxes of a hostile page are not read again and
    again."""
    return marked_el(b.el)


def marked_el(box: Any) -> bool:
    """marked() of an element."""
    for el in islice(box.iter(), tuning.MARK_SCAN):
        if el.tag == "time" or _MARK.search(f"{el.get('class') or ''} {el.get('id') or ''}"):
            return True
    return False


def _shape(posts: list[BlockRecord], peers: list[BlockRecord], need: int) -> str | None:
    """thread for posts that show their authors, listing for cards, None for neither."""
    sample = posts[: tuning.MARK_POSTS]
    if posts and posts[0].tag in ("dd", "dt"):
        # A definition list's entries are a listing's items (a list of papers, each
        # naming its authors), never a thread's posts.
        return tuning.LISTING if len(peers) >= need else None
    if len(posts) >= need and sum(marked(p) for p in sample) * 2 > len(sample):
        return tuning.THREAD
    if len(posts) < need and len(peers) >= need:
        return tuning.LISTING
    return None


def inner(blocks: list[BlockRecord], best: int, kind: str | None) -> str | None:
    """The kind the chosen block's own children show: most of its text in sibling posts
    (a thread) or cards (a listing) of one shape; None when they show neither."""
    need = tuning.SIBLINGS_MIN_THREAD if kind == tuning.THREAD else tuning.SIBLINGS_MIN
    box = blocks[best]
    for _ in range(2):  # the box, and the child that holds most of it
        groups: dict[tuple[str, str], list[BlockRecord]] = {}
        boxes: list[BlockRecord] = []
        biggest = None  # the first child that holds the most text
        j, end = box.index + 1, box.end
        while j < end:  # child by child, over their subtrees
            c = blocks[j]
            j = c.end
            if c.text > c.own:
                boxes.append(c)
            if biggest is None or c.text > biggest.text:
                biggest = c
        # A group holds no more text than all these boxes together: when they hold under
        # SIBLINGS_SHARE of the box (an article's paragraphs beside a figure or two), no
        # group can, and their names are not read.
        if sum(c.text for c in boxes) >= tuning.SIBLINGS_SHARE * box.text:
            for c in boxes:
                groups.setdefault(_signature(c), []).append(c)
        for peers in groups.values():
            if sum(c.text for c in peers) >= tuning.SIBLINGS_SHARE * box.text:
                posts = [c for c in peers if c.raw >= tuning.POST_PROSE]
                shown = _shape(posts, peers, need)
                if shown:
                    return shown
        if biggest is None:
            break
        box = biggest
    return None


def widen(blocks: list[BlockRecord], best: int, kind: str | None) -> tuple[int, str | None]:
    """The chosen block, or the box of the posts or cards it is one of; and the kind the
    structure shows (None when it shows nothing)."""
    from wf.extract.names import class_kind

    need = tuning.SIBLINGS_MIN_THREAD if kind == tuning.THREAD else tuning.SIBLINGS_MIN
    cur = blocks[best]
    shown = None
    for _ in range(tuning.SIBLINGS_LEVELS):
        if cur.parent < 0:
            break
        parent = blocks[cur.parent]
        if parent.boiler or parent.tag in ("html", "body"):
            break
        tag = cur.tag
        # The tag first: most siblings differ in it, and their class tokens are not read,
        # nor those of siblings too few or holding too little of the box to be its posts
        # (the peers are some of them).
        tagged = _children(blocks, parent, tag)
        if len(tagged) < need or (
            sum(c.text for c in tagged) < tuning.SIBLINGS_SHARE * parent.text
        ):
            cur = parent
            continue
        signature = _signature(cur)
        names = signature[1]
        peers = [c for c in tagged if class_kind(c.el.get("class")) == names]
        posts = [c for c in peers if c.raw >= tuning.POST_PROSE]
        if (
            len(peers) >= need
            and sum(c.text for c in peers) >= tuning.SIBLINGS_SHARE * parent.text
            and (len(posts) >= need or kind == tuning.LISTING)
        ):
            shown = _shape(posts, peers, need) or shown
            trace.trace(
                "extract: the choice is one of %d sibling <%s class=%r>, %d with prose: "
                "their box <%s> taken",
                len(peers),
                signature[0],
                signature[1][:40],
                len(posts),
                parent.tag,
            )
            best = parent.index
        cur = parent
    return best, shown
