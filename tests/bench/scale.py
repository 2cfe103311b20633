"""`make scale`: the README's "At scale" recipes, run for real on this machine.

    scale.py build DIR          WARC shards from ../shared/extract-bench/ pages (ignored dir)
    scale.py run DIR            serial `wf --warc`, the Dask bag at 1 and 2 worker
                                processes, PySpark in local[2] when Java is there; each
                                engine's output checked identical to the serial one;
                                records/s printed
    scale.py speed DIR          `wf --warc` against a process calling wf.extract, same
                                pages, CPU time of each whole process
    scale.py memory FILE SIZE   peak RSS of `wf --warc` on a WARC of SIZE bytes (built by
                                repeating records, removed after)

Runs in .scale-venv (the Makefile makes it), never in the project's dependencies.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT.parent / "shared" / "extract-bench"
SHARDS = 16  # more files than workers: the slowest file sets less of the end
BIN = Path(sys.executable).parent


def bench_pages() -> Iterator[tuple[str, bytes]]:
    """(url, html) of the extraction sets' pages that are here."""
    folder = BENCH / "scrapinghub" / "html"
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            yield (
                f"https://scrapinghub.bench.invalid/{path.name[:16]}",
                gzip.decompress(path.read_bytes()),
            )
    folder = BENCH / "readability" / "pages"
    if folder.is_dir():
        for page in sorted(folder.iterdir()):
            source = page / "source.html.gz"
            if source.is_file():
                yield (
                    f"https://readability.bench.invalid/{page.name}/",
                    gzip.decompress(source.read_bytes()),
                )


def records_of(url: str, html: bytes, n: int, compress: bool = True) -> bytes:
    """A request and a response record, gzip member each (or plain); ids and dates fixed,
    so that two builds are the same bytes."""
    from wf.warc.write import http_response, record

    date = "2026-12-04T12:00:00Z"
    rid = f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{n}:{url}')}>"
    request = record(
        "request",
        f"GET / HTTP/1.1\r\nHost: {url.split('/')[2]}\r\n\r\n".encode(),
        target_uri=url,
        date=date,
        record_id=f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'q{n}:{url}')}>",
        extra={"WARC-Concurrent-To": rid},
        content_type="application/http;msgtype=request",
    )
    block = http_response(200, {"content-type": "text/html; charset=utf-8"}, html)
    response = record(
        "response",
        block,
        target_uri=url,
        payload=html,
        date=date,
        record_id=rid,
        content_type="application/http;msgtype=response",
    )
    if not compress:
        return request + response
    return gzip.compress(request, 6) + gzip.compress(response, 6)


def build(folder: Path) -> list[Path]:
    pages = list(bench_pages())
    if not pages:
        sys.exit(f"scale: no pages in {BENCH}: the extraction sets are needed")
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"bench-{i:02d}.warc.gz" for i in range(SHARDS)]
    for i, path in enumerate(paths):
        with open(path, "wb") as fh:
            for n, (url, html) in enumerate(pages):
                if n % SHARDS == i:
                    fh.write(records_of(url, html, n))
    print(f"scale: {len(pages)} pages in {SHARDS} WARC files under {folder}")
    return paths


def shards(folder: Path) -> list[str]:
    found = sorted(str(p) for p in folder.glob("bench-*.warc.gz"))
    return found or [str(p) for p in build(folder)]


def stable(lines: list[str]) -> list[str]:
    """The lines without elapsed_ms, the one key that differs from run to run."""
    out = []
    for line in lines:
        doc = json.loads(line)
        doc.pop("elapsed_ms", None)
        out.append(json.dumps(doc, sort_keys=True))
    return out


