"""wf/pdf/: PDF bodies read with PDFium, end to end (served by a local server with the
right and a lying content type, and with --input) and the pure parts alone (page
selection, cleaning, metadata). PDFs are made here with tests/pdfmake.py."""

from __future__ import annotations

import gc
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from common.errors import Timeout
from tests import pdfmake
from tests.helpers import ALLOW, SHARED, assert_one_line_error, subprocess_env
from tests.hostile import proc
from tests.servers import respond
from wf.pdf import clean, meta
from wf.pdf.pagespec import parse_pages

PDF_TYPE = {"Content-Type": "application/pdf"}
LOREM = [
    "Agents read papers, manuals and reports as often as articles.",
    "A PDF's text goes through the same line pipeline as a page's.",
]


def served(serve, body: bytes, headers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return serve(respond(200, body, PDF_TYPE if headers is None else headers))


def two_pages() -> bytes:
    return pdfmake.make_pdf([["First page text", *LOREM], ["Second page text", "the end"]])


def saved_files(scratch: Path) -> list[Path]:
    """What wf saved (the scratch dir's own bookkeeping, dot files, left out)."""
    return [path for path in scratch.iterdir() if not path.name.startswith(".")]


def note_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("wf: note: ")]


# ------------------------------------------------------------------ end to end


def test_pdf_served_as_application_pdf_prints_its_pages(wf, serve):
    r = wf(*ALLOW, served(serve, two_pages()).url)
    assert (r.code, r.stderr) == (0, "")
    assert r.stdout == (
        "--- page 1 ---\nFirst page text\n" + "\n".join(LOREM) + "\n\n"
        "--- page 2 ---\nSecond page text\nthe end\n"
    )


@pytest.mark.parametrize(
    "ctype",
    ["text/html; charset=utf-8", "application/octet-stream", "text/plain", ""],
)
def test_pdf_under_a_lying_content_type_is_still_read(wf, serve, ctype):
    headers = {"Content-Type": ctype} if ctype else {}
    r = wf(*ALLOW, served(serve, two_pages(), headers).url)
    assert r.code == 0, r.stderr
    assert "--- page 2 ---\nSecond page text" in r.stdout


def test_pdf_header_after_leading_junk_within_1024_bytes(wf, serve):
    # The format lets the header start anywhere in the first 1024 bytes; PDFium agrees.
    body = b"\x00junk from a mail gateway\n" * 20 + two_pages()
    r = wf(*ALLOW, served(serve, body, {"Content-Type": "text/html"}).url)
    assert r.code == 0, r.stderr
    assert "First page text" in r.stdout


def test_html_that_quotes_the_pdf_magic_is_still_html(wf, serve):
    html = b"<html><body><p>Files start with %PDF-1.7 and a binary line.</p></body></html>"
    r = wf(*ALLOW, served(serve, html, {"Content-Type": "text/html"}).url)
    assert r.code == 0 and "Files start with %PDF-1.7" in r.stdout and "--- page" not in r.stdout


def test_input_file_pdf(wf, tmp_path):
    path = tmp_path / "doc.pdf"
    path.write_bytes(two_pages())
    r = wf("--input", path)
    assert r.code == 0, r.stderr
    assert r.stdout.startswith("--- page 1 ---\nFirst page text\n")


def test_a_batch_of_pdfs_and_pages_read_concurrently(wf, serve):
    # Readers are forked from the batch's worker threads, several at a time.
    urls = [served(serve, pdfmake.make_pdf([[f"document {n} text"]])).url for n in range(5)]
    html = served(serve, b"<p>an html page between</p>", {"Content-Type": "text/html"}).url
    r = wf(*ALLOW, *urls[:2], html, *urls[2:])
    assert r.code == 0, r.stderr
    assert [line for line in r.stdout.splitlines() if line.startswith("document ")] == [
        f"document {n} text" for n in range(5)
    ]
    assert "an html page between" in r.stdout


