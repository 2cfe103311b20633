"""Robustness over malformed PDFs of our own: a seeded corpus of a few hundred files
(truncations, random byte flips, bad xref tables, page-tree recursion, page bombs, huge
and negative dimensions, repeated chunks, broken streams), each read by a real
`wf --input FILE --timeout T` process. Target: no exit 1 (internal error), no run past
its deadline (T + 1 s from spawn), one error line at most. The suite runs 30 of the same
kinds in process (tests/test_wf_pdf.py), and checks that nothing is left running after a
deadline or SIGTERM in PDFium's work; this is the long version.

Run with any venv that has wf installed:
    .bench-venv/bin/python tests/bench/fuzz_pdf.py [--cases 300] [--seed 15] [--timeout 3]
Exit status 1 when a case broke the target (each such case is printed, and kept in
/tmp/wf-fuzz-pdf/ to replay).
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import pdfmake  # noqa: E402

BIN = Path(sys.executable).parent
LOREM = "Agents read papers, manuals and reports as often as articles. " * 3


def base_documents() -> list[bytes]:
    shared = ROOT.parent / "shared" / "fixtures" / "pdf"
    docs = [
        pdfmake.make_pdf(
            [[f"page {n} {LOREM}"] * 5 for n in range(8)],
            info={"Title": "fuzz", "CreationDate": "D:20240101000000Z"},
            outline=[("a", 0), ("b", 5)],
            xmp=pdfmake.xmp_packet("t", "c", "2024-01-01"),
        ),
        pdfmake.make_pdf([["encrypted"]], user_password="", outline=[("x", 0)]),
    ]
    # Real files too, when the shared set is there: compressed streams, object streams,
    # real fonts are what PDFium's parsers meet.
    for name in (
        "001-trivial/minimal-document.pdf",
        "006-pdflatex-outline/pdflatex-outline.pdf",
        "022-pdfkit/pdfkit.pdf",
    ):
        path = shared / name
        if path.exists():
            docs.append(path.read_bytes())
    return docs


def mutate(rng: random.Random, base: bytes, kind: int) -> bytes:
    data = bytearray(base)
    if kind == 0:  # truncation
        return bytes(data[: rng.randrange(len(data))])
    if kind == 1:  # byte flips
        for _ in range(rng.randrange(1, 80)):
            data[rng.randrange(8, len(data))] = rng.randrange(256)
        return bytes(data)
    if kind == 2:  # a bad xref table / startxref
        at = data.rfind(b"startxref") if rng.random() < 0.5 else data.rfind(b"xref")
        at = max(at, 0)
        for _ in range(rng.randrange(1, 12)):
            k = rng.randrange(at, len(data))
            data[k] = ord(rng.choice("0123456789 fn\n"))
        return bytes(data)
    if kind == 3:  # huge, negative, nonsense dimensions
        box = rng.choice(
            [
                b"[0 0 1e30 1e30]",
                b"[0 0 -5 99999999]",
                b"[nan 0 1 1]",
                b"[0 0 14400 14400000]",
                b"[]",
            ]
        )
        return bytes(data).replace(b"[0 0 612 792]", box)
    if kind == 4:  # recursion in page trees and page bombs
        return rng.choice(
            [pdfmake.page_tree_loop(), pdfmake.page_bomb(rng.randrange(2, 80), rng.randrange(1, 4))]
        )
    if kind == 5:  # a chunk repeated
        k = rng.randrange(max(1, len(data) - 300))
        data[k:k] = data[k : k + 300] * rng.randrange(2, 100)
        return bytes(data)
    if kind == 6:  # a stream's length lied about, or its content cut
        return bytes(data).replace(b"/Length ", b"/Length 9", rng.randrange(1, 4))
    # kind 7: keywords swapped for others
    pairs = [
        (b"endobj", b"endstream"),
        (b"obj", b"xref"),
        (b"R", b"0"),
        (b"/Kids", b"/Kid"),
        (b">>", b"<<"),
    ]
    old, new = rng.choice(pairs)
    return bytes(data).replace(old, new, rng.randrange(1, 6))


KINDS = [
    "truncated",
    "byte flips",
    "bad xref",
    "dimensions",
    "page tree",
    "repeated chunk",
    "stream length",
    "keywords",
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--timeout", type=float, default=3.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bases = base_documents()
    keep = Path(tempfile.gettempdir()) / "wf-fuzz-pdf"
    keep.mkdir(exist_ok=True)
    codes: collections.Counter[int] = collections.Counter()
    by_kind: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    bad = 0
    slowest = 0.0
    env = {k: v for k, v in os.environ.items() if not k.startswith("WF_")}
    env["WF_PDF_MAX_PAGES"] = "1000000"  # let the page bombs meet the deadline, not the cap
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.cases):
            kind = i % len(KINDS)
            body = mutate(rng, rng.choice(bases), kind)
            path = Path(tmp) / f"case{i}.pdf"
            path.write_bytes(body)
            start = time.monotonic()
            proc = subprocess.run(
                [
                    str(BIN / "wf"),
                    "--input",
                    str(path),
                    "--timeout",
                    str(args.timeout),
                    "--no-save",
                ],
                capture_output=True,
                env=env,
                start_new_session=True,
                timeout=args.timeout + 30,
            )
            elapsed = time.monotonic() - start
            slowest = max(slowest, elapsed)
            codes[proc.returncode] += 1
            by_kind[KINDS[kind]][proc.returncode] += 1
            stderr = proc.stderr.decode("utf-8", "replace")
            lines = [line for line in stderr.splitlines() if not line.startswith("wf: note: ")]
            broke = (
                proc.returncode not in (0, 28, 71)
                or elapsed > args.timeout + 1
                or len(lines) > 1
                or "Traceback" in stderr
            )
            if broke:
                bad += 1
                (keep / f"case{i}.pdf").write_bytes(body)
                print(
                    f"  BROKE case {i} ({KINDS[kind]}): exit {proc.returncode} in {elapsed:.2f} s: {stderr.strip()[:300]}"
                )
    print(f"{args.cases} malformed PDFs (seed {args.seed}), wf --timeout {args.timeout:g}")
    print("  exit codes: " + ", ".join(f"{code}: {n}" for code, n in sorted(codes.items())))
    for name in KINDS:
        print(
            f"  {name:15s} "
            + ", ".join(f"{code}: {n}" for code, n in sorted(by_kind[name].items()))
        )
    print(
        f"  slowest run {slowest:.2f} s (deadline {args.timeout:g} s + 1 s allowed); broke the target: {bad}"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
