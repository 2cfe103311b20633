"""What the heads of a thread's posts and of the boxes above them show (thread.py): a
teaser card's title, a box of headings over the replies."""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from wf.extract import tuning
from wf.extract.kinds import posts_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

HEADING = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_AUTHOR = re.compile(tuning.POST_AUTHOR, re.IGNORECASE)
_PROFILE = re.compile(tuning.POST_PROFILE_PATH, re.IGNORECASE)


def card(post: BlockRecord) -> bool:
    """Whether a post is a teaser card: among its first elements, a heading whose link
    leads to another page (a post's own title links to itself, #p123), unless that link
    is the author's: named so (an issue's comment heads its body with "ann commented") or
    leading to a person's page (tuning.POST_PROFILE_PATH: a board's poster heading)."""
    for el in islice(post.el.iter(), tuning.MARK_SCAN):
        if el.tag in HEADING:
            link = next(el.iter("a"), None)
            if link is None:  # or the heading inside the link
                link = next((a for a in el.iterancestors("a")), None)
            href = "" if link is None else (link.get("href") or "")
            if link is not None and (_AUTHOR.search(link.get("class") or "") or profile(href)):
                return False
            return bool(href.strip()) and "#" not in href
    return False


def profile(href: str) -> bool:
    """Whether a link leads to a person's page (tuning.POST_PROFILE_PATH) by its path: a
    query or fragment that names one ("?from=/u/ann", a link back) leads elsewhere."""
    path = href.split("?", 1)[0].split("#", 1)[0]
    return _PROFILE.search(path) is not None


def titled_box(box: Any, inner: Any) -> bool:
    """Whether a box holds nothing but the inner one, headings ("Comments" over the
    replies, below the first post) and the board's notice to log in to reply: no level
    of its own on the way up to the first post. Each box on the way up is read once, its
    children only."""
    kids = [k for k in box if isinstance(k.tag, str) and k is not inner]
    return bool(kids) and all(k.tag in HEADING or _notice(k) for k in kids)


def _notice(el: Any) -> bool:
    text = " ".join("".join(islice(el.itertext(), _NOTICE_PIECES)).split()).lower()
    return len(text) <= posts_tuning.GATE_MAX and reply_gate(text)


def reply_gate(line: str) -> bool:
    """Whether a lowered line is the board's notice to log in to reply
    (posts_tuning.REPLY_GATE), read here over the replies and by posts.prune in a post."""
    return _REPLY_GATE.fullmatch(line) is not None


_REPLY_GATE = re.compile(posts_tuning.REPLY_GATE)
_NOTICE_PIECES = 8  # pieces of text a notice is read in at most


def headed(posts: list[BlockRecord]) -> bool:
    """Whether one of the posts holds an <h1> (the page's title is no post's)."""
    return any(p.el.find(".//h1") is not None for p in posts[: tuning.MARK_POSTS])


def own_article(b: BlockRecord) -> bool:
    """Whether a box is an article's own: an <article> that holds the <h1>. Beside it, a
    few comments (a news brief's) are no thread that takes the page over."""
    return b.tag == "article" and b.el.find(".//h1") is not None