def test_json_has_pages_metadata_and_outline(wf, serve):
    body = pdfmake.make_pdf(
        [["Intro text"], ["Methods text"], ["Results text"]],
        info={
            "Title": "A Report on Things",
            "Author": "Ada Lovelace",
            "Subject": "Things",
            "Producer": "pdfmake",
            "CreationDate": "D:20240102030405+01'00'",
            "ModDate": "D:20250607080910Z",
        },
        outline=[("Introduction", 0), ("Results", 2)],
    )
    r = wf(*ALLOW, "--json", served(serve, body).url)
    assert r.code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["pages"] == 3 and data["content_type"] == "application/pdf"
    assert data["title"] == "A Report on Things"
    m = data["metadata"]
    assert (m["title"], m["author"], m["subject"], m["producer"]) == (
        "A Report on Things",
        "Ada Lovelace",
        "Things",
        "pdfmake",
    )
    assert m["date"] == "2024-01-02T03:04:05+01:00" and m["modified"] == "2025-06-07T08:09:10+00:00"
    # The HTML metadata's keys are all there, in the same order, then the PDF's own.
    from wf.extract.metadata import KEYS

    assert list(m)[: len(KEYS)] == list(KEYS) and list(m)[len(KEYS) :] == ["subject", "producer"]
    assert data["outline"] == [
        {"title": "Introduction", "page": 1, "level": 0},
        {"title": "Results", "page": 3, "level": 0},
    ]
    assert "--- page 3 ---\nResults text" in data["text"]


def test_meta_header_from_the_document_information(wf, serve):
    body = pdfmake.make_pdf([["Body"]], info={"Title": "Paper", "Author": "Grace Hopper"})
    r = wf(*ALLOW, "--meta", served(serve, body).url)
    assert r.code == 0 and r.stdout.startswith("Title: Paper\nAuthor: Grace Hopper\nURL: ")


def test_xmp_fills_what_the_information_dictionary_lacks(wf, serve):
    xmp = pdfmake.xmp_packet("Only in XMP", "Alan Turing", "2023-03-04T05:06:07Z")
    r = wf(*ALLOW, "--json", served(serve, pdfmake.make_pdf([["x"]], xmp=xmp)).url)
    m = json.loads(r.stdout)["metadata"]
    assert (m["title"], m["author"], m["date"], m["producer"]) == (
        "Only in XMP",
        "Alan Turing",
        "2023-03-04T05:06:07+00:00",
        "pdfmake",
    )


def test_html_json_has_null_pdf_keys(wf, serve):
    r = wf(*ALLOW, "--json", served(serve, b"<p>hi</p>", {"Content-Type": "text/html"}).url)
    data = json.loads(r.stdout)
    assert data["pages"] is None and data["outline"] is None
    assert "subject" not in data["metadata"]


@pytest.mark.parametrize(
    ("spec", "pages"),
    [("2", [2]), ("2-3", [2, 3]), ("3-", [3, 4]), ("-2", [1, 2]), ("1,3-4", [1, 3, 4])],
)
def test_pages_selects_before_the_pipeline(wf, serve, spec, pages):
    body = pdfmake.make_pdf([[f"text of page {n}"] for n in range(1, 5)])
    r = wf(*ALLOW, "--pages", spec, served(serve, body).url)
    assert r.code == 0, r.stderr
    assert [int(n) for n in re.findall(r"^--- page (\d+) ---$", r.stdout, re.M)] == pages
    assert all(f"text of page {n}" in r.stdout for n in pages)


@pytest.mark.parametrize("spec", ["0", "3-1", "a", "", "1,,2", "-", "2-x", "1.5", "0-3"])
def test_bad_pages_value_is_exit_2(wf, spec):
    r = wf("--pages", spec, "http://127.0.0.1:9/")
    assert_one_line_error(r, 2, "--pages")


def test_pages_past_the_end_says_so(wf, serve):
    r = wf(*ALLOW, "--pages", "9-", served(serve, two_pages()).url)
    assert r.code == 0 and r.stdout == ""
    assert "only 2 page(s)" in r.stderr


