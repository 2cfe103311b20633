"""common/http/cache.py: wf --cache against local servers that count requests and answer
conditional ones with real 304s; entries on disk corrupted, planted and capped; two wf
processes at once."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
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


# ------------------------------------------------------------------ the parts, in process


def test_cache_control_directives():
    from common.http.cache import cache_control

    assert cache_control(' Max-Age = "30" , No-Cache,, =5, private="a b", max-age=10') == {
        "max-age": "30",  # the first of a repeated directive counts
        "no-cache": "",
        "private": "a b",
    }
    assert cache_control("") == {}


def test_lifetime_at_its_edges():
    now = 1_800_000_000.0
    date = formatdate(now, usegmt=True)
    later = formatdate(now + 90, usegmt=True)
    assert lifetime({"cache-control": "no-store, max-age=60"}, now) == 0.0
    assert lifetime({"cache-control": "no-cache", "expires": later, "date": date}, now) == 0.0
    assert lifetime({"cache-control": "max-age=soon"}, now) == 0.0
    assert lifetime({"cache-control": "max-age=7"}, now) == 7.0
    assert lifetime({"expires": later}, now) == 90.0  # no Date: the time it arrived
    assert lifetime({"expires": later, "date": "not a date"}, now) == 90.0
    assert lifetime({"expires": formatdate(now - 90, usegmt=True), "date": date}, now) == 0.0
    assert lifetime({"expires": "never"}, now) == 0.0
    assert lifetime({}, now) == 0.0


def test_current_age_at_its_edges():
    at = 1_800_000_000.0
    # No Date and no Age: only the request's round trip and the time since.
    assert current_age(_entry({}, at=at, took=3), at + 10) == 13.0
    # A Date later than the arrival counts as no apparent age; an Age not a number as none.
    later = formatdate(at + 50, usegmt=True)
    assert current_age(_entry({"date": later, "age": "x"}, at=at), at + 4) == 4.0
    assert current_age(_entry({"age": " 30 "}, at=at), at) == 30.0
    # An apparent age larger than the Age header wins.
    early = formatdate(at - 40, usegmt=True)
    assert current_age(_entry({"date": early, "age": "30"}, at=at, took=5), at) == 40.0


def test_freshness_is_strict_and_a_redirected_entry_never_fresh():
    at = 1_800_000_000.0
    entry = _entry({"cache-control": "max-age=60"}, at=at)
    assert is_fresh(entry, at + 59.5) and not is_fresh(entry, at + 60)
    entry.redirected = True
    assert not is_fresh(entry, at)
    now = time.time()
    assert is_fresh(_entry({"cache-control": "max-age=60"}, at=now))  # now by default
    assert not is_fresh(_entry({"cache-control": "max-age=60"}, at=now - 61))


def _resp(status: int = 200, headers: dict[str, str] | None = None, **kw: object) -> object:
    from common.http.client import Response

    fields: dict[str, object] = {
        "url": "http://h.test/p",
        "final_url": "http://h.test/p",
        "status": status,
        "headers": headers or {},
        "body": b"the body",
        "elapsed_ms": 3,
    }
    fields.update(kw)
    return Response(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "headers", "request_headers", "why"),
    [
        (404, {"etag": '"a"'}, {}, "HTTP 404: only 200 answers are kept"),
        (206, {"etag": '"a"'}, {}, "HTTP 206: only 200 answers are kept"),
        (200, {"etag": '"a"', "cache-control": "No-Store"}, {}, "no-store"),
        (200, {"etag": '"a"'}, {"Cache-Control": "no-store"}, "the request says no-store"),
        (200, {"etag": '"a"'}, {"cache-control": "max-age=0, no-store"}, "the request says no-store"),
        (200, {"etag": '"a"', "vary": " * "}, {}, "Vary: *"),
        (200, {"etag": '"a"', "vary": "accept, *"}, {}, ""),
        (200, {"etag": '"a"'}, {}, ""),
        (200, {"last-modified": "Tue, 01 Dec 2026 10:00:00 GMT"}, {}, ""),
        (200, {"cache-control": "max-age=5"}, {}, ""),
        (200, {"expires": "Tue, 01 Dec 2026 10:00:00 GMT"}, {}, ""),
        (200, {"cache-control": "public"}, {}, "no validator and no lifetime: it could never be reused"),
        (200, {}, {"Pragma": "no-store"}, "no validator and no lifetime: it could never be reused"),
    ],
)  # fmt: skip
def test_why_an_answer_is_not_kept(status, headers, request_headers, why):
    from common.http.cache import storable, unstorable

    resp = _resp(status, headers)
    assert unstorable(resp, request_headers) == why  # type: ignore[arg-type]
    assert storable(resp, request_headers) is (why == "")  # type: ignore[arg-type]


def test_the_freshness_in_words(monkeypatch):
    from common.http import cache as http_cache

    now = 1_800_000_000.0
    monkeypatch.setattr(http_cache.time, "time", lambda: now)
    entry = _entry({"cache-control": "max-age=300"}, at=now - 42.4)
    assert http_cache._freshness(entry) == "age 42 s of a lifetime of 300 s"
    entry.redirected = True
    assert http_cache._freshness(entry) == "reached through a redirect (revalidated every time)"


def test_the_key_of_a_request():
    from common.http.cache import cache_key

    headers = {"Accept": "text/html", "X-A": "1", "Cache-Control": "no-cache"}
    key = cache_key("http://h.test/p", headers, "scope1")
    assert key == "17968921ee7e1a05ed58c0d34d22e4f3ecec32b0"  # stable across versions
    # Names are not case-sensitive; Cache-Control and Pragma choose no variant.
    same = {"x-a": "1", "ACCEPT": "text/html", "pragma": "no-cache", "CACHE-CONTROL": "x"}
    assert cache_key("http://h.test/p", same, "scope1") == key
    assert cache_key("http://h.test/p", {**headers, "X-A": "2"}, "scope1") != key
    assert cache_key("http://h.test/p", headers, "scope2") != key
    assert cache_key("http://h.test/q", headers, "scope1") != key
    assert cache_key("http://h.test/p", headers) == cache_key("http://h.test/p", headers, "")


def _store(tmp_path: Path, max_bytes: int = 1 << 20) -> object:
    from common.http.cache import HttpCache

    (tmp_path / "c").mkdir(mode=0o700, exist_ok=True)
    return HttpCache(tmp_path / "c", max_bytes)


def _full_entry(key: str = "k" * 40, body: bytes = b"the body", **kw: object) -> Entry:
    fields: dict[str, object] = {
        "key": key, "url": "http://h.test/p", "final_url": "http://h.test/q", "status": 200,
        "headers": {"etag": '"e"', "x-é": "ü"}, "body": body, "request_time": 10.5,
        "response_time": 11.25, "redirected": False,
    }  # fmt: skip
    fields.update(kw)
    return Entry(**fields)  # type: ignore[arg-type]


def test_an_entry_on_disk_is_magic_length_head_body(tmp_path):
    import hashlib

    from common.http.cache import _decode, _encode

    entry = _full_entry(redirected=True)
    data = _encode(entry)
    assert data.startswith(b"wf-cache 1\n")
    size = int(data[11:19], 16)
    assert data[19:20] == b"\n" and data.endswith(b"the body")
    head = json.loads(data[20 : 20 + size])
    assert data[20 + size :] == b"the body"
    assert head == {
        "key": "k" * 40,
        "url": "http://h.test/p",
        "final_url": "http://h.test/q",
        "status": 200,
        "headers": {"etag": '"e"', "x-é": "ü"},
        "request_time": 10.5,
        "response_time": 11.25,
        "redirected": True,
        "length": 8,
        "sha256": hashlib.sha256(b"the body").hexdigest(),
    }
    assert data[20 : 20 + size].isascii()
    assert _decode(data, "k" * 40) == entry


def _recoded(data: bytes, **changes: object) -> bytes:
    size = int(data[11:19], 16)
    head = json.loads(data[20 : 20 + size])
    head.update(changes)
    blob = json.dumps(head).encode()
    return data[:11] + f"{len(blob):08x}\n".encode() + blob + data[20 + size :]


@pytest.mark.parametrize(
    "damage",
    [
        "magic", "length-not-hex", "no-newline", "other-key", "short-body", "long-body",
        "digest", "headers-list", "header-number", "name-number", "no-url", "status-word",
        "time-word", "empty",
    ],
)  # fmt: skip
def test_a_damaged_entry_decodes_to_none(damage):
    from common.http.cache import _decode, _encode

    data = _encode(_full_entry())
    damaged = {
        "magic": b"wf-cache 2\n" + data[11:],
        "length-not-hex": data[:11] + b"zzzzzzzz" + data[19:],
        "no-newline": data[:19] + b" " + data[20:],
        "other-key": data,
        "short-body": data[:-1],
        "long-body": data + b"!",
        "digest": data[:-1] + b"X",
        "headers-list": _recoded(data, headers=[["etag", "x"]]),
        "header-number": _recoded(data, headers={"etag": 5}),
        "name-number": data,
        "no-url": _recoded(data, url=None) if False else None,
        "status-word": _recoded(data, status="ok"),
        "time-word": _recoded(data, request_time="soon"),
        "empty": b"",
    }[damage]
    if damage == "no-url":
        size = int(data[11:19], 16)
        head = json.loads(data[20 : 20 + size])
        del head["url"]
        blob = json.dumps(head).encode()
        damaged = data[:11] + f"{len(blob):08x}\n".encode() + blob + data[20 + size :]
    if damage == "name-number":  # JSON keys are strings: a list of pairs is not a mapping
        damaged = _recoded(data, headers={"1": ["x"]})
    key = "o" * 40 if damage == "other-key" else "k" * 40
    assert _decode(damaged, key) is None  # type: ignore[arg-type]


def test_a_decoded_entry_takes_its_types_from_the_head():
    from common.http.cache import _decode, _encode

    data = _recoded(_encode(_full_entry()), status="200", request_time=3, redirected=1, url=5)
    entry = _decode(data, "k" * 40)
    assert entry is not None
    assert (entry.status, entry.request_time, entry.redirected, entry.url) == (200, 3.0, True, "5")
    assert type(entry.request_time) is float and type(entry.response_time) is float


def test_save_then_load(tmp_path):
    store = _store(tmp_path)
    entry = _full_entry()
    store.save(entry)  # type: ignore[attr-defined]
    files = sorted(p.name for p in (tmp_path / "c").iterdir())
    assert files == ["k" * 40 + ".wfc"]
    assert ((tmp_path / "c" / files[0]).stat().st_mode & 0o777) == 0o600
    assert store.load("k" * 40) == entry  # type: ignore[attr-defined]
    assert store.load("m" * 40) is None  # type: ignore[attr-defined]


def test_load_marks_the_entry_recently_used(tmp_path):
    store = _store(tmp_path)
    store.save(_full_entry())  # type: ignore[attr-defined]
    path = tmp_path / "c" / ("k" * 40 + ".wfc")
    os.utime(path, (1000, 1000))
    assert store.load("k" * 40) is not None  # type: ignore[attr-defined]
    assert path.stat().st_mtime > time.time() - 60
    path.write_bytes(b"garbage")
    os.utime(path, (1000, 1000))
    assert store.load("k" * 40) is None  # type: ignore[attr-defined]
    assert path.stat().st_mtime == 1000  # a bad entry is not made recent


def test_load_refuses_what_is_not_our_regular_file(tmp_path):
    store = _store(tmp_path)
    folder = tmp_path / "c"
    (folder / ("d" * 40 + ".wfc")).mkdir()
    assert store.load("d" * 40) is None  # type: ignore[attr-defined]
    store.save(_full_entry())  # type: ignore[attr-defined]
    (folder / ("l" * 40 + ".wfc")).symlink_to(folder / ("k" * 40 + ".wfc"))
    assert store.load("l" * 40) is None  # type: ignore[attr-defined]
    if os.geteuid() == 0:
        os.chown(folder / ("k" * 40 + ".wfc"), 12345, -1)
        assert store.load("k" * 40) is None  # type: ignore[attr-defined]
    from common.http.cache import HttpCache

    assert HttpCache(tmp_path / "nowhere", 1 << 20).load("k" * 40) is None


@pytest.mark.parametrize(("extra", "loaded"), [(0, True), (1, False)])
def test_load_reads_at_most_the_cap_and_a_megabyte(tmp_path, extra, loaded):
    from common.http.cache import HttpCache, _encode

    entry = _full_entry(body=b"b" * 5000)
    size = len(_encode(entry))
    (tmp_path / "c").mkdir(mode=0o700)
    big = HttpCache(tmp_path / "c", size)
    big.save(entry)
    small = HttpCache(tmp_path / "c", size - (1 << 20) - extra)
    assert (small.load("k" * 40) is not None) is loaded


@pytest.mark.parametrize(("spare", "kept"), [(0, True), (-1, False)])
def test_an_entry_larger_than_the_cap_is_not_saved(tmp_path, spare, kept):
    from common.http.cache import HttpCache, _encode

    entry = _full_entry()
    (tmp_path / "c").mkdir(mode=0o700)
    HttpCache(tmp_path / "c", len(_encode(entry)) + spare).save(entry)
    assert bool(list((tmp_path / "c").iterdir())) is kept


def test_a_failed_save_leaves_no_temporary_file(tmp_path, monkeypatch):
    store = _store(tmp_path)

    def replace(*args: object, **kw: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError, match="disk full"):
        store.save(_full_entry())  # type: ignore[attr-defined]
    assert list((tmp_path / "c").iterdir()) == []


def test_eviction_keeps_the_most_recently_used_within_the_cap(tmp_path):
    from common.http.cache import HttpCache, _encode

    entries = [_full_entry(key=c * 40) for c in "abcd"]
    size = len(_encode(entries[0]))
    (tmp_path / "c").mkdir(mode=0o700)
    folder = tmp_path / "c"
    roomy = HttpCache(folder, 100 * size)
    for i, entry in enumerate(entries):
        roomy.save(entry)
        os.utime(folder / (entry.key + ".wfc"), (1000 + i, 1000 + i))
    os.utime(folder / ("a" * 40 + ".wfc"), (2000, 2000))  # a used last
    (folder / "notes.txt").write_bytes(b"x" * size * 10)  # not ours: neither counted nor removed
    (folder / ("e" * 40 + ".wfc")).mkdir()
    (folder / ("f" * 40 + ".wfc")).symlink_to(folder / "notes.txt")
    fd = os.open(folder, os.O_RDONLY)
    try:
        HttpCache(folder, 2 * size)._evict(fd)  # exactly two fit
    finally:
        os.close(fd)
    left = sorted(p.name[:1] for p in folder.iterdir() if p.name.endswith(".wfc"))
    assert left == ["a", "d", "e", "f"]
    assert (folder / "notes.txt").exists()


@pytest.mark.parametrize(("age", "removed"), [(3600, False), (3601, True)])
def test_temporary_files_older_than_an_hour_are_removed(tmp_path, monkeypatch, age, removed):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    folder = tmp_path / "c"
    now = 1_800_000_000
    monkeypatch.setattr(http_cache.time, "time", lambda: float(now))
    (folder / ".tmp-0123").write_bytes(b"x")
    os.utime(folder / ".tmp-0123", (now - age, now - age))
    (folder / ".other").write_bytes(b"x")
    os.utime(folder / ".other", (0, 0))
    fd = os.open(folder, os.O_RDONLY)
    try:
        store._evict(fd)  # type: ignore[attr-defined]
    finally:
        os.close(fd)
    assert (folder / ".tmp-0123").exists() is not removed
    assert (folder / ".other").exists()


class Getter:
    """cached_fetch's get(): the answers in turn, and the extra headers each call had."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.sent: list[dict[str, str]] = []

    def __call__(self, extra: dict[str, str]) -> object:
        self.sent.append(dict(extra))
        return self.answers.pop(0)


