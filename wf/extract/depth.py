"""A page nested deeper than libxml2 accepts (MAX_DEPTH), which parse.parse sees from the
parser's error log: its tags past that depth dropped, all of its text kept (flatten;
moved from parse.py, near the 500-line limit)."""

from __future__ import annotations

import re

# libxml2 stops parsing (and drops the rest of the page) past this nesting depth.
MAX_DEPTH = 512
_TAG = re.compile(rb"<(/?)([a-zA-Z][^\s/>]*)[^>]*?(/?)>")
# Tags whose end tag is optional or absent: they do not deepen a browser's tree for long.
_NO_DEPTH = frozenset(
    b"p li dt dd tr td th option optgroup thead tbody tfoot colgroup rb rt rp area base br "
    b"col embed hr img input link meta param source track html head body".split()
)


def flatten(data: bytes) -> bytes:
    """Drop the tags nested deeper than MAX_DEPTH, keeping all text.

    Only used when libxml2 gave up on the nesting; a rough tag count is enough, since
    losing the structure of a pathological page costs far less than losing its text.
    """
    out: list[bytes] = []
    depth = 0
    pos = 0
    for m in _TAG.finditer(data):
        closing, name, selfclose = m.group(1), m.group(2).lower(), m.group(3)
        if name == b"wbr":
            # libxml2 nests what follows a <wbr> in it (see parse._gather): a word broken at
            # every letter is a chain as deep as it is long. Gone, the word runs on.
            out.append(data[pos : m.start()])
            pos = m.end()
            continue
        if name in _NO_DEPTH or selfclose:
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
