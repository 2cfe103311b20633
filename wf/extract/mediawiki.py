"""What MediaWiki (Wikipedia, Fandom, every wiki built on it) writes around a page's text
for its editors only: the "[edit]" link beside each section's heading."""

from __future__ import annotations

from typing import Any

# The class MediaWiki gives the <body> of every page it serves, whatever the skin.
_BODY_CLASS = "mediawiki"
# The box of a section's edit link, its brackets inside ("[", the link, "]").
_EDIT_SECTIONS = ".//*[contains(concat(' ', normalize-space(@class), ' '), ' mw-editsection ')]"


def drop_section_edits(body: Any) -> None:
    """Remove the section edit links of a MediaWiki page ("History[edit]" printed as a
    heading, "[edit]" on a line of its own under it in the skins since 2024). Looked
    for only when the <body> is MediaWiki's: no other page pays for the search."""
    if _BODY_CLASS not in (body.get("class") or "").split():
        return
    from common.xpath import compiled
    from wf.extract.hidden import drop_all

    drop_all(compiled(_EDIT_SECTIONS)(body))
