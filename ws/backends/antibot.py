"""Classifying an HTML answer: an anti-bot, CAPTCHA or rate-limit page, a "no results"
page, an error status, or results; and the flow the HTML engines share."""

from __future__ import annotations

from collections.abc import Callable

from ws.backends.base import (
    BLOCKED,
    EMPTY,
    HTTP_ERROR,
    OK,
    PARSE_ERROR,
    Answer,
    Backend,
    Query,
    Stopped,
    check_stop,
)
from ws.backends.html import ResultsPage, xpath
from ws.results import Result

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


def bot_check(page: ResultsPage, query: Query, sent: str | None = None) -> str | None:
    """What kind of anti-bot page this is, or None when it is not one."""
    # Each search of a page of megabytes is a few milliseconds: the deadline is asked
    # between them (ws.backends.base.check_stop).
    for needle, what in _BOT_MARKUP:
        check_stop()
        if needle in page.lower:
            return what
    text = without_query(page.visible_text.lower(), query, sent)
    for phrase, what in _BOT_PHRASES:
        check_stop()
        if phrase in text:
            return what
    return None


def detail(page: ResultsPage, query: Query, sent: str | None = None) -> str | None:
    """bot_check for an answer its status classified already (a 403, DuckDuckGo's 202),
    where the kind of page is only its message's detail: an attempt the run ended does
    not read the page for it, and keeps its outcome (a block is worth remembering)."""
    if not page.body.strip():
        return None
    try:
        return bot_check(page, query, sent)
    except Stopped:
        return None


def without_query(text: str, query: Query, sent: str | None = None) -> str:
    for q in (sent, query.text):
        if q:
            text = text.replace(q.lower(), " ")
    return text


def says_no_results(
    page: ResultsPage, query: Query, phrases: tuple[str, ...], sent: str | None = None
) -> bool:
    text = without_query(page.visible_text.lower(), query, sent)
    for phrase in phrases:
        check_stop()
        if phrase in text:
            return True
    return False


_STATUS_WORDS = {403: "forbidden", 429: "rate limited"}


def error_answer(page: ResultsPage, status: int, query: Query, sent: str | None = None) -> Answer:
    """A non-2xx answer: 403 and 429 are blocks, the rest HTTP errors; the body says what
    kind of page came with it when it is an anti-bot page."""
    words = detail(page, query, sent) or _STATUS_WORDS.get(status)
    message = f"HTTP {status}" + (f", {words}" if words else "")
    return Answer(BLOCKED if status in (403, 429) else HTTP_ERROR, message)


class HtmlBackend(Backend):
    """An engine that answers with an HTML page, read by the one flow the HTML engines
    share (classify): each engine declares, once, what that flow reads of its page."""

    # Its results (a staticmethod: the engine's module-level parser).
    parse: Callable[[ResultsPage], list[Result]]
    # What its page says where results would be when it found nothing (read in the
    # visible text with the query taken out) ...
    no_results: tuple[str, ...] = ()
    # ... or, for a page that marks it, the XPath of the box that says so.
    no_results_box: str | None = None
    # The parameters of its next page (a staticmethod), None for an engine without one.
    next_page: Callable[[ResultsPage], dict[str, str] | None] | None = None

    def classify(self, status: int, headers: dict[str, str], body: bytes, query: Query) -> Answer:
        """The flow the HTML engines share: status, results, anti-bot page, no-results
        page, and a page with none of these is a layout the parser no longer knows."""
        page = ResultsPage(body, headers.get("content-type"))
        sent = self.query_text(query, [])
        if not 200 <= status < 300:
            return error_answer(page, status, query, sent)
        results = self.parse(page)
        if results:
            # The chain counts them after the clean-up and the domain filters.
            answer = Answer(OK, f"HTTP {status}", results)
            next_page = self.next_page
            if next_page is not None:
                answer.find_next = lambda: next_page(page)
            return answer
        kind = bot_check(page, query, sent)
        if kind:
            return Answer(BLOCKED, f"HTTP {status}, {kind}")
        if self.says_empty(page, query, sent):
            return Answer(EMPTY, f"HTTP {status}, no results page")
        if not page.body.strip():
            return Answer(PARSE_ERROR, f"HTTP {status} with an empty body")
        return Answer(
            PARSE_ERROR,
            f"HTTP {status} page with no results and no 'no results' marker; "
            "the page layout may have changed",
        )

    def says_empty(self, page: ResultsPage, query: Query, sent: str | None) -> bool:
        if self.no_results_box is not None:
            return bool(xpath(self.no_results_box)(page.doc))
        return says_no_results(page, query, self.no_results, sent)
