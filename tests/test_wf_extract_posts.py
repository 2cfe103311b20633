"""wf/extract/kinds/posts.py, byline.py and declared.py on a board that draws each post as
a card of its author (name, rank, counts, "Logged") beside the post's area (its title
and date as links, its body) and the author's signature under it (small pages of our
own): the topic named in the URL's query, the name that heads the card, the signature
left out, a body of one short line kept beside its links. Then what else of a post stays
or goes as it is written: the fields of the author's card go; a link the poster gave, a
reply of a few words in a box named for a comment, a quote drawn as an aside, a quote
of a few words under its linked attribution and a greeting that names the person
answered ("Hi @ben") stay."""

from __future__ import annotations

from tests.test_wf_extract_kinds import NAV, PROSE, ld, page
from wf.extract import extract
from wf.extract.kinds.declared import by_path

TOPIC = "https://board.example/community/index.php?topic=589061.0"
DATES = ("June 04, 2024, 11:23:55 AM", "June 09, 2024, 03:29:46 AM", "June 10, 2024, 08:00:00 PM")


def _card(author: str, rank: str = "Sophist Member") -> str:
    return (
        f"<div class='poster'><h4><a href='/index.php?action=profile;u=7'>{author}</a></h4>"
        f"<ul class='user_info'><li class='postgroup'>{rank}</li>"
        "<li class='postcount'>Posts: 1,006</li><li class='poster_ip'>Logged</li></ul></div>"
    )


def _post(n: int, author: str, words: str, rank: str = "Sophist Member") -> str:
    return (
        f"<div class='windowbg' id='msg{n}'><div class='post_wrapper'>{_card(author, rank)}"
        "<div class='postarea'><div class='keyinfo'><div class='subject_title'>"
        f"<a href='/index.php?msg={n}'>Re: How is everyone implementing AI into their "
        f"forums?</a></div><div class='postinfo'><a href='/index.php?msg={n}' "
        f"class='smalltext'>{DATES[n - 1]}</a></div></div><div class='post'>"
        f"<div class='inner'>{words}</div></div></div><div class='moderatorbar'>"
        f"<div class='signature'>Holder of controversial views, all of which are my own, since {2000 + n}."
        "</div></div></div></div>"
    )


def _topic(second: str = PROSE, rank: str = "Sophist Member") -> str:
    posts = (
        _post(1, "ann", PROSE + " " + PROSE)
        + _post(2, "ben", second, rank)
        + _post(3, "cat", "Last time I asked, it could not count the syllables right.")
    )
    return page("", NAV + f"<div id='forumposts'><form id='quickModForm'>{posts}</form></div>")


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def test_a_topic_named_in_the_query_is_a_thread_s_page():
    assert by_path("https://board.example/index.php?topic=589061.0") == "thread"
    assert by_path("https://board.example/index.php?board=2.0;topic=17") == "thread"
    assert by_path("https://board.example/index.php?action=help&topic=7") == "thread"
    # Not a query that merely mentions a topic, nor a path segment named so.
    assert by_path("https://shop.example/search?q=topic=7") is None
    assert by_path("https://news.example/index.php?topic=software") is None
    assert by_path("https://news.example/topic/7") is None


def test_each_post_of_a_topic_named_in_the_query_starts_with_its_author_and_date():
    # Three posts: too few to show a thread on a page that declares none; the URL
    # names it one, so each post gets its line.
    found = extract(_topic(), url=TOPIC)
    assert found.kind == "thread"
    lines = _lines(found.text)
    assert f"ann, {DATES[0]}" in lines
    assert lines[lines.index(f"ben, {DATES[1]}") + 1] == PROSE


def test_the_name_that_heads_the_author_s_card_is_the_author():
    # The card's boxes named for the user: its rank list and "Logged" (the poster's
    # address) come after the name; neither is the author.
    lines = _lines(extract(_topic(), url=TOPIC).text)
    assert f"cat, {DATES[2]}" in lines
    assert not any(line.startswith(("Logged", "Sophist Member")) for line in lines)
    assert "Logged" not in lines and "- Logged" not in lines


