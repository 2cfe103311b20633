"""A cron job's view of wf --cache: ten runs of `wf URL` against a local server, one per
step, with and without --cache, counting what the server saw (requests, full answers,
304s, bytes both ways) and the wall time of each run (a whole wf process).

Time is compressed: a step stands for a cron minute. Scenarios: max-age=0 with an ETag
(every run revalidates: a 304), max-age=300 (fresh for the whole series: no request
after the first), and max-age=2 with one-second steps (the schedule matters: fresh, then
stale and revalidated, in turn). The page is a 100 KB article, gzip-compressed on the
wire as servers do.

    unshare --net sh -c 'ip link set lo up && exec .venv/bin/python tests/bench/cron_cache.py'

Everything listens on 127.0.0.1. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNS = 10


_VOCABULARY = (
    "the committee met on tuesday to review quarterly figures and chair noted that "
    "numbers were broadly in line with forecast made spring though shipping costs had "
    "risen faster than expected across every region while demand for new products grew "
    "steadily northern markets staff hiring slowed after summer analysts said outlook"
)


def _page() -> bytes:
    # Words drawn at random (fixed seed) compress about as prose does, unlike one
    # paragraph repeated.
    import random

    rng = random.Random(13)
    words = _VOCABULARY.split()
    paragraphs = []
    size = 0
    while size < 100_000:
        text = " ".join(rng.choice(words) for _ in range(rng.randint(40, 90)))
        paragraphs.append(f"<p>{text.capitalize()}.</p>\n")
        size += len(paragraphs[-1])
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Quarterly review</title>"
        "</head><body><nav><a href='/'>Home</a></nav><article><h1>Quarterly review</h1>"
        f"{''.join(paragraphs)}</article><footer>Footer</footer></body></html>"
    ).encode()


PAGE = _page()
PAGE_GZ = gzip.compress(PAGE, 6)
ETAG = '"q3-review-1"'


@dataclass
class Counts:
    requests: int = 0
    full: int = 0
    not_modified: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Server:
    """HTTP/1.1 on 127.0.0.1, one request per connection, counting bytes both ways."""

    def __init__(self, max_age: int) -> None:
        self.max_age = max_age
        self.counts = Counts()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self._stop = False
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
            headers = {
                "Date": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime()),
                "Cache-Control": f"max-age={self.max_age}",
                "ETag": ETAG,
                "Connection": "close",
            }
            if f"if-none-match: {ETAG}" in head:
                status, body = "304 Not Modified", b""
            else:
                status = "200 OK"
                headers["Content-Type"] = "text/html; charset=utf-8"
                headers["Vary"] = "Accept-Encoding"
                if "gzip" in head.split("accept-encoding:", 1)[-1].split("\r\n", 1)[0]:
                    headers["Content-Encoding"] = "gzip"
                    body = PAGE_GZ
                else:
                    body = PAGE
                headers["Content-Length"] = str(len(body))
            reply = (
                f"HTTP/1.1 {status}\r\n"
                + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
                + "\r\n"
            ).encode("latin-1") + body
            conn.sendall(reply)
            with self.counts.lock:
                self.counts.requests += 1
                self.counts.bytes_in += len(data)
                self.counts.bytes_out += len(reply)
                if status.startswith("304"):
                    self.counts.not_modified += 1
                else:
                    self.counts.full += 1

    def close(self) -> None:
        self._stop = True
        self.sock.close()


def scenario(wf: str, max_age: int, step: float, cache: bool) -> dict[str, object]:
    server = Server(max_age)
    walls: list[float] = []
    cpus: list[float] = []
    kinds: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("WF_") and "proxy" not in k.lower()
        }
        env.update(
            WF_CACHE_DIR=f"{tmp}/cache",
            WF_SCRATCH_DIR=f"{tmp}/scratch",
            WF_STATE_DIR=f"{tmp}/state",
            WF_RUNTIME_DIR=f"{tmp}/runtime",
        )
        cmd = [wf, "--allow-host", "127.0.0.1", "--json", "--no-save"]
        cmd += ["--cache"] if cache else []
        cmd.append(f"http://127.0.0.1:{server.port}/review")
        for run in range(RUNS):
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.monotonic()
            proc = subprocess.run(cmd, env=env, capture_output=True, timeout=60)
            walls.append(time.monotonic() - began)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            # CPU time of this run's wf (its supervisor and worker): steadier than wall
            # time on a loaded machine.
            cpus.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
            if proc.returncode != 0:
                sys.exit(f"wf failed: {proc.stderr.decode(errors='replace')}")
            kinds.append(json.loads(proc.stdout)["cache"])
            if run < RUNS - 1:
                time.sleep(max(0.0, step - walls[-1]))
    server.close()
    c = server.counts
    return {
        "max_age": max_age,
        "step": step,
        "cache": cache,
        "requests": c.requests,
        "full": c.full,
        "304": c.not_modified,
        "bytes_out": c.bytes_out,
        "bytes_in": c.bytes_in,
        "walls": walls,
        "cpus": cpus,
        "kinds": kinds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wf", default=str(ROOT / ".venv" / "bin" / "wf"))
    args = parser.parse_args()
    rows = []
    for max_age, step in ((0, 0.5), (300, 0.5), (2, 1.0)):
        for cache in (False, True):
            rows.append(scenario(args.wf, max_age, step, cache))
    print(f"page: {len(PAGE)} bytes of HTML, {len(PAGE_GZ)} gzip-compressed on the wire\n")
    print(
        "| server | wf | requests | 200 | 304 | bytes sent by server | bytes received "
        "| wall, run 1 | wall, runs 2-10: median (min-max) | CPU, runs 2-10: median "
        "| cache per run |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        walls = r["walls"]
        cpus = r["cpus"]
        assert isinstance(walls, list) and isinstance(cpus, list)
        kinds = r["kinds"]
        assert isinstance(kinds, list)
        short = {"hit": "H", "revalidated": "R", "miss": "M", "off": "-"}
        print(
            f"| max-age={r['max_age']}, step {r['step']} s | {'--cache' if r['cache'] else 'no cache'} "
            f"| {r['requests']} | {r['full']} | {r['304']} | {r['bytes_out']:,} | {r['bytes_in']:,} "
            f"| {walls[0] * 1000:.0f} ms "
            f"| {statistics.median(walls[1:]) * 1000:.0f} ms "
            f"({min(walls[1:]) * 1000:.0f}-{max(walls[1:]) * 1000:.0f}) "
            f"| {statistics.median(cpus[1:]) * 1000:.0f} ms "
            f"| {''.join(short[k] for k in kinds)} |"
        )


if __name__ == "__main__":
    main()
