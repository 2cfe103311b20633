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

Most pages pay nothing: the cleaning calls this only for a page with a code block, and
one search in C finds the elements shaped like a gutter's number or a label (few
elements, short text, digits or a label's first letters, inside a <pre> or <code>).
Only when a class is shared by a few such numbers (a gutter numbers most lines), or a
label carries one, is the page's <style> text read, and only around those class names:
a substring search for each, then the rule around each hit, a bounded window."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from common.xpath import compiled
from wf.extract import code_tuning

_UNSELECTABLE = re.compile(r"user-select\s*:\s*none", re.IGNORECASE)
_CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")
_COMBINATOR = re.compile(r"[\s>+~]+")
_CONTROL = re.compile(code_tuning.CODE_CONTROL)
_PSEUDO_ELEMENT = re.compile(r"::|:(?:before|after|marker)", re.IGNORECASE)
_NAME_CHAR = re.compile(r"[\w-]")

_TEXT = "normalize-space()"
_LOWER = "translate(substring(normalize-space(), 1, {n}), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', "
_LOWER += "'abcdefghijklmnopqrstuvwxyz')"
# Elements drawn in a code block's shape: marked somehow (a class, a style, aria-hidden),
# of few elements (a positional step stops at the DRAWN_NODES-th: a big box is not read
# to its end), of short text that is digits or starts as a label does, and inside a
# block (asked last, of the few left: the ancestors of each).
CANDIDATES = (
    "//*[@class or @style or @aria-hidden]"
    f"[not(descendant::*[{code_tuning.DRAWN_NODES}])]"
    f"[{_TEXT} and string-length({_TEXT}) <= {code_tuning.DRAWN_MAX}]"
    f"[translate({_TEXT}, '0123456789 ', '') = '' or "
    + " or ".join(
        f"{_LOWER.format(n=len(start))} = '{start}'" for start in code_tuning.CODE_CONTROL_STARTS
    )
    + "][ancestor::pre or ancestor::code]"
)


def _text(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


def _digits(text: str) -> bool:
    return all(word.isdigit() for word in text.split())


def _own_mark(el: Any) -> bool:
    """Whether an element's own attributes say it is drawn only: a style of
    `user-select: none`, or aria-hidden."""
    style = el.get("style")
    if style and _UNSELECTABLE.search(style):
        return True
    hidden = el.get("aria-hidden")
    return hidden is not None and hidden.strip().lower() == "true"


def gutters(root: Any, styles: Sequence[Any]) -> list[Any]:
    """The elements inside the code blocks (<pre>, <code>) of ``root`` that are line
    numbers or labels drawn only: marked so by their own attributes, or of a class one of
    the page's <style> elements ``styles`` declares `user-select: none` (unselectable)."""
    gone: list[Any] = []
    by_class: dict[str, list[Any]] = {}  # the candidates of each class, numbers or labels
    labelled: set[str] = set()  # the classes a label carries: one is enough
    for el in compiled(CANDIDATES)(root):
        text = _text(el)
        digits = _digits(text)
        if not digits and not _CONTROL.fullmatch(text.lower()):
            continue
        if _own_mark(el):
            gone.append(el)
            continue
        for name in (el.get("class") or "").split():
            by_class.setdefault(name, []).append(el)
            if not digits:
                labelled.add(name)
    # A gutter numbers most lines of its block: a class of one number (a literal of the
    # code) is not worth reading the styles for.
    least = code_tuning.GUTTER_SHARED
    shared = [n for n, els in by_class.items() if n in labelled or len(els) >= least]
    if not shared:
        return gone
    # The most used first, as many as the cap: each is one search of the style text.
    shared.sort(key=lambda n: len(by_class[n]), reverse=True)
    names = unselectable(styles, shared[: code_tuning.GUTTER_CLASSES_MAX])
    kept = set(gone)
    for name in names:
        for el in by_class[name]:
            if el not in kept:
                kept.add(el)
                gone.append(el)
    return gone


def unselectable(styles: Iterable[Any], names: Sequence[str]) -> set[str]:
    """Those of the class ``names`` that the <style> elements ``styles`` declare
    `user-select: none` (vendor prefixes too). Only the subject of a selector counts, the
    last compound (`.highlight .gp` marks `gp`, not the box around every block); a rule
    of a pseudo-element (`::before`) marks no element's own text. At most code_tuning.
    STYLE_READ_MAX characters of style are read, a search for each name."""
    text = _style_text(styles)
    found: set[str] = set()
    if not text or not _UNSELECTABLE.search(text):
        return found
    for name in names:
        if _declared(text, name):
            found.add(name)
    return found


def _style_text(styles: Iterable[Any]) -> str:
    """The styles' text, each rule apart (a style cut short is closed), read to the cap."""
    pieces: list[str] = []
    budget = code_tuning.STYLE_READ_MAX
    for style in styles:
        if budget <= 0:
            break
        text = style.text
        if text:
            pieces.append(text[:budget])
            budget -= len(text)
    return "}\n".join(pieces)


def _declared(text: str, name: str) -> bool:
    """Whether a rule of the style ``text`` declares the class ``name`` unselectable: each
    hit of "." + name (at most GUTTER_HITS_MAX) read with the rule around it, within
    GUTTER_RULE_MAX characters either side (a longer rule is none a gutter is drawn by)."""
    needle, window = "." + name, code_tuning.GUTTER_RULE_MAX
    at = text.find(needle)
    hits = 0
    while at >= 0 and hits < code_tuning.GUTTER_HITS_MAX:
        hits += 1
        end = at + len(needle)
        following = end if end >= len(text) or not _NAME_CHAR.match(text, end) else -1
        if following >= 0 and _rule_marks(text, at, following, window, name):
            return True
        at = text.find(needle, end)
    return False


def _rule_marks(text: str, at: int, end: int, window: int, name: str) -> bool:
    """Whether the rule whose selectors hold ``text[at:end]`` (a class, ``name``) marks
    it, its subject, unselectable."""
    opening = text.find("{", end, end + window)
    if opening < 0 or "}" in text[end:opening]:
        return False  # a name in a declaration (`url(a.mi)`), or beyond the window
    closing = text.find("}", opening, opening + window)
    if not _UNSELECTABLE.search(text[opening + 1 : closing if closing >= 0 else opening + window]):
        return False
    low = max(at - window, 0)
    start = max(text.rfind("}", low, at), text.rfind("{", low, at), low - 1)
    for selector in text[start + 1 : opening].split(","):
        subject = _COMBINATOR.split(selector.strip())[-1]
        if not _PSEUDO_ELEMENT.search(subject) and name in _CLASS.findall(subject.split(":", 1)[0]):
            return True
    return False
