"""wf/extract/kinds/thread.py, tidy.py, byline.py and declared.py on boards' own shapes (small
pages of our own): a topic declared by its microdata under og:type article, a topic of two
posts beside a first post that stands out, the date in a post header's cell or at the end
of a "by ann » date" line, and what leaves the topic between and around its posts."""

from __future__ import annotations

import pytest

from tests.test_wf_extract_kinds import NAV, PROSE, ld, page, post
from wf.extract import extract


def test_og_type_article_yields_to_the_thread_its_microdata_declares():
    posts = "".join(
        post(f"user{n}", f"Jan {n}, 2026", f"Reply number {n}. {PROSE}") for n in range(1, 4)
    )
    html = page(
        "<meta property='og:type' content='article'>",
        NAV
        + "<div itemscope itemtype='https://schema.org/DiscussionForumPosting'>"
        + f"<h1>Saved routes</h1><ul class='posts'>{posts}</ul></div>",
    )
    found = extract(html, url="https://community.example/topic/7")
    assert found.kind == "thread"
    assert "user2, Jan 2, 2026" in found.text.split("\n")
    # A Product in an article's microdata is no product page: only a thread is heard.
    shop = html.replace("DiscussionForumPosting", "Product")
    assert extract(shop, url="https://community.example/topic/7").kind == "article"


def _vb_post(n: int, date: str, author: str, words: str) -> str:
    # A board drawn with tables: the header cell holds the post's icon and its date.
    return (
        f"<div id='edit{n}'><table id='post{n}' class='tborder'><tr><td class='thead'>"
        f"<a name='post{n}'><img src='old.gif' alt='Old'></a> {date} </td>"
        f"<td class='thead'>#<a href='/p{n}'>{n}</a></td></tr><tr><td class='alt2'>"
        f"<a class='bigusername' href='/u/{n}'>{author}</a><div>Registered User</div></td>"
        f"<td class='alt1'><div id='post_message_{n}'>{words}</div></td></tr></table></div>"
    )


def test_a_topic_of_two_posts_beside_a_first_post_that_stands_out():
    first = " ".join([PROSE] * 5)
    html = page(
        "",
        NAV
        + "<table class='tborder'><tr><td><a href='/'>Board</a> &gt; <a href='/f'>Video</a>"
        + "</td></tr></table><div id='posts'>"
        + _vb_post(1, "30th March 2025, 16:26", "ann", first)
        + _vb_post(
            2,
            "2nd April 2025, 13:59",
            "ben",
            "Does turning the hardware acceleration off in the player help at all?",
        )
        + "</div><div class='smallfont'>All times are GMT. The time now is 10:00.</div>",
    )
    found = extract(html, url="https://board.example/showthread.php?t=5")
    assert found.kind == "thread"
    lines = [line for line in found.text.split("\n") if line]
    # The day's ordinal read, the date alone in its cell beside the post's icon.
    assert lines[lines.index("ann, 30th March 2025, 16:26") + 1].startswith("The harbour")
    assert lines[lines.index("ben, 2nd April 2025, 13:59") + 1] == (
        "Does turning the hardware acceleration off in the player help at all?"
    )


def test_an_article_s_head_beside_its_body_is_no_topic_of_two_posts():
    # Two boxes of one shape, both signed: the head holds the page's <h1>.
    html = page(
        "",
        NAV
        + "<main><section class='Section'><h1>A guide to harbours</h1><div class='author'>"
        + "<a href='/a/ann'>Ann Lee</a> <span class='date'>May 1, 2025</span></div>"
        + f"<p>{PROSE}</p></section><section class='Section'><div class='meta'>"
        + "<span class='date'>Updated May 2, 2025</span></div>"
        + "".join(f"<p>Paragraph {n}. {PROSE}</p>" for n in range(12))
        + "</section></main>",
    )
    found = extract(html, url="https://studio.example/blog/harbours")
    assert found.kind != "thread"
    assert "Paragraph 11." in found.text


def _phpbb(n: int, author: str, date: str, profile: bool = True) -> str:
    card = (
        f"<dl class='postprofile'><dt><a class='username-coloured' href='/u/{n}'>{author}</a>"
        "</dt><dd>Posts: 65703</dd></dl>"
        if profile
        else ""
    )
    return (
        f"<div class='post bg{n % 2}'><div class='inner'>{card}<div class='postbody'>"
        f"<h3>{'Re: ' if n > 1 else ''}Tide tables</h3><p class='author'><a href='/p{n}'>"
        f"<img src='icon.gif' alt='Post'></a>by <strong><a href='/u/{n}'>{author}</a>"
        f"</strong> &raquo; {date} </p><div class='content'>Post number {n}. {PROSE}</div>"
        # The first post's note beside its body: the post is not cut down to its body.
        + (
            "<div class='notice'>Moved here from the old board with every reply kept.</div>"
            if n == 1
            else ""
        )
        + "</div></div></div>"
    )


def _phpbb_topic(posts: str) -> tuple[str, list[str]]:
    """The text of a phpBB topic of `posts` under its title, and its lines that hold words."""
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV + f"<div id='page-body'><h2>Tide tables</h2>{posts}</div>",
    )
    text = extract(html, url="https://board.example/viewtopic.php?t=8").text
    return text, [line for line in text.split("\n") if line]


