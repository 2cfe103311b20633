"""Documentation pages of our own: the controls and links a manual's generator prints
around its text (rustdoc's toggles and source links, Sphinx's "Show Source"), left out of
wf/extract/kinds/docs_chrome.py's pages, and a code block's language as rustdoc marks it
(wf/extract/codelang.py)."""

from __future__ import annotations

import lxml.html

from wf.extract import extract
from wf.extract.codelang import language

URL = "https://docs.example.org/gearbox/struct.Widget.html"
DOC = "A widget turns the gears of the box once it is wound, until its spring runs down. "


def _item_page(body: str) -> str:
    return (
        "<html><head><title>Widget in gearbox</title></head><body>"
        '<nav class="sidebar"><a href="index.html">gearbox</a></nav><main>'
        '<div class="main-heading"><h1>Struct Widget</h1><span class="out-of-band">'
        '<a class="src" href="../src/lib.rs.html#10">source</a> \u00b7 '
        '<a id="toggle-all-docs" href="#">[<span class="inner">\u2212</span>]</a></span></div>'
        f"{body}</main></body></html>"
    )


def test_a_manuals_toggles_and_source_links_are_left_out() -> None:
    # rustdoc: "Expand description" titles the item's open documentation, "[−]" folds
    # them all, "Source" beside each method links its code. Printed as lines of the text.
    body = (
        '<details class="toggle top-doc" open><summary class="hideme"><span>Expand '
        f'description</span></summary><div class="docblock"><p>{DOC * 2}</p></div></details>'
        '<details class="toggle method-toggle" open><summary><section id="method.spin">'
        '<a class="src rightside" href="../src/lib.rs.html#30">Source</a>'
        "<h4>pub fn spin(&amp;mut self)</h4></section></summary>"
        f'<div class="docblock"><p>{DOC}</p></div></details>'
    )
    text = extract(_item_page(body), url=URL).text
    assert "# Struct Widget\n" in text
    assert "#### pub fn spin(&mut self)\n" in text
    assert text.count("spring runs down") == 3
    for chrome in ("Expand description", "Source", "source", "[", "\u2212"):
        assert chrome not in text, chrome


def test_a_toggles_word_in_a_sentence_stays() -> None:
    # The same words as a sentence's: a property's value, a step's button.
    body = (
        f"<p>{DOC}Set border-collapse to <code>collapse</code> to join the borders.</p>"
        f"<p>{DOC}<b>Hide</b> or delete the three curves used for the loft.</p>"
        f"<p>{DOC}See the <a href='../src/lib.rs.html'>source</a> of the widget.</p>"
    )
    text = extract(_item_page(body), url=URL).text
    assert "Set border-collapse to collapse to join the borders." in text
    assert "Hide or delete the three curves" in text
    assert "See the source of the widget." in text


def test_a_sidebars_show_source_link_is_left_out() -> None:
    # Sphinx's "Show Source" and a footer's "Page source": links to the page's source, a
    # separator between them. Its "[source]" after a signature stays: its readers keep it.
    page = (
        "<html><head><title>Quickstart</title></head><body><div class='body'>"
        f"<h1>Quickstart</h1><p>{DOC * 3}</p>"
        "<dl><dt id='gearbox.ratio'>gearbox.ratio(a, b)<a href='_modules/gearbox.html'>"
        f"<span>[source]</span></a></dt><dd><p>{DOC * 2}</p></dd></dl>"
        f"<p>{DOC}</p><a href='_sources/quickstart.rst.txt'>Show Source</a> | "
        "<a href='_sources/quickstart.rst.txt'>Page source</a>"
        "</div></body></html>"
    )
    text = extract(page, url="https://docs.example.org/quickstart.html").text
    assert "gearbox.ratio(a, b)[source]" in text
    assert "Show Source" not in text and "Page source" not in text


def test_rustdocs_code_block_names_its_language_twice_in_its_class() -> None:
    def pre(cls: str) -> str | None:
        return language(lxml.html.fragment_fromstring(f'<pre class="{cls}"><code>x</code></pre>'))

    assert pre("rust rust-example-rendered") == "rust"
    # A known name alone first (GeSHi's) is left: its pages' readers print no language.
    assert pre("javascript") is None
    assert pre("item-decl rust") is None


def test_many_toggles_cost_a_bounded_read_each() -> None:
    # A hostile page: thousands of controls' words, side by side and nested deep. Each is
    # read a few boxes up, a bounded text each; at most a few are dropped.
    import time

    from wf.extract.kinds.docs_chrome import drop_toggles

    side = "<span>Expand</span>" * 20_000
    deep = "<span>Collapse " * 5_000 + "</span>" * 5_000
    root = lxml.html.fromstring(f"<html><body><div>{side}</div><div>{deep}</div></body></html>")
    start = time.monotonic()
    drop_toggles(root)
    assert time.monotonic() - start < 3
    assert "".join(root.itertext()).count("Expand") >= 19_990


def test_a_pages_metadata_list_under_its_title_is_left_out() -> None:
    # A manual's page names its kind and date in a list under its <h1>, the box named as
    # the page's metadata: printed as a list of two items over the first paragraph. The
    # date is still read.
    page = (
        "<html><head><title>Configure gear ratios</title></head><body><main><div>"
        "<h1>Configure gear ratios</h1><ul class='metadata page-metadata'><li>Article</li>"
        "<li><time datetime='2024-03-03T08:00:00Z'>03/03/2024</time></li></ul>"
        f"<p>{DOC * 3}</p><h2>Apply the ratio</h2><p>{DOC * 2}</p></div></main></body></html>"
    )
    found = extract(page, url="https://learn.example.org/en-us/gearbox/ratios", metadata=True)
    assert "Article" not in found.text and "03/03/2024" not in found.text
    assert found.text.count("spring runs down") == 5
    assert (found.metadata or {}).get("date") == "2024-03-03"
