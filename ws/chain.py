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
    InternalError,
    NoResults,
    Timeout,
    ToolError,
    UsageError,
)
from ws.attempt import CANCELLED, INTERNAL, SKIPPED, USAGE, Attempt, ask, bug
from ws.backends.base import BLOCKED, EMPTY, HTTP_ERROR, NETWORK, OK, TIMEOUT, Query
from ws.config import Endpoint, SearchOptions
from ws.results import Result

if TYPE_CHECKING:
    from common.http.deadline import Abort
    from ws.backends.base import Request
    from ws.health import Entry, Event

__all__ = ["CANCELLED", "SKIPPED", "Attempt", "Report", "failure", "run"]

# What every message about a rest ends with: how to end it now.
RESET_HINT = "ws --reset-health ends the rest"
# Why the attempts in flight were cancelled when one found a usage error.
_BY_USAGE = "the search ended on a usage error"
# How long a cancelled or overdue attempt may take to end (its sockets shut down, the page
# it reads stopped at its next step: ws.paging.walk) before the run stops waiting for it.
_GRACE = 1.0
# But the waits end by this long past the total deadline, before the watchdog's 0.35 s (ws
# --all printed nothing, 28), and so does --all's fusion: a library caller has no watchdog.
_LATE = 0.1
# However late the run, its fusion may take this long: what the engines answered is fused
# whole unless they answered thousands (ws.fuse reads about 1 024 results in 4 ms).
_FUSING = 0.02


