"""What a declared Product tells a reader first: its name, its price with its currency,
its availability and its description, one value each, however the shop declares them.

A Product object comes from JSON-LD, or from the page's microdata or RDFa read as one
(items.py). Its offers are an Offer, a list of them (one per variant, each with its
price), an AggregateOffer (lowPrice, highPrice), a ProductGroup's variants (hasVariant,
each a Product with its offers), or references by @id to objects elsewhere in the page's
@graph. Several prices print as their range, several availabilities as the first one that
lets one buy (the product can be had, in some variant). A price is a number ("59.99",
59.99), a shop's own writing of one ("59,99", "$1,299.00"), or an offer's
priceSpecification's; none below zero, nor one a float does not hold.
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

from wf.extract import tuning
from wf.extract.kinds import product_tuning
from wf.extract.kinds.items import last_part

OFFERS_MAX = 100  # offers and variants read per product
_TAG = re.compile(r"<[^<>]{0,500}>")
_CAPITAL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def text(value: Any, limit: int = tuning.PRODUCT_FIELD_MAX) -> str:
    """A declared value as one line: the first of a list, an object's name (or @id)."""
    if isinstance(value, list):
        value = value[0] if value else ""
    if isinstance(value, dict):
        value = value.get("name") or value.get("@id") or ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return ""
    return " ".join(value[: limit * 4].split())[:limit]


def description(value: Any) -> str:
    """A declared description as text: shops write HTML into it (tags, entities)."""
    found = text(value, tuning.PRODUCT_DESCRIPTION_MAX * 2)
    if "<" in found or "&" in found:
        found = " ".join(html.unescape(_TAG.sub(" ", found)).split())
    return found[: tuning.PRODUCT_DESCRIPTION_MAX]


def readable(value: str) -> str:
    """An availability as a reader says it: schema.org's URL or its tail ("InStock",
    "https://schema.org/OutOfStock", RDFa's "schema:InStock") in words ("In stock",
    "Out of stock"); a shop's own words ("Ships in 3 days") stay as they are."""
    value = value.strip()
    tail = last_part(value)
    if not tail or " " in value:
        return value
    known = tuning.PRODUCT_AVAILABILITY.get(tail.lower().replace("_", "").replace("-", ""))
    if known:
        return known
    words = _CAPITAL.sub(" ", tail).split()
    return " ".join([words[0], *(w.lower() for w in words[1:])])


_SEPARATORS = re.compile(r"[.,'\u00a0\u202f ]")
# Groups of three digits after the first, else a plain number: two prices a shop wrote
# side by side ("19,99 29,99", "19,99<del>29,99</del>") are not one of six digits. A
# page's text is searched with it too (product_text.shows), a price's mark after it: each
# part is bounded, or a run of digits would be read back from each of them (quadratic).
NUMBER = (
    r"\d{1,3}(?:[.,'\u00a0\u202f ]\d{3}){1,4}(?:[.,]\d{1,2})?(?!\d)"
    r"|\d{1,12}(?:[.,]\d{1,2}(?!\d))?"
)
_NUMBER = re.compile(NUMBER)
_PLAIN = re.compile(r"\d+(?:\.\d+)?")
_EXPONENT = re.compile(r"\d+(?:\.\d+)?[eE][+-]?\d{1,3}")  # schema.org's Number: "1e308" is no 1


def amount(number: str) -> float | None:
    """A printed number's value: its last separator followed by one or two digits is the
    decimal mark ("1.772,00", "17,9"), every other separator groups thousands."""
    number = number.strip()
    parts = _SEPARATORS.split(number)
    whole, cents = parts, ""
    if len(parts) > 1 and len(parts[-1]) <= 2 and number[-len(parts[-1]) - 1] in ".,":
        whole, cents = parts[:-1], parts[-1]
    try:
        return float("".join(whole) + "." + (cents or "0"))
    except ValueError:
        return None


def _value(price: Any) -> float | None:
    """A declared price's value: schema.org's number ("59.99", a dot for the decimals),
    else the first number a shop wrote ("59,99", "$1,299.00", "ab 12,90 €"). None for
    a price below zero, or past product_tuning.PRICE_MAX (JSON's NaN and 1e999, an int of
    400 digits): the header prints prices with int(), which NaN and infinity make raise,
    and the page's declarations would all be lost with it."""
    if isinstance(price, list):
        price = price[0] if price else None  # as text() reads it
    if isinstance(price, bool):
        return None
    if isinstance(price, int | float):
        found = _float(price)
    elif isinstance(price, str):
        price = price.strip()
        if price[:1] in ("-", "\u2212"):
            return None
        if _PLAIN.fullmatch(price) or _EXPONENT.fullmatch(price):
            found = _float(price)
        else:
            number = _NUMBER.search(price[:100])
            found = amount(number.group()) if number else None
    else:
        return None
    if found is None or not math.isfinite(found) or not 0 <= found < product_tuning.PRICE_MAX:
        return None
    return found


def _float(value: str | int | float) -> float | None:
    try:
        return float(value)
    except OverflowError:  # an int of 400 digits
        return None


_CENTS = re.compile(r"[.,]\d\d$")


def _written(values: tuple[float, ...], like: str) -> list[str]:
    """Prices as schema.org writes them, all with cents when one has some or when the
    shop wrote them (`like`: "0,00" is "0.00"); a price of fractions of a cent (a
    component's, 0.0045 USD each) with all its places, up to PLACES_MAX: cut to cents it
    would read 0.00, and a range of two such prices one price twice."""
    if all(v == int(v) for v in values) and not _CENTS.search(like):
        return [f"{v:.0f}" for v in values]
    return [f"{v:.{_places(v)}f}" for v in values]


