"""A mailing list archive's message (pipermail's, MHonArc's): its body is the mail's text
in a <pre>, which the writer would print as a code fence. A message is prose: when the
<pre> follows the message's head (the sender and the date the page shows) and reads as
prose, it becomes paragraphs, each of its lines a line, quoted lines ("> ") a quote, headed
by the line of sender and date a thread's post starts with."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from wf.extract.kinds import posts_tuning as pt
from wf.extract.tuning import BYLINE_MAX

_ADDRESS = re.compile(r"\s*(?:<[^>]*>|\([^)]*\))\s*")
_WORD = re.compile(r"[^\W\d_]{2,}")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
FIELD_TEXT_MAX = 160  # characters of a head's field read at most
LIST_ITEMS = 8  # items of a head's list read at most


def _text(el: Any, most: int = FIELD_TEXT_MAX) -> str:
    pieces, size = [], 0
    for piece in el.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > most:
            break
    return " ".join("".join(pieces).split())[:most]


def _fields(box: Any) -> tuple[str, str] | None:
    """(sender, date) of a list of the head's fields (MHonArc's: "From: Ann <a@b>",
    "Date: ..."), the sender's address left out; None when it shows no From."""
    found: dict[str, str] = {}
    for item in islice(box, LIST_ITEMS):  # its items, not every element under it
        if item.tag != "li":
            continue
        label, colon, value = _text(item).partition(":")
        field = pt.MAIL_FIELDS.get(label.strip().lower())
        if colon and field and field not in found:
            found[field] = value.strip()
    sender = _ADDRESS.sub(" ", found.get("from", "")).strip().strip('"')
    return (sender or found.get("from", ""), found.get("date", "")) if "from" in found else None


def _sender(before: list[Any]) -> tuple[str, str] | None:
    """(sender, date) of a head drawn as a sender's mailto link (pipermail's: the name in
    bold before it, the date in italics after it, a year in it: "Wed Apr 1 09:00:00 UTC
    2026", a form the date reader does not take); None when there is none. `before`: the
    boxes before the message, nearest first."""
    for n, el in enumerate(before):
        link = el if el.tag == "a" else None
        if link is None or not (link.get("href") or "").lower().startswith("mailto:"):
            continue
        name = next((_text(b) for b in before[n + 1 : n + 2] if b.tag in ("b", "strong")), "")
        shown = (_text(d) for d in reversed(before[:n]) if d.tag in ("i", "em"))
        date = next((d for d in shown if _YEAR.search(d) and len(d) <= BYLINE_MAX), "")
        return name or _text(link), date
    return None


def _head(pre: Any) -> tuple[str, str] | None:
    """(sender, date) the page shows before the message's <pre>, among its boxes before it
    (tuning.MAIL_HEAD_SIBLINGS); None when it shows no head."""
    before = [
        el
        for el in islice(pre.itersiblings(preceding=True), pt.MAIL_HEAD_SIBLINGS)
        if isinstance(el.tag, str)
    ]
    for el in before:
        if el.tag in ("ul", "ol"):
            found = _fields(el)
            if found is not None:
                return found
    return _sender(before)


def _prose(lines: list[str]) -> bool:
    """Whether a mail's lines read as prose, not a program's text or a log."""
    said = [line for line in lines if line.strip() and not line.lstrip().startswith(">")]
    if not said:
        return False
    prose = sum(
        len(_WORD.findall(line)) >= pt.MAIL_LINE_WORDS
        and sum(line.count(c) for c in pt.MAIL_SIGNS) <= pt.MAIL_CODE_SIGNS
        for line in said
    )
    return prose * 2 >= len(said)


def _paragraph(lines: list[str]) -> Any:
    from lxml import etree

    p = etree.Element("p")
    p.text = lines[0]
    for line in lines[1:]:
        br = etree.SubElement(p, "br")
        br.tail = line
    return p


def _message(lines: list[str], head: tuple[str, str]) -> Any:
    """The message as a box of paragraphs, its runs of quoted lines a quote, headed by its
    line of sender and date."""
    from lxml import etree

    box = etree.Element("div")
    line = etree.SubElement(box, "p")
    line.text = ", ".join(part for part in head if part)
    quote: Any = None
    run: list[str] = []
    for raw in lines + [""]:
        quoted = raw.lstrip().startswith(">")
        text = raw.lstrip().lstrip(">").strip() if quoted else raw.rstrip()
        if run and (not text or quoted != (quote is not None)):
            (quote if quote is not None else box).append(_paragraph(run))
            run = []
        if quoted and quote is None:
            quote = etree.SubElement(box, "blockquote")
        elif not quoted and quote is not None and raw.strip():
            quote = None
        if text:
            run.append(text)
    return box


def unpre(body: Any) -> int:
    """Each message of a mailing list archive's page, among its first <pre>s
    (tuning.MAIL_PRES), written as prose (the module's doc); how many were."""
    done = 0
    for pre in list(islice(body.iter("pre"), pt.MAIL_PRES)):
        head = _head(pre)
        if head is None or pre.getparent() is None:
            continue
        lines = "".join(pre.itertext()).replace("\r\n", "\n").split("\n")
        if not _prose(lines):
            continue
        box = _message(lines, head)
        box.tail = pre.tail
        pre.getparent().replace(pre, box)
        done += 1
    return done


def bodies(posts: list[Any]) -> int:
    """In a thread's posts (thread.py), each already headed by its line: a <pre> that is
    the whole of its box (HyperKitty's message body, under the head the post's line was
    read from) and reads as prose, written as prose without a line of its own; how many
    were. A code block beside the post's words stays one. Each post is walked once, and
    the posts do not overlap."""
    done = 0
    for post in posts:
        for pre in list(islice(post.el.iter("pre"), pt.MAIL_PRES)):
            box = pre.getparent()
            if box is None or len(box) != 1 or (box.text or "").strip():
                continue
            lines = "".join(pre.itertext()).replace("\r\n", "\n").split("\n")
            if (pre.tail or "").strip() or not _prose(lines):
                continue
            message = _message(lines, ("", ""))
            message.remove(message[0])  # the post's line heads it already
            box.replace(pre, message)
            done += 1
    return done
