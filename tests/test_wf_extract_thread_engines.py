"""wf/extract/kinds/thread.py, byline.py, replies.py and posts.py on small pages of our
own shaped as the common forum and issue engines print their posts (class names, data-*
attributes, itemprop, <time> elements), where tests/test_wf_extract_threads.py and
_thread_boards.py leave an engine out: every post, in page order, each with its line of
author and date."""

from __future__ import annotations

from typing import Any

from tests.test_wf_extract_kinds import ld, page
from wf.extract import extract
from wf.extract.kinds import stats

WORDS = (
    "The lock gates on the canal close at six in winter, so plan the last passage early.",
    "We moored below the third lock and the keeper let us through before the gates shut.",
    "The towpath is closed past the aqueduct until the bank repairs finish in April.",
    "Bring a windlass of your own: the hire boats sometimes come without one in spring.",
    "The water point at the junction was out of order last week, fill up before you go.",
    "There is a new pump-out station by the marina, cheaper than the one at the basin.",
)
USERS = ("ann", "ben", "cyra", "dora", "eli", "fay")
MORE = (
    "Our narrowboat draws two feet, so the shallow stretch by the mill was no trouble.",
    "The keeper's cottage sells eggs and honey on weekends if you moor up for an hour.",
    "Swans nest by the bottom gate in May and they defend the landing stage fiercely.",
    "A licence check happened at the tunnel mouth, so keep your papers somewhere handy.",
    "The pub at the top lock serves food until nine and has free moorings for guests.",
    "Rain swelled the river section, and the boards at the weir showed amber all week.",
)


def _says(n: int) -> str:
    return f"{WORDS[n]} {MORE[n]}"


def _streamed(n: int) -> str:
    # A post stream's item (Flarum-like) that only wraps the post, itself named a comment.
    return (
        f"<div class='PostStream-item' data-index='{n}' data-type='comment'>"
        "<article class='Post CommentPost'><div><header class='Post-header'><ul>"
        f"<li class='item-user'><h3 class='PostUser-name'><a href='/u/{USERS[n]}'>"
        f"<span class='username'>{USERS[n]}</span></a></h3></li><li class='item-meta'>"
        f"<time datetime='2026-04-0{n + 1}T09:00:00Z'>Apr {n + 1}, 2026</time></li></ul>"
        f"</header><div class='Post-body'><p>{_says(n)}</p></div>"
        "<aside class='Post-actions'><button>Like</button><button>Reply</button></aside>"
        "</div></article></div>"
    )


def test_a_post_whose_box_only_wraps_a_box_named_comment_gets_its_line():
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div class='DiscussionPage'><h1>Canal locks in winter</h1><div class='PostStream'>"
        + "".join(_streamed(n) for n in range(6))
        + "</div></div>",
    )
    lines = [line for line in extract(html, url="https://f.example/d/1").text.split("\n") if line]
    for n in range(6):
        at = lines.index(f"{USERS[n]}, Apr {n + 1}, 2026")
        assert lines[at + 1].startswith(WORDS[n])
    assert lines.index("ann, Apr 1, 2026") < lines.index("fay, Apr 6, 2026")


def _each_post_under_its_line(result: Any) -> None:
    # A thread, each post's words under its line of author and date.
    assert (result.metadata or {}).get("type") == "thread"
    lines = [line for line in result.text.split("\n") if line]
    for n in range(6):
        assert lines[lines.index(f"{USERS[n]}, Apr {n + 1}, 2026") + 1].startswith(WORDS[n])


def _issue_comment(n: int) -> str:
    # An issue tracker's comment: its head is a heading that links to the author's page.
    return (
        "<div class='TimelineItem js-comment-container'><div class='timeline-comment'>"
        "<div class='timeline-comment-header'><h3 class='timeline-comment-header-text'>"
        f"<strong><a class='author' href='/{USERS[n]}'>{USERS[n]}</a></strong> commented "
        f"<a href='#issuecomment-{n}'><relative-time datetime='2026-04-0{n + 1}T09:00:00Z'>"
        f"Apr {n + 1}, 2026</relative-time></a></h3></div><div class='comment-body'>"
        f"<p>{_says(n)}</p></div><div class='comment-reactions'><button>+1 {n + 2}</button>"
        "</div></div></div>"
    )


