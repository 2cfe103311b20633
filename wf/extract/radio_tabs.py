"""Tabs drawn with CSS alone: a radio button per tab, a <label> for each (the tab a reader
clicks), and the panels the checked button shows. MkDocs Material's content tabs
(pymdownx.tabbed: the labels in a row of their own, or each before its panel) and
VitePress's code groups draw them so: a sample per language or platform, "Linux" over
one and "Windows" over the other. Cleaning drops the labels with the page's controls
(parse.JUNK_MAIN), and the panels were printed one after another with nothing saying
which is whose; here each label's text is put at the head of its panel as a paragraph,
as wf/extract/kinds/docs_tabs.py does for ARIA's tabs, where the tabs are code's. So too
ARIA's tabs drawn as buttons (Headless UI's and Radix's: Mintlify's code groups), which
cleaning drops before that module reads them (head_buttons).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice
from typing import Any

from common.xpath import compiled
from wf.extract import buttons_tuning
from wf.extract.kinds import docs_tuning
from wf.extract.spaces import settable

# What stands in a row of labels besides them: the radio buttons, in some layouts.
_ROW_TAGS = frozenset(("label", "input"))


def head_panels(controls: list[Any], root: Any, generator: str) -> None:
    """The page's tabs drawn with labels (head_labels) or with buttons (head_buttons):
    ``controls``, parse._gather's labels and buttons in page order. On a page a manual's
    generator made (``generator``, the page's <meta name="generator"> words, matching
    docs_tuning.DOC_GENERATORS: sphinx-design's tabs of prose, one per platform) the tabs
    of prose too; elsewhere those of code only."""
    prose = _GENERATORS.search(generator.lower()) is not None
    head_labels((c for c in controls if c.tag == "label"), prose)
    head_buttons((c for c in controls if c.tag == "button"), root, prose)


_GENERATORS = re.compile(docs_tuning.DOC_GENERATORS)


def head_labels(labels: Iterable[Any], prose: bool = False) -> None:
    """Of the page's ``labels`` (in page order), those of a row of
    buttons_tuning.RADIO_TABS_MIN to RADIO_TABS_MAX radio buttons of one group, each moved
    to the head of its panel: the boxes after the row, one a label in order, or the box
    right after each label. Only tabs of code, a panel at least holding a code block
    (<pre>), but with ``prose`` (a manual's page): arXiv draws the tools below a paper's
    abstract as such tabs, the page's chrome, which the labels would lengthen. A row whose
    labels do not each find a panel is left as it is (and goes with the controls);
    buttons_tuning.RADIO_ROWS_MAX rows a page."""
    rows: dict[Any, list[Any]] = {}
    for label in labels:
        parent = label.getparent()
        if label.get("for") and parent is not None:
            rows.setdefault(parent, []).append(label)
    for row, tabs in islice(rows.items(), buttons_tuning.RADIO_ROWS_MAX):
        if not buttons_tuning.RADIO_TABS_MIN <= len(tabs) <= buttons_tuning.RADIO_TABS_MAX:
            continue
        if not _one_group(row, tabs):
            continue
        pairs = _apart(row, tabs) or _each_before(tabs)
        if pairs and (prose or any(_code(panel) for _, panel in pairs)):
            for label, panel in pairs:
                _head(panel, label)


def _code(panel: Any) -> bool:
    """Whether a panel holds a code block."""
    return next(panel.iter("pre"), None) is not None


def _one_group(row: Any, tabs: list[Any]) -> bool:
    """Whether every label names a radio button of one group, among the row's children or
    its parent's (the buttons stand beside the labels, or beside their row), one of them
    checked: the tab shown. A form's choices (a poll's "Which platform do you use?")
    come with none checked, and a tab's panel would be read into each paragraph after."""
    names: dict[str, str] = {}
    checked: set[str] = set()
    for box in (row, row.getparent()):
        if box is None:
            continue
        for el in islice(box.iterchildren("input"), 2 * buttons_tuning.RADIO_TABS_MAX):
            if (el.get("type") or "").lower() == "radio" and el.get("id"):
                names.setdefault(el.get("id"), el.get("name") or "")
                if el.get("checked") is not None:
                    checked.add(el.get("id"))
    groups = {names.get(label.get("for")) for label in tabs}
    shown = any(label.get("for") in checked for label in tabs)
    return len(groups) == 1 and None not in groups and shown


def _apart(row: Any, tabs: list[Any]) -> list[tuple[Any, Any]] | None:
    """A row of labels (and buttons) alone, the panels the children of the box after it,
    one a label."""
    if any(isinstance(c.tag, str) and c.tag not in _ROW_TAGS for c in row):
        return None
    after = row.getnext()
    if after is None:
        return None
    # One more than the tabs at most: a box of a thousand children is read no further.
    panels = list(islice((c for c in after if isinstance(c.tag, str)), len(tabs) + 1))
    if len(panels) != len(tabs) or any(p.tag in _ROW_TAGS for p in panels):
        return None
    return list(zip(tabs, panels, strict=True))


def _each_before(tabs: list[Any]) -> list[tuple[Any, Any]] | None:
    """Each label right before its panel (a box, no control)."""
    pairs = []
    for label in tabs:
        panel = label.getnext()
        if panel is None or not isinstance(panel.tag, str) or panel.tag in _ROW_TAGS:
            return None
        pairs.append((label, panel))
    return pairs


def _head(panel: Any, label: Any) -> None:
    """Put a label's text at the head of its panel, as a paragraph."""
    text = " ".join(" ".join(_shown(label)).split())
    if text:
        head(panel, text)


def head(panel: Any, text: str) -> None:
    """Put a tab's label, ``text``, at the head of its panel, as a paragraph: here for the
    tabs cleaning drops, in docs_tabs.py for ARIA's tabs it leaves."""
    first = panel.makeelement("p", {})
    first.text = settable(text)
    first.tail = settable(panel.text)
    panel.text = None
    panel.insert(0, first)


def named_panels(
    tabs: list[Any], by_id: dict[Any, Any], by_label: dict[Any, Any] | None = None
) -> list[Any] | None:
    """Each tab's panel: the one its aria-controls names (in ``by_id``), else, given
    ``by_label``, the one whose aria-labelledby names the tab; None when a tab finds
    none."""
    found = []
    for tab in tabs:
        panel = by_id.get(tab.get("aria-controls"))
        if panel is None and by_label is not None:
            panel = by_label.get(tab.get("id"))
        if panel is None:
            return None
        found.append(panel)
    return found


def distinct(pairs: list[tuple[Any, Any]]) -> list[tuple[Any, Any]] | None:
    """The pairs of tab and panel, when no panel is paired twice: tabs that share one
    filter it (shared_panel)."""
    panels = [p for _, p in pairs]
    if len(set(panels)) != len(panels):
        return None
    return pairs


def shared_panel(tabs: list[Any]) -> str | None:
    """The panel a row of at least two tabs all name (aria-controls): buttons that filter
    what it shows (Javadoc's "All Methods", "Instance Methods", "Static Methods" over its
    one table of methods), no tab a panel of its own. (An accordion's button is no
    question when one other tab names its panel: accordion.py asks less than this.)"""
    named: set[str | None] = {t.get("aria-controls") for t in tabs}
    if len(tabs) < 2 or len(named) != 1:
        return None
    return next(iter(named))


_PANELS = "//*[@role='tabpanel'][@id]"


def head_buttons(buttons: Iterable[Any], root: Any, prose: bool = False) -> None:
    """Of the page's ``buttons`` (parse._gather's), the ARIA tabs (role="tab") that each
    name their panel by aria-controls, RADIO_TABS_MIN to RADIO_TABS_MAX a row, every
    panel found (by its id, among the page's panels) and holding text: each label put at
    the head of its panel, where one panel of the row at least holds a code block (any,
    with ``prose``). A
    hidden panel goes with its label; an empty one (the scripts fill it) takes none."""
    rows: dict[Any, list[Any]] = {}
    for button in buttons:
        if button.get("role") == "tab" and button.get("aria-controls"):
            parent = button.getparent()
            if parent is not None:
                rows.setdefault(parent, []).append(button)
    if not rows:
        return
    wanted = {b.get("aria-controls") for tabs in rows.values() for b in tabs}
    panels: dict[str, Any] = {}
    for el in compiled(_PANELS)(root):
        key = el.get("id")
        if key in wanted:
            panels.setdefault(key, el)
    for tabs in islice(rows.values(), buttons_tuning.RADIO_ROWS_MAX):
        if not buttons_tuning.RADIO_TABS_MIN <= len(tabs) <= buttons_tuning.RADIO_TABS_MAX:
            continue
        found = named_panels(tabs, panels)
        # A tab without a panel, or tabs that share one (a filter's): left as they are.
        pairs = distinct(list(zip(tabs, found, strict=True))) if found is not None else None
        if pairs and (prose or any(_code(panel) for _, panel in pairs)):
            for tab, panel in pairs:
                if any(t.strip() for t in islice(panel.itertext(), _TEXT_NODES)):
                    _head(panel, tab)
                # No accordion's question now (accordion.opens): its label is its panel's.
                for name in ("aria-controls", "aria-expanded"):
                    tab.attrib.pop(name, None)


# Text nodes read for a panel's first words: an empty panel holds none.
_TEXT_NODES = 50


# What a label holds that is never its words: an icon's <title> (Twilio's "JavaScript
# logo" in the <svg> that draws it), scripts. (Read before cleaning drops them.)
_SHOWN = ".//text()[not(ancestor::svg or ancestor::script or ancestor::style)]"


def _shown(el: Any) -> list[str]:
    """A label's texts, less those inside the elements no reader reads as its words."""
    return [str(t) for t in compiled(_SHOWN)(el)]
