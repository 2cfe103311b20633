"""The author as a reader sees it: a byline (``rel=author``, ``itemprop=author``, a class
or id naming the author or byline), read within a bounded number of candidates."""

from __future__ import annotations

import re
from typing import Any

from wf.extract.metadata.tuning import BY_WORDS, BYLINE_CHARS, BYLINE_WORDS, MAX_BYLINES

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

# One step per attribute, in a union (document order): several times faster in libxml2
# than one predicate over every element. "uthor" and "yline" match either case.
_BYLINE_XPATH = (
    "//@class[contains(., 'uthor') or contains(., 'yline')]"
    "|//@id[contains(., 'uthor') or contains(., 'yline')]"
    "|//@rel[contains(., 'author')]|//@itemprop[contains(., 'author')]"
)


def author(body: Any) -> str | None:
    """The first byline's name within the first candidates: a byline is near the top,
    and a hostile page can have thousands of nested ones."""
    from common.xpath import compiled

    for attr in compiled(_BYLINE_XPATH)(body)[:MAX_BYLINES]:
        name = name_in(attr.getparent())
        if name:
            return name
    return None


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
    # Pieces joined with a space: a byline's name and the date or agency beside it are
    # often adjacent elements with no space between ("Ann LeeReuters"). Read no further
    # than a byline can be long: the element may hold the whole page.
    pieces: list[str] = []
    size = 0
    for piece in node.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > 4 * BYLINE_CHARS:
            return None
    text = _SPACE.sub(" ", " ".join(pieces)).strip()
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    if len(text) > BYLINE_CHARS or len(text.split()) > BYLINE_WORDS:
        return None
    text = BY_PREFIX.sub("", _TRAILING_DATE.sub("", text)).strip()
    # A name has a word of two letters or more (initials alone are avatars).
    if not _WORD.search(text):
        return None
    return text
