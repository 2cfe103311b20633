"""The page as the parser is handed it: within common.parse_limits, as text (for the
checks on text) and, when that costs no more than the parse would pay anyway, as its UTF-8
(which libxml2 reads without conversion)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wf.extract import parse
from wf.extract.parse import FAST_MAX

if TYPE_CHECKING:
    from collections.abc import Callable

    from common.parse_limits import Cut


def limited(
    html: str | bytes, utf8: bytes | None, late: Callable[[], bool] | None = None
) -> tuple[str | bytes, bytes | None, Cut]:
    """The page for the parser, within common.parse_limits, and its UTF-8 when the parser
    can take that as it came (parse.utf8_source). A big body of valid UTF-8 stays the bytes
    libxml2 reads (its str takes four bytes a character once one is astral); a small one is
    decoded for the checks on text, and its bytes spare the parser an encode. ``late``, as
    limit takes it: past the deadline the page is cut where the checks stopped."""
    from common.parse_limits import limit

    text: str | None = None
    if isinstance(html, bytes):
        from common.decode import utf8_bytes, utf8_text

        # wf.pipeline has traced the charset.
        if len(html) > FAST_MAX:
            found = utf8_bytes(html)
            if found is not None:
                data, cut = limit(found[0], late=late)
                return data, None, cut
        else:
            decoded = utf8_text(html)
            if decoded is not None:
                text = decoded[0]
                utf8 = parse.utf8_source(html, text, "utf-8")
    if text is None:
        text, utf8 = parse.to_text(html, utf8)
    if len(text) <= FAST_MAX:
        if utf8 is None:
            utf8 = _encoded(text)
        if utf8 is not None:
            return _limited_utf8(text, utf8, late)
    page, cut = limit(text, late=late)
    if page is not text:
        return page, None, cut  # cut: the bytes are no copy of it any more
    return text, utf8, cut


def _encoded(text: str) -> bytes | None:
    """The UTF-8 the parser is handed (parse.parse_fast, parse.to_utf8 would make the same
    copy), made before the limits are checked on it; None for a lone surrogate."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _limited_utf8(
    text: str, utf8: bytes, late: Callable[[], bool] | None
) -> tuple[str | bytes, bytes | None, Cut]:
    """limited's answer, the limits checked on ``utf8`` (the text's UTF-8) rather than on
    the text: the same cuts, each at a "<" or an attribute's end, and a page of more than
    Latin-1 is a quarter cheaper to scan as bytes than as its two or four bytes a
    character (counting "<", finding scripts). A cut page's text is its cut bytes decoded."""
    from common.parse_limits import limit

    page, cut = limit(utf8, len(text), late)
    if page is utf8:
        return text, utf8, cut
    try:
        return page.decode("utf-8"), page, cut
    except UnicodeDecodeError:  # not expected (every cut is at ASCII): the careful path
        return page, None, cut
