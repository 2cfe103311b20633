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


def test_the_hedge_delay_does_not_change_the_key(serve):
    # It decides when the next provider is asked, as the timeouts do, not the answer.
    engine = Engine(serve)
    assert engine.ws(WS_HEDGE="1").code == 0 and engine.count == 1
    for hedge in ("0", "2.5", "7"):
        again = engine.ws("--json", WS_HEDGE=hedge)
        assert again.code == 0 and json.loads(again.stdout)["cached"] is True, hedge
    assert engine.count == 1


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
    # Only the cache is under test: without the first run's remembered blocks, the second
    # asks every engine again.
    invoke("ws", ["--reset-health"])
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


# ------------------------------------------ issue 25: ws/cache.py by its functions
#
# load, store and their checks called directly, with options made as the CLI makes them
# and a report of our own: no engine, no request.


def _opts(**changes):
    import dataclasses

    from ws.config import make_options

    env = {**os.environ, "WS_CACHE_TTL": "600"}
    return dataclasses.replace(make_options("rust async", environ=env), **changes)


def _report(provider: str | None = "duckduckgo", **changes):
    from ws.chain import Report
    from ws.results import Result

    results = [
        Result("One", "https://a.example/1", "first", "duckduckgo", None, 1),
        Result("Two", "https://b.example/2", "second", "duckduckgo", "2024-01-01", 2),
    ]
    return Report("rust async", provider, changes.pop("results", results), **changes)


def _stored(tmp_path: Path) -> tuple[Path, dict]:
    (entry,) = entries(tmp_path)
    return entry, json.loads(entry.read_text())


def test_store_then_load_gives_the_report_back(tmp_path):
    from ws import cache

    options = _opts()
    cache.store(options, _report())
    entry, data = _stored(tmp_path)
    assert entry.stat().st_mode & 0o777 == 0o600
    assert data["format"] == cache.FORMAT and data["key"] == cache.key(options)
    assert data["provider"] == "duckduckgo" and data["providers"] == ["duckduckgo"]
    hit = cache.load(options, now=data["stored"] + 1)
    assert hit is not None and hit.age == 1
    assert hit.report.query == "rust async" and hit.report.provider == "duckduckgo"
    assert hit.report.providers == ["duckduckgo"]
    assert [r.as_json() for r in hit.report.results] == [r.as_json() for r in _report().results]
    # Nothing else is left in the directory: no temporary file (the time of the last
    # look for stale entries is the stamp's).
    assert sorted(p.name for p in entry.parent.iterdir()) == [".pruned", entry.name]


@pytest.mark.parametrize(
    "report",
    [
        lambda: _report(provider=None),
        lambda: _report(results=[]),
        lambda: _report(error=__import__("common.errors").errors.NoResults("none")),
    ],
    ids=["no provider", "no results", "an error"],
)
def test_only_a_successful_search_is_stored(tmp_path, report):
    from ws import cache

    cache.store(_opts(), report())
    assert entries(tmp_path) == [] and not (tmp_path / "wscache").exists()


def test_off_refreshing_or_without_a_dir_nothing_is_read_or_kept(tmp_path, monkeypatch):
    from ws import cache

    options = _opts()
    cache.store(_opts(cache_ttl=0), _report())
    assert entries(tmp_path) == []
    cache.store(options, _report())
    _entry, data = _stored(tmp_path)
    now = data["stored"] + 1
    assert cache.load(options, now=now) is not None
    assert cache.load(_opts(refresh=True), now=now) is None
    assert cache.load(_opts(cache_ttl=0), now=now) is None
    # A cache dir that cannot be used: a miss, and nothing written.
    below = str(tmp_path / "a-file" / "below")
    options = _opts(environ={**os.environ, "WS_CACHE_TTL": "600", "WS_CACHE_DIR": below})
    (tmp_path / "a-file").write_text("x")
    assert cache.load(options, now=now) is None
    cache.store(options, _report())


def test_the_age_bounds_of_a_hit(tmp_path):
    from ws import cache

    options = _opts(cache_ttl=600)
    cache.store(options, _report())
    _entry, data = _stored(tmp_path)
    stored = data["stored"]
    assert cache.load(options, now=stored) is not None  # age 0
    assert cache.load(options, now=stored + 599.5) is not None
    assert cache.load(options, now=stored + 600) is None  # at the TTL: stale
    assert cache.load(options, now=stored - 0.5) is None  # from the future
    hit = cache.load(options)  # now, by the clock
    assert hit is not None and 0 <= hit.age < 60


