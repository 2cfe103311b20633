"""Why a page's text is empty or tiny, as far as the page shows it: a redirect by meta
refresh, a JavaScript shell, a consent or login wall, a paywall, a page of only links or
images. ``explain`` puts the note on the page (the pipeline calls it after extraction).

Pure functions over the raw HTML, the extracted text and the address, run only when the
text is tiny (most pages never get here). Cheap regular expressions, no lxml: every
pattern is linear in the page (no `.*?` across tags, no nested quantifiers), the raw page
is searched a window at a time with the deadline asked between windows, and the scan for
the page's own words reads a bounded prefix.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from common.late import OutOfTime
from wf.options import NEVER
from wf.render.detect import MAX_TEXT_BYTES, looks_like_js_shell, shell_signals

if TYPE_CHECKING:
    from wf.options import WfOptions
    from wf.view import Log, PageResult

# Text under this many bytes is "tiny": the bound the JavaScript-shell heuristic uses.
TINY_BYTES = MAX_TEXT_BYTES
_SCAN_CHARS = 2_000_000  # characters of HTML read for the links-and-images count
_OWN_TEXT = 100  # characters of text outside links under which a page says little itself
_TEXT_CHARS = 10_000  # characters of the page's text searched for a wall's words
_ITEMS = 3  # links plus images a page of only those has at least, when it has some text
_TAGS_ASKED = 16_384  # tags read between two asks of the deadline (about 20 ms)

# Walls the address itself names: a redirect to a consent or sign-in page.
_CONSENT_HOST = ("consent.", "cookies.")
_LOGIN_HOST = ("login.", "signin.", "accounts.", "auth.", "sso.")
_CONSENT_PATH = re.compile(
    r"(?:^|/)(?:consent|cookie-?wall|gdpr-?consent|privacy-?gate)(?:/|\.|$)", re.I
)
_LOGIN_PATH = re.compile(
    r"(?:^|/)(?:login|log-in|signin|sign-in|sign_in|auth|sso|oauth2?|authorize)(?:/|\.|$)",
    re.I,
)

# The platforms that show consent dialogs name their containers so (the same ids and
# classes on every site, in every language), and sites name their own walls alike. Only
# containers count: most pages load a consent platform's <script>, wall or not.
# "cmp" joined to the name (consentmanager.net's `cmpwrapper`, `cmpbox`): Adobe Experience
# Manager writes its core components `cmp-container`, `cmp-text`, on pages with no wall
# (as wf.extract.names reads them).
_CONTAINER = r"""<(?:div|section|aside|dialog|form|iframe|main|body)\b[^<>]{0,300}?"""
_CONSENT_ATTR = re.compile(
    _CONTAINER + r"""\b(?:id|class)\s*=\s*["']?[^"'<>]{0,200}?"""
    r"""(onetrust|cookiebot|didomi|usercentrics|qc-cmp|sp_message|truste|cookielaw|"""
    r"""borlabs|klaro|iubenda|cookie-?(?:consent|notice|banner|wall|law|layer)|"""
    r"""consent-?(?:banner|wall|manager|dialog|modal|layer|overlay)|"""
    r"""cmp(?:container|wrapper|box|banner|dialog|overlay)|gdpr-?(?:banner|consent|wall))""",
    re.I,
)
# The same in the few words a wall leaves as the page's text; "cookie" is a loanword in
# most European languages.
_CONSENT_WORDS = re.compile(
    r"\b(?:cookies?|consent\w*|einwillig\w*|zustimm\w*|consenso|toestemming)\b", re.I
)
# An <input>'s type is looked for within its first _INPUT_READ characters, as a container's
# names are (_CONTAINER), with at most _SPACES_READ spaces on each side of its "=": an
# attempt that read the whole tag (or every space after "type=", giving each back in
# turn) is one step no window divides, 0.3 s for one tag of 10 MB. Pages put the type
# within 200 characters, and a space or two around "=" at most.
_INPUT_READ = 1_000
_SPACES_READ = 40
_PASSWORD = re.compile(
    rf"""<input\b[^<>]{{0,{_INPUT_READ}}}?\btype\s{{0,{_SPACES_READ}}}+="""
    rf"""\s{{0,{_SPACES_READ}}}+["']?+password\b""",
    re.I,
)
_LOGIN_WORDS = re.compile(
    r"\b(?:sign|log)[ -]?in\b|\banmelden\b|\beinloggen\b|\bse connecter\b|\bconnexion\b"
    r"|\biniciar sesi[oó]n\b|\baccedi\b",
    re.I,
)
# schema.org's paywall markup (the form search engines ask paywalled sites to use), and
# the article tier some publishers state in <meta>.
_PAYWALL_DATA = re.compile(
    r"""["']?isAccessibleForFree["']?\s*:\s*["']?false\b"""
    r"""|\bcontent_tier["']?\s+content\s*=\s*["']?locked\b""",
    re.I,
)
_PAYWALL_ATTR = re.compile(
    _CONTAINER + r"""\b(?:id|class)\s*=\s*["']?[^"'<>]{0,200}?"""
    r"""(pay-?wall|reg-?wall|subscriber-?only|subscribers-?only|premium-?(?:content|wall|barrier)"""
    r"""|piano-?(?:offer|paywall|template)|article-?locked|locked-?(?:content|article)|abo-?wall)""",
    re.I,
)
_PAYWALL_WORDS = re.compile(
    r"\bsubscribe to (?:continue|read)|\bto continue reading\b|\balready a subscriber"
    r"|\bsubscribers? only\b|\bfor subscribers\b|\bpaywall|\bjetzt abonnieren|\bweiterlesen mit"
    r"|\babonnez-vous|\br[ée]serv[ée] aux abonn[ée]s|\bsolo para suscriptores",
    re.I,
)
# One tag at a time; "[^<>]" keeps a stray "<" from reading to the end of the page.
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*>")
# Elements whose text nobody reads on the page (<head> is left out: its end tag is
# optional, and all that shows from it is the title).
_HIDDEN = frozenset(("script", "style", "template", "noscript", "svg", "title"))
_SPACE = re.compile(r"\s+")


