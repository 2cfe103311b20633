"""Provider health that survives between runs: a provider that answered blocked rests for
what its Retry-After said, else 10 minutes, doubling on each repeat up to an hour; three
network failures or timeouts in a row rest it for 2 minutes. Cron jobs and agents run ws
many times a minute: asking a blocked engine first on every run costs a round trip each
time and keeps the block alive.

Health is kept per endpoint (the provider's name and its URL): a mirror set in WS_*_URL is
not the engine that blocked us. A rest keeps the exit code of what caused it, so that a
network that is down still reads as 6 or 7 while its providers rest, never as 75.

One small JSON file in ws's state dir (WS_STATE_DIR), read without a lock (it is only ever
replaced whole, by rename) and updated under an exclusive lock by re-reading it and merging
this run's outcomes, so concurrent ws processes lose no update. A file that is missing,
unreadable, not ours or not what we wrote is an empty one: health is advice, never a
reason to fail a search.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import stat
import time
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "health.json"
LOCK_NAME = "health.lock"
BLOCK_REST = 600.0
BLOCK_REST_MAX = 3600.0
FAILURES_TO_REST = 3
FAILURE_REST = 120.0
_SIZE_LIMIT = 65536
_LOCK_WAIT = 2.0

# What one attempt tells about its provider.
BLOCKED, FAILED, HEALTHY = "blocked", "failed", "healthy"
# The exit code of a block (common.errors.Blocked), without importing the table here.
BLOCKED_CODE = 75


def key(provider: str, url: str) -> str:
    """The file's key for one endpoint."""
    return f"{provider} {url}"


@dataclass(frozen=True)
class Entry:
    """What is remembered of one provider between runs."""

    until: float = 0.0  # wall clock (time.time()) before which the provider is skipped
    blocks: int = 0  # blocked answers since the last good one
    failures: int = 0  # network failures and timeouts in a row
    reason: str = ""  # the last bad outcome, for --providers and the skip message
    code: int = BLOCKED_CODE  # the exit code of what started the rest

    def resting(self, now: float) -> bool:
        return self.until > now


# Compared by identity (eq=False, so no __eq__ or __hash__ compiled at import): an event
# is read once, by apply().
@dataclass(frozen=True, eq=False)
class Event:
    """What one attempt tells about its provider."""

    kind: str  # BLOCKED, FAILED or HEALTHY
    reason: str = ""
    retry_after: float | None = None  # seconds, from the answer's Retry-After
    code: int = BLOCKED_CODE  # the exit code the attempt would give on its own


def apply(entry: Entry | None, event: Event, now: float) -> Entry | None:
    """The entry after one attempt's outcome; None when nothing is left to remember."""
    old = entry or Entry()
    if event.kind == HEALTHY:
        return None
    if event.kind == BLOCKED:
        blocks = old.blocks + 1
        rest = min(BLOCK_REST * 2 ** min(blocks - 1, 16), BLOCK_REST_MAX)
        if event.retry_after is not None:
            # The engine's own word, within the same ceiling: a Retry-After of a day from a
            # misconfigured mirror should not silence it for a day.
            rest = min(max(event.retry_after, 0.0), BLOCK_REST_MAX)
        return Entry(now + rest, blocks, 0, event.reason, BLOCKED_CODE)
    failures = old.failures + 1
    if failures >= FAILURES_TO_REST:
        return Entry(now + FAILURE_REST, old.blocks, failures, event.reason, event.code)
    # A failure that starts no rest leaves a block's rest, and its code, as they were.
    return Entry(old.until, old.blocks, failures, event.reason, old.code)


def state_path(*, create: bool, environ: Mapping[str, str] | None = None) -> Path | None:
    """The health file, or None when ws has no usable state dir (in ``environ``, None:
    os.environ; so for load and record)."""
    from common.paths import DirUnusable, state_dir

    try:
        return state_dir("ws", create=create, environ=environ) / FILE_NAME
    except (DirUnusable, OSError):
        return None


