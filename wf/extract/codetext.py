"""A code block's text as a browser lays it out: one line per line element, without its
line numbers.

Highlighters that draw a line per element (Shiki's and Chroma's `span.line`,
CodeMirror's `div.cm-line`, Prism's `span.token-line`) often leave out the newline between
two lines: CSS makes each a block. Gluing their text would print `npm installcd app`.
Here a line element, a block element or a `<br>` starts a new line. Line numbers are
drawn in a gutter (Pygments' `td.linenos`, Chroma's `span.lnt`, Rouge's `td.gutter`,
highlight.js's `td.hljs-ln-numbers`, GitHub's `td.blob-num`): they are no part of the
code, and an element named so is dropped when it holds nothing but digits, as is one
whose text is the number its `data-line-number` holds. (Gutters marked by style, not by
name, go when the page is cleaned: wf/extract/gutters.py.) A table laid
out as a gutter column beside a code column is read as the code it holds.

The names are tuning data: wf/extract/code_tuning.py.
"""

from __future__ import annotations

import re
from typing import Any

from wf.extract import code_tuning
from wf.extract.name_tokens import tokens
from wf.extract.names import lowered
from wf.extract.verdicts import keep

_LINE_NAME = re.compile(code_tuning.CODE_LINE)
_GUTTER_NAME = re.compile(code_tuning.CODE_GUTTER)
_CELL_NAME = re.compile(code_tuning.CODE_CELL)

# Elements a browser lays out as blocks inside a <pre>: each starts a new line.
_BLOCKS = frozenset(
    ("div", "p", "pre", "table", "tbody", "thead", "tr", "td", "th", "li", "ul", "ol", "dl")
)
_BLOCKS_AND_BR = (*_BLOCKS, "br")
# Per class value: 0, a line element, or a gutter (classes repeat on every line).
_LINE, _GUTTER = 1, 2
_class_cache: dict[str, int] = {}


def _class_verdict(cls: str) -> int:
    found = _class_cache.get(cls)
    if found is None:
        found = 0
        for token in tokens(cls):
            low = lowered(token)
            if _GUTTER_NAME.fullmatch(low):
                found = _GUTTER
                break
            if _LINE_NAME.search(low):
                found = _LINE
        keep(_class_cache, cls, found, 5000)
    return found


def _digits_only(el: Any) -> bool:
    """Whether an element holds line numbers only (or nothing: numbers drawn by CSS)."""
    return all(word.isdigit() for t in el.itertext() for word in t.split())


def _numbered(el: Any) -> bool:
    """Whether an element prints its own line number and nothing else: its text is the
    number its `data-line-number` holds (GitHub's and GitLab's gutters; code that
    happens to be a number is on another line than its own number)."""
    found = el.get("data-line-number")
    if not found:
        return False
    number = str(found).strip()
    # Its own text only: a number is one text, and a box of elements around it (a line of
    # code, or a hostile chain of such boxes, each read down to its first text) is not one.
    return number.isdigit() and not len(el) and (el.text or "").strip() == number


def _gutter(el: Any) -> bool:
    cls = el.get("class")
    return bool(cls) and _class_verdict(cls) == _GUTTER and _digits_only(el)


def _needs_walk(pre: Any) -> bool:
    """Whether a code block holds a <br>, a block, a line element or a gutter: only then
    is it walked element by element below (most highlighters' token spans, `k`, `n`,
    `hljs-string`, are none of these). The tags are searched in C, the classes' verdicts
    are cached: an XPath of the same question costs seven times as much."""
    for _ in pre.iterdescendants(*_BLOCKS_AND_BR):
        return True
    for el in pre.iterdescendants():
        cls = el.get("class")
        if (cls and _class_verdict(cls)) or el.get("data-line-number") is not None:
            return True
    return False


def code_text(pre: Any) -> str:
    """The text of a <pre> (or a code table's cell) with its lines apart and its line
    numbers left out."""
    if not len(pre):
        return pre.text or ""
    if not _needs_walk(pre):
        return "".join(pre.itertext())
    from lxml import etree

    out: list[str] = []
    # Whether the text so far ends a line (or nothing is written yet).
    at_start = True
    walker = etree.iterwalk(pre, events=("start", "end"))
    for event, el in walker:
        if el is pre:
            if event == "start" and el.text:
                out.append(el.text)
                at_start = el.text.endswith("\n")
            continue
        tag = el.tag
        if event == "start":
            if not isinstance(tag, str):
                walker.skip_subtree()  # a comment or a processing instruction
                continue
            if tag == "br":
                out.append("\n")
                at_start = True
            else:
                cls = el.get("class")
                verdict = _class_verdict(cls) if cls else 0
                if (verdict == _GUTTER and _digits_only(el)) or _numbered(el):
                    walker.skip_subtree()
                    continue
                if not at_start and (verdict == _LINE or tag in _BLOCKS):
                    out.append("\n")
                    at_start = True
            if el.text:
                out.append(el.text)
                at_start = el.text.endswith("\n")
            continue
        if el.tail:
            out.append(el.tail)
            at_start = el.tail.endswith("\n")
    return "".join(out)


def _cells(row: Any) -> list[Any]:
    return [c for c in row if c.tag in ("td", "th")]


def table_code(table: Any) -> tuple[str, Any] | None:
    """The code of a table laid out as a gutter column beside a code column, and the
    element to read its language from; else None (a table of data: most tables).

    Each row is two cells, the first of line numbers only; the first row's gutter is
    named as one (code_tuning.CODE_GUTTER) or the code cell holds a <pre> or is named as
    code (code_tuning.CODE_CELL): a two-column table of ranks and names is data."""
    row = next(table.iter("tr"), None)
    if row is None:
        return None
    cells = _cells(row)
    if len(cells) != 2 or not _digits_only(cells[0]):
        return None
    gutter, code = cells
    pre = next(code.iter("pre"), None)
    named = _gutter(gutter) or any(
        _CELL_NAME.fullmatch(lowered(t)) for t in tokens(code.get("class") or "")
    )
    if pre is None and not named:
        return None
    lines = []
    for tr in table.iter("tr"):
        cells = _cells(tr)
        if len(cells) != 2 or not _digits_only(cells[0]):
            return None  # not a gutter beside code all along: data after all
        inner = next(cells[1].iter("pre"), None)
        lines.append(code_text(inner if inner is not None else cells[1]).rstrip("\n"))
    return "\n".join(lines), pre if pre is not None else table


_AREA_NAME = re.compile(code_tuning.CODE_AREA)


def code_area(el: Any) -> bool:
    """Whether a <textarea> holds code a reader is shown, made a <pre> if so (cleaning
    drops the form's controls): a playground's editable example, named for code by a
    class word (code_tuning.CODE_AREA: pkg.go.dev's `Documentation-exampleCode code`),
    its text shown as it is written. A form's empty box to type in holds none."""
    words = tokens(el.get("class") or "")
    if not (el.text or "").strip() or not any(_AREA_NAME.search(lowered(w)) for w in words):
        return False
    el.tag = "pre"
    return True
