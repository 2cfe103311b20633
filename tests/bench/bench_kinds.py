"""wceb-2026: wf's extraction on modern pages of every kind, beside trafilatura, in one run.

Data: ../shared/extract-bench/wceb-2026 (650 pages; read its README). Its pages.tar.xz is
unpacked once into .bench-cache/wceb-2026 (ignored by git), or WF_WCEB names a folder that
holds ground-truth.json and html/<id>.html already.

Scoring is the README's: 4-token shingles of `\\w+` tokens, per-page precision and recall,
means over pages (precision over the pages with output), F1 of the means, with articleBody
as the reference; F1 per page_type; the snippet rule of trafilatura's evaluation (a `with`
sentence found in the output after collapsing white space is a true positive, a `without`
one a false positive, counted over all pages); and metadata agreement: title and author
when, after collapsing white space and case, one contains the other, the publication date
on the calendar day, each over the pages whose reference has the value.

The pages are split once by a hash of their id (as bench_extract.py splits its sets) into
a tuning part and a held-out part of about 30 %: every figure is printed for both. Only the
tuning part's worst pages are listed by --details.

    .bench-venv/bin/python tests/bench/bench_kinds.py [--details] [--only-wf]
"""

from __future__ import annotations

import argparse
import gc
import json
import lzma
import os
import re
import sys
import tarfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_extract import held_out, page_scores, summarise  # noqa: E402

SOURCE = ROOT.parent / "shared" / "extract-bench" / "wceb-2026"
CACHE = ROOT / ".bench-cache" / "wceb-2026"
KINDS = ("article", "documentation", "service", "forum", "listing", "product", "collection")
TARGETS = {
    "all": 0.84,
    "article": 0.94,
    "documentation": 0.88,
    "service": 0.80,
    "forum": 0.80,
    "listing": 0.70,
    "product": 0.68,
    "collection": 0.60,
}


def data_dir() -> tuple[Path | None, str]:
    """The folder with ground-truth.json and html/, unpacking the set when needed; or
    None and why."""
    named = os.environ.get("WF_WCEB")
    if named:
        path = Path(named)
        if (path / "ground-truth.json").is_file():
            return path, ""
        return None, f"WF_WCEB={named} holds no ground-truth.json"
    if (CACHE / "ground-truth.json").is_file() and (CACHE / "html").is_dir():
        return CACHE, ""
    archive, truth = SOURCE / "pages.tar.xz", SOURCE / "ground-truth.json.xz"
    if not (archive.is_file() and truth.is_file()):
        return None, f"no wceb-2026 set at {SOURCE} (or set WF_WCEB)"
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"bench_kinds: unpacking {archive} into {CACHE} (once)", flush=True)
    with tarfile.open(archive, "r:xz") as tar:
        tar.extractall(CACHE, filter="data")
    (CACHE / "ground-truth.json").write_bytes(lzma.decompress(truth.read_bytes()))
    return CACHE, ""


@dataclass
class Page:
    key: str
    html: str
    body: str
    url: str
    kind: str
    title: str | None
    author: str | None
    date: str | None
    with_: list[str] = field(default_factory=list)
    without: list[str] = field(default_factory=list)


def load(folder: Path) -> list[Page]:
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for key in sorted(truth):
        ref = truth[key]
        path = folder / "html" / f"{key}.html"
        if not path.is_file():
            continue
        pages.append(
            Page(
                key=key,
                html=path.read_bytes().decode("utf-8", "replace"),
                body=ref.get("articleBody") or "",
                url=ref.get("url") or "",
                kind=ref.get("page_type") or "?",
                title=ref.get("title"),
                author=ref.get("author"),
                date=ref.get("publish_date"),
                with_=list(ref.get("with") or []),
                without=list(ref.get("without") or []),
            )
        )
    return pages


# What one extractor gives for a page: the text, then title, author and date.
Result = tuple[str, str | None, str | None, str | None]


def wf_extractor() -> Callable[[Page], Result]:
    from wf.extract import extract

    def run(page: Page) -> Result:
        # What `wf --json` prints: the text and the metadata of one extract() call.
        found = extract(page.html, url=page.url or None, metadata=True)
        meta = found.metadata or {}
        return found.text, meta.get("title") or found.title, meta.get("author"), meta.get("date")

    return run


def peer_extractor() -> tuple[str, Callable[[Page], Result]] | str:
    try:
        import trafilatura
        from trafilatura import extract_metadata
    except ImportError as exc:
        return f"trafilatura is not installed here ({exc}); use .bench-venv/bin/python"

    def run(page: Page) -> Result:
        text = trafilatura.extract(page.html, url=page.url or None, include_comments=False)
        meta = extract_metadata(page.html, default_url=page.url or None)
        if meta is None:
            return text or "", None, None, None
        return text or "", meta.title, meta.author, meta.date

    return f"trafilatura {trafilatura.__version__}", run


def _collapse(text: str | None) -> str:
    return " ".join((text or "").split()).lower()


def agree(ours: str | None, reference: str | None) -> bool:
    a, b = _collapse(ours), _collapse(reference)
    return bool(a and b and (a in b or b in a))


_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def same_day(ours: str | None, reference: str | None) -> bool:
    a, b = _DAY.search(ours or ""), _DAY.search(reference or "")
    return bool(a and b and a.groups() == b.groups())


