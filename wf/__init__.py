"""wf: fetch a web page and print its clean, readable text.

Library use: ``from wf import extract_text``. lxml is imported only when it is called.
"""

from __future__ import annotations

from common.version import VERSION as __version__

__all__ = ["__version__", "extract_text"]


def extract_text(html: str | bytes, url: str | None = None, full: bool = False) -> str:
    """Exactly the text that ``wf`` prints for this document before line filters.

    ``url`` resolves relative links; ``full`` keeps the whole page (navigation and footer
    included) instead of the main content.
    """
    from wf.extract import extract_text as _extract_text

    return _extract_text(html, url=url, full=full)
