"""CPU work after the bytes arrive: the pre-parse limits (common/parse_limits.py) and the
hard backstop behind them (common/watchdog.py).

One element with tens of thousands of attributes costs libxml2 time quadratic in their
number, in C, where no Python deadline or signal handler runs. With the limits on, such
a page is cut before the parse and its text printed with a note; with them off
(WF_WS_NO_PARSE_LIMITS=1, a setting for these tests only) the same page is the stand-in for
the next slow path nobody has found yet, and the supervisor must end it: exit 28 at the
deadline, 143 or 130 within a second of a signal, never a worker left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from common.parse_limits import COUNTED_FROM, MAX_ATTRIBUTES
from tests.helpers import ALLOW, ENGINE_VARIABLES, Asks, subprocess_env
from tests.hostile import proc
from tests.servers import respond

HTML = {"Content-Type": "text/html; charset=utf-8"}
NO_LIMITS = {"WF_WS_NO_PARSE_LIMITS": "1"}


def attribute_page(n: int) -> bytes:
    attrs = " ".join(f"a{i}=1" for i in range(n))
    return f"<html><body><p {attrs}>hello from the page</p></body></html>".encode()


def _workers(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("n", [40_000, 100_000])
def test_many_attributes_are_cut_before_the_parse(serve, figures, idle_kb, n):
    srv = serve(respond(200, attribute_page(n), HTML))
    r = proc.run(["wf", *ALLOW, "--timeout", "3", "--json", srv.url], env=proc.env(), measure=True)
    figures.deadline_and_memory(3, r.elapsed, r.peak_kb, idle_kb)
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["text"] == "hello from the page"
    dropped = f"{n - 256} attributes dropped from 1 element"
    assert any(note.startswith(dropped) for note in doc["notes"]), doc["notes"]
    assert r.stderr.startswith(f"wf: note: {dropped}")


def test_the_backstop_ends_a_parse_the_limits_do_not_catch(serve, figures):
    srv = serve(respond(200, attribute_page(100_000), HTML))
    r = proc.run(["wf", *ALLOW, "--timeout", "2", srv.url], env=proc.env(**NO_LIMITS))
    figures.deadline(2, r.elapsed)
    assert r.code == 28, r.stderr
    assert r.stderr == (
        f"wf: (28) timed out: the work on {srv.url} ran past the total deadline and was stopped"
        " (raise --timeout, or --retry N for a server that stalls)\n"
    )
    assert r.stdout == b"" and not r.leftovers


def test_the_backstop_prints_the_json_error_document(serve, figures):
    srv = serve(respond(200, attribute_page(100_000), HTML))
    r = proc.run(["wf", *ALLOW, "--timeout", "1", "--json", srv.url], env=proc.env(**NO_LIMITS))
    figures.deadline(1, r.elapsed)
    assert r.code == 28, r.stderr
    doc = json.loads(r.stdout)
    assert doc["url"] == srv.url and doc["error"]["code"] == 28 and doc["text"] == ""


def test_the_backstop_holds_for_ws_too(serve, figures):
    srv = serve(respond(200, attribute_page(100_000), HTML))
    env = proc.env(**NO_LIMITS, **{name: srv.url for name in ENGINE_VARIABLES})
    r = proc.run(
        ["ws", "--provider", "duckduckgo", "--timeout", "2", "--json", "anything"], env=env
    )
    figures.deadline(2, r.elapsed)
    assert r.code == 28, r.stderr
    # The run gives up on a parse that outlives the deadline (ws.chain._LATE) before the
    # backstop would kill it (when the parse holds the interpreter lock, the backstop
    # does): either way one 28 line, and the JSON document.
    last = r.stderr.splitlines()[-1]
    assert last.startswith("ws: (28) ") and last.endswith("(raise --timeout or WS_TIMEOUT)")
    assert "ran past the total deadline" in last or "timed out (duckduckgo)" in last, last
    assert json.loads(r.stdout)["query"] == "anything"


def test_a_results_page_of_many_attributes_is_cut_for_ws(serve, figures):
    srv = serve(respond(200, attribute_page(100_000), HTML))
    env = proc.env(**{name: srv.url for name in ENGINE_VARIABLES})
    r = proc.run(["ws", "--provider", "duckduckgo", "--timeout", "3", "anything"], env=env)
    figures.deadline(3, r.elapsed)
    # Cut, the page parses at once; it is simply no results page: parse_error (69).
    assert r.code == 69, r.stderr
    assert "duckduckgo: parse_error (HTTP 200 page with no results" in r.stderr
    assert "timed out" not in r.stderr


def _send_during_parse(sig: int, *, group: bool = False):
    def started(p: subprocess.Popen[bytes]) -> None:
        # The worker is the supervisor's only child; give it a second in the parse.
        proc.wait_for(lambda: _workers(p.pid))
        time.sleep(1.0)
        started.at = time.monotonic()  # type: ignore[attr-defined]
        (os.killpg if group else os.kill)(p.pid, sig)

    return started


@pytest.mark.parametrize(
    ("sig", "code", "group"),
    [(signal.SIGTERM, 143, False), (signal.SIGINT, 130, True), (signal.SIGINT, 130, False)],
    ids=["sigterm", "ctrl-c-to-the-group", "sigint-to-the-pid"],
)
def test_a_signal_ends_a_parse_in_c_within_a_second(tmp_path, figures, sig, code, group):
    page = tmp_path / "page.html"
    page.write_bytes(attribute_page(100_000))
    started = _send_during_parse(sig, group=group)
    r = proc.run(
        ["wf", "--input", str(page), "--timeout", "30"], env=proc.env(**NO_LIMITS), started=started
    )
    after = time.monotonic() - started.at  # type: ignore[attr-defined]
    figures.deadline(0, after)
    assert r.code == code, r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"wf: ({code}) ")
    assert not r.leftovers


def test_a_killed_supervisor_takes_its_worker_with_it(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(attribute_page(100_000))
    workers: list[int] = []

    def kill_supervisor(p: subprocess.Popen[bytes]) -> None:
        proc.wait_for(lambda: _workers(p.pid))
        workers.extend(_workers(p.pid))
        time.sleep(0.3)
        os.kill(p.pid, signal.SIGKILL)

    start = time.monotonic()
    r = proc.run(
        ["wf", "--input", str(page), "--timeout", "1"],
        env=proc.env(**NO_LIMITS),
        started=kill_supervisor,
    )
    assert r.code == -signal.SIGKILL
    # Orphaned, the worker still ends a second after the supervisor would have ended it.
    proc.wait_for(lambda: not any(_alive(w) for w in workers), seconds=5)
    assert workers and time.monotonic() - start < 1 + 0.5 + 1 + 1.5


def test_a_worker_killed_by_a_signal_takes_the_supervisor_down_the_same_way(tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(attribute_page(100_000))

    def kill_worker(p: subprocess.Popen[bytes]) -> None:
        proc.wait_for(lambda: _workers(p.pid))
        os.kill(_workers(p.pid)[0], signal.SIGKILL)

    r = proc.run(
        ["wf", "--input", str(page), "--timeout", "30"],
        env=proc.env(**NO_LIMITS),
        started=kill_worker,
    )
    assert r.code == -signal.SIGKILL and not r.leftovers


def test_the_exit_code_and_output_pass_through_the_supervisor(serve):
    srv = serve(respond(404, b"<p>gone</p>", HTML))
    r = proc.run(["wf", *ALLOW, srv.url], env=proc.env())
    assert r.code == 4 and r.stderr == f"wf: (4) HTTP 404 from {srv.url}\n"
    ok = serve(respond(200, b"<html><body><p>fine</p></body></html>", HTML))
    r = proc.run(["wf", *ALLOW, ok.url], env=proc.env())
    assert (r.code, r.stdout, r.stderr) == (0, b"fine\n", "")


def test_only_help_and_version_go_without_a_supervisor():
    from common.watchdog import needed

    assert not any(needed(a) for a in ([], ["--help"], ["-h"], ["--version"]))
    assert all(needed(a) for a in (["x"], ["--json", "x"], ["--help", "x"], ["-"]))


@pytest.mark.parametrize(
    "page",
    [
        # Every tag at the tag cap carries ten attributes: 1.5 million in all.
        b"<html><body>" + b"<b a0 a1 a2 a3 a4 a5 a6 a7 a8 a9>x</b>" * 150_000,
        # The same with values, which cost the parser twice as much memory.
        b"<html><body>" + b'<b a0="" a1="" a2="" a3="" a4="" a5="" a6="" a7="">x</b>' * 150_000,
        # Fewer attributes with long values.
        b"<html><body>" + (b'<b a="' + b"v" * 40 + b'" c="' + b"w" * 40 + b'">x</b>') * 120_000,
        # Just under the size from which attributes in all are counted: as many as fit.
        b"<html><body>" + (b"<i " + b" ".join(b"%x" % i for i in range(240)) + b">y</i>") * 1_100,
        b"<html><body>"
        + (b"<i " + b" ".join(b'%x=""' % i for i in range(150)) + b">y</i>") * 1_100,
        # Tags just under a kilobyte, which the per-element bound never looks at.
        b"<html><body>" + (b"<i " + b" ".join(b"a%d" % i for i in range(240)) + b">y</i>") * 8_000,
    ],
    ids=[
        "tags-at-the-cap",
        "valued-at-the-cap",
        "long-values",
        "bare-under-the-count",
        "valued-under-the-count",
        "one-kilobyte-tags",
    ],
)
def test_attributes_in_all_stay_within_memory(serve, figures, idle_kb, page):
    srv = serve(respond(200, page, HTML))
    r = proc.run(
        ["wf", *ALLOW, "--timeout", "10", "--json", "--max-bytes", "20M", srv.url],
        env=proc.env(),
        measure=True,
    )
    figures.deadline_and_memory(10, r.elapsed, r.peak_kb, idle_kb)
    assert r.code == 0, r.stderr
    notes = json.loads(r.stdout)["notes"]
    counted = len(page) > COUNTED_FROM
    assert counted == any(
        "attributes dropped" in n and f"{MAX_ATTRIBUTES} a page" in n for n in notes
    ), notes


# ---------------------------------------------------------------- the supervisor's late path

# A worker under the backstop with --json: its documents say which process built them.
_WORKER = """
import os, re, signal, sys, time
from common import watchdog
from common.run import error_line

