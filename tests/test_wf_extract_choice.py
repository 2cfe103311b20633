"""wf.extract's choice of the main content against the kinds of pages that mislead it:
consent dialogs longer than the article, "please enable JavaScript" notices, one section
of an article that outscores the body around it, and newsletter and related-article
teasers kept around a correct article; and the content a choice can miss or cut: an
article split around an advertisement, linked sentences in lists, data tables, a product's
specifications, page builders' numbered widgets, leads named "teaser", text-image boxes.
Every page here is a small one of our own."""

from __future__ import annotations

import pytest

from wf.extract import extract_text

# -- the pieces the pages are made of ----------------------------------------------------

ARTICLE_EN = (
    "<h1>Harbour seals return to the estuary</h1>"
    "<p>For the first time in thirty years, a colony of harbour seals has settled on the "
    "sandbanks at the mouth of the river, counted by volunteers on Saturday morning.</p>"
    "<p>The count found forty-two adults and eleven pups, which the survey team says "
    "points to a colony that has bred here for at least two seasons without being seen.</p>"
    "<p>Cleaner water and the closing of the old gravel works upstream are the likeliest "
    "reasons, according to the marine biologist who leads the monthly counts.</p>"
)
ARTICLE_EN_KEY = "forty-two adults and eleven pups"

ARTICLE_DE = (
    "<h1>Neue Radbrücke über den Kanal eröffnet</h1>"
    "<p>Nach zwei Jahren Bauzeit ist die neue Radbrücke über den Kanal am Samstag für den "
    "Verkehr freigegeben worden; sie verbindet die Altstadt mit dem neuen Wohngebiet.</p>"
    "<p>Die Brücke ist vier Meter breit und hat eine eigene Spur für Fußgänger, damit sich "
    "Radfahrer und Spaziergänger auf dem Weg zur Arbeit nicht mehr in die Quere kommen.</p>"
    "<p>Die Stadt rechnet mit bis zu dreitausend Fahrten am Tag und will im Herbst zählen, "
    "ob die Strecke über die Brücke den Verkehr auf der alten Hauptstraße entlastet.</p>"
)
ARTICLE_DE_KEY = "vier Meter breit und hat eine eigene Spur"

LEGAL_EN = "".join(
    f"<p>{text}</p>"
    for text in (
        "We and our 843 partners store and access information on your device, such as "
        "cookies and unique identifiers, and process personal data such as browsing data "
        "for the purposes described below. You may click to consent to our and our "
        "partners' processing, or refuse consent, or access more detailed information.",
        "Store and/or access information on a device. Cookies, device identifiers or other "
        "information can be stored or accessed on your device for the purposes presented "
        "to you. Some vendors may process your personal data on the basis of legitimate "
        "interest, which you can object to by managing your options below.",
        "Use limited data to select advertising. Create profiles for personalised "
        "advertising. Use profiles to select personalised content. Measure advertising "
        "performance. Measure content performance. Understand audiences through "
        "statistics or combinations of data from different sources.",
        "Develop and improve services. Use limited data to select content. Your choices "
        "will be applied to this site only and stored in a cookie for thirteen months; you "
        "can change your settings or withdraw your consent at any time from the privacy "
        "link at the bottom of every page, including for the vendors listed below.",
    )
)
LEGAL_DE = "".join(
    f"<p>{text}</p>"
    for text in (
        "Wir und unsere 214 Partner speichern und verarbeiten Informationen auf Ihrem "
        "Gerät, etwa Cookies und eindeutige Kennungen, und verarbeiten personenbezogene "
        "Daten wie Ihr Nutzungsverhalten zu den unten genannten Zwecken. Mit einem Klick "
        "auf Zustimmen willigen Sie in diese Verarbeitung ein.",
        "Informationen auf einem Gerät speichern und abrufen. Personalisierte Werbung und "
        "Inhalte, Messung von Werbe- und Inhaltsleistungen, Erkenntnisse über Zielgruppen "
        "und Produktentwicklung. Einige Partner verarbeiten Ihre Daten auf Grundlage "
        "eines berechtigten Interesses, dem Sie widersprechen können.",
        "Ihre Einwilligung ist freiwillig und kann jederzeit über den Link "
        "Datenschutzeinstellungen am Ende jeder Seite widerrufen werden. Ihre Auswahl "
        "wird in einem Cookie für dreizehn Monate gespeichert und gilt nur für dieses "
        "Angebot und die unten aufgeführten Anbieter von Drittdiensten.",
        "Die Verarbeitung umfasst auch die Übermittlung von Daten in Drittländer, in "
        "denen kein mit der Europäischen Union vergleichbares Datenschutzniveau besteht, "
        "darunter die Vereinigten Staaten; Einzelheiten stehen in unserer "
        "Datenschutzerklärung und in der Liste unserer Partner.",
    )
)
LEGAL_EN_KEY = "843 partners"
LEGAL_DE_KEY = "214 Partner"

NAV = (
    '<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>'
    '<li><a href="/sport">Sport</a></li></ul>'
)


def _page(*parts: str) -> str:
    return f"<html><head><title>t</title></head><body>{''.join(parts)}</body></html>"


# -- consent dialogs ---------------------------------------------------------------------

_CONSENT_BOXES = {
    # A platform's preference centre, named only by the platform's own ids and classes.
    "onetrust": '<div id="onetrust-pc-sdk" class="otPcCenter ot-fade-in">{}</div>',
    "sourcepoint": '<div id="sp_message_container_1234" class="message-container">{}</div>',
    "didomi": '<div class="didomi-popup-container didomi-notice">{}</div>',
    # A site's own dialog, named by its ARIA role alone.
    "role": '<div class="layer" role="dialog" aria-label="x">{}</div>',
    "alertdialog": '<div class="box-a" role="alertdialog" aria-modal="true">{}</div>',
    # No names at all: a box fixed over the page, recognised by its text.
    "text": '<div class="ov"><div class="ov-inner">{}</div></div>',
}


@pytest.mark.parametrize("box", sorted(_CONSENT_BOXES))
@pytest.mark.parametrize(
    ("article", "key", "legal", "legal_key"),
    [
        (ARTICLE_EN, ARTICLE_EN_KEY, LEGAL_EN, LEGAL_EN_KEY),
        (ARTICLE_DE, ARTICLE_DE_KEY, LEGAL_DE, LEGAL_DE_KEY),
    ],
    ids=["en", "de"],
)
def test_a_consent_dialog_longer_than_the_article_is_not_chosen(
    box: str, article: str, key: str, legal: str, legal_key: str
):
    html = _page(
        NAV,
        f'<div class="c1"><div class="c2">{article}</div></div>',
        _CONSENT_BOXES[box].format(f"<h2>Privacy</h2>{legal}"),
    )
    text = extract_text(html)
    assert key in text
    assert legal_key not in text


def test_a_privacy_policy_page_is_still_its_own_content():
    """The same words in a page that is about privacy are the page: nothing else to take."""
    html = _page(NAV, f"<div><h1>Privacy policy</h1>{LEGAL_EN}</div>")
    assert LEGAL_EN_KEY in extract_text(html)


# A consent manager's text as most are written: its words (cookies, partners, purposes)
# among sentences of others, sparser than LEGAL_EN, and longer than the article.
_SPARSE_LEGAL_EN = (
    "We value your privacy and we want you to understand how this site works.",
    "Use limited data to select advertising: what you see here can be based on limited "
    "data, such as the site you are reading or the city you are browsing from.",
    "Measure how well articles and offers do, understand audiences through statistics, "
    "and develop and improve the services you use every day on this site and others.",
    "Our 612 partners may combine what they learn here with what they learned elsewhere "
    "to build a picture of your interests and to show you offers that suit them.",
    "Ensure security, prevent and detect fraud, and fix errors, so that the systems and "
    "software behind this site keep working the way they are meant to work.",
    "Some partners rely on their legitimate interest rather than on your consent; you "
    "can object to that in the settings, where each partner is listed by name.",
    "Your choices apply to this site only and are stored in a cookie for thirteen months; "
    "change them at any time with the link at the foot of every page.",
    "Precise location and the scanning of device characteristics are used by a few "
    "partners only, and you can refuse them separately from everything else.",
)
_SPARSE_KEY = "612 partners"


def _sparse_legal(times: int) -> str:
    return "".join(f"<p>{s}</p>" for _ in range(times) for s in _SPARSE_LEGAL_EN)


@pytest.mark.parametrize(
    ("box", "where"),
    [
        ("<div class='l0'><div class='l1'><h2>Privacy</h2>{}</div></div>", "end"),
        ("<div class='l0'><div class='l1'><h2>Privacy</h2>{}</div></div>", "start"),
        ("<div class='x-ov' style='position: fixed; inset: 0'><div>{}</div></div>", "middle"),
    ],
    ids=["edge-end", "edge-start", "fixed"],
)
def test_an_unnamed_consent_dialog_with_sparse_legal_words_is_not_chosen(box: str, where: str):
    """No platform name, no dialog role: a box at the very start or end of <body>, or fixed
    over the page, whose text reads as a consent manager's even where its words are sparse."""
    dialog = box.format(_sparse_legal(2))
    article = f"<div class='c1'><div class='c2'>{ARTICLE_EN}</div></div>"
    parts = {
        "end": (NAV, article, dialog),
        "start": (dialog, NAV, article),
        "middle": (NAV, dialog, article, "<footer><p>Contact</p></footer>"),
    }[where]
    text = extract_text(_page(*parts))
    assert ARTICLE_EN_KEY in text
    assert _SPARSE_KEY not in text


