"""The keep-alive keeper's Unix socket, relayed to its browser's DevTools pipe.

The socket (``browser.sock``, 0600, in the 0700 keep-alive dir) is the only way into a
shared browser, and only processes of our uid get through: the peer's uid is checked
with SO_PEERCRED on every connection (root, which passes any file mode, is refused too).

Each wf process that connects gets a browser session of its own
(``Target.attachToBrowserTarget``); what it sends without a ``sessionId`` goes there, so
its Fetch interception and its contexts are its own, and when it hangs up (or dies) the
session is detached, which disposes of the contexts it made (``disposeOnDetach``). Page
sessions it attaches are routed back to it only. Message ids are renumbered on the way
to the browser and restored on the way back.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import socket
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wf.render.wire import MAX_MESSAGE, Message, Wire, WireClosed

SOCKET = "browser.sock"
ATTACH_TIMEOUT = 5.0
SEND_TIMEOUT = 10.0  # a client that reads nothing for this long is dropped


def peer_uid(sock: socket.socket) -> tuple[int, int]:
    """(pid, uid) of the process at the other end of a Unix socket."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", creds)
    return pid, uid


def socket_path(dir_fd: int) -> str:
    """The socket's name through an open descriptor of its directory: short (sun_path
    holds 108 bytes, a deep runtime dir may not fit) and resolved from the directory we
    checked, never from a path someone could swap."""
    return f"/proc/self/fd/{dir_fd}/{SOCKET}"


def listen(root: Path) -> tuple[socket.socket, tuple[int, int]]:
    """The keeper's listening socket in ``root`` and the (device, inode) of its name; a
    stale one of a dead keeper is replaced."""
    dir_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(SOCKET, dir_fd=dir_fd)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        old = os.umask(0o177)
        try:
            sock.bind(socket_path(dir_fd))
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(old)
        os.chmod(SOCKET, 0o600, dir_fd=dir_fd)  # (the umask already made it so)
        st = os.stat(SOCKET, dir_fd=dir_fd, follow_symlinks=False)
        sock.listen(16)
        return sock, (st.st_dev, st.st_ino)
    finally:
        os.close(dir_fd)


def connect(root: Path, keeper_pid: int, *, timeout: float) -> Wire:
    """A wire to the keeper serving from ``root``; raises OSError when it is not there,
    or when whoever listens is not that keeper running as us."""
    dir_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    try:
        sock.settimeout(max(0.05, timeout))
        sock.connect(socket_path(dir_fd))
        pid, uid = peer_uid(sock)
        if uid != os.geteuid() or pid != keeper_pid:
            raise ConnectionRefusedError(f"{SOCKET} is served by pid {pid}, uid {uid}")
        sock.settimeout(None)
    except BaseException:
        sock.close()
        raise
    finally:
        os.close(dir_fd)
    return Wire(sock.fileno(), sock.detach(), name="wf-cdp-keeper")


class _Client:
    def __init__(self, sock: socket.socket, session: str) -> None:
        self.sock = sock
        self.session = session  # its browser session
        self.lock = threading.Lock()
        self.buf = bytearray()
        self.gone = False


