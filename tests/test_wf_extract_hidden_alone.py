"""Boxes hidden by a class with nothing shown beside them (wf/extract/hidden_alone.py)."""

from __future__ import annotations

import lxml.html
import pytest

from wf.extract import extract
from wf.extract.hidden_alone import CLASS_XPATH, alone, empty_labels, read_apart

STORY = (
    "Our harbour boots are stitched by hand in the yard where the ferries moor, and each "
    "pair is tried on the quay in the rain before it is boxed. "
)
COMPARE = "Compare every boot of the range side by side: sole, weight, lining and lacing"
ANSWER = "Each pair ships in a box of card that the yard folds from last season's sails"


def _page(hidden_box: str) -> str:
    return (
        "<html><head><title>Boots</title></head><body><main>"
        f"<section><h1>Harbour boots</h1><p>{STORY * 4}</p>"
        f"<div class='more'>{hidden_box}<script>var open = 1;</script></div><p>{STORY}</p>"
        "</section></main></body></html>"
    )


def test_a_box_hidden_by_its_class_with_nothing_beside_it_goes():
    text = extract(_page(f"<div class='compare-drawer hidden'><p>{COMPARE}</p></div>")).text
    assert STORY.strip()[:40] in text
    assert COMPARE not in text


def test_a_hidden_box_beside_a_shown_one_or_shown_from_a_screen_size_stays():
    # A tab's panel beside the one shown: the page's, printed as before.
    panel = f"<div class='panel'><p>Sizes</p></div><div class='panel hidden'><p>{ANSWER}</p></div>"
    assert ANSWER in extract(_page(panel)).text
    layout = f"<div class='hidden md:block'><p>{ANSWER}</p></div>"
    assert ANSWER in extract(_page(layout)).text
    sample = f"<pre class='brush: html hidden'>{ANSWER}</pre>"
    assert ANSWER in extract(_page(sample)).text
    # The page's own content, hidden until its script starts: kept.
    root = lxml.html.fromstring(
        f"<html><body><div><div class='hidden'><h1>Boots</h1><p>{ANSWER}</p></div>"
        f"<script>start()</script></div><p>{STORY * 9}</p></body></html>"
    )
    assert alone(root, root.xpath(CLASS_XPATH)) == []


def test_hidden_boxes_that_hold_most_of_the_page_stay():
    root = lxml.html.fromstring(
        f"<html><body><div><div class='hidden'><p>{STORY * 9}</p></div></div>"
        f"<p>{ANSWER}</p></body></html>"
    )
    assert alone(root, root.xpath(CLASS_XPATH)) == []
    root = lxml.html.fromstring(
        f"<html><body><div><div class='overflow-hidden'><p>{ANSWER}</p></div></div>"
        f"<p>{STORY * 9}</p></body></html>"
    )
    assert alone(root, root.xpath(CLASS_XPATH)) == []


def test_nested_and_many_hidden_boxes_are_each_measured_once(monkeypatch):
    from wf.extract import hidden_alone

    measured: list[object] = []
    real = hidden_alone.text_length

    def counting():
        length = real()

        def measure(el):
            measured.append(el)
            return length(el)

        return measure

    # What was a time bound: the cost is the boxes measured (each a copy of its text).
    monkeypatch.setattr(hidden_alone, "text_length", counting)
    # A chain of hidden boxes, each the only child of the one around it (libxml2 keeps 253
    # of them): a box is measured only when no measured box holds it within
    # hidden_tuning.ALONE_UP (100) levels, not each box's subtree again.
    deep = "<div class='hidden'>x " * 3000 + "word " * 20000 + "</div>" * 3000
    root = lxml.html.fromstring(f"<html><body><div>{deep}</div><p>{STORY}</p></body></html>")
    found = alone(root, root.xpath(CLASS_XPATH))
    assert found == []  # they hold most of the page: kept
    boxes = [el for el in measured if el.tag == "div"]
    assert len(boxes) == 3 and {box.get("class") for box in boxes} == {"hidden"}, len(boxes)
    # Twenty thousand side by side: at most hidden_tuning.ALONE_MAX are weighed, each once.
    measured.clear()
    wide = "".join(f"<div><div class='hidden'>{n}</div></div>" for n in range(20000))
    root = lxml.html.fromstring(f"<html><body>{wide}<p>{STORY * 50}</p></body></html>")
    assert len(alone(root, root.xpath(CLASS_XPATH))) == 5000
    boxes = [el for el in measured if el.tag == "div"]
    assert len(boxes) == len(set(boxes)) == 5000


