"""The fallback chain: ask each provider in turn until one has results, within one total
deadline; classify every attempt; turn the lot into an exit code.

Each attempt gets at most its share of what is left of the deadline (never the whole of it
while other providers remain; 15 s at most). When the provider in flight has not answered
after the hedge delay, the next one starts beside it; the first usable answer wins and the
other is cancelled (its sockets shut down). Never more than two requests are in flight,
except with --all or --engines, which ask every chosen provider at once and fuse the
rankings (ws.fuse). Providers resting after blocks or failures (ws.health) are skipped.
"""

from __future__ import annotations

import threading
import time

# queue's own C queue, without the queue module (heapq and three classes in Python, about
# 0.7 ms of every search): the attempts' threads put, the run gets with a timeout.
from _queue import Empty, SimpleQueue
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from common import trace, watchdog
from common.errors import (
    BY_CODE,
    AllFailed,
    Blocked,
    HTTPClientError,
    HTTPServerError,
    NoResults,
    Timeout,
    ToolError,
)
from ws.backends.base import BLOCKED, EMPTY, HTTP_ERROR, NETWORK, OK, PARSE_ERROR, TIMEOUT, Query
from ws.config import Endpoint, SearchOptions
from ws.results import Result

if TYPE_CHECKING:
    from common.http.deadline import Abort
    from ws.backends.base import Request
    from ws.health import Entry, Event

# Outcomes the chain gives itself: a loser of a hedged pair, a provider resting.
CANCELLED, SKIPPED = "cancelled", "skipped"
# The error an attempt would give on its own (network failures carry their own).
_ERRORS: dict[str, type[ToolError]] = {
    EMPTY: NoResults,
    BLOCKED: Blocked,
    TIMEOUT: Timeout,
    PARSE_ERROR: AllFailed,
}
# What every message about a rest ends with: how to end it now.
RESET_HINT = "ws --reset-health ends the rest"
# Failures of the exchange itself rather than of the connection.
_HTTP_LEVEL = {"bad_response", "redirects", "too_large", "url"}
# How long a cancelled or overdue attempt may take to end (its sockets shut down, the page
# it reads stopped at its next step: ws.paging.walk) before the run stops waiting for it.
_GRACE = 1.0
# But each wait (two at most) ends this long past the total deadline, before the watchdog's
# 0.35 s (ws --all printed nothing, 28); so does --all's fusion, past it or past its start.
_LATE = 0.1


# Records compared by identity (eq=False): nothing compares them by value, and every
# method a dataclass generates is compiled at import, about 0.1 ms each of every run.
@dataclass(eq=False)
class Attempt:
    """One provider asked (or skipped) in a run, as ``attempts`` shows it."""

    provider: str
    outcome: str
    status: int | None
    elapsed_ms: int
    message: str
    error: type[ToolError] | None  # the exit-code row of a failed attempt; None when ok
    notes: list[str] = field(default_factory=list)  # said on stderr on their own lines
    retry_at: float | None = None  # wall clock; a skipped provider is tried again then
    retry_after: float | None = None  # seconds, from a blocked answer's Retry-After

    def as_json(self) -> dict[str, Any]:
        from ws.health import clock

        return {
            "provider": self.provider,
            "outcome": self.outcome,
            "status": self.status,
            "elapsed_ms": self.elapsed_ms,
            "message": "; ".join([self.message, *self.notes]),
            "retry_at": clock(self.retry_at) if self.retry_at is not None else None,
        }


@dataclass(eq=False)
class Report:
    """What a run found: the results, every attempt, the error if it failed."""

    query: str
    provider: str | None = None
    results: list[Result] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    error: ToolError | None = None
    providers: list[str] = field(default_factory=list)  # every provider the results came from
    cut: bool = False  # the total deadline cut the answer short: not kept (ws.cache.store)

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "provider": self.provider,
            "providers": self.providers,
            "results": [r.as_json() for r in self.results],
            "attempts": [a.as_json() for a in self.attempts],
            "error": self.error.as_json() if self.error else None,
        }


