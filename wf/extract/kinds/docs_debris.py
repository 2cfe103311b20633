"""Documentation pages' debris that generators leave around a manual's text, each short
and found by its own class (gathered in docs_chrome.drop_banners' walk over the named
boxes): a section's label over the title (Mintlify's "Get Started" eyebrow), a screen
reader's label of a code frame (Starlight's "Terminal window"), a callout's icon on a line
of its own (Nextra's, ReadMe's "📘" that parts the callout's heading from its words), a
chip beside the title ("package"); and a package's facts in a row under its title
(pkg.go.dev's "Version: v1.4.2 · License: MIT · Imported by: 123").
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import docs_tuning

_EYEBROW = re.compile(docs_tuning.EYEBROW, re.IGNORECASE)
_SCREEN_READER = re.compile(docs_tuning.SCREEN_READER, re.IGNORECASE)
_CALLOUT = re.compile(docs_tuning.CALLOUT_BOX, re.IGNORECASE)
_CHIP = re.compile(docs_tuning.CHIP, re.IGNORECASE)
_FACT = re.compile(docs_tuning.PACKAGE_FACT, re.IGNORECASE)
# Letters and digits: an icon's text holds none ("📘", "💡", "⚠️").
_WORDY = re.compile(r"\w")
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def drop_debris(root: Any, marked: list[Any]) -> None:
    """Remove a manual's eyebrows, code frames' screen-reader labels, callouts' icons and
    the chips beside its title among the `marked` elements (those whose class names one:
    docs_chrome.drop_banners gathers them in its walk over the page), and the row of a
    package's facts under its title (_facts)."""
    from wf.extract.hidden import drop_each

    found: list[Any] = _facts_rows(root)
    for el in marked:
        names = el.get("class") or ""
        if _CHIP.search(names):
            if _beside_title(el):
                found.append(el)
        elif _EYEBROW.search(names):
            if _eyebrow(el):
                found.append(el)
        elif _SCREEN_READER.search(names):
            if _frame_label(el):
                found.append(el)
        elif _CALLOUT.search(names):
            found.extend(_icons(el))
    chosen = set(found)
    drop_each([el for el in found if not any(up in chosen for up in el.iterancestors())])


def _beside_title(el: Any) -> bool:
    """A short label (a chip: "package", "module") beside the page's <h1>, in its box."""
    parent = el.getparent()
    if parent is None or el.tag in _HEADINGS or not _text(el, docs_tuning.CHIP_TEXT_MAX):
        return False
    return any(sib.tag == "h1" for sib in islice(parent, docs_tuning.DEBRIS_NODES))


def _facts_rows(root: Any) -> list[Any]:
    """The rows of a package's facts under the page's <h1> (pkg.go.dev's "Version:
    v1.4.2", "License: MIT", "Imported by: 123"): a box after the title (or after a box
    around it, docs_tuning.TITLE_LEVELS up) of at least docs_tuning.FACTS_MIN items
    that each name a fact (docs_tuning.PACKAGE_FACT), its other items short."""
    rows: list[Any] = []
    for h1 in islice(root.iter("h1"), 3):
        box = h1
        for _ in range(docs_tuning.TITLE_LEVELS):
            if box is None or box.tag in ("body", "html"):
                break
            rows.extend(s for s in islice(box.itersiblings(), 3) if _facts(s))
            box = box.getparent()
    return rows


def _facts(box: Any) -> bool:
    if not isinstance(box.tag, str) or box.tag in _HEADINGS or box.tag in ("p", "pre"):
        return False
    facts = 0
    for item in islice(box, docs_tuning.FACTS_MAX + 1):
        if not isinstance(item.tag, str):
            continue
        text = _text(item)
        if _FACT.fullmatch(text):
            facts += 1
        elif not text or len(text) > docs_tuning.CHIP_TEXT_MAX:
            return False
    return facts >= docs_tuning.FACTS_MIN and len(box) <= docs_tuning.FACTS_MAX


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
