"""ws benchmark: milliseconds per page for each parser on the real captures, and the whole
process of `ws` against a local server next to the peer ddgs, in one run.

Data: ../shared/fixtures/search (real engine answers; read in place, never copied).
Target: every parser under 5 ms per page, the 550 KB Brave page included.

Run with the bench venv, which also holds the peer (tests/bench/requirements-ws.txt):
    .bench-venv/bin/python tests/bench/bench_ws.py [--rounds N]

The peer: ddgs has no setting for its endpoints, so its DuckDuckGo engine is pointed at
the same local server by replacing the class attribute ``search_url`` in a small driver;
everything else (its HTTP client, parser, ranking) runs as shipped. Both processes parse
the same capture from the same server, so the figures compare start-up plus request plus
parse. Medians are quoted for whole processes: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CAPTURES = Path(
    os.environ.get("WS_SEARCH_CAPTURES", ROOT.parent / "shared" / "fixtures" / "search")
)
# (backend, capture, HTTP status the engine answers it with, query)
PAGES = (
    ("duckduckgo", "duckduckgo/results_post.html", 200, "eino"),
    ("duckduckgo", "duckduckgo/last_page_post.html", 200, "eino"),
    ("duckduckgo", "duckduckgo/no_results_post.html", 200, "eino"),
    ("duckduckgo", "duckduckgo/anomaly_captcha.html", 202, "does caffeine affect sleep"),
    ("duckduckgo-lite", "duckduckgo/anomaly_captcha.html", 202, "does caffeine affect sleep"),
    ("brave", "brave/results.html", 200, "javascript tutorial"),
    ("mojeek", "mojeek/results.html", 200, "javascript tutorial"),
    ("searxng", "searxng/public_instance_botcheck.html", 200, "javascript tutorial"),
)
# ddgs engines that parse the same pages (its DuckDuckGo, Brave and Mojeek).
PEER_ENGINES = {
    "duckduckgo/results_post.html": "duckduckgo",
    "brave/results.html": "brave",
    "mojeek/results.html": "mojeek",
}
TARGET_MS = 5.0
DDGS_DRIVER = """
import sys
from ddgs.engines.duckduckgo import Duckduckgo
Duckduckgo.search_url = sys.argv[1]
from ddgs import DDGS
for r in DDGS().text("eino", backend="duckduckgo", max_results=10):
    print(r["href"])