def _rewrite(tmp_path: Path, change) -> None:
    entry, data = _stored(tmp_path)
    change(data)
    entry.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(format=2),
        lambda d: d.update(key="other"),
        lambda d: d.update(stored="0"),
        lambda d: d.update(stored=True),
        lambda d: d.update(provider=None),
        lambda d: d.update(results={}),
        lambda d: d.update(results=[]),
        lambda d: d.update(providers="duckduckgo"),
        lambda d: d.update(providers=["duckduckgo", 1]),
        lambda d: d["results"][0].update(title=None),
        lambda d: d["results"][0].update(snippet=1),
        lambda d: d["results"][0].update(provider=None),
        lambda d: d["results"][0].update(published=2024),
        lambda d: d["results"][0].update(rank="1"),
        lambda d: d["results"][0].update(url="https://a.example/ x"),
        lambda d: d["results"].append([]),
        lambda d: d["results"][0].update(providers="duckduckgo", ranks={"duckduckgo": 1}),
        lambda d: d["results"][0].update(providers=["duckduckgo", 2], ranks={"duckduckgo": 1}),
        lambda d: d["results"][0].update(providers=["duckduckgo"], ranks=[1]),
        lambda d: d["results"][0].update(providers=["duckduckgo"]),
        lambda d: d["results"][0].update(providers=["duckduckgo"], ranks={"duckduckgo": True}),
        lambda d: d["results"][0].update(providers=["duckduckgo"], ranks={"1": 1.0}),
    ],
)
def test_an_entry_with_any_field_wrong_is_a_miss(tmp_path, change):
    from ws import cache

    options = _opts()
    cache.store(options, _report())
    _rewrite(tmp_path, change)
    assert cache.load(options) is None


def test_an_entry_without_providers_and_a_fused_result_are_read(tmp_path):
    from ws import cache
    from ws.fuse import FusedResult

    options = _opts()
    cache.store(options, _report())

    def change(d):
        del d["providers"]
        d["results"][0].update(
            providers=["duckduckgo", "brave"], ranks={"duckduckgo": 1, "brave": 3}
        )
        d["results"][1]["unknown"] = "ignored"

    _rewrite(tmp_path, change)
    hit = cache.load(options)
    assert hit is not None and hit.report.providers == ["duckduckgo"]
    first, second = hit.report.results
    assert isinstance(first, FusedResult) and not isinstance(second, FusedResult)
    assert first.providers == ("duckduckgo", "brave")
    assert first.ranks == (("duckduckgo", 1), ("brave", 3))
    assert second.published == "2024-01-01" and second.rank == 2


def test_a_result_s_url_key_is_neither_stored_nor_read_from_an_entry(tmp_path):
    # Results carry the URL key finalise computed (Result._key, for the fusion): the cache
    # stores the public fields only, and an entry's "_key" (one written by hand) is ignored.
    from ws import cache
    from ws.results import finalise, key_of

    options = _opts()
    cleaned, _ = finalise(_report().results)
    cache.store(options, _report(results=cleaned))
    _, data = _stored(tmp_path)
    assert all("_key" not in r and "key" not in r for r in data["results"])
    _rewrite(tmp_path, lambda d: d["results"][0].update(_key="//elsewhere.example"))
    hit = cache.load(options)
    assert hit is not None
    assert [key_of(r) for r in hit.report.results] == ["//a.example/1", "//b.example/2"]


def test_an_entry_at_the_size_bound_is_read_and_one_past_it_is_not(tmp_path):
    from ws import cache

    options = _opts()
    cache.store(options, _report())
    entry, data = _stored(tmp_path)
    text = json.dumps(data)
    # The padding goes first: a read that stopped a byte short would lose the final "}".
    entry.write_text(" " * (cache._MAX_BYTES - len(text)) + text)
    assert entry.stat().st_size == cache._MAX_BYTES and cache.load(options) is not None
    entry.write_text(" " * (cache._MAX_BYTES + 1 - len(text)) + text)
    assert cache.load(options) is None
    # Bytes, not characters: an entry of fewer characters than bytes past the bound.
    import dataclasses

    wide = _report()
    wide.results[0] = dataclasses.replace(wide.results[0], title="é" * 1000)
    cache.store(options, wide)
    entry, data = _stored(tmp_path)
    size = len(entry.read_bytes())
    entry.write_bytes(b" " * (cache._MAX_BYTES + 1 - size) + entry.read_bytes())
    assert cache.load(options) is None


@pytest.mark.parametrize("mode", [0o620, 0o602, 0o622])
def test_an_entry_others_could_write_is_a_miss(tmp_path, mode):
    from ws import cache

    options = _opts()
    cache.store(options, _report())
    entry, _data = _stored(tmp_path)
    for ours in (0o644, 0o645):  # readable by others, writable by us alone: still ours
        entry.chmod(ours)
        assert cache.load(options) is not None
    entry.chmod(mode)
    assert cache.load(options) is None


