"""Documentation pages of our own: what a manual's page keeps (its notes, every section,
its code) and what it leaves out; wf/extract/names.py's reading of documentation names
and the thin-page rule of wf/extract/kinds/landing.py."""

from __future__ import annotations

import lxml.html

from wf.extract import extract, extract_text
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


def test_an_id_that_names_nothing_is_not_read_as_a_topic() -> None:
    # names.negative_block asks whether an id names the block's topic (which reads the
    # block's children and text) only when the id changes what its names say: a block
    # named `sidebar` with an id of four words is boilerplate without a look inside it.
    class Box:
        def __init__(self, attrs: dict[str, str]) -> None:
            self.attrs = attrs

        def get(self, name: str) -> str | None:
            return self.attrs.get(name)

        def __len__(self) -> int:
            raise AssertionError("the block's children were read")

        def __getitem__(self, index: int) -> None:
            raise AssertionError("the block's children were read")

        def __iter__(self) -> None:
            raise AssertionError("the block's children were read")

    assert negative_block(Box({"class": "sidebar", "id": "alpha-beta-gamma-delta"}), "div")
    assert not negative_block(Box({"class": "entry", "id": "alpha-beta-gamma-delta"}), "div")


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


INTRO = "Indexes are a common way to enhance database performance, but they add overhead too. "


def _chapter(entries: int, above: str = "") -> str:
    toc = "".join(
        f'<dt><a href="/docs/indexes-{i}.html">11.{i}. Index topic {i} and what it covers</a></dt>'
        for i in range(1, entries + 1)
    )
    return (
        "<html><head><title>Chapter 11. Indexes</title></head><body>"
        "<nav class='navbar'><a href='/'>Home</a> <a href='/about'>About</a></nav>"
        f"{above}<div id='docContent'><div class='chapter'><h2>Chapter 11. Indexes</h2>"
        f"<div class='toc'><p><strong>Table of Contents</strong></p><dl>{toc}</dl></div>"
        f"<p>{INTRO * 3}</p></div></div>"
        "<footer><p>Copyright the project.</p></footer></body></html>"
    )


def test_a_thin_chapter_page_is_read_whole_without_its_frame() -> None:
    # A manual's chapter page: a short introduction, and a table of contents that is all
    # links, three times as long: the page is read whole, its navigation and footer left
    # out, and it stays documentation.
    found = extract(
        _chapter(16), url="https://example.org/docs/current/indexes.html", metadata=True
    )
    assert "11.16. Index topic 16 and what it covers" in found.text
    assert found.text.count("enhance database performance") == 3
    assert "Home" not in found.text
    assert "Copyright" not in found.text
    assert (found.metadata or {}).get("type") == "documentation"


def test_a_short_choice_on_a_short_page_stays() -> None:
    # Two entries beside the introduction: the page holds no more than twice the choice.
    text = extract_text(_chapter(2), url="https://example.org/docs/current/indexes.html")
    assert "Index topic 1 " not in text
    assert text.count("enhance database performance") == 3


# A manual's version pickers, as PostgreSQL's pages show them above the chapter.
PICKERS = (
    "<div class='row'><div class='col'>Supported Versions: <a href='/docs/current/'>Current"
    "</a> (<a href='/docs/18/'>18</a>) / <a href='/docs/17/'>17</a> / <a href='/docs/16/'>16"
    "</a></div></div><div class='row'><div class='col'>Development Versions: <a"
    " href='/docs/devel/'>devel</a></div></div><div class='row'><div class='col'>Unsupported"
    " versions: <a href='/docs/13/'>13</a> / <a href='/docs/12/'>12</a> / <a"
    " href='/docs/11/'>11</a> / <a href='/docs/10/'>10</a> / <a href='/docs/9.6/'>9.6</a>"
    "</div></div><ul class='picks'><li><a href='/v/2.1.x'>2.1.x</a></li><li><a"
    " href='/v/latest'>latest</a></li><li><a href='/v/stable'>stable</a></li></ul>"
)


def test_a_manuals_version_pickers_are_left_out() -> None:
    # Links that all name versions, beside a label naming versions at most: the reader
    # has the page's version. The chapter page is then read whole as any thin one is.
    url = "https://example.org/docs/current/indexes.html"
    found = extract(_chapter(8, above=PICKERS), url=url, metadata=True)
    assert "Index topic 8 " in found.text
    assert found.text.count("enhance database performance") == 3
    for word in ("Versions", "versions", "Current", "9.6", "devel", "stable", "2.1.x"):
        assert word not in found.text, word
    assert (found.metadata or {}).get("type") == "documentation"


def test_a_manuals_trail_of_links_is_left_out() -> None:
    # "Documentation → PostgreSQL 18" above the chapter, no name saying it is a trail;
    # a path written in code, and a sentence with an arrow, stay.
    trail = (
        "<div><a href='/docs/'>Documentation</a> \u2192 <a href='/docs/18/'>PostgreSQL 18</a></div>"
    )
    url = "https://example.org/docs/current/indexes.html"
    found = extract(_chapter(8, above=trail), url=url)
    assert "Index topic 8 " in found.text and "Documentation" not in found.text
    steps = (
        "<p>Open <a href='/s'>Settings</a> \u2192 <a href='/p'>Privacy</a> to turn it off.</p>"
        "<div class='highlight'><pre><code>ls <a href='/a'>a</a> &gt; <a href='/b'>b</a>"
        "  # lists a into the file b</code></pre></div>"
    )
    text = extract_text(_manual(f"<p>{SENTENCE}</p>{steps}"), url=url)
    assert "Settings \u2192 Privacy to turn it off." in text and "ls a > b" in text
    # Links and arrows alone in code are the code's.
    from lxml import html as lxml_html

    from wf.extract.kinds.docs import drop_pickers_and_trails

    root = lxml_html.fromstring(
        "<html><body><div><pre><code><a href='/a'>a</a> &gt; <a href='/b'>b</a></code></pre>"
        "</div><p><a href='/a'>a</a> &gt; <a href='/b'>b</a></p></body></html>"
    )
    drop_pickers_and_trails(root)
    assert root.find(".//pre") is not None and root.find(".//p") is None


def test_links_to_versions_in_prose_or_code_stay() -> None:
    # A sentence that links a version, a table of releases, a code block: no picker.
    release = "Version 17 changed the planner, as <a href='/r/17'>17</a> notes say."
    rows = "".join(
        f"<tr><td><a href='/r/{v}'>{v}</a></td><td>Supported</td></tr>" for v in ("17", "16")
    )
    code = "versions = [<a href='/v/1'>1</a>, <a href='/v/2'>2</a>, <a href='/v/3'>3</a>]"
    page = _manual(
        f"<p>{release}</p><table>{rows}</table><div class='highlight'><pre><code>{code}"
        "</code></pre></div>"
    )
    text = extract_text(page, url="https://x.example/docs/queries")
    assert "Version 17 changed the planner" in text
    assert "| 16 | Supported |" in text and "versions = [1, 2, 3]" in text