def test_a_long_unnamed_consent_dialog_at_the_edge_is_not_chosen():
    """Longer than the 6 000 characters past which a consent text elsewhere on the page is
    read as a privacy policy: at the edge of <body> it is still a dialog."""
    dialog = f"<div class='l0'>{_sparse_legal(3)}{LEGAL_EN * 3}</div>"
    links = "".join(f"<li><a href='/s/{n}'>Section number {n}</a></li>" for n in range(40))
    footer = f"<footer><ul>{links}</ul></footer>"
    text = extract_text(_page(NAV, f"<div class='c1'>{ARTICLE_EN}</div>", footer, dialog))
    assert ARTICLE_EN_KEY in text
    assert LEGAL_EN_KEY not in text


def test_a_consent_dialog_does_not_hide_an_article_in_a_box_named_as_boilerplate():
    """Without the dialog the first look finds next to nothing (the article sits in a box
    whose name reads as boilerplate): the page is read again whole, the dialog set aside."""
    html = _page(
        NAV,
        f"<div class='widget-area'><div class='w-in'>{ARTICLE_DE}</div></div>",
        f"<div class='l0'><div class='l1'><h2>Datenschutz</h2>{LEGAL_DE}{LEGAL_DE}</div></div>",
    )
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert LEGAL_DE_KEY not in text


@pytest.mark.parametrize("box", ["onetrust", "didomi", "role"])
def test_a_named_consent_dialog_does_not_outweigh_an_article_in_a_box_named_as_boilerplate(
    box: str,
):
    """When the page is read again whole to find the article's box, the prose of boxes
    that can never be content (a consent manager's) does not count in the page's total:
    the box holds most of the rest."""
    html = _page(
        _CONSENT_BOXES[box].format(f"<h2>Privacy</h2>{LEGAL_EN}{_sparse_legal(2)}"),
        NAV,
        f"<div class='widget-area'><div class='w-in'>{ARTICLE_DE}</div></div>",
    )
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert LEGAL_EN_KEY not in text


def test_an_unnamed_privacy_text_in_the_middle_of_the_page_is_still_its_content():
    """A guard: the sparser reading is for boxes at the edge or over the page; a privacy
    page's text inside the layout (navigation before, footer after) stays the content."""
    html = _page(
        NAV,
        f"<div class='c1'><h1>Privacy</h1>{_sparse_legal(2)}</div>",
        "<footer><p>Contact</p></footer>",
    )
    assert _SPARSE_KEY in extract_text(html)


# -- "please enable JavaScript" ------------------------------------------------------------

JS_NOTICES = {
    "en": (
        "You are using a browser with JavaScript turned off. Many features of this site, "
        "such as the comments, the image galleries and the interactive maps, only work "
        "with JavaScript. Please enable JavaScript in your browser settings and reload "
        "the page to see all of its content, or switch to a browser that supports it."
    ),
    "de": (
        "Sie verwenden einen Browser, in dem JavaScript deaktiviert ist. Viele Funktionen "
        "dieser Seite, etwa die Kommentare, die Bildergalerien und die interaktiven Karten, "
        "funktionieren nur mit JavaScript. Bitte aktivieren Sie JavaScript in Ihren "
        "Browser-Einstellungen und laden Sie die Seite neu, um alle Inhalte zu sehen."
    ),
}


def _short_paragraph_article() -> str:
    # An article of short paragraphs (a recipe's steps, a product page): each alone is
    # too short to count as prose, so a notice of one long paragraph can outscore them.
    steps = (
        "Heat the oven to 200 degrees.",
        "Slice the leeks into thin rings.",
        "Melt the butter in a wide pan.",
        "Soften the leeks for ten minutes.",
        "Stir in the cream and the mustard.",
        "Season with salt and black pepper.",
        "Pour it all into a buttered dish.",
        "Cover the top with grated cheese.",
        "Bake for twenty-five minutes.",
        "Rest five minutes before serving.",
    )
    return "<h1>Leek gratin</h1>" + "".join(f"<p>{s}</p>" for s in steps)


@pytest.mark.parametrize("lang", sorted(JS_NOTICES))
@pytest.mark.parametrize("wrapper", ["noscript", "div"])
def test_a_javascript_notice_is_not_chosen_over_the_article(lang: str, wrapper: str):
    notice = f'<{wrapper} class="x1"><div class="x2"><p>{JS_NOTICES[lang]}</p></div></{wrapper}>'
    html = _page(notice, NAV, f'<div class="c1">{_short_paragraph_article()}</div>')
    text = extract_text(html)
    assert "Soften the leeks for ten minutes." in text
    assert "Bake for twenty-five minutes." in text
    assert "JavaScript" not in text


@pytest.mark.parametrize("lang", sorted(JS_NOTICES))
def test_a_javascript_notice_does_not_hide_an_article_in_a_box_named_as_boilerplate(lang: str):
    """The notice outscores all the first look finds; set aside, it leaves the page thin,
    and the page read again whole shows the article in its box (named as a widget)."""
    notice = f"<div class='msg'><p>{JS_NOTICES[lang]}</p></div>"
    html = _page(
        notice,
        NAV,
        f"<div class='widget-area'><div class='w-in'>{ARTICLE_DE}</div></div>",
        "<footer><p>Impressum</p></footer>",
    )
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert "JavaScript" not in text
    assert "Sport" not in text


def test_a_javascript_notice_inside_the_article_is_left_out():
    body = ARTICLE_EN + f"<noscript><p>{JS_NOTICES['en']}</p></noscript>"
    text = extract_text(_page(NAV, f"<article>{body}</article>"))
    assert ARTICLE_EN_KEY in text
    assert "JavaScript" not in text


@pytest.mark.parametrize("wrapper", ["div", "noscript"])
def test_a_video_notice_in_a_short_article_drops_the_notice_not_the_article(wrapper: str):
    """A short article with a player's "enable JavaScript" box in it: the box is the
    notice, not the article around it."""
    body = (
        "<h1>Open thread</h1><p>Once a quarter we open a thread for your questions about our "
        "work, the charities we look at and the research behind our picks; ask below, or "
        "write to us if you would rather talk about it in private.</p>"
        "<p>Last quarter's thread is in the archive.</p>"
        f"<{wrapper} class='player'><p>To view this video please enable JavaScript, and "
        f"consider upgrading to a web browser that supports HTML5 video.</p></{wrapper}>"
    )
    html = _page(
        NAV,
        "<div class='search-box'><h3>Search</h3><p>Search the site and the blog at once, "
        "by keyword or by title.</p></div>",
        f"<div class='c1'><div class='entry'>{body}</div></div>",
    )
    text = extract_text(html)
    assert "the charities we look at" in text
    assert "Last quarter's thread" in text
    assert "enable JavaScript" not in text
    assert "by keyword or by title" not in text


def test_an_article_about_javascript_keeps_its_words():
    body = (
        "<h1>Closures in JavaScript</h1>"
        "<p>JavaScript functions remember the variables of the scope they were created in; "
        "this pairing of a function with its surroundings is what people call a closure.</p>"
        "<p>Enable strict mode in JavaScript with one line at the top of a file, and the "
        "language turns several silent mistakes into errors you can see and fix.</p>"
    )
    text = extract_text(_page(NAV, f"<article>{body}</article>"))
    assert "Enable strict mode in JavaScript" in text


# -- one section chosen instead of the article around it -----------------------------------


def _wiki_paragraph(n: int) -> str:
    # A wiki's prose: half of it links to other articles.
    return (
        f"<p>The <a href='/w/{n}a'>lighthouse at the northern cape</a> was built in "
        f"{1850 + n} from <a href='/w/{n}c'>island granite</a>, and its "
        f"<a href='/w/{n}d'>first-order Fresnel lens</a> came from "
        f"<a href='/w/{n}e'>the Paris workshops</a> in crates lined with straw.</p>"
    )


def test_a_trivia_section_does_not_replace_the_article_that_holds_it():
    trivia = "".join(
        f"<li>Trivia item {n}: the keeper's logbook for that winter records storms on "
        f"{n + 3} nights in a row, and a cat that slept on the lamp room's warm floor.</li>"
        for n in range(8)
    )
    infobox = (
        "<table class='infobox'>"
        + "".join(
            f"<tr><th>Field {n}</th><td><a href='/w/i{n}'>Linked value number {n}</a></td></tr>"
            for n in range(12)
        )
        + "</table>"
    )
    navbox = (
        "<div class='navbox-x'><ul>"
        + "".join(f"<li><a href='/w/n{n}'>Another lighthouse {n}</a></li>" for n in range(25))
        + "</ul></div>"
    )
    body = (
        "<h1>Northern Cape Lighthouse</h1>"
        + infobox
        + "".join(_wiki_paragraph(n) for n in range(6))
        + f"<h2>Trivia</h2><ul>{trivia}</ul>"
        + navbox
    )
    html = _page(
        NAV,
        f'<div id="content"><div id="bodyContent"><div class="mw-parser-output">{body}</div>'
        f"</div></div>",
    )
    text = extract_text(html)
    assert "Trivia item 5" in text
    assert "in crates lined with straw" in text
    assert "was built in 1853" in text
    assert "Another lighthouse 7" not in text