def test_filter_never_matches_the_page_separator(wf, serve):
    url = served(serve, two_pages()).url
    r = wf(*ALLOW, "--filter", "page", url)
    assert (
        r.code == 0
        and r.stdout
        == "First page text\nA PDF's text goes through the same line pipeline as a page's.\nSecond page text\n"
    )
    # --exclude never drops a separator either: the pages stay delimited.
    r = wf(*ALLOW, "--exclude", "page", url)
    assert r.stdout.count("--- page ") == 2 and "First page text" not in r.stdout


def test_a_page_line_that_looks_like_a_separator_is_escaped(wf, serve):
    body = pdfmake.make_pdf([["--- page 7 ---", "real text"]])
    r = wf(*ALLOW, served(serve, body).url)
    assert r.stdout == "--- page 1 ---\n\\--- page 7 ---\nreal text\n"
    assert wf(*ALLOW, "--filter", "page 7", served(serve, body).url).stdout == "\\--- page 7 ---\n"


def test_from_to_and_max_length_apply_to_pdf_text(wf, serve):
    url = served(serve, two_pages()).url
    r = wf(*ALLOW, "--from", "2", "--to", "3", url)
    assert r.stdout == "First page text\n" + LOREM[0] + "\n"
    r = wf(*ALLOW, "--max-length", "40", url)
    assert r.stdout.startswith("--- page 1 ---\nFirst page text\n")
    assert "\n[wf: output truncated at 40 of " in r.stdout and "Second page" not in r.stdout


def test_big_pdf_is_auto_saved_like_a_big_page(wf, serve, scratch):
    body = pdfmake.make_pdf([[f"line {i} of page {p} " * 3 for i in range(40)] for p in range(12)])
    r = wf(*ALLOW, served(serve, body).url)
    assert r.code == 0 and "page too large to inline" in r.stdout
    saved = saved_files(scratch)
    assert len(saved) == 1 and "--- page 12 ---" in saved[0].read_text()


def test_hyphenation_at_line_ends(wf, serve):
    body = pdfmake.make_pdf(
        [
            [
                "This is an exam-",
                "ple of a broken word, a Schwarz-",
                "Weiß compound and 1990-",
                "2000.",
            ]
        ]
    )
    out = wf(*ALLOW, served(serve, body).url).stdout
    assert "an example of a broken word" in out
    assert "a Schwarz-Weiß compound" in out and "1990-" in out


def test_running_headers_and_footers_are_dropped_unless_full(wf, serve):
    pages = [
        [
            "ACME Quarterly Report",
            f"Section {n} body text that is unique {n * 7}.",
            f"Page {n} of 5",
        ]
        for n in range(1, 6)
    ]
    url = served(serve, pdfmake.make_pdf(pages)).url
    out = wf(*ALLOW, url).stdout
    assert "ACME Quarterly Report" not in out and "of 5" not in out
    assert all(f"Section {n} body text" in out for n in range(1, 6))
    full = wf(*ALLOW, "--full", url).stdout
    assert full.count("ACME Quarterly Report") == 5 and "Page 3 of 5" in full


def test_no_text_layer_prints_nothing_with_a_note(wf, serve):
    body = pdfmake.make_pdf([b"0 0 1 rg 72 72 400 600 re f", b"0 0 0 rg 10 10 50 50 re f"])
    r = wf(*ALLOW, served(serve, body).url)
    assert r.code == 0 and r.stdout == ""
    notes = note_lines(r.stderr)
    assert len(notes) == 1 and "no text layer" in notes[0]
    data = json.loads(wf(*ALLOW, "--json", served(serve, body).url).stdout)
    assert data["text"] == "" and data["pages"] == 2
    assert any("no text layer" in n for n in data["notes"])


def test_encrypted_with_a_user_password_is_exit_71(wf, serve):
    body = pdfmake.make_pdf([["Secret text"]], user_password="secret")
    r = wf(*ALLOW, served(serve, body).url)
    assert_one_line_error(r, 71, "encrypted")
    j = wf(*ALLOW, "--json", served(serve, body).url)
    assert j.code == 71 and json.loads(j.stdout)["error"]["kind"] == "unreadable"


