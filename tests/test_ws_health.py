"""ws/health.py: the rest rules as pure functions, then through the CLI against local
engines (each on its own server, so a skipped one is seen to get no connection at all),
concurrent writers in real processes, and files that must be ignored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import ROOT, WS_FIXTURES
from tests.test_ws_chain import PAGES, engines, ws  # noqa: F401 - engines is a fixture
from ws import health
from ws.health import BLOCKED, FAILED, HEALTHY, Entry, Event, apply

NOW = 1_800_000_000.0


def state_file() -> Path:
    return Path(os.environ["WS_STATE_DIR"]) / "health.json"


# ---------------------------------------------------------------- the rules


def test_a_block_rests_10_minutes_doubling_up_to_an_hour():
    entry = None
    rests = []
    for _ in range(5):
        entry = apply(entry, Event(BLOCKED, "blocked"), NOW)
        assert entry is not None
        rests.append(entry.until - NOW)
    assert rests == [600, 1200, 2400, 3600, 3600]


def test_retry_after_says_how_long_within_the_hour():
    entry = apply(None, Event(BLOCKED, "blocked", 120.0), NOW)
    assert entry is not None and entry.until == NOW + 120 and entry.blocks == 1
    entry = apply(None, Event(BLOCKED, "blocked", 86400.0), NOW)
    assert entry is not None and entry.until == NOW + 3600


def test_three_failures_in_a_row_rest_two_minutes_and_a_good_answer_forgets():
    entry = apply(None, Event(FAILED, "timeout"), NOW)
    entry = apply(entry, Event(FAILED, "timeout"), NOW)
    assert entry is not None and not entry.resting(NOW) and entry.failures == 2
    entry = apply(entry, Event(FAILED, "network"), NOW)
    assert entry is not None and entry.resting(NOW) and entry.until == NOW + 120
    assert apply(entry, Event(HEALTHY), NOW) is None


def test_only_what_we_write_is_read():
    good = {"until": NOW, "blocks": 1, "failures": 0, "reason": "blocked"}
    assert health.parse(json.dumps({"providers": {"brave": good}}), NOW) == {
        "brave": Entry(NOW, 1, 0, "blocked")
    }
    for bad in (
        "",
        "{",
        "[]",
        '{"providers": []}',
        json.dumps({"providers": {"brave": {**good, "until": "soon"}}}),
        json.dumps({"providers": {"brave": {**good, "blocks": -1}}}),
        json.dumps({"providers": {"brave": {**good, "until": True}}}),
        '{"providers": {"brave": {"until": NaN, "blocks": 1, "failures": 0}}}',
    ):
        assert health.parse(bad) == {}, bad


def test_the_code_of_a_rest_is_read_back_within_the_exit_codes():
    good = {"until": NOW, "blocks": 0, "failures": 3, "reason": "network: x"}

    def read(**extra: object) -> dict[str, Entry]:
        return health.parse(json.dumps({"providers": {"p u": {**good, **extra}}}), NOW)

    assert read() == {"p u": Entry(NOW, 0, 3, "network: x", 75)}  # older files: a block
    assert read(code=6)["p u"].code == 6
    assert read(code=1)["p u"].code == 1 and read(code=255)["p u"].code == 255
    for bad in (0, 256, -7, "6", 6.0, None):
        assert read(code=bad) == {}, bad
    assert read(reason="r" * 400)["p u"].reason == "r" * 300


def test_a_file_past_the_size_limit_or_writable_by_others_is_not_read(tmp_path):
    path = tmp_path / "health.json"
    entry = {"until": NOW, "blocks": 1, "failures": 0, "reason": "b"}
    text = json.dumps({"providers": {"p u": entry}})
    # Padded with spaces to exactly the limit: read; one byte more: not.
    path.write_text(text + " " * (health._SIZE_LIMIT - len(text)))
    path.chmod(0o600)
    assert list(health._read(path)) == ["p u"]
    path.write_text(text + " " * (health._SIZE_LIMIT - len(text) + 1))
    assert health._read(path) == {}
    path.write_text(text)
    for mode, readable in ((0o600, True), (0o640, True), (0o620, False), (0o602, False)):
        path.chmod(mode)
        assert bool(health._read(path)) is readable, oct(mode)
    path.chmod(0o601)  # executable by others: odd, but nobody else can write it
    assert list(health._read(path)) == ["p u"]
    assert health._read(tmp_path / "missing.json") == {}
    assert health._read(tmp_path) == {}  # a directory
    # Bytes that are not UTF-8 are read, replaced.
    path.chmod(0o600)
    path.write_bytes(text.replace('"b"', '"\\u00e9"').encode().replace(b"\\u00e9", b"\xff\xfe"))
    assert health._read(path)["p u"].reason == "\ufffd\ufffd"


def test_a_fifo_is_not_read_and_does_not_hold_the_run(tmp_path):
    import threading

    fifo = tmp_path / "health.json"
    os.mkfifo(fifo, 0o600)
    got: list[object] = []
    # Nobody writes: opening it must not wait for a writer.
    reader = threading.Thread(target=lambda: got.append(health._read(fifo)), daemon=True)
    reader.start()
    reader.join(10)
    assert got == [{}], "the open waited for a writer"
    # Someone wrote a good file's text into it: still not a file of ours.
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        entry = {"until": NOW, "blocks": 1, "failures": 0, "reason": "b"}
        os.write(fd, json.dumps({"providers": {"p u": entry}}).encode())
        assert health._read(fifo) == {}
    finally:
        os.close(fd)


def test_load_makes_no_state_dir():
    folder = state_file().parent
    assert health.load() == {} and not folder.exists()


def test_a_good_answer_writes_nothing_unless_it_clears_an_entry():
    health.record({"p u": Event(HEALTHY)}, NOW)
    assert not state_file().exists()
    health.record({"p u": Event(BLOCKED, "b"), "q v": Event(BLOCKED, "b")}, NOW)
    assert set(health.load()) == {"p u", "q v"}
    health.record({"p u": Event(HEALTHY)}, NOW)
    assert set(health.load()) == {"q v"}


def test_a_block_clears_the_failures_and_a_retry_after_of_0_rests_not_at_all():
    entry = apply(apply(None, Event(FAILED, "network", code=7), NOW), Event(BLOCKED, "b"), NOW)
    assert entry is not None and (entry.blocks, entry.failures, entry.code) == (1, 0, 75)
    for zero in (0.0, -5.0):
        entry = apply(None, Event(BLOCKED, "b", zero), NOW)
        assert entry is not None and entry.until == NOW and not entry.resting(NOW)


def test_a_rest_ends_at_its_time():
    assert Entry(until=NOW).resting(NOW - 0.001) and not Entry(until=NOW).resting(NOW)


def test_the_file_is_what_we_write_private_and_never_through_a_link(monkeypatch):
    health.record({"p u": Event(BLOCKED, "b")}, NOW)
    path = state_file()
    entry = {
        "until": NOW + health.BLOCK_REST,
        "blocks": 1,
        "failures": 0,
        "reason": "b",
        "code": 75,
    }
    assert (
        path.read_text() == json.dumps({"version": 1, "providers": {"p u": entry}}, indent=1) + "\n"
    )
    assert path.stat().st_mode & 0o777 == 0o600
    # The temporary file is made new: one planted under its name (a link here) is refused,
    # and what the link points to is left alone.
    import secrets

    victim = path.with_name("victim")
    victim.write_text("mine")
    monkeypatch.setattr(secrets, "token_hex", lambda n=None: "planted")
    path.with_name(f".{path.name}.planted.tmp").symlink_to(victim)
    health.record({"q v": Event(BLOCKED, "b")}, NOW)
    assert victim.read_text() == "mine" and set(health.load()) == {"p u"}


@pytest.mark.parametrize("gone", [False, True], ids=["left-behind", "already-gone"])
def test_a_failed_replace_leaves_no_temporary_file_and_fails_no_run(monkeypatch, gone):
    health.record({"p u": Event(BLOCKED, "b")}, NOW)
    real_replace = os.replace

    def failing(src, dst):  # type: ignore[no-untyped-def]
        if gone:
            os.unlink(src)  # the clean-up's unlink then fails too: still no error
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    health.record({"q v": Event(BLOCKED, "b")}, NOW)  # raises nothing
    monkeypatch.setattr(os, "replace", real_replace)
    folder = state_file().parent
    assert sorted(p.name for p in folder.iterdir()) == ["health.json", "health.lock"]
    assert set(health.load()) == {"p u"}


def test_reset_makes_no_state_dir():
    folder = state_file().parent
    assert not folder.exists()
    assert health.reset() == state_file() and not folder.exists()


def test_an_entry_cleared_meanwhile_by_another_run_writes_nothing(monkeypatch):
    # The unlocked look saw an entry to clear; under the lock it is gone (another ws
    # cleared it): nothing changed, so nothing is written.
    monkeypatch.setattr(health, "load", lambda environ=None: {"p u": Entry(NOW, 1, 0, "b")})
    health.record({"p u": Event(HEALTHY)}, NOW)
    assert not state_file().exists()


def test_the_file_lives_in_ws_s_own_state_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("WS_STATE_DIR", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert health.state_path(create=False) == tmp_path / "state" / "ws" / "health.json"


def test_an_entry_not_as_we_write_it_hides_no_other():
    good = {"until": NOW, "blocks": 1, "failures": 0}  # no reason: an empty one
    text = json.dumps({"providers": {"a x": 1, "b y": good, "c z": "no"}})
    assert health.parse(text, NOW) == {"b y": Entry(NOW, 1, 0, "")}


def test_clock_is_utc_to_the_second():
    assert health.clock(0) == "1970-01-01T00:00:00Z"
    assert health.clock(NOW + 0.9) == "2027-01-15T08:00:00Z"


# ---------------------------------------------------------------- through the CLI


def test_a_429_with_retry_after_skips_that_engine_on_the_next_run(engines):  # noqa: F811
    ddg = engines["duckduckgo"]
    ddg.answer(429, WS_FIXTURES / "brave_429.html", **{"Retry-After": "120"})
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    first = ws(engines, "rust", "--json")
    assert first.code == 0 and ddg.connections == 1
    assert [a["outcome"] for a in json.loads(first.stdout)["attempts"]] == ["blocked", "ok"]

    before = time.time()
    second = ws(engines, "rust", "--json")
    assert second.code == 0, second.stderr
    assert ddg.connections == 1, "a resting engine was asked"
    skipped, ok = json.loads(second.stdout)["attempts"]
    assert (skipped["provider"], skipped["outcome"], skipped["status"]) == (
        "duckduckgo",
        "skipped",
        None,
    )
    retry_at = time.mktime(time.strptime(skipped["retry_at"], "%Y-%m-%dT%H:%M:%SZ")) - time.timezone
    assert before + 110 <= retry_at <= before + 125
    assert (ok["provider"], ok["outcome"]) == ("duckduckgo-lite", "ok")
    assert skipped["message"].startswith("resting after blocked: HTTP 429")
    # A provider not asked writes nothing on stderr (cron mails any); -v says it.
    assert second.stderr == ""
    traced = ws(engines, "rust", "-v").stderr
    assert "ws: * duckduckgo: skipped (resting after blocked: HTTP 429" in traced
    assert "ws --reset-health ends the rest" in traced

    # Named by --provider, it is asked whatever its health.
    third = ws(engines, "rust", "--json", "--provider", "duckduckgo")
    assert ddg.connections == 2
    assert json.loads(third.stdout)["attempts"][0]["outcome"] == "blocked"


def test_a_retry_after_date_rests_the_engine_until_that_date(engines):  # noqa: F811
    # An HTTP date is read against the wall clock: five minutes from now, not the ten
    # minutes of a block that says nothing.
    from email.utils import formatdate

    ddg = engines["duckduckgo"]
    when = time.time() + 300
    ddg.answer(
        429, WS_FIXTURES / "brave_429.html", **{"Retry-After": formatdate(when, usegmt=True)}
    )
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    r = ws(engines, "rust", "--json")
    assert r.code == 0, r.stderr
    outcomes = [(a["provider"], a["outcome"]) for a in json.loads(r.stdout)["attempts"]]
    assert outcomes == [("duckduckgo", "blocked"), ("duckduckgo-lite", "ok")]
    entry = health.load()[health.key("duckduckgo", engines["duckduckgo"].srv.url + "duckduckgo")]
    # The date has whole seconds; the run took a little of them.
    assert when - 2 <= entry.until <= when + 1 and entry.blocks == 1


def test_every_engine_skipped_still_exits_75(engines):  # noqa: F811
    for engine in engines.values():
        engine.answer(429, WS_FIXTURES / "brave_429.html")
    assert ws(engines, "rust").code == 75
    asked = sum(e.connections for e in engines.values())
    r = ws(engines, "rust", "--json")
    assert r.code == 75
    assert sum(e.connections for e in engines.values()) == asked == 4
    doc = json.loads(r.stdout)
    assert [a["outcome"] for a in doc["attempts"]] == ["skipped"] * 4
    assert doc["error"]["code"] == 75
    assert "blocked or rate-limited, or resting" in doc["error"]["message"]
    assert "; resting until 20" in doc["error"]["message"]
    assert doc["error"]["message"].endswith("(ws --reset-health ends the rest)")


def _refusing_url() -> str:
    """A loopback URL on a port nothing listens on: connection refused, exit 7."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def test_a_rest_after_network_failures_keeps_the_network_code(engines):  # noqa: F811
    # Offline, every provider fails to connect: three runs rest them all. The fourth asks
    # nobody, and must still say the network's code (7), not "blocked, back off" (75).
    down = {name: _refusing_url() for name in ("duckduckgo", "duckduckgo-lite", "brave", "mojeek")}
    env = {
        "WS_DUCKDUCKGO_URL": down["duckduckgo"],
        "WS_DUCKDUCKGO_LITE_URL": down["duckduckgo-lite"],
        "WS_BRAVE_URL": down["brave"],
        "WS_MOJEEK_URL": down["mojeek"],
    }
    for _ in range(3):
        r = ws(engines, "rust", **env)
        assert r.code == 7, r.stderr
    r = ws(engines, "rust", "--json", **env)
    doc = json.loads(r.stdout)
    assert [a["outcome"] for a in doc["attempts"]] == ["skipped"] * 4
    assert r.code == doc["error"]["code"] == 7, r.stderr
    message = doc["error"]["message"]
    assert "resting until 20" in message and "ws --reset-health" in message, message
    r = ws(engines, "rust", **env)
    assert r.code == 7 and "ws --reset-health" in r.stderr and "until 20" in r.stderr


