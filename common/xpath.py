"""Compiled XPath expressions for both tools, with one thread rule.

``node.xpath(str)`` compiles its expression on every call, which costs more than the
matching on a results page of ten results; a compiled ``etree.XPath`` is kept instead.
lxml's XPath objects hold evaluation state and are not to be shared by threads (a batch
of pages, hedged searches), so each thread compiles its own, once. lxml is imported on
first use."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from itertools import chain, count
from typing import Any

_local = threading.local()


# EXSLT's string functions (str:concat), which libxml2 runs in C; an expression that
# uses the prefix "str" is compiled with it.
EXSLT_STRINGS = "http://exslt.org/strings"


# The most expressions a thread keeps compiled. The tools' own are about 70 (all the
# extraction sets' pages together), but --select and --remove compile what their user
# wrote: a library process given a new selector on each call kept every one (20 000
# calls of wf.extract(select=...) grew it by 133 MB). The oldest goes first.
CACHE_MAX = 512


def compiled(expression: str) -> Any:
    """This thread's compiled ``etree.XPath`` for ``expression``."""
    if "str:" in expression:
        # lxml (6.0) holds about 100 bytes per evaluation of an XPath object that
        # registers an EXSLT namespace, until the object is freed: kept, held_words grew a
        # long-running process by 330 bytes a page, without end. Compiling costs 2 us.
        return _compile(expression)
    cache: dict[str, Any] | None = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    found = cache.get(expression)
    if found is None:
        if len(cache) >= CACHE_MAX:
            del cache[next(iter(cache))]
        found = cache[expression] = _compile(expression)
    return found


def _compile(expression: str) -> Any:
    from lxml import etree

    # No EXSLT regular expressions (none of the expressions uses them): registering their
    # functions costs every call a third of a short evaluation.
    namespaces = {"str": EXSLT_STRINGS} if "str:" in expression else None
    return etree.XPath(expression, namespaces=namespaces, regexp=False)


def held_words(node: Any, attribute: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """The ``words`` that some ``attribute`` value of ``node``'s document holds: a search
    for a word copies every value, where all of them joined (libexslt's str:concat, in C)
    cost one copy; a word no value holds needs no search (the same nodes)."""
    values = compiled(f"str:concat(//*/@{attribute})")(node)
    return tuple(word for word in words if word in values)


def text_length() -> Any:
    """An XPath function: an element's text length with whitespace collapsed, in C (no
    copy of the text in Python)."""
    return compiled("string-length(normalize-space())")


def text_start(el: Any, chars: int, sep: str = "") -> str:
    """The first `chars` characters of an element's text as written (its descendants'
    and their tails too, joined by `sep`), read no further: a piece past them is not
    copied, so that a box of a megabyte is not read to judge its opening."""
    pieces: list[str] = []
    size = 0
    for piece in el.itertext():
        pieces.append(piece[: max(chars - size, 0)])
        size += len(piece) + len(sep)
        if size >= chars:
            break
    return sep.join(pieces)


def text_upto(el: Any, limit: int) -> tuple[list[str], bool]:
    """The pieces of an element's text as written (its descendants' and their tails too),
    read no further than the piece that takes them past `limit` characters, that piece
    among them; and whether they went past it. What a rule judges by a box's first words,
    or only when the box is short, is not copied whole from a long one."""
    pieces: list[str] = []
    size = 0
    for piece in el.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            return pieces, True
    return pieces, False


def union(node: Any, expression: str) -> list[Any]:
    """What ``compiled(expression)(node)`` finds for a union of location paths to
    elements and attributes ("//time|//*/@class[...]"): the nodes in document order,
    each once. libxml2 merges a union's branches comparing each node with all those
    found before it, so a hostile page with 10000 hits on two branches cost seconds
    (quadratic); each branch is searched apart here and the results merged by their
    place in the page."""
    return merged(node, each(node, expression))


def merged(node: Any, found: list[list[Any]]) -> list[Any]:
    """What the searches in ``found`` (each a location path's elements or attributes in
    ``node``'s document, in document order, as libxml2 gives them) found together: the nodes in
    document order, each once, the first search's node where two found the same one.
    When every node of the later searches is one of the first's, the first's hits are
    the merge, and the page is not read to order them (a link's class of both words and
    "focusable", the cleaning's common case)."""
    found = [hits for hits in found if hits]
    if len(found) < 2:
        return list(found[0]) if found else []
    first = {_key(hit) for hit in found[0]}
    if all(_key(hit) in first for hits in found[1:] for hit in hits):
        return list(found[0])
    # Built in C (zip, dict, lxml's iterator): a comprehension cost as much as a search.
    order = dict(zip(_document(node), count()))
    placed: dict[tuple[int, int], Any] = {}
    for hits in found:
        for hit in hits:
            placed.setdefault(_place(hit, order), hit)
    return [placed[key] for key in sorted(placed)]


def _key(hit: Any) -> Any:
    """A node as a search's hit, the same for two searches' hits: an element itself, an
    attribute by its element and name (each search gives it a string of its own)."""
    if not getattr(hit, "is_attribute", False):
        return hit
    return hit.getparent(), hit.attrname


def each(node: Any, expression: str) -> list[list[Any]]:
    """What each branch of a union finds in ``node``, apart and in the branches' order:
    for a caller that reads each branch's hits on their own, which need no merge (the
    merge reads the whole page into a dict, as long as the searches themselves)."""
    return [compiled(path)(node) for path in branches(expression)]


def tagged(node: Any, tag: str) -> list[Any]:
    """The elements named ``tag`` in ``node``'s document, in document order: what
    ``//tag`` finds, from lxml's walk in C. That walk ends at once on a page that names
    no element so (it looks the name up in the page's dictionary of names first), where
    libxml2's search walks the whole page whatever it holds."""
    root = node.getroottree().getroot()
    before, after = list(root.itersiblings(preceding=True)), list(root.itersiblings())
    if not before and not after:
        return list(root.iter(tag))
    return [el for top in (*reversed(before), root, *after) for el in top.iter(tag)]


def _document(node: Any) -> Iterator[Any]:
    """Every node of ``node``'s document in document order: a page can hold elements
    beside its root (libxml2 puts a second <html> there), which a search finds too."""
    root = node.getroottree().getroot()
    before, after = list(root.itersiblings(preceding=True)), list(root.itersiblings())
    if not before and not after:
        whole: Iterator[Any] = root.iter()
        return whole
    return chain.from_iterable(top.iter() for top in (*reversed(before), root, *after))


def _place(hit: Any, order: dict[Any, int]) -> tuple[int, int]:
    """A node's place in the page: its element's, then (an attribute) its own among the
    element's attributes, which follow the element in document order."""
    if not getattr(hit, "is_attribute", False):
        return order[hit], -1
    parent = hit.getparent()
    return order[parent], parent.keys().index(hit.attrname)


# Split once per expression, not on every page: the callers' expressions are a few
# constants, and the split reads each character in Python. lru_cache is thread-safe.
@functools.lru_cache(maxsize=256)
def branches(expression: str) -> tuple[str, ...]:
    """The paths of a union, split at each "|" outside brackets, parentheses and quotes."""
    parts: list[str] = []
    depth, quote, start = 0, "", 0
    for at, char in enumerate(expression):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(expression[start:at])
            start = at + 1
    parts.append(expression[start:])
    return tuple(parts)
