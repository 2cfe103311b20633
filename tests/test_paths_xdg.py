"""common.paths finds the cache, state and config dirs on Linux without importing
platformdirs: each answer must be the one platformdirs gives for the same environment,
and where the environment leaves the answer to platformdirs it is asked."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest

from common import paths

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux rule")

HOME = "/home/someone"
# (XDG variable's value or None for unset, HOME or None for unset)
CASES = [
    (None, HOME),
    ("/xdg/base", HOME),
    ("/xdg/base/", HOME),
    ("relative/base", HOME),  # not absolute: the default under HOME
    ("", HOME),
    ("  ", HOME),
    ("/xdg/base", None),
    ("/xdg/base", "relative/home"),
    (None, "/"),
    (None, HOME + "/"),
]
VARIABLES = {"cache": "XDG_CACHE_HOME", "state": "XDG_STATE_HOME", "config": "XDG_CONFIG_HOME"}


@pytest.mark.parametrize("kind", sorted(VARIABLES))
@pytest.mark.parametrize(("xdg", "home"), CASES)
def test_the_linux_rule_gives_what_platformdirs_gives(monkeypatch, kind, xdg, home):
    for variable in VARIABLES.values():
        monkeypatch.delenv(variable, raising=False)
    if xdg is not None:
        monkeypatch.setenv(VARIABLES[kind], xdg)
    if home is None:
        monkeypatch.delenv("HOME", raising=False)
    else:
        monkeypatch.setenv("HOME", home)
    ours = paths.xdg_path(kind, "ws")
    if ours is not None:
        assert ours == Path(getattr(platformdirs, f"user_{kind}_dir")("ws", appauthor=False))


def test_the_rule_answers_in_the_usual_cases(monkeypatch):
    monkeypatch.setenv("HOME", HOME)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert paths.xdg_path("cache", "ws") == Path(HOME, ".cache", "ws")
    monkeypatch.setenv("XDG_STATE_HOME", "/xdg/state")
    assert paths.xdg_path("state", "wf") == Path("/xdg/state/wf")


def test_an_unusable_home_is_left_to_platformdirs(monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", "relative/home")
    assert paths.xdg_path("cache", "ws") is None
    monkeypatch.delenv("HOME")
    assert paths.xdg_path("cache", "ws") is None
    monkeypatch.setenv("HOME", HOME)
    monkeypatch.setenv("ANDROID_DATA", "/data")
    assert paths.xdg_path("cache", "ws") is None
