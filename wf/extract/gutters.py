"""Line numbers and button labels drawn inside a code block and marked by style, not by
name: no part of the code a reader copies, and dropped when the page is cleaned.

wf.extract.codetext drops a gutter its highlighter names (`linenos`, `lnt`). CSS-in-JS
(emotion, styled-components) names it `css-519pyc` instead, and declares that class
`user-select: none` in a <style> beside it: a browser's selection, and so a paste, skips
such an element, as it does one whose own style says so. An element hidden from screen
readers (aria-hidden) inside a code block is the same kind of drawing. Such an element is
left out when its whole text is line numbers or a control's label (code_tuning.
CODE_CONTROL: "Copy", "Copied!"); any other text in it stays, as written: a prompt ("$ ",
">>> ") the page makes unselectable still tells the commands of a session from their
output, and code itself is never dropped for its style.

The page's <style> text is read once, at most code_tuning.STYLE_READ_MAX characters, for
the classes it declares unselectable; the code blocks are walked only when there are some
(or unselectable elements), each element once."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice
from typing import Any

from wf.extract import code_tuning

_UNSELECTABLE = re.compile(r"user-select\s*:\s*none", re.IGNORECASE)
_CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")
_COMBINATOR = re.compile(r"[\s>+~]+")
_CONTROL = re.compile(code_tuning.CODE_CONTROL)
_PSEUDO_ELEMENT = re.compile(r"::|:(?:before|after|marker)", re.IGNORECASE)


def unselectable_classes(styles: Iterable[Any]) -> frozenset[str]:
    """The classes the page's <style> elements ``styles`` declare `user-select: none`
    (vendor prefixes too). Only the subject of a selector counts, the last compound
    (`.highlight .gp` marks `gp`, not the box around every block); a rule of a
    pseudo-element (`::before`) marks no element's own text."""
    found: set[str] = set()
    budget = code_tuning.STYLE_READ_MAX
    for style in styles:
        if budget <= 0:
            break
        text = style.text
        if not text:
            continue
        text = text[:budget]
        budget -= len(text)
        if not _UNSELECTABLE.search(text):
            continue
        # Split, not matched by a pattern: a rule's pattern retried at every character of
        # a style without braces would read it again from each.
        for rule in text.split("}"):
            head, _, body = rule.rpartition("{")
            if not head or not _UNSELECTABLE.search(body):
                continue
            # After an at-rule's brace (`@media (...) { .gutter {`), the selectors.
            for selector in head.rpartition("{")[2].split(","):
                subject = _COMBINATOR.split(selector.strip())[-1]
                if not _PSEUDO_ELEMENT.search(subject):
                    found.update(_CLASS.findall(subject.split(":", 1)[0]))
    return frozenset(found)


def _marked(hits: Iterable[Any]) -> set[Any]:
    """The elements whose own attributes say they are drawn only: a style of
    `user-select: none`, or aria-hidden. ``hits``: hidden.HIDDEN_XPATH's, which hold
    every style and aria-hidden attribute of the page."""
    marked: set[Any] = set()
    for hit in hits:
        name = getattr(hit, "attrname", None)
        if name == "style":
            if _UNSELECTABLE.search(hit):
                marked.add(hit.getparent())
        elif name == "aria-hidden" and hit.strip().lower() == "true":
            marked.add(hit.getparent())
    return marked


def _drawn_only(el: Any) -> bool:
    """Whether an element's text is line numbers or a control's label, and nothing else.
    A gutter's number or a label is an element or a few: a box of more elements is read
    no further (a bound on what each judged element costs)."""
    if next(islice(el.iter(), code_tuning.DRAWN_NODES, None), None) is not None:
        return False
    text = " ".join("".join(el.itertext()).split())
    if not text or len(text) > code_tuning.DRAWN_MAX:
        return False
    return all(word.isdigit() for word in text.split()) or bool(_CONTROL.fullmatch(text.lower()))


def _named(cls: str | None, classes: frozenset[str]) -> bool:
    return cls is not None and not classes.isdisjoint(cls.split())


def gutters(root: Any, classes: frozenset[str], hits: Iterable[Any]) -> list[Any]:
    """The elements inside the code blocks (<pre>, <code>) of ``root`` that are line
    numbers or labels drawn only: of a class in ``classes`` (unselectable_classes), or
    marked so by their own attributes (``hits``, see _marked)."""
    marked = _marked(hits)
    if not classes and not marked:
        return []
    from lxml import etree

    gone: list[Any] = []
    inner: set[Any] = set()  # blocks inside a block already walked
    for block in root.iter("pre", "code"):
        if block in inner:
            continue
        walker = etree.iterwalk(block, events=("start",))
        for _, el in walker:
            tag = el.tag
            if el is block or not isinstance(tag, str):
                continue
            if tag == "pre" or tag == "code":
                inner.add(el)
            if el in marked or (classes and _named(el.get("class"), classes)):
                if _drawn_only(el):
                    gone.append(el)
                # Judged whole, kept or not: what it holds is not judged again.
                walker.skip_subtree()
    return gone
