"""The last resort when the extractor fails on a page: its text with the tags stripped,
and a note that says so (never silently: a bug, or a kind module that does not import,
would pass for a page read badly)."""

from __future__ import annotations

import html as html_lib
import re

from wf.extract.result import Extracted

_TAGS = re.compile(r"<[^>]*>?")
_DROP = re.compile(r"<(script|style|template)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_FAILURE_CHARS = 200  # of the exception's type and message in the note


def failed(html: str | bytes, exc: Exception) -> Extracted:
    """What extract gives when it raised `exc` on `html`: the crude text and the note."""
    from common.text import cap

    what = cap(f"{type(exc).__name__}: {exc}", _FAILURE_CHARS)
    note = f"extraction failed ({what}); the page's text with its tags stripped instead (this is a bug)"
    return Extracted(title=None, text=crude_text(html), links=[], notes=[note])


def crude_text(html: str | bytes) -> str:
    """The last resort when the parser cannot help: tags stripped, entities decoded."""
    try:
        if isinstance(html, bytes | bytearray | memoryview):
            text = bytes(html).decode("utf-8", "replace")
        else:
            text = str(html)
        text = _TAGS.sub(" ", _DROP.sub(" ", text))
        from common.text import clean_text

        text = clean_text(html_lib.unescape(text))
        return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
    except Exception:  # noqa: BLE001
        return ""