@pytest.fixture
def traced(capsys):  # type: ignore[no-untyped-def]
    from common import trace

    trace.enable("wf", True)
    yield lambda: [
        line[len("wf: * ") :] for line in capsys.readouterr().err.splitlines() if " * " in line
    ]
    trace.enable("wf", False)


URL = "http://user:pw@h.test/p"


def test_a_request_with_no_store_skips_the_cache(tmp_path, traced):
    from common.http.cache import MISS, cached_fetch

    store = _store(tmp_path)
    get = Getter(_resp(200, {"etag": '"e"'}))
    headers = {"CACHE-CONTROL": "No-Store"}
    resp, how = cached_fetch(URL, headers, store, get)  # type: ignore[arg-type]
    assert how == MISS and get.sent == [{}]
    assert list((tmp_path / "c").iterdir()) == []
    assert traced() == ["cache: not used (the request says no-store)"]


def test_miss_keep_hit_stale_revalidate(tmp_path, traced, monkeypatch):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    kept = _resp(200, {"etag": '"e"', "cache-control": "max-age=100", "content-length": "8"})
    get = Getter(kept)
    resp, how = http_cache.cached_fetch(URL, {"A": "1"}, store, get, scope="s")  # type: ignore[arg-type]
    assert how == http_cache.MISS and resp is kept and get.sent == [{}]
    assert traced() == [
        f"cache: no usable entry in {tmp_path / 'c'}",
        "cache: answer kept, 8 bytes",
    ]
    key = http_cache.cache_key("http://user:pw@h.test/p", {"A": "1"}, "s")
    entry = store.load(key)  # type: ignore[attr-defined]
    assert entry is not None
    assert (entry.url, entry.final_url, entry.status, entry.body) == (
        "http://h.test/p", "http://h.test/p", 200, b"the body",
    )  # fmt: skip
    assert entry.headers == {"etag": '"e"', "cache-control": "max-age=100"}
    assert entry.redirected is False and entry.request_time <= entry.response_time
    assert entry.response_time == pytest.approx(time.time(), abs=5)
    # A hit: no request, the stored answer under the URL asked for.
    resp, how = http_cache.cached_fetch(URL, {"A": "1"}, store, get, scope="s")  # type: ignore[arg-type]
    assert how == http_cache.HIT and get.sent == [{}] and resp.url == URL
    assert (resp.status, resp.body, resp.elapsed_ms) == (200, b"the body", 0)
    assert traced() == ["cache: hit, age 0 s of a lifetime of 100 s"]
    # Another scope is another entry.
    get.answers.append(_resp(200, {"cache-control": "no-store"}))
    _, how = http_cache.cached_fetch(URL, {"A": "1"}, store, get, scope="t")  # type: ignore[arg-type]
    assert how == http_cache.MISS and traced()[-1] == "cache: answer not kept (no-store)"
    # Stale: asked with its validator; a 304 keeps the body and the elapsed time.
    later = time.time() + 200
    monkeypatch.setattr(http_cache.time, "time", lambda: later)
    get.answers.append(_resp(304, {"etag": '"e"'}, body=b"", elapsed_ms=7, redirects=["r"]))
    resp, how = http_cache.cached_fetch(URL, {"A": "1"}, store, get, scope="s")  # type: ignore[arg-type]
    assert how == http_cache.REVALIDATED and get.sent[-1] == {"If-None-Match": '"e"'}
    assert (resp.status, resp.body, resp.elapsed_ms, resp.redirects) == (200, b"the body", 7, ["r"])
    assert resp.url == URL
    lines = traced()
    assert lines[0] == "cache: stale, age 200 s of a lifetime of 100 s"
    assert lines[1] == "cache: 304 Not Modified; the stored 8 bytes used"
    entry = store.load(key)  # type: ignore[attr-defined]
    assert entry.request_time == entry.response_time == later  # type: ignore[union-attr]