def test_a_long_card_s_name_is_the_link_that_heads_it():
    # Rank, badges and counts make the card longer than a byline: its name's link heads it.
    rank = "Resident Overthinker</li><li>Board Friend</li><li>Megaposter of the Year 2023"
    lines = _lines(extract(_topic(rank=rank), url=TOPIC).text)
    assert f"ben, {DATES[1]}" in lines
    assert not any("Overthinker" in line or "Logged" in line for line in lines)


def test_the_author_s_signature_under_each_post_leaves_the_thread():
    text = extract(_topic(), url=TOPIC).text
    assert "Holder of controversial views" not in text
    assert PROSE in text


def test_a_body_of_one_short_line_beside_its_title_and_date_links_stays():
    # The post's area holds more link text (the reply's title, its date) than prose.
    lines = _lines(extract(_topic(), url=TOPIC).text)
    last = lines.index(f"cat, {DATES[2]}")
    assert lines[last + 1] == "Last time I asked, it could not count the syllables right."


def test_a_date_shown_with_its_preposition_is_written_without_it():
    # Hacker News shows "on Dec 27, 2023" in each comment's head; German boards "am".
    dates = ("on Jan 2, 2026", "am 5. März 2026", "on 2026-01-04")
    posts = "".join(
        f"<div class='comment'><span class='comhead'><a href='/user?id={name}' "
        f"class='hnuser'>{name}</a> <span class='age'><a href='/item?id={n}'>{date}</a>"
        f"</span></span><div class='commtext'>{PROSE}</div></div>"
        for n, (name, date) in enumerate(zip(("ann", "ben", "cat"), dates, strict=True))
    )
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Tide tables"}),
        NAV + f"<div class='comment-tree'>{posts}</div>",
    )
    lines = _lines(extract(html, url="https://news.example/item?id=1").text)
    assert "ann, Jan 2, 2026" in lines
    assert "ben, 5. März 2026" in lines
    assert "cat, 2026-01-04" in lines


def test_a_date_shown_with_the_verb_of_its_post_is_written_without_it():
    # A Q&A site's "asked Mar 28, 2014" over the question, "answered ..." over each answer.
    verbs = ("asked", "answered", "answered", "commented on")
    posts = "".join(
        f"<div class='post'><div class='post-signature'><div class='user-action-time'>{verb} "
        f"<span class='relativetime'>Mar 2{n}, 2014</span></div><div class='user-details'>"
        f"<a href='/users/{n}/user{n}'>user{n}</a></div></div><div class='post-text'>"
        f"<p>Post number {n}. {PROSE}</p></div></div>"
        for n, verb in enumerate(verbs, 1)
    )
    html = page(ld({"@type": "QAPage"}), NAV + f"<div id='mainbar'>{posts}</div>")
    lines = _lines(extract(html, url="https://qa.example/questions/7/tides").text)
    for n in range(1, 5):
        assert f"user{n}, Mar 2{n}, 2014" in lines


def _tagged(n: int, author: str) -> str:
    # Old Reddit's comment: a head line of its own ("[–] ann 5 points 2 years ago (2
    # children)", all three scores written for the stylesheet to pick), the body, buttons.
    return (
        f"<div class='thing comment' data-author='{author}' id='thing_t1_{n}'>"
        "<div class='entry'><p class='tagline'><a href='#' class='expand'>[–]</a>"
        f"<a href='/user/{author}' class='author'>{author}</a> <span class='score dislikes'>"
        "4 points</span><span class='score unvoted'>5 points</span><span class='score likes'>"
        f"6 points</span> <time datetime='2024-03-0{n}T10:00:00Z'>Mar {n}, 2024</time> "
        "<a href='#' class='numchildren'>(2 children)</a></p><form class='usertext'>"
        f"<div class='md'><p>Reply {n}. {PROSE}</p></div></form><ul class='flat-list buttons'>"
        "<li><a href='#p'>permalink</a></li><li><a href='#r'>reply</a></li></ul></div></div>"
    )


