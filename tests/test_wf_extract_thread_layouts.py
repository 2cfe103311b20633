"""A thread's post drawn twice for two screen sizes (kinds/copies.py pairs) and a post's
date read across an icon (hidden.drop_all), on small pages of our own."""

from __future__ import annotations

import pytest

from tests.test_wf_extract_kinds import PROSE, ld
from wf.extract import extract

REPLIES = (
    "The ferry timetable changes in October, so check the winter sheet before you travel.",
    "I took the early boat last week and it left ten minutes late because of the fog.",
    "Bikes go free on weekdays, but at weekends you need to book a place for them online.",
)
BODY = (
    "Does anyone know whether the island ferry still runs on Sunday mornings? The pier "
    "office was closed when I asked, and the website shows two different timetables."
)


def _head(classes: str, votes: str) -> str:
    # One layout's head of the post: title, byline, counts (each layout its own order).
    return (
        f"<div class='{classes}'><article class='post-head'><div class='score'>{votes}</div>"
        "<h1><a href='/post/9'>Sunday ferry to the island</a></h1><div class='small'>"
        "<a class='person-listing' href='/u/marit'>marit</a> to "
        "<a href='/c/travel'>travel</a> · <span class='moment-time'>3 days ago</span>"
        "</div><a href='/post/9#c' title='Comments'>3</a></article></div>"
    )


def _thread(small: str, large: str) -> str:
    comments = "".join(
        f"<li class='comment'><article><div class='small'><a class='person-listing' "
        f"href='/u/u{n}'>user{n}</a> <span class='moment-time'>{n + 1} days ago</span>"
        f"</div><div class='md-div'><p>{text}</p></div></article></li>"
        for n, text in enumerate(REPLIES)
    )
    return (
        "<html><head><title>Sunday ferry</title></head><body><nav><a href='/'>Home</a> "
        "<a href='/c'>Communities</a></nav><main><div class='post-listing'>"
        f"{_head(small, '12 3')}{_head(large, '9')}"
        f"<article class='post-body'><div class='md-div'><p>{BODY}</p></div></article></div>"
        f"<ul class='comments'>{comments}</ul></main></body></html>"
    )


@pytest.mark.parametrize(
    ("small", "large"),
    [
        ("d-block d-sm-none", "d-none d-sm-block"),  # Bootstrap
        ("md:hidden", "hidden md:block"),  # Tailwind
        ("show-for-small-only", "hide-for-small-only"),  # Foundation
        ("hide-for-small-only", "show-for-small-only"),  # the phone's copy second
    ],
)
def test_a_posts_title_and_byline_drawn_for_two_screen_sizes_print_once(small, large):
    text = extract(_thread(small, large)).text
    assert text.count("Sunday ferry to the island") == 1, text
    assert text.count("marit") == 1, text  # the head's byline, once
    assert BODY in text
    assert all(reply in text for reply in REPLIES)  # three comments under the post: a thread


def test_the_copy_for_large_screens_is_the_one_kept():
    # The phone's copy shows up and down votes, the desktop's the score: the desktop's
    # is what a reader at a desk sees.
    text = extract(_thread("d-block d-md-none", "d-none d-md-block")).text
    assert "12 3" not in text, text


def test_a_grid_of_items_each_shown_at_its_own_size_is_no_pair():
    # A shop's grid shows more items on a wider screen: their words are mostly the same,
    # but a copy's are all the same.
    names = ("Blue enamel kettle", "Blue enamel kettle large", "Blue enamel teapot", "Red mug")
    cells = "".join(
        f"<div class='{c}'><h3>{name}</h3><p>A sturdy thing, made to last in any kitchen, "
        f"number {n}.</p></div>"
        for n, (name, c) in enumerate(
            zip(
                names,
                ("block", "hidden sm:block", "hidden md:block lg:hidden", "block"),
                strict=True,
            )
        )
    )
    html = (
        "<html><body><nav><a href='/'>Home</a> <a href='/shop'>Shop</a></nav><main>"
        f"<h1>Kettles</h1><p>{PROSE}</p><p>{PROSE}</p><div class='grid'>{cells}</div></main>"
        "<footer><a href='/terms'>Terms</a></footer></body></html>"
    )
    text = extract(html).text
    assert all(name in text for name in names), text


