"""What a board prints among a thread's posts that no poster wrote, once the posts are
cut down to their line of author and date and their body (thread.py): a post that only
says what became of the topic (posts_tuning.CLOSING: Discourse's "This topic was
automatically closed after 30 days."), a script's link that unfolds a quote
(posts_tuning.POST_TOGGLE: Invision's "Expand", a link to no page), and a box that asks
the reader's verdict on a post (posts_tuning.POST_FEEDBACK: "Did this help? Please give
feedback by clicking an icon below"); with tidy.py's headings said again and notes of
edits. A link whose words the board shortened from its address prints the address whole
(posts_tuning.SHORTENED)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from wf.extract.kinds import posts_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def tidy(box: Any, posts: Iterable[BlockRecord], heads: set[Any]) -> None:
    """The thread's content (`box`) without the board's words: its notices posted as
    posts, its toggles and its prompts for feedback, a heading said again and notes of
    edits (tidy.drop_titles, tidy.drop_edit_notes); its shortened links' words whole.
    `heads`: each post's line of author and date."""
    from wf.extract.kinds import tidy as thread_tidy

    drop_closings(posts, heads)
    drop_toggles(box)
    drop_prompts(box)
    unshorten(box)
    thread_tidy.drop_titles(box)
    thread_tidy.drop_edit_notes(box)


_CLOSING = re.compile(posts_tuning.CLOSING, re.IGNORECASE)


def drop_closings(posts: Iterable[BlockRecord], heads: set[Any]) -> int:
    """The posts whose words, their line of author and date (one of `heads`) aside, are a
    board's notice of what became of the topic and nothing more go, line and all: the
    board posted it under a system account, no poster replied. How many went."""
    from wf.extract.hidden import drop_each

    gone = []
    for post in posts:
        el = post.el
        if el.getparent() is None:
            continue
        words = _words_below(el, heads)
        if words is not None and _CLOSING.fullmatch(words):
            gone.append(el)
    drop_each(gone)
    return len(gone)


def _words_below(post: Any, heads: set[Any]) -> str | None:
    """A post's text outside its line of author and date, white space collapsed; None
    past posts_tuning.CLOSING_MAX characters (read no further)."""
    parts: list[str] = [post.text or ""]
    size = 0
    for child in post:
        if child not in heads:
            for part in child.itertext():
                parts.append(part)
                size += len(part)
                if size > 2 * posts_tuning.CLOSING_MAX:
                    return None
        parts.append(child.tail or "")
    words = " ".join("".join(parts).split())
    return words if len(words) <= posts_tuning.CLOSING_MAX else None


_TOGGLE = re.compile(posts_tuning.POST_TOGGLE, re.IGNORECASE)
_NO_PAGE = ("", "#")


def drop_toggles(box: Any) -> int:
    """The links to no page (no address, "#", a script's) whose whole text unfolds or
    folds a part of a post (posts_tuning.POST_TOGGLE: "Expand", "Show more"): a script's
    button drawn as a link, printed as a line of the post once the script is gone. A link
    that leads somewhere ("Read more" to the full post) stays. How many went."""
    from wf.extract.hidden import drop_each

    gone = []
    for a in box.iter("a"):
        href = (a.get("href") or "").strip()
        if href not in _NO_PAGE and not href.lower().startswith("javascript:"):
            continue
        text = _short(a, posts_tuning.TOGGLE_MAX)
        if text and _TOGGLE.fullmatch(text):
            gone.append(a)
    drop_each(gone)
    return len(gone)


def _short(el: Any, most: int) -> str | None:
    """An element's text, white space collapsed, or None past `most` characters or past
    4 * `most` elements (read no further: a hostile page nests links in links, each
    around thousands of empty boxes)."""
    parts: list[str] = []
    size = 0
    for n, node in enumerate(el.iter()):
        if n > 4 * most or size > 2 * most:
            return None
        text = node.text if isinstance(node.tag, str) else None
        tail = node.tail if node is not el else None  # the words after it are not its own
        for part in (text, tail):
            if part:
                parts.append(part)
                size += len(part)
    text = " ".join("".join(parts).split())
    return text if len(text) <= most else None


_SHORTENED = re.compile(posts_tuning.SHORTENED)
_SCHEME = re.compile(r"https?://", re.IGNORECASE)


def unshorten(box: Any) -> int:
    """The links whose words are their address shortened by the board around an
    ellipsis ("https://github.com/raspberrypi/firmware ... ays/README", posts_tuning.
    SHORTENED): their words become the address whole, which the head starts (past its
    scheme) and the tail ends. A link of other words, or holding elements, stays, and one
    of more ellipses than one (many dots: the pattern would split them at each). How many."""
    turned = 0
    for a in box.iter("a"):
        text = a.text or ""
        if len(a) or len(text) > posts_tuning.SHORTENED_MAX:
            continue
        if text.count("...") + text.count("…") != 1:
            continue
        href = (a.get("href") or "").strip()
        found = _SHORTENED.fullmatch(text.strip())
        if found is None or not _SCHEME.match(href):
            continue
        head, tail = found.group(1), found.group(2)
        bare = _SCHEME.sub("", href, count=1)
        cut = len(bare) > len(head) + len(tail) and len(head) >= posts_tuning.SHORTENED_HEAD
        if cut and bare.startswith(head) and bare.endswith(tail):
            a.text = href
            turned += 1
    return turned


_FEEDBACK = re.compile(posts_tuning.POST_FEEDBACK, re.IGNORECASE)
_FEEDBACK_TEXTS = f".//text()[contains(., '{posts_tuning.FEEDBACK_SEED}')]"


def drop_prompts(box: Any) -> int:
    """The boxes whose whole text asks the reader to rate a post by the icons below it
    (posts_tuning.POST_FEEDBACK), found from the texts that hold its word, the outermost
    such box up posts_tuning.FEEDBACK_LEVELS (the question and the request are spans of
    one paragraph); posts_tuning.FEEDBACK_MAX of them a thread. How many went."""
    from common.xpath import compiled
    from wf.extract.hidden import drop_each
    from wf.extract.outer_boxes import Read, outermost_box, stands_in

    found: list[Any] = []
    read: Read = {}  # each box read once, whatever the texts in it

    def short(el: Any) -> str | None:
        return _short(el, posts_tuning.FEEDBACK_READ)

    def at_box(el: Any) -> bool:
        return el is box

    levels = posts_tuning.FEEDBACK_LEVELS
    for node in compiled(_FEEDBACK_TEXTS)(box):
        if len(found) >= posts_tuning.FEEDBACK_MAX:
            break
        outer = outermost_box(stands_in(node), _FEEDBACK.fullmatch, short, levels, at_box, read)
        if outer is not None and outer not in found:
            found.append(outer)
    drop_each([el for el in found if not any(up in found for up in el.iterancestors())])
    return len(found)