def test_a_304_for_another_address_is_fetched_whole(tmp_path, traced):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    get = Getter(
        _resp(200, {"last-modified": "Tue, 01 Dec 2026 10:00:00 GMT"}),
        _resp(304, {}, final_url="http://h.test/elsewhere"),
        _resp(
            200, {"last-modified": "Wed, 02 Dec 2026 10:00:00 GMT"}, body=b"new", redirects=["x"]
        ),
    )
    http_cache.cached_fetch(URL, {}, store, get)  # type: ignore[arg-type]
    traced()
    resp, how = http_cache.cached_fetch(URL, {}, store, get)  # type: ignore[arg-type]
    assert how == http_cache.MISS and resp.body == b"new"
    assert get.sent[1:] == [{"If-Modified-Since": "Tue, 01 Dec 2026 10:00:00 GMT"}, {}]
    assert traced()[1:] == [
        "cache: 304 from http://h.test/elsewhere, not the entry's URL; fetching it whole",
        "cache: answer kept, 3 bytes",
    ]
    entry = store.load(http_cache.cache_key("http://user:pw@h.test/p", {}))  # type: ignore[attr-defined]
    assert entry.body == b"new" and entry.redirected is True  # type: ignore[union-attr]


def test_a_304_without_an_entry_or_a_validator_is_the_answer(tmp_path):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    not_modified = _resp(304, {})
    get = Getter(not_modified)
    assert http_cache.cached_fetch(URL, {}, store, get) == (not_modified, http_cache.MISS)  # type: ignore[arg-type]
    # An entry with a lifetime and no validator: stale, asked for without conditions.
    old = _full_entry(key=http_cache.cache_key(URL, {}), headers={"cache-control": "max-age=1"})
    store.save(old)  # type: ignore[attr-defined]
    get = Getter(not_modified)
    assert http_cache.cached_fetch(URL, {}, store, get) == (not_modified, http_cache.MISS)  # type: ignore[arg-type]
    assert get.sent == [{}]


