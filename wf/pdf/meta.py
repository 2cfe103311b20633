"""A PDF's metadata (title, author, subject, dates, producer) and outline, as wf's JSON
gives them.

Two sources: the document information dictionary (read by PDFium in the reader child and
passed here as strings) and the XMP packet. PDFium has no call for the XMP stream, but the
format asks writers to leave it uncompressed so that tools which do not parse PDF can find
it: it is found in the raw bytes, within a bounded window, and read with regular
expressions (no XML parser on this path: no entity expansion, no lxml import). The
information dictionary wins where both have a value (it is what viewers show); XMP fills
the gaps, which is all there is in PDF 2.0 files that drop the dictionary.

Keys are those of the HTML metadata (wf.extract.metadata.KEYS: ``title``, ``author``,
``date`` for creation, ``modified``) plus ``subject`` and ``producer``. A value that does
not decode to readable text (U+FFFD, control characters, nothing left) is null.
"""

from __future__ import annotations

import html
import re
from typing import Any

from common.text import one_line

EXTRA_KEYS = ("subject", "producer")
MAX_VALUE_CHARS = 2_000
XMP_MAX_BYTES = 1 << 20  # a packet past this size is not an honest one
OUTLINE_MAX = 5_000  # bookmarks kept; the reader stops walking there

# PDF date strings: D:YYYYMMDDHHmmSSOHH'mm' with everything after the year optional.
_PDF_DATE = re.compile(
    r"(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?"
    r"(?:\s*([Zz+\-])\s*(?:(\d{2})'?(?:(\d{2})'?)?)?)?"
)
_ISO_DATE = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
    r"(Z|[+\-]\d{2}:\d{2})?)?)?)?"
)
_BAD = re.compile(r"[\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean_value(value: Any) -> str | None:
    """A readable one-line value, or None when there is none or it did not decode."""
    if not isinstance(value, str) or not value.strip() or _BAD.search(value):
        return None
    return one_line(value)[:MAX_VALUE_CHARS] or None


def iso_date(value: str | None) -> str | None:
    """A PDF (``D:20161231184323+01'00'``) or XMP (ISO 8601) date as ISO 8601; None when
    it is neither or names no real date."""
    if not value:
        return None
    value = value.strip()
    iso = _ISO_DATE.fullmatch(value)
    if iso:
        year, month, day, hour, minute, second, zone = iso.groups()
        return _iso(year, month, day, hour, minute, second, zone)
    pdf = _PDF_DATE.fullmatch(value)
    if pdf is None:
        return None
    year, month, day, hour, minute, second, sign, zh, zm = pdf.groups()
    zone = None
    if sign in ("Z", "z"):
        zone = "Z"
    elif sign and zh:
        zone = f"{sign}{zh}:{zm or '00'}"
    return _iso(year, month, day, hour, minute, second, zone)


def _iso(
    year: str,
    month: str | None,
    day: str | None,
    hour: str | None,
    minute: str | None,
    second: str | None,
    zone: str | None,
) -> str | None:
    from datetime import datetime

    try:
        # Checked by datetime (month 13, February 30th and hour 25 are no date).
        datetime(int(year), int(month or 1), int(day or 1), int(hour or 0), int(minute or 0))
        if second is not None and int(second) > 59:
            return None
    except ValueError:
        return None
    if zone is not None and zone != "Z" and (int(zone[1:3]) > 14 or int(zone[4:6]) > 59):
        zone = None
    out = year
    if month:
        out += f"-{month}"
        if day:
            out += f"-{day}"
            if hour:
                out += f"T{hour}:{minute or '00'}:{second or '00'}"
                if zone:
                    out += "+00:00" if zone == "Z" else zone
    return out


_XMP_START = b"<x:xmpmeta"
_XMP_END = b"</x:xmpmeta>"
_TAG_VALUE = r"<{tag}\b[^>]*>(.*?)</{tag}>"
_ATTR_VALUE = r"""\b{tag}\s*=\s*(?:"([^"]*)"|'([^']*)')"""
_LI = re.compile(r"<rdf:li\b[^>]*>(.*?)</rdf:li>", re.S)
_MARKUP = re.compile(r"<[^>]*>")


def find_xmp(body: bytes) -> str | None:
    """The document's XMP packet as text, when the raw bytes hold one uncompressed. The
    last packet wins: an incremental update appends the newer one."""
    end = body.rfind(_XMP_END)
    if end < 0:
        return None
    start = body.rfind(_XMP_START, max(0, end - XMP_MAX_BYTES), end)
    if start < 0:
        return None
    return body[start : end + len(_XMP_END)].decode("utf-8", "replace")


def _xmp_field(xmp: str, tag: str) -> str | None:
    """A property as an element (a plain value, or the first rdf:li of an Alt, Seq or Bag,
    the others joined for a Seq of authors) or as an attribute of rdf:Description."""
    found = re.search(_TAG_VALUE.format(tag=re.escape(tag)), xmp, re.S)
    if found:
        inner = found.group(1)
        items = _LI.findall(inner)
        text = ", ".join(items) if tag == "dc:creator" else (items[0] if items else inner)
        text = _MARKUP.sub("", text)
    else:
        attr = re.search(_ATTR_VALUE.format(tag=re.escape(tag)), xmp)
        if attr is None:
            return None
        text = attr.group(1) if attr.group(1) is not None else attr.group(2)
    return html.unescape(text).strip() or None


def from_xmp(xmp: str) -> dict[str, str | None]:
    return {
        "title": clean_value(_xmp_field(xmp, "dc:title")),
        "author": clean_value(_xmp_field(xmp, "dc:creator")),
        "subject": clean_value(_xmp_field(xmp, "dc:description")),
        "date": iso_date(_xmp_field(xmp, "xmp:CreateDate")),
        "modified": iso_date(_xmp_field(xmp, "xmp:ModifyDate")),
        "producer": clean_value(_xmp_field(xmp, "pdf:Producer")),
    }


def from_info(info: dict[str, str]) -> dict[str, str | None]:
    """From the information dictionary as PDFium decodes it (FPDF_GetMetaText keys)."""
    return {
        "title": clean_value(info.get("Title")),
        "author": clean_value(info.get("Author")),
        "subject": clean_value(info.get("Subject")),
        "date": iso_date(info.get("CreationDate")),
        "modified": iso_date(info.get("ModDate")),
        "producer": clean_value(info.get("Producer")),
    }


def metadata(info: dict[str, str], body: bytes) -> dict[str, str | None]:
    """title, author, date, modified, subject, producer (str or None) and type ``pdf``.
    The JSON object (wf.pipeline) puts the HTML metadata's keys first, the others null:
    importing them here would cost the text path wf.extract.metadata's import."""
    found = from_info(info)
    if any(value is None for value in found.values()):
        xmp = find_xmp(body)
        if xmp is not None:
            for key, value in from_xmp(xmp).items():
                found[key] = found[key] or value
    found["type"] = "pdf"
    return found


def outline(entries: list[tuple[int, str, int | None]]) -> list[dict[str, Any]]:
    """Bookmarks as the reader found them (level, title, 0-based page or None)."""
    return [
        {"title": clean_value(title), "page": None if page is None else page + 1, "level": level}
        for level, title, page in entries[:OUTLINE_MAX]
    ]
