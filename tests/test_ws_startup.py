"""What a search imports: a fresh interpreter runs ``ws QUERY --provider duckduckgo`` against
a local engine and reports the modules it loaded. Start-up time is measured by
tests/bench/bench_ws.py; these only keep the imports it trimmed from coming back."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT, WS_FIXTURES, subprocess_env
from tests.servers import http_response

RUN = """
import json, sys
sys.argv = ["ws", "rust", "--provider", "duckduckgo", "--urls"] + sys.argv[1:]
try:
    from ws.cli import main
    main()
except SystemExit as exc:
    code = exc.code
modules = sorted(sys.modules)
print(json.dumps({"code": code, "modules": modules}), file=sys.stderr)
"""


def _run(serve, *args: str, **env: str) -> dict:
    body = (WS_FIXTURES / "ddg_get.html").read_bytes()
    srv = serve(lambda conn, req: conn.sendall(http_response(200, body)))
    env = subprocess_env(
        WS_DUCKDUCKGO_URL=srv.url + "html/",
        WF_WS_NO_BACKSTOP="1",
        **{k: v.replace("SERVER", srv.url) for k, v in env.items()},
    )
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args], env=env, cwd=ROOT, capture_output=True, text=True
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0 and done.stdout.count("https://") == 2, done.stderr
    return report


def test_a_search_leaves_out_what_it_does_not_use(serve):
    report = _run(serve, "--no-cache")
    modules = set(report["modules"])
    # A request goes out on http.client (common.http.transport); the tunnel is a proxy's.
    assert "common.http.transport" in modules
    for unused in (
        "urllib3",
        "importlib.metadata",
        "tempfile",
        "urllib.request",
        "queue",
        "common.http.tunnel",
    ):
        assert unused not in modules, unused


def test_a_search_through_a_proxy_goes_out_on_the_same_path(serve):
    # The local engine is its own proxy: it answers the absolute-form request alike.
    report = _run(serve, "--no-cache", HTTP_PROXY="SERVER")
    modules = set(report["modules"])
    assert "common.http.transport" in modules
    # An http:// URL is forwarded by the proxy: no tunnel to open.
    for unused in ("urllib3", "importlib.metadata", "common.http.tunnel"):
        assert unused not in modules, unused


def test_a_search_with_a_provider_does_not_look_for_the_config_file(serve, monkeypatch, tmp_path):
    # Where the config file lives comes from platformdirs; --provider makes it moot.
    monkeypatch.delenv("WS_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    report = _run(serve)
    assert "platformdirs" not in set(report["modules"])


def test_a_search_finds_the_cache_and_state_dirs_without_platformdirs(serve, monkeypatch, tmp_path):
    # On Linux the XDG rule for the cache, state and config dirs is ours (common.paths);
    # platformdirs (with tempfile, shutil, bz2, lzma) is left to other platforms.
    for name in ("WS_CONFIG_DIR", "WS_STATE_DIR", "WS_CACHE_DIR"):
        monkeypatch.delenv(name)
    for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("WS_CACHE_TTL", "600")
    report = _run(serve, "--no-cache")
    modules = set(report["modules"])
    assert "platformdirs" not in modules and "tempfile" not in modules
    # The answer was stored where platformdirs puts the cache, under a SHA-256 name
    # from the interpreter's own module, not hashlib's OpenSSL digests.
    assert list((tmp_path / ".cache" / "ws").glob("*.json"))
    assert "hashlib" not in modules and "_hashlib" not in modules


def test_common_text_compiles_at_import_only_what_every_field_needs():
    # The slicing, joiner and marker patterns serve large pages, joiners and wf's marker
    # lines: compiled on first use, not in every search's start-up.
    from common import text

    compiled = sorted(n for n, v in vars(text).items() if isinstance(v, re.Pattern))
    assert compiled == ["_REMOVED", "_SURROGATE"]


def test_the_records_a_search_builds_have_docstrings():
    # A dataclass without a docstring gets one made from inspect.signature when the
    # class is created: about 60 us of start-up per class, for text nobody reads.
    import dataclasses
    import importlib
    import inspect

    bare = []
    for name in ("ws.results", "ws.backends.base", "ws.config", "ws.chain", "ws.health"):
        module = importlib.import_module(name)
        for cls in vars(module).values():
            ours = inspect.isclass(cls) and cls.__module__ == name
            if (
                ours
                and dataclasses.is_dataclass(cls)
                and (cls.__doc__ or "").startswith(f"{cls.__name__}(")
            ):
                bare.append(f"{name}.{cls.__name__}")
    assert not bare


def test_a_search_imports_only_the_engines_it_asks(serve):
    modules = set(_run(serve, "--no-cache")["modules"])
    assert "ws.backends.duckduckgo" in modules
    for other in ("brave", "mojeek", "searxng", "duckduckgo_lite"):
        assert f"ws.backends.{other}" not in modules, other


def test_the_registry_says_of_each_engine_what_its_module_does():
    # ws/backends/__init__.py writes down each engine's facts so that its module loads
    # only when the engine is asked: they must not drift apart.
    from importlib import import_module

    from ws.backends import DEFAULT_ORDER

    for lazy in DEFAULT_ORDER:
        real = import_module(f"ws.backends.{lazy.module}").BACKEND  # type: ignore[attr-defined]
        for fact in ("name", "label", "env", "default_url"):
            assert getattr(lazy, fact) == getattr(real, fact), (lazy.name, fact)
        assert lazy.backend is real  # type: ignore[attr-defined]


def test_a_results_page_without_long_tags_compiles_none_of_the_scanners_patterns():
    # common.parse_limits finds long tags with "<" and ">" alone; its 15 patterns are
    # compiled only for a page that has one (about 1 ms of every search otherwise).
    from common import parse_limits
    from ws.backends.html import parse_html

    parse_limits._bytes_patterns.cache_clear()
    page = (WS_FIXTURES / "ddg_get.html").read_bytes()
    assert parse_html(page).xpath("//a")
    assert parse_limits._bytes_patterns.cache_info().currsize == 0
    long_tag = b"<p " + b" ".join(b"a%d=1" % i for i in range(1000)) + b">x</p>"
    assert parse_html(long_tag).xpath("//p")
    assert parse_limits._bytes_patterns.cache_info().currsize == 1


def test_the_worker_still_dies_with_its_supervisor(serve):
    # PR_SET_PDEATHSIG now goes through _ctypes (common.pdeath._prctl): a supervisor
    # killed with SIGKILL must still take its worker down at once.
    import os
    import signal
    import threading
    import time
    from pathlib import Path

    release = threading.Event()
    srv = serve(lambda conn, req: release.wait(20))
    env = subprocess_env(WS_DUCKDUCKGO_URL=srv.url + "html/", WS_HEDGE="0")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ws", "rust", "--provider", "duckduckgo", "--no-cache"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        end = time.monotonic() + 10
        while not srv.requests and time.monotonic() < end:
            time.sleep(0.02)
        assert srv.requests, "the worker never asked"
        (worker,) = map(int, children.read_text().split())
        proc.send_signal(signal.SIGKILL)
        proc.wait(5)
        end = time.monotonic() + 3
        while time.monotonic() < end:
            try:
                os.kill(worker, 0)
            except ProcessLookupError:
                break
            if Path(f"/proc/{worker}/stat").read_text().split(") ")[1].startswith("Z"):
                break  # dead, waiting for init to reap it
            time.sleep(0.02)
        else:
            os.kill(worker, signal.SIGKILL)
            raise AssertionError("the worker outlived its supervisor")
    finally:
        release.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


EXIT = """
import atexit, os, sys
class Witness:
    def __del__(self, write=os.write):  # os itself may be gone by then
        write(2, b"torn down\\n")