def test_a_link_or_a_directory_in_an_entry_s_place_is_a_miss(tmp_path):
    from ws import cache

    options = _opts()
    cache.store(options, _report())
    entry, _data = _stored(tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert cache.load(options) is None
    entry.unlink()
    entry.mkdir()
    assert cache.load(options) is None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a file away")
def test_an_entry_another_user_owns_is_a_miss(tmp_path):
    from ws import cache

    options = _opts()
    cache.store(options, _report())
    entry, _data = _stored(tmp_path)
    os.chown(entry, 65534, 65534)
    assert cache.load(options) is None


def test_the_key_leaves_out_what_does_not_shape_the_answer():
    from common.policy import Policy
    from ws import cache

    base = cache.key(_opts())
    for change in (
        {"timeout": 3.0},
        {"attempt_timeout": 1.0},
        {"hedge": 0.0},
        {"policy": Policy(allow_private=True)},
        {"provider_source": "flag"},
        {"cache_ttl": 5.0},
        {"refresh": True},
    ):
        assert cache.key(_opts(**change)) == base, change
    for change in ({"user_agent": "x"}, {"safe": "off"}, {"fuse": True}, {"page": 2}):
        assert cache.key(_opts(**change)) != base, change
    material = json.loads(base)
    assert material["query"] == "rust async"
    first = _opts().endpoints[0]
    assert material["endpoints"][0] == [first.backend.name, first.url]
    assert first.backend.name == "duckduckgo" and first.url.startswith("https://")
    assert not {"timeout", "hedge", "policy", "cache_ttl", "refresh"} & material.keys()


def test_plain_values_for_the_key():
    from dataclasses import dataclass

    from ws import cache

    @dataclass
    class Inner:
        a: int
        b: tuple[str, ...]

    assert cache._plain(frozenset({"b", "a", "c"})) == ["a", "b", "c"]
    assert cache._plain({3, 1, 2}) == [1, 2, 3]
    assert cache._plain(("b", "a")) == ["b", "a"]  # a tuple keeps its order
    assert cache._plain(["x", None, 1.5, True]) == ["x", None, 1.5, True]
    assert cache._plain(Inner(1, ("z",))) == {"a": 1, "b": ["z"]}
    assert cache._plain(Inner) == repr(Inner)  # a class is no instance
    assert cache._plain(b"raw") == repr(b"raw")


def test_the_file_name_is_the_sha256_of_the_key(tmp_path):
    import hashlib

    from ws import cache

    options = _opts()
    cache.store(options, _report())
    entry, _data = _stored(tmp_path)
    assert entry.name == hashlib.sha256(cache.key(options).encode()).hexdigest() + ".json"


def _last_pruned(folder, seconds_ago: float) -> None:
    """Say the cache directory was last looked through ``seconds_ago``."""
    import time

    when = time.time() - seconds_ago
    os.utime(folder / ".pruned", (when, when))


def test_storing_prunes_entries_past_the_ttl_and_leftovers(tmp_path):
    import time

    from ws import cache

    folder = tmp_path / "wscache"
    cache.store(_opts(query="first"), _report())
    old, fresh, other = folder / "old.json", folder / ".tmp-1-2.json", folder / "notes.txt"
    for path in (old, fresh, other):
        path.write_text("{}")
    now = time.time()
    os.utime(old, (now - 700, now - 700))  # past the TTL of 600
    os.utime(other, (now - 7000, now - 7000))  # not an entry: left alone
    _last_pruned(folder, cache.PRUNE_EVERY + 1)
    cache.store(_opts(query="second"), _report())
    names = sorted(p.name for p in folder.iterdir())
    assert "old.json" not in names and ".tmp-1-2.json" in names and "notes.txt" in names
    assert len([n for n in names if len(n) == 69]) == 2  # both entries
    # A TTL under a minute still keeps a minute's entries.
    young = folder / "young.json"
    young.write_text("{}")
    os.utime(young, (now - 30, now - 30))
    _last_pruned(folder, cache.PRUNE_EVERY + 1)
    cache.store(_opts(query="third", cache_ttl=5), _report())
    assert young.exists()
    os.utime(young, (now - 61, now - 61))
    _last_pruned(folder, cache.PRUNE_EVERY + 1)
    cache.store(_opts(query="fourth", cache_ttl=5), _report())
    assert not young.exists()


def test_the_directory_is_looked_through_at_most_once_a_minute(tmp_path, monkeypatch):
    # Each look reads every entry's time: 20 000 entries cost each search 235 ms after
    # its answer, past --timeout.
    import time

    from ws import cache

    folder = tmp_path / "wscache"
    cache.store(_opts(query="first"), _report())
    old = folder / "old.json"
    old.write_text("{}")
    now = time.time()
    os.utime(old, (now - 700, now - 700))
    looked: list[object] = []
    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: (looked.append(path), real_scandir(path))[1])
    _last_pruned(folder, cache.PRUNE_EVERY - 5)
    cache.store(_opts(query="second"), _report())
    assert old.exists() and looked == []
    # A minute on, or a stamp from the future (a clock set back), it is looked through.
    for seconds_ago in (cache.PRUNE_EVERY + 1, -3600):
        old.write_text("{}")
        os.utime(old, (now - 700, now - 700))
        _last_pruned(folder, seconds_ago)
        cache.store(_opts(query=f"then {seconds_ago}"), _report())
        assert not old.exists()
    assert len(looked) == 2