def test_a_short_article_with_named_boilerplate_stays() -> None:
    links = "".join(
        f'<li><a href="/s/{i}">Another story of the day, number {i}</a></li>' for i in range(30)
    )
    page = (
        "<html><body><nav><ul>" + links + "</ul></nav><article><h1>Storm</h1>"
        f"<p>{INTRO * 4}</p></article><div class='related-stories'><ul>{links}</ul></div>"
        "<footer><ul>" + links + "</ul></footer></body></html>"
    )
    text = extract_text(page)
    assert "Another story" not in text


CARD_TEXT = "Many workers do not know the hazards at their work, which makes them vulnerable. "


def _card(title: str, words: str) -> str:
    return (
        f'<div class="col-md-6"><div class="panel"><div class="panel-body"><h5>'
        f'<a href="/{title}">{title.title()}</a></h5><p>{words}</p></div></div></div>'
    )


def test_cards_the_choice_leaves_out_count_as_the_page() -> None:
    # A topic page: its introduction, then cards of a heading link and a paragraph. The
    # article rule keeps the introduction and drops the cards (they did not join it), yet
    # they are most of the page's text: the page is read whole without its frame.
    intro = "Working with electricity can be dangerous for anyone near power lines. "
    page = (
        "<html><head><title>Electrical safety</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/x'>Topics</a></nav>"
        f"<main><h1>Electrical safety</h1><div class='field-body'><p>{intro * 3}</p>"
        f"<p>{intro * 2}</p><div class='row'>{_card('standards', CARD_TEXT * 3)}"
        f"{_card('construction', CARD_TEXT * 2)}</div><div class='row'>"
        f"{_card('hazards', CARD_TEXT * 3)}{_card('solutions', CARD_TEXT * 2)}</div></div></main>"
        "<footer><p>Contact us</p></footer></body></html>"
    )
    found = extract(page, metadata=True)
    assert "##### Solutions" in found.text
    assert found.text.count("vulnerable") == 10
    assert "Contact us" not in found.text
    assert (found.metadata or {}).get("type") == "landing"


def test_the_labels_of_a_row_of_tabs_are_written_apart() -> None:
    # A code sample's languages as tabs: spans side by side, a box beside them in the same
    # row (the row is no plain row of short spans), each label a box of its own on screen.
    tabs = "".join(
        f'<span role="tab" class="tab">{name}</span>' for name in ("Python", "Node.js", "Ruby")
    )
    page = _manual(
        f'<div class="samples"><div>{tabs}<div class="tab-scroll"></div></div>'
        f"<pre><code>print('hi')</code></pre></div><p>{SENTENCE * 2}</p>"
    )
    text = extract_text(page)
    assert "Python Node.js Ruby" in text
    # Spans that are no tabs join as the markup says (a word split into runs).
    plain = _manual(f"<p>{SENTENCE * 2}<span>Pyth</span><span>on</span></p>")
    assert "Python" in extract_text(plain)


def test_a_heading_anchored_by_its_own_words_is_content() -> None:
    # "social" and "see also" name share bars and link boxes; as a heading's anchor made
    # of its own words they name its topic.
    page = _manual(
        f'<h2 id="social-auth">Social Auth</h2><p>{SENTENCE * 2}</p>'
        f'<h2 id="see_also">See also</h2><p>{SENTENCE}</p>'
    )
    text = extract_text(page)
    assert "## Social Auth" in text
    assert "## See also" in text
    # An id of other words keeps its meaning: a share bar's heading.
    from lxml import html as lxml_html

    heading = lxml_html.fragment_fromstring('<h2 id="share-bar-title">Tell a friend</h2>')
    assert negative_block(heading, "h2")


def test_a_code_blocks_language_label_goes_after_its_fence() -> None:
    # A header over each example names its language (a box of its own before the <pre>,
    # or before the box around it); SyntaxHighlighter's `brush: x` class names it too.
    page = _manual(
        '<div class="sample"><div class="sample-head"><span>js</span></div>'
        "<pre><code>let total = 0;</code></pre></div>"
        '<div class="sample"><div class="bar"><b>Python</b></div>'
        "<div><pre><code>total = 0</code></pre></div></div>"
        '<pre class="brush: html; gutter: false">&lt;p&gt;hi&lt;/p&gt;</pre>'
        f"<p>{SENTENCE * 2}</p>"
    )
    text = extract_text(page)
    assert "```js\nlet total = 0;\n```" in text
    assert "```python\ntotal = 0\n```" in text
    assert "```html\n<p>hi</p>\n```" in text
    assert "\njs\n" not in text and "\nPython\n" not in text
    # A heading or a sentence before the code is no label, and stays.
    other = _manual(
        "<h3>Go</h3><pre><code>x := 1</code></pre><div>See below</div><pre>y</pre>"
        f"<p>{SENTENCE * 2}</p>"
    )
    text = extract_text(other)
    assert "### Go\n\n```\nx := 1\n```" in text
    assert "See below\n\n```\ny\n```" in text


def test_a_language_picker_is_boilerplate() -> None:
    # Links marked with the language they lead to (lang or hreflang), even without href:
    # a page read whole without its named boilerplate leaves the picker out with it.
    from lxml import html as lxml_html

    def items(attr: str, n: int) -> str:
        names = (("en", "English"), ("de", "Deutsch"), ("fr", "Fran\u00e7ais"))[:n]
        return "".join(f'<li><a {attr}="{code}">{name}</a> (full)</li>' for code, name in names)

    for attr in ("lang", "hreflang"):
        picker = lxml_html.fragment_fromstring(f"<ul>{items(attr, 3)}</ul>")
        assert negative_block(picker, "ul")
    # Two such links are no picker, nor are links without the mark.
    assert not negative_block(lxml_html.fragment_fromstring(f"<ul>{items('lang', 2)}</ul>"), "ul")
    plain = lxml_html.fragment_fromstring(f"<ul>{items('title', 3)}</ul>")
    assert not negative_block(plain, "ul")


def test_a_heading_with_a_sticky_navbar_is_content() -> None:
    # Docusaurus names every heading `anchor anchorWithStickyNavbar_<hash>`: the header it
    # makes room for, not what the heading is.
    from lxml import html as lxml_html

    heading = lxml_html.fragment_fromstring(
        '<h2 class="anchor anchorWithStickyNavbar_LWe7" id="files">Files</h2>'
    )
    assert not negative_block(heading, "h2")
    page = _manual(
        f'<h2 class="anchor anchorWithStickyNavbar_LWe7" id="files">Files</h2><p>{SENTENCE * 2}</p>'
    )
    assert "## Files" in extract_text(page)
    assert negative_block(lxml_html.fragment_fromstring('<div class="top-navbar">x</div>'), "div")


