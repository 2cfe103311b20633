"""A frequently-asked-questions accordion's questions: buttons that open a shown answer
of prose, kept as text where cleaning drops every other button (wf.extract.parse)."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from common.xpath import compiled
from wf.extract import buttons_tuning, hidden_tuning, tuning
from wf.extract.hidden import is_hidden

_SENTENCE = re.compile(buttons_tuning.ACCORDION_SENTENCE)
_POLICY = re.compile(tuning.PRODUCT_POLICY_TITLE, re.IGNORECASE)


def opens(button: Any) -> bool:
    """Whether a <button> may open a panel: it names one (aria-controls) or says whether
    it is open (aria-expanded)."""
    return button.get("aria-controls") is not None or button.get("aria-expanded") is not None


def questions(root: Any, buttons: list[Any]) -> list[Any]:
    """The ``buttons`` (of ``root``: those with aria-controls or aria-expanded, in page
    order) that open an answer, renamed out of parse.JUNK_MAIN's way (to _QUESTION,
    given a block's tag by settle() once hidden elements are gone): a frequently-asked-
    questions accordion writes its questions as buttons, and was printed as its answers
    alone. Only a button whose panel (its aria-controls, else what follows it) is shown
    and holds prose: a menu's or a filter's buttons go as before, and a page without
    such an accordion is untouched."""
    if not buttons:
        return []
    ids: dict[str, Any] | None = None
    kept = []
    # Each panel's text is measured whole: panels nested in one another (a hostile page's
    # chain of buttons, each before a box holding the rest) would cost the page's text
    # once per button. Past this many characters measured, the rest go as before.
    budget = float(buttons_tuning.ACCORDION_READ_MAX)
    for button in buttons:
        if budget < 0:
            break
        words = len(" ".join(button.itertext()).split())
        if not buttons_tuning.ACCORDION_WORDS <= words <= buttons_tuning.ACCORDION_WORDS_MAX:
            continue
        panel = None
        target = (button.get("aria-controls") or "").strip()
        if target and _filter(button, target):
            continue
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


def closed_panels(buttons: list[Any]) -> tuple[list[Any], list[Any]]:
    """On a product page, the closed panels that a button right before them opens (the
    element after it, or after the box it stands alone in, which its aria-controls names
    when it names one), with those buttons kept as their titles (renamed as questions):
    a theme's accordion of the description, the specifications and the care, each under
    a button of a few words (one is enough: "Description"), read open as hidden.py's
    accordion_panel reads a panel under a heading. A panel mostly of links (a menu's)
    stays closed, and so does one under a title of the shop's policies (shipping,
    returns: tuning.PRODUCT_POLICY_TITLE), the same under every product, and one a
    button in the page's header or <nav> opens (a control's). (titles, panels)."""
    titles: list[Any] = []
    panels: list[Any] = []
    length = compiled("string-length(normalize-space())")
    budget = float(buttons_tuning.ACCORDION_READ_MAX)  # as questions(): nested panels
    for button in buttons:
        if budget < 0:
            break
        if button.tag != "button":
            continue  # a question already
        label = " ".join(" ".join(button.itertext()).split())
        if not 0 < len(label.split()) <= buttons_tuning.PANEL_TITLE_WORDS_MAX:
            continue
        panel = _follower(button)
        if panel is None or not isinstance(panel.tag, str) or not is_hidden(panel):
            continue
        if next(button.iterancestors(*hidden_tuning.CONTROL_BOXES), None) is not None:
            continue  # the header's search box, its mini cart
        target = (button.get("aria-controls") or "").strip()
        if (target and panel.get("id") != target) or _POLICY.fullmatch(label):
            continue
        whole = float(length(panel))
        budget -= whole
        linked = sum(float(length(a)) for a in panel.iter("a"))
        if not whole or linked > buttons_tuning.PANEL_LINKED_SHARE * whole:
            continue
        button.tag = _QUESTION
        for name in ("aria-controls", "aria-expanded", "type"):
            button.attrib.pop(name, None)
        titles.append(button)
        panels.append(panel)
    return titles, panels


# Not a tag of HTML: no rule reads it before settle() gives it its own.
_QUESTION = "wf-question"
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary"))


def _filter(button: Any, target: str) -> bool:
    """Whether a tab's panel, ``target``, is another tab's too (one at most
    buttons_tuning.FILTER_TABS_MAX elements on either side): a row of buttons that filter
    one panel (Javadoc's "All Methods", "Instance Methods" over its one table of methods),
    no question. One other is enough, not the whole row (radio_tabs.shared_panel, which
    kinds/docs_tabs.py asks before it drops a row): in a row that mixes them with tabs of
    panels of their own, or with a tab naming none, two buttons over one answer are no
    two questions either."""
    if button.get("role") != "tab":
        return False
    for side in (button.itersiblings(preceding=True), button.itersiblings()):
        for sibling in islice(side, buttons_tuning.FILTER_TABS_MAX):
            if sibling.get("aria-controls") == target:
                return True
    return False


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
    """Whether a panel of ``whole`` characters holds prose (buttons_tuning.ACCORDION_PROSE)."""
    length = compiled("string-length(normalize-space())")
    if whole < buttons_tuning.ACCORDION_PROSE:
        return False
    linked = sum(float(length(a)) for a in panel.iter("a"))
    own = whole - linked
    if own < buttons_tuning.ACCORDION_PROSE or own < buttons_tuning.ACCORDION_PROSE_SHARE * whole:
        return False
    return _SENTENCE.search(" ".join(panel.itertext())) is not None


def settle(kept: list[Any]) -> None:
    """The questions kept read as text: a heading's button (the pattern's
    <h3><button>) inline in its heading, any other a paragraph of its own."""
    for question in kept:
        parent = question.getparent()
        question.tag = "span" if parent is not None and parent.tag in _HEADINGS else "p"
