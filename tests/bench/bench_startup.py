"""Whole-process start-up: `wf --version`, `ws --version` and `wf --help` against `python3 -c pass`;
then what the watchdog's supervisor process adds to a real run (common/watchdog.py), and
what a --filter adds (RE2's import and compile); then a search and a fetch beside their
peers (ddgs, trafilatura, from .bench-venv), whole processes against a local server.

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
    beside_peers()


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


# ddgs has no setting for its endpoints: its DuckDuckGo engine's class attribute is pointed
# at the local server (as in bench_ws.py); the rest runs as shipped.
DDGS_DRIVER = """
import sys
from ddgs.engines.duckduckgo import Duckduckgo
Duckduckgo.search_url = sys.argv[1]
from ddgs import DDGS
for r in DDGS().text("eino", backend="duckduckgo", max_results=10):
    print(r["href"])
"""


def _children_cpu_ms() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def beside_peers() -> None:
    """`ws QUERY` beside ddgs on the same search page, `wf URL` beside `trafilatura -u` on
    the same article, every command once per round (a noisy spell weighs on all alike).
    Wall time and the CPU time of the process and its children, which a loaded machine
    disturbs less; the ratios are the figures to quote."""
    import http.server
    import importlib.util
    import shutil
    import tempfile
    import threading

    root = Path(__file__).resolve().parents[2]
    capture = root.parent / "shared" / "fixtures" / "search" / "duckduckgo" / "results_post.html"
    if not capture.is_file():
        capture = root / "tests" / "fixtures" / "ws" / "ddg_get.html"
    search_page = capture.read_bytes()
    article = (root / "tests" / "fixtures" / "extract" / "article.html").read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = search_page if self.path.startswith("/html") else article
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    scratch = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    env = {k: v for k, v in ENV.items() if "proxy" not in k.lower()}
    env["WS_DUCKDUCKGO_URL"] = f"{base}/html/"
    env["XDG_CACHE_HOME"] = str(scratch)
    search = [str(BIN / "ws"), "eino", "--provider", "duckduckgo", "--urls", "--no-cache"]
    rows: list[tuple[str, list[str]]] = [("ws eino --provider duckduckgo", search)]
    if importlib.util.find_spec("ddgs"):
        rows.append(("ddgs DDGS().text", [sys.executable, "-c", DDGS_DRIVER, f"{base}/html/"]))
    rows.append(("wf URL", [str(BIN / "wf"), "--allow-host", "127.0.0.1", f"{base}/article"]))
    traf = importlib.util.find_spec("trafilatura")
    if traf and traf.origin and (BIN / "trafilatura").exists():
        # Its SSRF guard refuses 127.0.0.1: a config of its own, with the guard off.
        config = (Path(traf.origin).parent / "settings.cfg").read_text()
        (scratch / "traf.cfg").write_text(
            config.replace("SSRF_PROTECTION = on", "SSRF_PROTECTION = off")
        )
        fetch = [str(BIN / "trafilatura"), "--config-file", str(scratch / "traf.cfg")]
        rows.append(("trafilatura -u URL", [*fetch, "-u", f"{base}/article"]))
    wall: dict[str, list[float]] = {name: [] for name, _ in rows}
    cpu: dict[str, list[float]] = {name: [] for name, _ in rows}
    try:
        for round_ in range(RUNS + 1):  # the first round warms the caches
            for name, cmd in rows:
                before, start = _children_cpu_ms(), time.perf_counter()
                subprocess.run(
                    cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
                )
                if round_:
                    wall[name].append((time.perf_counter() - start) * 1000)
                    cpu[name].append(_children_cpu_ms() - before)
    finally:
        server.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"\nbeside the peers, whole processes on a local server, medians of {RUNS} rounds (ms)")
    peer_of = {"ws eino --provider duckduckgo": "ddgs DDGS().text", "wf URL": "trafilatura -u URL"}
    for name, _ in rows:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        line = f"  {name:30s} wall {w:7.1f}   cpu {c:7.1f}"
        peer = peer_of.get(name)
        if peer in wall:
            pw, pc = statistics.median(wall[peer]), statistics.median(cpu[peer])
            line += f"   x{w / pw:4.2f} (cpu x{c / pc:4.2f}) of {peer.split()[0]}"
        print(line)
    if len(rows) < 4:
        print("  peers missing: run with .bench-venv/bin/python (tests/bench/run.sh makes it)")


if __name__ == "__main__":
    main()