def test_a_headings_permalink_is_left_out() -> None:
    page = _manual(
        '<h2 id="a">Files<a class="headerlink" href="#a" title="Permalink">\u00b6</a></h2>'
        f"<p>{SENTENCE * 2}</p>"
        '<h2 id="b">Limits<a class="hash-link" href="#b">\u200b</a></h2>'
        f"<p>{SENTENCE}</p>"
        '<h2 id="c">C#<a href="#c">#</a></h2>'
        f"<p>{SENTENCE}</p>"
        '<h2 id="d">See <a href="#files">Files</a></h2>'
        f"<p>{SENTENCE}</p>"
        # Doxygen's diamond before a member's title, a no-break space after it.
        '<h2 class="memtitle"><span class="permalink"><a href="#a1">\u25c6\u00a0</a></span>'
        f"spin()</h2><p>{SENTENCE}</p>"
    )
    text = extract_text(page)
    assert "## Files\n" in text and "## Limits\n" in text and "## C#\n" in text
    assert "## See Files\n" in text and "## spin()\n" in text


def test_a_definitions_pilcrow_permalink_is_left_out() -> None:
    # Sphinx writes one beside each API's signature (a <dt>, no heading) and under a
    # table's caption: "filter(*args, **kwargs)¶" printed the pilcrow.
    page = _manual(
        '<dl class="py method"><dt class="sig sig-object py" id="q.filter">'
        '<span class="sig-name descname">filter</span>(<em>*args</em>, <em>**kwargs</em>)'
        '<a class="headerlink" href="#q.filter" title="Link to this definition">\u00b6</a>'
        f"</dt><dd><p>{SENTENCE * 2}</p></dd></dl>"
        '<p>The rule of <a href="#s-4">\u00a7</a> 4 and the <a href="#tag">#</a> tag.</p>'
    )
    text = extract_text(page)
    assert "filter(*args, **kwargs)\n" in text and "\u00b6" not in text
    # ...only the pilcrow off a heading: a section sign or a hash alone may be the text's.
    assert "The rule of \u00a7 4 and the # tag." in text


def test_an_api_entry_named_by_its_object_without_a_permalink_is_content() -> None:
    # A dotted name of code is the object's, however its last part reads ("related"),
    # with no pilcrow beside it to say so (anchors.code_name); an id without a dot is
    # none ("related-items" still names a box).
    from wf.extract.anchors import code_name

    entries = "".join(
        f'<dl class="py method"><dt class="sig sig-object py" id="shop.query.Basket.{name}">'
        f'<span class="sig-name descname">{name}</span>(<em>*fields</em>)</dt>'
        f"<dd><p>{SENTENCE * 2}</p></dd></dl>"
        for name in ("select_related", "related", "share")
    )
    text = extract_text(_manual(entries))
    assert "related(*fields)\n" in text and "share(*fields)\n" in text
    assert code_name("shop.query.Basket.related") and not code_name("related-items")


def test_an_api_entry_named_by_its_object_is_content() -> None:
    # Sphinx's id on an API's signature is the object's dotted name: "related" and
    # "dates" in it named a recommendations box and a dateline, and every such
    # signature went ("select_related(*fields)" lost above its description).
    entries = "".join(
        f'<dl class="py method"><dt class="sig sig-object py" id="shop.query.Basket.{name}">'
        f'<span class="sig-name descname">{name}</span>(<em>*fields</em>)'
        f'<a class="headerlink" href="#shop.query.Basket.{name}">\u00b6</a></dt>'
        f"<dd><p>{SENTENCE * 2}</p></dd></dl>"
        for name in ("select_related", "dates", "share")
    )
    text = extract_text(_manual(entries))
    assert "select_related(*fields)\n" in text
    assert "dates(*fields)\n" in text and "share(*fields)\n" in text
    # ...an entry whose pilcrow links to its own id is named by its topic, not by its id;
    # the same id without that permalink still names a box.
    own = lxml.html.fragment_fromstring(
        '<dt id="related-items">x<a href="#related-items">\u00b6</a></dt>'
    )
    assert not negative_block(own, "dt")
    plain = lxml.html.fragment_fromstring(
        '<dt id="related-items">x<a href="#elsewhere">\u00b6</a></dt>'
    )
    assert negative_block(plain, "dt")


def _methods(url: str = "https://docs.example.org/gearbox/struct.Widget.html") -> str:
    # rustdoc's shape: each method a <details> whose <summary> holds a section named by
    # the method (`method.share`) around its signature, every type in it a link.
    methods = "".join(
        f'<details class="toggle method-toggle" open><summary><section id="method.{name}" '
        f'class="method"><a href="#method.{name}" class="anchor">\u00a7</a>'
        f'<h4 class="code-header">pub fn <a href="#method.{name}" class="fn">{name}</a>'
        f'(&amp;self) -&gt; <a class="struct" href="h.html">Handle</a></h4></section>'
        f'</summary><div class="docblock"><p>{SENTENCE * 2}</p></div></details>'
        for name in ("share", "related_gears")
    )
    return _manual(f"<h2>Implementations</h2>{methods}")


def test_an_api_entry_named_by_a_dotted_name_is_content() -> None:
    # A dotted id names code ("method.share", "pkg.Basket.dates"), never a box's role:
    # "share" named a share bar and the method's signature went.
    text = extract(_methods(), url=_URL).text
    assert "#### pub fn share(&self) -> Handle\n" in text
    assert "#### pub fn related_gears(&self) -> Handle\n" in text
    # ...a name with a slash or a hyphen is no such name (an ad slot's).
    ad = lxml.html.fragment_fromstring('<div id="google_ads_iframe_/42/n.x/share">x</div>')
    assert negative_block(ad, "div")


def test_a_section_sign_linking_to_its_own_box_is_a_permalink() -> None:
    # rustdoc's "§" beside each method links to the section it stands in: printed as
    # a line of its own. A section sign linking elsewhere is the text's ("see § 4").
    impl = (
        '<section id="impl-Gear" class="impl"><a href="#impl-Gear" class="anchor">\u00a7</a>'
        f"<h3>impl Gear</h3></section><p>{SENTENCE * 2}</p>"
    )
    text = extract(_manual(impl), url=_URL).text
    assert "### impl Gear\n" in text and "\u00a7" not in text
    page = _manual(f'<p>{SENTENCE}See <a href="#rules">\u00a7</a> 4 for the rules.</p>')
    assert "See \u00a7 4 for the rules." in extract_text(page)


