"""A thread's post begins with one line naming its author and date, where the page shows them. The
author: the box inside the post its microdata declares so (itemprop="author", its name read from
itemprop="name"), else the first named for its author (class, id or itemprop: tuning.POST_AUTHOR),
cut down to the name when it shows counts beside it (the link that heads a card of name, rank and
counts, or a box that holds it); else the name the post's own box carries in an attribute (a web
component's `author`), its first link to a person's page (/profile/), or the short box just before
its date. The date: as post_dates.find_date reads it (its first <time> that shows one, else the
box named for a date nearest the author's, ..., none in a quote); each short (tuning.BYLINE_MAX).
The line is put at
the post's start and the boxes it was read from leave the post, so that the names and dates are not
printed twice. Comments nested in a post that is not itself a comment (a question's comments), and
the thread's replies nested in it, are not looked into: their authors are theirs."""

from __future__ import annotations

import re
from collections.abc import Collection
from itertools import islice
from typing import Any

from wf.extract import tuning
from wf.extract.kinds import heads
from wf.extract.kinds.post_dates import (
    DATE_TAGS,
    find_date,
    leaf,
    split_tail,
    titled,
    whole_date,
)
from wf.extract.kinds.post_dates import line_text as _text
from wf.extract.kinds.post_dates import names_of as _names
from wf.extract.kinds.post_dates import props_of as _props
from wf.extract.kinds.spaced import day_named
from wf.extract.parse import drop

_AUTHOR = re.compile(tuning.POST_AUTHOR, re.IGNORECASE)
_DATE = re.compile(tuning.POST_DATE, re.IGNORECASE)
_COMMENTS = re.compile(r"comment", re.IGNORECASE)
INNER_LEVELS = 6  # boxes named for the author looked into, one inside the other


def _own(post: Any, replies: Collection[Any] = ()) -> list[Any]:
    """The post's elements in page order, without the comments and `replies` nested in it
    (theirs are their authors; a chain of replies read whole for each costs its square)."""
    from lxml import etree

    found = []
    # A post that is a comment names its own parts so (comment-meta, comment-body); so
    # does one whose box only wraps the comment (a post stream's item around it).
    nested = not any(_COMMENTS.search(el.get("class") or "") for el in _wrappers(post))
    walker = etree.iterwalk(post, events=("start",))
    for _, el in walker:
        named = nested and _COMMENTS.search(el.get("class") or "")
        if el is not post and (named or el in replies):
            walker.skip_subtree()
            continue
        found.append(el)
    return found


def _wrappers(post: Any) -> list[Any]:
    """The post's box and the boxes it only wraps: each the one element child of the last
    (a walk down the post's depth, once)."""
    found = [post]
    while True:
        kids = [k for k in found[-1] if isinstance(k.tag, str)]
        if len(kids) != 1:
            return found
        found.append(kids[0])


def _innermost(el: Any, text: str) -> tuple[Any, str]:
    """The innermost box named for the author inside the one found: a user's card is
    named so as a whole (name, rank, counts), its name's link again; a box in it named
    for a time too is the post's date ("user-action-time"), not its author. In a card
    headed by its name's link (_head), only a box that holds the link is looked into:
    others named for the user are its rank, counts or status (a board's user_info list,
    "Logged" for the poster's address). A few levels of a few elements each: a hostile
    page's nesting is not followed down."""
    head = _head(el, text)
    for _ in range(INNER_LEVELS):
        for d in islice(el.iterdescendants(), tuning.MARK_SCAN):
            if isinstance(d.tag, str) and d.tag not in ("time", "img"):
                names = _names(d)
                hit = _AUTHOR.search(names) and not _DATE.search(names)
                inner = _text(d) if hit and _holds(d, head) else ""
                if inner:
                    el, text = d, inner
                    break
        else:
            break
    return el, text


def _head(card: Any, text: str) -> Any:
    """The link a card of the author starts with (after an avatar's initial at most):
    their name's, before rank, badges and counts; None when the card starts otherwise
    (with the post's date). A name as short as an initial is the name when no longer
    link follows it ("cy")."""
    short = None
    for a in islice(card.iter("a"), tuning.MARK_SCAN):
        name = _text(a)
        if len(name) > tuning.AVATAR_INITIAL:
            found = 0 <= text.find(name) <= tuning.AVATAR_INITIAL
            return a if found and len(name) <= tuning.BYLINE_MAX else None
        if short is None and name and text.startswith(name):
            short = a
    return short


def _initial(link: Any) -> bool:
    return len(_text(link)) <= tuning.AVATAR_INITIAL


