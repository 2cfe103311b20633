"""Every way a request can fail, as the error of its exit code (common/errors.py): the
exceptions of http.client, ssl and the socket layer, and the deadline's own words."""

from __future__ import annotations

import time

from common.errors import BadResponse, ConnectError, Timeout, TLSError, ToolError, TransferError
from common.http.deadline import Abort, ConnectionGuard

# What OpenSSL says when the answer to its ClientHello is not TLS at all (a plain-HTTP
# server answering "HTTP/1.1 400"): the version, length or record type it read is nonsense.
_NOT_TLS = (
    "WRONG_VERSION_NUMBER",
    "HTTP_REQUEST",
    "PACKET_LENGTH_TOO_LONG",
    "RECORD_LAYER_FAILURE",
)


def deadline_error(timeout: float, started: float, deadline: float, abort: Abort | None) -> Timeout:
    """The error of a fetch that its deadline ended, naming the figure that applied: the
    time it ran when an abort stopped it, the time it had when the caller's deadline came
    well before --timeout's (``timeout``: a retry, a later page), else --timeout."""
    if abort is not None and abort.fired:
        return Timeout(f"cancelled after {_seconds(time.monotonic() - started)} s")
    if deadline < started + timeout * _OWN_DEADLINE:
        return Timeout(
            f"timed out after {_seconds(deadline - started)} s "
            "(what was left of the overall deadline)"
        )
    return Timeout(f"timed out after {timeout:g} s (the total deadline)")


# A caller's deadline that leaves the fetch this share of --timeout or more is --timeout's
# own, counted from a moment earlier: wf's page deadline, whose first fetch starts a few
# milliseconds into the page's time, times out "after 30 s", not "after 29.9 s".
_OWN_DEADLINE = 0.95


def _seconds(value: float) -> str:
    return f"{round(max(value, 0.0), 2):g}"


def map_error(
    exc: BaseException,
    guard: ConnectionGuard,
    host: str,
    got_headers: bool,
    at_deadline: Timeout,
    *,
    port: int | None = None,
    attempt_cut: bool = False,
) -> ToolError:
    """The exit code's error for ``exc``, raised while talking to ``host``: the innermost
    ToolError of its chain if any, else by what went wrong (TLS, a timeout, a malformed
    head, a transfer cut after the head, a connection that failed before any answer).
    ``at_deadline`` is the error when the guard's deadline had passed; ``attempt_cut``
    says the attempt's own limit, shorter than the deadline, bounded each wait."""
    import http.client
    import ssl

    if guard.expired:
        return at_deadline

    inner: BaseException = exc
    chain = [exc]
    while True:
        # A context raised away ("raise ... from None") is not the cause.
        context = None if inner.__suppress_context__ else inner.__context__
        nxt = getattr(inner, "reason", None) or inner.__cause__ or context
        if not isinstance(nxt, BaseException) or nxt is inner:
            break
        if isinstance(nxt, ToolError):
            return nxt
        inner = nxt
        chain.append(inner)
    if isinstance(inner, (ssl.SSLError, ssl.CertificateError)):
        detail = (
            getattr(inner, "verify_message", None) or getattr(inner, "reason", None) or str(inner)
        )
        if str(getattr(inner, "reason", "")).upper() in _NOT_TLS:
            where = f"[{host}]:{port or 443}" if ":" in host else f"{host}:{port or 443}"
            return TLSError(
                f"TLS handshake failed with {where}: the server does not speak TLS "
                "(wrong port or http:// URL?)"
            )
        return TLSError(f"TLS error with {host}: {detail}")
    if isinstance(inner, TimeoutError):
        return Timeout(f"timed out waiting for {host}") if attempt_cut else at_deadline
    # The innermost exception can be a ValueError under BadStatusLine: look at every link.
    for link in chain:
        if got_headers or not isinstance(link, http.client.HTTPException):
            continue
        if isinstance(link, (http.client.RemoteDisconnected, http.client.IncompleteRead)):
            continue
        if isinstance(link, http.client.BadStatusLine):
            # .line and .version are set by http.client but missing from typeshed.
            detail = f"bad status line {link.line.strip()[:80]!r}"  # type: ignore[attr-defined]
        elif isinstance(link, http.client.UnknownProtocol):
            detail = f"unknown protocol {link.version[:40]!r}"  # type: ignore[attr-defined]
        else:
            detail = short(link)
        return BadResponse(f"malformed answer from {host}: {detail}")
    if got_headers or isinstance(inner, http.client.IncompleteRead):
        return TransferError(f"transfer from {host} broke off: {short(inner)}")
    if isinstance(inner, (ConnectionError, http.client.RemoteDisconnected, OSError)):
        return ConnectError(f"connection to {host} failed before any answer: {short(inner)}")
    return ToolError(f"unexpected error talking to {host}: {short(exc)} (this is a bug)")


def short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:200]
