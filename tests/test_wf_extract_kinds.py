"""wf/extract/kinds/ and wf/extract/tuning.py: each page kind on small pages of our own,
its declaration, its structure, and what its rule prints."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import ROOT
from wf.extract import extract, tuning

PROSE = (
    "The harbour master keeps the tide tables for every berth along the eastern quay, "
    "and the pilots read them each morning before the first ships come in."
)


def ld(obj: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(obj)}</script>'


def page(head: str, body: str) -> str:
    return f"<html><head><title>T</title>{head}</head><body>{body}</body></html>"


NAV = "<nav><a href='/'>Home</a> <a href='/forum'>Forum</a> <a href='/about'>About</a></nav>"


def post(author: str, date: str, words: str) -> str:
    # Forums name every post a comment, which the article rule reads as boilerplate.
    return (
        f'<div class="comment-item"><div class="votes"><span>12</span></div>'
        f'<div class="comment-meta"><span class="username">{author}</span> '
        f"<time>{date}</time></div><div class='comment-body'><p>{words}</p></div>"
        '<div class="comment-actions"><a href="#r">Reply</a> <a href="#f">Flag</a></div></div>'
    )


THREAD = page(
    ld({"@type": "DiscussionForumPosting", "headline": "Tide tables"}),
    NAV
    + "<main><h1>Where are the tide tables kept?</h1><div class='comments'>"
    + post("ann", "2024-03-01", "Where does the harbour keep its tide tables? " + PROSE)
    + post("ben", "2024-03-02", "They hang in the pilots' office by the quay. " + PROSE)
    + post("cy", "2024-03-03", "Also online, as a PDF, updated weekly. " + PROSE)
    + "<p class='login'><a href='/login'>Log in to reply</a></p></div></main>"
    + "<footer><a href='/terms'>Terms</a></footer>",
)


def test_a_thread_prints_every_post_in_order():
    found = extract(THREAD, url="https://forum.example/t/1", metadata=True)
    text = found.text
    first = text.index("Where does the harbour keep")
    second = text.index("They hang in the pilots")
    third = text.index("Also online, as a PDF")
    assert first < second < third
    assert "Log in to reply" not in text and "Terms" not in text
    lines = text.split("\n")
    # Each post starts with its author and date; votes and the post's controls are gone.
    assert lines[lines.index("ann, 2024-03-01") + 2].startswith("Where does the harbour")
    assert lines[lines.index("ben, 2024-03-02") + 2].startswith("They hang in the pilots")
    assert "12" not in lines and "Flag" not in text and "Reply" not in text
    assert found.kind == "thread"
    assert found.metadata is not None and found.metadata["type"] == "thread"


def test_a_thread_shown_by_its_structure_alone():
    undeclared = THREAD.replace(
        ld({"@type": "DiscussionForumPosting", "headline": "Tide tables"}), ""
    )
    plain = undeclared.replace("comment-", "entry-").replace("'comments'", "'entries'")
    found = extract(plain, url="https://forum.example/t/1")
    assert found.kind == "thread"
    for words in ("Where does the harbour keep", "They hang in the pilots", "Also online"):
        assert words in found.text


def carded(author: str, date: str, words: str, extra: str = "") -> str:
    # A post as boards print it: the author's card (rank, counts), the post's title and
    # number, the body, the signature, a footer of controls, comments under it.
    return (
        "<div class='post'><div class='profile'><div class='user-card'>"
        f"<a class='username'>{author}</a><div class='rank'>Senior Member</div>"
        "<dl><dt>Posts:</dt><dd>4032</dd><dt>Joined:</dt><dd>Dec 11, 2021</dd></dl>"
        "</div></div><div class='postbody'><h3>Re: Tide tables</h3>"
        f"<p class='meta'>#7 <time>{date}</time></p>"
        f"<div class='content'>{words}</div>"
        "<div class='signature'>My boat is the blue one by the slipway, come and say hello "
        "any weekend.</div><div class='actions'><a href='#top'>Top</a></div>"
        f"{extra}</div></div>"
    )


def test_a_post_prints_its_author_date_and_body_only():
    comments = (
        "<ul class='comments-list'><li class='comment'>Is that the old office or the new one "
        "by the ferry terminal? dan</li></ul>"
    )
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Tide tables"}),
        NAV
        + "<main><div class='posts'>"
        + carded("ann", "2024-03-01", "Where does the harbour keep its tide tables? " + PROSE)
        + carded("ben", "2024-03-02", "They hang in the pilots' office. " + PROSE, comments)
        + carded("cy", "2024-03-03", "Thanks, found them!")
        + "</div></main>",
    )
    text = extract(html, url="https://forum.example/t/2").text
    lines = text.split("\n")
    assert lines[lines.index("ann, 2024-03-01") + 2].startswith("Where does the harbour")
    assert lines[lines.index("ben, 2024-03-02") + 2].startswith("They hang in the pilots")
    assert "Thanks, found them!" in text
    # The card, the title, the signature and the comments are no post's body; a reply's
    # title ("Re: ...") and signature go from the short reply too.
    assert "Re: Tide tables" not in text
    assert "blue one" not in text
    assert text.count("Joined") <= 1 and text.count("Senior Member") <= 1
    assert "ferry terminal" not in text


def test_the_posts_are_the_group_of_many_not_the_box_beside_a_small_one():
    # All the posts in one box, beside a small signed box: the posts are the group.
    box = "".join(
        f"<article class='message'><div class='user'><h4 class='message-name'><a class='username'>"
        f"user{n}</a></h4>"
        f"<h5 class='title'>Veteran</h5></div><div class='main'><header><time>Jan {n}, 2024"
        f"</time> #{n}</header><div class='text'>Post number {n}. {PROSE}</div></div></article>"
        for n in range(1, 5)
    )
    html = page(
        ld({"@type": "DiscussionForumPosting", "headline": "Tide tables"}),
        NAV + f"<div class='page'><div class='block'>{box}</div><div class='block'><h3>Similar"
        "</h3><p>Where the harbour keeps its charts, asked by dan <time>Feb 2, 2024</time></p>"
        "</div></div>",
    )
    lines = extract(html, url="https://forum.example/t/3").text.split("\n")
    assert all(f"user{n}, Jan {n}, 2024" in lines for n in range(1, 5))
    assert "Veteran" not in lines


def qa_post(kind: str, author: str, date: str, words: str) -> str:
    # A question or an answer: votes, the body, the author's card, comments under it.
    return (
        f"<div class='{kind}'><div class='layout'><div class='votecell'>12</div>"
        f"<div class='cell'><div class='prose'><p>{words}</p></div><div class='signature'>"
        f"<div class='user-info'><time>{date}</time> <a class='user-link'>{author}</a> "
        "1,234 reputation</div></div></div><div class='comments'><ul><li class='comment'>"
        f"Have you tried the ferry terminal office? By someone, {date}</li></ul></div>"
        "</div></div>"
    )


def test_a_question_above_its_answers_is_cut_down_like_them():
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<div id='main'>"
        + qa_post("question", "ann", "2024-03-01", "Where are the tide tables kept? " + PROSE)
        + "<div id='answers'>"
        + qa_post("answer", "ben", "2024-03-02", "In the pilots' office. " + PROSE)
        + qa_post("answer", "cy", "2024-03-03", "Online, as a PDF. " + PROSE)
        + "</div></div>",
    )
    text = extract(html, url="https://qa.example/q/1").text
    lines = text.split("\n")
    assert lines[lines.index("ann, 2024-03-01") + 2].startswith("Where are the tide tables")
    assert lines[lines.index("cy, 2024-03-03") + 2].startswith("Online, as a PDF")
    assert "ferry terminal" not in text and "reputation" not in text


def test_comments_under_a_short_answer_go_and_a_time_is_no_author():
    # An answer of short lines (no prose to tell its body by) keeps its lines and loses
    # the comments under it; the box named for the user and a time is the date.
    short = (
        "<div class='answer'><div class='layout'><div class='cell'><div class='prose'>"
        "<p>Press Ctrl+E, then Esc.</p><p>Works in every version.</p></div>"
        "<div class='user-action-time'>answered Mar 2, 2024 at 9:15</div>"
        "<div class='user-details'><a class='user-link'>ben</a></div></div>"
        "<div class='comments'><ul><li class='comment'><span class='comment-user'>dan</span> "
        "Does not work for me on the old machines in the harbour office. <span "
        "class='comment-date'>Mar 3, 2024</span></li></ul></div></div></div>"
    )
    html = page(
        ld({"@type": "QAPage"}),
        NAV
        + "<div id='answers'>"
        + qa_post("answer", "ann", "2024-03-01", "In the pilots' office. " + PROSE)
        + short
        + qa_post("answer", "cy", "2024-03-03", "Online, as a PDF. " + PROSE)
        + "</div>",
    )
    text = extract(html, url="https://qa.example/q/2").text
    assert "Press Ctrl+E, then Esc." in text and "Works in every version." in text
    assert "old machines" not in text
    assert "ben, Mar 2, 2024 at 9:15" in text.split("\n")


def board_post(n: int, author: str, words: str) -> str:
    # A board's post, in no box named for posts or comments: its title links to itself.
    return (
        f"<div class='msg bg{n % 2}'><div class='inner'><h3><a href='#p{n}'>Re: Tide tables</a>"
        f"</h3><p class='info'>by <strong class='username'>{author}</strong> "
        f"<time>Mar {n}, 2024</time></p><div class='text'>{words}</div></div></div>"
    )


def test_an_undeclared_board_and_a_story_with_comments_are_threads():
    posts = "".join(board_post(n, f"user{n}", f"Reply number {n}. {PROSE}") for n in range(1, 6))
    board = page("", NAV + "<div id='page'><p>Jump to: <a href='/f'>Harbours</a></p>" + posts)
    found = extract(board, url="https://board.example/viewtopic?t=1")
    assert found.kind == "thread"
    assert "user3, Mar 3, 2024" in found.text.split("\n")
    assert all(f"Reply number {n}." in found.text for n in range(1, 6))
    # Teaser cards that name their authors are a listing's items, not posts.
    cards = posts.replace("href='#p", "href='/story/")
    assert extract(page("", NAV + "<div>" + cards + "</div>")).kind != "thread"
    # A one-line story over its comments, which the article rule does not walk into.
    rows = "".join(
        f"<tr class='row'><td><span class='user'>user{n}</span> <span class='age'>{n} hours"
        f" ago</span><div class='comment'>Comment number {n}. {PROSE}</div></td></tr>"
        for n in range(1, 6)
    )
    story = page(
        "",
        NAV + "<table><tr><td>Tide tables online (harbour.example)</td></tr>"
        f"</table><table class='tree'>{rows}</table>",
    )
    found = extract(story, url="https://news.example/item?id=1")
    assert found.kind == "thread"
    assert all(f"Comment number {n}." in found.text for n in range(1, 6))


PRODUCT = page(
    ld(
        {
            "@type": "Product",
            "name": "Brass tide clock",
            "description": "A brass clock that shows the state of the tide at a glance, "
            "made by hand in Falmouth.",
            "offers": {
                "@type": "Offer",
                "price": "89.00",
                "priceCurrency": "GBP",
                "availability": "https://schema.org/InStock",
            },
        }
    ),
    NAV
    + "<div class='product'><h1>Brass tide clock</h1>"
    + "<div class='description'><p>A brass clock that shows the state of the tide at a "
    "glance, made by hand in Falmouth.</p><p>"
    + PROSE
    + "</p><p>"
    + PROSE
    + "</p><table><tr><th>Diameter</th><td>20 cm</td></tr>"
    "<tr><th>Weight</th><td>1.2 kg</td></tr></table></div></div>"
    + "<section class='reviews'><h2>Reviews</h2>"
    + "".join(f"<div class='review'><p>Review {i}: {PROSE} {PROSE}</p></div>" for i in range(4))
    + "</section>",
)


def test_a_product_prints_name_price_availability_description_and_specifications():
    found = extract(PRODUCT, url="https://shop.example/p/clock", metadata=True)
    text = found.text
    assert "Brass tide clock" in text
    assert "89.00 GBP" in text and "Availability: In stock" in text
    assert "made by hand in Falmouth" in text
    assert "20 cm" in text
    assert "Review 1" not in text
    assert found.kind == "product"
    assert found.metadata is not None and found.metadata["type"] == "product"


def card(n: int) -> str:
    return (
        f"<article class='card'><h2><a href='/item/{n}'>Tide clock model {n}</a></h2>"
        f"<p>Brass, {n + 10} cm, hand made.</p></article>"
    )


LISTING = page(
    ld({"@type": "CollectionPage", "name": "Clocks"}),
    NAV
    + "<main><h1>Clocks</h1><div class='grid'>"
    + "".join(card(n) for n in range(1, 7))
    + "</div></main><footer><a href='/terms'>Terms</a> <a href='/privacy'>Privacy</a></footer>",
)


def test_a_listing_prints_its_items():
    found = extract(LISTING, url="https://shop.example/clocks", metadata=True, link_markers=True)
    text = found.text
    for n in range(1, 7):
        assert f"Tide clock model {n}" in text
        assert f"Brass, {n + 10} cm" in text
    assert any(link.url.endswith("/item/3") for link in found.links)
    assert "Privacy" not in text
    assert found.kind == "listing"
    assert found.metadata is not None and found.metadata["type"] == "listing"


DOCS = page(
    "",
    "<div class='sidebar'><a href='/docs/a'>Install</a><a href='/docs/b'>Use</a>"
    "<select class='version-picker'><option>v2</option></select></div>"
    "<main><h1>Install</h1><p>" + PROSE + "</p>"
    "<div class='admonition note'><p class='admonition-title'>Note</p>"
    "<p>Run it as an ordinary user, never as root, on every machine.</p></div>"
    "<div class='highlight-bash'><div class='highlight'><pre>pip install tides</pre></div></div>"
    "<p>" + PROSE + "</p></main>",
)


def test_documentation_keeps_code_with_its_language_and_admonitions():
    found = extract(DOCS, url="https://tides.example/docs/install", metadata=True)
    text = found.text
    assert "```bash\npip install tides\n```" in text
    assert "never as root" in text
    assert "Use" not in text.split("\n")
    assert found.kind == "documentation"
    assert found.metadata is not None and found.metadata["type"] == "documentation"


def test_a_landing_page_declared_by_its_service():
    html = page(
        ld({"@type": "Service", "name": "Tide consulting"}),
        NAV + "<main><section><h2>What we do</h2><p>" + PROSE + "</p></section>"
        "<section><h2>How</h2><p>" + PROSE + "</p></section></main>",
    )
    found = extract(html, url="https://tides.example/services", metadata=True)
    assert "What we do" in found.text and "How" in found.text
    assert found.kind == "landing"
    assert found.metadata is not None and found.metadata["type"] == "landing"


def test_an_item_list_of_reviews_declares_no_listing():
    # A service page's testimonials as JSON-LD: no listing of pages, the FAQPage decides.
    reviews = [{"@type": "Review", "reviewBody": "Great tides."}, {"@type": "Review"}]
    testimonials = {"@type": "ItemList", "itemListElement": reviews}
    faq = {"@type": "FAQPage", "mainEntity": [{"@type": "Question", "name": "Why?"}]}
    html = page(ld({"@graph": [faq, testimonials]}), "<article><p>" + PROSE + "</p></article>")
    assert extract(html, url="https://tides.example/services").kind == "landing"
    # Wrapped in ListItems too; a list of pages (or of reviews and pages) stays a listing.
    wrapped = [{"@type": "ListItem", "item": r} for r in reviews]
    html = page(ld({"@graph": [faq, {"@type": "ItemList", "itemListElement": wrapped}]}), "")
    assert extract(html, url="https://tides.example/services").kind == "landing"
    pages = [*wrapped, {"@type": "ListItem", "url": "https://tides.example/a"}]
    html = page(ld({"@graph": [faq, {"@type": "ItemList", "itemListElement": pages}]}), "")
    assert extract(html, url="https://tides.example/services").kind == "listing"


def test_an_article_stays_an_article_and_keeps_its_declared_type():
    html = page(
        ld({"@type": "Recipe", "name": "Fish stew"}),
        NAV + "<article><p>" + PROSE + "</p><p>" + PROSE + "</p></article>",
    )
    found = extract(html, url="https://food.example/stew", metadata=True)
    assert found.kind == "article"
    assert found.metadata is not None and found.metadata["type"] == "recipe"


def test_faq_questions_name_no_thread_and_broken_declarations_cost_nothing():
    faq = {"@type": "FAQPage", "mainEntity": [{"@type": "Question", "name": "Why?"}]}
    html = page(
        ld(faq) + '<script type="application/ld+json">' + "[" * 50_000 + "</script>",
        "<article><p>" + PROSE + "</p></article>",
    )
    found = extract(html, url="https://tides.example/faq")
    assert found.kind == "landing"
    assert PROSE in found.text


def test_a_landing_page_shown_by_its_sections_prints_them_in_order():
    # Sections of one weight each, each beside a strip of customers' links that outweighs
    # its prose: the article rule chooses one section.
    names = ("hero", "features", "pricing", "stories")
    sections = "".join(
        f"<div class='{name}'><div class='inner'><h2>Part {n}</h2><p>{PROSE} {n}</p></div>"
        + "<div class='logos'>"
        + " ".join(f"<a href='/customer/{c}'>Customer number {c}</a>" for c in range(8))
        + "</div></div>"
        for n, name in enumerate(names)
    )
    html = page("", NAV + sections + "<footer><a href='/t'>Terms</a></footer>")
    found = extract(html, url="https://tides.example/")
    text = found.text
    places = [text.index(f"Part {n}") for n in range(4)]
    assert places == sorted(places)
    assert "Terms" not in text and "About" not in text
    assert found.kind == "landing"


def _sections_page(head: str) -> str:
    names = ("hero", "features", "pricing", "stories")
    sections = "".join(
        f"<div class='{name}'><div class='inner'><h2>Part {n}</h2><p>{PROSE} {n}</p></div>"
        + "<div class='logos'>"
        + " ".join(f"<a href='/customer/{c}'>Customer number {c}</a>" for c in range(8))
        + "</div></div>"
        for n, name in enumerate(names)
    )
    return page(head, NAV + sections + "<footer><a href='/t'>Terms</a></footer>")


def test_og_type_article_on_a_webpage_without_a_publication_time_declares_no_article():
    # WordPress's SEO plugins write og:type article and a JSON-LD WebPage on a site's
    # service pages too, and article:published_time only on its posts.
    og = '<meta property="og:type" content="article">'
    webpage = ld({"@graph": [{"@type": "WebPage", "name": "Services"}]})
    found = extract(_sections_page(og + webpage), url="https://tides.example/services/")
    assert found.kind == "landing"
    assert all(f"Part {n}" in found.text for n in range(4))
    dated = '<meta property="article:published_time" content="2026-01-05T08:00:00+00:00">'
    found = extract(_sections_page(og + webpage + dated), url="https://tides.example/2026/")
    assert found.kind == "article"
    # Without JSON-LD, og:type article is all a post may say of itself.
    assert extract(_sections_page(og), url="https://tides.example/2026/").kind == "article"


_FEATURES = (
    ("Berth plans", "Plans drawn for your quay"),
    ("Tide alerts", "A text before each high tide"),
    ("Pilot rota", "Who boards which ship, weekly"),
    ("Harbour dues", "Invoices sent by the month"),
    ("Dredging", "Channels kept at depth"),
    ("Moorings", "Buoys laid and checked"),
)


def test_a_landing_page_whose_choice_leaves_most_of_its_text_out_is_read_whole():
    # One section of prose, and around it what a service page is made of: a hero line
    # with its call to action, cards of a title and a short line, short questions and
    # answers. The article rule chooses the prose, which prints under half the page.
    cards = "".join(
        f"<div class='card'><h3>{title}</h3><p>{line}</p><a href='/f/{n}'>Learn more</a></div>"
        for n, (title, line) in enumerate(_FEATURES)
    )
    faq = "".join(
        f"<div class='qa'><h3>Do you work on {title.lower()}?</h3><p>Yes, all year.</p></div>"
        for title, _ in _FEATURES
    )
    html = page(
        "",
        NAV + "<div class='hero'><h1>Harbour services</h1><p>Run your port with us</p>"
        "<a href='/start'>Start today</a></div>"
        f"<div class='story'><p>{PROSE}</p><p>{PROSE}</p></div>"
        f"{f'<div class=grid>{cards}</div>' * 4}"
        f"<div class='questions'>{faq}</div>"
        "<footer><a href='/t'>Terms</a></footer>",
    )
    found = extract(html, url="https://tides.example/services")
    text = found.text
    assert PROSE in text
    for title, line in _FEATURES:
        assert title in text and line in text
    assert text.index("Run your port") < text.index(PROSE) < text.index("Berth plans")
    assert "Terms" not in text and "About" not in text
    assert found.kind == "landing"


def _faq_page(head: str) -> str:
    # A service page: a hero line, cards of a title and a short line each (text, but no
    # prose), then its questions and answers in an accordion, the page's longest prose.
    cards = "".join(
        f"<div class='card'><h3>{title}</h3><p>{line}</p><a href='/f/{n}'>Learn more</a></div>"
        for n, (title, line) in enumerate(_FEATURES)
    )
    answers = "".join(
        f"<li class='item'><h3>What about {title.lower()}?</h3><p>{PROSE} ({n})</p></li>"
        for n, (title, _) in enumerate(_FEATURES + _FEATURES[:2])
    )
    return page(
        head,
        NAV + "<div class='hero'><h1>Harbour services</h1><p>Run your port with us</p>"
        f"<a href='/start'>Start today</a></div><div class='grid'>{cards}</div>"
        f"<div class='grid'>{cards.replace('card', 'tile')}</div>"
        f"<div class='grid'>{cards.replace('card', 'box')}</div>"
        f"<section><h2>Questions</h2><ul class='faqAccordion'>{answers}</ul></section>"
        "<footer><p>Harbour Services Ltd, 1 Quay Road, registered in the port of Tides</p>"
        "<a href='/t'>Terms</a></footer>",
    )


def test_a_landing_pages_questions_and_answers_are_one_of_its_sections():
    # The answers outweigh the rest of the page's text (the other rules keep the choice):
    # a chosen box named for them, on a page that declares no article, is one section.
    found = extract(_faq_page(""), url="https://tides.example/services")
    text = found.text
    assert f"{PROSE} (7)" in text
    for title, line in _FEATURES:
        assert title in text and line in text
    assert text.index("Run your port") < text.index("Berth plans") < text.index(PROSE)
    assert "Terms" not in text and "About" not in text and "Quay Road" not in text
    assert found.kind == "landing"


def test_questions_and_answers_chosen_on_a_declared_article_stay_the_choice():
    found = extract(_faq_page(ld({"@type": "Article", "headline": "Q"})), url="https://t.example/")
    text = found.text
    assert f"{PROSE} (7)" in text
    assert "Run your port" not in text and "Berth plans" not in text
    assert found.kind == "article"


def _category_page(groups: int) -> str:
    # A category's page declared an FAQPage: its sub-categories, lists of links under
    # their headings, then its questions and answers, the page's only prose.
    links = "".join(
        f"<li><a href='/c/{n}'>{title}</a></li>" for n, (title, _) in enumerate(_FEATURES)
    )
    lists = "".join(f"<h3>Harbour works {g}</h3><ul>{links}</ul>" for g in range(groups))
    answers = "".join(
        f"<div class='faq-item'><h3>What about {title.lower()}?</h3><p>{PROSE} ({n})</p></div>"
        for n, (title, _) in enumerate(_FEATURES)
    )
    faq = {"@type": "FAQPage", "mainEntity": [{"@type": "Question", "name": "Why?"}]}
    return page(
        ld(faq),
        NAV + f"<h1>Harbour works</h1><section><h2>Explore harbour works</h2>{lists}</section>"
        f"<section class='faqs'><h2>Harbour works FAQs</h2>{answers}</section>"
        "<footer><a href='/t'>Terms</a></footer>",
    )


def test_a_declared_faq_beside_a_categorys_lists_of_links_is_one_section():
    found = extract(_category_page(8), url="https://tides.example/c/works")
    text = found.text
    assert f"{PROSE} (5)" in text
    assert "Harbour works 7" in text and "Dredging" in text
    assert text.index("Harbour works 0") < text.index(PROSE)
    assert "Terms" not in text and "About" not in text
    assert found.kind == "landing"
    # With a line of links beside it, the FAQ is what the page says: it stays the choice.
    found = extract(_category_page(0), url="https://tides.example/c/works")
    assert f"{PROSE} (5)" in found.text and "Explore harbour works" not in found.text


def test_a_choice_in_a_layout_table_is_not_one_section_of_a_landing_page():
    # An old forum laid out in tables: one cell holds the post, the cells around it the
    # poster's details and the board's rules, in short lines. Cells are no sections.
    rules = "".join(
        f"<tr><td>You may not {verb} in board {n}</td></tr>" for verb in _VERBS for n in range(3)
    )
    html = page(
        "",
        "<table><tr><td>Joined 2016<br>Posts: 12<br>Member</td>"
        f"<td><p>{PROSE}</p><p>{PROSE}</p></td></tr></table>"
        f"<table><tr><td>Posting rules</td></tr>{rules}</table>",
    )
    text = extract(html, url="https://board.example/thread?t=1").text
    assert PROSE in text
    assert "Posting rules" not in text and "You may not" not in text


_VERBS = (
    "post new threads", "post replies", "post attachments", "edit your posts",
    "vote in polls", "send messages", "upload pictures", "rate threads",
)  # fmt: skip


def test_a_list_outweighs_a_thin_choice():
    rows = "".join(
        f"<li class='row'><a href='/film/{n}'>Film number {n}</a> (19{n}0) rated {n}.5 by readers</li>"
        for n in range(1, 9)
    )
    html = page(
        "",
        NAV
        + "<div class='intro'><p>The films of the decade.</p></div><ol class='chart'>"
        + rows
        + "</ol>",
    )
    found = extract(html, url="https://films.example/chart")
    for n in range(1, 9):
        assert f"Film number {n}" in found.text
    assert found.kind == "listing"


def test_a_product_grid_in_a_box_named_after_its_pager_is_the_list():
    # Shops name the column that holds the grid and its pager after the pagination; a
    # box so named that holds more than a pager is walked, and its grid is the list.
    cards = "".join(
        f"<article class='product-card'><a href='/p/{n}'><h4>Tide clock model {n}</h4></a>"
        f"<p class='fit'>Brass case, {n + 10} cm, hand-wound, with a tide dial</p>"
        f"<p class='price'>${n * 7}</p></article>"
        for n in range(1, 13)
    )
    html = page(
        "",
        NAV
        + "<main><h1>Clocks</h1><div class='pagination_pagination__x1'>"
        + f"<div class='product-grid' role='list'>{cards}</div>"
        + "<div class='pagination-bottom'><a href='?page=2'>2</a> <a href='?page=3'>3</a>"
        + " <a href='?page=2'>Next</a></div></div></main>",
    )
    found = extract(html, url="https://shop.example/collections/clocks")
    for n in range(1, 13):
        assert f"Tide clock model {n}" in found.text
        assert f"${n * 7}" in found.text
    assert "Next" not in found.text
    assert found.kind == "listing"


def test_a_cards_date_alone_goes_from_a_list_its_titles_and_text_stay():
    # A blog's or a news site's index prints each item's date on a line of its own over
    # its linked title: when it was posted, not what it is. A date inside a sentence stays.
    dates = ["Feb 9, 2026", "12 January 2026", "2025-12-22", "3 hours ago", "58 mins ago"]
    cards = "".join(
        f"<article class='post-card'><div class='post-card__date'>{dates[n % 5]}</div>"
        f"<a href='/2026/{n}/launch'><h3>How the ferry timetable {n} was rebuilt</h3></a>"
        f"<p>Notes from the team on release train {n}, first run on March {n + 1}, 2025."
        "</p></article>"
        for n in range(8)
    )
    html = page(
        "",
        NAV + f"<main><h1>Engineering notes</h1><section class='posts'>{cards}</section></main>",
    )
    found = extract(html, url="https://notes.example/")
    assert found.kind == "listing"
    for n in range(8):
        assert f"How the ferry timetable {n} was rebuilt" in found.text
        assert f"first run on March {n + 1}, 2025." in found.text
    for date in dates:
        assert date not in found.text


def test_a_list_in_a_layout_that_has_a_sidebar_is_the_list():
    # "has-sidebar" names the layout that sets a sidebar beside the list, not the sidebar.
    cards = "".join(
        f"<article class='tease'><div class='tease__kicker'><a href='/r/{n}'>Region {n}</a>"
        f"</div><h3><a href='/story/{n}'>Hotel openings in week {n}</a></h3>"
        f"<div class='tease__by'>Anna Berg | {n} weeks ago</div></article>"
        for n in range(1, 9)
    )
    html = page(
        "",
        "<header><a href='/'>Lodging Daily</a> <a href='/subscribe'>Subscribe now</a></header>"
        + f"<main><h1>Latest News</h1><div class='layout has-sidebar'><div class='stack'>{cards}"
        + "</div><aside class='sidebar'><a href='/ads'>Advertise with us today</a></aside>"
        + "</div></main><footer><a href='/terms'>Terms of Service</a></footer>",
    )
    found = extract(html, url="https://lodging.example/news/")
    assert found.kind == "listing"
    for n in range(1, 9):
        assert f"Hotel openings in week {n}" in found.text
    for frame in ("Subscribe now", "Advertise with us today", "Terms of Service"):
        assert frame not in found.text


# ------------------------------------------ issue 25: the kinds man/wf.1 lists, one case each


def _man_page_kinds() -> list[str]:
    """The kinds man/wf.1's PAGE KINDS lists, in its order (one .TP/.B entry each)."""
    text = (ROOT / "man" / "wf.1").read_text()
    section = text.split("\n.SH PAGE KINDS\n", 1)[1].split("\n.SH ", 1)[0]
    return re.findall(r"^\.TP\n\.B (\S+)$", section, flags=re.M)


