"""Proxies from the environment (urllib's rules), checked at start-up, and what the policy
checks of a target reached through one (the proxy connects to it, not us)."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from urllib.parse import urlsplit

from common import trace
from common.errors import DNSError, Timeout, UsageError
from common.policy import Policy, check_address, check_name, parse_ip, resolve, resolve_checked

_PROXY_SCHEMES = ("http", "https")


def proxy_for(url: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The proxy URL for ``url`` from http_proxy/https_proxy (urllib's rules: the lower
    case variable wins, HTTP_PROXY is ignored under CGI, no_proxy bypasses). A proxy
    scheme we cannot speak is a usage error naming the variable."""
    import os

    env = os.environ if environ is None else environ
    parts = urlsplit(url)
    found = proxy_variable(env, parts.scheme)
    if found is None:
        return None
    import urllib.request  # only with a proxy to check no_proxy against: not a free import

    name, proxy = found
    proxies = {parts.scheme: proxy}
    no_proxy = env.get("no_proxy", env.get("NO_PROXY", ""))
    if no_proxy:
        proxies["no"] = no_proxy
    # Public in urllib.request (__all__ leaves it out, and so does typeshed).
    if urllib.request.proxy_bypass_environment(parts.hostname or "", proxies):  # type: ignore[attr-defined]
        return None
    return check_proxy_url(name, proxy)


def proxy_variable(env: Mapping[str, str], scheme: str) -> tuple[str, str] | None:
    """(variable name, value) of the proxy for ``scheme``, as urllib would pick it."""
    lower = f"{scheme.lower()}_proxy"
    if lower in env:
        value = env[lower].strip()
        return (lower, value) if value else None
    upper = lower.upper()
    if upper == "HTTP_PROXY" and "REQUEST_METHOD" in env:
        return None  # httpoxy: under CGI this variable comes from a request header
    value = env.get(upper, "").strip()
    return (upper, value) if value else None


def check_proxy_url(name: str, proxy: str) -> str:
    """The proxy URL with a scheme; UsageError when it is not one we can speak to."""
    if "://" not in proxy:
        proxy = "http://" + proxy
    scheme = proxy.split("://", 1)[0].lower()
    shown = re.sub(r"//[^/@]*@", "//...@", proxy)[:200]
    if scheme not in _PROXY_SCHEMES:
        raise UsageError(
            f"{name}={shown}: unsupported proxy scheme {scheme!r} (only http:// and https:// proxies "
            f"are supported; unset {name} or point it at an HTTP proxy)"
        )
    try:
        host = urlsplit(proxy).hostname
        urlsplit(proxy).port  # noqa: B018 (raises on a bad port)
    except ValueError as exc:
        raise UsageError(f"{name}={shown}: invalid proxy URL ({exc})") from None
    if not host:
        raise UsageError(f"{name}={shown}: invalid proxy URL (no host)")
    return proxy


def check_proxy_environment(environ: Mapping[str, str] | None = None) -> None:
    """Fail at start-up, not at the first fetch, on a proxy variable we cannot use."""
    import os

    env = os.environ if environ is None else environ
    for scheme in ("http", "https"):
        found = proxy_variable(env, scheme)
        if found is not None:
            check_proxy_url(*found)


# With --proxy-resolves, how long a lookup here may take before the name is taken as one
# only the proxy knows: a network without public DNS may drop queries rather than refuse.
_LOCAL_LOOKUP_SECONDS = 3.0


def check_proxied_target(
    policy: Policy, host: str, port: int, deadline: float, proxy_resolves: bool | None
) -> None:
    """Through a proxy we cannot pin the address: check the name and its addresses now.

    A name that does not resolve here is the proxy's to resolve only when the user says
    the proxy resolves names and enforces egress (--proxy-resolves): the policy cannot see
    where the proxy then connects. ``proxy_resolves`` None: the tool has no such option
    (ws), and a failed lookup names none."""
    check_name(policy, host)
    if parse_ip(host) is not None or not proxy_resolves:
        try:
            resolve_checked(policy, host, port, deadline=deadline)
        except DNSError as exc:
            if proxy_resolves is None:
                raise
            raise DNSError(
                f"{exc.message} (a proxy is configured for this URL: if the proxy resolves "
                "names and enforces egress, use --proxy-resolves or WF_PROXY_RESOLVES=1)"
            ) from None
        return
    try:
        addrs = resolve(
            host, port, deadline=min(deadline, time.monotonic() + _LOCAL_LOOKUP_SECONDS)
        )
    except (DNSError, Timeout):
        if time.monotonic() >= deadline:
            raise Timeout(f"timed out resolving {host}") from None
        trace.trace(
            "policy: %s does not resolve here; the proxy resolves it (--proxy-resolves)", host
        )
        return  # the proxy's to resolve: --proxy-resolves says it enforces egress
    for addr in addrs:
        check_address(policy, host, addr)