def _with_noscript(box: str, stories: int = 12) -> str:
    # A front page whose every story is a link: read whole, without its named boilerplate.
    story = (
        "<div><a href='/s{n}'><h3>The ferry came in late to berth {n}</h3><p>The crews of "
        "the north quay moored it in the fog and counted the cranes twice.</p></a></div>"
    )
    items = "".join(story.format(n=n) for n in range(stories))
    return (
        "<html><head><title>Harbour news</title></head><body><div class='app'>"
        f"<noscript>{box}</noscript><div>{items}</div></div></body></html>"
    )


_MENU = (
    "<details><summary>Menu</summary><ul>"
    + "".join(f"<li><a href='/{n}'>Harbour section {n}</a></li>" for n in range(15))
    + "</ul></details>"
)


def test_a_noscript_menu_goes_and_a_noscript_of_prose_stays():
    # The menu a page writes for browsers without scripts, above its stories.
    text = extract(_with_noscript(_MENU)).text
    assert "Harbour section 3" not in text and "counted the cranes" in text
    prose = f"<p>{STORY * 2}</p>"
    assert STORY.strip()[:40] in extract(_with_noscript(prose)).text


def test_noscript_menus_that_hold_most_of_the_page_stay():
    from wf.extract.hidden_alone import menus

    root = lxml.html.fromstring(_with_noscript(_MENU, stories=0))
    assert menus(root, list(root.iter("noscript"))) == []
    root = lxml.html.fromstring(_with_noscript(_MENU))
    assert len(menus(root, list(root.iter("noscript")))) == 1


def test_the_cleaning_searches_only_for_the_class_words_the_page_holds():
    from wf.extract.unseen import parts

    html = (
        "<html><body><a class='skip-link focusable' href='#main'>Skip to content</a>"
        "<div><div class='drawer d-none'><p>{0}</p></div></div>"
        "<div class='overflow-clip'><p>{1}</p></div></body></html>"
    )
    root = lxml.html.fromstring(html.format(COMPARE, STORY))
    search = "|".join(part for part in parts(root) if part)
    assert "d-none" in search and "focusable" in search
    assert "'hidden'" not in search and "ssr-variant" not in search
    # The same nodes as the search for every word, in the same order.
    every = f"{search}|{CLASS_XPATH}"
    assert root.xpath(search) == root.xpath(every)
    plain = lxml.html.fromstring(f"<html><body><div class='box'><p>{STORY}</p></div></body></html>")
    assert "@class" not in "|".join(parts(plain))


def test_a_large_page_searches_for_every_class_word_without_joining_its_classes(
    monkeypatch: pytest.MonkeyPatch,
):
    # Joining a large page's class values would add twice their size to the peak: there
    # every word is searched for, and the text is the same.
    from wf.extract import unseen

    plain = lxml.html.fromstring(f"<html><body><div class='box'><p>{STORY}</p></div></body></html>")
    every = "|".join(unseen.parts(plain, every_word=True))
    assert "d-none" in every and "focusable" in every and "ssr-variant" in every
    html = (
        f"<html><body><div class='drawer d-none'><p>{COMPARE}</p></div>"
        f"<article><p>{STORY}</p></article></body></html>"
    )
    small = extract(html).text
    monkeypatch.setattr(unseen, "CLASS_SCAN_MAX", 10)
    joined: list[str] = []
    real = unseen.compiled
    monkeypatch.setattr(unseen, "compiled", lambda e: (joined.append(e), real(e))[1])
    assert extract(html).text == small
    assert not any("str:concat" in e for e in joined)


def test_a_page_of_links_with_every_searched_attribute_is_searched_once_and_read_once(
    monkeypatch: pytest.MonkeyPatch,
):
    # unseen.search on 100000 links that each hold every attribute the cleaning searches
    # for (a style, hidden, aria-hidden, a skip link's href, a class), every other one
    # of every class word and "focusable", the others of "focusable" alone, which no class
    # word's search finds: each search runs once, the class hits' merge reads the page
    # once (no union in libxml2, whose merge is quadratic), each hit is found once, in
    # order. A page so large has every class word searched for (unseen.CLASS_SCAN_MAX).
    from common import xpath
    from wf.extract import unseen
    from wf.extract.hidden_alone import CLASS_WORDS

    searches: list[str] = []
    real = unseen.compiled
    monkeypatch.setattr(unseen, "compiled", lambda e: (searches.append(e), real(e))[1])
    reads: list[object] = []
    whole = xpath._document
    monkeypatch.setattr(xpath, "_document", lambda node: (reads.append(node), whole(node))[1])
    rest = "style='display:none' hidden aria-hidden='true' href='#main'"
    row = f"<a class='{' '.join(CLASS_WORDS)} focusable' {rest}>x</a><a class='focusable' {rest}>y</a>"
    root = lxml.html.fromstring(f"<html><body>{row * 50_000}</body></html>")
    hits = unseen.search(root, True, every_word=True)
    assert len(searches) == len(set(searches)) == 3 and len(reads) == 1
    assert len(hits.hidden) == 300_000 and len(hits.skip_links) == 100_000
    assert len(hits.classes) == 100_000
    assert [hit.getparent().text for hit in hits.classes[:4]] == ["x", "y", "x", "y"]