def test_the_code_of_a_rest_is_that_of_its_cause():
    entry = None
    for _ in range(3):
        entry = apply(entry, Event(FAILED, "network", code=6), NOW)
    assert entry is not None and entry.resting(NOW) and entry.code == 6
    entry = apply(entry, Event(BLOCKED, "blocked"), NOW)
    assert entry is not None and entry.code == 75
    # A failure that starts no rest of its own leaves the rest and its code as they were.
    kept = apply(Entry(NOW + 60, 0, 0, "network", 6), Event(FAILED, "timeout", code=28), NOW)
    assert kept is not None and (kept.until, kept.failures, kept.code) == (NOW + 60, 1, 6)
    entry = apply(entry, Event(FAILED, "timeout", code=28), NOW)
    assert entry is not None and entry.code == 75 and entry.until == NOW + 600


def test_health_is_kept_per_endpoint(engines, serve):  # noqa: F811
    from tests.test_ws_chain import Engine, Meter

    # DuckDuckGo blocked us; a mirror of it set in WS_DUCKDUCKGO_URL has not.
    engines["duckduckgo"].answer(429, WS_FIXTURES / "brave_429.html")
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    assert ws(engines, "rust").code == 0
    mirror = Engine(serve, Meter())
    mirror.answer(200, PAGES["duckduckgo"])
    try:
        r = ws(engines, "rust", "--json", WS_DUCKDUCKGO_URL=mirror.srv.url + "duckduckgo")
    finally:
        mirror.stop.set()
    assert r.code == 0 and mirror.connections == 1, r.stderr
    assert json.loads(r.stdout)["provider"] == "duckduckgo"
    # The blocked endpoint itself still rests.
    r = ws(engines, "rust", "--json")
    assert json.loads(r.stdout)["attempts"][0]["outcome"] == "skipped"
    assert engines["duckduckgo"].connections == 1