Say = Callable[[str], None]


def run(options: SearchOptions, say: Say | None = None) -> Report:
    """Search; ``say`` receives one diagnostic line per failed attempt and per note."""
    say = say or (lambda line: None)
    query = Query(
        options.query, options.allow, options.region, options.time, options.safe, options.page
    )
    report = Report(options.query)
    deadline = time.monotonic() + options.timeout
    with watchdog.deadline(deadline, options.query):
        search = _Search(options, query, deadline, say)
        search.run(report)
        search.remember()
        return report


@dataclass(eq=False, repr=False)
class _Flight:
    """An attempt in flight: what cancels it, its start, its request (and so its notes)."""

    index: int
    endpoint: Endpoint
    abort: Abort
    started: float
    request: Request
    cancelled: bool = False


class _Search:
    """One run: which providers to ask, the attempts in flight, their outcomes."""

    def __init__(self, options: SearchOptions, query: Query, deadline: float, say: Say) -> None:
        self.options = options
        self.query = query
        self.deadline = deadline
        self.say = say
        self.done: dict[int, Attempt] = {}  # by place in the chain
        self.results: dict[int, list[Result]] = {}
        self.flights: dict[int, _Flight] = {}
        self.finished: SimpleQueue[tuple[int, Attempt, list[Result]]] = SimpleQueue()
        self.not_asked: list[str] = []
        self.winner: str | None = None

    # -- the run

    def run(self, report: Report) -> None:
        pending = self._healthy()
        if self.options.fuse:
            self._fused(pending, report)
        else:
            self._chain(pending, report)
        report.attempts = [self.done[i] for i in sorted(self.done)]
        if not report.results:
            report.error = failure(report.attempts, self.options.query, self.not_asked)

    def _healthy(self) -> list[tuple[int, Endpoint]]:
        """The endpoints to ask, in order; resting ones become skipped attempts."""
        from ws.health import key, load

        health: dict[str, Entry] = load()
        now = time.time()
        pending: list[tuple[int, Endpoint]] = []
        for i, endpoint in enumerate(self.options.endpoints):
            name = endpoint.backend.name
            entry = health.get(key(name, endpoint.url))
            if entry is None or not entry.resting(now) or name in self.options.explicit:
                pending.append((i, endpoint))
                continue
            from ws.health import clock

            why = f"resting after {entry.reason or 'failures'} until {clock(entry.until)}"
            # The rest keeps the code of its cause: a network that is down stays 6 or 7.
            error = BY_CODE.get(entry.code, Blocked)
            self.done[i] = Attempt(name, SKIPPED, None, 0, why, error, retry_at=entry.until)
            # A provider not asked gets no stderr line (cron mails any): -v and JSON say it.
            trace.trace("%s: %s (%s; %s)", name, SKIPPED, why, RESET_HINT)
        return pending

    def _chain(self, pending: list[tuple[int, Endpoint]], report: Report) -> None:
        hedge = self.options.hedge
        while True:
            now = time.monotonic()
            # The time at which the one attempt in flight has waited a hedge delay.
            hedge_at = float("inf")
            if hedge > 0 and len(self.flights) == 1:
                hedge_at = next(iter(self.flights.values())).started + hedge
            if pending and now < self.deadline and (not self.flights or now >= hedge_at):
                self._start(*pending.pop(0), len(pending) + 1)
                continue
            if not self.flights:
                break
            wake = self.deadline + _LATE
            if pending:
                wake = min(wake, hedge_at)
            got = self._next(wake)
            if got is None:
                if time.monotonic() >= self.deadline + _LATE:
                    break  # attempts past their deadline: ended below
                continue
            index, attempt, results = got
            if attempt.outcome == OK:
                report.provider, report.results = attempt.provider, results
                report.providers = [attempt.provider]
                break
            self.say(f"{attempt.provider}: {attempt.outcome} ({attempt.message})")
        self._end_flights(report.provider)
        self.not_asked = [e.backend.name for _, e in pending]

    def _fused(self, pending: list[tuple[int, Endpoint]], report: Report) -> None:
        from ws.fuse import fuse_until

        for index, endpoint in pending:
            self._start(index, endpoint, 1)
        while self.flights:
            got = self._next(self.deadline + _LATE)
            if got is None:
                break
            _, attempt, _ = got
            if attempt.outcome != OK:
                self.say(f"{attempt.provider}: {attempt.outcome} ({attempt.message})")
        self._end_flights(None)
        ranked = [(self.done[i].provider, r) for i, r in sorted(self.results.items()) if r]
        if ranked:
            by = max(self.deadline, time.monotonic()) + _LATE
            fused, cut = fuse_until(
                ranked, self.options.max_results, lambda: time.monotonic() >= by
            )
            if cut:
                self.say(f"fusion stopped at the total deadline ({cut})")
            report.cut = bool(cut) or time.monotonic() > self.deadline  # an engine still read
            report.results = list[Result](fused)
            # The engines the printed results came from (-n may have cut all of one's).
            used = {name for result in fused for name in result.providers}
            report.providers = [name for name, _ in ranked if name in used]
            report.provider = report.providers[0]

    # -- attempts in flight

    def _start(self, index: int, endpoint: Endpoint, left: int) -> None:
        """Start one attempt in its own thread; ``left`` counts it and the providers not
        yet started, whose shares of the deadline it must not take."""
        from common.http.deadline import Abort

        now = time.monotonic()
        share = (self.deadline - now) / left
        ceiling = self.options.attempt_timeout
        if left == 1 and ceiling >= share:
            limit = self.deadline
            why = f"no answer before the total deadline (--timeout {self.options.timeout:g} s)"
        elif ceiling <= share:
            limit = now + ceiling
            why = f"no answer within the per-attempt limit of {ceiling:g} s"
        else:
            limit = now + share
            why = (
                f"no answer within its share of the deadline ({share:.1f} s "
                f"of --timeout {self.options.timeout:g} s)"
            )
        request = endpoint.backend.build(self.query, endpoint.url)
        flight = _Flight(index, endpoint, Abort(), now, request)
        self.flights[index] = flight

        def work() -> None:
            try:
                attempt, results = _attempt(
                    endpoint, request, self.query, self.options, limit, why, flight.abort
                )
            except Exception as exc:  # noqa: BLE001 - a bug in one attempt must not hang the run
                message = f"unexpected error: {type(exc).__name__}: {exc} (this is a bug)"
                attempt = Attempt(endpoint.backend.name, NETWORK, None, 0, message, AllFailed)
                results = []
            self.finished.put((index, attempt, results))

        threading.Thread(target=work, name=f"ws-{endpoint.backend.name}", daemon=True).start()

    def _next(self, wake: float) -> tuple[int, Attempt, list[Result]] | None:
        """The next attempt to end before ``wake`` (monotonic), recorded; None if none did."""
        try:
            index, attempt, results = self.finished.get(timeout=max(0.0, wake - time.monotonic()))
        except Empty:
            return None
        flight = self.flights.pop(index, None)
        # An attempt that ended on its own before it was cancelled keeps its outcome (a
        # block is worth remembering), unless it is results the run no longer uses.
        ended_by_us = attempt.outcome == CANCELLED or (
            attempt.outcome == OK and not self.options.fuse
        )
        if flight is not None and flight.cancelled and ended_by_us:
            attempt, results = self._stopped(flight, attempt.notes), []
        self.done[index] = attempt
        self.results[index] = results
        trace.trace(
            "attempt %s: %s, HTTP %s, %d ms: %s",
            attempt.provider,
            attempt.outcome,
            attempt.status or "-",
            attempt.elapsed_ms,
            attempt.message,
        )
        for note in attempt.notes:
            self.say(f"{attempt.provider}: {note}")
        return index, attempt, results

    def _end_flights(self, winner: str | None) -> None:
        """Cancel what is still in flight (shut its sockets down) and wait briefly for its
        threads to end. Without a winner, what is left has outlived the deadline."""
        self.winner = winner
        for flight in self.flights.values():
            flight.cancelled = True
            flight.abort.fire()
        give_up = min(time.monotonic() + _GRACE, max(time.monotonic(), self.deadline) + _LATE)
        while self.flights:
            got = self._next(give_up)
            if got is None:
                break
            if got[1].outcome not in (CANCELLED, OK):
                self.say(f"{got[1].provider}: {got[1].outcome} ({got[1].message})")
        # Given up on: said as one that ended is (its request's notes, a timeout's line).
        for index, flight in self.flights.items():
            attempt = self.done[index] = self._stopped(flight, list(flight.request.notes))
            self.results[index] = []
            end = [] if attempt.outcome == CANCELLED else [f"{attempt.outcome} ({attempt.message})"]
            for line in [*attempt.notes, *end]:
                self.say(f"{attempt.provider}: {line}")
        self.flights.clear()

    def _stopped(self, flight: _Flight, notes: list[str]) -> Attempt:
        name = flight.endpoint.backend.name
        elapsed = int((time.monotonic() - flight.started) * 1000)
        if self.winner is None:
            why = f"no answer before the total deadline (--timeout {self.options.timeout:g} s)"
            return Attempt(name, TIMEOUT, None, elapsed, why, Timeout, notes)
        return Attempt(name, CANCELLED, None, elapsed, f"{self.winner} answered first", None, notes)

    # -- health

    def remember(self) -> None:
        """Tell ws.health what each attempt made says about its provider."""
        from ws.health import BLOCKED as H_BLOCKED
        from ws.health import FAILED, HEALTHY, Event, key, record

        events: dict[str, Event] = {}
        for index, attempt in self.done.items():
            if attempt.outcome in (CANCELLED, SKIPPED):
                continue
            where = key(attempt.provider, self.options.endpoints[index].url)
            reason = f"{attempt.outcome}: {attempt.message}"
            if attempt.outcome == BLOCKED:
                events[where] = Event(H_BLOCKED, reason, attempt.retry_after)
            elif attempt.outcome in (TIMEOUT, NETWORK) or (
                attempt.outcome == HTTP_ERROR and (attempt.status or 0) >= 500
            ):
                code = (attempt.error or AllFailed).code
                events[where] = Event(FAILED, reason, code=code)
            else:
                events[where] = Event(HEALTHY)
        # Other processes hold the lock for a few milliseconds; waiting for it must not
        # take the run past its deadline.
        record(events, wait=min(2.0, max(0.0, self.deadline - time.monotonic() - 0.05)))