def test_a_behind_the_scenes_block_does_not_replace_the_article():
    paragraphs = "".join(_wiki_paragraph(n) for n in range(6))
    behind = (
        "<section><h2>Behind the scenes</h2>"
        "<p>Filming took place over eleven days in a February gale, and the crew slept in "
        "the keeper's cottage, which still had no electricity and only a wood stove.</p>"
        "<p>The lamp scenes were shot with the real lens, lit by a film light placed where "
        "the paraffin burner once stood, because a model looked wrong on camera.</p>"
        "<p>The director later said the weather did more for the film than any set could "
        "have done, and kept the sound of the wind in the final cut of every scene.</p>"
        "</section>"
    )
    html = _page(NAV, f"<article><h1>The Keeper (film)</h1>{paragraphs}{behind}</article>")
    text = extract_text(html)
    assert "was built in 1852" in text
    assert "Filming took place over eleven days" in text


_REPLIES = (
    "I have lived on this coast all my life and never once saw a seal in the estuary; my "
    "grandfather would not have believed it.",
    "Good to read some news that is not about the ferry timetable for once. Well done to "
    "the volunteers who count them every month.",
    "The gravel works closed eleven years ago, so the water has had time to clear. Makes "
    "sense that the fish came back first, then the seals.",
    "Please keep dogs on leads on the sandbanks this summer. The pups are easy to disturb "
    "and the mothers will leave them.",
    "Is there a place to watch them without getting too close? Asking for a school trip "
    "we are planning in June with two classes.",
    "Forty-two adults is a lot more than I expected. Will the survey be published so that "
    "we can read the full numbers for ourselves?",
)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_thread_of_comments_without_names_after_the_article_is_left_out(lang: str):
    """Reader comments in boxes with no telling names, after the article in the same box:
    entries of one shape, each a byline, a paragraph and a short reply link."""
    reply, ago = ("Reply", "2 hours ago") if lang == "en" else ("Antworten", "vor 2 Stunden")
    entries = "".join(
        f"<li class='e'><div class='hd'><b>reader{n}</b> <span>{ago}</span></div>"
        f"<p>{text}</p><div class='ft'><a href='#r{n}'>{reply}</a></div></li>"
        for n, text in enumerate(_REPLIES * 2)
    )
    article = f"<div class='txt'>{ARTICLE_EN}{ARTICLE_EN.replace('<h1>', '<h2>')}</div>"
    html = _page(
        NAV,
        f"<div class='wrap'>{article}<div class='s-x'><h2>12</h2><ol>{entries}</ol></div></div>",
    )
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    assert "the monthly counts" in text
    assert "grandfather would not have believed it" not in text
    assert reply not in text


_DOC_TOPICS = (
    ("Creating a queue", "A queue is created empty and grows as the producers add work to it; "
     "each item waits until a worker is free and takes the oldest one first."),
    ("Adding work", "Work is added with one call that returns at once, so that a producer "
     "never waits for a worker, even when every worker is busy with a long task."),
    ("Taking work", "A worker asks for the next item and sleeps while the queue is empty, "
     "waking when a producer adds work or when the queue is closed for good."),
    ("Closing the queue", "Closing the queue lets the workers finish what is left and then "
     "return; items added after the queue is closed are refused with an error."),
    ("Errors in workers", "An error raised by a worker is kept with its item and raised "
     "again where the result is read, so that nothing is lost without a word."),
)  # fmt: skip


def test_documentation_sections_with_linked_headings_are_not_a_comment_thread():
    """A documentation page's sections after its introduction: each a heading linked to
    its own anchor, paragraphs and a short line (the version it came in). Entries of
    one shape, but a linked heading is no reply link: the sections stay."""
    sections = "".join(
        f"<section class='content-section'><h2 id='s{n}'><a href='#s{n}'>{title}</a></h2>"
        f"<p>Since version {n}.</p>{f'<p>{text}</p>' * 4}<pre>queue.add({n})</pre></section>"
        for n, (title, text) in enumerate(_DOC_TOPICS)
    )
    html = _page(
        NAV,
        f"<main><div class='intro'>{ARTICLE_EN}{ARTICLE_EN.replace('<h1>', '<h2>')}</div>"
        f"<div class='sections'>{sections}</div></main>",
    )
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    for _, words in _DOC_TOPICS:
        assert words in text


def test_short_sections_under_headings_linked_to_their_anchors_are_not_teaser_cards():
    """A heading that is all link titles a teaser for another page; one that links to its
    own anchor titles a section of this page, however short the section."""
    sections = "".join(
        f"<section><h2 id='s{n}'><a href='#s{n}'>{title}</a></h2><p>{text}</p></section>"
        for n, (title, text) in enumerate(_DOC_TOPICS)
    )
    html = _page(NAV, f"<main>{ARTICLE_EN}{sections}</main>")
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    for title, words in _DOC_TOPICS:
        assert title in text
        assert words in text


def test_table_rows_are_not_a_comment_thread():
    """Rows of a table after a page's introduction, each a name, a sentence, a short
    link and a date: data, not reader comments."""
    rows = "".join(
        f"<tr><td>{title}</td><td>{text}</td><td><a href='/t{n}'>details</a></td>"
        f"<td>2024-0{n + 1}-01</td></tr>"
        for n, (title, text) in enumerate(_DOC_TOPICS)
    )
    html = _page(
        NAV,
        f"<main><div class='intro'>{ARTICLE_EN}{ARTICLE_EN.replace('<h1>', '<h2>')}</div>"
        f"<table><tbody>{rows}</tbody></table></main>",
    )
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    for _, words in _DOC_TOPICS:
        assert words in text


def test_a_named_comment_section_does_not_make_the_article_around_it_a_link_list():
    """A comment section named as such is not walked into: its text weighs as boilerplate.
    The box that holds it beside the rest of the article is no list of links for that."""
    entries = "".join(f"<li><p>{text}</p></li>" for text in _REPLIES * 2)
    html = _page(
        NAV,
        "<div class='story'><div class='head'><h1>Seals</h1></div><p>A standfirst of the "
        "story, long enough to be prose: the seals are back, and the town is delighted.</p>"
        f"{ARTICLE_EN}{ARTICLE_EN.replace('h1>', 'h2>')}<div class='more'><div class='txt'>"
        f"{ARTICLE_DE}{ARTICLE_DE.replace('h1>', 'h2>')}</div>"
        f"<section class='comments-area'><ol>{entries}</ol></section></div></div>",
    )
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    assert ARTICLE_DE_KEY in text
    assert "grandfather would not have believed it" not in text


def test_a_thread_left_out_keeps_every_part_of_an_article_split_in_boxes():
    """Without the thread the choice stands: scored again, the best single block would be
    one part of an article that the page splits in boxes (a headline, links between)."""
    entries = "".join(
        f"<li class='e'><div class='hd'><b>reader{n}</b> <span>2 hours ago</span></div>"
        f"<p>{text}</p><div class='ft'><a href='#r{n}'>Reply</a></div></li>"
        for n, text in enumerate(_REPLIES * 2)
    )
    links = "".join(f"<a href='/t/{n}'>Topic number {n}</a> " for n in range(12))
    lead = ARTICLE_DE.split("</p>")[0].split("</h1>")[1] + "</p>"
    html = _page(
        NAV,
        f"<article class='story'><div class='b1'>{lead}</div><div class='tags'>{links}"
        f"</div><div class='b2'>{ARTICLE_EN}{ARTICLE_EN.replace('h1>', 'h2>') * 2}</div>"
        f"<div class='s-x'><ol>{entries}</ol></div></article>",
    )
    text = extract_text(html)
    assert "Nach zwei Jahren Bauzeit" in text
    assert ARTICLE_EN_KEY in text
    assert "grandfather would not have believed it" not in text


def test_entries_of_one_shape_that_are_the_page_stay():
    """A guard: a page that is such a list and little else (a guestbook, a live page)
    keeps it: without it there is no article."""
    entries = "".join(
        f"<li class='e'><div class='hd'><b>reader{n}</b> <span>2 hours ago</span></div>"
        f"<p>{text}</p><div class='ft'><a href='#r{n}'>Reply</a></div></li>"
        for n, text in enumerate(_REPLIES)
    )
    html = _page(NAV, f"<div class='wrap'><h1>Guestbook</h1><ol>{entries}</ol></div>")
    assert "grandfather would not have believed it" in extract_text(html)


# -- teasers around a correct article --------------------------------------------------------


def test_newsletter_and_related_teasers_around_the_article_are_dropped():
    related = "".join(
        f'<div class="c-item"><a href="/a/{n}"><h3>Story number {n} in the series</h3></a>'
        f"<span>3 min</span></div>"
        for n in range(5)
    )
    html = _page(
        NAV,
        '<div class="c1"><div class="c2">',
        ARTICLE_DE,
        # A call to act, in a box with a neutral name.
        '<div class="box-k"><p>Unsere Zeitung jeden Morgen in Ihrem Postfach: Jetzt vier '
        'Wochen gratis testen und Vorteile sichern! <a href="/nl">Hier entlang</a></p></div>',
        '<div class="box-r"><h2>Unsere neue Rubrik</h2>',
        related,
        "</div>",
        "</div></div>",
    )
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert "Vorteile sichern" not in text
    assert "Story number 3" not in text
    assert "Unsere neue Rubrik" not in text


