"""The HTTP client: policy-checked connections, our own redirects, one total deadline,
size caps on the wire and after decompression, proxies from the environment.

urllib3 is imported inside the functions that use it so that ``--help`` stays fast.
"""

from __future__ import annotations

import base64
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit, urlunsplit

from common.errors import (
    BadResponse,
    ConnectError,
    InvalidURL,
    PolicyRefused,
    Timeout,
    TLSError,
    TooLarge,
    ToolError,
    TooManyRedirects,
    TransferError,
    UsageError,
)
from common.policy import (
    Policy,
    canonical_host,
    check_name,
    check_scheme,
    parse_ip,
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
MAX_URL_LENGTH = 32 * 1024
_CHUNK = 64 * 1024
# Most a decoder may produce per call: zlib builds its output in blocks and then joins
# them, so one unbounded call briefly holds twice what it returns.
_DECODE_STEP = 1024 * 1024
_REDIRECT_CODES = (301, 302, 303, 307, 308)
# Bounds on the head of an answer, far above what real servers send (a few KB of headers,
# one interim 103 at most), so that a flood is refused before it costs memory. Python's
# http.client also refuses more than 100 header lines in one head and lines over 64 KiB.
MAX_HEADER_BYTES = 256 * 1024
MAX_HEADER_LINES = 500
MAX_INTERIM = 10
# urllib3 refuses longer chains too (MultiDecoder.max_decode_links), but only after we
# would have built one decoder per token.
MAX_ENCODINGS = 5
_PROXY_SCHEMES = ("http", "https")
_CREDENTIAL_HEADERS = ("authorization", "cookie", "proxy-authorization")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


@dataclass(frozen=True)
class NetOptions:
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    user_agent: str | None = None
    policy: Policy = field(default_factory=Policy)
    max_redirects: int = MAX_REDIRECTS


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


# ---------------------------------------------------------------- URLs


def normalise_url(url: str) -> str:
    """Validate a URL from the command line, stdin or a page; raise InvalidURL (3).

    A bare ``host/path`` gets ``http://`` as curl does. Non-ASCII hosts go through IDNA;
    non-ASCII paths are percent-encoded, as browsers send them.
    """
    text = url.strip()
    if not text:
        raise InvalidURL("empty URL")
    if len(text) > MAX_URL_LENGTH:
        raise InvalidURL(f"URL is {len(text)} characters long (the limit is {MAX_URL_LENGTH})")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise InvalidURL(f"URL contains control characters: {text[:80]!r}")
    m = _SCHEME.match(text)
    if m is None or (text[m.end() : m.end() + 2] != "//" and _looks_like_host_port(text)):
        text = "http://" + text
    elif text[m.end() : m.end() + 2] != "//" and m.group(1).lower() in ("http", "https"):
        raise InvalidURL(f"invalid URL {text[:80]}: expected {m.group(1).lower()}://")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(f"invalid URL {text[:80]}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise InvalidURL(f"unsupported scheme {scheme!r} in {text[:80]} (only http and https)")
    host = parts.hostname
    if not host:
        raise InvalidURL(f"no host in URL {text[:80]}")
    if " " in host or any(c in host for c in '<>"{}|\\^`'):
        raise InvalidURL(f"invalid host in URL {text[:80]}")
    if ":" in host:
        zone = ""
        if "%" in host:
            host, zone = host.split("%", 1)
            zone = "%25" + zone
        netloc_host = f"[{host}{zone}]"
    else:
        try:
            netloc_host = canonical_host(host)
            netloc_host.encode("ascii")
        except UnicodeError:
            raise InvalidURL(f"invalid host name {host!r}") from None
        if not _valid_host(netloc_host):
            raise InvalidURL(f"invalid host name {host[:80]!r}")
    netloc = netloc_host if port is None else f"{netloc_host}:{port}"
    if parts.username is not None:
        userinfo = parts.username + (f":{parts.password}" if parts.password is not None else "")
        netloc = f"{userinfo}@{netloc}"
    path = quote(parts.path, safe="/%:@!$&'()*+,;=-._~") or "/"
    query = quote(parts.query, safe="/%:@!$&'()*+,;=-._~?")
    return urlunsplit((scheme, netloc, path, query, ""))


_LABEL = re.compile(r"^[a-z0-9_-]{1,63}$")
_NUMERIC_LABEL = re.compile(r"^(?:[0-9]+|0x[0-9a-f]*)$")


def _valid_host(host: str) -> bool:
    """A canonical host that could be looked up: an address, or a DNS name of 63-byte
    labels at most. A name that ends in a number but is no IPv4 address is invalid (as in
    browsers); such names would only become pointless queries to the resolver."""
    if parse_ip(host) is not None:
        return True
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        return False
    if _NUMERIC_LABEL.match(labels[-1]):
        return False
    try:
        host.encode("ascii").decode("idna")  # xn-- labels must be real punycode
    except UnicodeError:
        return False
    return True


def _looks_like_host_port(text: str) -> bool:
    """``localhost:8080/x`` is a host and port, ``mailto:x`` a scheme."""
    head = text.split("/", 1)[0].split("?", 1)[0]
    _, _, port = head.rpartition(":")
    return port.isdigit()


def _split_credentials(url: str) -> tuple[str, str | None]:
    """Move userinfo out of the URL into a Basic Authorization value (as curl does)."""
    parts = urlsplit(url)
    if parts.username is None:
        return url, None
    from urllib.parse import unquote

    user = unquote(parts.username)
    password = unquote(parts.password or "")
    netloc = parts.netloc.rsplit("@", 1)[1]
    token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")), f"Basic {token}"


# ---------------------------------------------------------------- the deadline


_ACTIVE: set[_Guard] = set()
_ACTIVE_LOCK = threading.Lock()


def abort_fetches() -> None:
    """End every fetch in flight now, as if its deadline had passed: an interrupted batch
    must not wait for its slowest server."""
    with _ACTIVE_LOCK:
        guards = list(_ACTIVE)
    for guard in guards:
        guard._fire()


class _Guard:
    """One fetch's connection guard: policy at connect time, and the total deadline.

    At the deadline a timer shuts down every socket this fetch opened, so a server that
    trickles one byte a second cannot hold a read open past it.
    """

    def __init__(self, policy: Policy, deadline: float, *, proxied: bool) -> None:
        self.policy = policy
        self.deadline = deadline
        self.proxied = proxied
        self.expired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self._timer.daemon = True
        self._timer.start()
        with _ACTIVE_LOCK:
            _ACTIVE.add(self)

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            self.expired = True
            raise Timeout("timed out: the total deadline passed")
        return left

    def _fire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cancel(self) -> None:
        self._timer.cancel()
        with _ACTIVE_LOCK:
            _ACTIVE.discard(self)

    def connect(self, host: str, port: int, timeout: float | None, options: Any) -> socket.socket:
        if self.proxied:
            # The proxy is operator configuration; the target was checked before.
            from common.policy import resolve

            addrs = resolve(host, port, deadline=self.deadline)
        else:
            addrs = resolve_checked(self.policy, host, port, deadline=self.deadline)
        last: Exception | None = None
        for addr in addrs:
            family = socket.AF_INET6 if addr.version == 6 else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            with self._lock:
                if self.expired:
                    sock.close()
                    raise Timeout("timed out: the total deadline passed")
                self._socks.append(sock)
            try:
                for opt in options or ():
                    sock.setsockopt(*opt)
                limit = self.remaining()
                if isinstance(timeout, (int, float)):
                    limit = min(limit, float(timeout))
                sock.settimeout(limit)
                sock.connect((str(addr), port))
                sock.settimeout(self.remaining())
                return sock
            except TimeoutError:
                sock.close()
                raise Timeout(f"timed out connecting to {host} port {port}") from None
            except ToolError:
                sock.close()
                raise
            except OSError as exc:
                sock.close()
                last = exc
        reason = getattr(last, "strerror", None) or str(last)
        raise ConnectError(f"could not connect to {host} port {port}: {reason}")


_local = threading.local()


def _strict_response() -> type:
    """http.client's response, minus its leniencies and with bounds on the head.

    A head cut off by the end of the connection would count as complete, and an invalid
    Content-Length would mean "read until close": both would pass a partial body as a
    whole one, and RFC 9112 makes them framing errors. Every head (interim ones included)
    counts against MAX_HEADER_BYTES and MAX_HEADER_LINES; interim 1xx answers other than
    101 are skipped, up to MAX_INTERIM (http.client itself skips only 100 Continue and
    would return a 103 Early Hints as the answer).
    """
    import http.client

    class Malformed(http.client.HTTPException):
        pass

    class HeadReader:
        def __init__(self, fp: Any) -> None:
            self.fp = fp
            self.last: bytes | None = None
            self.size = 0
            self.lines = 0

        def readline(self, limit: int = -1) -> bytes:
            self.last = self.fp.readline(limit)
            self.size += len(self.last)
            self.lines += 1
            if self.size > MAX_HEADER_BYTES:
                raise Malformed(f"the headers are larger than {MAX_HEADER_BYTES // 1024} KiB")
            if self.lines > MAX_HEADER_LINES:
                raise Malformed(f"more than {MAX_HEADER_LINES} header lines")
            return self.last

        def __getattr__(self, name: str) -> Any:
            return getattr(self.fp, name)

    class StrictResponse(http.client.HTTPResponse):
        def _read_status(self) -> tuple[str, int, str]:
            for _ in range(MAX_INTERIM + 1):
                version, status, reason = super()._read_status()
                if not 100 <= status < 200 or status == 101:
                    return version, status, reason
                self._skip_head()
            raise Malformed(f"more than {MAX_INTERIM} interim (1xx) answers")

        def _skip_head(self) -> None:
            while True:
                line = self.fp.readline(http.client._MAXLINE + 1)
                if len(line) > http.client._MAXLINE:
                    raise http.client.LineTooLong("header line")
                if line in (b"\r\n", b"\n", b""):
                    return

        def begin(self) -> None:
            if self.headers is not None:
                return
            fp, reader = self.fp, HeadReader(self.fp)
            self.fp = reader  # type: ignore[assignment]
            try:
                super().begin()
            finally:
                if self.fp is reader:
                    self.fp = fp
            if reader.last == b"":
                raise Malformed("the connection closed before the headers ended")
            values = {
                v.strip()
                for h in self.headers.get_all("content-length") or ()
                for v in h.split(",")
            }
            if (
                values
                and not self.chunked
                and (len(values) > 1 or not re.fullmatch(r"[0-9]+", min(values)))
            ):
                raise Malformed(f"invalid Content-Length {', '.join(sorted(values))!r}")

    return StrictResponse


def _pool_classes() -> tuple[type, type]:
    cached = getattr(_pool_classes, "cached", None)
    if cached:
        return cached
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

    def _new_conn(self: Any) -> socket.socket:
        guard: _Guard = _local.guard
        return guard.connect(self._dns_host, self.port, self.timeout, self.socket_options)

    attrs = {"_new_conn": _new_conn, "response_class": _strict_response()}
    guarded_http = type("GuardedHTTPConnection", (HTTPConnection,), attrs)
    guarded_https = type("GuardedHTTPSConnection", (HTTPSConnection,), attrs)
    http_pool = type("GuardedHTTPPool", (HTTPConnectionPool,), {"ConnectionCls": guarded_http})
    https_pool = type("GuardedHTTPSPool", (HTTPSConnectionPool,), {"ConnectionCls": guarded_https})
    _pool_classes.cached = (http_pool, https_pool)  # type: ignore[attr-defined]
    return http_pool, https_pool


def proxy_for(url: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The proxy URL for ``url`` from http_proxy/https_proxy (urllib's rules: the lower
    case variable wins, HTTP_PROXY is ignored under CGI, no_proxy bypasses). A proxy
    scheme we cannot speak is a usage error naming the variable."""
    import os
    import urllib.request

    env = os.environ if environ is None else environ
    parts = urlsplit(url)
    found = proxy_variable(env, parts.scheme)
    if found is None:
        return None
    name, proxy = found
    proxies = {parts.scheme: proxy}
    no_proxy = env.get("no_proxy", env.get("NO_PROXY", ""))
    if no_proxy:
        proxies["no"] = no_proxy
    if urllib.request.proxy_bypass_environment(parts.hostname or "", proxies):
        return None
    return check_proxy_url(name, proxy)


def proxy_variable(env: Mapping[str, str], scheme: str) -> tuple[str, str] | None:
    """(variable name, value) of the proxy for ``scheme``, as urllib would pick it."""
    lower = f"{scheme.lower()}_proxy"
    if lower in env:
        value = env[lower].strip()
        return (lower, value) if value else None
    upper = lower.upper()
    if upper == "HTTP_PROXY" and "REQUEST_METHOD" in env:
        return None  # httpoxy: under CGI this variable comes from a request header
    value = env.get(upper, "").strip()
    return (upper, value) if value else None


def check_proxy_url(name: str, proxy: str) -> str:
    """The proxy URL with a scheme; UsageError when urllib3 could not use it."""
    if "://" not in proxy:
        proxy = "http://" + proxy
    scheme = proxy.split("://", 1)[0].lower()
    shown = re.sub(r"//[^/@]*@", "//...@", proxy)[:200]
    if scheme not in _PROXY_SCHEMES:
        raise UsageError(
            f"{name}={shown}: unsupported proxy scheme {scheme!r} (only http:// and https:// proxies "
            f"are supported; unset {name} or point it at an HTTP proxy)"
        )
    try:
        host = urlsplit(proxy).hostname
        urlsplit(proxy).port  # noqa: B018 (raises on a bad port)
    except ValueError as exc:
        raise UsageError(f"{name}={shown}: invalid proxy URL ({exc})") from None
    if not host:
        raise UsageError(f"{name}={shown}: invalid proxy URL (no host)")
    return proxy


def check_proxy_environment(environ: Mapping[str, str] | None = None) -> None:
    """Fail at start-up, not at the first fetch, on a proxy variable we cannot use."""
    import os

    env = os.environ if environ is None else environ
    for scheme in ("http", "https"):
        found = proxy_variable(env, scheme)
        if found is not None:
            check_proxy_url(*found)


# ---------------------------------------------------------------- decompression


class _Inflate:
    """zlib with a bounded output per call; handles concatenated gzip members and raw
    deflate sent as "deflate" (a common server mistake)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._first = True
        self._fed = False
        self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS if kind == "gzip" else zlib.MAX_WBITS)

    def complete(self) -> bool:
        return self._obj.eof or not self._fed

    def feed(self, data: bytes, limit: int) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        while data:
            try:
                out = self._obj.decompress(data, limit)
            except zlib.error:
                if self.kind == "deflate" and self._first:
                    self._obj = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._first = False
                    continue
                raise TransferError(f"corrupt {self.kind} body") from None
            self._first = False
            if out:
                yield out
            if self._obj.unconsumed_tail:
                data = self._obj.unconsumed_tail
            elif self._obj.eof and self._obj.unused_data and self.kind == "gzip":
                data = self._obj.unused_data
                self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS)
            else:
                data = b""


class _Brotli:
    kind = "br"

    def __init__(self) -> None:
        import brotli  # type: ignore[import-not-found]

        self._obj = brotli.Decompressor()
        self._fed = False

    def complete(self) -> bool:
        return bool(self._obj.is_finished()) or not self._fed

    def feed(self, data: bytes, limit: int) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        out = self._obj.process(data, output_buffer_limit=limit)
        if out:
            yield out
        while not self._obj.is_finished() and not self._obj.can_accept_more_data():
            out = self._obj.process(b"", output_buffer_limit=limit)
            if not out:
                break
            yield out


class _Zstd:
    kind = "zstd"

    def __init__(self) -> None:
        from compression import zstd  # type: ignore[import-not-found]

        self._obj = zstd.ZstdDecompressor()
        self._fed = False

    def complete(self) -> bool:
        return bool(self._obj.eof) or not self._fed

    def feed(self, data: bytes, limit: int) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        out = self._obj.decompress(data, max_length=limit)
        if out:
            yield out
        while not self._obj.eof and not self._obj.needs_input:
            out = self._obj.decompress(b"", max_length=limit)
            if not out:
                break
            yield out


def _brotli_ok() -> bool:
    try:
        import inspect

        import brotli  # type: ignore[import-not-found]

        return "output_buffer_limit" in inspect.signature(brotli.Decompressor().process).parameters
    except Exception:
        return False


def _zstd_ok() -> bool:
    try:
        from compression import zstd  # type: ignore[import-not-found]  # noqa: F401

        return True
    except Exception:
        return False


def accept_encoding() -> str:
    """Only what we can decode with bounded memory is offered."""
    cached = getattr(accept_encoding, "cached", None)
    if cached is None:
        names = (
            ["gzip", "deflate"]
            + (["br"] if _brotli_ok() else [])
            + (["zstd"] if _zstd_ok() else [])
        )
        cached = accept_encoding.cached = ", ".join(names)  # type: ignore[attr-defined]
    return cached


_TOKEN = re.compile(r"[^,\s]+")


def _encodings(content_encoding: str, host: str) -> list[str]:
    """The coding tokens, in the order they were applied; more than MAX_ENCODINGS is a
    malformed answer. Counted lazily, so a 6 MB header never becomes a list of tokens."""
    tokens: list[str] = []
    for match in _TOKEN.finditer(content_encoding):
        if len(tokens) == MAX_ENCODINGS:
            raise BadResponse(
                f"malformed answer from {host}: Content-Encoding lists more than {MAX_ENCODINGS} codings"
            )
        tokens.append(match.group().lower())
    return tokens


def _decoders(content_encoding: str, host: str) -> list[Any]:
    out: list[Any] = []
    for token in reversed(_encodings(content_encoding, host)):
        if token in ("identity", "none"):
            continue
        if token in ("gzip", "x-gzip"):
            out.append(_Inflate("gzip"))
        elif token == "deflate":
            out.append(_Inflate("deflate"))
        elif token == "br" and _brotli_ok():
            out.append(_Brotli())
        elif token == "zstd" and _zstd_ok():
            out.append(_Zstd())
        else:
            raise BadResponse(f"unsupported Content-Encoding {token!r}")
    return out


class _Sink:
    """Collects the body through the decoder chain; every stage is capped at max_bytes."""

    def __init__(self, decoders: list[Any], max_bytes: int) -> None:
        self.decoders = decoders
        self.max_bytes = max_bytes
        self.counts = [0] * len(decoders)
        self.parts: list[bytes] = []
        self.size = 0

    def feed(self, data: bytes) -> None:
        self._push(0, data)

    def _push(self, stage: int, data: bytes) -> None:
        if stage == len(self.decoders):
            self.size += len(data)
            if self.size > self.max_bytes:
                raise _too_large(self.max_bytes, decoded=bool(self.decoders))
            self.parts.append(data)
            return
        limit = min(self.max_bytes - self.counts[stage] + 1, _DECODE_STEP)
        for out in self.decoders[stage].feed(data, max(1, limit)):
            self.counts[stage] += len(out)
            if self.counts[stage] > self.max_bytes:
                raise _too_large(self.max_bytes, decoded=True)
            self._push(stage + 1, out)

    def body(self) -> bytes:
        return b"".join(self.parts)

    def check_complete(self, host: str) -> None:
        """A compressed stream that stops before its end is a cut transfer, not a body."""
        for decoder in self.decoders:
            if not decoder.complete():
                raise TransferError(
                    f"transfer from {host} broke off: the {decoder.kind} stream ends early"
                )


def _too_large(cap: int, *, decoded: bool) -> TooLarge:
    what = "decompressed body" if decoded else "body"
    return TooLarge(f"{what} is larger than the cap of {cap} bytes (raise it with --max-bytes)")


# ---------------------------------------------------------------- fetch


def fetch(
    url: str,
    opts: NetOptions,
    *,
    method: str = "GET",
    data: bytes | Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    deadline: float | None = None,
    on_redirect: Callable[[str], None] | None = None,
) -> Response:
    """Fetch a URL under the policy and within one deadline. Any HTTP status is returned;
    network failures raise the ToolError of their exit code."""
    start = time.monotonic()
    deadline = min(deadline or float("inf"), start + opts.timeout)
    current = normalise_url(url)
    method = method.upper()
    body: bytes | None
    req_headers = {
        "User-Agent": opts.user_agent or DEFAULT_USER_AGENT,
        "Accept": DEFAULT_ACCEPT,
        "Accept-Language": DEFAULT_ACCEPT_LANGUAGE,
        "Accept-Encoding": accept_encoding(),
    }
    if isinstance(data, Mapping):
        body = urlencode(dict(data)).encode("ascii")
        req_headers["Content-Type"] = "application/x-www-form-urlencoded"
    else:
        body = data
    req_headers.update(headers or {})
    seen: list[str] = []
    origin_host = urlsplit(current).hostname
    for hop in range(opts.max_redirects + 1):
        target, auth = _split_credentials(current)
        hop_headers = dict(req_headers)
        if auth and not any(k.lower() == "authorization" for k in hop_headers):
            hop_headers["Authorization"] = auth
        status, resp_headers, resp_body = _one_request(
            target, method, hop_headers, body, opts, deadline
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
        if nxt in seen or _split_credentials(nxt)[0] in seen:
            raise TooManyRedirects(f"redirect loop at {nxt}")
        if on_redirect:
            on_redirect(nxt)
        if urlsplit(nxt).hostname != origin_host:
            # Credentials never follow a redirect to another host.
            req_headers = {
                k: v for k, v in req_headers.items() if k.lower() not in _CREDENTIAL_HEADERS
            }
            current = _split_credentials(nxt)[0]
            origin_host = urlsplit(current).hostname
        else:
            current = nxt
        if status == 303 or (status in (301, 302) and method == "POST"):
            method, body = "GET", None
            req_headers.pop("Content-Type", None)
    raise TooManyRedirects(f"too many redirects (more than {opts.max_redirects})")


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
) -> tuple[int, dict[str, str], bytes]:
    import urllib3
    from urllib3 import exceptions as u3

    parts = urlsplit(url)
    host = parts.hostname or ""
    proxy = proxy_for(url)
    if proxy:
        # Through a proxy we cannot pin the address; check the name and its addresses now.
        check_name(opts.policy, host)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        resolve_checked(opts.policy, host, port, deadline=deadline)
    guard = _Guard(opts.policy, deadline, proxied=bool(proxy))
    http_pool, https_pool = _pool_classes()
    left = max(0.001, deadline - time.monotonic())
    timeout = urllib3.Timeout(connect=left, read=left)
    if proxy:
        manager: Any = urllib3.ProxyManager(proxy, num_pools=2, maxsize=1, timeout=timeout)
    else:
        manager = urllib3.PoolManager(num_pools=2, maxsize=1, timeout=timeout)
    manager.pool_classes_by_scheme = {"http": http_pool, "https": https_pool}
    _local.guard = guard
    resp = None
    got_headers = False
    try:
        try:
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
            got_headers = True
            resp_headers: dict[str, str] = {}
            for key, value in resp.headers.items():
                k = key.lower()
                resp_headers[k] = f"{resp_headers[k]}, {value}" if k in resp_headers else value
            status = resp.status
            _encodings(resp_headers.get("content-encoding", ""), host)
            length = resp_headers.get("content-length", "").strip()
            if length.isdigit() and int(length) > opts.max_bytes and status not in _REDIRECT_CODES:
                raise _too_large(opts.max_bytes, decoded=False)
            if method == "HEAD" or status in (204, 304) or status < 200:
                return status, resp_headers, b""
            sink = _Sink(_decoders(resp_headers.get("content-encoding", ""), host), opts.max_bytes)
            raw_total = 0
            for chunk in resp.stream(_CHUNK, decode_content=False):
                raw_total += len(chunk)
                if raw_total > opts.max_bytes:
                    raise _too_large(opts.max_bytes, decoded=False)
                sink.feed(chunk)
                guard.remaining()
            if guard.expired:
                raise Timeout("timed out: the total deadline passed while reading the body")
            sink.check_complete(host)
            return status, resp_headers, sink.body()
        except ToolError:
            if guard.expired:
                raise Timeout(f"timed out after {opts.timeout:g} s (the total deadline)") from None
            raise
        except Exception as exc:
            raise _map_error(exc, u3, guard, host, got_headers, opts) from None
    finally:
        _local.guard = None
        guard.cancel()
        if resp is not None:
            resp.release_conn()
        manager.clear()


def _map_error(
    exc: BaseException, u3: Any, guard: _Guard, host: str, got_headers: bool, opts: NetOptions
) -> ToolError:
    import http.client
    import ssl

    if guard.expired:
        return Timeout(f"timed out after {opts.timeout:g} s (the total deadline)")
    inner: BaseException = exc
    chain = [exc]
    while True:
        nxt = getattr(inner, "reason", None) or inner.__cause__ or inner.__context__
        if isinstance(inner, u3.ProtocolError) and inner.args and len(inner.args) > 1:
            nxt = inner.args[1]
        if not isinstance(nxt, BaseException) or nxt is inner:
            break
        if isinstance(nxt, ToolError):
            return nxt
        inner = nxt
        chain.append(inner)
    if isinstance(exc, u3.SSLError) or isinstance(inner, (ssl.SSLError, ssl.CertificateError)):
        detail = (
            getattr(inner, "verify_message", None) or getattr(inner, "reason", None) or str(inner)
        )
        return TLSError(f"TLS error with {host}: {detail}")
    if isinstance(exc, (u3.ReadTimeoutError, u3.ConnectTimeoutError)) or isinstance(
        inner, TimeoutError
    ):
        return Timeout(f"timed out waiting for {host}")
    # The innermost exception can be a ValueError under BadStatusLine: look at every link.
    for link in chain:
        if got_headers or not isinstance(link, http.client.HTTPException):
            continue
        if isinstance(link, (http.client.RemoteDisconnected, http.client.IncompleteRead)):
            continue
        if isinstance(link, http.client.BadStatusLine):
            detail = f"bad status line {link.line.strip()[:80]!r}"
        elif isinstance(link, http.client.UnknownProtocol):
            detail = f"unknown protocol {link.version[:40]!r}"
        else:
            detail = _short(link)
        return BadResponse(f"malformed answer from {host}: {detail}")
    if (
        got_headers
        or isinstance(inner, (http.client.IncompleteRead,))
        or isinstance(exc, (u3.IncompleteRead, u3.InvalidChunkLength))
    ):
        return TransferError(f"transfer from {host} broke off: {_short(inner)}")
    if isinstance(inner, (ConnectionError, http.client.RemoteDisconnected, OSError)) or isinstance(
        exc, u3.ProtocolError
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
        raise Blocked(f"HTTP 429 Too Many Requests from {where}", status=429)
    if 400 <= resp.status < 500:
        raise HTTPClientError(f"HTTP {resp.status} from {where}", status=resp.status)
    if resp.status >= 500:
        raise HTTPServerError(f"HTTP {resp.status} from {where}", status=resp.status)
