"""ws QUERY: keyless web search with a fallback chain. Options become one SearchOptions;
the search itself (ws.chain) never sees click. Only click is imported for --help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from common.clickopts import (
    completion_option,
    fresh_runs,
    given,
    shared_options,
    verbose_option,
)
from common.errors import AllFailed, Blocked, NoResults, ToolError, UsageError
from common.version import VERSION

if TYPE_CHECKING:
    from ws.config import SearchOptions

EPILOG = (
    "Providers are tried in order (duckduckgo, duckduckgo-lite, searxng when SEARXNG_URL is "
    "set, brave, mojeek) until one has results; one silent for 2.5 s (WS_HEDGE) gets the "
    "next one started beside it, and providers that were blocked or failing rest "
    "(--providers). "
    f"Exit status: 0 results, {NoResults.code} no results "
    f"anywhere, {Blocked.code} every provider blocked, {AllFailed.code} mixed failures. "
    "See man ws."
)


@click.command(
    cls=fresh_runs(lambda: _asked.clear()),  # an earlier run in this process is not this one
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=EPILOG,
)
@click.argument("query", nargs=-1)
@click.option(
    "-n",
    "--max-results",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    metavar="N",
    help="Print at most N results, asking for the engine's next pages as needed.",
)
@click.option(
    "--page",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="Start at the engine's result page N (the pages before are skipped).",
)
@click.option(
    "--provider",
    metavar="NAME",
    shell_complete=lambda ctx, param, incomplete: _provider_names(incomplete),
    help="auto, duckduckgo, duckduckgo-lite, searxng, brave or mojeek: ask it first, keep the others as "
    'fallbacks. [env WS_PROVIDER; config file: provider = "NAME"]',
)
@click.option(
    "--allow",
    multiple=True,
    metavar="DOMAIN",
    help="Keep only results from DOMAIN and its subdomains (repeatable); sent as site: "
    "where the engine supports it.",
)
@click.option(
    "--block",
    multiple=True,
    metavar="DOMAIN",
    help="Drop results from DOMAIN and its subdomains (repeatable).",
)
@click.option("--region", metavar="CC-LL", help="Region, country-language: us-en, de-de, uk-en...")
@click.option(
    "--time",
    "time_",
    type=click.Choice(["d", "w", "m", "y"]),
    help="Only pages from the past day, week, month or year.",
)
@click.option("--safe", type=click.Choice(["on", "moderate", "off"]), help="Safe search level.")
@click.option(
    "--urls",
    "urls_only",
    is_flag=True,
    help="Print only the result URLs, one per line (for: ws QUERY --urls | wf -).",
)
@shared_options(
    timeout_env="WS_TIMEOUT",
    timeout_help="Total deadline for the whole search (each attempt gets at most its share "
    "of what is left, and 15 s)",
    json_help="One JSON document: query, provider, results, attempts, error.",
)
@click.option(
    "--all",
    "all_engines",
    is_flag=True,
    help="Ask every provider at once and fuse their rankings (reciprocal rank fusion).",
)
@click.option(
    "--engines",
    multiple=True,
    metavar="A,B,...",
    help="Ask these providers at once and fuse their rankings (like --all, for some).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Ask the engines even when the same search was answered within WS_CACHE_TTL "
    "(default 600 s; 0 turns the cache off).",
)
@click.option(
    "--providers",
    "show_providers",
    is_flag=True,
    help="Print the provider chain in effect, its endpoints, each provider's health and "
    "the configuration, and exit.",
)
@click.option(
    "--reset-health",
    is_flag=True,
    help="Forget every provider's health (blocks and failures remembered between runs), and exit.",
)
@verbose_option(
    "ws",
    "each attempt (provider, address, status, timing, outcome) and the policy's decisions",
)
@completion_option("ws")
@click.version_option(VERSION, prog_name="ws", message="%(prog)s %(version)s")
def command(
    query: tuple[str, ...],
    max_results: int,
    page: int,
    provider: str | None,
    allow: tuple[str, ...],
    block: tuple[str, ...],
    region: str | None,
    time_: str | None,
    safe: str | None,
    urls_only: bool,
    as_json: bool,
    timeout: float | None,
    allow_private: bool | None,
    allow_hosts: tuple[str, ...],
    user_agent: str | None,
    all_engines: bool,
    engines: tuple[str, ...],
    no_cache: bool,
    show_providers: bool,
    reset_health: bool,
    verbose: bool,
) -> int:
    """Search the web without an API key and print numbered results."""
    from common import trace
    from common.http.proxy_env import check_proxy_environment
    from common.output import write, write_json
    from ws import config, view

    text = " ".join(query).strip()
    if reset_health:
        return _reset_health(as_json)
    if not text and not show_providers:
        raise UsageError('missing QUERY: ws "what to search for"')
    if as_json and urls_only:
        raise UsageError("--json and --urls cannot be used together")
    trace.enable("ws", verbose)
    # A proxy variable we cannot use ends the command now, not at the first fetch.
    check_proxy_environment()
    # The config file's path only where it is shown: a --provider run never reads it.
    config_file = config.config_path() if show_providers else None
    options = config.make_options(
        # --providers searches nothing: a query beside it is not checked.
        "" if show_providers else text,
        provider=provider,
        max_results=max_results,
        allow=allow,
        block=block,
        region_code=region,
        time=time_,
        safe=safe,
        # Left at its default, --timeout gives way to WS_TIMEOUT.
        timeout=given("timeout", timeout),
        user_agent=user_agent,
        allow_private=True if allow_private else None,
        allow_hosts=allow_hosts,
        config=config_file,
        engines=engines,
        all_engines=all_engines,
        page=page,
        use_cache=not no_cache,
    )
    if show_providers:
        info = view.providers(options, config_file or config.config_path())
        if as_json:
            write_json(info)
        else:
            write(view.providers_text(info))
        return 0
    # A signal or an error from here on answers --json with the query it stopped.
    _asked.append(options.query)
    return _search(options, as_json=as_json, urls_only=urls_only)


def _reset_health(as_json: bool) -> int:
    """--reset-health: forget every provider's health, say so."""
    from common.output import write, write_json
    from ws import health

    path = health.reset()
    if as_json:
        write_json({"health_reset": True, "path": str(path) if path else None})
    else:
        write(f"provider health cleared ({path})\n" if path else "no provider health kept\n")
    return 0


