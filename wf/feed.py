"""RSS 2.0, RSS 1.0 (RDF) and Atom feeds read: what is in one (``Feed``, its ``Entry``s),
entries newest first. wf/feedtext.py writes them as text.

A feed is XML that names other pages; its summaries are HTML. The XML is read with
libxml2's parser with every door to the outside shut (no entity expansion, no DTD, no
network, no huge-tree mode): a feed is untrusted input, and entities are how XML reads
files (``<!ENTITY x SYSTEM "file:///etc/passwd">``), reaches servers, or grows a kilobyte
into gigabytes ("billion laughs"). Entity references are dropped, never expanded.
Every string taken from the feed passes the text policy (common/text.py) before lxml is
given it again: a character reference to a control (``&#x1b;``) is text lxml refuses to
set.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from common.text import clean_text, one_line

ATOM = "http://www.w3.org/2005/Atom"
RSS1 = "http://purl.org/rss/1.0/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
DC = "http://purl.org/dc/elements/1.1/"
CONTENT = "http://purl.org/rss/1.0/modules/content/"

# Entries read from a feed, in document order (the newest-first order is made among
# these). Real feeds carry 10 to a few hundred; the cap bounds the work on a hostile one.
MAX_ENTRIES = 1000
# A date longer than this is no date (RFC 822 and RFC 3339 dates are under 40 characters).
_DATE_MAX = 100
_LINK_SCHEMES = ("http", "https", "mailto")

_PROLOG = re.compile(
    rb"\s*(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[[^\]]*\])*>)", re.DOTALL | re.IGNORECASE
)
_ROOT = re.compile(rb"\s*<(?:[A-Za-z_][\w.-]*:)?(rss|RDF|feed)(?=[\s/>])([^>]*)>?")


def _prolog(head: bytes) -> tuple[int, tuple[int, int] | None]:
    """Where the first element of ``head`` may start (past a BOM, an XML declaration,
    comments, processing instructions and a doctype), and the doctype's span if any."""
    pos = 3 if head.startswith(b"\xef\xbb\xbf") else 0
    doctype = None
    while True:
        found = _PROLOG.match(head, pos)
        if found is None or found.end() == pos:
            return pos, doctype
        if found.group().lstrip()[:9].upper() == b"<!DOCTYPE":
            doctype = (found.start(), found.end())
        pos = found.end()


def sniff_root(head: bytes) -> str | None:
    """``rss``, ``rdf`` or ``atom`` when the first element of ``head`` (UTF-8, the start
    of a body) is a feed's root, after an XML declaration, comments, processing
    instructions and a doctype; else None. RSS 1.0 and Atom must name their namespace on
    the root element, as they always do: other RDF and other ``<feed>`` are no feeds."""
    root = _ROOT.match(head, _prolog(head)[0])
    if root is None:
        return None
    name, attributes = root.group(1), root.group(2)
    if name == b"rss":
        return "rss"
    if name == b"RDF":
        return "rdf" if RSS1.encode() in attributes else None
    return "atom" if ATOM.encode() in attributes else None


@dataclass
class Entry:
    title: str | None = None
    url: str | None = None
    published: str | None = None
    updated: str | None = None
    author: str | None = None
    # The summary as HTML, or as text when the feed says it is text (Atom type="text").
    summary: str | None = None
    summary_is_html: bool = True
    base: str | None = None  # what the summary's relative links resolve against
    when: datetime | None = None  # the date the order uses: published, else updated


@dataclass
class Feed:
    kind: str  # rss, rdf or atom
    title: str | None = None
    link: str | None = None
    description: str | None = None
    lang: str | None = None
    updated: str | None = None
    author: str | None = None
    entries: list[Entry] = field(default_factory=list)
    found: int = 0  # entries in the document, the ones past MAX_ENTRIES included
    late: bool = False  # the deadline passed before every entry up to MAX_ENTRIES was read


# ---------------------------------------------------------------------- the XML


def _parser(recover: bool) -> Any:
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        recover=recover,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
        encoding="utf-8",
    )
    # load_dtd=False and no_network=True are not enough: libxml2 (2.14, lxml 6.2) still
    # opens a local path named by the DOCTYPE or by a parameter entity (`%p;`) while it
    # parses, so a feed could make wf open /dev/stdin or a FIFO another user planted and
    # wait there. Every external resource is answered here with nothing instead.
    parser.resolvers.add(_no_external())
    return parser