def test_a_date_and_its_hour_either_side_of_an_icon_stay_apart():
    posts = "".join(
        f"<div class='post'><div class='post-byline'><a href='/member/{who}'>{who}</a>, "
        f"<time datetime='2005-07-0{n + 1}'>7/{n + 1}/05<i class='fa fa-at' "
        f"aria-hidden='true'></i>7:5{n} PM</time></div><div class='post-body'><p>{text} "
        f"{PROSE}</p></div></div>"
        for n, (who, text) in enumerate(zip(("kari", "olav", "siv"), REPLIES, strict=True))
    )
    html = (
        f"<html><head><title>Ferry</title>{ld({'@type': 'DiscussionForumPosting'})}</head>"
        f"<body><div class='thread'>{posts}</div></body></html>"
    )
    text = extract(html).text
    assert "7/1/05 7:50 PM" in text, text
    assert "05 7:5" in text and "057:5" not in text, text


def test_cells_drawn_for_the_same_screen_size_are_no_pair():
    # A fare table's cells, each shown on wide screens only, print the same words and
    # other numbers: two boxes for one screen size are two items, not one item's copies.
    fares = ("4.50", "5.80", "7.20")
    cells = "".join(
        f"<div class='col-md-4 hidden-xs'><h3>Return ticket</h3><p>Zone 1 to zone {n + 2}, "
        f"{fare} EUR</p></div>"
        for n, fare in enumerate(fares)
    )
    html = (
        "<html><body><nav><a href='/'>Home</a> <a href='/fares'>Fares</a></nav><main>"
        f"<h1>Fares</h1><p>{PROSE}</p><p>{PROSE}</p><div class='row'>{cells}</div></main>"
        "<footer><a href='/terms'>Terms</a></footer></body></html>"
    )
    text = extract(html).text
    assert all(f"{fare} EUR" in text for fare in fares), text


def test_a_day_in_its_own_box_and_the_hour_after_an_icon_stay_apart():
    # The day ends inside the <span> before the icon, not in a tail of its own.
    html = (
        "<html><body><article><h1>Ferry notes</h1><p>Posted <span class='day'>7/9/05</span>"
        "<i class='fa fa-clock' aria-hidden='true'></i>7:57 PM by the harbour office, "
        "<b><span>on 1</span></b><i aria-hidden='true'></i>2 quays.</p>"
        f"<p>{PROSE}</p><p>{PROSE}</p></article></body></html>"
    )
    text = extract(html).text
    assert "7/9/05 7:57 PM" in text, text
    assert "on 1 2 quays" in text, text


@pytest.mark.parametrize(
    ("between", "shown"),
    [
        # Two icons side by side, the number after them in a box of its own.
        ("<i class='icon' aria-hidden='true'></i><i class='icon' aria-hidden='true'></i>", "12 34"),
        ("<span class='icon' aria-hidden='true'></span>", "12 34"),
        # An <svg> icon (dropped as junk), aria-hidden or not, alone or in a box.
        ("<svg aria-hidden='true'><path d='M0 0'/></svg>", "12 34"),
        ("<svg class='icon'><use href='#clock'/></svg>", "12 34"),
        ("<span class='ic'><svg aria-hidden='true'> <use href='#a'/> </svg></span>", "12 34"),
        # The space an icon hidden from screen readers holds is shown.
        ("<i class='icon' aria-hidden='true'> </i>", "12 34"),
        # A box no reader sees (display:none) shows nothing: a browser glues the numbers.
        ("<i class='icon' style='display:none'></i>", "1234"),
        # Hidden from the eye as well as from screen readers: no room, no space.
        ("<i class='icon' aria-hidden='true' style='display:none'> </i>", "1234"),
        ("<i class='icon' aria-hidden='true' hidden></i>", "1234"),
        ("<svg style='display: none'><use href='#clock'/></svg>", "1234"),
        ("<svg width='0' height='0'><defs><path id='clock' d='M0 0'/></defs></svg>", "1234"),
    ],
)
def test_icons_dropped_between_two_numbers_leave_the_space_a_browser_shows(between, shown):
    html = (
        "<html><body><article><h1>Ferry notes</h1><p>Berths "
        f"<b>12</b>{between}<b>34</b> and more.</p><p>{PROSE}</p><p>{PROSE}</p>"
        "</article></body></html>"
    )
    text = extract(html).text
    assert f"Berths {shown} and" in text, text


