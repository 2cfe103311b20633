"""Documentation pages' tabs: a sample or a set of steps per language or platform, each a
tab's panel, the tabs' labels drawn as a row above them all. Read as the markup orders
it, the labels printed as one run of words ("npm Yarn pnpm") before the panels, none
saying which panel is whose. Each label is moved to head its own panel, and the row goes;
a row of tabs that all open one panel filters it, and goes.

ARIA's tabs: role="tablist" around role="tab"s, each panel role="tabpanel", paired by
the tab's aria-controls, by the panel's aria-labelledby, or in order among the panels
after the row. (Tabs drawn with CSS alone, MkDocs Material's row of <label>s for radio
buttons, lose their labels with the page's form controls before this is read.)
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from wf.extract.kinds import docs_tuning
from wf.extract.radio_tabs import distinct, head, named_panels, shared_panel

_TABLISTS = ".//*[@role='tablist']"
_TABS = ".//*[@role='tab']"
_PANELS = ".//*[@role='tabpanel']"


def head_panels(root: Any) -> None:
    """Move each tab's label to the head of its panel and drop the row of labels, where
    every label of the row finds a panel of its own; a row that does not is left as it is.
    docs_tuning.TAB_ROWS_MAX rows a page, docs_tuning.TABS_MAX tabs a row."""
    from common.xpath import compiled
    from wf.extract.parse import drop

    panels = list(islice(compiled(_PANELS)(root), docs_tuning.TAB_PANELS_MAX))
    # An id names the first element that holds it (a browser's getElementById): a later
    # panel that repeats it is not the one the tab opens.
    by_id: dict[Any, Any] = {}
    by_label: dict[Any, Any] = {}
    for panel in panels:
        if panel.get("id"):
            by_id.setdefault(panel.get("id"), panel)
        if panel.get("aria-labelledby"):
            by_label.setdefault(panel.get("aria-labelledby"), panel)
    for row in list(islice(compiled(_TABLISTS)(root), docs_tuning.TAB_ROWS_MAX)):
        tabs = list(islice(row.iterfind(_TABS), docs_tuning.TABS_MAX + 1))
        pairs = _aria_pairs(row, tabs, by_id, by_label)
        if pairs:
            _move(row, pairs)
        elif by_id.get(shared_panel(tabs)) is not None:
            drop(row)  # a filter's row: its labels were printed as lines above the panel


def _aria_pairs(
    row: Any, tabs: list[Any], by_id: dict[Any, Any], by_label: dict[Any, Any]
) -> list[tuple[Any, Any]] | None:
    """Each ARIA tab and its panel: named by the tab's aria-controls or the panel's
    aria-labelledby, else in order among the panels in the box after the row."""
    if not 2 <= len(tabs) <= docs_tuning.TABS_MAX:
        return None
    if next(row.iterfind(_PANELS), None) is not None:
        return None  # the row holds panels (each after its tab): dropping it drops them
    named = named_panels(tabs, by_id, by_label)
    if named is not None:
        return distinct(list(zip(tabs, named, strict=True)))
    after = row.getnext()
    if after is None:
        return None
    ordered = [c for c in after if isinstance(c.tag, str)]
    if after.get("role") == "tabpanel":  # the panels are the row's siblings
        ordered = [after, *(s for s in after.itersiblings() if s.get("role") == "tabpanel")]
    if len(ordered) != len(tabs) or any(p.get("role") != "tabpanel" for p in ordered):
        return None
    return distinct(list(zip(tabs, ordered, strict=True)))


def _move(row: Any, pairs: list[tuple[Any, Any]]) -> None:
    """Put each label's text at the head of its panel, as a paragraph, and drop the row."""
    from wf.extract.parse import drop

    for label, panel in pairs:
        text = " ".join("".join(label.itertext()).split())
        if text:
            head(panel, text)
    drop(row)
