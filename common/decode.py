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


def decode_for_parser(body: bytes, content_type: str | None = None) -> tuple[str | bytes, str]:
    """decode_body for a page that goes to a parser taking UTF-8: the body itself (without
    its BOM) when it is valid UTF-8 and nothing in it says otherwise, so that
    ``utf8_bytes(data)`` finds the same and no str of the page need exist (one character
    above U+FFFF makes Python hold every character of one in four bytes); else the str."""
    found = utf8_bytes(body, content_type)
    if found is not None and _choice(found[0], None)[::2] in ((None, 0), ("utf-8", 0)):
        trace.trace("charset: utf-8, from %s", found[1])
        return found[0], "utf-8"
    return decode_body(body, content_type)


def utf8_bytes(body: bytes, content_type: str | None = None) -> tuple[bytes, str] | None:
    """(the body without its BOM, where UTF-8 came from) when decode_body would read it as
    UTF-8 and every byte of it is valid UTF-8: the text decode_body returns is exactly
    these bytes decoded. None otherwise. Nothing is decoded into a str that outlives a
    chunk of the check."""
    found = _read_as_utf8(body, content_type)
    return found if found is not None and _valid_utf8(found[0]) else None


def utf8_text(body: bytes, content_type: str | None = None) -> tuple[str, str] | None:
    """(text, where UTF-8 came from) when decode_body would read the body as UTF-8 and
    every byte of it is valid UTF-8: utf8_bytes for a body small enough that its str is no
    burden, decoded once (the decode is the check). None otherwise."""
    found = _read_as_utf8(body, content_type)
    if found is None:
        return None
    try:
        return found[0].decode("utf-8"), found[1]
    except UnicodeDecodeError:
        return None


def _read_as_utf8(body: bytes, content_type: str | None) -> tuple[bytes, str] | None:
    """(the body without its BOM, where UTF-8 came from) when decode_body would read it as
    UTF-8, valid or not; None when it would read it in another charset."""
    name, source, skip = _choice(body, content_type)
    if name not in (None, "utf-8"):
        return None
    return (body[skip:] if skip else body), source if name else "the bytes (valid UTF-8)"


_VALIDATE_CHUNK = 1 << 20


def _valid_utf8(data: bytes) -> bool:
    if data.isascii():
        return True
    check = codecs.getincrementaldecoder("utf-8")("strict").decode
    view = memoryview(data)
    try:
        for start in range(0, len(data), _VALIDATE_CHUNK):
            check(view[start : start + _VALIDATE_CHUNK])
        check(b"", True)  # a sequence cut at the end
    except UnicodeDecodeError:
        return False
    return True


def _choice(body: bytes, content_type: str | None) -> tuple[str | None, str, int]:
    """The charset a body is read in before any of it is decoded: (its name, or None when
    only the bytes can tell; where it came from; the length of the BOM to skip)."""
    bom = sniff_bom(body)
    if bom is not None:
        # A BOM is stronger than any header, a UTF one that disagrees included (as
        # browsers do).
        name, skip = bom
        return name, "the byte order mark", skip
    declared = charset_from_content_type(content_type)
    if declared and declared.startswith(("utf-16", "utf-32")) and b"\0" not in body[:1024]:
        # UTF-16 or UTF-32 text always has NUL bytes; a body without any is not in them.
        declared = None
    if declared:
        return declared, "the Content-Type header", 0
    meta = sniff_declared(body)
    if meta:
        return meta, "the document's <meta> or XML declaration", 0
    return None, "the bytes", 0


def _decode(body: bytes, content_type: str | None) -> tuple[str, str, str]:
    """(text, charset used, where the charset came from: for the -v trace)."""
    name, source, skip = _choice(body, content_type)
    if skip:
        assert name is not None  # a BOM names its charset
        return body[skip:].decode(name, "replace"), name, source
    if name:
        return _decode_declared(body, name, source)
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
    # Counted in C: a loop over each character took 0.5 s on 10 MB, before any deadline
    # of the extraction could look.
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return bad <= non_ascii - bad
