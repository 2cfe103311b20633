"""A page nested deeper than libxml2 accepts (MAX_DEPTH), which parse.parse sees from the
parser's error log: its tags past that depth dropped, all of its text kept (flatten;
moved from parse.py, near the 500-line limit)."""

from __future__ import annotations

import re
from collections.abc import Callable

# libxml2 stops parsing (and drops the rest of the page) past this nesting depth.
MAX_DEPTH = 512
# A tag: its name, then the rest up to the first ">" (a "/" just before it closes the
# tag). Possessive, and searched only up to the page's last ">": the name and the rest
# were two repeats over the same characters, and a "<" with no ">" after it tried every
# split of what follows between them (800 "<a" after a deep page took 13 s).
_TAG = re.compile(rb"<(/?)([a-zA-Z][^\s/>]*+)([^>]*+)>")
# Tags whose end tag is optional or absent: they do not deepen a browser's tree for long.
_NO_DEPTH = frozenset(
    b"p li dt dd tr td th option optgroup thead tbody tfoot colgroup rb rt rp area base br "
    b"col embed hr img input link meta param source track html head body".split()
)
_ASKED = 1024  # tags read between two asks of the deadline
_STRETCH = 262_144  # bytes read between two asks at most


def flatten(data: bytes, late: Callable[[], bool] | None = None) -> bytes:
    """Drop the tags nested deeper than MAX_DEPTH, keeping all text.

    Only used when libxml2 gave up on the nesting; a rough tag count is enough, since
    losing the structure of a pathological page costs far less than losing its text.
    ``late()`` (whether the page's deadline has passed) is asked every _ASKED tags or
    _STRETCH bytes (a tag at a time, 150 000 tags of long attributes took 0.4 s): once it
    has, the rest of the page loses all its tags in one pass, and keeps its text.
    """
    out: list[bytes] = []
    depth = 0
    pos = asked = count = 0
    end = data.rfind(b">") + 1  # no tag ends past the last ">"
    for m in _TAG.finditer(data, 0, end):
        if late is not None:
            count += 1
            if not count % _ASKED or m.end() - asked > _STRETCH:
                asked = m.end()
                if late():
                    out.append(_TAG.sub(b" ", data[pos:end]))
                    pos = end
                    break
        closing, name, rest = m.groups()
        name = name.lower()
        if name == b"wbr":
            # libxml2 nests what follows a <wbr> in it (see parse._gather): a word broken at
            # every letter is a chain as deep as it is long. Gone, the word runs on.
            out.append(data[pos : m.start()])
            pos = m.end()
            continue
        if name in _NO_DEPTH or rest.endswith(b"/"):
            continue
        if closing:
            depth -= 1
            drop = depth >= MAX_DEPTH
        else:
            drop = depth >= MAX_DEPTH
            depth += 1
        if drop:
            out.append(data[pos : m.start()])
            out.append(b" ")
            pos = m.end()
        depth = max(depth, 0)
    out.append(data[pos:])
    return b"".join(out)