def test_an_issue_s_comments_headed_by_their_author_s_link_are_a_thread_not_cards():
    html = page(
        "",
        "<main><h1>Canal locks close early <span>#7</span></h1><div class='js-discussion'>"
        + "".join(_issue_comment(n) for n in range(6))
        + "</div><p>Sign in to comment</p></main>",
    )
    result = extract(html, url="https://code.example/o/r/issues/7", metadata=True)
    _each_post_under_its_line(result)


def _board_post(n: int, author: str) -> str:
    # A board's post (Simple Machines-like): the poster's card (name, group, count), then
    # the post's link to itself that reads as its date.
    return (
        f"<div class='windowbg'><div class='poster'><h4><a href='/profile/{n}'>{author}</a>"
        "</h4><ul class='user_info'><li class='membergroup'>Full Member</li>"
        f"<li class='postcount'>Posts: 31{n}</li></ul></div><div class='postarea'>"
        f"<div class='keyinfo'><a href='#msg{n}' class='smalltext'>Apr {n + 1}, 2026, 09:00"
        f"</a></div><div class='post'><div class='inner'>{_says(n)}</div></div></div></div>"
    )


def test_a_name_as_short_as_an_initial_is_the_author_when_no_longer_link_follows():
    names = ("ann", "ben", "cy", "dora", "eli", "fay")
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div id='forumposts'>" + "".join(_board_post(n, names[n]) for n in range(6)) + "</div>",
    )
    lines = extract(html, url="https://f.example/index.php?topic=1").text.split("\n")
    assert "cy, Apr 3, 2026, 09:00" in lines
    assert not any(line.startswith("Full Member") for line in lines)


def _archived(n: int) -> str:
    # A mailing list archive's message (HyperKitty-like): the day and the hour are boxes
    # of their own in the date's box.
    return (
        f"<div class='email' id='m{n}'><div class='email-header'><div class='email-author'>"
        f"<span class='name'><a href='/users/{n}/'>{USERS[n].title()} Smith</a></span></div>"
        f"<div class='email-date'><span class='date'>Apr {n + 1}, 2026</span>"
        "<span class='time' title='9:00 a.m.'>9 a.m.</span></div></div>"
        f"<div class='email-body'><p>{_says(n)}</p></div></div>"
    )


def test_a_date_s_day_and_hour_in_boxes_of_their_own_are_not_glued():
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<section id='thread-content'>" + "".join(_archived(n) for n in range(6)) + "</section>",
    )
    lines = extract(html, url="https://lists.example/thread/1/").text.split("\n")
    assert "Ann Smith, Apr 1, 2026 9 a.m." in lines


def _quoted_body(n: int, extra: str = "") -> str:
    # A board that writes each post's body as a <blockquote> (vBulletin-like), with a
    # signature as another one below.
    return (
        f"<li class='postcontainer' id='post_{n}'><div class='posthead'><span class='date'>"
        f"Apr {n + 1}, 2026</span></div><div class='userinfo'><a class='username' "
        f"href='/member.php?u={n}'>{USERS[n]}</a></div><div class='postbody'>"
        f"<blockquote class='postcontent restore'>{extra}{_says(n)}</blockquote>"
        "<blockquote class='signature'>Afloat since 1990.</blockquote></div></li>"
    )


def test_a_post_s_body_written_as_a_blockquote_is_no_quote_and_a_quote_in_it_stays_one():
    quote = "<blockquote class='quote'>The water point is fixed now, someone said.</blockquote>"
    posts = [_quoted_body(n, quote if n == 4 else "") for n in range(6)]
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<ol id='posts'>" + "".join(posts) + "</ol>",
    )
    text = extract(html, url="https://f.example/showthread.php?t=1").text
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    assert not any(line.startswith(">") and WORDS[0] in line for line in lines)
    assert any(line.startswith(WORDS[0]) for line in lines)
    assert any(line.startswith(">") and "water point is fixed" in line for line in lines)


