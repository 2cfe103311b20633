"""What a page's <head> (and, when it has none, the page) says of it before cleaning: its
title, its <base href>, and whether it is written in a dense script (Chinese, Japanese)."""

from __future__ import annotations

import re
from typing import Any


def _in_head(root: Any, tag: str) -> Any:
    """The first `tag` child of <head>, found without a walk over the page."""
    for child in root.iterchildren("head"):
        for found in child.iterchildren(tag):
            return found
    return None


def title_of(root: Any) -> str | None:
    """The <title>, else og:title, else the first <h1>; whitespace collapsed."""
    title = _in_head(root, "title")
    if title is not None:
        text = " ".join("".join(title.itertext()).split())
        if text:
            return text
    # Elsewhere only when <head> has none; each search is one pass in C.
    for node in root.iter("title"):
        if next(node.iterancestors("svg"), None) is None:
            text = " ".join("".join(node.itertext()).split())
            if text:
                return text
    for meta in root.iter("meta"):
        if meta.get("property") == "og:title":
            text = " ".join((meta.get("content") or "").split())
            if text:
                return text
    for h1 in root.iter("h1"):
        text = " ".join("".join(h1.itertext()).split())
        if text:
            return text
    return None


# Chinese and Japanese: scripts in which one character is about a word, and words are
# not spaced (Korean is, and reads as the Latin scripts do here).
_DENSE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_DENSE_LANGS = ("zh", "ja")


def dense_script(root: Any, title: str | None) -> bool:
    """Whether the page is in Chinese or Japanese: by <html lang>, else by its
    title (free to look at: a whole-page sample would cost each page a pass)."""
    lang = (root.get("lang") or "").strip().lower()
    if lang:
        return lang.startswith(_DENSE_LANGS)
    return title is not None and len(_DENSE.findall(title)) * 3 >= max(1, len(title))


def base_href(root: Any) -> str | None:
    base = _in_head(root, "base")
    href = base.get("href") if base is not None else None
    return href.strip() if href else None