def test_encrypted_with_an_empty_user_password_is_read(wf, serve):
    body = pdfmake.make_pdf([["Open text"]], user_password="", info={"Title": "Locked lightly"})
    r = wf(*ALLOW, "--json", served(serve, body).url)
    assert r.code == 0, r.stderr
    data = json.loads(r.stdout)
    assert "Open text" in data["text"] and data["metadata"]["title"] == "Locked lightly"


def test_shared_password_fixture_is_exit_71(wf):
    path = (
        SHARED
        / "fixtures"
        / "pdf"
        / "005-libreoffice-writer-password"
        / "libreoffice-writer-password.pdf"
    )
    if not path.exists():
        pytest.skip(f"{path} is absent")
    assert_one_line_error(wf("--input", path), 71, "encrypted")


SHARED_PDF = SHARED / "fixtures" / "pdf"
UNREADABLE = {"libreoffice-writer-password.pdf", "unreadablemetadata.pdf"}  # encrypted, cut
IMAGE_ONLY = {"007-imagemagick-images", "019-grayscale-image", "023-cmyk-image"}


def test_every_pdf_of_the_shared_set(wf):
    if not SHARED_PDF.is_dir():
        pytest.skip(f"{SHARED_PDF} is absent")
    for path in sorted(SHARED_PDF.glob("*/*.pdf")):
        r = wf("--input", path, "--json", "--no-save", "--max-length", "0")
        data = json.loads(r.stdout)
        if path.name in UNREADABLE:
            assert r.code == 71 and data["error"]["kind"] == "unreadable", path
            continue
        assert r.code == 0 and data["pages"] >= 1, (path, r.stderr)
        if path.parent.name in IMAGE_ONLY:
            assert data["text"] == "" and any("no text layer" in n for n in data["notes"]), path
        else:
            assert data["text"].startswith("--- page 1 ---"), path
    thesis = json.loads(
        wf(
            "--input", SHARED_PDF / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf", "--json"
        ).stdout
    )
    assert thesis["pages"] == 117 and thesis["metadata"]["title"] == "Geometrie und Topologie"
    assert thesis["outline"][0] == {"title": "1 Topologische Grundbegriffe", "page": 6, "level": 0}
    xmp = json.loads(
        wf("--input", SHARED_PDF / "020-xmp" / "output_with_metadata_pymupdf.pdf", "--json").stdout
    )
    assert xmp["metadata"]["author"] == "John Doe"


def test_damaged_page_prints_the_others_with_a_note(wf, serve):
    good = pdfmake.make_pdf([["good one"], ["good two"], ["good three"]])
    bad = good.replace(b"/Type /Page /Parent", b"/Type /Pxge /Parent", 1)
    r = wf(*ALLOW, served(serve, bad).url)
    assert r.code == 0
    assert "good two" in r.stdout and "good three" in r.stdout and "good one" not in r.stdout
    notes = note_lines(r.stderr)
    assert len(notes) == 1 and "1 page(s) could not be read (1)" in notes[0]


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.95])
def test_truncated_pdf_is_exit_71_not_a_crash(wf, serve, cut):
    body = two_pages()
    r = wf(*ALLOW, served(serve, body[: int(len(body) * cut)]).url)
    assert_one_line_error(r, 71, "damaged")


def test_no_readable_page_is_exit_71(wf, serve):
    r = wf(*ALLOW, served(serve, pdfmake.page_tree_loop()).url)
    assert_one_line_error(r, 71, "no page could be read")


def test_page_bomb_is_capped_by_wf_pdf_max_pages(wf, serve):
    body = pdfmake.page_bomb()  # 216 000 pages in a few kilobytes
    start = time.monotonic()
    r = wf(*ALLOW, "--json", served(serve, body).url, env={"WF_PDF_MAX_PAGES": "50"})
    assert r.code == 0 and time.monotonic() - start < 20
    data = json.loads(r.stdout)
    assert data["pages"] == 216000 and data["text"].count("--- page ") <= 50
    assert any("read the first 50 only (WF_PDF_MAX_PAGES)" in n for n in data["notes"])
    r = wf(*ALLOW, "--pages", "40-", served(serve, body).url, env={"WF_PDF_MAX_PAGES": "50"})
    assert r.code == 0 and r.stdout.count("--- page ") == 11
    assert "215950 selected page(s) left out" in r.stderr


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_bad_wf_pdf_max_pages_is_exit_2(wf, value):
    r = wf("http://127.0.0.1:9/", env={"WF_PDF_MAX_PAGES": value})
    assert_one_line_error(r, 2, "WF_PDF_MAX_PAGES")


