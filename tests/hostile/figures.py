"""Run the hostile suite and print its figures: the number of cases, every deadline case
with its overshoot, every memory case with its peak RSS over an idle `wf --version`.

    .venv/bin/python tests/hostile/figures.py            # run the suite, then print
    .venv/bin/python tests/hostile/figures.py --from F   # print figures recorded in F

As root it runs the suite in a network namespace with nothing but loopback, as .ci/run does.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_suite(path: Path, extra: list[str]) -> tuple[int, str]:
    paths = [] if any(not a.startswith("-") for a in extra) else ["tests/hostile"]
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *paths, *extra]
    if os.geteuid() == 0 and shutil.which("unshare"):
        cmd = ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "_", *cmd]
    env = dict(os.environ, HOSTILE_FIGURES=str(path))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    sys.stderr.write(proc.stdout[-3000:])
    return proc.returncode, proc.stdout


def table(records: list[dict], summary: str) -> str:
    out: list[str] = []
    m = re.search(r"(\d+) passed", summary)
    counts = ", ".join(
        f"{n} {w}"
        for n, w in re.findall(r"(\d+) (passed|failed|skipped|xfailed|xpassed|error)", summary)
    )
    if m or counts:
        out.append(f"hostile cases: {counts}")
    deadlines = sorted(
        (r for r in records if r["kind"] == "deadline"),
        key=lambda r: r["elapsed"] - r["timeout"],
        reverse=True,
    )
    if deadlines:
        width = max(len(r["case"]) for r in deadlines)
        out.append("")
        out.append(f"{'deadline case':{width}} {'timeout':>7} {'elapsed':>8} {'over':>7}")
        for r in deadlines:
            over = r["elapsed"] - r["timeout"]
            out.append(f"{r['case']:{width}} {r['timeout']:7.2f} {r['elapsed']:8.3f} {over:+7.3f}")
        worst = deadlines[0]
        out.append(
            f"worst overshoot: {worst['elapsed'] - worst['timeout']:+.3f} s ({worst['case']})"
        )
    idle = [r["peak_kb"] for r in records if r["kind"] == "idle"]
    memory = sorted(
        (r for r in records if r["kind"] == "memory"), key=lambda r: r["peak_kb"], reverse=True
    )
    if memory:
        width = max(len(r["case"]) for r in memory)
        out.append("")
        out.append(f"{'memory case':{width}} {'peak MB':>8} {'over idle':>9}")
        for r in memory:
            out.append(
                f"{r['case']:{width}} {r['peak_kb'] / 1024:8.1f} {(r['peak_kb'] - r['idle_kb']) / 1024:9.1f}"
            )
        worst = memory[0]
        out.append(
            f"worst peak RSS: {worst['peak_kb'] / 1024:.1f} MB, {(worst['peak_kb'] - worst['idle_kb']) / 1024:.1f} MB "
            f"over idle `wf --version` ({min(idle) / 1024 if idle else worst['idle_kb'] / 1024:.1f} MB) ({worst['case']})"
        )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--from", dest="source", help="print figures already recorded in this file")
    parser.add_argument("pytest_args", nargs="*", help="extra arguments for pytest")
    args = parser.parse_args()
    summary, code = "", 0
    if args.source:
        path = Path(args.source)
    else:
        fd, name = tempfile.mkstemp(prefix="hostile-figures-", suffix=".jsonl")
        os.close(fd)
        path = Path(name)
        code, summary = run_suite(path, args.pytest_args)
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not args.source:
        path.unlink()
    print(table(records, summary.strip().splitlines()[-1] if summary.strip() else ""))
    return code


if __name__ == "__main__":
    sys.exit(main())