def test_a_space_held_by_an_icon_shown_to_the_eye_parts_two_words():
    html = (
        "<html><body><article><h1>Ferry notes</h1><p>The <b>north</b>"
        "<i class='icon' aria-hidden='true'> </i><b>quay</b> and the <b>south</b>"
        "<i class='icon' aria-hidden='true'></i><b>west</b> berth.</p>"
        f"<p>{PROSE}</p><p>{PROSE}</p></article></body></html>"
    )
    text = extract(html).text
    # An empty icon between letters may stand inside a word: it adds nothing.
    assert "The north quay and the southwest berth." in text, text


class _Endless:
    """An empty box in a tree of empty boxes without end, each step to a neighbour
    counted: what reading past a hostile nest would cost, counted, not timed."""

    tag, text = "span", None

    def __init__(self, steps: list[int]) -> None:
        self.steps = steps
        self.tail: str | None = None

    def _step(self) -> _Endless:
        self.steps[0] += 1
        assert self.steps[0] < 1000, "an unbounded walk"
        return _Endless(self.steps)

    def getnext(self) -> _Endless:
        return self._step()

    def getprevious(self) -> _Endless:
        return self._step()

    def getparent(self) -> _Endless:
        return self._step()

    def get(self, name: str) -> None:
        return None

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: int) -> _Endless:
        return self._step()


def test_the_text_beside_an_icon_is_read_a_bounded_number_of_steps_away():
    from wf.extract import hidden, hidden_tuning

    for tail in (None, "3"):  # the way after the icon; a number after it, the way before
        steps = [0]
        icon = _Endless(steps)
        icon.tail = tail
        assert not hidden.between_numbers(icon)
        assert 0 < steps[0] <= 2 * hidden_tuning.ICON_BEFORE_DEPTH


@pytest.mark.parametrize("icon", ["<i aria-hidden='true'></i>", "<svg></svg>"])
def test_icons_beside_deep_nests_are_each_read_once(icon, monkeypatch):
    # Each icon's neighbours are read once, a bounded number of steps away (above),
    # whatever the nest of empty boxes beside it.
    from wf.extract import hidden

    calls = []
    read = hidden.between_numbers
    monkeypatch.setattr(hidden, "between_numbers", lambda el: calls.append(el) or read(el))
    nest = "<span>" * 400 + "1" + "</span>" * 400
    html = (
        "<html><body><article><p>"
        + (nest + icon) * 300
        + "<span>" * 400
        + (icon + "<span>") * 2000
        + "2"
        + "</span>" * 2400
        + f"</p><p>{PROSE}</p></article></body></html>"
    )
    extract(html)
    assert 0 < len(calls) <= 2300


def test_a_class_value_named_for_a_screen_size_is_kept_only_when_short():
    """copies.layout_named keeps its verdict on a class value for the pages after it, but
    not on a long one (nothing bounds an attribute's length): its verdict is the same."""
    from wf.extract.kinds import copies

    short, long = "post-head d-md-none", "x" * 10_000 + " hidden-md"
    assert copies.layout_named(short) and copies.layout_named(long)
    assert not copies.layout_named("x" * 10_000)
    assert short in copies._layout_names
    assert long not in copies._layout_names and "x" * 10_000 not in copies._layout_names
