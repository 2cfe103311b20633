"""The interface every backend implements, and what the HTML engines share.

A backend builds one request from a Query and classifies one answer. It never touches the
network: the chain sends the request, so each backend can be tested on saved pages alone.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import urlencode

from ws.results import Result

OK, EMPTY, BLOCKED, HTTP_ERROR, TIMEOUT, NETWORK, PARSE_ERROR = (
    "ok",
    "empty",
    "blocked",
    "http_error",
    "timeout",
    "network",
    "parse_error",
)


@dataclass(frozen=True)
class Query:
    """What the user asked, in the tool's own terms; each backend translates it."""

    text: str
    allow: tuple[str, ...] = ()
    region: str | None = None  # country-language, as DuckDuckGo spells it: "de-de", "us-en"
    time: str | None = None  # d, w, m, y
    safe: str | None = None  # on, moderate, off

    @property
    def country(self) -> str | None:
        return self.region.split("-", 1)[0] if self.region else None

    @property
    def language(self) -> str | None:
        return self.region.split("-", 1)[1] if self.region else None


@dataclass
class Request:
    method: str
    url: str
    data: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    # Options this backend cannot express, said once on stderr.
    notes: list[str] = field(default_factory=list)


@dataclass
class Answer:
    outcome: str
    message: str
    results: list[Result] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Backend:
    name = ""
    label = ""
    env = ""  # the variable that replaces the endpoint
    default_url = ""
    # The allow list reaches every engine as site: for one domain; several need OR.
    site_or = True

    def build(self, query: Query, endpoint: str) -> Request:
        raise NotImplementedError

    def classify(self, status: int, headers: dict[str, str], body: bytes, query: Query) -> Answer:
        raise NotImplementedError

    # -- shared by the builders

    def query_text(self, query: Query, notes: list[str]) -> str:
        """The query as sent, with the allow list as site: terms where the engine has them."""
        if not query.allow:
            return query.text
        if len(query.allow) == 1:
            return f"{query.text} site:{query.allow[0]}"
        if not self.site_or:
            notes.append("several --allow domains are applied to the results only (no OR)")
            return query.text
        sites = " OR ".join(f"site:{d}" for d in query.allow)
        return f"{query.text} ({sites})"


def with_params(url: str, params: dict[str, str]) -> str:
    """The endpoint with the query appended; a mirror URL may carry a query of its own."""
    return url + ("&" if "?" in url else "?") + urlencode(params)


# ---------------------------------------------------------------- HTML pages


class Page:
    """An HTML answer. Nothing is decoded or parsed until a check asks for it, and the
    tree is built from the bytes: decoding a 550 KB page to str alone costs 2 ms."""

    def __init__(self, body: bytes, content_type: str | None) -> None:
        self.body = body
        self.content_type = content_type

    @cached_property
    def charset(self) -> str:
        from common.decode import charset_from_content_type, sniff_bom, sniff_declared

        bom = sniff_bom(self.body)
        if bom is not None:
            return bom[0]
        return charset_from_content_type(self.content_type) or sniff_declared(self.body) or "utf-8"

    @cached_property
    def text(self) -> str:
        from common.decode import decode_body

        return decode_body(self.body, self.content_type)[0]

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    @cached_property
    def doc(self) -> Any:
        return parse_html(self.body, self.charset)

    def fragment(self, data: bytes) -> Any:
        """A tree of a part of the page alone (in the page's charset), for engines whose
        results sit in one region."""
        # Collapsing the indentation first was measured: the parse it saves (0.1 ms on
        # Brave's 196 KB region) is less than the split and join cost (0.6 ms).
        return parse_html(data, self.charset)

    @cached_property
    def visible_text(self) -> str:
        """Text a reader would see (title included), without scripts and styles."""
        parts = xpath("//text()[not(ancestor::script) and not(ancestor::style)]")(self.doc)
        return " ".join(" ".join(parts).split())


def parse_html(data: bytes, charset: str = "utf-8") -> Any:
    """An lxml tree for any bytes, even empty or broken ones.

    Plain etree elements, not lxml.html's: its per-element class lookup runs in Python
    and costs more than the parse on a results page.
    """
    from lxml import etree

    from common.parse_limits import limit

    root = None
    data, _cut = limit(data)  # a results page loses nothing a parser needs
    if data and not data.isspace():  # unlike strip(), no copy of the page
        try:
            root = etree.fromstring(
                data, etree.HTMLParser(encoding=charset, remove_comments=True, collect_ids=False)
            )
        except (etree.ParserError, ValueError, LookupError):
            root = None
        if root is None:
            # libxml2 knows fewer charsets than Python (utf-16-le, euc_jp, iso2022_jp...):
            # decode here and hand it UTF-8.
            try:
                text = data.decode(charset, "replace")
            except LookupError:
                text = data.decode("utf-8", "replace")
            utf8 = etree.HTMLParser(encoding="utf-8", remove_comments=True, collect_ids=False)
            try:
                root = etree.fromstring(text.encode("utf-8", "replace"), utf8)
            except (etree.ParserError, ValueError):
                root = None
    return root if root is not None else etree.fromstring(b"<html></html>", etree.HTMLParser())


