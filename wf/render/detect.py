"""Is this page a JavaScript shell, and can its state be read without a browser?

Pure functions over the static HTML: cheap regular expressions, no lxml, no browser.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

from common.late import OutOfTime

# A shell is big (scripts, inline state) and says little; both thresholds are in bytes.
MIN_RAW_BYTES = 2000
MAX_TEXT_BYTES = 400

NOSCRIPT = re.compile(r"<noscript\b[^>]*>(.*?)</noscript\s*>", re.IGNORECASE | re.DOTALL)
# A request word and "JavaScript" within 80 characters of one tag's text, either way round.
# The words between may not start another request (or another "JavaScript"): the one
# nearest is as close, so a match is found exactly when one was before, and a stretch
# of requests without "JavaScript" is read once, not 80 characters from each (3.4 s for
# 10 MB of "enable " in one <noscript>).
_ASKS = r"\b(?:enable|turn on|requires?|need|needs|activate|allow|without)\b"
_JS = r"\bjava\s*script\b"
_NEEDS_JS = re.compile(
    rf"{_ASKS}(?:(?!{_ASKS})[^<>]){{0,80}}?{_JS}"
    rf"|{_JS}(?:(?!{_JS})[^<>]){{0,80}}?"
    r"\b(?:required|disabled|enabled|turned off|is off|must|needs? to be)\b",
    re.IGNORECASE,
)
# An empty mount point: the element opens and closes with nothing but blanks or comments,
# what "{_MOUNT_NAME}[^<>]*{_MOUNT_ID}[^<>]*>{_MOUNT_TAIL}" matches. No part may run past
# a "<" or far into the page: from every "<div" a pattern that could would read on to the
# end, and a page of many is then quadratic. _mount_found finds that pattern's matches
# from the ids (the tests hold the two together): the pattern searched itself tries every
# id of a tag from the tag's "<", quadratic in a tag of many ids.
_MOUNT_NAME = r"<(?:div|main|section)\b"
_MOUNT_ID = r"""\bid\s*=\s*["']?(?:root|app|__next|___gatsby|q-app)(?:["'\s>]|$)"""
_MOUNT_TAIL = r"(?:\s|<!--.{0,200}?-->)*</(?:div|main|section)\s*>"
_NOSCRIPT_OPEN = re.compile(r"<noscript\b[^<>]*>", re.IGNORECASE)
_NOSCRIPT_CLOSE = re.compile(r"</noscript\s*>", re.IGNORECASE)
_MARKERS = (
    "__NEXT_DATA__",
    "data-reactroot",
    "ng-version=",
    "data-v-app",
    "window.__NUXT__",
    "data-sveltekit",
    "flutter_bootstrap",
    "window.__remixContext",
)
_NEXT_DATA = re.compile(
    r"""<script\b[^>]*\bid\s*=\s*["']?__NEXT_DATA__["']?[^>]*>(.*?)</script\s*>""",
    re.IGNORECASE | re.DOTALL,
)


def shell_signals(raw_html: str, late: Callable[[], bool] | None = None) -> list[str] | None:
    """The signals of a client-rendered page found in the raw HTML, for notes and tuning;
    None once ``late()`` (asked as looks_like_js_shell asks it) says the deadline has
    passed: each kind reads the whole page (0.3 s on 10 MB of tags)."""
    try:
        found = list(_signs(raw_html, late or _never))
    except OutOfTime:
        return None
    found.extend(f"marker {m}" for m in _MARKERS if m in raw_html)
    return found


def _signs(raw_html: str, late: Callable[[], bool]) -> Iterator[str]:
    """The names of _SIGNS that ``raw_html`` shows, in order, ``late()`` asked before each
    and as each reads; raises common.late.OutOfTime."""
    for name, look in _SIGNS:
        if late():
            raise OutOfTime
        if look(raw_html, late):
            yield name


def _noscripts(raw_html: str) -> Iterator[str]:
    """The content of each <noscript>, as NOSCRIPT finds them, in linear time: past an
    unclosed one there is no other (NOSCRIPT.finditer would read on to the end of the
    page from every later "<noscript")."""
    pos = 0
    while True:
        start = _NOSCRIPT_OPEN.search(raw_html, pos)
        if start is None:
            return
        end = _NOSCRIPT_CLOSE.search(raw_html, start.end())
        if end is None:
            return
        yield raw_html[start.end() : end.start()]
        pos = end.end()


def looks_like_js_shell(
    raw_html: str, static_text: str, late: Callable[[], bool] | None = None
) -> bool:
    """Big HTML, little text, and at least one sign that JavaScript builds the page.

    ``late()`` (whether the page's deadline has passed), when given, is asked before each
    kind of sign is looked for, the cheapest first, and as the <noscript>s and a mount
    point's ids are read (each kind reads the whole page: 0.2 to 0.45 s on 10 MB of tags
    in one search), and between windows of one long <noscript> (_requests_js). Once it has
    passed the answer is no, and the caller, which asked it too, says the page was out of
    time."""
    if len(raw_html) < MIN_RAW_BYTES // 4:
        return False  # cannot reach the byte threshold even at four bytes a character
    if len(static_text.encode("utf-8", "replace")) >= MAX_TEXT_BYTES:
        return False
    if len(raw_html.encode("utf-8", "replace")) < MIN_RAW_BYTES:
        return False
    late = late or _never
    if late():
        return False
    if any(marker in raw_html for marker in _MARKERS):  # the cheapest sign first
        return True
    try:
        return next(_signs(raw_html, late), None) is not None
    except OutOfTime:
        return False


def _never() -> bool:
    return False


_ASKED = 1024  # <noscript>s, or ids of a mount point, read between two asks
_WINDOW = 262_144  # characters searched for a mount point's id between two asks


def _asked(raw_html: str, late: Callable[[], bool]) -> Iterator[str]:
    """_noscripts(raw_html), asking ``late()`` every _ASKED of them (a page of 450 000
    took 0.24 s); raises OutOfTime."""
    for count, content in enumerate(_noscripts(raw_html), 1):
        if not count % _ASKED and late():
            raise OutOfTime
        yield content


# One <noscript>'s text is searched for a request for JavaScript a window at a time (one
# of 10 MB of "enable " took 0.7 to 1 s whole). A request's words and the 80 characters
# between them are at most 101 characters but for the blanks inside "java script", which
# are any number: a window's search reads _REACH past the window. A run of blanks there
# longer than _LONG_BLANK (more than the 80 between the words) can only be a "java
# script"'s, and is not read through (0.3 s for 10 MB of blanks): what comes before it is
# searched, then whether a request holds it (_holds_blanks).
_JS_WINDOW = 262_144
_REACH = 256
_LONG_BLANK = 128
_NOT_BLANK = re.compile(r"\S")


def _requests_js(content: str, late: Callable[[], bool]) -> bool:
    """Whether ``_NEEDS_JS.search(content)`` finds a match, searched a window at a time
    with ``late()`` asked between windows; raises OutOfTime. Every match that starts in a
    window ends within what its search reads (see above), and a match found that ends
    before the search's edge is one in the whole text: its words and the lookaheads
    between them never read as far as that edge."""
    size, start = len(content), 0
    while start < size:
        if start and late():
            raise OutOfTime
        edge = start + _JS_WINDOW + _REACH
        if edge >= size:
            return _NEEDS_JS.search(content, start) is not None
        blank = _NOT_BLANK.search(content, edge)
        after = blank.start() if blank else size
        if after - edge >= _LONG_BLANK:
            # A match before the run ends at its start at the latest: the search cut
            # there sees the words as the whole text does (a blank follows them).
            run = start + len(content[start:edge].rstrip())
            if _NEEDS_JS.search(content, start, run) or _holds_blanks(content, run, after):
                return True
            start = after  # no match starts inside the run
            continue
        pos, end = start, min(size, after + _REACH)
        while (found := _NEEDS_JS.search(content, pos, end)) is not None:
            if found.end() < end or end == size:
                return True
            # Its last word may go on past the edge: read on, from where it starts.
            pos, end = found.start(), min(size, end + _REACH)
        start += _JS_WINDOW
    return False


def _holds_blanks(content: str, run: int, after: int) -> bool:
    """Whether a request for JavaScript holds the blanks from ``run`` to ``after`` (more
    than _LONG_BLANK: they are a "java script"'s), read on a copy with _LONG_BLANK of
    them (any number over 80 gives the same matches), tried from each start within
    reach: a match found from one is one in the text, as it reads no further."""
    head = content[max(0, run - _REACH // 2) : run]
    probe = head + " " * _LONG_BLANK + content[after : after + _REACH // 2]
    return any(_NEEDS_JS.match(probe, at) for at in range(max(0, len(head) - 102), len(head)))


def _mount_found(raw_html: str, late: Callable[[], bool]) -> bool:
    """Whether the mount point's pattern (above) matches in ``raw_html``, found from its
    ids (_MOUNT_ID) rather than tried from every "<div" (0.2 to 0.45 s on 10 MB of tags
    in one search, and quadratic in a tag of many ids): the deadline is asked between
    windows of the page and every _ASKED ids; raises OutOfTime. Each tag holding an id is
    judged once (_mount_tag), and the search goes on after it."""
    start, size, seen, since = 0, len(raw_html), 0, 0
    while start < size:
        if start and late():
            raise OutOfTime
        end = size
        if start + _WINDOW < size:
            cut = _CUT.search(raw_html, start + _WINDOW)
            end = cut.start() if cut else size
        pos = max(start, since)
        while (found := _IDS.search(raw_html, pos, end)) is not None:
            seen += 1
            if not seen % _ASKED and late():
                raise OutOfTime
            mounted, pos = _mount_tag(raw_html, since, found.start(), late)
            if mounted:
                return True
            since = pos
        start = max(end, since)
    return False


# Where a window may end: before a "<" (no id holds one) or before a character re.I
# matches with the "i" of "id", which is in no id but at its start: no id is cut in two.
_CUT = re.compile("[<iI\u0130\u0131]")
_IDS = re.compile(_MOUNT_ID, re.IGNORECASE)
_NAMED = re.compile(_MOUNT_NAME, re.IGNORECASE)
_EMPTY = re.compile(_MOUNT_TAIL, re.IGNORECASE | re.DOTALL)
_TAG_END = re.compile("[<>]")


def _mount_tag(raw_html: str, since: int, at: int, late: Callable[[], bool]) -> tuple[bool, int]:
    """Whether the tag holding the id found at ``at`` makes the mount point's pattern
    match from its "<", and where the search goes on (past the tag). No tag is open at
    ``since`` (the start of the page, or where the search went on from before).

    Past an id, "[^<>]*>" reads to the tag's end, so what follows the tag decides for
    every id in it but one: the last, when it ends on the ">" itself (the next ">" must
    then come before any "<"). The tag is judged from its first id and, only for that
    case, its last, not once from each of its ids (the pattern from the "<" tries them
    all, each reading on to the tag's end: quadratic in one tag of many ids)."""
    opened = raw_html.rfind("<", since, at)
    if opened < 0 or raw_html.find(">", opened, at) >= 0:
        return False, at + 2  # the id is in text, not in a tag
    end = _TAG_END.search(raw_html, at)
    if end is None:
        return False, len(raw_html)  # a tag never closed: "[^<>]*>" cannot match
    close = end.start()
    after = close + 1 if raw_html[close] == ">" else close
    if not _NAMED.match(raw_html, opened):
        return False, after
    # The first id in the tag: the one found may end where its window did, not in the page.
    first = _IDS.search(raw_html, at, after)
    if first is not None and first.end() <= close and _closed_by(raw_html, close):
        return True, after
    following = _TAG_END.search(raw_html, after) if after > close else None
    if following is None or not _closed_by(raw_html, following.start()):
        return False, after
    pos, count = at, 0
    while (found := _IDS.search(raw_html, pos, after)) is not None:
        count += 1
        if not count % _ASKED and late():
            raise OutOfTime
        if found.end() == after:
            return True, after
        pos = found.end()
    return False, after


def _closed_by(raw_html: str, gt: int) -> bool:
    """Whether the ">" at ``gt`` ends an opening tag followed by nothing but blanks and
    comments, then its end tag (the rest of the mount point's pattern)."""
    return raw_html[gt : gt + 1] == ">" and _EMPTY.match(raw_html, gt + 1) is not None


def _noscript_asks(raw_html: str, late: Callable[[], bool]) -> bool:
    return any(_requests_js(content, late) for content in _asked(raw_html, late))


# The signs that read the page through, each asking ``late`` as it reads, in the order
# looked for and listed (each found by its name when asked: a test spies on one).
_SIGNS: tuple[tuple[str, Callable[[str, Callable[[], bool]], bool]], ...] = (
    ("noscript asks for JavaScript", lambda raw, late: _noscript_asks(raw, late)),
    ("empty mount point", lambda raw, late: _mount_found(raw, late)),
)


def recover_next_data(raw_html: str, *, cap: int = 200_000) -> str | None:
    """The page state a Next.js page ships in ``__NEXT_DATA__``, pretty-printed, or None.

    The page's own props (``props.pageProps``) are what a reader wants; the build
    metadata around them is noise. Past ``cap`` characters the text is cut at a line end
    and says so on its last line, so it is readable but no longer valid JSON.
    """
    match = _NEXT_DATA.search(raw_html)
    if not match:
        return None
    try:
        data = json.loads(match.group(1).strip())
    except ValueError:
        return None
    props = data.get("props") if isinstance(data, dict) else None
    page_props = props.get("pageProps") if isinstance(props, dict) else None
    state = page_props if page_props not in (None, {}, []) else data
    text = json.dumps(state, indent=2, ensure_ascii=False)
    if len(text) <= cap:
        return text
    cut = text.rfind("\n", 0, cap)
    head = text[: cut if cut > 0 else cap]
    return f"{head}\n... (cut at {len(head)} of {len(text)} characters)"