def test_providers_shows_health_and_reset_health_forgets_it(engines):  # noqa: F811
    engines["duckduckgo"].answer(429, WS_FIXTURES / "brave_429.html")
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    ws(engines, "rust")
    info = json.loads(ws(engines, "--providers", "--json").stdout)["health"]
    assert info["duckduckgo"]["state"] == "resting"
    assert info["duckduckgo"]["state"] == "resting" and info["duckduckgo"]["blocks"] == 1
    ok = {"state": "ok", "retry_at": None, "blocks": 0, "failures": 0, "reason": None}
    assert info["duckduckgo-lite"] == info["brave"] == info["mojeek"] == ok
    text = ws(engines, "--providers").stdout
    assert "  duckduckgo       resting until " in text and "after blocked: HTTP 429" in text

    r = ws(engines, "--reset-health")
    assert r.code == 0 and r.stderr == "" and str(state_file()) in r.stdout
    assert not state_file().exists()
    r = ws(engines, "--reset-health", "--json")
    assert r.code == 0 and json.loads(r.stdout) == {"health_reset": True, "path": str(state_file())}
    ws(engines, "rust")
    assert engines["duckduckgo"].connections == 2


def test_a_corrupt_or_foreign_file_is_ignored_and_replaced(engines):  # noqa: F811
    engines["duckduckgo"].answer(429, WS_FIXTURES / "brave_429.html")
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    engines["brave"].answer(200, PAGES["brave"])
    path = state_file()
    path.parent.mkdir(mode=0o700, parents=True)
    path.write_bytes(b"\x00{not json" * 100)
    r = ws(engines, "rust")
    assert r.code == 0 and r.stderr.startswith("ws: duckduckgo: blocked")
    assert (
        health.load()[health.key("duckduckgo", engines["duckduckgo"].srv.url + "duckduckgo")].blocks
        == 1
    )  # rewritten whole, readable again

    # A file others may write is not ours: whatever it says is not believed.
    until = time.time() + 600
    forged = {"providers": {"brave": {"until": until, "blocks": 1, "failures": 0, "reason": "x"}}}
    path.write_text(json.dumps(forged))
    path.chmod(0o666)
    assert health.load() == {}
    assert ws(engines, "rust", "--provider", "brave").code == 0
    # Nor one in a directory others may write to.
    path.chmod(0o600)
    assert health.load()["brave"].blocks == 1
    path.parent.chmod(0o777)
    assert health.load() == {}
    path.parent.chmod(0o700)
    # Nor through a symlink.
    path.unlink()
    real = path.with_name("elsewhere.json")
    real.write_text(json.dumps(forged))
    path.symlink_to(real)
    assert health.load() == {}


