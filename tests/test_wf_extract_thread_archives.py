"""wf/extract/kinds/ on small pages of our own shaped as the thread engines the last
audit left printing wrongly (tests/test_wf_extract_thread_engines.py holds the others):
a link aggregator's comments whose age keeps its time in a title, an issue tracker's
header and timeline events, a mailing list archive's messages."""

from __future__ import annotations

from tests.test_wf_extract_kinds import ld, page
from tests.test_wf_extract_thread_engines import MORE, USERS, WORDS
from wf.extract import extract


def _aggregated(n: int, age: str) -> str:
    # A link aggregator's comment (Hacker News-like): a row of a table of rows, its head
    # the author's link and the comment's age, whose title keeps the time whole.
    return (
        f"<tr class='athing comtr' id='{n + 10}'><td><table><tr><td class='ind' "
        f"indent='{n % 2}'><img src='s.gif' width='{n % 2 * 40}'></td><td class='votelinks'>"
        f"<a id='up_{n + 10}' href='vote?id={n + 10}&how=up'><div class='votearrow'></div>"
        "</a></td><td class='default'><div><span class='comhead'>"
        f"<a href='user?id={USERS[n]}' class='hnuser'>{USERS[n]}</a> {age}"
        f"<span class='navs'> | <a href='#{n + 11}'>next</a></span></span></div><br>"
        f"<div class='comment'><div class='commtext'>{WORDS[n]}<p>{MORE[n]}</p></div>"
        f"<div class='reply'><a href='reply?id={n + 10}'>reply</a></div></div></td></tr>"
        "</table></td></tr>"
    )


def _aggregator(age: str) -> str:
    rows = "".join(_aggregated(n, age.format(n=n, h=n + 2, d=n + 1)) for n in range(6))
    return page(
        "",
        "<table id='main'><tr><td><table class='fatitem'><tr class='athing submission'>"
        "<td class='title'><a href='https://canal.example/locks'>Canal locks close early</a>"
        "</td></tr></table><table class='comment-tree'>" + rows + "</table></td></tr></table>",
    )


def test_a_comment_s_age_gives_the_time_its_title_keeps_whole():
    age = (
        "<span class='age' title='2026-04-0{d}T09:00:00 177503{n}000'>"
        "<a href='item?id=1{n}'>{h} hours ago</a></span>"
    )
    result = extract(_aggregator(age), url="https://news.example/item?id=1", metadata=True)
    assert (result.metadata or {}).get("type") == "thread"
    lines = [line for line in result.text.split("\n") if line]
    for n in range(6):
        assert lines[lines.index(f"{USERS[n]}, 2026-04-0{n + 1} 09:00") + 1] == WORDS[n]
    assert "hours ago" not in result.text


def test_an_empty_box_a_script_fills_shows_no_date_though_its_title_keeps_one():
    # NodeBB-like: nothing shows on the page as served; its title is no line's date.
    age = "<span class='timeago' title='2026-04-0{d}T09:00:00.000Z'></span>"
    text = extract(_aggregator(age), url="https://news.example/item?id=1").text
    assert "ann" in text.split("\n") and "2026" not in text