def _attempt(
    endpoint: Endpoint,
    request: Request,
    query: Query,
    options: SearchOptions,
    limit: float,
    why_limit: str,
    abort: Abort,
) -> tuple[Attempt, list[Result]]:
    """One provider asked, within ``limit`` (monotonic); runs in its own thread and says
    nothing itself: its notes travel in the Attempt."""
    from ws import paging

    backend = endpoint.backend
    start = time.monotonic()
    trace.trace(
        "attempt %s: %s %s (%s)", backend.name, request.method, request.url, endpoint.source
    )
    notes = list(request.notes)
    policy = options.policy.with_hosts(endpoint.host) if endpoint.trusted else options.policy
    net = options.net(policy)

    def done(
        outcome: str, status: int | None, message: str, error: type[ToolError] | None
    ) -> Attempt:
        elapsed = int((time.monotonic() - start) * 1000)
        return Attempt(backend.name, outcome, status, elapsed, message, error, notes)

    try:
        resp, answer = paging.walk(
            backend,
            endpoint.url,
            request,
            query,
            options,
            net,
            limit,
            cancelled=lambda: abort.fired,
            abort=abort,
        )
    except Timeout:
        if abort.fired:
            return done(CANCELLED, None, "cancelled", None), []
        return done(TIMEOUT, None, why_limit, Timeout), []
    except ToolError as exc:
        if abort.fired:
            return done(CANCELLED, None, "cancelled", None), []
        outcome = HTTP_ERROR if exc.kind in _HTTP_LEVEL else NETWORK
        # The table's row, not a subclass of it, so that equal failures group together.
        return done(outcome, None, exc.message, BY_CODE[exc.code]), []
    notes.extend(answer.notes)
    if answer.outcome == HTTP_ERROR:
        error = HTTPServerError if resp.status >= 500 else HTTPClientError
        return done(HTTP_ERROR, resp.status, answer.message, error), []
    if answer.outcome == BLOCKED:
        from common.http.retry import retry_after

        attempt = done(BLOCKED, resp.status, answer.message, Blocked)
        attempt.retry_after = retry_after(resp.headers, time.time())
        return attempt, []
    if answer.outcome != OK:
        return done(answer.outcome, resp.status, answer.message, _ERRORS[answer.outcome]), []
    try:
        results, filtered = paging.kept(answer, options, lambda: abort.fired)
    except Timeout:  # Stopped: the run ended the attempt while its results were cleaned
        return done(CANCELLED, None, "cancelled", None), []
    if not results:
        # The engine had results but none we can use: for the chain that is an empty answer.
        if filtered:
            kept = "none from the allowed domains" if options.allow else "all from blocked domains"
            why = f"{_count(filtered)}, {kept}"
        else:
            why = "no usable http(s) results"
        return done(EMPTY, resp.status, f"HTTP {resp.status}, {why}", NoResults), []
    return done(OK, resp.status, f"HTTP {resp.status}, {_count(len(results))}", None), results


