"""What a page says it is: schema.org types in JSON-LD (with @graph and mainEntity),
og:type (both gathered by parse.clean's pass over the tree before it removes them), and
microdata itemtypes when those two declare nothing and the source names one (finding
them costs a look at every element of the cleaned tree). Also what a Product's declaration
says (name, price, availability, description): a product page prints those even when its
visible page builds them with scripts."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from common.xpath import compiled
from wf.extract import tuning

# What some pages wrap their JSON-LD in: <![CDATA[ ]]>, <!-- -->, and comments around them.
_WRAPPER = re.compile(r"^(?:\s|//|/\*|\*/|<!\[CDATA\[|<!--)+|(?:\s|//|/\*|\*/|\]\]>|-->)+$")


@dataclass
class Declared:
    """The kinds a page declares, in the order found, with where each was read."""

    kinds: list[tuple[str, str]] = field(default_factory=list)  # (kind, "JSON-LD Product")
    product: dict[str, str] = field(default_factory=dict)  # name, price, availability, ...
    products: int = 0  # Product objects declared
    webpage: bool = False  # a JSON-LD WebPage object (a type no kind is read from)

    @property
    def described(self) -> bool:
        """Whether the page declares a product's description long enough to print."""
        from wf.extract.kinds.product import ANCHOR_MIN

        return len(self.product.get("description") or "") >= ANCHOR_MIN

    def kind(self) -> tuple[str | None, str]:
        """The declared kind that wins by tuning.PRIORITY, and why; (None, "") if none."""
        found = {kind: why for kind, why in reversed(self.kinds)}
        if self.products >= tuning.PRODUCTS_LISTING:
            found.pop(tuning.PRODUCT, None)
            found[tuning.LISTING] = f"{self.products} JSON-LD Products"
        for kind in tuning.PRIORITY:
            if kind in found:
                return kind, found[kind]
        return None, ""