def _run_patched(tmp_path: Path, body: bytes, patch: str) -> subprocess.CompletedProcess[str]:
    """wf --input in a fresh interpreter, after ``patch`` (Python) has run: a fresh
    process, so that what the reader child inherits is a small heap, as in real runs."""
    path = tmp_path / "doc.pdf"
    path.write_bytes(body)
    code = (
        f"import sys\n{patch}\nfrom wf.cli import main\n"
        f"sys.argv = ['wf', '--input', {str(path)!r}]\nmain()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(WF_WS_NO_BACKSTOP="1"),
    )


def test_reader_out_of_memory_is_a_clean_failure(tmp_path):
    # The reader's address space capped below what it has at the fork: its next
    # allocation fails, in the child, and wf says so instead of dying.
    patch = "import wf.pdf.read as reader; reader.MEMORY_BYTES = -(1 << 40)"
    # Pages dense enough (PDFium keeps about a hundred bytes per character of a text page)
    # that what the heap has free cannot hold them all.
    dense = [[f"line {n} " + "text " * 20 for n in range(60)] for _ in range(40)]
    run = _run_patched(tmp_path, pdfmake.make_pdf(dense), patch)
    assert run.stderr.count("\n") == 1 and "out of memory" in run.stderr, run.stderr
    if run.returncode == 71:  # the first allocation past the heap's slack came early
        assert run.stdout == "" and run.stderr.startswith("wf: (71) document cannot be read: ")
    else:  # some pages fitted in what the heap had free: they are printed, with a note
        assert run.returncode == 0 and run.stdout.startswith("--- page 1 ---")
        assert run.stderr.startswith("wf: note: ") and "not read" in run.stderr
        assert "--- page 40 ---" not in run.stdout


def test_deadline_holds_while_pdfium_works(serve):
    # Reading 216 000 pages takes PDFium far longer than one second.
    srv = served(serve, pdfmake.page_bomb())
    env = subprocess_env(WF_PDF_MAX_PAGES="1000000")
    r = proc.run(["wf", *ALLOW, "--timeout", "1", srv.url], env=env)
    assert r.code == 28 and r.elapsed < 2.5, (r.code, r.elapsed, r.stderr)
    assert r.stderr.startswith("wf: (28) ") and not r.leftovers


def test_reader_is_stopped_at_the_deadline_in_process(wf, serve):
    # In process there is no supervisor: the reader's own wait ends at the deadline.
    url = served(serve, pdfmake.page_bomb()).url
    start = time.monotonic()
    r = wf(*ALLOW, "--timeout", "1", url, env={"WF_PDF_MAX_PAGES": "1000000"})
    assert_one_line_error(r, 28, "reading the PDF")
    assert time.monotonic() - start < 2


def test_sigterm_holds_while_pdfium_works(serve):
    srv = served(serve, pdfmake.page_bomb())
    env = subprocess_env(WF_PDF_MAX_PAGES="1000000")

    def term(p):  # type: ignore[no-untyped-def]
        time.sleep(0.8)
        p.send_signal(signal.SIGTERM)

    r = proc.run(["wf", *ALLOW, srv.url], env=env, started=term)
    assert r.code == 143 and r.elapsed < 3, (r.code, r.elapsed, r.stderr)
    assert not r.leftovers


# ------------------------------------------------------------------ the kept reader


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """wf.pdf.read with no kept reader alive before the test (one forked after the test's
    patches) and none after it (a patched one must not serve later tests)."""
    from wf.pdf import read as reader

    reader.close_readers()
    yield reader
    monkeypatch.undo()
    reader.close_readers()


