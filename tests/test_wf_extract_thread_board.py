"""wf/extract/kinds/board.py and tidy.py on small pages of our own: what a board prints
among a thread's posts that no poster wrote goes (a notice of the topic's closing posted
as a post, a script's "Expand" link, a prompt for feedback), and every reply stays."""

from __future__ import annotations

import pytest

from tests.test_wf_extract_kinds import ld, page
from wf.extract import extract
from wf.extract.kinds import board

WORDS = (
    "The ferry to the outer island runs twice a day in summer and once in winter.",
    "Book the car deck early in August, the morning crossings fill up a week ahead.",
    "The harbour cafe opens at seven, so there is time for breakfast before boarding.",
    "I took the late crossing last spring and the sea was calm the whole way over.",
)
USERS = ("ann", "ben", "cyra", "dora")


def _post(n: int, author: str, body: str) -> str:
    # A forum engine's crawler view (Discourse-like): the author, the time, the body.
    return (
        f"<div id='post_{n}' class='topic-body crawler-post'><div class='crawler-post-meta'>"
        f"<span class='creator' itemprop='author' itemscope><a href='/u/{author}'>"
        f"<span itemprop='name'>{author}</span></a></span><span class='crawler-post-infos'>"
        f"<time datetime='2026-03-0{n + 1}'>March {n + 1}, 2026, 9:15am</time>"
        f"<span itemprop='position'>{n + 1}</span></span></div><div class='post' "
        f"itemprop='text'>{body}</div></div>"
    )


def _thread(*posts: str) -> str:
    return page(ld({"@type": "DiscussionForumPosting"}), "<main>" + "".join(posts) + "</main>")


def test_a_post_that_only_says_the_topic_closed_goes_with_its_line():
    closed = "This topic was automatically closed after 30 days. New replies are no longer allowed."
    html = _thread(
        *(_post(n, USERS[n], f"<p>{WORDS[n]}</p>") for n in range(3)),
        _post(3, "system", f"<p>{closed}</p>"),
    )
    text = extract(html, url="https://forum.example/t/ferry/1").text
    assert "automatically closed" not in text
    assert "system" not in text
    assert "cyra, March 3, 2026, 9:15am" in text and WORDS[2] in text


def test_a_reply_that_tells_of_a_closed_topic_stays():
    reply = "This topic was closed last year, but the timetable changed again: " + WORDS[3]
    html = _thread(
        *(_post(n, USERS[n], f"<p>{WORDS[n]}</p>") for n in range(3)),
        _post(3, "dora", f"<p>{reply}</p>"),
    )
    assert reply in extract(html, url="https://forum.example/t/ferry/2").text


@pytest.mark.parametrize(
    "reply",
    [
        "This question was solved by reinstalling the driver.",
        "This thread is pinned because it answers most questions",
    ],
)
def test_a_reply_that_says_how_the_topic_was_solved_stays(reply):
    # The board says when, by whom or where to ("by a moderator"); a poster says how or why.
    html = _thread(
        *(_post(n, USERS[n], f"<p>{WORDS[n]}</p>") for n in range(3)),
        _post(3, "dora", f"<p>{reply}</p>"),
    )
    text = extract(html, url="https://forum.example/t/ferry/2").text
    assert reply in text and "dora, March 4, 2026" in text, text


@pytest.mark.parametrize(
    "notice",
    [
        "This topic was automatically closed 90 days after the last reply. New replies are no "
        "longer allowed.",
        "This topic was closed by a moderator.",
        "This thread was moved to Off-topic.",
    ],
)
def test_a_boards_notice_of_when_or_by_whom_goes(notice):
    html = _thread(
        *(_post(n, USERS[n], f"<p>{WORDS[n]}</p>") for n in range(3)),
        _post(3, "system", f"<p>{notice}</p>"),
    )
    text = extract(html, url="https://forum.example/t/ferry/2").text
    assert notice.split()[3] not in text and "system" not in text, text


def test_a_quote_s_expand_link_to_no_page_goes_and_a_link_to_a_page_stays():
    quote = (
        "<blockquote class='ipsQuote'><div class='ipsQuote_citation'>ann said:</div>"
        f"<div class='ipsQuote_contents'><p>{WORDS[3]}</p></div>"
        "<a class='ipsTruncate_more' data-action='expandTruncate'><span>Expand</span></a>"
        "</blockquote>"
    )
    more = "<p>The winter timetable: <a href='/t/ferry-timetable/7'>Read more</a></p>"
    html = _thread(
        _post(0, "ann", f"<p>{WORDS[0]}</p>"),
        _post(1, "ben", f"{quote}<p>{WORDS[1]}</p>"),
        _post(2, "cyra", f"<p>{WORDS[2]}</p>{more}"),
    )
    lines = extract(html, url="https://forum.example/topic/3").text.split("\n")
    assert not any(line.strip("> ") == "Expand" for line in lines)
    assert any(WORDS[3] in line for line in lines)
    assert "The winter timetable: Read more" in lines


