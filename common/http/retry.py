"""Retries of transient failures (--retry): connect errors, an attempt that stalls, and
408, 429, 500, 502, 503, 504; exponential back-off with jitter, Retry-After honoured, and
never past the total deadline. GET and HEAD only: they are idempotent, so a request the
server may have half-handled can be sent again.

Each attempt but the last waits at most its share of the time left for a connection or
for bytes (the time left over the attempts left), so that a stalled server leaves time
for the next attempt; a transfer that keeps moving runs to the deadline. The last attempt
gets whatever is left.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from common import trace
from common.errors import ConnectError, Timeout
from common.http.client import NetOptions, Response, fetch

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
IDEMPOTENT = ("GET", "HEAD")
BASE_DELAY = 0.5  # seconds before the first retry, doubled for each one after
MAX_DELAY = 30.0


@dataclass
class Attempts:
    """How many attempts a page's fetches made (a redirect chain is one), readable after
    a fetch raised as well."""

    count: int = 0


def retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Retry-After in seconds from now, in either form (delta-seconds or an HTTP date);
    None when absent or unreadable; a date in the past is 0."""
    raw = headers.get("retry-after", "").strip()
    if not raw:
        return None
    if raw.isascii() and raw.isdigit():
        return float(min(int(raw), 10**9))
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" in RFC 5322; HTTP dates are GMT
        import datetime

        when = when.replace(tzinfo=datetime.UTC)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def backoff(retry: int) -> float:
    """The wait before retry number ``retry`` (1-based): exponential, with jitter between
    half and all of it so that clients that failed together do not come back together."""
    ceiling = min(MAX_DELAY, BASE_DELAY * 2 ** (retry - 1))
    return random.uniform(ceiling / 2, ceiling)


def fetch_retrying(
    url: str,
    opts: NetOptions,
    *,
    retries: int,
    deadline: float,
    method: str = "GET",
    headers: Mapping[str, str] | None = None,
    log: Callable[[str], None] | None = None,
    attempts: Attempts | None = None,
) -> Response:
    """fetch, tried up to ``retries`` more times on a transient failure while the deadline
    leaves time to wait and try again. Returns the last answer (a 503 too, when no retry
    is left); raises the last error."""
    from common.http.deadline import pause
    from common.text import one_line

    tally = attempts if attempts is not None else Attempts()
    if method.upper() not in IDEMPOTENT:
        retries = 0
    total = retries + 1
    for attempt in range(1, total + 1):
        left = deadline - time.monotonic()
        share = left / (total - attempt + 1) if attempt < total else None
        tally.count += 1  # shared by every fetch of one page (a 304 then a refetch)
        if share is not None:
            trace.trace(
                "retry: attempt %d of %d waits at most %.1f s for a connection or for bytes",
                attempt,
                total,
                share,
            )
        try:
            resp = fetch(
                url, opts, method=method, headers=headers, deadline=deadline, attempt_timeout=share
            )
        except (ConnectError, Timeout) as exc:
            # A Timeout at the deadline is the end; before it, only this attempt stalled.
            if attempt == total or time.monotonic() >= deadline:
                raise
            why = "could not connect" if isinstance(exc, ConnectError) else "timed out"
            wait = backoff(attempt)
            asked = False
            last: Response | Exception = exc
        else:
            if resp.status not in RETRY_STATUSES or attempt == total:
                return resp
            why = str(resp.status)
            delay = backoff(attempt)
            wait = max(delay, retry_after(resp.headers) or 0.0)
            asked = wait > delay  # the server's Retry-After, not our back-off
            last = resp
        # The next attempt needs time of its own after the wait: a wait that would reach
        # the deadline gives the answer we have now instead.
        if time.monotonic() + wait >= deadline:
            trace.trace("retry: no retry, a wait of %.1f s would reach the deadline", wait)
            if log is not None:
                # Not only under -v: --retry was asked for and did not happen.
                source = "Retry-After asks for" if asked else "the back-off is"
                left = max(0.0, deadline - time.monotonic())
                log(
                    f"not retrying {one_line(url)} ({why}): {source} {wait:.1f} s, past the "
                    f"deadline ({left:.1f} s left; see --timeout)"
                )
            return _give_up(last)
        if log is not None:
            log(
                f"retrying {one_line(url)} in {wait:.1f} s ({why}, attempt {attempt + 1} of {total})"
            )
        if pause(wait):
            return _give_up(last)  # the batch was interrupted
    raise AssertionError("unreachable: the last attempt returns or raises")


def _give_up(last: Response | Exception) -> Response:
    if isinstance(last, Exception):
        raise last
    return last
