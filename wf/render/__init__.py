"""wf --render: JavaScript pages in headless Chromium over raw CDP (pychrome).

Import-light on purpose: pychrome, websocket and lxml load only when a page is
rendered. The pipeline calls looks_like_js_shell, then RenderSession.render.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from common.errors import UsageError
from wf.render.detect import looks_like_js_shell, recover_next_data

MODES = ("auto", "always", "never")
DEFAULT_TIMEOUT = 25.0


@dataclass(frozen=True)
class RenderOptions:
    mode: str = "auto"  # auto | always | never  (env WF_RENDER)
    timeout: float = DEFAULT_TIMEOUT  # WF_RENDER_TIMEOUT
    browser: str | None = None  # WF_RENDER_BROWSER
    keepalive: float = 0.0  # WF_RENDER_KEEPALIVE seconds; 0 = the browser dies with this process

    @classmethod
    def from_env(cls, mode: str | None = None) -> RenderOptions:
        """Options from the environment; an explicit ``mode`` (the --render flag) wins."""
        env = os.environ
        chosen = (mode or env.get("WF_RENDER", "") or "auto").strip().lower()
        if chosen not in MODES:
            raise UsageError(f"WF_RENDER={chosen!r} is not one of auto, always, never")
        return cls(
            mode=chosen,
            timeout=_seconds("WF_RENDER_TIMEOUT", DEFAULT_TIMEOUT, minimum_exclusive=True),
            browser=env.get("WF_RENDER_BROWSER", "").strip() or None,
            keepalive=_seconds("WF_RENDER_KEEPALIVE", 0.0, minimum_exclusive=False),
        )


def _seconds(name: str, default: float, *, minimum_exclusive: bool) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise UsageError(f"{name}={raw!r} is not a number of seconds") from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0 or (minimum_exclusive and value == 0):
        raise UsageError(f"{name}={raw!r} must be a {'positive' if minimum_exclusive else 'non-negative'} number of seconds")
    return value


@dataclass
class Rendered:
    html: str
    final_url: str
    status: int | None
    blocked: list[str]  # what the network policy refused inside the browser
    timings: dict[str, float]  # seconds: launch, context, navigate, quiet, dom, total
    notes: list[str] = field(default_factory=list)  # e.g. the DOM was cut at its cap


def __getattr__(name: str) -> object:
    # RenderSession pulls in the browser machinery; only a render needs it.
    if name == "RenderSession":
        from wf.render.session import RenderSession

        return RenderSession
    raise AttributeError(name)


__all__ = ["RenderOptions", "RenderSession", "Rendered", "looks_like_js_shell", "recover_next_data"]
