"""The author as a reader sees it: a byline (``rel=author``, ``itemprop=author``, a class
or id naming the author or byline), read within a bounded number of candidates."""

from __future__ import annotations

import re
from typing import Any

from wf.extract.metadata.tuning import (
    AUTHOR_PATHS,
    BOARD_POST_WORDS,
    BY_WORDS,
    BYLINE_CHARS,
    BYLINE_DATE_LANGUAGES,
    BYLINE_LABELS,
    BYLINE_ROLE_WORDS,
    BYLINE_ROLES,
    BYLINE_WEEKDAY_NAMES,
    BYLINE_WEEKDAYS,
    BYLINE_WEEKDAYS_MARKED,
    BYLINE_WORDS,
    MAX_BYLINES,
    MAX_HEADER_SCAN,
)

_SPACE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r" ([,.;:!?)])")
_WORD = re.compile(r"[^\W\d_]{2}")
# "author" but not "authorization" or "authority".
_BYLINE_CLASS = re.compile(r"byline|author(?!i[tz])|writtenby", re.IGNORECASE)
_NOT_BYLINE = re.compile(
    r"avatar|image|photo|bio|box|comment|social|share|follow|more|img|pic", re.IGNORECASE
)
# A date after the name in one byline element: "May 20, 2019", "20. Mai 2019", "20/05/2019".
_TRAILING_DATE = re.compile(
    r"[\s,|·•-]+(?:[^\W\d_]+\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}\.? [^\W\d_]+\.? \d{4}"
    r"|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}).*$"
)
BY_PREFIX = re.compile(rf"^(?:{'|'.join(BY_WORDS)})\s*[:\-]?\s+", re.IGNORECASE)
# A byline once its date went (phpBB's "Post by ann » Mon Jan 01, 2024", "Ann Lee, Sun
# May 2"): the mark before the date and the weekday that headed it, or the weekday alone
# (a byline of only the date), in other languages after a mark and a date only; "Post" before "by"
# (BOARD_POST_WORDS), the post icon's words for screen readers. A name's last word is no
# weekday without a mark before it ("Lee Sun").
_BOARD_TAIL = re.compile(
    rf"(?:^|\s*[,|·•»]\s*)(?:(?:{'|'.join(BYLINE_WEEKDAYS)})\.?,?)?\s*$", re.IGNORECASE
)
_MARKED_DAY = re.compile(
    rf"\s*[,|·•»]\s*(?:{'|'.join(BYLINE_WEEKDAYS_MARKED)})\.?,?\s*$", re.IGNORECASE
)
_POST_BY = re.compile(
    rf"^(?:{'|'.join(BOARD_POST_WORDS)})\s+(?=(?:{'|'.join(BY_WORDS)})\b)", re.IGNORECASE
)
# A day written with a period ("1. Jan 2024"), a date's words, and each language's
# weekdays and months (BYLINE_DATE_LANGUAGES).
_DAY_DOT = re.compile(r"\b\d{1,2}\.")
_LETTERS = re.compile(r"[^\W\d_]+")
_DATE_LANGUAGES = [
    (frozenset(days.split()), frozenset(months.split()), dotted)
    for days, months, dotted in BYLINE_DATE_LANGUAGES
]
# _TRAILING_DATE without what follows the date: the words and dots of a time or a note
# after it ("10.30", "updated 3 days ago") say nothing of the date's language.
assert _TRAILING_DATE.pattern.endswith(".*$")  # the tail _DATE_ONLY goes without
_DATE_ONLY = re.compile(_TRAILING_DATE.pattern.removesuffix(".*$"))
# The verb that headed the date ("ann Posted January 1, 2024", "Ann Lee Published May 2"):
# once the date went, no part of the name.
_DATED = re.compile(r"\s+(?:posted|published|updated)(?:\s+on)?\s*$", re.IGNORECASE)

# One step per attribute, in a union (document order): several times faster in libxml2
# than one predicate over every element. "uthor" and "yline" match either case. Each
# attribute is read as string(), not "." (a node set around it first), on elements
# (//*/@x: //@x asks each text node too): the same attributes, a fifth sooner.
_BYLINE_XPATH = (
    "//*/@class[contains(string(), 'uthor') or contains(string(), 'yline')]"
    "|//*/@id[contains(string(), 'uthor') or contains(string(), 'yline')]"
    "|//*/@rel[contains(string(), 'author')]|//*/@itemprop[contains(string(), 'author')]"
)