def test_a_disclosures_title_made_of_links_stays_in_a_manual() -> None:
    # A <summary> whose text is mostly links (a signature's types) is the title of what
    # it discloses, not a list of links; an article's rule still drops such a box.
    title = (
        '<details open><summary><a href="a.html">Gear</a> <a href="b.html">Shaft</a> '
        f'<a href="c.html">Handle</a></summary><p>{SENTENCE * 2}</p></details>'
    )
    assert "Gear Shaft Handle" in extract(_manual(title), url=_URL).text
    assert "Gear Shaft Handle" not in extract_text(_manual(title))


_URL = "https://docs.example.org/gearbox/struct.Widget.html"


def test_an_aside_of_footnotes_is_content() -> None:
    # docutils (Sphinx) draws footnotes as <aside role="doc-footnote"> in an <aside> list:
    # the page printed its "Footnotes" heading and none of them.
    note = "Other machines return the gear itself, so that calls can be chained on one line."
    page = _manual(
        '<p>The call returns nothing<a class="footnote-reference brackets" href="#id3" '
        'id="id2" role="doc-noteref">1</a>.</p><p class="rubric">Footnotes</p>'
        '<aside class="footnote-list brackets"><aside class="footnote brackets" id="id3" '
        'role="doc-footnote"><span class="label"><a role="doc-backlink" href="#id2">1</a>'
        f"</span><p>{note}</p></aside></aside>"
        '<aside class="sidebar"><p>Read the other chapters of the guide next time.</p></aside>'
    )
    text = extract_text(page)
    assert note in text
    assert "other chapters" not in text


def test_an_icon_fonts_permalink_is_left_out() -> None:
    # The Read the Docs theme writes Font Awesome's link glyph (U+F0C1, Unicode's private
    # use area) as the permalink's text, beside each heading and each API's signature:
    # "## Playbook syntax\uf0c1" printed a glyph no font of the reader's draws.
    page = _manual(
        '<h2 id="syntax">Playbook syntax<a class="headerlink" href="#syntax" '
        'title="Link to this heading">\uf0c1</a></h2>'
        f"<p>{SENTENCE * 2}</p>"
        '<dl><dt id="run">run(<em>hosts</em>)<a class="headerlink" href="#run">\uf0c1</a></dt>'
        f"<dd><p>{SENTENCE}</p></dd></dl>"
    )
    text = extract_text(page)
    assert "## Playbook syntax\n" in text and "run(hosts)\n" in text
    assert "\uf0c1" not in text


def test_a_section_its_headings_permalink_leads_to_is_content() -> None:
    # Sphinx: <section id="cookies"> under "Cookies ¶" linking #cookies. The id names the
    # section's topic, not a consent box; the same id without the permalink still does.
    words = "The cookies attribute of request objects is a dictionary of what was sent. "
    section = (
        '<section id="cookies"><h3>Cookies<a class="headerlink" href="#cookies">\u00b6</a>'
        f"</h3><p>{words * 2}</p></section>"
    )
    page = _manual(f"<p>{SENTENCE * 2}</p>{section}<p>{SENTENCE * 2}</p>")
    assert "### Cookies\n\n" + (words * 2).strip() in extract_text(page)
    elsewhere = page.replace('href="#cookies"', 'href="#other"')
    assert "cookies attribute" not in extract_text(elsewhere)


def test_a_manuals_steps_in_tabs_and_paragraphs_stay() -> None:
    # A quickstart's steps, one set a language in ARIA tabs, each step a paragraph in a
    # list item that links where to do it: a documentation page's content.
    def steps(lang: str) -> str:
        return "".join(
            f'<li><p><a href="/{lang}/{n}">Install {n} for {lang}</a>.</p></li>'
            for n in ("the runtime", "ngrok", "the SDK")
        )

    tabs = (
        '<div class="box"><div role="tablist"><span role="tab">Python</span>'
        '<span role="tab">Go</span></div>'
        f'<div role="tabpanel"><ul>{steps("Python")}</ul></div>'
        f'<div role="tabpanel"><ul>{steps("Go")}</ul></div></div>'
    )
    url = "https://x.example/docs/quickstart"
    text = extract_text(_manual(f"<p>{SENTENCE}</p>{tabs}<p>{SENTENCE}</p>"), url=url)
    assert "- Install ngrok for Python." in text and "- Install the SDK for Go." in text
    # Without tabs, the list items' paragraphs stay too.
    bare = _manual(f"<p>{SENTENCE}</p><ol>{steps('Ruby')}</ol><p>{SENTENCE}</p>")
    assert "Install ngrok for Ruby." in extract_text(bare, url=url)


def test_a_manuals_captioned_figures_stay() -> None:
    # A listing's caption, and a row of two diagrams told by their captions: a manual's
    # text. A figure whose caption says next to nothing still goes.
    listing = (
        "<figure><pre><code>let f = File::open(path);</code></pre><figcaption><a"
        ' href="#listing-9-3">Listing 9-3</a>: Opening a file</figcaption></figure>'
    )
    diagrams = "".join(
        f'<figure><div><img src="/{n}.png" alt=""></div><figcaption><p>The count of'
        f" <code>{n}</code> is passed down to both children</p></figcaption></figure>"
        for n in ("App", "Button")
    )
    small = '<figure><img src="/x.png" alt=""><figcaption>Photo</figcaption></figure>'
    named = (
        '<figure class="advert"><img src="/a.png" alt=""><figcaption>Sponsored by the'
        " hosting company of the month</figcaption></figure>"
    )
    page = _manual(f"<p>{SENTENCE}</p>{listing}{small}{named}")
    url = "https://x.example/docs/errors"
    text = extract_text(page, url=url)
    assert "Listing 9-3: Opening a file" in text
    assert "Photo" not in text and "Sponsored" not in text
    row = _manual(f"<p>{SENTENCE}</p><div class='row'>{diagrams}</div><p>{SENTENCE}</p>")
    text = extract_text(row, url=url)
    assert "The count of App is passed down" in text and "of Button is" in text
    # An article keeps its own rule: captions go there.
    assert "Listing 9-3" not in extract_text(page, url="https://x.example/blog/errors")


