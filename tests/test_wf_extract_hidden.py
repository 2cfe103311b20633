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
