"""wf/extract/kinds/thread.py and byline.py: what a thread's post starts with (its author
and date line) and what leaves it, on small pages of our own shaped as the common
platforms print their posts."""

from __future__ import annotations

import re

import pytest

from tests.test_wf_extract_kinds import NAV, PROSE, ld, page
from wf.extract import extract


def _signature(action: str, date: str, author: str, declared: bool = True) -> str:
    # A Q&A platform's card: the action and its time, the avatar, the name and its counts.
    prop = " itemprop='author' itemscope" if declared else ""
    return (
        f"<div class='post-signature'><div class='user-info'><div class='user-action-time'>"
        f"{action} <span class='relativetime'>{date}</span></div><div class='user-gravatar32'>"
        f"<a href='/users/7'><img src='a.png' alt=''></a></div><div class='user-details'{prop}>"
        f"<a href='/users/7/{author}'>{author}</a><meta itemprop='name' content='{author}'>"
        "<div class='-flair'><span class='reputation-score'>1,234</span> "
        "<span class='badges'>3 silver badges</span></div></div></div></div>"
    )


def _qa(kind: str, votes: int, words: str, signatures: str, comments: int) -> str:
    return (
        f"<div class='{kind}'><div class='post-layout'><div class='votecell'><button>Up</button>"
        f"<div class='js-vote-count' itemprop='upvoteCount'>{votes}</div><button>Down</button>"
        "</div><div class='postcell'><time itemprop='dateCreated' datetime='2024-03-01T10:00'>"
        f"</time><div class='s-prose'><p>{words}</p></div><div class='post-menu'><a>Share</a>"
        f"</div><div class='signatures'>{signatures}</div></div></div>"
        # Hidden by a class the extractor does not read: only its microdata says it is a count.
        f"<span class='d-none' itemprop='commentCount'>{comments}</span></div>"
    )


@pytest.mark.parametrize(
    "kind",
    [
        "answer' itemprop='acceptedAnswer' itemscope x='",  # its microdata alone
        "answer js-answer accepted-answer",  # its class alone (Discourse's solved post)
    ],
)
def test_the_accepted_answer_says_so_in_its_line(kind):
    answers = _qa(
        kind, 64, "In the pilots' office. " + PROSE, _signature("answered", "Mar 2", "ben"), 1
    ) + _qa("answer", 33, "Online, as a PDF. " + PROSE, _signature("answered", "Mar 3", "cy"), 2)
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<div id='mainbar'>"
        + _qa(
            "question",
            7,
            "Where are the tide tables? " + PROSE,
            _signature("asked", "Mar 1", "ann"),
            0,
        )
        + f"<div id='answers'>{answers}</div></div>",
    )
    lines = [line for line in extract(html).text.split("\n") if line]
    assert "ben, Mar 2, accepted answer" in lines, lines
    assert "cy, Mar 3" in lines and "ann, Mar 1" in lines


def test_a_q_and_a_post_names_its_declared_author_and_their_own_date_and_no_counts():
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<div id='mainbar'>"
        + _qa(
            "question",
            71,
            "Where are the tide tables kept? " + PROSE,
            # The editor's card comes first and declares no author.
            _signature("edited", "Apr 13, 2024 at 12:52", "Community", declared=False)
            + _signature("asked", "Mar 1, 2024 at 10:00", "ann"),
            87,
        )
        + "<div id='answers'>"
        + _qa(
            "answer",
            64,
            "In the pilots' office. " + PROSE,
            _signature("answered", "Mar 2, 2024 at 9:15", "ben"),
            19,
        )
        + _qa(
            "answer",
            33,
            "Online, as a PDF. " + PROSE,
            _signature("answered", "Mar 3, 2024 at 8:00", "cy"),
            47,
        )
        + "</div></div>",
    )
    text = extract(html, url="https://qa.example/q/3").text
    lines = [line for line in text.split("\n") if line]
    assert lines[0] == "ann, Mar 1, 2024 at 10:00"
    assert lines[1].startswith("Where are the tide tables kept?")
    assert lines[lines.index("ben, Mar 2, 2024 at 9:15") + 1].startswith("In the pilots")
    assert "cy, Mar 3, 2024 at 8:00" in lines
    # The name's counts and badges, the votes and the hidden comment counts are gone.
    for gone in ("1,234", "silver badges", "71", "64", "33", "87", "19", "47"):
        assert re.search(rf"\b{gone}\b", text) is None, gone


