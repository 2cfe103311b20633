"""Whole-process start-up: `wf --version`, `ws --version` and `wf --help` against `python3 -c pass`.

Medians of several runs, measured side by side in one run (these machines are shared and
noisy, so the ratio is the figure to quote)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = 21


# Some shells here set PYTHONDONTWRITEBYTECODE, which makes every run recompile the
# project: measure what an installed tool costs, with its bytecode cached.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median_ms(cmd: list[str]) -> float:
    times = []
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False)
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    # `python3` on PATH may be a shim (pyenv runs a shell script first): time the real
    # interpreter too, and quote ratios against it.
    real = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    shim = median_ms(["python3", "-c", "pass"])
    base = median_ms([real, "-c", "pass"])
    venv = median_ms([sys.executable, "-c", "pass"])
    rows = [
        ("python3 (PATH) -c pass", shim),
        ("python3 (real) -c pass", base),
        (".venv python -c pass", venv),
        ("wf --version", median_ms([str(BIN / "wf"), "--version"])),
        ("ws --version", median_ms([str(BIN / "ws"), "--version"])),
        ("wf --help", median_ms([str(BIN / "wf"), "--help"])),
    ]
    print(f"start-up, median of {RUNS} runs (ms)")
    for name, ms in rows:
        print(f"  {name:22s} {ms:7.1f}   x{ms / base:4.2f} of real python3   x{ms / venv:4.2f} of venv python")


if __name__ == "__main__":
    main()
