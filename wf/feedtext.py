"""A feed as wf prints it: rebuilt as one small HTML document (``# feed title``, then per
entry ``## title``, its date and link, its summary) and written by the page extractor with
the main-content choice off, so headings, lists, links and ``--links`` markers come out as
they do for pages. Each summary is parsed on its own first: a summary is any HTML, and
an unclosed element in one must not swallow the entries after it. wf/feed.py reads the
feed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from common import text as policy
from common.late import OutOfTime, late
from wf import feed as reader  # reader.MAX_ENTRIES read when used: a test lowers it
from wf.feed import Entry, Feed, link_url, newest_first, parse_xml, read_feed

# What the page extractor would drop anyway, dropped from a summary before its tree joins
# the others: these hold raw text when parsed again, which could run over the next entry.
_RAW_TEXT = ("plaintext", "xmp", "noframes", "noscript", "title")


@dataclass
class FeedText:
    """What wf prints for a feed, or ``feed`` None when the body held no feed after all."""

    feed: Feed | None
    text: str = ""
    title: str | None = None
    links: list[dict[str, str]] = field(default_factory=list)
    entries: list[dict[str, str | None]] = field(default_factory=list)
    metadata: dict[str, str | None] | None = None
    notes: list[str] = field(default_factory=list)


_ASKED = 1024  # elements of a summary made between two asks of the deadline (about 5 ms)


def _summary_element(
    entry: Entry,
    budget: list[int],
    notes: list[str],
    late: Callable[[], bool] | None = None,
) -> Any:
    """The entry's summary as a <div> of HTML elements, its links absolute; None without
    one. ``budget`` is what is left of the page's tag allowance (common.parse_limits):
    the summaries of a feed share it, as the parts of a page do. ``late()`` is asked
    every _ASKED elements (one summary of 74 000 links took 0.5 s), and between the
    slices of a long text the policy cleans (common.text): raises common.late.OutOfTime,
    and the summary is left out."""
    from lxml import etree

    clean_text = partial(policy.clean_text, late=late)
    div = etree.Element("div")
    raw = clean_text(entry.summary) if entry.summary else None
    if not raw or not raw.strip():
        return None
    if not entry.summary_is_html:
        for para in re.split(r"\n\s*\n", raw):
            if para.strip():
                etree.SubElement(div, "p").text = para
        return div
    from common.parse_limits import MAX_TAGS, limit
    from wf.extract.parse import JUNK, parse, to_utf8

    tags = raw.count("<")
    if tags > budget[0]:
        budget[0] = 0
        if not any(n.startswith("summaries past") for n in notes):
            notes.append(
                f"summaries past the feed's first {MAX_TAGS} tags are left out "
                "(titles, dates and links are all there)"
            )
        return None
    budget[0] -= tags
    limited, cut = limit(raw)
    notes.extend(n for n in cut.notes() if n not in notes)
    root = parse(b"<html><body>" + to_utf8(limited) + b"</body></html>", late)
    body = root.find("body") if root is not None else None
    if body is None:
        return None
    etree.strip_elements(body, *JUNK, *_RAW_TEXT, with_tail=False)
    for count, el in enumerate(body.iter(), 1):
        if late is not None and not count % _ASKED and late():
            raise OutOfTime
        # The HTML parser turns "&#x1b;" into the control itself: cleaned before lxml is
        # asked to set it again (div.text below), and before it could reach the output.
        if el.text:
            el.text = clean_text(el.text)
        if el.tail:
            el.tail = clean_text(el.tail)
        tag = el.tag
        if tag == "a":
            href = el.get("href")
            if href is not None:
                resolved = link_url(href, entry.base)
                if resolved is None:
                    del el.attrib["href"]
                else:
                    el.set("href", resolved)
        elif isinstance(tag, str) and len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            # A summary's headings sit below its entry's "##".
            el.tag = f"h{min(6, int(tag[1]) + 2)}"
    div.text = body.text
    for child in list(body):
        div.append(child)
    return div


def _document(feed: Feed, entries: list[Entry], summaries: list[Any]) -> str:
    from lxml import etree

    html = etree.Element("html")
    head = etree.SubElement(html, "head")
    body = etree.SubElement(html, "body")
    if feed.title:
        etree.SubElement(head, "title").text = feed.title
        etree.SubElement(body, "h1").text = feed.title
    for entry, summary in zip(entries, summaries, strict=True):
        etree.SubElement(body, "h2").text = entry.title or "(untitled)"
        facts = [x for x in (entry.published or entry.updated, entry.url) if x]
        if facts:
            p = etree.SubElement(body, "p")
            p.text = facts[0]
            if len(facts) > 1:
                etree.SubElement(p, "br").tail = facts[1]
        if summary is not None:
            body.append(summary)
    return str(etree.tostring(html, method="html", encoding="unicode"))


def feed_text(
    text: str,
    *,
    url: str | None,
    markers: bool = False,
    deadline: float | None = None,
    want_entries: bool = False,
) -> FeedText:
    """A feed's text as wf prints it, with its entries for --json; ``feed`` None (and a
    note) when ``text`` holds no RSS or Atom root after all."""
    from common.parse_limits import limit
    from wf.extract import extract

    # libxml2's XML parser costs what its HTML parser does by the element and attribute:
    # the page's bounds hold for the feed's XML too (a cut feed is then read as far as
    # it goes, as any feed cut short, and so is one cut where the deadline stopped them).
    text, cut = limit(text, late=late(deadline))
    root, problem = parse_xml(text, url)
    del text
    feed = read_feed(root, url, late(deadline))
    out = FeedText(feed=feed, notes=cut.notes())
    if feed is None:
        why = f" ({problem})" if problem else ""
        out.notes.append(f"no RSS or Atom feed in the body{why}; read as HTML")
        return out
    del root
    if problem:
        out.notes.append(
            f"the feed is not well-formed XML ({problem}); showing what the parser recovered"
        )
    if feed.late:
        out.notes.append(
            f"out of time: the feed's entries past the first {len(feed.entries)}"
            f" of {feed.found} are left out"
        )
    elif feed.found > reader.MAX_ENTRIES:
        out.notes.append(f"the feed has {feed.found} entries; read the first {reader.MAX_ENTRIES}")
    if not feed.entries and not feed.late:
        out.notes.append("the feed has no entries")
    entries = newest_first(feed.entries)
    summaries = _summaries(entries, out.notes, deadline)
    page = extract(
        _document(feed, entries, summaries),
        url=url,
        full=True,
        link_markers=markers,
        deadline=deadline,
    )
    out.text = page.text
    out.title = page.title
    out.links = [{"text": link.text, "url": link.url} for link in page.links]
    out.notes.extend(page.notes)
    out.metadata = _metadata(feed)
    if want_entries:
        out.entries = _entries_json(entries, summaries, deadline, out.notes)
    return out


_SUMMARIES_LATE = "out of time: some summaries are left out"


def _summaries(entries: list[Entry], notes: list[str], deadline: float | None) -> list[Any]:
    """Each entry's summary element (None: none, or left out), none made past the deadline."""
    from common.late import late as asks
    from common.parse_limits import MAX_TAGS

    budget = [MAX_TAGS]
    summaries = []
    late = False
    for entry in entries:
        late = late or _past(deadline)
        summary = None
        if not late:
            try:
                summary = _summary_element(entry, budget, notes, asks(deadline))
            except OutOfTime:
                late = True
        summaries.append(summary)
    if late:
        notes.append(_SUMMARIES_LATE)
    return summaries


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