# Built anew for each parser (a class and an object, about 12 us: nothing beside fetching a
# feed), not cached: mutmut leaves decorated functions unmutated, and a cached one would
# run in one test only, so no mutant of the resolver would ever be tried.
def _no_external() -> Any:
    from lxml import etree

    class NoExternal(etree.Resolver):
        def resolve(self, system_url: str | None, public_id: str | None, context: Any) -> Any:
            return self.resolve_string("", context)

    return NoExternal()


def parse_xml(text: str, url: str | None) -> tuple[Any, str | None]:
    """The root element of ``text`` and, when it is not well-formed XML, the parser's
    first complaint (then the root is what libxml2's recovering parser made of it, or
    None)."""
    from lxml import etree

    data = text.encode("utf-8", "replace")
    base = url or None
    try:
        root = etree.fromstring(data, _parser(False), base_url=base)
        problem = None
    except etree.XMLSyntaxError as exc:
        problem = str(exc.msg or exc).split("\n", 1)[0]
        # Without its doctype: libxml2 stops at an entity whose expansion would amplify
        # (even unexpanded it checks each one), and the rest of the feed would be lost.
        # Entities are never expanded here, so the declarations have nothing to give.
        doctype = _prolog(data)[1]
        if doctype is not None:
            data = data[: doctype[0]] + data[doctype[1] :]
        try:
            root = etree.fromstring(data, _parser(True), base_url=base)
        except etree.XMLSyntaxError:
            root = None
    if root is not None:
        # An entity reference is kept as a node that prints as "&name;": dropped, so no
        # declared entity ever reaches the output, expanded or not.
        etree.strip_elements(root, etree.Entity, with_tail=False)
    return root, problem


def _qname(tag: str) -> tuple[str | None, str]:
    """(namespace or None, local name) of an element's tag. Read off the string:
    etree.QName refuses names the recovering parser lets through (a root named ":")."""
    if tag.startswith("{"):
        # The last brace: a namespace name may hold one (the recovering parser keeps
        # xmlns="urn:x}y"), a local name never does.
        space, _, local = tag[1:].rpartition("}")
        return space, local
    return None, tag


def _kind(root: Any) -> str | None:
    if not isinstance(root.tag, str):
        return None
    space, local = _qname(root.tag)
    if local == "rss":
        return "rss"
    if local == "RDF" and space == RDF:
        return "rdf"
    if local == "feed" and space == ATOM:
        return "atom"
    return None


def read_feed(root: Any, url: str | None, late: Callable[[], bool] | None = None) -> Feed | None:
    """The feed ``root`` holds, or None. ``late()``, asked before each entry (one can take
    milliseconds: its title parsed as HTML, its XHTML copied), whether the deadline has
    passed: the entries from there on are counted, not read (``Feed.late``)."""
    kind = _kind(root) if root is not None else None
    if kind is None:
        return None
    skip = _Skip(late or (lambda: False))
    if kind == "atom":
        return _atom(root, url, skip)
    return _rss(root, url, kind, skip)


class _Skip:
    """Whether the next entry is left out of a feed: past MAX_ENTRIES or the deadline."""

    def __init__(self, late: Callable[[], bool]) -> None:
        self.late = late

    def __call__(self, feed: Feed) -> bool:
        feed.found += 1
        if feed.found > MAX_ENTRIES or feed.late:
            return True
        feed.late = self.late()
        return feed.late


def _child(el: Any, *names: str) -> Any:
    """The first child named by one of ``names`` ("{ns}local" or a bare local name)."""
    for name in names:
        found = el.find(name)
        if found is not None:
            return found
    return None


def _text_of(el: Any) -> str | None:
    # Under the text policy before any of it is given back to lxml: a character reference
    # to a control (&#x1b;) is text lxml refuses to set ("All strings must be XML
    # compatible"), and it means nothing on a terminal but an escape sequence.
    if el is None:
        return None
    return one_line("".join(el.itertext())) or None


_SLICE = 65_536  # characters of a text looked through at a time for a visible one


def _has_text(el: Any) -> bool:
    """Whether ``_text_of(el)`` is not None, without its cost on a 10 MB summary (0.1 s):
    the policy keeps or drops each character for what it is (a joiner stays only beside a
    letter that stays), so the first slice with a character left decides."""
    return el is not None and any(
        one_line(piece[at : at + _SLICE])
        for piece in el.itertext()
        for at in range(0, len(piece), _SLICE)
    )