def test_the_kinds_are_the_man_page_s():
    assert _man_page_kinds() == list(tuning.KINDS)
    # METADATA's type names every kind but the article (which gives its declared type).
    text = " ".join((ROOT / "man" / "wf.1").read_text().split())
    said = re.search(r"the page's kind whose rule chose the text, (.+?), see \\fBPAGE KINDS", text)
    assert said, "man/wf.1's METADATA names the kinds metadata.type takes"
    named = re.findall(r"\\fB(\w+)\\fR", said.group(1))
    assert named == [k for k in tuning.KINDS if k != tuning.ARTICLE]


# One page of our own per kind (the declaration the man page gives it), and its address.
KIND_PAGES = {
    "article": (
        page(
            ld({"@type": "NewsArticle", "headline": "Tides"}),
            NAV + "<article><p>" + PROSE + "</p><p>" + PROSE + "</p></article>",
        ),
        "https://news.example/tides",
    ),
    "thread": (THREAD, "https://forum.example/t/1"),
    "documentation": (DOCS, "https://tides.example/docs/install"),
    "product": (PRODUCT, "https://shop.example/p/clock"),
    "listing": (LISTING, "https://shop.example/clocks"),
    "landing": (
        page(
            ld({"@type": "Service", "name": "Tide consulting"}),
            NAV + "<main><section><h2>What we do</h2><p>" + PROSE + "</p></section>"
            "<section><h2>How</h2><p>" + PROSE + "</p></section></main>",
        ),
        "https://tides.example/services",
    ),
}


