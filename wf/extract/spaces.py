"""White space as a browser shows it: runs of HTML spaces collapsed to one, <br> markers
made line breaks, huge text nodes collapsed a megabyte at a time, and a row of short
spans that a page's style lays out apart written apart."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from typing import Any

_WS = re.compile(r"[ \t\n\r\f]+")
# What str.split() takes for white space besides HTML's spaces.
_OTHER_SPACE = re.compile(
    "[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
BR = "\x00"  # a <br>: never in the tree (libxml2 makes a page's NUL U+FFFD), so it is free
SPACES = " \t\n\r\f"  # HTML's spaces
CHUNK = 1 << 20  # characters a regex substitution works on at once
# The C0 controls lxml will not set in a text or a tail (tab, LF and CR aside), to nothing.
_CONTROLS = dict.fromkeys((*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)))


def settable(text: str | None) -> str | None:
    """`text` without the control characters lxml refuses to set as an element's text or
    tail: a page's character reference (`&#3;`) puts one in the tree, which reads it, and
    a text moved or made from the page's own raised (the extraction failed)."""
    if not text or text.isprintable():
        return text
    return text.translate(_CONTROLS)


def collapse(raw: str) -> str:
    """Inline whitespace as a browser shows it; <br> markers become line breaks."""
    if raw.isascii() and len(raw) < 65536:
        # str.split() is faster than the regex, and on ASCII it splits on exactly the
        # HTML spaces (control characters are gone by now); on a long run its list of
        # words would cost far more memory than the text.
        if BR not in raw:
            return " ".join(raw.split())
        lines = [" ".join(line.split()) for line in raw.split(BR)]
    else:
        if len(raw) > CHUNK:
            text = _collapse_long(raw)  # soft hyphens go with the text policy there
        else:
            if "\xad" in raw:  # soft hyphens: invisible unless a line breaks there
                raw = raw.replace("\xad", "")
            if len(raw) < 65536 and BR not in raw and not _OTHER_SPACE.search(raw):
                # White space here is HTML's only, which is all str.split() splits on:
                # the same text as below, at half the cost (the regex builds pieces).
                return " ".join(raw.split())
            # Only HTML's own spaces collapse; a no-break space inside a line stays as
            # written (at the edges of a line it is only padding).
            text = _WS.sub(" ", raw)
        if BR not in text:
            return text.strip()
        lines = [line.strip() for line in text.split(BR)]
    return _join_lines(lines)


def _join_lines(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def collapse_run(parts: list[str], late: Callable[[], bool] | None = None) -> str:
    """collapse("".join(parts)), emptying ``parts``. A run over CHUNK characters is let go
    of before its collapsed text is joined, so that a huge text node is held once rather
    than twice (10 MB of ASCII and one emoji is 40 MB a copy); the caller keeps no other
    reference to it. ``late()`` is asked as a run over CHUNK characters is collapsed
    (_long_pieces)."""
    raw = "".join(parts)
    parts.clear()
    if raw.isspace():  # the indentation between two blocks, most often
        return ""
    if len(raw) <= CHUNK:
        return collapse(raw)
    pieces = _long_pieces(raw, late)
    del raw
    if any(BR in piece for piece in pieces):
        return _join_lines([line.strip() for line in "".join(pieces).split(BR)])
    # text.strip(), piece by piece: a copy of the whole text would cost as much again.
    while pieces and not pieces[0].lstrip():
        del pieces[0]
    while pieces and not pieces[-1].rstrip():
        pieces.pop()
    if pieces:
        pieces[0] = pieces[0].lstrip()
        pieces[-1] = pieces[-1].rstrip()
    return "".join(pieces)


def _collapse_long(raw: str) -> str:
    return "".join(_long_pieces(raw))


def _long_pieces(raw: str, late: Callable[[], bool] | None = None) -> list[str]:
    """_WS.sub(" ", raw) a megabyte at a time: on one huge text node the substitution's
    list of pieces would cost ten times the text. Each chunk ends after a whole run of
    spaces, so no run is split in two. Each chunk also goes through the output's text
    policy here rather than at the end: a few invisible characters above U+FFFF make
    Python store every character of a string in four bytes, and the copies that follow
    would hold the whole node so (10 MB of them peaked 40 MB higher). ``late()`` is
    asked between chunks and inside the policy's passes (0.25-0.5 s over 10 MB where every
    other character is to go): raises common.late.OutOfTime."""
    from common import text as policy
    from common.late import OutOfTime

    out: list[str] = []
    start, size = 0, len(raw)
    while start < size:
        if start and late is not None and late():
            raise OutOfTime
        end = start + CHUNK
        if end < size:
            run = _WS.search(raw, end)
            end = run.end() if run else size
        chunk = raw[start:end]
        if chunk.isascii():  # split() is several times faster than the regex
            words = " ".join(chunk.split())
            if chunk[:1].isspace():
                words = " " + words
            if chunk[-1:].isspace() and words != " ":
                words += " "
            out.append(words)
        else:
            # The policy removes controls, BR among them; a tab it keeps, and the sub
            # has just turned every tab into a space, so a tab stands in for each <br>.
            text = _WS.sub(" ", chunk).replace(BR, "\t")
            out.append(policy.clean_text(text, late).replace("\t", BR))
        start = end
    return out


SHOWN_APART_MAX = 8  # spans in a box that lays them out as items of their own
SHOWN_APART_TEXT = 24  # characters in each: a year, a duration, a price, a rating
# Inline elements whose text, straight after a sibling's, may be shown apart from it.
APART_TAGS = frozenset(("span", "a", "b", "strong", "em", "i", "small", "time", "label"))


def apart(el: Any, text: str, before: str) -> bool:
    """Whether an inline element written straight after a sibling is shown apart from
    it. A box (not a paragraph) of a few short spans and nothing else is a row of facts
    laid out by the page's style (a film's year, length and rating; a price and a
    saving), which a reader sees apart; so are two siblings outside any paragraph whose
    words meet as no word does (boundary()): a card's brand and its product's name
    ("REI Co-op" "Nalgene Bottle"), a price and a label ("$108" "MSRP"). A word
    processor's runs split words anywhere inside a paragraph, so those join as the
    markup says."""
    if not before[-1:].isalnum() or not text[0].isalnum():
        return False
    prev = el.getprevious()
    if prev is None or prev.tail:
        return False
    box = el.getparent()
    if box is None or box.tag == "p" or box.text:
        return False
    if el.tag == "span" and prev.tag == "span":
        if el.get("role") == "tab" and prev.get("role") == "tab":
            return True  # the labels of a row of tabs (a code sample's languages) are boxes
        # Not len(box): lxml counts every child, once per span of a long row.
        if _at_most(box, SHOWN_APART_MAX) and all(
            c.tag == "span" and not c.tail and len(c.text or "") <= SHOWN_APART_TEXT and not len(c)
            for c in box
        ):
            return True
    return (
        prev.tag in APART_TAGS
        and boundary(before[-1], text[0])
        and next(box.iterancestors("p"), None) is None
    )


def _at_most(box: Any, count: int) -> bool:
    """Whether ``box`` has ``count`` children or fewer, reading at most count + 1."""
    return next(islice(box.iterchildren(), count, None), None) is None


def boundary(last: str, first: str) -> bool:
    """Whether two characters meet as the end of one word and the start of another: a
    lower-case letter or a digit before a capital ("opN", "8M"), a letter before a digit
    ("PRO2")."""
    if first.isupper():
        return last.islower() or last.isdigit()
    return first.isdigit() and last.isalpha()
