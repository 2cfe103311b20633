"""What several test files share: paths, the loopback allowance, running the tools
(in process and as real processes), the shingle measure of extraction quality and the
fake browser. Fixtures live in conftest.py; this module holds no tests and no fixtures.

tests/bench/bench_extract.py imports ``shingles`` from here in a venv without pytest or
click: keep the module-level imports to the standard library.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
VENV_BIN = Path(sys.executable).parent

# The uid that plays another local user (root only: dropping to it needs root).
NOBODY = 65534

# Private addresses are refused by default; every local test server is on 127.0.0.1.
ALLOW = ("--allow-host", "127.0.0.1")

# Where ws finds each engine: a test points them all at its own server.
ENGINE_VARIABLES = (
    "WS_DUCKDUCKGO_URL",
    "WS_DUCKDUCKGO_LITE_URL",
    "WS_BRAVE_URL",
    "WS_MOJEEK_URL",
    "SEARXNG_URL",
)
# Small search-engine answers of our own, and real captures read in place.
WS_FIXTURES = ROOT / "tests" / "fixtures" / "ws"
SEARCH_CAPTURES = SHARED / "fixtures" / "search"

# Variables from the developer's shell that would change what a test sees.
SCRUBBED = (
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "WF_ALLOW_PRIVATE",
    "WF_ALLOW_HOSTS",
    "WF_TIMEOUT",
    "WF_RENDER",
    "WF_MAX_LENGTH",
    "WF_AUTOSAVE_BYTES",
    "WF_MAX_BYTES",
    "WS_PROVIDER",
    "SEARXNG_URL",
    "WS_DUCKDUCKGO_URL",
    "WS_BRAVE_URL",
    "WS_MOJEEK_URL",
    "WS_TIMEOUT",
    "DEBUG",
    "WF_RENDER_KEEPALIVE",
    "WF_RENDER_BROWSER",
    "WF_RENDER_TIMEOUT",
    "WF_RETRY",
    "WF_CACHE",
    "WF_CACHE_MAX",
    "WF_PROXY_RESOLVES",
)


# ------------------------------------------------------------------ running the tools


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str


def invoke(
    tool: str,
    args: list[str],
    *,
    input: str | bytes | None = None,
    env: dict[str, str] | None = None,
) -> Result:
    """Run a tool in-process through the same wrapper as its console script (conftest's
    ``wf`` fixture is this for wf; a real process is ``tool_path`` or hostile/proc.py)."""
    from click.testing import CliRunner

    from common.run import run_cli

    if tool == "wf":
        from wf.cli import command, json_error
    else:
        from ws.cli import command, json_error  # type: ignore[no-redef]
    runner = CliRunner()
    with runner.isolation(input=input, env=env) as (out, err, _):
        code = run_cli(tool, command, args, json_error=json_error)
    return Result(code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8"))


def assert_one_line_error(r: Result, code: int, *needles: str, tool: str = "wf") -> None:
    """The failure the tools promise: exit ``code`` and one diagnostic line that names it
    and each needle, with no escape sequence, bell or traceback in it."""
    assert r.code == code, (r.code, r.stderr)
    assert r.stderr.startswith(f"{tool}: ({code}) ") and r.stderr.count("\n") == 1, r.stderr
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr
    assert "Traceback" not in r.stderr and "this is a bug" not in r.stderr
    for needle in needles:
        assert needle in r.stderr, r.stderr


def tool_path(name: str) -> str:
    """The console script of this venv (a real process, supervisor included)."""
    path = VENV_BIN / name
    return str(path) if path.exists() else name


def subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env.update(extra)
    return env


# ------------------------------------------------------------------ extraction quality

_TOKEN = re.compile(r"\w+")


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    """Runs of ``n`` word tokens, counted as a multiset; a text shorter than ``n`` tokens
    is one shingle, an empty one none."""
    tokens = _TOKEN.findall(text or "")
    return Counter(
        tuple(tokens[i : i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i : i + n]
    )


def recall(got: str, truth: str) -> float:
    """The share of the truth's shingles found in ``got`` (0 for an empty truth)."""
    want = shingles(truth)
    return sum((want & shingles(got)).values()) / max(1, sum(want.values()))


# ------------------------------------------------------------------ documented lists


def man_forwarded_signals(page: str) -> list[str]:
    """The signals a man page says the supervisor passes on to the worker, by name."""
    text = " ".join((ROOT / "man" / page).read_text().split())
    said = re.search(
        r"((?:SIG[A-Z]+, )+SIG[A-Z]+,? (?:and|or) SIG[A-Z]+) (?:sent to the supervisor|it passed on)",
        text,
    )
    assert said, f"man/{page} names the signals the supervisor passes on"
    return re.findall(r"SIG[A-Z]+", said.group(1))


# ------------------------------------------------------------------ a fake browser