@pytest.mark.parametrize(("limit", "used"), [(8, True), (7, False), (None, True)])
def test_a_stored_body_over_max_body_is_not_used(tmp_path, traced, limit, used):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    fresh = _resp(200, {"cache-control": "max-age=100"})
    get = Getter(fresh, _resp(200, {"cache-control": "no-store"}, body=b"again"))
    http_cache.cached_fetch(URL, {}, store, get)  # type: ignore[arg-type]
    traced()
    resp, how = http_cache.cached_fetch(URL, {}, store, get, max_body=limit)  # type: ignore[arg-type]
    assert (how == http_cache.HIT) is used
    if not used:
        assert traced()[:2] == [
            "cache: entry of 8 bytes is over --max-bytes; not used",
            f"cache: no usable entry in {tmp_path / 'c'}",
        ]


@pytest.mark.parametrize(
    ("request_cc", "age", "hit"),
    [("", 50, True), ("no-cache", 0, False), ("max-age=50", 50, True), ("max-age=49", 50, False)],
)
def test_the_requests_own_freshness_limits(tmp_path, monkeypatch, request_cc, age, hit):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    headers = {"Cache-Control": request_cc} if request_cc else {}
    key = http_cache.cache_key(URL, headers)
    now = 1_800_000_000.0
    entry = _full_entry(key=key, headers={"cache-control": "max-age=100", "etag": '"e"'})
    entry.request_time = entry.response_time = now - age
    store.save(entry)  # type: ignore[attr-defined]
    monkeypatch.setattr(http_cache.time, "time", lambda: now)
    get = Getter(_resp(200, {"cache-control": "no-store"}))
    assert (http_cache.cached_fetch(URL, headers, store, get)[1] == http_cache.HIT) is hit  # type: ignore[arg-type]