def _entries_json(
    entries: list[Entry], summaries: list[Any], deadline: float | None, notes: list[str]
) -> list[dict[str, str | None]]:
    # Each summary's text is extracted again, on its own (0.2 s for one of 10 MB): past
    # the deadline, the entries after it go without theirs, as unbuilt summaries do.
    out = []
    for entry, summary in zip(entries, summaries, strict=True):
        if summary is not None and _past(deadline):
            summary = None
            if _SUMMARIES_LATE not in notes:
                notes.append(_SUMMARIES_LATE)
        out.append(_entry_json(entry, summary, deadline))
    return out


def _entry_json(entry: Entry, summary: Any, deadline: float | None) -> dict[str, str | None]:
    from common.text import clean_text, one_line

    text = None
    if summary is not None:
        from lxml import etree

        from wf.extract import extract

        html = str(etree.tostring(summary, method="html", encoding="unicode"))
        text = clean_text(extract(html, url=entry.base, full=True, deadline=deadline).text)
    return {
        "title": one_line(entry.title) or None,
        "url": one_line(entry.url) or None,
        "published": entry.published,
        "updated": entry.updated,
        "author": one_line(entry.author) or None,
        "summary": text or None,
    }


def _metadata(feed: Feed) -> dict[str, str | None]:
    from common.text import cap, one_line
    from wf.extract.metadata import empty

    found = empty()
    found["title"] = feed.title
    found["author"] = feed.author
    found["modified"] = feed.updated
    found["lang"] = feed.lang
    found["description"] = feed.description
    found["type"] = "feed"
    return {key: cap(one_line(value), 1000) or None for key, value in found.items()}
