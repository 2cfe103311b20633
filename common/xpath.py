"""Compiled XPath expressions for both tools, with one thread rule.

``node.xpath(str)`` compiles its expression on every call, which costs more than the
matching on a results page of ten results; a compiled ``etree.XPath`` is kept instead.
lxml's XPath objects hold evaluation state and are not to be shared by threads (a batch
of pages, hedged searches), so each thread compiles its own, once. lxml is imported on
first use."""

from __future__ import annotations

import threading
from typing import Any

_local = threading.local()


# EXSLT's string functions (str:concat), which libxml2 runs in C; an expression that
# uses the prefix "str" is compiled with it.
EXSLT_STRINGS = "http://exslt.org/strings"


def compiled(expression: str) -> Any:
    """This thread's compiled ``etree.XPath`` for ``expression``."""
    cache: dict[str, Any] | None = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    found = cache.get(expression)
    if found is None:
        from lxml import etree

        # No EXSLT regular expressions (none of the expressions uses them): registering
        # their functions costs every call a third of a short evaluation.
        namespaces = {"str": EXSLT_STRINGS} if "str:" in expression else None
        found = cache[expression] = etree.XPath(expression, namespaces=namespaces, regexp=False)
    return found


def text_length() -> Any:
    """An XPath function: an element's text length with whitespace collapsed, in C (no
    copy of the text in Python)."""
    return compiled("string-length(normalize-space())")