def test_related_cards_inside_the_article_do_not_sink_it_under_a_news_feed():
    """Teaser cards (a linked title over a one-line excerpt) at the end of the article's
    own box are left out, and weigh only by their links: their excerpts do not count
    against the article, so that a feed of short items beside it does not win."""
    paragraphs = "".join(
        f"<p>Absatz {n}: Die Stadtwerke wollen bis zum Jahr 2030 alle Straßenlaternen auf "
        f"sparsame Leuchten umstellen; im ersten Schritt sind die Wohngebiete im Norden an "
        f"der Reihe, danach die Ausfallstraßen und zuletzt die Altstadt.</p>"
        for n in range(10)
    )
    cards = "".join(
        f"<div class='card'><a href='/a/{n}'><h4>Weitere Meldung Nummer {n} aus der "
        f"Region</h4></a><p>Was sich im nächsten Monat ändert und wen es besonders trifft, "
        f"lesen Sie hier.</p></div>"
        for n in range(8)
    )
    feed = "".join(
        f"<li><span>{10 + n}:00</span><p>Kurzmeldung {n}: Auf der Umgehungsstraße staut "
        f"sich der Verkehr nach einem Unfall, die Polizei bittet um Geduld.</p></li>"
        for n in range(16)
    )
    sitemap = "".join(
        f"<li><a href='/s/{n}'>Stadtteil und Rubrik Nummer {n}</a></li>" for n in range(60)
    )
    html = _page(
        NAV,
        f"<div class='page'><div class='main-col'><h1>Neue Laternen</h1><div class='txt'>"
        f"{paragraphs}<div class='box-r'><h3>Unsere neue Rubrik</h3>{cards}</div></div>"
        "</div></div>",
        f"<div class='live'><ul>{feed}</ul></div>",
        f"<div class='map'><ul>{sitemap}</ul></div>",
    )
    text = extract_text(html)
    assert "Absatz 6: Die Stadtwerke" in text
    assert "Weitere Meldung Nummer 3" not in text
    assert "Kurzmeldung 5" not in text


@pytest.mark.parametrize(
    ("title", "excerpt"),
    [
        ("Night buses will run for another year", "Readers ask what changes next month, and why."),
        ("駅前の再開発、来年春に着工へ", "来月から何が変わるのかをまとめました。"),
    ],
    ids=["en", "ja"],
)
def test_teaser_cards_with_a_short_excerpt_inside_the_article_are_dropped(title: str, excerpt: str):
    """A card whose linked title sits over a line too short to be prose is a teaser all
    the same: left out wherever it sits in the article (here after its second paragraph)."""
    cards = "".join(
        f"<div class='card'><a href='/a/{n}'><h4>{title} ({n})</h4></a><p>{excerpt}</p></div>"
        for n in range(5)
    )
    first, second, rest = ARTICLE_EN.split("</p>", 2)
    body = f"{first}</p>{second}</p><div class='box'><h3>More</h3>{cards}</div>{rest}"
    text = extract_text(_page(NAV, f"<div class='c1'><div class='c2'>{body}</div></div>"))
    assert ARTICLE_EN_KEY in text
    assert "the monthly counts" in text
    assert f"{title} (3)" not in text
    assert excerpt not in text


_SIGNUPS = {
    "en": (
        "Get the morning brief",
        "Our editors pick the five stories you need each weekday, delivered to your inbox "
        "before breakfast. Free, and you can leave at any time.",
        "<button>Sign me up</button>",
    ),
    "fr": (
        "Recevez notre lettre",
        "Chaque vendredi, le meilleur de la semaine dans votre boîte mail : inscrivez-vous "
        "gratuitement et profitez de nos offres.",
        "<a href='/nl'>Je m'inscris</a>",
    ),
    # Short in characters: a Japanese pitch says as much in half as many.
    "ja": (
        "メールマガジン",
        "毎朝、編集部が選んだ注目のニュースをお届けします。登録は無料で、いつでも解除できます。",
        "<button>今すぐ登録</button>",
    ),
}


@pytest.mark.parametrize("lang", sorted(_SIGNUPS))
def test_a_signup_box_with_a_form_inside_the_article_is_left_out(lang: str):
    """A newsletter's pitch in a box of no telling name, around a form, after the
    article's second paragraph: a small box that holds a form is the form's widget."""
    head, pitch, act = _SIGNUPS[lang]
    box = f"<div class='unit'><h3>{head}</h3><p>{pitch}</p><form action='/nl'>{act}</form></div>"
    first, second, rest = ARTICLE_EN.split("</p>", 2)
    body = f"{first}</p>{second}</p>{box}{rest}"
    text = extract_text(_page(NAV, f"<div class='c1'><div class='c2'>{body}</div></div>"))
    assert ARTICLE_EN_KEY in text
    assert "the monthly counts" in text
    assert pitch not in text


def test_a_title_above_a_form_in_the_article_stays():
    """A guard: a recipe's title over its rating form says nothing to sign up for."""
    card = (
        "<div class='rc'><h2>Spiced plum jam</h2><form action='/rate'><input name='r'>"
        "<button>Rate</button></form></div>"
    )
    html = _page(NAV, f"<div class='c1'>{ARTICLE_EN}{card}<p>Makes four jars.</p></div>")
    assert "Spiced plum jam" in extract_text(html)


@pytest.mark.parametrize(
    "name", ["newsletter-signup", "abo-teaser", "piano-offer teaser", "paywall-promo"]
)
def test_subscription_boxes_named_so_are_dropped(name: str):
    box = (
        f'<div class="{name}"><p>Lesen Sie weiter mit unserem Digitalabo: alle Artikel, '
        f"das E-Paper und die App für nur einen Euro im ersten Monat, jederzeit kündbar.</p>"
        f'<a href="/abo">Jetzt testen</a></div>'
    )
    html = _page(NAV, f"<article>{ARTICLE_DE}{box}</article>")
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert "Digitalabo" not in text


_ISSUE = (
    "This week we look at why a short walk after dinner steadies the evening's blood sugar.",
    "Three small studies timed walks of ten, twenty and thirty minutes against sitting "
    "still, and all three found the peak after a meal came lower and later with a walk.",
    "The gain was largest in the first half hour after eating, when most of the sugar from "
    "a meal reaches the blood, so that a walk an hour later helps far less.",
    "None of the studies asked people to walk fast: an easy pace that still allows a "
    "conversation was enough, which makes the habit easy to keep through the winter.",
    "If a walk is not possible, standing and tidying the kitchen gave about half the "
    "benefit in one of the studies, and a few minutes of climbing stairs a little more.",
    "A phone's step counter is enough to check the habit: about two thousand steps after "
    "the evening meal matches the thirty-minute walks in the studies.",
    "People who take insulin should ask their doctor first, since a walk adds to what the "
    "medicine does and the two together can bring the level too low.",
    "The studies found no harm in walking straight after a meal, despite the old advice to "
    "rest first; only a hard run on a full stomach gave some runners a stitch.",
    "Next week's issue turns to sleep: why a fixed time to wake up seems to matter more "
    "than the hour at which you go to bed.",
)


def test_an_issue_of_a_newsletter_published_as_a_page_is_its_content():
    """A site that publishes each issue of its newsletter as a page names the issue's box
    after the newsletter: paragraphs of prose and no form make it the content, where the
    readers' quotes below it would otherwise win. The sign-up box (a form) still goes."""
    issue = "".join(f"<p>{p}</p>" for p in _ISSUE)
    quotes = "".join(
        f"<div class='quote'><p>{q}</p><p>Reader {n}</p></div>"
        for n, q in enumerate(
            (
                "The one email I read the day it arrives, and I have learned a lot from it.",
                "Clear, practical and never padded: I changed my evenings after one issue.",
                "I forward every issue to my parents, who now walk after dinner as well.",
                "Short enough to read over breakfast and careful about what studies show.",
            )
        )
    )
    html = _page(
        NAV,
        "<main><section class='hero cc-newsletter'><div class='newsletter-wrapper'>",
        f"<h1>Walking after meals</h1><article class='newsletter-content'>{issue}</article>",
        f"</div></section><section class='testimonials'><h2>What readers say</h2>{quotes}",
        "</section><div class='newsletter-box'><h2>Get the newsletter</h2><p>One email a "
        "month with the science.</p><form><input name='email'><button>Go</button></form>",
        "</div></main>",
    )
    text = extract_text(html)
    assert "walking straight after a meal" in text
    assert "One email a month" not in text


@pytest.mark.parametrize("names", ["newsletter-sidebar", "newsletter sidebar"])
def test_an_issue_in_a_box_also_named_as_other_boilerplate_is_left_out(names: str):
    """An issue's worth of prose in a box named after the newsletter and by another word
    of boilerplate (in the same token or the next) is boilerplate all the same: only the
    newsletter's own words are read as an issue's (names.negative_block's _PLAIN)."""
    issue = "".join(f"<p>{p}</p>" for p in _ISSUE)
    html = _page(NAV, f"<main><article>{ARTICLE_EN}</article><div class='{names}'>{issue}</div>")
    text = extract_text(html + "</main>")
    assert ARTICLE_EN_KEY in text
    assert "walking straight after a meal" not in text


_PROMPTS = {
    "de": (
        "<h3>Möchten Sie weiterlesen?</h3>",
        "Testen Sie jetzt unser digitales Abo und lesen Sie alle Artikel auf der Website und "
        "in der App: vier Wochen für einen Euro, danach monatlich kündbar.",
    ),
    "en": (
        "<p>Subscribe now to keep reading and get access to the full archive.</p>",
        "Our journalism depends on readers like you: every subscription pays for the "
        "reporting, and you can cancel at any time from your account page.",
    ),
    "fr": (
        "<h3>Vous souhaitez continuer à lire ?</h3>",
        "Abonnez-vous pour lire tous nos articles, sur le site et dans l'application, dès "
        "un euro le premier mois et sans engagement de durée.",
    ),
}


