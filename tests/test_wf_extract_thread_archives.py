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


def _tracked(n: int) -> str:
    # An issue tracker's comment (GitHub-like): its head links to the author's page and
    # shows the time in the tracker's own element, <relative-time>.
    return (
        "<div class='TimelineItem js-comment-container'><div class='timeline-comment'>"
        f"<h3 class='timeline-comment-header-text'><a class='author' href='/{USERS[n]}'>"
        f"{USERS[n]}</a> commented <a href='#issuecomment-{n}'><relative-time datetime="
        f"'2026-04-0{n + 1}T09:00:00Z'>Apr {n + 1}, 2026</relative-time></a></h3>"
        f"<div class='comment-body'><p>{WORDS[n]} {MORE[n]}</p></div></div></div>"
    )


def _event(n: int, what: str) -> str:
    # A timeline event between the comments: its actor's link, what was done, its time.
    return (
        "<div class='TimelineItem js-timeline-item'><div class='TimelineItem-badge'><svg>"
        f"</svg></div><div class='TimelineItem-body'><a class='author' href='/{USERS[n]}'>"
        f"{USERS[n]}</a> {what} <a href='#event-{n}'><relative-time datetime='2026-04-0"
        f"{n + 1}T10:00:00Z'>Apr {n + 1}, 2026</relative-time></a></div></div>"
    )


EVENTS = (
    "added the <a class='IssueLabel' href='/labels/bug'>bug</a> label",
    "mentioned this issue <a href='/o/r/pull/9'>Fix the gates #9</a>",
    "assigned <a class='assignee' href='/eli'>eli</a>",
    "linked a pull request that will close this issue",
    "closed this as completed",
)


def test_an_issue_s_description_heads_its_thread_without_its_header_and_events():
    timeline = "".join(_tracked(n) + _event((n + 2) % 6, EVENTS[n - 1]) for n in range(1, 6))
    html = page(
        "",
        "<main><div class='issue-viewer'><div class='issue-header'><h1>Canal locks close "
        "early <span>#7</span></h1><div class='header-meta'><span class='State'>Open</span> "
        "<a class='author' href='/ann'>ann</a> opened this issue <relative-time datetime="
        "'2026-04-01T09:00:00Z'>on Apr 1, 2026</relative-time> · 6 comments</div></div>"
        "<div class='issue-body'><div class='issue-body-header'><a class='author' "
        "href='/ann'>ann</a> opened <relative-time datetime='2026-04-01T09:00:00Z'>on Apr 1, "
        f"2026</relative-time></div><div class='markdown-body'><p>{WORDS[0]} {MORE[0]}</p>"
        f"</div></div><div class='js-discussion'>{timeline}</div></div>"
        "<p>Sign in to comment</p></main>",
    )
    result = extract(html, url="https://code.example/o/r/issues/7", metadata=True)
    assert (result.metadata or {}).get("type") == "thread"
    lines = [line for line in result.text.split("\n") if line]
    assert lines[0] == "ann, Apr 1, 2026" and lines[1].startswith(WORDS[0])
    for n in range(1, 6):
        assert lines[lines.index(f"{USERS[n]}, Apr {n + 1}, 2026") + 1].startswith(WORDS[n])
    assert len(lines) == 12
    for said in ("opened", "6 comments", "label", "mentioned", "assigned", "linked", "completed"):
        assert said not in result.text, said


def test_a_short_reply_that_names_a_poster_first_is_no_event():
    from lxml import html as lxml_html

    from wf.extract.kinds import events

    for reply in (
        "<a href='/u/ann'>@ann</a> added the fix you posted and the gates open now.",
        "<a href='/u/ann'>@ann</a> thanks, that closed the leak at last.",
        "<a href='/u/ann'>ann</a> added the bug label " + "and more words " * 20,
    ):
        assert not events.event(lxml_html.fromstring(f"<div>{reply}</div>")), reply
    assert events.event(lxml_html.fromstring("<div><a href='/ann'>ann</a> reopened this</div>"))


_MAIL = (
    f"Hi all,\n\n{WORDS[0]}\n{MORE[0]}\n\n&gt; {WORDS[1]}\n&gt; {MORE[1]}\n\n"
    f"{WORDS[2]}\n{MORE[2]}\n\nCheers,\nAnn\n"
)


def _mail_lines(html: str) -> list[str]:
    text = extract(html, url="https://lists.example/archives/canal/msg00121.html").text
    assert "```" not in text
    return [line for line in text.split("\n") if line]


def _said_as_prose(lines: list[str], head: str) -> None:
    # The head's line, then the mail's lines as text, its quoted ones a quote.
    assert lines[0] == head and lines[1] == "Hi all,"
    assert lines[lines.index(WORDS[0]) + 1] == MORE[0]
    assert f"> {WORDS[1]}" in lines and f"> {MORE[1]}" in lines
    assert lines.index(WORDS[2]) > lines.index(f"> {MORE[1]}")


