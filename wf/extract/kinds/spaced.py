"""The text of a post's date box as the page shows it, read by byline.py."""

from __future__ import annotations

from typing import Any


def spaced(el: Any) -> str:
    """A date box's text, a space between pieces of its elements that would glue a word
    or number to the next ("Mar 1, 2026" beside "10 a.m." in a box of its own); "12" and
    ":30" stay one."""
    out = ""
    for piece in el.itertext():
        if out and piece and out[-1].isalnum() and piece[0].isalnum():
            out += " "
        out += piece
    return " ".join(out.split())