@pytest.mark.parametrize("name", ["paywall", "c-box"])
@pytest.mark.parametrize("lang", sorted(_PROMPTS))
def test_a_subscription_prompt_under_the_article_is_left_out(lang: str, name: str):
    """A paywall's prompt under an article cut short, named with no word of boilerplate
    (or "paywall", none of them either): it asks to read on and offers a subscription."""
    head, pitch = _PROMPTS[lang]
    box = f'<div class="{name}">{head}<p>{pitch}</p><a href="/abo">OK</a> <a href="/login">Login</a></div>'
    text = extract_text(_page(NAV, f"<article>{ARTICLE_DE}{box}</article>"))
    assert ARTICLE_DE_KEY in text
    assert pitch not in text


_GATES = {
    # An offer told by its terms, not by the word "Abo".
    "de-terms": (
        "<h3>Jetzt weiterlesen mit Z Plus</h3><ul><li>Alle Artikel und Kommentare</li>"
        "<li>Die Zeitung als E-Paper</li></ul>",
        "Einen Monat gratis, danach 14,99 Euro monatlich, jederzeit kündbar.",
    ),
    # The rest kept for subscribers, where no phrase asks to read on.
    "fr-reserved": (
        "<p>La suite de cet article est réservée aux abonnés.</p>",
        "Profitez de notre offre numérique : un euro par mois pendant six mois, accès "
        "illimité au site et à l'application, sans engagement.",
    ),
    "es-reserved": (
        "<p>Contenido reservado para suscriptores.</p>",
        "Acceso ilimitado a todas las noticias por un euro al mes durante seis meses, "
        "cancela cuando quieras.",
    ),
    # A wall that asks for a free registration rather than a subscription.
    "de-register": (
        "<h3>Kostenlos weiterlesen</h3>",
        "Registrieren Sie sich kostenlos und lesen Sie jeden Monat fünf Artikel gratis.",
    ),
    "pt": (
        "<h3>Continue lendo</h3>",
        "Assine e tenha acesso ilimitado a todo o conteúdo por um real no primeiro mês.",
    ),
    "pl": (
        "<h3>Czytaj dalej</h3>",
        "Wykup subskrypcję i czytaj bez ograniczeń: pierwszy miesiąc za jeden złoty.",
    ),
}


@pytest.mark.parametrize("lang", sorted(_GATES))
def test_a_subscription_prompt_told_by_its_terms_is_left_out(lang: str):
    """A paywall's prompt that offers its terms (a price by the month, no tie) where it
    names no subscription, or says the rest is kept for subscribers."""
    head, pitch = _GATES[lang]
    box = f'<div class="c-box">{head}<p>{pitch}</p><a href="/abo">OK</a></div>'
    text = extract_text(_page(NAV, f"<article>{ARTICLE_DE}{box}</article>"))
    assert ARTICLE_DE_KEY in text
    assert pitch not in text


def test_a_prompt_whose_offer_follows_a_long_head_is_left_out():
    """A prompt is read first no further than its head (tuning.PROMPT_HEAD characters),
    where it asks to read on, and then whole: an offer past the head still tells it."""
    from wf.extract import tuning

    head = (
        "<h3>Möchten Sie weiterlesen?</h3><p>Unsere Reporterinnen und Reporter waren für "
        "diesen Bericht drei Wochen lang in den Dörfern des Tals unterwegs, haben mit den "
        "Bäuerinnen, den Förstern und dem Bürgermeister gesprochen und die Akten des "
        "Gemeinderats gelesen.</p>"
    )
    pitch = "Vier Wochen für einen Euro, danach monatlich kündbar."
    assert len(head) > tuning.PROMPT_HEAD + 50
    box = f'<div class="c-box">{head}<p>{pitch}</p><a href="/abo">OK</a></div>'
    text = extract_text(_page(NAV, f"<article>{ARTICLE_DE}{box}</article>"))
    assert ARTICLE_DE_KEY in text
    assert pitch not in text


def test_a_box_that_asks_nothing_is_read_no_further_than_its_head(monkeypatch):
    """The prompt's test reads a box that does not ask to read on no further than its
    head: the rest of a box is read only for one that asks (prune asks it of every
    box of the content)."""
    from wf.extract import notices, tuning

    sizes: list[int] = []
    sample = notices.sample

    def counted(el, b, size=notices.NOTICE_SAMPLE):  # type: ignore[no-untyped-def]
        sizes.append(size)
        return sample(el, b, size)

    monkeypatch.setattr(notices, "sample", counted)
    box = (
        "<div class='c-box'><h3>Der Gemeinderat tagt</h3><p>Die Sitzung beginnt um "
        "neunzehn Uhr im Rathaus und ist öffentlich.</p></div>"
    )
    text = extract_text(_page(NAV, f"<article>{ARTICLE_DE}{box}</article>"))
    assert "Die Sitzung beginnt" in text
    assert tuning.PROMPT_HEAD in sizes and tuning.PROMPT_MAX not in sizes


def test_a_read_on_link_or_a_sentence_about_subscribers_stays():
    """Guards: an article's own paragraph about subscriptions, and a box that asks to
    read on with no offer (a teaser card's "Continue reading"), are no paywall."""
    own = (
        "<p>Continue reading the council's report and you find that subscribers to the "
        "town's bus pass paid less than half the fare of those who bought single tickets.</p>"
    )
    card = (
        "<div class='c-box'><p>Continue reading: the council voted on the new bus lanes "
        "on Monday.</p></div>"
    )
    text = extract_text(_page(NAV, f"<article>{ARTICLE_EN}{own}{card}</article>"))
    assert "half the fare" in text
    assert "voted on the new bus lanes" in text


@pytest.mark.parametrize("name", ["article-teaser", "teaser", "c-article__teaser-text"])
@pytest.mark.parametrize("where", ["header", "body"])
def test_a_lead_paragraph_named_teaser_is_kept(name: str, where: str):
    """Many news sites call the article's own lead its teaser: without a link to another
    page it is the article's, while a teaser box that links elsewhere stays out."""
    lead = (
        f"<p class='{name}'>Die Sanierung der Grundschule kostet voraussichtlich zwölf "
        "Millionen Euro und soll in den Sommerferien 2027 beginnen.</p>"
    )
    other = (
        f"<div class='{name}'><a href='/b'><h3>Auch interessant</h3></a><p>Der neue "
        "Spielplatz im Stadtpark ist fertig und wird am Samstag mit einem Fest "
        "eröffnet.</p><a href='/b'>Weiterlesen</a></div>"
    )
    head = "<h1>Schule wird saniert</h1>" + (lead if where == "header" else "")
    body = (lead if where == "body" else "") + ARTICLE_DE
    html = _page(
        NAV,
        f"<article><header>{head}</header><div class='article-body'>{body}{other}</div></article>",
    )
    text = extract_text(html)
    assert "zwölf Millionen Euro" in text
    assert ARTICLE_DE_KEY in text
    assert "Spielplatz im Stadtpark" not in text


# -- pages in Chinese or Japanese, where a sentence is a few characters --------------------


def test_a_chinese_article_of_short_lines_is_prose():
    lines = (
        "一波波低溫寒流報到，已將山區一帶層層山巒披上嫣紅的彩衣。",
        "沿著道路一路上雲氣山嵐滯留山頭，順路下切後不久即抵達國小。",
        "校園裡的楓樹美如其名，滿地落葉在陽光下閃閃發亮，令人讚嘆。",
        "我們在附近的營地搭起帳篷，晚上圍著爐火煮湯，聊到深夜才睡。",
        "山腳下的小店賣著熱騰騰的包子，老闆說這是他們家三代的手藝。",
        "午後下起一陣細雨，我們躲進涼亭，看著雲霧在山谷間慢慢流動。",
        "第二天清晨霧氣散去，整片山谷的紅葉在晨光中顯得格外鮮明。",
        "回程時順道拜訪老朋友，喝了一杯熱茶，帶著滿滿的回憶下山。",
    )
    article = "<h1>山上的楓葉季</h1>" + "".join(f"<p>{line}</p>" for line in lines)
    # Readers' replies: fewer of them, each long enough in characters to look like prose.
    replies = "".join(
        f"<div class='reply'><p>訪客{n}於2014/01/01留言：照片拍得真好，看起來好豐盛喔，"
        f"下次也想一起去露營，請問營地需要事先預約嗎？謝謝分享這麼美的風景照片。</p></div>"
        for n in range(3)
    )
    # The blog's sidebar: archive links by month.
    links = "".join(
        f"<li><a href='/archive/{n}'>2013年{n}月文章彙整</a></li>" for n in range(1, 13)
    )
    html = (
        "<html lang='zh-TW'><head><title>山上的楓葉季</title></head><body>"
        f"{NAV}<div class='post'>{article}</div>"
        f"<div class='user-post comment-text'>{replies}</div>"
        f"<div class='side'><ul>{links}</ul><ul>{links}</ul></div>"
        "</body></html>"
    )
    text = extract_text(html)
    assert "第二天清晨霧氣散去" in text
    assert "營地需要事先預約" not in text


