"""The search engines ws can ask, in their default order. Each module builds a request
and classifies an answer; none of them touches the network (ws.chain does)."""

from __future__ import annotations

from ws.backends.base import Backend
from ws.backends.brave import BACKEND as BRAVE
from ws.backends.duckduckgo import BACKEND as DUCKDUCKGO
from ws.backends.duckduckgo_lite import BACKEND as DUCKDUCKGO_LITE
from ws.backends.mojeek import BACKEND as MOJEEK
from ws.backends.searxng import BACKEND as SEARXNG

# searxng takes part only when SEARXNG_URL names an instance. The lite endpoint follows
# the html one: it is often answered when the html endpoint is blocked.
DEFAULT_ORDER: tuple[Backend, ...] = (DUCKDUCKGO, DUCKDUCKGO_LITE, SEARXNG, BRAVE, MOJEEK)
BY_NAME: dict[str, Backend] = {b.name: b for b in DEFAULT_ORDER}
ALIASES = {"ddg": "duckduckgo", "ddg-lite": "duckduckgo-lite", "searx": "searxng"}
