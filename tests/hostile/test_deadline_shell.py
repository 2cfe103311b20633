"""The JavaScript-shell check after the bytes (wf/render/detect.py): an empty mount point
found from its ids, tag by tag, with the deadline asked between windows of the page (one
search from every "<div" was quadratic in a tag of many ids: 8.7 s for 160 KB); the
request for JavaScript in a <noscript> read once per stretch of requests (3.4 s for 10 MB
of "enable "); and the deadline asked before each kind of sign. Each search is checked
against the one pattern it stands for; counted asks, never timing, for the deadline."""

from __future__ import annotations

import random
import re

import pytest

from common.late import OutOfTime
from tests.helpers import Asks
from wf import empty
from wf.render import detect

# _NEEDS_JS as it was: what a request for JavaScript is, read 80 characters from each
# request word.
NEEDS_JS_AS_SPECIFIED = re.compile(
    r"\b(?:enable|turn on|requires?|need|needs|activate|allow|without)\b[^<>]{0,80}?"
    r"\bjava\s*script\b|\bjava\s*script\b[^<>]{0,80}?"
    r"\b(?:required|disabled|enabled|turned off|is off|must|needs? to be)\b",
    re.IGNORECASE,
)
# The mount point's pattern, searched whole: what detect._mount_found finds from the ids.
MOUNT_AS_SPECIFIED = re.compile(
    rf"{detect._MOUNT_NAME}[^<>]*{detect._MOUNT_ID}[^<>]*>{detect._MOUNT_TAIL}",
    re.IGNORECASE | re.DOTALL,
)
MOUNTS = (
    '<div id="root"></div>',
    "<main class=x ID = 'app' >\n<!-- nothing --> </main>",
    "<section id=q-app x>>\t</section >",
    '<div id="x" id="__next"></div>',
    "<div id=root>x></div>",
    "<DIV data-a=1 id='___gatsby'><!----></DIV>",
)
MOUNT_PIECES = (
    "<div", "<main", "<span", " ", "\n", " id=", "id", "=", "root", "app", '"', "'",
    ">", "<", "</div>", "</main>", "<!--", "-->", "x", "roots", "ID", "\u0130d", "\u0131", "i",
)  # fmt: skip


def mangled(rnd: random.Random, text: str, pieces: tuple[str, ...]) -> str:
    for _ in range(rnd.randint(0, 2)):
        at = rnd.randrange(len(text) + 1)
        text = text[:at] + rnd.choice(("", *pieces)) + text[at + rnd.choice((0, 1, 1, 2)) :]
    return text


def pages(seed: int, wholes: tuple[str, ...], pieces: tuple[str, ...]) -> list[str]:
    rnd = random.Random(seed)
    return [
        "".join(
            mangled(rnd, rnd.choice(wholes), pieces) if rnd.random() < 0.3 else rnd.choice(pieces)
            for _ in range(rnd.randint(1, 30))
        )
        for _ in range(4_000)
    ]


@pytest.mark.parametrize("window", [4, 9, 32, detect._WINDOW])
def test_a_mount_point_found_from_its_ids_is_the_pattern_s(monkeypatch, window):
    monkeypatch.setattr(detect, "_WINDOW", window)
    found = 0
    for page in pages(window, MOUNTS, MOUNT_PIECES):
        one = MOUNT_AS_SPECIFIED.search(page) is not None
        assert detect._mount_found(page, lambda: False) == one, page
        found += one
    assert found > 300  # the pages hold mount points, not only misses