# -- an article continued in a "read more" expander -----------------------------------------


def test_the_rest_of_an_article_behind_a_read_more_expander_is_kept():
    rest = "".join(
        f"<p>Paragraph {n} of the rest of the story: the council met again on Monday and "
        f"heard from residents on both banks of the river about the new crossing.</p>"
        for n in range(8)
    )
    teasers = "".join(
        f"<div class='item'><h4>Column {n}</h4><p>A columnist's take on the week, in a "
        f"sentence or two that tease the column on another page of the site.</p></div>"
        for n in range(4)
    )
    html = _page(
        NAV,
        f'<div id="story"><div class="story-body">{ARTICLE_EN}'
        f'<div id="read-more"><div id="read-more-link"><a href="">Read more</a></div>'
        f'<div id="read-more-content">{rest}</div></div></div>'
        f'<div class="group">{teasers}</div></div>',
    )
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    assert "Paragraph 6 of the rest of the story" in text


def test_comments_named_with_content_words_stay_out():
    """`comment-text`, `comment-body`: the content words name the comment's own text."""
    comments = "".join(
        f"<div class='c'><p>Reader {n} wrote: what a lovely report, I walked along those "
        f"sandbanks as a child and never saw a single seal there, so this is good news for "
        f"all of us who grew up by the estuary and still visit every summer.</p></div>"
        for n in range(5)
    )
    html = _page(
        NAV,
        f"<div id='area'><div class='story'>{ARTICLE_EN}</div>"
        f"<div class='user-post-text comment-text'>{comments}</div></div>",
    )
    text = extract_text(html)
    assert ARTICLE_EN_KEY in text
    assert "Reader 3 wrote" not in text


# -- content split across sibling boxes ------------------------------------------------------

# A list of linked headlines with no boilerplate name: it keeps the parent of the article's
# boxes from being taken whole.
_HEADLINES = (
    "<div class='lst'><ul>"
    + "".join(
        f"<li><a href='/s/{n}'>Another headline about the island's weather number {n}</a></li>"
        for n in range(24)
    )
    + "</ul></div>"
)


def test_an_article_split_around_an_advertisement_is_kept_whole():
    first = "".join(
        f"<p>Paragraph {n} of the council's report says the ferry across the sound will run "
        f"every forty minutes from May, and that the old pier will be rebuilt with money from "
        f"the regional fund.</p>"
        for n in range(6)
    )
    rest = "".join(
        f"<p>Continued {n}: the harbour master expects the new timetable to carry twice as "
        f"many cyclists, because the bike racks on the deck are being doubled this winter.</p>"
        for n in range(2)
    )
    html = _page(
        NAV,
        f"<div class='col'><div class='txt'>{first}</div>"
        "<div class='slot'><a href='/x'><img src='a.png' alt=''></a></div>"
        f"<div class='txt-b'>{rest}</div>{_HEADLINES}</div>",
    )
    text = extract_text(html)
    assert "Paragraph 5 of the council's report" in text
    assert "Continued 1: the harbour master" in text
    assert "headline about the island" not in text


def test_a_short_note_beside_the_article_does_not_join_it():
    """Only siblings that score a share of the article join it: an author's note of one
    line stays out, whichever way the sibling rule reads the rest."""
    body = "".join(
        f"<p>Paragraph {n} of the council's report says the ferry across the sound will run "
        f"every forty minutes from May, and that the old pier will be rebuilt with money from "
        f"the regional fund.</p>"
        for n in range(6)
    )
    rest = (
        "<p>Continued: the harbour master expects the new timetable to carry twice as many "
        "cyclists, because the bike racks on the deck are being doubled this winter, and the "
        "café on the quay will open an hour earlier for the first crossing.</p>" * 2
    )
    html = _page(
        NAV,
        f"<div class='col'><div class='txt'>{body}</div><div class='txt-b'>{rest}</div>"
        "<div class='note'><p>Our reporter travelled on the ferry at the invitation of the "
        "operator, which did not see this article before it was published.</p></div>"
        f"{_HEADLINES}</div>",
    )
    text = extract_text(html)
    assert "Continued: the harbour master" in text
    assert "invitation of the operator" not in text
    assert "headline about the island" not in text


# -- lists inside the content ---------------------------------------------------------------


def test_list_items_that_are_sentences_with_links_are_kept():
    items = (
        "<li>Tabs that were open in a closed window can now be restored from the history "
        "menu.</li>"
        "<li><a href='/b/1'>Bookmark import from two more browsers has landed</a>, with "
        "thanks to Maria Lopez.</li>"
        "<li>The download panel shows how long a file will take at the current speed.</li>"
        "<li><a href='/b/2'>Screenshots of a whole page can be saved as one image</a>, a "
        "patch by Jon Smith.</li>"
    )
    body = "".join(
        f"<p>Paragraph {n} of the release notes: this month the team worked on start-up "
        f"time, memory use on small laptops, and the long tail of crashes reported by "
        f"testers.</p>"
        for n in range(4)
    )
    html = _page(NAV, f"<article><h1>Notes</h1>{body}<h2>Changes</h2><ul>{items}</ul></article>")
    text = extract_text(html)
    assert "with thanks to Maria Lopez" in text
    assert "a patch by Jon Smith" in text
    assert "Home" not in text


def test_a_list_of_linked_sentences_is_judged_item_by_item():
    """Most of a changelog's entries link their bug: the list is link-heavy as a whole,
    but each entry is a sentence. A list of bare links beside it still goes."""
    fixed = "".join(
        f"<li><a href='/bug/{n}'>Bug {n}: the sidebar no longer flickers on resize</a>, "
        f"fixed by Ana Lopez in build {n}.</li>"
        for n in range(6)
    )
    others = "".join(f"<li><a href='/o/{n}'>Other release {n}</a></li>" for n in range(6))
    body = "".join(
        f"<p>Paragraph {n} of the release notes: this month the team worked on start-up "
        f"time, memory use on small laptops, and the long tail of crashes reported by "
        f"testers.</p>"
        for n in range(4)
    )
    html = _page(
        NAV,
        f"<article><h1>Notes</h1>{body}<h2>Fixed</h2><ul>{fixed}"
        "<li>A plain entry without a link, about the toolbar.</li></ul>"
        f"<h2>More</h2><ul>{others}</ul></article>",
    )
    text = extract_text(html)
    assert "fixed by Ana Lopez in build 3" in text
    assert "about the toolbar" in text
    assert "Other release 2" not in text


# -- shops, recipes and public services: structured content, short paragraphs -------------

_MENU = (
    "<header><ul>"
    + "".join(f"<li><a href='/c/{n}'>Category {n}</a></li>" for n in range(12))
    + "</ul></header>"
)
_FOOTER = (
    "<footer><p>© 2026 Example GmbH. <a href='/imp'>Impressum</a> "
    "<a href='/dp'>Datenschutz</a></p></footer>"
)


def test_a_product_page_keeps_its_specifications_and_not_the_recommendations():
    specs = "".join(
        f"<tr><th>{k}</th><td>{v}</td></tr>"
        for k, v in (
            ("Gewicht", "1,2 kg"),
            ("Akku", "4000 mAh"),
            ("Maße", "30 x 20 x 5 cm"),
            ("Farbe", "Schwarz"),
            ("Garantie", "2 Jahre"),
        )
    )
    also = "".join(
        f"<div class='item'><a href='/p/{n}'>Akku-Bohrschrauber Modell {n}</a>"
        f"<span>89,99 €</span></div>"
        for n in range(8)
    )
    html = _page(
        _MENU,
        "<div class='page'><div class='pd'><h1>Akku-Staubsauger S20</h1>"
        "<div class='price'>149,00 €</div><div class='desc'><p>Der S20 saugt Teppiche und "
        "Hartböden gleich gründlich und läuft mit einer Akkuladung bis zu vierzig "
        "Minuten.</p><ul><li>Zwei Saugstufen</li><li>Waschbarer Filter</li>"
        "<li>Wandhalterung inklusive</li></ul></div>"
        f"<div class='tab'><h2>Technische Daten</h2><table>{specs}</table></div></div>"
        f"<div class='reco'>{also}</div></div>",
        _FOOTER,
    )
    text = extract_text(html)
    assert "Hartböden gleich gründlich" in text
    assert "Waschbarer Filter" in text
    assert "4000 mAh" in text
    assert "Akku-Staubsauger S20" in text
    assert "Modell 3" not in text
    assert "Category 7" not in text


_INGREDIENTS = "".join(
    f"<li>{item}</li>"
    for item in (
        "250 g Mehl",
        "200 g Zucker",
        "4 Eier",
        "1 Päckchen Backpulver",
        "3 Äpfel",
        "125 ml Milch",
        "1 Prise Salz",
        "200 g Butter",
    )
)
_STEPS = "".join(
    f"<li>{step}</li>"
    for step in (
        "Den Backofen auf 180 Grad vorheizen und eine Springform von 26 cm einfetten.",
        "Butter und Zucker schaumig rühren, dann die Eier einzeln unterrühren.",
        "Mehl mit Backpulver und Salz mischen und abwechselnd mit der Milch unterheben.",
        "Die Äpfel schälen, in Spalten schneiden und auf dem Teig verteilen.",
        "Den Kuchen etwa 45 Minuten backen und in der Form auskühlen lassen.",
    )
)
_MORE_RECIPES = (
    "<div class='more'>"
    + "".join(
        f"<div class='card'><a href='/r/{n}'><h3>Rezept Nummer {n}: Pflaumenkuchen vom "
        f"Blech</h3></a></div>"
        for n in range(6)
    )
    + "</div>"
)


