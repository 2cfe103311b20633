"""A SearxNG instance's JSON API (``<SEARXNG_URL>/search?format=json``).

Used only when SEARXNG_URL is set: public instances mostly refuse scripts, a private one
(see ws(1)) is the dependable backend for a team or a corporate network.
"""

from __future__ import annotations

import json
from typing import Any

from common.text import cap, one_line
from ws.backends.antibot import bot_check, error_answer
from ws.backends.base import (
    BLOCKED,
    EMPTY,
    HTTP_ERROR,
    OK,
    PARSE_ERROR,
    Answer,
    Backend,
    Query,
    Request,
    check_stop,
    iso_date,
    with_params,
)
from ws.backends.html import ResultsPage
from ws.results import Result, clean_text

ENABLE_JSON = "enable json in settings.yml: search.formats: [html, json]"
_TIME = {"d": "day", "w": "week", "m": "month", "y": "year"}
_SAFE = {"on": "2", "moderate": "1", "off": "0"}
_FULL_PAGE = 10


class SearxNG(Backend):
    name = "searxng"
    label = "SearxNG"
    env = "SEARXNG_URL"
    default_url = ""  # no default: only an instance the user names

    def build(self, query: Query, endpoint: str, cursor: dict[str, str] | None = None) -> Request:
        notes: list[str] = []
        params = {"q": self.query_text(query, notes), "format": "json"}
        if query.page > 1:
            params["pageno"] = str(query.page)
        if query.region:
            country, language = query.region.split("-", 1)
            params["language"] = f"{language}-{country.upper()}"
        if query.time:
            params["time_range"] = _TIME[query.time]
        if query.safe:
            params["safesearch"] = _SAFE[query.safe]
        headers = {"Accept": "application/json"}
        return Request(
            "GET", with_params(search_url(endpoint), params), headers=headers, notes=notes
        )

    def classify(self, status: int, headers: dict[str, str], body: bytes, query: Query) -> Answer:
        ctype = headers.get("content-type", "").lower()
        looks_json = "json" in ctype or body.lstrip()[:1] in (b"{", b"[")
        if not 200 <= status < 300 and (looks_json or status != 403):
            return error_answer(ResultsPage(body, ctype), status, query)
        if not looks_json:
            kind = bot_check(ResultsPage(body, ctype), query) if body.strip() else None
            if kind:
                return Answer(BLOCKED, f"HTTP {status}, {kind}")
            if status == 403:
                # What SearxNG answers when format=json is not in search.formats.
                return Answer(
                    HTTP_ERROR, f"HTTP 403: the instance does not serve JSON; {ENABLE_JSON}"
                )
            return Answer(PARSE_ERROR, f"HTTP {status} answered HTML, not JSON; {ENABLE_JSON}")
        check_stop()
        try:
            # One C call no ask can cut short, left whole: 0.12 s for 9.6 MB of results
            # (40 000) here, and the 10 MiB cap on a body bounds it; the instance is one the
            # operator set (SEARXNG_URL), not a stranger's page.
            data = json.loads(body.decode("utf-8", "replace"))
        except RecursionError:
            return Answer(PARSE_ERROR, f"HTTP {status} with JSON nested too deeply to read")
        except ValueError as exc:
            return Answer(PARSE_ERROR, f"HTTP {status} with malformed JSON: {exc}")
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            return Answer(PARSE_ERROR, f"HTTP {status} JSON without a results list")
        results = []
        for item in data["results"]:
            check_stop()
            result = _result(item)
            if result is not None:
                results.append(result)
        unresponsive = _unresponsive(data.get("unresponsive_engines"))
        notes = [f"unresponsive engines: {unresponsive}"] if unresponsive else []
        if results:
            # The JSON says nothing of further pages: a full page (an instance shows 10 or
            # more) may have a next one, a shorter one is the last.
            answer = Answer(OK, f"HTTP {status}", results, notes)
            if len(results) >= _FULL_PAGE:
                answer.find_next = dict
            return answer
        return Answer(EMPTY, f"HTTP {status}, no results", notes=notes)


BACKEND = SearxNG()


def search_url(root: str) -> str:
    """``<root>/search``; a SEARXNG_URL that already ends in /search is taken as is."""
    root = root.split("?", 1)[0].rstrip("/")
    return root if root.endswith("/search") else root + "/search"


def _result(item: Any) -> Result | None:
    if not isinstance(item, dict) or not isinstance(item.get("url"), str):
        return None
    published = item.get("publishedDate") or item.get("pubdate")
    return Result(
        title=_str(item.get("title")),
        url=item["url"],
        snippet=_str(item.get("content")),
        provider="searxng",
        published=iso_date(published) if isinstance(published, str) else None,
    )


def _str(value: Any) -> str:
    # An instance's engines may hand over text with its HTML entities still in it; no
    # parser decoded this JSON's, as lxml does a page's.
    return clean_text(value) if isinstance(value, str) else ""


# An instance reports these from its engines; a hostile one can make them any size.
_MAX_ENGINES = 10
_NAME_CHARS = 40
_WHY_CHARS = 80


def _unresponsive(value: Any) -> str:
    """``[["google", "CAPTCHA"], ["bing", "timeout"]]`` as ``google (CAPTCHA), bing (timeout)``,
    each part cleaned (common.text) and short, at most ten engines named."""
    if not isinstance(value, list):
        return ""
    out = []
    for entry in value:
        if isinstance(entry, (list, tuple)) and entry:
            name = cap(one_line(str(entry[0])), _NAME_CHARS)
            why = cap(one_line(str(entry[1])), _WHY_CHARS) if len(entry) > 1 and entry[1] else ""
            out.append(f"{name} ({why})" if why else name)
        elif isinstance(entry, str):
            out.append(cap(one_line(entry), _NAME_CHARS))
    if len(out) > _MAX_ENGINES:
        out[_MAX_ENGINES:] = [f"and {len(out) - _MAX_ENGINES} more"]
    return ", ".join(part for part in out if part)
