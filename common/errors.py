"""The exit-code table shared by wf and ws: one exception class per row.

A code, once given a meaning, never changes. man/wf.1 and man/ws.1 list the same
table in their EXIT STATUS sections; tests/test_docs.py checks they agree.
"""

from __future__ import annotations

from typing import Any


class ToolError(Exception):
    """An error that ends a command with a documented exit code."""

    code: int = 1
    kind: str = "internal"
    meaning: str = "internal error (a bug: the message says so)"
    # The next step this error's line ends with when the code's own (NEXT_STEPS) would
    # mislead: "" for none.
    step: str | None = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "kind": self.kind, "message": self.message}


class InternalError(ToolError):
    code, kind, meaning = 1, "internal", "internal error (a bug: the message says so)"


class UsageError(ToolError):
    code, kind, meaning = (
        2,
        "usage",
        "usage error: bad option or value, invalid regex, conflicting options",
    )


class InvalidURL(ToolError):
    code, kind, meaning = 3, "url", "invalid URL or unsupported scheme"


class HTTPClientError(ToolError):
    code, kind, meaning = 4, "http_4xx", "HTTP 4xx answer (other than 429)"


class HTTPServerError(ToolError):
    code, kind, meaning = 5, "http_5xx", "HTTP 5xx answer"


class DNSError(ToolError):
    code, kind, meaning = 6, "dns", "could not resolve host"


class ConnectError(ToolError):
    code, kind, meaning = (
        7,
        "connect",
        "could not connect (refused, unreachable, reset before any answer)",
    )


class BadResponse(ToolError):
    code, kind, meaning = (
        8,
        "bad_response",
        "malformed HTTP answer (bad status line, header flood, cut before the headers end)",
    )


class WriteError(ToolError):
    code, kind, meaning = (
        23,
        "write",
        "write error (saving a file; a closed stdout pipe is not an error)",
    )


class Timeout(ToolError):
    code, kind, meaning = (
        28,
        "timeout",
        "timeout (connect, read, the total deadline, a render deadline)",
    )


class TLSError(ToolError):
    code, kind, meaning = 35, "tls", "TLS error (handshake, certificate)"


class TooManyRedirects(ToolError):
    code, kind, meaning = 47, "redirects", "too many redirects (more than 10) or a redirect loop"


class TransferError(ToolError):
    code, kind, meaning = (
        56,
        "transfer",
        "transfer broken after the headers (reset, body shorter than announced, bad chunked encoding)",
    )


class TooLarge(ToolError):
    code, kind, meaning = 63, "too_large", "body larger than the size cap"


class NoMatch(ToolError):
    code, kind, meaning = 65, "no_match", "wf: the --select selector matched nothing"


class NoResults(ToolError):
    code, kind, meaning = 66, "no_results", "ws: every provider answered, none had a result"


class AllFailed(ToolError):
    code, kind, meaning = 69, "all_failed", "ws: every provider failed, for mixed reasons"


class RenderError(ToolError):
    code, kind, meaning = (
        70,
        "render",
        "rendering failed (no browser, launch failed, browser circuit open, crash) where rendering was required",
    )


class DocumentUnreadable(ToolError):
    code, kind, meaning = (
        71,
        "unreadable",
        "document cannot be read: encrypted, or damaged so that no page can be read",
    )


class Blocked(ToolError):
    code, kind, meaning = (
        75,
        "blocked",
        "blocked or rate-limited: HTTP 429, anti-bot or CAPTCHA page",
    )


class PolicyRefused(ToolError):
    code, kind, meaning = (
        77,
        "policy",
        "refused by the network policy, or by robots.txt (--robots)",
    )


class RobotsRefused(PolicyRefused):
    """Refused by robots.txt: exit 77 as the policy's refusals, its own kind in JSON."""

    kind = "robots"


class Interrupted(ToolError):
    code, kind, meaning = 130, "interrupted", "interrupted (Ctrl-C)"


class Terminated(ToolError):
    code, kind, meaning = 143, "terminated", "terminated by SIGTERM"


# Success has no exception; it is listed so the table is complete.
SUCCESS = (0, "ok", "success")

ERROR_CLASSES: tuple[type[ToolError], ...] = (
    InternalError,
    UsageError,
    InvalidURL,
    HTTPClientError,
    HTTPServerError,
    DNSError,
    ConnectError,
    BadResponse,
    WriteError,
    Timeout,
    TLSError,
    TooManyRedirects,
    TransferError,
    TooLarge,
    NoMatch,
    NoResults,
    AllFailed,
    RenderError,
    DocumentUnreadable,
    Blocked,
    PolicyRefused,
    Interrupted,
    Terminated,
)

EXIT_TABLE: tuple[tuple[int, str, str], ...] = (SUCCESS,) + tuple(
    (c.code, c.kind, c.meaning) for c in ERROR_CLASSES
)

BY_CODE: dict[int, type[ToolError]] = {c.code: c for c in ERROR_CLASSES}

# The next step for the failures a user can act on, by tool and code; the error line
# ends with it in parentheses. Codes 2, 23, 63 and 77 name theirs in the message itself.
_PROXIES = "the proxy variables (http_proxy, https_proxy, no_proxy)"
NEXT_STEPS: dict[str, dict[int, str]] = {
    "wf": {
        HTTPServerError.code: "the server failed: try again later, or --retry N",
        DNSError.code: f"check the host name, the network, or {_PROXIES}",
        ConnectError.code: f"check the host and port, or {_PROXIES}; --retry N tries again",
        Timeout.code: "raise --timeout, or --retry N for a server that stalls",
    },
    "ws": {
        HTTPServerError.code: "the engines failed: try again later",
        DNSError.code: f"check the network, or {_PROXIES}",
        ConnectError.code: f"check the network, or {_PROXIES}",
        Timeout.code: "raise --timeout or WS_TIMEOUT",
    },
}


def next_step(tool: str, exc: ToolError) -> str:
    """The hint an error line ends with, or ""."""
    step = exc.step if exc.step is not None else NEXT_STEPS.get(tool, {}).get(exc.code, "")
    if not step or "--proxy-resolves" in exc.message:  # a proxy's own advice stands alone
        return ""
    return f" ({step})"
