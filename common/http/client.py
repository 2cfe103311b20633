"""fetch: policy-checked connections (common.http.deadline), our own redirects, one total
deadline, size caps on the wire and after decompression (common.http.decompress), proxies
from the environment (common.http.proxy_env), and every failure mapped to its exit code.

A direct request goes out on http.client (common.http.transport); urllib3 is imported
only for a request through a proxy.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from common import trace
from common.errors import (
    BadResponse,
    ConnectError,
    DNSError,
    InvalidURL,
    PolicyRefused,
    Timeout,
    TLSError,
    ToolError,
    TooManyRedirects,
    TransferError,
)
from common.http.deadline import Abort, Deadline
from common.http.decompress import Sink, accept_encoding, decoders, encodings, too_large
from common.http.framing import chunk_size_error, strict_response
from common.http.proxy_env import proxy_for
from common.http.url import default_port, normalise_url, split_credentials
from common.policy import (
    Policy,
    check_address,
    check_name,
    check_scheme,
    parse_ip,
    resolve,
    resolve_checked,
)

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36"
)
DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
DEFAULT_ACCEPT_LANGUAGE = "en-US,en;q=0.9"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
MAX_REDIRECTS = 10
_CHUNK = 64 * 1024
_REDIRECT_CODES = (301, 302, 303, 307, 308)
_CREDENTIAL_HEADERS = ("authorization", "cookie", "proxy-authorization")


# -H may not set what framing and routing depend on: the client owns these.
REFUSED_HEADERS = ("host", "content-length", "transfer-encoding", "connection")
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def user_header(text: str, source: str = "-H") -> tuple[str, str]:
    """One ``-H 'Name: value'`` as (name, value); UsageError for anything that is not one
    header line, or that names a header the client must set itself."""
    from common.errors import UsageError

    name, colon, value = text.partition(":")
    shown = repr(text[:100])
    if not colon or not name or any(c not in _TOKEN for c in name):
        raise UsageError(f"{source} takes 'Name: value' with a header name, not {shown}")
    if name.lower() in REFUSED_HEADERS:
        raise UsageError(f"{source} cannot set {name}: wf sets it itself")
    value = value.strip(" \t")
    _check_value(value, f"{source} {name}")
    return name, _wire(value)


def user_agent(text: str | None) -> str | None:
    """--user-agent checked as a -H value is (one line, no control characters); the text
    as given, sent as UTF-8 (request_headers); None for none or an empty one."""
    if text is None:
        return None
    value = text.strip(" \t")
    _check_value(value, "--user-agent")
    return value or None


def _check_value(value: str, where: str) -> None:
    from common.errors import UsageError

    if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in value):
        raise UsageError(f"{where}: the value holds control characters (one line only)")


def _wire(value: str) -> str:
    # http.client sends header values as Latin-1: UTF-8 text goes out as its own bytes.
    return value.encode("utf-8").decode("latin-1")


@dataclass(frozen=True)
class NetOptions:
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    user_agent: str | None = None
    policy: Policy = field(default_factory=Policy)
    max_redirects: int = MAX_REDIRECTS
    # -H: sent with every request, dropped on a redirect to another origin.
    headers: tuple[tuple[str, str], ...] = ()
    # --proxy-resolves: a name that does not resolve here goes to the proxy unchecked.
    # None: the tool has no such option (ws), so a failed lookup names none.
    proxy_resolves: bool | None = None


@dataclass
class Response:
    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    body: bytes
    elapsed_ms: int
    redirects: list[str] = field(default_factory=list)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


_local = threading.local()


@cache
def _without_http2_init() -> None:
    """Import urllib3 without running urllib3.http2's ``__init__``.

    urllib3.connection imports ``urllib3.http2.probe``, and importing that runs the
    package's ``__init__``, which imports importlib.metadata (with zipfile, email and csv:
    a fifth of urllib3's import time) only to check h2's version for
    ``inject_into_urllib3``, which nothing here calls. The package goes into sys.modules
    without its ``__init__``; its submodules load as usual, and the first use of a name
    the ``__init__`` defines runs it then. Nothing is done when urllib3 is already
    imported or laid out otherwise."""
    import sys

    if "urllib3" in sys.modules or "urllib3.http2" in sys.modules:
        return
    from importlib.machinery import ModuleSpec, SourceFileLoader
    from importlib.util import find_spec
    from pathlib import Path
    from types import ModuleType

    spec = find_spec("urllib3")
    if spec is None or not spec.submodule_search_locations:
        return
    root = Path(next(iter(spec.submodule_search_locations))) / "http2"
    init = root / "__init__.py"
    if not (init.is_file() and (root / "probe.py").is_file()):
        return
    loader = SourceFileLoader("urllib3.http2", str(init))
    package = ModuleType("urllib3.http2")
    package.__spec__ = ModuleSpec("urllib3.http2", loader, origin=str(init), is_package=True)
    package.__spec__.submodule_search_locations = [str(root)]
    package.__path__ = [str(root)]
    package.__file__ = str(init)
    package.__package__ = "urllib3.http2"

    def load_init(name: str) -> Any:
        # Submodules are looked up here before they are imported: not a reason to load.
        if name.startswith("__") or (root / f"{name}.py").is_file():
            raise AttributeError(name)
        vars(package).pop("__getattr__", None)
        loader.exec_module(package)
        return getattr(package, name)

    vars(package)["__getattr__"] = load_init  # a module's __getattr__ (PEP 562)
    sys.modules["urllib3.http2"] = package
    import urllib3

    # What the import system does for a submodule it loads itself.
    if not hasattr(urllib3, "http2"):
        urllib3.http2 = package


@cache
def _pool_classes() -> tuple[type, type]:
    _without_http2_init()
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

    def _new_conn(self: Any) -> socket.socket:
        guard: Deadline = _local.guard
        return guard.connect(self._dns_host, self.port, self.timeout, self.socket_options)

    attrs = {"_new_conn": _new_conn, "response_class": strict_response()}
    guarded_http = type("GuardedHTTPConnection", (HTTPConnection,), attrs)
    guarded_https = type("GuardedHTTPSConnection", (HTTPSConnection,), attrs)
    http_pool = type("GuardedHTTPPool", (HTTPConnectionPool,), {"ConnectionCls": guarded_http})
    https_pool = type("GuardedHTTPSPool", (HTTPSConnectionPool,), {"ConnectionCls": guarded_https})
    return http_pool, https_pool


def fetch(
    url: str,
    opts: NetOptions,
    *,
    method: str = "GET",
    data: bytes | Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    deadline: float | None = None,
    on_redirect: Callable[[str], None] | None = None,
    abort: Abort | None = None,
    attempt_timeout: float | None = None,
) -> Response:
    """Fetch a URL under the policy and within one deadline. Any HTTP status is returned;
    network failures raise the ToolError of their exit code. ``abort`` fired from another
    thread ends the fetch as its deadline would (Timeout).

    ``attempt_timeout`` bounds each connect and each wait for bytes (not the whole
    transfer), so that an attempt a retry can follow gives up on a stalled server early;
    the deadline still ends everything."""
    start = time.monotonic()
    deadline = min(deadline or float("inf"), start + opts.timeout)
    current = normalise_url(url)
    method = method.upper()
    body: bytes | None
    req_headers = request_headers(opts)
    if isinstance(data, Mapping):
        body = urlencode(dict(data)).encode("ascii")
        req_headers["Content-Type"] = "application/x-www-form-urlencoded"
    else:
        body = data
    _merge(req_headers, (headers or {}).items())
    # Headers the user gave stay with the origin they were meant for, as credentials do:
    # every -H header (we cannot tell a token from a preference), and the credential names.
    dropped = {name.lower() for name, _ in opts.headers} | set(_CREDENTIAL_HEADERS)
    seen: list[str] = []
    origin = _origin(current)
    for hop in range(opts.max_redirects + 1):
        target, auth = split_credentials(current)
        hop_headers = dict(req_headers)
        if auth and not any(k.lower() == "authorization" for k in hop_headers):
            hop_headers["Authorization"] = auth
        status, resp_headers, resp_body = _one_request(
            target, method, hop_headers, body, opts, deadline, abort, attempt_timeout, started=start
        )
        location = resp_headers.get("location")
        if status not in _REDIRECT_CODES or not location:
            return Response(
                url=url,
                final_url=target,
                status=status,
                headers=resp_headers,
                body=resp_body,
                elapsed_ms=int((time.monotonic() - start) * 1000),
                redirects=seen,
            )
        seen.append(target)
        nxt = urljoin(target, _header_text(location).strip())
        scheme = urlsplit(nxt).scheme
        check_scheme(scheme, nxt[:200])
        try:
            nxt = normalise_url(nxt)
        except InvalidURL as exc:
            raise PolicyRefused(f"refused redirect to an invalid URL: {exc.message}") from None
        if hop == opts.max_redirects:
            raise TooManyRedirects(f"too many redirects (more than {opts.max_redirects})")
        if nxt in seen or split_credentials(nxt)[0] in seen:
            raise TooManyRedirects(f"redirect loop at {nxt}")
        trace.trace("redirect: HTTP %d to %s", status, nxt)
        if on_redirect:
            on_redirect(nxt)
        if _origin(nxt) != origin:
            # Credentials and -H headers never follow a redirect to another origin (scheme,
            # host or port, as curl has it): not to another port's service, nor to http.
            gone = [k for k in req_headers if k.lower() in dropped]
            if gone:
                trace.trace("redirect: another origin; not sent there: %s", ", ".join(gone))
            req_headers = {k: v for k, v in req_headers.items() if k.lower() not in dropped}
            current = split_credentials(nxt)[0]
            origin = _origin(current)
        else:
            current = nxt
        if status == 303 or (status in (301, 302) and method == "POST"):
            method, body = "GET", None
            req_headers.pop("Content-Type", None)
    raise TooManyRedirects(f"too many redirects (more than {opts.max_redirects})")


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), default_port(parts)


def request_headers(opts: NetOptions) -> dict[str, str]:
    """The headers every request of these options carries: ours, then -H over them."""
    out = {
        "User-Agent": _wire(opts.user_agent) if opts.user_agent else DEFAULT_USER_AGENT,
        "Accept": DEFAULT_ACCEPT,
        "Accept-Language": DEFAULT_ACCEPT_LANGUAGE,
        "Accept-Encoding": accept_encoding(),
    }
    _merge(out, opts.headers)
    return out


def policy_scope(url: str, opts: NetOptions) -> str:
    """What decides where a fetch of ``url`` may connect, as one string: the policy, the
    proxy for the URL and --proxy-resolves (a cache keys its entries by it)."""
    import json

    policy = opts.policy
    return json.dumps(
        [
            policy.allow_private,
            sorted(policy.allow_hosts),
            proxy_for(url) or "",
            bool(opts.proxy_resolves),
        ]
    )


def _merge(into: dict[str, str], extra: Iterable[tuple[str, str]]) -> None:
    """Set headers over others whatever their case: one field, the last value given."""
    for name, value in extra:
        for old in [k for k in into if k.lower() == name.lower()]:
            del into[old]
        into[name] = value


# With --proxy-resolves, how long a lookup here may take before the name is taken as one
# only the proxy knows: a network without public DNS may drop queries rather than refuse.
_LOCAL_LOOKUP_SECONDS = 3.0


def _check_proxied(opts: NetOptions, host: str, port: int, deadline: float) -> None:
    """Through a proxy we cannot pin the address: check the name and its addresses now.

    A name that does not resolve here is the proxy's to resolve only when the user says
    the proxy resolves names and enforces egress (--proxy-resolves): the policy cannot see
    where the proxy then connects."""
    check_name(opts.policy, host)
    if parse_ip(host) is not None or not opts.proxy_resolves:
        try:
            resolve_checked(opts.policy, host, port, deadline=deadline)
        except DNSError as exc:
            if opts.proxy_resolves is None:
                raise
            raise DNSError(
                f"{exc.message} (a proxy is configured for this URL: if the proxy resolves "
                "names and enforces egress, use --proxy-resolves or WF_PROXY_RESOLVES=1)"
            ) from None
        return
    try:
        addrs = resolve(
            host, port, deadline=min(deadline, time.monotonic() + _LOCAL_LOOKUP_SECONDS)
        )
    except (DNSError, Timeout):
        if time.monotonic() >= deadline:
            raise Timeout(f"timed out resolving {host}") from None
        trace.trace(
            "policy: %s does not resolve here; the proxy resolves it (--proxy-resolves)", host
        )
        return  # the proxy's to resolve: --proxy-resolves says it enforces egress
    for addr in addrs:
        check_address(opts.policy, host, addr)


def _header_text(value: str) -> str:
    """http.client decodes header bytes as Latin-1; servers that send raw non-ASCII in a
    Location send UTF-8 (as browsers read it), so that is tried first."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value