def test_a_by_line_that_ends_in_its_date_gives_both_and_the_topic_s_title_shows_once():
    posts = "".join(
        _phpbb(n, f"user{n}", f"Tue Aug 2{n}, 2019 1:4{n} am", profile=n % 2 == 0)
        for n in range(1, 6)
    )
    text, lines = _phpbb_topic(posts)
    for n in range(1, 6):
        assert f"user{n}, Tue Aug 2{n}, 2019 1:4{n} am" in lines
    assert "»" not in text and "by user" not in text
    # The first post's title, the topic's again, is printed once.
    assert text.count("Tide tables") == 1


@pytest.mark.parametrize(
    ("icon", "by", "date"),
    [
        ("Post", "by", "Tue Aug 2{n}, 2019 1:4{n} am"),
        ("Beitrag", "von", "Di 2{n}. Aug 2019, 1:4{n}"),
        ("Message", "par", "mar. 2{n} août 2019 1:4{n}"),
    ],
)
def test_the_post_icon_s_words_for_screen_readers_are_no_part_of_the_poster_s_name(
    icon: str, by: str, date: str
) -> None:
    # phpBB 3.3 writes the icon's words as text ("<span class='sr-only'>Post</span>"),
    # in the board's language.
    posts = "".join(
        _phpbb(n, f"user{n}", date.format(n=n), profile=False)
        .replace("<img src='icon.gif' alt='Post'>", f"<span class='sr-only'>{icon}</span>")
        .replace("</a>by <strong>", f"</a> {by} <strong>")
        for n in range(1, 6)
    )
    text, lines = _phpbb_topic(posts)
    for n in range(1, 6):
        assert f"user{n}, {date.format(n=n)}" in lines
    assert f"{icon} {by}" not in text


def test_the_topic_s_name_the_page_s_title_gives_leaves_the_thread():
    posts = "".join(_phpbb(n, f"user{n}", f"Tue Aug 2{n}, 2019 1:4{n} am") for n in range(1, 6))
    body = NAV + f"<div id='page-body'><h2>Tide tables</h2>{posts}</div>"

    def text(title: str) -> str:
        html = page(ld({"@type": "DiscussionForumPosting"}), body).replace(
            "<title>T</title>", f"<title>{title}</title>"
        )
        return extract(html, url="https://board.example/viewtopic.php?t=8").text

    # The <title> names the topic, then the board: the heading says it again.
    for title in ("Tide tables - Harbour board", "Harbour board • View topic - Tide tables"):
        found = text(title)
        assert "Tide tables" not in found and "user1, Tue Aug 21, 2019" in found
    # A heading the title does not give whole stays.
    assert text("Tide tables for May - Harbour board").count("Tide tables") == 1


def _ips(n: int, author: str, words: str) -> str:
    return (
        f"<article class='ipsEntry ipsEntry--post' id='elComment_{n}'><aside class="
        f"'ipsEntry__author'><a class='ipsUsername' href='/u/{n}'>{author}</a></aside>"
        f"<div class='ipsEntry__post'><span class='ipsEntry__date'><time datetime="
        f"'2024-08-2{n}T16:29:31Z'>August 2{n}, 2024</time></span><div class='ipsRichText'>"
        f"<p>{words}</p></div></div></article>"
    )


def _discourse(n: int, author: str, lines: list[str], likes: int) -> str:
    return (
        f"<div id='post_{n}' class='topic-body crawler-post'><div class='crawler-post-meta'>"
        f"<span class='creator' itemprop='author' itemscope><a href='/u/{author}'>"
        f"<span itemprop='name'>{author}</span></a></span><span class='crawler-post-infos'>"
        f"<time datetime='2024-07-2{n}'>July 2{n}, 2024, 3:28pm</time>"
        f"<span itemprop='position'>{n + 6}</span></span></div><div class='post' "
        "itemprop='text'>" + "".join(f"<p>{line}</p>" for line in lines) + "</div>"
        "<div itemprop='interactionStatistic' itemscope itemtype='https://schema.org/"
        f"InteractionCounter'><meta itemprop='userInteractionCount' content='{likes}'>"
        f"<span class='post-likes'>{likes} Likes</span></div></div>"
    )


