"""One provider asked: the outcomes an attempt can have, the Attempt record the run keeps
of each, and ``ask``, which sends the request within the attempt's limit and reads the
answer until the total deadline at most. Runs in the attempt's own thread (ws.chain starts
it) and says nothing itself: its notes travel in the Attempt.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from common import trace
from common.errors import (
    BY_CODE,
    AllFailed,
    Blocked,
    HTTPClientError,
    HTTPServerError,
    InternalError,
    NoResults,
    Timeout,
    ToolError,
    UsageError,
)
from ws.backends.base import BLOCKED, EMPTY, HTTP_ERROR, NETWORK, OK, PARSE_ERROR, TIMEOUT, Late
from ws.results import Result

if TYPE_CHECKING:
    from common.http.deadline import Abort
    from ws.backends.base import Query, Request
    from ws.config import Endpoint, SearchOptions

# Outcomes the chain gives itself: a loser of a hedged pair, a provider resting.
CANCELLED, SKIPPED = "cancelled", "skipped"
# A usage error found inside an attempt (a bad option or variable found late): our fault,
# never the provider's. The run ends with it (exit 2) and ws.health hears nothing of it.
USAGE = "usage_error"
# A bug of ours inside an attempt (an exception no code of ours expected: a parser's
# TypeError on an odd answer). Not the provider's network failure: ws.health hears nothing
# of it, neither a failure (three would rest a provider that answered, and hide the bug
# behind "skipped" for 2 minutes) nor a good answer (which would clear a real run of
# failures on an answer we could not read). The provider is asked again at the next run,
# a round trip that shows the bug again. The run goes on to the other providers; when none
# has results it ends as internal (exit 1) with the bug's message.
INTERNAL = "internal_error"
# The error an attempt would give on its own (network failures carry their own).
_ERRORS: dict[str, type[ToolError]] = {
    EMPTY: NoResults,
    BLOCKED: Blocked,
    TIMEOUT: Timeout,
    PARSE_ERROR: AllFailed,
}
# Failures of the exchange itself rather than of the connection.
_HTTP_LEVEL = {"bad_response", "redirects", "too_large", "url"}


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

    @property
    def said(self) -> str:
        """Its line on stderr: provider, outcome and why."""
        return f"{self.provider}: {self.outcome} ({self.message})"

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


def ask(
    endpoint: Endpoint,
    request: Request,
    query: Query,
    options: SearchOptions,
    limit: float,
    why_limit: str,
    abort: Abort,
    read_by: float | None = None,
) -> tuple[Attempt, list[Result]]:
    """One provider asked: its requests within ``limit`` (monotonic), its answer read
    until ``read_by`` at most (the run's total deadline; None: ``limit``), the reading
    asking it as it goes (ws.backends.base.check_stop). Runs in its own thread and says
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
            read_by=read_by,
            abort=abort,
        )
    except ToolError as exc:
        return done(*_failed(exc, abort.fired, options.timeout, why_limit)), []
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


def bug(provider: str, exc: Exception, started: float) -> Attempt:
    """The attempt of ``provider`` (asked at ``started``, monotonic) that ``exc``, a bug of
    ours, ended: its message names the exception and where it was raised."""
    import traceback

    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:  # where it was raised, for the report of the bug
        last = frames[-1]
        where = f" in {last.name} ({last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
    message = f"unexpected error{where}: {type(exc).__name__}: {exc} (this is a bug)"
    elapsed = int((time.monotonic() - started) * 1000)
    return Attempt(provider, INTERNAL, None, elapsed, message, InternalError)


def _failed(
    exc: ToolError, ended: bool, timeout: float, why_limit: str
) -> tuple[str, None, str, type[ToolError] | None]:
    """An attempt's outcome, status, message and error when its walk raised ``exc``;
    ``ended``: the run ended the attempt (its Abort fired)."""
    if isinstance(exc, UsageError):
        return USAGE, None, exc.message, BY_CODE[exc.code]
    if ended:
        return CANCELLED, None, "cancelled", None
    if exc.code == InternalError.code:
        # A bug the fetch caught (common.http.failures: "... (this is a bug)"): ours.
        return INTERNAL, None, exc.message, InternalError
    if isinstance(exc, Late):
        late = f"no answer before the total deadline (--timeout {timeout:g} s)"
        return TIMEOUT, None, f"{late}: its page was still being read", Timeout
    if isinstance(exc, Timeout):
        return TIMEOUT, None, why_limit, Timeout
    outcome = HTTP_ERROR if exc.kind in _HTTP_LEVEL else NETWORK
    # The table's row, not a subclass of it, so that equal failures group together.
    return outcome, None, exc.message, BY_CODE[exc.code]


def _count(n: int) -> str:
    return f"{n} result" if n == 1 else f"{n} results"
