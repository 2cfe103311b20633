"""HTML -> clean text: the main content (or the whole page) as light Markdown.

Kept light: lxml is imported only when a page is extracted, so `wf --help` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The result types live apart so that core.py, which builds them, need not import this
# package (which imports core lazily): no circle.
from wf.extract.result import Extracted, Link

if TYPE_CHECKING:
    from wf.extract.select import Selection


def extract(
    html: str | bytes,
    *,
    url: str | None = None,
    full: bool = False,
    link_markers: bool = False,
    deadline: float | None = None,
    metadata: bool = False,
    utf8: bytes | None = None,
    selection: Selection | None = None,
    images: bool = False,
) -> Extracted:
    """Extract a page's text; never raises for any str or bytes input.

    `deadline` (a time.monotonic() value) bounds the work on a huge page: past it, the
    page's text comes back in document order without structure or main-content choice.
    With ``metadata=True`` the result's ``metadata`` holds wf.extract.metadata's keys.
    `utf8`, for a str the caller decoded, is what wf.extract.parse.utf8_source found for
    it (bytes that are exactly its UTF-8, or None): the parser takes them as they are.
    ``selection`` (--select, --remove) applies CSS selectors before extraction; when its
    --select matches nothing, NoMatch (exit 65) is raised: the one error extract raises.
    After this thread's first page the work runs in its parsing helper
    (common.parse_thread), which keeps the names libxml2 interns from growing without
    bound over many pages.
    """
    from common.parse_thread import parsing
    from wf.extract.core import run

    return parsing(
        lambda: run(
            html,
            url=url,
            full=full,
            markers=link_markers,
            want_links=True,
            deadline=deadline,
            want_metadata=metadata,
            utf8=utf8,
            selection=selection,
            want_images=images,
        ),
        len(html),
    )


def extract_text(
    html: str | bytes, url: str | None = None, full: bool = False, utf8: bytes | None = None
) -> str:
    """The readable text of an HTML page: its main content, or with full=True all of it
    (`utf8` as for extract)."""
    from common.parse_thread import parsing
    from wf.extract.core import run

    return parsing(
        lambda: run(html, url=url, full=full, markers=False, want_links=False, utf8=utf8).text,
        len(html),
    )


__all__ = ["Extracted", "Link", "extract", "extract_text"]