def test_a_prompt_for_feedback_under_a_post_goes():
    prompt = (
        "<p><span>Did this help? </span><span>Please give feedback by clicking an icon "
        "below \u2b07\ufe0f</span></p>"
    )
    html = _thread(
        _post(0, "ann", f"<p>{WORDS[0]}</p>"),
        _post(1, "ben", f"<p>{WORDS[1]}</p>{prompt}"),
        _post(2, "cyra", f"<p>{WORDS[2]}</p>"),
    )
    text = extract(html, url="https://forum.example/topic/4").text
    assert WORDS[1] in text
    assert "Did this help" not in text and "feedback" not in text


def test_a_poster_s_question_and_thanks_for_feedback_stay():
    html = _thread(
        _post(0, "ann", f"<p>{WORDS[0]}</p>"),
        _post(1, "ben", f"<p>{WORDS[1]}</p><p>Did this help?</p>"),
        _post(2, "ann", "<p>Thanks for the feedback!</p>"),
        _post(3, "cyra", f"<p>{WORDS[2]}</p>"),
    )
    lines = extract(html, url="https://forum.example/topic/4").text.split("\n")
    assert "Did this help?" in lines and "Thanks for the feedback!" in lines


def test_a_quote_s_title_in_a_box_of_its_own_goes_with_the_quote_it_heads():
    # A board (UBB-like) draws its quote as a title box, "quote:", over a content box, both
    # named for the quote: the content repeats a post above and goes, and so does the title.
    quote = (
        "<blockquote class='ubb-quote'><div class='ubb-quote-title'>quote:</div>"
        f"<div class='ubb-quote-content'>{WORDS[0]}</div></blockquote>"
    )
    html = _thread(
        _post(0, "ann", f"<p>{WORDS[0]}</p>"),
        _post(1, "ben", f"{quote}<p>{WORDS[1]}</p>"),
        _post(2, "cyra", f"<p>{WORDS[2]}</p>"),
    )
    text = extract(html, url="https://forum.example/topic/5").text
    assert "quote:" not in text
    assert text.count(WORDS[0]) == 1 and WORDS[1] in text


def test_many_links_to_no_page_are_read_once_each():
    import lxml.html

    box = lxml.html.fromstring(
        "<div>" + "<a>Expand</a><a href='#'>x</a>" * 20000 + "<a>" + "y" * 100 + "</a></div>"
    )
    assert board.drop_toggles(box) == 20000


def test_a_link_around_many_empty_boxes_is_read_no_further_than_a_toggle():
    import lxml.html

    # Past a toggle's length in elements, the link is no toggle, and is not read on.
    box = lxml.html.fromstring("<div><a>" + "<i></i>" * 100000 + "Expand</a><a>Expand</a></div>")
    assert board.drop_toggles(box) == 1
    assert len(box) == 1 and len(box[0]) == 100000


def _phpbb(n: int, author: str, body: str) -> str:
    # A board's post (phpBB-like): its title, "by ann » date", the content, a notice.
    return (
        f"<div id='p{n}' class='post bg{n % 2 + 1}'><div class='postbody'>"
        f"<h3><a href='#p{n}'>Re: Ferry times</a></h3><p class='author'>by <strong>"
        f"<a href='/memberlist.php?u={n}'>{author}</a></strong> » Tue Mar 0{n + 1}, 2026 "
        f"9:15 am</p><div class='content'>{body}</div></div></div>"
    )


def test_the_board_s_notice_that_a_post_s_files_are_not_shown_goes():
    notice = (
        "<div class='rules'>You do not have the required permissions to view the files "
        "attached to this post.</div>"
    )
    html = _thread(
        _phpbb(0, "ann", f"{WORDS[0]}{notice}"),
        _phpbb(1, "ben", WORDS[1]),
        _phpbb(2, "cyra", f"{WORDS[2]}{notice}"),
    )
    text = extract(html, url="https://forum.example/viewtopic.php?t=6").text
    assert WORDS[0] in text and WORDS[2] in text
    assert "required permissions" not in text


def test_prompts_for_feedback_are_looked_for_a_bounded_number_of_times():
    import lxml.html

    from wf.extract.kinds import posts_tuning

    prompt = "<p>Did this help? Please give feedback by clicking an icon below</p>"
    words = "<p>" + "feedback " * 200 + "</p>"
    box = lxml.html.fromstring("<div>" + words * 20000 + prompt * 100 + "</div>")
    assert board.drop_prompts(box) == posts_tuning.FEEDBACK_MAX


