"""What an agent steers a run with, checked at start-up with the other options: --select
and --remove, --images, --accept-markdown, --robots, --per-host and --delay, --wait-for
and --wait.

Import-light: wf.options imports this for its defaults; cssselect, the robots machinery
and the render waits load in ``make_steering`` only when their option is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from common.errors import UsageError

if TYPE_CHECKING:
    from common.http.cache import HttpCache
    from common.http.client import NetOptions
    from common.robots import RobotsFiles
    from wf.extract.select import Selection

DEFAULT_PER_HOST = 2
MAX_PER_HOST = 64
MAX_MS = 600_000  # --delay and --wait: ten minutes is a typo's, not a page's


@dataclass(frozen=True)
class Waits:
    """The waits of a render besides quiet (--wait-for, --wait); none by default."""

    selector: str | None = None
    fixed_ms: int = 0

    def __bool__(self) -> bool:
        return bool(self.selector or self.fixed_ms)


@dataclass(frozen=True)
class Steering:
    selection: Selection | None = None  # --select, --remove (None: neither given)
    images: bool = False  # --images
    accept_markdown: bool = True  # --accept-markdown (WF_ACCEPT_MARKDOWN)
    # --robots (WF_ROBOTS): this run's robots.txt files, fetched once per host.
    robots: RobotsFiles | None = None
    per_host: int = DEFAULT_PER_HOST  # --per-host
    delay_ms: int = 0  # --delay
    waits: Waits = Waits()  # --wait-for, --wait


def _ms(value: int | None, flag: str) -> int:
    if value is None:
        return 0
    if not 0 <= value <= MAX_MS:
        raise UsageError(f"{flag} takes milliseconds from 0 to {MAX_MS}, not {value}")
    return value


def _env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise UsageError(f"{name}={raw[:40]!r} is not 1 or 0")


def wants_markdown(env: Mapping[str, str], flag: bool | None) -> bool:
    """--accept-markdown / --no-accept-markdown, else WF_ACCEPT_MARKDOWN, else on."""
    return _env_bool(env, "WF_ACCEPT_MARKDOWN", True) if flag is None else flag


def make_steering(
    env: Mapping[str, str],
    net: NetOptions,
    *,
    render_mode: str,
    cache: bool,
    cache_max: int,
    select: tuple[str, ...] = (),
    remove: tuple[str, ...] = (),
    images: bool = False,
    accept_markdown: bool | None = None,
    robots: bool | None = None,
    per_host: int | None = None,
    delay: int | None = None,
    wait_for: str | None = None,
    wait: int | None = None,
) -> Steering:
    """The steering options, each checked (UsageError names the flag or variable)."""
    selection = None
    if select or remove or wait_for is not None:
        from wf.extract.select import Selection, check

        check(select, "--select")
        check(remove, "--remove")
        if wait_for is not None:
            check((wait_for,), "--wait-for")
        if select or remove:
            selection = Selection(tuple(select), tuple(remove))
    if per_host is not None and not 1 <= per_host <= MAX_PER_HOST:
        raise UsageError(f"--per-host must be from 1 to {MAX_PER_HOST}, not {per_host}")
    waits = Waits(wait_for, _ms(wait, "--wait"))
    if waits and render_mode == "never":
        raise UsageError("--wait-for and --wait apply to rendered pages: not with --render never")
    return Steering(
        selection=selection,
        images=images,
        accept_markdown=wants_markdown(env, accept_markdown),
        robots=_robots(env, net, robots, cache, cache_max),
        per_host=DEFAULT_PER_HOST if per_host is None else per_host,
        delay_ms=_ms(delay, "--delay"),
        waits=waits,
    )


def _robots(
    env: Mapping[str, str], net: NetOptions, flag: bool | None, cache: bool, cache_max: int
) -> RobotsFiles | None:
    if not (_env_bool(env, "WF_ROBOTS", False) if flag is None else flag):
        return None
    from common.robots import RobotsFiles

    def opener() -> HttpCache:
        from common.http.cache import open_cache

        return open_cache(cache_max)

    return RobotsFiles(net, open_cache=opener if cache else None)
