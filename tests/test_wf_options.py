"""wf's options object: every flag and every WF_* variable read and checked together at
start-up (wf.options.make_options), the render options among them."""

from __future__ import annotations

import pytest

from common.errors import UsageError
from tests.helpers import ALLOW
from tests.servers import respond
from wf.options import RenderOptions, WfFlags, make_options

# ---------------------------------------------------------------- render options


def test_render_options_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    assert RenderOptions.from_env() == RenderOptions()
    monkeypatch.setenv("WF_RENDER", "always")
    monkeypatch.setenv("WF_RENDER_TIMEOUT", "7.5")
    monkeypatch.setenv("WF_RENDER_BROWSER", "/opt/chrome/chrome")
    monkeypatch.setenv("WF_RENDER_KEEPALIVE", "60")
    opts = RenderOptions.from_env()
    assert opts == RenderOptions(
        mode="always", timeout=7.5, browser="/opt/chrome/chrome", keepalive=60.0
    )
    assert RenderOptions.from_env("never").mode == "never"  # the flag wins


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WF_RENDER", "sometimes"),
        ("WF_RENDER_TIMEOUT", "0"),
        ("WF_RENDER_TIMEOUT", "-1"),
        ("WF_RENDER_TIMEOUT", "soon"),
        ("WF_RENDER_TIMEOUT", "nan"),
        ("WF_RENDER_KEEPALIVE", "-5"),
        ("WF_RENDER_KEEPALIVE", "inf"),
    ],
)
def test_bad_render_values_are_usage_errors(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(UsageError, match=name):
        RenderOptions.from_env()


# ---------------------------------------------------------------- the whole object

ENV = {
    "WF_TIMEOUT": "12",
    "WF_MAX_BYTES": "1M",
    "WF_MAX_LENGTH": "100",
    "WF_AUTOSAVE_BYTES": "50",
    "WF_RENDER": "always",
    "WF_RENDER_TIMEOUT": "7.5",
    "WF_RENDER_BROWSER": "/opt/chrome/chrome",
    "WF_RENDER_KEEPALIVE": "60",
    "WF_ALLOW_PRIVATE": "1",
    "WF_ALLOW_HOSTS": "a.test",
}


def test_every_variable_is_read_into_one_object() -> None:
    opts = make_options(ENV)
    assert (opts.net.timeout, opts.net.max_bytes) == (12.0, 1024**2)
    assert (opts.max_length, opts.autosave_bytes) == (100, 50)
    assert opts.rendering == RenderOptions("always", 7.5, "/opt/chrome/chrome", 60.0)
    assert opts.render == "always"
    assert opts.net.policy.allow_private and opts.net.policy.allow_hosts == {"a.test"}


def test_scratch_limits_from_the_environment() -> None:
    from wf.save import ScratchLimits

    assert make_options({}).scratch == ScratchLimits(7 * 86400.0, 500 * 1024**2)
    opts = make_options({"WF_SCRATCH_MAX_AGE": "3600", "WF_SCRATCH_MAX": "20M"})
    assert opts.scratch == ScratchLimits(3600.0, 20 * 1024**2)
    opts = make_options({"WF_SCRATCH_MAX_AGE": "0", "WF_SCRATCH_MAX": "0"})
    assert opts.scratch == ScratchLimits(0.0, 0)  # both rules off


def test_flags_beat_variables_and_variables_beat_defaults() -> None:
    opts = make_options(ENV, WfFlags(timeout=3.0, max_bytes=10, max_length=5, render="never"))
    assert (opts.net.timeout, opts.net.max_bytes, opts.max_length) == (3.0, 10, 5)
    assert opts.render == "never" and opts.rendering.timeout == 7.5
    opts = make_options({})
    assert (opts.net.timeout, opts.net.max_bytes, opts.max_length) == (30.0, 10 * 1024**2, 20_000)
    assert opts.rendering == RenderOptions()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WF_TIMEOUT", "soon"),
        ("WF_TIMEOUT", "0"),
        ("WF_TIMEOUT", "86401"),
        ("WF_MAX_BYTES", "lots"),
        ("WF_MAX_LENGTH", "1.5"),
        ("WF_AUTOSAVE_BYTES", "1e3"),
        ("WF_RENDER", "sometimes"),
        ("WF_RENDER_TIMEOUT", "soon"),
        ("WF_RENDER_KEEPALIVE", "-1"),
        ("WF_ALLOW_HOSTS", "a.test:80"),
        ("WF_SCRATCH_MAX_AGE", "7d"),
        ("WF_SCRATCH_MAX_AGE", "-1"),
        ("WF_SCRATCH_MAX_AGE", "inf"),
        ("WF_SCRATCH_MAX", "lots"),
        ("WF_SCRATCH_MAX", "-5M"),
        ("WF_RETRY", "11"),
        ("WF_RETRY", "-1"),
        ("WF_CACHE", "sometimes"),
        ("WF_CACHE_MAX", "huge"),
        ("WF_PROXY_RESOLVES", "2"),
    ],
)
def test_a_bad_variable_is_a_usage_error_naming_it(name: str, value: str) -> None:
    with pytest.raises(UsageError, match=name):
        make_options({name: value})


def test_the_http_variables_and_their_flags() -> None:
    env = {"WF_RETRY": "3", "WF_CACHE": "yes", "WF_CACHE_MAX": "5M", "WF_PROXY_RESOLVES": "on"}
    opts = make_options(env, WfFlags(headers=("X-A: 1", "x-b:2")))
    assert (opts.retry, opts.cache, opts.cache_max) == (3, True, 5 * 1024**2)
    assert opts.net.proxy_resolves is True
    assert opts.net.headers == (("X-A", "1"), ("x-b", "2"))
    opts = make_options(env, WfFlags(retry=0, cache=False, proxy_resolves=False))
    assert (opts.retry, opts.cache, opts.net.proxy_resolves) == (0, False, False)
    opts = make_options({})
    assert (opts.retry, opts.cache, opts.cache_max, opts.net.headers) == (
        0,
        False,
        200 * 1024**2,
        (),
    )
    # wf says whether the proxy resolves (False, hint given); ws has no such option (None).
    assert opts.net.proxy_resolves is False


# ---------------------------------------------------------------- through the CLI


@pytest.mark.parametrize(
    "args",
    [
        ["--from", "0"],
        ["--to", "-1"],
        ["--from", "5", "--to", "2"],
        ["--max-length", "-5"],
        ["--no-save", "--save"],
        ["--filter", "(a"],
        ["--save-path", ".."],
        ["--timeout", "0"],
    ],
)
def test_bad_values_exit_2_before_any_request(wf, serve, args):
    srv = serve(respond(200, b"x"))
    r = wf(*ALLOW, *args, srv.url)
    assert r.code == 2 and r.stderr.startswith("wf: (2) ") and r.stderr.count("\n") == 1
    assert srv.requests == []
