"""--select and --remove: CSS selectors over the parsed page, before extraction.

CSS is translated to XPath by cssselect (lxml's own companion; README says why) and
compiled once per thread (common.xpath). ``check`` runs at start-up, before any request,
and needs no lxml: an invalid selector is a usage error (exit 2). ``apply`` works on the
tree: the elements ``--remove`` names go first (their tail text stays), then the page's
body becomes the elements ``--select`` names, outermost only, in document order. When
``--select`` matches nothing the page has no text to give, and that is loud: NoMatch
(exit 65), so that a job watching a page notices its layout changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from common.errors import NoMatch, UsageError

MAX_SELECTOR = 1000  # characters: a selector is written by hand


@dataclass(frozen=True)
class Selection:
    """--select and --remove of one run, checked."""

    select: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.select or self.remove)


@cache
def _translator() -> Any:
    from cssselect import HTMLTranslator

    # HTML's element and attribute names are case-insensitive; lxml's HTML parser has
    # lowercased the page's, and this lowercases the selector's.
    return HTMLTranslator()


def to_xpath(selector: str) -> str:
    """The XPath of one CSS selector (a group ``a, b`` included); ValueError with
    cssselect's words when it is not one cssselect can match."""
    from cssselect import SelectorError
    from cssselect.xpath import ExpressionError

    try:
        return str(_translator().css_to_xpath(selector))
    except (SelectorError, ExpressionError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None


def check(selectors: Sequence[str], option: str) -> tuple[str, ...]:
    """The selectors of ``option`` as given, each checked; UsageError names the first that
    is empty, too long or not CSS that can be matched (a pseudo-element, :hover)."""
    for selector in selectors:
        shown = repr(selector[:80])
        if not selector.strip():
            raise UsageError(f"{option} takes a CSS selector, not an empty string")
        if len(selector) > MAX_SELECTOR:
            raise UsageError(f"{option}: a selector of at most {MAX_SELECTOR} characters")
        try:
            to_xpath(selector)
        except ValueError as exc:
            raise UsageError(
                f"{option} {shown} is not a CSS selector wf can match: {exc}"
            ) from None
    return tuple(selectors)


def _matches(root: Any, selector: str) -> list[Any]:
    from common.xpath import compiled

    found = compiled(to_xpath(selector))(root)
    # Elements only: XPath of CSS never yields text, but the root itself may match
    # (``html``, ``*``), and it cannot be moved or dropped.
    return [el for el in found if isinstance(el.tag, str)]


def remove(root: Any, selectors: Sequence[str]) -> int:
    """Drop every element a selector matches, keeping its tail text; how many went."""
    from wf.extract.hidden import drop_each

    gone = 0
    for selector in selectors:
        found = [
            el for el in _matches(root, selector) if el is not root and el.getparent() is not None
        ]
        # At once: one by one, each joined its tail to the text before it and set that
        # text again, so 20000 matches in a row, each with a tail, took 5.6 s.
        drop_each(found)
        gone += len(found)
    return gone


def select(root: Any, selectors: Sequence[str], *, where: str = "the page") -> int:
    """Make the body hold only the matched elements, outermost first, in document order;
    how many. NoMatch when no selector matches an element (below the root)."""
    from lxml import etree

    chosen: dict[Any, None] = {}
    for selector in selectors:
        for el in _matches(root, selector):
            if el is not root:
                chosen[el] = None
    if not chosen:
        named = ", ".join(repr(s[:80]) for s in selectors)
        raise NoMatch(f"--select {named} matched nothing on {where}")
    # Outermost only: an element inside another chosen one comes with it.
    outer = [el for el in chosen if not any(a in chosen for a in el.iterancestors())]
    order = {el: n for n, el in enumerate(root.iter())}
    outer.sort(key=order.__getitem__)
    body = etree.Element("body")
    for el in outer:
        if el.tag in ("body", "html"):
            # The body itself chosen: its children, as they are.
            body.text = (body.text or "") + (el.text or "")
            for child in list(el):
                body.append(child)
            continue
        el.tail = None  # the tail belongs to the element's old parent, not to the choice
        body.append(el)
    old = root.find("body")
    if old is not None:
        root.replace(old, body)
    else:
        root.append(body)
    return len(outer)


def apply(
    root: Any,
    selected: Sequence[str],
    removed: Sequence[str],
    *,
    where: str = "the page",
) -> None:
    """--remove, then --select, on the parsed page (before cleaning and extraction)."""
    from common import trace

    if removed:
        trace.trace("extract: --remove dropped %d elements", remove(root, removed))
    if selected:
        trace.trace("extract: --select kept %d elements", select(root, selected, where=where))
