"""URLs: validation and normalisation of what users and pages give us, credentials out of
the userinfo, and the default port."""

from __future__ import annotations

import base64
import re
from urllib.parse import SplitResult, quote, unquote, urlsplit, urlunsplit

from common.errors import InvalidURL
from common.policy import canonical_host, parse_ip

MAX_URL_LENGTH = 32 * 1024
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


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


def split_credentials(url: str) -> tuple[str, str | None]:
    """Move userinfo out of the URL into a Basic Authorization value (as curl does)."""
    parts = urlsplit(url)
    if parts.username is None:
        return url, None
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")), basic_auth(parts)


def basic_auth(parts: SplitResult) -> str:
    """The Basic credentials of a URL's userinfo, percent-decoded: ``Basic dXNlcjpwdw==``.
    Both the HTTP client (Authorization) and the render proxy (Proxy-Authorization) send it."""
    user = unquote(parts.username or "")
    password = unquote(parts.password or "")
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


def default_port(parts: SplitResult) -> int:
    """The port a URL names, else its scheme's: 443 for https, 80 for everything else."""
    return parts.port or (443 if parts.scheme.lower() == "https" else 80)
