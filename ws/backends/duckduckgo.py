"""DuckDuckGo's html endpoint: a POST form, answered with a page of plain links.

A POST gets direct result links; a GET (or a mirror that serves the GET page) wraps them
as ``//duckduckgo.com/l/?uddg=<target>&rut=...``. Both are read here.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import SplitResult, parse_qsl, urlsplit

from ws.backends.antibot import HtmlBackend, detail
from ws.backends.base import BLOCKED, Answer, Query, Request, iso_date
from ws.backends.html import ResultsPage, Rows, has_class, next_form, parse_rows, xpath
from ws.results import Result

_SAFE = {"on": "1", "moderate": "-1", "off": "-2"}


def page_fields(page: int) -> dict[str, str]:
    """The next-page form's fields for page 2 and later, without the form: its first page
    holds 10 results and each later one 15 (s is the offset, dc the first result's number),
    as peers that page DuckDuckGo without a form send them."""
    offset = 10 + (page - 2) * 15
    return {
        "s": str(offset),
        "nextParams": "",
        "v": "l",
        "o": "json",
        "dc": str(offset + 1),
        "api": "d.js",
    }


# Ads carry result--ad; their links go through duckduckgo.com/y.js and are dropped too.
_ROWS = Rows(
    results=f"//div[{has_class('result')} and not({has_class('result--ad')})]",
    link=f".//a[{has_class('result__a')}]",
    snippet=f".//*[{has_class('result__snippet')}]",
)
_DATES = f".//div[{has_class('result__extras__url')}]/span/text()"
_NO_RESULT_NODES = f"//*[{has_class('no-results')} or {has_class('result--no-result')}]"


def parse(page: ResultsPage) -> list[Result]:
    return parse_rows(page.doc, _ROWS, "duckduckgo", target=target, published=_published)


def target(href: str) -> str | None:
    """A result link's target (``unwrap``), None for ads, links back into DuckDuckGo and
    the last page's pseudo-result."""
    url = unwrap(href)
    return None if url is None or is_pseudo_result(url) else url


def unwrap(href: str) -> str | None:
    """The target of a result link: direct, or the whole uddg= value of a redirect link;
    None for ads and links back into DuckDuckGo."""
    href = href.strip()
    if href.startswith("//"):
        href = "https:" + href
    elif href.startswith("/"):
        href = "https://duckduckgo.com" + href
    parts = _split(href)
    if parts is None:
        return None
    host = (parts.hostname or "").lower()
    if host == "duckduckgo.com" or host.endswith(".duckduckgo.com"):
        if parts.path == "/l/":
            # parse_qsl decodes the value exactly once: the target keeps its own query.
            for key, value in parse_qsl(parts.query, keep_blank_values=True):
                if key == "uddg":
                    return value or None
        return None
    return href or None


def is_pseudo_result(url: str) -> bool:
    # The last page ends with an "EOF" entry that links to a Google search for the query.
    parts = _split(url)
    if parts is None:
        return True  # no URL anyone could follow: no result either
    host = (parts.hostname or "").lower()
    is_google = host in ("google.com", "www.google.com") or host.startswith(
        ("www.google.", "google.")
    )
    return is_google and parts.path == "/search"


def _split(url: str) -> SplitResult | None:
    """The URL's parts; None for one urllib cannot split (an unclosed IPv6 bracket, say),
    which one hostile row of a page must not turn into a failed attempt."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def _published(node: Any) -> str | None:
    for text in xpath(_DATES)(node):
        value = text.strip().replace("\xa0", " ").strip()
        if value[:4].isdigit() and "-" in value:
            return iso_date(value)
    return None


class DuckDuckGo(HtmlBackend):
    name = "duckduckgo"
    label = "DuckDuckGo"
    env = "WS_DUCKDUCKGO_URL"
    default_url = "https://html.duckduckgo.com/html/"
    parse = staticmethod(parse)
    no_results_box: str | None = _NO_RESULT_NODES
    next_page = staticmethod(next_form)

    def build(self, query: Query, endpoint: str, cursor: dict[str, str] | None = None) -> Request:
        notes: list[str] = []
        # kl=wt-wt means no region.
        ours = {"q": self.query_text(query, notes), "kl": query.region or "wt-wt"}
        if query.time:
            ours["df"] = query.time
        if query.safe:
            ours["kp"] = _SAFE[query.safe]
        if cursor is not None:
            # The page's own next-page form (its vqd token included); our terms win.
            data = {**cursor, **ours}
        elif query.page > 1:
            data = {**ours, **page_fields(query.page)}
        else:
            data = {**ours, "b": ""}  # what the form sends for a first page
        parts = urlsplit(endpoint)
        headers = {"Referer": f"{parts.scheme}://{parts.netloc}/"}
        return Request("POST", endpoint, data=data, headers=headers, notes=notes)

    def classify(self, status: int, headers: dict[str, str], body: bytes, query: Query) -> Answer:
        if status == 202:
            # DuckDuckGo's way of saying "no" to a script, whatever the body holds.
            page = ResultsPage(body, headers.get("content-type"))
            kind = detail(page, query)
            return Answer(BLOCKED, f"HTTP 202, {kind or 'anomaly page'}")
        return super().classify(status, headers, body, query)


BACKEND = DuckDuckGo()
