"""A PDF's page texts made readable: line ends, ligatures, hyphenation, running headers
and footers. Pure functions over the strings PDFium gave (no PDFium here), so they are
tested alone.

PDFium returns each page's text in reading order with CRLF line ends. A hyphen at a line
end it joins to the next line itself, leaving U+0002 (U+FFFE from its older calls) where
the hyphen was: ``exam\x02ple``. Those are resolved here: the hyphen goes when the next
character is a lower-case letter (the word continues: ``example``) and comes back when
it is not (``Schwarz-Weiß``, ``hyphen-2``). A break PDFium left as a line break
(``exam-`` then ``ple`` on the next line) is joined by the same rule.
"""

from __future__ import annotations

import re
from collections import Counter

# Presentation forms (U+FB00..U+FB06): the letters they stand for, so that a search for
# "find" finds the ``ﬁnd`` a font drew with a ligature glyph.
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",  # long s + t
    "\ufb06": "st",
}
# str.translate with a table of strings walks every character in Python's slow path
# (135 ms on the 150 000 characters of a 117-page thesis); a search finds the rare page
# that has one.
_LIGATURE = re.compile("[\ufb00-\ufb06]")

# A line that ends in a letter and a hyphen (ASCII, soft hyphen, U+2010), and a next line
# that starts with a lower-case letter: one word, broken by the typesetter.
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010]\n(?=[^\W\d_])")
# PDFium's mark for a line-end hyphen whose lines it joined already.
_JOINED = re.compile(r"[\x02\ufffe]")

# The page separator wf writes, and a page line that would look like one.
SEPARATOR = re.compile(r"--- page \d+ ---")
_LOOKALIKE = re.compile(r"^(\\*--- page \d+ ---)$", re.M)

# Lines looked at for a running header (top) or footer (bottom) on each page.
ZONE_LINES = 2
# A line counts as running when it is in the same zone on at least this share of the
# pages (or of the odd or the even pages: books alternate), and on at least MIN_PAGES.
RUNNING_SHARE = 0.5
MIN_PAGES = 3
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")


def separator(number: int) -> str:
    return f"--- page {number} ---"


def is_separator(line: str) -> bool:
    """Is this line wf's page separator? (A page line that looks like one was escaped.)"""
    return line.startswith("--- page ") and SEPARATOR.fullmatch(line) is not None


def page_lines(text: str) -> str:
    """One page's text from PDFium: LF line ends, ligatures expanded, broken words joined,
    trailing spaces gone, and lines that would pass for a separator escaped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _LIGATURE.search(text):
        text = _LIGATURE.sub(lambda m: LIGATURES[m.group()], text)
    if "\x02" in text or "\ufffe" in text:
        text = _JOINED.sub(lambda m: "" if _continues(text, m.end()) else "-", text)
    if "-\n" in text or "\u00ad\n" in text or "\u2010\n" in text:
        text = _HYPHEN_BREAK.sub(lambda m: "" if _continues(text, m.end()) else m.group(0), text)
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    return _LOOKALIKE.sub(r"\\\1", text) if "--- page " in text else text


def _continues(text: str, at: int) -> bool:
    return at < len(text) and text[at].islower()


def _key(line: str) -> str:
    """Lines that differ only in their numbers (a page number, a date) are one line."""
    return _SPACES.sub(" ", _DIGITS.sub("#", line)).strip().casefold()


def _zones(lines: list[str]) -> tuple[list[int], list[int]]:
    """The indices of the lines that may be a header (top) or a footer (bottom). A page
    keeps at least one line between them: a line alone on its page is body text."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    size = min(ZONE_LINES, (len(filled) - 1) // 2)
    if size <= 0:
        return [], []
    return filled[:size], filled[-size:]


def drop_running(pages: list[str]) -> tuple[list[str], int]:
    """Remove the header and footer lines that repeat on most pages. Returns the pages and
    how many lines went. Documents under MIN_PAGES pages are left alone."""
    if len(pages) < MIN_PAGES:
        return pages, 0
    split = [page.split("\n") for page in pages]
    zones = [_zones(lines) for lines in split]
    running: set[tuple[str, str]] = set()
    for parity in (None, 0, 1):
        chosen = [i for i in range(len(split)) if parity is None or i % 2 == parity]
        need = max(MIN_PAGES, int(len(chosen) * RUNNING_SHARE) + 1)
        if len(chosen) < need:
            continue
        counts: Counter[tuple[str, str]] = Counter()
        for i in chosen:
            top, bottom = zones[i]
            seen = {("top", _key(split[i][j])) for j in top}
            seen |= {("bottom", _key(split[i][j])) for j in bottom}
            counts.update(seen)
        running |= {key for key, n in counts.items() if n >= need}
    if not running:
        return pages, 0
    dropped = 0
    out: list[str] = []
    for lines, (top, bottom) in zip(split, zones, strict=True):
        gone = {j for j in top if ("top", _key(lines[j])) in running}
        gone |= {j for j in bottom if ("bottom", _key(lines[j])) in running}
        dropped += len(gone)
        out.append("\n".join(line for j, line in enumerate(lines) if j not in gone).strip("\n"))
    return out, dropped


def join_pages(numbered: list[tuple[int, str]]) -> str:
    """The document's text: each page after its separator line, a blank line between."""
    parts: list[str] = []
    for number, text in numbered:
        parts.append(separator(number) + ("\n" + text if text else ""))
    return "\n\n".join(parts)