def test_a_guide_path_says_documentation_only_beside_code() -> None:
    # /learn/ and /guides/ are a shop's or a news site's guides as often as a manual's.
    prose = f"<html><body><article><h1>Cable TV</h1><p>{SENTENCE * 3}</p></article></body></html>"
    url = "https://shop.example/learn/cable-tv"
    assert extract(prose, url=url, metadata=True).kind != "documentation"
    code = prose.replace("</article>", "<pre><code>tv --scan</code></pre></article>")
    assert extract(code, url=url, metadata=True).kind == "documentation"
    assert extract(prose, url="https://x.example/docs/tv", metadata=True).kind == "documentation"
    # A documentation host: docs., doc. (doc.rust-lang.org) or developer.
    for host in ("docs", "doc", "developer"):
        found = extract(prose, url=f"https://{host}.example.org/book/tv", metadata=True)
        assert found.kind == "documentation", host


def test_a_box_marked_nocontent_and_a_docbook_navheader_are_boilerplate() -> None:
    from lxml import html as lxml_html

    for cls in ("nocontent", "navheader"):
        box = lxml_html.fragment_fromstring(f'<div class="{cls}"><p>Prev Up Next</p></div>')
        assert negative_block(box, "div")
    page = _manual(
        f'<div class="navheader"><table><tr><td><a href="/p">Prev</a></td><th>Part II.'
        f' Queries</th><td><a href="/n">Next</a></td></tr></table></div><p>{SENTENCE * 2}</p>'
        '<div class="nocontent"><p>Except as otherwise noted, the content of this page is'
        " licensed under a Creative Commons licence, and code samples under another.</p></div>"
    )
    text = extract_text(page)
    assert "Part II" not in text and "licensed" not in text


def test_a_web_component_named_as_boilerplate_is_left_out() -> None:
    # Google's developer sites: <devsite-content-footer class="nocontent"> holds the
    # licence line and "Last updated"; the block walks know no such tag and looked through.
    # (A documentation page's rule: its path says so.)
    page = _manual(
        f"<p>{SENTENCE * 2}</p><site-content-footer class='nocontent'><p>Except as otherwise"
        " noted, the content of this page is licensed under a Creative Commons licence.</p>"
        "<p>Last updated 2025-12-18 UTC.</p></site-content-footer>"
    )
    url = "https://x.example/docs/queries"
    text = extract_text(page, url=url)
    assert "licensed" not in text and "Last updated" not in text
    assert text.count("first iterated") == 5
    # A component not so named, or one that holds more than a widget, is read (its line
    # "Last updated ..." goes by a rule of its own: kinds/docs_chrome.py).
    kept = page.replace("class='nocontent'", "class='page-part'")
    assert "licensed" in extract_text(kept, url=url)
    big = page.replace("Last updated", SENTENCE * 30 + "Last updated")
    assert "licensed" in extract_text(big, url=url)


def test_a_hashed_css_in_js_class_names_nothing() -> None:
    # Emotion's `css-<hash>`: the letters between two digits are no word ("ad").
    from lxml import html as lxml_html

    for cls in ("css-1d8ad8q", "jsx-4ad1234", "svelte-1ad9x2"):
        box = lxml_html.fragment_fromstring(f'<div class="{cls}"><p>x</p></div>')
        assert not negative_block(box, "div"), cls
    assert negative_block(lxml_html.fragment_fromstring('<div class="ad-1x">x</div>'), "div")
    page = _manual(
        f'<p>{SENTENCE * 2}</p><div class="css-1d8ad8q"><pre><code>ngrok http 3000</code></pre>'
        "</div>"
    )
    assert "ngrok http 3000" in extract_text(page)


def test_a_utility_class_is_named_by_its_utility_not_its_variant() -> None:
    # Tailwind's variants say when a utility applies: GitBook writes
    # `print:break-inside-avoid` on each paragraph, and "print" named a print button.
    lead = "Gears are counted by their teeth, once around the rim, before they are mounted."
    page = _manual(
        f'<p class="mx-auto max-w-3xl print:break-inside-avoid">{lead}</p>'
        f'<p class="max-w-3xl print:break-inside-avoid">{SENTENCE * 2}</p>'
    )
    assert lead in extract_text(page)
    # ...but a box hidden from the printed page is the page's chrome still, and a
    # variant does not hide what its utility names.
    for cls in ("print:hidden", "md:sidebar", "dark:share-bar"):
        box = lxml.html.fragment_fromstring(f'<div class="{cls}"><p>x</p></div>')
        assert negative_block(box, "div"), cls


def test_a_text_utility_names_no_content() -> None:
    # Tailwind's `text-sm` and `text-gray-500` style letters: "text" in them outweighed
    # the boilerplate name beside them, and a Nextra page printed its breadcrumb.
    crumbs = (
        '<div class="nextra-breadcrumb nx-mt-1.5 nx-text-sm nx-text-gray-500">'
        '<a href="/docs">Docs</a> <a href="/docs/gears">Gears</a></div>'
    )
    text = extract_text(_manual(f"{crumbs}<p>{SENTENCE * 3}</p>"))
    assert "Docs Gears" not in text and "first iterated" in text
    for cls in ("share-bar text-xs", "sidebar text-primary/80", "related text-[13px]"):
        box = lxml.html.fragment_fromstring(f'<div class="{cls}"><p>x</p></div>')
        assert negative_block(box, "div"), cls
    # ...nor does `table-caption`, a display utility: a caption so styled is a caption's.
    box = lxml.html.fragment_fromstring('<div class="table-caption text-base">x</div>')
    assert not negative_block(box, "div")
    # A content word that is no utility still outweighs a boilerplate word.
    box = lxml.html.fragment_fromstring('<div class="sidebar article-text"><p>x</p></div>')
    assert not negative_block(box, "div")


def _sections(contents: str) -> str:
    words = "A shaft carries the gears and the torque between them, whatever its length. "
    return _manual(
        f"{contents}<p>{SENTENCE * 2}</p><h2 id='s1'>Sizes</h2><p>{words}</p>"
        f"<h2 id='s2'>Materials</h2><p>{words}</p>"
    )


def test_a_table_of_the_pages_own_contents_is_left_out() -> None:
    # A manual keeps its lists of links: a docutils "Contents" topic, a wiki's #toc and
    # an "In this article" list printed each section's title twice.
    for contents in (
        '<div class="topic contents local"><p class="topic-title">Table of Contents</p>'
        '<ul><li><a href="#s1">Sizes</a></li><li><a href="#s2">Materials</a></li></ul></div>',
        '<div id="toc"><h2>Contents</h2><ul><li><a href="#s1"><span>1</span> Sizes</a></li>'
        '<li><a href="#s2"><span>2</span> Materials</a></li></ul></div>',
        '<div><strong>In this article</strong><ol><li><a href="#s1">Sizes</a></li>'
        '<li><a href="#s2">Materials</a></li></ol></div>',
    ):
        text = extract(_sections(contents), url=_URL).text
        assert text.count("Sizes") == 1 and text.count("Materials") == 1, contents
        assert "Contents" not in text and "In this article" not in text
    # ...not a list whose links lead elsewhere, nor steps or items that say more than
    # their links.
    for kept, line in (
        (
            '<ul><li><a href="/docs/keys">Keys</a></li><li><a href="/bolts">Bolts</a></li></ul>',
            "- Keys\n",
        ),
        (
            '<ol><li><a href="#s1">Measure</a> the shaft first.</li>'
            '<li><a href="#s2">Choose</a> its material next.</li></ol>',
            "1. Measure the shaft first.\n",
        ),
    ):
        assert line in extract(_sections(kept), url=_URL).text


