"""common/http/cache.py: wf --cache against local servers that count requests and answer
conditional ones with real 304s; entries on disk corrupted, planted and capped; two wf
processes at once."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from email.utils import formatdate
from pathlib import Path

import pytest

from common.errors import PolicyRefused
from common.http.cache import Entry, current_age, is_fresh, lifetime
from tests.helpers import ALLOW, assert_one_line_error, subprocess_env, tool_path
from tests.servers import http_response

BODY = b"<html><head><title>Cached</title></head><body><article><p>" + b"word " * 60
BODY += b"</p></article></body></html>"


class Origin:
    """Answers with ``headers`` and BODY; a conditional request whose validator matches
    gets a 304. Counts what it got."""

    def __init__(self, headers: dict[str, str], *, delay: float = 0.0) -> None:
        self.headers = {"Content-Type": "text/html; charset=utf-8", **headers}
        self.delay = delay
        self.not_modified = 0

    def __call__(self, conn: socket.socket, request: bytes) -> None:
        time.sleep(self.delay)
        head = request.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
        etag = self.headers.get("ETag", "").lower()
        modified = self.headers.get("Last-Modified", "").lower()
        if (etag and f"if-none-match: {etag}" in head) or (
            modified and f"if-modified-since: {modified}" in head
        ):
            self.not_modified += 1
            keep = {k: v for k, v in self.headers.items() if k != "Content-Type"}
            conn.sendall(http_response(304, b"", {**keep, "Content-Length": "0"}))
            return
        conn.sendall(http_response(200, BODY, self.headers))


def _run(wf, url: str, *args: str, env: dict[str, str] | None = None) -> dict:  # type: ignore[no-untyped-def, type-arg]
    r = wf(*ALLOW, "--cache", "--json", *args, url, env=env)
    assert r.code == 0, r.stderr
    return json.loads(r.stdout)


def _entries(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "cache"
    return sorted(folder.glob("*.wfc")) if folder.exists() else []


def test_a_fresh_entry_is_used_without_a_request(wf, serve, tmp_path):
    origin = Origin({"Cache-Control": "max-age=300", "ETag": '"v1"'})
    srv = serve(origin)
    first = _run(wf, srv.url)
    second = _run(wf, srv.url)
    assert (first["cache"], first["attempts"]) == ("miss", 1)
    assert (second["cache"], second["attempts"]) == ("hit", 0)
    assert len(srv.requests) == 1
    assert second["text"] == first["text"] and "word word" in second["text"]
    assert second["title"] == "Cached" and second["status"] == 200
    assert second["final_url"] == first["final_url"]
    assert len(_entries(tmp_path)) == 1
    assert (_entries(tmp_path)[0].stat().st_mode & 0o777) == 0o600


def test_the_trace_says_what_the_cache_did(wf, serve):
    srv = serve(Origin({"Cache-Control": "max-age=300", "ETag": '"v1"'}))
    plain = wf(*ALLOW, "--cache", srv.url)
    traced = wf(*ALLOW, "--cache", "-v", srv.url)
    assert traced.stdout == plain.stdout
    lines = [line for line in traced.stderr.splitlines() if line.startswith("wf: * cache: ")]
    assert lines[0].startswith("wf: * cache: hit, age ")
    assert lines[0].endswith("of a lifetime of 300 s")
    no_store = serve(Origin({"Cache-Control": "no-store"}))
    r = wf(*ALLOW, "--cache", "-v", no_store.url)
    assert "wf: * cache: no usable entry in " in r.stderr
    assert "wf: * cache: answer not kept (no-store)" in r.stderr


def test_without_cache_nothing_is_kept(wf, serve, tmp_path):
    srv = serve(Origin({"Cache-Control": "max-age=300", "ETag": '"v1"'}))
    for _ in range(2):
        r = wf(*ALLOW, "--json", srv.url)
        assert json.loads(r.stdout)["cache"] == "off"
    assert len(srv.requests) == 2
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize(
    "validator",
    [{"ETag": '"abc"'}, {"Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"}],
    ids=["etag", "last-modified"],
)
def test_a_stale_entry_is_revalidated_with_a_304(wf, serve, validator):
    origin = Origin({"Cache-Control": "max-age=0", **validator})
    srv = serve(origin)
    first = _run(wf, srv.url)
    second = _run(wf, srv.url)
    assert (first["cache"], second["cache"]) == ("miss", "revalidated")
    assert second["attempts"] == 1 and origin.not_modified == 1
    assert second["text"] == first["text"] and second["status"] == 200
    sent = srv.requests[1].lower()
    if "ETag" in validator:
        assert b'if-none-match: "abc"' in sent
    else:
        assert b"if-modified-since: tue, 01 dec 2026 10:00:00 gmt" in sent
    assert b"if-none-match" not in srv.requests[0].lower()


def test_a_304_refreshes_the_entry(wf, serve):
    # Stale at once (Age equals max-age), then the 304 brings a new Date and no Age.
    origin = Origin({"Cache-Control": "max-age=60", "Age": "60", "ETag": '"v"'})
    srv = serve(origin)
    assert _run(wf, srv.url)["cache"] == "miss"
    del origin.headers["Age"]
    assert _run(wf, srv.url)["cache"] == "revalidated"
    assert _run(wf, srv.url)["cache"] == "hit"
    assert len(srv.requests) == 2


def test_no_store_is_respected(wf, serve, tmp_path):
    srv = serve(Origin({"Cache-Control": "no-store", "ETag": '"v1"'}))
    assert [_run(wf, srv.url)["cache"] for _ in range(2)] == ["miss", "miss"]
    assert len(srv.requests) == 2
    assert b"if-none-match" not in srv.requests[1].lower()
    assert _entries(tmp_path) == []


def test_request_no_cache_revalidates_a_fresh_entry(wf, serve):
    srv = serve(Origin({"Cache-Control": "max-age=300", "ETag": '"v1"'}))
    _run(wf, srv.url)
    assert _run(wf, srv.url, "-H", "Cache-Control: no-cache")["cache"] == "revalidated"
    assert len(srv.requests) == 2


def test_request_max_age_bounds_the_age_of_a_hit(wf, serve):
    srv = serve(Origin({"Cache-Control": "max-age=300", "Age": "100", "ETag": '"v1"'}))
    _run(wf, srv.url, "-H", "Cache-Control: max-age=50")
    assert _run(wf, srv.url, "-H", "Cache-Control: max-age=50")["cache"] == "revalidated"
    assert _run(wf, srv.url, "-H", "Cache-Control: max-age=200")["cache"] == "hit"


def test_other_request_headers_are_another_entry(wf, serve):
    srv = serve(Origin({"Cache-Control": "max-age=300", "Vary": "Accept-Language"}))
    assert _run(wf, srv.url, "-H", "Accept-Language: de")["cache"] == "miss"
    assert _run(wf, srv.url, "-H", "Accept-Language: fr")["cache"] == "miss"
    assert _run(wf, srv.url, "-H", "Accept-Language: de")["cache"] == "hit"
    assert len(srv.requests) == 2


def test_an_entry_larger_than_max_bytes_is_not_used(wf, serve):
    srv = serve(Origin({"Cache-Control": "max-age=300"}))
    assert _run(wf, srv.url)["cache"] == "miss"
    r = wf(*ALLOW, "--cache", "--json", "--max-bytes", "100", srv.url)
    assert r.code == 63 and json.loads(r.stdout)["cache"] == "miss"
    assert len(srv.requests) == 2


def test_an_entry_is_served_only_under_the_policy_it_was_fetched_under(wf, serve):
    # A hit sends nothing for the policy to check: what --allow-private let in must not
    # come out of the cache for a run that refuses loopback.
    srv = serve(Origin({"Cache-Control": "max-age=300"}))
    r = wf("--allow-private", "--cache", srv.url)
    assert r.code == 0, r.stderr
    assert_one_line_error(wf("--cache", srv.url), PolicyRefused.code, "127.0.0.1")
    assert wf("--allow-private", "--cache", srv.url).code == 0
    assert len(srv.requests) == 1


def test_vary_star_is_not_kept(wf, serve, tmp_path):
    srv = serve(Origin({"Cache-Control": "max-age=300", "Vary": "*"}))
    assert [_run(wf, srv.url)["cache"] for _ in range(2)] == ["miss", "miss"]
    assert _entries(tmp_path) == []


def test_an_entry_reached_through_a_redirect_is_always_revalidated(wf, serve):
    origin = Origin({"Cache-Control": "max-age=300", "ETag": '"r"'})

    def handler(conn: socket.socket, request: bytes) -> None:
        if request.startswith(b"GET /final "):
            origin(conn, request)
        else:
            conn.sendall(http_response(302, b"", {"Location": "/final"}))

    srv = serve(handler)
    assert _run(wf, srv.url)["cache"] == "miss"
    second = _run(wf, srv.url)
    assert second["cache"] == "revalidated" and second["final_url"] == srv.url + "final"
    assert len(srv.requests) == 4 and origin.not_modified == 1


def test_a_304_from_another_url_than_the_entry_is_not_trusted(wf, serve):
    # The redirect now leads elsewhere, to a page whose server reuses the ETag: the
    # stored body is the other page's, so the page is fetched whole.
    moves: list[str] = ["/a"]

    def handler(conn: socket.socket, request: bytes) -> None:
        path = request.split(b" ", 2)[1].decode()
        if path == "/":
            conn.sendall(http_response(302, b"", {"Location": moves[-1]}))
        elif b'if-none-match: "same"' in request.lower():
            conn.sendall(http_response(304, b"", {"ETag": '"same"'}))
        else:
            page = f"<html><body><article><p>page {path}</p></article></body></html>"
            conn.sendall(http_response(200, page.encode(), {"ETag": '"same"'}))

    srv = serve(handler)
    assert "page /a" in _run(wf, srv.url)["text"]
    moves.append("/b")
    second = _run(wf, srv.url)
    assert (second["cache"], second["attempts"]) == ("miss", 2)
    assert "page /b" in second["text"]


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "other-key", "symlink"])
def test_a_corrupt_or_foreign_entry_is_ignored(wf, serve, tmp_path, damage):
    srv = serve(Origin({"Cache-Control": "max-age=300", "ETag": '"v1"'}))
    first = _run(wf, srv.url)
    [entry] = _entries(tmp_path)
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[:-10])
    elif damage == "flip":
        entry.write_bytes(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    elif damage == "garbage":
        entry.write_bytes(os.urandom(len(data)))
    elif damage == "other-key":
        # A whole, valid entry filed under this key's name: another page's.
        other = serve(Origin({"Cache-Control": "max-age=300"}))
        _run(wf, other.url)
        [theirs] = [p for p in _entries(tmp_path) if p != entry]
        entry.write_bytes(theirs.read_bytes())
    else:
        planted = tmp_path / "planted.wfc"
        planted.write_bytes(data)
        entry.unlink()
        entry.symlink_to(planted)
    second = _run(wf, srv.url)
    assert second["cache"] == "miss" and second["text"] == first["text"]
    assert len(srv.requests) == 2
    assert b"if-none-match" not in srv.requests[1].lower()
    assert _run(wf, srv.url)["cache"] == "hit"  # replaced by a good one
    assert not entry.is_symlink()


def test_the_size_cap_evicts_the_least_recently_used(wf, serve, tmp_path):
    servers = [serve(Origin({"Cache-Control": "max-age=300"})) for _ in range(4)]
    env = {"WF_CACHE_MAX": "2K"}  # room for two entries of about 900 bytes
    for srv in servers:
        assert _run(wf, srv.url, env=env)["cache"] == "miss"
        time.sleep(0.02)  # distinct modification times
    total = sum(p.stat().st_size for p in _entries(tmp_path))
    assert 0 < total <= 2048 and len(_entries(tmp_path)) == 2
    assert _run(wf, servers[3].url, env=env)["cache"] == "hit"
    assert _run(wf, servers[0].url, env=env)["cache"] == "miss"


def test_leftover_temporary_files_are_removed(wf, serve, tmp_path):
    srv = serve(Origin({"Cache-Control": "max-age=300"}))
    _run(wf, srv.url)
    old = tmp_path / "cache" / ".tmp-deadbeef"
    old.write_bytes(b"half an entry")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    other = serve(Origin({"Cache-Control": "max-age=300"}))
    _run(wf, other.url)
    assert not old.exists()


def test_a_cache_dir_that_is_not_ours_is_not_used(wf, serve, tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    srv = serve(Origin({"Cache-Control": "max-age=300"}))
    r = wf(*ALLOW, "--cache", "--json", srv.url)
    assert r.code == 0
    page = json.loads(r.stdout)
    assert page["cache"] == "off"
    assert any("cache not used" in note for note in page["notes"])
    assert list(folder.iterdir()) == []


def test_two_processes_at_once(serve, tmp_path):
    origin = Origin({"Cache-Control": "max-age=300", "ETag": '"v1"'}, delay=1.0)
    srv = serve(origin)
    env = subprocess_env(
        WF_CACHE_DIR=str(tmp_path / "cache"),
        WF_SCRATCH_DIR=str(tmp_path / "scratch"),
        WF_STATE_DIR=str(tmp_path / "state"),
        WF_RUNTIME_DIR=str(tmp_path / "runtime"),
        WF_CACHE="1",
    )
    cmd = [tool_path("wf"), *ALLOW, "--json", srv.url]
    procs = [
        subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=30) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    pages = [json.loads(out) for out, _ in outs]
    # Both usually miss (the server takes 1 s); a slow start may make the second a hit.
    assert sorted(p["cache"] for p in pages) in (["miss", "miss"], ["hit", "miss"])
    assert pages[0]["text"] == pages[1]["text"]
    assert len(_entries(tmp_path)) == 1
    assert not list((tmp_path / "cache").glob(".tmp-*"))
    third = subprocess.run(cmd, env=env, capture_output=True, timeout=30)
    assert json.loads(third.stdout)["cache"] == "hit"
    assert len(srv.requests) == sum(p["cache"] == "miss" for p in pages)


@pytest.mark.parametrize(
    ("name", "value"), [("WF_CACHE", "maybe"), ("WF_CACHE_MAX", "lots"), ("WF_CACHE_MAX", "0")]
)
def test_bad_cache_variables_exit_2(wf, name, value):
    assert_one_line_error(wf("http://127.0.0.1:9/", env={name: value}), 2, name)


def test_no_cache_beats_the_variable(wf, serve):
    srv = serve(Origin({"Cache-Control": "max-age=300"}))
    for _ in range(2):
        r = wf(*ALLOW, "--no-cache", "--json", srv.url, env={"WF_CACHE": "1"})
        assert json.loads(r.stdout)["cache"] == "off"
    assert len(srv.requests) == 2


# ------------------------------------------------------------------ freshness (RFC 9111 4.2)


def _entry(headers: dict[str, str], *, at: float, took: float = 0.0) -> Entry:
    return Entry("k", "u", "u", 200, headers, b"", at - took, at, False)


def test_freshness_lifetime():
    now = 1_800_000_000.0
    date = formatdate(now, usegmt=True)
    assert lifetime({"cache-control": "max-age=60"}, now) == 60
    assert lifetime({"cache-control": "max-age=60, no-cache"}, now) == 0
    assert lifetime({"date": date, "expires": formatdate(now + 90, usegmt=True)}, now) == 90
    assert lifetime({"date": date, "expires": "0"}, now) == 0
    # max-age wins over Expires; no heuristic from Last-Modified.
    assert lifetime({"cache-control": "max-age=5", "expires": formatdate(now + 90)}, now) == 5
    assert lifetime({"last-modified": formatdate(now - 10**6, usegmt=True)}, now) == 0


def test_current_age():
    at = 1_800_000_000.0
    entry = _entry({"age": "30", "date": formatdate(at - 10, usegmt=True)}, at=at, took=2)
    # corrected initial age: max(apparent 10, Age 30 + delay 2), plus time resident.
    assert current_age(entry, at + 100) == pytest.approx(132)
    fresh = _entry({"cache-control": "max-age=60", "date": formatdate(at, usegmt=True)}, at=at)
    assert is_fresh(fresh, at + 59) and not is_fresh(fresh, at + 61)


# RFC 9111 3.2 and 4.3.4: a 304 updates the stored fields with its own, except the ones
# that describe the body it does not carry (and ours: hop-by-hop fields and what the
# stored, decoded body no longer has); Age and Date are the 304's or none.
STORED = {
    "content-type": "text/html; charset=utf-8",
    "etag": '"v1"',
    "cache-control": "max-age=0",
    "last-modified": "Tue, 01 Dec 2026 10:00:00 GMT",
    "date": "Tue, 01 Dec 2026 10:00:05 GMT",
    "age": "5",
    "x-only-stored": "stored",
    "x-both": "stored",
}
FROM_304 = {
    # May replace (or add):
    "etag": '"v2"',
    "cache-control": "max-age=300",
    "last-modified": "Tue, 01 Dec 2026 11:00:00 GMT",
    "expires": "Wed, 02 Dec 2026 10:00:00 GMT",
    "x-both": "from the 304",
    "x-only-304": "from the 304",
    # May not:
    "content-type": "application/octet-stream",
    "content-length": "0",
    "content-encoding": "gzip",
    "content-range": "bytes 0-0/1",
    "set-cookie": "session=1",
    "transfer-encoding": "chunked",
    "connection": "close",
    "keep-alive": "timeout=5",
    "trailer": "x-sum",
    "upgrade": "h2c",
    "te": "trailers",
    "proxy-connection": "close",
}
MAY_REPLACE = {"etag", "cache-control", "last-modified", "expires", "x-both", "x-only-304"}


@pytest.mark.parametrize("with_date", [True, False], ids=["304-with-date", "304-without"])
def test_what_a_304_may_and_may_not_replace(tmp_path, with_date):
    from common.http.cache import HIT, MISS, REVALIDATED, HttpCache, cache_key, cached_fetch
    from common.http.client import Response
    from common.http.url import normalise_url

    url = "http://127.0.0.1:9/page"  # never connected to: get() below answers
    cache = HttpCache(tmp_path / "c", 10_000_000)
    (tmp_path / "c").mkdir(mode=0o700)
    not_modified = dict(FROM_304)
    if with_date:
        not_modified["date"] = formatdate(time.time(), usegmt=True)
    answers = [
        Response(url, url, 200, dict(STORED), b"the stored body", 1),
        Response(url, url, 304, not_modified, b"", 1),
    ]
    sent: list[dict[str, str]] = []

    def get(extra):  # type: ignore[no-untyped-def]
        sent.append(dict(extra))
        return answers.pop(0)

    assert cached_fetch(url, {}, cache, get)[1] == MISS
    out, how = cached_fetch(url, {}, cache, get)
    assert how == REVALIDATED and sent[1] == {
        "If-None-Match": '"v1"',
        "If-Modified-Since": "Tue, 01 Dec 2026 10:00:00 GMT",
    }
    assert (out.status, out.body) == (200, b"the stored body")
    want = {k: v for k, v in STORED.items() if k not in ("age", "date")}
    want.update({k: FROM_304[k] for k in MAY_REPLACE})
    if with_date:
        want["date"] = not_modified["date"]
    assert out.headers == want
    # As kept on disk, and the entry fresh for the 304's max-age: no request.
    entry = cache.load(cache_key(normalise_url(url), {}))
    assert entry is not None and entry.headers == want
    assert cached_fetch(url, {}, cache, get)[1] == HIT and len(sent) == 2


def test_an_entry_that_cannot_be_judged_is_a_miss(tmp_path, monkeypatch):
    """The guard behind the grammar: whatever a stored entry holds, judging its freshness
    never fails the run (today's readers do not raise; an entry may be older than them)."""
    from common.http import cache as http_cache
    from common.http.client import Response

    store = http_cache.HttpCache(tmp_path / "c", 1 << 20)
    (tmp_path / "c").mkdir(mode=0o700)
    url = "http://127.0.0.1:9/page"
    headers = {"User-Agent": "t"}
    key = http_cache.cache_key(url, headers)
    fresh = Entry(key, url, url, 200, {"cache-control": "max-age=300"}, b"old", 0.0, 0.0, False)
    fresh.request_time = fresh.response_time = time.time()
    store.save(fresh)
    asked: list[dict[str, str]] = []

    def get(extra):  # type: ignore[no-untyped-def]
        asked.append(dict(extra))
        return Response(url, url, 200, {"cache-control": "no-store"}, b"new", 1)

    def broken(*_args):  # type: ignore[no-untyped-def]
        raise OverflowError("date value out of range")

    assert http_cache.cached_fetch(url, headers, store, get)[1] == http_cache.HIT
    monkeypatch.setattr(http_cache, "lifetime", broken)
    resp, how = http_cache.cached_fetch(url, headers, store, get)
    assert (how, resp.body, asked) == (http_cache.MISS, b"new", [{}])
