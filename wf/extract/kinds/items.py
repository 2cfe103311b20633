"""The page's microdata and RDFa items, read as JSON-LD objects are: a Product declared
in the page's markup says its name, price and availability as one declared in a script
does (offers.fields reads both).

An item is an element with `itemscope` (microdata) or `typeof` (RDFa); its properties are
the elements inside it with `itemprop` or `property` that no item nested in it holds, and
those of the elements its `itemref` names. A property's value is the item it is itself,
else its `content` (a <meta>, or any element that writes a price so: "59.99" beside
"$59.99"), a link's href, a medium's src, a <time>'s datetime, a <data>'s value, else its
text. Types and properties are read by their last part: "https://schema.org/Offer",
"schema:Offer" and "Offer" are one type.

The tree read is the whole page, before the cleaning drops its hidden boxes, <meta> and
<link>: shops declare an offer in a box a style hides, or in <meta> and <link> tags that
print nothing. Each element is visited once: the owner of every property is found by a
walk up from it that stops at the first element already placed.
"""

from __future__ import annotations

import re
from typing import Any

from common.xpath import compiled, text_start
from wf.extract import tuning

ITEMTYPES = "//*/@itemtype"
TYPEOFS = "//*/@typeof"
_PROPERTIES = ".//*[@itemprop or @property]"
PROPERTIES_MAX = 2000  # property elements read per item, in page order
TEXTS_MAX = 200  # property values read from text per item (each reads its element's text)
REFS_MAX = 8  # elements an itemref names that are read
# Items looked through for the product, in page order: a menu's or a breadcrumb's dozens
# of items come first on many shops' pages (a kind is read from the first 50 only, but
# a product declared in JSON-LD looks here for the offer its markup declares).
TYPES_MAX = 2000
# The properties whose values are read (offers.fields reads no other): each read once.
READ = frozenset(
    ("name", "description", "price", "lowPrice", "highPrice", "priceCurrency", "availability")
)
_PRICES = frozenset(("price", "lowPrice", "highPrice"))
_LAST = re.compile(r"[/#:]")
_LINKS = frozenset(("a", "link", "area"))
_MEDIA = frozenset(("img", "audio", "video", "source", "embed", "iframe", "track"))


def last_part(name: str) -> str:
    """A type's or a property's last part: "https://schema.org/Offer" is "Offer"."""
    return _LAST.split(name.rstrip("/"))[-1]


def types(root: Any) -> list[Any]:
    """The values of the page's itemtype attributes, then its typeof attributes (each a
    string whose getparent() is its element)."""
    return [*compiled(ITEMTYPES)(root), *compiled(TYPEOFS)(root)]


def scope(el: Any) -> bool:
    """Whether an element is an item (microdata's itemscope or itemtype, RDFa's typeof)."""
    return el.get("itemscope") is not None or bool(el.get("itemtype") or el.get("typeof"))


def _types(el: Any) -> list[str]:
    return [last_part(t) for t in f"{el.get('itemtype') or ''} {el.get('typeof') or ''}".split()]


def product(found: list[Any]) -> Any:
    """The first element of the itemtype and typeof values `found` (types()) that is a
    product's item, or None."""
    for value in found[:TYPES_MAX]:
        if any(tuning.SCHEMA_KINDS.get(t.lower()) == tuning.PRODUCT for t in _types_of(value)):
            return value.getparent()
    return None


def _types_of(value: str) -> list[str]:
    return [last_part(t) for t in str(value).split()]


class _Reader:
    """One item's properties, and those of the items inside it, as JSON-LD objects."""

    def __init__(self, top: Any) -> None:
        self.top = top
        self.objects: dict[Any, dict[str, Any]] = {}
        self.near: dict[Any, Any] = {top: top}  # an element -> the item it is in (or is)
        self.texts = 0

    def object(self, el: Any) -> dict[str, Any]:
        found = self.objects.get(el)
        if found is None:
            found = self.objects[el] = {"@type": _types(el)}
        return found

    def owner(self, el: Any) -> Any:
        """The item that holds the property `el`: the nearest item above it. The walk up
        stops at the first element placed before, and places those it passed."""
        path = []
        p = el.getparent()
        while p is not None and p not in self.near:
            path.append(p)
            p = p.getparent()
        if p is None:
            return None
        item = self.near[p]
        for a in reversed(path):
            item = a if scope(a) else item
            self.near[a] = item
        return self.near[el.getparent()]

    def value(self, el: Any, price: bool = False) -> str:
        """A property's value that is no item: an attribute's, else its text (a `price`'s
        with its pieces apart)."""
        content = el.get("content")
        if content is not None:
            return str(content)
        tag = el.tag
        if tag in _LINKS:
            return str(el.get("href") or el.get("resource") or "")
        if tag in _MEDIA:
            return str(el.get("src") or "")
        if tag == "time" and el.get("datetime"):
            return str(el.get("datetime"))
        if tag in ("data", "meter") and el.get("value") is not None:
            return str(el.get("value"))
        self.texts += 1
        if self.texts > TEXTS_MAX:
            return ""
        # A price and the old one struck through beside it ("19,99<del>29,99</del>") are
        # two numbers, not 19,9929,99; a name's pieces are one word ("Oak<sup>®</sup>").
        return text_start(el, tuning.PRODUCT_DESCRIPTION_MAX * 2, " " if price else "")

    def add(self, owner: Any, el: Any) -> None:
        """The property `el` into its owner's object: an item under each of its names (a
        list when there are several: offers, variants), else its value under each name
        READ holds, the first only (a later one is a copy, a sticky bar's)."""
        names = f"{el.get('itemprop') or ''} {el.get('property') or ''}".split()
        obj = self.object(owner)
        for key in (last_part(name) for name in names[:10]):
            if scope(el):
                old = obj.get(key)
                if old is None:
                    obj[key] = self.object(el)
                elif isinstance(old, list):
                    old.append(self.object(el))
                else:
                    obj[key] = [old, self.object(el)]
            elif key in READ and key not in obj:
                obj[key] = self.value(el, key in _PRICES)


def item(top: Any, root: Any) -> dict[str, Any]:
    """The item `top` and the items inside it as a JSON-LD object."""
    reader = _Reader(top)
    for el in compiled(_PROPERTIES)(top)[:PROPERTIES_MAX]:
        owner = reader.owner(el)
        if owner is not None:
            reader.add(owner, el)
    for ref in _referenced(top, root):
        reader.near[ref] = ref if scope(ref) else top
        if ref.get("itemprop") or ref.get("property"):
            reader.add(top, ref)
        for el in compiled(_PROPERTIES)(ref)[:PROPERTIES_MAX]:
            owner = reader.owner(el)
            if owner is not None:
                reader.add(owner, el)
    return reader.object(top)


def _referenced(top: Any, root: Any) -> list[Any]:
    """The elements `top`'s itemref names (REFS_MAX of them), found in one pass; none
    inside `top`, around it or `top` itself (read already: an item that names itself
    would be its own property, a cycle, and its properties read twice)."""
    ids = (top.get("itemref") or "").split()[:REFS_MAX]
    if not ids:
        return []
    wanted = f" {' '.join(ids)} "
    found = compiled("//*[@id and contains($ids, concat(' ', @id, ' '))]")(root, ids=wanted)
    around = {top, *top.iterancestors()}
    return [el for el in found[:REFS_MAX] if el not in around and top not in el.iterancestors()]
