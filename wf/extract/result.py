"""What the extractor returns: the text, its links, notes, metadata, kind and images."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wf.extract.images import Image


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