def test_a_head_line_of_author_date_and_counts_leaves_with_them():
    comments = "".join(_tagged(n, name) for n, name in ((1, "ann"), (2, "ben"), (3, "cat")))
    html = page("", NAV + f"<div class='sitetable nestedlisting'>{comments}</div>")
    text = extract(html, url="https://old.example/r/harbours/comments/abc/tides/").text
    lines = _lines(text)
    assert lines[lines.index("ben, Mar 2, 2024") + 1] == f"Reply 2. {PROSE}"
    assert "points" not in text and "[–]" not in text and "children" not in text


def test_a_thread_s_author_is_its_first_post_s_when_the_page_names_none():
    # The page's own metadata names no author: the first post's is the thread's.
    html = _topic()
    meta = extract(html, url=TOPIC, metadata=True).metadata or {}
    assert meta.get("author") == "ann"
    # A page that names one keeps it.
    named = html.replace("<title>T</title>", "<title>T</title><meta name='author' content='Dee'>")
    assert (extract(named, url=TOPIC, metadata=True).metadata or {}).get("author") == "Dee"


def _vb_post(n: int, author: str, body: str) -> str:
    # A board that draws the author's card and the post as two cells of one name
    # ("tcell alt2", "tcell alt1"): the card's fields are boxes of a label and a value.
    return (
        f"<div id='post{n}'><div class='tpost'><div class='trow'><div class='tcell alt2'>"
        f"<a class='bigusername' href='/members/{author}.html'>{author}</a>"
        "<div class='smallfont'><div>Join Date: <b>Aug 2008</b></div>"
        "<div>Location: <b>Harbour Town</b></div><div>Posts: <b>1,077</b></div></div></div>"
        f"<div class='tcell alt1'><div class='smallfont'>Mar {n}, 2024 | 9:0{n} pm</div>"
        f"<div id='post_message_{n}'>{body}</div></div></div></div></div>"
    )


def test_the_fields_of_the_author_s_card_leave_a_post_of_pictures_too():
    # A post of pictures alone has no prose to be cut down to: its card stays with it
    # but for its fields ("Join Date: Aug 2008"), which are no one's words.
    posts = (
        _vb_post(1, "ann", PROSE + " " + PROSE)
        + _vb_post(2, "ann", "<img src='/quay.jpg' alt=''>")
        + _vb_post(3, "ben", "Location: the eastern quay. " + PROSE)
    )
    html = page("", NAV + f"<div id='posts'>{posts}</div>")
    text = extract(html, url="https://board.example/forum/trips/1-quay.html").text
    assert "ann, Mar 2, 2024 | 9:02 pm" in _lines(text)
    assert "Join Date" not in text and "Posts: 1,077" not in text and "Harbour Town" not in text
    # A post's own line that starts as a field does stays.
    assert "Location: the eastern quay. " + PROSE in text


def test_a_link_the_poster_gave_stays_and_a_list_of_titled_links_goes():
    # A paragraph of one titled link and a line of pasted addresses are the poster's; a
    # paragraph of other topics' titles is no one's words.
    bodies = (
        f"<p>{PROSE}</p><p><a href='https://tides.example/q'>Tide tables for the eastern "
        "quay, 2024</a></p>",
        f"<p>Same here. {PROSE}</p><p><a href='https://git.example/h/t'>https://git.example/"
        "h/t</a> <a href='https://git.example/h/u'>https://git.example/h/u</a></p>",
        f"<p>Thanks. {PROSE}</p><p><a href='/t/9'>Where the pilots keep their charts</a> "
        "<a href='/t/10'>Opening hours of the harbour office</a></p>",
    )
    posts = "".join(
        f"<div class='comment'><div class='meta'><a class='user' href='/u/{n}'>user{n}</a> "
        f"<span class='date'>Mar {n}, 2024</span></div>{body}</div>"
        for n, body in enumerate(bodies, 1)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    lines = _lines(extract(html, url="https://forum.example/t/31").text)
    assert "Tide tables for the eastern quay, 2024" in lines
    assert "https://git.example/h/t https://git.example/h/u" in lines
    assert not any("charts" in line for line in lines)


def test_a_reply_too_short_to_be_prose_stays_in_a_box_named_for_a_comment():
    # Hacker News names each post's body `comment`, which reads as boilerplate: a reply of
    # a few words stays all the same, and a control so named still goes.
    said = (f"Ann here. {PROSE}", "Only way is up", f"Cat here. {PROSE}")
    posts = "".join(
        f"<div class='athing comtr'><span class='comhead'><a href='/user?id={name}' "
        f"class='hnuser'>{name}</a> <span class='age'><a href='/item?id={n}'>on Jan {n}, "
        f"2026</a></span></span><div class='comment'><div class='commtext'>{words}</div>"
        "<div class='comment-reply'><a href='/reply'>reply</a></div></div></div>"
        for n, (name, words) in enumerate(zip(("ann", "ben", "cat"), said, strict=True), 1)
    )
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Tide tables"}),
        NAV + f"<div class='comment-tree'>{posts}</div>",
    )
    lines = _lines(extract(html, url="https://news.example/item?id=1").text)
    assert lines[lines.index("ben, Jan 2, 2026") + 1] == "Only way is up"
    assert lines[lines.index("cat, Jan 3, 2026") + 1].startswith("Cat here.")
    assert "reply" not in lines


