"""Formulas: a <math> element is printed as TeX where the page keeps its source (the
`alttext` MediaWiki writes, an `application/x-tex` annotation as KaTeX writes, or MathJax
2's `<script type="math/tex">`), else as its MathML read out on one line (`x^2`,
`(a)/(b)`, `√(x)`). The boxes that draw the same formula for the eye (MediaWiki's
fallback image, KaTeX's and MathJax's glyph boxes, hidden from screen readers) go with
it, so that the formula is read once. Before, <math> was junk: "the solutions of , are ."

Bounded on a hostile page: a formula's MathML is read to formulas_tuning.MAX_DEPTH
levels and its text cut at formulas_tuning.MAX_CHARS."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract import formulas_tuning as tuning

_DISPLAYSTYLE = re.compile(r"^\{\\(?:display|text)style\s*(.*)\}$", re.DOTALL)
_SPACES = re.compile(r"\s+")
_NAMED = re.compile(tuning.DRAWING_NAME, re.IGNORECASE)
_MATHJAX2 = re.compile(tuning.MATHJAX2_BOX)
_INVISIBLE = dict.fromkeys(map(ord, tuning.INVISIBLE_OPERATORS))


def render(found: list[Any]) -> None:
    """Put each formula's text in place of its <math> or MathJax 2 script (`<script
    type="math/tex">`) and of the boxes that draw it. ``found``: both, in page order."""
    from wf.extract.hidden import drop_all

    made: set[Any] = set()  # the text put in place of each <math>
    drawn: list[Any] = []  # MathJax 2's boxes, dropped at once: one pass per parent
    for el in found:
        if el.getparent() is None or next(el.iterancestors("math"), None) is not None:
            continue  # gone with a box drawn before, or a part of a formula's own
        if el.tag == "script":
            _script(el, made, drawn)
            continue
        tex = _tex_of(el)
        block = (el.get("display") or "").strip().lower() == "block"
        text = _linear(el) if tex is None else _delimited(tex, block)
        made.add(_replace(_drawing_box(el), text, block))
    drop_all(drawn)


def _script(script: Any, made: set[Any], drawn: list[Any]) -> None:
    tex = (script.text or "").strip()
    if not tex:
        return
    block = "mode=display" in (script.get("type") or "").replace(" ", "")
    # MathJax 2 draws the formula in the boxes just before its script, named by it: a
    # preview and the frame (or a display box around it), which may hold the formula's
    # MathML, read out above. A box named otherwise ("math-note") is the page's own.
    prev = script.getprevious()
    for _ in range(2):
        if prev is None or not (prev in made or _MATHJAX2.search(prev.get("class") or "")):
            break
        drawn.append(prev)
        prev = prev.getprevious()
    _replace(script, _delimited(_cut(tex), block), block)


def _tex_of(math: Any) -> str | None:
    alt = (math.get("alttext") or "").strip()
    if not alt:
        for note in math.iter("annotation", "{*}annotation"):
            if (note.get("encoding") or "").strip().lower() in tuning.TEX_ENCODINGS:
                alt = (note.text or "").strip()
                break
    if not alt:
        return None
    inner = _DISPLAYSTYLE.match(alt)
    return _cut(_SPACES.sub(" ", (inner.group(1) if inner else alt).strip()))


def _delimited(tex: str, block: bool) -> str:
    """TeX as Markdown writes it: `$$...$$` for a block formula, `$...$` in a line."""
    return f"$${tex}$$" if block else f"${tex}$"


def _cut(text: str) -> str:
    return text if len(text) <= tuning.MAX_CHARS else text[: tuning.MAX_CHARS] + "…"


def _local(el: Any) -> str:
    tag = el.tag
    return tag.rpartition("}")[2].lower() if isinstance(tag, str) else ""


def _linear(math: Any) -> str:
    parts: list[str] = []
    _read(math, parts, 0)
    return _cut(_SPACES.sub(" ", " ".join(parts)).strip())


def _read(el: Any, out: list[str], depth: int) -> None:
    """MathML presentation markup read out as one line: scripts as ^ and _, fractions
    and roots with their parts in brackets, a table's rows between semicolons."""
    tag = _local(el)
    if depth > tuning.MAX_DEPTH or len(out) > tuning.MAX_PARTS:
        out.append(" ".join("".join(el.itertext()).split()))
        return
    if tag in tuning.SKIPPED:
        return
    children = [c for c in el if isinstance(c.tag, str)]
    if tag in tuning.TOKENS or not children:
        text = " ".join("".join(el.itertext()).translate(_INVISIBLE).split())
        if text:
            out.append(text)
        return
    if tag == "semantics":
        _read(children[0], out, depth + 1)
        return
    parts = [_part(c, depth) for c in children]
    if tag in ("msup", "mover") and len(parts) >= 2:
        out.append(f"{parts[0]}^{_group(parts[1])}")
    elif tag in ("msub", "munder") and len(parts) >= 2:
        out.append(f"{parts[0]}_{_group(parts[1])}")
    elif tag in ("msubsup", "munderover") and len(parts) >= 3:
        out.append(f"{parts[0]}_{_group(parts[1])}^{_group(parts[2])}")
    elif tag == "mfrac" and len(parts) >= 2:
        out.append(f"{_group(parts[0])}/{_group(parts[1])}")
    elif tag == "msqrt":
        out.append(f"√({' '.join(parts)})")
    elif tag == "mroot" and len(parts) >= 2:
        out.append(f"√[{parts[1]}]({parts[0]})")
    elif tag == "mtable":
        out.append("[" + "; ".join(parts) + "]")
    elif tag in ("mtr", "mlabeledtr"):
        out.append(", ".join(parts))
    elif tag == "mfenced":
        sep = (el.get("separators") or ",").strip()[:1] or ","
        out.append(f"{el.get('open', '(')}{(sep + ' ').join(parts)}{el.get('close', ')')}")
    else:
        out.extend(p for p in parts if p)


def _part(el: Any, depth: int) -> str:
    parts: list[str] = []
    _read(el, parts, depth + 1)
    return " ".join(p for p in parts if p)


def _group(text: str) -> str:
    """A part of more than one token in brackets: x^(n+1), not x^n + 1."""
    return text if len(text.split()) <= 1 else f"({text})"


def _drawing_box(math: Any) -> Any:
    """The outermost box, up to formulas_tuning.BOX_LEVELS up, that holds nothing but
    this formula and its drawings, and is named for formulas (MediaWiki's
    mwe-math-element, KaTeX's katex, MathJax's mjx-container): it goes whole."""
    box = math
    for _ in range(tuning.BOX_LEVELS):
        up = box.getparent()
        if up is None or up.tag in ("body", "html") or not _named(up):
            break
        if next(islice(up.iterchildren(), tuning.BOX_CHILDREN, None), None) is not None:
            break  # a box of many formulas, or many drawings: not one formula's (len()
            # would count them all, for each formula in it)
        if (up.text or "").strip() or not all(c is box or _drawing(c) for c in up):
            break
        if any((c.tail or "").strip() for c in up if c is not box):
            break
        box = up
    return box


def _named(el: Any) -> bool:
    return bool(
        _NAMED.search(el.get("class") or "")
        or _NAMED.search(el.tag if isinstance(el.tag, str) else "")
    )


def _drawing(el: Any) -> bool:
    """What draws a formula for the eye, not for a reader: an image, a box hidden from
    screen readers, an empty box named for formulas (MathJax's preview), a comment. Not
    another <math>, nor a named box with words: those are the page's to read."""
    if not isinstance(el.tag, str):
        return True
    if el.tag in tuning.DRAWING_TAGS or (el.get("aria-hidden") or "").strip().lower() == "true":
        return True
    return (
        _local(el) != "math"
        and _named(el)
        and next((t for t in el.itertext() if not t.isspace()), None) is None
    )


def _replace(old: Any, text: str, block: bool) -> Any:
    """``old`` replaced by a box of ``text``: the box (None when ``old`` was out of the
    page)."""
    from lxml import etree

    parent = old.getparent()
    if parent is None:
        return None
    new = etree.Element("div" if block else "span")
    tail = old.tail
    if not block and text.startswith("$"):
        # Two formulas side by side, or one before a price, must not read as "$a$$b$":
        # "$$" opens a block formula in TeX's Markdown.
        prev = old.getprevious()
        if prev is not None and not prev.tail and (prev.text or "").endswith("$"):
            text = " " + text
        if tail and tail.startswith("$"):
            tail = " " + tail
    new.text = text
    new.tail = tail
    parent.replace(old, new)
    return new