def _board(n: int, author: str, date: str, profile: str = "") -> str:
    # A board's post: the author's profile beside the body; the date is the post's link
    # to itself, named for nothing; an edit note below.
    return (
        f"<div class='post bg{n % 2}'><div class='inner'><dl class='postprofile'><dt>"
        f"<a class='username' href='/u/{n}'>{author}</a></dt>{profile}</dl>"
        f"<div class='postbody'><h3><a href='#p{n}'>Re: Tide tables</a></h3>"
        f"<p class='info'><a href='/viewtopic?p={n}#p{n}'>{date}</a></p>"
        f"<div class='content'>Reply number {n}. {PROSE}</div>"
        f"<div class='postedit'>Last edited by {author} (2024-03-0{n} 11:02)</div></div></div></div>"
    )


def test_a_post_whose_date_is_only_its_own_link_s_text_gets_it_in_its_line():
    joined = "<dd class='profile-joined'>Joined: Sun Dec 17, 2023 11:18 am</dd>"
    posts = "".join(
        _board(n, f"user{n}", f"Wed Mar 0{n}, 2024 10:0{n} am", joined) for n in range(1, 6)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<div id='page'>{posts}</div>")
    lines = extract(html, url="https://board.example/viewtopic?t=2").text.split("\n")
    for n in range(1, 6):
        # Not the date the member joined, nor the note of an edit (its box is "postedit").
        assert f"user{n}, Wed Mar 0{n}, 2024 10:0{n} am" in lines
    # A text with more than a date is no date: a number before it ("#2") is no day.
    numbered = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<div id='page'>"
        + "".join(
            _board(n, f"user{n}", f"#{n} 2024-03-0{n}").replace("<a href='/viewtopic", "<a x='")
            for n in range(1, 6)
        )
        + "</div>",
    )
    lines = extract(numbered, url="https://board.example/viewtopic?t=3").text.split("\n")
    assert "user2" in lines and "user2, #2 2024-03-02" not in lines


def test_a_time_shown_long_and_short_gives_its_long_form_and_a_name_may_end_in_user():
    posts = "".join(
        f"<article class='comment'><div class='meta'><a class='hnuser'>user{n}</a> "
        f"<time datetime='2024-08-2{n}T16:29:31Z'><span class='long'>August 2{n}, 2024</span>"
        f"<span class='short'>{n} yr</span></time></div><div class='body'>Reply number {n}. "
        f"{PROSE}</div></article>"
        for n in range(1, 6)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    lines = extract(html, url="https://forum.example/t/9").text.split("\n")
    assert all(f"user{n}, August 2{n}, 2024" in lines for n in range(1, 6))


def _reply(n: int, author: str, words: str, quote: str = "") -> str:
    return (
        f"<article class='message'><div class='message-user'><a class='username'>{author}</a>"
        f"</div><div class='message-main'><time>Jul {n}, 2024</time><div class='bbWrapper'>"
        f"{quote}{words}</div></div></article>"
    )


def test_a_quote_that_repeats_a_post_above_goes_and_one_of_new_words_stays():
    question = "Which closed headphones have the widest stage? " + PROSE
    repeat = f"<blockquote><div class='title'>ann said:</div>{question}</blockquote>"
    elsewhere = (
        "<blockquote><div class='title'>The shop said:</div>Returns are taken within thirty "
        "days of purchase, unopened, with the receipt.</blockquote>"
    )
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<div class='block-body'>"
        + _reply(1, "ann", question)
        + _reply(2, "ben", "The open ones, but at night the closed ones. " + PROSE, repeat)
        + _reply(3, "cy", "So I can send them back. " + PROSE, elsewhere)
        + _reply(4, "dan", "Try them in a shop first. " + PROSE)
        + "</div>",
    )
    text = extract(html, url="https://forum.example/t/10").text
    assert text.count("Which closed headphones have the widest stage?") == 1
    assert "ann said:" not in text
    assert "Returns are taken within thirty days" in text and "The shop said:" in text
    assert "The open ones, but at night" in text