def text_of(node: Any) -> str:
    return "".join(node.itertext()) if node is not None else ""


@functools.cache
def xpath(expr: str) -> Any:
    """A compiled XPath: ``node.xpath(str)`` compiles its expression on every call, which
    cost more than the matching on a results page of ten results."""
    from lxml import etree

    return etree.XPath(expr)


def has_class(name: str) -> str:
    """An XPath predicate body: the element has this whole class token."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


# ---------------------------------------------------------------- blocks and captchas

# Markup that only an anti-bot page carries, as (needle, what to call the page).
_BOT_MARKUP = (
    ('id="challenge-form"', "anomaly page"),
    ("anomaly-modal", "anomaly page"),
    ("/anomaly.js", "anomaly page"),
    ("g-recaptcha", "CAPTCHA page"),
    ("h-captcha", "CAPTCHA page"),
    ("hcaptcha.com/", "CAPTCHA page"),
    ("cf-turnstile", "CAPTCHA page"),
    ("/cdn-cgi/challenge-platform", "bot-check page"),
    ("cf-browser-verification", "bot-check page"),
    ("challenges.cloudflare.com", "bot-check page"),
)
# What such pages say. Checked in the visible text with the query taken out, so a search
# for "captcha" that found nothing is still an empty answer.
_BOT_PHRASES = (
    ("bots use duckduckgo too", "anomaly page"),
    ("confirm this search was made by a human", "anomaly page"),
    ("verifying your request", "bot-check page"),
    ("checking your browser", "bot-check page"),
    ("unusual traffic", "bot-check page"),
    ("are you a robot", "CAPTCHA page"),
    ("not a robot", "CAPTCHA page"),
    ("verify you are human", "CAPTCHA page"),
    ("verify you are a human", "CAPTCHA page"),
    ("confirm you are human", "CAPTCHA page"),
    ("captcha", "CAPTCHA page"),
    ("just a moment", "bot-check page"),
    ("access denied", "access-denied page"),
    ("too many requests", "rate-limit page"),
)


def bot_check(page: Page, query: Query, sent: str | None = None) -> str | None:
    """What kind of anti-bot page this is, or None when it is not one."""
    for needle, what in _BOT_MARKUP:
        if needle in page.lower:
            return what
    text = without_query(page.visible_text.lower(), query, sent)
    for phrase, what in _BOT_PHRASES:
        if phrase in text:
            return what
    return None


def without_query(text: str, query: Query, sent: str | None = None) -> str:
    for q in (sent, query.text):
        if q:
            text = text.replace(q.lower(), " ")
    return text


def says_no_results(
    page: Page, query: Query, phrases: tuple[str, ...], sent: str | None = None
) -> bool:
    text = without_query(page.visible_text.lower(), query, sent)
    return any(p in text for p in phrases)


_STATUS_WORDS = {403: "forbidden", 429: "rate limited"}


def error_answer(page: Page, status: int, query: Query, sent: str | None = None) -> Answer:
    """A non-2xx answer: 403 and 429 are blocks, the rest HTTP errors; the body says what
    kind of page came with it when it is an anti-bot page."""
    kind = bot_check(page, query, sent) if page.body.strip() else None
    detail = kind or _STATUS_WORDS.get(status)
    message = f"HTTP {status}" + (f", {detail}" if detail else "")
    return Answer(BLOCKED if status in (403, 429) else HTTP_ERROR, message)


def classify_html(
    backend: Backend,
    status: int,
    headers: dict[str, str],
    body: bytes,
    query: Query,
    *,
    parse: Any,
    empty_marker: Any,
) -> Answer:
    """The flow the HTML engines share: status, results, anti-bot page, no-results page,
    and a page with none of these is a layout the parser no longer knows."""
    page = Page(body, headers.get("content-type"))
    sent = backend.query_text(query, [])
    if not 200 <= status < 300:
        return error_answer(page, status, query, sent)
    results = parse(page)
    if results:
        # The chain counts them after the clean-up and the domain filters.
        return Answer(OK, f"HTTP {status}", results)
    kind = bot_check(page, query, sent)
    if kind:
        return Answer(BLOCKED, f"HTTP {status}, {kind}")
    if empty_marker(page, query, sent):
        return Answer(EMPTY, f"HTTP {status}, no results page")
    if not page.body.strip():
        return Answer(PARSE_ERROR, f"HTTP {status} with an empty body")
    return Answer(
        PARSE_ERROR,
        f"HTTP {status} page with no results and no 'no results' marker; "
        "the page layout may have changed",
    )


def iso_date(text: str | None) -> str | None:
    """ISO 8601 as the engine gave it, without a midnight time or fractional seconds."""
    if not text:
        return None
    text = text.strip()
    m = re.match(
        r"^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$", text
    )
    if not m:
        return text or None
    day, clock, zone = m.groups()
    if not clock or (clock == "00:00:00" and zone in (None, "Z", "+00:00", "+0000")):
        return day
    return f"{day}T{clock}{zone or ''}"
