"""wf/empty.py searches the raw page a window at a time, asking the deadline between
windows: the first match must be the one a single search of the whole page finds. Random
pages made of the patterns' own pieces (quotes, tags, white space, the letters re.I
matches with non-ASCII characters) are searched both ways, with windows of a few
characters so that every page is cut many times."""

from __future__ import annotations

import random
import re

import pytest

from wf import empty

PIECES = (
    "<",
    ">",
    '"',
    "'",
    " ",
    "\n",
    "\t",
    "=",
    ":",
    "_",
    "-",
    "x",
    "\u4e2d",
    "div",
    "section",
    "input",
    "form",
    "class",
    "id",
    "type",
    "password",
    "paywall",
    "pay-wall",
    "onetrust",
    "cookie-consent",
    "cmpbox",
    "isAccessibleForFree",
    "ForFree",
    "is",
    "Accessible",
    "false",
    "False",
    "content_tier",
    "content",
    "locked",
    "\u0131",
    "\u0130",
    "\u017f",
    "\u212a",
)


# Matches, whole, to be cut, joined and broken by the pages below.
MATCHES = (
    '"isAccessibleForFree": false',
    "'isAccessibleForFree' :'FALSE'",
    "isaccessibleforfree:\n\tfalse",
    '<meta name="content_tier" content="locked">',
    "content_tier'  content = locked",
    '<div class="paywall">',
    "<section data-x=1 id = 'story subscriber-only'>",
    '<input name=p type="password">',
    "<input type = password>",
    '<div id="onetrust-banner-sdk">',
    "<aside class=cmpbox>",
)


def mangled(rnd: random.Random, text: str) -> str:
    for _ in range(rnd.randint(0, 2)):
        at = rnd.randrange(len(text) + 1)
        cut = rnd.choice((0, 1, 1, 2))
        text = text[:at] + rnd.choice(("", *PIECES)) + text[at + cut :]
    return text


def pages(seed: int, count: int) -> list[str]:
    rnd = random.Random(seed)
    return [
        "".join(
            mangled(rnd, rnd.choice(MATCHES)) if rnd.random() < 0.3 else rnd.choice(PIECES)
            for _ in range(rnd.randint(1, 60))
        )
        for _ in range(count)
    ]


def spans(found: re.Match[str] | None) -> tuple[object, ...] | None:
    return None if found is None else (found.span(), found.groups())


SEARCHES = [
    (empty._PAYWALL_DATA, empty._paywall_data),
    (empty._PAYWALL_ATTR, empty._by_tags(empty._PAYWALL_ATTR)),
    (empty._PASSWORD, empty._by_tags(empty._PASSWORD)),
    (empty._CONSENT_ATTR, empty._by_tags(empty._CONSENT_ATTR)),
]


@pytest.mark.parametrize("window", [4, 7, 16, 64])
@pytest.mark.parametrize(("pattern", "search"), SEARCHES, ids=["data", "paywall", "pw", "consent"])
def test_the_search_by_windows_finds_what_one_search_finds(monkeypatch, window, pattern, search):
    monkeypatch.setattr(empty, "_WINDOW", window)
    found = 0
    for html in pages(window, 4_000):
        one = spans(pattern.search(html))
        assert spans(search(html, lambda: False)) == one, html
        found += one is not None
    assert found > 200  # the pages hold matches, not only misses


def test_a_match_across_many_windows_is_found_whole(monkeypatch):
    # Long runs the patterns take in one match (white space, a tag's attributes) cross
    # many windows.
    monkeypatch.setattr(empty, "_WINDOW", 8)
    data = '"isAccessibleForFree"' + " " * 500 + ":\n\n" + " " * 300 + "false"
    assert spans(empty._paywall_data("<p>" + data, lambda: False)) == ((3, len(data) + 3), ())
    tag = "<input " + "a=1 " * 200 + 'type="password">'
    assert empty._by_tags(empty._PASSWORD)("<p>" + tag, lambda: False) is not None
    attr = "<div" + " " * 2_000 + 'class = "x paywall"'
    assert spans(empty._by_tags(empty._PAYWALL_ATTR)(attr, lambda: False)) == spans(
        empty._PAYWALL_ATTR.search(attr)
    )


def test_an_input_s_type_is_read_within_a_bounded_stretch_of_its_tag():
    # One attempt of the search is one step no window divides: it reads an <input> as far
    # as _INPUT_READ characters, and _SPACES_READ spaces on each side of its "=" (a whole
    # tag of 10 MB, or as many spaces after "type=", took 0.3 s in one attempt).
    def found(tag: str) -> bool:
        return empty._by_tags(empty._PASSWORD)("<p>" + tag, lambda: False) is not None

    def tag(before: int, spaces: int) -> str:
        return (
            "<input"
            + " "
            + "a" * (before - 2)
            + " type"
            + " " * spaces
            + "="
            + " " * spaces
            + "password>"
        )

    assert found(tag(empty._INPUT_READ, empty._SPACES_READ))
    assert not found(tag(empty._INPUT_READ + 1, 1))
    assert not found(tag(10, empty._SPACES_READ + 1))


@pytest.mark.parametrize("window", [8, 16, 29])
def test_a_match_is_found_wherever_the_windows_fall(monkeypatch, window):
    # Each match starts at every place in a window, and at each end of one.
    monkeypatch.setattr(empty, "_WINDOW", window)
    for filler in ("x", " ", "<b>", "\u4e2d"):
        for n in range(3 * window):
            for match in MATCHES:
                html = filler * n + match + filler * n
                for pattern, search in SEARCHES:
                    assert spans(search(html, lambda: False)) == spans(pattern.search(html))
