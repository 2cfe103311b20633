"""A private HTTP cache (RFC 9111) for wf --cache: a fresh entry is served without a
request, a stale one is revalidated (If-None-Match, If-Modified-Since) and a 304 serves
the stored body.

Small on purpose. The well-kept caches for Python (CacheControl, hishel) sit on requests
or httpx; ours fetches with http.client under the network policy. What it does not do (the
man page lists it): heuristic freshness (a response without max-age or Expires is
revalidated every time), stale-while-revalidate and stale-if-error, invalidation by
unsafe methods (wf sends GET only), and more than the final answer of a redirect chain
(an entry reached through a redirect is revalidated every time, through the chain).

An entry is one file per URL, request headers and network policy (every header sent is
in the key, so a header named in Vary can never be matched wrongly; the policy is, so an
entry is served only to runs that would have been let fetch it): ``MAGIC``, the length of a JSON head,
the head, the decoded body. It is written to a temporary name and renamed, so a reader
sees a whole entry or none, and concurrent wf processes at worst both store the same
page. A file that is short, foreign (not ours, not a regular file, another key) or whose
body does not match its digest is ignored. The directory is used only when it is ours
(common/paths.py). The total size is capped: the least recently used entries go first.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import trace
from common.http.client import Response
from common.http.retry import delta_seconds, http_date
from common.http.url import normalise_url, split_credentials

MAGIC = b"wf-cache 1\n"
SUFFIX = ".wfc"
_TMP_PREFIX = ".tmp-"
_TMP_MAX_AGE = 3600.0  # a temporary file this old belonged to a process that died
# Not kept: hop-by-hop fields (and those an answer's Connection names: _hop_by_hop), what
# described the encoded body we no longer hold, cookies.
_DROPPED = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "content-encoding",
        "content-length",
        "set-cookie",
    }
)
# A 304's fields that must not replace the stored ones (RFC 9111 4.3.4 and our decoding).
_NOT_UPDATED = _DROPPED | {"content-type", "content-range"}

HIT, REVALIDATED, MISS, OFF = "hit", "revalidated", "miss", "off"

Fetcher = Callable[[Mapping[str, str]], Response]


@dataclass
class Entry:
    key: str
    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    body: bytes
    request_time: float  # wall clock when the request that got it was sent
    response_time: float  # and when its answer (or the last 304) arrived
    redirected: bool

    def response(self, url: str) -> Response:
        return Response(
            url=url,
            final_url=self.final_url,
            status=self.status,
            headers=dict(self.headers),
            body=self.body,
            elapsed_ms=0,
        )


def cache_control(value: str) -> dict[str, str]:
    """Directives of a Cache-Control field: lower-case names, unquoted values."""
    out: dict[str, str] = {}
    for part in value.split(","):
        name, _, arg = part.strip().partition("=")
        if name:
            out.setdefault(name.strip().lower(), arg.strip().strip('"'))
    return out


def lifetime(headers: Mapping[str, str], response_time: float) -> float:
    """The freshness lifetime (RFC 9111 4.2.1) for a private cache: max-age, else Expires
    minus Date; no-cache means none. No heuristic: without either, 0."""
    cc = cache_control(headers.get("cache-control", ""))
    if "no-cache" in cc or "no-store" in cc:
        return 0.0
    if "max-age" in cc:
        return float(delta_seconds(cc["max-age"]) or 0)
    if "expires" in headers:
        expires = http_date(headers["expires"])
        if expires is None:  # an invalid Expires means already expired
            return 0.0
        date = http_date(headers.get("date")) or response_time
        return max(0.0, expires - date)
    return 0.0


def current_age(entry: Entry, now: float) -> float:
    """RFC 9111 4.2.3."""
    date = http_date(entry.headers.get("date")) or entry.response_time
    apparent = max(0.0, entry.response_time - date)
    age_value = delta_seconds(entry.headers.get("age", "").strip()) or 0
    corrected = age_value + (entry.response_time - entry.request_time)
    return max(apparent, corrected) + (now - entry.response_time)


def is_fresh(entry: Entry, now: float | None = None) -> bool:
    if entry.redirected:
        return False  # the redirects were not stored: ask again through them
    now = time.time() if now is None else now
    return lifetime(entry.headers, entry.response_time) > current_age(entry, now)


def storable(resp: Response, request_headers: Mapping[str, str]) -> bool:
    return not unstorable(resp, request_headers)


def unstorable(resp: Response, request_headers: Mapping[str, str]) -> str:
    """Why an answer is not kept, or "" when it is: RFC 9111 3 for a private cache and a
    GET, narrowed to what helps (a 200 with a validator or an explicit lifetime)."""
    if resp.status != 200:
        return f"HTTP {resp.status}: only 200 answers are kept"
    cc = cache_control(resp.headers.get("cache-control", ""))
    if "no-store" in cc:
        return "no-store"
    if "no-store" in cache_control(_get(request_headers, "cache-control")):
        return "the request says no-store"
    if resp.headers.get("vary", "").strip() == "*":
        return "Vary: *"
    has_validator = "etag" in resp.headers or "last-modified" in resp.headers
    if has_validator or "max-age" in cc or "expires" in resp.headers:
        return ""
    return "no validator and no lifetime: it could never be reused"


def _freshness(entry: Entry) -> str:
    if entry.redirected:
        return "reached through a redirect (revalidated every time)"
    now = time.time()
    return (
        f"age {current_age(entry, now):.0f} s of a lifetime of "
        f"{lifetime(entry.headers, entry.response_time):.0f} s"
    )


def _get(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return ""


def cache_key(url: str, request_headers: Mapping[str, str], scope: str = "") -> str:
    # Cache-Control and Pragma speak to the cache; they do not choose a variant.
    fields = sorted(
        (k.lower(), v)
        for k, v in request_headers.items()
        if k.lower() not in ("cache-control", "pragma")
    )
    text = json.dumps(["GET", url, fields, scope], ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:40]


class HttpCache:
    """The entries in one directory (ours), with the total size capped at ``max_bytes``."""

    def __init__(self, directory: Path, max_bytes: int) -> None:
        self.directory = directory
        self.max_bytes = max_bytes

    def _name(self, key: str) -> str:
        return key + SUFFIX

    def _dir_fd(self) -> int:
        from common.paths import open_dir

        return open_dir(self.directory)

    def load(self, key: str) -> Entry | None:
        """The entry for ``key``, or None when absent, corrupt or not ours."""
        try:
            dir_fd = self._dir_fd()
        except OSError:
            return None
        try:
            fd = os.open(self._name(key), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
        except OSError:
            os.close(dir_fd)
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
                return None
            if st.st_size > self.max_bytes + (1 << 20):
                return None
            with os.fdopen(os.dup(fd), "rb") as fh:
                data = fh.read()
            entry = _decode(data, key)
            if entry is not None:
                try:  # recently used: the last to be evicted
                    os.utime(fd)
                except OSError:
                    pass
            return entry
        finally:
            os.close(fd)
            os.close(dir_fd)

    def save(self, entry: Entry) -> None:
        """Write the entry whole under a temporary name, then rename it over the old one;
        then evict past the cap. OSError when the directory cannot take it."""
        data = _encode(entry)
        if len(data) > self.max_bytes:
            return
        dir_fd = self._dir_fd()
        try:
            tmp = f"{_TMP_PREFIX}{secrets.token_hex(8)}"
            fd = os.open(
                tmp,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o600,
                dir_fd=dir_fd,
            )
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                # No fsync: a cache entry cut short by a crash fails its digest and is
                # ignored, which costs one download, not a wrong page.
                os.replace(tmp, self._name(entry.key), src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except BaseException:
                try:
                    os.unlink(tmp, dir_fd=dir_fd)
                except OSError:
                    pass
                raise
            self._evict(dir_fd)
        finally:
            os.close(dir_fd)

    def _evict(self, dir_fd: int) -> None:
        """Remove the least recently used entries until the total is within the cap, and
        temporary files left by processes that died. Another process may remove the same
        file first: that is fine."""
        now = time.time()
        entries: list[tuple[float, int, str]] = []
        with os.scandir(dir_fd) as it:
            for item in it:
                try:
                    st = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
                    continue
                if item.name.startswith(_TMP_PREFIX):
                    if now - st.st_mtime > _TMP_MAX_AGE:
                        _unlink(item.name, dir_fd)
                elif item.name.endswith(SUFFIX):
                    entries.append((st.st_mtime, st.st_size, item.name))
        total = sum(size for _, size, _ in entries)
        for _, size, name in sorted(entries):
            if total <= self.max_bytes:
                break
            _unlink(name, dir_fd)
            total -= size


def _unlink(name: str, dir_fd: int) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


def _encode(entry: Entry) -> bytes:
    head = {
        "key": entry.key,
        "url": entry.url,
        "final_url": entry.final_url,
        "status": entry.status,
        "headers": entry.headers,
        "request_time": entry.request_time,
        "response_time": entry.response_time,
        "redirected": entry.redirected,
        "length": len(entry.body),
        "sha256": hashlib.sha256(entry.body).hexdigest(),
    }
    blob = json.dumps(head, ensure_ascii=True).encode("ascii")
    return MAGIC + f"{len(blob):08x}\n".encode("ascii") + blob + entry.body


def _decode(data: bytes, key: str) -> Entry | None:
    """The entry in ``data`` if it is whole and is the one for ``key``; else None."""
    if not data.startswith(MAGIC):
        return None
    rest = data[len(MAGIC) :]
    try:
        size = int(rest[:8], 16)
        if rest[8:9] != b"\n":
            return None
        head: dict[str, Any] = json.loads(rest[9 : 9 + size])
        body = rest[9 + size :]
        headers = head["headers"]
        ok = (
            head["key"] == key
            and head["length"] == len(body)
            and head["sha256"] == hashlib.sha256(body).hexdigest()
            and isinstance(headers, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
        )
        if not ok:
            return None
        return Entry(
            key=key,
            url=str(head["url"]),
            final_url=str(head["final_url"]),
            status=int(head["status"]),
            headers=headers,
            body=body,
            request_time=float(head["request_time"]),
            response_time=float(head["response_time"]),
            redirected=bool(head["redirected"]),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def open_cache(max_bytes: int) -> HttpCache:
    """The cache in its directory (created when missing); DirUnusable when not ours."""
    from common.paths import cache_dir

    return HttpCache(cache_dir(), max_bytes)


def _hop_by_hop(headers: Mapping[str, str]) -> frozenset[str]:
    """The fields an answer's Connection names (RFC 9110 7.6.1): they were for that one
    connection, so they are neither stored nor used to update an entry (RFC 9111 3.2)."""
    named = (name.strip().lower() for name in headers.get("connection", "").split(","))
    return frozenset(name for name in named if name)


def _kept_headers(headers: Mapping[str, str]) -> dict[str, str]:
    dropped = _DROPPED | _hop_by_hop(headers)
    return {k: v for k, v in headers.items() if k not in dropped}


def cached_fetch(
    url: str,
    request_headers: Mapping[str, str],
    cache: HttpCache,
    get: Fetcher,
    *,
    scope: str = "",
    max_body: int | None = None,
) -> tuple[Response, str]:
    """One GET through the cache: (the response, HIT | REVALIDATED | MISS).

    ``request_headers`` are the headers the request will carry (the key); ``get`` sends
    it with extra (conditional) headers, retries included. ``scope`` is the network
    policy the fetch runs under: an entry is used only under the policy it was fetched
    under, so a page a wider policy let in is never served to a run that would refuse it
    (a hit sends nothing for the policy to check). A stored body larger than ``max_body``
    is not used."""
    req_cc = cache_control(_get(request_headers, "cache-control"))
    if "no-store" in req_cc:
        trace.trace("cache: not used (the request says no-store)")
        return get({}), MISS
    key = cache_key(normalise_url(url), request_headers, scope)
    entry = cache.load(key)
    if entry is not None and max_body is not None and len(entry.body) > max_body:
        trace.trace("cache: entry of %d bytes is over --max-bytes; not used", len(entry.body))
        entry = None  # kept under a larger --max-bytes: this run would refuse the body
    judged = None if entry is None else _judge(entry, req_cc)
    if entry is None or judged is None:
        entry = None
        trace.trace("cache: no usable entry in %s", cache.directory)
    elif judged[0]:
        trace.trace("cache: hit, %s", judged[1])
        return entry.response(url), HIT
    else:
        trace.trace("cache: stale, %s", judged[1])
    conditional: dict[str, str] = {}
    if entry is not None:
        if "etag" in entry.headers:
            conditional["If-None-Match"] = entry.headers["etag"]
        if "last-modified" in entry.headers:
            conditional["If-Modified-Since"] = entry.headers["last-modified"]
    sent = time.time()
    resp = get(conditional)
    if resp.status == 304 and entry is not None and conditional:
        if resp.final_url == entry.final_url:
            # Age and Date describe the answer now validated: the 304's, or none.
            entry.headers.pop("age", None)
            entry.headers.pop("date", None)
            not_updated = _NOT_UPDATED | _hop_by_hop(resp.headers)
            entry.headers.update({k: v for k, v in resp.headers.items() if k not in not_updated})
            entry.request_time, entry.response_time = sent, time.time()
            _save_quietly(cache, entry)
            out = entry.response(url)
            out.elapsed_ms, out.redirects = resp.elapsed_ms, resp.redirects
            trace.trace("cache: 304 Not Modified; the stored %d bytes used", len(entry.body))
            return out, REVALIDATED
        # The chain now ends elsewhere: the stored body is another resource's.
        trace.trace("cache: 304 from %s, not the entry's URL; fetching it whole", resp.final_url)
        sent = time.time()
        resp = get({})
    why_not = unstorable(resp, request_headers)
    if why_not:
        trace.trace("cache: answer not kept (%s)", why_not)
    else:
        trace.trace("cache: answer kept, %d bytes", len(resp.body))
        _save_quietly(
            cache,
            Entry(
                key=key,
                url=split_credentials(url)[0],  # the key holds them, hashed; the file not
                final_url=resp.final_url,
                status=resp.status,
                headers=_kept_headers(resp.headers),
                body=resp.body,
                request_time=sent,
                response_time=time.time(),
                redirected=bool(resp.redirects),
            ),
        )
    return resp, MISS


def _judge(entry: Entry, req_cc: Mapping[str, str]) -> tuple[bool, str] | None:
    """(usable without a request, its freshness in words), or None for an entry whose
    stored fields cannot be judged: a bad entry is a miss, never a failed run (the file
    may be older than the grammar that reads it, or planted)."""
    try:
        return _usable_fresh(entry, req_cc), _freshness(entry)
    except (ValueError, OverflowError, TypeError, AttributeError) as exc:
        trace.trace("cache: entry unreadable (%s); a miss", type(exc).__name__)
        return None


def _usable_fresh(entry: Entry, req_cc: Mapping[str, str]) -> bool:
    """Fresh, and young enough for the request's own no-cache or max-age (RFC 9111
    5.2.1; min-fresh and max-stale are not supported)."""
    if "no-cache" in req_cc or not is_fresh(entry):
        return False
    limit = delta_seconds(req_cc.get("max-age", ""))
    return limit is None or current_age(entry, time.time()) <= limit


def _save_quietly(cache: HttpCache, entry: Entry) -> None:
    # A cache that cannot be written costs the next run a download, not this page.
    try:
        cache.save(entry)
    except OSError:
        pass
