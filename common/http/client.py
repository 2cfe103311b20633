"""fetch: policy-checked connections (common.http.deadline), our own redirects, one total
deadline, size caps on the wire and after decompression (common.http.decompress), proxies
from the environment (common.http.proxy_env), and every failure mapped to its exit code
(common.http.failures).

Every request, direct or through a proxy, goes out on http.client (common.http.transport).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from common import trace
from common.errors import InvalidURL, PolicyRefused, Timeout, ToolError, TooManyRedirects
from common.http.deadline import Abort, ConnectionGuard
from common.http.decompress import CAP_FLAG, Sink, decoders, encodings, too_large
from common.http.failures import deadline_error, map_error
from common.http.headers import DEFAULT_ACCEPT, base_headers, location_text, merge_headers
from common.http.proxy_env import check_proxied_target, proxy_for
from common.http.url import default_port, normalise_url, split_credentials
from common.policy import Policy, check_scheme

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
MAX_REDIRECTS = 10
_CHUNK = 64 * 1024
_REDIRECT_CODES = (301, 302, 303, 307, 308)
_CREDENTIAL_HEADERS = ("authorization", "cookie", "proxy-authorization")


@dataclass(frozen=True)
class NetOptions:
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    # The option that raises max_bytes, named when a body is over it; None: the tool has
    # none (ws, whose error named wf's --max-bytes).
    max_bytes_flag: str | None = CAP_FLAG
    user_agent: str | None = None
    policy: Policy = field(default_factory=Policy)
    max_redirects: int = MAX_REDIRECTS
    # -H: sent with every request, dropped on a redirect to another origin.
    headers: tuple[tuple[str, str], ...] = ()
    # --proxy-resolves: a name that does not resolve here goes to the proxy unchecked.
    # None: the tool has no such option (ws), so a failed lookup names none.
    proxy_resolves: bool | None = None
    # The Accept header sent (-H can still replace it): wf asks for Markdown first.
    accept: str = DEFAULT_ACCEPT
    # Where the proxy variables and TLS's CA store (SSL_CERT_FILE...) are read; None:
    # os.environ (a library caller's own, ws.api).
    environ: Mapping[str, str] | None = field(default=None, compare=False, repr=False)


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
    req_headers = request_headers(opts)
    body = _request_body(data, req_headers)
    merge_headers(req_headers, (headers or {}).items())
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
        nxt = _redirect_target(target, location)
        if hop == opts.max_redirects:
            raise TooManyRedirects(f"too many redirects (more than {opts.max_redirects})")
        if nxt in seen or split_credentials(nxt)[0] in seen:
            raise TooManyRedirects(f"redirect loop at {nxt}")
        trace.trace("redirect: HTTP %d to %s", status, nxt)
        if on_redirect:
            on_redirect(nxt)
        if _origin(nxt) != origin:
            req_headers = _for_another_origin(req_headers, dropped)
            current = split_credentials(nxt)[0]
            origin = _origin(current)
        else:
            current = nxt
        if status == 303 or (status in (301, 302) and method == "POST"):
            method, body = "GET", None
            req_headers.pop("Content-Type", None)
    raise TooManyRedirects(f"too many redirects (more than {opts.max_redirects})")


def _request_body(data: bytes | Mapping[str, str] | None, headers: dict[str, str]) -> bytes | None:
    """The body to send: form fields URL-encoded (with their Content-Type set in
    ``headers``), bytes as given."""
    if isinstance(data, Mapping):
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return urlencode(dict(data)).encode("ascii")
    return data


def _redirect_target(target: str, location: str) -> str:
    """The URL a Location on ``target`` sends to, normalised; PolicyRefused for a scheme
    we do not follow or a URL that is not one."""
    nxt = urljoin(target, location_text(location).strip())
    check_scheme(urlsplit(nxt).scheme, nxt[:200])
    try:
        return normalise_url(nxt)
    except InvalidURL as exc:
        raise PolicyRefused(f"refused redirect to an invalid URL: {exc.message}") from None


def _for_another_origin(headers: dict[str, str], dropped: set[str]) -> dict[str, str]:
    """The headers a redirect to another origin carries: credentials and -H headers never
    follow one (scheme, host or port, as curl has it: not to another port's service, nor
    to http)."""
    gone = [k for k in headers if k.lower() in dropped]
    if gone:
        trace.trace("redirect: another origin; not sent there: %s", ", ".join(gone))
    return {k: v for k, v in headers.items() if k.lower() not in dropped}


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), default_port(parts)


def request_headers(opts: NetOptions) -> dict[str, str]:
    """The headers every request of these options carries: ours, then -H over them."""
    return base_headers(opts.user_agent, opts.headers, opts.accept)


def policy_scope(url: str, opts: NetOptions) -> str:
    """What decides where a fetch of ``url`` may connect, as one string: the policy, the
    proxy for the URL and --proxy-resolves (a cache keys its entries by it)."""
    import json

    policy = opts.policy
    return json.dumps(
        [
            policy.allow_private,
            sorted(policy.allow_hosts),
            proxy_for(url, opts.environ) or "",
            bool(opts.proxy_resolves),
        ]
    )


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
    proxy = proxy_for(url, opts.environ)
    if proxy:
        check_proxied_target(opts.policy, host, default_port(parts), deadline, opts.proxy_resolves)
    guard = ConnectionGuard(opts.policy, deadline, proxied=bool(proxy), abort=abort)
    left = max(0.001, deadline - time.monotonic())
    # Each socket waits at most ``left``: the attempt's limit when it is the shorter, else
    # the time to the deadline, and then a socket that gives up is the deadline's end
    # (its timer may fire a moment after the socket does).
    attempt_cut = False
    if attempt_timeout is not None and attempt_timeout < left:
        left, attempt_cut = max(0.001, attempt_timeout), True
    conn: Any = None
    got_headers = False
    try:
        try:
            from common.http import transport

            sent = time.monotonic()
            conn, resp = transport.send(
                url, method, headers, body, guard, left, proxy, opts.environ
            )
            got_headers = True
            return _answer(resp, method, url, opts, guard, sent)
        except ToolError:
            if guard.expired:
                raise deadline_error(opts.timeout, started, deadline, abort) from None
            raise
        except Exception as exc:
            at_deadline = deadline_error(opts.timeout, started, deadline, abort)
            raise map_error(
                exc,
                guard,
                host,
                got_headers,
                at_deadline,
                port=parts.port,
                attempt_cut=attempt_cut,
            ) from None
    finally:
        guard.cancel()
        if conn is not None:
            conn.close()


def _answer(
    resp: Any, method: str, url: str, opts: NetOptions, guard: ConnectionGuard, sent: float
) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and decoded body of an answer whose head is read: repeated
    headers joined, the body capped on the wire and after decoding, within the deadline."""
    from common.http.transport import stream

    host = urlsplit(url).hostname or ""
    first_byte = trace.ms(sent)
    status: int = resp.status
    resp_headers: dict[str, str] = {}
    for key, value in resp.getheaders():
        k = key.lower()
        resp_headers[k] = f"{resp_headers[k]}, {value}" if k in resp_headers else value
    encodings(resp_headers.get("content-encoding", ""), host)
    # No body follows, whatever length is declared: a HEAD's or a 304's is that of the body
    # a GET would get.
    if method == "HEAD" or status in (204, 304) or status < 200:
        _trace_hop(method, url, status, guard, first_byte, sent, 0, 0)
        return status, resp_headers, b""
    length = resp_headers.get("content-length", "").strip()
    if length.isdigit() and int(length) > opts.max_bytes and status not in _REDIRECT_CODES:
        raise too_large(opts.max_bytes, decoded=False, flag=opts.max_bytes_flag)
    coding = resp_headers.get("content-encoding", "")
    sink = Sink(decoders(coding, host), opts.max_bytes, opts.max_bytes_flag)
    raw_total = 0
    for chunk in stream(resp, _CHUNK, host):
        raw_total += len(chunk)
        if raw_total > opts.max_bytes:
            raise too_large(opts.max_bytes, decoded=False, flag=opts.max_bytes_flag)
        sink.feed(chunk)
        guard.remaining()
    if guard.expired:
        raise Timeout("timed out: the total deadline passed while reading the body")
    sink.check_complete(host)
    decoded = sink.body()
    _trace_hop(method, url, status, guard, first_byte, sent, raw_total, len(decoded))
    return status, resp_headers, decoded


def _trace_hop(
    method: str,
    url: str,
    status: int,
    guard: ConnectionGuard,
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


def raise_for_status(resp: Response) -> None:
    from common.errors import Blocked, HTTPClientError, HTTPServerError

    where = resp.final_url
    if resp.status == 429:
        raise Blocked(f"HTTP 429 Too Many Requests from {where}")
    if 400 <= resp.status < 500:
        raise HTTPClientError(f"HTTP {resp.status} from {where}")
    if resp.status >= 500:
        raise HTTPServerError(f"HTTP {resp.status} from {where}")
