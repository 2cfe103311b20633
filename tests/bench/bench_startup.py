"""Whole-process start-up: `wf --version`, `ws --version` and `wf --help` against `python3 -c pass`;
then what the watchdog's supervisor process adds to a real run (common/watchdog.py), and
what a --filter adds (RE2's import and compile).

Medians of several runs, measured side by side in one run (these machines are shared and
noisy, so the ratio is the figure to quote); paired figures alternate run by run."""

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
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False
        )
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
        print(
            f"  {name:22s} {ms:7.1f}   x{ms / base:4.2f} of real python3   x{ms / venv:4.2f} of venv python"
        )
    backstop_and_regex()


def paired_ms(
    a: list[str], b: list[str], env_a: dict[str, str], env_b: dict[str, str]
) -> tuple[float, float]:
    """Medians of two commands run alternately, so that a slow spell weighs on both."""
    ta: list[float] = []
    tb: list[float] = []
    for cmd, env in ((a, env_a), (b, env_b)):  # warm the caches first
        subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
        )
    for _ in range(RUNS * 2):
        for cmd, env, out in ((a, env_a, ta), (b, env_b, tb)):
            start = time.perf_counter()
            subprocess.run(
                cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
            )
            out.append(time.perf_counter() - start)
    return statistics.median(ta) * 1000, statistics.median(tb) * 1000


def backstop_and_regex() -> None:
    import http.server
    import threading

    page = Path(__file__).resolve().parents[1] / "fixtures" / "extract" / "article.html"
    body = page.read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    off = {**ENV, "WF_WS_NO_BACKSTOP": "1"}
    wf = str(BIN / "wf")
    print(f"\nthe backstop's supervisor process, medians of {RUNS * 2} alternating runs (ms)")
    for name, cmd in (
        ("wf --input article.html", [wf, "--input", str(page)]),
        ("wf URL (127.0.0.1)", [wf, "--allow-host", "127.0.0.1", url]),
    ):
        on, without = paired_ms(cmd, cmd, ENV, off)
        print(f"  {name:26s} with {on:6.1f}   without {without:6.1f}   cost {on - without:+5.1f}")
    plain = [wf, "--input", str(page)]
    filtered = [*plain, "--filter", "[Tt]he"]
    with_re2, without_re2 = paired_ms(filtered, plain, ENV, ENV)
    print(
        f"  {'wf --input ... --filter':26s} with {with_re2:6.1f}   without {without_re2:6.1f}   "
        f"cost {with_re2 - without_re2:+5.1f} (RE2 import and compile)"
    )
    server.shutdown()


if __name__ == "__main__":
    main()
