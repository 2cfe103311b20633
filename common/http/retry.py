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
# What an attempt needs at least after the wait: one left less would time out at once,
# said as "timed out after 0 s" after a retry line that promised it (loopback answers in
# milliseconds; a server across the world in a few hundred).
ATTEMPT_MIN = 0.25


@dataclass
class Attempts:
    """How many attempts a page's fetches made (a redirect chain is one), readable after
    a fetch raised as well."""

    count: int = 0


# RFC 9111 1.2.2: a delta-seconds too large to hold is taken as 2^31 (about 68 years).
MAX_DELTA = 2**31
# The longest HTTP-date (rfc850-date with a long weekday) is 40 characters; leave room for
# odd spacing, and never hand a megabyte to the date parser.
_MAX_DATE_CHARS = 64


def delta_seconds(value: str) -> int | None:
    """RFC 9110 delta-seconds (``1*DIGIT``, ASCII digits only: not "²", not "٣"), clamped
    to MAX_DELTA without converting thousands of digits; None when it is not one."""
    text = value.strip(" \t")
    if not text or not (text.isascii() and text.isdigit()):
        return None
    text = text.lstrip("0") or "0"
    if len(text) > len(str(MAX_DELTA)):
        return MAX_DELTA
    return min(int(text), MAX_DELTA)


def http_date(value: str | None) -> float | None:
    """An HTTP-date (RFC 9110 5.6.7, any of its three forms) as a POSIX timestamp; None
    when absent or unreadable, a year out of range among it. A date without a zone (the
    "-0000" of RFC 5322) is GMT, as every HTTP date is."""
    if not value or len(value) > _MAX_DATE_CHARS:
        return None
    import datetime
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value.strip())
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.UTC)
        return when.timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Retry-After (RFC 9110 10.2.3) in seconds from now, in either form (delta-seconds or
    an HTTP-date); None when absent or unreadable; a date in the past is 0. The one parser
    of it: wf's retries and error pages and ws's provider health all read it here."""
    raw = headers.get("retry-after", "").strip(" \t")
    if not raw:
        return None
    seconds = delta_seconds(raw)
    if seconds is not None:
        return float(seconds)
    when = http_date(raw)
    if when is None:
        return None
    return min(max(0.0, when - (time.time() if now is None else now)), float(MAX_DELTA))


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
        if time.monotonic() + wait + ATTEMPT_MIN > deadline:
            trace.trace("retry: no retry, a wait of %.1f s would reach the deadline", wait)
            if log is not None:
                # Not only under -v: --retry was asked for and did not happen.
                source = "Retry-After asks for" if asked else "the back-off is"
                left = max(0.0, deadline - time.monotonic())
                where = "past the" if wait >= left else "too near the"
                log(
                    f"not retrying {one_line(url)} ({why}): {source} {wait:.1f} s, {where} "
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