def test_the_likes_a_post_s_microdata_counts_go():
    posts = (
        _discourse(0, "ann", [f"What is a gate? {PROSE}"], 4)
        + _discourse(1, "ben", [f"A box you draw round a cluster. {PROSE}"], 3)
        + _discourse(2, "cy", ["I just clicked a few times.", "Easy."], 1)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    text = extract(html, url="https://forum.example/t/12").text
    assert "cy, July 22, 2024, 3:28pm" in text and "Easy." in text
    assert "Likes" not in text


def test_boxes_without_prose_between_posts_go():
    overview = (
        "<div class='cTopicOverview'><ul><li><span>Replies</span> <span>1</span></li><li>"
        "<span>Views</span> <span>1.9k</span></li></ul><h4>Top Posters In This Topic</h4>"
        "<ul><li><a href='/u/2'>ben</a> <span>1 post</span></li></ul></div>"
    )
    html = page(
        ld({"@type": "DiscussionForumPosting"}),
        NAV
        + "<form action='/multimod'>"
        + _ips(1, "ann", "Is there a roadmap for the ferry timetables? " + PROSE)
        + overview
        + _ips(2, "ben", "The board posts it each spring. " + PROSE)
        + "</form>",
    )
    text = extract(html, url="https://forum.example/topic/9").text
    assert "Is there a roadmap" in text and "The board posts it each spring." in text
    for gone in ("Top Posters", "Views", "1.9k"):
        assert gone not in text, gone


def _answer(n: int, author: str) -> str:
    # A Q&A site's answer: a preview cut short above the full text, which a class of the
    # site's own hides until "more" is clicked (the extractor reads no stylesheet).
    full = f"Answer {n} in full. {PROSE} And the pilots keep a copy on board for the night."
    return (
        f"<div class='answer_item'><div class='meta'><a class='user' href='/u/{n}'>{author}"
        f"</a> <span class='date'>Mar {n}, 2024</span></div><div class='preview'>"
        f"<p>Thanks for the A2A.</p><p>{full[:200]}</p></div><div class='qu-display--none'>"
        f"<p>Thanks for the A2A.</p><p>{full}</p></div></div>"
    )


def test_a_post_s_preview_above_its_full_text_goes():
    answers = "".join(_answer(n, f"user{n}") for n in range(1, 6))
    for head in (ld({"@type": "QAPage"}), "<meta property='og:type' content='article'>"):
        # Declared, the thread's own rule; else the posts the article rule's choice shows.
        html = page(head, NAV + f"<h1>Where are the tide tables?</h1><div>{answers}</div>")
        found = extract(html, url="https://qa.example/Where-are-the-tide-tables")
        assert found.kind == "thread"
        assert found.text.count("Answer 1 in full.") == 1
        assert found.text.count("Thanks for the A2A.") == 5
        assert all(f"Answer {n} in full." in found.text for n in range(1, 6))


def test_a_box_a_class_hides_leaves_a_thread():
    posts = "".join(
        post(f"user{n}", f"Jan {n}, 2026", f"Reply number {n}. {PROSE}") for n in range(1, 4)
    )
    notice = "<div class='alert hidden'><span>This topic has been deleted.</span></div>"
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{notice}{posts}</main>")
    text = extract(html, url="https://community.example/topic/8").text
    assert "Reply number 3." in text and "deleted" not in text


def _vb4(n: int, date: str, author: str, words: str, edited: str = "") -> str:
    # A board's post of <div>s named by its number alone; the header holds the date, and
    # the note of an edit below the message names a time of its own.
    note = (
        f"<div class='smallfont'><hr><em>Last edited by {author}; {edited} at "
        "<span class='time'>9:17 am</span></em></div>"
        if edited
        else ""
    )
    return (
        f"<div id='edit{n}'><div id='post{n}'><div class='trow thead'><div class='tcell'>"
        f"<a name='post{n}'><img src='old.gif' alt='Old'></a> {date} </div><div class="
        f"'tcell'>#<a href='/p{n}'>{n}</a></div></div><div class='trow'><div class='tcell "
        f"alt2'><a class='bigusername' href='/u/{author}'>{author}</a><div>Join Date: Aug "
        f"2008</div></div><div class='tcell alt1'><div id='post_message_{n}'>{words}</div>"
        f"{note}</div></div></div></div>"
    )


def test_posts_named_by_their_number_a_short_one_among_them_and_not_the_edit_s_time():
    posts = (
        _vb4(1, "Feb 14, 2026 | 9:05 pm", "ann", f"Day one. {PROSE}", edited="Feb 17, 2026")
        + _vb4(2, "Feb 14, 2026 | 9:07 pm", "ann", "Contents:<br>Day one<br>Day two")
        + _vb4(3, "Feb 15, 2026 | 8:00 am", "ben", f"Day two. {PROSE}")
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<div id='posts'>{posts}</div>")
    lines = [line for line in extract(html, url="https://board.example/t/4").text.split("\n")]
    lines = [line for line in lines if line]
    assert lines[lines.index("ann, Feb 14, 2026 | 9:05 pm") + 1].startswith("Day one.")
    # The short reply keeps its words (its card and its body's box share a name).
    short = lines.index("ann, Feb 14, 2026 | 9:07 pm")
    assert "Contents:" in lines[short + 1 : short + 3]
    assert "ben, Feb 15, 2026 | 8:00 am" in lines
    assert lines.count("Join Date: Aug 2008") <= 1


def _postbit(n: int, author: str, words: str, quote: str = "") -> str:
    # vBulletin 4's post: its date in the head above, the author's card beside the body
    # (a <blockquote>), a quote's "Originally Posted by" in a box named for the posting.
    if quote:
        quote = (
            "<div class='bbcode_container'><div class='bbcode_quote'><div class="
            "'quote_container'><div class='bbcode_postedby'><img src='q.png' alt='Quote'> "
            f"Originally Posted by <strong>ann</strong> <a href='/p1'><img alt='View Post'></a>"
            f"</div><div class='message'>{quote}</div></div></div></div>"
        )
    return (
        f"<li class='postbitlegacy postcontainer' id='post_{n}'><div class='posthead'><span "
        f"class='postdate old'><span class='date'>03-0{n}-2024,&nbsp;<span class='time'>10:0"
        f"{n} AM</span></span></span></div><div class='postdetails'><div class='userinfo'>"
        f"<a class='username' href='/member.php?u={n}'><strong>{author}</strong></a><span "
        "class='usertitle'>Senior Member</span></div><div class='postbody'><div class="
        f"'content'><blockquote class='postcontent restore'>{quote}{words}</blockquote>"
        "</div></div></div></li>"
    )


def test_a_quote_s_attribution_named_for_the_posting_is_no_date_of_the_post():
    posts = (
        _postbit(1, "ann", f"Day one. {PROSE}")
        + _postbit(2, "ben", "Day two. The keeper let us through.", quote="Day one. The gates")
        + _postbit(3, "cy", f"Day three. {PROSE}")
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<ol id='posts'>{posts}</ol>")
    lines = extract(html, url="https://board.example/showthread.php?t=5").text.split("\n")
    assert "ben, 03-02-2024, 10:02 AM" in lines
    assert not any(line.startswith("ben, Originally") for line in lines)


def test_a_line_a_nested_reply_quotes_stays_in_its_post():
    line = "The tables hang in the pilots' office, left of the door by the gate."
    reply = (
        "<div class='comment'><div class='meta'><a class='user' href='/u/9'>cy</a> <span "
        f"class='date'>Mar 9, 2024</span></div><blockquote><p>{line}</p></blockquote>"
        f"<p>And a copy is kept on board. {PROSE}</p></div>"
    )
    answers = "".join(
        f"<div class='comment'><div class='meta'><a class='user' href='/u/{n}'>user{n}</a> "
        f"<span class='date'>Mar {n}, 2024</span></div><p>Answer {n}. {PROSE}</p>"
        + (f"<p>{line}</p>{reply}" if n == 1 else "")
        + "</div>"
        for n in range(1, 4)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{answers}</main>")
    text = extract(html, url="https://forum.example/t/30").text
    assert line in text.split("\n")


def test_a_post_named_for_no_author_gets_the_term_of_its_profile():
    posts = "".join(
        f"<div id='p{n}' class='blockpost'><h2><span><a href='/t?pid={n}#p{n}'>2025-11-0{n} "
        f"15:14:37</a></span></h2><div class='box'><div class='postleft'><dl><dt><strong>"
        f"{who}</strong></dt><dd><strong>Member</strong></dd><dd><span>Posts: 1</span></dd>"
        f"</dl></div><div class='postright'><div class='postmsg'><p>Post {n}. {PROSE}</p>"
        "<dl><dt>Term</dt><dd>A definition in the body is no profile.</dd></dl></div></div>"
        "</div></div>"
        for n, who in ((1, "ann"), (2, "ben"), (3, "cy"))
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<div id='brdmain'>{posts}</div>")
    lines = extract(html, url="https://board.example/viewtopic.php?id=31").text.split("\n")
    assert "ann, 2025-11-01 15:14:37" in lines and "cy, 2025-11-03 15:14:37" in lines
    assert "Term" in lines


def _shreddit(tag: str, author: str, minute: int, words: str, inner: str = "") -> str:
    # New Reddit: each post and comment a web component that names its author in an
    # attribute; the time shown short; the replies nested in the comment they answer.
    when = f"2024-03-02T10:{minute:02d}:00.000Z"
    slot = "post" if tag == "shreddit-post" else "comment"
    return (
        f"<{tag} author='{author}' created='{when}' score='9'><div slot='commentMeta'>"
        f"<faceplate-hovercard><a href='/user/{author}/'>{author}</a></faceplate-hovercard>"
        f" <a href='/c/{minute}/'><faceplate-timeago ts='{when}'><time datetime='{when}'>"
        f"1y ago</time></faceplate-timeago></a></div><div slot='{slot}' "
        f"id='t1_{minute}-{slot}-rtjson-content' class='md'><p>{words}</p></div>"
        "<shreddit-comment-action-row><button>Reply</button><button>Share</button>"
        f"</shreddit-comment-action-row>{inner}</{tag}>"
    )


def _reddit(head: str) -> str:
    reply = _shreddit("shreddit-comment", "ann", 40, f"Nested reply. {PROSE}")
    comments = _shreddit(
        "shreddit-comment", "ben", 2, f"First comment. {PROSE}", reply
    ) + _shreddit("shreddit-comment", "cy", 50, f"Second comment. {PROSE}")
    question = _shreddit("shreddit-post", "ann", 1, f"The question. {PROSE} {PROSE}")
    return page(
        head,
        f"<shreddit-app>{NAV}<main>{question}<shreddit-comment-tree>{comments}"
        "</shreddit-comment-tree></main></shreddit-app>",
    )


def test_new_reddit_posts_and_comments_are_custom_elements():
    html = _reddit(ld({"@type": "DiscussionForumPosting"}))
    found = extract(html, url="https://social.example/r/boats/comments/abc/tides/")
    lines = [line for line in found.text.split("\n") if line]
    assert found.kind == "thread"
    # Every post and comment, the reply nested in the first, each after its own line.
    assert lines[lines.index("ben, 1y ago") + 1].startswith("First comment.")
    assert lines.index("ann, 1y ago", 1) == lines.index(f"Nested reply. {PROSE}") - 1
    assert lines[lines.index("cy, 1y ago") + 1].startswith("Second comment.")
    assert "Share" not in lines and lines.count("ben") == 0


def test_custom_elements_are_boxes_in_a_threads_walk_only():
    from wf.extract.parse import parse
    from wf.extract.records import walk

    root = parse(
        "<html><body><x-post><div><p>Words.</p></div><x-when><time>1y ago</time></x-when>"
        "</x-post></body></html>"
    )
    body = root.find("body")
    assert [b.tag for b in walk(body, custom=True)] == ["body", "x-post", "div", "p"]
    assert [b.tag for b in walk(body)] == ["body", "div", "p"]


def test_a_threads_path_names_a_page_that_declares_no_kind():
    html = _reddit("<meta property='og:type' content='website'>")
    found = extract(html, url="https://social.example/r/boats/comments/abc/tides/")
    assert found.kind == "thread" and "Second comment." in found.text
    # Elsewhere the article rule chooses, its comments named as boilerplate; so on a
    # news site's tag page at /topic/.
    for path in ("r/boats/about/abc/tides/", "topic/tides/"):
        assert "Second comment." not in extract(html, url=f"https://x.example/{path}").text


def test_a_note_of_edits_written_inline_leaves_the_post():
    def body(n: int) -> str:
        note = (
            f"<span class='light'><strong>Edited <time datetime='2025-08-26'>August 2{n}"
            "</time> by ann</strong><br>fixed a typo</span>"
        )
        words = f"<p>Post {n}. {PROSE}</p><p>Edited photos need a calibrated screen.</p>"
        return words + (note if n < 3 else "")

    posts = "".join(
        f"<article class='cPost'><aside class='author'><a class='username' href='/u/{n}'>"
        f"user{n}</a></aside><div class='cPost_content'><time>Aug {n}</time>"
        f"<div class='richText'>{body(n)}</div></div></article>"
        for n in range(1, 4)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    text = extract(html, url="https://forum.example/topic/9-lenses/").text
    assert "Post 1." in text and "Post 3." in text
    assert "Edited August" not in text and "fixed a typo" not in text
    assert text.count("Edited photos need a calibrated screen.") == 3


def _old_reddit_comment(n: int, author: str, words: str, children: str = "") -> str:
    # Old Reddit: a comment's tagline (its collapse control, author, score, time) above
    # its body, its buttons below, its replies nested in its `child` box.
    return (
        f"<div class='thing comment' id='thing_t1_{n}' data-author='{author}'><div "
        "class='midcol'><div class='arrow up'></div></div><div class='entry'><p class="
        f"'tagline'><a href='#' class='expand'>[–]</a><a href='/user/{author}' class="
        f"'author'>{author}</a> <span class='score'>5 points</span> <time datetime="
        f"'2024-03-02T10:0{n}:00'>1 year ago</time></p><form class='usertext'><div "
        f"class='usertext-body'><div class='md'><p>{words}</p></div></div></form><ul "
        "class='flat-list buttons'><li><a href='#'>permalink</a></li><li><a href='#'>"
        f"reply</a></li></ul></div><div class='child'>{children}</div></div>"
    )


def test_a_reply_nested_in_a_comment_gets_its_line_and_loses_its_tagline():
    reply = _old_reddit_comment(2, "ann", f"Nested reply. {PROSE}")
    comments = "".join(
        _old_reddit_comment(n, who, f"Comment {n}. {PROSE}", reply if n == 1 else "")
        for n, who in ((1, "ben"), (3, "cy"), (4, "dee"))
    )
    html = page(
        "<meta property='og:type' content='website'>",
        NAV + f"<div class='commentarea'><div class='sitetable nested'>{comments}</div></div>",
    )
    found = extract(html, url="https://old.example/r/boats/comments/abc/tides/")
    lines = [line for line in found.text.split("\n") if line]
    assert lines[lines.index("ann, 1 year ago") + 1] == f"Nested reply. {PROSE}"
    assert lines[lines.index("dee, 1 year ago") + 1] == f"Comment 4. {PROSE}"


def _profiled(who: str, n: int) -> str:
    # An answer whose byline is a link to its author's profile and nothing else names them.
    return (
        f"<div class='answer'><div class='q-box'><a href='/profile/{who.replace(' ', '-')}'>"
        f"{who}</a> <time>Mar {n}, 2024</time></div><div class='q-text'><p>Answer {n}. "
        f"{PROSE} {PROSE}</p></div></div>"
    )


def test_a_post_named_for_no_author_gets_the_name_of_its_profile_link():
    answers = "".join(
        _profiled(who, n) for n, who in enumerate(("Ann Lee", "Ben Orr", "Cy Dee"), 1)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{answers}</main>")
    lines = extract(html, url="https://answers.example/Why-tides").text.split("\n")
    assert "Ann Lee, Mar 1, 2024" in lines and "Cy Dee, Mar 3, 2024" in lines


def test_posts_shown_under_og_type_article_alone_are_read_as_a_thread():
    answers = "".join(
        _profiled(who, n) for n, who in enumerate(("Ann Lee", "Ben Orr", "Cy Dee", "Di Fox"), 1)
    )
    html = page(
        "<meta property='og:type' content='article'>",
        NAV + f"<main><h1>Why do tides turn late?</h1><div>{answers}</div></main>",
    )
    found = extract(html, url="https://answers.example/Why-tides")
    assert found.kind == "thread"
    assert "Ben Orr, Mar 2, 2024" in found.text.split("\n")
    # An article its JSON-LD declares stays the article rule's, its boxes as they are.
    declared = html.replace("<title>T</title>", "<title>T</title>" + ld({"@type": "Article"}))
    assert "Ben Orr, Mar 2, 2024" not in extract(declared, url="https://answers.example/x").text


def test_a_post_named_for_no_author_gets_the_name_above_its_date():
    # A header drawn with generated class names: the name's box, then the date's.
    posts = "".join(
        f"<div class='sc-k{n}'><div class='sc-a'><div class='sc-b'>{who}</div><div "
        f"class='sc-c'>28/11/2025 at 7:2{n} pm</div></div><div class='sc-d'><p>Reply {n}. "
        f"{PROSE}</p></div></div>"
        for n, who in ((1, "Otter B(197)"), (2, "Indi I(164)"), (3, "Elle D(111)"))
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    lines = extract(html, url="https://chat.example/coffeehouse/early-years/").text.split("\n")
    assert "Indi I(164), 28/11/2025 at 7:22 pm" in lines
    assert lines.count("Indi I(164)") == 0


def test_the_boxes_after_the_last_post_go_with_one_text_set_for_their_tails() -> None:
    # One by one, each box after the last post had its tail joined to the text before it,
    # set again each time: 20000 boxes in a row on a thread's page took 4.7 s. They go at
    # once now (hidden.drop_each).
    from lxml import html as lxml_html

    from tests.helpers import tail_writes
    from wf.extract.kinds.tidy import drop_after

    parser, writes = tail_writes(lambda el: el.get("class") == "post")
    post = "<div class='post'><span class='author'>ann</span><p>A reply.</p></div>"
    row = "".join(f"<div>box</div>w{i} " for i in range(30))
    root = lxml_html.fromstring(f"<div>{post * 2}{row}</div>", parser=parser)
    posts = root.find_class("post")
    drop_after(root, posts)
    assert len(root) == 2
    assert posts[-1].tail == "".join(f"w{i} " for i in range(30))
    assert writes[0] == 1


def _card_post(n: int, date: str, author: str, fields: list[tuple[str, str]], words: str) -> str:
    # A board drawn with boxes: the author's card (name, fields) in a cell beside the body.
    card = "".join(f"<div>{label}: <b>{value}</b></div>" for label, value in fields)
    return (
        f"<div id='edit{n}'><div id='post{n}'><div class='tpost'><div class='trow-group'>"
        f"<div class='trow thead'><div class='tcell'>{date}</div>"
        f"<div class='tcell'>#<a href='/p{n}'>{n}</a></div></div>"
        f"<div class='trow'><div class='tcell alt2'><div class='name'>"
        f"<a class='bigusername' href='/members/{author}.html'>{author}</a></div>"
        f"<div class='smallfont'>{card}</div></div><div class='tcell alt1'>"
        f"<div id='post_message_{n}'>{words}</div></div></div></div></div></div></div>"
    )


def test_the_author_s_card_is_never_the_way_down_to_a_short_reply():
    fields = [("Join Date", "Mar 2009"), ("Location", "Harbour town"), ("Posts", "1,370")]
    long = [*fields, ("Programs", "Harbour pilots guild, tide watchers, quay keepers and more")]
    html = page(
        "",
        NAV
        + "<h1>Tide tables</h1><div id='posts'>"
        + _card_post(1, "Feb 14, 2026 | 9:05 pm", "ann", fields, " ".join([PROSE] * 3))
        + _card_post(2, "Feb 14, 2026 | 10:24 pm", "ben", long, "Very exciting! Looking forward.")
        + _card_post(3, "Feb 15, 2026 | 8:00 am", "cal", fields, f"Thanks. {PROSE}")
        + _card_post(4, "Feb 15, 2026 | 9:00 am", "dee", fields, f"And again. {PROSE}")
        + "</div>",
    )
    found = extract(html, url="https://board.example/threads/tide.5")
    assert found.kind == "thread"
    lines = [line for line in found.text.split("\n") if line]
    # A card's field of prose ("Programs: ...") is the card's, and the reply is the body.
    assert (
        lines[lines.index("ben, Feb 14, 2026 | 10:24 pm") + 1] == "Very exciting! Looking forward."
    )
    assert not any("Programs" in line or "Join Date" in line for line in lines)


def test_a_post_of_thousands_of_cards_costs_a_look_up_each(monkeypatch):
    # A hostile post of 2000 boxes, each an author's card of fields as long as prose: each
    # is looked up among the cards once, not compared with all of them (a list's
    # look-ups cost a post of 10 000 cards half a second). The walk's records count the
    # comparisons made between two of them.
    from wf.extract import records

    compared = [0]

    class Counted(records.BlockRecord):
        __slots__ = ()
        __hash__ = object.__hash__

        def __eq__(self, other: object) -> bool:
            compared[0] += 1
            return self is other

    monkeypatch.setattr(records, "BlockRecord", Counted)
    tags = ("div", "section", "aside")
    cards = "".join(
        f"<{tags[n % 3]} class='k{chr(97 + n % 26)}{chr(97 + n // 26 % 26)}{n // 676}'><dl>"
        f"<dd>Join Date: Aug 2008, the harbour's busiest and longest summer {n}</dd>"
        f"<dd>Location: the north quay, berth {n}, beside the cranes and the old sheds</dd>"
        f"</dl></{tags[n % 3]}>"
        for n in range(2000)
    )
    posts = "".join(
        post("ann" if n == 1 else f"u{n}", f"Feb {n}, 2026", cards if n == 1 else PROSE)
        for n in range(1, 6)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<h1>Tide tables</h1>{posts}")
    found = extract(html, url="https://board.example/threads/tide.5")
    assert found.kind == "thread" and "Join Date" not in found.text
    assert compared[0] < 2000


def _panel(author: str, words: str) -> str:
    # vBulletin 3's quote: a label, then a panel of generic names, the attribution first.
    return (
        "<div style='margin:1rem'><div><label>Quote:</label></div><div class='panel alt2' "
        f"style='border:1px inset'><div>Originally Posted by <strong>{author}</strong> <a "
        "href='/p1' title='View Post'><i class='fa-solid fa-circle-arrow-right'></i></a></div>"
        f"<div style='font-style:italic'>{words}</div></div></div>"
    )


def test_a_quote_drawn_as_a_panel_of_generic_names_that_repeats_a_post_above_goes():
    first = (
        "The harbour master opens the lock at dawn, and the queue of boats forms an hour "
        "before, so the early ones wait by the wall with their engines off and ropes ready."
    )
    elsewhere = "Tables are printed each Monday and left at the ferry terminal for all."
    html = page(
        "",
        NAV
        + "<div id='posts'>"
        + _vb_post(1, "30th March 2025, 16:26", "ann", f"{first} {PROSE}")
        + _vb_post(2, "2nd April 2025, 13:59", "ben", _panel("ann", first) + f"Noted. {PROSE}")
        + _vb_post(3, "3rd April 2025, 09:12", "cy", _panel("dora", elsewhere) + f"So? {PROSE}")
        + _vb_post(4, "4th April 2025, 10:40", "dan", f"Thanks all. {PROSE}")
        # A body that starts with the words of an attribution holds the reply's: no quote.
        + _vb_post(
            5, "5th April 2025, 11:02", "eve", f"<div>Originally Posted by ann</div>{first} Agreed."
        )
        + "</div>",
    )
    found = extract(html, url="https://board.example/showthread.php?t=6")
    assert found.kind == "thread"
    assert found.text.count(first) == 2
    assert "Agreed." in found.text
    assert found.text.count("Originally Posted by ann") == 1  # eve's
    assert "Noted. The harbour" in found.text
    # A quote of words the thread does not show above stays, its attribution with it.
    assert elsewhere in found.text and "Originally Posted by dora" in found.text


def test_a_panel_whose_third_box_holds_words_is_the_reply_not_a_quote():
    from lxml import html as lxml_html

    from wf.extract.kinds import quoted

    # A reply written in the panel under the words it quotes: the panel is the reply's
    # body, not a quote that repeats the post above, and its words stay. A third box that
    # draws an icon only still makes a quote.
    first = (
        "The harbour master opens the lock at dawn, and the queue of boats forms an hour "
        "before, so the early ones wait by the wall with their engines off and ropes ready."
    )
    reply = "Same at our wall, every spring."
    attribution = "<div>Originally Posted by <strong>ann</strong></div>"
    for third, kept in ((f"<div>{reply}</div>", True), ("<div><i class='icon'></i></div>", False)):
        doc = lxml_html.fromstring(
            f"<div><div class='p'><div>{first}</div></div><div class='p'><div>{attribution}"
            f"<div>{first}</div>{third}</div></div></div>"
        )
        posts = [type("Post", (), {"el": el})() for el in doc]
        assert quoted.drop_repeats(posts) == (0 if kept else 1)
        assert doc[1].text_content().count(first) == (1 if kept else 0)
        assert (reply in doc.text_content()) == kept


def _topic(first: str, second: str) -> str:
    # A topic of four posts: ann's first, then ben's (as given, its whole table), two more.
    return page(
        "",
        NAV
        + "<div id='posts'>"
        + _vb_post(1, "30th March 2025, 16:26", "ann", first)
        + second
        + _vb_post(3, "3rd April 2025, 09:12", "cy", f"So? {PROSE}")
        + _vb_post(4, "4th April 2025, 10:40", "dan", f"Thanks all. {PROSE}")
        + "</div>",
    )


def test_a_short_reply_under_a_quote_panel_keeps_its_words():
    # The way down to a post's body cuts the boxes beside the one that holds prose: under a
    # panel that quotes a long post, a reply of one short line is such a box. It stays,
    # written after the panel's frame or as the panel's third box.
    first = (
        "The harbour master opens the lock at dawn, and the queue of boats forms an hour "
        "before, so the early ones wait by the wall with their engines off and ropes ready."
    )
    reply = "Same at our wall, every spring."
    attribution = "<div>Originally Posted by <strong>ann</strong></div>"
    bodies = (
        _panel("ann", first) + f"<div>{reply}</div>",
        f"<div class='panel alt2'>{attribution}<div>{first}</div><div>{reply}</div></div>",
    )
    for body in bodies:
        html = _topic(f"{first} {PROSE}", _vb_post(2, "2nd April 2025, 13:59", "ben", body))
        found = extract(html, url="https://board.example/showthread.php?t=6")
        assert found.kind == "thread"
        lines = found.text.split("\n")
        assert lines.index(reply) > lines.index("ben, 2nd April 2025, 13:59")
        assert "Registered User" not in found.text


def test_a_quote_panel_is_told_by_words_of_attribution_of_any_spelling(monkeypatch):
    import importlib

    from lxml import html as lxml_html

    from wf.extract.kinds import posts_tuning, quoted

    first = (
        "The harbour master opens the lock at dawn, and the queue of boats forms an hour "
        "before, so the early ones wait by the wall with their engines off and ropes ready."
    )

    def dropped(said: str) -> int:
        doc = lxml_html.fromstring(
            f"<div><div class='p'><div>{first}</div></div><div class='p'><div><div>{said} "
            f"<strong>ann</strong></div><div>{first}</div></div><div>Right.</div></div></div>"
        )
        return quoted.drop_repeats([type("Post", (), {"el": el})() for el in doc])

    for said in ("Zitat von:", "Citation de:", "Cita de:", "Citaat van:", "Quote from:"):
        assert dropped(said) == 1
    assert dropped("Ann wrote") == 0
    assert dropped("Quote from") == 0  # Simple Machines Forum writes the colon
    # A board's words with an apostrophe are no end to the query's string.
    words = (*posts_tuning.QUOTE_ATTRIBUTIONS, "L'auteur a écrit")
    monkeypatch.setattr(posts_tuning, "QUOTE_ATTRIBUTIONS", words)
    try:
        importlib.reload(quoted)
        assert dropped("L'auteur a écrit") == 1
    finally:
        monkeypatch.undo()
        importlib.reload(quoted)


def test_a_signature_or_a_control_after_a_panel_that_holds_the_reply_goes():
    # The panel holds the quote and the reply as its third box: the words after the
    # post's message are its signature or a button's, cut as before, not a reply's.
    first = (
        "The harbour master opens the lock at dawn, and the queue of boats forms an hour "
        "before, so the early ones wait by the wall with their engines off and ropes ready."
    )
    reply = "Same at our wall, every spring."
    attribution = "<div>Originally Posted by <strong>ann</strong></div>"
    body = f"<div class='panel alt2'>{attribution}<div>{first}</div><div>{reply}</div></div>"
    for after, gone in (
        ("<div>__________________<br>Sail on, ben from Hull</div>", "Sail on"),
        ("<div class='postcontrols'><span>Reply With Quote</span></div>", "Reply With Quote"),
    ):
        message = _vb_post(2, "2nd April 2025, 13:59", "ben", body)
        tail = message.replace("</div></td></tr></table>", f"</div>{after}</td></tr></table>")
        html = _topic(f"{first} {PROSE}", tail)
        text = extract(html, url="https://board.example/showthread.php?t=6").text
        assert reply in text
        assert gone not in text


def test_a_post_whose_first_line_starts_with_quote_from_keeps_its_reply():
    # "Quote from the harbour rules: ..." is a post's own line, not Simple Machines
    # Forum's attribution ("Quote from: ann"): the box of it and the reply after it is no
    # quote, and goes not as one for repeating the line a post above printed.
    rule = (
        "Quote from the harbour rules: boats wait by the wall with their engines off and "
        "ropes ready before the lock opens at dawn, keep to the order in which they came, "
        "leave the berths by the crane free for the pilot boats and the ferry, and call "
        "the harbour master on channel twelve before they pass the outer light."
    )
    reply = "Yes, and every skipper at our wall keeps to them all spring."
    html = _topic(
        f"<div>{rule}</div><div>{PROSE}</div>",
        _vb_post(2, "2nd April 2025, 13:59", "ben", f"<div>{rule}</div><div>{reply}</div>"),
    )
    text = extract(html, url="https://board.example/showthread.php?t=6").text
    assert reply in text
    assert text.count(rule) == 2


def test_many_posts_each_a_quote_and_a_line_are_each_read_once(monkeypatch):
    from wf.extract.kinds import posts_tuning

    # Each post a panel that quotes and a short line after it: the look for a quote beside
    # the way down reads each post's boxes a bounded number of times.
    reads = [0]

    class Counted(tuple):
        def __iter__(self):
            reads[0] += 1
            return super().__iter__()

    said = Counted(posts_tuning.QUOTE_ATTRIBUTIONS)
    monkeypatch.setattr(posts_tuning, "QUOTE_ATTRIBUTIONS", said)
    n = 2_000
    body = f"<div class='panel'><div>Quote from: ann</div><div>{PROSE}</div></div><div>Same here.</div>"
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Locks"}),
        "<div id='posts'>"
        + "".join(_vb_post(k, "2nd April 2025, 13:59", f"u{k}", body) for k in range(n))
        + "</div>",
    )
    text = extract(html, url="https://board.example/showthread.php?t=6").text
    assert text.count("Same here.") == n
    assert n <= reads[0] <= 4 * n