def _one_request(
    url: str,
    method: str,
    headers: dict[str, str],
    body: bytes | None,
    opts: NetOptions,
    deadline: float,
    abort: Abort | None = None,
    attempt_timeout: float | None = None,
    *,
    started: float,
) -> tuple[int, dict[str, str], bytes]:
    """One request and its answer; ``started`` is when the fetch began (redirects
    included), which the message of a fetch its deadline ended counts from."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    proxy = proxy_for(url)
    # A direct request needs nothing of urllib3 (common.http.transport): not even its
    # exceptions, which _map_error then leaves out.
    u3: Any = None
    if proxy:
        _check_proxied(opts, host, default_port(parts), deadline)
        _without_http2_init()
        from urllib3 import exceptions as u3
    guard = Deadline(opts.policy, deadline, proxied=bool(proxy), abort=abort)
    left = max(0.001, deadline - time.monotonic())
    # Each socket waits at most ``left``: the attempt's limit when it is the shorter, else
    # the time to the deadline, and then a socket that gives up is the deadline's end
    # (its timer may fire a moment after the socket does).
    attempt_cut = False
    if attempt_timeout is not None and attempt_timeout < left:
        left, attempt_cut = max(0.001, attempt_timeout), True
    closers: list[Callable[[], None]] = []
    got_headers = False
    sent = time.monotonic()
    try:
        try:
            if proxy:
                status, header_items, chunks = _via_proxy(
                    proxy, url, method, headers, body, guard, left, closers
                )
            else:
                from common.http import transport

                conn, resp = transport.request(url, method, headers, body, guard, left)
                closers.append(conn.close)
                status, header_items = resp.status, resp.getheaders()
                chunks = transport.stream(resp, _CHUNK, host)
            got_headers = True
            first_byte = trace.ms(sent)
            resp_headers: dict[str, str] = {}
            for key, value in header_items:
                k = key.lower()
                resp_headers[k] = f"{resp_headers[k]}, {value}" if k in resp_headers else value
            encodings(resp_headers.get("content-encoding", ""), host)
            # No body follows, whatever length is declared: a HEAD's or a 304's is that of
            # the body a GET would get.
            if method == "HEAD" or status in (204, 304) or status < 200:
                _trace_hop(method, url, status, guard, first_byte, sent, 0, 0)
                return status, resp_headers, b""
            length = resp_headers.get("content-length", "").strip()
            if length.isdigit() and int(length) > opts.max_bytes and status not in _REDIRECT_CODES:
                raise too_large(opts.max_bytes, decoded=False)
            sink = Sink(decoders(resp_headers.get("content-encoding", ""), host), opts.max_bytes)
            raw_total = 0
            for chunk in chunks:
                raw_total += len(chunk)
                if raw_total > opts.max_bytes:
                    raise too_large(opts.max_bytes, decoded=False)
                sink.feed(chunk)
                guard.remaining()
            if guard.expired:
                raise Timeout("timed out: the total deadline passed while reading the body")
            sink.check_complete(host)
            decoded = sink.body()
            _trace_hop(method, url, status, guard, first_byte, sent, raw_total, len(decoded))
            return status, resp_headers, decoded
        except ToolError:
            if guard.expired:
                raise _deadline_error(opts, started, deadline, abort) from None
            raise
        except Exception as exc:
            at_deadline = _deadline_error(opts, started, deadline, abort)
            raise _map_error(
                exc,
                u3,
                guard,
                host,
                got_headers,
                at_deadline,
                port=parts.port,
                attempt_cut=attempt_cut,
            ) from None
    finally:
        _local.guard = None
        guard.cancel()
        for close in reversed(closers):
            close()


def _via_proxy(
    proxy: str,
    url: str,
    method: str,
    headers: dict[str, str],
    body: bytes | None,
    guard: Deadline,
    left: float,
    closers: list[Callable[[], None]],
) -> tuple[int, Iterable[tuple[str, str]], Iterable[bytes]]:
    """One request through the proxy with urllib3 (CONNECT tunnels, proxy credentials):
    the status, the header fields and the body's chunks. ``closers`` gets what releases
    the connection, in the order to call it last-first."""
    import urllib3

    http_pool, https_pool = _pool_classes()
    timeout = urllib3.Timeout(connect=left, read=left)
    manager: Any = urllib3.ProxyManager(proxy, num_pools=2, maxsize=1, timeout=timeout)
    manager.pool_classes_by_scheme = {"http": http_pool, "https": https_pool}
    closers.append(manager.clear)
    _local.guard = guard
    resp = manager.urlopen(
        method,
        url,
        body=body,
        headers=headers,
        redirect=False,
        retries=False,
        preload_content=False,
        decode_content=False,
        assert_same_host=False,
    )
    closers.append(resp.release_conn)
    return resp.status, resp.headers.items(), resp.stream(_CHUNK, decode_content=False)


# What OpenSSL says when the answer to its ClientHello is not TLS at all (a plain-HTTP
# server answering "HTTP/1.1 400"): the version, length or record type it read is nonsense.
_NOT_TLS = (
    "WRONG_VERSION_NUMBER",
    "HTTP_REQUEST",
    "PACKET_LENGTH_TOO_LONG",
    "RECORD_LAYER_FAILURE",
)


# urllib3's words when the connection ends where a chunk size is due (an empty line).
_U3_CUT_AT_CHUNK = "Response ended prematurely"


def _trace_hop(
    method: str,
    url: str,
    status: int,
    guard: Deadline,
    first_byte: int,
    sent: float,
    wire: int,
    size: int,
) -> None:
    # The URL last: a long one is what the line's cap cuts.
    trace.trace(
        "HTTP %d from %s, first byte %d ms, %d bytes (%d on the wire) in %d ms: %s %s",
        status,
        guard.peer or "?",
        first_byte,
        size,
        wire,
        trace.ms(sent),
        method,
        url,
    )


def _deadline_error(
    opts: NetOptions, started: float, deadline: float, abort: Abort | None
) -> Timeout:
    """The error of a fetch that its deadline ended, naming the figure that applied: the
    time it ran when an abort stopped it, the time it had when the caller's deadline came
    well before --timeout's (a retry, a later page), else --timeout."""
    if abort is not None and abort.fired:
        return Timeout(f"cancelled after {_seconds(time.monotonic() - started)} s")
    if deadline < started + opts.timeout * _OWN_DEADLINE:
        return Timeout(
            f"timed out after {_seconds(deadline - started)} s "
            "(what was left of the overall deadline)"
        )
    return Timeout(f"timed out after {opts.timeout:g} s (the total deadline)")