def test_an_unusable_state_dir_never_fails_a_search(engines, monkeypatch):  # noqa: F811
    engines["duckduckgo"].answer(429, WS_FIXTURES / "brave_429.html")
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    r = ws(engines, "rust", WS_STATE_DIR="/proc/nohome/ws")
    assert r.code == 0 and r.stderr.splitlines() == [
        "ws: duckduckgo: blocked (HTTP 429, rate-limit page)"
    ]


_WRITER = """
import sys
from ws.health import FAILED, Event, record
for _ in range(int(sys.argv[2])):
    record({"brave": Event(FAILED, "timeout"), sys.argv[1]: Event(FAILED, "network")})
"""


def test_concurrent_runs_lose_no_update(tmp_path):
    env = {**os.environ, "WS_STATE_DIR": str(tmp_path / "state"), "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, f"p{i}", "15"], env=env) for i in range(6)
    ]
    for p in procs:
        assert p.wait(timeout=60) == 0
    entries = health.parse((tmp_path / "state" / "health.json").read_text())
    assert entries["brave"].failures == 6 * 15
    assert all(entries[f"p{i}"].failures == 15 for i in range(6))
    assert not [p for p in (tmp_path / "state").iterdir() if p.name.endswith(".tmp")]


def test_a_lock_held_elsewhere_drops_the_update_instead_of_waiting(tmp_path, monkeypatch):
    import fcntl

    monkeypatch.setenv("WS_STATE_DIR", str(tmp_path / "held"))
    (tmp_path / "held").mkdir(mode=0o700)
    fd = os.open(tmp_path / "held" / "health.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        start = time.monotonic()
        health.record({"brave": Event(BLOCKED, "blocked")}, wait=0.2)
        assert 0.15 <= time.monotonic() - start < 1.5
        assert health.load() == {}
    finally:
        os.close(fd)
    health.record({"brave": Event(BLOCKED, "blocked")}, wait=0.2)
    assert health.load()["brave"].blocks == 1


@pytest.mark.parametrize(
    "value", ["\u00b2", "9" * 4400, "Sun, 06 Nov 99999999999999999999 08:49:37 GMT"]
)
def test_a_hostile_retry_after_is_a_block_that_says_nothing(engines, value):  # noqa: F811
    """Read by the one Retry-After parser (common/http/retry.py): "²" and a twenty-digit
    year are no Retry-After (the default rest), thousands of digits are clamped (to the
    hour's ceiling); none is a network error."""
    ddg = engines["duckduckgo"]
    ddg.answer(429, WS_FIXTURES / "brave_429.html", **{"Retry-After": value})
    engines["duckduckgo-lite"].answer(200, PAGES["duckduckgo-lite"])
    before = time.time()
    r = ws(engines, "rust", "--json")
    assert r.code == 0, r.stderr
    outcomes = [(a["provider"], a["outcome"]) for a in json.loads(r.stdout)["attempts"]]
    assert outcomes == [("duckduckgo", "blocked"), ("duckduckgo-lite", "ok")]
    rest = (
        health.load()[health.key("duckduckgo", engines["duckduckgo"].srv.url + "duckduckgo")].until
        - before
    )
    expected = health.BLOCK_REST_MAX if value.isascii() and value.isdigit() else health.BLOCK_REST
    assert expected - 5 <= rest <= expected + 5
