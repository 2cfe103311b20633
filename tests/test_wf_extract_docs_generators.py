"""Documentation pages of our own, in the style of generators that name themselves by a
<meta> of their own (Microsoft Learn's ms.* tags, DocFX's table of contents:
docs_tuning.GENERATOR_METAS, read by wf/extract/parse.py), and the debris other
generators leave around a manual's text (wf/extract/kinds/docs*.py)."""

from __future__ import annotations

from wf.extract import extract

URL = "https://learn.example.org/en-us/storage/queues/quickstart"
PROSE = "Run the command below and follow the prompt in your browser window to finish. "


def _learn(head: str) -> str:
    tabs = (
        "<div class='tabGroup' id='tabgroup_1'><ul role='tablist'>"
        "<li role='presentation'><a href='#tabpanel_1_cli' role='tab'"
        " aria-controls='tabpanel_1_cli' data-tab='cli'>Contoso CLI</a></li>"
        "<li role='presentation'><a href='#tabpanel_1_ps' role='tab'"
        " aria-controls='tabpanel_1_ps' data-tab='ps'>PowerShell</a></li></ul>"
        f"<section id='tabpanel_1_cli' role='tabpanel'><p>{PROSE}</p>"
        "<pre><code>contoso login</code></pre></section>"
        f"<section id='tabpanel_1_ps' role='tabpanel' hidden='hidden'><p>{PROSE}</p>"
        "<pre><code>Connect-Contoso</code></pre></section></div>"
    )
    return (
        f"<html><head><title>Quickstart: create a queue</title>{head}</head><body>"
        "<nav data-bi-name='left-toc'><a href='a'>Overview</a> <a href='b'>Tutorials</a></nav>"
        "<main id='main' class='content' data-bi-name='content'>"
        "<h1>Quickstart: create a queue</h1>"
        f"<p>In this quickstart you create a queue and put messages on it. {PROSE}</p>"
        f"<h2>Sign in</h2><p>{PROSE}{PROSE}</p>{tabs}"
        f"<h2>Create the queue</h2><p>{PROSE}</p></main></body></html>"
    )


def test_microsoft_learns_meta_tags_declare_documentation() -> None:
    # Learn's pages write no generator: their topic (ms.topic) and their table of
    # contents (toc_rel, DocFX's docfx:tocrel) say what they are, on any host; the tabs'
    # labels then head their panels. A page without them is read as it was.
    for head in (
        "<meta name='ms.topic' content='quickstart'><meta name='ms.service' content='storage'>",
        "<meta name='toc_rel' content='../toc.json'>",
        "<meta name='docfx:tocrel' content='toc.html'>",
    ):
        found = extract(_learn(head), url=URL, metadata=True)
        assert (found.metadata or {}).get("type") == "documentation", head
        assert "Contoso CLI\n\nRun the command" in found.text, head
        assert "PowerShell\n\nRun the command" in found.text, head
    found = extract(_learn("<meta name='ms.service' content='storage'>"), url=URL, metadata=True)
    assert (found.metadata or {}).get("type") != "documentation"
    assert "Contoso CLI" not in found.text


DOCS = "https://docs.example.org/gearbox/wind"
LEAD = "The gearbox turns its wheels once the spring is wound, and runs down after a day. "


def _doc(body: str, head: str = "") -> str:
    return (
        f"<html><head><title>Wind the gearbox</title>{head}</head><body><main>"
        f"{body}<p>{LEAD * 2}</p></main></body></html>"
    )


def test_a_sections_eyebrow_over_the_title_is_left_out() -> None:
    # Mintlify's label of the page's section over its <h1>; one before no title stays.
    page = _doc(
        "<header><div><div class='eyebrow text-sm'>Get Started</div>"
        "<div class='flex'><h1 id='page-title'>Wind the gearbox</h1></div></div></header>"
        f"<p>{LEAD}</p><div class='eyebrow'>Good to know</div><p>{LEAD}</p>"
    )
    text = extract(page, url=DOCS).text
    assert "Get Started" not in text
    assert "# Wind the gearbox" in text and "Good to know" in text


def test_a_code_frames_screen_reader_label_is_left_out() -> None:
    # Starlight's terminal frame names itself to a screen reader ("Terminal window") in
    # its header, before its <pre>; a screen reader's words elsewhere stay.
    frame = (
        "<figure class='frame is-terminal'><figcaption class='header'><span class='title'>"
        "</span><span class='sr-only'>Terminal window</span></figcaption>"
        "<pre><code>npm install gearbox</code></pre></figure>"
    )
    page = _doc(
        f"<h1>Install</h1><p>{LEAD}</p>{frame}"
        f"<p>{LEAD}<span class='sr-only'>Opens in a new tab</span></p>",
        "<meta name='generator' content='Starlight v0.30'>",
    )
    text = extract(page, url="https://gearbox.example.org/install/").text
    assert "Terminal window" not in text and "npm install gearbox" in text
    assert "Opens in a new tab" in text