def test_an_unreadable_entry_is_traced_as_a_miss(tmp_path, traced, monkeypatch):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    entry = _full_entry(key=http_cache.cache_key(URL, {}), headers={"cache-control": "max-age=9"})
    entry.request_time = entry.response_time = time.time()
    store.save(entry)  # type: ignore[attr-defined]

    def broken(*args: object) -> float:
        raise ValueError("bad")

    monkeypatch.setattr(http_cache, "lifetime", broken)
    get = Getter(_resp(200, {"cache-control": "no-store"}))
    assert http_cache.cached_fetch(URL, {}, store, get)[1] == http_cache.MISS  # type: ignore[arg-type]
    assert traced()[:2] == [
        "cache: entry unreadable (ValueError); a miss",
        f"cache: no usable entry in {tmp_path / 'c'}",
    ]
    assert get.sent == [{}]  # no validator from an entry set aside


def test_a_cache_that_cannot_be_written_costs_nothing(tmp_path):
    from common.http import cache as http_cache

    store = _store(tmp_path)
    (tmp_path / "c").rmdir()
    resp = _resp(200, {"etag": '"e"'})
    assert http_cache.cached_fetch(URL, {}, store, Getter(resp)) == (resp, http_cache.MISS)  # type: ignore[arg-type]


def test_open_cache_is_the_cache_dir():
    from common.http.cache import open_cache
    from common.paths import cache_dir

    store = open_cache(1234)
    assert store.max_bytes == 1234 and store.directory == cache_dir()
    assert store.directory.is_dir()


