"""ws's result cache (ws/cache.py) and the text header's count: a repeated search is
answered without a request, a different option misses, WS_CACHE_TTL=0 and --no-cache turn
it off, a bad entry or directory is never a failure. A local engine counts the requests."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from tests.helpers import WS_FIXTURES, Result, invoke
from tests.servers import http_response

HTML = {"Content-Type": "text/html; charset=utf-8"}


class Engine:
    """DuckDuckGo answering results (or a block) on a local server."""

    def __init__(self, serve, body: Path = WS_FIXTURES / "ddg_get.html", status: int = 200):
        self.body, self.status = body.read_bytes(), status
        self.srv = serve(self._handle)

    def _handle(self, conn: socket.socket, request: bytes) -> None:
        conn.sendall(http_response(self.status, self.body, HTML))

    @property
    def count(self) -> int:
        return len(self.srv.requests)

    def ws(self, *args: str, ttl: str | None = "600", **env: str) -> Result:
        full = {"WS_DUCKDUCKGO_URL": self.srv.url + "html/", **env}
        if ttl is not None:
            full["WS_CACHE_TTL"] = ttl
        return invoke("ws", ["rust async", "--provider", "duckduckgo", *args], env=full)


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "wscache").glob("*.json"))


def test_a_repeated_search_is_answered_without_a_request(serve, tmp_path):
    engine = Engine(serve)
    first = engine.ws("--json")
    assert first.code == 0 and engine.count == 1
    assert json.loads(first.stdout)["cached"] is False
    second = engine.ws("--json")
    assert second.code == 0 and engine.count == 1
    doc, before = json.loads(second.stdout), json.loads(first.stdout)
    assert doc["cached"] is True and doc["attempts"] == [] and doc["error"] is None
    assert (doc["provider"], doc["results"]) == (before["provider"], before["results"])
    text = engine.ws()
    assert engine.count == 1 and text.code == 0 and text.stderr == ""
    assert text.stdout.startswith(
        'Search results for: "rust async" (via DuckDuckGo, 2 results, cached '
    )
    assert engine.ws("--urls").stdout.count("https://") == 2 and engine.count == 1
    # One private entry, written whole.
    (entry,) = entries(tmp_path)
    assert entry.stat().st_mode & 0o077 == 0
    assert (tmp_path / "wscache").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    "option",
    [("-n", "1"), ("--page", "2"), ("--region", "de-de"), ("--time", "w"), ("--block", "x.org")],
)
def test_a_different_option_misses(serve, option):
    engine = Engine(serve)
    assert engine.ws().code == 0 and engine.count == 1
    assert engine.ws(*option).code == 0 and engine.count == 2
    # Each is stored under its own key: both are hits now.
    engine.ws()
    engine.ws(*option)
    assert engine.count == 2


def test_another_endpoint_misses(serve):
    one, other = Engine(serve), Engine(serve)
    one.ws()
    other.ws()
    assert (one.count, other.count) == (1, 1)


def test_the_timeout_does_not_change_the_key(serve):
    engine = Engine(serve)
    engine.ws()
    assert engine.ws("--timeout", "7").code == 0 and engine.count == 1


def test_ttl_0_turns_the_cache_off(serve, tmp_path):
    engine = Engine(serve)
    engine.ws(ttl="0")
    engine.ws(ttl="0")
    assert engine.count == 2 and entries(tmp_path) == []


def test_the_default_ttl_is_on(serve, monkeypatch):
    monkeypatch.delenv("WS_CACHE_TTL")
    engine = Engine(serve)
    engine.ws(ttl=None)
    engine.ws(ttl=None)
    assert engine.count == 1


def test_no_cache_asks_again_and_refreshes_the_entry(serve, tmp_path):
    engine = Engine(serve)
    engine.ws()
    (entry,) = entries(tmp_path)
    stored = json.loads(entry.read_text())["stored"]
    r = engine.ws("--no-cache", "--json")
    assert engine.count == 2 and json.loads(r.stdout)["cached"] is False
    assert json.loads(entry.read_text())["stored"] > stored


def test_an_expired_entry_is_a_miss(serve, tmp_path):
    engine = Engine(serve)
    engine.ws()
    (entry,) = entries(tmp_path)
    data = json.loads(entry.read_text())
    data["stored"] -= 601
    entry.write_text(json.dumps(data))
    assert engine.ws().code == 0 and engine.count == 2
    # From the future (a clock set back) is no better.
    data["stored"] += 10_000
    entry.write_text(json.dumps(data))
    assert engine.ws().code == 0 and engine.count == 3


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"{not json",
        b"[]",
        b'{"format": 1}',
        b"\xff\xfe garbage",
        b'{"format": 1, "key": "other", "stored": 0, "provider": "x", "results": []}',
    ],
)
def test_a_corrupt_entry_is_ignored(serve, tmp_path, damage):
    engine = Engine(serve)
    engine.ws()
    (entry,) = entries(tmp_path)
    entry.write_bytes(damage)
    r = engine.ws("--urls")
    assert (r.code, r.stderr, engine.count) == (0, "", 2)
    assert r.stdout.count("https://") == 2


def test_a_stored_result_that_is_not_one_is_ignored(serve, tmp_path):
    engine = Engine(serve)
    engine.ws()
    (entry,) = entries(tmp_path)
    data = json.loads(entry.read_text())
    data["results"][0]["url"] = "javascript:alert(1)"
    entry.write_text(json.dumps(data))
    assert engine.ws().code == 0 and engine.count == 2


def test_failures_are_not_stored(serve, tmp_path):
    engine = Engine(serve, WS_FIXTURES / "ddg_anomaly.html", status=202)
    env = {"WS_DUCKDUCKGO_LITE_URL": engine.srv.url + "lite/"}
    env |= {"WS_BRAVE_URL": engine.srv.url + "b", "WS_MOJEEK_URL": engine.srv.url + "m"}
    assert engine.ws(**env).code == 75
    asked = engine.count
    assert engine.ws(**env).code == 75 and engine.count == 2 * asked
    assert entries(tmp_path) == []


def test_a_cache_dir_that_is_not_ours_is_never_a_failure(serve, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    engine = Engine(serve)
    for _ in range(2):
        r = engine.ws("--urls", WS_CACHE_DIR=str(shared))
        assert (r.code, r.stderr) == (0, "")
    assert engine.count == 2 and list(shared.iterdir()) == []


@pytest.mark.parametrize("value", ["-1", "soon", "nan"])
def test_a_bad_ttl_is_a_usage_error(serve, value):
    engine = Engine(serve)
    r = engine.ws(ttl=value)
    assert r.code == 2 and engine.count == 0
    assert r.stderr.startswith(f"ws: (2) WS_CACHE_TTL={value!r} ")


# ---------------------------------------------------------------- the count in the header


@pytest.mark.parametrize(("n", "said"), [("1", "1 result"), ("10", "2 results")])
def test_the_header_counts_the_results_that_follow(serve, n, said):
    engine = Engine(serve)
    r = engine.ws("-n", n, ttl="0")
    lines = r.stdout.splitlines()
    assert lines[0] == f'Search results for: "rust async" (via DuckDuckGo, {said})'
    assert sum(1 for line in lines if line[:1].isdigit()) == int(said.split()[0])
