"""common/http/failures.py as pure functions: the walk down an exception's chain, and the
words of an error. What each failing server maps to, end to end, is in test_http_fetch.py
(failures, by message) and tests/hostile/."""

from __future__ import annotations

import time

from common.errors import Timeout, TransferError
from common.http.deadline import ConnectionGuard
from common.http.failures import map_error, short
from common.policy import Policy


def test_the_walk_down_an_error_stops_where_its_context_was_raised_away():
    # "raise X from None" hides the context: it is not what went wrong, X is.
    def cut() -> None:
        try:
            int(b"", 16)
        except ValueError:
            raise OSError("the peer went away") from None

    try:
        cut()
    except OSError as exc:
        error = exc
    guard = ConnectionGuard(Policy(), time.monotonic() + 60, proxied=False)
    try:
        mapped = map_error(error, guard, "example.org", True, Timeout("not used"))
    finally:
        guard.cancel()
    assert (type(mapped), mapped.message) == (
        TransferError,
        "transfer from example.org broke off: the peer went away",
    )


def test_an_error_without_words_is_named_by_its_class_and_a_long_one_is_cut():
    assert short(ConnectionResetError()) == "ConnectionResetError"
    assert short(ValueError("x" * 300 + "\nsecond line")) == "x" * 200
    assert short(ValueError("first\nsecond")) == "first"
