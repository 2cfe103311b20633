"""wf's command line as a whole: a batch of URLs in input order, --input without the
network."""

from __future__ import annotations

import json
import time

import pytest

from tests.helpers import ALLOW
from tests.servers import respond


def test_batch_in_input_order_with_first_failure_code(wf, serve):
    slow = serve(
        lambda c, r: (
            time.sleep(0.5),
            c.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nslow\n"
            ),
        )
    )
    fast = serve(respond(200, b"fast\n", {"Content-Type": "text/plain"}))
    gone = serve(respond(404, b""))
    r = wf(*ALLOW, "--json", slow.url, gone.url, fast.url)
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["url"] for o in objs] == [slow.url, gone.url, fast.url]
    assert [o["text"] for o in objs] == ["slow", "", "fast"]
    assert objs[1]["error"]["code"] == 4
    assert r.code == 4 and r.stderr.count("\n") == 1


def test_input_file_needs_no_network(wf, tmp_path, monkeypatch):
    import socket

    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("network used"))
    doc = tmp_path / "doc.txt"
    doc.write_bytes(b"local line 1\nlocal line 2\n")
    r = wf("--input", str(doc), "--filter", "2")
    assert (r.code, r.stdout) == (0, "local line 2\n")
    r = wf("--input", "-", input=b"from stdin\n")
    assert r.stdout == "from stdin\n"
    r = wf("--input", str(tmp_path / "missing.html"))
    assert r.code == 2 and "cannot read --input" in r.stderr