def _search(options: SearchOptions, *, as_json: bool, urls_only: bool) -> int:
    """The search (or its cached answer), printed; the exit code."""
    from common.output import diag, write, write_json
    from common.run import error_line
    from ws import view
    from ws.api import answer

    report, hit = answer(options, lambda line: diag("ws", line))
    if as_json:
        write_json(view.json_doc(report, cached=hit is not None))
    elif urls_only:
        write(view.urls(report))
    elif report.results:
        write(view.text(report, cached_age=hit.age if hit else None))
    if report.error is not None:
        error_line("ws", report.error)
        return report.error.code
    return 0


def _provider_names(incomplete: str) -> list[str]:
    """What the shell completes after --provider: the names --provider takes."""
    from ws.config import PROVIDER_CHOICES

    return [name for name in PROVIDER_CHOICES if name.startswith(incomplete)]


# The query of the run under way (as wf.cli keeps its pending URLs): Ctrl-C or SIGTERM
# mid-search is answered by run_cli, which knows only the error.
_asked: list[str] = []


def json_error(exc: ToolError, query: str | None = None) -> dict[str, Any]:
    # Failures before any search (usage, Ctrl-C) still give one document with every key;
    # the watchdog knows the query of a search it stopped.
    return {
        "query": query if query is not None else (_asked[-1] if _asked else None),
        "provider": None,
        "providers": [],
        "results": [],
        "attempts": [],
        "error": exc.as_json(),
        "cached": False,
    }


def main(argv: Sequence[str] | None = None) -> None:
    from common.run import main_exit, run_cli

    main_exit(run_cli("ws", command, argv, json_error=json_error))