def document(exc, what):
    return {"built_by": os.getpid(), "what": what, "error": exc.as_json()}

watchdog.install("wf", wants_json=True, json_error=document, error_line=error_line)
"""


def _python(code: str, **kw: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=subprocess_env(),
        **kw,  # type: ignore[call-overload]
    )


def test_the_deadline_document_is_built_by_the_worker_before_the_deadline():
    # Built by the supervisor after the deadline, the document cost the imports of the
    # CLI and the pipeline: up to 0.7 s past the kill on a loaded machine.
    p = _python(
        _WORKER
        + "watchdog.arm(time.monotonic() + 0.2, 'the page')\n"
        + "re.match(r'(a+)+$', 'a' * 40 + 'b')\n"
    )
    out, err = p.communicate(timeout=20)
    assert p.returncode == 28, err
    assert err.decode() == (
        "wf: (28) timed out: the work on the page ran past the total deadline and was stopped"
        " (raise --timeout, or --retry N for a server that stalls)\n"
    )
    doc = json.loads(out)
    assert doc["built_by"] != p.pid and doc["what"] == "the page"
    assert doc["error"] == {
        "code": 28,
        "kind": "timeout",
        "message": "timed out: the work on the page ran past the total deadline and was stopped",
    }


def test_a_signal_document_is_the_workers_with_the_signals_error(tmp_path):
    ready = tmp_path / "ready"
    p = _python(
        _WORKER
        + "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"  # stuck: the supervisor kills it
        + "watchdog.prepare()\n"
        + f"open({str(ready)!r}, 'w').close()\n"
        + "time.sleep(30)\n"
    )
    proc.wait_for(ready.exists)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=20)
    assert p.returncode == 143, err
    assert err.decode() == "wf: (143) terminated by SIGTERM\n"
    doc = json.loads(out)
    assert doc["built_by"] != p.pid and doc["what"] is None
    assert doc["error"]["code"] == 143 and doc["error"]["kind"] == "terminated"


def test_the_supervisors_late_copy_of_a_signal_writes_no_second_line():
    # A worker that handled Ctrl-C (sent to the group) and then gets the copy its
    # supervisor passes on, late on a loaded machine: still one line, exit 130.
    code = _WORKER + (
        "import click\n"
        "from common.run import main_exit, run_cli\n"
        "@click.command()\n"
        "def command():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "status = run_cli('wf', command, [])\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "time.sleep(0.2)\n"
        "main_exit(status)\n"
    )
    p = _python(code)
    out, err = p.communicate(timeout=20)
    assert p.returncode == 130, err
    assert err.decode() == "wf: (130) interrupted\n" and out == b""


def test_a_page_deadline_after_the_first_costs_no_message():
    # Each page of a run arms and disarms a deadline: in shared memory, after the
    # slot's first use, with no line on the pipe and no signal to the supervisor.
    p = _python(
        _WORKER
        + "sent = []\n"
        + "real = watchdog._send\n"
        + "watchdog._send = lambda w, m: (sent.append(m), real(w, m))\n"
        + "for n in range(50):\n"
        + "    with watchdog.deadline(time.monotonic() + 5, f'page {n}'):\n"
        + "        pass\n"
        + "print(len(sent))\n"
    )
    out, err = p.communicate(timeout=20)
    assert p.returncode == 0, err
    assert out == b"1\n"


@pytest.mark.parametrize("json_error", [True, False])
def test_a_slot_cleared_then_set_again_is_enforced(json_error):
    # The first page ends in time and its slot is cleared; the supervisor, told of the
    # slot once, must still see the second page's deadline, set without a word.
    worker = _WORKER if json_error else _WORKER.replace("wants_json=True", "wants_json=False")
    p = _python(
        worker
        + "with watchdog.deadline(time.monotonic() + 0.3, 'the first page'):\n"
        + "    pass\n"
        + "time.sleep(1.0)\n"  # past the first deadline and its grace: no kill
        + "watchdog.arm(time.monotonic() + 0.3, 'the second page')\n"
        + "re.match(r'(a+)+$', 'a' * 40 + 'b')\n"
    )
    out, err = p.communicate(timeout=20)
    assert p.returncode == 28, err
    assert err.decode().startswith(
        "wf: (28) timed out: the work on the second page ran past the total deadline"
    )
    if json_error:
        doc = json.loads(out)
        assert doc["built_by"] != p.pid and doc["what"] == "the second page"
    else:
        assert out == b""


# ---------------------------------------------------------------- the limits and the deadline

# 1.3 MB: a script, then a tag of 1 100 attributes, 600 times (over COUNTED_FROM, so every
# tag is read). The limits' scan of such a page took a second at 10 MB, unasked.
SCRIPTED_TAGS = (
    b"<html><body><p>first words</p>" + (b"<script>x</script><p " + b"a " * 1100 + b">t</p>") * 600
)
# One tag of 300 000 attributes (2.7 MB): read in one piece, it took half a second at 10 MB.
ONE_TAG = (
    b"<html><body><p>first words</p><p "
    + b" ".join(b"a%d=1" % i for i in range(300_000))
    + b">t</p>"
)


@pytest.mark.parametrize(
    ("page", "unit"),
    [(SCRIPTED_TAGS, bytes), (SCRIPTED_TAGS, str), (ONE_TAG, bytes), (ONE_TAG, str)],
    ids=["tags-bytes", "tags-str", "one-tag-bytes", "one-tag-str"],
)
def test_the_limits_stop_at_the_first_ask_past_the_deadline(page, unit):
    from common.parse_limits import limit

    text = page if unit is bytes else page.decode()
    late = Asks(from_ask=1)
    out, cut = limit(text, late=late)
    assert late.asks == 1
    assert text.startswith(out) and 0 <= cut.read == len(out) < len(text) and cut.size == len(text)
    assert (cut.elements, cut.attributes) == (0, 0)  # nothing read past the ask
    assert cut.notes() == [
        "out of time while the page was checked before its parse: text extracted from the "
        f"first {len(out)} of its {len(text)} {'bytes' if unit is bytes else 'characters'}"
    ]


def test_the_out_of_time_note_gives_the_page_s_size_when_its_start_tags_were_cut_first(
    monkeypatch,
):
    """A page over MAX_START_TAGS is cut before its attributes are scanned: the note of
    the deadline says how much of the page was read, of the whole page's size (it gave
    the size left after the start tags' cut as the page's)."""
    from common import tag_counts
    from common.parse_limits import MAX_START_TAGS, limit

    # The counts ask too (after each ASK_EVERY read): here only the attribute scan does.
    monkeypatch.setattr(tag_counts, "ASK_EVERY", 1 << 30)

    tag = b"<i a=1 b=2 c=3 d=4>x</i>"  # 24 bytes: over COUNTED_FROM after the cut too
    page = b"<html><body><p>first words</p>" + tag * (MAX_START_TAGS + 10_000)
    out, cut = limit(page, late=Asks(from_ask=1))
    assert cut.start_tags > MAX_START_TAGS and (cut.read, cut.size) == (0, len(page))
    assert cut.notes()[0] == (
        "out of time while the page was checked before its parse: text extracted from the "
        f"first 0 of its {len(page)} bytes"
    )


@pytest.mark.parametrize("page", [SCRIPTED_TAGS, ONE_TAG], ids=["tags", "one-tag"])
def test_the_limits_ask_between_stretches_and_cut_the_same_when_in_time(page):
    from common.parse_limits import MAX_ATTRIBUTES_PER_ELEMENT, limit

    late = Asks()
    assert limit(page, late=late) == limit(page)
    # Asked after every 64 KB of the page or 8 192 attributes of one tag at the least.
    assert late.asks >= min(len(page) // 65_536, page.count(b"=") // 8192)
    late_cut = limit(page, late=Asks(from_ask=3))[0]
    assert page.startswith(late_cut[: late_cut.find(b"<p a")])  # a prefix up to its cut
    assert all(t.count(b" ") <= MAX_ATTRIBUTES_PER_ELEMENT for t in late_cut.split(b"<")[1:])


def test_an_extraction_past_its_deadline_stops_in_the_limits():
    from wf.extract import extract

    r = extract(SCRIPTED_TAGS, deadline=time.monotonic() - 1)
    # Asked once its attributes are counted, before any tag is read: cut there, and the
    # rest read as the extraction reads a page past its deadline (no failure note).
    assert r.text == ""
    assert r.notes == [
        "out of time while the page was checked before its parse: text extracted from the "
        f"first 0 of its {len(SCRIPTED_TAGS)} bytes"
    ]
    in_time = extract(SCRIPTED_TAGS, deadline=time.monotonic() + 60)
    assert in_time.text.startswith("first words\n") and len(in_time.notes) == 1
    assert in_time.notes[0].startswith("560000 attributes dropped from 600 elements")


def test_a_results_page_stops_in_the_limits_when_the_run_ends_the_attempt():
    from ws.backends.base import Stopped, stop_when
    from ws.backends.html import parse_html

    asks = Asks(from_ask=2)  # the check before the limits passes; the limits' first ask ends
    with stop_when(asks), pytest.raises(Stopped):
        parse_html(SCRIPTED_TAGS)
    assert asks.asks == 3  # check_stop, the limits' one ask, check_stop after them


# ---------------------------------------------------------------- the text of a page out of time


class _Nodes:
    """A body that is only its text nodes (quick_text reads no more of it)."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def itertext(self):  # type: ignore[no-untyped-def]
        return iter(self.texts)