@pytest.mark.parametrize("kind", _man_page_kinds())
def test_each_kind_the_man_page_lists_is_chosen_by_its_rule(kind):
    assert kind in KIND_PAGES, f"the man page's kind {kind!r} has no page here"
    html, url = KIND_PAGES[kind]
    found = extract(html, url=url, metadata=True)
    assert found.kind == kind
    assert found.metadata is not None
    assert found.metadata["type"] == ("article" if kind == "article" else kind)


def test_microdata_is_read_from_the_tree_only_when_the_source_names_an_itemtype():
    from lxml import etree

    from wf.extract.kinds.declared import read

    def never() -> bool:
        raise AssertionError("the source is searched only when the tree holds an itemtype")

    shop = "<html><body><div itemscope itemtype='https://schema.org/Product'>Kettle</div>"
    root = etree.fromstring(shop, etree.HTMLParser())
    assert read([], "", root, lambda: True).kinds[0][0] == tuning.PRODUCT
    # The tree holds one, but the source's word decides (the cheap test comes first).
    assert read([], "", root, lambda: False).kinds == []
    plain = etree.fromstring("<html><body><p>No microdata here.</p>", etree.HTMLParser())
    assert read([], "", plain, never).kinds == []


def test_verbose_says_the_kind_a_page_is_read_as_declared_or_not(capsys):
    # A page that declares nothing gets its line as one that declares a kind does.
    from common import trace

    article = page("", NAV + f"<article><h1>Tides</h1><p>{PROSE}</p><p>{PROSE[::-1]}</p></article>")
    posts = [post(f"user{n}", f"2024-0{n + 1}-02", PROSE + f" Reply {n}.") for n in range(6)]
    thread = page("", NAV + f"<h1>Tides</h1><div class='comments'>{''.join(posts)}</div>")
    told = page(ld({"@type": "BlogPosting", "headline": "Tides"}), article[article.index("<nav") :])
    trace.enable("wf", True)
    try:
        lines = []
        for html in (article, thread, told):
            found = extract(html, url="https://quay.example/p")
            lines.append(
                [
                    line
                    for line in capsys.readouterr().err.splitlines()
                    if "kind" in line or "read as" in line
                ]
            )
            lines[-1].append(found.kind)
    finally:
        trace.enable("wf", False)
    assert (
        "wf: * extract: read as article (nothing declared, and no posts or list shown: the article rule)"
        in lines[0]
    )
    assert any(
        "read as thread (nothing declared; the rule traced above" in line for line in lines[1]
    )
    assert lines[1][-1] == "thread"
    assert lines[2][:-1] == ["wf: * extract: kind article (JSON-LD blogposting)"]  # said once


