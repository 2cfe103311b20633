"""HTML -> clean text: the main content (or the whole page) as light Markdown.

Kept light: lxml is imported only when a page is extracted, so `wf --help` stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wf.extract.images import Image
    from wf.extract.select import Selection


@dataclass
class Link:
    text: str
    url: str


@dataclass
class Extracted:
    title: str | None
    text: str  # the text wf prints (before line filters)
    # Every link in `text`, in order of first appearance, one per target; with
    # link_markers=True the marker [n] in `text` refers to links[n-1].
    links: list[Link] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what a reader should know, one line each
    # wf.extract.metadata's keys when asked for (want_metadata=True), each str or None;
    # None when not asked for or when the page could not be parsed.
    metadata: dict[str, str | None] | None = None
    # The page's kind whose rule chose the text (wf.extract.tuning.KINDS); None for --full.
    kind: str | None = None
    # With images=True: the images of `text` (wf.extract.images), in order; a marker
    # ![alt](n) in `text` is images[n-1], or links[n-1] with link_markers=True.
    images: list[Image] | None = None


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
    """
    from wf.extract.core import run

    return run(
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
    )


def extract_text(
    html: str | bytes, url: str | None = None, full: bool = False, utf8: bytes | None = None
) -> str:
    """The readable text of an HTML page: its main content, or with full=True all of it
    (`utf8` as for extract)."""
    from wf.extract.core import run

    return run(html, url=url, full=full, markers=False, want_links=False, utf8=utf8).text


__all__ = ["Extracted", "Link", "extract", "extract_text"]
