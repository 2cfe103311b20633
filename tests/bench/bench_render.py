"""Render benchmark: cold and warm renders of a small SPA, and the heuristic's false
positives on pages that need no rendering.

Run by `make bench` inside a loopback-only network namespace (Chromium must never get
a route out). Prints medians with the breakdown (launch, context, navigate, quiet wait,
DOM read, close). These machines are shared and noisy: quote medians of one run.

- cold: a new RenderSession per run: launch, render, close (the browser is killed and
  its profile removed), as `wf --render always URL` pays it;
- warm, back to back: the browser is running and renders follow one another at once;
- warm, in a batch: 0.3 s between renders, about what a static fetch and extraction of
  the next page take; the session prepares the next context meanwhile;
- whole process: `wf --render always URL` against `wf --render never URL`;
- fixed 500 ms quiet window: the same warm render with the adaptive wait turned off, the
  baseline the issue measured (cold 1.3 s, warm 0.9 s).
"""

from __future__ import annotations

import gzip
import json
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from common.policy import Policy  # noqa: E402
from tests.fixtures.render.server import FixtureServer  # noqa: E402
from wf.render import RenderOptions, RenderSession, looks_like_js_shell  # noqa: E402
from wf.render import tab as tab_mod  # noqa: E402
from wf.render.chromium import BrowserMissing, find_browser  # noqa: E402

COLD_RUNS = 9
WARM_RUNS = 15
TARGET_COLD = 0.8
TARGET_WARM = 0.4
EXTRACT_BENCH = ROOT.parent / "shared" / "extract-bench" / "scrapinghub"
PHASES = ("launch", "context", "navigate", "quiet", "dom")


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def row(
    name: str, totals: list[float], parts: list[dict[str, float]], target: float | None = None
) -> None:
    phases = "  ".join(
        f"{p} {med([t.get(p, 0.0) for t in parts]) * 1000:5.0f}"
        for p in (*PHASES, "close")
        if any(p in t for t in parts)
    )
    verdict = ""
    if target is not None:
        verdict = f"  (target < {target:.1f} s: {'met' if med(totals) < target else 'NOT met'})"
    print(
        f"  {name:30s} median {med(totals):5.3f} s  min {min(totals):5.3f}  max {max(totals):5.3f}{verdict}"
    )
    print(f"  {'':30s} ms: {phases}")


def session() -> RenderSession:
    return RenderSession(
        RenderOptions(mode="always"), policy=Policy(allow_hosts=frozenset({"127.0.0.1"}))
    )


def cold(url: str) -> tuple[list[float], list[dict[str, float]]]:
    totals, parts = [], []
    for _ in range(COLD_RUNS):
        start = time.monotonic()
        s = session()
        rendered = s.render(url, deadline=time.monotonic() + 30)
        t_close = time.monotonic()
        s.close()
        end = time.monotonic()
        totals.append(end - start)
        parts.append({**rendered.timings, "close": end - t_close})
    return totals, parts


def warm(url: str, gap: float) -> tuple[list[float], list[dict[str, float]]]:
    totals, parts = [], []
    with session() as s:
        for _ in range(3):  # start the browser, and let the session see a batch
            s.render(url, deadline=time.monotonic() + 30)
        for _ in range(WARM_RUNS):
            time.sleep(gap)
            start = time.monotonic()
            rendered = s.render(url, deadline=time.monotonic() + 30)
            totals.append(time.monotonic() - start)
            parts.append(rendered.timings)
    return totals, parts


def whole_process(url: str) -> None:
    """What a user waits for: `wf URL` with and without rendering, start-up included."""
    import subprocess

    wf = str(Path(sys.executable).parent / "wf")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for mode in ("never", "always"):
        times = []
        for _ in range(COLD_RUNS):
            start = time.monotonic()
            subprocess.run(
                [wf, "--render", mode, "--allow-host", "127.0.0.1", url],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
            )
            times.append(time.monotonic() - start)
        print(
            f"  {'wf --render ' + mode + ' URL':30s} median {med(times):5.3f} s  min {min(times):5.3f}  max {max(times):5.3f}"
        )


def false_positives() -> None:
    html_dir = EXTRACT_BENCH / "html"
    if not html_dir.is_dir():
        print(f"  skipped: {html_dir} is absent")
        return
    from wf.extract import extract_text

    truth = json.loads((EXTRACT_BENCH / "ground-truth.json").read_text())
    pages = flagged = 0
    seconds = 0.0
    names: list[str] = []
    for path in sorted(html_dir.glob("*.html.gz")):
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        text = extract_text(html, url=truth.get(path.name.split(".")[0], {}).get("url"))
        start = time.perf_counter()
        hit = looks_like_js_shell(html, text)
        seconds += time.perf_counter() - start
        pages += 1
        if hit:
            flagged += 1
            names.append(path.name[:16])
    print(
        f"  extract-bench ({pages} pages that need no rendering): {flagged} flagged, "
        f"false-positive rate {flagged / max(pages, 1):.1%}{' ' + ', '.join(names) if names else ''}"
    )
    print(f"  heuristic cost: {seconds / max(pages, 1) * 1e6:.0f} us a page (mean)")
    fixtures = ROOT / "tests" / "fixtures" / "render"
    for name in ("spa.html", "spa_fetch.html"):
        html = (fixtures / name).read_text()
        print(
            f"  true positive check, {name}: {'flagged' if looks_like_js_shell(html, extract_text(html)) else 'MISSED'}"
        )


def isolated() -> bool:
    return [name for _, name in socket.if_nameindex()] == ["lo"]


def main() -> int:
    print("false positives of looks_like_js_shell")
    false_positives()
    try:
        binary = find_browser(os.environ.get("WF_RENDER_BROWSER"))
    except BrowserMissing as exc:
        print(f"render benchmark skipped: {exc}")
        return 0
    if not isolated():
        print(
            "render benchmark skipped: run it inside a loopback-only namespace: "
            "unshare --net sh -c 'ip link set lo up && exec \"$@\"' _ python tests/bench/bench_render.py"
        )
        return 0
    with tempfile.TemporaryDirectory(prefix="wf-bench-render-") as tmp:
        # The runtime dir stays the default, as users get it (profiles are removed at
        # close); the circuit breaker's state goes to a scratch dir.
        os.environ["WF_STATE_DIR"] = str(Path(tmp) / "state")
        server = FixtureServer()
        url = server.url("spa.html")
        print(f"\nrender of a small SPA ({url.rsplit('/', 1)[1]}) with {binary}, seconds")
        totals, parts = cold(url)
        row(f"cold (median of {COLD_RUNS})", totals, parts, TARGET_COLD)
        totals, parts = warm(url, gap=0.0)
        row(f"warm, back to back ({WARM_RUNS})", totals, parts, TARGET_WARM)
        totals, parts = warm(url, gap=0.3)
        row(f"warm, in a batch ({WARM_RUNS})", totals, parts, TARGET_WARM)
        print(
            "\nwhole process, the same page (static fetch and extraction included; with\n"
            "--render always the browser starts during the static fetch)"
        )
        whole_process(url)
        tab_mod.MIN_QUIET = tab_mod.MAX_QUIET = 0.5
        print("\nthe issue's baseline, a fixed 500 ms quiet window:")
        totals, parts = warm(url, gap=0.0)
        row("warm, fixed 500 ms quiet window", totals, parts)
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
