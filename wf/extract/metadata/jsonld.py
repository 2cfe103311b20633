"""JSON-LD (schema.org): the page's main entity (an article, product, recipe, ... found
in arrays, ``@graph`` and ``mainEntity``) before the page entity (WebPage), with the
site's name from WebSite or the publisher.

A page is written by anyone: a script is parsed only up to a size (a bigger one is
skipped whole; cut JSON is broken anyway) and the walk is bounded in nodes and depth."""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Iterator
from typing import Any

from wf.extract.metadata.dates import iso_date
from wf.extract.metadata.tuning import (
    ARTICLE_SUFFIXES,
    CONTENT_TYPES,
    MAX_DEPTH,
    MAX_JSONLD_CHARS,
    MAX_JSONLD_SCRIPTS,
    MAX_JSONLD_TOTAL,
    MAX_NODES,
    MEDIA,
    ORG_TYPES,
    PAGE_TYPES,
    PARTS,
    SITE_TYPES,
)

Metadata = dict[str, str | None]

_SPACE = re.compile(r"\s+")
_TAG = re.compile(r"<[^>]*>")
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_WRAPPER_START = re.compile(r"^\s*(?:(?:/\*|//)?\s*(?:<!\[CDATA\[|<!--)\s*(?:\*/)?\s*)+")
_WRAPPER_END = re.compile(r"(?:\s*(?:/\*|//)?\s*(?:\]\]>|-->)\s*(?:\*/)?)+\s*$")


class Page:
    """What the page says of itself outside JSON-LD: its titles and its URLs. A JSON-LD
    entity can be about another page (a related post, an embedded video): these tell."""

    def __init__(
        self, title: str | None, metas: dict[str, str], links: dict[str, str], url: str | None
    ) -> None:
        self.title = title
        self.titles = [t.casefold() for t in (title, metas.get("og:title")) if t]
        declared = [links.get("canonical"), metas.get("og:url")]
        self.declared = {identity(u, url) for u in declared if u} - {None}
        self.urls = self.declared | ({identity(url, None)} - {None})

    def about(self, obj: dict[str, Any], base: str | None = None) -> bool | None:
        """True when ``obj`` is about this page (its URL or its title is the page's),
        False when it names another URL while the page declares its own, else None."""
        for key in ("headline", "name"):
            title = text(obj.get(key))
            if title and any(title.casefold() in t or t in title.casefold() for t in self.titles):
                return True
        entity = obj.get("mainEntityOfPage")
        if isinstance(entity, dict):
            entity = entity.get("@id") or entity.get("url")
        named = {identity(u, base) for u in (obj.get("url"), obj.get("@id"), entity)} - {None}
        if named & self.urls:
            return True
        if named and self.declared:
            return False
        return None


