"""A page's metadata (title, author, dates, site, language, ...) from its parsed tree.

Read from the tree the extractor already has, before cleaning removes <head>, <meta> and
<script>. Sources, most trusted first, each filling only the keys still unknown:

1. JSON-LD (schema.org): the main entity (an article, product, recipe, ... found in
   arrays, ``@graph`` and ``mainEntity``) before the page entity (WebPage), with the
   site's name from WebSite or the publisher;
2. OpenGraph and Twitter cards (``og:title``, ``article:published_time``, ...);
3. other <meta> (``author``, Dublin Core, ``date``, ``description``, microdata
   ``itemprop``), ``<html lang>``, ``<link rel=canonical>`` and <title>;
4. what a reader sees: a byline (``rel=author``, ``itemprop=author``, a class or id
   naming the author or byline) and the first ``<time datetime>``.

Two keys take their own order: ``canonical_url`` is first ``<link rel=canonical>`` (that is
what the element declares), and ``lang`` is ``<html lang>`` before ``og:locale``.

A page is written by anyone: JSON-LD is parsed only up to a size (a bigger script is
skipped whole; cut JSON is broken anyway), its walk is bounded in nodes and depth, and
every value leaves under common.text's one-line policy, capped in length. URLs are
resolved against the page's URL and kept only when http(s).
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Iterator
from typing import Any

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

# A JSON-LD script above this many characters is skipped: real ones (with a whole article
# body) stay well under it, and json.loads of a hostile one costs memory and time.
MAX_JSONLD_CHARS = 300_000
MAX_JSONLD_TOTAL = 1_000_000  # over all scripts of a page
MAX_JSONLD_SCRIPTS = 32
MAX_NODES = 5_000  # JSON objects visited per page
MAX_DEPTH = 12
MAX_VALUE_CHARS = 1_000  # per value; a description is a sentence or two
MAX_PARSELY = 10_000  # characters of Parse.ly's JSON tag read at most
BYLINE_CHARS = 100
MAX_BYLINES = (
    50  # candidate elements looked at  # a visible byline longer than this is prose, not a name
)

# schema.org types, lowercased: what the page is about, most specific first.
_ARTICLE_SUFFIXES = ("article", "posting", "blogposting")
_CONTENT_TYPES = {
    "article": "article",
    "report": "article",
    "review": "review",
    "product": "product",
    "productgroup": "product",
    "recipe": "recipe",
    "event": "event",
    "videoobject": "video",
    "audioobject": "audio",
    "podcastepisode": "audio",
    "book": "book",
    "movie": "movie",
    "course": "course",
    "jobposting": "job",
    "howto": "howto",
    "qapage": "qa",
    "faqpage": "faq",
    "question": "qa",
    "dataset": "dataset",
    "softwareapplication": "software",
}
_MEDIA = {"video", "audio"}
_PAGE_TYPES = {
    "webpage",
    "itempage",
    "aboutpage",
    "collectionpage",
    "profilepage",
    "searchresultspage",
    "contactpage",
    "medicalwebpage",
}
_SITE_TYPES = {"website"}
_ORG_TYPES = {"organization", "newsmediaorganization", "corporation", "localbusiness"}

_SPACE = re.compile(r"\s+")
# "author" but not "authorization" or "authority".
_BYLINE_CLASS = re.compile(r"byline|author(?!i[tz])|writtenby", re.IGNORECASE)
_NOT_BYLINE = re.compile(
    r"avatar|image|photo|bio|box|comment|social|share|follow|more|img|pic", re.IGNORECASE
)
BYLINE_WORDS = 12
# A date after the name in one byline element: "May 20, 2019", "20. Mai 2019", "20/05/2019".
_TRAILING_DATE = re.compile(
    r"[\s,|·•-]+(?:[^\W\d_]+\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}\.? [^\W\d_]+\.? \d{4}"
    r"|\d{1,4}[./-]\d{1,2}[./-]\d{1,4}).*$"
)
# "By" and its kin, where no name starts with the word ("Di", "Van" or "Af" may).
_BY_PREFIX = re.compile(r"^(?:by|von|par|por)\s*[:\-]?\s+", re.IGNORECASE)
# ISO 8601 and the year-first forms beside it ("2018/06/18", "2018.06.18"), and the basic
# form with its "T" ("20180619T055000+0900"; eight digits alone could be any number).
_ISO_DATE = re.compile(
    r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?)?"
    r"|(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$"
)
# RFC 2822, as e-mail and HTTP write dates: "Sat, 27 Dec 2014 15:06:00 +0100".
_RFC2822 = re.compile(
    r"\s*(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?"
    r"\s*(?:[+-]\d{4}|[A-Za-z]{1,5})?\s*$"
)
# Month names in the languages most pages here are in (English, German, French), full
# and cut short: "December 27, 2014", "Dec. 27, 2014", "27. Dezember 2014", "27 déc. 2014".
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "january jan januar janvier janv",
            "february feb februar février fevrier févr fevr",
            "march mar märz maerz mär mars",
            "april apr avril avr",
            "may mai",
            "june jun juni juin",
            "july jul juli juillet juil",
            "august aug août aout",
            "september sep sept septembre",
            "october oct oktober okt octobre",
            "november nov novembre",
            "december dec dezember dez décembre decembre déc",
        ),
        start=1,
    )
    for name in names.split()
}
_WORDY_DATE = re.compile(
    r"(?:^|[\s,])(?:([^\W\d_]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})"
    r"|(\d{1,2})\.?\s+([^\W\d_]{3,9})\.?,?\s+(\d{4}))(?!\d)"
)
# A date in a news site's address: /2014/12/27/, /2014-12-27/, /2023-11/17/.
_URL_DATE = re.compile(
    r"/((?:19|20)\d{2})[/-](0?[1-9]|1[0-2])[/-](0?[1-9]|[12]\d|3[01])(?:[/_.-]|$)"
)
_TIMEZONE = re.compile(r"([+-])(\d{2}):?(\d{2})$")


def empty() -> Metadata:
    """Every key, each unknown."""
    return dict.fromkeys(KEYS)


def extract(root: Any, url: str | None, page_title: str | None = None) -> Metadata:
    """The metadata of the page whose root element is ``root`` (before cleaning); ``url``
    is what relative URLs resolve against (the page's, or its <base>); ``page_title`` is
    parse.title_of(root) when the caller has it already."""
    if page_title is None:
        from wf.extract.parse import title_of

        page_title = title_of(root)
    found = empty()
    try:
        metas, links = _head_tags(root)
    except Exception:  # noqa: BLE001 - metadata never costs the page its text
        return empty()
    page = _Page(page_title, metas, links, url)
    try:
        _from_jsonld(root, found, page)
    except Exception:  # noqa: BLE001 - broken JSON-LD costs its keys, never the page
        pass
    try:
        _from_meta(metas, found)
        _from_html(root, links, found, page_title)
        if found["author"] is None or found["date"] is None:
            _from_parsely(metas, found)
        if found["author"] is None or found["date"] is None:
            _from_visible(root, found)
        if found["date"] is None:
            found["date"] = _url_date(links.get("canonical") or metas.get("og:url") or url)
        return _finish(found, url)
    except Exception:  # noqa: BLE001 - metadata never costs the page its text
        return empty()


# --- JSON-LD -------------------------------------------------------------------------


class _Page:
    """What the page says of itself outside JSON-LD: its titles and its URLs. A JSON-LD
    entity can be about another page (a related post, an embedded video): these tell."""

    def __init__(
        self, title: str | None, metas: dict[str, str], links: dict[str, str], url: str | None
    ) -> None:
        self.title = title
        self.titles = [t.casefold() for t in (title, metas.get("og:title")) if t]
        declared = [links.get("canonical"), metas.get("og:url")]
        self.declared = {_identity(u, url) for u in declared if u} - {None}
        self.urls = self.declared | ({_identity(url, None)} - {None})

    def about(self, obj: dict[str, Any], base: str | None = None) -> bool | None:
        """True when ``obj`` is about this page (its URL or its title is the page's),
        False when it names another URL while the page declares its own, else None."""
        for key in ("headline", "name"):
            title = _text(obj.get(key))
            if title and any(title.casefold() in t or t in title.casefold() for t in self.titles):
                return True
        entity = obj.get("mainEntityOfPage")
        if isinstance(entity, dict):
            entity = entity.get("@id") or entity.get("url")
        named = {_identity(u, base) for u in (obj.get("url"), obj.get("@id"), entity)} - {None}
        if named & self.urls:
            return True
        if named and self.declared:
            return False
        return None


def _identity(url: Any, base: str | None) -> str | None:
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


def _from_jsonld(root: Any, found: Metadata, page: _Page) -> None:
    page_title = page.title
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
        text = script.text or ""
        if len(text) > MAX_JSONLD_CHARS or len(text) > budget:
            continue
        budget -= len(text)
        # Without the wrapper some pages put around it (<![CDATA[ ]]>, <!-- -->, /* */),
        # looked for at the ends only: a search through a big script costs.
        text = text.strip()
        if text[:1] not in "{[":
            text = _WRAPPER_START.sub("", text, count=1)
        if text[-1:] not in "}]":
            text = text[:-64] + _WRAPPER_END.sub("", text[-64:], count=1)
        data = _loads(text)
        if data is None:
            continue
        objects.extend(_entities(data))
    if not objects:
        return
    main = _pick(objects, page)
    if main is not None:
        _fill_from_entity(main, found, page_title)
        found["type"] = found["type"] or _kind(main)
    for obj in objects:
        types = _types(obj)
        if types & _PAGE_TYPES:
            _fill_from_entity(obj, found, page_title, title=main is None)
        elif types & _SITE_TYPES and found["sitename"] is None:
            found["sitename"] = _text(obj.get("name"))
    if found["sitename"] is None:
        for obj in objects:
            if _types(obj) & _ORG_TYPES:
                found["sitename"] = _text(obj.get("name"))
                break


def _loads(text: str) -> Any:
    """The JSON value of ``text``, or None. strict=False takes raw tabs and line ends
    inside strings, as pages write them; a second try drops trailing commas, the other
    common slip of hand-made JSON-LD."""
    for attempt in (text, None):
        if attempt is None:
            attempt = _TRAILING_COMMA.sub(r"\1", text)
            if attempt == text:
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
    for kind in sorted(_types(obj)):
        if kind in _CONTENT_TYPES:
            return _CONTENT_TYPES[kind]
        if kind.endswith(_ARTICLE_SUFFIXES):
            return "article"
    return None


def _pick(objects: list[dict[str, Any]], page: _Page) -> dict[str, Any] | None:
    """The page's main entity: an article, else another content type (a product, a
    recipe), one shown to be about this page first. One about another page is never
    taken, nor a video or audio object that is not shown to be the page's own (an
    embedded clip is not what an article page is)."""
    best: tuple[int, int] | None = None
    chosen = None
    for obj in objects:
        kind = _kind(obj)
        if kind is None:
            continue
        about = page.about(obj)
        if about is False or (about is None and kind in _MEDIA):
            continue
        rank = (0 if about else 1, 0 if kind == "article" else 1)
        if best is None or rank < best:
            best, chosen = rank, obj
    return chosen


def _fill_from_entity(
    obj: dict[str, Any], found: Metadata, page_title: str | None, *, title: bool = True
) -> None:
    def put(key: str, value: str | None) -> None:
        if found[key] is None and value:
            if key in ("date", "modified") and not _iso_date(value):
                return  # not a date we can write as ISO 8601: a later source may have one
            found[key] = value

    if title:
        put("title", _title(obj, page_title))
    put("author", _people(obj.get("author")) or _people(obj.get("creator")))
    put("date", _text(obj.get("datePublished")) or _text(obj.get("dateCreated")))
    put("modified", _text(obj.get("dateModified")))
    put("description", _text(obj.get("description")))
    put("image", _url_of(obj.get("image")) or _url_of(obj.get("thumbnailUrl")))
    put("lang", _text(obj.get("inLanguage")))
    publisher = obj.get("publisher")
    if isinstance(publisher, list):
        publisher = publisher[0] if publisher else None
    if isinstance(publisher, dict):
        put("sitename", _text(publisher.get("name")))
    part = obj.get("isPartOf")
    if isinstance(part, dict) and _types(part) & _SITE_TYPES:
        put("sitename", _text(part.get("name")))


def _title(obj: dict[str, Any], page_title: str | None) -> str | None:
    """headline, or name when only name is in the page's <title>: some sites put a
    summary in headline (a wiki's short description)."""
    headline, name = _text(obj.get("headline")), _text(obj.get("name"))
    if headline and name and headline != name and page_title:
        seen = page_title.casefold()
        if name.casefold() in seen and headline.casefold() not in seen:
            return name
    return headline or name


def _text(value: Any) -> str | None:
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
    if "<" in value:
        value = _TAG.sub(" ", value)
    return _SPACE.sub(" ", value).strip() or None


_TAG = re.compile(r"<[^>]*>")
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_SPACE_BEFORE_PUNCT = re.compile(r" ([,.;:!?)])")
_WRAPPER_START = re.compile(r"^\s*(?:(?:/\*|//)?\s*(?:<!\[CDATA\[|<!--)\s*(?:\*/)?\s*)+")
_WRAPPER_END = re.compile(r"(?:\s*(?:/\*|//)?\s*(?:\]\]>|-->)\s*(?:\*/)?)+\s*$")
_WORD = re.compile(r"[^\W\d_]{2}")


def _people(value: Any) -> str | None:
    """Author names: a string, a Person, or a list of either, joined with commas."""
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items[:10]:
        name = _text(item)
        if name and not _is_url(name) and name not in names:
            names.append(name)
    return ", ".join(names) or None


def _url_of(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl") or value.get("@id")
    return (value.strip() or None) if isinstance(value, str) else None


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://", "//", "www."))


# --- <meta>, <link>, <html> -----------------------------------------------------------

# Keys of <meta property|name|itemprop>, lowercased, to a metadata key, in order of trust
# (OpenGraph and Twitter first, then the rest).
_META = {
    "title": (
        "og:title",
        "twitter:title",
        "dc:title",
        "dc.title",
        "dcterms:title",
        "dcterms.title",
        "headline",
    ),
    "author": (
        "article:author",
        "og:article:author",
        "dc:creator",
        "dc.creator",
        "dcterms:creator",
        "dcterms.creator",
        "author",
        "byl",
        "parsely-author",
        "sailthru.author",
        "citation_author",
    ),
    "date": (
        "article:published_time",
        "og:published_time",
        "datepublished",
        "dc:date",
        "dc.date",
        "dcterms:date",
        "dcterms.date",
        "dc.date.issued",
        "dcterms.created",
        "date",
        "pubdate",
        "publishdate",
        "parsely-pub-date",
        "sailthru.date",
        "citation_publication_date",
        # The names of other content systems and analytics tags, seen across news sites.
        "og:article:published_time",
        "article.published",
        "article_date_original",
        "publish-date",
        "publish_date",
        "publication_date",
        "date_published",
        "dc.date.created",
        "dc.date.published",
        "rnews:datepublished",
        "cxenseparse:recs:publishtime",
        "originalpublicationdate",
    ),
    "modified": (
        "article:modified_time",
        "og:updated_time",
        "datemodified",
        "dcterms.modified",
        "og:article:modified_time",
        "article_date_updated",
        "dc.date.modified",
    ),
    "sitename": ("og:site_name", "application-name"),
    "description": (
        "og:description",
        "twitter:description",
        "dc:description",
        "dc.description",
        "dcterms:description",
        "dcterms.description",
        "description",
    ),
    "image": ("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "image"),
    "canonical_url": ("og:url",),
    "type": ("og:type",),
    "lang": ("og:locale", "dc.language", "content-language"),
}


def _head_tags(root: Any) -> tuple[dict[str, str], dict[str, str]]:
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


def _from_meta(metas: dict[str, str], found: Metadata) -> None:
    if not metas:
        return
    for key, names in _META.items():
        if found[key] is not None:
            continue
        for name in names:
            value = metas.get(name)
            if not value:
                continue
            if key == "author" and _is_url(value):
                continue  # article:author is often the author's page, not a name
            if key in ("date", "modified") and not _iso_date(value):
                continue
            if key == "lang":
                value = value.replace("_", "-")
            found[key] = _SPACE.sub(" ", value).strip()
            break


def _from_html(root: Any, links: dict[str, str], found: Metadata, page_title: str | None) -> None:
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


# --- what a reader sees -----------------------------------------------------------------

# One step per attribute, in a union (document order): several times faster in libxml2
# than one predicate over every element. "uthor" and "yline" match either case.
_BYLINE_XPATH = (
    "//@class[contains(., 'uthor') or contains(., 'yline')]"
    "|//@id[contains(., 'uthor') or contains(., 'yline')]"
    "|//@rel[contains(., 'author')]|//@itemprop[contains(., 'author')]"
)


def _from_parsely(metas: dict[str, str], found: Metadata) -> None:
    """Parse.ly's older tag: one <meta name="parsely-page"> holding a JSON object."""
    raw = metas.get("parsely-page")
    if not raw or len(raw) > MAX_PARSELY:
        return
    import json

    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return
    if not isinstance(data, dict):
        return
    if found["date"] is None and _iso_date(_text(data.get("pub_date"))):
        found["date"] = _text(data.get("pub_date"))
    author = _text(data.get("author"))
    if found["author"] is None and author and not _is_url(author):
        found["author"] = author


def _from_visible(root: Any, found: Metadata) -> None:
    from common.xpath import compiled

    body = root.find("body")
    if body is None:
        body = root
    if found["author"] is None:
        # Within the first candidates: a byline is near the top, and a hostile page can
        # have thousands of nested ones.
        for attr in compiled(_BYLINE_XPATH)(body)[:MAX_BYLINES]:
            name = _byline(attr.getparent())
            if name:
                found["author"] = name
                break
    if found["date"] is None:
        for el in body.iter("time"):
            value = el.get("datetime") or ""
            if _iso_date(value):
                found["date"] = value
                break


def _byline(el: Any) -> str | None:
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
    text = _BY_PREFIX.sub("", _TRAILING_DATE.sub("", text)).strip()
    # A name has a word of two letters or more (initials alone are avatars).
    if not _WORD.search(text):
        return None
    return text


# --- normalising ------------------------------------------------------------------------


def _iso_date(value: str | None) -> str | None:
    """A date or date-time as ISO 8601 (the time and its zone kept when given), from ISO
    forms and RFC 2822 (e-mail style); None when it is no date."""
    if not value:
        return None
    value = value.strip()
    match = _ISO_DATE.match(value)
    if match:
        groups = match.groups()
        year, month, day, hour, minute, second, zone = groups[:7] if groups[0] else groups[7:]
        if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31 and 1000 <= int(year) <= 9999):
            return None
        date = f"{year}-{int(month):02d}-{int(day):02d}"
        if hour is None:
            return date
        if int(hour) > 23 or int(minute) > 59 or int(second or 0) > 60:
            return date
        stamp = f"{date}T{int(hour):02d}:{minute}:{second or '00'}"
        if zone == "Z":
            return stamp + "Z"
        if zone:
            z = _TIMEZONE.search(zone)
            if z:
                return stamp + f"{z.group(1)}{z.group(2)}:{z.group(3)}"
        return stamp
    if not _RFC2822.match(value):
        # Not e-mail style: the e-mail parser would take "3:06 PM" for 03:06.
        return _wordy_date(value)
    from email.utils import parsedate_to_datetime

    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return _wordy_date(value)
    return parsed.isoformat() if parsed.tzinfo else parsed.replace(tzinfo=None).isoformat()


def _wordy_date(value: str) -> str | None:
    """The date of "Saturday, December 27, 2014, 12:06 PM" or "27. Dezember 2014" (the
    time, whose zone such a text rarely gives, left out); None when no month is named."""
    match = _WORDY_DATE.search(value[:200])
    if match is None:
        return None
    name, day, year = match.group(1, 2, 3) if match.group(1) else match.group(5, 4, 6)
    month = _MONTHS.get(name.lower())
    if month is None or not 1 <= int(day) <= 31:
        return None
    return f"{year}-{month:02d}-{int(day):02d}"


def _url_date(url: str | None) -> str | None:
    """The date a news site's address holds (/2014/12/27/), the last resort."""
    if not url:
        return None
    match = _URL_DATE.search(url[:2048])
    if match is None:
        return None
    year, month, day = match.groups()
    return f"{year}-{int(month):02d}-{int(day):02d}"


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

    if found["author"]:
        found["author"] = _BY_PREFIX.sub("", found["author"].strip()) or None
    found["date"] = _iso_date(found["date"])
    found["modified"] = _iso_date(found["modified"])
    for key in ("canonical_url", "image"):
        found[key] = _absolute(found[key], url)
    if found["type"]:
        found["type"] = found["type"].lower()
    out = empty()
    for key in KEYS:
        out[key] = cap(one_line(found[key]), MAX_VALUE_CHARS) or None
    return out
