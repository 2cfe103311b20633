"""Documentation pages of our own: the controls and links a manual's generator prints
around its text (rustdoc's toggles and source links, Sphinx's "Show Source"), left out of
wf/extract/kinds/docs_chrome.py's pages, and a code block's language as rustdoc marks it
(wf/extract/codelang.py)."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

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


def test_a_title_whose_path_is_linked_stays() -> None:
    # rustdoc writes an item's path in its <h1>, each part a link; with the source link
    # beside it the heading's box was more link than text and went, title and all. A
    # permalink's "¶" in a title still goes.
    title = (
        'Struct <a href="index.html">gearbox</a>::<wbr><a class="struct" href="#">Widget</a>'
        '<button id="copy-path" title="Copy item path to clipboard">Copy item path</button>'
    )
    body = f'<div class="docblock"><p>{DOC * 2}</p></div>'
    text = extract(_item_page(body).replace("<h1>Struct Widget", f"<h1>{title}"), url=URL).text
    assert text.startswith("# Struct gearbox::Widget\n")
    sphinx = _item_page(body).replace(
        "<h1>Struct Widget", '<h1>Struct Widget<a class="headerlink" href="#widget">\u00b6</a>'
    )
    assert extract(sphinx, url=URL).text.startswith("# Struct Widget\n")


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
    # The name and its repeat in either case: one language.
    assert pre("Rust rust-example") == "rust"
    assert pre("rust Rust-Example") == "rust"
    # A known name alone first (GeSHi's) is left: its pages' readers print no language.
    assert pre("javascript") is None
    assert pre("item-decl rust") is None


def test_many_toggles_cost_a_bounded_read_each() -> None:
    # A hostile page: thousands of controls' words, side by side and nested deep. Each is
    # read a few boxes up, a bounded text each; at most a few are dropped.
    import time

    from wf.extract.kinds.docs_lines import drop_lines

    side = "<span>Expand</span>" * 20_000
    deep = "<span>Collapse " * 5_000 + "</span>" * 5_000
    from wf.extract.parse import parse  # wf's depth (huge_tree), twice lxml.html's

    root = parse(f"<html><body><div>{side}</div><div>{deep}</div></body></html>".encode())
    start = time.process_time()
    drop_lines(root)
    assert time.process_time() - start < 3
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


def _tabs(row: str, panels: str) -> str:
    return (
        "<html><head><title>Install</title></head><body><main><h1>Install</h1>"
        f"<p>{DOC * 3}</p><div class='tabs-container'>{row}{panels}</div>"
        f"<p>{DOC * 2}</p></main></body></html>"
    )


def _panel(command: str, attrs: str = "") -> str:
    return f"<div role='tabpanel'{attrs}><pre><code>{command}</code></pre></div>"


def test_each_tabs_label_heads_its_own_panel() -> None:
    # Docusaurus's tabs: a list of role="tab"s, then a box of the panels in order. The
    # labels were printed as one list before all the panels, none saying whose a panel is.
    row = (
        "<ul role='tablist'><li role='tab'>npm</li><li role='tab'>Yarn</li>"
        "<li role='tab'>pnpm</li></ul>"
    )
    panels = (
        f"<div>{_panel('npm install gearbox')}{_panel('yarn add gearbox', ' hidden')}"
        f"{_panel('pnpm add gearbox', ' hidden')}</div>"
    )
    text = extract(_tabs(row, panels), url=URL).text
    assert "npm\n\n```\nnpm install gearbox" in text
    assert "Yarn\n\n```\nyarn add gearbox" in text
    assert "pnpm\n\n```\npnpm add gearbox" in text
    assert "- npm" not in text


def test_tabs_named_by_their_panels_are_paired_by_name() -> None:
    # The panels name their tabs (aria-labelledby) or the tabs their panels (aria-controls),
    # in any order; a row whose tabs do not all find a panel is left as it is.
    row = (
        "<div role='tablist'><span role='tab' id='t-mac'>macOS</span>"
        "<span role='tab' aria-controls='p-linux'>Linux</span></div>"
    )
    panels = _panel("apt install gearbox", " id='p-linux'") + _panel(
        "brew install gearbox", " aria-labelledby='t-mac'"
    )
    text = extract(_tabs(row, panels), url=URL).text
    # (A label that names a language would be the fence's: codelang.label.)
    assert "Linux\n\n```\napt install gearbox" in text
    assert "macOS\n\n```\nbrew install gearbox" in text
    lone = "<div role='tablist'><span role='tab'>macOS</span><span role='tab'>Linux</span></div>"
    text = extract(_tabs(lone, _panel("brew install gearbox")), url=URL).text
    assert "macOS\n\n```" not in text


def test_panels_inside_their_row_of_tabs_are_kept() -> None:
    # A row that holds its panels, each after its tab: dropping the row dropped them all.
    row = (
        "<div role='tablist'><span role='tab' aria-controls='p-mac'>macOS</span>"
        f"{_panel('brew install gearbox', ' id=p-mac')}"
        "<span role='tab' aria-controls='p-linux'>Linux</span>"
        f"{_panel('apt install gearbox', ' id=p-linux')}</div>"
    )
    text = extract(_tabs(row, ""), url=URL).text
    assert "brew install gearbox" in text and "apt install gearbox" in text


def test_a_repeated_id_names_its_first_panel() -> None:
    # As a browser's getElementById: the tab opens the first panel of its id, not a later
    # one that repeats it.
    row = (
        "<div role='tablist'><span role='tab' aria-controls='p-mac'>macOS</span>"
        "<span role='tab' aria-controls='p-linux'>Linux</span></div>"
    )
    panels = (
        _panel("brew install gearbox", " id='p-mac'")
        + _panel("apt install gearbox", " id='p-linux'")
        + _panel("pkg install gearbox", " id='p-linux'")
    )
    text = extract(_tabs(row, panels), url=URL).text
    assert "Linux\n\n```\napt install gearbox" in text
    assert "Linux\n\n```\npkg install" not in text


def test_many_rows_of_tabs_cost_a_bounded_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # A hostile page: rows of tabs nested in each other's panels (each row's walk reads
    # the rows inside it), and thousands of rows: a few rows are read, not all. Parsed
    # as wf parses (huge_tree: twice lxml.html's depth).
    import time

    from wf.extract.kinds import docs_tabs, docs_tuning
    from wf.extract.parse import parse

    rows_read = []
    pairs = docs_tabs._aria_pairs
    monkeypatch.setattr(
        docs_tabs, "_aria_pairs", lambda row, *rest: rows_read.append(row) or pairs(row, *rest)
    )
    nested = (
        "<div role='tablist'><b role='tab'>a</b><b role='tab'>b</b></div>"
        "<div><div role='tabpanel'>x" * 2_000
    ) + "</div></div>" * 2_000
    rows = "<div><div role='tablist'><b role='tab'>a</b></div></div>" * 20_000
    root = parse(f"<html><body>{nested}{rows}</body></html>".encode())
    start = time.process_time()
    docs_tabs.head_panels(root)
    assert time.process_time() - start < 3
    assert 0 < len(rows_read) <= docs_tuning.TAB_ROWS_MAX


def test_a_manuals_generator_declares_documentation() -> None:
    # A manual served from its own domain, no /docs/ in its path: its generator says what
    # it is, and its chrome goes as a manual's does. Another generator says nothing.
    body = (
        "<ul role='tablist'><li role='tab'>macOS</li><li role='tab'>Linux</li></ul>"
        f"<div>{_panel('brew install gearbox')}{_panel('apt install gearbox')}</div>"
    )
    for generator, kind in (
        ("mkdocs-1.6.1, mkdocs-material-9.5.40", "documentation"),
        ("Docusaurus v3.5.2", "documentation"),
        ("WordPress 6.5", None),
    ):
        page = _tabs("", body).replace(
            "<title>", f"<meta name='generator' content='{generator}'><title>"
        )
        found = extract(page, url="https://gearbox.example.org/install/", metadata=True)
        assert (found.metadata or {}).get("type") == kind, generator
        assert ("macOS\n\n```\nbrew install" in found.text) == (kind is not None)
    # Astro writes its own name first, Starlight (a manual's theme on it) after.
    page = _tabs("", body).replace(
        "<title>",
        "<meta name='generator' content='Astro v4.16'>"
        "<meta name='generator' content='Starlight v0.28'><title>",
    )
    found = extract(page, url="https://gearbox.example.org/install/", metadata=True)
    assert (found.metadata or {}).get("type") == "documentation"
    # Sphinx writes no generator: its own script on every page it builds says it.
    page = _tabs("", body).replace(
        "<title>", "<script src='../_static/documentation_options.js?v=1'></script><title>"
    )
    found = extract(page, url="https://gearbox.example.org/install/", metadata=True)
    assert (found.metadata or {}).get("type") == "documentation"


def test_a_post_of_a_manuals_blog_is_no_manual() -> None:
    # The generators of manuals build their blogs too: a page that declares itself a
    # post is one, whatever built it.
    post = '{"@context": "https://schema.org", "@type": "BlogPosting", "headline": "Install"}'
    page = _tabs("", "").replace(
        "<title>",
        "<meta name='generator' content='Docusaurus v3.5.2'>"
        f"<script type='application/ld+json'>{post}</script><title>",
    )
    found = extract(page, url="https://gearbox.example.org/blog/install", metadata=True)
    assert (found.metadata or {}).get("type") == "article"
    # Declared in microdata alike (the type's last part, in any case): no manual.
    page = (
        _tabs("", "<p>Install it with one command.</p>")
        .replace("<body>", "<body itemscope itemtype='https://schema.org/BlogPosting'>")
        .replace("<title>", "<meta name='generator' content='Docusaurus v3.5.2'><title>")
    )
    found = extract(page, url="https://gearbox.example.org/blog/install", metadata=True)
    assert (found.metadata or {}).get("type") != "documentation"


def test_a_manuals_menu_of_versions_is_left_out() -> None:
    # Read the Docs' flyout (class rst-versions): the current version, the others, the
    # downloads and the project's links, printed after the text; a theme's switcher by its
    # class, a menu by its accessible name. A section about versions (its id) stays.
    flyout = (
        "<div class='rst-versions' role='note'><span>Read the Docs v: latest</span><div><dl>"
        "<dt>Versions</dt><dd><a href='/en/latest/'>latest</a></dd><dd><a href='/en/2.0/'>2.0"
        "</a></dd></dl><dl><dt>Downloads</dt><dd><a href='/pdf/'>pdf</a></dd></dl><dl><dt>"
        "On Read the Docs</dt><dd><a href='/projects/gearbox/'>Project Home</a></dd></dl>"
        "</div></div>"
    )
    switcher = (
        "<div class='version-switcher_root'><button>v2.1</button><a href='/v1'>v1.9 (old)</a></div>"
    )
    labelled = "<ul aria-label='Versions'><li><a href='/v1'>Gearbox one (unsupported)</a></li></ul>"
    section = f"<section id='supported-versions'><h2>Supported versions</h2><p>{DOC}</p></section>"
    page = (
        "<html><head><title>Quickstart</title></head><body><main><h1>Quickstart</h1>"
        f"{switcher}{labelled}<p>{DOC * 3}</p>{section}{flyout}</main></body></html>"
    )
    text = extract(page, url="https://gearbox.example.org/docs/quickstart.html").text
    for chrome in ("Read the Docs", "Downloads", "Project Home", "v1.9", "unsupported"):
        assert chrome not in text, chrome
    assert "## Supported versions" in text


def test_a_code_blocks_copy_labels_are_left_out() -> None:
    # A copy button drawn as a box, not a <button>: its labels stood as a line over the
    # code ("bash Copy Copied!", the language lost), or ran on from its last line.
    page = (
        "<html><head><title>Install</title></head><body><main><h1>Install</h1>"
        f"<p>{DOC * 3}</p><div><div class='code-header'><span>bash</span><div class='copy'>"
        "<span>Copy</span><span>Copied!</span></div></div><pre><code>npm install gearbox"
        "</code></pre></div>"
        f"<p>{DOC}</p><pre><code>gearbox --help</code><a class='copy'>Copy code</a></pre>"
        # A method named so beside its example, and the word in a sentence, stay.
        "<dl><dt><span>list.</span><span>copy</span><span>()</span></dt><dd>"
        f"<p>{DOC}Copy the file first.</p><pre><code>xs.copy()</code></pre></dd></dl>"
        "</main></body></html>"
    )
    text = extract(page, url="https://gearbox.example.org/docs/install").text
    assert "```bash\nnpm install gearbox\n```" in text
    assert "gearbox --help\n```" in text
    assert "Copied" not in text and "Copy code" not in text
    assert "list.copy()" in text and "Copy the file first." in text


def test_many_copy_labels_cost_a_bounded_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each label weighed reads the boxes beside it for code, which may be the whole page:
    # a few are weighed, not all. (A time alone misses it: each box beside is small here.)
    from wf.extract.kinds import docs_lines, docs_tuning
    from wf.extract.parse import parse

    reads = []
    holds_pre = docs_lines._holds_pre
    monkeypatch.setattr(docs_lines, "_holds_pre", lambda el: reads.append(1) or holds_pre(el))
    labels = "<div><span>Copy</span></div>" * 20_000
    root = parse(f"<html><body>{labels}<pre>x</pre></body></html>".encode())
    docs_lines.drop_lines(root)
    weighed = 2 * docs_tuning.STAMPS_MAX
    assert 0 < len(reads) <= weighed * 2 * (docs_tuning.UPDATE_STAMP_LEVELS + 1)


def test_a_manuals_colophon_is_left_out() -> None:
    # A short page read whole: the lines that say what built the manual and whose it is
    # were printed under its one paragraph. A licence's own copyright line (the word, not
    # the sign) and a sentence about a build stay.
    page = (
        "<html><head><title>Licence</title></head><body><div><h1>Licence</h1>"
        "<p>Copyright (c) 2015 Ann Smith</p><p>Permission is granted to use it.</p>"
        "<p>The wheel was built with care, as the next chapter tells in full.</p>"
        "<div><p>\u00a9 Copyright 2024, The Gearbox authors.</p></div>"
        "<div>Built with <a href='https://sphinx.example'>Sphinx</a> using a "
        "<a href='https://theme.example'>theme</a> provided by Read the Docs.</div>"
        "<p><span>Made with</span> <a href='https://mkdocs.example'>Material for MkDocs</a></p>"
        "</div></body></html>"
    )
    text = extract(page, url="https://gearbox.example.org/docs/licence.html").text
    assert "Copyright (c) 2015 Ann Smith" in text
    assert "built with care, as the next chapter" in text
    for chrome in ("\u00a9", "Sphinx", "Material for MkDocs"):
        assert chrome not in text, chrome


def test_a_manuals_own_line_about_a_build_is_no_colophon() -> None:
    # "Generated by the compiler." standing alone in the body is the manual's own text. A
    # colophon stands in the footer, or after the content, or names what built the manual.
    page = (
        "<html><head><title>Bindings</title></head><body><main><h1>Bindings</h1>"
        f"<p>{DOC * 3}</p><p>Generated by the compiler.</p><p>{DOC}</p>"
        "<div><p>Built with the gearbox toolchain.</p></div>"
        "<p>Built with <a href='https://sphinx.example'>Sphinx</a>.</p>"
        "<p>\u00a9 2026 The Gearbox authors.</p></main>"
        "<div class='rst-footer'><p>Made with care by the Gearbox team.</p></div>"
        "<footer><p>Powered by Gearbox Cloud.</p></footer></body></html>"
    )
    text = extract(page, url="https://gearbox.example.org/docs/bindings.html").text
    lines = text.split("\n")
    assert "Generated by the compiler." in lines
    assert "Built with the gearbox toolchain." in lines
    for chrome in ("Sphinx", "\u00a9", "Made with care", "Powered by"):
        assert chrome not in text, chrome


def test_release_notes_labelled_versions_stay() -> None:
    # A section labelled "Versions" that tells each release in headings and paragraphs
    # is the page's text, short as it is; a menu so labelled is links with a label.
    notes = (
        "<section aria-label='Versions'><h2>Versions</h2><h3>2.1</h3>"
        "<p>The widget learns to spin backwards, and its spring lasts a day longer.</p>"
        "<h3>2.0</h3><p>Gears are counted from one, as the <a href='/guide'>guide</a> "
        "counts them, and the old names are kept for a year.</p></section>"
    )
    menu = (
        "<div aria-label='Versions'><span>Documentation version:</span><ul>"
        "<li><a href='/v1'>Gearbox one</a></li><li><a href='/v2'>Gearbox two</a></li>"
        "</ul><select><option>latest</option><option>stable</option></select></div>"
    )
    page = (
        "<html><head><title>Changes</title></head><body><main><h1>Changes</h1>"
        f"{menu}<p>{DOC * 3}</p>{notes}</main></body></html>"
    )
    text = extract(page, url="https://gearbox.example.org/docs/changes.html").text
    assert "The widget learns to spin backwards" in text
    assert "the old names are kept for a year." in text
    for chrome in ("Documentation version", "Gearbox one", "stable"):
        assert chrome not in text, chrome


def test_a_version_menu_of_many_empty_boxes_costs_a_bounded_walk() -> None:
    import time

    from wf.extract.kinds.docs_chrome import drop_banners
    from wf.extract.parse import parse

    # Menus nested around a great many empty boxes: each menu's walk would read them all.
    empty = "<span></span>" * 500_000
    menus = "<div aria-label='Versions'><a href='/v1'>one</a>" * 20 + empty + "</div>" * 20
    root = parse(f"<html><body>{menus}<p>{DOC}</p></body></html>".encode())
    start = time.process_time()
    drop_banners(root)
    assert time.process_time() - start < 5
    assert "one" not in "".join(root.itertext())


def test_a_source_link_goes_only_beside_an_api_entry() -> None:
    # rustdoc's "Source" beside an item's heading goes (the test above), and so does one
    # in a signature; the word as a link on a line of its own that heads a list of
    # citations, in a table's cell, or as a section's title, is the page's.
    from wf.extract.kinds.docs import drop_edit_links

    fragment = lxml.html.fromstring(
        "<html><body><div><p>The gears.</p><p><a href='https://papers.example/g'>Source</a></p>"
        "<ul><li>Ann Smith, On the winding of springs, 1921.</li></ul>"
        "<table><tr><td>2.1</td><td><a href='https://code.example/2.1.tar.gz'>Source</a></td>"
        "</tr></table><h2><a href='#source'>Source</a></h2><p>The code is free.</p></div>"
        "<section><div class='rightside'><a href='../src/lib.rs.html#40'>Source</a></div>"
        "<a class='anchor' href='#method.wind'>\u00a7</a><h4>pub fn wind()</h4></section>"
        "<dl><dt><code>fn spin()</code> <a href='../src/lib.rs.html#50'>src</a></dt>"
        "<dd>Spins.</dd></dl></body></html>"
    )
    drop_edit_links(fragment)
    text = " ".join(fragment.itertext())
    assert text.count("Source") == 3 and "src" not in text and "fn spin()" in text
    for kept in ("papers.example", "code.example", "#source"):
        assert fragment.xpath(f"//a[contains(@href, '{kept}')]"), kept
    body = (
        f"<div class='docblock'><p>{DOC * 2}</p>"
        "<table><tr><th>Release</th><th>Notes</th><th>Code</th></tr><tr><td>2.1</td>"
        "<td>The widget learns to spin backwards.</td>"
        "<td><a href='https://code.example/2.1.tar.gz'>Source</a></td></tr>"
        "<tr><td>2.0</td><td>Gears are counted from one.</td>"
        "<td><a href='https://code.example/2.0.tar.gz'>src</a></td></tr></table></div>"
    )
    text = extract(_item_page(body), url=URL).text
    assert "backwards. | Source |" in text and "from one. | src |" in text


def test_many_source_links_cost_a_bounded_read_each() -> None:
    # Each link reads a few of its boxes' nearest siblings, never all of them: many links
    # in one box beside a great many comments.
    import time

    from wf.extract.kinds.docs import drop_edit_links
    from wf.extract.parse import parse

    links = "<span><a href='/s'>Source</a></span>" * 50_000
    comments = "<!-- c -->" * 200_000
    page = f"<html><body><div>{comments}<div>{links}</div>{comments}<h4>fn x()</h4></div></body></html>"
    root = parse(page.encode())
    start = time.process_time()
    drop_edit_links(root)
    assert time.process_time() - start < 5


@pytest.mark.parametrize("seed", ["helpful", "Last updated"])
def test_a_box_around_many_seeds_is_read_once(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    # A hundred texts that hold a seed of the feedback question or of the update stamp, in
    # one paragraph after hundreds of empty boxes: each one's way up reaches the
    # paragraph, which is read once, not once a text.
    from wf.extract.kinds import docs_chrome

    read = [0]
    short = docs_chrome._short_text

    def counted(el: object) -> str | None:
        read[0] += 1
        return short(el)

    monkeypatch.setattr(docs_chrome, "_short_text", counted)
    para = "<p>" + "<br>" * 700 + f"<b>{seed}</b>" * 100 + "</p>"
    root = lxml.html.fromstring("<html><body><div>" + para * 20 + "</div></body></html>")
    docs_chrome.drop_feedback(root)
    docs_chrome.drop_update_stamps(root)
    assert read[0] <= 20 * 100 + 20 + 1, read[0]


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("Last updated by the tide office, see the harbour's notes", "_stamp"),
        ("Was this page helpful to the harbour's pilots", "_FEEDBACK"),
    ],
)
def test_lines_that_nearly_say_a_stamp_are_read_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, line: str, rule: str
) -> None:
    # 5000 boxes each of one line that holds the stamp's (or the question's) words and
    # is none: each was matched against the pattern (3 s of CPU for 20 000 lines).
    from wf.extract.kinds import docs_chrome, docs_tuning

    calls = [0]
    if rule == "_stamp":
        stamp = docs_chrome._stamp

        def counted(text: str) -> bool:
            calls[0] += 1
            return stamp(text)

        monkeypatch.setattr(docs_chrome, "_stamp", counted)
    else:
        pattern = docs_chrome._FEEDBACK

        class Counted:
            def fullmatch(self, text: str) -> object:
                calls[0] += 1
                return pattern.fullmatch(text)

        monkeypatch.setattr(docs_chrome, "_FEEDBACK", Counted())
    boxes = "".join(f"<div><p>{line} {n}.</p></div>" for n in range(5000))
    root = lxml.html.fromstring(f"<html><body><main>{boxes}</main></body></html>")
    docs_chrome.drop_update_stamps(root)
    docs_chrome.drop_feedback(root)
    assert 0 < calls[0] <= docs_tuning.STAMP_SEEDS_MAX * (docs_tuning.UPDATE_STAMP_LEVELS + 1)
    assert len(root.findall(".//p")) == 5000


def test_a_stamp_under_many_lines_that_say_last_goes() -> None:
    # A long manual says "last" in many a line ("returns the last element"): those are no
    # stamp's words and do not count against the stamps' bound.
    from wf.extract.kinds import docs_chrome, docs_tuning

    lines = "".join(
        f"<p>Method {n} returns the last element of the queue.</p>"
        for n in range(docs_tuning.STAMP_SEEDS_MAX + 50)
    )
    root = lxml.html.fromstring(
        f"<html><body><main>{lines}<div><p>Last updated: May 2, 2024</p></div></main></body></html>"
    )
    docs_chrome.drop_update_stamps(root)
    text = root.text_content()
    assert "Last updated" not in text and "Method 249 returns" in text


def test_an_items_sections_beside_its_description_stay() -> None:
    # rustdoc: the item's description, then its fields and its methods, each a sibling
    # in the page's content box. The methods, headed by signatures of links and with a
    # line of text each, scored under a fifth of the description and were cut as
    # siblings that did not join it (widen.merge_siblings), the <h1> above them too.
    method = (
        '<details class="toggle method-toggle" open><summary><section class="method">'
        '<h4 class="code-header">pub fn <a href="#method.{0}">{0}</a>(&amp;self) -&gt; '
        '<a href="struct.Gear.html">Gear</a></h4></section></summary>'
        '<div class="docblock"><p>Turns it once.</p></div></details>'
    )
    body = (
        '<section id="main-content"><div class="main-heading"><h1>Struct Widget</h1></div>'
        f'<details class="toggle top-doc" open><summary class="hideme"><span>Expand '
        f'description</span></summary><div class="docblock"><p>{DOC * 3}</p><p>{DOC * 2}</p>'
        "</div></details>"
        '<h2 id="fields">Fields</h2><span class="structfield"><code>teeth: u32</code></span>'
        '<div class="docblock"><p>How many teeth.</p></div>'
        '<h2 id="implementations">Implementations</h2><div id="implementations-list">'
        f"{method.format('spin')}{method.format('wind')}</div></section>"
    )
    page = _item_page(body).replace("<h1>Struct Widget</h1>", "", 1)
    text = extract(page, url=URL).text
    assert "# Struct Widget\n" in text
    assert "teeth: u32" in text and "How many teeth." in text
    assert "#### pub fn wind(&self) -> Gear\n\nTurns it once." in text


def test_an_items_sections_beside_its_declaration_stay() -> None:
    # A whole rustdoc page of our own: the item's declaration joins its description (the
    # box around both taken, with the title); its fields, methods and traits beside them,
    # short and mostly links, did not join and were cut (widen.merge_siblings), the
    # title's box with them.
    page = (Path(__file__).parent / "fixtures" / "extract" / "rustdoc_item.html").read_text()
    text = extract(page, url="https://docs.rs/gearbox/1.0.0/gearbox/struct.Widget.html").text
    assert text.startswith("# Struct Widget\n")
    assert "teeth: u32\n\nHow many teeth the widget has." in text
    assert "#### pub fn wind(&mut self)\n\nWinds the spring as far as it goes." in text
    assert "### impl Clone for Widget" in text
    assert "Source" not in text and "Copy item path" not in text