witness = Witness()
atexit.register(lambda: print("atexit ran", file=sys.stderr))
sys.argv = ["ws"] + sys.argv[1:]
from ws.__main__ import main
main()
"""


@pytest.mark.parametrize(
    ("args", "code"),
    [(["rust", "--provider", "duckduckgo", "--urls"], 0), (["--version"], 0), (["--bogus"], 2)],
    ids=["search", "version", "usage-error"],
)
def test_ws_exits_without_the_teardown_but_with_atexit_and_its_code(serve, args, code):
    # common.entry.exit_now: the interpreter's teardown (15 ms of a search) is skipped;
    # the atexit handlers run, the output is whole and the exit code is the command's.
    body = (WS_FIXTURES / "ddg_get.html").read_bytes()
    srv = serve(lambda conn, req: conn.sendall(http_response(200, body)))
    # Without the watchdog's fork: a forked worker's teardown leaves the witness alone.
    env = subprocess_env(WS_DUCKDUCKGO_URL=srv.url + "html/", WF_WS_NO_BACKSTOP="1")
    done = subprocess.run(
        [sys.executable, "-c", EXIT, *args], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == code, done.stderr
    assert "atexit ran" in done.stderr and "torn down" not in done.stderr
    if args[0] == "rust":
        assert done.stdout.count("https://") == 2 and done.stdout.endswith("\n")