# The parts of a fake Chromium (a shell script) every fake shares: the profile dir from
# --user-data-dir, and a DevTools peer on fds 3 and 4 as --remote-debugging-pipe gives
# Chromium: it answers every command (with a sessionId, for the keeper's relay) and ends
# when its pipe closes, as Chromium does. It replaces the shell, so it has the browser's pid.
FAKE_PROFILE_ARG = (
    'for a in "$@"; do case "$a" in --user-data-dir=*) dir="${a#--user-data-dir=}";; esac; done'
)
_FAKE_PEER = """
import json, os
buf = b""
while True:
    data = os.read(3, 65536)
    if not data:
        break
    *messages, buf = (buf + data).split(b"\\0")
    for raw in messages:
        m = json.loads(raw)
        answer = {"id": m["id"], "result": {"sessionId": "fake-%d" % m["id"], "product": "Fake/1"}}
        if "sessionId" in m:
            answer["sessionId"] = m["sessionId"]
        os.write(4, json.dumps(answer).encode() + b"\\0")
"""
FAKE_CDP = f"exec {sys.executable} -c '{_FAKE_PEER}'"


def fake_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> Path:
    """An executable fake browser in tmp_path/bin: ``body`` runs after the profile dir
    is known; FAKE_MODE starts as "ok"."""
    path = tmp_path / "bin" / "fake-browser"
    path.parent.mkdir()
    path.write_text(f"#!/bin/sh\n{FAKE_PROFILE_ARG}\n{body}")
    path.chmod(0o755)
    monkeypatch.setenv("FAKE_MODE", "ok")
    return path


def proc_stats() -> Iterator[tuple[int, list[bytes]]]:
    """Each process's pid and the fields of its /proc stat after the command's name
    (state, ppid, pgrp, ...); one that ends meanwhile is left out."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                yield int(pid), fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue


def children() -> list[tuple[int, str]]:
    """This process's child processes and their state letter from /proc (Z: a zombie
    nobody has reaped), in pid order."""
    me = os.getpid()
    return sorted((pid, f[0].decode()) for pid, f in proc_stats() if int(f[1]) == me)


def group_members(pgid: int) -> list[int]:
    """The live processes of a process group (a browser's renderers, GPU and zygotes)."""
    return [pid for pid, f in proc_stats() if f[0] not in (b"Z", b"X") and int(f[2]) == pgid]


def saved_files(folder: Path) -> list[Path]:
    """What wf saved in a scratch dir: every entry but the pruning's bookkeeping (the
    stamp and the --save-path list of wf/save.py), hidden temporary files included."""
    from wf.save import BOOKKEEPING

    if not folder.exists():
        return []
    return sorted(p for p in folder.iterdir() if p.name not in BOOKKEEPING)


def as_user(uid: int, work: Callable[[], bytes]) -> bytes:
    """What ``work()`` returns when run in a forked child that has become ``uid`` (another
    local user; needs root). The child leaves only through os._exit, so it never runs
    pytest's teardown; an exception in it fails the caller with its text. ``uid`` may not
    read the interpreter's files (a pyenv under a 0700 HOME): import before the call what
    ``work`` needs."""
    import encodings.idna  # noqa: F401  (socket calls encode a host name with it)
    import traceback

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            out = work()
            code = 0
        except BaseException:
            out = traceback.format_exc().encode()
        finally:
            try:
                while out:
                    out = out[os.write(write_end, out) :]
            finally:
                os._exit(code)
    os.close(write_end)
    chunks = []
    with os.fdopen(read_end, "rb") as fh:
        while chunk := fh.read(65536):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    got = b"".join(chunks)
    if os.waitstatus_to_exitcode(status) != 0:
        raise AssertionError(f"the child as uid {uid} failed: {got.decode(errors='replace')}")
    return got


def tail_writes(watched: Callable[[Any], bool]) -> tuple[Any, list[int]]:
    """An lxml HTML parser whose elements count, in the list returned (one number), how
    often the tail of an element ``watched`` is written: a removal of many elements in a
    row sets the text before them once, not once per element (once per element copied
    the growing text over and over, quadratic on a hostile page)."""
    from lxml import html as lxml_html

    writes = [0]

    class Box(lxml_html.HtmlElement):
        @property
        def tail(self) -> str | None:
            return lxml_html.HtmlElement.tail.__get__(self)

        @tail.setter
        def tail(self, value: str | None) -> None:
            if watched(self):
                writes[0] += 1
            lxml_html.HtmlElement.tail.__set__(self, value)

    parser = lxml_html.HTMLParser()
    parser.set_element_class_lookup(lxml_html.etree.ElementDefaultClassLookup(element=Box))
    return parser, writes


def union_searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The union searches ("a|//b") compiled from now on, recorded as lxml compiles them
    (recorded, not raised: extract() falls back on any error). common.xpath caches each
    thread's searches: run the code under test in a fresh thread to see them compiled."""
    from lxml import etree

    made, unions = etree.XPath, []

    def xpath(expression: str, **kwargs: Any) -> Any:
        if "|//" in expression:
            unions.append(expression)
        return made(expression, **kwargs)

    monkeypatch.setattr(etree, "XPath", xpath)
    return unions


class Asks:
    """A ``late()`` (common.parse_limits.limit's, wf.empty's, a feed's) that counts its
    asks; late from the ask numbered ``from_ask`` on (0: never)."""

    def __init__(self, from_ask: int = 0) -> None:
        self.asks = 0
        self.from_ask = from_ask

    def __call__(self) -> bool:
        self.asks += 1
        return 0 < self.from_ask <= self.asks
