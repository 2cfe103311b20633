"""ws: keyless web search with a fallback chain.

Library use: ``ws.search(query, **options) -> ws.api.Results`` (see ws.api).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common.version import VERSION as __version__

if TYPE_CHECKING:
    from ws.api import Results

__all__ = ["__version__", "search"]


def search(query: str, **options: Any) -> Results:
    """ws.api.search: search as ``ws QUERY --json`` does, as Results."""
    from ws.api import search as _search

    return _search(query, **options)