@dataclass(eq=False)
class Report:
    """What a run found: the results, every attempt, the error if it failed."""

    query: str
    provider: str | None = None
    results: list[Result] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    error: ToolError | None = None
    providers: list[str] = field(default_factory=list)  # every provider the results came from
    # A part of the answer (the deadline cut it short, a fused engine lost to a timeout, a
    # network failure, a 5xx or a bug): not kept (ws.cache.store).
    cut: bool = False

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
    """An attempt in flight: what cancels it, its start, its request (and so its notes),
    its thread."""

    index: int
    endpoint: Endpoint
    abort: Abort
    started: float
    request: Request
    cancelled: bool = False
    thread: threading.Thread | None = None


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
        self.ended_by: str | None = None  # why the attempts still in flight were cancelled

    # -- the run

    def run(self, report: Report) -> None:
        pending = self._healthy()
        if self.options.fuse:
            self._fused(pending, report)
        else:
            self._chain(pending, report)
        report.attempts = [self.done[i] for i in sorted(self.done)]
        usage = next((a for a in report.attempts if a.outcome == USAGE), None)
        if usage is not None:
            # Our own fault found late (a bad option or variable): exit 2, as at start-up.
            report.provider, report.providers, report.results = None, [], []
            report.error = (usage.error or UsageError)(usage.message)
        elif not report.results:
            report.error = failure(report.attempts, self.options.query, self.not_asked)

    def _healthy(self) -> list[tuple[int, Endpoint]]:
        """The endpoints to ask, in order; resting ones become skipped attempts."""
        from ws.health import key, load

        health: dict[str, Entry] = load(self.options.environ)
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
        ended_by = None
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
                ended_by = f"{attempt.provider} answered first"
                break
            if attempt.outcome == USAGE:
                ended_by = _BY_USAGE  # every other provider would be asked in vain
                break
            self.say(attempt.said)
        self._end_flights(ended_by)
        self.not_asked = [e.backend.name for _, e in pending]

    def _fused(self, pending: list[tuple[int, Endpoint]], report: Report) -> None:
        from ws.fuse import fuse_until

        for index, endpoint in pending:
            self._start(index, endpoint, 1)
        ended_by = None
        while self.flights:
            got = self._next(self.deadline + _LATE)
            if got is None:
                break
            _, attempt, _ = got
            if attempt.outcome == USAGE:
                ended_by = _BY_USAGE
                break
            if attempt.outcome != OK:
                self.say(attempt.said)
        self._end_flights(ended_by)
        ranked = [(self.done[i].provider, r) for i, r in sorted(self.results.items()) if r]
        if ranked and ended_by is None:
            by = max(self.deadline + _LATE, time.monotonic() + _FUSING)
            fused, cut = fuse_until(
                ranked, self.options.max_results, lambda: time.monotonic() >= by
            )
            if cut:
                self.say(f"fusion stopped at the total deadline ({cut})")
            # An engine still read at the deadline, or lost to what may not happen again (a
            # timeout, a network failure, a 5xx: what ws.health counts as a failure) or to
            # a bug of ours: a part, which a later run must not be served as the whole.
            lost = any(_failed(a) or a.outcome == INTERNAL for a in self.done.values())
            report.cut = bool(cut) or lost or time.monotonic() > self.deadline
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
        try:
            request = endpoint.backend.build(self.query, endpoint.url)
        except Exception as exc:  # noqa: BLE001 - a bug: this attempt's end, not the run's
            attempt = self.done[index] = bug(endpoint.backend.name, exc, now)
            self.results[index] = []
            self.say(attempt.said)
            return
        flight = _Flight(index, endpoint, Abort(), now, request)
        self.flights[index] = flight

        def work() -> None:
            try:
                attempt, results = ask(
                    endpoint,
                    request,
                    self.query,
                    self.options,
                    limit,
                    why,
                    flight.abort,
                    self.deadline,
                )
            except Exception as exc:  # noqa: BLE001 - a bug in one attempt must not hang the run
                attempt, results = bug(endpoint.backend.name, exc, now), []
            self.finished.put((index, attempt, results))

        flight.thread = threading.Thread(
            target=work, name=f"ws-{endpoint.backend.name}", daemon=True
        )
        flight.thread.start()

    def _next(self, wake: float) -> tuple[int, Attempt, list[Result]] | None:
        """The next attempt to end before ``wake`` (monotonic), recorded; None if none did."""
        try:
            index, attempt, results = self.finished.get(timeout=max(0.0, wake - time.monotonic()))
        except Empty:
            return None
        flight = self.flights.pop(index, None)
        if flight is not None and flight.thread is not None:
            # Its thread ends right after it gave its outcome: the run returns with none of
            # its threads left (ws.search's caller may count them), not one still ending.
            flight.thread.join(max(0.0, wake - time.monotonic()))
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

    def _end_flights(self, ended_by: str | None) -> None:
        """Cancel what is still in flight (shut its sockets down) and wait briefly for its
        threads to end; ``ended_by`` says why ("X answered first"). Without one, what is
        left has outlived the deadline."""
        self.ended_by = ended_by
        for flight in self.flights.values():
            flight.cancelled = True
            flight.abort.fire()
        give_up = min(time.monotonic() + _GRACE, self.deadline + _LATE)
        while self.flights:
            got = self._next(give_up)
            if got is None:
                break
            if got[1].outcome not in (CANCELLED, OK, USAGE):
                self.say(got[1].said)
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
        if self.ended_by is None:
            why = f"no answer before the total deadline (--timeout {self.options.timeout:g} s)"
            return Attempt(name, TIMEOUT, None, elapsed, why, Timeout, notes)
        return Attempt(name, CANCELLED, None, elapsed, self.ended_by, None, notes)

    # -- health

    def remember(self) -> None:
        """Tell ws.health what each attempt made says about its provider."""
        from ws.health import BLOCKED as H_BLOCKED
        from ws.health import FAILED, HEALTHY, Event, key, record

        events: dict[str, Event] = {}
        for index, attempt in self.done.items():
            if attempt.outcome in (CANCELLED, SKIPPED, USAGE, INTERNAL):
                # Nothing learnt of the provider: a usage error or a bug is our own fault
                # (ws.attempt.INTERNAL says why a bug weighs nothing either way).
                continue
            where = key(attempt.provider, self.options.endpoints[index].url)
            reason = f"{attempt.outcome}: {attempt.message}"
            if attempt.outcome == BLOCKED:
                events[where] = Event(H_BLOCKED, reason, attempt.retry_after)
            elif _failed(attempt):
                code = (attempt.error or AllFailed).code
                events[where] = Event(FAILED, reason, code=code)
            else:
                events[where] = Event(HEALTHY)
        # Other processes hold the lock for a few milliseconds; waiting for it must not
        # take the run past its deadline.
        wait = min(2.0, max(0.0, self.deadline - time.monotonic() - 0.05))
        record(events, wait=wait, environ=self.options.environ)


def _failed(attempt: Attempt) -> bool:
    """Whether the attempt failed in a way the next run may not repeat (ws.health counts
    it against its provider): a timeout, a network failure, an HTTP 5xx answer."""
    return attempt.outcome in (TIMEOUT, NETWORK) or (
        attempt.outcome == HTTP_ERROR and (attempt.status or 0) >= 500
    )


def failure(attempts: list[Attempt], query: str, not_asked: list[str] | None = None) -> ToolError:
    """The one error for a search in which no attempt succeeded: a bug of ours when an
    attempt met one (whatever the others did, it may have hidden results), else the
    providers' common failure."""
    bugs = [a for a in attempts if a.outcome == INTERNAL]
    if bugs:
        detail = "; ".join(f"{a.provider}: {a.message}" for a in bugs)
        others = ", ".join(f"{a.provider}: {a.outcome}" for a in attempts if a not in bugs)
        return InternalError(f"{detail}{f' (the others: {others})' if others else ''}")
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
