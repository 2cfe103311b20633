"""Mojeek's HTML page: ``ul.results-standard > li``, title link in ``h2 a``, snippet in
``p.s``."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from ws.backends.antibot import HtmlBackend
from ws.backends.base import Query, Request, with_params
from ws.backends.html import ResultsPage, Rows, has_class, parse_rows, xpath
from ws.results import Result

_DAYS = {"d": 1, "w": 7, "m": 31, "y": 366}
# The regions Mojeek's own menu offers (reg=); others have no equivalent.
_REGIONS = {"uk": "uk", "gb": "uk", "de": "de", "fr": "fr", "eu": "eu"}
_ROWS = Rows(
    results=f"//ul[{has_class('results-standard')}]/li",
    link=".//h2/a[@href]",
    snippet=f".//p[{has_class('s')}]",
)
_NEXT = f"//div[{has_class('pagination')}]//a[normalize-space(.) = 'Next']/@href"
_NO_RESULTS = ("no pages found", "no results found", "did not match any")


def parse(page: ResultsPage) -> list[Result]:
    return parse_rows(page.doc, _ROWS, "mojeek")


def next_page(page: ResultsPage) -> dict[str, str] | None:
    """The s= of the pagination's Next link."""
    for href in xpath(_NEXT)(page.doc):
        try:
            query = urlsplit(href).query
        except ValueError:
            continue  # an href urllib cannot split (an unclosed IPv6 bracket) is no link
        for key, value in parse_qsl(query):
            if key == "s" and value.isdigit():
                return {"s": value}
    return None


class Mojeek(HtmlBackend):
    name = "mojeek"
    label = "Mojeek"
    env = "WS_MOJEEK_URL"
    default_url = "https://www.mojeek.com/search"
    site_or = False
    parse = staticmethod(parse)
    no_results = _NO_RESULTS
    next_page = staticmethod(next_page)

    def build(self, query: Query, endpoint: str, cursor: dict[str, str] | None = None) -> Request:
        notes: list[str] = []
        # Never s= on a first page: Mojeek treats s=0 as a scraper and rate-limits it.
        params = {"q": self.query_text(query, notes)}
        # s= is the number of the page's first result: 11 on page 2.
        first = (cursor or {}).get("s") or (
            str((query.page - 1) * 10 + 1) if query.page > 1 else ""
        )
        if first:
            params["s"] = first
        if query.safe == "on":
            params["safe"] = "1"
        elif query.safe == "off":
            params["safe"] = "0"
        elif query.safe == "moderate":
            notes.append("--safe moderate has no Mojeek equivalent (only on or off); ignored")
        if query.time:
            from datetime import date, timedelta

            params["since"] = (date.today() - timedelta(days=_DAYS[query.time])).strftime("%Y%m%d")
        if query.country:
            if query.country in _REGIONS:
                params["reg"] = _REGIONS[query.country]
            else:
                notes.append(f"--region {query.region}: Mojeek has no such region; ignored")
        return Request("GET", with_params(endpoint, params), notes=notes)


BACKEND = Mojeek()