def test_the_cleaning_reads_each_kind_of_hit_without_ordering_the_whole_page(
    monkeypatch: pytest.MonkeyPatch,
):
    # Hidden boxes, skip links, class words and <noscript> boxes are read each from their
    # own searches: merging all the hits in page order read every node of the page into
    # a dict, which cost as much as the searches. Only class hits of two searches (the
    # class words and "focusable") are merged, on the pages that have both.
    from common import xpath

    def whole_page(node: object) -> None:
        raise AssertionError("every node of the page was read to order the hits")

    monkeypatch.setattr(xpath, "_document", whole_page)
    html = (
        "<html><body><a href='#main'>Skip to content</a><div style='display: none'>"
        f"<p>{ANSWER}</p></div><div><div class='drawer hidden'><p>{COMPARE}</p></div></div>"
        f"<noscript><p>Turn scripts on</p></noscript><main id='main'><p>{STORY * 3}</p>"
        "</main></body></html>"
    )
    text = extract(html).text
    assert STORY.strip()[:40] in text
    assert "Skip to content" not in text and ANSWER not in text and COMPARE not in text


def test_class_hits_of_two_searches_are_read_in_page_order():
    # A focusable link's class and the class words' hits, both found: alone() reads them
    # in page order, each once (the link's class is found by both searches).
    from wf.extract.unseen import search

    html = (
        "<html><body><div><a class='visually-hidden-focusable hidden' href='/x'>Back</a>"
        f"</div><div><div class='drawer hidden'><p>{COMPARE}</p></div></div>"
        "<p><a class='focusable' href='/y'>y</a></p></body></html>"
    )
    root = lxml.html.fromstring(html)
    found = search(root, main=True)
    assert [h.getparent().get("href") or h.getparent().tag for h in found.classes] == [
        "/x",
        "div",
        "/y",
    ]


def test_a_hidden_box_of_screen_readers_labels_without_a_figure_is_an_empty_label():
    # Dawn's unit price before a script fills it; a hidden box with its figure, one with
    # words shown to the eye, and one hidden on small screens only are no empty labels.
    sr = "<span class='visually-hidden'>Unit price</span>"
    root = lxml.html.fromstring(
        "<div><p>$89.00"
        f"<small id='a' class='unit-price hidden'>{sr}<span>/</span>"
        "<span class='visually-hidden'>per</span><span></span></small>"
        f"<small id='b' class='hidden'>{sr}<span>$8.90 / 100 g</span></small>"
        f"<small id='c' class='hidden'>{sr}<span>each</span></small>"
        f"<small id='d' class='hidden md:inline'>{sr}</small></p></div>"
    )
    found = empty_labels(root.xpath(CLASS_XPATH))
    assert [el.get("id") for el in found] == ["a"]


def test_a_screen_reader_s_label_is_read_apart_from_the_text_beside_it():
    # A shop's price labels for screen readers, glued to the price in the markup, and a
    # link's "Opens in a new window"; a stop right after a label stays glued to it.
    page = (
        "<html><head><title>Boots</title></head><body><main><h1>Harbour boots</h1>"
        f"<p>{STORY * 3} Compare at<span class='sr-only'>Regular price</span>"
        "<s>$120.00</s> <span class='visually-hidden'>Sale price</span>$96.00 a pair. "
        "<a href='/r'>Read the review<span class='screen-reader-text'>Opens in a new "
        "window</span></a>, then <span class='sr-only'>the</span>size guide.</p>"
        "</main></body></html>"
    )
    text = extract(page).text
    assert "Compare at Regular price $120.00 Sale price $96.00" in text.replace("~", "")
    assert "Read the review Opens in a new window" in text and "window, then" in text
    assert "the size guide" in text


def test_a_screen_reader_s_label_in_code_keeps_the_code_as_written():
    root = lxml.html.fromstring(
        "<div><pre><code>x<span class='sr-only'>Line 2</span>=1</code></pre>"
        "<p>Price<span class='sr-only'>Sale</span>$5</p></div>"
    )
    read_apart(root.xpath(CLASS_XPATH))
    assert root.xpath("string(//pre)") == "xLine 2=1"
    assert " ".join(root.xpath("string(//p)").split()) == "Price Sale $5"