def _count(n: int) -> str:
    return f"{n} result" if n == 1 else f"{n} results"


def failure(attempts: list[Attempt], query: str, not_asked: list[str] | None = None) -> ToolError:
    """The one error for a search in which no attempt succeeded."""
    names = ", ".join(a.provider for a in attempts)
    answered = [a for a in attempts if a.status is not None]
    if answered and all(a.outcome == EMPTY for a in answered):
        return NoResults(f'no results for "{query}" ({", ".join(a.provider for a in answered)})')
    if not attempts:
        return Timeout(
            f"no provider was asked before the total deadline ({', '.join(not_asked or [])})"
        )
    errors = {a.error for a in attempts}
    resting = _resting(attempts)
    if errors == {Blocked}:
        also = "" if not resting else ", or resting"
        return Blocked(
            f"every provider was blocked or rate-limited{also} ({names}); try again later, "
            f"or set SEARXNG_URL to a SearxNG instance you run (see man ws){resting}"
        )
    if errors == {Timeout}:
        rest = f"; not asked before the deadline: {', '.join(not_asked)}" if not_asked else ""
        every = "every provider asked" if not_asked else "every provider"
        return Timeout(f"{every} timed out ({names}){rest}{resting}")
    if len(errors) == 1:
        error = errors.pop() or AllFailed
        detail = "; ".join(f"{a.provider}: {a.message}" for a in attempts)
        return error(f"every provider failed: {detail}{resting}")
    summary = ", ".join(f"{a.provider}: {a.outcome}" for a in attempts)
    return AllFailed(f"every provider failed ({summary}){resting}")


def _resting(attempts: list[Attempt]) -> str:
    """The tail of a failure's message when providers were skipped: when the first of them
    is asked again, and how to ask them now."""
    from ws.health import clock

    ends = [a.retry_at for a in attempts if a.outcome == SKIPPED and a.retry_at is not None]
    if not ends:
        return ""
    return f"; resting until {clock(min(ends))} ({RESET_HINT})"
