"""wf/extract/hidden.py on pages of our own: which hidden boxes a reader opens and so stay."""

from __future__ import annotations

from wf.extract import extract_text

SHOWN = (
    "The keeper's log tells of forty winters on the rock, of ships warned off the reef "
    "and of the supply boat that came each fortnight when the sea allowed it."
)
REST = (
    "In the winter of the great storm the lamp burned nine nights without a relief, and "
    "the keeper wrote each hour's weather in the margin of the log."
)


def _page(after_hidden: str) -> str:
    return (
        "<html><head><title>The keeper's log</title></head><body><main>"
        "<h1>The keeper's log</h1><p>A memoir of a lighthouse keeper's forty years.</p>"
        f"<div class='expander'><div class='section'><p>{SHOWN}</p></div>"
        f"<div class='expander-content' style='display:none'><p>{REST}</p></div>"
        f"{after_hidden}</div></main></body></html>"
    )


def test_the_rest_of_a_text_behind_read_more_is_printed_a_closed_panel_is_not():
    text = extract_text(_page("<div class='row'><a href='#'>Read more</a></div>"))
    assert SHOWN in text
    assert REST in text
    # Without the line that opens it, a hidden box after a text stays hidden (a closed
    # panel, a copy for another screen).
    text = extract_text(_page("<div class='row'><a href='/log'>The whole log</a></div>"))
    assert SHOWN in text
    assert REST not in text


def test_skip_links_are_dropped_with_one_text_set_for_their_tails() -> None:
    # One by one, each skip link's tail was joined to the text before it, set again each
    # time: 20000 links in a row took 5.6 s, their tails copied over and over. The links
    # go at once now (hidden.drop_each): the paragraph before them takes all tails once.
    from lxml import html as lxml_html

    from tests.helpers import tail_writes
    from wf.extract.parse import clean

    parser, writes = tail_writes(lambda el: el.tag == "p")
    links = "".join(f"<a href='#main'>Skip to content</a>w{i} " for i in range(30))
    root = lxml_html.fromstring(f"<div><p>The page's own words.</p>{links}</div>", parser=parser)
    clean(root, main=True)
    assert root.find(".//a") is None
    assert root.find("p").tail == "".join(f"w{i} " for i in range(30))
    assert writes[0] == 1


def test_the_hidden_source_of_a_tabs_component_is_its_panels() -> None:
    # AWS's manuals write each way to do a task (console, command line) in a hidden <dl>
    # inside <awsdocs-tabs>, whose script draws the tabs: the steps are the page's.
    steps = "Open the console, choose the keeper's log and enter the night's weather."
    command = "Run the log command with the hour and the weather you saw from the lamp."
    source = (
        f"<dl style='display: none'><dt>Console</dt><dd><p>{steps}</p></dd>"
        f"<dt>Command line</dt><dd><p>{command}</p></dd></dl>"
    )

    def page(host: str) -> str:
        return (
            "<html><head><title>The keeper's log</title></head><body><main>"
            f"<h1>Writing the log</h1><p>{SHOWN}</p><{host}>{source}</{host}>"
            f"<p>{REST}</p></main></body></html>"
        )

    text = extract_text(page("awsdocs-tabs"))
    assert steps in text and command in text
    # ...not in a box that is no tabs component: a plain one, or one named otherwise.
    for host in ("div", "consent-box"):
        text = extract_text(page(host))
        assert REST in text and steps not in text
