"""Bytes to text: header charset, then a BOM, then <meta charset>, then UTF-8, then a legacy
fallback. Never raises on bad bytes; undecodable bytes become U+FFFD."""

from __future__ import annotations

import codecs
import re

from common import trace

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)""", re.IGNORECASE
)
_CT_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([^"';,\s]+)""", re.IGNORECASE)
_XML_DECL = re.compile(rb"""^<\?xml[^>]+encoding\s*=\s*["']([a-zA-Z0-9_.:-]+)""")

# What browsers do with labels that name a subset: decode as the superset.
_SUPERSETS = {
    "iso-8859-1": "windows-1252",
    "latin-1": "windows-1252",
    "latin1": "windows-1252",
    "us-ascii": "windows-1252",
    "ascii": "windows-1252",
    "iso-8859-9": "windows-1254",
    "tis-620": "cp874",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-sjis": "shift_jis",
}

LEGACY_FALLBACK = "windows-1252"

# Python codecs that are no web charset: they would run escapes in the page (or, for
# UTF-7, hide markup in it). Browsers do not know them either.
_NOT_CHARSETS = frozenset(
    {
        "idna",
        "punycode",
        "raw-unicode-escape",
        "unicode-escape",
        "utf-7",
        "undefined",
        "mbcs",
        "oem",
    }
)


def normalise_charset(label: str | None) -> str | None:
    """A Python codec name for a charset label, or None when it names no text charset."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _SUPERSETS.get(label, label)
    try:
        name = codecs.lookup(label).name
        b"a".decode(name, "replace")  # rot13, base64, zlib... are codecs, not charsets
    except (LookupError, ValueError):
        return None
    return None if name.replace("_", "-") in _NOT_CHARSETS else name


def charset_from_content_type(content_type: str | None) -> str | None:
    if not content_type:
        return None
    m = _CT_CHARSET.search(content_type)
    return normalise_charset(m.group(1)) if m else None


def sniff_bom(body: bytes) -> tuple[str, int] | None:
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name, len(bom)
    return None


def sniff_declared(body: bytes) -> str | None:
    """<meta charset> or an XML declaration within the first 4 KiB."""
    head = body[:4096]
    m = _XML_DECL.search(head) or _META_CHARSET.search(head)
    if not m:
        return None
    name = normalise_charset(m.group(1).decode("ascii", "replace"))
    # A page that reached us as bytes cannot really be UTF-16 if its meta tag is ASCII.
    if name and name.startswith("utf-16"):
        return "utf-8"
    return name


def decode_body(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """Decode a body; returns (text, charset used)."""
    text, name, source = _decode(body, content_type)
    trace.trace("charset: %s, from %s", name, source)
    return text, name


def _decode(body: bytes, content_type: str | None) -> tuple[str, str, str]:
    """(text, charset used, where the charset came from: for the -v trace)."""
    bom = sniff_bom(body)
    declared = charset_from_content_type(content_type)
    if bom is not None:
        # A BOM is stronger than any header, a UTF one that disagrees included (as
        # browsers do).
        name, skip = bom
        return body[skip:].decode(name, "replace"), name, "the byte order mark"
    if declared and declared.startswith(("utf-16", "utf-32")) and b"\0" not in body[:1024]:
        # UTF-16 or UTF-32 text always has NUL bytes; a body without any is not in them.
        declared = None
    if declared:
        return _decode_declared(body, declared, "the Content-Type header")
    meta = sniff_declared(body)
    if meta:
        return _decode_declared(body, meta, "the document's <meta> or XML declaration")
    try:
        return body.decode("utf-8"), "utf-8", "the bytes (valid UTF-8)"
    except UnicodeDecodeError:
        # Mostly UTF-8 with a few bad bytes (a truncated sequence at a cut, say) stays UTF-8.
        if _mostly_utf8(body):
            return body.decode("utf-8", "replace"), "utf-8", "the bytes (mostly UTF-8)"
    return body.decode(LEGACY_FALLBACK, "replace"), LEGACY_FALLBACK, "the fallback (not UTF-8)"


def _decode_declared(body: bytes, name: str, source: str) -> tuple[str, str, str]:
    if name == "utf-8":
        text = body.decode("utf-8", "replace")
        # A page that says UTF-8 but is plainly legacy: browsers would show mojibake; we
        # do better when almost every non-ASCII byte is invalid as UTF-8.
        if "\ufffd" in text and not _mostly_utf8(body):
            legacy = f"the fallback ({source} said UTF-8; the bytes are not)"
            return body.decode(LEGACY_FALLBACK, "replace"), LEGACY_FALLBACK, legacy
        return text, "utf-8", source
    return body.decode(name, "replace"), name, source


def _mostly_utf8(body: bytes) -> bool:
    """UTF-8 with a few stray bytes: at least as many valid multi-byte characters as
    invalid bytes. Legacy text read as UTF-8 has almost no valid multi-byte character."""
    text = body.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    if bad == 0:
        return True
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    return bad <= non_ascii - bad