class Relay:
    """Serves the listening socket from the keeper's main thread (``serve_once``); the
    browser's messages arrive on the wire's reader thread (``_from_browser``)."""

    def __init__(self, wire: Wire, listener: socket.socket) -> None:
        self.wire = wire
        self.listener = listener
        self.listener.setblocking(False)
        self._lock = threading.Lock()
        self._clients: dict[int, _Client] = {}  # by socket fd
        self._owners: dict[str, _Client] = {}  # session id -> the client that owns it
        self._pending: dict[int, tuple[_Client, Any, str]] = {}  # wire id -> client, its id, method
        self._selector = selectors.DefaultSelector()
        self._selector.register(listener, selectors.EVENT_READ)
        wire.route_all(self._from_browser)

    def serve_once(self, timeout: float) -> None:
        for key, _ in self._selector.select(timeout):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            if sock is self.listener:
                self._accept()
            else:
                self._from_client(sock)

    def close(self) -> None:
        with self._lock:
            clients = list(self._clients.values())
        for client in clients:
            self._drop(client)
        self._selector.close()
        self.listener.close()

    # ------------------------------------------------------------ clients

    def _accept(self) -> None:
        try:
            sock, _ = self.listener.accept()
        except OSError:
            return
        try:
            _pid, uid = peer_uid(sock)
        except OSError:
            sock.close()
            return
        if uid != os.geteuid():
            sock.close()  # another user (root included): not one word of DevTools
            return
        session = self._attach_browser()
        if session is None:
            sock.close()
            return
        sock.setblocking(True)
        sock.settimeout(SEND_TIMEOUT)
        client = _Client(sock, session)
        with self._lock:
            self._clients[sock.fileno()] = client
            self._owners[session] = client
        self._selector.register(sock, selectors.EVENT_READ)

    def _attach_browser(self) -> str | None:
        import queue

        box = self.wire.call_raw("Target.attachToBrowserTarget")
        try:
            answer = box.get(timeout=ATTACH_TIMEOUT)
        except queue.Empty:
            return None
        session = ((answer or {}).get("result") or {}).get("sessionId")
        return session if isinstance(session, str) else None

    def _from_client(self, sock: socket.socket) -> None:
        with self._lock:
            client = self._clients.get(sock.fileno())
        if client is None:
            return
        try:
            chunk = sock.recv(1 << 20)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._drop(client)
            return
        client.buf += chunk
        start = 0
        while (end := client.buf.find(b"\0", start)) >= 0:
            raw = bytes(client.buf[start:end])
            start = end + 1
            if not self._to_browser(client, raw):
                self._drop(client)
                return
        del client.buf[:start]
        if len(client.buf) > MAX_MESSAGE:
            self._drop(client)

    def _to_browser(self, client: _Client, raw: bytes) -> bool:
        try:
            message = json.loads(raw)
        except ValueError:
            return False
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return False
        session = message.get("sessionId")
        with self._lock:
            owner = self._owners.get(session) if isinstance(session, str) else None
        if session is None:
            message["sessionId"] = client.session
        elif owner is not client:
            self._send(client, {"id": message.get("id"), "error": {"message": "no such session"}})
            return True
        ident = self.wire.next_id()
        with self._lock:
            self._pending[ident] = (client, message.get("id"), message["method"])
        message["id"] = ident
        try:
            self.wire.send(message)
        except WireClosed:
            return False
        return True

    def _drop(self, client: _Client) -> None:
        with self._lock:
            if client.gone:
                return
            client.gone = True
            self._clients.pop(client.sock.fileno(), None)
            for session in [s for s, c in self._owners.items() if c is client]:
                del self._owners[session]
            for ident in [i for i, p in self._pending.items() if p[0] is client]:
                del self._pending[ident]
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(client.sock)
        with contextlib.suppress(OSError):
            client.sock.shutdown(socket.SHUT_RDWR)
        client.sock.close()
        # Its contexts go with its browser session (disposeOnDetach).
        with contextlib.suppress(WireClosed):
            self.wire.send(
                {
                    "id": self.wire.next_id(),
                    "method": "Target.detachFromTarget",
                    "params": {"sessionId": client.session},
                }
            )

    def _send(self, client: _Client, message: Message) -> None:
        data = json.dumps(message, separators=(",", ":")).encode("ascii") + b"\0"
        with client.lock:
            if client.gone:
                return
            try:
                client.sock.sendall(data)
                return
            except OSError:
                pass
        self._drop(client)  # it stopped reading, or it is gone

    # ------------------------------------------------------------ the browser

    def _from_browser(self, message: Message) -> None:
        ident = message.get("id")
        if isinstance(ident, int):
            with self._lock:
                pending = self._pending.pop(ident, None)
            if pending is None:
                return  # a detach of ours, or a client already gone
            client, their_id, method = pending
            message["id"] = their_id
            if method == "Target.attachToTarget":
                session = (message.get("result") or {}).get("sessionId")
                self._own(session, client)
        else:
            session = message.get("sessionId")
            with self._lock:
                found = self._owners.get(session) if isinstance(session, str) else None
            if found is None:
                return  # the keeper's own session, or nobody's any more
            client = found
            params = message.get("params") or {}
            if message.get("method") == "Target.attachedToTarget":
                self._own(params.get("sessionId"), client)
            elif message.get("method") == "Target.detachedFromTarget":
                child = params.get("sessionId")
                with self._lock:
                    if isinstance(child, str) and self._owners.get(child) is client:
                        del self._owners[child]
        if message.get("sessionId") == client.session:
            del message["sessionId"]  # the client's browser session is its root
        self._send(client, message)

    def _own(self, session: object, client: _Client) -> None:
        if isinstance(session, str):
            with self._lock:
                if not client.gone:
                    self._owners[session] = client


def serve(
    wire: Wire, listener: socket.socket, *, keep_going: Callable[[], bool], tick: float
) -> None:
    """Relay until ``keep_going`` says no (checked every ``tick`` seconds) or the browser's
    wire closes."""
    relay = Relay(wire, listener)
    try:
        while not wire.closed and keep_going():
            relay.serve_once(tick)
    finally:
        relay.close()