def serial(paths: list[str]) -> tuple[list[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        [str(BIN / "wf"), "--warc", *paths], capture_output=True, text=True, check=False
    )
    took = time.monotonic() - started
    if done.returncode not in (0,):
        print(f"scale: wf --warc exit {done.returncode}: {done.stderr[-400:]}", file=sys.stderr)
    return done.stdout.splitlines(), took


# The recipe the README shows, word for word in spirit: one task per WARC file, in a
# worker process; each yields the lines `wf --warc` prints.
def lines_of(path: str) -> list[str]:
    import wf.api

    return [page.to_json() for page in wf.api.warc_pages(path)]


def warm() -> int:
    """One small page through wf: a worker's imports and first compiles are paid."""
    import wf

    wf.extract("<p>A first page, to load the extractor.</p>")
    return os.getpid()


def written(folder: Path, pattern: str) -> list[str]:
    """The lines the workers wrote, in the order of their partitions."""
    files = sorted(folder.glob(pattern), key=lambda p: int("".join(filter(str.isdigit, p.name))))
    return [line for f in files for line in f.read_text(encoding="utf-8").splitlines() if line]


def dask_run(paths: list[str], workers: int, out: Path) -> tuple[list[str], float]:
    """The README's recipe: each worker writes its files' lines (nothing is gathered on
    the client, which would be the one process every result passes through)."""
    import dask.bag as db
    from dask.distributed import Client, LocalCluster

    shutil.rmtree(out, ignore_errors=True)
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",  # scheduler and workers talk over loopback only
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(warm)  # each worker's imports (lxml, the extractor) before the clock
        started = time.monotonic()
        bag = db.from_sequence(paths, npartitions=len(paths)).map(lines_of).flatten()
        bag.to_textfiles(str(out / "*.jsonl"))
        took = time.monotonic() - started
    return written(out, "*.jsonl"), took


def spark_run(paths: list[str], out: Path) -> tuple[list[str], float]:
    from pyspark.sql import SparkSession

    # The workers run this venv's Python (wf installed), not the first python3 on PATH.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    # Spark binds its driver to the host name's address (an outside interface here): keep
    # the driver, its block manager and the Python workers on loopback.
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    shutil.rmtree(out, ignore_errors=True)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("wf-warc")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.python.worker.reuse", "true")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    try:
        sc = spark.sparkContext
        sc.setLogLevel("ERROR")
        sc.parallelize(range(2), 2).map(lambda _: warm()).collect()
        started = time.monotonic()
        sc.parallelize(paths, len(paths)).flatMap(lines_of).saveAsTextFile(str(out))
        took = time.monotonic() - started
    finally:
        spark.stop()
    return written(out, "part-*"), took


def burn(n: int) -> float:
    started = time.monotonic()
    total = 0
    for i in range(n):
        total += i * i
    return time.monotonic() - started


def two_core_ceiling() -> float:
    """What two CPU-bound processes get over one on this machine now: the bound on any
    2-worker speed-up (a shared machine gives less than 2)."""
    import multiprocessing

    n = 5_000_000
    one = burn(n)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        started = time.monotonic()
        pool.map(burn, [n, n])
        two = time.monotonic() - started
    return 2 * one / two


def run(folder: Path) -> int:
    paths = shards(folder)
    expected, took = serial(paths)
    n = len(expected)
    rows = [("wf --warc (serial)", 1, n, took)]
    want = stable(expected)
    failed = False
    for workers in (1, 2):
        got, took = dask_run(paths, workers, folder / f"out-dask-{workers}")
        same = stable(got) == want
        failed |= not same
        rows.append((f"dask bag{'' if same else ' (OUTPUT DIFFERS)'}", workers, len(got), took))
    if shutil.which("java"):
        got, took = spark_run(paths, folder / "out-spark")
        same = stable(got) == want
        failed |= not same
        rows.append((f"pyspark local[2]{'' if same else ' (OUTPUT DIFFERS)'}", 2, len(got), took))
    else:
        print("scale: no java: the PySpark recipe is not run")
    print(f"{'engine':32} {'workers':>7} {'records':>8} {'seconds':>8} {'records/s':>10}")
    for name, workers, count, seconds in rows:
        print(f"{name:32} {workers:>7} {count:>8} {seconds:>8.2f} {count / seconds:>10.1f}")
    dask1, dask2 = rows[1][3], rows[2][3]
    print(
        f"scale: dask 2 workers / 1 worker: {dask1 / dask2:.2f}x "
        f"(two CPU-bound processes on this machine now: {two_core_ceiling():.2f}x of one)"
    )
    print("scale: output " + ("DIFFERS" if failed else "identical to serial wf --warc"))
    return 1 if failed else 0


def plain_pages(folder: Path) -> Path:
    """The bench pages as plain .html files (built once, beside the WARC shards), with
    their URLs: what a script that calls wf.extract reads."""
    pages = folder / "pages"
    index = pages / "urls.txt"
    if not index.is_file():
        pages.mkdir(parents=True, exist_ok=True)
        urls = []
        for n, (url, html) in enumerate(bench_pages()):
            (pages / f"{n:04d}.html").write_bytes(html)
            urls.append(url)
        index.write_text("\n".join(urls) + "\n")
    return pages


def extract_child(pages: Path, repeat: int) -> int:
    """A process that reads the plain pages and calls wf.extract on each, ``repeat``
    times over: the library's side of `speed`, start-up included as wf --warc's is."""
    import wf

    urls = (pages / "urls.txt").read_text().split()
    html = [(pages / f"{n:04d}.html").read_bytes() for n in range(len(urls))]
    opts = wf.build_options()
    done = 0
    for _ in range(repeat):
        for url, body in zip(urls, html, strict=True):
            wf.extract(body, url, options=opts)
            done += 1
    print(done)
    return 0


def _child_cpu(argv: list[str]) -> tuple[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"scale: {argv[1]} exit {done.returncode}: {done.stderr[-400:]}")
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return done.stdout, used


def speed(folder: Path, repeat: int = 3, rounds: int = 3) -> int:
    """CPU per page of two whole processes over the same pages, ``repeat`` times over,
    in alternating rounds: one that calls wf.extract on the plain pages, and `wf --warc`
    on the shards (gzip members inflated, JSON lines written). Each pays its own start-up
    (imports, the first compiles); `wf --warc` also its supervisor. The pages/s of
    wf.extract warmed in this process is printed beside them: what the start-up is."""
    import wf

    pages_dir = plain_pages(folder)
    paths = shards(folder)
    warm: list[float] = []
    library: list[float] = []
    cli: list[float] = []
    pages = list(bench_pages())
    opts = wf.build_options()
    for url, html in pages[:5]:
        wf.extract(html, url, options=opts)  # imports and first compile paid
    for _ in range(rounds):
        before = time.process_time()
        for url, html in pages:
            wf.extract(html, url, options=opts)
        warm.append(len(pages) / (time.process_time() - before))
        out, used = _child_cpu(
            [sys.executable, __file__, "extract-child", str(pages_dir), str(repeat)]
        )
        library.append(int(out) / used)
        out, used = _child_cpu([str(BIN / "wf"), "--warc", *(paths * repeat)])
        cli.append(len(out.splitlines()) / used)
    for name, rates in (
        ("wf.extract, warm in this process", warm),
        ("wf.extract, a process", library),
        ("wf --warc, a process", cli),
    ):
        print(f"scale: {name:33} pages/s (CPU) " + " ".join(f"{r:.1f}" for r in rates))
    whole = sorted(c / lib for c, lib in zip(cli, library, strict=True))
    print(
        "scale: wf --warc / wf.extract, processes, round by round: "
        + " ".join(f"{r:.2f}" for r in whole)
    )
    return 0


def memory(path: Path, size: int) -> int:
    """An uncompressed WARC of ``size`` bytes: the bench pages over and over, with an 8 MB
    binary answer between rounds (read, sniffed, skipped), then `wf --warc` under
    /usr/bin/time."""
    pages = list(bench_pages())
    blob = os.urandom(1 << 20) * 8
    from wf.warc.write import http_response, record

    binary = record(
        "response",
        http_response(200, {"content-type": "application/octet-stream"}, blob),
        target_uri="https://blob.bench.invalid/",
    )
    written = 0
    n = 0
    with open(path, "wb") as fh:
        while written < size:
            for url, html in pages:
                chunk = records_of(url, html, n, compress=False)
                fh.write(chunk)
                written += len(chunk)
                n += 1
            fh.write(binary)
            written += len(binary)
    try:
        started = time.monotonic()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M", str(BIN / "wf"), "--warc", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        took = time.monotonic() - started
        peak_kb = int(done.stderr.strip().splitlines()[-1])
        print(
            f"scale: wf --warc on {written / 1e9:.2f} GB ({n} pages): peak RSS "
            f"{peak_kb / 1024:.0f} MB, {took:.0f} s, exit {done.returncode}"
        )
    finally:
        path.unlink()
    return 0


def main() -> int:
    what, *args = sys.argv[1:] or ["run"]
    if what == "build":
        build(Path(args[0]))
        return 0
    if what == "run":
        return run(Path(args[0]))
    if what == "speed":
        return speed(Path(args[0]))
    if what == "extract-child":
        return extract_child(Path(args[0]), int(args[1]))
    if what == "memory":
        return memory(Path(args[0]), int(float(args[1])))
    sys.exit(f"scale: unknown step {what!r}")


if __name__ == "__main__":
    sys.exit(main())
