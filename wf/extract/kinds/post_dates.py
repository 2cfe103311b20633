"""The date of a thread's post, as byline.py puts it in the post's line: its first <time>
that shows one, else the box named for a date nearest the author's (tuning.POST_DATE),
else the end of a box named for the author after a separator ("by ann » Tue Aug 27, 2019"),
else a short box whose text is a date alone, else the ISO date a box keeps in its title,
else the microdata's or an empty <time>'s value; none in a note of an edit, none in a quote
(vBulletin's "Originally Posted by ann" in a box named for the posting is the quoted post's).
Moved from byline.py, which was at the 500-line limit; `whole_date` is what every kind reads
as a date and nothing else."""

from __future__ import annotations

import re
from itertools import chain, islice
from typing import Any

from wf.extract import tuning
from wf.extract.kinds import posts_tuning
from wf.extract.kinds.spaced import spaced
from wf.extract.kinds.stamps import iso_title

_DATE = re.compile(tuning.POST_DATE, re.IGNORECASE)
_AUTHOR = re.compile(tuning.POST_AUTHOR, re.IGNORECASE)
_QUOTE = re.compile(tuning.POST_QUOTE, re.IGNORECASE)


def line_text(el: Any) -> str:
    """An element's text on one line, its white space collapsed."""
    return " ".join("".join(el.itertext()).split())


def names_of(el: Any) -> str:
    """An element's names: class, id and itemprop."""
    return f"{el.get('class') or ''} {el.get('id') or ''} {el.get('itemprop') or ''}"


def props_of(el: Any) -> list[str]:
    """An element's microdata properties, lowercase."""
    prop = el.get("itemprop")
    return prop.lower().split() if prop else []


def _quoted(el: Any) -> bool:
    """Whether a box is in a quote, or is one (itself or the box above it,
    posts_tuning.QUOTE_LEVELS): a date or an attribution there is the quoted post's."""
    boxes = islice(chain((el,), el.iterancestors()), posts_tuning.QUOTE_LEVELS)
    return any(b.tag == "blockquote" or _QUOTE.search(b.get("class") or "") for b in boxes)


def _time_text(el: Any) -> str:
    """A <time>'s visible text; the first of its forms when its children show it in
    several (a long date beside "1 yr"): read together they glue the year to the next."""
    kids = [k for k in el if isinstance(k.tag, str) and line_text(k)]
    if len(kids) > 1 and not (el.text or "").strip():
        return line_text(kids[0])
    return line_text(el)


def _depth_with(el: Any, near: Any) -> int:
    """How deep the box that holds both el and near sits: a date in the author's own
    card, not an editor's card beside it."""
    ancestors = list(near.iterancestors())
    for depth, a in enumerate(el.iterancestors()):
        if a in ancestors:
            return -ancestors.index(a)
        if depth > tuning.MARK_SCAN:
            break
    return -len(ancestors)


_WORDS = re.compile(r"[^\W\d_]+")
_DATE_SIGNS = re.compile(r"[\w\s,.:/|-]+")
_DECLARED_DATE = frozenset(("datepublished", "datecreated"))
_DATE_WORDS: frozenset[str] = frozenset()
_ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th)\b", re.IGNORECASE)


def whole_date(text: str) -> bool:
    """Whether a short text is a date and nothing else ("Wed Dec 27, 2023 11:04 am"):
    a month's name, weekdays, clock words (tuning.POST_DATE_WORDS), numbers and their
    separators only."""
    global _DATE_WORDS
    if not text or len(text) > tuning.BYLINE_MAX:
        return False
    from wf.extract.metadata.dates import MONTHS, text_date

    if not _DATE_WORDS:
        _DATE_WORDS = frozenset(MONTHS) | frozenset(tuning.POST_DATE_WORDS)
    if not _DATE_SIGNS.fullmatch(text):  # "#2 2024-08-03": a post's number before it
        return False
    words = _WORDS.findall(text.lower())
    # "30th March 2025": the day's ordinal is read as its number.
    return all(w in _DATE_WORDS for w in words) and text_date(_ORDINAL.sub(r"\1", text)) is not None


# A date's own element: HTML's, and the web components issue trackers show it in.
TIME_TAGS = frozenset(("time", "relative-time", "local-time", "time-ago"))
# Boxes that may hold a post's date and nothing else: a link to the post itself, or the
# cell or line of a board's post header beside its icon ("30th March 2025, 16:26").
DATE_TAGS = frozenset(("a", "span", "td", "div", "p", "small", "dd", "li"))
LEAF_ELEMENTS = 4  # elements at most inside such a box (an icon in its anchor)


def leaf(el: Any) -> bool:
    """Whether el is a box a date may stand alone in: read only when it holds few
    elements, so that no box is read again for each box around it."""
    if el.tag not in DATE_TAGS:
        return False
    return sum(1 for _ in islice(el.iterdescendants(), LEAF_ELEMENTS + 1)) <= LEAF_ELEMENTS


