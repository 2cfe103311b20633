"""What kind of body this is: HTML to extract, a PDF to read, a feed to list, text to
print as it is, binary to save.

The Content-Type header is believed unless the bytes say otherwise: a PNG served as
text/html is still a PNG, and a PDF is a PDF whatever its type says."""

from __future__ import annotations

import re

from common.decode import charset_from_content_type, sniff_bom

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"%PDF-", "application/pdf"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x1f\x8b", "application/gzip"),
    (b"BZh", "application/x-bzip2"),
    (b"\xfd7zXZ\x00", "application/x-xz"),
    (b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed"),
    (b"\x7fELF", "application/x-executable"),
    (b"RIFF", "application/octet-stream"),
    (b"OggS", "audio/ogg"),
    (b"ID3", "audio/mpeg"),
    (b"\x00\x00\x00\x18ftyp", "video/mp4"),
    (b"\x00\x00\x00\x20ftyp", "video/mp4"),
    (b"wOFF", "font/woff"),
    (b"wOF2", "font/woff2"),
)

_TEXT_APPLICATION = (
    "application/json",
    "application/ld+json",
    "application/xml",
    "application/javascript",
    "application/ecmascript",
    "application/x-javascript",
    "application/x-ndjson",
    "application/yaml",
    "application/x-yaml",
    "application/toml",
    "application/sql",
    "application/x-sh",
    "application/csv",
    "application/rss+xml",
    "application/atom+xml",
    "application/openmetrics-text",
)


PDF_MIMES = ("application/pdf", "application/x-pdf")
_PDF_MAGIC = b"%PDF-"
_PDF_WINDOW = 1024


def is_pdf(body: bytes) -> bool:
    """The PDF header, which the format (and PDFium) allows anywhere in the first 1024
    bytes; before it only bytes that are not markup (a page that quotes ``%PDF-`` in its
    text has a ``<`` before it)."""
    at = body.find(_PDF_MAGIC, 0, _PDF_WINDOW)
    return at == 0 or (at > 0 and b"<" not in body[:at])


def mime_of(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def sniff_binary(body: bytes, *, wide: bool = False) -> str | None:
    """A MIME type when the first bytes are a known binary format, or hold NUL bytes that
    no UTF-16/32 BOM or declared charset (``wide``) explains."""
    for magic, mime in _MAGIC:
        if body.startswith(magic):
            return mime
    if b"\x00" in body[:1024] and not wide and sniff_bom(body) is None:
        return "application/octet-stream"
    return None


def _wide_charset(content_type: str | None) -> bool:
    charset = charset_from_content_type(content_type) or ""
    return charset.startswith(("utf-16", "utf-32"))


def _utf8_head(body: bytes) -> bytes:
    """The first 64 KiB as UTF-8 when a UTF-16/32 BOM says how to read them."""
    bom = sniff_bom(body)
    if bom is None or bom[0] == "utf-8":
        return body[:65536]
    return body[bom[1] : 65536].decode(bom[0], "replace").encode("utf-8")


# The HTML signatures of the WHATWG MIME Sniffing standard (a tag name followed by a space
# or ">"), and the tags a saved page or a fragment most often opens with beside them:
# `<meta charset>`, `<link>`, sectioning and list elements, headings of every level.
_HTML_START = re.compile(
    rb"<(?:!doctype\s+html|html|head|script|iframe|h[1-6]|div|font|table|a|style|title|b|"
    rb"body|br|p|meta|link|base|noscript|section|article|main|header|footer|nav|ul|ol|dl|"
    rb"span|img|form|pre|blockquote|center|template)[ \t\r\n\f>/]|<!--"
)


def looks_like_html(body: bytes) -> bool:
    head = body[:1024].lstrip(b"\xef\xbb\xbf \t\r\n\f").lower()
    return _HTML_START.match(head) is not None or (
        b"<html" in head or b"<body" in head or b"<div" in head or b"<p>" in head
    )


# Feeds by their type; application/rdf+xml is any RDF, a feed only by its root element.
FEED_TYPES = ("application/rss+xml", "application/atom+xml")
# Types under which a feed's root element is looked for: the generic XML ones, HTML (servers
# send feeds as text/html) and none at all. text/plain and the rest are printed as they are.
_FEED_SNIFFED = (
    "",
    "application/octet-stream",
    "binary/octet-stream",
    "application/xml",
    "text/xml",
    "application/rdf+xml",
    "text/html",
    "application/xhtml+xml",
)


def is_feed(mime: str, body: bytes) -> bool:
    """An RSS or Atom feed: by its type (rss+xml, atom+xml), or by its root element (an
    anchored match on the first 64 KiB: an HTML page fails at its first tag)."""
    if mime in FEED_TYPES:
        return True
    if mime not in _FEED_SNIFFED:
        return False
    from wf.feed import sniff_root

    return sniff_root(_utf8_head(body)) is not None


def classify(content_type: str | None, body: bytes) -> tuple[str, str]:
    """(kind, mime) with kind one of html, pdf, feed, text, binary, empty."""
    mime = mime_of(content_type)
    if not body:
        return "empty", mime
    if is_pdf(body):
        return "pdf", "application/pdf"
    binary = sniff_binary(body, wide=_wide_charset(content_type))
    if not binary and is_feed(mime, body):
        return "feed", mime or "application/xml"
    if mime in ("text/html", "application/xhtml+xml"):
        return ("binary", binary) if binary else ("html", mime)
    if binary:
        return "binary", mime if mime and not mime.startswith("text/") else binary
    if mime.startswith("text/") or mime in _TEXT_APPLICATION or mime.endswith(("+json", "+xml")):
        return "text", mime
    if not mime or mime in ("application/octet-stream", "binary/octet-stream"):
        head = _utf8_head(body)
        if looks_like_html(head):
            return "html", "text/html"
        try:
            head.decode("utf-8")
            return "text", mime or "text/plain"
        except UnicodeDecodeError as exc:
            # A multi-byte character cut at the sniff boundary is still text.
            if exc.start >= 65536 - 4:
                return "text", mime or "text/plain"
        return "binary", mime or "application/octet-stream"
    return "binary", mime
