"""Documentation pages of our own: what a manual's page keeps (its notes, every section,
its code) and what it leaves out; wf/extract/names.py's reading of documentation names
and the thin-page rule of wf/extract/kinds/landing.py."""

from __future__ import annotations

from wf.extract import extract_text
from wf.extract.names import negative_block

SENTENCE = "The query runs when the set is first iterated, sliced with a step, or pickled. "


def _manual(body: str) -> str:
    return (
        "<html><head><title>QuerySet reference</title></head><body>"
        '<nav class="sidebar"><ul><li><a href="/a">Models</a></li><li><a href="/b">Queries'
        "</a></li></ul></nav>"
        f"<main><h1>QuerySet reference</h1><p>{SENTENCE * 3}</p>{body}</main>"
        "<footer><p>Copyright the authors.</p></footer></body></html>"
    )


def test_a_note_named_after_its_title_is_content() -> None:
    # Sphinx names an admonition after its title: "share" and "dates" name no share bar
    # and no dateline here.
    note = "Pickles made by one version cannot be read by another, so never share them."
    page = _manual(
        '<div class="admonition admonition-you-can-t-share-pickles-between-versions">'
        f'<p class="admonition-title">Share pickles</p><p>{note}</p></div>'
        f'<div class="admonition admonition-dates"><p>{SENTENCE}</p></div>'
        f"<p>{SENTENCE * 2}</p>"
    )
    text = extract_text(page)
    assert note in text
    assert text.count("first iterated") == 6


def test_a_section_named_after_its_anchor_is_content() -> None:
    # Django's sections: id="s-<anchor>" around the anchor's own element. The words of the
    # anchor (related, dates) say what the section is about, not what the box is.
    section = "select_related() follows foreign keys and selects the related objects too."
    page = _manual(
        '<section id="s-select-related"><span id="select-related"></span>'
        f"<h2>select_related()</h2><p>{section * 3}</p></section>"
        '<section id="s-dates"><span id="dates"></span>'
        f"<h2>dates()</h2><p>{SENTENCE * 2}</p></section>"
    )
    text = extract_text(page)
    assert section * 3 in text
    assert "## dates()" in text


def test_an_id_that_only_starts_with_s_keeps_its_meaning() -> None:
    from lxml import html as lxml_html

    footer = lxml_html.fragment_fromstring('<div id="s-footer-brands"><ul><li>a</li></ul></div>')
    assert negative_block(footer, "div")
    # ...and a section's id names its anchor only when that anchor is its first child.
    other = lxml_html.fragment_fromstring(
        '<section id="s-related"><span id="elsewhere"></span><p>x</p></section>'
    )
    assert negative_block(other, "section")
    own = lxml_html.fragment_fromstring(
        '<section id="s-related"><span id="related"></span><p>x</p></section>'
    )
    assert not negative_block(own, "section")