PLACES_MAX = 6


def _places(value: float) -> int:
    """The decimal places a price needs, two at least."""
    return next(
        (n for n in range(2, PLACES_MAX) if abs(round(value, n) - value) < 1e-9), PLACES_MAX
    )


def _resolve(value: Any, ids: dict[str, dict[str, Any]]) -> Any:
    """An object that only names another by @id, as the one it names (a @graph splits a
    Product and its Offer so)."""
    if isinstance(value, dict) and isinstance(value.get("@id"), str) and len(value) <= 2:
        return ids.get(value["@id"], value)
    return value


def _listed(value: Any, ids: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    items = value if isinstance(value, list) else [value]
    found = (_resolve(item, ids) for item in items[:OFFERS_MAX])
    return [item for item in found if isinstance(item, dict)]


def _offers(obj: dict[str, Any], ids: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """A product's offers; a ProductGroup's (or a product's) variants' when it declares
    none itself (one level: a variant's own variants are not read)."""
    offers = _listed(obj.get("offers"), ids)
    if offers:
        return offers
    for variant in _listed(obj.get("hasVariant"), ids):
        offers.extend(_listed(variant.get("offers"), ids))
        if len(offers) >= OFFERS_MAX:
            break
    return offers[:OFFERS_MAX]


def _priced(offer: dict[str, Any]) -> dict[str, Any]:
    """The object that states an offer's price: the offer, else its priceSpecification
    (the first, when it lists several)."""
    if offer.get("price") is not None or offer.get("lowPrice") is not None:
        return offer
    spec = offer.get("priceSpecification")
    spec = spec[0] if isinstance(spec, list) and spec else spec
    return spec if isinstance(spec, dict) else offer


def _said(offer: dict[str, Any]) -> tuple[list[Any], str]:
    """An offer's price, lowPrice and highPrice as declared, and its currency's code in
    capitals (ISO 4217's; a shop's "usd" on one variant is the others' "USD")."""
    priced = _priced(offer)
    said = [priced.get(key) for key in ("price", "lowPrice", "highPrice")]
    return said, text(priced.get("priceCurrency") or offer.get("priceCurrency")).upper()


def _currency(offers: list[dict[str, Any]]) -> str:
    """The currency of the first offer that states one beside a price read as a number
    (not a placeholder of 0 or "Call"); "" when none does."""
    for offer in offers:
        said, code = _said(offer)
        if code and any(map(_value, said)):
            return code
    return ""


def price(offers: list[dict[str, Any]]) -> str:
    """The offers' price with its currency ("59.99 EUR"), their range when they differ
    ("19.99 – 29.99 USD"), of those in the currency of the first offer that states one
    (a placeholder of 0 or "Call" before it sets none; an offer that states none is in
    it: a shop writes the currency on one of its variants, not always the first); a
    price no number is read from is printed as written ("Free"), and one without a
    currency too ("$12")."""
    currency = _currency(offers)
    low, high, first = None, None, None
    shown: tuple[str, str] | None = None  # the first price said, and its currency
    for offer in offers:
        said, code = _said(offer)
        if all(v is None or v == "" for v in said):
            continue
        written = text(said[0] if said[0] not in (None, "") else said[1])
        shown = shown or (written, code)
        # Zero is what a shop writes for a price it has not set ("call for a quote"); a
        # free product says so on its page.
        values = [v for v in map(_value, said) if v]
        if not values:
            continue
        if code and code != currency:
            continue  # the same price in another currency
        first = written if first is None else first
        low = min(values) if low is None else min(low, *values)
        high = max(values) if high is None else max(high, *values)
    if low is None or high is None:
        # A price no value is read from is printed as written when it is words ("Free",
        # "Call"); one that is a number was left out (0, -5, NaN, 1e999) or is none.
        written, code = shown or ("", "")
        return "" if _numeric(written) else f"{written} {code}".strip()
    first = first or ""
    if not currency:
        return first
    if low == high:
        number = first if _PLAIN.fullmatch(first) and _value(first) == low else None
        return f"{number or _written((low,), first)[0]} {currency}"
    return " – ".join(_written((low, high), first)) + f" {currency}"


_DIGIT = re.compile(r"\d")


def _numeric(written: str) -> bool:
    if not written or _DIGIT.search(written):
        return True
    try:
        float(written)  # "nan", "inf", "Infinity"
    except ValueError:
        return False
    return True


def availability(offers: list[dict[str, Any]]) -> str:
    """The offers' availability in words; when they differ, the first of those that let
    one buy (product_tuning.BUYABLE): the product can be had, in some variant."""
    said = [readable(text(o.get("availability"))) for o in offers]
    said = [s for s in said if s]
    return next((s for s in said if s in product_tuning.BUYABLE), said[0] if said else "")


def fields(obj: dict[str, Any], ids: dict[str, dict[str, Any]] | None = None) -> dict[str, str]:
    """Name, price with currency, availability and description of a Product object;
    `ids` holds the page's objects by @id, for the references of a @graph."""
    ids = ids or {}
    # Shops escape a name's entities as they do a description's ("Shelf &amp; desk").
    name = text(obj.get("name"))
    name = " ".join(html.unescape(name).split()) if "&" in name else name
    found = {"name": name, "description": description(obj.get("description"))}
    offers = _offers(obj, ids)
    found["price"] = price(offers)
    found["availability"] = availability(offers)
    return {k: v for k, v in found.items() if v}
