"""wf: fetch a web page and print its clean, readable text.

Library use (wf.api; lxml and the HTTP client are imported only when called)::

    import wf
    page = wf.extract(html, url="https://example.com/a", full=True)   # -> wf.api.Page
    page = wf.fetch("https://example.com/a", timeout=10)
    page.text, page.metadata, page.to_json()   # to_json: the line `wf --json` prints
    wf.extract_text(html)                        # the text alone
    wf.stop_render_keepalive()                   # the shared browser (WF_RENDER_KEEPALIVE) stopped now

Options are the CLI's (wf.options.WfFlags fields, checked as the flags are: a bad value
raises ValueError with the CLI's message); errors are common.errors.ToolError, which
carry the CLI's exit code (``.code``) and kind (``.kind``).
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

from common.version import VERSION as __version__

# wf.extract is also the extractor's package (wf/extract/, light until a page is read):
# the package itself is made callable, so that ``wf.extract(html)`` stays the library call
# after the pipeline imports wf.extract.core (which rebinds the name to the package).
from wf import extract as _package

if TYPE_CHECKING:
    from wf.api import Page
    from wf.options import WfOptions

__all__ = [
    "__version__",
    "build_options",
    "extract",
    "extract_text",
    "fetch",
    "stop_render_keepalive",
]


class _CallableExtract(types.ModuleType):
    def __call__(self, html: str | bytes, url: str | None = None, **options: Any) -> Page:
        """wf.api.extract: a document through wf's pipeline, as a Page."""
        from wf.api import extract as _extract

        return _extract(html, url, **options)


_package.__class__ = _CallableExtract


def fetch(url: str, **options: Any) -> Page:
    """wf.api.fetch: a URL fetched and read as ``wf URL --json`` does, as a Page."""
    from wf.api import fetch as _fetch

    return _fetch(url, **options)


def build_options(**flags: Any) -> WfOptions:
    """wf.api.build_options: WfOptions built once, to pass as ``options=`` to many calls
    (``wf.options`` is the module that defines them)."""
    from wf.api import build_options as _build

    return _build(**flags)


def extract_text(html: str | bytes, url: str | None = None, full: bool = False) -> str:
    """Exactly the text that ``wf`` prints for this document before line filters: the
    text of ``wf.extract(html, url=url, full=full)``.
    """
    from wf.api import extract as _extract

    return _extract(html, url, full=full).text


def stop_render_keepalive(*, timeout: float = 10.0) -> bool:
    """wf.api.stop_render_keepalive: the browser WF_RENDER_KEEPALIVE keeps, stopped now;
    True when one was running (as ``wf --render-stop``)."""
    from wf.api import stop_render_keepalive as _stop

    return _stop(timeout=timeout)
