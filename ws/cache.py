"""The short-lived result cache: a search repeated with the same query and options within
WS_CACHE_TTL seconds is answered from the user cache dir without a request. Agents repeat
queries and engines rate-limit.

One file per search, named by a hash of what shapes its answer, written atomically in a
directory that is ours (common/paths.py), and read only from such a directory and only
when the file is ours too. Only a successful search is stored. Anything
wrong with an entry (unreadable, corrupt, from the future, stale) makes it a miss, and no
cache failure ever fails a search.
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from ws.chain import Report
from ws.config import Endpoint, SearchOptions
from ws.results import Result, http_url

FORMAT = 1
# Options that change how a search runs or where its setting came from, not its answer:
# the hedge delay, like the timeouts, decides only when the next provider is asked.
_NOT_IN_KEY = frozenset(
    {"timeout", "attempt_timeout", "hedge", "policy", "provider_source", "cache_ttl", "refresh"}
    # The environment: where the answer is kept, never part of the key (nor written there:
    # it may hold a proxy's password).
    | {"environ"}
)
# A results entry is a few KB; anything far larger is not one of ours.
_MAX_BYTES = 4 * 1024 * 1024
# The directory is looked through for stale entries at most this often (a stamp file's
# time says when it last was): each look reads every entry's time, and an agent's 20 000
# searches within the TTL cost each new one 235 ms after its answer, past --timeout.
PRUNE_EVERY = 60.0
_STAMP = ".pruned"


class Hit:
    """A stored answer (a plain class: a dataclass costs a compile at every start-up)."""

    __slots__ = ("report", "age")

    def __init__(self, report: Report, age: float) -> None:
        self.report = report
        self.age = age  # seconds since it was stored


def key(options: SearchOptions) -> str:
    """What shapes the answer, as canonical JSON: query, chain and endpoints, filters..."""
    material = {
        f.name: _plain(getattr(options, f.name))
        for f in fields(options)
        if f.name not in _NOT_IN_KEY
    }
    return json.dumps(material, sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    if isinstance(value, Endpoint):
        return [value.backend.name, value.url]
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return repr(value)


def _path(directory: Path, material: str) -> Path:
    return directory / f"{_sha256()(material.encode()).hexdigest()}.json"


def _sha256() -> Any:
    """SHA-256 from the interpreter's own module: hashlib would load OpenSSL's digests
    (_hashlib, about 1.5 ms of every search's start-up) for this one name. hashlib
    stays the fallback where the module is not built."""
    from importlib import import_module

    for name in ("_sha2", "_sha256"):  # Python 3.12+, 3.11
        try:
            return import_module(name).sha256
        except ImportError:
            continue
    import hashlib

    return hashlib.sha256


def _directory(options: SearchOptions, create: bool) -> Path | None:
    from common.errors import ToolError
    from common.paths import cache_dir

    try:
        return cache_dir("ws", create=create, environ=options.environ)
    except ToolError:
        return None


def load(options: SearchOptions, now: float | None = None) -> Hit | None:
    """The stored answer to this search if it is younger than the TTL, else None."""
    if options.cache_ttl <= 0 or options.refresh:
        return None
    directory = _directory(options, create=False)
    if directory is None:
        return None
    from common.paths import NotOurs, open_ours

    material = key(options)
    # Checked as store() and the health file are: anyone who can write the directory or
    # owns the file could have planted a forged answer there.
    try:
        dir_fd = open_ours(directory)
    except (NotOurs, OSError):
        return None
    try:
        name = _path(directory, material).name
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    try:
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
                return None
            data = fh.read(_MAX_BYTES + 1)
        if len(data) > _MAX_BYTES:
            return None
        entry = json.loads(data)
        return _hit(entry, material, options, time.time() if now is None else now)
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def _hit(entry: Any, material: str, options: SearchOptions, now: float) -> Hit | None:
    if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry["key"] != material:
        return None
    stored = entry["stored"]
    if not isinstance(stored, (int, float)) or isinstance(stored, bool):
        return None
    age = now - stored
    # A clock set back makes an entry look young for ever: from the future is stale too.
    if not 0 <= age < options.cache_ttl:
        return None
    provider = entry["provider"]
    if not isinstance(provider, str) or not isinstance(entry["results"], list):
        return None
    results = [_result(item) for item in entry["results"]]
    if not results:
        return None
    providers = entry.get("providers", [provider])
    if not isinstance(providers, list) or not all(isinstance(p, str) for p in providers):
        return None
    return Hit(Report(options.query, provider, results, providers=providers), age)


# What an entry may set: never a private field (Result's _key is computed, not stored).
_FIELDS = {f.name: f for f in fields(Result) if not f.name.startswith("_")}


def _result(item: Any) -> Result:
    """A stored result; TypeError when it is not one (the entry is then a miss)."""
    if not isinstance(item, dict):
        raise TypeError("not an object")
    for name in ("title", "url", "snippet", "provider"):
        if not isinstance(item.get(name), str):
            raise TypeError(f"{name} is not a string")
    if not isinstance(item.get("published"), (str, type(None))):
        raise TypeError("published is not a string")
    if not isinstance(item.get("rank"), int) or http_url(item["url"]) != item["url"]:
        raise TypeError("not a result")
    plain = {k: v for k, v in item.items() if k in _FIELDS}
    if "providers" not in item:
        return Result(**plain)
    # A fused result (--all, --engines) keeps the engines that returned it and their ranks.
    from ws.fuse import FusedResult

    providers, ranks = item["providers"], item.get("ranks")
    if not isinstance(providers, list) or not all(isinstance(p, str) for p in providers):
        raise TypeError("providers is not a list of names")
    if not isinstance(ranks, dict) or not all(
        isinstance(k, str) and type(v) is int for k, v in ranks.items()
    ):
        raise TypeError("ranks is not a map of names to ranks")
    return FusedResult(**plain, providers=tuple(providers), ranks=tuple(ranks.items()))


def store(options: SearchOptions, report: Report) -> None:
    """Keep a successful search's answer, unless it is a part (Report.cut: the total
    deadline cut it short, or an engine of a fused run was lost to a timeout, a network
    failure, a 5xx or a bug), which a later run would be served as the whole; quietly
    nothing when it cannot be kept."""
    if options.cache_ttl <= 0 or report.error is not None or not report.results or report.cut:
        return
    if report.provider is None:
        return
    directory = _directory(options, create=True)
    if directory is None:
        return
    material = key(options)
    entry = {
        "format": FORMAT,
        "key": material,
        "stored": time.time(),
        "provider": report.provider,
        "providers": report.providers or [report.provider],
        "results": [r.as_json() for r in report.results],
    }
    # A name of our own rather than tempfile's (whose import costs more than the write):
    # the pid keeps concurrent runs apart, O_EXCL refuses anything already there.
    tmp = directory / f".tmp-{os.getpid()}-{time.monotonic_ns()}.json"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(tmp, flags, 0o600)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(entry, fh, ensure_ascii=False)
        os.replace(tmp, _path(directory, material))
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    _prune(directory, options.cache_ttl)


def _prune(directory: Path, ttl: float) -> None:
    """Remove entries older than the TTL, and temporary files a killed run left behind,
    unless the directory was looked through less than PRUNE_EVERY seconds ago."""
    now = time.time()
    stamp = directory / _STAMP
    try:
        # A stamp from the future (a clock set back) does not stop the pruning for ever.
        if 0 <= now - os.stat(stamp, follow_symlinks=False).st_mtime < PRUNE_EVERY:
            return
    except OSError:
        pass
    try:
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
        os.utime(stamp, (now, now), follow_symlinks=False)
    except OSError:
        pass  # pruned now, and again at the next store
    cutoff = now - max(ttl, 60.0)
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if not entry.name.endswith(".json"):
                    continue
                try:
                    if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                        os.unlink(entry.path)
                except OSError:
                    continue
    except OSError:
        return