def test_expires_counts_from_the_servers_date_not_the_arrival():
    now = 1_800_000_000.0
    headers = {
        "date": formatdate(now - 30, usegmt=True),
        "expires": formatdate(now + 90, usegmt=True),
    }
    assert lifetime(headers, now) == 120.0
    assert lifetime({"Date": headers["date"], "expires": headers["expires"]}, now) == 90.0


def test_expires_without_a_date_counts_from_the_arrival(monkeypatch):
    from common.http import cache as http_cache

    now = 1_800_000_000.0
    entry = _entry({"expires": formatdate(now + 90, usegmt=True)}, at=now)
    assert is_fresh(entry, now + 89) and not is_fresh(entry, now + 90)
    monkeypatch.setattr(http_cache.time, "time", lambda: now + 10)
    assert http_cache._freshness(entry) == "age 10 s of a lifetime of 90 s"


def test_a_key_from_text_that_is_not_ascii():
    from common.http.cache import cache_key

    key = cache_key("http://h.test/p", {"X-Name": "Zoë"}, "é")
    assert len(key) == 40 and key != cache_key("http://h.test/p", {"X-Name": "Zoe"}, "é")


def test_an_entry_removed_while_evicting_is_passed_over(tmp_path, monkeypatch):
    from common.http.cache import HttpCache, _encode

    entries = [_full_entry(key=c * 40) for c in "ab"]
    size = len(_encode(entries[0]))
    folder = tmp_path / "c"
    folder.mkdir(mode=0o700)
    for i, entry in enumerate(entries):
        HttpCache(folder, 100 * size).save(entry)
        os.utime(folder / (entry.key + ".wfc"), (1000 + i, 1000 + i))
    real = os.scandir

    class Gone:
        name = "g" * 40 + ".wfc"

        def stat(self, follow_symlinks: bool = True) -> os.stat_result:
            raise FileNotFoundError(self.name)  # another process removed it first

    class Listing:
        def __init__(self, fd: int) -> None:
            self.inner = real(fd)

        def __enter__(self) -> Iterator[object]:
            return iter([Gone(), *self.inner])

        def __exit__(self, *exc: object) -> None:
            self.inner.close()

    monkeypatch.setattr(os, "scandir", Listing)
    fd = os.open(folder, os.O_RDONLY)
    try:
        HttpCache(folder, size)._evict(fd)
    finally:
        os.close(fd)
    monkeypatch.undo()
    assert sorted(p.name[:1] for p in folder.iterdir()) == ["b"]


