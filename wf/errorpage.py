"""What an HTTP error's answer tells an agent, kept in the page's result: where it came
from, its type, when to come back (Retry-After, in whole seconds) and the start of what
its page says (``error_body`` in --json).
"""

from __future__ import annotations

from common.errors import ToolError
from common.http.client import Response
from wf import lines, sniff
from wf.view import PageResult, printable

ERROR_BODY_CHARS = 2000
# The start of an error page is what says why; extraction never needs the rest of it.
ERROR_BODY_BYTES = 256 * 1024


def describe_error(page: PageResult, resp: Response, deadline: float) -> None:
    """What an agent needs from an HTTP error: where it came from, its type, when to come
    back (Retry-After) and the start of what the error page says."""
    page.final_url = resp.final_url
    page.status = resp.status
    page.content_type = resp.content_type or None
    page.bytes = len(resp.body)
    page.retry_after = retry_after_seconds(resp.headers.get("retry-after"))
    try:
        page.error_body = _error_text(resp, deadline)
    except ToolError:
        page.error_body = None  # the status is the error; a page we cannot read is no other


def _error_text(resp: Response, deadline: float) -> str | None:
    from common.decode import decode_body

    body = resp.body[:ERROR_BODY_BYTES]
    kind, _mime = sniff.classify(resp.content_type or None, body)
    if kind not in ("html", "text"):
        return None
    decoded, _charset = decode_body(body, resp.content_type or None)
    if kind == "html":
        from wf.extract import extract

        found = extract(decoded, url=resp.final_url, deadline=deadline).text
        # An error page is often nothing but a heading and a line, which the main-content
        # choice can pass over as boilerplate.
        decoded = found if found.strip() else extract(decoded, full=True, deadline=deadline).text
    text = printable(decoded).strip()
    if not text:
        return None
    shown = lines.page_lines(lines.split_lines(text), 1, ERROR_BODY_CHARS)
    return "\n".join(shown.lines)


def retry_after_seconds(value: str | None, now: float | None = None) -> int | None:
    """Retry-After (RFC 9110 10.2.3) in whole seconds from now: delta-seconds or an
    HTTP-date (a date in the past is 0); None when absent or unreadable. --retry reads
    the same header with the same rules (common.http.retry.retry_after)."""
    import math

    from common.http.retry import retry_after

    found = retry_after({} if value is None else {"retry-after": value}, now)
    return None if found is None else math.ceil(found)