def _read_one(reader, body: bytes, deadline: float = 10):  # type: ignore[no-untyped-def]
    got = reader.read(body, None, max_pages=100, deadline=time.monotonic() + deadline)
    return got, reader._local.reader


def _reaped(pid: int) -> bool:
    """True once ``pid`` has ended and been reaped (a zombie still has its /proc entry)."""
    return not os.path.exists(f"/proc/{pid}")


def test_kept_reader_serves_small_documents_and_a_crash_costs_one(kept, monkeypatch):
    real = kept.read_part

    def crashing(body: bytes, *args) -> None:  # type: ignore[no-untyped-def]
        if body.endswith(b"%crash\n"):  # PDFium would stop a reader the same way
            os.abort()
        real(body, *args)

    monkeypatch.setattr(kept, "read_part", crashing)
    docs = [pdfmake.make_pdf([[f"document {n} text"]]) for n in range(3)]
    first, reader = _read_one(kept, docs[0])
    second, again = _read_one(kept, docs[1])
    assert [first.pages, second.pages] == [[(1, "document 0 text")], [(1, "document 1 text")]]
    assert again is reader  # one fork for both
    crashed, gone = _read_one(kept, docs[2] + b"%crash\n")
    assert gone is None and crashed.pages == [] and "SIGABRT" in (crashed.stopped or "")
    assert _reaped(reader.pid)
    after, fresh = _read_one(kept, docs[2])
    assert after.pages == [(1, "document 2 text")] and after.stopped is None
    assert fresh is not None and fresh.pid != reader.pid


def test_kept_reader_is_replaced_after_its_documents(kept, monkeypatch):
    monkeypatch.setattr(kept, "KEPT_DOCUMENTS", 2)
    pids = []
    for n in range(5):
        got, reader = _read_one(kept, pdfmake.make_pdf([[f"document {n} text"]]))
        assert got.pages == [(1, f"document {n} text")] and got.stopped is None
        pids.append(reader.pid)
    assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4]
    assert _reaped(pids[0]) and _reaped(pids[2])


def test_kept_reader_is_replaced_when_it_has_grown(kept, monkeypatch):
    monkeypatch.setattr(kept, "KEPT_GROWTH", -1)  # every document counts as too much
    pids = []
    for n in range(2):
        got, reader = _read_one(kept, pdfmake.make_pdf([[f"document {n} text"]]))
        assert got.pages == [(1, f"document {n} text")] and got.stopped is None
        pids.append(reader.pid)
    assert pids[0] != pids[1] and _reaped(pids[0])


def test_kept_reader_killed_at_the_deadline_then_replaced(kept):
    bomb = pdfmake.page_bomb()
    assert len(bomb) < kept.SHARE_BYTES  # the kept reader's case
    start = time.monotonic()
    with pytest.raises(Timeout):
        kept.read(bomb, None, max_pages=1_000_000, deadline=time.monotonic() + 0.5)
    assert time.monotonic() - start < 1.5 and kept._local.reader is None
    assert not any(reader.status is None for reader in kept._KEPT)  # killed and reaped
    got, _ = _read_one(kept, two_pages())
    assert [n for n, _ in got.pages] == [1, 2]


def test_a_thread_s_kept_reader_ends_with_the_thread(kept):
    pids = []

    def work() -> None:
        pids.append(_read_one(kept, two_pages())[1].pid)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    end = time.monotonic() + 5
    while not _reaped(pids[0]) and time.monotonic() < end:
        gc.collect()
        time.sleep(0.01)
    assert _reaped(pids[0])


def test_a_reader_forked_in_another_thread_leaves_this_thread_s_alone(kept):
    # A fork copies every thread's kept reader object; the copies are torn down in the new
    # child, and must not end the readers they are copies of.
    mine = _read_one(kept, two_pages())[1].pid  # no reference kept: the fork's copy is freed
    other = threading.Thread(target=_read_one, args=(kept, two_pages()))
    other.start()
    other.join()
    got, again = _read_one(kept, two_pages())
    assert again.pid == mine and got.stopped is None and [n for n, _ in got.pages] == [1, 2]


