"""Markdown from the server: the Accept header that asks for it, and the front matter of a
``text/markdown`` answer as the page's metadata.

Documentation hosts and some CDNs answer ``Accept: text/markdown`` with the page's own
Markdown, which is what wf would otherwise rebuild from the HTML. Such an answer is
printed as it is (the text path: the same cleaning, lines, filters and saving); its front
matter, when it has one, supplies ``metadata``.

The front matter reader is small on purpose: a block between ``---`` lines at the very
start, read as ``key: value`` lines (YAML's flat subset: quoted or plain scalars, comments,
one-line ``[a, b]`` lists whose first item is taken). Anything nested is skipped, so no
YAML library is needed and no document can make the reader work hard: the block is
bounded in lines and characters before any of it is read.
"""

from __future__ import annotations

import re

ACCEPT_MARKDOWN = "text/markdown, text/html;q=0.9, */*;q=0.8"
MARKDOWN_TYPES = ("text/markdown", "text/x-markdown")
MAX_LINES = 200
MAX_CHARS = 64 * 1024
MAX_VALUE = 1000

# Front matter keys as documentation generators write them (Hugo, Jekyll, Docusaurus,
# MkDocs, Astro), to wf's metadata keys; the first found of each wins.
KEY_MAP: dict[str, str] = {
    "title": "title",
    "author": "author",
    "authors": "author",
    "date": "date",
    "published": "date",
    "pubdate": "date",
    "publishdate": "date",
    "created": "date",
    "lastmod": "modified",
    "last_modified": "modified",
    "modified": "modified",
    "updated": "modified",
    "description": "description",
    "summary": "description",
    "lang": "lang",
    "language": "lang",
    "locale": "lang",
    "canonical": "canonical_url",
    "canonical_url": "canonical_url",
    "canonicalurl": "canonical_url",
    "image": "image",
    "cover": "image",
    "type": "type",
    "layout": "type",
    "site": "sitename",
    "sitename": "sitename",
    "site_name": "sitename",
}

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*:(?:\s+(.*)|\s*)$")


def is_markdown(content_type: str | None) -> bool:
    mime = (content_type or "").split(";", 1)[0].strip().lower()
    return mime in MARKDOWN_TYPES


def split(text: str) -> tuple[dict[str, str], str]:
    """The front matter's flat ``key: value`` pairs (keys lowercased, the first of each
    kept) and the text after it; ({}, text) when the text has none, or a block that does
    not close within MAX_LINES and MAX_CHARS."""
    body = text.removeprefix("\ufeff")
    bom = len(text) - len(body)
    lines = body[:MAX_CHARS].split("\n", MAX_LINES + 2)
    if not lines or lines[0].rstrip("\r ") != "---":
        return {}, text
    pairs: dict[str, str] = {}
    used = len(lines[0]) + 1
    for line in lines[1 : MAX_LINES + 2]:
        used += len(line) + 1
        bare = line.rstrip("\r")
        if bare.rstrip() in ("---", "..."):
            return pairs, text[bom + used :]
        if bare[:1] in (" ", "\t", "-", "#") or not bare.strip():
            continue  # nested, a list item, a comment or a blank line
        match = _KEY.match(bare)
        if match is None:
            continue
        key, value = match.group(1).lower(), _scalar(match.group(2) or "")
        if value and key not in pairs:
            pairs[key] = value
    return {}, text


def _scalar(raw: str) -> str:
    """A plain, quoted or one-line-list YAML value as text ("" for what is not one)."""
    value = raw.strip()
    if value[:1] in ("|", ">", "{", "&", "*", "!"):
        return ""  # a block scalar, a mapping, an anchor, an alias, a tag: not read
    if value.startswith("["):
        if not value.endswith("]"):
            return ""
        first = value[1:-1].split(",", 1)[0].strip()
        return _scalar(first) if first and first[0] != "[" else ""
    if value[:1] in ('"', "'"):
        quote = value[0]
        end = _closing(value, quote)
        if end < 0:
            return ""
        inner = value[1:end]
        if quote == "'":
            return inner.replace("''", "'")
        return _unescape(inner)
    # A comment starts at " #" in a plain scalar.
    hash_at = value.find(" #")
    if hash_at >= 0:
        value = value[:hash_at].rstrip()
    return "" if value in ("~", "null", "Null", "NULL") else value


def _closing(value: str, quote: str) -> int:
    """Where the quoted scalar that opens ``value`` closes (-1: it does not): a single
    quote doubles itself inside, a double quote is escaped with a backslash."""
    i = 1
    while i < len(value):
        c = value[i]
        if quote == '"' and c == "\\":
            i += 2
            continue
        if c == quote:
            if quote == "'" and value[i + 1 : i + 2] == "'":
                i += 2
                continue
            return i
        i += 1
    return -1


def _unescape(inner: str) -> str:
    simple = {"n": " ", "t": " ", '"': '"', "\\": "\\", "/": "/", "r": " "}
    out: list[str] = []
    i = 0
    while i < len(inner):
        c = inner[i]
        if c == "\\" and i + 1 < len(inner) and inner[i + 1] in simple:
            out.append(simple[inner[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def metadata(text: str, url: str | None) -> dict[str, str | None]:
    """wf's metadata keys from the front matter of a Markdown answer: each one line, capped,
    URLs absolute and http(s) only, the rest None."""
    from urllib.parse import urljoin, urlsplit

    from common.text import cap, one_line
    from wf.extract.metadata import empty

    found = empty()
    pairs, _ = split(text)
    for key, value in pairs.items():
        name = KEY_MAP.get(key)
        if name is None or found.get(name):
            continue
        clean = cap(one_line(value), MAX_VALUE) or None
        if clean and name in ("canonical_url", "image"):
            try:
                full = urljoin(url, clean) if url else clean
                clean = full if urlsplit(full).scheme.lower() in ("http", "https") else None
            except ValueError:
                clean = None
        if clean and name == "type":
            clean = clean.lower()
        found[name] = clean
    return found
