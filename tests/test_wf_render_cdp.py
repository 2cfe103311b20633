"""The pychrome wrapper over a wire (wf/render/wire.py) against a small peer that speaks
DevTools as Chromium does on --remote-debugging-pipe: NUL-delimited JSON on two pipes."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.fixtures.render.server import wait_until
from wf.render import wire as wire_mod
from wf.render.cdp import CDPClosed, CDPError, CDPTimeout, Connection
from wf.render.wire import Wire

Answer = Callable[[dict[str, Any]], list[dict[str, Any]] | None]


class FakeCDP:
    """The browser's end of a DevTools pipe; ``answer(message)`` returns what to send back."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.received: list[dict[str, Any]] = []
        self.eof = threading.Event()
        to_peer_r, to_peer_w = os.pipe()
        from_peer_r, from_peer_w = os.pipe()
        self._in, self._out = to_peer_r, from_peer_w
        self.wire = Wire(from_peer_r, to_peer_w)
        self._send_lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        buf = b""
        try:
            while True:
                data = os.read(self._in, 65536)
                if not data:
                    break
                *messages, buf = (buf + data).split(b"\0")
                for raw in messages:
                    message = json.loads(raw)
                    self.received.append(message)
                    for out in self.answer(message) or []:
                        if "sessionId" in message and "method" not in out:
                            out = {**out, "sessionId": message["sessionId"]}
                        self.send(out)
        except OSError:
            pass
        self.eof.set()

    def send(self, message: dict[str, Any] | bytes) -> None:
        raw = (
            message
            if isinstance(message, bytes)
            else json.dumps(message, ensure_ascii=False).encode()
        )
        with self._send_lock:
            os.write(self._out, raw + b"\0")

    def hang_up(self) -> None:
        """The browser exits: its end of the pipe closes."""
        os.close(self._out)

    def close(self) -> None:
        self.wire.close()
        for fd in (self._in, self._out):
            try:
                os.close(fd)
            except OSError:
                pass


BIG = "ünïcödé € 中文 " * 400_000  # about 7 MB of UTF-8


def echo(message: dict[str, Any]) -> list[dict[str, Any]] | None:
    method = message["method"]
    if method == "Silent.never":
        return None
    if method == "Big.one":
        return [{"id": message["id"], "result": {"text": BIG}}]
    if method == "Target.attachToTarget":
        return [
            {"id": message["id"], "result": {"sessionId": "S-" + message["params"]["targetId"]}}
        ]
    if method == "Fail.please":
        return [{"id": message["id"], "error": {"code": -32000, "message": "no such thing"}}]
    return [{"id": message["id"], "result": {"method": method, **message["params"]}}]


@pytest.fixture
def server() -> Iterator[FakeCDP]:
    fake = FakeCDP(echo)
    yield fake
    fake.close()


def test_a_call_gets_its_answer(server: FakeCDP) -> None:
    with Connection(server.wire) as conn:
        assert conn.call("Target.getTargets", timeout=5, filter=[1]) == {
            "method": "Target.getTargets",
            "filter": [1],
        }
    assert server.received[0]["method"] == "Target.getTargets"
    assert "sessionId" not in server.received[0]  # the browser's own session


def test_an_error_answer_raises_and_prints_nothing(
    server: FakeCDP, capfd: pytest.CaptureFixture[str]
) -> None:
    with Connection(server.wire) as conn, pytest.raises(CDPError, match="no such thing"):
        conn.call("Fail.please", timeout=5)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_no_answer_is_a_timeout(server: FakeCDP) -> None:
    with Connection(server.wire) as conn:
        with pytest.raises(CDPTimeout):
            conn.call("Silent.never", timeout=0.2)
        assert conn.call("Still.fine", timeout=5)["method"] == "Still.fine"
        with pytest.raises(CDPTimeout):
            conn.call("Any.thing", timeout=0)


def test_the_browser_hanging_up_ends_every_session_quietly(
    server: FakeCDP, capfd: pytest.CaptureFixture[str]
) -> None:
    conn = Connection(server.wire)
    page = conn.attach("T1", timeout=5)
    conn.call("A.b", timeout=5)
    server.hang_up()
    assert conn.wait_closed(5) and page.wait_closed(5)
    assert server.wire.closed
    with pytest.raises(CDPClosed):
        conn.call("A.b", timeout=1)
    with pytest.raises(CDPClosed):
        Connection(server.wire)  # a new session on a closed wire
    conn.close()
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_the_end_of_the_wire_fails_a_waiting_call(server: FakeCDP) -> None:
    conn = Connection(server.wire)
    timer = threading.Timer(0.2, server.hang_up)
    timer.start()
    with pytest.raises(CDPClosed):
        conn.call("Silent.never", timeout=10)
    conn.close()


