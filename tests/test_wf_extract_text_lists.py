"""Short lines the article rule can miss: a list of them beside the chosen text (a live
ticker's entries, the topics of a guide) joins the choice as a sibling of prose does; a
page of them where nothing stands out is read without its named boilerplate. Every page
here is a small one of our own."""

from __future__ import annotations

import pytest

from wf.extract import extract_text

NAV = (
    "<header><nav><ul>"
    + "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(10))
    + "</ul></nav></header>"
)
FOOTER = "<footer><p>All rights reserved.</p></footer>"

FACTS = (
    "<div class='facts'><h2>Match facts</h2><p>Rovers: Smith, Jones, Brown, Taylor, "
    "Wilson, Evans, Thomas, Roberts, Walker, Wright, Green. United: Hall, Wood, Clarke, "
    "Hughes, Edwards, Turner, Hill, Moore, Cooper, Ward, King.</p><p>Goals: 1-0 Evans "
    "(12th minute), 2-0 Walker (55th minute). Referee: Anne Baker. Attendance: 18,400, "
    "a sell-out on a cold night.</p></div>"
)
ENTRIES = (
    "Full time: Rovers win the derby.",
    "Walker heads just wide.",
    "United change: Scott for Turner.",
    "Goal! Walker makes it 2-0.",
    "The second half is under way.",
    "Half time at the Park.",
    "Yellow card for Hughes.",
    "Goal! Evans taps in.",
    "Kick-off!",
)
TICKER = (
    "<ul class='ticker'>"
    + "".join(f"<li><b>{90 - 10 * n}'</b> {line}</li>" for n, line in enumerate(ENTRIES))
    + "</ul>"
)


def _page(main: str) -> str:
    return (
        f"<html><head><title>t</title></head><body>{NAV}<main>{main}</main>{FOOTER}</body></html>"
    )


def test_a_live_tickers_short_entries_are_kept_beside_the_match_facts() -> None:
    text = extract_text(_page(f"<h1>Live: Rovers against United</h1>{FACTS}{TICKER}"))
    assert "Referee: Anne Baker" in text
    assert "Goal! Walker makes it 2-0." in text
    assert "Kick-off!" in text


def test_a_list_of_links_beside_the_text_does_not_join_it() -> None:
    links = (
        "<ul class='more'>"
        + "".join(f"<li><a href='/m{n}'>{line}</a></li>" for n, line in enumerate(ENTRIES))
        + "</ul>"
    )
    text = extract_text(_page(f"<h1>Live: Rovers against United</h1>{FACTS}{links}"))
    assert "Referee: Anne Baker" in text
    assert "Goal! Walker makes it 2-0." not in text


def _price_guide() -> str:
    menu = (
        "<header class='site-header'><nav class='main-menu'><ul>"
        + "".join(
            f"<li><a href='/s/{i}'>Service number {i}</a><ul>"
            + "".join(f"<li><a href='/s/{i}/{j}'>Task {i}.{j}</a></li>" for j in range(6))
            + "</ul></li>"
            for i in range(30)
        )
        + "</ul></nav></header>"
    )
    rows = "".join(
        f"<div class='row'><div class='col'><strong>Job {n}</strong></div>"
        f"<div class='col'>${100 + 25 * n} - ${180 + 30 * n}</div></div>"
        for n in range(20)
    )
    return (
        "<html><head><title>Price guide</title></head><body><div class='wrapper'>"
        f"{menu}<div class='page'><h1>Price guide</h1>{rows}</div>"
        "<footer class='site-footer'><p>Call us any time.</p></footer></div></body></html>"
    )


def test_a_page_where_nothing_stands_out_is_read_without_its_menu() -> None:
    # Short rows of prices under a menu of many links, all in one wrapper: no block
    # stands out, and the wrapper is mostly links; the page is read without its named
    # boilerplate, not whole with its menu.
    text = extract_text(_price_guide())
    assert "Job 19" in text
    assert "$575 - $750" in text
    assert "Task 3.4" not in text


LINEUPS = (
    "<div class='lineup'><h3>Aufstellungen</h3><p>FC Nord: Albers, Brandt, Claasen, Dorn, "
    "Eggers, Fink, Graf, Hahn, Imhof, Jansen, Kunz. Trainer: Hans Alt.</p><p>SV Süd: Lorenz, "
    "Mai, Noll, Ott, Pohl, Quast, Rau, Sauer, Thiel, Uhl, Vogt. Trainer: Otto Neu.</p><p>"
    "Schiedsrichter: Meier (Berlin). Zuschauer: 23.400 im ausverkauften Stadion.</p></div>"
)
MOMENTS = (
    "Abpfiff! Nord gewinnt.",
    "Wechsel bei Süd.",
    "Tor für Süd durch Weber!",
    "Gelbe Karte für Müller.",
    "Ecke, nichts passiert.",
    "Tor! Schmidt trifft zum 2:0.",
    "Halbzeit.",
    "Tor! Müller köpft ein.",
    "Anpfiff in Nord.",
)


def _entries(stamp: str, wrap: str) -> str:
    return wrap.format(
        "".join(
            stamp.format(m=90 - 10 * n, h=20 - n // 6, q=(n * 7) % 60, line=line)
            for n, line in enumerate(MOMENTS)
        )
    )


# Tickers and liveblogs whose entries are boxes of their own, not list items: each opens
# with its time (a match's minute, the clock's hour).
_TIMED = {
    "minutes-in-divs": (
        "<div class='entry'><span class='min'>{m}'</span> <span>{line}</span></div>",
        "<div class='ticker'>{}</div>",
    ),
    "clock-in-headed-sections": (
        "<section class='update'><h2>{h}:{q:02d}</h2><p>{line}</p></section>",
        "<div class='updates'><div class='inner'>{}</div></div>",
    ),
    "french-hours": (
        "<div class='post'><time>{h}h{q:02d}</time><p>{line}</p></div>",
        "<div class='direct'>{}</div>",
    ),
}


@pytest.mark.parametrize("shape", sorted(_TIMED))
def test_a_tickers_timed_entries_in_boxes_join_the_match_facts(shape: str) -> None:
    ticker = _entries(*_TIMED[shape])
    text = extract_text(_page(f"<h1>Live: FC Nord gegen SV Süd</h1>{LINEUPS}{ticker}"))
    assert "Zuschauer: 23.400" in text
    assert "Tor! Schmidt trifft zum 2:0." in text
    assert "Anpfiff in Nord." in text


def test_boxes_of_dated_lines_beside_the_text_do_not_join_it() -> None:
    """A guard: a box of short lines that open with a date, not a time (an events
    calendar, a list of press releases), is no ticker."""
    dates = _entries("<div class='row'>{m}.05.2026 {line}</div>", "<div class='calendar'>{}</div>")
    text = extract_text(_page(f"<h1>Live: FC Nord gegen SV Süd</h1>{LINEUPS}{dates}"))
    assert "Zuschauer: 23.400" in text
    assert "Schmidt trifft" not in text
