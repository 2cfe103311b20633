"""What ws prints on stdout: results as text, as bare URLs, as JSON, and the provider
chain. Pure functions from data to text; common.output writes them.

Every field printed passes common/text.py's one-line policy here, whatever its source:
results are cleaned when a backend hands them over, but a cached entry, the health file
or an engine's message reaches the output by other roads, and a title that went out raw
cleared the screen and set the window title. Cleaning clean text changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from common.text import one_line
from ws.backends import BY_NAME, DEFAULT_ORDER
from ws.chain import Report
from ws.config import SearchOptions


def text(report: Report, cached_age: float | None = None) -> str:
    names = report.providers or ([report.provider] if report.provider else [])
    label = ", ".join(BY_NAME[name].label for name in names if name in BY_NAME) or "none"
    n = len(report.results)
    about = [f"via {label}", f"{n} result" if n == 1 else f"{n} results"]
    if cached_age is not None:
        about.append(f"cached {_age(cached_age)} ago")
    lines = [f'Search results for: "{one_line(report.query)}" ({", ".join(about)})']
    for r in report.results:
        lines += ["", f"{r.rank}. {one_line(r.title)}", f"   {one_line(r.url)}"]
        snippet = one_line(r.snippet)
        if snippet:
            lines.append(f"   {snippet}")
    return "\n".join(lines) + "\n"


def json_doc(report: Report, *, cached: bool) -> dict[str, Any]:
    """The --json document of a search, every string in it cleaned."""
    out: dict[str, Any] = cleaned({**report.as_json(), "cached": cached})
    return out


def cleaned(value: Any) -> Any:
    """``value`` (JSON-shaped) with every string, keys too, under the one-line policy."""
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, dict):
        return {cleaned(k): cleaned(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [cleaned(v) for v in value]
    return value


def _age(seconds: float) -> str:
    return f"{int(seconds)} s" if seconds < 120 else f"{int(seconds // 60)} min"


def urls(report: Report) -> str:
    return "".join(f"{one_line(r.url)}\n" for r in report.results)


def providers(options: SearchOptions, config_file: Path) -> dict[str, Any]:
    chain = {e.backend.name for e in options.endpoints}
    info: dict[str, Any] = {
        "provider": options.provider,
        "provider_source": options.provider_source,
        "chain": [
            {
                "provider": e.backend.name,
                "url": e.url,
                "source": e.source,
                "variable": e.backend.env,
            }
            for e in options.endpoints
        ],
        "not_configured": [
            {"provider": b.name, "variable": b.env} for b in DEFAULT_ORDER if b.name not in chain
        ],
        "config_file": str(config_file),
        "config_file_exists": config_file.is_file(),
        "timeout": options.timeout,
        "attempt_timeout": options.attempt_timeout,
        "hedge": options.hedge,
        "health": _health(options),
        "allow_private": options.policy.allow_private,
        "allow_hosts": sorted(options.policy.allow_hosts),
    }
    # The health file's reasons and the variables' URLs are printed too, in both forms.
    out: dict[str, Any] = cleaned(info)
    return out


def _health(options: SearchOptions) -> dict[str, Any]:
    import time

    from ws import health

    entries = health.load(options.environ)
    now = time.time()
    out: dict[str, Any] = {}
    for e in options.endpoints:
        entry = entries.get(health.key(e.backend.name, e.url))
        if entry is None:
            # The same keys as a remembered provider's: a reader of the JSON finds each.
            out[e.backend.name] = {
                "state": "ok",
                "retry_at": None,
                "blocks": 0,
                "failures": 0,
                "reason": None,
            }
            continue
        out[e.backend.name] = {
            "state": "resting" if entry.resting(now) else "ok",
            "retry_at": health.clock(entry.until) if entry.resting(now) else None,
            "blocks": entry.blocks,
            "failures": entry.failures,
            "reason": entry.reason,
        }
    return out


def _health_text(state: dict[str, Any]) -> str:
    if state["state"] == "resting":
        return f"resting until {state['retry_at']} after {state['reason']}"
    if state["blocks"] or state["failures"]:
        return f"ok ({state['blocks']} blocked, {state['failures']} failed in a row; last: {state['reason']})"
    return "ok"


def providers_text(info: dict[str, Any]) -> str:
    source = (
        "the default" if info["provider_source"] == "default" else f"from {info['provider_source']}"
    )
    lines = [f"Provider chain (preferred: {info['provider']}, {source}):"]
    width = max(len(e["provider"]) for e in info["chain"])
    for i, e in enumerate(info["chain"], 1):
        where = (
            "default endpoint"
            if e["source"] == "default"
            else f"from {e['source']}, trusted by the network policy"
        )
        lines.append(f"  {i}. {e['provider']:<{width}}  {e['url']}  ({where})")
    for e in info["not_configured"]:
        lines.append(
            f"  -  {e['provider']:<{width}}  not in the chain: set {e['variable']} to an instance's root URL"
        )
    lines.append("Health (kept between runs; ws --reset-health forgets it):")
    for e in info["chain"]:
        state = info["health"][e["provider"]]
        lines.append(f"  {e['provider']:<{width}}  {_health_text(state)}")
    state = "present" if info["config_file_exists"] else "absent"
    hosts = ", ".join(info["allow_hosts"]) or "none"
    lines += [
        "Configuration:",
        f'  config file    {info["config_file"]} ({state}; provider = "NAME" sets the preferred provider)',
        f"  timeout        {info['timeout']:g} s in total; an attempt gets its share of what is left, at most {info['attempt_timeout']:g} s",
        f"  hedge          {_hedge_text(info['hedge'])}",
        f"  private nets   {'allowed' if info['allow_private'] else 'refused'}; always allowed hosts: {hosts}",
        "  endpoints      WS_DUCKDUCKGO_URL, WS_DUCKDUCKGO_LITE_URL, WS_BRAVE_URL, WS_MOJEEK_URL, SEARXNG_URL replace the defaults",
    ]
    return "\n".join(lines) + "\n"


def _hedge_text(hedge: float) -> str:
    if hedge <= 0:
        return "off (WS_HEDGE=0): one provider at a time"
    return f"the next provider starts after {hedge:g} s without an answer (WS_HEDGE)"
