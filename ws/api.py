"""ws as a library: ``search`` runs the CLI's own search (the cached answer or the chain,
``answer``, which ws/cli.py calls too) and returns ``Results``, whose ``to_json`` is the
line ``ws --json`` prints. Options are make_options' keywords, checked as the flags are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common.errors import UsageError

if TYPE_CHECKING:
    from ws.cache import Hit
    from ws.chain import Report
    from ws.config import SearchOptions


class OptionError(UsageError, ValueError):
    """A bad option value: the CLI's message and exit code 2, and a ValueError."""


class Results:
    """One search's answer. ``document`` is the --json object, as a copy: a caller who
    changes it changes neither these Results nor what they came from. (A plain class:
    the document is kept where no attribute reaches it, and no dataclass is compiled at
    import.)"""

    __slots__ = ("_document",)
    _document: dict[str, Any]

    def __init__(self, document: dict[str, Any]) -> None:
        object.__setattr__(self, "_document", document)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Results are read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Results are read-only: {name} cannot be deleted")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Results):
            return NotImplemented
        return bool(self._document == other._document)

    __hash__ = None  # type: ignore[assignment]  # equal by a document, which can change

    def __repr__(self) -> str:
        return f"Results(document={self._document!r})"

    def __reduce__(self) -> tuple[type[Results], tuple[dict[str, Any]]]:
        # Pickled as made (a cluster's workers send them): slots and a refused setattr
        # would defeat pickle's default.
        return Results, (self._document,)

    @property
    def document(self) -> dict[str, Any]:
        """The --json object, a copy made at each read (25 us for 10 fused results, a
        third of copy.deepcopy's cost)."""
        copied: dict[str, Any] = _json_copy(self._document)
        return copied

    @property
    def query(self) -> str:
        return str(self._document["query"])

    @property
    def provider(self) -> str | None:
        value = self._document["provider"]
        return None if value is None else str(value)

    @property
    def results(self) -> list[dict[str, Any]]:
        """Each result's url, title, snippet (and the rest of its JSON), as copies: a caller
        who changes them changes neither these Results nor what they came from."""
        copied: list[dict[str, Any]] = _json_copy(self._document["results"])
        return copied

    @property
    def cached(self) -> bool:
        return bool(self._document["cached"])

    def __len__(self) -> int:
        return len(self._document["results"])

    def to_json(self) -> str:
        """The line ``ws --json`` prints for this search, without its line end."""
        from common.output import json_line

        return json_line(self._document).rstrip("\n")


def _json_copy(value: Any) -> Any:
    """A JSON-shaped value copied whole (dicts and lists new, the rest immutable), with
    none of copy.deepcopy's memo: a document holds no object twice, nor a cycle."""
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    return value


def answer(options: SearchOptions, say: Callable[[str], None]) -> tuple[Report, Hit | None]:
    """The search's report: the cache's, when fresh, else the chain's (then kept)."""
    from ws import cache, chain

    hit = cache.load(options)
    if hit is not None:
        return hit.report, hit
    report = chain.run(options, say=say)
    cache.store(options, report)
    return report, None


def search(query: str, **options: Any) -> Results:
    """Search as ``ws QUERY --json`` does; keywords are ws.config.make_options' (provider,
    max_results, allow, block, region_code, time, safe, timeout, engines, all_engines,
    page, use_cache, environ). ``environ`` replaces os.environ whole for this search: the
    variables ws reads, the proxy variables (HTTP_PROXY, NO_PROXY...), TLS's CA store and
    key log (SSL_CERT_FILE, SSL_CERT_DIR, SSLKEYLOGFILE) and the cache, state and config
    dirs (WS_CACHE_DIR, WS_STATE_DIR, WS_CONFIG_DIR, else XDG_*_HOME or HOME: without
    any, that search keeps no cache or health and reads no config file).
    Raises the ToolError of the CLI's exit code when the search fails (NoResults,
    AllFailed, UsageError for a bad option or variable found during the search...)."""
    from ws import config, view

    if not isinstance(query, str) or not query.strip():
        raise OptionError('missing QUERY: ws "what to search for"')
    for name in ("allow", "block", "allow_hosts", "engines"):
        # One str is that one value (engines="brave,mojeek" as --engines takes it), not
        # its characters.
        if isinstance(options.get(name), str):
            options[name] = (options[name],)
    _check_types(options)
    from common.http.proxy_env import check_proxy_environment

    try:
        opts = config.make_options(query, **options)
        # As the CLI does at start-up: a proxy variable no fetch can use failed each
        # attempt as a network failure, and three such searches rested every engine for
        # 2 minutes in the health file the CLI reads too, the variable fixed or not.
        check_proxy_environment(options.get("environ"))
    except UsageError as exc:
        raise OptionError(exc.message) from None
    report, hit = answer(opts, lambda line: None)
    if isinstance(report.error, UsageError):
        # Found during the search (a variable no fetch can use...): as one found before it.
        raise OptionError(report.error.message) from None
    if report.error is not None:
        raise report.error
    return Results(view.json_doc(report, cached=hit is not None))


# The kind (common.apitypes.KINDS) of each option click types on the command line: a
# library caller's values are checked as the CLI's are, naming the flag (max_results="3"
# failed as "'<' not supported between instances of 'str' and 'int'", region_code=5 as an
# AttributeError, all_engines="no" asked every engine).
_TYPES: dict[str, tuple[str, str]] = {
    "max_results": ("--max-results", "whole"),
    "page": ("--page", "whole"),
    "timeout": ("--timeout", "seconds?"),
    "provider": ("--provider", "text?"),
    "region_code": ("--region", "text?"),
    "time": ("--time", "text?"),
    "safe": ("--safe", "text?"),
    "user_agent": ("--user-agent", "text?"),
    "allow": ("--allow", "texts"),
    "block": ("--block", "texts"),
    "allow_hosts": ("--allow-host", "texts"),
    "engines": ("--engines", "texts"),
    "all_engines": ("--all", "flag"),
    "use_cache": ("--no-cache", "flag"),
    "allow_private": ("--allow-private", "flag?"),
}


def _check_types(options: dict[str, Any]) -> None:
    """OptionError naming the flag when a value is not of the type its flag takes."""
    from common.apitypes import wrong, wrong_environ

    message = wrong_environ(options.get("environ"))
    for name, value in options.items():
        if message is None and name in _TYPES:
            message = wrong(*_TYPES[name], value)
    if message is not None:
        raise OptionError(message)
