"""The bounds on a page's tags, counted before libxml2 sees it (common/parse_limits.py
applies them first, then its bounds on attributes): "<" and start tags counted by chunks
in C, on str and bytes alike (about 30 ms for 10 MB at most).
"""

from __future__ import annotations

from typing import AnyStr, overload

# 1 000 000 tiny <p> (8 MB) peaked at 376 MB and ended 2 s past their deadline; cut at
# this many "<", they stay within 100 MB and their deadline. The largest of the 181
# extract-bench pages has 3 229 "<".
MAX_TAGS = 150_000
# The bound on elements: a start tag (a "<" not followed by "/") makes at most one. With
# its text node and the extractor's record of it, an element costs up to a kilobyte, and
# attributes up to 250 bytes more each: 300 000 bare "<li>a", 150 000 elements within
# MAX_TAGS, peaked 145 MB over an idle wf, a balanced page of 150 000 tags with styled
# items 97 MB. Cut here, the worst of such shapes stays under 85 MB. A balanced page meets
# this bound at about 100 000 "<"; the largest extract-bench page has 9 909 start tags.
MAX_START_TAGS = 50_000
_CHUNK = 8192


def cap_tags(text: AnyStr) -> tuple[AnyStr, int]:
    """``text`` cut before its MAX_TAGS-th "<" (and the number of "<" it had), or
    ``(text, 0)`` when it has no more than that."""
    if len(text) <= MAX_TAGS:
        return text, 0  # cannot hold more "<" than characters (most pages: no count)
    lt = angles(type(text))[0]
    if not _more_than(text, lt, MAX_TAGS):
        return text, 0
    total = text.count(lt)
    seen = pos = 0
    while True:  # counted chunk by chunk in C; the loop runs a thousand times on 8 MB
        end = pos + _CHUNK
        found = text.count(lt, pos, end)
        if seen + found >= MAX_TAGS:
            break
        seen += found
        pos = end
    for _ in range(MAX_TAGS - seen):  # the last few thousand, one by one
        pos = text.find(lt, pos) + 1
    return text[: pos - 1], total


def cap_elements(text: AnyStr) -> tuple[AnyStr, int, int]:
    """``text`` within MAX_TAGS and MAX_START_TAGS, the number of "<" it had when it was
    cut (else 0), and the number of its start tags when MAX_START_TAGS cut it (else 0)."""
    lt = angles(type(text))[0]
    if len(text) <= MAX_START_TAGS or not _more_than(text, lt, MAX_START_TAGS):
        return text, 0, 0  # too few "<" for either bound (MAX_TAGS is the larger)
    cut, total = cap_tags(text)
    ends = lt + (b"/" if isinstance(lt, bytes) else "/")
    starts = cut.count(lt) - cut.count(ends)
    if starts <= MAX_START_TAGS:
        return cut, total, 0
    # The MAX_START_TAGS-th start tag: counted by chunks in C (a chunk never ends between
    # the "<" and the "/" of an end tag), then one "<" at a time.
    seen = pos = 0
    while True:
        end = pos + _CHUNK
        if cut[end - 1 : end] == lt:
            end += 1
        found = cut.count(lt, pos, end) - cut.count(ends, pos, end)
        if seen + found >= MAX_START_TAGS:
            break
        seen += found
        pos = end
    while True:
        pos = cut.find(lt, pos)
        if cut[pos + 1 : pos + 2] not in (b"/", "/"):
            seen += 1
            if seen == MAX_START_TAGS:
                break
        pos += 1
    return text[:pos], total or text.count(lt), text.count(lt) - text.count(ends)


def _more_than(text: AnyStr, lt: AnyStr, bound: int) -> bool:
    """Whether ``text`` holds more than ``bound`` of ``lt``, counted only while the rest
    could still take it over, the rest holding no more "<" than characters: a page of
    200 000 characters is read to about 50 000 for MAX_TAGS."""
    size = len(text)
    seen = pos = 0
    while seen + size - pos > bound:
        end = pos + max(seen + size - pos - bound, _CHUNK)
        seen += text.count(lt, pos, end)
        pos = end
        if seen > bound:
            return True
    return False


@overload
def angles(kind: type[str]) -> tuple[str, str]: ...
@overload
def angles(kind: type[bytes]) -> tuple[bytes, bytes]: ...
def angles(kind: type[str] | type[bytes]) -> tuple[str, str] | tuple[bytes, bytes]:
    """ "<" and ">" in the page's own type."""
    return (b"<", b">") if kind is bytes else ("<", ">")