def test_the_attribution_around_a_quote_that_went_goes_with_it():
    # FluxBB's and phpBB's quote: a box of the quoted's name, then the <blockquote>.
    question = "Where are the tide tables kept these days? " + PROSE
    repeat = (
        f"<div class='quotebox'><cite>ann wrote:</cite><blockquote>{question}</blockquote></div>"
    )
    elsewhere = (
        "<div class='quotebox'><cite>The harbour office wrote:</cite><blockquote>Tables are "
        "printed each Monday and left at the ferry terminal.</blockquote></div>"
    )
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<div class='block-body'>"
        + _reply(1, "ann", question)
        + _reply(2, "ben", "In the pilots' office, by the quay. " + PROSE, repeat)
        + _reply(3, "cy", "Or by the ferry, as they say. " + PROSE, elsewhere)
        + _reply(4, "dan", "Thanks, both of you. " + PROSE)
        + "</div>",
    )
    text = extract(html, url="https://forum.example/t/12").text
    assert text.count("Where are the tide tables kept these days?") == 1
    assert "ann wrote:" not in text
    assert "The harbour office wrote:" in text and "Tables are printed each Monday" in text


def _message(n: int, author: str, words: str) -> str:
    # A post as boards print it: the author's card (rank, join date, counts) beside the
    # body, its date a link to itself.
    return (
        f"<article class='message message--post'><div class='message-cell--user'>"
        f"<h4 class='message-name'><a class='username' href='/m/{n}'>{author}</a></h4>"
        "<h5 class='userTitle'>Full Member</h5><dl class='pairs'><dt>Joined</dt>"
        "<dd>Jun 29, 2016</dd><dt>Messages</dt><dd>412</dd></dl></div>"
        f"<div class='message-cell--main'><header class='message-attribution'>"
        f"<a href='/p/{n}'><time datetime='2024-07-{n:02d}'>Jul {n}, 2024</time></a></header>"
        f"<div class='message-body'><div class='bbWrapper'>{words}</div></div>"
        f"<footer class='message-footer'><a href='/r/{n}'>Reply</a> <a href='/l/{n}'>Like</a>"
        "</footer></div></article>"
    )


def test_a_reply_too_short_to_be_a_post_keeps_its_words_and_line_and_loses_its_card():
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<div class='block-body'>"
        + _message(1, "ann", "Where are the tide tables kept? " + PROSE)
        + _message(2, "ben", "NIH - 7/18")
        + _message(3, "cy", "In the pilots' office by the quay. " + PROSE)
        + _message(4, "dan", "Congrats!")
        + "</div>",
    )
    text = extract(html, url="https://forum.example/t/11").text
    lines = [line for line in text.split("\n") if line]
    assert lines[lines.index("ben, Jul 2, 2024") + 1] == "NIH - 7/18"
    assert lines[lines.index("dan, Jul 4, 2024") + 1] == "Congrats!"
    # The cards go from the short replies as they go from the posts beside them.
    assert "Full Member" not in lines and "Joined" not in lines and "412" not in lines


def _vb(n: int, author: str, words: str, quote: str = "") -> str:
    # A board that writes every post's body as a <blockquote>, its quotes as <div>s.
    return (
        f"<li class='postbit' id='post{n}'><div class='userinfo'><a class='username'>{author}"
        f"</a></div><span class='date'>03-0{n}-2024, 10:0{n} AM</span><div class='postbody'>"
        f"<h2 class='title'>Re: Tide tables</h2><blockquote class='postcontent'>{quote}{words}"
        "</blockquote></div></li>"
    )