def test_a_finished_wf_leaves_no_reader(tmp_path):
    # At exit, before the main thread ends (which PR_SET_PDEATHSIG waits for), the kept
    # reader is already reaped: wf's exit waits for no process of its own.
    patch = (
        "import atexit, glob\n"
        "atexit.register(lambda: print('children:', sum(len(open(f).read().split())"
        " for f in glob.glob('/proc/self/task/*/children'))))"
    )
    run = _run_patched(tmp_path, two_pages(), patch)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("--- page 1 ---") and run.stdout.endswith("children: 0\n")
    path = tmp_path / "doc.pdf"
    r = proc.run(["wf", "--input", str(path)])
    assert r.code == 0 and r.stdout.startswith(b"--- page 1 ---"), r.stderr
    assert not r.leftovers


def test_pdf_path_imports_no_lxml(tmp_path):
    patch = (
        "import atexit\n"
        "atexit.register(lambda: print('lxml' in sys.modules, 'pypdfium2' in sys.modules))"
    )
    run = _run_patched(tmp_path, two_pages(), patch)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("--- page 1 ---") and run.stdout.endswith("False True\n")


# ------------------------------------------------------------------ seeded corpus

SEED = 15


def _mutants(count: int) -> list[tuple[str, bytes]]:
    rng = random.Random(SEED)
    base = pdfmake.make_pdf(
        [[f"page {n} " + " ".join(LOREM)] for n in range(6)],
        info={"Title": "fuzz"},
        outline=[("a", 0), ("b", 3)],
    )
    out: list[tuple[str, bytes]] = []
    for i in range(count):
        data = bytearray(base)
        kind = i % 5
        if kind == 0:
            data = data[: rng.randrange(len(data))]
        elif kind == 1:
            for _ in range(rng.randrange(1, 40)):
                data[rng.randrange(16, len(data))] = rng.randrange(256)
        elif kind == 2:  # a bad xref table: offsets shifted
            at = data.rfind(b"xref")
            for _ in range(6):
                k = rng.randrange(at, len(data))
                if chr(data[k]).isdigit():
                    data[k] = ord(rng.choice("0123456789"))
        elif kind == 3:  # huge or negative page dimensions
            data = bytearray(
                bytes(data).replace(
                    b"/MediaBox [0 0 612 792]",
                    rng.choice([b"/MediaBox [0 0 1e30 1e30]", b"/MediaBox [0 0 -5 99999999]"]),
                    rng.randrange(1, 4),
                )
            )
        else:  # a self-referencing page tree, or a chunk of the file repeated
            if rng.random() < 0.5:
                data = bytearray(pdfmake.page_tree_loop())
            else:
                k = rng.randrange(len(data) - 200)
                data[k:k] = data[k : k + 200] * rng.randrange(2, 50)
        out.append((f"case{i}-kind{kind}", bytes(data)))
    return out


# The seeded files of which PDFium reads no page: the truncated ones (it cannot open
# them) and a self-referencing page tree. man/wf.1 (PDF, "Failures") gives each of the
# others one code too: "a file damaged so that no page can be read" exits 71, while
# "pages that cannot be read are left out with a note naming them, and the others are
# printed" (exit 0).
UNREADABLE_SEEDS = {
    "case0-kind0",
    "case4-kind4",
    "case5-kind0",
    "case10-kind0",
    "case14-kind4",
    "case15-kind0",
    "case16-kind1",
    "case19-kind4",
    "case20-kind0",
    "case24-kind4",
    "case25-kind0",
    "case29-kind4",
}


@pytest.mark.parametrize(
    ("name", "body"), _mutants(30), ids=lambda v: v if isinstance(v, str) else ""
)
def test_malformed_pdfs_never_exit_1_or_overrun(wf, tmp_path: Path, name, body):
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(body)
    start = time.monotonic()
    r = wf("--timeout", "5", "--input", path)
    if name in UNREADABLE_SEEDS:
        assert (r.code, r.stdout) == (71, ""), (r.code, r.stderr)
        assert r.stderr.startswith("wf: (71) document cannot be read: the PDF is damaged ("), (
            r.stderr
        )
    else:
        assert r.code == 0 and r.stdout.startswith("--- page "), (r.code, r.stderr)
    assert time.monotonic() - start < 6
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == len(r.stderr.splitlines())