def author(body: Any, url: str | None = None) -> str | None:
    """The first byline's name within the first candidates (a byline is near the top,
    and a hostile page can have thousands of nested ones), else the first link to an
    author's page outside comments, related lists and sidebars."""
    from common.xpath import union

    for attr in union(body, _BYLINE_XPATH)[:MAX_BYLINES]:
        name = name_in(attr.getparent())
        if name:
            return name
    return _author_link(body, url) or _by_near_heading(body)


def _author_link(body: Any, url: str | None) -> str | None:
    from urllib.parse import urlsplit

    from common.xpath import compiled
    from wf.extract.metadata.pagedates import in_other_area

    try:
        site = (urlsplit(url).hostname or "").removeprefix("www.") if url else ""
    except ValueError:
        site = ""
    for href in compiled(_AUTHOR_LINK_XPATH)(body)[:MAX_BYLINES]:
        link = href.getparent()
        if link.tag != "a" or in_other_area(link) or not _same_site(str(href), site):
            continue
        text = _SPACE.sub(" ", "".join(link.itertext())).strip()
        if _NAME.fullmatch(text):
            return text
    return None


# An author's page, as content systems and forums address it.
_AUTHOR_LINK_XPATH = "//a/@href[{}]".format(
    " or ".join(f"contains(string(), '{path}')" for path in AUTHOR_PATHS)
)
# A name as a link shows it: one to five words, no digits, no sentence.
_NAME = re.compile(r"(?=.{2,60}$)[^\W\d_][^\d.!?:;|]*")


# The lines around the page's <h1>, where a byline without markup is written.
_AROUND_H1 = (
    f"(preceding::text()[position() <= 8]|following::text()[position() <= {MAX_HEADER_SCAN}])"
    "[not(ancestor::script or ancestor::style)]"
)
# "By Ann Lee", "Posted by Ann Lee · May 3", "by: Ann Lee, Dec 17, 2025".
_BY_LINE = re.compile(
    rf"^(?:(?:posted|written|words)\s+)?(?:{'|'.join(BY_WORDS)})\b\s*:?(?:\s*([^,|·•]+))?",
    re.IGNORECASE,
)


def _same_site(href: str, site: str) -> bool:
    """True for a link within the page's own site (an author's page there, not a social
    network's profile)."""
    from urllib.parse import urlsplit

    try:
        host = urlsplit(href.strip()).hostname
    except ValueError:
        return False
    if host is None:
        return True  # relative: this site
    host = host.removeprefix("www.")
    return bool(site) and (host == site or host.endswith("." + site) or site.endswith("." + host))


def _by_near_heading(body: Any) -> str | None:
    """The name after "By" in the short texts just around the first <h1>."""
    h1 = body.find(".//h1")
    if h1 is None:
        return None
    from common.xpath import compiled

    waiting = False  # "By" alone: the name is the next text
    for node in compiled(_AROUND_H1)(h1):
        text = _SPACE.sub(" ", str(node)).strip()
        if not text or len(text) > BYLINE_CHARS:
            continue
        if waiting:
            return text if _capitalised(text) else None
        match = _BY_LINE.match(text)
        if match is None:
            continue
        name = (match.group(1) or "").strip()
        if not name:
            waiting = True
            continue
        name = _TRAILING_DATE.sub("", name).strip()
        return name if _capitalised(name) else None
    return None


def _capitalised(text: str) -> bool:
    """A byline's name as it is written: up to five words, no digits or sentence marks,
    each word capitalised but for particles ("Ann van der Berg")."""
    words = text.split()
    return (
        _NAME.fullmatch(text) is not None
        and 0 < len(words) <= 5
        and words[0][:1].isupper()
        and all(w[:1].isupper() or len(w) <= 3 for w in words)
    )


def name_in(el: Any) -> str | None:
    """The name in a byline candidate, or None when it is none."""
    if el.tag in ("meta", "link", "script", "style", "img", "body", "html"):
        return None
    if "author" in (el.get("rel") or "").split() or "author" in (el.get("itemprop") or ""):
        pass  # the markup says so: trust it
    else:
        names = f"{el.get('class') or ''} {el.get('id') or ''}"
        if not _BYLINE_CLASS.search(names) or _NOT_BYLINE.search(names):
            return None
    # A Person in microdata: its name, without the job title or the date beside it.
    inner = el.find(".//*[@itemprop='name']")
    node = inner if inner is not None else el
    pieces = _pieces(node)
    if pieces is None:
        return None
    text, line = pieces
    # A board's card writes the poster's title on the line under the name (MyBB's "ann<br>
    # Junior Member"): the first line, when it holds a name; the lines under it when it is
    # the label that heads one ("Written by<br>Ann Lee", "Author:<br>Ann Lee"), a date or
    # the writer's job ("Staff Writer<br>Ann Lee").
    if line is not None and (_label(line) or _date_alone(line) or _role(line)):
        return _name_of(text[len(line) :])
    return (line is not None and _name_of(line)) or _name_of(text)


