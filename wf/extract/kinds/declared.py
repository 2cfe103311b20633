"""What a page says it is: schema.org types in JSON-LD (with @graph and mainEntity),
og:type (both gathered by parse.clean's pass over the tree before it removes them), and
microdata itemtypes when those two declare nothing and the source names one (finding
them costs a look at every element of the cleaned tree). Also what a Product's declaration
says (name, price, availability, description): a product page prints those even when its
visible page builds them with scripts."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wf.extract import tuning
from wf.extract.kinds import docs_tuning, items, offers

# What some pages wrap their JSON-LD in: <![CDATA[ ]]>, <!-- -->, and comments around them.
_WRAPPER = re.compile(r"^(?:\s|//|/\*|\*/|<!\[CDATA\[|<!--)+|(?:\s|//|/\*|\*/|\]\]>|-->)+$")


@dataclass
class Declared:
    """The kinds a page declares, in the order found, with where each was read."""

    kinds: list[tuple[str, str]] = field(default_factory=list)  # (kind, "JSON-LD Product")
    types: set[str] = field(default_factory=set)  # the types read into kinds, in lower case
    product: dict[str, str] = field(default_factory=dict)  # name, price, availability, ...
    products: int = 0  # Product objects declared (a ProductGroup's variants not counted)
    webpage: bool = False  # a JSON-LD WebPage object (a type no kind is read from)
    # The JSON-LD objects by their @id (a @graph's references), and its Product objects.
    ids: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    declared_products: list[dict[str, Any]] = field(default_factory=list, repr=False)
    # The kinds read from microdata or RDFa, each with the element that declares it.
    marked: list[tuple[tuple[str, str], Any]] = field(default_factory=list, repr=False)

    @property
    def described(self) -> bool:
        """Whether the page declares a product's description long enough to print."""
        from wf.extract.kinds.product import ANCHOR_MIN

        return len(self.product.get("description") or "") >= ANCHOR_MIN

    def marked_article(self) -> str | None:
        """The schema.org type of the first article that microdata or RDFa declares (and
        the page still shows: seen()), in lower case; None if none."""
        for kind, why in self.kinds:
            markup, _, name = why.partition(" ")
            if kind == tuning.ARTICLE and markup in _MARKUPS:
                return name.lower()
        return None

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


GRAPH_MAX = 500  # objects read from a JSON-LD document's top level or its @graph


def _objects(data: Any) -> list[dict[str, Any]]:
    """The top-level objects of a JSON-LD document, those of its @graph and each one's
    mainEntity: what the page is, not what it mentions (authors, breadcrumbs). A shop's
    @graph lists its site's pages, breadcrumbs and images before its Product, a
    hundred objects and more; GRAPH_MAX of them are read (each once: linear)."""
    found: list[dict[str, Any]] = []
    stack = data if isinstance(data, list) else [data]
    for item in stack[:GRAPH_MAX]:
        if not isinstance(item, dict):
            continue
        found.append(item)
        graph = item.get("@graph")
        if isinstance(graph, list):
            found.extend(g for g in graph[:GRAPH_MAX] if isinstance(g, dict))
    for item in list(found):
        main = item.get("mainEntity")
        for m in main if isinstance(main, list) else [main]:
            if isinstance(m, dict):
                found.append(m)
    return found


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


_DOC_GENERATOR = re.compile(docs_tuning.DOC_GENERATORS, re.IGNORECASE)


def generated(declared: Declared, generator: str) -> None:
    """Documentation, when the page's generator is a manual's (docs_tuning.DOC_GENERATORS:
    rustdoc, MkDocs, Docusaurus...), as a kind it declares: such a site's pages are its
    manual's wherever it is served, its chrome (toggles, tabs, source links) the same.
    Not a page that declares itself a post (docs_tuning.GENERATOR_POSTS): the same
    generators build their manuals' blogs."""
    found = _DOC_GENERATOR.search(generator)
    posts = docs_tuning.GENERATOR_POSTS
    if found and declared.types.isdisjoint(posts):
        declared.kinds.append((tuning.DOCUMENTATION, f"generator {found.group(0)}"))


def summarised(declared: Declared, summary: str) -> None:
    """A product declared without a description keeps its page's og:description (the
    summary a shop writes for links to it) as its `summary`: printed when the page tells
    the product in little prose of its own and does not show it (product_text.header),
    as a declared description is. It anchors no region (product.choose): a store's
    summary stands in its header, over the page's columns, where a description does
    not."""
    if declared.product.get("description") or declared.kind()[0] != tuning.PRODUCT:
        return
    text = offers.description(summary)
    if text:
        declared.product["summary"] = text


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
        if _named(obj) and len(declared.ids) < IDS_MAX:
            declared.ids.setdefault(obj["@id"], obj)
        product = False
        for t in _types(obj.get("@type")):
            if t == "webpage":
                declared.webpage = True
            kind = tuning.SCHEMA_KINDS.get(t)
            if kind == tuning.LISTING and _reviews(obj):
                continue  # testimonials: the page's kind is what else it declares
            if kind:
                declared.kinds.append((kind, f"JSON-LD {t}"))
                declared.types.add(t)
            product = product or kind == tuning.PRODUCT
        if product and len(declared.declared_products) < offers.OFFERS_MAX:
            declared.declared_products.append(obj)


IDS_MAX = 500  # JSON-LD objects kept by their @id per page


def _named(obj: dict[str, Any]) -> bool:
    return isinstance(obj.get("@id"), str)


