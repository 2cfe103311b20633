"""Buttons whose text a reader reads: parse.clean drops <button> elements with the page's
other controls (parse.JUNK_MAIN), but for these, renamed out of its way first.

An accordion's questions (accordion_questions, then name_questions once hidden elements
are gone): a button that opens a shown panel of prose is kept as a line of its own. And a
card or a tab drawn as a button (keep_prose): a button that holds a paragraph of prose
(a feature's title over its sentence, a customer's quote) is kept as a box, where a
control's label is a word or two."""

from __future__ import annotations

import re
from typing import Any

from common.xpath import compiled
from wf.extract import buttons_tuning, tuning

_SENTENCE = re.compile(tuning.ACCORDION_SENTENCE)
_PROSE_SENTENCE = re.compile(buttons_tuning.PROSE_BUTTON_SENTENCE)
# Not a tag of HTML: no rule reads it before name_questions gives it its own.
_QUESTION = "wf-question"
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary"))


def accordion_questions(root: Any) -> list[Any]:
    """The buttons that open an answer, renamed out of parse.JUNK_MAIN's way (to
    _QUESTION, given a block's tag by name_questions): a frequently-asked-questions
    accordion writes its questions as buttons, and was printed as its answers alone.
    Only a button whose panel (its aria-controls, else what follows it) is shown and
    holds prose: a menu's or a filter's buttons go as before, and a page without such
    an accordion is untouched."""
    buttons = compiled("//button[@aria-controls]|//button[@aria-expanded]")(root)
    if not buttons:
        return []
    from wf.extract.hidden import is_hidden

    ids: dict[str, Any] | None = None
    kept = []
    # Each panel's text is measured whole: panels nested in one another (a hostile page's
    # chain of buttons, each before a box holding the rest) would cost the page's text
    # once per button. Past this many characters measured, the rest go as before.
    budget = float(tuning.ACCORDION_READ_MAX)
    for button in buttons:
        if budget < 0:
            break
        words = len(" ".join(button.itertext()).split())
        if not tuning.ACCORDION_WORDS <= words <= tuning.ACCORDION_WORDS_MAX:
            continue
        panel = None
        target = (button.get("aria-controls") or "").strip()
        if target:
            if ids is None:
                ids = {el.get("id"): el for el in compiled("//*[@id]")(root)}
            panel = ids.get(target)
        if panel is None:
            panel = _follower(button)
        if panel is None or is_hidden(panel):
            continue
        whole = float(compiled("string-length(normalize-space())")(panel))
        budget -= whole
        if not _prose(panel, whole):
            continue
        if button in panel.iterancestors():
            continue
        button.tag = _QUESTION
        for name in ("aria-controls", "aria-expanded", "type"):
            button.attrib.pop(name, None)
        kept.append(button)
    return kept


def name_questions(questions: list[Any]) -> None:
    """The kept questions made paragraphs; a heading's button (the pattern's
    <h3><button>) reads inline in its heading."""
    for question in questions:
        parent = question.getparent()
        question.tag = "span" if parent is not None and parent.tag in _HEADINGS else "p"


def _follower(button: Any) -> Any:
    """The element after a button, or after the box it stands alone in (a heading)."""
    after = button.getnext()
    if after is not None:
        return after
    parent = button.getparent()
    if parent is None or button.getprevious() is not None:
        return None
    return parent.getnext()


def _prose(panel: Any, whole: float) -> bool:
    """Whether a panel of ``whole`` characters holds prose (tuning.ACCORDION_PROSE)."""
    length = compiled("string-length(normalize-space())")
    if whole < tuning.ACCORDION_PROSE:
        return False
    linked = sum(float(length(a)) for a in panel.iter("a"))
    own = whole - linked
    if own < tuning.ACCORDION_PROSE or own < tuning.ACCORDION_PROSE_SHARE * whole:
        return False
    return _SENTENCE.search(" ".join(panel.itertext())) is not None


def keep_prose(root: Any) -> None:
    """Buttons that hold a paragraph (<p>) of prose made boxes (<div>): a card or a tab
    drawn as a button, its title over a sentence or a customer's quote, which cleaning
    dropped with the page's controls. Prose is buttons_tuning.PROSE_BUTTON_MIN characters
    with a sentence's end. A button that opens a panel (aria-expanded) is the accordion's
    (accordion_questions), and one hidden from screen readers is decoration."""
    length = compiled("string-length(normalize-space())")
    # Only the outermost buttons are read, each once: buttons nested in one another (a
    # hostile page's chain) would cost the page's text once per button.
    inner: set[Any] = set()
    for button in root.iter("button"):
        if button in inner:
            continue
        inner.update(button.iter("button"))
        if button.get("aria-expanded") is not None or button.get("aria-hidden") == "true":
            continue
        if next(button.iter("p"), None) is None:
            continue
        if float(length(button)) < buttons_tuning.PROSE_BUTTON_MIN:
            continue
        if _PROSE_SENTENCE.search(" ".join(button.itertext())) is None:
            continue
        button.tag = "div"