def _holds(el: Any, link: Any) -> bool:
    """Whether a box holds the link, or is in it (no link: any box)."""
    if link is None or el is link:
        return True
    return any(a is el for a in link.iterancestors()) or any(a is link for a in el.iterancestors())


def _name(box: Any, text: str) -> str:
    """The name in an author's box that shows more (reputation, badges): its microdata
    name, else its first link when the box starts with it (a profile's link, then the
    counts); else the box's text."""
    for el in islice(box.iter(), tuning.MARK_SCAN):
        if isinstance(el.tag, str) and "name" in _props(el):
            value = " ".join((el.get("content") or _text(el)).split())
            if value:
                return value
    link = next((a for a in islice(box.iter("a"), tuning.MARK_SCAN) if _text(a)), None)
    if link is not None and text.startswith(_text(link)):
        return _text(link)
    return text


def _named_author(own: list[Any]) -> tuple[Any, str]:
    """(element, name) of the first box named for the author (tuning.POST_AUTHOR) that is
    short, cut down to the innermost so named; in a long card (rank, badges, counts)
    headed by its name's link (_head), that link, or a box named so that holds it.
    (None, "") when there is none."""
    card, head = None, None
    for el in own:
        if not isinstance(el.tag, str) or el.tag in ("time", "img"):
            continue
        names = _names(el)
        if not _AUTHOR.search(names):
            continue
        text = _text(el)
        # A box named for the user and for a time is the post's date
        # ("user-action-time": answered Jul 7, 2012 at 3:07), not its author.
        if not text or _DATE.search(names):
            continue
        # The card's rank or status, not its name; but a link as short as an initial
        # heads the card as an avatar's letters or a badge ("AN", "OP") when a box named
        # for the author shows a name on its own after it.
        alone = head is not None and _initial(head) and len(el) == 0
        if head is not None and not _holds(el, head) and _holds(card, el) and not alone:
            continue
        if len(text) <= tuning.BYLINE_MAX:
            return _innermost(el, text)
        if card is None:
            card, head = el, _head(el, text)
    if head is not None:
        return head, _text(head)
    return None, ""


def _declared_author(own: list[Any]) -> tuple[Any, str] | None:
    """The post's author as its microdata declares it (itemprop="author"): a card that
    may show the editor's before it is no author of the post."""
    for el in own:
        if isinstance(el.tag, str) and el.get("itemprop") and "author" in _props(el):
            text = _text(el) or el.get("content") or ""
            name = _name(el, text) if text else ""
            if name and len(name) <= tuning.BYLINE_MAX:
                return (el if len(text) <= tuning.BYLINE_MAX else None), name
    return None


_BODY_TAGS = frozenset(("p", "blockquote", "pre", "ul", "ol", "table"))


def _profile_name(own: list[Any]) -> tuple[Any, str]:
    """(element, name) of a post named for no author: the term of the profile a board
    draws as a definition list before the post's body (<dl><dt>ann</dt><dd>Member</dd>
    <dd>Posts: 1</dd></dl>); (None, "") when the post shows none."""
    for el in islice(own, tuning.MARK_SCAN):
        if not isinstance(el.tag, str) or el.tag in _BODY_TAGS:
            break
        if el.tag == "dl":
            term = next((d for d in el if d.tag == "dt"), None)
            text = _text(term) if term is not None else ""
            if text and len(text) <= tuning.BYLINE_MAX:
                return term, text
            break
    return None, ""


def _attribute_author(post: Any, own: list[Any]) -> tuple[Any, str]:
    """(element, name) of a post that names its author in an attribute of its own box
    (tuning.POST_AUTHOR_ATTRIBUTES: a web component's data, `<shreddit-comment
    author="ann">`, or a board's `data-author`), its element the first link in the post
    that shows the name alone (the profile's link, printed once); (None, "") when
    there is none."""
    name = ""
    for attribute in tuning.POST_AUTHOR_ATTRIBUTES:
        name = " ".join((post.get(attribute) or "").split())
        if name:
            break
    if not name or len(name) > tuning.BYLINE_MAX:
        return None, ""
    for el in islice(own, tuning.MARK_SCAN):
        if el.tag == "a" and _text(el) == name:
            return el, name
    return None, name


def _profile_link(own: list[Any]) -> tuple[Any, str]:
    """(element, name) of a post named for no author whose first link to a person's page
    (tuning.POST_PROFILE_PATH: /profile/, /users/, /members/) shows a name, among its first
    elements: Quora's and many a board's byline is such a link and nothing else."""
    for el in islice(own, tuning.MARK_SCAN):
        if el.tag == "a" and heads.profile(el.get("href") or ""):
            text = _text(el)
            if text and len(text) <= tuning.BYLINE_MAX:
                return el, text
    return None, ""