def _types(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [t.rsplit("/", 1)[-1].lower() for t in items if isinstance(t, str)]


def _objects(data: Any) -> list[dict[str, Any]]:
    """The top-level objects of a JSON-LD document, those of its @graph and each one's
    mainEntity: what the page is, not what it mentions (authors, breadcrumbs)."""
    found: list[dict[str, Any]] = []
    stack = data if isinstance(data, list) else [data]
    for item in stack[:50]:
        if not isinstance(item, dict):
            continue
        found.append(item)
        graph = item.get("@graph")
        if isinstance(graph, list):
            found.extend(g for g in graph[:50] if isinstance(g, dict))
    for item in list(found):
        main = item.get("mainEntity")
        for m in main if isinstance(main, list) else [main]:
            if isinstance(m, dict):
                found.append(m)
    return found


def _text(value: Any, limit: int = tuning.PRODUCT_FIELD_MAX) -> str:
    if isinstance(value, list):
        value = value[0] if value else ""
    if isinstance(value, dict):
        value = value.get("name") or value.get("@id") or ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return ""
    return " ".join(value[: limit * 4].split())[:limit]


_TAG = re.compile(r"<[^<>]{0,500}>")


def _description(value: Any) -> str:
    """A declared description as text: shops write HTML into it (tags, entities)."""
    text = _text(value, tuning.PRODUCT_DESCRIPTION_MAX * 2)
    if "<" in text or "&" in text:
        text = " ".join(html.unescape(_TAG.sub(" ", text)).split())
    return text[: tuning.PRODUCT_DESCRIPTION_MAX]


_CAPITAL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def readable(value: str) -> str:
    """An availability as a reader says it: schema.org's URL or its tail ("InStock",
    "https://schema.org/OutOfStock") in words ("In stock", "Out of stock"); a shop's own
    words ("Ships in 3 days") stay as they are."""
    value = value.strip()
    tail = value.rstrip("/").rsplit("/", 1)[-1]
    if not tail or " " in value:
        return value
    known = tuning.PRODUCT_AVAILABILITY.get(tail.lower().replace("_", "").replace("-", ""))
    if known:
        return known
    words = _CAPITAL.sub(" ", tail).split()
    return " ".join([words[0], *(w.lower() for w in words[1:])])


def _product(obj: dict[str, Any]) -> dict[str, str]:
    """Name, price with currency, availability and description of a Product object."""
    # Shops escape a name's entities as they do a description's ("Shelf &amp; desk").
    name = _text(obj.get("name"))
    name = " ".join(html.unescape(name).split()) if "&" in name else name
    found = {"name": name, "description": _description(obj.get("description"))}
    offers = obj.get("offers")
    offer = offers[0] if isinstance(offers, list) and offers else offers
    if isinstance(offer, dict):
        price = _text(offer.get("price") or offer.get("lowPrice"))
        if price:
            found["price"] = f"{price} {_text(offer.get('priceCurrency'))}".strip()
        availability = readable(_text(offer.get("availability")))
        if availability:
            found["availability"] = availability
    return {k: v for k, v in found.items() if v}


_THREAD_QUERY = re.compile(tuning.THREAD_QUERY, re.IGNORECASE)


def by_path(url: str | None, root: Any = None) -> str | None:
    """documentation when the URL's path names a documentation site's part (/docs/), or
    its host a documentation site (docs., doc.), or its path a guide's (/learn/) on a
    page `root` that shows code; thread when it names a
    topic's page (tuning.THREAD_PATHS)."""
    if not url:
        return None
    from urllib.parse import urlsplit

    try:
        split = urlsplit(url)
    except ValueError:
        return None
    path = split.path.lower()
    parts = set(path.split("/"))
    if parts & tuning.DOC_PATHS or url.split("//", 1)[-1].startswith(tuning.DOC_HOSTS):
        return tuning.DOCUMENTATION
    if (
        parts & tuning.DOC_PATHS_WITH_CODE
        and root is not None
        and next(root.iter("pre", "code"), None) is not None
    ):
        return tuning.DOCUMENTATION
    if parts & tuning.THREAD_PATHS or _THREAD_QUERY.search(split.query):
        return tuning.THREAD
    return None


def _reviews(obj: dict[str, Any]) -> bool:
    """Whether an ItemList lists reviews alone (each its item, or a ListItem's): a landing
    page's testimonials, which list no pages as a listing's items do."""
    items = obj.get("itemListElement")
    if not isinstance(items, list) or not items:
        return False
    for item in items[:50]:
        if isinstance(item, dict) and isinstance(item.get("item"), dict):
            item = item["item"]
        if not isinstance(item, dict) or not tuning.REVIEW_TYPES & set(_types(item.get("@type"))):
            return False
    return True


def _read_script(source: str, declared: Declared) -> None:
    """One JSON-LD script's types (and Product) into `declared`."""
    if not source or len(source) > tuning.JSONLD_MAX:
        return
    if source.lstrip()[:1] not in "{[":
        source = _WRAPPER.sub("", source.strip())
    try:
        data = json.loads(source, strict=False)
    except (ValueError, RecursionError):  # a nest of brackets is hostile
        return
    for obj in _objects(data):
        for t in _types(obj.get("@type")):
            if t == "webpage":
                declared.webpage = True
            kind = tuning.SCHEMA_KINDS.get(t)
            if kind == tuning.LISTING and _reviews(obj):
                continue  # testimonials: the page's kind is what else it declares
            if kind:
                declared.kinds.append((kind, f"JSON-LD {t}"))
            if kind == tuning.PRODUCT:
                declared.products += 1
                declared.product = declared.product or _product(obj)


def read(
    jsonld: list[str],
    og: str,
    root: Any = None,
    named: Callable[[], bool] | None = None,
    dated: bool = True,
) -> Declared:
    """The page's declarations from what parse.clean gathered (its JSON-LD scripts'
    texts and og:type), and, when those declare no kind, the microdata itemtypes of the
    cleaned `root` (None, or `named()` false: the page's source names no itemtype, so
    the tree is not searched); never raises on broken JSON or odd markup.

    og:type article declares no article on a page whose JSON-LD says it is a WebPage and
    that gives no article:published_time (`dated`): WordPress's SEO plugins write og:type
    article on every page of a site, its service and contact pages too, a WebPage in
    their JSON-LD, and the publication time only on its posts (which they also declare an
    Article). A page with no JSON-LD is not doubted: many a post says nothing else."""
    declared = Declared()
    for source in jsonld[: tuning.JSONLD_SCRIPTS]:
        _read_script(source, declared)
    kind = tuning.OG_KINDS.get(og.strip().lower())
    if kind == tuning.ARTICLE and not dated and declared.webpage:
        kind = None
    # og:type article alone is what forum software writes on every topic (NodeBB,
    # Discourse): its microdata's thread (DiscussionForumPosting) is heard over it, and
    # nothing else the microdata says (an article's embedded Product is no product page).
    og_article = kind == tuning.ARTICLE and not declared.kinds
    if kind:
        declared.kinds.append((kind, f"og:type {og}"))
    if (declared.kinds and not og_article) or root is None:
        return declared
    # The tree is asked first: a search of the source costs three times as much, and
    # most pages have no itemtype; the source's word decides when the tree has some.
    itemtypes = compiled("//*/@itemtype")(root)
    if not itemtypes or (named is not None and not named()):
        return declared
    for itemtype in itemtypes[:50]:
        for t in str(itemtype).split():
            kind = tuning.SCHEMA_KINDS.get(t.rstrip("/").rsplit("/", 1)[-1].lower())
            if kind and (not og_article or kind == tuning.THREAD):
                declared.kinds.append((kind, f"microdata {t.rsplit('/', 1)[-1]}"))
    return declared
