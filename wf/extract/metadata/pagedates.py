"""The publication date as the page shows it, when no declaration gave one.

Sources, in order, the first with a date winning:

1. markup that names the date: microdata ``itemprop=datePublished``, ``<time>``, data-*
   attributes (``data-date``, ``data-published``, ``data-timestamp``, ...), and elements
   whose class or id names a date (``post-date``, ``dateline``, ``published``), a
   publication date before any other;
2. the lines around the page's ``<h1>``, where a byline's date is written;
3. the page's own data in scripts (``"publishedDate": "..."``, as frameworks ship it).

Guards: a date inside comments, related articles, sidebars or navigation is not the
page's; a date labelled "updated" counts only when no other is found; copyright lines
and dates before 1990 or after tomorrow are never taken. Every step reads a bounded
number of elements and characters.
"""

from __future__ import annotations

import re
from typing import Any

from common.xpath import text_upto
from wf.extract.metadata.dates import epoch_date, iso_date, text_date
from wf.extract.metadata.tuning import (
    DATE_ATTR_WORDS,
    DATE_CLASS_WORDS,
    DAYFIRST_ENGLISH,
    MAX_DATE_ELEMENTS,
    MAX_DATE_TEXT,
    MAX_HEADER_SCAN,
    MAX_SCRIPT_SCAN,
    NOT_DATE_AREA,
    PUBLISHED_WORDS,
    SCRIPT_DATE_KEYS,
    UPDATED_WORDS,
)

_WORDS = re.compile(r"[^\W_]+")
_PUBLISHED = re.compile("|".join(PUBLISHED_WORDS), re.IGNORECASE)
_UPDATED = re.compile("|".join(UPDATED_WORDS), re.IGNORECASE)
_COPYRIGHT = re.compile(r"©|\(c\)|copyright", re.IGNORECASE)
# After a key: "publishedDate": "...", publishedDate:"..." and \"publishedDate\":\"...\".
_SCRIPT_VALUE = re.compile(r"""\\?["']?\s*:\s*\\?["']([^"'\\]{8,40})""")
_NOT_PAGE_OBJECT = re.compile(r"review|comment", re.IGNORECASE)
MAX_SCRIPT_MATCHES = 20
REVIEW_WINDOW = 1_000  # characters before a key searched for "review" or "comment"


def _contains(words: tuple[str, ...], what: str) -> str:
    return " or ".join(f"contains({what}, '{w}')" for w in words)


def _branch(name: str, words: tuple[str, ...]) -> str:
    """The search for the attributes ``name`` that hold one of ``words``; none for none."""
    return f"|//*/@{name}[{_contains(words, 'string()')}]" if words else ""


# One step per attribute kind, in a union (document order), as byline.py does: faster
# in libxml2 than one walk testing each attribute's name. Values read as string() on
# elements' attributes, as byline.py reads them: the same nodes.
_MARKED = (
    "//*/@itemprop[contains(string(), 'datePublished') or contains(string(), 'dateCreated')]"
    "|//time"
    f"|//*/@*[starts-with(name(), 'data-') and ({_contains(DATE_ATTR_WORDS, 'name()')})]"
)
_CANDIDATES = _MARKED + _branch("class", DATE_CLASS_WORDS) + _branch("id", DATE_CLASS_WORDS)


def candidates(body: Any, large: bool = False) -> str:
    """_CANDIDATES, its class and id branches searching only for the words of
    DATE_CLASS_WORDS that the page's class (id) values hold (none: no branch). Each word
    costs libxml2 a copy of every value, ten of them on a page that names no date, where
    all the values joined (in C, once) cost one: the same nodes, for under half the
    search's cost (as wf.extract.unseen.parts does for the cleaning's words). A ``large`` page
    (over unseen.CLASS_SCAN_MAX characters) searches for every word: the join would add
    twice its values' size to the peak."""
    if large:
        return _CANDIDATES
    from common.xpath import held_words

    search = _MARKED
    for name in ("class", "id"):
        search += _branch(name, held_words(body, name, DATE_CLASS_WORDS))
    return search


_AROUND_H1 = (
    f"(preceding::text()[position() <= 8]|following::text()[position() <= {MAX_HEADER_SCAN}])"
    "[not(ancestor::script or ancestor::style)]"
)
_TAKEN = ("script", "style", "meta", "link", "head", "body", "html")


class _Found:
    """The best date so far: published before unlabelled before updated, then the first."""

    def __init__(self) -> None:
        self.best: tuple[int, int, str] | None = None
        self.seen = 0

    def offer(self, date: str | None, rank: int) -> None:
        if date is None:
            return
        self.seen += 1
        if self.best is None or rank < self.best[0]:
            self.best = (rank, self.seen, date)

    @property
    def date(self) -> str | None:
        return self.best[2] if self.best else None


def visible_date(root: Any, body: Any, lang: str | None = None, large: bool = False) -> str | None:
    """The date the page shows, or None (see the module's docstring). ``large``: the
    page is over unseen.CLASS_SCAN_MAX characters (see candidates)."""
    tag = (lang or "en").lower().replace("_", "-")
    dayfirst = tag.split("-")[0] != "en" or tag in DAYFIRST_ENGLISH
    found = _Found()
    _marked(body, found, dayfirst, large)
    if found.best is not None and found.best[0] < 2:
        return found.date
    heading = _around_heading(body, dayfirst)
    if heading is not None:
        return heading
    return found.date or _script_date(root)