def _titled_body(n: int, body: str) -> str:
    # The same board's post whose body is short against its line of author and date, the
    # first one under the topic's title as a heading of its own (vBulletin's first post).
    title = "<h2 class='title icon'>Canal locks in winter</h2>" if n == 0 else ""
    return (
        f"<li class='postcontainer' id='post_{n}'><div class='posthead'><span class='date'>"
        f"Apr {n + 1}, 2026</span></div><div class='userinfo'><a class='username' "
        f"href='/member.php?u={n}'>{USERS[n]}</a></div><div class='postbody'>{title}"
        f"<blockquote class='postcontent restore'>{body}</blockquote></div></li>"
    )


def test_a_short_body_written_as_a_blockquote_is_no_quote_beside_its_line_and_title():
    bodies = ["Hello. Any advice on the locks?", "Thanks.", *(_says(n) for n in range(2, 6))]
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks in winter"}),
        "<ol id='posts'>" + "".join(_titled_body(n, b) for n, b in enumerate(bodies)) + "</ol>",
    )
    text = extract(html, url="https://f.example/showthread.php?t=2").text
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    assert not any(line.startswith(">") for line in lines), text
    assert "Thanks." in lines
    assert "Hello. Any advice on the locks?" in lines


def _app_post(n: int, shown: str) -> str:
    # A forum app's post (Discourse-like, as its script draws it): the date shown as a
    # time ago, whole in the title of its box.
    return (
        f"<article id='post_{n + 1}' data-post-id='{n + 9}' class='boxed onscreen-post'>"
        f"<div class='topic-body'><div class='topic-meta-data'><span class='first username'>"
        f"<a href='/u/{USERS[n]}'>{USERS[n]}</a></span><div class='post-info post-date'>"
        f"<a class='post-date' href='/t/1/{n + 1}'><span title='Apr {n + 1}, 2026 9:00 am' "
        f"class='relative-date'>{shown}</span></a></div></div><div class='cooked'>"
        f"<p>{_says(n)}</p></div><nav class='post-controls'><button>Like</button>"
        "<button>Reply</button></nav></div></article>"
    )


def test_a_date_shown_as_a_time_ago_gives_the_whole_date_of_its_title():
    shown = ("3d", "2 days ago", "Tuesday at 9:00", "Apr 4", "yesterday", "5h")
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div class='topic-post-stream'>"
        + "".join(_app_post(n, shown[n]) for n in range(6))
        + "</div>",
    )
    lines = extract(html, url="https://f.example/t/canal-locks/1").text.split("\n")
    assert "ann, Apr 1, 2026 9:00 am" in lines
    assert "ben, Apr 2, 2026 9:00 am" in lines
    # A day shown by its weekday or its month stays as the page shows it.
    assert "cyra, Tuesday at 9:00" in lines
    assert "dora, Apr 4" in lines


def _community_post(n: int) -> str:
    # A community suite's post (Invision-like): the author's pane, its heading linking to
    # their profile, beside the post's date and body.
    return (
        f"<article id='elComment_{n}' class='cPost ipsComment'><aside class='cAuthorPane'>"
        f"<h3 class='cAuthorPane_author'><strong><a href='/profile/{n}-{USERS[n]}/'>"
        f"{USERS[n]}</a></strong></h3><ul class='cAuthorPane_info'><li>Members</li>"
        f"<li>{n + 3}45 posts</li></ul></aside><div class='ipsComment_content'>"
        f"<div class='ipsComment_meta'>Posted <time datetime='2026-04-0{n + 1}T09:00:00Z'>"
        f"Apr {n + 1}, 2026</time></div><div data-role='commentContent'><p>{_says(n)}</p>"
        "</div><ul class='ipsComment_controls'><li><a>Quote</a></li></ul></div></article>"
    )


def test_posts_headed_by_a_link_to_their_author_s_profile_are_a_thread_not_cards():
    html = page(
        "",
        "<div id='mainArea'><h1>Canal locks in winter</h1><form>"
        + "".join(_community_post(n) for n in range(6))
        + "</form><p>Join the conversation. You can post now and register later.</p></div>",
    )
    result = extract(html, url="https://f.example/topic/1-canal-locks/", metadata=True)
    _each_post_under_its_line(result)