def test_a_quote_drawn_with_divs_inside_a_body_drawn_as_a_quote():
    question = "Where are the tide tables kept these days? " + PROSE
    quoted = (
        "<div class='bbcode_container'><div class='bbcode_quote'><div class='quote_container'>"
        f"<div class='bbcode_postedby'>Originally Posted by <strong>ann</strong></div>"
        f"<div class='message'>{question}</div></div></div></div>"
    )
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<ol id='posts'>"
        + _vb(1, "ann", question)
        + _vb(2, "ben", "In the pilots' office, second floor, left of the stairs.", quoted)
        + _vb(3, "cy", "Also online, as a PDF the harbour office updates every week.")
        + _vb(4, "dan", "Thanks, both of you: I found them by the ferry terminal.", quoted)
        + "</ol>",
    )
    text = extract(html, url="https://board.example/showthread.php?t=4").text
    assert text.count("Where are the tide tables kept these days?") == 1
    assert "Originally Posted by" not in text
    # The replies around the quotes stay: a body is judged by its own words.
    assert "In the pilots' office, second floor, left of the stairs." in text
    assert "Thanks, both of you: I found them" in text


def test_posts_drawn_as_an_ordered_list_s_items_are_not_numbered():
    words = ("Where are the tide tables kept?", "In the pilots' office.", "Also online.")
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<ol id='posts'>"
        + "".join(_vb(n, f"user{n}", f"{w} {PROSE}") for n, w in enumerate(words, 1))
        + "</ol>",
    )
    lines = extract(html, url="https://board.example/showthread.php?t=5").text.split("\n")
    for n in range(1, 4):
        line = next(line for line in lines if f"user{n}, 03-0{n}-2024, 10:0{n} AM" in line)
        assert not line.startswith(f"{n}.")


def test_a_post_s_note_of_its_edits_goes_and_words_that_start_alike_stay():
    notes = (
        "Last edited by user1 on Mar 2, 2024, edited 2 times in total.",
        "Edited January 29 by user2 (see edit history)",
        "Zuletzt bearbeitet von user3 am 5. März 2024",
    )
    posts = "".join(
        _reply(n, f"user{n}", f"Reply number {n}: the tide turns at the {n}th bell. ").replace(
            "</div></div></article>", f"<div class='note'>{note}</div></div></div></article>"
        )
        for n, note in enumerate(notes, start=1)
    ) + _reply(4, "user4", "<p>Edited to add: the office moved to the ferry terminal.</p>")
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    text = extract(html, url="https://forum.example/t/12").text
    assert all(f"Reply number {n}:" in text for n in range(1, 4))
    assert "edited 2 times" not in text and "see edit history" not in text
    assert "Zuletzt bearbeitet" not in text
    assert "Edited to add: the office moved to the ferry terminal." in text


def test_an_undeclared_topic_of_two_posts_where_no_block_stood_out():
    menu = "".join(
        f"<li><a href='/{w}'>{w}</a></li>" for w in ("Home", "Packages", "Wiki", "Login")
    )
    posts = "".join(
        f"<div class='blockpost'><h2><span><a href='/t?pid={n}#p{n}'>2025-11-0{n} 15:14:37</a></span>"
        f"</h2><div class='postleft'><strong class='username'>{who}</strong><span>Posts: 71"
        f"</span></div><div class='postright'><div class='postmsg'><p>{words}</p></div></div>"
        "</div>"
        for n, who, words in (
            (1, "ann", "Why did the install image grow so much in size this year?"),
            (2, "ben", "The boot loader changed, and the kernel is kept twice on it now."),
        )
    )
    html = page(
        "",
        f"<div id='brdheader'><h1>Board</h1><ul>{menu}</ul><p>You are not logged in.</p></div>"
        f"<div id='brdmain'>{posts}</div><div id='brdfooter'><p>Powered by a board</p></div>",
    )
    found = extract(html, url="https://board.example/viewtopic.php?id=3")
    assert found.kind == "thread"
    lines = [line for line in found.text.split("\n") if line]
    assert lines[lines.index("ann, 2025-11-01 15:14:37") + 1].startswith(
        "Why did the install image"
    )
    assert "ben, 2025-11-02 15:14:37" in lines
    assert "You are not logged in." not in lines and "Packages" not in found.text


