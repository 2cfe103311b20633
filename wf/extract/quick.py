"""The text of a page out of time (wf.extract.core's fallback): its text nodes in document
order, one line each, runs of HTML white space one space. This runs past the deadline, so
it is built from whole-text passes in C (str.replace, str.split) whose cost does not grow
with the number of white space runs: a regex substitution, at a match per run, took 0.47 s
on a 10 MB node of "a" and a line end, and 0.14 s on 10 MB of prose it left unchanged."""

from __future__ import annotations

from typing import Any

# HTML's white space but the space itself, each made a space before the runs are collapsed.
_OTHER_SPACES = "\t\n\r\f"
# Marks where a text node ends: it is never in the tree (libxml2 makes a page's NUL
# U+FFFD, and the careful parse removes it), whatever other controls the page holds.
_NODE_END = "\x00"


def quick_text(body: Any) -> str:
    """The text of ``body`` in document order, one line per text node, its white space
    runs made one space: what a page out of time gives, at next to no cost."""
    text = _NODE_END.join(body.itertext())
    for char in _OTHER_SPACES:
        if char in text:
            text = text.replace(char, " ")
    # Each pass halves every run of spaces, and a pass is a scan of what is left: a run of
    # n spaces costs log2(n) passes, each over the text with the runs shortened so far.
    while "  " in text:
        text = text.replace("  ", " ")
    # The pieces between two node ends, each without the one space at either end, are the
    # lines: one object per node, which the parse limits bound.
    lines = (piece.strip(" ") for piece in text.split(_NODE_END))
    return "\n".join(line for line in lines if line).strip()