def _aside(name: str, words: str) -> str:
    # Discourse draws a quote as an <aside>: the quoted's name, then the <blockquote>.
    return (
        f"<aside class='quote no-group' data-username='{name}'><div class='title'>"
        f"<img src='/a.png' alt=''> {name}:</div><blockquote><p>{words}</p></blockquote></aside>"
    )


def _discourse_lines(bodies: tuple[str, str, str]) -> list[str]:
    """The lines wf prints of a Discourse topic whose three posts (ann, ben, cat, on
    January 1, 2 and 3) hold ``bodies``."""
    posts = "".join(
        f"<article class='topic-post'><div class='names'><a class='username' href='/u/{who}'>"
        f"{who}</a></div><time datetime='2026-01-0{n}'>Jan {n}, 2026</time>"
        f"<div class='cooked'>{body}</div></article>"
        for n, (who, body) in enumerate(zip(("ann", "ben", "cat"), bodies, strict=True), 1)
    )
    html = page(ld({"@type": "DiscussionForumPosting"}), NAV + f"<main>{posts}</main>")
    return _lines(extract(html, url="https://forum.example/t/tides/32").text)


def test_a_quote_drawn_as_an_aside_stays_unless_it_repeats_a_post_above():
    other = "The pilots of the western quay read the tables twice, once at dusk and once at dawn."
    bodies = (
        f"<p>Ann here. {PROSE}</p>",
        _aside("dan", other) + f"<p>Ben here, quoting another topic. {PROSE}</p>",
        _aside("ann", f"Ann here. {PROSE}") + f"<p>Cat here, quoting the first post. {PROSE}</p>",
    )
    lines = _discourse_lines(bodies)
    assert lines[lines.index("ben, Jan 2, 2026") + 1 : lines.index("ben, Jan 2, 2026") + 3] == [
        "dan:",
        f"> {other}",
    ]
    cat = lines.index("cat, Jan 3, 2026")
    assert lines[cat + 1].startswith("Cat here") and "ann:" not in lines


def test_a_quote_of_another_topic_under_its_linked_title_stays():
    # Discourse's quote of another topic: its title a link, the quote cut off with an
    # ellipsis, so nothing in the aside counts as prose: it is the post's all the same.
    other = (
        "The pilots of the western quay read the tables twice, once at dusk and once at "
        "dawn, and they write the times of the tides on the board beside the harbour office…"
    )
    quoted = (
        "<aside class='quote quote-modified' data-post='1' data-topic='77'><div class='title'>"
        "<img src='/a.png' alt=''><div class='quote-title'><a href='/t/quay-rules/77'>"
        f"Rules of the western quay</a></div></div><blockquote><p>{other}</p></blockquote></aside>"
    )
    bodies = (
        f"<p>Ann here. {PROSE}</p>",
        f"<p>Ben here, see this guide:</p>{quoted}",
        f"<p>Cat here, thanks. {PROSE}</p>",
    )
    lines = _discourse_lines(bodies)
    ben = lines.index("ben, Jan 2, 2026")
    assert f"> {other}" in lines[ben + 2 : lines.index("cat, Jan 3, 2026")]


