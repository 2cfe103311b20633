"""The deadline asked inside the long passes after the bytes of a page with no text
(wf/empty.py: each search of the raw page, the tag-by-tag read of what it shows) and of a
feed (wf/feed.py, wf/feedtext.py: each entry read, each summary extracted again for
--json), and a class value read as far as its names are by the search for layout copies.
Counted asks, deadlines already past and the lengths searched, never timing: 10 MB pages
cost 0.7 to 1.4 s a search, a feed of 1 000 large entries as much, where no ask was made.
"""

from __future__ import annotations

import time

import pytest

from common.late import OutOfTime
from tests.helpers import Asks
from wf import empty, feed, feedtext

# Boxes of quoted attributes (no search finds anything in them; _PAYWALL_DATA tries a
# start at each quote and the boxes' searches one at each "<": 0.8 to 1.3 s on 10.8 MB),
# then a paywall's box at the very end.
BOXES = '<div a="x" b="y">' * 75_000 + '<div class="paywall"></div>'


def test_each_search_of_the_raw_page_asks_the_deadline_as_it_goes():
    windows = len(BOXES) // empty._WINDOW  # 4 whole ones in 1.3 MB
    late = Asks()
    note = empty._markup_reason(BOXES, "", late)
    assert note == "page is behind a paywall (id or class 'paywall')"
    # One ask before the searches, one before each, and one between two windows of the
    # page in the two that read it (the paywall's data, then its boxes, found at the end).
    assert late.asks >= 3 + 2 * (windows - 1)
    # Late from the 4th ask: in the middle of the first search (the searches asked 3
    # times before the boxes' was done, and its note found).
    assert empty._markup_reason(BOXES, "", Asks(from_ask=4)) == empty.OUT_OF_TIME


def test_the_read_of_what_the_page_shows_asks_the_deadline_every_so_many_tags():
    tags = "<i>x</i>" * (2 * empty._TAGS_ASKED)
    seen = empty._Seen(tags, late := Asks())
    assert late.asks == 4 and seen.own == 2 * empty._TAGS_ASKED
    with pytest.raises(OutOfTime):
        empty._Seen(tags, Asks(from_ask=1))
    # Past the deadline at its first ask, why_empty says so: no reason looked for.
    note = empty.why_empty(
        tags, "", None, never=True, rendered=False, can_render=False, late=Asks(from_ask=3)
    )
    assert note == f"no text: {empty.OUT_OF_TIME}"


def rss(items: int, summary: str = "<p>a summary</p>") -> str:
    item = (
        "<item><title>t{n}</title><link>https://f.example/{n}</link>"
        "<description><![CDATA[" + summary + "]]></description></item>"
    )
    body = "".join(item.format(n=n) for n in range(items))
    return f'<rss version="2.0"><channel><title>F</title>{body}</channel></rss>'


def test_a_feed_is_read_entry_by_entry_up_to_the_deadline():
    root, problem = feed.parse_xml(rss(10), "https://f.example/feed")
    assert problem is None
    late = Asks(from_ask=4)
    read = feed.read_feed(root, "https://f.example/feed", late)
    assert read is not None
    assert [e.title for e in read.entries] == ["t0", "t1", "t2"]
    assert read.late and read.found == 10 and late.asks == 4  # asked no more once late
    whole = feed.read_feed(root, "https://f.example/feed", Asks())
    assert whole is not None and len(whole.entries) == 10 and not whole.late


def test_a_feed_past_its_deadline_says_its_entries_are_left_out():
    out = feedtext.feed_text(rss(5), url="https://f.example/feed", deadline=time.monotonic() - 1)
    assert "out of time: the feed's entries past the first 0 of 5 are left out" in out.notes
    assert "the feed has no entries" not in out.notes
    assert "t0" not in out.text and out.entries == []


def test_whether_a_summary_has_text_is_not_read_from_all_of_it(monkeypatch):
    # One 10 MB description: its one-line text was made in full (0.1 s) to learn only
    # whether it had any.
    sizes: list[int] = []
    one_line = feed.one_line
    monkeypatch.setattr(feed, "one_line", lambda text: sizes.append(len(text)) or one_line(text))
    root, _ = feed.parse_xml(rss(1, "word " * 100_000), None)
    read = feed.read_feed(root, None)
    assert read is not None and read.entries[0].summary == "word " * 100_000
    assert max(sizes) <= feed._SLICE


