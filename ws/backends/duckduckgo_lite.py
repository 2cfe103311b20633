"""DuckDuckGo's lite endpoint (lite.duckduckgo.com/lite/): the same POST form as the html
endpoint, answered with one table of plain rows, and often answered when the html
endpoint is blocked.

A result is three rows: the title link (``a.result-link``), the snippet
(``td.result-snippet``) and the shown address (``span.link-text``), then a spacer row.
Sponsored rows carry ``result-sponsored`` and link through duckduckgo.com/y.js. Region
(kl), time (df) and safe search (kp) are the html endpoint's parameters; the next page is
the form whose button says "Next Page >".
"""

from __future__ import annotations

from typing import Any

from ws.backends.base import check_stop
from ws.backends.duckduckgo import DuckDuckGo, target
from ws.backends.html import (
    ResultsPage,
    has_class,
    link_target,
    result_of,
    text_of,
    xpath,
)
from ws.results import Result

_LINKS = f"//a[{has_class('result-link')}]"
_SNIPPET = f".//td[{has_class('result-snippet')}]"
_SPONSORED = "result-sponsored"
# The lite page says one of these where results would be (the second on a last page).
_NO_RESULTS = ("no results.", "no more results.")
# A result's rows after the title: snippet, address, spacer.
_ROWS = 3


def parse(page: ResultsPage) -> list[Result]:
    out: list[Result] = []
    # A row's snippet is looked for once, however many links the row holds: 8000 links in
    # one row read the 8000 tags of the row after it 8000 times (5 s of CPU, growing with
    # the square of the page).
    snippets: dict[Any, str] = {}
    for link in xpath(_LINKS)(page.doc):
        check_stop()
        row = _row_of(link)
        if row is not None and _SPONSORED in (row.get("class") or "").split():
            continue
        url = link_target(link, target)
        if url is None:
            continue
        if row not in snippets:
            snippets[row] = _snippet(row)
        out.append(result_of(link, "duckduckgo-lite", url=url, snippet=snippets[row]))
    return out


def _row_of(node: Any) -> Any:
    while node is not None and node.tag != "tr":
        node = node.getparent()
    return node


def _snippet(row: Any) -> str:
    if row is None:
        return ""
    for i, following in enumerate(row.itersiblings("tr")):
        if i >= _ROWS or xpath(_LINKS.replace("//", ".//", 1))(following):
            break  # the next result: this one has no snippet row
        cells = xpath(_SNIPPET)(following)
        if cells:
            return text_of(cells[0])
    return ""


class DuckDuckGoLite(DuckDuckGo):
    name = "duckduckgo-lite"
    label = "DuckDuckGo Lite"
    env = "WS_DUCKDUCKGO_LITE_URL"
    default_url = "https://lite.duckduckgo.com/lite/"
    # Its next page is the html endpoint's form, read as there.
    parse = staticmethod(parse)
    no_results = _NO_RESULTS
    no_results_box = None  # said in its text, not in a box of its own


BACKEND = DuckDuckGoLite()
