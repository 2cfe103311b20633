"""Documentation pages' links of the manual's chrome, by their whole text: the offer to edit
the page ("Edit this page on GitHub", "Suggest edits", Sphinx's "Show Source") and the bare
link to an item's source beside its heading or signature (rustdoc's "Source"), each
standing alone; and a "More..." that jumps to the rest of a description on the page
(Doxygen's). (Moved from wf/extract/kinds/docs.py.)"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import docs_tuning
from wf.extract.kinds.docs_chrome import stands_alone

_EDIT_LINK = re.compile(docs_tuning.EDIT_LINK, re.IGNORECASE)
_MORE = re.compile(docs_tuning.MORE_LINK, re.IGNORECASE)
# A link's text longer than this is no offer to edit (white space around it included).
_EDIT_TEXT_MAX = 60


def drop_edit_links(root: Any) -> None:
    """Remove the links that offer to edit the page (docs_tuning.EDIT_LINK, by their whole
    text), standing alone (no words of a sentence just before or after them): a link at
    the foot of the body, beside no box to be named for it, printed "Edit this page on
    GitHub" under the manual's last paragraph. And the bare links to an item's source
    beside its heading or signature (_by_entry), and the jumps to the rest of a
    description on the page (_jump)."""
    from wf.extract.hidden import drop_each

    found = []
    for a in root.iter("a"):
        text = "".join(a.itertext())
        if len(text) > _EDIT_TEXT_MAX:
            continue
        words = " ".join(text.split())
        source = _SOURCE_LINK.fullmatch(words) is not None and _by_entry(a, words)
        edit = (source or _EDIT_LINK.fullmatch(words)) and stands_alone(a)
        if edit or _jump(a, words):
            found.append(a)
    drop_each(found)


def _jump(a: Any, words: str) -> bool:
    """A "More..." that jumps to the rest of a description on the page (Doxygen's)."""
    return _MORE.fullmatch(words) is not None and (a.get("href") or "").startswith("#")


_SOURCE_LINK = re.compile(docs_tuning.SOURCE_LINK, re.IGNORECASE)
# An API entry's heading or signature.
_ENTRY_HEADS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6", "dt"))
# What an entry's source link never stands in: a paragraph, a list's item, a table's cell.
_NOT_BY_ENTRY = frozenset(("p", "li", "td", "th", "caption", "table", "blockquote"))


def _by_entry(a: Any, words: str) -> bool:
    """Whether a link stands in an API entry's heading or signature, or in a box beside
    one (docs_tuning.SOURCE_LEVELS up, docs_tuning.SOURCE_SIBLINGS elements on either
    side): rustdoc's `<a class="src">Source</a><h4>pub fn spin()</h4>`. `words`: the
    link's text."""
    from common.xpath import text_start

    box = a
    for _ in range(docs_tuning.SOURCE_LEVELS + 1):
        if box is None or box.tag in ("body", "html") or box.tag in _NOT_BY_ENTRY:
            return False
        if box.tag in _ENTRY_HEADS:
            # ...beside the signature's words: a heading that is the link alone titles
            # a section ("Source", linked to its own anchor).
            return len(" ".join(text_start(box, _EDIT_TEXT_MAX + 1).split())) > len(words)
        for side in (box.itersiblings(preceding=True), box.itersiblings()):
            # The nearest nodes only (a comment counts): a box's siblings are read once
            # for each link under it.
            if any(el.tag in _ENTRY_HEADS for el in islice(side, docs_tuning.SOURCE_SIBLINGS)):
                return True
        box = box.getparent()
    return False