def test_a_forum_engine_s_tallies_under_a_post_go_and_the_poster_s_words_stay():
    # phpBB's attachment box, SMF's count of likes, vBulletin's badge of the thread's
    # starter and a post's number: each a line of its own that no one wrote.
    attached = (
        "<p>The logs are attached below.</p><dl class='attachbox'><dt>Attachments</dt><dd>"
        "<dl class='file'><dt><a href='/download/file.php?id=53'>guest-logs.7z</a></dt>"
        "<dd>(95.79 KiB) Downloaded 478 times</dd></dl></dd></dl>"
        "<div class='under_message'><ul><li class='like_count'>1 person likes this.</li>"
        "</ul></div><div class='threadstarter'>Original Poster</div><div>#8</div>"
    )
    said = "<p>Downloaded 478 times last week, the guide was.</p><p>3 people like this.</p>"
    found = extract(_topic(second=PROSE + attached + said), url=TOPIC)
    lines = _lines(found.text)
    assert "The logs are attached below." in lines
    for tally in ("Downloaded 478 times", "person likes this", "Original Poster", "#8"):
        assert tally not in found.text.replace("Downloaded 478 times last", "")
    # The same words inside a sentence of the poster's stay.
    assert "Downloaded 478 times last week, the guide was." in lines


def test_a_line_asking_to_join_to_see_a_part_of_a_post_goes():
    # A board's prompt under a picture or an attachment, a link in it: not the poster's.
    gated = (
        "<p>The harbour at dawn.</p><img src='/a/1.jpg' alt='harbour'>"
        "<div class='attach-exif'><a href='/register'><i>Join</i></a> to see EXIF info for "
        "this image (if available)</div><div>Log in to view attachments.</div>"
    )
    said = "<p>Join to see the boats come in: they are worth the early start, I promise you.</p>"
    found = extract(_topic(second=PROSE + gated + said), url=TOPIC)
    lines = _lines(found.text)
    assert "The harbour at dawn." in lines
    assert "EXIF" not in found.text and "view attachments" not in found.text
    # A sentence of the poster's that starts so stays.
    assert any(line.startswith("Join to see the boats come in") for line in lines)


def test_a_quote_of_a_few_words_stays_with_its_attribution_though_both_are_linked():
    # A board links a quote's attribution to the quoted post and adds a link to unfold
    # it: a quote of a few words has more of its text in links than out of them.
    quoted = (
        "<blockquote class='bbCodeBlock bbCodeBlock--quote'><div class='bbCodeBlock-title'>"
        "<a href='/goto/post?id=7'>dan said:</a></div><div class='bbCodeBlock-content'>"
        "<div class='bbCodeBlock-expandContent'>Spring tides - 7/18</div>"
        "<div class='bbCodeBlock-expandLink'><a href='#'>Click to expand...</a></div></div>"
        "</blockquote>"
    )
    bodies = (
        f"<p>Ann here. {PROSE}</p>",
        f"{quoted}<p>Ben here, answering dan's post in another topic. {PROSE}</p>",
        f"<p>Cat here, thanks. {PROSE}</p>",
    )
    lines = [line for line in _discourse_lines(bodies) if line != ">"]
    ben = lines.index("ben, Jan 2, 2026")
    assert lines[ben + 1 : ben + 3] == ["> dan said:", "> Spring tides - 7/18"]
    assert lines[ben + 3].startswith("Ben here")
    assert not any("Click to expand" in line for line in lines)


def test_a_greeting_that_names_the_person_answered_stays():
    # "Hi @ben": the mention links to ben's profile, so that the line is mostly a link.
    bodies = (
        f"<p>Ann here. {PROSE}</p>",
        f"<p>Ben here. {PROSE}</p>",
        "<p>Hi <a class='mention' href='/u/ben'>@ben</a></p>"
        f"<p>Cat here, answering. {PROSE}</p><p><a href='/c/harbour'>Harbour</a></p>",
    )
    lines = _discourse_lines(bodies)
    assert lines[lines.index("cat, Jan 3, 2026") + 1] == "Hi @ben"
    assert "Harbour" not in lines  # a link alone is still no line of the poster's
