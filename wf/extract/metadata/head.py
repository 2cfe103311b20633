"""What the page declares outside JSON-LD: <meta> (OpenGraph, Twitter cards, Dublin Core,
``itemprop``, ...), <link>, ``<html lang>``, <title>, and Parse.ly's JSON tag."""

from __future__ import annotations

import json
import re
from typing import Any

from wf.extract.metadata.dates import iso_date
from wf.extract.metadata.jsonld import Metadata, is_url, text
from wf.extract.metadata.tuning import (
    AUTHOR_LABELS,
    MAX_HEADING_CHARS,
    MAX_HEADINGS,
    MAX_PARSELY,
    META,
    PERMALINK_MARKS,
    SITE_NAME_CHARS,
    TITLE_SEPARATORS,
)

_SPACE = re.compile(r"\s+")


def head_tags(root: Any) -> tuple[dict[str, str], dict[str, str]]:
    """{name: content} of the <meta> elements (first of each name wins) and {rel: href}
    of the <link> elements."""
    metas: dict[str, str] = {}
    links: dict[str, str] = {}
    for el in root.iter("meta", "link"):
        if el.tag == "link":
            href = el.get("href")
            for rel in (el.get("rel") or "").lower().split():
                if href and rel not in links:
                    links[rel] = href
            continue
        content = el.get("content")
        if content is None:
            continue
        content = content.strip()
        if not content:
            continue
        for attr in ("property", "name", "itemprop", "http-equiv"):
            value = el.get(attr)
            if value:
                # "og:title twitter:title" names both in one attribute.
                for name in value.lower().split():
                    metas.setdefault(name, content)
    return metas, links


def from_meta(metas: dict[str, str], found: Metadata) -> None:
    if not metas:
        return
    for key, names in META.items():
        if found[key] is not None:
            continue
        for name in names:
            value = metas.get(name)
            if not value:
                continue
            if key == "author" and is_url(value):
                continue  # article:author is often the author's page, not a name
            if key in ("date", "modified") and not iso_date(value):
                continue
            if key == "lang":
                value = value.replace("_", "-")
            found[key] = _SPACE.sub(" ", value).strip()
            break
    if found["author"] is None:
        found["author"] = _labelled_author(metas)


def _labelled_author(metas: dict[str, str]) -> str | None:
    """Twitter's label and data pairs, as SEO plugins write them: ``twitter:label1``
    "Written by" and ``twitter:data1`` the name."""
    for n in range(1, 5):
        label = metas.get(f"twitter:label{n}", "").casefold().strip()
        name = metas.get(f"twitter:data{n}")
        if label in AUTHOR_LABELS and name and not is_url(name):
            return _SPACE.sub(" ", name).strip()
    return None


def from_html(root: Any, links: dict[str, str], found: Metadata, page_title: str | None) -> None:
    canonical = links.get("canonical")
    if canonical:
        found["canonical_url"] = canonical  # the element's own meaning beats og:url
    if found["image"] is None:
        found["image"] = links.get("image_src")
    lang = (
        root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or ""
    ).strip()
    if lang:
        found["lang"] = lang
    if found["title"] is None:
        found["title"] = page_title
    if found["title"]:
        found["title"] = _QUOTED.sub(r"\2", found["title"].strip())


def headings(body: Any, limit: int) -> list[str]:
    """The texts of the first ``limit`` <h1> elements that have one, whitespace
    collapsed."""
    found: list[str] = []
    for el in body.iter("h1"):
        words = _SPACE.sub(" ", "".join(el.itertext())).strip()
        if words:
            found.append(words)
            if len(found) == limit:
                break
    return found


def heading(body: Any, site: str | None) -> str | None:
    """The first <h1> that is not the site's name (a logo), when it is short enough to be
    a name; else None. A shop's JSON-LD and og:title name a product for search engines
    ("Brand Kettle: Fast Boiling 1.7 L ..."); its heading is the name a reader sees."""
    own = _folded(site or "")
    for words in headings(body, MAX_HEADINGS):
        if _folded(words) != own:
            return words if len(words) <= MAX_HEADING_CHARS else None
    return None


def voted_title(
    title: str | None, metas: dict[str, str], page_title: str | None, body: Any
) -> str | None:
    """JSON-LD's ``title``, or og:title when the two name different things and more of
    the others (the <title>, the first two headings) agree with og:title: a headline
    that holds a summary, or an entity about another item, is outvoted by the page."""
    og = metas.get("og:title")
    if not title or not og or _near(title, og):
        return title
    others = [page_title or "", *headings(body, 2)]
    for_title = sum(_near(title, other) for other in others)
    for_og = sum(_near(og, other) for other in others)
    return _SPACE.sub(" ", og).strip() if for_og > for_title else title


def without_site(title: str | None, body: Any) -> str | None:
    """The title without the site's name after it, when one of the page's first two <h1>
    is the part before: "Tutorial - User Guide - FastAPI" under the heading "Tutorial -
    User Guide¶" is "Tutorial - User Guide". Only a heading the title starts with counts:
    one it ends with is as often the site's own (a logo's <h1>, a landing page's
    tagline after its brand) as the page's."""
    if not title:
        return title
    whole = _SPACE.sub(" ", title).strip()
    for words in headings(body, 2):
        own = words.rstrip(PERMALINK_MARKS + " ")
        n = len(own)
        if 0 < n < len(whole) and _folded(whole[:n]) == _folded(own):
            rest = whole[n:]
            for sep in TITLE_SEPARATORS:
                if rest.startswith(sep) and len(rest) - len(sep) <= SITE_NAME_CHARS:
                    return whole[:n]
    return title


# Typographic quotes read as plain ones when two titles are compared.
_QUOTES = str.maketrans("’‘“”", "''\"\"")


def _folded(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold().translate(_QUOTES)


def _near(a: str, b: str) -> bool:
    """True when one title holds the other, case, white space and quotes aside."""
    a, b = _folded(a), _folded(b)
    return bool(a and b and (a in b or b in a))


# A title wholly in quotes ("\"What is Git?\"", as some JSON-LD writes its headline).
_QUOTED = re.compile(r"^([\"“”«'‘])(?!.*[\"“”«»'‘’]\s*\S)(.+?)[\"”“»'’]$")


def from_parsely(metas: dict[str, str], found: Metadata) -> None:
    """Parse.ly's older tag: one <meta name="parsely-page"> holding a JSON object."""
    raw = metas.get("parsely-page")
    if not raw or len(raw) > MAX_PARSELY:
        return
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return
    if not isinstance(data, dict):
        return
    if found["date"] is None and iso_date(text(data.get("pub_date"))):
        found["date"] = text(data.get("pub_date"))
    author = text(data.get("author"))
    if found["author"] is None and author and not is_url(author):
        found["author"] = author