def test_a_box_around_many_texts_that_name_feedback_is_read_once(monkeypatch):
    import lxml.html

    # A hundred texts in one paragraph past hundreds of empty boxes: each text's way up
    # reaches the paragraph, which is read once, not once a text.
    read = [0]
    short = board._short

    def counted(el, most):
        read[0] += 1
        return short(el, most)

    monkeypatch.setattr(board, "_short", counted)
    para = "<p>" + "<br>" * 700 + "<b>feedback</b>" * 100 + "</p>"
    box = lxml.html.fromstring("<div><div>" + para * 20 + "</div></div>")
    assert board.drop_prompts(box) == 0
    assert read[0] <= 20 * 100 + 20 + 1, read[0]


def _answer(n: int, who: str, voter: str) -> str:
    # A Q&A site's answer drawn in boxes of one generic class (a wrapper inside the answer
    # is of the answers' shape): the author, their credential, who vouched for the answer
    # (a link to the voter's page), the date, the body.
    return (
        f"<div class='q-box answer'><div class='q-box'><div class='q-box head'>"
        f"<div class='q-box'><a href='/profile/{who}'>{who}</a></div><div class='q-text'>"
        "<span>Ferry captain on the northern isles route since 1998</span> · <span>Upvoted "
        f"by <div class='q-inline'><a href='/profile/{voter}'><span>{voter}</span></a></div>, "
        "Harbour Master at the Northern Isles Ferry Company</span> · "
        f"<time datetime='2026-03-0{n + 1}'>Mar {n + 1}, 2026</time></div></div>"
        f"<div class='q-box body'><p>{WORDS[n]}</p></div></div></div>"
    )


def test_who_vouched_for_an_answer_is_no_line_of_a_reply_in_it():
    html = page(
        ld({"@type": "QAPage"}),
        "<main><h1>When does the ferry run?</h1><div class='answers'>"
        + "".join(_answer(n, USERS[n], voter) for n, voter in enumerate(("zed", "yves", "xia")))
        + "</div></main>",
    )
    lines = [line for line in extract(html, url="https://qa.example/q/1").text.split("\n") if line]
    for n in range(3):
        assert lines[lines.index(f"{USERS[n]}, Mar {n + 1}, 2026") + 1].startswith("Ferry captain")
    assert not {"zed", "yves", "xia"} & set(lines)


def test_a_link_whose_words_the_board_shortened_prints_its_address_whole():
    address = "https://github.com/raspberrypi/firmware/blob/master/boot/overlays/README"
    links = (
        # phpBB's, FluxBB's and vBulletin's way of shortening a long address.
        f"<a class='postlink' href='{address}'>https://github.com/raspberrypi/firmware ... "
        "ays/README</a>",
        f"<a href='{address}'>https://github.com/raspberrypi/firmware/bl … lays/README</a>",
        f"<a href='{address}'>github.com/raspberrypi/firmware/blob/ma...ADME</a>",
        # Words that are no shortened address, and one of another address, stay.
        f"<a href='{address}'>the overlays ... README</a>",
        "<a href='https://example.org/a/very/long/path/to/a/page'>"
        "https://github.com/raspberrypi/firmware ... ays/README</a>",
    )
    html = _thread(
        *(_post(n, USERS[n], f"<p>{WORDS[n]} See {links[n]} for the rest.</p>") for n in range(4)),
        _post(4, "eli", f"<p>{WORDS[0]} Also {links[4]} today.</p>"),
    )
    text = extract(html, url="https://forum.example/t/ferry/9").text
    for n in range(3):
        assert f"{WORDS[n]} See {address} for the rest." in text, text
    assert "See the overlays ... README for the rest." in text
    assert "Also https://github.com/raspberrypi/firmware ... ays/README today." in text
    from lxml import html as lxml_html

    bare = lxml_html.fromstring("<p><a href='https://a.example/x'>…</a> <a href='x'>a...b</a></p>")
    assert board.unshorten(bare) == 0


def test_words_of_many_dots_are_not_read_as_a_shortened_address(monkeypatch):
    # A label of one ellipsis splits once; one of many dots split at each (a hostile
    # board's 30000 such links: 4.9 s where the page took 0.45 s). It stays as written.
    from lxml import html as lxml_html

    label = "." * 150 + "a" * 45 + " z"
    links = "".join(f"<a href='https://a.example/x{n}'>{label}</a>" for n in range(50))
    box = lxml_html.fromstring(f"<div>{links}</div>")
    read = []
    shortened = board._SHORTENED

    class Counted:
        def fullmatch(self, text: str) -> object:
            read.append(text)
            return shortened.fullmatch(text)

    monkeypatch.setattr(board, "_SHORTENED", Counted())
    assert board.unshorten(box) == 0
    assert not read
    assert all(a.text == label for a in box.iter("a"))
