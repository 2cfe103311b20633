"""Paragraphs that are data, not text: printed nowhere but with --full.

A share widget's permalink is a paragraph of one address; a shop's scripts read their
prices and offers from a JSON document written as the text of a hidden box (and a page
whose stylesheet never reached us shows it). Neither is anything a reader is told. Nor
is a card's control printed as a paragraph of its own ("Compare", "Quick view", "Add to
cart" under each item of a shop's grid): what the reader does with an item, not what it
is (listing_tuning.CARD_CONTROLS)."""

from __future__ import annotations

import json
import re

from wf.extract.kinds.listing_tuning import CARD_CONTROLS

_BARE_URL = re.compile(r"(?:https?://|www\.)\S+\Z")
# Shorter than this, a bracketed paragraph is a label ("[1]", "{beta}"), whatever it parses as.
JSON_MIN = 40
# Longer than this, a paragraph is not parsed (linear, but a page's text is capped far
# higher than any data a box holds that a reader would miss).
JSON_MAX = 2_000_000
# The control's words whole: "Compare" alone, never "Compare plans".
_CONTROL = re.compile(rf"(?:{CARD_CONTROLS})", re.IGNORECASE)
CONTROL_MAX = 40  # characters: no control's label is longer


def is_data(text: str) -> bool:
    """Whether a paragraph's text is only an address, or a JSON object or array."""
    if _BARE_URL.match(text):
        return True
    if not JSON_MIN <= len(text) <= JSON_MAX or text[0] not in "{[" or text[-1] not in "}]":
        return False
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return False
    return isinstance(value, dict | list) and bool(value)


def is_control(text: str) -> bool:
    """Whether a paragraph's text is only a card's control (listing_tuning.CARD_CONTROLS)."""
    return len(text) <= CONTROL_MAX and _CONTROL.fullmatch(text.strip()) is not None