def test_a_callouts_icon_is_left_out() -> None:
    # Nextra's callout: its emoji on a line of its own. ReadMe's: its heading parsed
    # around its icon, the heading's words after it. A table's marks of support stay.
    nextra = (
        "<div class='nextra-callout x:flex'><div class='x:select-none'>\U0001f4a1</div>"
        "<div class='x:w-full'><p>Wind the spring each morning before the first turn.</p>"
        "</div></div>"
    )
    readme = (
        "<blockquote class='callout callout_info'><h3 class='callout-heading'>"
        "<span class='callout-icon'>\U0001f4d8</span><p>Keep your key secret</p></h3>"
        "<p>Anyone who holds your key can wind your gearbox.</p></blockquote>"
    )
    table = (
        "<table><tr><th>Wheel</th><th>Winds</th></tr><tr><td>Brass</td><td>\u2705</td></tr></table>"
    )
    text = extract(_doc(f"<h1>Wind</h1><p>{LEAD}</p>{nextra}{readme}{table}"), url=DOCS).text
    assert "\U0001f4a1" not in text and "\U0001f4d8" not in text
    assert "Wind the spring each morning" in text
    assert "### Keep your key secret\n" in text
    assert "\u2705" in text


def test_a_more_link_to_the_pages_own_description_is_left_out() -> None:
    # Doxygen's "More..." after a brief description jumps to the details on the page;
    # a link that reads so to another page stays.
    page = _doc(
        "<h1>Wheel Class Reference</h1><p>A wheel of the gearbox. <a href='#details'>More..."
        "</a></p><p>Wheels are listed <a href='wheels.html'>more\u2026</a></p>"
        f"<h2 id='details'>Detailed Description</h2><p>{LEAD}</p>",
        "<meta name='generator' content='Doxygen 1.9.8'>",
    )
    text = extract(page, url="https://gearbox.example.org/class_wheel.html").text
    assert "A wheel of the gearbox.\n" in text
    assert "more\u2026" in text


def test_a_last_update_a_time_ago_is_left_out() -> None:
    # GitBook's stamp under the page: "Last updated" and a <time> shown as a time ago. A
    # sentence that says something was updated a while ago stays.
    page = _doc(
        f"<h1>Wind</h1><p>{LEAD}</p><div class='flex'><p class='text-sm'>Last updated "
        "<time datetime='2026-03-03'>3 months ago</time></p></div>"
        "<p>The spring was last updated 3 months ago, when the brass wheel was replaced.</p>",
        "<meta name='generator' content='GitBook (7a5e3b1)'>",
    )
    text = extract(page, url=DOCS).text
    assert "Last updated 3 months ago" not in text
    assert "last updated 3 months ago, when" in text


def test_docsys_last_modified_line_with_its_commit_is_left_out() -> None:
    # Hugo Docsy's foot (Kubernetes'): the date and time the page changed, then the
    # subject and short hash of the commit, a link. A sentence naming a date stays.
    page = _doc(
        f"<h1>Wind</h1><p>{LEAD}</p><div class='text-muted mt-5 pt-3 border-top'>Last modified"
        " January 7, 2026 at 4:12 AM PST: <a href='https://git.example/commit/854aaf8'>"
        "Fix the wheel (854aaf863c)</a></div>"
        "<p>The spring was last modified January 7, 2026: we rewrote the guide (see below).</p>",
        "<meta name='generator' content='Hugo 0.120.4'>",
    )
    text = extract(page, url=DOCS).text
    assert "Fix the wheel" not in text and "Last modified" not in text
    assert "we rewrote the guide (see below)." in text


def _package(details: str, after: str = "") -> str:
    # pkg.go.dev's header: the title with its chips, then a row of the package's facts.
    return _doc(
        "<div class='go-Main-headerTitle'><h1>gearbox</h1>"
        "<span class='go-Chip go-Chip--inverted'>package</span>"
        "<span class='go-Chip go-Chip--inverted'>module</span></div>"
        f"<div class='go-Main-headerDetails'>{details}</div>"
        f"<h2>Overview</h2><p>{LEAD}</p>{after}"
    )


def test_a_packages_chips_and_facts_under_its_title_are_left_out() -> None:
    facts = "".join(
        f"<span class='go-Main-headerDetailItem'>{fact}</span>"
        for fact in (
            "Version: v1.4.2",
            "<span class='go-Chip go-Chip--accented'>Latest</span> Go to latest",
            "Published: Mar 3, 2026",
            "License: MIT",
            "Imports: 4",
            "Imported by: 123",
        )
    )
    text = extract(_package(facts), url=DOCS).text
    assert text.startswith("# gearbox\n\n## Overview")
    for gone in ("package", "module", "v1.4.2", "Imported by", "Latest"):
        assert gone not in text, gone
    # The same facts further down, in the package's text, stay; and a row of two is
    # no package's facts.
    later = f"<div class='facts'>{facts}</div>"
    text = extract(
        _package("<span>Version: v1.4.2</span><span>License: MIT</span>", later), url=DOCS
    ).text
    assert text.count("Version: v1.4.2") == 2 and "Imported by: 123" in text
