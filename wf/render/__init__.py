"""wf --render: JavaScript pages in headless Chromium over raw CDP (pychrome).

Import-light on purpose: pychrome, websocket and lxml load only when a page is
rendered. The pipeline calls looks_like_js_shell, then RenderSession.render.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wf.options import RenderOptions  # built with the run's options (wf.options.make_options)
from wf.render.detect import looks_like_js_shell, recover_next_data

# Apart, so that session.py takes it without importing this package (no circle).
from wf.render.rendered import Rendered

if TYPE_CHECKING:
    # The checker sees the class; at run time __getattr__ below imports it on first use.
    from wf.render.session import RenderSession


def __getattr__(name: str) -> object:
    # RenderSession pulls in the browser machinery; only a render needs it.
    if name == "RenderSession":
        from wf.render.session import RenderSession

        return RenderSession
    raise AttributeError(name)


__all__ = ["RenderOptions", "RenderSession", "Rendered", "looks_like_js_shell", "recover_next_data"]
