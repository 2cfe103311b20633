"""A thread's post begins with one line naming its author and date, where the page shows
them: the first box inside the post named for its author (class, id or itemprop:
tuning.POST_AUTHOR) and its first <time> (else a box named for a date), each short
(tuning.BYLINE_MAX). The line is put at the post's start and the boxes it was read from
leave the post, so that the names and dates are not printed twice. Comments nested in a
post that is not itself a comment (a question's comments) are not looked into: their
authors are theirs."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract import tuning
from wf.extract.parse import drop

_AUTHOR = re.compile(tuning.POST_AUTHOR, re.IGNORECASE)
_DATE = re.compile(tuning.POST_DATE, re.IGNORECASE)
_COMMENTS = re.compile(r"comment", re.IGNORECASE)
INNER_LEVELS = 6  # boxes named for the author looked into, one inside the other


def _text(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


def _names(el: Any) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''} {el.get('itemprop') or ''}"


def _own(post: Any) -> list[Any]:
    """The post's elements in page order, without the comments nested in it (their
    authors are theirs)."""
    from lxml import etree

    found = []
    # A post that is a comment names its own parts so (comment-meta, comment-body).
    nested = _COMMENTS.search(post.get("class") or "") is None
    walker = etree.iterwalk(post, events=("start",))
    for _, el in walker:
        if nested and el is not post and _COMMENTS.search(el.get("class") or ""):
            walker.skip_subtree()
            continue
        found.append(el)
    return found


def _innermost(el: Any, text: str) -> tuple[Any, str]:
    """The innermost box named for the author inside the one found: a user's card is
    named so as a whole (name, rank, counts), its name's link again. A few levels of a
    few elements each: a hostile page's nesting is not followed down."""
    for _ in range(INNER_LEVELS):
        for d in islice(el.iterdescendants(), tuning.MARK_SCAN):
            if isinstance(d.tag, str) and d.tag not in ("time", "img"):
                inner = _text(d) if _AUTHOR.search(_names(d)) else ""
                if inner:
                    el, text = d, inner
                    break
        else:
            break
    return el, text


def _find(post: Any) -> tuple[Any, str, Any, str]:
    """(author's element, author, date's element, date); elements None when not shown."""
    author_el = date_el = None
    author = date = ""
    own = _own(post)
    for el in own:
        if not isinstance(el.tag, str):
            continue
        if date_el is None and el.tag == "time":
            date = _text(el) or (el.get("datetime") or "").strip()
            if date and len(date) <= tuning.BYLINE_MAX:
                date_el = el
        names = _names(el)
        if author_el is None and el.tag not in ("time", "img") and _AUTHOR.search(names):
            text = _text(el)
            # A box named for the user and for a time is the post's date
            # ("user-action-time": answered Jul 7, 2012 at 3:07), not its author.
            if text and len(text) <= tuning.BYLINE_MAX and not _DATE.search(names):
                author_el, author = el, text
        if author_el is not None and date_el is not None:
            break
    if author_el is not None:
        author_el, author = _innermost(author_el, author)
    if date_el is None:
        for el in own:
            if isinstance(el.tag, str) and el is not author_el and _DATE.search(_names(el)):
                text = _text(el)
                if text and len(text) <= tuning.BYLINE_MAX:
                    date_el, date = el, text
                    break
    return author_el, author, date_el, date


def add(post: Any) -> bool:
    """Put the post's author and date line at its start; whether there was one."""
    from lxml import etree

    author_el, author, date_el, date = _find(post)
    if author_el is not None and date_el is not None:
        if date_el in author_el.iterdescendants():
            author = author.replace(date, "").strip()
        elif author_el in date_el.iterdescendants():
            date = date.replace(author, "").strip()
    parts = [p for p in (author, date) if p]
    if not parts:
        return False
    for el in (author_el, date_el):
        if el is not None and el.getparent() is not None:
            drop(el)
    line = etree.Element("p")
    line.text = ", ".join(parts)
    post.insert(0, line)
    return True
