"""The network policy inside the browser, in two layers that decide with common.policy.

1. ``FetchInterceptor`` (here): browser-level ``Fetch`` interception. Every request of every
   target (pages, out-of-process iframes, dedicated, shared and service workers; each
   redirect hop separately) is paused, decided off the event thread, then continued or
   failed. It sees full URLs, so it is what reports blocked requests.
2. ``PolicyProxy`` (wf.render.proxy): each browser context's proxy, for what Fetch
   interception never sees (WebSocket connections, ``<link rel=preconnect>``).

Both ask one ``CheckedResolver``, so a host is resolved and checked once.
"""

from __future__ import annotations

import contextlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from common.errors import DNSError, PolicyRefused, Timeout
from common.http.url import default_port
from common.policy import IPAddress, Policy, canonical_host, check_scheme, resolve_checked
from wf.render.crew import Crew

# Schemes that never reach the network; everything else must be http or https.
LOCAL_SCHEMES = ("data", "blob", "about")
RESOLVE_TIMEOUT = 5.0
MAX_BLOCKED = 50


class CheckedResolver:
    """resolve_checked with a short cache, shared by both layers: a page's host is
    resolved and checked once, and the proxy connects to an address from that answer."""

    TTL = 30.0

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, list[IPAddress] | Exception]] = {}

    def addresses(self, host: str, port: int, *, deadline: float) -> list[IPAddress]:
        """Checked addresses of ``host``; raises PolicyRefused, DNSError or Timeout."""
        key = canonical_host(host)
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            if isinstance(hit[1], Exception):
                raise hit[1]
            return hit[1]
        try:
            addrs = resolve_checked(self.policy, host, port, deadline=deadline)
        except (PolicyRefused, DNSError) as exc:
            with self._lock:
                self._cache[key] = (now + self.TTL, exc)
            raise
        with self._lock:
            self._cache[key] = (now + self.TTL, addrs)
        return addrs


def url_verdict(resolver: CheckedResolver, url: str, *, deadline: float) -> tuple[str, str] | None:
    """None when the policy allows fetching ``url``; else (CDP error reason, message)."""
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme in LOCAL_SCHEMES:
        return None
    try:
        check_scheme(scheme, url[:200])
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = default_port(parts)
        if not host:
            return "AddressUnreachable", f"refused {url[:200]}: no host"
        resolver.addresses(host, port, deadline=deadline)
    except PolicyRefused as exc:
        return "BlockedByClient", exc.message
    except DNSError as exc:
        return "NameNotResolved", exc.message
    except Timeout as exc:
        return "TimedOut", exc.message
    except ValueError:
        return "AddressUnreachable", f"refused {url[:200]}: invalid URL"
    return None


class RefusedLog:
    """What the policy refused during one render (thread-safe, de-duplicated, capped)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[str] = []
        self._seen: set[str] = set()
        self.frames: set[str] = set()
        self.dropped = 0

    def add(self, entry: str) -> None:
        with self._lock:
            if entry in self._seen:
                return
            self._seen.add(entry)
            if len(self._items) >= MAX_BLOCKED:
                self.dropped += 1
                return
            self._items.append(entry)

    def items(self) -> list[str]:
        with self._lock:
            extra = [f"... and {self.dropped} more"] if self.dropped else []
            return [*self._items, *extra]


class FetchInterceptor:
    """Browser-level Fetch interception (one per browser connection)."""

    def __init__(
        self, conn: Any, resolver: CheckedResolver, *, workers: int = 4, crew: Crew | None = None
    ) -> None:
        self._conn = conn
        self._resolver = resolver
        # Its workers are enlisted in the session's crew, which joins them at close.
        self._pool = ThreadPoolExecutor(
            max_workers=workers,
            thread_name_prefix="wf-intercept",
            initializer=crew.enlist if crew is not None else None,
        )
        self._lock = threading.Lock()
        self._watchers: list[RefusedLog] = []
        conn.on("Fetch.requestPaused", self._paused)

    def enable(self, *, timeout: float) -> None:
        self._conn.call(
            "Fetch.enable",
            timeout=timeout,
            patterns=[{"urlPattern": "*", "requestStage": "Request"}],
        )

    def watch(self, blocked: RefusedLog) -> None:
        with self._lock:
            self._watchers.append(blocked)

    def unwatch(self, blocked: RefusedLog) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._watchers.remove(blocked)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _paused(self, requestId: str, request: dict[str, Any], frameId: str = "", **_: Any) -> None:
        # The event thread only queues: a DNS lookup here would stall every other event.
        try:
            self._pool.submit(self._decide, requestId, request.get("url", ""), frameId)
        except RuntimeError:  # shut down: the browser is going away with its requests
            pass

    def _decide(self, request_id: str, url: str, frame_id: str) -> None:
        try:
            verdict = url_verdict(self._resolver, url, deadline=time.monotonic() + RESOLVE_TIMEOUT)
        except Exception:  # never leave a request paused; fail it closed
            verdict = ("Failed", f"refused {url[:200]}: policy check failed")
        try:
            if verdict is None:
                self._conn.call("Fetch.continueRequest", timeout=5.0, requestId=request_id)
                return
            reason, message = verdict
            # Recorded before the request fails: the page's error (ERR_BLOCKED_BY_CLIENT)
            # can reach the render before this thread runs again, and the render must find
            # the reason there (exit 77, not a render error).
            if reason == "BlockedByClient":
                self._report(frame_id, f"{url[:300]} ({message})")
            self._conn.call(
                "Fetch.failRequest", timeout=5.0, requestId=request_id, errorReason=reason
            )
        except Exception:
            return  # the target went away meanwhile

    def _report(self, frame_id: str, message: str) -> None:
        with self._lock:
            watchers = list(self._watchers)
        owners = [w for w in watchers if frame_id and frame_id in w.frames]
        # Workers have no frame of ours: tell every render that is running.
        for w in owners or watchers:
            w.add(message)
