"""Everything ws is told, in one typed SearchOptions built at start-up: flags beat the
environment (WS_PROVIDER, WS_TIMEOUT, WS_HEDGE, the endpoint variables, WF_ALLOW_PRIVATE,
WF_ALLOW_HOSTS, the proxy variables), the environment beats the config file. Knows nothing
of click; raises UsageError (2) naming the flag or variable."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from common.errors import UsageError
from common.policy import Policy
from common.text import one_line
from ws.backends import ALIASES, BY_NAME, DEFAULT_ORDER
from ws.backends.base import Backend

if TYPE_CHECKING:
    from common.http.client import NetOptions

DEFAULT_TIMEOUT = 30.0
ATTEMPT_TIMEOUT = 15.0
DEFAULT_HEDGE = 2.5
DEFAULT_MAX_RESULTS = 10
DEFAULT_CACHE_TTL = 600.0
PROVIDER_CHOICES = ("auto", *BY_NAME)
TIME_CHOICES = ("d", "w", "m", "y")
SAFE_CHOICES = ("on", "moderate", "off")
CONFIG_NAME = "ws.toml"
# Compiled on first use (re's cache): most runs give no --region.
_REGION = r"^[a-z]{2}-[a-z]{2,3}$"


# Frozen, compared by identity (eq=False): nothing compares endpoints or options by value,
# and the __eq__ and __hash__ a dataclass compiles at import cost 0.3 ms of every run.
@dataclass(frozen=True, eq=False)
class Endpoint:
    """A backend and the URL it is asked at, with where that URL came from."""

    backend: Backend
    url: str
    source: str  # "default", or the environment variable that set it

    @property
    def trusted(self) -> bool:
        """An endpoint the operator configured may be on a private network."""
        return self.source != "default"

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or ""


@dataclass(frozen=True, eq=False)
class SearchOptions:
    """Everything one search was told, flags over environment over config file."""

    query: str
    endpoints: tuple[Endpoint, ...]  # the chain in effect, first to last
    max_results: int = DEFAULT_MAX_RESULTS
    provider: str = "auto"
    provider_source: str = "default"
    allow: tuple[str, ...] = ()
    block: tuple[str, ...] = ()
    region: str | None = None
    time: str | None = None
    safe: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    attempt_timeout: float = ATTEMPT_TIMEOUT
    hedge: float = DEFAULT_HEDGE  # seconds before the next provider joins; 0 = never
    fuse: bool = False  # --all or --engines: ask every endpoint at once and fuse the ranks
    explicit: frozenset[str] = frozenset()  # named by --provider or --engines: never skipped
    user_agent: str | None = None
    policy: Policy = field(default_factory=Policy)
    page: int = 1  # the first result page asked for
    cache_ttl: float = DEFAULT_CACHE_TTL  # seconds a stored answer is reused; 0 is off
    refresh: bool = False  # --no-cache: ask the engines, store what they answer
    # The environment the search was given (ws.api's environ=), None: os.environ. Besides
    # the variables read here, it is where the proxy variables and the cache, state and
    # config dirs are read (common.http.proxy_env, common.paths). Not in the repr: it may
    # hold a proxy's password.
    environ: Mapping[str, str] | None = field(default=None, repr=False)

    def net(self, policy: Policy) -> NetOptions:
        """An attempt's network options under ``policy``: ws has no option that raises the
        cap on a body, so its error names none (it named wf's --max-bytes)."""
        from common.http.client import NetOptions

        return NetOptions(
            self.attempt_timeout,
            user_agent=self.user_agent,
            policy=policy,
            max_bytes_flag=None,
            environ=self.environ,
        )


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """The config file's path in ``environ`` (None: os.environ)."""
    from common.paths import config_dir

    return config_dir("ws", environ=environ) / CONFIG_NAME


# A config of a few lines: more is none of ours. Read whole, a link to /dev/zero held
# 3.8 GB after 5 s, and a FIFO in its place waited for a writer for ever.
CONFIG_MAX = 1 << 20


def read_config(path: Path) -> dict[str, object]:
    """The config file's table; an absent file is an empty one. Only a regular file of at
    most CONFIG_MAX bytes is read; anything else is a usage error naming the path."""
    import stat
    import tomllib

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"cannot read {path}: not a regular file")
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(CONFIG_MAX + 1)
    if len(data) > CONFIG_MAX:
        raise UsageError(f"cannot read {path}: larger than {CONFIG_MAX >> 20} MiB")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {one_line(str(exc))}") from None
    except RecursionError:  # tomllib descends once per nested array or inline table
        raise UsageError(f"cannot read {path}: nested too deeply") from None