def test_a_manuals_feedback_question_is_left_out() -> None:
    # The question stays when its buttons go with the page's controls: "Was this page
    # helpful?" printed under the manual's last paragraph.
    for widget in (
        "<div><p>Was this page helpful?</p><button>Yes</button><button>No</button></div>",
        "<div><span>Did you find what you needed?</span><a href='#'>Yes</a> <a href='#'>No</a></div>",
        "<div><p>Rate this page: <a href='#'>\u2605</a><a href='#'>\u2605</a></p></div>",
        "<p>Thanks for your feedback!</p>",
    ):
        text = extract(_manual(f"<p>{SENTENCE * 2}</p>{widget}"), url=_URL).text
        assert text.endswith("pickled."), widget
    # ...a sentence that asks more is the page's own.
    asked = "Was this page helpful when you first set up the gearbox at home last week?"
    assert asked in extract(_manual(f"<p>{SENTENCE * 2}</p><p>{asked}</p>"), url=_URL).text


def test_a_manuals_items_that_are_links_stay() -> None:
    # A quickstart's steps that each link where to do them, an API's list of the types it
    # takes, a titled "See also": a documentation page's content, though mostly links.
    steps = "".join(
        f'<li><a href="/{n}">Install {n}</a>.</li>' for n in ("Python", "ngrok", "Flask")
    )
    types = "".join(f'<li><a href="/t/{t}"><code>{t}</code></a></li>' for t in ("Blob", "File"))
    see = "".join(f'<li><a href="/s/{t}">{t} guide</a></li>' for t in ("Streams", "Workers"))
    page = _manual(
        f"<p>{SENTENCE}</p><ol>{steps}</ol><p>{SENTENCE}</p><ul>{types}</ul>"
        f'<section><div><h2 id="see">See also</h2></div><ul>{see}</ul></section>'
    )
    text = extract(page, url="https://x.example/docs/queries").text
    assert "Install ngrok" in text and "Blob" in text and "Workers guide" in text
    assert "Queries" not in text  # the sidebar still goes
    # An article keeps its own rule: a list of links is a list of links there.
    assert "Install ngrok" not in extract(page, url="https://x.example/blog/queries").text


def test_a_pickers_box_is_measured_no_further_than_its_bound():
    # A hostile page nests its boxes deep: each ancestor of each version link would be
    # measured whole, the page's text once per link. The check stops past the bound, and
    # white space never counts towards it.
    from wf.extract.kinds.docs import _longer

    read: list[str] = []

    class Box:
        def itertext(self):  # type: ignore[no-untyped-def]
            for n in range(10_000):
                read.append("part")
                yield f" v{n}.0 \n\t"

    assert _longer(Box(), 400) and len(read) < 200
    spaces = lxml.html.fromstring("<div>" + "<span> \n </span>" * 1000 + "<a>v1</a></div>")
    assert not _longer(spaces, 400)


def test_a_grid_of_linked_cards_is_the_pages_index() -> None:
    # A guide lists the pages under it as cards, each a link around an icon and a heading:
    # all links, and each read as a teaser's card, they went. An article's related cards
    # still go.
    card = (
        '<a href="/docs/auth/{0}"><div class="group"><div class="flex">'
        '<div class="icon"><img src="/{0}.svg" alt="{1} icon"></div>'
        '<div class="flex-col"><h5>{1}</h5><div class="chevron"></div></div></div></div></a>'
    )
    cards = "".join(card.format(n.lower(), n) for n in ("Apple", "GitHub", "GitLab"))
    page = _manual(
        f'<h3>Social login</h3><div class="grid">{cards}</div><h2>Pricing</h2><p>{SENTENCE}</p>'
    )
    text = extract(page, url="https://x.example/docs/auth").text
    assert "##### Apple\n\n##### GitHub\n\n##### GitLab" in text
    assert "Queries" not in text  # the sidebar still goes
    assert "GitHub" not in extract(page, url="https://x.example/blog/auth").text


def test_a_row_of_named_components_goes_with_one_text_set_for_their_tails() -> None:
    # One by one, each component's tail was joined to the text before it, set again each
    # time: 20000 components in a row on a /docs/ page took 5.7 s. They go at once now
    # (hidden.drop_each), as the pickers, update stamps and step links do.
    from lxml import html as lxml_html

    from tests.helpers import tail_writes
    from wf.extract.kinds.docs import drop_named_components

    parser, writes = tail_writes(lambda el: el.tag == "p")
    row = "".join(f"<x-widget class='footer'>f</x-widget>w{i} " for i in range(30))
    root = lxml_html.fromstring(f"<div><p>The manual's own words.</p>{row}</div>", parser=parser)
    drop_named_components(root)
    assert root.find(".//x-widget") is None
    assert root.find("p").tail == "".join(f"w{i} " for i in range(30))
    assert writes[0] == 1


def test_an_api_tables_signature_cell_of_linked_code_stays() -> None:
    # Javadoc's table of methods, drawn as a grid of boxes: a method's cell is its
    # signature, one <code> whose name links the method's details ("wind()": mostly link).
    rows = "".join(
        f'<div class="col-first"><code>void</code></div><div class="col-second"><code>'
        f'<a href="#{m}()">{m}</a>()</code></div><div class="col-last"><div class="block">'
        f"{SENTENCE}</div></div>"
        for m in ("wind", "spin")
    )
    page = _manual(f'<section><h2>Method Summary</h2><div class="summary-table">{rows}</div>')
    text = extract(page, url="https://x.example/docs/api/Widget.html").text
    assert "wind()" in text and "spin()" in text
    # A box that is a link and words outside any <code> is a link list still.
    menu = '<div><a href="/a">Models</a> |</div><div><a href="/b">Queries</a> |</div>'
    text = extract(_manual(f"<p>{SENTENCE}</p>{menu}"), url="https://x.example/docs/q").text
    assert "Models" not in text