"""


def _cpu_ms(fn: Callable[[], object]) -> float:
    start = time.thread_time()
    fn()
    return (time.thread_time() - start) * 1000


def bench_parsers(rounds: int) -> bool:
    """Every parser, ours and the peer's, once per round, round after round.

    What a parse costs is the CPU time of this thread. These shared machines also lend
    the core (and its cache) to other tenants, which slows a run by up to 2x for a
    second or two: a best-of-50 wall time was 4.0 ms in one run and 8.3 ms in the next.
    Interleaving spreads every parser over the whole run, so such a spell weighs on all
    of them alike, and the best of many rounds is the cost without contention. The
    target is judged on that best; the median shows the spread.
    """
    from ws.backends import BY_NAME
    from ws.backends.base import Query
    from ws.results import finalise

    jobs: list[tuple[str, str, Callable[[], object]]] = []
    for backend, rel, status, query in PAGES:
        body = (CAPTURES / rel).read_bytes()
        headers = {"content-type": "text/html; charset=utf-8"}
        q = Query(query)

        def run(backend=backend, status=status, body=body, headers=headers, q=q):
            answer = BY_NAME[backend].classify(status, headers, body, q)
            answer.results = finalise(answer.results)[0]
            return answer

        answer = run()
        # A capture read by another backend than its folder's is named with it.
        label = f"ws {rel}" if rel.startswith(backend + "/") else f"ws {rel} as {backend}"
        jobs.append(
            (
                label,
                f"{len(body) / 1024:>5.0f} {answer.outcome:<8} {len(answer.results):>3}",
                run,
            )
        )
    peer = _peer_jobs()
    jobs += peer
    times: dict[str, list[float]] = {name: [] for name, *_ in jobs}
    for _ in range(rounds):
        for name, _, fn in jobs:
            times[name].append(_cpu_ms(fn))
    print(
        f"parsers: ours classify() and finalise() each real capture (decode, parse, classify, "
        f"clean-up); {rounds} interleaved rounds, CPU time of the parsing thread, ms"
    )
    print(f"  {'capture':<56} {'KB':>5} {'outcome':<8} {'n':>3} {'best':>6} {'median':>7}")
    best = {name: min(ts) for name, ts in times.items()}
    for name, info, _ in jobs:
        print(f"  {name:<56} {info} {best[name]:>6.2f} {statistics.median(times[name]):>7.2f}")
    within = all(best[name] < TARGET_MS for name, *_ in jobs if name.startswith("ws "))
    print(
        f"  target: every parser of ours under {TARGET_MS:g} ms: {'met' if within else 'NOT met'}"
    )
    for rel in PEER_ENGINES:
        ours, theirs = best.get(f"ws {rel}"), best.get(f"ddgs {rel}")
        if ours and theirs:
            print(f"  {rel}: ddgs takes {theirs / ours:.1f}x our time (best against best)")
    return within


def _peer_jobs() -> list[tuple[str, str, Callable[[], object]]]:
    try:
        import ddgs
        from ddgs.engines import ENGINES
    except ImportError as exc:
        print(
            f"peer parsers skipped: ddgs is not installed here ({exc}); use .bench-venv/bin/python"
        )
        return []
    jobs = []
    for rel, name in PEER_ENGINES.items():
        engine = ENGINES["text"][name]()
        body = (CAPTURES / rel).read_bytes()

        def run(engine=engine, body=body):
            return engine.post_extract_results(
                engine.extract_results(body.decode("utf-8", "replace"))
            )

        n = len(run())
        version = getattr(ddgs, "__version__", "?")
        jobs.append((f"ddgs {rel}", f"{'':>5} {version:<8} {n:>3}", run))
    return jobs


class _Engine(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    body = b""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=UTF-8")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


def _out(done: subprocess.CompletedProcess[str]) -> str:
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip()}"
    urls = [line for line in done.stdout.splitlines() if line.startswith("http")]
    return f"{len(urls)} URLs" if urls else (done.stdout.splitlines() or [""])[0][:60]


def _children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _interleaved(
    rows: list[tuple[str, list[str]]], env: dict[str, str], runs: int
) -> dict[str, tuple[list[float], list[float], str]]:
    """Every command once per round, round after round, so that a noisy spell on this
    shared machine weighs on all of them alike; one warm-up round first. Wall time, and
    the CPU time of the process and its children (the supervisor's worker among them),
    which a loaded machine disturbs far less than the wall clock."""
    wall: dict[str, list[float]] = {name: [] for name, _ in rows}
    cpu: dict[str, list[float]] = {name: [] for name, _ in rows}
    shown: dict[str, str] = {}
    for round_ in range(runs + 1):
        for name, cmd in rows:
            before = _children_cpu_ms()
            start = time.perf_counter()
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
            took = (time.perf_counter() - start) * 1000
            shown[name] = _out(done)
            if round_:
                wall[name].append(took)
                cpu[name].append(_children_cpu_ms() - before)
    return {name: (wall[name], cpu[name], shown[name]) for name, _ in rows}


def bench_process(runs: int) -> None:
    _Engine.body = (CAPTURES / "duckduckgo" / "results_post.html").read_bytes()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Engine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/html/"
    bindir = Path(sys.executable).parent
    ws = bindir / "ws" if (bindir / "ws").exists() else ROOT / ".venv" / "bin" / "ws"
    # No proxy between the tools and the local server. Bytecode may be written: both
    # tools are regular installs, compiled at install time (make bench installs ws so);
    # a checkout run without it would compile ws and common from source on every run.
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["WS_DUCKDUCKGO_URL"] = url
    # The result cache would answer every run after the first: the request path is timed
    # with --no-cache (which still stores), the cache hit on a row of its own.
    # The cache dir found as users have it (platformdirs under XDG_CACHE_HOME), not ours.
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bench-ws-cache-")
    print(
        f"whole process: DuckDuckGo capture (25 KB, 10 results) served on {url}; "
        f"{runs} interleaved rounds after one warm-up round"
    )
    ask = [str(ws), "eino", "--provider", "duckduckgo", "--urls"]
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("ws --help", [str(ws), "--help"]),
        ("ws eino --provider duckduckgo --urls", [*ask, "--no-cache"]),
        ("  the same, answered by the cache", ask),
    ]
    try:
        import ddgs  # noqa: F401

        rows.append(
            ("ddgs (DDGS().text, endpoint patched)", [sys.executable, "-c", DDGS_DRIVER, url])
        )
    except ImportError as exc:
        print(f"  peer skipped: ddgs is not installed here ({exc}); use .bench-venv/bin/python")
    print(
        f"  {'command':<40} {'wall: best':>10} {'median':>7} {'cpu: best':>10} {'median':>7}  results"
    )
    try:
        for name, (wall, cpu, shown) in _interleaved(rows, env, runs).items():
            print(
                f"  {name:<40} {min(wall):>10.1f} {statistics.median(wall):>7.1f}"
                f" {min(cpu):>10.1f} {statistics.median(cpu):>7.1f}  {shown}"
            )
    finally:
        server.shutdown()
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="timed rounds of every parser")
    parser.add_argument("--process-runs", type=int, default=11, help="timed runs per process")
    parser.add_argument("--process-only", action="store_true", help="only the whole-process table")
    args = parser.parse_args(argv)
    if not CAPTURES.is_dir():
        print(f"bench_ws: skipped: no captures at {CAPTURES} (set WS_SEARCH_CAPTURES)")
        return 0
    if not args.process_only:
        bench_parsers(args.rounds)
        print()
    bench_process(args.process_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