def test_a_quoted_directive_loses_only_its_quotes():
    from common.http.cache import cache_control

    assert cache_control('private="Xy", a=X') == {"private": "Xy", "a": "X"}


def test_save_never_writes_through_a_link_planted_at_its_temporary_name(tmp_path, monkeypatch):
    import secrets

    store = _store(tmp_path)
    outside = tmp_path / "outside"
    outside.write_bytes(b"precious")
    monkeypatch.setattr(secrets, "token_hex", lambda n=None: "0" * 16)
    (tmp_path / "c" / (".tmp-" + "0" * 16)).symlink_to(outside)
    with pytest.raises(FileExistsError):
        store.save(_full_entry())  # type: ignore[attr-defined]
    assert outside.read_bytes() == b"precious"
    assert not (tmp_path / "c" / ("k" * 40 + ".wfc")).exists()


def test_fields_named_by_connection_are_neither_kept_nor_taken_from_a_304(tmp_path):
    """RFC 9110 7.6.1 and RFC 9111 3.2: a field that Connection names is hop-by-hop, for
    that one connection: not stored with the answer, and not used to update an entry
    from a 304 (whose own Connection names its own)."""
    from common.http.cache import MISS, REVALIDATED, _kept_headers, cache_key, cached_fetch

    store = _store(tmp_path)
    stored = {
        "etag": '"e"',
        "cache-control": "max-age=0",
        "connection": "Keep-Alive, X-Hop ,, x-Other",
        "x-hop": "this connection's",
        "x-other": "this connection's too",
        "x-end": "stored",
        "x-kept": "stored",
    }
    not_modified = {
        "etag": '"e"',
        "connection": "X-End,X-New",
        "x-end": "the 304's connection's",
        "x-new": "the 304's connection's",
        "x-kept": "from the 304",
        "x-hop": "end to end this time",
    }
    get = Getter(_resp(200, stored), _resp(304, not_modified, body=b""))
    assert cached_fetch(URL, {}, store, get)[1] == MISS  # type: ignore[arg-type]
    key = cache_key(URL, {})
    entry = store.load(key)  # type: ignore[attr-defined]
    assert entry is not None and entry.headers == {
        "etag": '"e"', "cache-control": "max-age=0", "x-end": "stored", "x-kept": "stored",
    }  # fmt: skip
    out, how = cached_fetch(URL, {}, store, get)  # type: ignore[arg-type]
    want = {
        "etag": '"e"', "cache-control": "max-age=0", "x-end": "stored",
        "x-kept": "from the 304", "x-hop": "end to end this time",
    }  # fmt: skip
    assert how == REVALIDATED and out.headers == want
    assert store.load(key).headers == want  # type: ignore[attr-defined]
    # Without a Connection field no other field is hop-by-hop, whatever its name.
    assert _kept_headers({"xxxx": "kept", "etag": '"e"'}) == {"xxxx": "kept", "etag": '"e"'}
