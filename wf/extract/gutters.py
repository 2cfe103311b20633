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
_BRACKETS = re.compile(r"\[[^\[\]]*\]")
_STRINGS = re.compile(r"\"[^\"]*\"|'[^']*'")
_PARENS = re.compile(r"\([^()]*\)")

_TEXT = "normalize-space()"
_LOWER = "translate(substring(normalize-space(), 1, {n}), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', "
_LOWER += "'abcdefghijklmnopqrstuvwxyz')"
# Elements drawn in a code block's shape: marked somehow (a class, a style, aria-hidden),
# of few elements (a positional step stops at the DRAWN_NODES-th: a big box is not read
# to its end), of short text that is digits or starts as a label does. Whether one is
# inside a block is asked after (Blocks): an ancestor axis of each would read a deep
# nesting's whole chain again for every number under it.
CANDIDATES = (
    "//*[@class or @style or @aria-hidden]"
    f"[not(descendant::*[{code_tuning.DRAWN_NODES}])]"
    f"[{_TEXT} and string-length({_TEXT}) <= {code_tuning.DRAWN_MAX}]"
    f"[translate({_TEXT}, '0123456789 ', '') = '' or "
    + " or ".join(
        f"{_LOWER.format(n=len(start))} = '{start}'" for start in code_tuning.CODE_CONTROL_STARTS
    )
    + "]"
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
    numbers: dict[str, list[Any]] = {}  # the candidates of each class that are numbers
    labels: dict[str, list[Any]] = {}  # and those that are a control's label
    inside = Blocks()
    for el in compiled(CANDIDATES)(root):
        if not inside(el):
            continue
        text = _text(el)
        digits = _digits(text)
        if not digits and not _CONTROL.fullmatch(text.lower()):
            continue
        if _own_mark(el):
            gone.append(el)
            continue
        for name in (el.get("class") or "").split():
            (numbers if digits else labels).setdefault(name, []).append(el)
    # A gutter numbers the lines of its block: a class of one number (a literal of the
    # code) is not worth reading the styles for, nor one whose numbers count no lines (a
    # session's output, "2" then "42", in a class a theme makes unselectable: _counts).
    # One label is enough.
    drawn = {n: els for n, els in numbers.items() if len(els) >= code_tuning.GUTTER_SHARED}
    drawn = {n: els for n, els in drawn.items() if _counts(els)}
    for name, els in labels.items():
        drawn[name] = drawn.get(name, []) + els
    if not drawn:
        return gone
    # The most used first, as many as the cap: each is one search of the style text.
    shared = sorted(drawn, key=lambda n: len(drawn[n]), reverse=True)
    marks = unselectable(styles, shared[: code_tuning.GUTTER_CLASSES_MAX])
    kept = set(gone)
    for name, compounds in marks.items():
        for el in drawn[name]:
            # A rule marks an element that has every class of its subject: `.token.prompt`
            # marks no number of Prism's `token`.
            classes = set((el.get("class") or "").split())
            if el not in kept and any(c <= classes for c in compounds):
                kept.add(el)
                gone.append(el)
    return gone


class Blocks:
    """Whether an element is inside a code block (<pre>, <code>): its ancestors read up
    to the first one already known, each then known, so that a page's elements are each
    read once however many candidates share them."""

    def __init__(self) -> None:
        self.known: dict[Any, bool] = {}

    def __call__(self, el: Any) -> bool:
        path: list[Any] = []
        node = el.getparent()
        verdict = False
        while node is not None:
            if node in self.known:
                verdict = self.known[node]
                break
            if node.tag == "pre" or node.tag == "code":
                verdict = True
                break
            path.append(node)
            node = node.getparent()
        for node in path:
            self.known[node] = verdict
        return verdict


def _counts(els: Sequence[Any]) -> bool:
    """Whether the numbers of a class's elements, in page order, count lines: most are
    one more than the number before them, or a block's first line (1)."""
    counted = total = 0
    last = None
    for el in els:
        for word in _text(el).split():
            if not word.isdecimal():  # int() reads no "²", which isdigit() takes
                continue
            number = int(word[:9])  # a gutter's numbers are short; a longer one counts none
            counted += number == 1 or (last is not None and number == last + 1)
            total += 1
            last = number
    return total > 0 and counted >= code_tuning.GUTTER_COUNTED * total


def unselectable(styles: Iterable[Any], names: Sequence[str]) -> dict[str, set[frozenset[str]]]:
    """Those of the class ``names`` that the <style> elements ``styles`` declare
    `user-select: none` (vendor prefixes too), each with the classes of the selectors'
    subjects that name it: only the subject of a selector counts, the last compound
    (`.highlight .gp` marks `gp`, not the box around every block), and all its classes
    (`.token.prompt` marks an element of both); a rule of a pseudo-element (`::before`)
    marks no element's own text, nor does a rule inside a comment. At most code_tuning.
    STYLE_READ_MAX characters of style are read, a search for each name."""
    text = _style_text(styles)
    found: dict[str, set[frozenset[str]]] = {}
    if not text or not _UNSELECTABLE.search(text):
        return found
    for name in names:
        compounds = _declared(text, name)
        if compounds:
            found[name] = compounds
    return found


def _style_text(styles: Iterable[Any]) -> str:
    """The styles' text, each rule apart (a style cut short is closed), read to the cap,
    without its comments, strings and attribute selectors: a brace or a comma in them
    opens, closes or splits nothing (each pattern stops at the next quote or bracket:
    linear)."""
    pieces: list[str] = []
    budget = code_tuning.STYLE_READ_MAX
    for style in styles:
        if budget <= 0:
            break
        text = style.text
        if text:
            pieces.append(_BRACKETS.sub("", _STRINGS.sub("", uncommented(text[:budget]))))
            budget -= len(text)
    return "}\n".join(pieces)


def uncommented(text: str) -> str:
    """CSS without its comments: a rule commented out marks nothing, and a brace in a
    comment closes no rule. A search for each end (a pattern would read an unclosed
    comment's rest once for each "/*" in it)."""
    pieces: list[str] = []
    at = 0
    while True:
        start = text.find("/*", at)
        if start < 0:
            pieces.append(text[at:])
            break
        pieces.append(text[at:start])
        end = text.find("*/", start + 2)
        if end < 0:
            break
        at = end + 2
        pieces.append(" ")
    return "".join(pieces)


def _declared(text: str, name: str) -> set[frozenset[str]]:
    """The subjects (their classes) of the rules of the style ``text`` that declare the
    class ``name`` unselectable: each hit of "." + name (at most GUTTER_HITS_MAX) read
    with the rule around it, within GUTTER_RULE_MAX characters either side (a longer rule
    is none a gutter is drawn by)."""
    needle, window = "." + name, code_tuning.GUTTER_RULE_MAX
    found: set[frozenset[str]] = set()
    at = text.find(needle)
    hits = 0
    while at >= 0 and hits < code_tuning.GUTTER_HITS_MAX:
        hits += 1
        end = at + len(needle)
        if end >= len(text) or not _NAME_CHAR.match(text, end):
            found |= _rule_marks(text, at, end, window, name)
        at = text.find(needle, end)
    return found


def _rule_marks(text: str, at: int, end: int, window: int, name: str) -> set[frozenset[str]]:
    """The subjects (their classes) that name ``name`` among the selectors of the rule
    whose selectors hold ``text[at:end]``, when it declares them unselectable."""
    opening = text.find("{", end, end + window)
    if opening < 0 or "}" in text[end:opening]:
        return set()  # a name in a declaration (`url(a.mi)`), or beyond the window
    closing = text.find("}", opening, opening + window)
    if not _UNSELECTABLE.search(text[opening + 1 : closing if closing >= 0 else opening + window]):
        return set()
    low = max(at - window, 0)
    start = max(text.rfind("}", low, at), text.rfind("{", low, at), low - 1)
    # A pseudo-class's argument may hold commas and spaces: they split no selector.
    selectors = _PARENS.sub("", text[start + 1 : opening])
    found: set[frozenset[str]] = set()
    for selector in selectors.split(","):
        subject = _COMBINATOR.split(selector.strip())[-1]
        classes = _CLASS.findall(subject.split(":", 1)[0])
        if not _PSEUDO_ELEMENT.search(subject) and name in classes:
            found.add(frozenset(classes))
    return found
