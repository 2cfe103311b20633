"""The one policy for text that leaves wf and ws: page text, titles, link lists, search
results, notes, marker arguments and echoed file names all pass through here.

What goes, and why: a page (or a search engine, or a file name) is written by anyone, and
its text reaches a terminal, a log or an agent. Characters that a reader cannot see can
carry commands (escape sequences), hide instructions (Unicode tag characters), reorder
what is shown (bidi controls) or split a word so that a search misses it (zero-width and
soft hyphens). So:

- C0 controls (but tab and newline in multi-line text), DEL and C1 controls are removed;
  CR, CRLF, U+2028 and U+2029 end a line (in one-line fields every line end and tab is a
  space, and runs of spaces are one).
- Bidi controls (U+061C, U+200E/200F, U+202A-202E, U+2066-2069), tag characters
  (U+E0000-E007F), zero-width and other invisible format characters (U+200B, U+2060-2065,
  U+206A-206F, U+FEFF, U+180E, U+FFF9-FFFB, U+1BCA0-1BCA3, U+1D173-1D17A), the Hangul
  fillers that render as nothing (U+3164, U+FFA0) and the variation selectors of the
  supplement (U+E0100-E01EF, which can carry a byte each after any character) are removed.
- The soft hyphen U+00AD is removed: it is invisible except at a line break, which plain
  text never makes, and inside a word it makes --filter (and any grep) miss the word.
- ZWNJ and ZWJ (U+200C/200D) are kept when they stand alone between two non-ASCII
  letters, marks or symbols: Persian, the Indic scripts and emoji sequences need them
  there. Elsewhere (at an edge, next to ASCII, a space or punctuation, or in a run) no
  script needs them and they only hide bits, so they are removed.
- A lone surrogate (from a JSON escape such as \\ud800) cannot be written as UTF-8; it
  becomes U+FFFD.

Cost with the marker escaping (wf.pipeline.printable), best of 5 on a 10 MB page: 50 ms
for ASCII text, 0.34 s for mixed scripts with 480 000 joiners, 0.4-0.6 s for 10 million
characters where every other one is to remove or a joiner (a match each), 0.1-0.3 s for
runs of them (a match a run). Each step is a scan in C; a long text goes through them a
slice at a time, so that memory stays near one copy of the page, and a caller's deadline
(clean_text's ``late``) is asked between slices: past it, OutOfTime holds the text cleaned
so far.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from common.late import OutOfTime as _Late

# Removed wherever text goes out. Tab, LF and CR are handled by the callers' line rules.
_REMOVE = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    "\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufeff\ufff9-\ufffb\uffa0"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
# What a URL must not contain either (besides white space): ws drops such a result's URL.
INVISIBLE = _REMOVE + "\u200c\u200d"
_SURROGATES = "\ud800-\udfff"
# What the policy removes; line ends and surrogates are replaced before it runs.
_REMOVED = re.compile(f"[{_REMOVE}]")
_SURROGATE = re.compile(f"[{_SURROGATES}]")
# The removal takes a run in one match (possessive: no backtracking into it), so that a
# page made of characters to remove costs a scan, not a match per character (0.6 s on
# 10 MB of tag characters). A class first keeps re's fast scan between matches, which a
# leading repeat loses (half as slow again on a page with a few to remove).
_REMOVED_RUN = f"[{_REMOVE}][{_REMOVE}]*+"
# Where a slice may end: before a character that no step removes. This and the
# patterns below are compiled on first use (re's cache): a search's short fields need
# none of them, and compiling them all at import cost 0.4 ms of every run.
_KEPT = f"[^{_REMOVE}\u200c\u200d]"
_SLICE = 1 << 18
# What a step may change: a character to remove, a lone surrogate, a line end, a joiner.
_MAY_CHANGE = f"[{_REMOVE}{_SURROGATES}\r\u2028\u2029\u200c\u200d]"
# Past this many joiners in a slice, their runs go first (a match a run) before each one
# left is judged; up to it, the one pass is faster.
_FEW_JOINERS = 50_000
# A joiner is removed unless the characters on both sides are non-ASCII, not white space
# and not general punctuation (where the other invisible characters live). The lookbehind
# is written after the joiner so that the scan starts at a joiner, not at every position.
_CONTEXT = "[^\\x00-\\x7f\\s\u2000-\u206f]"
_STRAY_JOINER = f"[\u200c\u200d](?:(?<!{_CONTEXT}[\u200c\u200d])|(?!{_CONTEXT}))"
# Two joiners side by side are both stray (each has the other for a neighbour): among
# many, a run goes in one match before the joiners left alone are looked at one by one.
_JOINER_RUN = "[\u200c\u200d][\u200c\u200d]++"
_JOINER_PAIRS = ("\u200c\u200c", "\u200c\u200d", "\u200d\u200c", "\u200d\u200d")
# ASCII text needs only the C0 controls and DEL removed: str.translate has a fast path
# for ASCII tables.
_ASCII = dict.fromkeys([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_BLANKS = dict.fromkeys(map(ord, "\t\n\r"), " ")
# A line that starts like wf's marker lines ("[wf: ...]"), after any spaces, in any case.
_MARKER_LIKE = r"^([ \t]*)(\[[ \t]*wf[ \t]*:)"
NOTE_CHARS = 300


class OutOfTime(_Late):
    """The caller's deadline passed while the policy went over a long text: ``done`` is
    the policy's text of its first ``read`` characters (each slice goes through every
    step before the next is begun). A common.late.OutOfTime: a pass that cleans text
    lets it through as its own."""

    def __init__(self, done: str, read: int) -> None:
        super().__init__(f"out of time after {read} characters")
        self.done = done
        self.read = read


def _scrub(text: str, end: str, late: Callable[[], bool] | None = None) -> str:
    """The policy on non-ASCII text; ``end`` is what a line end becomes. A long text goes
    through it a slice at a time, each slice through every step (_scrub_slice), ``late()``
    asked between two (a pass over 10 MB where every other character is to go, a match
    each, takes 0.25-0.5 s); raises OutOfTime. Each slice ends before a character that no
    step removes, and that character is passed along (then cut off) so that the joiner
    rule sees both neighbours of every joiner: what no step removes, each step leaves one
    character (a line end becomes ``end``, a lone surrogate U+FFFD)."""
    if len(text) <= _SLICE:
        return _scrub_slice(text, end)
    first = _first_change(text, late)
    if first is None:
        return text  # most pages: one scan, and no copy (10 MB of ASCII and an emoji is 40 MB)
    # Up to the first character a step may change, every character is one no step removes.
    start = max(first - 1, 0)
    out = [text[:start]]
    kept = re.compile(_KEPT)
    n, changed = len(text), False
    while start < n:
        if start and late is not None and late():
            raise OutOfTime("".join(out), start)
        found = kept.search(text, start + _SLICE)
        stop = found.start() if found else n
        part = text[start : stop + 1]
        cleaned = _scrub_slice(part, end)
        changed = changed or cleaned is not part  # each step gives its text back unchanged
        del part  # before the next slice is copied: one slice's copy at a time
        out.append(cleaned[:-1] if stop < n else cleaned)
        start = stop
    return "".join(out) if changed else text  # joiners, all kept: no third copy


def _first_change(text: str, late: Callable[[], bool] | None) -> int | None:
    """Where the first character any step of the policy may change is, or None: searched a
    slice at a time, ``late()`` asked between two (a scan of 10 MB took 0.1 s); raises
    OutOfTime."""
    may_change = re.compile(_MAY_CHANGE)
    for pos in range(0, len(text), _SLICE):
        if pos and late is not None and late():
            raise OutOfTime(text[:pos], pos)
        found = may_change.search(text, pos, pos + _SLICE)
        if found is not None:
            return found.start()
    return None


def _scrub_slice(text: str, end: str) -> str:
    """The policy's steps on one slice. Every step is a scan in C (a regex sub with a
    string, str.replace): a callback per match would cost seconds on a 10 MB page made of
    characters to remove. Removal comes first, so that the copies after it are of the
    smaller text. A slice is cut short (_scrub) for memory too: sub keeps every piece
    between two matches as an object until it joins them, 120 MB for 10 MB of
    interleaved characters to remove."""
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    if _REMOVED.search(text):  # most pages: one scan, no copy
        text = re.sub(_REMOVED_RUN, "", text)
    for char in "\r\u2028\u2029":
        if char in text:
            text = text.replace(char, end)
    joiners = text.count("\u200c") + text.count("\u200d")
    if joiners > _FEW_JOINERS and any(pair in text for pair in _JOINER_PAIRS):
        text = re.sub(_JOINER_RUN, "", text)
        joiners = text.count("\u200c") + text.count("\u200d")
    if joiners:
        text = re.sub(_STRAY_JOINER, "", text)
    return text


def clean_text(text: str, late: Callable[[], bool] | None = None) -> str:
    """Multi-line text under the policy: tab and newline kept, CR/CRLF/U+2028/U+2029 become
    newline, every other control and invisible character removed (see the module's text).
    ``late()``, whether the caller's deadline has passed, is asked between the slices of
    each pass over a long non-ASCII text; raises OutOfTime."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if text.isascii():
            text = text.replace("\r", "\n")
    if text.isascii():
        return text.translate(_ASCII)
    return _scrub(text, "\n", late)


def inline(text: str | None) -> str:
    """Text for one line that must keep its spacing (a marker quoting a file name): the
    policy, with each line end and tab a space."""
    if not text:
        return ""
    if not text.isascii():
        text = _scrub(text, " ")
    elif not text.isprintable():
        text = text.translate(_ASCII)
    if not text.isprintable():
        text = text.translate(_BLANKS)
    return text


def one_line(text: str | None) -> str:
    """A one-line field (title, link text, URL, snippet, note) under the policy: every line
    end and run of white space is one space, no space at either end."""
    return " ".join(inline(text).split())


def escape_markers(text: str) -> str:
    """Make page lines that begin like wf's marker lines unmistakable: a backslash goes
    before the bracket (``[wf: x]`` -> ``\\[wf: x]``), so that every line of wf's text output
    that starts with ``[wf: `` is wf's own."""
    if "wf" not in text and "WF" not in text and "Wf" not in text and "wF" not in text:
        return text
    return re.sub(_MARKER_LIKE, r"\1\\\2", text, flags=re.MULTILINE | re.IGNORECASE)


def cap(text: str, limit: int = NOTE_CHARS) -> str:
    """At most ``limit`` characters, the cut marked with ``...``."""
    return text if len(text) <= limit else text[: max(limit - 3, 0)].rstrip() + "..."