def _products(declared: Declared) -> None:
    """The page's product and how many it declares, from its Product objects: a
    ProductGroup's variants (isVariantOf, or named by its hasVariant) are the one product
    they are variants of, whether nested in it or beside it in a @graph."""
    variants: set[str] = set()
    for obj in declared.declared_products:
        named = obj.get("hasVariant")
        for v in named[: offers.OFFERS_MAX] if isinstance(named, list) else [named]:
            if isinstance(v, dict) and _named(v):
                variants.add(v["@id"])
    own = [
        obj
        for obj in declared.declared_products
        if not obj.get("isVariantOf") and not (_named(obj) and obj["@id"] in variants)
    ]
    declared.products = len(own)
    first = own[0] if own else declared.declared_products[0] if declared.declared_products else None
    if first is not None:
        declared.product = offers.fields(first, declared.ids)


def read(
    jsonld: list[str],
    og: str,
    root: Any = None,
    named: Callable[[], bool] | None = None,
    dated: bool = True,
) -> Declared:
    """The page's declarations from what parse.clean gathered (its JSON-LD scripts'
    texts and og:type), and, when those declare no kind, the microdata itemtypes and
    RDFa typeofs of `root` (None, or `named()` false: the page's source names neither,
    so the tree is not searched); then, on a product page, what its microdata or RDFa
    product says that its JSON-LD does not (_marked). `root` is the page before its
    cleaning: declarations are data, read in hidden boxes, <meta> and <link> too.
    Never raises on broken JSON or odd markup.

    og:type article declares no article on a page whose JSON-LD says it is a WebPage and
    that gives no article:published_time (`dated`): WordPress's SEO plugins write og:type
    article on every page of a site, its service and contact pages too, a WebPage in
    their JSON-LD, and the publication time only on its posts (which they also declare an
    Article). A page with no JSON-LD is not doubted: many a post says nothing else."""
    declared = Declared()
    for source in jsonld[: tuning.JSONLD_SCRIPTS]:
        _read_script(source, declared)
    _products(declared)
    kind = tuning.OG_KINDS.get(og.strip().lower())
    if kind == tuning.ARTICLE and not dated and declared.webpage:
        kind = None
    # og:type article alone is what forum software writes on every topic (NodeBB,
    # Discourse): its microdata's thread (DiscussionForumPosting) is heard over it, and
    # nothing else the microdata says (an article's embedded Product is no product page).
    og_article = kind == tuning.ARTICLE and not declared.kinds
    if kind:
        declared.kinds.append((kind, f"og:type {og}"))
    if root is None:
        return declared
    found: list[Any] | None = None
    if not declared.kinds or og_article:
        found = _marked_types(root, named)
        for value in found[:50]:
            for t in str(value).split():
                kind = tuning.SCHEMA_KINDS.get(items.last_part(t).lower())
                if kind and (not og_article or kind == tuning.THREAD):
                    entry = (kind, f"{_markup(value)} {items.last_part(t)}")
                    declared.kinds.append(entry)
                    declared.types.add(items.last_part(t).lower())
                    declared.marked.append((entry, value.getparent()))
    if declared.kind()[0] == tuning.PRODUCT and not _complete(declared.product):
        _marked(declared, root, _marked_types(root, named) if found is None else found)
    return declared


def seen(declared: Declared, root: Any) -> None:
    """`declared` without the kinds that microdata or RDFa declare in a box the cleaning
    removed from `root` (hidden, or in <head>): a review's rich snippet, a Product in a
    display:none box, makes no product page of an article, as it did not when the kinds
    were read from the cleaned page. A product's fields are read from the whole page all
    the same (an offer in a hidden box of a product a reader sees); those of a product
    that only such a box declares go with its kind."""
    gone = [entry for entry, el in declared.marked if not _in(el, root)]
    if not gone:
        return
    for entry in gone:
        declared.kinds.remove(entry)
    declared.marked = []
    if declared.kind()[0] != tuning.PRODUCT and not declared.declared_products:
        declared.product = {}


def _in(el: Any, root: Any) -> bool:
    ancestors = list(el.iterancestors())  # at most 50 elements' (read()): linear
    return (ancestors[-1] if ancestors else el) is root


def _marked_types(root: Any, named: Callable[[], bool] | None) -> list[Any]:
    """The values of `root`'s itemtype and typeof attributes; none when the source names
    neither. The tree is asked first: a search of the source costs three times as much,
    and most pages have no itemtype; the source's word decides when the tree has some."""
    found = items.types(root)
    return found if found and (named is None or named()) else []


_MARKUPS = ("microdata", "RDFa")  # how the kinds read from the tree's markup are traced


def _markup(value: Any) -> str:
    parent = value.getparent()
    return "RDFa" if parent is not None and parent.get("typeof") == value else "microdata"


_FIELDS = ("name", "price", "availability")


def _complete(product: dict[str, str]) -> bool:
    return all(product.get(f) for f in _FIELDS)


def _marked(declared: Declared, root: Any, found: list[Any]) -> None:
    """The fields of the page's first microdata or RDFa product (items.py) that its JSON-LD
    product lacks, when both name the same product (or either names none): a shop's
    JSON-LD may say the name and its markup the offer."""
    top = items.product(found)
    if top is None:
        return
    marked = offers.fields(items.item(top, root))
    mine, theirs = declared.product.get("name"), marked.get("name")
    if mine and theirs and " ".join(mine.lower().split()) != " ".join(theirs.lower().split()):
        return
    for key, value in marked.items():
        declared.product.setdefault(key, value)
