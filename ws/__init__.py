"""ws: keyless web search with a fallback chain."""

from common.version import VERSION as __version__

__all__ = ["__version__"]