@pytest.mark.parametrize("story", [0, 8], ids=["recipe-only", "blog-story-first"])
def test_a_recipe_keeps_its_ingredients_and_steps(story: int):
    """A guard for the sibling and thin-choice rules: the ingredients (short lines) and the
    steps sit in boxes beside the story or the intro, never chosen alone."""
    paragraphs = "".join(
        f"<p>Absatz {n}: Jeden Herbst bringt meine Nachbarin eine Kiste Äpfel vorbei, und "
        f"jedes Jahr backe ich daraus zuerst diesen Kuchen, bevor der Rest zu Mus wird.</p>"
        for n in range(story)
    ) or (
        "<p>Ein schneller Rührkuchen mit Äpfeln aus dem eigenen Garten, der auch am nächsten "
        "Tag noch saftig ist.</p>"
    )
    tags = "".join(f"<a href='/t/{n}'>Schlagwort{n}</a> " for n in range(10))
    html = _page(
        _MENU,
        f"<div class='wrap'><div class='post'><h1>Apfelkuchen</h1><div class='story'>"
        f"{paragraphs}</div><div class='card-r'><div class='zt'><h2>Zutaten</h2>"
        f"<ul>{_INGREDIENTS}</ul></div><div class='zb'><h2>Zubereitung</h2>"
        f"<ol>{_STEPS}</ol></div></div><div class='tags'>{tags}</div></div>"
        f"{_MORE_RECIPES}</div>",
        _FOOTER,
    )
    text = extract_text(html)
    assert "1 Päckchen Backpulver" in text
    assert "auf 180 Grad vorheizen" in text
    assert "Rezept Nummer 3" not in text
    assert "Category 7" not in text


def test_a_public_service_page_keeps_its_short_sections():
    """A guard: a public service's page is headings over one-line paragraphs and short
    lists (requirements, documents, fees, contact), all of it content."""
    html = _page(
        _MENU,
        "<main><h1>Wohngeld beantragen</h1>"
        "<p>Wohngeld ist ein Zuschuss zur Miete für Haushalte mit geringem Einkommen.</p>"
        "<h2>Voraussetzungen</h2><ul><li>Sie wohnen zur Miete oder im eigenen Haus.</li>"
        "<li>Ihr Einkommen liegt unter der Grenze.</li>"
        "<li>Sie bekommen kein Bürgergeld.</li></ul>"
        "<h2>Unterlagen</h2><ul><li>Personalausweis</li><li>Mietvertrag</li>"
        "<li>Einkommensnachweise der letzten zwölf Monate</li></ul>"
        "<h2>Kosten</h2><p>Der Antrag ist gebührenfrei.</p>"
        "<h2>Kontakt</h2><p>Bürgeramt Mitte, Rathausplatz 1, Telefon 0123 45678</p></main>",
        _FOOTER,
    )
    text = extract_text(html)
    for key in ("Zuschuss zur Miete", "kein Bürgergeld", "Mietvertrag", "gebührenfrei"):
        assert key in text
    assert "Rathausplatz 1" in text
    assert "Category 7" not in text


_HOURS = (
    "<h2>Öffnungszeiten</h2><ul><li>Montag bis Freitag: 8 bis 12 Uhr</li><li>Donnerstag: "
    "14 bis 18 Uhr</li></ul>"
)


@pytest.mark.parametrize("hours", [_HOURS, ""])
@pytest.mark.parametrize("menu", ["ul", "ol"])
def test_a_public_service_page_beside_its_sections_menu_is_not_read_whole(menu: str, hours: str):
    """A public service's short page in a plain grid column, after a column that holds
    its section's long menu named as nothing: the menu is not the page's text, so the
    short body (with its opening hours, or under the prose floor without them) is no
    thin choice of a landing page to read whole, nor a choice too thin to print."""
    items = "".join(
        f"<li><a href='/themen/{i}'>Bürgerservice und Verwaltung Thema {i}</a></li>"
        for i in range(25)
    )
    html = _page(
        _MENU,
        f"<div class='container'><div class='row'><div class='col-md-3'><{menu}>{items}"
        f"</{menu}></div><div class='col-md-9'><h1>Wohnsitz anmelden</h1><p>Nach einem "
        "Umzug müssen Sie sich innerhalb von zwei Wochen bei der Meldebehörde anmelden. "
        f"Bringen Sie Ihren Ausweis und die Wohnungsgeberbestätigung mit.</p>{hours}"
        "<h2>Kosten</h2><p>Die Anmeldung ist gebührenfrei.</p></div></div></div>",
        _FOOTER,
    )
    text = extract_text(html)
    assert "Wohnungsgeberbestätigung" in text
    assert "gebührenfrei" in text
    assert "Thema 12" not in text


def test_a_data_table_keeps_its_rows_of_linked_names():
    """A table is data as a whole: rows whose cells are mostly links (a film's title and
    director, each linked to their page) are not link lists to drop one by one."""
    note = (
        "Shot on the northern cape over one long winter, in black and white, with a cast of locals"
    )
    rows = "".join(
        f"<tr><td><a href='/w/f{n}'>The Lighthouse Keeper Part {n}</a></td>"
        f"<td>{1950 + n}</td><td><a href='/w/d{n}'>Director Number {n}</a></td>"
        f"<td>{note if n % 2 else ''}</td></tr>"
        for n in range(10)
    )
    html = _page(
        NAV,
        "<div class='mw-parser-output'>",
        ARTICLE_EN,
        ARTICLE_DE,
        f"<h2>Films</h2><table class='wikitable'><tr><th>Title</th><th>Year</th>"
        f"<th>Director</th><th>Notes</th></tr>{rows}</table>",
        "</div>",
    )
    text = extract_text(html)
    assert "The Lighthouse Keeper Part 6" in text
    assert "| 1956 |" in text
    assert "The Lighthouse Keeper Part 7" in text
    assert ARTICLE_DE_KEY in text


# -- page builders that name every text box a widget and number it ------------------------

_BUILDER_TEXT = (
    "Seit über dreißig Jahren planen und bauen wir Solaranlagen für Gewerbe und "
    "Landwirtschaft in ganz Niedersachsen.",
    "Unser Team aus zwölf Ingenieuren begleitet jedes Projekt von der ersten Messung auf "
    "dem Dach bis zur Abnahme durch den Netzbetreiber.",
    "Nach dem Bau übernehmen wir auf Wunsch auch die Wartung, reinigen die Module einmal "
    "im Jahr und prüfen die Wechselrichter aus der Ferne.",
    "Rufen Sie uns an oder schreiben Sie uns: Wir melden uns innerhalb eines Werktages "
    "mit einem ersten Angebot für Ihr Dach.",
)


@pytest.mark.parametrize("boxes", [2, 4])
def test_numbered_text_widgets_of_a_page_builder_are_the_content(boxes: int):
    """Each text box is `elementor-element-<id> elementor-widget ...`: a boilerplate word
    and a number that makes every class value unique. Their prose is the page."""

    def widget(n: int, inner: str, kind: str = "text-editor") -> str:
        ident = f"{n * 7919 + 74565:07x}"
        return (
            f"<div class='elementor-element elementor-element-{ident} elementor-widget "
            f"elementor-widget-{kind}' data-id='{ident}'>"
            f"<div class='elementor-widget-container'>{inner}</div></div>"
        )

    content = widget(0, "<h2>Über uns</h2>", "heading") + "".join(
        widget(n + 1, f"<p>{text}</p>") for n, text in enumerate(_BUILDER_TEXT[:boxes])
    )
    html = _page(
        "<header class='site-header'><nav><ul>",
        "".join(f"<li><a href='/l/{n}'>Leistung {n}</a></li>" for n in range(8)),
        "</ul></nav></header>",
        "<div class='elementor elementor-42'><section class='elementor-section'>"
        f"<div class='elementor-column'><div class='elementor-widget-wrap'>{content}"
        "</div></div></section></div>",
        _FOOTER,
    )
    text = extract_text(html)
    for line in _BUILDER_TEXT[:boxes]:
        assert line in text
    assert "Leistung 3" not in text
    assert "Impressum" not in text


_WORKSHOP = (
    "Unsere Tischlerei fertigt seit drei Generationen Möbel nach Maß aus heimischen "
    "Hölzern wie Eiche, Buche und Kirsche.",
    "In der Werkstatt arbeiten heute acht Tischler und zwei Auszubildende, die jedes Stück "
    "von Hand fertig stellen.",
    "Wir beraten Sie gern in unserer Ausstellung in der Lindenstraße, die montags bis "
    "samstags geöffnet ist.",
    "Für Küchen und Einbauschränke kommen wir zum Aufmessen zu Ihnen nach Hause und "
    "planen gemeinsam mit Ihnen.",
)