def test_the_reply_form_and_notices_after_the_last_post_go_and_so_do_reply_titles():
    answers = "".join(
        _reply(
            n,
            f"user{n}",
            f"<h3>Re: Tide tables</h3>Answer number {n}: the tables hang in the office by gate {n}, left of the door.",
        )
        for n in range(1, 5)
    )
    form = (
        "<form class='post-form' action='/answer'><h2>Your Answer</h2><p>Post as a guest</p>"
        "<input name='email'><p>Required, but never shown</p><button>Post Your Answer</button>"
        "</form><div class='bottom-notice'><p>Start asking to get answers</p><p>Find the answer"
        " to your question by asking.</p><a href='/ask'>Ask question</a></div>"
    )
    html = page(
        ld({"@type": "QAPage"}),
        NAV + f"<div id='answers'><h2>4 Answers</h2>{answers}{form}</div>",
    )
    text = extract(html, url="https://qa.example/q/13").text
    assert all(f"Answer number {n}:" in text for n in range(1, 5))
    for gone in ("Your Answer", "Post as a guest", "Required, but never shown", "Start asking"):
        assert gone not in text, gone
    assert "Re: Tide tables" not in text
    # A title that is no reply's stays.
    html = html.replace(
        "<h3>Re: Tide tables</h3>Answer number 2", "<h3>Rest day</h3>Answer number 2"
    )
    assert "Rest day" in extract(html, url="https://qa.example/q/13").text


def test_an_advertisement_shaped_as_a_post_and_an_ad_s_label_in_a_post_go():
    label = "<p class='slot'>Advertisement (gone after registration)</p>"
    posts = (
        _reply(
            1,
            "ann",
            f"{label}<p>Which camera suits street shooting best, the small one or the big one?</p>",
        )
        + _reply(
            2,
            "Advertisement",
            "<p>Hi ann, take a look here at our deals on cameras for street shooting!</p>",
        )
        + _reply(
            3,
            "ben",
            f"{label}<p>The small one: nobody turns round when its shutter goes, and it fits a coat.</p>",
        )
        + _reply(
            4, "cat", "<p>Advertisement is what a loud shutter is: everyone hears you shoot.</p>"
        )
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    found = extract(html, url="https://forum.example/t/14")
    assert found.kind == "thread"
    assert "Which camera suits street shooting" in found.text
    assert "The small one: nobody turns round" in found.text
    assert "Advertisement is what a loud shutter is" in found.text  # a sentence, no label
    assert "take a look here at our deals" not in found.text
    assert "gone after registration" not in found.text


def test_a_question_and_its_one_answer_are_a_thread():
    # No two posts of one shape: the question's box and the answers' box, which holds the
    # one answer (a box of its own, its author's card in it) and a prompt to log in.
    html = page(
        ld({"@type": "QAPage"}),
        NAV + "<div class='left-sidebar'><p>Home, questions, tags and <span class='user-name'>"
        "you</span>: the pages of this harbour's site.</p></div><div id='mainbar'>"
        + _qa(
            "question",
            5,
            "Where are the tide tables kept? " + PROSE,
            _signature("asked", "Mar 1, 2024 at 10:00", "ann"),
            2,
        )
        + "<div id='answers'><h2>1 Answer</h2>"
        + _qa(
            "answer",
            3,
            "In the pilots' office. " + PROSE,
            _signature("answered", "Mar 2, 2024 at 9:15", "ben"),
            0,
        )
        + "<h2 class='bottom-notice'>You must log in to answer this question.</h2>"
        "<div class='bottom-notice'><a href='/ask'>Ask question</a> <a href='/tags'>"
        "See similar questions with these tags.</a></div></div></div>",
    )
    found = extract(html, url="https://qa.example/q/4")
    lines = [line for line in found.text.split("\n") if line]
    assert found.kind == "thread"
    assert lines[0] == "ann, Mar 1, 2024 at 10:00"
    assert lines[lines.index("ben, Mar 2, 2024 at 9:15") + 1].startswith("In the pilots")
    assert "log in" not in found.text and "harbour's site" not in found.text


def test_an_answer_to_a_related_question_shown_among_the_answers_goes():
    # Each answer a box of one shape; the third answers another question, headed by a
    # label and that question's title.
    def answer(n: int, author: str, head: str, words: str) -> str:
        return (
            f"<div class='answer'>{head}<div class='author'><a href='/profile/{author}'>"
            f"{author}</a> <span class='date'>{n}y</span></div><div class='text'><p>{words}"
            "</p></div></div>"
        )

    related = "<div class='label'>Related</div><a href='/Why-tides'>Why are tides so high?</a>"
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<main><h1>Where are the tide tables kept?</h1>"
        + answer(1, "ann", "", "In the pilots' office, beside the harbour. " + PROSE)
        + answer(2, "ben", "", "Online, as a PDF the harbour keeps. " + PROSE)
        + answer(3, "cy", related, "The moon pulls the sea towards it. " + PROSE)
        + answer(4, "dan", "", "Related to that: the office opens at eight. " + PROSE)
        + "</main>",
    )
    found = extract(html, url="https://qa.example/Where-are-the-tide-tables-kept")
    assert found.kind == "thread"
    assert "In the pilots' office" in found.text and "Online, as a PDF" in found.text
    assert "moon pulls" not in found.text and "Why are tides" not in found.text
    assert "Related to that: the office opens at eight." in found.text  # words, no label