def _discussion_post(n: int) -> str:
    # A discussion board's post (Vanilla-like): the author's wrap, the date, the message
    # and its reactions.
    return (
        "<div class='Item-Header'><div class='AuthorWrap'><span class='Author'>"
        f"<a href='/profile/{USERS[n]}' class='Username'>{USERS[n]}</a></span></div>"
        "<div class='Meta'><span class='MItem DateCreated'><a href='#' class='Permalink'>"
        f"<time datetime='2026-04-0{n + 1}T09:00:00Z'>Apr {n + 1}, 2026</time></a></span>"
        "</div></div><div class='Item-BodyWrap'><div class='Item-Body'><div class='Message "
        f"userContent'>{_says(n)}</div><div class='Reactions'><a>Quote</a><a>Flag</a></div>"
        "</div></div>"
    )


def test_the_first_post_above_the_replies_heading_stays_and_the_notice_to_log_in_goes():
    comments = "".join(
        f"<li class='Item ItemComment'><div class='Comment'>{_discussion_post(n)}</div></li>"
        for n in range(1, 6)
    )
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div id='Content'><div class='MessageList Discussion'><h1>Canal locks in winter</h1>"
        f"<div class='Item ItemDiscussion'><div class='Discussion'>{_discussion_post(0)}"
        "</div></div></div><div class='CommentsWrap'><h2>Comments</h2><ul class='DataList "
        f"Comments'>{comments}</ul></div><div class='Foot Closed'><div class='Note Closed'>"
        "Sign In or Register to comment.</div></div></div>",
    )
    text = extract(html, url="https://f.example/discussion/1/canal-locks").text
    assert "ann, Apr 1, 2026" in text and "fay, Apr 6, 2026" in text
    assert "Register" not in text


def _note(n: int) -> str:
    # An issue tracker's note (GitLab-like): the author, their handle, the note's time.
    return (
        f"<li class='note timeline-entry' id='note_{n}'><div class='timeline-content'>"
        f"<div class='note-header'><a href='/{USERS[n]}'><span class='note-header-author-name'>"
        f"{USERS[n]}</span></a> <a class='note-timestamp' href='#note_{n}'><time "
        f"datetime='2026-04-0{n + 1}T09:00:00Z'>Apr {n + 1}, 2026</time></a></div>"
        f"<div class='note-body'><div class='note-text md'><p>{_says(n)}</p></div></div>"
        "</div></li>"
    )


def test_an_issue_s_description_above_its_notes_and_the_notice_to_sign_in_stays_first():
    html = page(
        "",
        "<main class='content'><div class='issue-details'><div class='description'>"
        f"<h1>Canal locks close early</h1><div class='md'><p>{_says(0)}</p></div></div>"
        "<div class='detail-page-header-body'>Created <time datetime='2026-04-01'>Apr 1, "
        f"2026</time> by <a class='author-link' href='/{USERS[0]}'>{USERS[0]}</a></div></div>"
        "<section class='issuable-discussion'><ul class='notes main-notes-list'>"
        + "".join(_note(n) for n in range(1, 6))
        + "</ul><div class='disabled-comment'>Please register or sign in to reply</div>"
        "</section></main>",
    )
    text = extract(html, url="https://code.example/o/r/-/issues/7").text
    assert WORDS[0] in text and text.index(WORDS[0]) < text.index(WORDS[1])
    assert "fay, Apr 6, 2026" in text and "register" not in text


def _carded(n: int, first: str) -> str:
    # A board's post whose poster card starts with a short link (an avatar's letters, a
    # badge) before the name shown in a box of its own, then rank and counts.
    return (
        f"<div class='windowbg'><div class='poster'>{first}<span class='username'>"
        f"{USERS[n]}</span><ul class='user_info'><li class='membergroup'>Full Member of the "
        f"canal society</li><li class='postcount'>Posts: 31{n}</li><li>Location: the long "
        "pound by the lock</li></ul></div><div class='postarea'><div class='keyinfo'>"
        f"<a href='#msg{n}' class='smalltext'>Apr {n + 1}, 2026, 09:00</a></div>"
        f"<div class='post'><div class='inner'>{_says(n)}</div></div></div></div>"
    )


def test_a_link_as_short_as_an_initial_before_the_name_s_own_box_is_no_name():
    for first in ("<a href='/u/x' class='avatar'>AN</a>", "<a href='/badges/op'>OP</a>"):
        html = page(
            ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
            "<div id='forumposts'>" + "".join(_carded(n, first) for n in range(6)) + "</div>",
        )
        lines = extract(html, url="https://f.example/index.php?topic=1").text.split("\n")
        assert "cyra, Apr 3, 2026, 09:00" in lines, first


