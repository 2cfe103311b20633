"""`make mutation`: mutmut 3 over the modules whose bugs cost the most, one module at a time.

Each module gets a fresh work dir under .mutation/ (a copy of common/, wf/, ws/, tests/ and
pyproject.toml whose [tool.mutmut] names only that module and only its tests), so that a
mutant of common/text.py runs the text tests and not the hundreds of tests that happen to
print text. The table of modules and their tests is [tool.mutmut].modules in pyproject.toml.
mutmut then runs, for each mutant, the selected tests that called the mutated function.

Prints, per module: the mutants, how many the tests killed, the survivors (with their
diffs), the equivalent ones (listed with a reason in tests/mutation/README.md,
"Equivalent mutants"), and the score detected / (mutants - equivalent), where a mutant is
detected when a test fails or times out on it. Exit status 0 whatever the scores (the run measures,
it does not gate), 1 when mutmut itself failed on a module.

    python tests/mutation/run.py [MODULE ...]      (default: every module of the table)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".mutation"
MUTMUT = Path(sys.executable).with_name("mutmut")
# What a module's work dir needs: the packages (mutmut copies them into mutants/ and
# mutates the one module), the tests with their fixtures, and what tests read (the man
# pages, the maps).
PACKAGES = ("common", "wf", "ws")
ALSO_COPIED = ("tests", "man", "README.md", "CONTRIBUTING.md", "CHANGELOG.md")
DETECTED = {"killed", "timeout", "caught by type check", "segfault"}
# A row of the equivalent-mutants table in tests/mutation/README.md: | `name` | reason |
_EQUIVALENT_ROW = re.compile(r"^\|\s*`([\w.ǁ]+__mutmut_\d+)`\s*\|")


@dataclass
class Score:
    module: str
    status: dict[str, str] = field(default_factory=dict)  # mutant name -> mutmut status
    equivalent: set[str] = field(default_factory=set)
    failed: bool = False

    def count(self, *statuses: str) -> int:
        return sum(1 for s in self.status.values() if s in statuses)

    @property
    def survivors(self) -> list[str]:
        return [n for n, s in self.status.items() if s not in DETECTED and n not in self.equivalent]

    @property
    def score(self) -> float:
        counted = len(self.status) - len(self.equivalent & self.status.keys())
        return self.count(*DETECTED) / counted if counted else 1.0


def equivalent_mutants() -> set[str]:
    """The mutants tests/mutation/README.md lists as equivalent, each with its reason."""
    text = (ROOT / "tests" / "mutation" / "README.md").read_text(encoding="utf-8")
    if "## Equivalent mutants" not in text:
        return set()
    section = text.split("## Equivalent mutants", 1)[1].split("\n#", 1)[0]
    return {m.group(1) for line in section.splitlines() if (m := _EQUIVALENT_ROW.match(line))}


def config() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(data["tool"]["mutmut"])


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def prepare(module: str, tests: list[str], base: dict[str, object]) -> Path:
    """A fresh work dir for one module: the tree, and a pyproject.toml naming it alone."""
    work = WORK / module.replace("/", "_").removesuffix(".py")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "bench")
    for name in PACKAGES + ALSO_COPIED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, work / name, ignore=ignore)
        elif (ROOT / name).is_file():
            shutil.copy2(ROOT / name, work / name)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    # Everything but our own [tool.mutmut] tables, which come last in pyproject.toml.
    text = text.split("\n[tool.mutmut]", 1)[0]
    lines = [
        "",
        "[tool.mutmut]",
        f"source_paths = {_toml_list(list(PACKAGES))}",
        f"also_copy = {_toml_list([n for n in ALSO_COPIED if n != 'tests'])}",
        f"only_mutate = {_toml_list([module])}",
        f"pytest_add_cli_args_test_selection = {_toml_list(tests)}",
    ]
    for key, value in base.items():
        if key == "modules":
            continue
        rendered = _toml_list(value) if isinstance(value, list) else json.dumps(value)
        lines.append(f"{key} = {rendered}")
    (work / "pyproject.toml").write_text(text + "\n".join(lines) + "\n", encoding="utf-8")
    return work


def run_module(module: str, tests: list[str], base: dict[str, object], jobs: int) -> Score:
    work = prepare(module, tests, base)
    print(f"=== {module}: mutmut over {' '.join(tests)}", flush=True)
    log = work / "mutmut.log"
    with log.open("wb") as out:
        done = subprocess.run(
            [str(MUTMUT), "run", "--max-children", str(jobs)],
            cwd=work,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    score = Score(module)
    if done.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        print(f"mutmut failed on {module} (exit {done.returncode}); the end of {log}:")
        print("\n".join(tail))
        score.failed = True
        return score
    results = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    for line in results.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            score.status[name] = status
    return score


def show(work: Path, name: str) -> str:
    out = subprocess.run(
        [str(MUTMUT), "show", name], cwd=work, capture_output=True, text=True, check=False
    )
    return out.stdout.rstrip()


def main(argv: list[str]) -> int:
    base = config()
    modules: dict[str, list[str]] = base["modules"]  # type: ignore[assignment]
    chosen = argv or list(modules)
    unknown = [m for m in chosen if m not in modules]
    if unknown:
        print(f"not in [tool.mutmut].modules: {' '.join(unknown)}", file=sys.stderr)
        return 2
    jobs = int(os.environ.get("MUTATION_JOBS", "2"))
    equivalent = equivalent_mutants()
    scores: list[Score] = []
    for module in chosen:
        score = run_module(module, modules[module], base, jobs)
        score.equivalent = {n for n in equivalent if n in score.status}
        scores.append(score)
        work = WORK / module.replace("/", "_").removesuffix(".py")
        for name in score.survivors:
            print(f"--- surviving ({score.status[name]}): {name}")
            print(show(work, name))
        print(flush=True)
    print(
        f"{'module':32} {'mutants':>7} {'killed':>6} {'timeout':>7} {'equiv':>5} {'left':>5} score"
    )
    for s in scores:
        print(
            f"{s.module:32} {len(s.status):7} {s.count('killed'):6} {s.count('timeout'):7} "
            f"{len(s.equivalent):5} {len(s.survivors):5} "
            + ("mutmut failed" if s.failed else f"{s.score:.3f}")
        )
    return 1 if any(s.failed for s in scores) else 0


def _ends_on_term() -> None:
    """SIGTERM and SIGHUP end the run (and subprocess.run kills mutmut on the way out).
    `make mutation` starts this script as PID 1 of a PID namespace, where a signal whose
    action is the default one is ignored: without a handler, `kill` did nothing."""
    import signal

    def end(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, end)


if __name__ == "__main__":
    _ends_on_term()
    sys.exit(main(sys.argv[1:]))
