"""The network policy inside Chromium: a page on 127.0.0.1 (allowed) tries to reach
127.0.0.2 (forbidden) every way a page can, and a tripwire on 127.0.0.2 must see nothing.

Vectors: img, fetch, XHR, redirect (of an image and of a fetch), iframe, cross-site
iframe (an out-of-process frame), Worker, SharedWorker, ServiceWorker, WebSocket,
EventSource, beacon, preconnect, dns-prefetch, prefetch, script, CSS @import,
background image, WebRTC (STUN over UDP). The control run allows 127.0.0.2 and shows
that the same page does reach it, so the blocked run cannot pass by accident.
"""

from __future__ import annotations

import re
import time

import pytest

from common.policy import Policy
from tests.fixtures.render.server import FixtureServer, Tripwire, browser_skip_reason
from wf.render import Rendered, RenderOptions, RenderSession
from wf.render.intercept import FetchInterceptor

REASON = browser_skip_reason()
pytestmark = [pytest.mark.browser, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

ALLOWED = frozenset({"127.0.0.1", "localhost"})  # localhost serves the cross-site iframe
VECTORS = 11  # promises the page waits for (the other vectors are fire-and-forget)


def render_vectors(server: FixtureServer, hosts: frozenset[str]) -> Rendered:
    with RenderSession(
        RenderOptions(mode="always", timeout=20), policy=Policy(allow_hosts=hosts)
    ) as s:
        rendered = s.render(server.url("vectors.html"), deadline=time.monotonic() + 20)
    # Every vector was attempted before the render ended, or this run proves nothing.
    assert f"All {VECTORS} vectors were attempted." in rendered.html
    return rendered


def paths(hits: list[str]) -> set[str]:
    return {m.group(1) for h in hits if (m := re.search(r"(?:GET|POST) (/[\w./-]*)", h))}


# The vectors of vectors.html that Fetch interception sees, each redirect hop on its own.
FETCH_VECTORS = (
    "/img.png",
    "/fetch",
    "/xhr",
    "/redirected.png",
    "/redirected-fetch",
    "/iframe",
    "/worker",
    "/shared-worker",
    "/service-worker",
    "/child-fetch",
    "/sse",
    "/import.css",
    "/background.png",
)


def test_nothing_reaches_a_forbidden_address(server: FixtureServer, tripwire: Tripwire) -> None:
    rendered = render_vectors(server, ALLOWED)
    time.sleep(0.3)
    assert tripwire.hits == []
    blocked = " ".join(rendered.blocked)
    # Fetch interception saw and refused these (full URLs, each redirect hop on its own):
    for path in FETCH_VECTORS:
        assert f"{tripwire.origin}{path} (refused 127.0.0.2" in blocked, path
    # The WebSocket never shows up in Fetch: the policy proxy refused its CONNECT.
    assert f"connection to 127.0.0.2:{tripwire.port} at the proxy (refused 127.0.0.2" in blocked
    # The page's own content rendered.
    assert "Every way out" in rendered.html


def test_control_the_same_page_reaches_an_allowed_address(
    server: FixtureServer, tripwire: Tripwire
) -> None:
    tripwire.expect_hits = True
    rendered = render_vectors(server, ALLOWED | {"127.0.0.2"})
    time.sleep(0.3)
    reached = paths(tripwire.hits)
    # Reached too: what Fetch does not list on its own (the child frame's picture, the
    # WebSocket, the beacon, the script).
    for path in (*FETCH_VECTORS, "/child-img.png", "/ws", "/beacon", "/script.js"):
        assert path in reached, (path, sorted(reached))
    assert rendered.blocked == []
    # WebRTC may only use the proxy, so its STUN request never goes out over UDP.
    assert not [h for h in tripwire.hits if h.startswith("udp")]


def test_the_proxy_alone_holds_the_line(
    server: FixtureServer, tripwire: Tripwire, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Fetch interception switched off, every request still meets the policy proxy."""
    monkeypatch.setattr(FetchInterceptor, "enable", lambda self, timeout: None)
    rendered = render_vectors(server, ALLOWED)
    time.sleep(0.3)
    assert tripwire.hits == []
    assert any("at the proxy" in b for b in rendered.blocked)
    assert not any("(refused" in b and "at the proxy" not in b for b in rendered.blocked)
