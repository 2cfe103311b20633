"""The headers of a request: ours, the -H and --user-agent values a user gives (checked at
start-up, before any request), and how they are merged and put on the wire."""

from __future__ import annotations

from collections.abc import Iterable

from common.errors import UsageError
from common.http.decompress import accept_encoding

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36"
)
DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
DEFAULT_ACCEPT_LANGUAGE = "en-US,en;q=0.9"

# -H may not set what framing and routing depend on: the client owns these.
REFUSED_HEADERS = ("host", "content-length", "transfer-encoding", "connection")
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def user_header(text: str, source: str = "-H") -> tuple[str, str]:
    """One ``-H 'Name: value'`` as (name, value); UsageError for anything that is not one
    header line, or that names a header the client must set itself."""
    name, colon, value = text.partition(":")
    shown = repr(text[:100])
    if not colon or not name or any(c not in _TOKEN for c in name):
        raise UsageError(f"{source} takes 'Name: value' with a header name, not {shown}")
    if name.lower() in REFUSED_HEADERS:
        raise UsageError(f"{source} cannot set {name}: wf sets it itself")
    value = value.strip(" \t")
    _check_value(value, f"{source} {name}")
    return name, wire_value(value)


def user_agent(text: str | None) -> str | None:
    """--user-agent checked as a -H value is (one line, no control characters); the text
    as given, sent as UTF-8 (request_headers); None for none or an empty one."""
    if text is None:
        return None
    value = text.strip(" \t")
    _check_value(value, "--user-agent")
    return value or None


def _check_value(value: str, where: str) -> None:
    if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in value):
        raise UsageError(f"{where}: the value holds control characters (one line only)")


def wire_value(value: str) -> str:
    # http.client sends header values as Latin-1: UTF-8 text goes out as its own bytes.
    return value.encode("utf-8").decode("latin-1")


def base_headers(
    agent: str | None, extra: Iterable[tuple[str, str]], accept: str = DEFAULT_ACCEPT
) -> dict[str, str]:
    """The headers every request carries: ours, with ``agent`` (--user-agent) if given and
    ``accept`` (wf asks for Markdown first), then the ``extra`` (-H) over them."""
    out = {
        "User-Agent": wire_value(agent) if agent else DEFAULT_USER_AGENT,
        "Accept": accept,
        "Accept-Language": DEFAULT_ACCEPT_LANGUAGE,
        "Accept-Encoding": accept_encoding(),
    }
    merge_headers(out, extra)
    return out


def merge_headers(into: dict[str, str], extra: Iterable[tuple[str, str]]) -> None:
    """Set headers over others whatever their case: one field, the last value given."""
    for name, value in extra:
        for old in [k for k in into if k.lower() == name.lower()]:
            del into[old]
        into[name] = value


def location_text(value: str) -> str:
    """http.client decodes header bytes as Latin-1; servers that send raw non-ASCII in a
    Location send UTF-8 (as browsers read it), so that is tried first."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value
