"""The fallback chain: ask each provider in turn until one has results, within one total
deadline and a per-attempt limit; classify every attempt; turn the lot into an exit code."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from common import watchdog
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
from ws.backends.base import (
    BLOCKED,
    EMPTY,
    HTTP_ERROR,
    NETWORK,
    OK,
    PARSE_ERROR,
    TIMEOUT,
    Query,
)
from ws.config import Endpoint, SearchOptions
from ws.results import Result, finalise

# The error an attempt would give on its own (network failures carry their own).
_ERRORS: dict[str, type[ToolError]] = {
    EMPTY: NoResults,
    BLOCKED: Blocked,
    TIMEOUT: Timeout,
    PARSE_ERROR: AllFailed,
}
# Failures of the exchange itself rather than of the connection.
_HTTP_LEVEL = {"bad_response", "redirects", "too_large", "url"}


@dataclass
class Attempt:
    provider: str
    outcome: str
    status: int | None
    elapsed_ms: int
    message: str
    error: type[ToolError] | None  # the exit-code row of a failed attempt; None when ok
    notes: list[str] = field(default_factory=list)  # said on stderr on their own lines

    def as_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "outcome": self.outcome,
            "status": self.status,
            "elapsed_ms": self.elapsed_ms,
            "message": "; ".join([self.message, *self.notes]),
        }


@dataclass
class Report:
    query: str
    provider: str | None = None
    results: list[Result] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    error: ToolError | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "provider": self.provider,
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
        return _run(options, query, report, deadline, say)


def _run(options: SearchOptions, query: Query, report: Report, deadline: float, say: Say) -> Report:
    for endpoint in options.endpoints:
        name = endpoint.backend.name
        results: list[Result] = []
        if time.monotonic() >= deadline:
            why = f"not tried: the total deadline ({options.timeout:g} s) had passed"
            attempt = Attempt(name, TIMEOUT, None, 0, why, Timeout)
        else:
            attempt, results = _attempt(endpoint, query, options, deadline, say)
        report.attempts.append(attempt)
        if attempt.outcome == OK:
            report.provider, report.results = name, results
            return report
        say(f"{name}: {attempt.outcome} ({attempt.message})")
    report.error = failure(report.attempts, options.query)
    return report


def _attempt(
    endpoint: Endpoint,
    query: Query,
    options: SearchOptions,
    deadline: float,
    say: Say,
) -> tuple[Attempt, list[Result]]:
    from common.http.client import NetOptions
    from ws import paging

    backend = endpoint.backend
    start = time.monotonic()
    limit = min(deadline, start + options.attempt_timeout)
    request = backend.build(query, endpoint.url)
    notes = list(request.notes)
    for note in notes:
        say(f"{backend.name}: {note}")
    policy = options.policy.with_hosts(endpoint.host) if endpoint.trusted else options.policy
    net = NetOptions(timeout=options.attempt_timeout, user_agent=options.user_agent, policy=policy)

    def done(
        outcome: str, status: int | None, message: str, error: type[ToolError] | None
    ) -> Attempt:
        elapsed = int((time.monotonic() - start) * 1000)
        return Attempt(backend.name, outcome, status, elapsed, message, error, notes)

    try:
        resp, answer = paging.walk(backend, endpoint.url, request, query, options, net, limit)
    except Timeout:
        if limit < deadline:
            why = f"no answer within the per-attempt limit of {options.attempt_timeout:g} s"
        else:
            why = f"no answer before the total deadline (--timeout {options.timeout:g} s)"
        return done(TIMEOUT, None, why, Timeout), []
    except ToolError as exc:
        outcome = HTTP_ERROR if exc.kind in _HTTP_LEVEL else NETWORK
        # The table's row, not a subclass of it, so that equal failures group together.
        return done(outcome, None, exc.message, BY_CODE[exc.code]), []
    for note in answer.notes:
        say(f"{backend.name}: {note}")
        notes.append(note)
    if answer.outcome == HTTP_ERROR:
        error = HTTPServerError if resp.status >= 500 else HTTPClientError
        return done(HTTP_ERROR, resp.status, answer.message, error), []
    if answer.outcome != OK:
        return done(answer.outcome, resp.status, answer.message, _ERRORS[answer.outcome]), []
    results, filtered = finalise(
        answer.results, allow=options.allow, block=options.block, limit=options.max_results
    )
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


def failure(attempts: list[Attempt], query: str) -> ToolError:
    """The one error for a search in which no attempt succeeded."""
    names = ", ".join(a.provider for a in attempts)
    answered = [a for a in attempts if a.status is not None]
    if answered and all(a.outcome == EMPTY for a in answered):
        return NoResults(f'no results for "{query}" ({", ".join(a.provider for a in answered)})')
    errors = {a.error for a in attempts}
    if errors == {Blocked}:
        return Blocked(
            f"every provider was blocked or rate-limited ({names}); try again later, "
            "or set SEARXNG_URL to a SearxNG instance you run (see man ws)"
        )
    if errors == {Timeout}:
        return Timeout(f"every provider timed out ({names})")
    if len(errors) == 1:
        error = errors.pop() or AllFailed
        detail = "; ".join(f"{a.provider}: {a.message}" for a in attempts)
        return error(f"every provider failed: {detail}")
    summary = ", ".join(f"{a.provider}: {a.outcome}" for a in attempts)
    return AllFailed(f"every provider failed ({summary})")
