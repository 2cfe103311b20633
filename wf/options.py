"""The typed options of one wf run, built and checked at start-up from the flags and the
environment together (make_options), so that every configuration error is exit 2 naming
its flag or variable before any traffic. The CLI passes what the command line said; the
pipeline and the renderer read the result. Nothing here knows click.

Import-light on purpose: the CLI imports this module for --help (RENDER_MODES).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from common.errors import UsageError
from wf.steering import Steering

if TYPE_CHECKING:
    from common.http.client import NetOptions
    from wf.lines import Regex
    from wf.pdf.pagespec import PageSpec
    from wf.save import ScratchLimits

DEFAULT_MAX_LENGTH = 20_000
DEFAULT_AUTOSAVE_BYTES = 10_000
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = "10M"  # as --help shows it
DEFAULT_RENDER_TIMEOUT = 25.0
PREVIEW_CHARS = 5_000
DEFAULT_PDF_MAX_PAGES = 2_000  # WF_PDF_MAX_PAGES: pages of one PDF read at most
MAX_RETRIES = 10  # more is a typo: each one waits longer than the last
DEFAULT_CACHE_MAX = "200M"  # WF_CACHE_MAX, as the man page shows it
# --render and WF_RENDER: the one place these are spelled.
RENDER_MODES = ("auto", "always", "never")
AUTO, ALWAYS, NEVER = RENDER_MODES


@dataclass(frozen=True)
class RenderOptions:
    mode: str = "auto"  # one of RENDER_MODES (--render, WF_RENDER)
    timeout: float = DEFAULT_RENDER_TIMEOUT  # WF_RENDER_TIMEOUT
    browser: str | None = None  # WF_RENDER_BROWSER
    keepalive: float = 0.0  # WF_RENDER_KEEPALIVE seconds; 0 = the browser dies with this process

    @classmethod
    def from_env(
        cls, mode: str | None = None, environ: Mapping[str, str] | None = None
    ) -> RenderOptions:
        """Options from the environment; an explicit ``mode`` (the --render flag) wins."""
        from common.values import env_choice, env_seconds

        env = os.environ if environ is None else environ
        if mode is not None and mode not in RENDER_MODES:
            raise UsageError(f"--render {mode!r} is not one of {', '.join(RENDER_MODES)}")
        return cls(
            mode=mode or env_choice(env, "WF_RENDER", "auto", RENDER_MODES),
            timeout=env_seconds(env, "WF_RENDER_TIMEOUT", DEFAULT_RENDER_TIMEOUT, zero_ok=False),
            browser=env.get("WF_RENDER_BROWSER", "").strip() or None,
            keepalive=env_seconds(env, "WF_RENDER_KEEPALIVE", 0.0, zero_ok=True),
        )


@dataclass(frozen=True)
class WfOptions:
    net: NetOptions
    full: bool = False
    links: bool = False
    raw: bool = False
    filter: Regex | None = None
    exclude: Regex | None = None
    from_line: int | None = None
    to_line: int | None = None
    max_length: int = DEFAULT_MAX_LENGTH  # 0 means no limit
    save: bool = False
    save_path: str | None = None
    no_save: bool = False
    autosave_bytes: int = DEFAULT_AUTOSAVE_BYTES
    rendering: RenderOptions = RenderOptions()
    base_url: str | None = None
    as_json: bool = False
    meta: bool = False  # --meta: a header (title, author, date, URL) above the text
    pages: PageSpec | None = None  # --pages: the PDF pages read (None: all)
    pdf_max_pages: int = DEFAULT_PDF_MAX_PAGES
    scratch: ScratchLimits | None = None  # pruning of the scratch dir; None: no pruning
    verbose: bool = False  # -v: the trace (common.trace) on stderr
    quiet: bool = False  # --quiet: no notes, no progress line
    retry: int = 0  # --retry, WF_RETRY: attempts after the first, for transient failures
    cache: bool = False  # --cache, WF_CACHE
    cache_max: int = 200 * 1024 * 1024  # WF_CACHE_MAX bytes
    # --select, --remove, --images, --accept-markdown, --robots, --per-host, --delay,
    # --wait-for, --wait (wf/steering.py)
    steering: Steering = Steering()
    warc_out: str | None = None  # --warc-out: every fetched answer archived in this file

    @property
    def render(self) -> str:
        """The render mode, one of RENDER_MODES."""
        return self.rendering.mode

    @property
    def narrows(self) -> bool:
        """Any option that asks for part of the page turns auto-save off."""
        return bool(
            self.filter
            or self.exclude
            or self.from_line
            or self.to_line
            or self.save
            or self.save_path
            or self.no_save
        )


@dataclass(frozen=True)
class WfFlags:
    """What the command line said, one field a flag: None (or False, or empty) where it
    said nothing, so that the flag's variable and then its default stand in. wf/cli.py
    builds it; make_options checks it with the environment."""

    filter: str | None = None
    exclude: str | None = None
    from_line: int | None = None
    to_line: int | None = None
    max_length: int | None = None
    save: bool = False
    save_path: str | None = None
    no_save: bool = False
    full: bool = False
    links: bool = False
    raw: bool = False
    render: str | None = None
    input_file: str | None = None
    base_url: str | None = None
    max_bytes: int | None = None
    timeout: float | None = None
    as_json: bool = False
    meta: bool = False
    pages: str | None = None
    allow_private: bool | None = None
    allow_hosts: tuple[str, ...] = ()
    user_agent: str | None = None
    verbose: bool = False
    quiet: bool = False
    headers: tuple[str, ...] = ()
    retry: int | None = None
    cache: bool | None = None
    proxy_resolves: bool | None = None
    select: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    images: bool = False
    accept_markdown: bool | None = None
    robots: bool | None = None
    per_host: int | None = None
    delay: int | None = None
    wait_for: str | None = None
    wait: int | None = None
    warc: bool = False  # --warc: the arguments are WARC files to read, not URLs
    warc_out: str | None = None


def make_options(
    environ: Mapping[str, str] | None = None, flags: WfFlags | None = None
) -> WfOptions:
    """Every flag (None: not given) with every WF_* variable: a flag beats its variable,
    a variable beats the default. Raises UsageError (2) naming the flag or variable."""
    from common.values import env_flag, env_int, env_size, parse_size
    from wf.lines import compile_regex
    from wf.pdf.pagespec import parse_pages
    from wf.save import confine_name

    env = os.environ if environ is None else environ
    f = WfFlags() if flags is None else flags
    max_length = _max_length(f, env)
    if f.no_save and (f.save or f.save_path):
        raise UsageError("--no-save conflicts with --save/--save-path")
    confined = confine_name(f.save_path) if f.save_path is not None else None
    if f.base_url and not f.input_file:
        raise UsageError("--base-url goes with --input")
    _check_warc(f)
    keep = compile_regex(f.filter, "--filter") if f.filter is not None else None
    drop = compile_regex(f.exclude, "--exclude") if f.exclude is not None else None
    autosave = env_int(env, "WF_AUTOSAVE_BYTES", DEFAULT_AUTOSAVE_BYTES)
    page_spec = parse_pages(f.pages) if f.pages is not None else None
    pdf_max_pages = env_int(env, "WF_PDF_MAX_PAGES", DEFAULT_PDF_MAX_PAGES)
    if pdf_max_pages < 1:
        raise UsageError(f"WF_PDF_MAX_PAGES must be 1 or more, not {pdf_max_pages}")
    scratch = scratch_limits(env)
    timeout = _timeout(f, env)
    max_bytes = _max_bytes(f, env)
    retry = _retry(f, env)
    cache = env_flag(env, "WF_CACHE") if f.cache is None else f.cache
    cache_max = env_size(env, "WF_CACHE_MAX", parse_size(DEFAULT_CACHE_MAX))
    net = _net_options(f, env, timeout, max_bytes)
    rendering = RenderOptions.from_env(f.render, env)
    steering = _steering(f, env, net, rendering, cache, cache_max)
    return WfOptions(
        net=net,
        full=f.full,
        links=f.links,
        raw=f.raw,
        filter=keep,
        exclude=drop,
        from_line=f.from_line,
        to_line=f.to_line,
        max_length=max_length,
        save=f.save,
        save_path=confined or None,
        no_save=f.no_save,
        autosave_bytes=autosave,
        rendering=rendering,
        base_url=f.base_url,
        as_json=f.as_json,
        meta=f.meta,
        pages=page_spec,
        pdf_max_pages=pdf_max_pages,
        scratch=scratch,
        verbose=f.verbose,
        quiet=f.quiet,
        retry=retry,
        cache=cache,
        cache_max=cache_max,
        warc_out=f.warc_out,
        steering=steering,
    )


def _steering(
    f: WfFlags,
    env: Mapping[str, str],
    net: NetOptions,
    rendering: RenderOptions,
    cache: bool,
    cache_max: int,
) -> Steering:
    from wf.steering import make_steering

    return make_steering(
        env,
        net,
        render_mode=rendering.mode,
        cache=cache,
        cache_max=cache_max,
        select=f.select,
        remove=f.remove,
        images=f.images,
        accept_markdown=f.accept_markdown,
        robots=f.robots,
        per_host=f.per_host,
        delay=f.delay,
        wait_for=f.wait_for,
        wait=f.wait,
    )


def _check_warc(f: WfFlags) -> None:
    if f.warc and f.input_file:
        raise UsageError("--warc reads WARC files; give no --input with it")
    if f.warc_out is not None and (f.warc or f.input_file):
        raise UsageError("--warc-out archives what is fetched; --warc and --input fetch nothing")
    if f.warc_out is not None and not f.warc_out.strip():
        raise UsageError("--warc-out needs a file name")


def _max_length(f: WfFlags, env: Mapping[str, str]) -> int:
    """--from, --to and --max-length (or WF_MAX_LENGTH) checked; the max length."""
    from common.values import env_int

    for flag, value in (("--from", f.from_line), ("--to", f.to_line)):
        if value is not None and value < 1:
            raise UsageError(f"{flag} must be 1 or more (lines are numbered from 1), not {value}")
    if f.from_line and f.to_line and f.from_line > f.to_line:
        raise UsageError(f"--from {f.from_line} is after --to {f.to_line}")
    # The line names where the value came from: the flag, or the variable that stood in.
    length_from = "--max-length"
    max_length = f.max_length
    if max_length is None:
        max_length = env_int(env, "WF_MAX_LENGTH", DEFAULT_MAX_LENGTH)
        length_from = f"WF_MAX_LENGTH={env.get('WF_MAX_LENGTH', '')!r}:"
    if max_length < 0:
        raise UsageError(f"{length_from} must be 0 (no limit) or more, not {max_length}")
    return max_length


def _retry(f: WfFlags, env: Mapping[str, str]) -> int:
    from common.values import env_int

    if f.retry is None:
        retry = env_int(env, "WF_RETRY", 0)
        source = "WF_RETRY"
    else:
        retry = f.retry
        source = "--retry"
    if not 0 <= retry <= MAX_RETRIES:
        raise UsageError(f"{source} must be from 0 to {MAX_RETRIES}, not {retry}")
    return retry


# The flags' own checks are click's on the command line: a library caller gives values
# straight, so they are checked here as well, with the same words.


def _timeout(f: WfFlags, env: Mapping[str, str]) -> float:
    from common.values import MAX_SECONDS, deadline_ok, env_deadline

    if f.timeout is None:
        return env_deadline(env, "WF_TIMEOUT", DEFAULT_TIMEOUT)
    if not deadline_ok(f.timeout):
        raise UsageError(
            f"--timeout must be more than 0 and at most {MAX_SECONDS:g} seconds, not {f.timeout:g}"
        )
    return f.timeout


def _max_bytes(f: WfFlags, env: Mapping[str, str]) -> int:
    from common.values import env_size, parse_size

    if f.max_bytes is None:
        return env_size(env, "WF_MAX_BYTES", parse_size(DEFAULT_MAX_BYTES))
    try:
        parse_size(str(f.max_bytes))
    except ValueError as exc:
        raise UsageError(f"--max-bytes: {exc}") from None
    return f.max_bytes


def _net_options(f: WfFlags, env: Mapping[str, str], timeout: float, max_bytes: int) -> NetOptions:
    from common.http.client import NetOptions
    from common.http.headers import DEFAULT_ACCEPT, user_header
    from common.http.headers import user_agent as checked_agent
    from common.policy import policy_from_env
    from common.values import env_flag
    from wf.markdown_answer import ACCEPT_MARKDOWN
    from wf.steering import wants_markdown

    proxy_resolves = f.proxy_resolves
    if proxy_resolves is None:
        proxy_resolves = env_flag(env, "WF_PROXY_RESOLVES")
    agent = checked_agent(f.user_agent)
    policy = policy_from_env(dict(env), allow_private=f.allow_private, allow_hosts=f.allow_hosts)
    return NetOptions(
        timeout=timeout,
        max_bytes=max_bytes,
        user_agent=agent,
        policy=policy,
        headers=tuple(user_header(h) for h in f.headers),
        proxy_resolves=proxy_resolves,
        accept=ACCEPT_MARKDOWN if wants_markdown(env, f.accept_markdown) else DEFAULT_ACCEPT,
    )


def check_batch(opts: WfOptions, count: int) -> None:
    """One --save-path for several URLs names one file for all of them: refused at
    start-up (curl's -o takes one name per URL) unless the name numbers the pages."""
    from wf.save import PLACEHOLDER

    if count > 1 and opts.save_path and PLACEHOLDER not in opts.save_path:
        raise UsageError(
            f"--save-path {opts.save_path!r} would name one file for {count} URLs; "
            f"put {PLACEHOLDER} in it for the URL's number (page-{PLACEHOLDER}.txt), "
            "or use --save for a fresh name per page"
        )


def scratch_limits(env: Mapping[str, str]) -> ScratchLimits:
    """WF_SCRATCH_MAX_AGE (seconds) and WF_SCRATCH_MAX (a size); 0 turns a rule off."""
    from common.values import env_seconds, env_size
    from wf.save import ScratchLimits

    default = ScratchLimits()
    max_age = env_seconds(env, "WF_SCRATCH_MAX_AGE", default.max_age, zero_ok=True)
    if env.get("WF_SCRATCH_MAX", "").strip() == "0":
        max_bytes = 0
    else:
        max_bytes = env_size(env, "WF_SCRATCH_MAX", default.max_bytes)
    return ScratchLimits(max_age=max_age, max_bytes=max_bytes)