class _Counted:
    """A compiled pattern whose searches and matches are counted."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0

    def search(self, *args: object) -> re.Match[str] | None:
        self.calls += 1
        return self.pattern.search(*args)  # type: ignore[arg-type]

    def match(self, *args: object) -> re.Match[str] | None:
        self.calls += 1
        return self.pattern.match(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("last", ['id="root">', "id=root>x>"])
def test_a_tag_of_many_ids_is_read_once_not_from_each(monkeypatch, last):
    # 20 000 ids in one <div>: the pattern searched whole tried each, each reading on to the tag's end (8.7 s).
    # The tag is judged from its first id and, when the last ends on the ">", that one.
    ids = _Counted(detect._IDS)
    monkeypatch.setattr(detect, "_IDS", ids)
    page = "<html><body><div " + "id=root " * 20_000 + last + "</div></body></html>"
    assert detect._mount_found(page, lambda: False) is True
    assert ids.calls <= 4 if last.endswith('">') else ids.calls <= 20_003
    ids.calls = 0
    page = "<html><body><div " + "id=root " * 20_000 + ">x</div></body></html>"
    assert detect._mount_found(page, lambda: False) is False
    assert ids.calls <= 3  # its first id, then none after the tag


def test_a_mount_point_is_looked_for_asking_the_deadline_between_windows(monkeypatch):
    monkeypatch.setattr(detect, "_WINDOW", 1_000)
    page = '<div a="x" b="y">' * 2_000 + '<div id="root"></div>'  # 34 KB: 34 windows
    assert detect._mount_found(page, late := Asks()) is True
    assert late.asks >= 30
    with pytest.raises(OutOfTime):
        detect._mount_found(page, Asks(from_ask=5))


@pytest.mark.parametrize("seed", range(3))
def test_a_request_for_javascript_is_the_pattern_s(seed):
    words = (
        "enable", "Turn on", "requires", "require", "needs", "need", "allow", "without",
        "java", "script", "JavaScript", "java\n script", "javas", "required", "disabled",
        "is off", "must", "needs to be", " ", " ", " ", "x", "1", "<", ">", "a" * 30, "b" * 50,
        "enable JavaScript", "JavaScript is disabled", "you need to turn on java script",
    )  # fmt: skip
    rnd = random.Random(seed)
    found = 0
    for _ in range(20_000):
        text = "".join(rnd.choices(words, k=rnd.randint(0, 30)))
        one = NEEDS_JS_AS_SPECIFIED.search(text) is not None
        assert (detect._NEEDS_JS.search(text) is not None) == one, text
        found += one
    assert found > 2_000


def test_the_shell_check_asks_the_deadline_before_each_kind_of_sign(monkeypatch):
    page = "<html><body>" + "<noscript>x</noscript>" * 3_000 + "<div>" * 1_000 + "</body></html>"
    looked: list[str] = []
    real = detect._mount_found
    monkeypatch.setattr(
        detect, "_mount_found", lambda raw, late: looked.append("mount") or real(raw, late)
    )
    assert detect.looks_like_js_shell(page, "", late := Asks()) is False
    # Before the markers, the <noscript>s and the mount point, and two of the 3 000
    # <noscript>s in between; the one window of the page asks none.
    assert late.asks == 3 + 3_000 // detect._ASKED and looked == ["mount"]
    looked.clear()
    # Late at the ask among the <noscript>s: no mount point looked for, and no shell.
    assert detect.looks_like_js_shell(page, "", Asks(from_ask=3)) is False and looked == []
    # A marker, the cheapest sign, answers before the rest is read.
    marked = page + "<script>window.__NUXT__={}</script>"
    assert detect.looks_like_js_shell(marked, "", late := Asks()) is True and late.asks == 1
    assert detect.shell_signals(marked) == ["marker window.__NUXT__"]


def test_a_shell_past_the_deadline_after_its_check_is_noted_out_of_time():
    page = '<html><body><div id="root"></div>' + "<div></div>" * 500 + "</body></html>"
    args = (page, "", "https://app.example/")
    note = empty.why_empty(*args, never=True, rendered=False, can_render=False, late=Asks())
    assert note is not None and "empty mount point" in note
    # The why_empty ask, the three of the check, then the one before the signs are listed.
    late = Asks(from_ask=5)
    note = empty.why_empty(*args, never=True, rendered=False, can_render=False, late=late)
    assert note == f"no text: {empty.OUT_OF_TIME}" and late.asks == 5


# Words of requests for JavaScript, and runs of blanks longer than a window's reach past
# its edge (inside "java script", the only place a match holds more than 101 characters).
REQUEST_WORDS = (
    "enable", "turn on", "requires", "need", "without", "java", "script", "JavaScript",
    "required", "disabled", "must", "needs to be", " ", " ", "x", "<", "a" * 30, "b" * 70,
    " " * 60, " " * 130, " " * 300, "\n" * 700, "enable JavaScript", "JavaScript is off",
)  # fmt: skip


@pytest.mark.parametrize("window", [1, 7, 60, 500])
def test_a_request_for_javascript_read_a_window_at_a_time_is_the_pattern_s(monkeypatch, window):
    monkeypatch.setattr(detect, "_JS_WINDOW", window)
    rnd = random.Random(window)
    found = 0
    for _ in range(1_500):
        text = "".join(rnd.choices(REQUEST_WORDS, k=rnd.randint(0, 40)))
        one = NEEDS_JS_AS_SPECIFIED.search(text) is not None
        assert detect._requests_js(text, lambda: False) == one, text
        found += one
    assert found > 200
    # A "java script" whose blanks run on past several windows' reach.
    long = "x " * 300 + "enable java" + " " * 5_000 + "script" + " x" * 300
    assert detect._requests_js(long, lambda: False) is True
    assert detect._requests_js(long.replace("enable", "enables"), lambda: False) is False


def test_one_long_noscript_is_searched_asking_the_deadline_between_windows(monkeypatch):
    # One <noscript> of requests without "JavaScript" was searched whole (0.7 to 1 s for
    # 10 MB): 70 KB of them are 70 windows of 1 000 characters.
    monkeypatch.setattr(detect, "_JS_WINDOW", 1_000)
    content = "enable " * 10_000
    assert detect._requests_js(content, late := Asks()) is False
    assert late.asks >= 60
    with pytest.raises(OutOfTime):
        detect._requests_js(content, Asks(from_ask=3))
    page = "<html><body><noscript>" + content + "</noscript><div>x</div></body></html>"
    # Before the markers, before the <noscript>s, then late at the 3rd ask, inside the one.
    assert detect.looks_like_js_shell(page, "", Asks(from_ask=3)) is False
    assert detect.looks_like_js_shell(page + "JavaScript is off</noscript>", "", Asks()) is False
    asks_js = page.replace("</noscript>", "JavaScript is off</noscript>")
    assert detect.looks_like_js_shell(asks_js, "", Asks()) is True


def test_the_signals_listed_for_a_note_ask_the_deadline_as_they_are_read(monkeypatch):
    monkeypatch.setattr(detect, "_WINDOW", 1_000)
    page = "<script>window.__NUXT__={}</script>" + '<div a="x" b="y">' * 2_000 + "</div>"
    assert detect.shell_signals(page, late := Asks()) == ["marker window.__NUXT__"]
    assert late.asks >= 30  # between the windows of the search for a mount point
    assert detect.shell_signals(page, Asks(from_ask=10)) is None
    # why_empty says so: its ask, the check's one (a marker), then late among the signals.
    args = (page, "", "https://app.example/")
    note = empty.why_empty(*args, never=True, rendered=False, can_render=False, late=Asks(5))
    assert note == f"no text: {empty.OUT_OF_TIME}"
    note = empty.why_empty(*args, never=True, rendered=False, can_render=False, late=Asks())
    assert note is not None and "(marker window.__NUXT__)" in note


class _Spans:
    """_NEEDS_JS, the stretches its searches may read recorded."""

    def __init__(self) -> None:
        self.pattern = detect._NEEDS_JS
        self.read = 0

    def search(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> re.Match[str] | None:
        self.read += min(endpos, len(text)) - pos
        return self.pattern.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        self.read += len(text) - pos
        return self.pattern.match(text, pos)


@pytest.mark.parametrize("words", ["enable java", "enables java"])
def test_a_long_run_of_blanks_is_not_read_through(monkeypatch, words):
    # 10 MB of blanks in one window's reach took 0.3 s in one search: the run is looked
    # at in a copy with a few of them, as the blanks of a "java script".
    spans = _Spans()
    monkeypatch.setattr(detect, "_NEEDS_JS", spans)
    content = "x " * 100 + words + " " * 1_000_000 + "script x"
    assert detect._requests_js(content, lambda: False) is (words == "enable java")
    assert spans.read < 100_000
