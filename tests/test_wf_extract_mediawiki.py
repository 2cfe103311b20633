"""MediaWiki's section edit links (wf/extract/mediawiki.py)."""

from __future__ import annotations

from wf.extract import extract

PROSE = (
    "The harbour's first crane was raised in the spring, and the ferry that ran late "
    "became the town's only way across the water for twenty years. "
)
LATER = (
    "A second quay followed when the fishing fleet outgrew the first, and the customs "
    "house moved to the headland where it stands today. "
)


def _edit(section: str) -> str:
    return (
        "<span class='mw-editsection'><span class='mw-editsection-bracket'>[</span>"
        f"<a href='/w/index.php?title=Harbour&action=edit&section={section}'>edit</a>"
        "<span class='mw-editsection-bracket'>]</span></span>"
    )


def _page(body_class: str) -> str:
    # The skins before 2024 put the link inside the heading; Vector 2022 after it, in
    # the heading's box.
    old = f"<h2><span class='mw-headline' id='History'>History</span>{_edit(1)}</h2>"
    new = f"<div class='mw-heading mw-heading2'><h2 id='Quays'>Quays</h2>{_edit(2)}</div>"
    return (
        f"<html><head><title>Harbour</title></head><body class='{body_class}'><main>"
        f"<div class='mw-parser-output'><p>{PROSE * 2}</p>{old}<p>{PROSE}</p>{new}"
        f"<p>{LATER * 2}</p></div></main></body></html>"
    )


def test_a_wikis_section_edit_links_are_left_out():
    text = extract(_page("mediawiki ltr skin-vector"), url="https://w.example/wiki/Harbour").text
    assert "edit" not in text
    assert "## History\n" in text and "## Quays\n" in text
    assert LATER.strip() in text


def test_only_a_mediawiki_page_is_searched_for_them():
    # The same markup on a page MediaWiki did not serve is read as it stands.
    text = extract(_page("blog"), url="https://w.example/harbour").text
    assert "[edit]" in text