def test_a_row_of_tabs_that_all_open_one_panel_goes() -> None:
    # Tabs (not buttons) that filter one table: their labels no panel's title.
    row = (
        '<ul role="tablist"><li role="tab" aria-controls="t">All Methods</li>'
        '<li role="tab" aria-controls="t">Static Methods</li></ul>'
    )
    page = _manual(f'<p>{SENTENCE}</p>{row}<div role="tabpanel" id="t"><p>{SENTENCE}</p></div>')
    text = extract(page, url="https://x.example/docs/api/Widget.html").text
    assert "All Methods" not in text and "Static Methods" not in text


def test_cards_with_a_line_of_prose_are_the_pages_index() -> None:
    # Mintlify's card group: each card a link around a heading and a line of prose, read
    # as teasers' cards; on a manual's page, the pages under it.
    card = (
        '<a class="card" href="/docs/{0}"><div class="px-6"><h2>{1}</h2><div class="prose">'
        "<span>{2}</span></div></div></a>"
    )
    cards = card.format("api", "API Reference", "Every endpoint, its parameters and answers.")
    cards += card.format("guides", "Guides", "Walkthroughs of the tasks most readers start.")
    page = _manual(f'<p>{SENTENCE}</p><div class="card-group">{cards}</div><p>{SENTENCE}</p>')
    text = extract(page, url="https://x.example/docs/quickstart").text
    assert "## API Reference\n\nEvery endpoint" in text and "## Guides" in text
    assert "Queries" not in text  # the sidebar still goes


def test_a_signature_drawn_as_a_table_is_one_line() -> None:
    # Doxygen's member prototype: its words spread over cells, a parameter a row.
    proto = (
        '<table class="memname"><tr><td class="memname">int Gear::spin </td><td>(</td>'
        '<td class="paramtype">int&#160;</td><td class="paramname"><em>turns</em>, </td></tr>'
        '<tr><td></td><td></td><td class="paramtype">bool&#160;</td>'
        '<td class="paramname"><em>back</em></td></tr><tr><td></td><td>)</td><td></td></tr>'
        "</table>"
    )
    data = (
        "<table><tr><th>Option</th><th>Meaning</th></tr><tr><td>(</td><td>Opens</td></tr></table>"
    )
    page = _manual(f"<h2>spin()</h2>{proto}<p>{SENTENCE}</p>{data}")
    text = extract(page, url="https://x.example/docs/classGear.html").text
    assert "int Gear::spin (int turns, bool back)\n" in text
    assert "| Option | Meaning |" in text  # a table of data with no ")" stays one


def test_a_table_of_a_syntaxs_brackets_is_no_signature() -> None:
    # A regular expression's characters, "(" and ")" each alone in a row's first cell.
    rows = "".join(
        f"<tr><td>{c}</td><td>{m}</td></tr>"
        for c, m in ((".", "Any character"), ("(", "Opens a group"), (")", "Closes it"))
    )
    page = _manual(f"<p>{SENTENCE}</p><table>{rows}</table><p>{SENTENCE}</p>")
    text = extract(page, url="https://x.example/docs/regex.html").text
    assert "| ( | Opens a group |" in text and "| ) | Closes it |" in text


def test_javadocs_summary_grid_is_a_table_on_a_page_javadoc_made() -> None:
    # Javadoc draws its summaries as a grid of boxes, the columns named by a class word;
    # its generator, wherever the page is served, says the page is a manual's.
    cells = "".join(
        f'<div class="{c}">{t}</div>'
        for c, t in (
            ("table-header col-first", "Modifier and Type"),
            ("table-header col-second", "Method"),
            ("table-header col-last", "Description"),
            ("col-first", "<code>int</code>"),
            ("col-second", '<code><a href="#spin(int)">spin</a>(int&nbsp;turns)</code>'),
            ("col-last", '<div class="block">Turns the widget.</div>'),
            ("col-first", "<code>void</code>"),
            ("col-second", '<code><a href="#wind()">wind</a>()</code>'),
            ("col-last", '<div class="block">Winds the spring.</div>'),
        )
    )
    grid = f'<div class="summary-table three-column-summary">{cells}</div>'
    page = _manual(f"<h2>Method Summary</h2>{grid}<p>{SENTENCE}</p>").replace(
        "</head>", '<meta name="generator" content="javadoc/ClassWriterImpl"></head>'
    )
    result = extract(page, url="https://x.example/gear/Widget.html", metadata=True)
    assert result.metadata is not None and result.metadata["type"] == "documentation"
    assert "| Modifier and Type | Method | Description |" in result.text
    assert "| void | wind() | Winds the spring. |" in result.text


def test_javadocs_lists_of_sections_are_read_as_sections() -> None:
    # Javadoc lays out its details as lists whose every item is a <section>: the
    # headings were printed as nested items ("- ## Method Details", "  - ### spin"). A
    # list whose items hold words beside a section is still a list.
    detail = '<li><section class="detail" id="{0}"><h3>{0}</h3><p>{1}</p></section></li>'
    details = (
        '<ul class="details-list"><li><section class="method-details"><h2>Method Details</h2>'
        '<ul class="member-list">'
        + detail.format("spin", "Turns the widget.")
        + detail.format("wind", "Winds the spring.")
        + "</ul></section></li></ul>"
        + "<ul><li>See <section><p>the gears.</p></section></li><li><section><p>The spring."
        "</p></section></li></ul>"
    )
    page = _manual(f"<p>{SENTENCE}</p>{details}").replace(
        "</head>", '<meta name="generator" content="javadoc/ClassWriterImpl"></head>'
    )
    text = extract(page, url="https://x.example/gear/Widget.html").text
    assert "\n## Method Details\n\n### spin\n\nTurns the widget.\n\n### wind\n" in text
    assert "- See\n  the gears.\n- The spring." in text


def test_a_note_drawn_as_an_aside_stays() -> None:
    # Starlight's admonitions are <aside>s, their content in a box named after the aside;
    # a manual's side column is an <aside> too, and still goes.
    note = (
        '<aside aria-label="Caution" class="starlight-aside starlight-aside--caution">'
        '<p class="starlight-aside__title">Caution</p><section class="starlight-aside__content">'
        "<p>Back up the database before you migrate it.</p></section></aside>"
    )
    side = '<aside class="related"><p>Read the changelog of the last three releases.</p></aside>'
    page = _manual(f"<p>{SENTENCE}</p>{note}<p>{SENTENCE}</p>{side}")
    text = extract(page, url="https://x.example/docs/migrate").text
    assert "Caution\n\nBack up the database before you migrate it." in text
    assert "changelog" not in text