def test_a_time_ago_in_months_is_no_weekday_and_gives_its_title_s_date():
    # "mo" and "Mo." are also short names of Monday: after a number they are a unit.
    shown = ("2mo", "3 mo", "vor 1 Mo.", "Mo 09:00", "il y a 3 jours", "5h")
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div class='topic-post-stream'>"
        + "".join(_app_post(n, shown[n]) for n in range(6))
        + "</div>",
    )
    lines = extract(html, url="https://f.example/t/canal-locks/1").text.split("\n")
    for n in (0, 1, 2, 4):
        assert f"{USERS[n]}, Apr {n + 1}, 2026 9:00 am" in lines
    assert "dora, Mo 09:00" in lines


def test_a_title_that_is_no_real_day_leaves_the_time_ago_as_shown():
    posts = [_app_post(n, "3d") for n in range(6)]
    posts[1] = posts[1].replace("Apr 2, 2026 9:00 am", "Feb 30, 2026 9:00 am")
    posts[2] = posts[2].replace("Apr 3, 2026 9:00 am", "Apr 3, 9999 9:00 am")
    posts[3] = posts[3].replace("Apr 4, 2026 9:00 am", "Edited " * 200_000)
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div class='topic-post-stream'>" + "".join(posts) + "</div>",
    )
    lines = extract(html, url="https://f.example/t/canal-locks/1").text.split("\n")
    assert "ann, Apr 1, 2026 9:00 am" in lines
    assert "ben, 3d" in lines and "cyra, 3d" in lines and "dora, 3d" in lines


def _xf_post(n: int, body: str) -> str:
    # A board's post (XenForo-like) whose body holds a quote of an earlier page's post.
    return (
        f"<article class='message' id='post-{n}'><div class='message-user'><h4 class="
        f"'message-name'><a href='/members/{USERS[n]}.{n}/' class='username'>{USERS[n]}</a>"
        f"</h4></div><div class='message-main'><time datetime='2026-04-0{n + 1}T09:00:00Z'>"
        f"Apr {n + 1}, 2026</time><div class='message-body'><div class='bbWrapper'>{body}"
        "</div></div></div></article>"
    )


def test_a_blockquote_that_says_whose_words_it_holds_stays_a_quote_however_long():
    quoted = (
        "The lock keeper said the paddles on the top gate were replaced last winter, "
        "and the new ones are much lighter to wind than the old cast iron pair."
    )
    for quote in (
        f"<blockquote class='bbCodeBlock' data-quote='zed'><div>zed said:</div>{quoted}"
        "</blockquote>",
        f"<blockquote cite='/t/1/page-1#post-9'>{quoted}</blockquote>",
        f"<blockquote><p>zed wrote:</p><p>{quoted}</p></blockquote>",
    ):
        posts = [_xf_post(n, quote + "Agreed." if n == 3 else _says(n)) for n in range(6)]
        html = page(
            ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
            "<div class='block-body'>" + "".join(posts) + "</div>",
        )
        text = extract(html, url="https://f.example/threads/canal.1/page-2").text
        lines = [line.strip() for line in text.split("\n") if "lock keeper" in line]
        assert lines and all(line.startswith(">") for line in lines), quote


def test_a_profile_path_in_a_link_s_query_leads_to_no_profile():
    from lxml import html as lxml_html

    from wf.extract.kinds import heads

    assert heads.profile("/u/ann") and heads.profile("https://f.example/members/ann.3/")
    assert not heads.profile("/t/other-topic?from=/u/ann")
    assert not heads.profile("/t/other-topic#/profile/ann")
    el = lxml_html.fromstring("<div><h3><a href='/t/locks-2?ref=/users/ann'>Locks</a></h3></div>")
    assert heads.card(type("Post", (), {"el": el})())