def test_a_mail_archive_s_message_in_a_pre_is_prose_under_its_sender_and_date():
    # An archiver's message page (pipermail-like): the sender in bold, the address, the
    # date in italics, the navigation, then the mail's text in a <pre>.
    html = page(
        "",
        "<h1>[canal] Lock hours in winter</h1><b>Ann Smith</b> <a href='mailto:canal%40"
        "lists.example' title='[canal] Lock hours'>ann at canal.example</a><br><i>Wed Apr  1 "
        "09:00:00 UTC 2026</i><p></p><ul><li>Previous message: <a href='000120.html'>"
        "Moorings</a></li><li>Next message: <a href='000122.html'>Lock hours</a></li></ul>"
        f"<hr><pre>{_MAIL}</pre><hr><a href='/listinfo/canal'>More about the list</a>",
    )
    _said_as_prose(_mail_lines(html), "Ann Smith, Wed Apr 1 09:00:00 UTC 2026")


def test_a_message_under_a_list_of_its_head_s_fields_is_prose_without_the_address():
    # Another archiver's message page (MHonArc-like): the head as a list of fields.
    html = page(
        "",
        "[<a href='msg00120.html'>Date Prev</a>][<a href='msg00122.html'>Date Next</a>]"
        "<h1>Re: Lock hours in winter</h1><hr><ul><li><em>From</em>: Ann Smith &lt;"
        "ann@canal.example&gt;</li><li><em>Date</em>: Wed, 1 Apr 2026 09:00:00 +0000</li>"
        f"<li><em>Subject</em>: Re: Lock hours</li></ul><hr><pre>{_MAIL}</pre><hr>"
        "<ul><li>Prev by Date: <a href='msg00120.html'>Moorings</a></li></ul>",
    )
    lines = _mail_lines(html)
    _said_as_prose(lines, "Ann Smith, Wed, 1 Apr 2026 09:00:00 +0000")
    assert "canal.example" not in "\n".join(lines)


def test_a_patch_or_a_program_under_a_mail_s_head_stays_code():
    code = "\n".join(
        ("--- a/gates.c", "+++ b/gates.c", "@@ -1,3 +1,3 @@", "-int close_at = 18;")
        + ("+int close_at = 17;", " if (winter) { open(); }", "")
    )
    html = page(
        "",
        "<b>Ann Smith</b> <a href='mailto:canal%40lists.example'>ann at canal.example</a>"
        f"<br><i>Wed Apr  1 09:00:00 UTC 2026</i><hr><pre>{code}</pre><hr>",
    )
    text = extract(html, url="https://lists.example/archives/canal/msg00121.html").text
    assert "```\n--- a/gates.c" in text and "Ann Smith, " not in text


def test_a_page_of_many_pre_under_mail_heads_is_read_in_a_bounded_time():
    import time

    from lxml import html as lxml_html

    from wf.extract.kinds import mail

    head = "<b>Ann</b> <a href='mailto:a@b.example'>a</a><i>Apr 1 2026</i>"
    body = lxml_html.fromstring(
        "<body>" + (head + f"<pre>{WORDS[0]}\n{MORE[0]}</pre>") * 20_000 + "</body>"
    )
    start = time.perf_counter()
    assert mail.unpre(body) == mail.pt.MAIL_PRES
    assert time.perf_counter() - start < 1.0


def _emailed(n: int, quote: str) -> str:
    # A list archive's thread (HyperKitty-like): each message's head, then its body, the
    # mail's text in a <pre> that is the whole of its box.
    return (
        f"<div class='email' id='m{n}'><div class='email-header'><div class='email-author'>"
        f"<span class='name'><a href='/users/{n}/'>{USERS[n].title()} Smith</a></span></div>"
        f"<div class='email-date'><span class='date'>Apr {n + 1}, 2026</span></div></div>"
        f"<div class='email-body'><pre>{quote}{WORDS[n]}\n{MORE[n]}\n\nCheers,\n"
        f"{USERS[n].title()}</pre></div></div>"
    )


def test_a_thread_s_messages_in_pre_are_prose_their_quotes_of_the_posts_above_gone():
    said = "The basin's water point was mended on Tuesday, the keeper wrote to the list today."
    quotes = ["", f"&gt; {WORDS[0]}\n&gt; {MORE[0]}\n\n", f"&gt; {said}\n\n", "", "", ""]
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Lock hours"}),
        "<section id='thread-content'>"
        + "".join(_emailed(n, quotes[n]) for n in range(6))
        + "</section>",
    )
    text = extract(html, url="https://lists.example/archives/canal/thread/7/").text
    assert "```" not in text
    lines = [line for line in text.split("\n") if line]
    for n in range(6):
        at = lines.index(f"{USERS[n].title()} Smith, Apr {n + 1}, 2026")
        assert lines[at + 1 : at + 3] in ([WORDS[n], MORE[n]], [f"> {said}", WORDS[n]])
    assert text.count(WORDS[0]) == 1


def test_an_event_s_actor_in_a_box_of_its_own_and_a_box_of_many_elements():
    from lxml import html as lxml_html

    from wf.extract.kinds import events

    boxed = "<div><span class='actor'><a href='/dora'>dora</a></span> added the bug label</div>"
    assert events.event(lxml_html.fromstring(boxed))
    # A short text among many empty elements is no line: read no further than a line's.
    crowded = "<div><a href='/ann'>ann</a> closed this" + "<i></i>" * 100_000 + "</div>"
    assert not events.event(lxml_html.fromstring(crowded))
