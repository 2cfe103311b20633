"""A link aggregator's thread that declares nothing (Lemmy-, old-Reddit-like): a post,
then a nested tree of comments, each with its author, time and score. The thread's rule
(wf/extract/kinds/thread.py) reads it: a few comments at the top level answered at
length count by their tree, and the post above them is the thread's first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wf.extract import extract

SAYS = (
    "The council should have fixed the old piers years ago instead of waiting for them to fail.",
    "A twelve kilometre detour every morning adds up, and the buses were always late because of it.",
    "Steel prices explain part of the overrun, but the design changed twice after the tender too.",
    "The cycle lane is the best part, although the ramps at both ends are far too steep for cargo bikes.",
    "I walked across on Saturday and the view of the harbour from the middle is worth the trip alone.",
    "Nobody mentions the noise: the expansion joints clatter every time a lorry goes over them at night.",
)
USERS = ("river_fan", "quietcoder", "mapmaker", "tollbooth", "lina_k", "hydra")
POST = (
    "The council approved the final plan for the new bridge last night. Building starts "
    "in spring and the old crossing stays closed until the new one opens in two years."
)


def _lemmy(n: int, depth: int) -> str:
    kids = "".join(_lemmy(n * 2 + k, depth + 1) for k in (1, 2)) if depth < 2 else ""
    return (
        f"<li class='comment list-unstyled'><article><div class='small'>"
        f"<a class='person-listing' href='/u/{USERS[n % 6]}'>{USERS[n % 6]}</a> "
        f"<span>{n + 3}</span> <span class='moment-time' data-tippy-content='2026-02-01'>"
        f"{n + 1}h</span></div><div class='md-div'><p>{SAYS[n % 6]}</p></div>"
        "<div class='actions'><a href='#r'>reply</a></div></article>"
        + (f"<ul class='comments'>{kids}</ul>" if kids else "")
        + "</li>"
    )


def lemmy() -> str:
    return (
        "<nav><a href='/'>Home</a> <a href='/communities'>Communities</a></nav>"
        "<main><div class='post-listing'><h1>New bridge plan approved</h1><div class='small'>"
        "<span class='moment-time'>5h</span> by <a class='person-listing' href='/u/x'>x</a>"
        f"</div><div class='md-div'><p>{POST}</p></div><div class='post-actions'>"
        "<span>123</span> <a href='#c'>45 comments</a></div></div>"
        f"<ul class='comments'>{''.join(_lemmy(i, 0) for i in range(2))}</ul></main>"
        "<aside><p>A community for city news.</p></aside>"
    )


def _reddit(n: int, depth: int) -> str:
    kids = "".join(_reddit(n * 2 + k, depth + 1) for k in (1, 2)) if depth < 2 else ""
    return (
        f"<div class='thing comment'><div class='entry'><p class='tagline'>"
        f"<a class='author' href='/user/{USERS[n % 6]}'>{USERS[n % 6]}</a> "
        f"<span class='score'>{n + 2} points</span> <time datetime='2026-02-01'>5 hours ago"
        f"</time></p><div class='usertext-body'><div class='md'><p>{SAYS[n % 6]}</p></div>"
        "</div><ul class='buttons'><li><a href='#p'>permalink</a></li></ul></div>"
        + (f"<div class='child'><div class='sitetable'>{kids}</div></div>" if kids else "")
        + "</div>"
    )


def reddit() -> str:
    return (
        "<div id='header'><a href='/'>home</a></div><div class='side'><p>Rules: be kind.</p>"
        "</div><div class='content'><div class='sitetable'><div class='thing link'>"
        "<p class='title'><a href='/r/x/comments/1/'>New bridge plan approved</a></p>"
        "<p class='tagline'>submitted <time datetime='2026-02-01'>5 hours ago</time> by "
        f"<a class='author' href='/user/x'>x</a></p><div class='md'><p>{POST}</p></div>"
        "</div></div><div class='commentarea'><span class='title'>all 14 comments</span>"
        f"<div class='sitetable nestedlisting'>{''.join(_reddit(i, 0) for i in range(2))}"
        "</div></div></div>"
    )


@pytest.mark.parametrize("body", [lemmy, reddit])
def test_a_comment_tree_under_a_post_is_read_as_a_thread(body: Callable[[], str]) -> None:
    html = f"<html><head><title>New bridge plan approved</title></head><body>{body()}</body></html>"
    result = extract(html, metadata=True)
    text = result.text
    assert (result.metadata or {}).get("type") == "thread"
    assert "Building starts in spring" in text  # the post
    for said in SAYS:
        assert said in text  # every comment, nested or not
    assert text.index("Building starts") < text.index(SAYS[0])
    assert "tollbooth" in text  # a reply's line of author and date


def _shreddit(n: int, depth: int, short: bool = False) -> str:
    # New Reddit's web components: each comment a <shreddit-comment> that holds its replies.
    kids = _shreddit(n * 2 + 1, depth + 1, short=True) if depth == 0 and n % 2 == 0 else ""
    said = "Thanks, that helped." if short else SAYS[n % 6]
    who = USERS[n % 6]
    return (
        f"<shreddit-comment author='{who}' created='2026-02-01T10:00:00.000Z' "
        f"depth='{depth}'><div slot='commentMeta'><a href='/user/{who}/'>{who}</a> "
        f"<time datetime='2026-02-01T10:00:00.000Z'>{n + 1}h ago</time></div>"
        f"<div slot='comment' id='t1_{n}-comment-rtjson-content' class='md'><p>{said}</p>"
        "</div><shreddit-comment-action-row "
        f"slot='actionRow'><button>Reply</button><button>Share</button>"
        f"</shreddit-comment-action-row>{kids}</shreddit-comment>"
    )


def test_a_post_above_its_comment_tree_loaded_in_a_part_of_its_own_is_the_first() -> None:
    # The tree sits in a web component of its own (faceplate-partial) beside the post:
    # the wrapper adds nothing and is no step away from the post.
    html = (
        "<html><head><title>New bridge plan approved</title></head><body><nav>"
        "<a href='/'>Reddit</a> <a href='/login'>Log In</a></nav><div class='main-container'><main>"
        "<shreddit-post author='x' created-timestamp='2026-02-01T09:00:00.000+0000'>"
        "<div slot='credit-bar'><a href='/r/city/'>r/city</a> <time "
        "datetime='2026-02-01T09:00:00.000Z'>5h ago</time> <a href='/user/x/'>x</a></div>"
        f"<h1 slot='title'>New bridge plan approved</h1><div slot='text-body'><p>{POST}</p>"
        "</div></shreddit-post><faceplate-partial><shreddit-comment-tree>"
        + "".join(_shreddit(i, 0) for i in range(6))
        + "</shreddit-comment-tree></faceplate-partial></main><aside><a href='/r/city/'>"
        "r/city</a></aside></div></body></html>"
    )
    text = extract(html).text
    assert "Building starts in spring" in text, text
    assert text.index("Building starts") < text.index(SAYS[0])
    assert all(said in text for said in SAYS)


def test_a_short_reply_nested_in_a_comment_stays() -> None:
    # Old Reddit: the reply's box sits beside the comment's body; its few words are too
    # little prose to show the way down, and the box is cut on the way no more.
    def thing(n: int) -> str:
        reply = (
            "<div class='child'><div class='sitetable'><div class='thing comment'>"
            "<div class='entry'><p class='tagline'><a class='author' href='/user/op'>op</a>"
            " <time datetime='2026-02-01'>2 hours ago</time></p><div class='md'>"
            "<p>Thanks, that helped.</p></div></div></div></div></div>"
            if n == 0
            else ""
        )
        return (
            f"<div class='thing comment'><div class='midcol'><div class='arrow up'></div>"
            f"</div><div class='entry'><p class='tagline'><a class='author' "
            f"href='/user/{USERS[n]}'>{USERS[n]}</a> <span class='score'>3 points</span> "
            f"<time datetime='2026-02-01'>5 hours ago</time></p><div class='md'>"
            f"<p>{SAYS[n]}</p></div><ul class='buttons'><li><a href='#p'>permalink</a></li>"
            f"</ul></div>{reply}</div>"
        )

    html = (
        "<html><head><title>New bridge plan approved</title></head><body><div class='content'>"
        "<div class='thing link'><p class='title'><a href='/r/x/comments/1/'>New bridge "
        "plan approved</a></p><p class='tagline'>submitted <time datetime='2026-02-01'>5 "
        f"hours ago</time> by <a class='author' href='/user/op'>op</a></p><div class='md'>"
        f"<p>{POST}</p></div></div><div class='commentarea'><div class='sitetable'>"
        + "".join(thing(n) for n in range(6))
        + "</div></div></div></body></html>"
    )
    text = extract(html).text
    assert "Thanks, that helped." in text, text
    assert text.index(SAYS[0]) < text.index("Thanks, that helped.") < text.index(SAYS[1])


def _leveled(n: int, level: int, kids: str = "") -> str:
    # A comment box named for its depth in the tree, its replies nested in it.
    return (
        f"<div class='thing comment level-{level}'><div class='entry'><p class='tagline'>"
        f"<a class='author' href='/user/{USERS[n]}'>{USERS[n]}</a> <span class='score'>"
        f"{n + 2} points</span> <time datetime='2026-02-01'>5 hours ago</time></p>"
        f"<div class='usertext-body'><div class='md'><p>{SAYS[n]}</p></div></div>"
        "<ul class='buttons'><li><a href='#p'>permalink</a></li></ul></div>"
        + (f"<div class='child'><div class='sitetable'>{kids}</div></div>" if kids else "")
        + "</div>"
    )


def _leveled_page(tree: str, post: str = POST) -> str:
    return (
        "<html><head><title>New bridge plan approved</title></head><body>"
        "<div id='header'><a href='/'>home</a> <a href='/r/city'>city</a></div>"
        "<div class='side'><p>Rules: be kind.</p></div><div class='content'>"
        "<div class='sitetable'><div class='thing link'><p class='title'>"
        "<a href='/r/x/comments/1/'>New bridge plan approved</a></p><p class='tagline'>"
        "submitted <time datetime='2026-02-01'>5 hours ago</time> by "
        "<a class='author' href='/user/x'>x</a></p><div class='usertext-body'><div class='md'>"
        f"<p>{post}</p></div></div></div></div><div class='commentarea'>"
        f"<div class='sitetable nestedlisting'>{tree}</div></div></div></body></html>"
    )


@pytest.mark.parametrize(
    "tree",
    [
        _leveled(0, 1, _leveled(1, 2)) + _leveled(2, 1),
        _leveled(0, 1, _leveled(1, 2, _leveled(3, 3))) + _leveled(2, 1),
    ],
    ids=["three comments", "four comments"],
)
def test_a_few_comments_named_by_their_depth_are_a_thread(tree: str) -> None:
    result = extract(_leveled_page(tree), metadata=True)
    text = result.text
    assert result.kind == "thread", text
    assert "Building starts in spring" in text
    said = [s for s in SAYS if s in text]
    assert len(said) == tree.count("thing comment"), text
    assert text.index("Building starts") < text.index(SAYS[0]) < text.index(SAYS[1])
    assert "quietcoder, 5 hours ago" in text
    assert "Rules: be kind." not in text


def test_a_long_post_over_a_few_comments_named_by_depth_stays_an_article() -> None:
    # The comments hold a small share of the page's prose: an article with its comments.
    post = " ".join([POST] * 12)
    result = extract(_leveled_page(_leveled(0, 1, _leveled(1, 2)) + _leveled(2, 1), post))
    assert result.kind == "article"


def _brief(comments: str) -> str:
    # A news brief of two sentences in its <article>, its comments in a box beside it.
    return (
        "<html><head><title>Bridge</title></head><body><nav><a href='/'>Home</a></nav>"
        "<article><h1>New bridge approved</h1><p class='byline'>By <span class='author'>Jane"
        f" Reporter</span>, <time>Feb 1, 2026</time></p><p>{POST}</p></article><section "
        f"id='comments'><h2>Comments</h2>{comments}</section><footer>About</footer></body></html>"
    )


@pytest.mark.parametrize(
    "tree",
    [
        _leveled(0, 1, _leveled(1, 2)) + _leveled(2, 1),
        (_leveled(0, 1, _leveled(1, 2) + _leveled(3, 2)) + _leveled(2, 1, _leveled(4, 2)))
        .replace(" level-1", "")
        .replace(" level-2", ""),
    ],
    ids=["three comments named by depth", "two comments and three replies"],
)
def test_a_short_article_beside_its_comments_stays_the_page(tree: str) -> None:
    # The article rule's choice is thin, and no first post of the thread: the thread's
    # rule took the page over and printed the comments alone, the article lost.
    result = extract(_brief(tree.replace(SAYS[0], " ".join([SAYS[0]] * 3))))
    assert result.kind == "article", result.text
    assert "Building starts in spring" in result.text, result.text


def _signed_brief(comments: int, wrap: bool) -> str:
    # A news brief signed as a self post is, in its <article> holding the <h1> and its
    # buttons, and a few comments with theirs, in one box or each in its own.
    said = "".join(
        f"<div class='comment'><div class='meta'><a class='author' href='/u/{USERS[n]}'>"
        f"{USERS[n]}</a> <span class='date'>February {n + 1}, 2026</span></div><div "
        f"class='text'><p>{SAYS[n]}</p></div><div class='actions'><a href='#r'>Reply</a> "
        "<a href='#l'>Like</a> <a href='#s'>Share</a> <a href='#f'>Report</a></div></div>"
        for n in range(comments)
    )
    brief = (
        "<article class='post'><h1>New bridge approved</h1><p class='byline'>By <a "
        "class='author' href='/u/jane'>Jane Reporter</a>, <time>Feb 1, 2026</time></p>"
        f"<div class='text'><p>{POST}</p></div><div class='share'><a href='#'>Facebook</a> "
        "<a href='#'>Email</a></div></article>"
    )
    below = f"<div class='comment-list'><h3>{comments} comments</h3>{said}</div>"
    both = (
        f"<div class='main'>{brief}</div><div class='below'>{below}</div>"
        if wrap
        else (f"{brief}<section id='responses'>{below}</section>")
    )
    return (
        "<html><head><title>Bridge</title></head><body><div id='nav'><a href='/'>Home</a> "
        f"<a href='/b'>Blog</a></div><div class='page'>{both}</div><div id='footer'>About"
        "</div></body></html>"
    )


@pytest.mark.parametrize("comments", [2, 3, 4])
@pytest.mark.parametrize("wrap", [False, True], ids=["beside", "wrapped"])
def test_a_signed_short_article_above_a_few_comments_stays_the_page(
    comments: int, wrap: bool
) -> None:
    # Its byline makes it the thread's first post above the comments (a self post's
    # rule): the page printed the comments as a thread; its <article> holding the <h1>
    # tells an article's own box.
    result = extract(_signed_brief(comments, wrap))
    assert result.kind == "article", result.text
    assert "Building starts in spring" in result.text, result.text
    assert not any(said in result.text for said in SAYS[:comments]), result.text


@pytest.mark.parametrize("comments", [2, 3, 4])
def test_a_short_post_headed_in_generated_names_above_a_few_comments_stays_the_page(
    comments: int,
) -> None:
    # Its title in a header box above it, its byline a name's box then a date's, all of
    # generated names: beside the way up from the comments that is no question drawn
    # apart from its answers (replies.headed_by_date), and the page no thread.
    brief = (
        _signed_brief(comments, wrap=False)
        .replace(
            "<article class='post'><h1>New bridge approved</h1><p class='byline'>By <a "
            "class='author' href='/u/jane'>Jane Reporter</a>, <time>Feb 1, 2026</time></p>",
            "<div class='css-h1'><h1>New bridge approved</h1></div><div class='css-a1'><div "
            "class='css-b2'><div class='css-c3'>Jane Reporter</div><div class='css-d4'>Feb 1, "
            "2026</div></div>",
        )
        .replace("</article>", "</div>")
    )
    result = extract(brief.replace("<section id='responses'>", "<section class='css-q9'>"))
    assert result.kind == "article", result.text
    assert "Building starts in spring" in result.text, result.text
    assert not any(said in result.text for said in SAYS[:comments]), result.text


@pytest.mark.parametrize(
    "body",
    [
        lambda: _leveled_page(_leveled(0, 1, _leveled(1, 2)) + _leveled(2, 1)),
        lambda: f"<html><head><title>T</title></head><body>{reddit()}</body></html>",
    ],
    ids=["leveled", "nested"],
)
def test_a_declared_thread_keeps_the_post_drawn_as_its_comments_above_them(
    body: Callable[[], str],
) -> None:
    # The address declares a thread: the post above the tree's heading ("all 14
    # comments"), drawn as the comments are ("thing link", "thing comment"), is its first.
    result = extract(body(), url="https://board.example/r/city/comments/1/new_bridge/")
    text = result.text
    assert result.kind == "thread"
    assert "Building starts in spring" in text, text
    assert text.index("Building starts") < text.index(SAYS[0])
    assert "x, 5 hours ago" in text


def _lobsters_comment(n: int, kids: str = "") -> str:
    who = USERS[n]
    return (
        f"<li class='comments_subtree'><div class='comment' id='c_{n}'><div class='voters'>"
        f"<a class='upvoter' href='/login'></a><div class='score'>{n + 3}</div></div>"
        f"<div class='details'><div class='byline'><a href='/~{who}'><img class='avatar' "
        f"src='/a.png' alt=''></a> <a class='u-author' href='/~{who}'>{who}</a> "
        f"<span title='2026-02-01 10:0{n}:00 -0600'>{n + 2} hours ago</span> | "
        f"<a href='#c_{n}'>link</a> | <a href='/login'>reply</a></div><div class='comment_text'>"
        f"<p>{SAYS[n]}</p></div></div></div>"
        + (f"<ol class='comments'>{kids}</ol>" if kids else "")
        + "</li>"
    )


def lobsters(story: str = "") -> str:
    # A Lobsters page: the story's box above the tree (`story` in its stead).
    story = story or (
        "<div class='story' id='story_abc'><div class='story_liner'><div class='voters'>"
        "<a class='upvoter' href='/login'></a><div class='score'>42</div></div>"
        "<div class='details'><span class='link'><a class='u-url' "
        "href='https://example.org/bridge'>The new bridge and what it cost</a></span> "
        "<span class='tags'><a class='tag' href='/t/city'>city</a></span> "
        "<a class='domain' href='/domains/example.org'>example.org</a><div class='byline'>"
        "<a href='/~op'><img class='avatar' src='/a.png' alt=''></a> <span> via </span>"
        "<a class='u-author' href='/~op'>op</a> <span title='2026-02-01 09:00:00 -0600'>5 "
        "hours ago</span> | <a href='/s/abc/hide'>hide</a> | <a href='/s/abc/the_new_bridge'>"
        "5 comments</a></div></div></div></div>"
    )
    tree = _lobsters_comment(0, _lobsters_comment(1) + _lobsters_comment(2)) + _lobsters_comment(
        3, _lobsters_comment(4)
    )
    return (
        "<header><nav><a href='/'>Home</a> <a href='/active'>Active</a> <a href='/recent'>"
        f"Recent</a> <a href='/login'>Login</a></nav></header><div id='inside'>{story}"
        f"<div class='comments_wrapper'><ol class='comments comments1'>{tree}</ol></div></div>"
        "<footer><a href='/about'>About</a> <a href='/privacy'>Privacy</a></footer>"
    )


def _hn_comment(n: int, indent: int) -> str:
    who = USERS[n]
    return (
        f"<tr class='athing comtr' id='{n}'><td><table border='0'><tr><td class='ind' "
        f"indent='{indent}'><img src='s.gif' height='1' width='{indent * 40}'></td>"
        f"<td class='votelinks'><a id='up_{n}' href='vote?id={n}'><div class='votearrow'>"
        f"</div></a></td><td class='default'><div><span class='comhead'><a href='user?id={who}'"
        f" class='hnuser'>{who}</a> <span class='age' title='2026-02-01T10:0{n}:00 "
        f"1769940000'><a href='item?id={n}'>{n + 2} hours ago</a></span></span></div><br>"
        f"<div class='comment'><div class='commtext c00'>{SAYS[n]}</div><div class='reply'>"
        f"<p><a href='reply?id={n}'>reply</a></p></div></div></td></tr></table></td></tr>"
    )


def hacker_news() -> str:
    # The story's title and its counters in two rows of one table, above the tree's.
    return (
        "<center><table id='hnmain'><tr><td><a href='news'>Hacker News</a> <a href='newest'>"
        "new</a> | <a href='front'>past</a></td></tr><tr><td><table class='fatitem'>"
        "<tr class='athing submission' id='1'><td class='votelinks'><a href='vote?id=1'>"
        "<div class='votearrow'></div></a></td><td class='title'><span class='titleline'>"
        "<a href='https://example.org/bridge'>The new bridge and what it cost</a>"
        "<span class='sitebit comhead'> (<a href='from?site=example.org'><span "
        "class='sitestr'>example.org</span></a>)</span></span></td></tr><tr><td></td>"
        "<td class='subtext'><span class='score'>42 points</span> by <a href='user?id=op' "
        "class='hnuser'>op</a> <span class='age' title='2026-02-01T09:00:00 1769936400'>"
        "<a href='item?id=1'>5 hours ago</a></span> | <a href='hide?id=1'>hide</a> | "
        "<a href='item?id=1'>5 comments</a></td></tr></table><br><table class='comment-tree'>"
        + "".join(_hn_comment(n, indent) for n, indent in enumerate((0, 1, 1, 0, 1)))
        + "</table></td></tr></table></center>"
    )


@pytest.mark.parametrize("body", [lobsters, hacker_news])
@pytest.mark.parametrize("url", [None, "https://news.example/s/abc/the_new_bridge"])
def test_a_story_line_above_its_comments_is_printed_without_its_counters(
    body: Callable[[], str], url: str | None
) -> None:
    html = f"<html><head><title>The new bridge</title></head><body>{body()}</body></html>"
    result = extract(html, url=url, link_markers=True)
    text = result.text
    assert result.kind == "thread"
    lines = text.split("\n")
    # The submitter and the age, then the title with its domain, then the comments.
    at = lines.index("op, 2026-02-01 09:00")
    assert lines[at + 2].startswith("The new bridge and what it cost"), text
    assert lines[at + 2].endswith("(example.org)"), text
    assert text.index("(example.org)") < text.index(SAYS[0])
    assert all(said in text for said in SAYS[:5])
    for counter in ("42", "hide", "5 comments", "city", "via"):
        assert counter not in lines[at + 2] and counter not in lines[at], text
    assert "42 points" not in text and "hide" not in text
    assert "https://example.org/bridge" in {link.url for link in result.links}


@pytest.mark.parametrize(
    "shown",
    [
        "",  # a byline: its author's page, no domain
        " <a class='domain' href='/domains/other.example'>other.example</a>",
    ],
)
@pytest.mark.parametrize("url", [None, "https://news.example/s/abc/the_new_bridge"])
def test_a_signed_line_without_the_domain_of_its_link_is_no_story(
    shown: str, url: str | None
) -> None:
    # An article's byline above its comments links its author's page by an absolute
    # address, as many sites write their own links: no link aggregator's story.
    byline = (
        "<div class='post-info'><a class='author' href='https://news.example/~jane'>"
        f"Jane Doelittle</a>{shown} <span title='2026-02-01 09:00:00 -0600'>5 hours ago"
        "</span></div>"
    )
    html = lobsters(byline)
    text = extract(f"<html><head><title>T</title></head><body>{html}</body></html>", url=url).text
    assert all(said in text for said in SAYS[:5]), text
    # Not printed as a story: the author's name for its title, or its submitter's.
    assert not any(line.startswith("Jane Doelittle") for line in text.split("\n")), text


ASKED = "How do we keep the tide tables in sync across the harbour offices? Each edits its own."


def _head(who: str, day: str, badge: str = "") -> str:
    # A comment's header: avatar, author, a badge, the date, and its closed menu.
    return (
        f"<div class='timeline-comment-header'><a class='avatar' href='/{who}'><img "
        f"src='/a.png' alt='@{who}'></a><h3 class='f5'><a class='author' href='/{who}'>{who}"
        f"</a> {badge}<a class='Link--secondary' href='#c'><relative-time "
        f"datetime='{day}T10:00:00Z'>{day}</relative-time></a></h3><details class='dropdown'>"
        "<summary aria-label='Show options'></summary><details-menu role='menu'>"
        "<clipboard-copy role='menuitem'>Copy link</clipboard-copy><button role='menuitem'>"
        "Quote reply</button></details-menu></details></div>"
    )


def _discussion_reply(n: int, day: str) -> str:
    return (
        f"<div class='nested-discussion-timeline-comment'>{_head(USERS[n], day)}"
        f"<div class='comment-body markdown-body'><p>{SAYS[n]}</p></div>"
        "<div class='comment-reactions'><button>+2</button></div></div>"
    )


def _discussion_answer(n: int, day: str, replies: str, chosen: bool = False) -> str:
    badge = "<span class='Label'>Marked as answer</span>" if chosen else ""
    return (
        "<div class='discussion-timeline-item'><div class='timeline-comment discussion-comment'>"
        f"<div class='vote-form'><button aria-label='Upvote'>^</button><span>{5 - n}</span>"
        f"</div>{_head(USERS[n], day, badge)}<div class='comment-body markdown-body'>"
        f"<p>{SAYS[n]}</p></div><div class='discussion-nested-comment-group'>{replies}"
        "<div class='js-reply'><button>Write a reply</button></div></div></div></div>"
    )


def discussion() -> str:
    answers = (
        _discussion_answer(
            0,
            "2024-03-02",
            _discussion_reply(1, "2024-03-03") + _discussion_reply(2, "2024-03-04"),
            chosen=True,
        )
        + _discussion_answer(3, "2024-03-05", _discussion_reply(4, "2024-03-06"))
        + _discussion_answer(5, "2024-03-07", "")
    )
    return (
        "<html><head><title>Tide tables in sync</title></head><body><header><a href='/'>Home"
        "</a> <a href='/login'>Sign in</a></header><main><div class='discussion-header'><h1>"
        "Tide tables in sync</h1><span class='State'>Answered</span></div><div "
        "class='discussion-timeline'><div class='timeline-comment discussion-question'>"
        f"{_head('asker', '2024-03-01')}<div class='comment-body markdown-body'><p>{ASKED}</p>"
        f"</div></div><div class='discussion-answers'><h2>3 answers, 3 replies</h2>{answers}"
        "</div></div></main><footer><a href='/terms'>Terms</a></footer></body></html>"
    )


@pytest.mark.parametrize("url", [None, "https://code.example/org/repo/discussions/12"])
def test_a_discussions_answers_and_their_replies_each_have_their_line(url: str | None) -> None:
    text = extract(discussion(), url=url).text
    lines = text.split("\n")
    heads = [
        "asker, 2024-03-01",
        f"{USERS[0]}, 2024-03-02, accepted answer",
        f"{USERS[1]}, 2024-03-03",
        f"{USERS[2]}, 2024-03-04",
        f"{USERS[3]}, 2024-03-05",
        f"{USERS[4]}, 2024-03-06",
        f"{USERS[5]}, 2024-03-07",
    ]
    bodies = [ASKED, *SAYS]
    # Each post once, in page order, its line of author and date right above its words.
    assert [line for line in lines if line in heads] == heads, text
    for head, said in zip(heads, bodies, strict=True):
        assert lines[lines.index(head) + 2] == said, text
    for chrome in ("Marked as answer", "Copy link", "Write a reply", "Upvote", "+2"):
        assert chrome not in text


def test_a_storys_counter_in_its_first_paragraph_is_no_line_of_its_author() -> None:
    # Signed by an empty box named for time, the story has no line of author and date:
    # its first paragraph ("42 points") is one of its counters, which go.
    story = (
        "<div class='story'><p>42 points</p><div class='details'><span class='link'><a "
        "href='https://example.org/bridge'>The new bridge and what it cost</a></span> <a "
        "class='domain' href='/domains/example.org'>example.org</a><div class='byline'><span "
        "class='timestamp'></span> | <a href='/s/abc/hide'>hide</a></div></div></div>"
    )
    text = extract(f"<html><head><title>T</title></head><body>{lobsters(story)}</body></html>")
    lines = text.text.split("\n")
    assert "The new bridge and what it cost (example.org)" in lines, lines
    assert "42 points" not in lines, lines


@pytest.mark.parametrize("host", ["www.example.org", "news.example.org"])
def test_a_story_shows_the_domain_of_its_link_without_the_subdomain(host: str) -> None:
    html = lobsters().replace("https://example.org/bridge", f"https://{host}/bridge")
    text = extract(f"<html><head><title>T</title></head><body>{html}</body></html>").text
    assert "The new bridge and what it cost (example.org)" in text.split("\n"), text


def test_a_host_name_in_a_storys_title_is_not_its_domain() -> None:
    html = lobsters().replace(
        "The new bridge and what it cost", "<b>bridge.io</b> the new bridge and what it cost"
    )
    text = extract(f"<html><head><title>T</title></head><body>{html}</body></html>").text
    assert "bridge.io the new bridge and what it cost (example.org)" in text.split("\n"), text


def test_the_badges_words_in_an_answers_own_text_are_no_badge() -> None:
    # Written in a post's text, the words stay, and mark no accepted answer.
    html = discussion().replace(
        f"<p>{SAYS[3]}</p>", f"<p><strong>Best answer</strong> so far: {SAYS[3]}</p>"
    )
    html = html.replace(f"<p>{SAYS[5]}</p>", f"<p>{SAYS[5]}</p><p><em>Accepted solution</em></p>")
    lines = extract(html).text.split("\n")
    assert [line for line in lines if line.endswith(", accepted answer")] == [
        f"{USERS[0]}, 2024-03-02, accepted answer"
    ], lines
    assert f"Best answer so far: {SAYS[3]}" in lines and "Accepted solution" in lines, lines


def test_a_badge_is_looked_for_in_the_top_level_posts_alone(monkeypatch) -> None:
    # Each post reads tuning.MARK_SCAN elements for its badge: a reply nested in a post
    # is read as part of it, never again as a post of its own (replies nested deep, each
    # reading the ones inside it, cost the square of their count).
    from wf.extract.kinds import posts

    read: list[object] = []
    badge = posts.badge
    monkeypatch.setattr(posts, "badge", lambda el: read.append(el) or badge(el))
    text = extract(discussion()).text
    assert f"{USERS[0]}, 2024-03-02, accepted answer" in text, text
    assert len(read) == 4, text  # the question and its three answers, not their replies


def _reply(n: int, day: str, words: str, kids: str = "") -> str:
    return (
        f"<div class='nested-discussion-timeline-comment'>{_head(USERS[n], day)}"
        f"<div class='comment-body markdown-body'><p>{words}</p></div>{kids}"
        "<div class='comment-reactions'><button>+2</button></div></div>"
    )


def test_a_short_reply_holding_a_reply_to_it_keeps_its_line_and_words() -> None:
    # A reply named as nested ones, holding the reply to it: no group of replies, for it
    # shows its head before them; its short words are no box to cut on the way down.
    tree = _reply(1, "2024-03-03", "Agreed, thanks.", _reply(2, "2024-03-04", SAYS[2]))
    html = discussion().replace(
        _discussion_reply(1, "2024-03-03") + _discussion_reply(2, "2024-03-04"), tree
    )
    lines = extract(html).text.split("\n")
    assert lines[lines.index(f"{USERS[1]}, 2024-03-03") + 2] == "Agreed, thanks.", lines
    assert lines[lines.index(f"{USERS[2]}, 2024-03-04") + 2] == SAYS[2], lines


def test_a_short_comment_holding_a_reply_keeps_its_words() -> None:
    tree = _leveled(0, 1, _leveled(1, 2)) + _leveled(2, 1, _leveled(3, 2)) + _leveled(4, 1)
    html = _leveled_page(tree.replace(f"<p>{SAYS[2]}</p>", "<p>Agreed, thanks.</p>"))
    lines = extract(html, url="https://board.example/r/city/comments/1/new_bridge/").text
    lines = lines.split("\n")
    assert lines[lines.index(f"{USERS[2]}, 5 hours ago") + 2] == "Agreed, thanks.", lines
    assert lines[lines.index(f"{USERS[3]}, 5 hours ago") + 2] == SAYS[3], lines


def test_replies_nested_in_a_chain_are_each_read_once(monkeypatch) -> None:
    # A chain of 300 replies, each in the one before: the blocks before each one's first
    # reply (replies._lead) and the elements read for each one's line (byline._own)
    # are its own, so each is read once, where each reply's line read the chain below.
    from wf.extract.kinds import byline, replies

    runs: list[tuple[int, int]] = []
    lead, own = replies._lead, byline._own
    read = [0]

    def counted(blocks: Any, box: Any, first: Any) -> bool:
        runs.append((box.index, first.index))
        return lead(blocks, box, first)

    def owned(post: Any, *inner: Any) -> list[Any]:
        found = own(post, *inner)
        read[0] += len(found)
        return found

    monkeypatch.setattr(replies, "_lead", counted)
    monkeypatch.setattr(byline, "_own", owned)
    chain = ""
    for n in range(300):
        words = "Agreed, thanks." if n % 2 else f"Reply {n}: {SAYS[2]}"
        chain = _reply(n % 5 + 1, "2024-03-03", words, chain)
    html = discussion().replace(
        _discussion_reply(1, "2024-03-03") + _discussion_reply(2, "2024-03-04"), chain
    )
    elements = html.count("<") - html.count("</")
    text = extract(html).text
    assert text.count("Agreed, thanks.") == text.count(SAYS[2]) == 150, text
    assert len(runs) >= 299
    assert sum(end - start for start, end in runs) <= max(end for _, end in runs)
    assert 0 < read[0] <= elements


def test_a_reply_named_for_time_is_read_no_further_than_a_date_for_its_date(monkeypatch) -> None:
    # Each reply of a chain is named for time ("timeline-comment") and holds the chain
    # below it: read whole for a date, each costs the chain's text, the chain its square.
    from wf.extract.kinds import post_dates

    read = [0]
    spaced = post_dates.spaced

    def counted(el: Any, most: int | None = None) -> str:
        class Box:
            def itertext(self) -> Any:
                for piece in el.itertext():
                    read[0] += len(piece)
                    yield piece

        return spaced(Box(), most)

    monkeypatch.setattr(post_dates, "spaced", counted)
    chain = ""
    for n in range(300):
        chain = _reply(n % 5 + 1, "2024-03-03", f"Reply {n}: {SAYS[2]}", chain)
    html = discussion().replace(
        _discussion_reply(1, "2024-03-03") + _discussion_reply(2, "2024-03-04"), chain
    )
    text = extract(html).text
    assert text.count(SAYS[2]) == 300, text
    assert read[0] <= len(html), read[0]


def test_a_date_box_is_read_no_further_than_a_date_is_long() -> None:
    # A box named for a date around a page's worth of text is no date: its reading
    # stops once it holds more than a date's characters, whatever follows.
    from itertools import count

    from wf.extract.kinds.spaced import spaced

    pieces = count()

    class Box:
        def itertext(self) -> Any:
            for n in pieces:
                assert n < 1000, "read whole"
                yield "  word "

    assert len(spaced(Box(), 80)) > 80
    assert next(pieces) <= 25


@pytest.mark.parametrize(
    "link",
    [
        "<a class='author' href='https://janedoe.example/'>Jane Doelittle</a>",
        "<span class='author-name'><a href='https://janedoe.example/'>Jane Doelittle</a></span>",
    ],
)
def test_an_authors_link_to_the_site_it_shows_is_no_story(link: str) -> None:
    # A byline above the comments: its author's link leads to their own site, shown
    # after it; a link named for the author, or in a box so named, is no story's title.
    byline = (
        f"<div class='post-info'>By {link} <span>(janedoe.example)</span> <span "
        "title='2026-02-01 09:00:00 -0600'>5 hours ago</span></div>"
    )
    text = extract(f"<html><head><title>T</title></head><body>{lobsters(byline)}</body></html>")
    lines = text.text.split("\n")
    assert all(said in text.text for said in SAYS[:5]), lines
    assert not any(line.startswith("Jane Doelittle") for line in lines), lines


def _self_post(comments: int) -> str:
    # A link aggregator's self post ("Ask HN"): its text below the story's row, its
    # title a link to the page itself, then a short tree of comments.
    indents = (0, 1, 0, 1, 1)[:comments]
    return (
        "<html><head><title>Ask: a new bridge? | News</title></head><body><center>"
        "<table id='hnmain'><tr><td><a href='news'>News</a> <a href='newest'>new</a> | "
        "<a href='front'>past</a> | <a href='ask'>ask</a></td></tr><tr><td>"
        "<table class='fatitem'><tr class='athing submission' id='1'><td class='votelinks'>"
        "<a href='vote?id=1'><div class='votearrow'></div></a></td><td class='title'>"
        "<span class='titleline'><a href='item?id=1'>Ask: is a new bridge worth it?</a>"
        "</span></td></tr><tr><td></td><td class='subtext'><span class='score'>42 points"
        "</span> by <a href='user?id=op' class='hnuser'>op</a> <span class='age' "
        "title='2026-02-01T09:00:00 1769936400'><a href='item?id=1'>5 hours ago</a></span>"
        " | <a href='hide?id=1'>hide</a> | <a href='item?id=1'>3 comments</a></td></tr>"
        f"<tr><td></td><td><div class='toptext'>{POST}</div></td></tr></table><br>"
        "<table class='comment-tree'>"
        + "".join(_hn_comment(n, indent) for n, indent in enumerate(indents))
        + "</table></td></tr><tr><td><span class='yclinks'><a href='faq'>FAQ</a> | "
        "<a href='legal'>Legal</a></span></td></tr></table></center></body></html>"
    )


@pytest.mark.parametrize("comments", [2, 3, 5])
def test_a_self_post_above_a_few_comments_is_a_thread(comments: int) -> None:
    # Fewer comments than show a thread on their own: the post above them, which the
    # article rule chose, counts with them (the comments were cut as boilerplate and the
    # page printed whole).
    result = extract(_self_post(comments))
    text = result.text
    assert result.kind == "thread", text
    assert text.index(POST) < text.index(SAYS[0])
    assert all(said in text for said in SAYS[:comments])
    assert "op, 2026-02-01 09:00" in text
    for chrome in ("42 points", "hide", "FAQ", "Legal", "newest"):
        assert chrome not in text, text
