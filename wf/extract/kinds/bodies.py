"""A thread's posts whose body the board writes as a <blockquote> (vBulletin's
`postcontent`): printed as the post's text, not as a quote of someone else's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wf.extract import tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def _length(el: Any) -> int:
    return len("".join("".join(el.itertext()).split()))


def unquote(posts: list[BlockRecord]) -> int:
    """Turn each post's outermost <blockquote> that holds tuning.QUOTE_BODY of its text
    into a plain box; run after the quotes of the posts above went (tidy.drop_repeats), so
    a reply that is all a quote of them is gone already. Outermost quotes only, each
    read once: a hostile page nests them as deep as the parser lets it. How many."""
    from lxml import etree

    turned = 0
    for post in posts:
        el = post.el
        if el.getparent() is None:
            continue
        whole = _length(el)
        walker = etree.iterwalk(el, events=("start",))
        for _, inner in walker:
            if inner.tag != "blockquote":
                continue
            walker.skip_subtree()
            if whole and _length(inner) >= tuning.QUOTE_BODY * whole:
                inner.tag = "div"
                turned += 1
    return turned