def is_tiny(text: str) -> bool:
    # A character is at least a byte: a long text is not tiny without encoding it.
    return len(text) < TINY_BYTES and len(text.encode("utf-8", "replace")) < TINY_BYTES


def why_empty(
    raw_html: str,
    text: str,
    url: str | None,
    *,
    never: bool,
    rendered: bool,
    can_render: bool,
    late: Callable[[], bool] | None = None,
) -> str | None:
    """One note saying why ``text`` (the extracted text of ``raw_html``) is empty or tiny,
    or None when it is not tiny or the page shows no reason worth a note.

    ``never`` is --render never; ``rendered`` whether the text came from a browser;
    ``can_render`` whether this page could have been rendered at all (a fetched page with
    a browser to hand, not a local document). A page that was to be rendered and was not
    has its note from the renderer already: None then. ``late()``: whether the page's
    deadline has passed, asked before each search of the markup and between windows of
    the page in each (a search of 10 MB whole took up to 1.4 s); once it has, the note
    says so.
    """
    if not is_tiny(text):
        return None
    stripped = text.strip()
    head = "no text: " if not stripped else f"little text ({len(stripped)} characters): "
    reason = _address_wall(url)
    if reason is None and not rendered:
        target = meta_refresh(raw_html, url)
        if target is not None:
            # The page is a signpost (a shortener's, a moved page's): where it points is
            # what the reader wants, and wf follows HTTP redirects only.
            return f"{head}page redirects to {_brief(target)} (a meta refresh); fetch that address"
    if reason is None and not rendered and late is not None and late():
        # The shell check reads the whole page (0.4 s on 10 MB of markup), as the
        # markup's searches below do: none of them once the deadline has passed, and
        # each asks it again as it reads.
        return head + OUT_OF_TIME
    if reason is None and not rendered and looks_like_js_shell(raw_html, text, late):
        if not never and can_render:
            return None  # the render was tried: its own note says how it went
        # The signs are read again for the note, as long as the check (0.3 s on 10 MB
        # of tags): with the deadline asked as they are read.
        found = shell_signals(raw_html, late)
        if found is None:
            return head + OUT_OF_TIME
        signals = ", ".join(found)
        if never:
            return (
                f"{head}page looks JavaScript-rendered ({signals}) and needs rendering; "
                "--render never kept it static, --render auto would try"
            )
        return (
            f"{head}page looks JavaScript-rendered ({signals}) and needs rendering; "
            "wf renders only pages it fetches"
        )
    reason = reason or _markup_reason(raw_html, stripped, late or (lambda: False))
    if reason is not None:
        return head + reason
    if not stripped:
        return head + ("nothing readable even after rendering" if rendered else "nothing readable")
    return None


def explain(
    page: PageResult,
    html_text: Callable[[], str],
    text: str,
    opts: WfOptions,
    *,
    log: Log,
    can_render: bool,
    deadline: float | None = None,
) -> None:
    """A page whose text is empty or tiny says why, as far as it shows it (the fetch
    worked: the exit code stays 0). ``html_text`` gives the page's HTML as a str, made
    only for a tiny text. Its searches stop at ``deadline`` (time.monotonic())."""
    if not is_tiny(text):
        return
    from common.late import late

    note = why_empty(
        html_text(),
        text,
        page.final_url or page.url,
        never=opts.render == NEVER,
        rendered=page.rendered,
        can_render=can_render,
        late=late(deadline),
    )
    if note:
        page.note(note, log)