# ------------------------------------------------------------------ the parts alone


def test_parse_pages_forms():
    assert parse_pages("3").select(10) == [2]
    assert parse_pages("3-5").select(10) == [2, 3, 4]
    assert parse_pages("8-").select(10) == [7, 8, 9]
    assert parse_pages("-2").select(10) == [0, 1]
    assert parse_pages("1,4-6, 5").select(10) == [0, 3, 4, 5]
    assert parse_pages("4-20").select(6) == [3, 4, 5]
    # Counted without listing: a page tree may claim more pages than memory holds.
    assert parse_pages("1-3,2-8,10-").size(10**9) == 8 + 10**9 - 9
    assert all(
        parse_pages(spec).size(n) == len(parse_pages(spec).select(n))
        for spec in ("3", "2-", "-4", "1,4-6,5", "5-2000", "1-3,2-8,10-")
        for n in range(0, 25)
    )


def test_ligatures_are_expanded():
    text = "\ufb01nd \ufb02at \ufb00ect \ufb03ce \ufb04e \ufb05op \ufb06ep"
    assert clean.page_lines(text) == "find flat ffect ffice ffle stop step"


def test_pdfium_joined_hyphens_resolved():
    text = "an exam\x02ple, Schwarz\x02Weiß, 1990\x022000, unterschiedli\ufffechem\r\nnext"
    assert clean.page_lines(text) == "an example, Schwarz-Weiß, 1990-2000, unterschiedlichem\nnext"


def test_line_end_hyphen_joined_only_when_the_word_continues():
    assert clean.page_lines("exam-\r\nple") == "example"
    assert clean.page_lines("Anglo-\r\nSaxon") == "Anglo-\nSaxon"
    assert clean.page_lines("pages 10-\r\n12") == "pages 10-\n12"


def test_running_lines_need_most_pages():
    pages = [f"Header\nbody {n}\n{n}" for n in range(1, 7)]
    kept, dropped = clean.drop_running(pages)
    assert kept == [f"body {n}" for n in range(1, 7)] and dropped == 12
    # On two pages of six a line is not running.
    pages = [("Rare\n" if n < 2 else "") + f"body {n}" for n in range(6)]
    assert clean.drop_running(pages)[1] == 0
    # Too few pages to tell.
    assert clean.drop_running(["Header\na", "Header\nb"])[1] == 0


def test_alternating_book_headers_are_dropped():
    pages = [("Left Title" if n % 2 else "Right Title") + f"\ntext {n}\n{n}" for n in range(8)]
    kept, _ = clean.drop_running(pages)
    assert kept == [f"text {n}" for n in range(8)]


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("D:20161231184323+01'00'", "2016-12-31T18:43:23+01:00"),
        ("D:20230623063933Z", "2023-06-23T06:39:33+00:00"),
        ("D:2023", "2023"),
        ("D:202306", "2023-06"),
        ("20230623", "2023-06-23"),
        ("D:20231301000000", None),
        ("yesterday", None),
        ("2023-03-04T05:06:07.5-02:00", "2023-03-04T05:06:07-02:00"),
        ("", None),
    ],
)
def test_dates_to_iso_8601(raw, iso):
    assert meta.iso_date(raw) == iso


def test_undecodable_values_are_null():
    assert meta.clean_value("caf\ufffd") is None
    assert meta.clean_value("a\x01b") is None
    assert meta.clean_value("  ") is None
    assert meta.clean_value("Fine title") == "Fine title"


def test_raw_saves_the_pdf_instead_of_reading_it(wf, serve, scratch):
    body = two_pages()
    r = wf(*ALLOW, "--raw", served(serve, body).url)
    saved = saved_files(scratch)
    assert r.code == 0 and len(saved) == 1 and saved[0].read_bytes() == body
    assert r.stdout.startswith("[wf: binary content (application/pdf, ")