def test_a_notice_to_log_in_to_reply_that_a_poster_quotes_on_a_line_of_its_own_stays():
    said = (
        "<p>The board kept saying:</p><p>You must log in or register to reply here.</p>"
        "<p>even though I was logged in all along, so I cleared my cookies.</p>"
    )
    posts = [_xf_post(n, _says(n) + (said if n == 2 else "")) for n in range(6)]
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<div class='block-body'>"
        + "".join(posts)
        + "<div class='blockMessage'>You must log in or register to reply here.</div></div>",
    )
    text = extract(html, url="https://f.example/threads/canal.1/").text
    assert text.count("You must log in or register to reply here.") == 1
    assert text.index("kept saying") < text.index("register to reply") < text.index("cookies")


def test_only_a_post_s_outermost_blockquote_becomes_its_body():
    from lxml import html as lxml_html

    from wf.extract.kinds import bodies

    # The body's quote holds nearly all its words, yet is a quote in the body, not a
    # body of its own; and a hostile nesting is read once, at its outermost level.
    inner = "<blockquote>" * 40 + MORE[0] + "</blockquote>" * 40
    el = lxml_html.fromstring(f"<div><div><blockquote>{inner} Yes.</blockquote></div></div>")
    assert bodies.unquote([type("Post", (), {"el": el[0]})()], set()) == 1
    assert [q.tag for q in el.iter("div", "blockquote")][:3] == ["div", "div", "div"]
    assert sum(1 for _ in el.iter("blockquote")) == 40


def _chat_post(n: int) -> str:
    # A parenting board's post drawn with generated class names: the name and the date in
    # boxes of their own over the body.
    return (
        f"<div class='sc-post'><div class='sc-a'><div class='sc-b'>{USERS[n]}</div>"
        f"<div class='sc-c'>0{n + 1}/04/2026 at 9:0{n} am</div></div>"
        f"<div class='sc-d'><p>{_says(n)}</p></div></div>"
    )


def _canal_topic(stats: str) -> str:
    """A topic whose statistics (``stats``) stand in their own box above its first post."""
    return page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        f"<main><div class='sc-t'><h1>Canal locks</h1><div class='sc-s'>{stats}</div>"
        "<div class='sc-q'><div class='sc-a'><div class='sc-b'>gus</div><div class='sc-c'>"
        f"31/03/2026 at 8:00 am</div></div><div class='sc-d'><p>{MORE[0]}</p><p>{MORE[1]}"
        f"</p><p>{MORE[2]}</p></div></div></div><div class='sc-list'>"
        + "".join(_chat_post(n) for n in range(1, 6))
        + "</div></main>",
    )


def test_a_topic_s_statistics_above_its_first_post_go():
    html = _canal_topic(
        "<p class='sc-n'>5 answers /</p><p class='sc-l'>Last post: 06/04/2026 at 9:05 am</p>"
    )
    text = extract(html, url="https://f.example/coffeehouse/canal-locks/").text
    assert "5 answers" not in text
    assert "Last post" not in text
    assert MORE[0] in text and WORDS[5] in text
    # The same words inside a post are the post's.
    assert not stats.topic_line("5 answers / and more")
    assert stats.topic_line("2 replies · 340 views")
    assert not stats.topic_line("Last post: when the gates close")


def test_the_button_over_the_posts_that_opens_the_reply_form_goes():
    # phpBB's action bar above the first post: the reply button (to the login form, for a
    # guest), the topic's search box and its pages.
    html = _canal_topic(
        "<div class='action-bar bar-top'><a href='./posting.php?mode=reply&amp;t=1' "
        "class='button' title='Post a reply'><span>Post Reply</span> <i class='icon "
        "fa-reply'></i></a></div>"
    )
    text = extract(html, url="https://f.example/viewtopic.php?t=1").text
    assert "Post Reply" not in text
    assert MORE[0] in text and WORDS[5] in text
    assert stats.topic_line("Reply to Thread") and stats.topic_line("New Topic")
    assert not stats.topic_line("Post Reply to the harbour office")


def test_a_box_of_many_nested_statistics_lines_is_read_in_a_bounded_time():
    import time

    from lxml import html as lxml_html

    # Thousands of lines of counts and a deep nesting of boxes of no text: each box is
    # read for a few elements at most, and once.
    lines = "<div><p>2 replies</p></div>" * 3_000
    deep = "<div>" * 200 + "x" + "</div>" * 200
    doc = lxml_html.document_fromstring(
        f"<body>{lines}{deep * 20}<p class='post'>{WORDS[0]}</p></body>"
    )
    body = doc.body
    post = body[-1]
    start = time.perf_counter()
    assert stats.drop_stats(body, [post]) == 3_000
    assert time.perf_counter() - start < 1.0
    assert post.getparent() is body