@pytest.mark.parametrize(
    "pieces",
    [
        [""],
        [" \n\t "],
        ["\u200b\u00ad", "  "],
        ["\u200d"],
        ["\u0628\u200d", "\u0628"],
        ["  ", "\u200b", "x"],
        [" " * 70, "\u200c" * 10, "y"],
        ["\ufeff" * 9],
        ["\u2028\u2029\r\n"],
    ],
)
def test_whether_a_summary_has_text_is_what_its_text_says(monkeypatch, pieces):
    monkeypatch.setattr(feed, "_SLICE", 4)  # many slices, and pieces cut between them
    from lxml import etree

    el = etree.Element("d")
    el.text = None
    for piece in pieces:
        child = etree.SubElement(el, "s")
        child.text = piece
    assert feed._has_text(el) == (feed._text_of(el) is not None)


def test_summaries_extracted_again_for_json_stop_at_the_deadline():
    root, _ = feed.parse_xml(rss(3), None)
    read = feed.read_feed(root, None)
    assert read is not None
    notes: list[str] = []
    summaries = [feedtext._summary_element(e, [10_000], notes) for e in read.entries]
    in_time = feedtext._entries_json(read.entries, summaries, time.monotonic() + 60, notes)
    assert [e["summary"] for e in in_time] == ["a summary"] * 3 and notes == []
    late = feedtext._entries_json(read.entries, summaries, time.monotonic() - 1, notes)
    assert [e["summary"] for e in late] == [None] * 3 and [e["title"] for e in late] == [
        "t0",
        "t1",
        "t2",
    ]
    assert notes == ["out of time: some summaries are left out"]


def test_a_class_value_is_searched_for_layout_names_as_far_as_its_names_are_read(monkeypatch):
    # pairs (wf/extract/kinds/copies.py) searched a short box's whole class value for the
    # names of screen sizes: 1 s a search of a 10 MB value, three times a page, no ask.
    from wf.extract import extract
    from wf.extract.kinds import copies
    from wf.extract.names_tuning import NAMES_READ

    searched: list[int] = []
    layout = copies._LAYOUT

    class Counted:
        def search(self, text: str) -> object:
            searched.append(len(text))
            return layout.search(text)

        def findall(self, text: str) -> list[str]:
            searched.append(len(text))
            return layout.findall(text)

    monkeypatch.setattr(copies, "_LAYOUT", Counted())
    copies._layout_names.clear()
    names = " ".join(f"w{i}" for i in range(20_000))
    html = f'<html><body><div class="{names}">a short box</div>'
    extract(html + "</body></html>", url=None)
    assert searched and max(searched) <= NAMES_READ


@pytest.mark.parametrize("seed", range(4))
def test_a_class_value_read_whole_holds_the_tokens_that_are_read(seed):
    import random

    from wf.extract import name_tokens
    from wf.extract.names_tuning import NAMES_READ

    rnd = random.Random(seed)
    for _ in range(300):
        size = rnd.choice((10, NAMES_READ - 3, NAMES_READ, NAMES_READ + 3, 3 * NAMES_READ))
        value = "".join(rnd.choices("ab-\t\n \u00a0\u3000", k=size))
        head = name_tokens.head(value)
        assert value.startswith(head) and len(head) <= NAMES_READ
        assert head.split() == name_tokens.tokens(value)


def test_a_summary_is_made_asking_the_deadline_every_so_many_elements():
    # Each of a summary's links is resolved and checked: one of 74 000 links took 0.5 s
    # with no ask.
    root, _ = feed.parse_xml(rss(1, "<a href='/a'>x</a>" * 3_000), "https://f.example/feed")
    read = feed.read_feed(root, "https://f.example/feed")
    assert read is not None
    late = Asks()
    div = feedtext._summary_element(read.entries[0], [10_000], [], late)
    assert len(div) == 3_000 and late.asks == 3_001 // feedtext._ASKED
    with pytest.raises(OutOfTime):
        feedtext._summary_element(read.entries[0], [10_000], [], Asks(from_ask=1))