def link_url(href: str | None, base: str | None) -> str | None:
    if not href:
        return None
    href = re.sub(r"\s+", "", one_line(href))
    if not href:
        return None
    from urllib.parse import urljoin, urlsplit

    try:
        resolved = urljoin(base, href) if base else href
        scheme = urlsplit(resolved).scheme.lower()
    except ValueError:
        return None
    # A relative link with nothing to resolve against stays as the feed wrote it.
    return resolved if scheme in _LINK_SCHEMES or not scheme else None


def _html_title(raw: str | None) -> str | None:
    """A title that may hold markup or escaped markup: its text."""
    if not raw:
        return None
    if "<" not in raw and "&" not in raw:
        return one_line(raw) or None
    from wf.extract.parse import parse, to_utf8

    root = parse(b"<html><body>" + to_utf8(raw) + b"</body></html>")
    body = root.find("body") if root is not None else None
    return _text_of(body) if body is not None else one_line(raw) or None


def _rss(root: Any, url: str | None, kind: str, skip: _Skip) -> Feed:
    from itertools import chain

    feed = Feed(kind=kind)
    if kind == "rss":
        # RSS 2.0 has no namespace, but some feeds put theirs in one (Userland's
        # http://backend.userland.com/rss2), and some of those take it back below
        # (<item xmlns="">): an element is read in the root's namespace or in none.
        space = _qname(root.tag)[0]

        def n(local: str) -> tuple[str, ...]:
            return (f"{{{space}}}{local}", local) if space else (local,)

        channel = _child(root, *n("channel"))
        # Items belong in the channel; RSS 0.9x feeds put them after it, too.
        inside = channel.iterchildren(*n("item")) if channel is not None else ()
        items = chain(inside, root.iterchildren(*n("item")))
    else:

        def n(local: str) -> tuple[str, ...]:
            return (f"{{{RSS1}}}{local}",)

        channel = _child(root, *n("channel"))
        items = root.iterchildren(*n("item"))
    if channel is not None:
        feed.title = _html_title(_text_of(_child(channel, *n("title"))))
        feed.link = link_url(_text_of(_child(channel, *n("link"))), channel.base or url)
        feed.description = _html_title(_text_of(_child(channel, *n("description"))))
        feed.lang = _text_of(_child(channel, *n("language"), f"{{{DC}}}language"))
        feed.updated = _date(
            _text_of(_child(channel, *n("lastBuildDate"), *n("pubDate"), f"{{{DC}}}date"))
        )[0]
        feed.author = _text_of(_child(channel, *n("managingEditor"), f"{{{DC}}}creator"))
    for item in items:
        if skip(feed):
            continue
        base = item.base or url
        entry = Entry(base=base)
        entry.title = _html_title(_text_of(_child(item, *n("title"), f"{{{DC}}}title")))
        link = _text_of(_child(item, *n("link")))
        if link is None and kind == "rss":
            guid = _child(item, *n("guid"))
            if guid is not None and (guid.get("isPermaLink") or "true").lower() != "false":
                link = _text_of(guid)
                if link and not link.lower().startswith(("http://", "https://")):
                    link = None
        if link is None and kind == "rdf":
            link = item.get(f"{{{RDF}}}about")
        entry.url = link_url(link, base)
        entry.published, entry.when = _date(
            _text_of(_child(item, *n("pubDate"), f"{{{DC}}}date", f"{{{ATOM}}}published"))
        )
        entry.updated, updated = _date(_text_of(_child(item, f"{{{ATOM}}}updated")))
        entry.when = entry.when or updated
        entry.author = _text_of(
            _child(item, f"{{{DC}}}creator", *n("author"), f"{{{ATOM}}}author/{{{ATOM}}}name")
        )
        summary = _child(item, *n("description"))
        if not _has_text(summary):
            summary = _child(item, f"{{{CONTENT}}}encoded")
        if summary is not None:
            # Escaped HTML as RSS has it, or (against the format, but found) markup.
            entry.summary = _inner_html(summary) if len(summary) else summary.text
        feed.entries.append(entry)
    return feed


