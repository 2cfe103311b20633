"""Whether a page that declares no kind shows its posts plainly enough to be read as a
thread (kinds/thread.py's second opinion over the article rule, and its own choice)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from wf.extract import tuning
from wf.extract.kinds import heads, replies

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def shown(
    blocks: list[BlockRecord],
    posts: list[BlockRecord],
    few: bool = False,
    lead: Sequence[BlockRecord] = (),
) -> bool:
    """Whether posts show a thread plainly enough on a page that declares none: at least
    tuning.THREAD_POSTS of them (a page's columns are fewer), none with half their prose,
    most of them signed and not teaser cards (heads.card), holding most of the page's
    prose and half its text (tuning.THREAD_SHARE, THREAD_TEXT: a list of books with its
    readers' comments below is no thread, however long they are).
    `few`: on a page where no block stood out for the article rule, or where it chose the
    first post above them (`lead`, its words counted with theirs), a topic of two posts
    or more, every one signed, holding as much of the page."""
    from wf.extract.kinds.siblings import marked

    sample = posts[: tuning.MARK_POSTS]
    signed = sum(marked(m) for m in sample)
    page = blocks[0]
    raws = [m.raw for m in posts]
    if few:
        return (
            len(posts) >= tuning.SIBLINGS_MIN_THREAD
            and signed == len(sample)
            and sum(raws) + sum(m.raw for m in lead) >= tuning.THREAD_SHARE_FEW * page.raw
            and sum(m.text for m in (*posts, *lead)) >= tuning.THREAD_TEXT * page.text
            and not any(heads.card(m) for m in sample)
        )
    # A comment tree's replies, nested in the posts of its top level, count as posts: a
    # link aggregator's thread of three comments answered at length is a thread (and one
    # of them may hold half its prose, which a page's columns never answer). Only when
    # every post of the top level shows its author or date: a shop's widgets, boxes in
    # boxes of one name, sign a few.
    tree = 0
    if len(posts) < tuning.THREAD_POSTS and signed == len(sample):
        tree = replies.counted(posts, found := replies.nested(blocks, posts))
        # Too few to show a thread by their count: their names tell the tree.
        if replies.leveled(blocks, posts, found, tree):
            return True
    return (
        len(posts) + tree >= tuning.THREAD_POSTS
        and (max(raws) * 2 < sum(raws) or tree >= tuning.SIBLINGS_MIN)
        and signed + tree >= tuning.SIBLINGS_MIN
        and signed * 2 > len(sample)
        and sum(m.raw for m in posts) >= tuning.THREAD_SHARE * page.raw
        and sum(m.text for m in posts) >= tuning.THREAD_TEXT * page.text
        and sum(heads.card(m) for m in sample) * 2 <= len(sample)
    )