def _marked(body: Any, found: _Found, dayfirst: bool, large: bool) -> None:
    """Offer every date the markup names, within the first MAX_DATE_ELEMENTS."""
    from common.xpath import union

    looked = 0
    for node in union(body, candidates(body, large)):
        el = node if hasattr(node, "tag") else node.getparent()
        if el is None or not isinstance(el.tag, str) or el.tag in _TAKEN:
            continue
        looked += 1
        if looked > MAX_DATE_ELEMENTS:
            break
        if in_other_area(el):
            continue
        name = "" if el is node else str(node.attrname)
        value = str(node) if el is not node and name.startswith(("data-", "datetime")) else None
        # An itemprop's words (datePublished, dateCreated) are its label; its date is in
        # the element's own attributes or text, so ``value`` stays None for it.
        label = f"{name} {str(node) if name == 'itemprop' else ''} {el.get('class') or ''}"
        label += f" {el.get('id') or ''}"
        date, text = _date_of(el, value, dayfirst)
        if date is None:
            continue
        rank = _rank(label, text, el)
        found.offer(date, rank)


def _date_of(el: Any, value: str | None, dayfirst: bool) -> tuple[str | None, str]:
    """The date in an attribute's ``value``, else in the element's own date attributes or
    text; with the text read (for its labels)."""
    if value is not None:
        return (iso_date(value) or epoch_date(value) or text_date(value, dayfirst=dayfirst)), ""
    for attr in ("datetime", "content", "title"):
        own = el.get(attr)
        if own:
            date = iso_date(own) or text_date(own, dayfirst=dayfirst)
            if date:
                return date, ""
    text = _short_text(el)
    if text is None or _COPYRIGHT.search(text):
        return None, ""
    return text_date(text, dayfirst=dayfirst), text


def _rank(label: str, text: str, el: Any) -> int:
    """0 for a date the markup calls the publication's, 1 for a plain one, 2 for an update."""
    if _UPDATED.search(label) or (text and _label_before_date(text) == "updated"):
        return 2
    if (
        _PUBLISHED.search(label)
        or el.get("pubdate") is not None
        or (text and _label_before_date(text) == "published")
    ):
        return 0
    return 1


def _label_before_date(text: str) -> str | None:
    """ "updated" when the text calls its first date an update, "published" when it calls
    it the publication, else None."""
    head = text[:40]
    updated, published = _UPDATED.search(head), _PUBLISHED.search(head)
    if updated and (published is None or updated.start() < published.start()):
        return "updated"
    return "published" if published else None


def _short_text(el: Any) -> str | None:
    """The element's text, or None when it is longer than a dateline can be."""
    pieces, over = text_upto(el, MAX_DATE_TEXT)
    return None if over else " ".join(" ".join(pieces).split())


def in_other_area(el: Any) -> bool:
    """True inside comments, related articles, sidebars, navigation: not the page's date."""
    for depth, anc in enumerate(el.iterancestors()):
        if depth > 30 or anc.tag == "body":
            break
        if anc.tag == "nav":
            return True
        names = f"{anc.get('class') or ''} {anc.get('id') or ''}"
        if names.strip():
            words = _WORDS.findall(names.lower())
            if "main" not in words and any(w.startswith(NOT_DATE_AREA) for w in words):
                return True
    return False


def _around_heading(body: Any, dayfirst: bool) -> str | None:
    """The first date in the short texts just before and after the first <h1>."""
    h1 = body.find(".//h1")
    if h1 is None:
        return None
    from common.xpath import compiled

    fallback = None
    for node in compiled(_AROUND_H1)(h1):
        text = str(node).strip()
        if not text or len(text) > MAX_DATE_TEXT or _COPYRIGHT.search(text):
            continue
        date = text_date(text, dayfirst=dayfirst)
        if date is None:
            continue
        if _label_before_date(text) == "updated":
            fallback = fallback or date
            continue
        return date
    return fallback


def _script_date(root: Any) -> str | None:
    """The first publication date under a known key in the page's inline scripts. The
    keys are found by plain substring search (fast over megabytes of script), the value
    read by a regex anchored after the key."""
    budget = MAX_SCRIPT_SCAN
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() == "application/ld+json":
            continue
        source = (script.text or "")[:budget]
        budget -= len(source)
        if source:
            date = _keyed_date(source)
            if date is not None:
                return date
        if budget <= 0:
            break
    return None


def _keyed_date(source: str) -> str | None:
    """The first date value under one of SCRIPT_DATE_KEYS in ``source``."""
    hits: list[int] = []
    for key in SCRIPT_DATE_KEYS:
        start = 0
        while len(hits) < 4 * MAX_SCRIPT_MATCHES:
            at = source.find(key, start)
            if at < 0:
                break
            hits.append(at + len(key))
            start = at + len(key)
    for end in sorted(hits)[:MAX_SCRIPT_MATCHES]:
        match = _SCRIPT_VALUE.match(source, end)
        # A review's or a comment's date, in the object around the key, is theirs.
        if match is None or _NOT_PAGE_OBJECT.search(source, max(0, end - REVIEW_WINDOW), end):
            continue
        date = iso_date(match.group(1))
        if date and text_date(date[:10]):
            return date
    return None
