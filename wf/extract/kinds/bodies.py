"""A thread's posts whose body the board writes as a <blockquote> (vBulletin's
`postcontent`): printed as the post's text, not as a quote of someone else's; and posts
the board writes as the items of a list, printed as posts, not as a list's items."""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from wf.extract import tuning
from wf.extract.kinds import posts_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def _length(el: Any) -> int:
    return len("".join("".join(el.itertext()).split()))


def plain(box: Any, posts: list[BlockRecord], heads: set[Any]) -> None:
    """The posts' bodies written as quotes (unquote) and the posts written as a list's
    items (unlist, in `box`, the posts' box) printed as posts."""
    unquote(posts, heads)
    unlist(box, posts)


def unquote(posts: list[BlockRecord], heads: set[Any]) -> int:
    """Turn each post's outermost <blockquote> that holds tuning.QUOTE_BODY of its text
    into a plain box; run after the quotes of the posts above went (quoted.drop_repeats), so
    a reply that is all a quote of them is gone already. What heads the post is not
    counted in its text (_titles): a short post ("Phone support.") is shorter than its
    line of author and date. Outermost quotes only, each read once: a hostile page nests
    them as deep as the parser lets it. How many."""
    from lxml import etree

    turned = 0
    for post in posts:
        el = post.el
        if el.getparent() is None:
            continue
        whole = _length(el) - _titles(el, heads)
        walker = etree.iterwalk(el, events=("start",))
        for _, inner in walker:
            if inner.tag != "blockquote":
                continue
            walker.skip_subtree()
            if whole and not _cited(inner) and _length(inner) >= tuning.QUOTE_BODY * whole:
                inner.tag = "div"
                turned += 1
    return turned


def unlist(box: Any, posts: list[BlockRecord]) -> int:
    """The posts' box when it is a list whose items are the posts (vBulletin's
    <ol id="posts">, NodeBB's <ul class="posts">, Lemmy's comments): the list and its
    items become plain boxes, so that each post prints as a block headed by its line of
    author and date, not as an item marked "- " (or numbered) with its body indented.
    Only the list of the posts and its own items: the lists inside a post stay. How many
    items."""
    if box.tag not in _LISTS or not any(p.el.getparent() is box for p in posts):
        return 0  # the posts above the box (a question) are no items of it
    box.tag = "div"
    items = [k for k in box if k.tag == "li"]
    for item in items:
        item.tag = "div"
    return len(items)


_LISTS = frozenset(("ul", "ol"))


def _titles(post: Any, heads: set[Any]) -> int:
    """The length of what heads a post outside its body: its line of author and date
    (its first element, when byline.add put one) and its headings outside quotes
    (vBulletin's title of the first post, the topic's, which goes later: tidy.drop_topic).
    One walk of the post, past its quotes."""
    from lxml import etree

    size = _length(post[0]) if len(post) and post[0] in heads else 0
    walker = etree.iterwalk(post, events=("start",))
    for _, el in walker:
        if el.tag in _HEADINGS:
            size += _length(el)
        if el.tag in _HEADINGS or el.tag == "blockquote":
            walker.skip_subtree()
    return size


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


_QUOTE = re.compile(tuning.POST_QUOTE, re.IGNORECASE)


def _cited(quote: Any) -> bool:
    """Whether a <blockquote> says whose words it holds: a quote of a post the page does
    not show (an earlier page's), that quoted.drop_repeats left, is no body of the reply
    around it. Its attributes (cite, data-quote), its name (bbCodeBlock--quote) or an
    attribution ending in a colon as its first line or just before it ("ann said:")."""
    if any(quote.get(name) for name in tuning.QUOTE_CITES) or _QUOTE.search(
        quote.get("class") or ""
    ):
        return True
    first = next((k for k in quote if isinstance(k.tag, str)), None)
    lines = [quote.text or ""]
    if first is not None and not (quote.text or "").strip():
        lines.append(_line(first))
    before = quote.getprevious()
    if before is None:
        parent = quote.getparent()
        lines.append("" if parent is None else parent.text or "")
    elif not isinstance(before.tag, str) or not (before.tail or "").strip():
        lines.append((before.tail or "").strip() or _line(before))
    else:
        lines.append(before.tail or "")
    return any(_attribution(line) for line in lines)


def _line(el: Any) -> str:
    return "".join(islice(el.itertext(), _PIECES))


def _attribution(line: str) -> bool:
    line = " ".join(line.split())
    return 0 < len(line) <= posts_tuning.ATTRIBUTION_MAX and line.endswith(":")


_PIECES = 8  # pieces of text an attribution is read in at most