# A caller's deadline that leaves the fetch this share of --timeout or more is --timeout's
# own, counted from a moment earlier: wf's page deadline, whose first fetch starts a few
# milliseconds into the page's time, times out "after 30 s", not "after 29.9 s".
_OWN_DEADLINE = 0.95


def _seconds(value: float) -> str:
    return f"{round(max(value, 0.0), 2):g}"


def _map_error(
    exc: BaseException,
    u3: Any,
    guard: Deadline,
    host: str,
    got_headers: bool,
    at_deadline: Timeout,
    *,
    port: int | None = None,
    attempt_cut: bool = False,
) -> ToolError:
    import http.client
    import ssl

    if guard.expired:
        return at_deadline

    def u3_types(*names: str) -> tuple[type[BaseException], ...]:
        # Without a proxy urllib3 is not imported, and none of its exceptions can occur.
        return tuple(getattr(u3, name) for name in names) if u3 is not None else ()

    inner: BaseException = exc
    chain = [exc]
    while True:
        # A context raised away ("raise ... from None", as urllib3 does) is not the cause.
        context = None if inner.__suppress_context__ else inner.__context__
        nxt = getattr(inner, "reason", None) or inner.__cause__ or context
        if isinstance(inner, u3_types("ProtocolError")) and inner.args and len(inner.args) > 1:
            nxt = inner.args[1]
        if not isinstance(nxt, BaseException) or nxt is inner:
            break
        if isinstance(nxt, ToolError):
            return nxt
        inner = nxt
        chain.append(inner)
    if isinstance(exc, u3_types("SSLError")) or isinstance(
        inner, (ssl.SSLError, ssl.CertificateError)
    ):
        detail = (
            getattr(inner, "verify_message", None) or getattr(inner, "reason", None) or str(inner)
        )
        if str(getattr(inner, "reason", "")).upper() in _NOT_TLS:
            where = f"[{host}]:{port or 443}" if ":" in host else f"{host}:{port or 443}"
            return TLSError(
                f"TLS handshake failed with {where}: the server does not speak TLS "
                "(wrong port or http:// URL?)"
            )
        return TLSError(f"TLS error with {host}: {detail}")
    if isinstance(exc, u3_types("ReadTimeoutError", "ConnectTimeoutError")) or isinstance(
        inner, TimeoutError
    ):
        return Timeout(f"timed out waiting for {host}") if attempt_cut else at_deadline
    # The innermost exception can be a ValueError under BadStatusLine: look at every link.
    for link in chain:
        if got_headers or not isinstance(link, http.client.HTTPException):
            continue
        if isinstance(link, (http.client.RemoteDisconnected, http.client.IncompleteRead)):
            continue
        if isinstance(link, http.client.BadStatusLine):
            # .line and .version are set by http.client but missing from typeshed.
            detail = f"bad status line {link.line.strip()[:80]!r}"  # type: ignore[attr-defined]
        elif isinstance(link, http.client.UnknownProtocol):
            detail = f"unknown protocol {link.version[:40]!r}"  # type: ignore[attr-defined]
        else:
            detail = _short(link)
        return BadResponse(f"malformed answer from {host}: {detail}")
    if (
        got_headers
        or isinstance(inner, (http.client.IncompleteRead,))
        or isinstance(exc, u3_types("IncompleteRead", "InvalidChunkLength"))
    ):
        detail = _short(inner)
        # urllib3 reads the chunks through a proxy: its words for what http.client's
        # reader (common.http.framing) says itself.
        if isinstance(inner, u3_types("InvalidChunkLength")):
            detail = chunk_size_error(inner.length)  # type: ignore[attr-defined]
        elif isinstance(inner, u3_types("ProtocolError")) and detail == _U3_CUT_AT_CHUNK:
            detail = chunk_size_error(b"")
        return TransferError(f"transfer from {host} broke off: {detail}")
    if isinstance(inner, (ConnectionError, http.client.RemoteDisconnected, OSError)) or isinstance(
        exc, u3_types("ProtocolError")
    ):
        return ConnectError(f"connection to {host} failed before any answer: {_short(inner)}")
    return ToolError(f"unexpected error talking to {host}: {_short(exc)} (this is a bug)")


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:200]


def raise_for_status(resp: Response) -> None:
    from common.errors import Blocked, HTTPClientError, HTTPServerError

    where = resp.final_url
    if resp.status == 429:
        raise Blocked(f"HTTP 429 Too Many Requests from {where}")
    if 400 <= resp.status < 500:
        raise HTTPClientError(f"HTTP {resp.status} from {where}")
    if resp.status >= 500:
        raise HTTPServerError(f"HTTP {resp.status} from {where}")