def _quick_text_as_specified(texts: list[str]) -> str:
    # One line per text node, runs of [ \t\n\r\f] one space, no space at a line's ends.
    import re

    text = re.sub(r"[ \t\n\r\f]+", " ", "\x00".join(texts))
    return re.sub(r"(?: ?\x00)+ ?", "\n", text).strip()


@pytest.mark.parametrize("seed", range(4))
def test_the_text_of_a_page_out_of_time_is_its_nodes_in_order(seed):
    import random

    from wf.extract.quick import quick_text

    pieces = ["a", "b c", " ", "  ", "\t", "\n", "\r\n", "\f", "\xa0", "\v", "\u2003", "\x1c"]
    rnd = random.Random(seed)
    for _ in range(5_000):
        texts = [
            "".join(rnd.choices(pieces, k=rnd.randint(0, 5))) for _ in range(rnd.randint(0, 6))
        ]
        assert quick_text(_Nodes(texts)) == _quick_text_as_specified(texts), texts


def test_the_text_of_a_page_out_of_time_leaves_prose_as_it_is():
    from wf.extract.quick import quick_text

    prose = "words of a page " * 1_000
    assert quick_text(_Nodes([prose, " ", "\n", prose])) == prose.strip() + "\n" + prose.strip()


def test_the_text_of_a_page_out_of_time_costs_no_step_per_run_of_white_space():
    # The fallback runs past the deadline. A substitution at a match per run of white
    # space held a piece and a list entry for each (here about 30 MB) and took 0.47 s
    # on a 10 MB node of a letter and a line end; passes of str.replace hold a copy or two
    # of the text, whatever its runs.
    import tracemalloc

    from wf.extract.quick import quick_text

    node = "ab\n" * 500_000 + "x  \t " * 100_000
    tracemalloc.start()
    try:
        text = quick_text(_Nodes([node, "\n", node]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    line = ("ab " * 500_000 + "x " * 100_000).strip()
    assert text == line + "\n" + line
    assert peak < 4 * len(node) * 2


# ---------------------------------------------------------------- writing a page of inline elements


def _asks_counted(monkeypatch, module) -> list[float | None]:  # type: ignore[no-untyped-def]
    """The deadlines ``module`` asks check_time about, from now on (each still asked)."""
    asks: list[float | None] = []
    real = module.check_time

    def counted(deadline: float | None) -> None:
        asks.append(deadline)
        real(deadline)

    monkeypatch.setattr(module, "check_time", counted)
    return asks


@pytest.mark.parametrize("tag", ["a", "span"])
def test_writing_a_page_of_inline_elements_meets_the_deadline(monkeypatch, tag):
    # One block of 49 000 links (each resolved) or spans (each spaced from the text
    # before it): the writer looked at the deadline every 1 024 blocks only, and wrote
    # such a page whole past it (0.5 s on 1.6 MB).
    from lxml import etree

    from wf.extract import markdown
    from wf.extract.records import OutOfTime

    body = etree.fromstring(
        "<body><p>"
        + "".join(f'<{tag} href="/p/{i}">item {i}</{tag}> ' for i in range(5_000))
        + "</p></body>"
    )
    asks = _asks_counted(monkeypatch, markdown)
    writer = markdown.MarkdownWriter(deadline=time.monotonic() + 60)
    assert writer.write(body).startswith("item 0 item 1 ")
    assert len(asks) >= 4  # one ask every 1 024 elements with text at the least
    asks.clear()
    with pytest.raises(OutOfTime):
        markdown.MarkdownWriter(deadline=time.monotonic() - 1).write(body)
    assert len(asks) == 1  # the first ask ends it


def test_the_walk_asks_the_deadline_every_16_blocks(monkeypatch):
    # 1 000 blocks of 1 000 new class words each (8 MB): each block's names cost about
    # 2 ms, and the walk asked the deadline every 1 024 blocks (one ask, at the first).
    from lxml import etree

    from wf.extract import records

    body = etree.fromstring(
        "<body>"
        + "".join(f'<div class="c{i}"><p>text {i}</p></div>' for i in range(100))
        + "</body>"
    )
    asks = _asks_counted(monkeypatch, records)
    assert len(records.walk(body, deadline=time.monotonic() + 60)) == 201
    assert len(asks) >= 12  # 201 blocks: an ask before the 1st, 17th, 33rd, ...
    asks.clear()
    with pytest.raises(records.OutOfTime):
        records.walk(body, deadline=time.monotonic() - 1)
    assert len(asks) == 1  # the first ask ends it


# ---------------------------------------------------------------- decoding a body


def test_a_body_of_bad_utf8_is_judged_without_a_step_per_character(monkeypatch):
    # decode's choice between "mostly UTF-8" and the legacy fallback counted the non-ASCII
    # characters of the whole text one by one in Python: 0.5 s on 10 MB of legacy bytes
    # (no charset said), before the extraction and its deadline. Counted in C now.
    import random

    from common import decode

    calls: list[str] = []
    monkeypatch.setattr(decode, "ord", lambda ch: calls.append(ch) or 0, raising=False)
    rnd = random.Random(0)
    bodies = [
        bytes(rnd.choices(b"ab<>\xc3\xa9\xe9\x80\xe4\xb8\xad", k=rnd.randint(1, 40)))
        for _ in range(3_000)
    ]
    bodies += [b"<p>" + b"\xe9a" * 5_000, "<p>h\u00e9llo ".encode() * 500 + b"\xff"]
    for body in bodies:
        text = body.decode("utf-8", "replace")
        bad = text.count("\ufffd")
        as_specified = bad == 0 or bad <= sum(1 for ch in text if ch > "\x7f") - bad
        assert decode._mostly_utf8(body) == as_specified, body
    assert calls == []
    assert decode.decode_for_parser(b"<p>" + b"\xe9a" * 5_000, None)[1] == "windows-1252"


# ---------------------------------------------------------------- why a page is empty


def test_the_search_for_why_a_page_is_empty_stops_at_the_deadline():
    # The markup's searches (paywall, sign-in, consent: 0.7 s on 10 MB of empty boxes)
    # ran after the extraction whatever the time; between two of them, the deadline is
    # asked now, and once it has passed the note says no reason was looked for.
    from wf.empty import OUT_OF_TIME, explain, why_empty
    from wf.options import make_options
    from wf.view import PageResult

    html = "<html><body>" + "<div></div>" * 2_000 + '<div class="paywall-overlay"></div>'

    def note(deadline: float) -> list[str]:
        page = PageResult(url="https://news.example/a")
        explain(
            page,
            lambda: html,
            "",
            make_options({}),
            log=lambda line: None,
            can_render=False,
            deadline=deadline,
        )
        return page.notes

    assert note(time.monotonic() + 60) == [
        "no text: page is behind a paywall (id or class 'paywall')"
    ]
    assert note(time.monotonic() - 1) == [f"no text: {OUT_OF_TIME}"]
    # Asked before the shell check and before each of its three kinds of signs, then
    # before the markup's first search and after it: past the deadline there.
    late = Asks(from_ask=6)
    args = (html, "", "https://news.example/a")
    assert (
        why_empty(*args, never=True, rendered=False, can_render=False, late=late)
        == f"no text: {OUT_OF_TIME}"
    )
    assert late.asks == 6


def test_a_page_past_its_deadline_is_not_looked_through_for_a_javascript_shell(monkeypatch):
    # The JavaScript-shell check reads the whole raw page (its <noscript>s, a mount point,
    # the markers: 0.44 s on 10 MB of attributes) before the markup's searches: past the
    # deadline (a page the limits cut to nothing, its text empty) it ran all the same,
    # and the watchdog ended wf (exit 28) rather than the note being said.
    from wf import empty

    calls: list[str] = []
    monkeypatch.setattr(empty, "looks_like_js_shell", lambda raw, text, late: calls.append(raw))
    html = '<html><body><div id="root"></div>' + "<div></div>" * 20_000 + "</body></html>"
    args = (html, "", "https://app.example/")
    late = Asks(from_ask=1)
    note = empty.why_empty(*args, never=True, rendered=False, can_render=False, late=late)
    assert note == f"no text: {empty.OUT_OF_TIME}" and calls == []
    in_time = empty.why_empty(*args, never=True, rendered=False, can_render=False, late=Asks())
    assert calls == [html] and in_time != note
