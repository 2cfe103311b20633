"""The pychrome wrapper against a small local websocket server that speaks CDP's framing."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from wf.render.cdp import CDPClosed, CDPError, CDPTimeout, Connection

Answer = Callable[[dict[str, Any]], list[dict[str, Any]] | None]


class FakeCDP:
    """One websocket endpoint on 127.0.0.1; ``answer(message)`` returns what to send back."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.received: list[dict[str, Any]] = []
        self.eof = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.url = f"ws://127.0.0.1:{self.sock.getsockname()[1]}/devtools/browser/fake"
        self.conn: socket.socket | None = None
        self._send_lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _recv(self, n: int) -> bytes:
        assert self.conn is not None
        data = b""
        while len(data) < n:
            chunk = self.conn.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def _serve(self) -> None:
        conn, _ = self.sock.accept()
        self.conn = conn
        head = b""
        while b"\r\n\r\n" not in head:
            head += conn.recv(4096)
        key = next(
            line.split(b":", 1)[1].strip()
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"sec-websocket-key")
        )
        accept = base64.b64encode(
            hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
        )
        conn.sendall(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        )
        try:
            while True:
                b1, b2 = self._recv(2)
                length = b2 & 0x7F
                if length == 126:
                    length = struct.unpack(">H", self._recv(2))[0]
                elif length == 127:
                    length = struct.unpack(">Q", self._recv(8))[0]
                mask = self._recv(4) if b2 & 0x80 else b"\0\0\0\0"
                payload = bytes(c ^ mask[i % 4] for i, c in enumerate(self._recv(length)))
                if b1 & 0x0F == 8:
                    break
                message = json.loads(payload)
                self.received.append(message)
                for out in self.answer(message) or []:
                    self.send(out)
        except (EOFError, OSError):
            pass
        self.eof.set()

    def send(self, message: dict[str, Any] | None, *, opcode: int = 1) -> None:
        payload = json.dumps(message, ensure_ascii=False).encode() if message is not None else b""
        n = len(payload)
        if n < 126:
            head = struct.pack(">BB", 0x80 | opcode, n)
        elif n < 65536:
            head = struct.pack(">BBH", 0x80 | opcode, 126, n)
        else:
            head = struct.pack(">BBQ", 0x80 | opcode, 127, n)
        assert self.conn is not None
        with self._send_lock:
            self.conn.sendall(head + payload)

    def close(self) -> None:
        self.sock.close()
        if self.conn is not None:
            self.conn.close()


BIG = "ünïcödé € 中文 " * 400_000  # about 7 MB of UTF-8


def echo(message: dict[str, Any]) -> list[dict[str, Any]] | None:
    method = message["method"]
    if method == "Silent.never":
        return None
    if method == "Big.one":
        return [{"id": message["id"], "result": {"text": BIG}}]
    if method == "Fail.please":
        return [{"id": message["id"], "error": {"code": -32000, "message": "no such thing"}}]
    return [{"id": message["id"], "result": {"method": method, **message["params"]}}]


@pytest.fixture
def server() -> Iterator[FakeCDP]:
    fake = FakeCDP(echo)
    yield fake
    fake.close()


def test_a_call_gets_its_answer(server: FakeCDP) -> None:
    with Connection(server.url) as conn:
        assert conn.call("Target.getTargets", timeout=5, filter=[1]) == {
            "method": "Target.getTargets",
            "filter": [1],
        }
    assert server.received[0]["method"] == "Target.getTargets"


def test_an_error_answer_raises_and_prints_nothing(
    server: FakeCDP, capfd: pytest.CaptureFixture[str]
) -> None:
    with Connection(server.url) as conn, pytest.raises(CDPError, match="no such thing"):
        conn.call("Fail.please", timeout=5)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_no_answer_is_a_timeout(server: FakeCDP) -> None:
    with Connection(server.url) as conn:
        with pytest.raises(CDPTimeout):
            conn.call("Silent.never", timeout=0.2)
        assert conn.call("Still.fine", timeout=5)["method"] == "Still.fine"
        with pytest.raises(CDPTimeout):
            conn.call("Any.thing", timeout=0)