def test_a_miss_creates_no_directory_and_the_default_dir_is_ws_s(tmp_path, monkeypatch):
    from ws import cache

    assert cache.load(_opts()) is None
    assert not (tmp_path / "wscache").exists()
    monkeypatch.delenv("WS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache.store(_opts(), _report())
    assert len(list((tmp_path / "xdg" / "ws").glob("*.json"))) == 1


def test_a_ttl_of_a_second_and_a_stored_time_that_is_a_boolean(tmp_path):
    from ws import cache

    options = _opts(cache_ttl=1)
    cache.store(options, _report())
    _entry, data = _stored(tmp_path)
    assert cache.load(options, now=data["stored"] + 0.5) is not None
    _rewrite(tmp_path, lambda d: d.update(stored=True))
    assert cache.load(options, now=1.5) is None  # True is no time, though it is 1


def test_plain_sorts_a_set_of_mixed_values_by_their_repr():
    from ws import cache

    assert cache._plain({10, 9}) == [10, 9]  # "10" before "9"
    assert cache._plain(frozenset({1, "a"})) == ["a", 1]  # "'a'" before "1"


def test_an_entry_is_utf_8_whatever_the_locale(tmp_path):
    import dataclasses
    import locale
    import sys

    from ws import cache

    if sys.flags.utf8_mode:
        pytest.skip("Python's UTF-8 mode: the locale's encoding is never used")
    options = _opts()
    wide = _report()
    wide.results[0] = dataclasses.replace(wide.results[0], title="Café ☕")
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")  # ASCII: a locale-encoded write would fail
    try:
        cache.store(options, wide)
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    entry, _data = _stored(tmp_path)
    assert "Café ☕".encode() in entry.read_bytes()  # the characters, not \\u escapes
    hit = cache.load(options)
    assert hit is not None and hit.report.results[0].title == "Café ☕"


def test_a_failed_rename_leaves_no_temporary_file(tmp_path, monkeypatch):
    from ws import cache

    def refuse(*args, **kw):
        raise OSError("no room")

    monkeypatch.setattr(os, "replace", refuse)
    cache.store(_opts(), _report())
    assert list((tmp_path / "wscache").iterdir()) == []


def test_pruning_reads_each_entry_s_own_time_and_goes_on_past_a_failure(tmp_path):
    import time

    from ws import cache

    folder = tmp_path / "wscache"
    cache.store(_opts(query="first"), _report())
    now = time.time()
    # Just past a minute, with a TTL under it: a minute is the bound.
    just = folder / "just.json"
    just.write_text("{}")
    os.utime(just, (now - 60.5, now - 60.5))
    # A link whose own time is old and whose target is fresh: the link's time counts.
    target = tmp_path / "target"
    target.write_text("{}")
    link = folder / "link.json"
    link.symlink_to(target)
    os.utime(link, (now - 700, now - 700), follow_symlinks=False)
    # An old "entry" that cannot be unlinked (a directory), and old files after it in
    # the directory's order: each is still looked at.
    blocker = folder / "blocker.json"
    blocker.mkdir()
    os.utime(blocker, (now - 700, now - 700))
    after: list[Path] = []
    for n in range(50):
        old = folder / f"old-{n}.json"
        old.write_text("{}")
        os.utime(old, (now - 700, now - 700))
        order = [e.name for e in os.scandir(folder)]
        if order.index(old.name) > order.index(blocker.name):
            after.append(old)
            if len(after) >= 3:
                break
    assert after, "no file came after the directory in the directory's order"
    _last_pruned(folder, cache.PRUNE_EVERY + 1)
    cache.store(_opts(query="second", cache_ttl=5), _report())
    assert not just.exists() and not link.is_symlink() and target.exists()
    assert blocker.is_dir() and not any(p.exists() for p in after)
