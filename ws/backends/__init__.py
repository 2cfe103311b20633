"""The search engines ws can ask, in their default order. Each module builds a request
and classifies an answer; none of them touches the network (ws.chain does).

A run asks one engine, rarely more: each module is imported when its engine is first
asked, not at start-up (``_Lazy``). What the chain, the config and ``--providers`` read of
an engine before then (name, label, variable, default endpoint) is written here, and
tests/test_ws_startup.py checks it against each module's class."""

from __future__ import annotations

from importlib import import_module

from ws.backends.base import Answer, Backend, Query, Request


class _Lazy(Backend):
    """An engine whose module is imported on its first request or answer."""

    def __init__(self, module: str, name: str, label: str, env: str, default_url: str) -> None:
        self.module = module
        self.name = name
        self.label = label
        self.env = env
        self.default_url = default_url
        self._backend: Backend | None = None

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            backend: Backend = import_module(f"ws.backends.{self.module}").BACKEND
            self._backend = backend
        return self._backend

    def build(self, query: Query, endpoint: str, cursor: dict[str, str] | None = None) -> Request:
        return self.backend.build(query, endpoint, cursor)

    def classify(self, status: int, headers: dict[str, str], body: bytes, query: Query) -> Answer:
        return self.backend.classify(status, headers, body, query)


DUCKDUCKGO = _Lazy(
    "duckduckgo",
    "duckduckgo",
    "DuckDuckGo",
    "WS_DUCKDUCKGO_URL",
    "https://html.duckduckgo.com/html/",
)
DUCKDUCKGO_LITE = _Lazy(
    "duckduckgo_lite",
    "duckduckgo-lite",
    "DuckDuckGo Lite",
    "WS_DUCKDUCKGO_LITE_URL",
    "https://lite.duckduckgo.com/lite/",
)
# No default endpoint: only an instance the user names (SEARXNG_URL).
SEARXNG = _Lazy("searxng", "searxng", "SearxNG", "SEARXNG_URL", "")
BRAVE = _Lazy("brave", "brave", "Brave", "WS_BRAVE_URL", "https://search.brave.com/search")
MOJEEK = _Lazy("mojeek", "mojeek", "Mojeek", "WS_MOJEEK_URL", "https://www.mojeek.com/search")

# searxng takes part only when SEARXNG_URL names an instance. The lite endpoint follows
# the html one: it is often answered when the html endpoint is blocked.
DEFAULT_ORDER: tuple[Backend, ...] = (DUCKDUCKGO, DUCKDUCKGO_LITE, SEARXNG, BRAVE, MOJEEK)
BY_NAME: dict[str, Backend] = {b.name: b for b in DEFAULT_ORDER}
ALIASES = {"ddg": "duckduckgo", "ddg-lite": "duckduckgo-lite", "searx": "searxng"}