def test_a_close_frame_ends_the_connection_quietly(
    server: FakeCDP, capfd: pytest.CaptureFixture[str]
) -> None:
    conn = Connection(server.url)
    conn.call("A.b", timeout=5)
    server.send(None, opcode=8)
    assert conn.wait_closed(5)
    assert conn.closed
    with pytest.raises(CDPClosed):
        conn.call("A.b", timeout=1)
    conn.close()
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # pychrome printed a JSONDecodeError traceback here


def test_a_dropped_socket_fails_a_waiting_call(server: FakeCDP) -> None:
    conn = Connection(server.url)
    timer = threading.Timer(0.2, lambda: server.conn and server.conn.shutdown(socket.SHUT_RDWR))
    timer.start()
    with pytest.raises(CDPClosed):
        conn.call("Silent.never", timeout=10)
    conn.close()


def test_debug_env_never_prints_protocol(
    server: FakeCDP, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DEBUG", "1")
    with Connection(server.url) as conn:
        conn.call("Page.enable", timeout=5)
        server.send({"method": "Page.loadEventFired", "params": {}})
    assert capfd.readouterr().out == ""


def test_concurrent_callers_get_their_own_answers(server: FakeCDP) -> None:
    results: dict[int, Any] = {}
    with Connection(server.url) as conn:

        def worker(n: int) -> None:
            results[n] = [conn.call("Echo.n", timeout=10, n=n)["n"] for _ in range(20)]

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert results == {n: [n] * 20 for n in range(8)}
    ids = [m["id"] for m in server.received]
    assert len(ids) == len(set(ids)) == 160


def test_events_reach_handlers_and_a_failing_handler_is_reported(server: FakeCDP) -> None:
    errors: list[str] = []
    seen: list[int] = []
    done = threading.Event()

    def handler(n: int) -> None:
        if n == 1:
            raise ValueError("boom")
        seen.append(n)
        if n == 2:
            done.set()

    with Connection(server.url, on_error=errors.append) as conn:
        conn.on("Test.event", handler)
        conn.call("Sync.up", timeout=5)
        for n in (0, 1, 2):
            server.send({"method": "Test.event", "params": {"n": n}})
        assert done.wait(5)
    assert seen == [0, 2]
    assert errors == ["Test.event handler failed: ValueError: boom"]


def test_a_batch_answers_in_order_and_an_error_raises(server: FakeCDP) -> None:
    with Connection(server.url) as conn:
        got = conn.call_batch(
            [("A.one", {"x": 1}), ("B.two", {}), ("C.three", {"y": 3})], timeout=5
        )
        assert got == [
            {"method": "A.one", "x": 1},
            {"method": "B.two"},
            {"method": "C.three", "y": 3},
        ]
        with pytest.raises(CDPError, match="no such thing"):
            conn.call_batch([("A.one", {}), ("Fail.please", {})], timeout=5)
        with pytest.raises(CDPTimeout):
            conn.call_batch([("A.one", {}), ("Silent.never", {})], timeout=0.3)


def test_a_large_message_arrives_whole(server: FakeCDP) -> None:
    with Connection(server.url) as conn:
        assert conn.call("Big.one", timeout=30)["text"] == BIG


def test_connecting_to_nothing_is_closed() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    with pytest.raises(CDPClosed):
        Connection(f"ws://127.0.0.1:{port}/devtools/browser/x", timeout=2)


def test_close_lets_the_peer_see_the_end(server: FakeCDP) -> None:
    conn = Connection(server.url)
    conn.call("A.b", timeout=5)
    conn.close()
    assert server.eof.wait(2)
    assert conn.closed