def _answer(name: str, credential: str, tail: str, when: str, words: str) -> str:
    # A Q&A site's answer: its head a line of inline spans, the author's credential and
    # the site's tail of it between separators, then the answer's age linked to it.
    slug = name.replace(" ", "-")
    return (
        f"<div class='answer'><div class='q-box'><a href='/profile/{slug}'>{name}</a>"
        f"<div class='q-text'><span><span class='c1'>{credential}</span><span> · </span>"
        f"<span class='c1'>{tail}</span></span><span> · </span><span>"
        f"<a class='answer_timestamp' href='/answer/{slug}'>{when}</a></span></div></div>"
        f"<div class='body'><p>{words}</p><p>{PROSE}</p></div></div>"
    )


def test_an_answer_s_head_keeps_the_author_s_credential_not_the_site_s_tail_of_it():
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<main><h1>Where are the tide tables kept?</h1><div class='answers'>"
        + _answer(
            "Ann Lee",
            "Harbour pilot (1990–2020)",
            "Author has 9.6K answers and 47.1M answer views",
            "3y",
            "In the pilots' office.",
        )
        + _answer(
            "Ben Ray",
            "Quay keeper",
            "Upvoted by <a href='/profile/Cy'>Cy</a>, PhD",
            "1y",
            "Online.",
        )
        + _answer("Dee Fox", "Tide watcher", "Follow", "2y", "By the harbour gate.")
        + "</div></main>",
    )
    found = extract(html, url="https://answers.example/Where-are-the-tide-tables-kept")
    assert found.kind == "thread"
    lines = [line for line in found.text.split("\n") if line]
    assert lines[lines.index("Ann Lee, 3y") + 1] == "Harbour pilot (1990–2020)"
    assert "Ben Ray, 1y" in lines and "Dee Fox, 2y" in lines
    for gone in ("Author has", "answer views", "Upvoted", "Follow", "·"):
        assert not any(gone in line for line in lines)


def test_the_counts_of_an_author_s_activity_and_who_liked_the_answer_go_from_its_head():
    # Any site's tail of the credential, not one site's words: counts of the author's
    # posts and followers, and who vouched for the answer.
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<main><h1>Where are the tide tables kept?</h1><div class='answers'>"
        + _answer(
            "Ann Lee", "Harbour pilot (1990–2020)", "1.2K followers, 310 posts", "3y", "Office."
        )
        + _answer("Ben Ray", "Quay keeper", "Liked by <a href='/profile/Cy'>Cy</a>", "1y", "Web.")
        + _answer("Dee Fox", "Tide watcher", "Member has 52 answers", "2y", "By the gate.")
        + "</div></main>",
    )
    found = extract(html, url="https://answers.example/Where-are-the-tide-tables-kept")
    lines = [line for line in found.text.split("\n") if line]
    assert lines[lines.index("Ann Lee, 3y") + 1] == "Harbour pilot (1990–2020)"
    for gone in ("followers", "310 posts", "Liked by", "52 answers", "·"):
        assert not any(gone in line for line in lines), gone