@pytest.mark.parametrize("name", ["text-image", "image-text", "img-text", "photo-text"])
def test_text_blocks_with_a_picture_are_content(name: str):
    """A CMS's content elements alternate between text and text beside a picture: a name
    that says text and image is a paragraph's box; a picture's own box still goes."""
    first, second, third, fourth = _WORKSHOP
    html = _page(
        NAV,
        "<main><h1>Über uns</h1>",
        f"<div class='ce-text'><p>{first}</p></div>",
        f"<div class='{name}'><img src='a.jpg' alt=''><p>{second}</p></div>",
        f"<div class='ce-text'><p>{third}</p></div>",
        f"<div class='{name}'><img src='b.jpg' alt=''><p>{fourth}</p></div>",
        "<div class='image'><img src='c.jpg' alt=''><p>Foto: Werkstatt im Jahr 1962, "
        "aus dem Archiv der Familie, mit dem ersten Lehrling vor der Tür.</p></div>",
        # A caption of the same name: no paragraph in it.
        f"<div class='pic'><img src='d.jpg' alt=''><div class='{name}'>Foto: die neue "
        "Hobelbank in der Werkstatt, aufgenommen im Frühjahr beim Tag der offenen Tür."
        "</div></div>",
        "</main>",
    )
    text = extract_text(html)
    for line in _WORKSHOP:
        assert line in text
    assert "aus dem Archiv der Familie" not in text
    assert "die neue Hobelbank" not in text


# -- content systems' own class names -----------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        "node node-report node-promoted node-not-sticky author-jdoe",  # Drupal 7
        "node node--type-event node--promoted node--sticky",  # Drupal 8 and later
        "node node-event node-published node-promoted view-mode-full author-x",  # Omega
    ],
)
def test_an_article_in_a_publication_state_is_not_a_promotion(state: str):
    """Content systems write an entry's state on its own box: `node-promoted` says the
    entry is on the front page, not that the box is a promotion. Read so, the article was
    never content, and a footer's few lines of prose were printed instead."""
    footer = (
        "<footer class='site-end'><div><p>Die Stiftung für freie Medien finanziert diese "
        "Seite aus Spenden ihrer Leserinnen und Leser, ohne Werbung und ohne Bezahlschranke; "
        "jeder Beitrag, ob klein oder groß, hält sie am Leben.</p><p>Wer regelmäßig spendet, "
        "erhält einmal im Jahr unseren Bericht über alle Einnahmen und Ausgaben der Stiftung "
        "und kann an ihrer Versammlung teilnehmen.</p></div></footer>"
    )
    html = _page(
        NAV,
        f"<div class='page'><section class='main'><article class='{state}'>"
        f"<div class='content'>{ARTICLE_DE}</div></article></section></div>",
        footer,
    )
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert "Stiftung für freie Medien" not in text


@pytest.mark.parametrize(
    "name",
    [
        "mehr-zum-thema",
        "weitere-artikel",
        "box verwandte-beitraege",
        "artikel-empfehlungen",
        "lire-aussi",
        "noticias-relacionadas",
        "more-from-us",
    ],
)
def test_related_boxes_named_in_other_languages_are_dropped(name: str):
    """Recirculation boxes are named in the site's language as often as in English."""
    box = (
        f"<div class='{name}'><p>Ein Jahr nach der Eröffnung der Radbrücke zieht die "
        "Stadt Bilanz: mehr Radverkehr, weniger Unfälle und ein neuer Streit um die "
        "Beleuchtung am Ufer.</p></div>"
    )
    html = _page(NAV, f"<article>{ARTICLE_DE}{box}</article>")
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert "Bilanz" not in text


@pytest.mark.parametrize(
    "box",
    [
        '<div id="cmpbox" class="cmpbox cmpstyleroot">{}</div>',  # consentmanager
        '<div id="iubenda-cs" class="iubenda-cs-container">{}</div>',
        '<div id="tarteaucitronRoot">{}</div>',
        '<div class="klaro"><div class="cm-box">{}</div></div>',
        '<div id="axeptio_overlay">{}</div>',
    ],
)
def test_consent_platforms_are_known_by_their_names(box: str):
    """A consent platform's box is left out by its name even when its text reads like
    any other prose (a short greeting, no legal vocabulary)."""
    greeting = (
        "<p>Willkommen bei uns! Wir freuen uns, dass Sie heute wieder vorbeischauen, und "
        "wünschen Ihnen viel Freude beim Lesen unserer Geschichten aus der Region.</p>"
    )
    html = _page(NAV, f"<article>{ARTICLE_DE}</article>", box.format(greeting))
    text = extract_text(html)
    assert ARTICLE_DE_KEY in text
    assert "Willkommen bei uns" not in text


def test_a_page_of_headings_over_pictures_prints_its_headings():
    """A page that says nothing but headings (titles over pictures) prints them: dropping
    headings with nothing under them is for what pruning left behind."""
    html = _page(
        "<article><h2>Test case one</h2><img src='a.jpg' alt=''>"
        "<h2>Test case two</h2><img src='b.png' alt=''></article>"
    )
    assert extract_text(html) == "## Test case one\n\n## Test case two"


def test_a_run_of_headings_with_nothing_under_them_is_a_list_and_stays():
    # A page's points written as <h4>, one under the other: a list, not the titles of
    # sections the pruning emptied. Two such titles alone still go.
    points = "".join(
        f"<h4>{p}</h4>" for p in ("Counted every month", "Free to join", "Open to all ages")
    )
    cut = "<h3>Share this</h3><div class='share'><a href='/x'>X</a></div><h3>Tags</h3>"
    html = _page(f"<article>{ARTICLE_EN}<h3>Why count with us</h3>{points}{cut}</article>")
    text = extract_text(html)
    assert "#### Counted every month\n\n#### Free to join\n\n#### Open to all ages" in text
    assert "Share this" not in text and "Tags" not in text


def test_a_heading_too_long_for_a_title_with_nothing_under_it_is_a_paragraph():
    # A services page sets each offer's text in an <h6> under its <h2>, the text cut
    # short with no full stop: no title runs to twenty words, so it is prose, kept.
    offers = (
        "<section><h2>Survey boats</h2><h6>Our survey boats carry two volunteers and a "
        "counter each, and leave the harbour at low tide on the first Saturday of every "
        "month to walk</h6></section><section><h2>Counts</h2><h6>Counts are added up at "
        "the harbour</h6></section>"
    )
    text = extract_text(_page(f"<article>{ARTICLE_EN}{offers}</article>"))
    assert "## Survey boats\n\nOur survey boats carry two volunteers" in text
    assert "the harbour at low tide on the first Saturday of every month to walk" in text
    assert "Counts are added up" not in text  # six words, no sentence's end: a heading


def test_a_section_wrapped_in_a_named_anchor_is_no_link_list():
    # A page wrapped its last sections in an anchor with no address (<a id="...">, a
    # target for old links): counted as link text, they were dropped as lists of links.
    surveys = "".join(
        f"<p>Survey {n}: the team walked the northern bank at dawn and counted the seals "
        "hauled out on the sand, then counted again at the southern bank an hour later.</p>"
        for n in range(4)
    )
    wrapped = (
        '<a id="counts"><h2>How the count is made</h2>'
        "<p>Volunteers walk the sandbanks at low tide in pairs, each pair counting the "
        "seals on its own stretch twice before the tallies are added up at the harbour.</p>"
        "<h3>Pups</h3><p>Pups are counted apart from adults, by their size and the white "
        "coat some of them still carry in the first weeks after they are born.</p></a>"
    )
    text = extract_text(
        '<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>'
        f"<main><article>{ARTICLE_EN}{surveys}{wrapped}</article></main>"
        "<footer><p>(c) The paper</p></footer></body></html>"
    )
    assert "each pair counting the seals on its own stretch twice" in text
    assert "Pups are counted apart from adults" in text


def test_link_text_ends_where_its_link_ends_inside_and_after_an_anchor_box():
    # The walk counts a block's link text while a link is open: a link inside inline
    # markup, one inside an anchor that is a box (no address, blocks in it), and the
    # words after each link closes, which are the block's own again.
    from lxml import html as lxml_html

    from wf.extract.records import walk

    body = lxml_html.fromstring(
        "<html><body><p>Read <em><a href='/a'>the <b>full</b> story</a> now</em> here.</p>"
        "<a id='box'><p>Box <a href='/b'>link</a> tail words</p></a>"
        "<p>After the box, plain words.</p></body></html>"
    ).find("body")
    records = {b.el.text_content(): b for b in walk(body) if b.tag == "p"}
    first = records["Read the full story now here."]
    assert (first.own, first.own_link) == (len("Readthefullstorynowhere."), len("thefullstory"))
    boxed = records["Box link tail words"]
    assert (boxed.own, boxed.own_link) == (len("Boxlinktail words"), len("link"))
    after = records["After the box, plain words."]
    assert after.own_link == 0


def test_a_run_of_linked_titles_is_no_run_of_empty_sections():
    # Cards that are a link around a picture and a heading (a list of stories, a manual's
    # index of its pages): nothing is under their headings, but they are titles, not
    # sections that pruning emptied. A lone linked number over a picture still goes.
    card = (
        '<div class="item"><a href="/birds/{0}"><img src="/{0}.jpg" alt=""><h2>{1}</h2></a></div>'
    )
    names = ("Grey herons nest in the alders", "Little egrets winter on the mudflats")
    cards = "".join(card.format(n.split()[1].lower(), n) for n in names)
    numbered = '<a href="/counts/1"><img src="/1.jpg" alt=""><h3>1</h3></a>'
    html = _page(
        NAV,
        f"<main>{numbered}<h1>Birds of the estuary</h1>"
        f"<p>Stories from the monthly counts on the sandbanks.</p><div class='grid'>{cards}</div></main>",
    )
    text = extract_text(html)
    assert "## Grey herons nest in the alders\n\n## Little egrets winter on the mudflats" in text
    assert "### 1" not in text
