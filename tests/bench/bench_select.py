"""--select against the automatic choice, on the scrapinghub pages whose article container
is written by hand in tests/fixtures/select/scrapinghub.json: F1 (the benchmark's rule,
as bench_extract.py scores it) of both, and the time --select adds per page.

Times are CPU time of this process, the two ways taking turns page by page (a burst of
load on a shared machine slows both alike); the median of the per-page differences is
the cost, with the automatic extraction's median beside it.

    .bench-venv/bin/python tests/bench/bench_select.py [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_extract import DATA, page_scores, summarise  # noqa: E402

SELECTORS = ROOT / "tests" / "fixtures" / "select" / "scrapinghub.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="timing passes over the pages")
    args = parser.parse_args(argv)
    if not (DATA / "ground-truth.json").is_file():
        print(f"bench_select: skipped: no benchmark data at {DATA} (set WF_EXTRACT_BENCH)")
        return 0
    from wf.extract import extract
    from wf.extract.select import Selection

    truth = json.loads((DATA / "ground-truth.json").read_text())
    chosen = json.loads(SELECTORS.read_text())
    pages = {k: gzip.decompress((DATA / "html" / f"{k}.html.gz").read_bytes()) for k in chosen}
    auto_scores, select_scores = [], []
    for key, selector in chosen.items():
        url, body = truth[key]["url"], truth[key]["articleBody"]
        auto_scores.append(page_scores(body, extract(pages[key], url=url).text))
        picked = extract(pages[key], url=url, selection=Selection((selector,))).text
        select_scores.append(page_scores(body, picked))
    clock = time.process_time
    auto_t: dict[str, list[float]] = {k: [] for k in chosen}
    select_t: dict[str, list[float]] = {k: [] for k in chosen}
    for _ in range(max(1, args.repeat)):
        for key, selector in chosen.items():
            url = truth[key]["url"]
            for times, selection in ((auto_t, None), (select_t, Selection((selector,)))):
                gc.collect()
                start = clock()
                extract(pages[key], url=url, selection=selection)
                times[key].append(clock() - start)
    auto_ms = [statistics.median(v) * 1000 for v in auto_t.values()]
    added = [(statistics.median(select_t[k]) - statistics.median(auto_t[k])) * 1000 for k in chosen]
    p, r, f = summarise(auto_scores)
    ps, rs, fs = summarise(select_scores)
    print(f"bench_select: {len(chosen)} scrapinghub pages, containers from {SELECTORS.name}")
    print(f"{'extraction':<12} {'precision':>9} {'recall':>7} {'F1':>6}")
    print(f"{'automatic':<12} {p:>9.4f} {r:>7.4f} {f:>6.4f}")
    print(f"{'--select':<12} {ps:>9.4f} {rs:>7.4f} {fs:>6.4f}")
    print(
        f"time per page (CPU, median of {args.repeat} passes): automatic "
        f"{statistics.median(auto_ms):.2f} ms; --select adds {statistics.median(added):+.2f} ms "
        f"(range {min(added):+.2f} to {max(added):+.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