def test_an_aside_named_as_chrome_is_no_note() -> None:
    # An <aside> of a word of the notes' (callout, warning) and one of boilerplate (an
    # ad's, a cookie banner's) is the page's chrome, not an admonition.
    ad = (
        "<aside class='ad-callout'><p>Sponsored: try the gearbox cloud for thirty days."
        "</p><a href='/signup'>Sign up now</a></aside>"
    )
    cookie = "<aside class='cookie-warning'><p>We use cookies to count readers.</p></aside>"
    page = _manual(f"<p>{SENTENCE}</p>{ad}<p>{SENTENCE}</p>{cookie}")
    text = extract(page, url="https://x.example/docs/migrate").text
    assert "Sponsored" not in text and "Sign up" not in text and "cookies" not in text


def test_a_terms_classifier_is_set_apart() -> None:
    # numpydoc's parameters: docutils writes the type as a classifier in the term, which
    # Sphinx's stylesheet draws after " : ".
    terms = (
        '<dl><dt>sep<span class="classifier">str, default ","</span></dt><dd><p>The '
        "delimiter.</p></dd><dt><strong>header</strong><span class='classifier'>int</span>"
        "</dt><dd><p>The row of names.</p></dd></dl>"
    )
    text = extract(_manual(f"<p>{SENTENCE}</p>{terms}"), url="https://x.example/docs/io").text
    assert 'sep : str, default ","' in text and "header : int" in text


def test_typedocs_comment_boxes_are_the_items_description() -> None:
    # TypeDoc writes each item's description in `div.tsd-comment`: "comment" names a
    # reader's comments elsewhere, and the descriptions all went.
    member = (
        '<section class="tsd-panel tsd-member"><h3>{0}</h3><ul class="tsd-signatures">'
        '<li class="tsd-signature">{0}(turns: number): number</li><li class="tsd-description">'
        '<div class="tsd-comment tsd-typography"><p>{1}</p></div></li></ul></section>'
    )
    page = _manual(
        '<div class="tsd-comment tsd-typography"><p>A gear turns its neighbours.</p></div>'
        + member.format("spin", "Turns the gear once for each tooth.")
        + member.format("wind", "Winds the spring as far as it goes.")
        + '<div id="docComments"><h2>Submit correction</h2><p>Use this form.</p></div>'
    )
    text = extract(page, url="https://x.example/docs/classes/Gear.html").text
    assert "A gear turns its neighbours." in text
    assert "Turns the gear once for each tooth." in text and "Winds the spring" in text
    assert "Submit correction" not in text


def test_a_live_samples_code_named_after_its_section_is_kept() -> None:
    # MDN names each <pre> of a live example after its section's id
    # (`live-sample___sticky_footer`): "footer" or "caption" there names no footer, and
    # the example's code went.
    sample = (
        '<div class="code-example"><div class="example-header"><span class="language-name">'
        'html</span></div><pre class="brush: html notranslate live-sample___{0}'
        ' live-sample---{0}"><code>{1}</code></pre></div>'
    )
    page = _manual(
        "<h2>Sticky footer</h2><p>The footer stays at the bottom of a short page.</p>"
        + sample.format("sticky_footer", "&lt;footer class=&quot;site&quot;&gt;Bye&lt;/footer&gt;")
        + "<h2>Table caption</h2><p>A caption names the table for every reader.</p>"
        + sample.format("table_caption", "&lt;caption&gt;Members 2021&lt;/caption&gt;")
    )
    text = extract(page, url="https://x.example/en-US/docs/Web/HTML/Element/table").text
    assert '<footer class="site">Bye</footer>' in text
    assert "<caption>Members 2021</caption>" in text


def test_an_asciidoctor_admonitions_table_is_its_label_and_text() -> None:
    # Asciidoctor (Antora) draws a note as a table of one row: the icon's cell, its label
    # as text or as the icon font's title, and the content's cell.
    block = (
        '<div class="admonitionblock {0}"><table><tr><td class="icon">{1}</td>'
        '<td class="content">{2}</td></tr></table></div>'
    )
    page = _manual(
        block.format("warning", '<i class="fa icon-warning" title="Warning"></i>', "Check it.")
        + f"<p>{SENTENCE}</p>"
        + block.format("tip", '<div class="title">Tip</div>', "<p>Put it on the path.</p>")
    )
    text = extract(page, url="https://x.example/docs/install.html").text
    assert "Warning\n\nCheck it." in text and "Tip\n\nPut it on the path." in text
    assert "|" not in text


def test_a_control_character_a_page_references_costs_no_manual_its_text() -> None:
    # A page's `&#3;` puts a control character in the tree, which lxml refuses to set as
    # a text: each rule that makes or moves a text raised, and the extraction failed.
    parts = {
        "Asciidoctor 2": "<div class='admonitionblock note'><table><tr><td class='icon'>"
        "Note&#3;</td><td class='content'>Back up first.</td></tr></table></div>&#3;",
        "Doxygen 1.9": "<div class='header'><div class='headertitle'><div class='title'>Gear"
        "</div></div></div><div class='contents'>&#3;Spins.<table class='memname'><tr><td>"
        "int spin&#3;</td><td>(</td><td>int</td><td>)</td></tr></table>&#3;</div>",
        "Sphinx": "<dl><dt>sep&#3;<span class='classifier'>str</span></dt><dd>x</dd>"
        "<dt><b>a</b>&#3;<span class='classifier'>int</span></dt><dd>y</dd></dl>",
    }
    for generator, body in parts.items():
        page = _manual(f"{body}<p>{SENTENCE}</p>").replace(
            "</head>", f"<meta name='generator' content='{generator}'></head>"
        )
        found = extract(page, url="https://x.example/docs/gear.html")
        assert not any("failed" in note for note in found.notes), generator
        assert "QuerySet reference" in found.text


def test_the_sites_columns_of_links_after_the_body_are_its_foot() -> None:
    # A header box (the title, the lead) beside the body: what follows the body goes but
    # its sections; columns of links each under an <h3> ("Product") are the site's foot.
    columns = "".join(
        f"<div><h3>{title}</h3><ul>"
        + "".join(f"<li><a href='/{w}'>{w}</a></li>" for w in words)
        + "</ul></div>"
        for title, words in (("Product", ("Pricing", "Customers")), ("Company", ("Careers",)))
    )
    page = (
        "<html><head><title>Gearbox guide</title><meta name='generator' content='Sphinx'>"
        "</head><body><div class='wrap'><div class='page-header'><h1>Gearbox guide</h1>"
        f"<p>How to set it up.</p></div><div class='page-body'><h2>Install</h2><p>{SENTENCE}"
        f"</p><h2>Run</h2><p>{SENTENCE}</p></div><div class='links'>{columns}</div>"
        "</div></body></html>"
    )
    text = extract(page, url="https://x.example/docs/guide").text
    assert "# Gearbox guide" in text and "## Run" in text
    assert "Product" not in text and "Careers" not in text
