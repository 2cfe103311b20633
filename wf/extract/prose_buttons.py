"""Buttons that hold prose: parse.clean drops <button> elements with the page's other
controls (parse.JUNK_MAIN), but a card or a tab drawn as a button (a feature's title over
its sentence, a customer's quote) holds a paragraph of prose where a control's label is a
word or two, and is kept as a box (keep_prose). An accordion's questions are
wf/extract/accordion.py's."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from common.xpath import compiled
from wf.extract import buttons_tuning

_PROSE_SENTENCE = re.compile(buttons_tuning.PROSE_BUTTON_SENTENCE)


def keep_prose(buttons: Iterable[Any]) -> None:
    """Of the page's ``buttons`` (in page order: parse._gather's walk found them), those
    that hold a paragraph (<p>) of prose made boxes (<div>): a card or a tab drawn as a
    button, its title over a sentence or a customer's quote, which cleaning dropped with
    the page's controls. Prose is buttons_tuning.PROSE_BUTTON_MIN characters with a
    sentence's end. A button that opens a panel (aria-expanded) is the accordion's
    (wf/extract/accordion.py), and one hidden from screen readers is decoration."""
    length = compiled("string-length(normalize-space())")
    # Only the outermost buttons are read, each once: buttons nested in one another (a
    # hostile page's chain) would cost the page's text once per button.
    inner: set[Any] = set()
    for button in buttons:
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
