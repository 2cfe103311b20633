"""Brave Search's HTML page. Its class names are partly generated (svelte-xxxx), so the
parser anchors on ``data-type="web"`` and on the plain class tokens (title, content)."""

from __future__ import annotations

import re
from typing import Any

from ws.backends.antibot import HtmlBackend
from ws.backends.base import Query, Request, check_stop, with_params
from ws.backends.html import ResultsPage, outermost, result_of, text_of, xpath
from ws.results import Result

_TIME = {"d": "pd", "w": "pw", "m": "pm", "y": "py"}
_SAFE = {"on": "strict", "moderate": "moderate", "off": "off"}
# Brave names the United Kingdom gb where DuckDuckGo says uk.
_COUNTRY = {"uk": "gb"}
_NO_RESULTS = ("no results found", "not many great matches", "did not match any", "no results for")
_WEB = b'data-type="web"'
_RESULTS = '//div[@data-type="web"]'
_DATE = r"^([A-Z][a-z]+ \d{1,2}, \d{4})\s*-?$"  # compiled on first use (re's cache)


def next_page(page: ResultsPage) -> dict[str, str] | None:
    """The offset of the Next link in ``#pagination`` (read from the bytes: the tree parse
    covers only the results)."""
    body = page.body
    start = body.find(b'id="pagination"')
    if start < 0:
        return None
    end = body.find(b"</nav>", start)
    region = body[start : end if end >= 0 else start + 8000]
    # Each link is read within its own stretch, up to the next "<a": one pattern over the
    # whole region looked for a closing tag (or the tag's end) to the region's end from
    # every "<a" (20 000 of them unclosed, 400 KB: 36 s of CPU).
    opens = [m.start() for m in re.finditer(rb"<a\b", region)] + [len(region)]
    # Each step reads forward once: no pattern that can go back over what it read.
    for a, b in zip(opens, opens[1:], strict=False):
        check_stop()  # a region of 300 000 links without Next: a second of CPU
        close = region.find(b">", a, b)
        href = re.compile(rb'\bhref="([^"]*)"').search(region, a, close) if close >= 0 else None
        inner = re.compile(rb"</a\s*>").search(region, close, b) if href else None
        m = re.search(rb"[?&;]offset=(\d+)", href.group(1)) if href and inner else None
        if m and inner and b"Next" in region[close : inner.start()]:
            return {"offset": m.group(1).decode()}
    return None


def parse(page: ResultsPage) -> list[Result]:
    body = page.body
    first = body.find(_WEB)
    if first < 0:
        # Not the markup we know byte for byte (unquoted attributes, say): the whole tree,
        # which the no-results and anti-bot checks need anyway.
        return _results_in(page.doc)
    # The page is about 550 KB, most of it styles and a data script around the results;
    # parsing only the <main> that holds them is what keeps this within a few ms, and
    # only its web results (not the video and news clusters between them) halves that.
    last = body.rfind(_WEB)
    start = body.rfind(b"<main", 0, first)
    if start < 0:
        start = max(body.rfind(b"<body", 0, first), 0)
    end = body.find(b"</main>", last)
    end = end if end >= 0 else len(body)
    blocks = _web_blocks(body, start, end)
    if blocks is not None:
        results = _results_in(page.fragment(blocks))
        if len(results) == body.count(_WEB, start, end):
            return results
    # Cut where the layout no longer matches: parse all of <main>.
    return _results_in(page.fragment(body[start:end]))


def _results_in(doc: Any) -> list[Result]:
    # A block is read through its whole subtree: blocks nested in blocks are read once,
    # in the outermost (html.outermost).
    out = []
    for node in outermost(xpath(_RESULTS)(doc)):
        check_stop()
        result = _result(node)
        if result is not None:
            out.append(result)
    return out


def _web_blocks(body: bytes, start: int, end: int) -> bytes | None:
    """The top-level blocks of the results list that are web results, end to end.

    Every block of the list (web result, video cluster, news...) opens with a tag that
    carries data-pos; a block runs to the next one. None when no web block is found."""
    # Every search below covers its own stretch of the bytes, never the rest of the page:
    # a page of 40 000 data-pos in tags that never close cost 3 s of CPU, and grew with
    # the square of its length. Each step asks whether the run ended the attempt, as
    # every other reader does (a page of 300 000 marks: 0.3 s of CPU between two asks).
    marks: list[int] = []
    low = start
    at = body.find(b'data-pos="', start, end)
    while at >= 0:
        check_stop()
        # A tag's opening after the last mark; none there, and it is the last mark's tag.
        opening = body.rfind(b"<", low, at)
        marks.append(opening if opening >= 0 else (marks[-1] if marks else -1))
        low = at
        at = body.find(b'data-pos="', at + 10, end)
    marks.append(end)
    picked = []
    for a, b in zip(marks, marks[1:], strict=False):
        check_stop()
        close = body.find(b">", a, b) if a >= 0 else -1
        if a >= 0 and body.find(_WEB, a, close if close >= 0 else b) >= 0:
            picked.append(body[a:b])
    return b"<div>" + b"".join(picked) + b"</div>" if picked else None


def _result(node: Any) -> Result | None:
    # Plain iteration: a dozen XPath queries per result cost more than the parse itself.
    link = next(
        (a for a in node.iter("a") if a.get("href", "").startswith(("http:", "https:"))), None
    )
    if link is None:
        return None
    title = _first_with_class(link.iter(), "title")
    snippet, published = "", None
    content = _first_with_class(node.iter("div"), "content")
    if content is not None:
        snippet = text_of(content)
        # A leading "December 13, 2024 -" is the page date, not part of the snippet.
        span = _first_with_class(content.iterchildren("span"), "t-secondary")
        m = re.match(_DATE, " ".join(text_of(span).split())) if span is not None else None
        if m:
            snippet = snippet.replace(text_of(span), " ", 1)
            published = _date(m.group(1))
    return result_of(
        link, "brave", url=link.get("href", ""), title=title, snippet=snippet, published=published
    )


def _first_with_class(nodes: Any, name: str) -> Any:
    for node in nodes:
        classes = node.get("class")
        if classes and name in classes.split():
            return node
    return None


def _date(text: str) -> str | None:
    from datetime import datetime

    try:
        return datetime.strptime(text, "%B %d, %Y").date().isoformat()
    except ValueError:
        return None


class Brave(HtmlBackend):
    name = "brave"
    label = "Brave"
    env = "WS_BRAVE_URL"
    default_url = "https://search.brave.com/search"
    parse = staticmethod(parse)
    no_results = _NO_RESULTS
    next_page = staticmethod(next_page)

    def build(self, query: Query, endpoint: str, cursor: dict[str, str] | None = None) -> Request:
        notes: list[str] = []
        params = {"q": self.query_text(query, notes), "source": "web"}
        # offset counts pages from 0: the Next link of page 1 says offset=1.
        offset = (cursor or {}).get("offset") or (str(query.page - 1) if query.page > 1 else "")
        if offset:
            params["offset"] = offset
        if query.time:
            params["tf"] = _TIME[query.time]
        # Brave takes region and safe search as cookies, as its settings page sets them.
        cookies = {}
        if query.safe:
            cookies["safesearch"] = _SAFE[query.safe]
        if query.country:
            cookies["country"] = _COUNTRY.get(query.country, query.country)
            cookies["useLocation"] = "0"
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        return Request("GET", with_params(endpoint, params), headers=headers, notes=notes)


BACKEND = Brave()