def _label(line: str) -> bool:
    """Whether a byline's first line is the label before the name on the next: it ends in
    "by" or its kin (BY_WORDS: "Posted by", "Publié par") or a colon, or it is a word that
    heads a name or a date alone (BYLINE_LABELS: "Posted", "Author")."""
    words = line.split()
    if not words or line.rstrip().endswith(":"):
        return bool(words)
    return words[-1].casefold() in BY_WORDS or " ".join(words).casefold() in BYLINE_LABELS


def _role(line: str) -> bool:
    """Whether a byline's first line is the writer's job, not a name ("Staff Writer",
    "Senior Editor, Health": BYLINE_ROLES, BYLINE_ROLE_WORDS)."""
    words = [w.strip(",.;:()").casefold() for w in line.split()]
    words = [w for w in words if w]
    return (
        0 < len(words) <= 5
        and all(w in BYLINE_ROLE_WORDS for w in words)
        and any(w in BYLINE_ROLES for w in words)
    )


def _pieces(node: Any) -> tuple[str, str | None] | None:
    """A byline's text and its first line, when a <br> ends one after words; None past
    what a byline can hold. Pieces are joined with a space: a byline's name and the date
    or agency beside it are often adjacent elements with no space between ("Ann
    LeeReuters"). Read no further than a byline can be long: the element may hold the
    whole page."""
    from lxml import etree

    pieces: list[str] = []
    size = 0
    line = None
    for event, el in etree.iterwalk(node, events=("start", "end")):
        if event == "start":
            if el.tag == "br" and line is None and "".join(pieces).strip():
                line = " ".join(pieces)
            piece = el.text if isinstance(el.tag, str) else None
        else:
            piece = el.tail if el is not node else None
        if piece:
            pieces.append(piece)
            size += len(piece)
            if size > 4 * BYLINE_CHARS:
                return None
    return " ".join(pieces), line


def _date_alone(line: str) -> bool:
    """Whether a byline's first line is a date and nothing else ("May 2, 2021<br>Ann
    Lee", "Mon Jan 01, 2024<br>ann"): its weekday aside."""
    text = " " + _SPACE.sub(" ", line).strip()  # the date's pattern starts at a space
    undated = _TRAILING_DATE.sub("", text)
    return undated != text and (
        not _BOARD_TAIL.sub("", undated.strip()) or _weekday_of(undated, text)
    )


def _weekday_of(undated: str, text: str) -> bool:
    """Whether what is left of a byline once its date went (``undated``, from ``text``) is
    that date's weekday in another language: a byline of only a date ("Mo 1. Jan 2024",
    "sam. 6 janv. 2024", "lundi 01/01/2024"), not a name before one ("Sam 1. Jan 2024",
    "Sam 5 May 2024", "Sam 01/01/2024")."""
    word = undated.strip().rstrip(".,").casefold()
    found = _DATE_ONLY.match(text, len(undated))  # where _TRAILING_DATE found it
    date = found.group() if found else text[len(undated) :]
    months = {w.casefold() for w in _LETTERS.findall(date)}
    if not months:  # digits alone: no language, and only a word that is no name counts
        return word not in BYLINE_WEEKDAY_NAMES and any(word in d for d, _, _ in _DATE_LANGUAGES)
    dot = bool(_DAY_DOT.search(date))
    for days, words, dotted in _DATE_LANGUAGES:
        # A day written "5." is German's, no other's: "Sam 5. Mai 2024" is a name.
        if word in days and (dotted or not dot) and (dot or months & words):
            return True
    return False


def _name_of(text: str) -> str | None:
    """The name a byline's text gives, without a date, "By" and a board's marks."""
    text = _SPACE.sub(" ", text).strip()
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    if len(text) > BYLINE_CHARS or len(text.split()) > BYLINE_WORDS:
        return None
    undated = _TRAILING_DATE.sub("", text)
    if undated != text:  # "Ann Lee, Sam" names two
        if _weekday_of(undated, text):
            return None
        undated = _MARKED_DAY.sub("", _DATED.sub("", undated))
    text = _BOARD_TAIL.sub("", undated)
    text = BY_PREFIX.sub("", _POST_BY.sub("", text.strip())).strip()
    # A name has a word of two letters or more (initials alone are avatars); "By" alone
    # is the label before a name in the next element.
    if not _WORD.search(text) or text.casefold() in BY_WORDS:
        return None
    return text