def _card(author: str, date: str, words: str, name: str = "card") -> str:
    # A post drawn as a card: its author and date over its body.
    return (
        f"<div class='{name}'><div class='card-head'><span class='author'>{author}</span> "
        f"<time>{date}</time></div><div class='card-body'><p>{words}</p></div></div>"
    )


def test_a_first_post_of_one_short_line_above_the_answers_box_is_printed():
    # Too short to be prose, the question is a card of the answers' shape above their box:
    # the content grows to it, declared a thread or not.
    question = "Does the lock open at low tide?"
    answers = "".join(_card(f"u{n}", f"Jan {n}, 2026", f"Reply {n}. {PROSE}") for n in range(2, 6))
    for name, box in (("card question", "answers"), ("card first", "replies")):
        for head in ("", ld({"@type": "DiscussionForumPosting", "headline": "Low tide"})):
            html = page(
                head,
                NAV
                + "<main><h1>Low tide</h1><div class='thread'>"
                + _card("ann", "Jan 1, 2026", question, name)
                + f"<div class='{box}'>{answers}</div></div></main>",
            )
            found = extract(html, url="https://board.example/t/low-tide/5")
            assert found.kind == "thread"
            lines = found.text.split("\n")
            assert lines.index("ann, Jan 1, 2026") + 2 == lines.index(question)
            assert lines.index(question) < lines.index("u2, Jan 2, 2026")


def test_a_short_question_is_the_card_nearest_the_answers_box_not_one_further_up():
    # A box drawn as the posts are, further up beside the question (a list of related
    # questions with its date), is no first post: the question is the card right above
    # its answers, and it gets the line of its author and date.
    question = "Does the lock open at low tide?"
    related = (
        "<div class='card related'><div class='card-head'><time>Dec 3, 2025</time></div>"
        "<div class='card-body'><p>Related questions</p><p><a href='/q/1'>Is the lock deep?"
        "</a></p></div></div>"
    )
    answers = "".join(_card(f"u{n}", f"Jan {n}, 2026", f"Reply {n}. {PROSE}") for n in range(2, 6))
    html = page(
        "",
        NAV
        + "<main><h1>Low tide</h1><div class='thread'>"
        + related
        + _card("ann", "Jan 1, 2026", question, "card question")
        + f"<div class='answers'>{answers}</div></div></main>",
    )
    found = extract(html, url="https://board.example/t/low-tide/5")
    assert found.kind == "thread"
    lines = found.text.split("\n")
    assert lines.index("ann, Jan 1, 2026") + 2 == lines.index(question)


def test_many_cards_above_the_answers_are_each_read_once(monkeypatch):
    from wf.extract.kinds import siblings

    # 5000 short cards of the answers' shape above their box: the look for a short first
    # post reads each once, not once per card before it.
    read = []
    monkeypatch.setattr(siblings, "marked", lambda b, f=siblings.marked: read.append(b) or f(b))
    n = 5_000
    cards = "".join(_card("x", "Jan 1, 2026", "Short words here.", "card q") for _ in range(n))
    answers = "".join(_card(f"u{k}", f"Jan {k}, 2026", f"Reply {k}. {PROSE}") for k in range(2, 6))
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Low tide"}),
        f"<main><div class='thread'>{cards}<div class='answers'>{answers}</div></div></main>",
    )
    assert extract(html, url="https://board.example/t/low-tide/5").kind == "thread"
    assert n <= len(read) <= 2 * n


def _lined_post(author: str, date: str, body: str) -> str:
    return (
        f"<div class='post'><div class='post-meta'><a class='username' href='/u/{author}'>"
        f"{author}</a> <time datetime='{date}'>{date}</time></div>"
        f"<div class='post-body'>{body}</div>"
        "<div class='post-actions'><a href='#r'>Reply</a></div></div>"
    )


