"""The interface every backend implements: the outcomes, Query, Request, Answer, Backend.

A backend builds one request from a Query and classifies one answer. It never touches the
network: the chain sends the request, so each backend can be tested on saved pages alone.
What the HTML engines share lives beside this: html.py reads a results page (lxml),
antibot.py tells a results page from a block, a CAPTCHA or a "no results" page.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlencode

from common.errors import Timeout
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


class Stopped(Timeout):
    """The run ended this attempt (a hedged pair's loser, an attempt past the deadline)
    while its answer was being read: raised at the reader's next step (``check_stop``), so
    that no parse of a page nobody wants goes on after the search returned. A Timeout, as
    a fetch that common.http.deadline.Abort ends is: the chain tells both apart from a
    deadline of the attempt's own by its Abort having fired."""

    def __init__(self, message: str = "the attempt was ended while its answer was read") -> None:
        super().__init__(message)


class Late(Stopped):
    """The attempt's own deadline passed while its answer was read: the reader ends itself
    there, at its next step, without waiting for the run to end it. A library caller has no
    supervisor (common/watchdog.py), and the run could end an attempt only once it had the
    interpreter lock back from the attempts' threads: ws.search(timeout=1, all_engines=True)
    on 8 MB pages returned after up to 1.3 s here, 1.56 s in a review's measure."""

    def __init__(self) -> None:
        super().__init__("its deadline passed while its answer was read")


_RUN = threading.local()  # per attempt thread: what says the attempt should stop reading
# The clock the deadline of stop_when is read on (tests replace it with a fake one).
clock: Callable[[], float] = time.monotonic


@contextmanager
def stop_when(
    ended: Callable[[], bool],
    deadline: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> Iterator[None]:
    """Within it, ``check_stop`` in this thread raises Stopped once ``ended()`` is true,
    and Late once ``clock()`` reaches ``deadline`` (monotonic; None: no deadline); the
    reading's switches (common.parse_limits.OFF_ENV) are read in ``environ`` (the run's,
    ws.api's environ=; None: os.environ), which ``run_environ`` gives."""
    before = (
        getattr(_RUN, "ended", None),
        getattr(_RUN, "deadline", None),
        getattr(_RUN, "environ", None),
    )
    _RUN.ended, _RUN.deadline, _RUN.environ = ended, deadline, environ
    try:
        yield
    finally:
        _RUN.ended, _RUN.deadline, _RUN.environ = before


def run_environ() -> Mapping[str, str] | None:
    """The environment of the attempt this thread reads for (stop_when; None: os.environ)."""
    environ: Mapping[str, str] | None = getattr(_RUN, "environ", None)
    return environ


def check_stop() -> None:
    """Stopped when the run ended the attempt this thread reads for, Late when the
    attempt's deadline has passed; called between the steps of reading an answer (the
    parse, each row) so that a loser ends within one of them rather than after the whole
    page (up to a second of CPU for a 2 MB page)."""
    ended = getattr(_RUN, "ended", None)
    if ended is not None and ended():
        raise Stopped
    if _past():
        raise Late


def stopping() -> bool:
    """Whether check_stop would raise (its question, for work that stops by itself:
    common.parse_limits.limit's ``late``)."""
    ended = getattr(_RUN, "ended", None)
    return (ended is not None and ended()) or _past()


def _past() -> bool:
    deadline: float | None = getattr(_RUN, "deadline", None)
    return deadline is not None and clock() >= deadline


@dataclass(frozen=True)
class Query:
    """What the user asked, in the tool's own terms; each backend translates it."""

    text: str
    allow: tuple[str, ...] = ()
    region: str | None = None  # country-language, as DuckDuckGo spells it: "de-de", "us-en"
    time: str | None = None  # d, w, m, y
    safe: str | None = None  # on, moderate, off
    page: int = 1  # the first result page asked for (--page)

    @property
    def country(self) -> str | None:
        return self.region.split("-", 1)[0] if self.region else None

    @property
    def language(self) -> str | None:
        return self.region.split("-", 1)[1] if self.region else None


# Compared by identity (eq=False): nothing compares them by value, and every method a
# dataclass generates is compiled at import, about 0.1 ms each of every run.
@dataclass(eq=False)
class Request:
    """The one request a backend builds from a Query."""

    method: str
    url: str
    data: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    # Options this backend cannot express, said once on stderr.
    notes: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Answer:
    """A backend's reading of one answer: outcome, results, the way to the next page."""

    outcome: str
    message: str
    results: list[Result] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The engine's way to the next page, worked out only when the walk wants one
    # (ws/paging.py): the parameters it gave for it (the hidden fields of DuckDuckGo's
    # next-page form, say), {} when it has one but names no parameters, None when this is
    # the last page as far as the answer tells.
    find_next: Callable[[], dict[str, str] | None] = field(
        default=lambda: None, repr=False, compare=False
    )
    # Set by ws.paging.walk: its results as ws.results.finalise cleaned them to count
    # them (and how many the domain filters removed), which ws.paging.kept hands on with
    # no second pass: one the run's stop at the total deadline would end, losing --all the
    # pages already in hand.
    cleaned: tuple[list[Result], int] | None = field(default=None, repr=False)


class Backend:
    name = ""
    label = ""
    env = ""  # the variable that replaces the endpoint
    default_url = ""
    # The allow list reaches every engine as site: for one domain; several need OR.
    site_or = True

    def build(self, query: Query, endpoint: str, cursor: dict[str, str] | None = None) -> Request:
        """The request for page ``query.page``; ``cursor`` is the previous page's
        ``Answer.find_next()``, which an engine that hands out tokens needs."""
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