@pytest.mark.parametrize(
    ("itemtype", "kind", "meta_type"),
    [
        ("NewsArticle", "article", "article"),
        ("BlogPosting", "article", "article"),
        ("Article", "article", "article"),
        ("Recipe", "article", "recipe"),
        ("TechArticle", "documentation", "documentation"),
    ],
)
@pytest.mark.parametrize("og", ["", '<meta property="og:type" content="website">'])
def test_an_article_declared_by_microdata_alone_says_its_type(itemtype, kind, meta_type, og):
    # No JSON-LD: the type the microdata declares is read as JSON-LD's would be, over
    # an og:type that names no content.
    html = page(
        og,
        NAV + f'<div itemscope itemtype="https://schema.org/{itemtype}">'
        "<h1 itemprop='headline'>Tides</h1><div itemprop='articleBody'>"
        + f"<p>{PROSE}</p>" * 3
        + "</div></div>",
    )
    found = extract(html, url="https://example.com/2024/03/tides", metadata=True)
    assert found.kind == kind
    assert found.metadata is not None and found.metadata["type"] == meta_type


TIDES = "https://example.com/2024/03/tides"


@pytest.mark.parametrize(
    ("head", "meta_type"),
    [
        (ld({"@type": "VideoObject", "name": "Tides", "url": TIDES}), "video"),
        (ld({"@type": "JobPosting", "title": "Tides"}), "job"),
        ('<meta property="og:type" content="video.other">', "video.other"),
    ],
)
def test_a_content_type_read_before_the_microdata_stands(head, meta_type):
    # JSON-LD (or an og:type) that names the page's content is read first: an article
    # the microdata declares does not say otherwise.
    html = page(
        head,
        NAV + '<div itemscope itemtype="https://schema.org/NewsArticle">'
        "<h1 itemprop='headline'>Tides</h1><div itemprop='articleBody'>"
        + f"<p>{PROSE}</p>" * 3
        + "</div></div>",
    )
    found = extract(html, url=TIDES, metadata=True)
    assert found.kind == "article"
    assert found.metadata is not None and found.metadata["type"] == meta_type


def test_the_choice_one_of_sibling_posts_widens_to_their_box():
    """The best block, one of several sibling boxes of one tag and class that each hold
    prose and make most of their box (wf/extract/kinds/siblings.widen), widens to that box,
    though the others' short lines keep their box's score under the post's."""
    from lxml import html as lxml_html

    from wf.extract import blocks

    labels = "".join(f"<p>Filed by the harbour office, line {n}</p>" for n in range(6))
    words = (
        PROSE * 6,
        "The ferry runs late on Sundays, and early on Mondays.",
        "Berth four is closed for repairs until the spring.",
        "A new crane arrived on Monday from the yard in Leith.",
    )
    entries = "".join(f"<div class='entry'><p>{w}</p>{labels}</div>" for w in words)
    body = lxml_html.fromstring(
        page("", f"{NAV}<main><h1>Quay news</h1><div class='entries'>{entries}</div></main>")
    ).find("body")
    analysis = blocks.choose(body)
    assert analysis.best is not None and analysis.best.get("class") == "entries"
