"""Short lines the article rule can miss: a list of them beside the chosen text (a live
ticker's entries, the topics of a guide) joins the choice as a sibling of prose does; a
page of them where nothing stands out is read without its named boilerplate. Every page
here is a small one of our own."""

from __future__ import annotations

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