def canonical_provider(name: str, source: str) -> str:
    value = name.strip().lower()
    value = ALIASES.get(value, value)
    if value not in PROVIDER_CHOICES:
        raise UsageError(
            f"unknown provider {name!r} (from {source}); choose one of {', '.join(PROVIDER_CHOICES)}"
        )
    return value


def preferred_provider(
    flag: str | None,
    environ: Mapping[str, str],
    path: Path | None = None,
    dirs: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """(provider, where it came from): the flag, then WS_PROVIDER, then the config file
    (``path``, else the usual one in ``dirs``' config dir, None: os.environ's, looked up
    only now: platformdirs is not free)."""
    if flag:
        return canonical_provider(flag, "--provider"), "--provider"
    env = environ.get("WS_PROVIDER", "").strip()
    if env:
        return canonical_provider(env, "WS_PROVIDER"), "WS_PROVIDER"
    if path is None:
        from common.paths import DirUnusable

        try:
            path = config_path(dirs)
        except DirUnusable:
            if dirs is None:
                raise
            # A caller's own environment without HOME or a config dir: it has no config
            # file (os.environ's is not looked at).
    if path is not None:
        value = read_config(path).get("provider")
        if value is not None:
            if not isinstance(value, str):
                raise UsageError(f"{path}: provider must be a string")
            return canonical_provider(value, str(path)), str(path)
    return "auto", "default"


def endpoints_from_env(environ: Mapping[str, str]) -> dict[str, Endpoint]:
    """Every backend that can take part, with the endpoint it would use."""
    out: dict[str, Endpoint] = {}
    for backend in DEFAULT_ORDER:
        value = environ.get(backend.env, "").strip()
        if value:
            out[backend.name] = Endpoint(backend, _checked_url(backend.env, value), backend.env)
        elif backend.default_url:
            out[backend.name] = Endpoint(backend, backend.default_url, "default")
    return out


def _checked_url(variable: str, value: str) -> str:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise UsageError(f"{variable}={value!r} is not an http(s) URL")
    return value


def chain_for(
    provider: str, source: str, endpoints: Mapping[str, Endpoint]
) -> tuple[Endpoint, ...]:
    """The default order with the preferred provider moved to the front."""
    if provider != "auto" and provider not in endpoints:
        raise UsageError(
            f"provider {provider} (from {source}) needs {BY_NAME[provider].env}: "
            f"the root URL of a SearxNG instance, e.g. SEARXNG_URL=http://localhost:8888"
        )
    order = [endpoints[b.name] for b in DEFAULT_ORDER if b.name in endpoints]
    if provider != "auto":
        order.sort(key=lambda e: e.backend.name != provider)
    return tuple(order)


def engine_list(
    names: tuple[str, ...],
    all_engines: bool,
    provider: str | None,
    endpoints: Mapping[str, Endpoint],
) -> tuple[Endpoint, ...] | None:
    """The endpoints of --all or --engines, in the default order; None without either."""
    if not names and not all_engines:
        return None
    flag = "--all" if all_engines else "--engines"
    if names and all_engines:
        raise UsageError("--all and --engines cannot be used together: --all asks every provider")
    if provider:
        raise UsageError(f"--provider and {flag} cannot be used together")
    if all_engines:
        return tuple(endpoints[b.name] for b in DEFAULT_ORDER if b.name in endpoints)
    chosen: list[str] = []
    for item in names:
        for part in item.split(","):
            if not part.strip():
                continue
            name = canonical_provider(part, "--engines")
            if name == "auto":
                raise UsageError("--engines takes provider names; use --all for every provider")
            if name not in endpoints:
                raise UsageError(
                    f"provider {name} (from --engines) needs {BY_NAME[name].env}: "
                    f"the root URL of a SearxNG instance, e.g. SEARXNG_URL=http://localhost:8888"
                )
            if name not in chosen:
                chosen.append(name)
    if not chosen:
        raise UsageError(
            "--engines needs at least one provider name, e.g. --engines duckduckgo,brave"
        )
    return tuple(endpoints[b.name] for b in DEFAULT_ORDER if b.name in chosen)


def domains(values: tuple[str, ...], flag: str) -> tuple[str, ...]:
    from ws.results import canonical_domain

    out: list[str] = []
    for value in values:
        domain = canonical_domain(value)
        if domain is None:
            raise UsageError(f"{flag} {value!r} is not a domain name")
        if domain not in out:
            out.append(domain)
    return tuple(out)


# The engines read a few hundred characters of a query at most; one of 100 000 went out
# as URLs too long for any (exit 69, "every provider failed", for the user's input).
QUERY_MAX = 2048


def cleaned_query(query: str) -> str:
    """The query as sent and echoed: an escape sequence, bidi control or stray byte in what
    the user typed means nothing to a search engine. One that cleans up to nothing would
    be an empty search, which every engine answers: it is a missing one."""
    text = one_line(query)
    if query.strip() and not text:
        raise UsageError(
            f'missing QUERY: {query!r} is only control or invisible characters: ws "what to search for"'
        )
    if len(text) > QUERY_MAX:
        raise UsageError(
            f"QUERY is {len(text)} characters long; the engines take at most {QUERY_MAX}"
        )
    return text


def region(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip().lower().replace("_", "-")
    if not re.match(_REGION, text):
        raise UsageError(
            f"--region {value!r} is not a country-language code such as us-en, de-de or uk-en"
        )
    return text


def make_options(
    query: str,
    *,
    environ: Mapping[str, str] | None = None,
    provider: str | None = None,
    max_results: int = DEFAULT_MAX_RESULTS,
    allow: tuple[str, ...] = (),
    block: tuple[str, ...] = (),
    region_code: str | None = None,
    time: str | None = None,
    safe: str | None = None,
    timeout: float | None = None,
    user_agent: str | None = None,
    allow_private: bool | None = None,
    allow_hosts: tuple[str, ...] = (),
    config: Path | None = None,
    engines: tuple[str, ...] = (),
    all_engines: bool = False,
    page: int = 1,
    use_cache: bool = True,
) -> SearchOptions:
    from common.policy import policy_from_env
    from common.values import MAX_SECONDS, deadline_ok, env_deadline, env_seconds

    env = os.environ if environ is None else environ
    if allow and block:
        raise UsageError("--allow and --block cannot be used together: use one or the other")
    if max_results < 1:
        raise UsageError(f"--max-results must be at least 1, not {max_results}")
    if page < 1:
        raise UsageError(f"--page must be at least 1, not {page}")
    cache_ttl = env_seconds(env, "WS_CACHE_TTL", DEFAULT_CACHE_TTL, zero_ok=True)
    if timeout is None:
        timeout = env_deadline(env, "WS_TIMEOUT", DEFAULT_TIMEOUT)
    elif not deadline_ok(timeout):
        raise UsageError(
            f"--timeout must be more than 0 and at most {MAX_SECONDS:g} seconds, not {timeout:g}"
        )
    if time is not None and time not in TIME_CHOICES:
        raise UsageError(f"--time must be one of {', '.join(TIME_CHOICES)}")
    if safe is not None and safe not in SAFE_CHOICES:
        raise UsageError(f"--safe must be one of {', '.join(SAFE_CHOICES)}")
    if user_agent is not None:
        # Checked as a -H value is; the HTTP client is imported only when there is one.
        from common.http.headers import user_agent as checked_agent

        user_agent = checked_agent(user_agent)
    name, source = preferred_provider(provider, env, config, environ)
    hedge = env_seconds(env, "WS_HEDGE", DEFAULT_HEDGE, zero_ok=True)
    endpoints = endpoints_from_env(env)
    fused = engine_list(engines, all_engines, provider, endpoints)
    if fused is not None:
        chain = fused
        explicit = frozenset(e.backend.name for e in fused) if engines else frozenset()
    else:
        chain = chain_for(name, source, endpoints)
        explicit = frozenset([name]) if source == "--provider" else frozenset()
    return SearchOptions(
        query=cleaned_query(query),
        endpoints=chain,
        max_results=max_results,
        provider=name,
        provider_source=source,
        allow=domains(allow, "--allow"),
        block=domains(block, "--block"),
        region=region(region_code),
        time=time,
        safe=safe,
        timeout=timeout,
        hedge=hedge,
        fuse=fused is not None,
        explicit=explicit,
        user_agent=user_agent or None,
        policy=policy_from_env(dict(env), allow_private=allow_private, allow_hosts=allow_hosts),
        page=page,
        cache_ttl=cache_ttl,
        refresh=not use_cache,
        environ=environ,
    )
