"""A search engine's HTML answer: decoded and parsed only when a check asks, and the lxml
helpers the parsers share (compiled XPath, class tests, text of a node, and the result
rows: ``Rows``, ``parse_rows``, ``result_of``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ws.backends.base import check_stop, run_environ, stopping
from ws.results import Result


class ResultsPage:
    """An HTML answer. Nothing is decoded or parsed until a check asks for it, and the
    tree is built from the bytes: decoding a 550 KB page to str alone costs 2 ms."""

    def __init__(self, body: bytes, content_type: str | None) -> None:
        self.body = body
        self.content_type = content_type

    @cached_property
    def charset(self) -> str:
        from common.decode import charset_from_content_type, sniff_bom, sniff_declared

        bom = sniff_bom(self.body)
        if bom is not None:
            return bom[0]
        return charset_from_content_type(self.content_type) or sniff_declared(self.body) or "utf-8"

    @cached_property
    def text(self) -> str:
        from common.decode import decode_body

        return decode_body(self.body, self.content_type)[0]

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    @cached_property
    def doc(self) -> Any:
        return parse_html(self.body, self.charset)

    def fragment(self, data: bytes) -> Any:
        """A tree of a part of the page alone (in the page's charset), for engines whose
        results sit in one region."""
        # Collapsing the indentation first was measured: the parse it saves (0.1 ms on
        # Brave's 196 KB region) is less than the split and join cost (0.6 ms).
        return parse_html(data, self.charset)

    @cached_property
    def visible_text(self) -> str:
        """Text a reader would see (title included), without scripts and styles."""
        from lxml import etree

        # A copy without them, read by itertext() in C: an XPath asking each text node
        # for a script or style above it read every level up for each (49 000 text nodes
        # 250 deep: 0.75 s of CPU for each engine that reads the page, now 0.05 s).
        doc = self.doc
        if next(doc.iter("script", "style"), None) is not None:
            from copy import deepcopy

            check_stop()
            doc = deepcopy(doc)
            etree.strip_elements(doc, "script", "style", with_tail=False)
        check_stop()
        return collapsed(" ".join(doc.itertext()))


# Characters whose runs of white space collapsed are read between two asks of check_stop:
# the one split of 8 MB of text held the interpreter lock 0.15 s, past the deadline's last
# wait; half a megabyte takes about 10 ms.
_WINDOW = 1 << 19


def collapsed(text: str) -> str:
    """``" ".join(text.split())``, asking check_stop every _WINDOW characters or so: each
    piece ends just after a white space character, so no word is cut in two."""
    if len(text) <= _WINDOW:
        return " ".join(text.split())
    import re

    space = re.compile(r"\s")
    parts: list[str] = []
    start = 0
    while start < len(text):
        check_stop()
        found = space.search(text, start + _WINDOW)
        end = found.end() if found is not None else len(text)
        words = text[start:end].split()
        if words:
            parts.append(" ".join(words))
        start = end
    return " ".join(parts)


def parse_html(data: bytes, charset: str = "utf-8") -> Any:
    """An lxml tree for any bytes, even empty or broken ones.

    Plain etree elements, not lxml.html's: its per-element class lookup runs in Python
    and costs more than the parse on a results page.
    """
    from lxml import etree

    from common.parse_limits import limit

    root = None
    check_stop()
    # A results page loses nothing a parser needs; stopped, the checks end at once.
    data, _cut = limit(data, late=stopping, environ=run_environ())
    check_stop()
    if data and not data.isspace():  # unlike strip(), no copy of the page
        try:
            root = etree.fromstring(
                data, etree.HTMLParser(encoding=charset, remove_comments=True, collect_ids=False)
            )
        except (etree.ParserError, ValueError, LookupError):
            root = None
        if root is None:
            # libxml2 knows fewer charsets than Python (utf-16-le, euc_jp, iso2022_jp...):
            # decode here and hand it UTF-8.
            try:
                text = data.decode(charset, "replace")
            except LookupError:
                text = data.decode("utf-8", "replace")
            utf8 = etree.HTMLParser(encoding="utf-8", remove_comments=True, collect_ids=False)
            try:
                root = etree.fromstring(text.encode("utf-8", "replace"), utf8)
            except (etree.ParserError, ValueError):
                root = None
    check_stop()
    return root if root is not None else etree.fromstring(b"<html></html>", etree.HTMLParser())


def text_of(node: Any) -> str:
    return "".join(node.itertext()) if node is not None else ""


def xpath(expr: str) -> Any:
    """A compiled XPath (see common/xpath.py for the thread rule)."""
    from common.xpath import compiled

    return compiled(expr)


# A submit button that says Next: DuckDuckGo's next-page form has one ("Next" on the html
# endpoint, "Next Page >" on lite; the previous-page form beside it says "Previous").
_NEXT_BUTTON = "//input[@type='submit' and contains(translate(@value, 'NEXT', 'next'), 'next')]"
_HIDDEN = "//input[@type='hidden' and @name]"


def next_form(page: ResultsPage) -> dict[str, str] | None:
    """The hidden fields of the page's next-page form (any form around a Next button), or
    None when it has none.

    Two searches and walks up that stop where an earlier one passed: one XPath asking
    each form for its fields merged them in quadratic time (10 000 forms: 1 s of CPU in
    libxml2, which no check_stop can end)."""
    doc = page.doc
    forms = set()
    passed: set[Any] = set()
    for button in xpath(_NEXT_BUTTON)(doc):
        check_stop()
        above = button.getparent()
        while above is not None and above not in passed:
            passed.add(above)
            if above.tag == "form":
                forms.add(above)
            above = above.getparent()
    if not forms:
        return None
    fields = {}
    inside: dict[Any, bool] = {}
    for field in xpath(_HIDDEN)(doc):
        check_stop()
        if _in_one_of(field, forms, inside):
            fields[field.get("name")] = field.get("value", "")
    return fields or None


def _in_one_of(node: Any, boxes: set[Any], inside: dict[Any, bool]) -> bool:
    """Whether one of ``boxes`` holds ``node``; ``inside`` keeps each element's answer, so
    that a walk up stops at the first element an earlier walk answered."""
    path, verdict = _climb(node, inside)
    for element in reversed(path):
        verdict = verdict or element in boxes
        inside[element] = verdict
    return verdict


def _climb(node: Any, inside: dict[Any, bool]) -> tuple[list[Any], bool]:
    """The elements above ``node``, nearest first, up to the first one ``inside`` has an
    answer for, and that answer (False past the root): each element is read once however
    many nodes below it ask (outermost, _in_one_of)."""
    path: list[Any] = []
    above = node.getparent()
    while above is not None:
        known = inside.get(above)
        if known is not None:
            return path, known
        path.append(above)
        above = above.getparent()
    return path, False


def has_class(name: str) -> str:
    """An XPath predicate body: the element has this whole class token."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def link_target(link: Any, target: Callable[[str], str | None] | None = None) -> str | None:
    """A title link's href, or what ``target`` makes of it (a redirect unwrapped; None
    drops the row: an ad, a link back into the engine)."""
    href: str = link.get("href", "")
    return href if target is None else target(href)


def result_of(
    link: Any,
    provider: str,
    *,
    url: str,
    snippet: str = "",
    title: Any = None,
    published: str | None = None,
) -> Result:
    """One result from its title link: the text of ``title`` (the link itself when None)
    is the title."""
    return Result(
        title=text_of(link if title is None else title),
        url=url,
        snippet=snippet,
        provider=provider,
        published=published,
    )


@dataclass(frozen=True)
class Rows:
    """Where an engine's page keeps its results: one node per result (``results``), and
    within it (XPaths relative to the node) the title link and the snippet."""

    results: str
    link: str
    snippet: str


def outermost(nodes: list[Any]) -> list[Any]:
    """The nodes (in document order) that are inside no other of them, each element above
    them read once: a row's links are looked for in its whole subtree, and rows nested 250
    deep around 40 000 tags read those tags 250 times over (5 s of CPU on DuckDuckGo's
    parser). A walk up stops at the first element whose answer is known; a node kept, or
    inside one kept, answers yes, and the nodes come in document order, so no later node
    can hold an element already answered no."""
    inside: dict[Any, bool] = {}
    kept = []
    for node in nodes:
        path, verdict = _climb(node, inside)
        for element in path:
            inside[element] = verdict
        inside[node] = True
        if not verdict:
            kept.append(node)
    return kept


def parse_rows(
    doc: Any,
    rows: Rows,
    provider: str,
    *,
    target: Callable[[str], str | None] | None = None,
    published: Callable[[Any], str | None] | None = None,
) -> list[Result]:
    """Every result node's first title link, with its first snippet; a node without a
    link, or whose link ``target`` drops, gives none. ``published`` reads a node's date."""
    out: list[Result] = []
    for node in outermost(xpath(rows.results)(doc)):
        check_stop()
        links = xpath(rows.link)(node)
        if not links:
            continue
        url = link_target(links[0], target)
        if url is None:
            continue
        snippets = xpath(rows.snippet)(node)
        out.append(
            result_of(
                links[0],
                provider,
                url=url,
                snippet=text_of(snippets[0]) if snippets else "",
                published=published(node) if published is not None else None,
            )
        )
    return out
