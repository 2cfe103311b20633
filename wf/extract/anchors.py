"""The anchors of a document's parts: permalinks (the pilcrow beside a heading or an
API's signature, printed as nothing), the ids an API reference names its entries by, and
footnotes drawn as asides. wf/extract/names.py reads a box's id as no boilerplate name by
them; wf/extract/markdown.py leaves permalinks out of the text."""

from __future__ import annotations

import re
from typing import Any

# What a heading's permalink shows: Sphinx's and MkDocs's pilcrow, a hash, a section
# sign, a link emoji, Doxygen's diamond before each member's title ("◆ spin()"), or nothing
# (Docusaurus's zero-width space); or one glyph of an icon font, in Unicode's private use
# area (the Read the Docs theme's Font Awesome link, U+F0C1), which means nothing as text.
_PERMALINK_TEXT = frozenset(("", "\u00b6", "#", "\u00a7", "\U0001f517", "\u25c6"))
_ICON_GLYPHS = ("\ue000", "\uf8ff")


def permalink(el: Any, heading: bool = True) -> bool:
    """Whether a link is a permalink: to an anchor on the page, showing a symbol and
    nothing else. Outside a heading only the pilcrow is one (Sphinx's beside an API's
    signature, "Link to this definition", or a table's caption) and an icon font's glyph,
    which is nobody's text: a hash or a section sign alone there may be the text's own,
    unless it links to the box it stands in (rustdoc's "§" in each method's section)."""
    # The address first: most links lead elsewhere, and their text need not be read.
    href = el.get("href") or ""
    if not href.startswith("#") or len(el):
        return False
    text = (el.text or "").strip(" \t\n\u200b\u00a0")
    if heading or text == "\u00b6" or _icon(text):
        return text in _PERMALINK_TEXT or _icon(text)
    parent = el.getparent()
    return text in _PERMALINK_TEXT and parent is not None and href == f"#{parent.get('id')}"


def _icon(text: str) -> bool:
    """Whether a text is one glyph of an icon font."""
    return len(text) == 1 and _ICON_GLYPHS[0] <= text <= _ICON_GLYPHS[1]


def permalinked(heading: Any, ident: str) -> bool:
    """Whether a heading holds a permalink to `ident`."""
    target = f"#{ident}"
    return any(a.get("href") == target and permalink(a) for a in heading.iter("a"))


def links_itself(el: Any, ident: str) -> bool:
    """Whether one of an element's own children is a pilcrow permalink to `ident` (its
    children only: nested boxes would each read their whole subtree)."""
    target = f"#{ident}"
    # Its <a> children found by lxml, not each child looked at: names.py asks it of boxes
    # that hold hundreds (a comments box named by its id).
    return any(a.get("href") == target and permalink(a, False) for a in el.iterchildren("a"))


# DPUB-ARIA's roles of a text's notes: docutils (Sphinx) draws its footnotes as `<aside
# role="doc-footnote">`, in an `<aside class="footnote-list">` of them.
_NOTE_ROLES = frozenset(("doc-footnote", "doc-endnote", "doc-endnotes"))


def notes(el: Any) -> bool:
    """Whether an <aside> holds the text's footnotes, not a box beside it: it has a note's
    role, or its first element does."""
    if el.get("role") in _NOTE_ROLES:
        return True
    first = next((c for c in el if isinstance(c.tag, str)), None)
    return first is not None and first.get("role") in _NOTE_ROLES


# An id that is a dotted name of code and nothing else (`django.db.models.QuerySet.dates`,
# rustdoc's `method.share`): CSS can hardly select it, so no stylesheet names a box so;
# an API reference names its entries so. A slash or a hyphen (an ad slot's
# `google_ads_iframe_/6735/n.NPR/x`, `owl.carousel-js`) makes it no such name.
_CODE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def code_name(ident: str) -> bool:
    """Whether an id is a dotted name of code (one without a dot is none, and is not
    searched: names.py asks it of the ids that name boilerplate)."""
    return "." in ident and _CODE_NAME.fullmatch(ident) is not None
