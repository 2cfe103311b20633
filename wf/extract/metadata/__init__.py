"""A page's metadata (title, author, dates, site, language, ...) from its parsed tree.

Read from the tree the extractor already has, before cleaning removes <head>, <meta> and
<script>. Sources, most trusted first, each filling only the keys still unknown:

1. JSON-LD (schema.org, ``jsonld.py``): the main entity (an article, product, recipe, ...)
   before the page entity (WebPage), with the site's name from WebSite or the publisher;
2. OpenGraph and Twitter cards (``og:title``, ``article:published_time``, ...);
3. other <meta> (``author``, Dublin Core, ``date``, ``description``, microdata
   ``itemprop``), ``<html lang>``, ``<link rel=canonical>`` and <title> (``head.py``);
4. what a reader sees: a byline (``byline.py``) and the date the page shows
   (``pagedates.py``); a product's name is its <h1> (``head.heading``), before the
   declared one.

Two keys take their own order: ``canonical_url`` is first ``<link rel=canonical>`` (that is
what the element declares), and ``lang`` is ``<html lang>`` before ``og:locale``.

A page is written by anyone: every reader is bounded (``tuning.py`` holds the limits
beside the word lists and names), and every value leaves under common.text's one-line
policy, capped in length. URLs are resolved against the page's URL and kept only when
http(s).
"""

from __future__ import annotations

from typing import Any

from wf.extract.metadata.tuning import (
    MAX_BYLINES,
    MAX_JSONLD_CHARS,
    MAX_VALUE_CHARS,
    PRODUCT_TYPES,
)

KEYS = (
    "title",
    "author",
    "date",
    "modified",
    "sitename",
    "lang",
    "description",
    "canonical_url",
    "image",
    "type",
)
Metadata = dict[str, str | None]

__all__ = ["KEYS", "MAX_BYLINES", "MAX_JSONLD_CHARS", "MAX_VALUE_CHARS", "Metadata"]
__all__ += ["empty", "extract"]


def empty() -> Metadata:
    """Every key, each unknown."""
    return dict.fromkeys(KEYS)


def extract(
    root: Any, url: str | None, page_title: str | None = None, large: bool = False
) -> Metadata:
    """The metadata of the page whose root element is ``root`` (before cleaning); ``url``
    is what relative URLs resolve against (the page's, or its <base>); ``page_title`` is
    page_head.title_of(root) when the caller has it already. ``large``: the page is over
    unseen.CLASS_SCAN_MAX characters, and its class and id values are not joined to learn
    which words to search them for (pagedates.candidates)."""
    from wf.extract.metadata import byline, head, jsonld, pagedates
    from wf.extract.metadata.dates import url_date

    if page_title is None:
        from wf.extract.page_head import title_of

        page_title = title_of(root)
    found = empty()
    try:
        metas, links = head.head_tags(root)
    except Exception:  # noqa: BLE001 - metadata never costs the page its text
        return empty()
    page = jsonld.Page(page_title, metas, links, url)
    try:
        jsonld.read(root, found, page)
    except Exception:  # noqa: BLE001 - broken JSON-LD costs its keys, never the page
        pass
    try:
        body = root.find("body")
        if body is None:
            body = root
        found["title"] = head.voted_title(found["title"], metas, page_title, body)
        head.from_meta(metas, found)
        head.from_html(root, links, found, page_title)
        found["title"] = head.without_site(found["title"], body)
        if found["author"] is None or found["date"] is None:
            head.from_parsely(metas, found)
        if (found["type"] or "").lower() in PRODUCT_TYPES:
            found["title"] = head.heading(body, found["sitename"]) or found["title"]
        if found["author"] is None:
            found["author"] = byline.author(body, url)
        if found["date"] is None:
            found["date"] = pagedates.visible_date(root, body, found["lang"], large)
        in_url = url_date(links.get("canonical") or metas.get("og:url") or url)
        if in_url is not None and _next_to(found["date"], in_url):
            found["date"] = in_url
        return _finish(found, url)
    except Exception:  # noqa: BLE001 - metadata never costs the page its text
        return empty()


def _next_to(date: str | None, day: str) -> bool:
    """True when ``date`` is unknown, or is a time in UTC that the site's own clock,
    within eight hours of UTC, puts on the address's ``day``: the day a site writes in
    its addresses is its local one, and "2025-12-19T02:41Z" is the evening of the 18th
    in America."""
    from datetime import datetime, timedelta

    from wf.extract.metadata.dates import iso_date

    date = iso_date(date)
    if date is None:
        return True
    if not date.endswith(("Z", "+00:00")):
        return False
    try:
        instant = datetime.fromisoformat(date.removesuffix("Z"))
        local = datetime.fromisoformat(day).date()
    except ValueError:
        return False
    shift = timedelta(hours=8)
    return local != instant.date() and local in ((instant - shift).date(), (instant + shift).date())


def _absolute(value: str | None, base: str | None) -> str | None:
    if not value:
        return None
    from urllib.parse import urljoin, urlsplit

    try:
        full = urljoin(base, value) if base else value
        scheme = urlsplit(full).scheme.lower()
    except ValueError:
        return None
    return full if scheme in ("http", "https") else None


def _finish(found: Metadata, url: str | None) -> Metadata:
    from common.text import cap, one_line
    from wf.extract.metadata.byline import BY_PREFIX
    from wf.extract.metadata.dates import iso_date

    if found["author"]:
        found["author"] = BY_PREFIX.sub("", found["author"].strip()) or None
    found["date"] = iso_date(found["date"])
    found["modified"] = iso_date(found["modified"])
    for key in ("canonical_url", "image"):
        found[key] = _absolute(found[key], url)
    if found["type"]:
        found["type"] = found["type"].lower()
    out = empty()
    for key in KEYS:
        out[key] = cap(one_line(found[key]), MAX_VALUE_CHARS) or None
    return out
