"""A link aggregator's story line above its comment tree: the title, a link to another
site, with its domain, the submitter and the age, drawn among the story's counters (its
score, "hide", "12 comments", its tags). replies.opening finds it right above the tree;
it is printed as a post's head is, "op, 5 hours ago", then the title and its domain, and
the counters go."""

from __future__ import annotations

import re
from copy import deepcopy
from itertools import islice
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import posts_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord

_DOMAIN = re.compile(posts_tuning.STORY_DOMAIN, re.IGNORECASE)


def line(b: BlockRecord) -> bool:
    """Whether a box is a story's line: signed (its submitter or its age), short
    (posts_tuning.STORY_TEXT_MAX characters), without prose, its first link of words a
    title that leads to another site (an absolute http(s) address: the aggregator's own
    links, to its users and its comments, are relative), whose domain the box shows after
    it. An article's byline above its comments links its author's page, absolute as
    many sites write their own links, and shows no domain: it is no story."""
    from wf.extract.kinds.siblings import marked

    if b.text > posts_tuning.STORY_TEXT_MAX or b.raw or not marked(b):
        return False
    title = _title(b.el)
    return title is not None and _domain(b.el, title) is not None


def _title(box: Any) -> Any:
    """The box's first link of words (posts_tuning.REPLY_TEXT_MIN characters), among its
    first posts_tuning.STORY_LINKS links, when it leads to another site; else None. A
    link named for the author, in itself or a box around it in `box` (tuning.POST_AUTHOR),
    is a byline's (its author's own site), no title."""
    for a in islice(box.iter("a"), posts_tuning.STORY_LINKS):
        if len(_words(a)) >= posts_tuning.REPLY_TEXT_MIN:
            href = (a.get("href") or "").strip().lower()
            return a if href.startswith(("http://", "https://")) and not _author(a, box) else None
    return None


def _author(link: Any, box: Any) -> bool:
    el = link
    for _ in range(posts_tuning.STORY_ELEMENTS):  # a link nests in few boxes of a line
        names = " ".join(el.get(k) or "" for k in ("class", "id", "rel", "itemprop"))
        if _AUTHOR.search(names):
            return True
        if el is box or (el := el.getparent()) is None:
            break
    return False


_AUTHOR = re.compile(tuning.POST_AUTHOR, re.IGNORECASE)


def _words(el: Any) -> str:
    return " ".join("".join(islice(el.itertext(), posts_tuning.STORY_PIECES)).split())


def keep(box: Any) -> None:
    """The story's line in place of `box`: its line of author and date (byline.add), then
    its title's link and the domain shown after it ("(example.org)"). The new elements
    have no block of their own, so the thread's pruning writes them as they are."""
    from lxml import etree

    from wf.extract.kinds import byline

    title = _title(box)
    parent = box.getparent()
    if title is None or parent is None:
        return
    domain = _domain(box, title)
    title = deepcopy(title)
    title.tail = f" ({domain})" if domain else None
    # The line byline.add put first, if any: a box of the story's own ("42 points") is none.
    head = box[0] if byline.add(box) is not None else None
    kept = etree.Element("div")
    if head is not None:
        kept.append(head)
    shown = etree.SubElement(kept, "p")
    shown.append(title)
    kept.tail = box.tail
    parent.replace(box, kept)
    trace.trace("extract: thread: the story's line above the comments, without its counters")


def _domain(box: Any, title: Any) -> str | None:
    """The domain the box shows after the title: the first element after it whose words
    are a host name (posts_tuning.STORY_DOMAIN), among the box's first
    posts_tuning.STORY_ELEMENTS, when it is the title's site ("example.org" for
    www.example.org, "github.com/ann" for a page there)."""
    from urllib.parse import urlsplit

    try:
        host = (urlsplit((title.get("href") or "").strip()).hostname or "").lower()
    except ValueError:
        return None
    after, inside = False, set()
    for el in islice(box.iter(), posts_tuning.STORY_ELEMENTS):
        if el is title:
            # The title's own words ("<b>example.io</b> is out") name no site of its.
            after, inside = True, set(islice(title.iter(), posts_tuning.STORY_ELEMENTS))
        elif after and isinstance(el.tag, str) and el not in inside:
            found = _DOMAIN.fullmatch(_words(el))
            if found:
                shown = found.group(1).partition("/")[0].lower()
                same = host == shown or host.endswith("." + shown) or shown.endswith("." + host)
                return found.group(1) if same else None
    return None