def snippet_f1(pages: list[Page], outputs: list[str]) -> float:
    tp = fn = fp = 0
    for page, out in zip(pages, outputs, strict=True):
        text = " ".join(out.split())
        for sentence in page.with_:
            if " ".join(sentence.split()) in text:
                tp += 1
            else:
                fn += 1
        fp += sum(" ".join(s.split()) in text for s in page.without)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def f1_of(pages: list[Page], outputs: list[str], chosen: list[bool]) -> str:
    scores = [page_scores(p.body, o) for p, o, c in zip(pages, outputs, chosen, strict=True) if c]
    return f"{summarise(scores)[2]:.3f}" if scores else "-"


def print_kinds(
    pages: list[Page],
    found: list[tuple[str, Callable[[Page], Result]]],
    results: list[list[Result]],
    parts: list[tuple[str, Callable[[Page], bool]]],
) -> None:
    """F1 per page_type, for every extractor and part, beside the issue's targets."""
    print()
    print(f"{'F1 by page_type':<16} {'pages':>5}", end="")
    for name, _ in found:
        for part, _ in parts:
            print(f" {name.split()[0][:5] + ' ' + part:>11}", end="")
    print(f" {'target':>7}")
    for kind in (*KINDS, "all"):
        n = sum(1 for p in pages if kind == "all" or p.kind == kind)
        print(f"{kind:<16} {n:>5}", end="")
        for _, res in zip(found, results, strict=True):
            outputs = [r[0] for r in res]
            for _, keep in parts:
                chosen = [keep(p) and kind in ("all", p.kind) for p in pages]
                print(f" {f1_of(pages, outputs, chosen):>11}", end="")
        print(f" {TARGETS[kind]:>7.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--details", action="store_true", help="wf's worst tuning pages")
    parser.add_argument("--only-wf", action="store_true", help="skip the peer")
    parser.add_argument("--kind", help="only pages of this page_type")
    args = parser.parse_args(argv)
    folder, why = data_dir()
    if folder is None:
        print(f"bench_kinds: skipped: {why}")
        return 0
    pages = load(folder)
    if args.kind:
        pages = [p for p in pages if p.kind == args.kind]
    found: list[tuple[str, Callable[[Page], Result]]] = [("wf extract", wf_extractor())]
    peer = None if args.only_wf else peer_extractor()
    if isinstance(peer, str):
        print(f"bench_kinds: peer skipped: {peer}")
    elif peer is not None:
        found.append(peer)
    held = [held_out(p.key) for p in pages]
    print(f"bench_kinds: {len(pages)} pages from {folder}, {sum(held)} held out")
    results: list[list[Result]] = [[] for _ in found]
    seconds = [0.0] * len(found)
    for fn in found:
        fn[1](pages[0])  # warm-up: lazy imports
    for page in pages:
        for i, (_, fn) in enumerate(found):
            gc.collect()
            start = time.process_time()
            results[i].append(fn(page))
            seconds[i] += time.process_time() - start
    parts: list[tuple[str, Callable[[Page], bool]]] = [
        ("tune", lambda p: not held_out(p.key)),
        ("held", lambda p: held_out(p.key)),
        ("all", lambda p: True),
    ]
    print(
        f"{'extractor':<20} {'part':<5} {'P':>6} {'R':>6} {'F1':>6} {'snip':>6}"
        f" {'title':>6} {'author':>6} {'date':>6} {'pages/s':>8}"
    )
    for (name, _), res, secs in zip(found, results, seconds, strict=True):
        outputs = [r[0] for r in res]
        for part, keep in parts:
            idx = [i for i, p in enumerate(pages) if keep(p)]
            scores = [page_scores(pages[i].body, outputs[i]) for i in idx]
            p, r, f1 = summarise(scores)
            snip = snippet_f1([pages[i] for i in idx], [outputs[i] for i in idx])
            meta = []
            for field_index, ref_of, rule in (
                (1, lambda pg: pg.title, agree),
                (2, lambda pg: pg.author, agree),
                (3, lambda pg: pg.date, same_day),
            ):
                having = [i for i in idx if ref_of(pages[i])]
                hits = sum(rule(res[i][field_index], ref_of(pages[i])) for i in having)
                meta.append(hits / len(having) if having else 0.0)
            rate = len(pages) / secs if secs else 0.0
            print(
                f"{name[:20]:<20} {part:<5} {p:>6.3f} {r:>6.3f} {f1:>6.3f} {snip:>6.3f}"
                f" {meta[0]:>6.3f} {meta[1]:>6.3f} {meta[2]:>6.3f} {rate:>8.1f}"
            )
    print_kinds(pages, found, results, parts)
    if args.details:
        outputs = [r[0] for r in results[0]]
        rows = [
            (p, page_scores(p.body, o))
            for p, o, h in zip(pages, outputs, held, strict=True)
            if not h
        ]
        rows.sort(key=lambda item: (item[1][0] or 0) + (item[1][1] or 0))
        print("\nwf's worst tuning pages:")
        for p, (pp, rr) in rows[:40]:
            print(
                f"    {p.key}  {p.kind:<14} P={pp if pp is None else round(pp, 3)}  R={rr or 0:.3f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