def _short_chat_post(n: int, says: str) -> str:
    return _chat_post(n).replace(f"<p>{_says(n)}</p>", f"<p>{says}</p>")


def test_a_reply_whose_words_read_as_statistics_keeps_them():
    # A reply too short to be found as a post, before the posts found, is shaped as they
    # are: the statistics stop there, its words stay.
    for says in ("2 replies", "Last post: 06/04/2026 at 9:05 am"):
        html = page(
            ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
            "<main><div class='sc-t'><h1>Canal locks</h1><p class='sc-n'>5 answers /</p>"
            f"<div class='sc-q'><div class='sc-a'><div class='sc-b'>gus</div><div class='sc-c'>"
            f"31/03/2026 at 8:00 am</div></div><div class='sc-d'><p>{MORE[0]}</p><p>{MORE[1]}"
            f"</p><p>{MORE[2]}</p></div></div></div><div class='sc-list'>"
            + _short_chat_post(1, says)
            + "".join(_chat_post(n) for n in range(2, 6))
            + "</div></main>",
        )
        text = extract(html, url="https://f.example/coffeehouse/canal-locks/").text
        assert says in text and "5 answers" not in text, text


def test_many_statistics_boxes_are_each_read_once(monkeypatch: Any):
    from lxml import html as lxml_html

    # 10^5 lines of counts before the first post: each box's text is read once.
    read: list[str] = []
    monkeypatch.setattr(stats, "topic_line", lambda t, f=stats.topic_line: read.append(t) or f(t))
    lines = "<div><p>2 replies</p></div>" * 100_000
    doc = lxml_html.document_fromstring(f"<body>{lines}<p class='post'>{WORDS[0]}</p></body>")
    body = doc.body
    assert stats.drop_stats(body, [body[-1]]) == 100_000
    assert len(read) <= 2 * 100_000


def test_a_topic_s_statistics_in_other_languages_or_label_first_go():
    for counts in ("3 réponses", "Replies: 2 · Views: 340", "5 reacties", "2 Antworten"):
        html = _canal_topic(f"<p class='sc-n'>{counts}</p>")
        text = extract(html, url="https://f.example/coffeehouse/canal-locks/").text
        assert counts not in text
        assert MORE[0] in text and WORDS[5] in text
    for line in ("4 respuestas", "6 respostas", "Views: 340", "Antworten: 2 / Aufrufe: 1.204"):
        assert stats.topic_line(line)
    for line in ("2 Antworten auf diese Frage", "Views: many", "Reply: yes"):
        assert not stats.topic_line(line)


def test_a_topic_s_count_starts_with_a_digit():
    # A label over an ellipsis, or an ellipsis before the word, is a line cut short.
    for line in ("Antworten: ...", "Replies: ,", "... replies", "., views"):
        assert not stats.topic_line(line), line
    for line in ("Replies: 2", "1.204 views", "3,5k Aufrufe"):
        assert stats.topic_line(line), line


def _item(n: int) -> str:
    # A board that writes its posts as the items of a list (NodeBB's <ul class='posts'>,
    # vBulletin's <ol id='posts'>); the third post holds a list of its own.
    steps = "<ul><li>Fill the tank first.</li><li>Then check the windlass.</li></ul>"
    return (
        f"<li class='post' data-index='{n}'><div class='post-header'><a class='username' "
        f"href='/user/{USERS[n]}'>{USERS[n]}</a> <time datetime='2026-04-0{n + 1}T09:00:00Z'>"
        f"Apr {n + 1}, 2026</time></div><div class='content'><p>{_says(n)}</p>"
        f"{steps if n == 2 else ''}</div></li>"
    )