def _name_before(date_el: Any) -> tuple[Any, str]:
    """(element, name) of a post named for no author whose date's box follows a short box
    of text that is no date (<div>Ann B</div><div>28/11/2025 at 7:22 pm</div>: a header
    drawn with generated class names); (None, "") when there is none."""
    prev = date_el.getprevious()
    while prev is not None and not isinstance(prev.tag, str):  # a comment between
        prev = prev.getprevious()
    if prev is None or prev.tag not in DATE_TAGS or not leaf(prev) or prev.tag == "a":
        return None, ""
    text = _text(prev)
    if not text or len(text) > tuning.BYLINE_MAX or whole_date(text):
        return None, ""
    return prev, text


def _find(post: Any, replies: Collection[Any]) -> tuple[Any, str, Any, str]:
    """(author's element, author, date's element, date); elements None when not shown
    (or, for the author, when their box is not theirs alone). `replies`: see add."""
    own = _own(post, replies)
    declared = _declared_author(own)
    author_el, author = declared if declared is not None else (None, "")
    if declared is None:
        author_el, author = _named_author(own)
    if declared is None and author_el is None:
        author_el, author = _profile_name(own)
    if declared is None and author_el is None:
        author_el, author = _attribute_author(post, own)
    if declared is None and author_el is None:
        author_el, author = _profile_link(own)
    if declared is None and author_el is not None:
        split = split_tail(author)  # the author's box ends in the date
        if split is not None and split[0]:
            return author_el, split[0], author_el, split[1]
    date_el, date = find_date(own, author_el)
    if not author and date_el is not None:
        author_el, author = _name_before(date_el)
    # The card's name alone when the date was found outside it (else the card's text is
    # kept whole: it may hold the date).
    if declared is None and author_el is not None and date_el is not None:
        author = author if date_el in author_el.iterdescendants() else _name(author_el, author)
    if date_el is not None and not whole_date(date) and not day_named(date):
        date = titled(date_el) or date
    return author_el, author, date_el, date


_ON = re.compile(tuning.POST_DATE_ON, re.IGNORECASE)


def _header(post: Any, author_el: Any, date_el: Any) -> Any:
    """The line of the post's head that holds both its author and its date, when it is
    short and holds nothing else of words (Reddit's tagline: "[-] ann 5 points 2 years
    ago (2 children)"; a comment's head: "ann on Dec 27 | parent | next"): it leaves with
    them, its counts and links to the thread's other posts with it. None when there is
    no such line (the author and the date apart, or one of them missing)."""
    if author_el is None or date_el is None or author_el is date_el:
        return None
    ancestors = set(author_el.iterancestors())
    common = next((a for a in date_el.iterancestors() if a in ancestors), None)
    if common is None or common is post or common.tag not in _HEADER_TAGS:
        return None
    # A line: inline elements only (a box of boxes may hold a short reply's body).
    if any(c.tag in BLOCK_TAGS for c in islice(common.iterdescendants(), tuning.MARK_SCAN)):
        return None
    return common if len(_text(common)) <= tuning.BYLINE_MAX else None


_HEADER_TAGS = frozenset(("p", "div", "span", "header", "td"))
# Tags that make a box of boxes: a line (a head line, a card's field) holds none of them.
BLOCK_TAGS = frozenset(
    ("div", "p", "ul", "ol", "li", "dl", "dd", "dt", "table", "tr", "td", "th", "section")
    + ("article", "header", "footer", "aside", "nav", "blockquote", "pre", "form", "br")
    + ("h1", "h2", "h3", "h4", "h5", "h6")
)


def add(post: Any, replies: Collection[Any] = ()) -> str | None:
    """Put the post's author and date line at its start, read without the `replies` in it;
    its author ("" when the post shows its date alone), or None when there was no line."""
    from lxml import etree

    author_el, author, date_el, date = _find(post, replies)
    if author_el is not None and date_el is not None:
        if date_el in author_el.iterdescendants():
            author = author.replace(date, "").strip()
        elif author_el in date_el.iterdescendants():
            date = date.replace(author, "").strip()
    parts = [p for p in (author, _ON.sub("", date)) if p]
    if not parts:
        return None
    header = _header(post, author_el, date_el)
    for el in (author_el, date_el) if header is None else (header,):
        if el is not None and el.getparent() is not None:
            drop(el)
    line = etree.Element("p")
    line.text = ", ".join(parts)
    post.insert(0, line)
    return author
