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