def _atom(root: Any, url: str | None, skip: _Skip) -> Feed:
    a = f"{{{ATOM}}}"
    feed = Feed(kind="atom")
    feed.title = _construct_title(_child(root, f"{a}title"))
    feed.link = _atom_link(root, url)
    feed.description = _construct_title(_child(root, f"{a}subtitle"))
    feed.lang = root.get("{http://www.w3.org/XML/1998/namespace}lang")
    feed.updated = _date(_text_of(_child(root, f"{a}updated")))[0]
    feed.author = _text_of(_child(root, f"{a}author/{a}name"))
    for item in root.iterchildren(f"{a}entry"):
        if skip(feed):
            continue
        entry = Entry()
        entry.title = _construct_title(_child(item, f"{a}title"))
        entry.url = _atom_link(item, url)
        entry.published, entry.when = _date(_text_of(_child(item, f"{a}published")))
        entry.updated, updated = _date(_text_of(_child(item, f"{a}updated")))
        entry.when = entry.when or updated
        names = [_text_of(n) for n in item.iterfind(f"{a}author/{a}name")]
        entry.author = ", ".join(n for n in names if n) or feed.author
        summary = _child(item, f"{a}summary")
        if not _has_text(summary):
            content = _child(item, f"{a}content")
            # Content given by reference (src=) is another document: not fetched.
            summary = content if content is not None and content.get("src") is None else None
        if summary is not None:
            entry.base = summary.base or url
            entry.summary, entry.summary_is_html = _construct(summary)
        feed.entries.append(entry)
    return feed


def _atom_link(el: Any, url: str | None) -> str | None:
    """The alternate link (rel="alternate" or no rel), else the first with an href."""
    links = list(el.iterchildren(f"{{{ATOM}}}link"))
    for link in links:
        if (link.get("rel") or "alternate") == "alternate" and link.get("href"):
            return link_url(link.get("href"), link.base or url)
    return None


def _construct(el: Any) -> tuple[str, bool]:
    """An Atom text construct: (its content, whether that content is HTML)."""
    kind = (el.get("type") or "text").strip().lower()
    if kind == "xhtml":
        div = _child(el, "{http://www.w3.org/1999/xhtml}div")
        return clean_text(_inner_html(div if div is not None else el)), True
    text = clean_text("".join(el.itertext()))
    return text, kind in ("html", "text/html")


def _inner_html(el: Any) -> str:
    """The markup inside ``el`` (XHTML, or HTML a feed put in unescaped) as HTML."""
    from copy import deepcopy

    from lxml import etree

    parts = [el.text or ""]
    for child in el:
        copy = deepcopy(child)
        copy.tail = None
        for node in copy.iter():
            if isinstance(node.tag, str):
                space, local = _qname(node.tag)
                if space is not None:  # XHTML read as plain HTML
                    try:
                        node.tag = local
                    except ValueError:  # a local name lxml refuses alone (":x")
                        node.tag = "span"
        etree.cleanup_namespaces(copy)
        parts.append(etree.tostring(copy, encoding="unicode"))
        parts.append(child.tail or "")
    return "".join(parts)


def _construct_title(el: Any) -> str | None:
    if el is None:
        return None
    text, is_html = _construct(el)
    return _html_title(text) if is_html else one_line(text) or None


# ---------------------------------------------------------------------- dates


def _date(value: str | None) -> tuple[str | None, datetime | None]:
    """An RFC 822 (RSS) or RFC 3339 / ISO 8601 (Atom, Dublin Core) date as ISO 8601, and
    the moment it names for ordering (a date without a zone taken as UTC); (None, None)
    for anything else."""
    if not value or len(value) > _DATE_MAX:
        return None, None
    value = value.strip()
    try:
        iso = datetime.fromisoformat(value.upper() if "t" in value or "z" in value else value)
    except ValueError:
        pass
    else:
        if len(value) == 10:  # a date alone stays a date
            return iso.date().isoformat(), iso.replace(tzinfo=UTC)
        return iso.isoformat(), iso if iso.tzinfo else iso.replace(tzinfo=UTC)
    from email.utils import parsedate_to_datetime

    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None, None
    if moment.tzinfo is None:  # "-0000" or a zone name Python does not know
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat(), moment


def newest_first(entries: list[Entry]) -> list[Entry]:
    """Dated entries newest first, then the undated ones in document order (the sort is
    stable, so entries of the same moment keep theirs too)."""
    dated = [e for e in entries if e.when is not None]
    undated = [e for e in entries if e.when is None]
    dated.sort(key=lambda e: e.when or datetime.min.replace(tzinfo=UTC), reverse=True)
    return dated + undated