def test_a_reply_in_two_boxes_keeps_its_short_first_line():
    # The body is written as one box per line: a short line, then the rest. The short
    # box is a line of the body, not a card on the way down to it.
    html = page(
        "",
        NAV
        + "<main><h1>Where are the tide tables kept?</h1><div class='posts'>"
        + _lined_post("ann", "2024-03-01", f"<p>Where are they kept? {PROSE}</p>")
        + _lined_post(
            "ben", "2024-03-02", f"<div>In the office.</div><div>By the quay. {PROSE}</div>"
        )
        + _lined_post("cy", "2024-03-03", f"<div>Also online.</div><div>As a PDF. {PROSE}</div>")
        + _lined_post("dee", "2024-03-04", f"<p>Thanks all. {PROSE}</p>")
        + "</div></main>",
    )
    found = extract(html, url="https://forum.example/t/1")
    text = found.text
    assert found.kind == "thread"
    lines = text.split("\n")
    assert lines[lines.index("ben, 2024-03-02") + 2] == "In the office.", text
    assert lines[lines.index("cy, 2024-03-03") + 2] == "Also online.", text
    assert text.index("Also online.") < text.index("As a PDF.")
    assert "Reply" not in text


def test_a_bare_box_of_author_and_date_is_no_line_of_the_body():
    def bare(author: str, date: str, words: str) -> str:
        return (
            f"<div class='post'><div><a href='/u/{author}'>{author}</a> "
            f"<time datetime='{date}'>{date}</time> said</div><div><p>{words}</p></div></div>"
        )

    html = page(
        "",
        NAV
        + "<main><h1>Tides</h1><div class='posts'>"
        + bare("ann", "2024-03-01", f"Where are they kept? {PROSE}")
        + bare("ben", "2024-03-02", f"By the quay. {PROSE}")
        + bare("cy", "2024-03-03", f"As a PDF. {PROSE}")
        + "</div></main>",
    )
    text = extract(html, url="https://forum.example/t/2").text
    lines = text.split("\n")
    assert lines[lines.index("ben, 2024-03-02") + 2].startswith("By the quay."), text
    assert "said" not in text


def test_an_edit_s_time_is_no_date_of_the_post_that_shows_its_own_as_text():
    # The post's date is its link's text; the only <time> is the note of its edit's.
    posts = "".join(
        _board(n, f"user{n}", f"Wed Mar 0{n}, 2024 10:0{n} am").replace(
            f"Last edited by user{n} (2024-03-0{n} 11:02)",
            f"Last edited: <time datetime='2026-01-0{n}T09:00:00Z'>Jan {n}, 2026</time>",
        )
        for n in range(1, 6)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<div id='page'>{posts}</div>")
    text = extract(html, url="https://board.example/viewtopic?t=4").text
    lines = text.split("\n")
    for n in range(1, 6):
        assert f"user{n}, Wed Mar 0{n}, 2024 10:0{n} am" in lines, text
    assert "2026" not in text


@pytest.mark.parametrize(
    "edited",
    [
        "Last edited by {author} <time datetime='2026-01-0{n}T09:00:00Z'></time>",
        "Last edited by {author} on <span>Jan {n}, 2026</span>",
    ],
    ids=["an empty time", "a date alone in its box"],
)
def test_an_edit_s_date_is_no_date_of_a_post_that_shows_none(edited: str) -> None:
    # The post shows no date of its own: the note of its edit's, however drawn, is none
    # (a <time> that shows its date was already no post's).
    posts = "".join(
        _board(n, f"user{n}", "")
        .replace(f"<p class='info'><a href='/viewtopic?p={n}#p{n}'></a></p>", "")
        .replace(
            f"Last edited by user{n} (2024-03-0{n} 11:02)", edited.format(author=f"user{n}", n=n)
        )
        for n in range(1, 6)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<div id='page'>{posts}</div>")
    text = extract(html, url="https://board.example/viewtopic?t=5").text
    lines = text.split("\n")
    for n in range(1, 6):
        assert f"user{n}" in lines, text
    assert "2026" not in text