def test_debug_env_never_prints_protocol(
    server: FakeCDP, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DEBUG", "1")
    with Connection(server.wire) as conn:
        conn.call("Page.enable", timeout=5)
        server.send({"method": "Page.loadEventFired", "params": {}})
    assert capfd.readouterr().out == ""


def test_concurrent_callers_get_their_own_answers(server: FakeCDP) -> None:
    results: dict[int, Any] = {}
    with Connection(server.wire) as conn:
        page = conn.attach("T1", timeout=5)

        def worker(n: int) -> None:
            target = page if n % 2 else conn
            results[n] = [target.call("Echo.n", timeout=10, n=n)["n"] for _ in range(20)]

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert results == {n: [n] * 20 for n in range(8)}
    ids = [m["id"] for m in server.received]
    assert len(ids) == len(set(ids)) == 161  # unique on the wire, across sessions


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

    with Connection(server.wire, on_error=errors.append) as conn:
        conn.on("Test.event", handler)
        conn.call("Sync.up", timeout=5)
        for n in (0, 1, 2):
            server.send({"method": "Test.event", "params": {"n": n}})
        assert done.wait(5)
    assert seen == [0, 2]
    assert errors == ["Test.event handler failed: ValueError: boom"]


def test_a_page_session_gets_its_own_messages_only(server: FakeCDP) -> None:
    browser_seen: list[str] = []
    page_seen: list[str] = []
    other_seen: list[str] = []
    done = threading.Event()
    with Connection(server.wire) as conn:
        page = conn.attach("T1", timeout=5)
        other = conn.attach("T2", timeout=5)
        conn.on("Ev.x", lambda who: browser_seen.append(who))
        page.on("Ev.x", lambda who: (page_seen.append(who), who == "last" and done.set()))
        other.on("Ev.x", lambda who: other_seen.append(who))
        assert page.call("Echo.it", timeout=5, k=1) == {"method": "Echo.it", "k": 1}
        assert server.received[-1]["sessionId"] == "S-T1"
        server.send({"method": "Ev.x", "params": {"who": "browser"}})
        server.send({"method": "Ev.x", "params": {"who": "nobody"}, "sessionId": "S-T9"})
        server.send({"method": "Ev.x", "params": {"who": "page"}, "sessionId": "S-T1"})
        server.send({"method": "Ev.x", "params": {"who": "last"}, "sessionId": "S-T1"})
        assert done.wait(5)
        page.close()
        detach = {"sessionId": "S-T1"}
        assert wait_until(
            lambda: (
                [m["params"] for m in server.received if m["method"] == "Target.detachFromTarget"]
                == [detach]
            )
        )
        assert not conn.closed and not other.closed  # the wire stays for the others
        assert other.call("Still.here", timeout=5)["method"] == "Still.here"
        # Each session's events run on a thread of its own: the page's "last" says
        # nothing of when the browser's session handled its event.
        assert wait_until(lambda: browser_seen)
    assert (browser_seen, page_seen, other_seen) == (["browser"], ["page", "last"], [])


def test_a_batch_answers_in_order_and_an_error_raises(server: FakeCDP) -> None:
    with Connection(server.wire) as conn:
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
    with Connection(server.wire) as conn:
        assert conn.call("Big.one", timeout=30)["text"] == BIG


def test_garbage_between_messages_is_skipped(server: FakeCDP) -> None:
    with Connection(server.wire) as conn:
        server.send(b"not json")
        server.send(b"[1, 2]")
        server.send(b"")
        assert conn.call("Still.fine", timeout=5)["method"] == "Still.fine"


def test_a_message_over_the_cap_closes_the_wire(
    server: FakeCDP, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire_mod, "MAX_MESSAGE", 1000)
    conn = Connection(server.wire)
    os.write(server._out, b'{"method": "A.b", "params": {"x": "' + b"y" * 5000)  # no end in sight
    assert conn.wait_closed(5)
    assert server.wire.closed


def test_close_lets_the_peer_see_the_end(server: FakeCDP) -> None:
    conn = Connection(server.wire)
    conn.call("A.b", timeout=5)
    conn.close()
    assert not server.eof.is_set()  # one session closing leaves the wire open
    server.wire.close()
    assert server.eof.wait(2)
    assert conn.closed


def _event_thread(conn: Connection) -> threading.Thread:
    thread = conn._tab._handle_event_th  # type: ignore[attr-defined]
    assert isinstance(thread, threading.Thread) and thread.name == "wf-cdp-events"
    return thread


def test_close_returns_once_the_session_s_event_thread_has_ended(server: FakeCDP) -> None:
    # A library call that closed its browser must leave no thread of it behind: the
    # event thread used to sleep out a 0.5 s wait after close() had returned.
    conn = Connection(server.wire)
    page = conn.attach("T1", timeout=5)
    threads = [_event_thread(conn), _event_thread(page)]
    assert all(t.is_alive() for t in threads)
    page.close()
    assert not threads[1].is_alive()
    conn.close()
    assert not threads[0].is_alive()


def test_the_end_of_the_wire_ends_the_event_threads_at_once(server: FakeCDP) -> None:
    conn = Connection(server.wire)
    page = conn.attach("T1", timeout=5)
    threads = [_event_thread(conn), _event_thread(page)]
    server.hang_up()
    assert conn.wait_closed(5) and page.wait_closed(5)
    for thread in threads:
        thread.join(0.2)  # woken by the wire's end, not by the end of a 0.5 s wait
        assert not thread.is_alive()
    conn.close()  # closing a session the wire ended is quiet


def test_a_handler_may_close_its_own_session(server: FakeCDP) -> None:
    conn = Connection(server.wire)
    page = conn.attach("T1", timeout=5)
    closed = threading.Event()

    def close_me(**_: Any) -> None:
        page.close()  # on the event thread itself: it must not wait for itself
        closed.set()

    page.on("Page.bye", close_me)
    server.send({"method": "Page.bye", "params": {}, "sessionId": "S-T1"})
    assert closed.wait(5)
    _event_thread(page).join(1)
    assert not _event_thread(page).is_alive()
    conn.close()
