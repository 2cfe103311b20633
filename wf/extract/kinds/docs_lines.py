"""Documentation pages' short lines of chrome that no name gives away, each a box whose
whole text is: a control that opens or closes a part of the page (rustdoc's "Expand
description", its "[−]"), a code block's copy-button label left as text ("Copy",
"Copied!"), the manual's colophon ("Built with Sphinx using a theme provided by Read the
Docs.", "© Copyright 2024, the authors."). Standing alone (no words of a sentence beside
it), each goes.

All three are looked for in one pass over the page's texts, by their words as written
(docs_tuning's *_SEEDS), then up from the box the words stand in to the outermost box so
made (docs_tuning.UPDATE_STAMP_LEVELS up, each read short); docs_tuning.STAMPS_MAX of each
a page. An XPath search of each kind's words cost a large manual a tenth of a second."""

from __future__ import annotations

import re
from typing import Any

from wf.extract.kinds import docs_tuning
from wf.extract.kinds.docs_chrome import outer_box, stands_alone

_TOGGLE = re.compile(docs_tuning.TOGGLE, re.IGNORECASE)
_COPY = re.compile(docs_tuning.COPY_LABEL, re.IGNORECASE)
_COLOPHON = re.compile(docs_tuning.COLOPHON, re.IGNORECASE)


def _words(seeds: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in seeds))


_TOGGLE_SEEDS = _words(docs_tuning.TOGGLE_SEEDS)
_COPY_SEEDS = _words(docs_tuning.COPY_SEEDS)
_COLOPHON_SEEDS = _words(docs_tuning.COLOPHON_SEEDS)
_ANY_SEED = _words(
    (*docs_tuning.TOGGLE_SEEDS, *docs_tuning.COPY_SEEDS, *docs_tuning.COLOPHON_SEEDS)
)
# A control's or a label's words are a few, white space collapsed: a paragraph's are not.
_SHORT = 30
# What may stand around a control's words in its box: the separators between it and the
# links dropped beside it ("source · [−]").
_TOGGLE_EDGES = " ·|•"


def drop_lines(root: Any) -> None:
    """Remove the controls, the copy labels and the colophon of a manual's page."""
    from wf.extract.hidden import drop_each

    toggles: list[Any] = []
    copies: list[Any] = []
    colophons: list[Any] = []
    for el in root.iter():
        text = el.text if isinstance(el.tag, str) else None
        if text and _ANY_SEED.search(text):
            _sort(text, el, toggles, copies, colophons)
        tail = el.tail
        if tail and _ANY_SEED.search(tail):
            parent = el.getparent()  # the text after an element stands in its parent
            if parent is not None:
                _sort(tail, parent, toggles, copies, colophons)
    found = _boxes(toggles, _toggle) + _copy_labels(copies) + _boxes(colophons, _colophon)
    drop_each([el for el in found if not any(up in found for up in el.iterancestors())])


def _sort(text: str, box: Any, toggles: list[Any], copies: list[Any], colophons: list[Any]) -> None:
    """File the box a text stands in under the kinds whose words the text holds."""
    short = len(text) <= _SHORT or len(" ".join(text.split())) <= _SHORT
    if short and _TOGGLE_SEEDS.search(text):
        toggles.append(box)
    if short and _COPY_SEEDS.search(text):
        copies.append(box)
    if _COLOPHON_SEEDS.search(text):
        colophons.append(box)


def _toggle(text: str) -> bool:
    return _TOGGLE.fullmatch(text.strip(_TOGGLE_EDGES)) is not None


def _colophon(text: str) -> bool:
    return _COLOPHON.fullmatch(text) is not None


def _boxes(starts: list[Any], matches: Any) -> list[Any]:
    """The outermost boxes from `starts` up whose whole text `matches`, standing alone (a
    sentence's word, "set it to <code>collapse</code>", is the text's)."""
    found: list[Any] = []
    for start in starts:
        if len(found) >= docs_tuning.STAMPS_MAX:
            break
        outer = outer_box(start, matches)
        if outer is not None and outer not in found and stands_alone(outer):
            found.append(outer)
    return found


def _copy_labels(starts: list[Any]) -> list[Any]:
    """The copy labels (docs_tuning.COPY_LABEL) in a <pre> or in a box beside one; no more
    than twice docs_tuning.STAMPS_MAX weighed for the code beside them."""
    found: list[Any] = []
    weighed = 0
    for start in starts:
        if len(found) >= docs_tuning.STAMPS_MAX or weighed >= 2 * docs_tuning.STAMPS_MAX:
            break
        outer = outer_box(start, _COPY.fullmatch)
        if outer is None or outer in found or not stands_alone(outer):
            continue
        weighed += 1
        if _by_code(outer):
            found.append(outer)
    return found


# What a copy button's label never stands in: an API's signature, code, a heading (Sphinx's
# "list.copy()", the method's name alone in its <span>).
_NOT_COPY = frozenset(("code", "dt", "kbd", "samp", "var", "h1", "h2", "h3", "h4", "h5", "h6"))


def _by_code(el: Any) -> bool:
    """Whether an element is in a <pre>, or in a box beside one (or beside a box holding
    one) a few levels up: a code block's header or its row of buttons; never in code, a
    signature or a heading."""
    box = el
    for _ in range(docs_tuning.UPDATE_STAMP_LEVELS + 1):
        if box is None or box.tag in ("body", "html") or box.tag in _NOT_COPY:
            return False
        if box.tag == "pre":
            return not any(True for _ in el.iterancestors("code"))
        if any(b is not None and _holds_pre(b) for b in (box.getprevious(), box.getnext())):
            return True
        box = box.getparent()
    return False


def _holds_pre(el: Any) -> bool:
    """Whether an element is a <pre> or holds one."""
    return isinstance(el.tag, str) and next(el.iter("pre"), None) is not None