_EDITED = re.compile(tuning.POST_EDITED, re.IGNORECASE)
NOTE_LEVELS = 2  # boxes around a date looked at for a note of edits


def _in_edit_note(el: Any) -> bool:
    """Whether a date is the time of an edit ("Last edited by ann; Feb 17, 2026 at
    <span class=time>9:17 am</span>"), not the post's."""
    for box in islice(el.iterancestors(), NOTE_LEVELS):
        parts, size = [], 0
        for part in box.itertext():  # read no further than a note's length
            parts.append(part)
            size += len(part)
            if size > tuning.EDIT_NOTE_MAX * 2:
                return False
        text = " ".join("".join(parts).split())
        if len(text) > tuning.EDIT_NOTE_MAX:
            break
        if _EDITED.match(text):
            return True
    return False


_SEPARATOR = re.compile(tuning.POST_BYLINE_SEPARATOR)
_BY = re.compile(tuning.POST_BY, re.IGNORECASE)


def split_tail(text: str) -> tuple[str, str] | None:
    """(the author, the date) of a byline that ends in its date after a separator
    ("by ann » Tue Aug 27, 2019 4:08 am": phpBB's), the author's "by" left out; None
    when it does not end so."""
    if len(text) > tuning.BYLINE_MAX:
        return None
    parts = _SEPARATOR.split(text)
    date = parts[-1].strip()
    if len(parts) < 2 or not whole_date(date):
        return None
    return _BY.sub("", " ".join(parts[:-1]).strip()), date


def _elsewhere(el: Any) -> bool:
    """Whether a date is another's: an edit's (_in_edit_note) or the quoted post's, in a
    quote (vBulletin's "Originally Posted by ann" in a box named for the posting)."""
    return _in_edit_note(el) or _quoted(el)


def find_date(own: list[Any], author_el: Any) -> tuple[Any, str]:
    """(date's element, date), none in a note of an edit (_in_edit_note) or a quote: the
    first <time> that shows one; else the box named for a date nearest the author's
    (tuning.POST_DATE); else the end of a box named for the author, after a separator
    (split_tail); else a short box whose text is a date alone (a post's link to itself that
    reads as its time); else the ISO date a short box keeps in its title (stamps.py); else
    the microdata's or an empty <time>'s value, as the page writes it."""
    named: list[Any] = []
    whole = declared = blank = None
    stamp: tuple[Any, str] | None = None
    tail: tuple[Any, str] | None = None
    looked = 0  # boxes named for the author read for a date at their end
    for el in own:
        if not isinstance(el.tag, str) or el is author_el:
            continue
        if el.tag in TIME_TAGS:
            text = _time_text(el)
            if text and len(text) <= tuning.BYLINE_MAX and not _elsewhere(el):
                return el, text
            if not text and blank is None and (el.get("datetime") or "").strip():
                blank = None if _elsewhere(el) else el
            continue
        names = names_of(el)
        if len(named) < tuning.DATE_BOXES and _DATE.search(names):
            text = spaced(el, tuning.BYLINE_MAX)  # "timeline-comment" holds replies
            if text and len(text) <= tuning.BYLINE_MAX and not _elsewhere(el):
                named.append(el)
        elif tail is None and looked < tuning.DATE_BOXES and _AUTHOR.search(names):
            looked += 1
            split = split_tail(line_text(el))
            if split is not None:
                tail = el, split[1]
        elif whole is None and leaf(el) and whole_date(line_text(el)):
            whole = None if _elsewhere(el) else el
        value = iso_title(el) if stamp is None else ""  # first: most boxes have no title
        if value and leaf(el) and 0 < len(line_text(el)) <= tuning.BYLINE_MAX:
            stamp = None if _elsewhere(el) else (el, value)
        if declared is None and el.get("itemprop") and _DECLARED_DATE & set(props_of(el)):
            declared = el
    if named:
        el = named[0]
        if author_el is not None and len(named) > 1:
            el = max(named, key=lambda n: _depth_with(n, author_el))
        return el, spaced(el)
    if tail is not None:
        return tail
    if whole is not None:
        return whole, line_text(whole)
    if stamp is not None:
        return stamp
    for el in (declared, blank):
        if el is not None:
            value = " ".join((el.get("content") or el.get("datetime") or line_text(el)).split())
            if value and len(value) <= tuning.BYLINE_MAX:
                return el, value
    return None, ""


def titled(date_el: Any) -> str:
    """The date a box that shows it as a time ago ("1d", "3 days ago") gives whole in its
    own title, or in that of an element of few inside it; "" when none does."""
    for el in islice(date_el.iter(), LEAF_ELEMENTS + 1):
        title = " ".join((el.get("title") or "").split()) if isinstance(el.tag, str) else ""
        if whole_date(title):
            return title
    return ""
