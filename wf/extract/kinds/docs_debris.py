"""Documentation pages' debris that generators leave around a manual's text, each short
and found by its own class (gathered in docs_chrome.drop_banners' walk over the named
boxes): a section's label over the title (Mintlify's "Get Started" eyebrow), a screen
reader's label of a code frame (Starlight's "Terminal window"), a callout's icon on a line
of its own (Nextra's, ReadMe's "📘" that parts the callout's heading from its words).
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import docs_tuning

_EYEBROW = re.compile(docs_tuning.EYEBROW, re.IGNORECASE)
_SCREEN_READER = re.compile(docs_tuning.SCREEN_READER, re.IGNORECASE)
_CALLOUT = re.compile(docs_tuning.CALLOUT_BOX, re.IGNORECASE)
# Letters and digits: an icon's text holds none ("📘", "💡", "⚠️").
_WORDY = re.compile(r"\w")
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def drop_debris(marked: list[Any]) -> None:
    """Remove a manual's eyebrows, code frames' screen-reader labels and callouts' icons
    among the `marked` elements (those whose class names one: docs_chrome.drop_banners
    gathers them in its walk over the page)."""
    from wf.extract.hidden import drop_each

    found: list[Any] = []
    for el in marked:
        names = el.get("class") or ""
        if _EYEBROW.search(names):
            if _eyebrow(el):
                found.append(el)
        elif _SCREEN_READER.search(names):
            if _frame_label(el):
                found.append(el)
        elif _CALLOUT.search(names):
            found.extend(_icons(el))
    chosen = set(found)
    drop_each([el for el in found if not any(up in chosen for up in el.iterancestors())])


def _text(el: Any, limit: int = docs_tuning.DEBRIS_TEXT_MAX) -> str:
    """The element's text, white space collapsed; "" past `limit` characters."""
    text = " ".join("".join(islice(el.itertext(), 20)).split())
    return text if len(text) <= limit else ""


def _eyebrow(el: Any) -> bool:
    """A short label (no heading) whose next box holds the page's <h1>."""
    after = el.getnext()
    if after is None or el.tag in _HEADINGS or not _text(el):
        return False
    return _holds(after, "h1")


def _frame_label(el: Any) -> bool:
    """A screen reader's label in a code frame's header: its box (a <figcaption>, a
    header) stands before the frame's <pre>."""
    if not _text(el):
        return False
    for box in islice(el.iterancestors(), docs_tuning.FRAME_LEVELS):
        if box.tag == "pre" or box.tag == "code":
            return False
        after = box.getnext()
        if after is not None and _holds(after, "pre"):
            return True
    return False


def _holds(box: Any, tag: str) -> bool:
    """Whether `box` is a `tag` or holds one among its first docs_tuning.DEBRIS_NODES
    elements (a title's box, a code frame's: the search stays short beside a big box)."""
    return any(el.tag == tag for el in islice(box.iter(), docs_tuning.DEBRIS_NODES))


def _icons(box: Any) -> list[Any]:
    """A callout's icon: an element of no words among its first children (or theirs), an
    emoji or a symbol on a line of its own. A heading left empty by it takes the short
    paragraph after it (ReadMe's callout heading, parsed around its icon)."""
    icons: list[Any] = []
    for child in islice(box, 3):
        if not isinstance(child.tag, str):
            continue
        for el in (child, *islice(child, 3)):
            if isinstance(el.tag, str) and _icon(el):
                icons.append(el)
                break
    for icon in icons:
        _join_heading(icon)
    return icons


def _icon(el: Any) -> bool:
    if len(el) or el.tag in ("pre", "code", "td", "th", "li"):
        return False
    text = (el.text or "").strip()
    return 0 < len(text) <= 4 and not _WORDY.search(text)


def _join_heading(icon: Any) -> None:
    heading = icon.getparent()
    if heading is None or heading.tag not in _HEADINGS or len(heading) != 1:
        return
    if (heading.text or "").strip() or (icon.tail or "").strip() or (heading.tail or "").strip():
        return
    after = heading.getnext()
    if after is None or after.tag != "p" or len(after) or not _text(after):
        return
    heading.append(heading.makeelement("span", {}))
    heading[-1].text = after.text
    heading.tail = after.tail
    heading.getparent().remove(after)