def test_posts_written_as_a_list_s_items_print_as_posts_and_their_own_lists_stay():
    for tag in ("ul", "ol"):
        html = page(
            ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
            f"<h1>Canal locks in winter</h1><{tag} class='posts'>"
            + "".join(_item(n) for n in range(6))
            + f"</{tag}>",
        )
        text = extract(html, url="https://f.example/topic/1").text
        lines = text.split("\n")
        for n in range(6):  # no "- " or "1. " before the line, no indent before the words
            at = lines.index(f"{USERS[n]}, Apr {n + 1}, 2026")
            assert lines[at + 1] == _says(n) or lines[at + 2] == _says(n)
        assert "- Fill the tank first." in lines
        assert "- Then check the windlass." in lines


def _generated(n: int, classes: str) -> str:
    # A post drawn with generated class names (a CSS-in-JS build): its author and its date
    # in boxes of their own, named for nothing; the question named otherwise than the
    # answers, in their box.
    return (
        f"<div class='{classes}'><div class='sc-h1 xQ'><div class='sc-n2 aB'>{USERS[n]} B</div>"
        f"<div class='sc-d3 cD'>0{n + 1}/04/2026 at 7:0{n} pm</div></div>"
        f"<div class='sc-b4 eF'><p>{_says(n)}</p></div></div>"
    )


def test_a_question_drawn_otherwise_in_its_answers_box_gets_its_line_of_author_and_date():
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Canal locks"}),
        "<h1>Canal locks in winter</h1><div class='sc-box zZ'>"
        + _generated(0, "sc-q9 qQ")
        + "".join(_generated(n, "") for n in range(1, 6))
        + "</div>",
    )
    lines = [line for line in extract(html, url="https://f.example/t/1").text.split("\n") if line]
    for n in range(6):
        at = lines.index(f"{USERS[n]} B, 0{n + 1}/04/2026 at 7:0{n} pm")
        assert lines[at + 1] == _says(n)
    assert lines.index("ann B, 01/04/2026 at 7:00 pm") < lines.index("ben B, 02/04/2026 at 7:01 pm")


def _nodebb(n: int, words: str, owner: bool = False) -> str:
    # A NodeBB post: an <li> named by no class (the topic's owner's gets a class of its
    # own, after a space) nor id, its microdata's itemprop alone the same on every one.
    name = "ann" if owner else USERS[n]
    return (
        f"<li component='post' class='  {'topic-owner-post' if owner else ''}' "
        f"data-index='{n}' data-pid='{500 + n}' itemprop='comment' itemscope "
        "itemtype='http://schema.org/Comment'><div class='clearfix post-header'><small>"
        f"<strong itemprop='author'><a href='/user/{name}'>{name}</a></strong> <a "
        f"href='/post/{500 + n}'><time datetime='2026-04-0{n + 1}T09:00:00Z'>Apr {n + 1}, "
        f"2026</time></a></small></div><div class='content' component='post/content' "
        f"itemprop='text'>{words}</div><div class='post-footer'><a href='#'>Reply</a>"
        "<a href='#'>Quote</a></div></li>"
    )


def test_a_short_reply_among_posts_named_by_their_itemprop_alone_keeps_its_words():
    posts = [_nodebb(0, f"<p>{_says(0)}</p>", owner=True), _nodebb(1, f"<p>{_says(1)}</p>")]
    posts.append(_nodebb(2, "<p><a class='mention' href='/user/ben'>@ben_smith</a> Yep</p>", True))
    posts += [_nodebb(n, f"<p>{_says(n)}</p>") for n in (3, 4)]
    posts.append(_nodebb(5, "<p>Thanks, all sorted.</p>", owner=True))
    html = page(
        "",
        "<div itemscope itemtype='https://schema.org/DiscussionForumPosting'><h1 "
        "itemprop='headline'>Canal locks</h1><ul class='posts timeline'>"
        + "".join(posts)
        + "</ul></div>",
    )
    text = extract(html, url="https://f.example/topic/1").text
    lines = [line for line in text.split("\n") if line]
    # The short replies, each in page order under its line: the one that answers with a
    # mention in its box of the post's content too (its words are mostly the link's).
    assert lines[lines.index("ann, Apr 3, 2026") + 1] == "@ben_smith Yep"
    assert lines[lines.index("ann, Apr 6, 2026") + 1] == "Thanks, all sorted."
    assert lines.index("ann, Apr 3, 2026") < lines.index("dora, Apr 4, 2026")