_REFRESH_SCAN = 65_536  # characters of HTML looked through: a refresh sits in <head>
_TAG_MAX = 2_048  # characters of one <meta> tag read at most
_REFRESH = re.compile(r"""http-equiv\s*=\s*["']?\s*refresh\b""")
_CONTENT = re.compile(r"""\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_REFRESH_URL = re.compile(r"""^\s*[\d.]*+\s*[;,]?\s*(?:url\s*=\s*)?["']?([^"'\s]+)""", re.I)


def meta_refresh(raw_html: str, url: str | None) -> str | None:
    """Where a `<meta http-equiv="refresh" content="0; url=...">` sends the reader (made
    absolute against `url`), or None: no refresh, or one that only reloads the page. Each
    tag is read up to its ">" within _TAG_MAX characters: linear in the page."""
    head = raw_html[:_REFRESH_SCAN]
    low = head.lower()
    start = low.find("<meta")
    while start >= 0:
        end = low.find(">", start, start + _TAG_MAX)
        if end < 0:  # no tag, or one too long to be a refresh
            start = low.find("<meta", start + 5)
            continue
        tag = head[start:end]
        if _REFRESH.search(tag.lower()):
            return _refresh_target(tag, url)
        start = low.find("<meta", end)
    return None


def _refresh_target(tag: str, url: str | None) -> str | None:
    found = _CONTENT.search(tag)
    value = next(g for g in found.groups() if g is not None) if found else ""
    target = _REFRESH_URL.match(html_lib.unescape(value))
    if target is None:
        return None  # a timed reload of the page itself
    from urllib.parse import urljoin

    try:
        absolute = urljoin(url, target.group(1)) if url else target.group(1)
    except ValueError:
        return None
    return None if absolute == url else absolute


def _address_wall(url: str | None) -> str | None:
    if not url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    path = parts.path or ""
    if host.startswith(_CONSENT_HOST) or _CONSENT_PATH.search(path):
        return f"the address is a consent wall ({_brief(url)})"
    if host.startswith(_LOGIN_HOST) or _LOGIN_PATH.search(path):
        return f"the address is a sign-in page ({_brief(url)})"
    return None


# What a page out of time says instead of its reason.
OUT_OF_TIME = "the deadline passed before the page was looked through for a reason"


def _markup_reason(raw_html: str, text: str, late: Callable[[], bool]) -> str | None:
    if late():
        return OUT_OF_TIME
    try:
        return _reason(raw_html, text, late)
    except OutOfTime:
        return OUT_OF_TIME


def _reason(raw_html: str, text: str, late: Callable[[], bool]) -> str | None:
    # Strongest first: what a paywall or a sign-in page is made of, then consent, whose
    # platforms also sit on pages that are not walls. The words are looked for in what
    # the page shows, not only in the extracted text: the extractor drops a closing
    # "subscribe to read on" as a call to action.
    seen = _Seen(raw_html, late)
    words = f"{text}\n{seen.text}"
    # (its search, where it looks, what the note says of a match), strongest first. The
    # raw page is searched a window at a time (_paywall_data, _by_tags), late() asked
    # between windows: one search of 10 MB whole took up to 1.4 s.
    checks: tuple[tuple[_Search, str, Callable[[re.Match[str]], str]], ...] = (
        (_paywall_data, raw_html, lambda m: f"page is behind a paywall ({_brief(m.group(0))})"),
        (
            _by_tags(_PAYWALL_ATTR),
            raw_html,
            lambda m: f"page is behind a paywall (id or class {m.group(1)!r})",
        ),
        (
            _whole(_PAYWALL_WORDS),
            words,
            lambda m: f"page is behind a paywall (its text says {m.group(0)!r})",
        ),
        (_by_tags(_PASSWORD), raw_html, lambda m: "page asks to sign in (a password field)"),
        (
            _by_tags(_CONSENT_ATTR),
            raw_html,
            lambda m: f"page shows a consent wall (id or class {m.group(1)!r})",
        ),
        (
            _whole(_CONSENT_WORDS),
            words,
            lambda m: f"page shows a consent wall (its text asks about {m.group(0).lower()!r})",
        ),
    )
    for search, where, say in checks:
        if late():
            return OUT_OF_TIME
        found = search(where, late)
        if found:
            return say(found)
    if late():
        return OUT_OF_TIME
    if _LOGIN_WORDS.search(words) and "<form" in raw_html.lower():
        return "page asks to sign in (a sign-in form)"
    # With no text at all, one picture is the page; with a little, a few things are.
    if seen.own >= _OWN_TEXT or seen.links + seen.images < (_ITEMS if text else 1):
        return None
    # A page made of links or pictures with next to no words of its own.
    items = ((seen.links, "link"), (seen.images, "image"))
    counts = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in items if n)
    kinds = " and ".join(f"{word}s" for n, word in items if n)
    return f"page holds only {kinds} ({counts})"


# Characters of the page searched between two asks of the deadline: about 25 ms of the
# slowest search (1 s on 10 MB of empty boxes or quoted attributes).
_WINDOW = 262_144
_Search = Callable[[str, Callable[[], bool]], re.Match[str] | None]


def _whole(pattern: re.Pattern[str]) -> _Search:
    # For the page's words: tiny text and a bounded prefix of the page, one search.
    return lambda where, late: pattern.search(where)


def _by_tags(pattern: re.Pattern[str]) -> _Search:
    """``pattern.search`` a window at a time, each window ending just before a "<". The
    patterns so searched take a "<" only as their first character and never a ">", so
    no attempt that starts in a window reads past its end, and to a closing "\\b" the
    "<" there looks as the end of the string does: the first match is one search's."""

    def search(where: str, late: Callable[[], bool]) -> re.Match[str] | None:
        start, size = 0, len(where)
        while start < size:
            if start and late():
                raise OutOfTime
            end = size
            if start + _WINDOW < size:
                end = where.rfind("<", start + _WINDOW // 2, start + _WINDOW)
                if end < 0:  # no "<" for a while: a fast scan for one, one window
                    end = where.find("<", start + _WINDOW)
                    end = size if end < 0 else end
            found = pattern.search(where, start, end)
            if found:
                return found
            start = end
        return None

    return search


# Every match of _PAYWALL_DATA holds "ForFree" 12 characters after its start (13 after a
# quote) or "ontent_t" 1 after its "c", and re.I matches those letters with ASCII letters
# only (not so i, k and s, which a few other characters match): the page's ASCII, lowered
# (any other character a "?"), shows where a match can start, and the pattern is tried
# there alone. Each anchor: how far back a start is, and what it can be in that ASCII.
_ANCHORS = ((b"forfree", ((12, b"i?"), (13, b"\"'"))), (b"ontent_t", ((1, b"c"),)))
_AFTER = 13 + 7  # an anchor ends within this many characters of its start


def _paywall_data(where: str, late: Callable[[], bool]) -> re.Match[str] | None:
    for start in range(0, len(where), _WINDOW):
        if start and late():
            raise OutOfTime
        # The starts in [start, start + _WINDOW), in order: the first that matches is
        # the page's first match.
        ascii_ = where[start : start + _WINDOW + _AFTER].encode("ascii", "replace").lower()
        starts: set[int] = set()
        for anchor, backs in _ANCHORS:
            at = ascii_.find(anchor)
            while at >= 0:
                starts.update(
                    at - back
                    for back, first in backs
                    if 0 <= at - back < _WINDOW and ascii_[at - back] in first
                )
                at = ascii_.find(anchor, at + 1)
        for at in sorted(starts):
            found = _PAYWALL_DATA.match(where, start + at)
            if found:
                return found
    return None


class _Seen:
    """What a reader sees of the raw page, read tag by tag in one pass over a bounded
    prefix: its links and images, how much text it has outside links, and the first
    few thousand characters of its text. Asks ``late()`` every _TAGS_ASKED tags (0.2 s
    for the 2 000 000 characters read of a page of only tags)."""

    def __init__(self, raw_html: str, late: Callable[[], bool] | None = None) -> None:
        self.links = self.images = self.own = 0
        pieces: list[str] = []
        kept = 0
        hidden: str | None = None
        in_link = False
        pos = 0
        html = raw_html[:_SCAN_CHARS]
        for count, match in enumerate(_TAG.finditer(html), 1):
            if not count % _TAGS_ASKED and late is not None and late():
                raise OutOfTime
            if hidden is None and match.start() > pos:
                piece = html[pos : match.start()]
                if not in_link:
                    self.own += len(piece) - piece.count(" ") - piece.count("\n")
                if kept < _TEXT_CHARS:
                    pieces.append(piece)
                    kept += len(piece)
            pos = match.end()
            closing, name = match.group(1), match.group(2).lower()
            if hidden is not None:
                if closing and name == hidden:
                    hidden = None
            elif name in _HIDDEN and not closing:
                hidden = name
            elif name == "a":
                if closing:
                    in_link = False
                elif "href" in match.group(0).lower():
                    self.links += 1
                    in_link = True  # an <a> inside an <a> closes the first: no nesting
            elif name == "img" and not closing:
                self.images += 1
        if hidden is None and not in_link:
            tail = html[pos:]
            self.own += len(tail) - tail.count(" ") - tail.count("\n")
            pieces.append(tail[:_TEXT_CHARS])
        self.text = _SPACE.sub(" ", html_lib.unescape(" ".join(pieces)[:_TEXT_CHARS]))


def _brief(value: str, limit: int = 80) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 3] + "..."
