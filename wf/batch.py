"""A polite batch: at most ``per_host`` pages at once from one host (--per-host), starts to
one host at least ``delay`` apart (--delay, or robots.txt's Crawl-delay under --robots),
at most ``workers`` pages at once in all; results in input order.

``Schedule`` is the decision alone (which target may start now, or how long until one
may), with the clock passed in, so that it is tested without threads or sleeping.
``run`` drives it: a dispatcher thread starts work on a pool as the schedule allows, and
the caller reads results in input order as they complete.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar
from urllib.parse import urlsplit

T = TypeVar("T")

DEFAULT_PER_HOST = 2


def host_of(target: str, index: int) -> str:
    """The server a target's requests go to, host and port (robots.txt is one per origin
    too); a target that names none (a bad URL, which fails without a request) is a
    server of its own."""
    try:
        parts = urlsplit(target.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host:
        return f"\x00{index}"
    port = port or {"http": 80, "https": 443}.get(parts.scheme.lower(), 0)
    return f"{host.rstrip('.').lower()}:{port}"


class Schedule:
    """Which target starts next: the first pending one, in input order, whose host has
    room and whose host's last start is ``delay`` behind."""

    def __init__(self, hosts: Sequence[str], *, per_host: int, delay: float, workers: int) -> None:
        self.hosts = list(hosts)
        self.per_host = max(1, per_host)
        self.delay = max(0.0, delay)
        self.workers = max(1, workers)
        self.pending = list(range(len(hosts)))
        self.running: dict[str, int] = {}
        self.last_start: dict[str, float] = {}
        self.delays: dict[str, float] = {}
        self.in_flight = 0

    def set_delay(self, host: str, seconds: float) -> None:
        """A host's own delay (Crawl-delay): the larger of it and --delay counts."""
        self.delays[host] = max(self.delays.get(host, 0.0), seconds)

    def delay_of(self, host: str) -> float:
        return max(self.delay, self.delays.get(host, 0.0))

    def next(self, now: float) -> tuple[int | None, float | None]:
        """(index to start now, None), or (None, seconds to wait before asking again), or
        (None, None) when nothing can start before a running target finishes."""
        if self.in_flight >= self.workers or not self.pending:
            return None, None
        wait: float | None = None
        busy: set[str] = set()
        for index in self.pending:
            host = self.hosts[index]
            if host in busy:
                continue
            busy.add(host)  # an earlier target of a host goes first: order is kept per host
            if self.running.get(host, 0) >= self.per_host:
                continue
            last = self.last_start.get(host)
            ready = now if last is None else last + self.delay_of(host)
            if ready <= now:
                return index, None
            wait = ready - now if wait is None else min(wait, ready - now)
        return None, wait

    def start(self, index: int, now: float) -> None:
        self.pending.remove(index)
        host = self.hosts[index]
        self.running[host] = self.running.get(host, 0) + 1
        self.last_start[host] = now
        self.in_flight += 1

    def finish(self, index: int) -> None:
        host = self.hosts[index]
        self.running[host] -= 1
        self.in_flight -= 1


def _begin(
    host: str,
    began: dict[str, float],
    plan: Schedule,
    changed: threading.Condition,
    stop: threading.Event,
) -> None:
    """Wait until ``host``'s delay has passed since the last work begun on it, and mark
    this one begun. The schedule spaces the dispatches; a pool thread may begin late (a
    loaded machine) and the next one on time, so the work itself is spaced too."""
    with changed:
        while True:
            now = time.monotonic()
            last = began.get(host)
            ready = now if last is None else last + plan.delay_of(host)
            if ready <= now or stop.is_set():
                began[host] = now
                return
            changed.wait(ready - now)


def run(
    targets: Sequence[str],
    work: Callable[[int, str], T],
    *,
    per_host: int = DEFAULT_PER_HOST,
    delay: float = 0.0,
    workers: int = 4,
    schedule: Schedule | None = None,
    abandon: Callable[[], None] | None = None,
) -> Iterator[T]:
    """``work(index, target)`` for every target under the schedule; the results in input
    order. Closing the iterator early (an error, a signal) starts nothing more, cancels
    what has not started, and calls ``abandon`` (which ends the work in flight, so that
    waiting for it does not wait for the slowest server) before waiting for it."""
    plan = schedule or Schedule(
        [host_of(t, i) for i, t in enumerate(targets)],
        per_host=per_host,
        delay=delay,
        workers=workers,
    )
    futures: list[Future[T]] = [Future() for _ in targets]
    changed = threading.Condition()
    stop = threading.Event()
    pool = ThreadPoolExecutor(max_workers=max(1, min(plan.workers, len(targets))))

    def finished(index: int) -> None:
        with changed:
            plan.finish(index)
            changed.notify_all()

    began: dict[str, float] = {}  # each host's last work begun, by the pool's threads

    def one(index: int) -> None:
        _begin(plan.hosts[index], began, plan, changed, stop)
        try:
            result = work(index, targets[index])
        except BaseException as exc:  # noqa: BLE001 - handed to the reader, in order
            futures[index].set_exception(exc)
        else:
            futures[index].set_result(result)
        finally:
            finished(index)

    def dispatch() -> None:
        with changed:
            while plan.pending and not stop.is_set():
                index, wait = plan.next(time.monotonic())
                if index is None:
                    changed.wait(wait)
                    continue
                plan.start(index, time.monotonic())
                futures[index].set_running_or_notify_cancel()
                try:
                    pool.submit(one, index)
                except RuntimeError:  # the pool is shutting down: the reader went away
                    plan.finish(index)
                    return

    dispatcher = threading.Thread(target=dispatch, name="wf-batch", daemon=True)
    dispatcher.start()
    finished_all = False
    try:
        for future in futures:
            yield future.result()
        finished_all = True
    finally:
        stop.set()
        if not finished_all and abandon is not None:
            abandon()
        with changed:
            changed.notify_all()
        dispatcher.join()
        for future in futures:
            if not future.running() and not future.done():
                future.cancel()
        pool.shutdown(wait=True)
