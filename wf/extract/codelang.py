"""A code block's language, as the page marks it: `language-x` or `lang-x` on <pre> or
<code> (highlight.js, Prism, Markdown renderers), `highlight-x` or
`highlight-source-x` on a box around it (Sphinx, GitHub), SyntaxHighlighter's `brush: x`,
Pandoc's `sourceCode x`, a data-lang or data-language attribute, or a known language's
name first in the <pre>'s class and again in a later token (rustdoc's). Printed after the
opening fence (```bash).

A code block's header often shows its language as a label of its own (MDN's `js` over
each example, a code group's `Python` tab): `label` finds it, so that the writer prints
it after the fence instead of as a line over the code."""

from __future__ import annotations

import re
from typing import Any

from wf.extract import code_tuning

_CLASS = re.compile(
    r"(?:^|\s)(?:(?:language|lang|highlight(?:-source)?)-|brush:\s*)([A-Za-z0-9_+#.-]{1,24})"
    r"(?=[\s;]|$)"
)
_VALUE = re.compile(r"[A-Za-z0-9_+#.-]{1,24}")
# Names that say "no language" or that a highlighter uses for itself ("auto": Discourse's
# `lang-auto`, highlight.js left to guess).
_NONE = frozenset(
    ("default", "none", "text", "plain", "plaintext", "nohighlight", "source", "auto")
)
_LEVELS = 3  # <pre>, then up to two boxes around it


def language(pre: Any) -> str | None:
    """The language of a <pre>'s code, or None."""
    first = pre[0] if len(pre) and pre[0].tag == "code" else None
    candidates = [first, pre] if first is not None else [pre]
    el = pre.getparent()
    for _ in range(_LEVELS - 1):
        if el is None or el.tag in ("body", "html"):
            break
        candidates.append(el)
        el = el.getparent()
    for node in candidates:
        for attribute in ("data-lang", "data-language"):
            value = (node.get(attribute) or "").strip()
            if _VALUE.fullmatch(value) and value.lower() not in _NONE:
                return value.lower()
        cls = node.get("class") or ""
        found = _CLASS.search(cls)
        if found and found.group(1).lower() not in _NONE:
            return found.group(1).lower()
        named = _pandoc(cls)
        if named:
            return named
    return _first_token(pre)


def _first_token(pre: Any) -> str | None:
    """The language a <pre> names by its own class's first token, a known language's
    name (code_tuning.CODE_LABELS) that another of its tokens repeats as a prefix:
    rustdoc's `rust rust-example-rendered`. Only the <pre>'s own: a box's first token
    names the box. (A first token alone, GeSHi's `javascript`, printed a word the readers
    of such pages leave out.) In any case: class tokens are case-sensitive, but a page
    that writes `Rust rust-example` names one language twice."""
    tokens = (pre.get("class") or "").lower().split()
    if not tokens or tokens[0] not in code_tuning.CODE_LABELS:
        return None
    prefix = tokens[0] + "-"
    return tokens[0] if any(t.startswith(prefix) for t in tokens[1:]) else None


def _pandoc(cls: str) -> str | None:
    """Pandoc's mark (Quarto's, bookdown's): `sourceCode` and the language among the
    class's other tokens (`sourceCode numberSource r`), known by its name
    (code_tuning.CODE_LABELS): the others say how the block is drawn."""
    if "sourceCode" not in cls:
        return None
    tokens = cls.split()
    if "sourceCode" not in tokens:
        return None
    for token in tokens:
        low = token.lower()
        if low in code_tuning.CODE_LABELS:
            return low
    return None


_LABEL_LEVELS = 3  # the <pre>, then up to two boxes around it, each with its header before
_LABEL_MAX = 24  # characters of a label
_NOT_LABELS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6", "pre", "code"))


def label(pre: Any) -> str | None:
    """The text of the label a code block's header shows just before it, when it names a
    language (code_tuning.CODE_LABELS): the element right before the <pre>, or right
    before one of the two boxes around it, holding nothing else. A heading is never a
    label."""
    node = pre
    for _ in range(_LABEL_LEVELS):
        before = node.getprevious()
        while before is not None and not isinstance(before.tag, str):
            before = before.getprevious()  # a comment between the header and the code
        if before is not None:
            if before.tag in _NOT_LABELS:
                return None
            text = " ".join("".join(before.itertext()).split())
            if text and len(text) <= _LABEL_MAX and text.lower() in code_tuning.CODE_LABELS:
                return text
            if text:
                return None
        elif (node.text or "").strip():
            return None
        node = node.getparent()
        if node is None or node.tag in ("body", "html"):
            return None
    return None