def identity(url: Any, base: str | None) -> str | None:
    """An http(s) URL reduced to host and path (no www., query, fragment or final /)."""
    if not isinstance(url, str) or not url.strip():
        return None
    from urllib.parse import urljoin, urlsplit

    try:
        parts = urlsplit(urljoin(base, url.strip()) if base else url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.removeprefix("www.")
    return f"{host}{parts.path.rstrip('/')}"


def objects_of(root: Any) -> list[dict[str, Any]]:
    """Every JSON-LD object with an @type on the page, within the limits."""
    budget = MAX_JSONLD_TOTAL
    objects: list[dict[str, Any]] = []
    scripts = 0
    for script in root.iter("script"):
        kind = (script.get("type") or "").strip().lower()
        if kind != "application/ld+json":
            continue
        scripts += 1
        if scripts > MAX_JSONLD_SCRIPTS:
            break
        source = script.text or ""
        if len(source) > MAX_JSONLD_CHARS or len(source) > budget:
            continue
        budget -= len(source)
        # Without the wrapper some pages put around it (<![CDATA[ ]]>, <!-- -->, /* */),
        # looked for at the ends only: a search through a big script costs.
        source = source.strip()
        if source[:1] not in "{[":
            source = _WRAPPER_START.sub("", source, count=1)
        if source[-1:] not in "}]":
            source = source[:-64] + _WRAPPER_END.sub("", source[-64:], count=1)
        data = _loads(source)
        if data is None:
            continue
        objects.extend(_entities(data))
    return objects


def read(root: Any, found: Metadata, page: Page) -> None:
    """Fill ``found`` from the page's JSON-LD."""
    objects = objects_of(root)
    if not objects:
        return
    page_title = page.title
    named = _by_id(objects)
    main = _pick(objects, page)
    if main is not None:
        _fill_from_entity(main, found, page_title, named=named)
        found["type"] = found["type"] or _kind(main)
    for obj in objects:
        types = _types(obj)
        if types & PAGE_TYPES:
            _fill_from_entity(obj, found, page_title, title=main is None, named=named)
        elif types & SITE_TYPES and found["sitename"] is None:
            found["sitename"] = text(obj.get("name"))
    if found["sitename"] is None:
        for obj in objects:
            if _types(obj) & ORG_TYPES:
                found["sitename"] = text(obj.get("name"))
                break


def _by_id(objects: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The objects that have a name, by their @id: an author is often a reference
    (``"author": {"@id": "...#/schema/person/1"}``) to a Person elsewhere in the graph."""
    named: dict[str, dict[str, Any]] = {}
    for obj in objects:
        key = obj.get("@id")
        if isinstance(key, str) and key not in named and obj.get("name"):
            named[key] = obj
    return named


def _loads(source: str) -> Any:
    """The JSON value of ``source``, or None. strict=False takes raw tabs and line ends
    inside strings, as pages write them; a second try drops trailing commas, the other
    common slip of hand-made JSON-LD."""
    for attempt in (source, None):
        if attempt is None:
            attempt = _TRAILING_COMMA.sub(r"\1", source)
            if attempt == source:
                return None
        try:
            return json.loads(attempt, strict=False)
        except (ValueError, RecursionError):
            continue
    return None


def _entities(data: Any) -> Iterator[dict[str, Any]]:
    """Every object with an @type in ``data``, through arrays, @graph and mainEntity,
    within MAX_NODES and MAX_DEPTH."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    seen = 0
    while stack and seen < MAX_NODES:
        item, depth = stack.pop()
        seen += 1
        if depth > MAX_DEPTH:
            continue
        if isinstance(item, list):
            stack.extend((x, depth + 1) for x in reversed(item))
        elif isinstance(item, dict):
            if "@type" in item:
                yield item
            for key in ("@graph", "mainEntity", "itemListElement"):
                inner = item.get(key)
                if isinstance(inner, list | dict):
                    stack.append((inner, depth + 1))


def _types(obj: dict[str, Any]) -> set[str]:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {k.strip().lower() for k in kinds if isinstance(k, str)}


def _kind(obj: dict[str, Any]) -> str | None:
    return kind_of(_types(obj))


def kind_of(types: set[str]) -> str | None:
    """What schema.org types (in lower case) say the page is about: article for any
    article or posting, recipe, product, ...; None when none of them is content."""
    for kind in sorted(types):
        if kind in CONTENT_TYPES:
            return CONTENT_TYPES[kind]
        if kind.endswith(ARTICLE_SUFFIXES):
            return "article"
    return None


_KINDS = frozenset(CONTENT_TYPES.values())


def names_content(value: str) -> bool:
    """Whether a page's metadata type names its content: a kind JSON-LD's type gave
    (kind_of: "video", "job"), a schema.org type, or an og:type of such a kind
    ("video.other", "product.item"); not "website"."""
    return value.partition(".")[0] in _KINDS or kind_of({value}) is not None


def _pick(objects: list[dict[str, Any]], page: Page) -> dict[str, Any] | None:
    """The page's main entity: an article, else another content type (a product, a
    recipe), one shown to be about this page first. One about another page is never
    taken, nor a video or audio object or a part of a page (an FAQ's question) that is
    not shown to be the page's own (an embedded clip is not what an article page is)."""
    best: tuple[int, int] | None = None
    chosen = None
    for obj in objects:
        kind = _kind(obj)
        if kind is None:
            continue
        about = page.about(obj)
        if about is False or (about is None and (kind in MEDIA or _types(obj) & PARTS)):
            continue
        rank = (0 if about else 1, 0 if kind == "article" else 1)
        if best is None or rank < best:
            best, chosen = rank, obj
    return chosen


def _fill_from_entity(
    obj: dict[str, Any],
    found: Metadata,
    page_title: str | None,
    *,
    title: bool = True,
    named: dict[str, dict[str, Any]] | None = None,
) -> None:
    def put(key: str, value: str | None) -> None:
        if found[key] is None and value:
            if key in ("date", "modified") and not iso_date(value):
                return  # not a date we can write as ISO 8601: a later source may have one
            found[key] = value

    publisher = obj.get("publisher")
    if isinstance(publisher, list):
        publisher = publisher[0] if publisher else None
    site = text(publisher.get("name")) if isinstance(publisher, dict) else None
    headline = _title(obj, page_title) if title else None
    if headline and not (site and headline.casefold() == site.casefold()):
        put("title", headline)  # an entity named after its publisher names no page
    put("author", people(obj.get("author"), named) or people(obj.get("creator"), named))
    put("date", text(obj.get("datePublished")) or text(obj.get("dateCreated")))
    put("modified", text(obj.get("dateModified")))
    put("description", text(obj.get("description")))
    put("image", _url_of(obj.get("image")) or _url_of(obj.get("thumbnailUrl")))
    put("lang", text(obj.get("inLanguage")))
    put("sitename", site)
    part = obj.get("isPartOf")
    if isinstance(part, dict) and _types(part) & SITE_TYPES:
        put("sitename", text(part.get("name")))


def _title(obj: dict[str, Any], page_title: str | None) -> str | None:
    """headline, or name when only name is in the page's <title>: some sites put a
    summary in headline (a wiki's short description)."""
    headline, name = text(obj.get("headline")), text(obj.get("name"))
    if headline and name and headline != name and page_title:
        seen = page_title.casefold()
        if name.casefold() in seen and headline.casefold() not in seen:
            return name
    return headline or name


def text(value: Any) -> str | None:
    """A string value (the first of a list; an object's name or @value), entities decoded."""
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value")
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    if "&" in value:
        value = html_lib.unescape(value)
        if "&" in value:  # escaped twice, as some publishing plugins write a headline
            value = html_lib.unescape(value)
    if "<" in value:
        value = _TAG.sub(" ", value)
    return _SPACE.sub(" ", value).strip() or None


def people(value: Any, named: dict[str, dict[str, Any]] | None = None) -> str | None:
    """Author names: a string, a Person (or a reference to one by its @id), or a list of
    either, joined with commas."""
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items[:10]:
        if isinstance(item, dict) and not item.get("name") and named:
            item = named.get(str(item.get("@id")), item)
        name = text(item)
        if name and not is_url(name) and name not in names:
            names.append(name)
    return ", ".join(names) or None


def _url_of(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl") or value.get("@id")
    return (value.strip() or None) if isinstance(value, str) else None


def is_url(value: str) -> bool:
    return value.startswith(("http://", "https://", "//", "www."))
