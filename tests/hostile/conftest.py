"""The hostile suite's fixtures.

In-process runs go through tests/conftest.py's socket guard (loopback_only).
Deadline and memory cases record their measurements through ``figures``; with
HOSTILE_FIGURES=FILE set they are appended there as JSON lines (tests/hostile/figures.py
runs the suite that way and prints the table).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import saved_files
from tests.hostile import proc
from tests.servers import RawServer

FIGURES_ENV = "HOSTILE_FIGURES"
# Memory bound of the issue: peak RSS at most this much above an idle `wf --version`.
MEMORY_BOUND_KB = 100 * 1024
# Deadline contract of the issue: the tool ends within its deadline plus this.
DEADLINE_SLACK = 1.0


class Figures:
    """Measurements of one case, appended to $HOSTILE_FIGURES when it is set."""

    def __init__(self, case: str) -> None:
        self.case = case

    def _write(self, record: dict[str, object]) -> None:
        path = os.environ.get(FIGURES_ENV)
        if path:
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"case": self.case, **record}) + "\n")

    def deadline(self, timeout: float, elapsed: float) -> None:
        """Record, then assert the contract: ended within timeout + DEADLINE_SLACK."""
        self._write({"kind": "deadline", "timeout": timeout, "elapsed": round(elapsed, 3)})
        _check_deadline(timeout, elapsed)

    def memory(self, peak_kb: int, idle_kb: int) -> None:
        """Record, then assert the bound: peak RSS at most 100 MB over an idle run."""
        assert peak_kb > 0, "run the case with proc.run(..., measure=True)"
        self._write({"kind": "memory", "peak_kb": peak_kb, "idle_kb": idle_kb})
        _check_memory(peak_kb, idle_kb)

    def deadline_and_memory(
        self, timeout: float, elapsed: float, peak_kb: int, idle_kb: int
    ) -> None:
        """Record both figures before either is asserted."""
        self._write({"kind": "deadline", "timeout": timeout, "elapsed": round(elapsed, 3)})
        self._write({"kind": "memory", "peak_kb": peak_kb, "idle_kb": idle_kb})
        _check_deadline(timeout, elapsed)
        _check_memory(peak_kb, idle_kb)


def _check_deadline(timeout: float, elapsed: float) -> None:
    assert elapsed <= timeout + DEADLINE_SLACK, (
        f"{elapsed:.2f} s for a {timeout:g} s deadline (allowed {timeout + DEADLINE_SLACK:g} s)"
    )


def _check_memory(peak_kb: int, idle_kb: int) -> None:
    assert peak_kb - idle_kb <= MEMORY_BOUND_KB, (
        f"peak RSS {peak_kb / 1024:.0f} MB is {(peak_kb - idle_kb) / 1024:.0f} MB over idle"
    )


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Figures:
    return Figures(request.node.nodeid.split("tests/hostile/", 1)[-1])


@pytest.fixture(scope="session")
def idle_kb(tmp_path_factory: pytest.TempPathFactory) -> int:
    """Peak RSS of an idle `wf --version` (the smallest of three runs)."""
    home = tmp_path_factory.mktemp("idle")
    env = proc.env(
        WF_SCRATCH_DIR=str(home / "s"),
        WF_STATE_DIR=str(home / "t"),
        WF_RUNTIME_DIR=str(home / "r"),
        WF_CONFIG_DIR=str(home / "c"),
    )
    peaks = []
    for _ in range(3):
        r = proc.run(["wf", "--version"], env=env, measure=True)
        assert r.code == 0, r.stderr
        peaks.append(r.peak_kb)
    path = os.environ.get(FIGURES_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(
                json.dumps({"case": "wf --version", "kind": "idle", "peak_kb": min(peaks)}) + "\n"
            )
    return min(peaks)


@pytest.fixture
def eager(serve: Callable[..., RawServer]) -> Callable[..., RawServer]:
    """Start EagerServers (handler runs before any request is read) closed at the end."""
    from tests.hostile.handlers import EagerServer

    return lambda handler, host="127.0.0.1": serve(handler, host, cls=EagerServer)


@pytest.fixture
def scratch_files(scratch: Path) -> Callable[[], list[str]]:
    """Everything wf saved in the scratch dir, hidden temporary files included (not the
    pruning's bookkeeping)."""

    def listing() -> list[str]:
        return [p.name for p in saved_files(scratch)]

    return listing


@pytest.fixture(scope="session", autouse=True)
def _release_stalled_handlers() -> Iterator[None]:
    from tests.hostile import handlers

    yield
    handlers.STOP.set()
