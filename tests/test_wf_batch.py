"""wf/batch.py: the polite batch. The schedule as a pure decision with the clock passed
in (per-host room, per-host delay, Crawl-delay, workers, order within a host); then
``run`` with real threads: results in input order, never more than N at once per host,
starts to one host at least the delay apart, errors in their place, an early close."""

from __future__ import annotations

import random
import threading
import time

import pytest

from wf.batch import Schedule, host_of, run


def test_host_of() -> None:
    assert host_of("https://Example.COM./a", 0) == "example.com:443"
    assert host_of("http://example.com:80/b", 0) == host_of("http://example.com/", 1)
    assert host_of("http://u:p@127.0.0.1:8080/", 0) == "127.0.0.1:8080"
    assert host_of("http://127.0.0.1:8081/", 0) != host_of("http://127.0.0.1:8080/", 0)
    assert host_of("not a url", 3) != host_of("not a url", 4)  # each a host of its own
    assert host_of("http://[::1", 5) == "\x005"


def test_per_host_room() -> None:
    plan = Schedule(["a", "a", "a", "b"], per_host=2, delay=0, workers=4)
    assert plan.next(0) == (0, None)
    plan.start(0, 0)
    assert plan.next(0) == (1, None)
    plan.start(1, 0)
    assert plan.next(0) == (3, None)  # a is full: b goes ahead
    plan.start(3, 0)
    assert plan.next(0) == (None, None)  # only a's third is left, and a is full
    plan.finish(0)
    assert plan.next(0) == (2, None)


def test_delay_between_starts_to_one_host() -> None:
    plan = Schedule(["a", "a", "b"], per_host=2, delay=1.0, workers=4)
    plan.start(0, 10.0)
    assert plan.next(10.0) == (2, None)  # another host need not wait
    plan.start(2, 10.0)
    assert plan.next(10.25) == (None, pytest.approx(0.75))
    assert plan.next(11.0) == (1, None)


def test_crawl_delay_counts_when_larger() -> None:
    plan = Schedule(["a", "a"], per_host=2, delay=1.0, workers=4)
    plan.set_delay("a", 5.0)
    plan.set_delay("a", 2.0)  # the largest said counts
    plan.start(0, 0.0)
    assert plan.next(1.0) == (None, pytest.approx(4.0))
    assert plan.next(5.0) == (1, None)
    other = Schedule(["a", "a"], per_host=2, delay=3.0, workers=4)
    other.set_delay("a", 1.0)
    assert other.delay_of("a") == 3.0


def test_order_within_a_host_is_kept() -> None:
    # a's second target waits for its first, even when a later host's would be ready.
    plan = Schedule(["a", "a", "a"], per_host=1, delay=0, workers=4)
    plan.start(0, 0)
    assert plan.next(0) == (None, None)
    plan.finish(0)
    assert plan.next(0) == (1, None)


def test_workers_bound_everything() -> None:
    plan = Schedule(["a", "b", "c"], per_host=2, delay=0, workers=2)
    plan.start(0, 0)
    plan.start(1, 0)
    assert plan.next(0) == (None, None)
    plan.finish(1)
    assert plan.next(0) == (2, None)


def test_nothing_pending() -> None:
    assert Schedule([], per_host=2, delay=0, workers=4).next(0) == (None, None)


def test_run_keeps_input_order_and_per_host_room() -> None:
    targets = [f"http://h{i % 3}.test/{i}" for i in range(24)]
    lock = threading.Lock()
    running: dict[str, int] = {}
    peak: dict[str, int] = {}

    def work(index: int, target: str) -> str:
        host = host_of(target, index)
        with lock:
            running[host] = running.get(host, 0) + 1
            peak[host] = max(peak.get(host, 0), running[host])
        time.sleep(random.uniform(0, 0.02))
        with lock:
            running[host] -= 1
        return target

    assert list(run(targets, work, per_host=2, workers=6)) == targets
    assert max(peak.values()) == 2  # the room was used, and never more


def test_run_spaces_starts_to_one_host() -> None:
    starts: list[float] = []

    def work(index: int, target: str) -> int:
        starts.append(time.monotonic())
        return index

    assert list(run(["http://a.test/"] * 3, work, per_host=2, delay=0.2)) == [0, 1, 2]
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert all(gap >= 0.15 for gap in gaps), gaps  # a thread starts a little late, or not


def test_a_thread_that_begins_late_does_not_bring_the_next_start_closer(monkeypatch) -> None:
    # The pool's first thread begins 0.3 s after its dispatch (a loaded machine), the
    # second on time: the work itself still starts `delay` after the host's last start.
    from concurrent.futures import ThreadPoolExecutor

    import wf.batch

    class LateFirst(ThreadPoolExecutor):
        calls = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            LateFirst.calls += 1
            if LateFirst.calls == 1:
                inner = fn

                def fn(*a):  # type: ignore[no-untyped-def]
                    time.sleep(0.3)
                    return inner(*a)

            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(wf.batch, "ThreadPoolExecutor", LateFirst)
    starts: list[float] = []

    def work(index: int, target: str) -> int:
        starts.append(time.monotonic())
        return index

    assert list(run(["http://a.test/"] * 3, work, per_host=2, delay=0.2)) == [0, 1, 2]
    starts.sort()
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert all(gap >= 0.19 for gap in gaps), gaps


def test_errors_come_in_their_place() -> None:
    def work(index: int, target: str) -> int:
        if index == 1:
            raise ValueError("page 1")
        return index

    results = run(["http://a.test/0", "http://b.test/1", "http://c.test/2"], work)
    assert next(results) == 0
    with pytest.raises(ValueError, match="page 1"):
        next(results)


def test_closing_early_starts_nothing_more() -> None:
    started: list[int] = []

    def work(index: int, target: str) -> int:
        started.append(index)
        return index

    results = run(["http://a.test/"] * 6, work, per_host=1, delay=0.3)
    assert next(results) == 0
    results.close()
    time.sleep(0.4)
    assert len(started) <= 2


def test_closing_early_abandons_the_work_in_flight() -> None:
    release = threading.Event()
    abandoned: list[float] = []

    def work(index: int, target: str) -> int:
        if index == 1:
            release.wait(10)  # a slow server, until abandoned
        return index

    def abandon() -> None:
        abandoned.append(time.monotonic())
        release.set()

    results = run(["http://a.test/0", "http://b.test/1"], work, abandon=abandon)
    assert next(results) == 0
    start = time.monotonic()
    results.close()
    assert len(abandoned) == 1 and time.monotonic() - start < 5
    # A batch read to its end abandons nothing.
    done: list[int] = []
    assert list(run(["http://a.test/"], lambda i, t: i, abandon=lambda: done.append(1))) == [0]
    assert done == []