def parse(text: str, now: float | None = None) -> dict[str, Entry]:
    """Entries from the file's text; anything not as we write it is dropped. A rest is
    never read as ending more than BLOCK_REST_MAX from ``now``: no rest we write is longer,
    and a time past what the platform's clock can show (1e20, an overflow to infinity)
    failed every search and --providers as an internal error."""
    now = time.time() if now is None else now
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    providers = data.get("providers") if isinstance(data, dict) else None
    if not isinstance(providers, dict):
        return {}
    out: dict[str, Entry] = {}
    for name, raw in providers.items():
        if not isinstance(raw, dict):
            continue
        until, blocks, failures = raw.get("until"), raw.get("blocks"), raw.get("failures")
        reason = raw.get("reason", "")
        code = raw.get("code", BLOCKED_CODE)
        if (
            isinstance(until, (int, float))
            and not isinstance(until, bool)
            and math.isfinite(until)
            and isinstance(blocks, int)
            and isinstance(failures, int)
            and isinstance(reason, str)
            and isinstance(code, int)
            and 0 < code < 256
            and blocks >= 0
            and failures >= 0
        ):
            until = min(float(until), now + BLOCK_REST_MAX)
            out[str(name)] = Entry(until, blocks, failures, reason[:300], code)
    return out


def _read(path: Path) -> dict[str, Entry]:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return {}
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            return {}
        data = os.read(fd, _SIZE_LIMIT + 1)
    except OSError:
        return {}
    finally:
        os.close(fd)
    if len(data) > _SIZE_LIMIT:
        return {}
    return parse(data.decode("utf-8", "replace"))


def load(environ: Mapping[str, str] | None = None) -> dict[str, Entry]:
    """Every provider's entry; empty when there is no usable file, or when the directory
    is not ours (anyone who can write there could have put the file there)."""
    from common.paths import NotOurs, check_dir

    path = state_path(create=False, environ=environ)
    if path is None:
        return {}
    try:
        check_dir(path.parent)
    except (NotOurs, OSError):
        return {}
    return _read(path)


def _write(path: Path, entries: Mapping[str, Entry]) -> None:
    import secrets

    text = json.dumps(
        {"version": 1, "providers": {k: asdict(v) for k, v in sorted(entries.items())}},
        indent=1,
    )
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _locked(path: Path, wait: float) -> Iterator[bool]:
    """Hold the lock beside ``path``; yields False when it could not be had within ``wait``
    seconds (the update is then dropped rather than the search held up)."""
    import fcntl

    lock = path.with_name(LOCK_NAME)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        yield False
        return
    try:
        give_up = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= give_up:
                    yield False
                    return
                time.sleep(0.01)
            except OSError:
                yield False
                return
        yield True
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def record(
    events: Mapping[str, Event],
    now: float | None = None,
    *,
    wait: float = _LOCK_WAIT,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Merge this run's outcomes into the file, waiting at most ``wait`` seconds for
    another process's update. Never raises: on any trouble the run's knowledge is lost,
    not the run."""
    if not events:
        return
    now = time.time() if now is None else now
    if all(e.kind == HEALTHY for e in events.values()):
        # The common case: a good answer from a provider with no entry writes nothing.
        known = load(environ)
        if not any(name in known for name in events):
            return
    path = state_path(create=True, environ=environ)
    if path is None:
        return
    try:
        with _locked(path, wait) as held:
            if not held:
                return
            entries = _read(path)
            changed = False
            for name, event in events.items():
                new = apply(entries.get(name), event, now)
                if new != entries.get(name):
                    changed = True
                if new is None:
                    entries.pop(name, None)
                else:
                    entries[name] = new
            if changed:
                _write(path, entries)
    except OSError:
        return


def reset() -> Path | None:
    """Forget every provider's health; the file's path, or None when ws has no state dir."""
    path = state_path(create=False)
    if path is None:
        return None
    with contextlib.suppress(OSError):
        os.unlink(path)
    return path


def clock(when: float) -> str:
    """A wall-clock time as ISO 8601 in UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
