"""Search results: one clean-up for every backend, de-duplication, domain filters.

Backends hand over strings as the page or the JSON gave them, entities decoded (lxml
decodes a page's; SearxNG's backend, its JSON's, with ``clean_text``); everything a user
sees passes through ``finalise`` so that the engines produce results of one shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit, urlunsplit

from common.text import INVISIBLE, cap, one_line

# A URL with a character common.text removes (controls, bidi, tag, zero-width), a lone
# surrogate (a JSON escape such as \ud800, which cannot be written as UTF-8) or white
# space is not one a reader can trust or pipe into wf: the result is dropped.
_NOT_IN_URL = re.compile(f"[{INVISIBLE}\ud800-\udfff\\s]")
# Compiled on first use (re's cache): only --allow and --block need it.
_DOMAIN_LABEL = r"^(?!-)[a-z0-9-]{1,63}(?<!-)$"
# A percent-escape, and the characters RFC 3986 says an escape of is the character itself.
_ESCAPE = r"%([0-9A-Fa-f]{2})"
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ASCII_SAFE = "".join(chr(i) for i in range(0x21, 0x7F))
# A title or snippet many times longer than engines write is a hostile or broken
# answer: it is cut, marked with "...", so that a page of results stays one an agent can
# read whole (a snippet keeps room for the long abstracts some SearxNG engines give).
TITLE_CHARS = 500
SNIPPET_CHARS = 2000
# A result's date as the engine gave it (an ISO stamp, "June 19, 2025", "3 days ago") is
# short: a longer one is no date, and is left out rather than cut.
PUBLISHED_CHARS = 64
# The longest result URL kept: the longest wf reads (common.http.url.MAX_URL_LENGTH, not
# imported: reading the result cache needs no HTTP). A longer one is no link a reader or
# ``ws --urls | wf -`` can follow, and a hostile page's 3 MB URL was printed whole.
URL_CHARS = 32 * 1024
# Query parameters that only track the click; two URLs differing in them are one page.
_TRACKING = re.compile(r"^(utm_[a-z]+|fbclid|gclid|msclkid|mc_cid|mc_eid|ref_src)$", re.I)


@dataclass(frozen=True)
class Result:
    """One search result, cleaned up, as every backend hands it over."""

    title: str
    url: str
    snippet: str = ""
    provider: str = ""
    published: str | None = None
    rank: int = 0
    # The URL's url_key as finalise computed it ("" when not yet known: a result built
    # elsewhere, one read back from the cache): fusing --all's thousands of results
    # computed it again for each, 90 % of its CPU. Neither compared, shown, nor stored
    # (as_json, ws.cache); read through ``key_of``.
    _key: str = field(default="", repr=False, compare=False, kw_only=True)

    def as_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "title": self.title,
            "url": self.url,
            "snippet": self.snippet,
            "provider": self.provider,
            "published": self.published,
        }


def clean_text(text: str | None) -> str:
    """One line of plain text: entities decoded, then common.text's one-line policy (a lone
    surrogate in a title or snippet is repaired to U+FFFD rather than the result dropped).
    For text that may still carry entities (SearxNG's JSON); text lxml read from a page is
    decoded already, and decoding it again turned a title about "&amp;nbsp;" into one
    about a blank (finalise applies only the one-line policy)."""
    if not text:
        return ""
    if "&" in text:
        import html  # its entity table is imported only for text that may hold one

        text = html.unescape(text)
    return one_line(text)


def http_url(url: str | None) -> str | None:
    """The URL if it is absolute http(s) with a host (protocol-relative gets https), else None."""
    checked = _http_parts(url)
    return checked[0] if checked else None


def _http_parts(url: str | None) -> tuple[str, SplitResult] | None:
    """http_url, with the URL's parts for the checks that follow (split once)."""
    if not url:
        return None
    url = url.strip()
    if url.startswith("//"):
        url = "https:" + url
    if len(url) > URL_CHARS:
        return None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    if _NOT_IN_URL.search(url):
        return None
    return url, parts


def url_key(url: str, parts: SplitResult | None = None) -> str:
    """The form two URLs of the same page share: no scheme, www., default port, fragment,
    trailing slash or tracking parameters; host in lower case and IDNA form; the path's
    percent-escapes normalised (RFC 3986 6.2.2: unreserved characters decoded, hex in upper
    case, a non-ASCII character as its UTF-8 escapes), as engines spell one page's
    address differently (/wiki/Köln, /wiki/K%C3%B6ln, /wiki/K%c3%b6ln), and its dot
    segments removed (6.2.2.3: /a/./b and /a/c/../b are /a/b, as a browser asks for them).

    The query's parameters keep their order (?a=1&b=2 and ?b=2&a=1 are two results), as
    SearXNG's merge and ddgs's de-duplication keep it: a server may read its parameters in
    order (a repeated name above all), and engines give one page's parameters as the page
    links them, in one order, so sorting would join pages rather than spellings."""
    parts = parts or urlsplit(url)
    host = host_of(url, parts)
    if host.startswith("www."):
        host = host[4:]
    port = parts.port
    if port and port not in (80, 443):
        host = f"{host}:{port}"
    path = _dots(_escapes(parts.path)).rstrip("/") or "/"
    query = ""
    if parts.query:
        query = urlencode(
            [
                (k, v)
                for k, v in parse_qsl(parts.query, keep_blank_values=True)
                if not _TRACKING.match(k)
            ]
        )
    return urlunsplit(("", host, path, query, ""))


def key_of(result: Result) -> str:
    """``url_key`` of the result's URL: the one finalise kept with it, else computed."""
    return result._key or url_key(result.url)


def _dots(path: str) -> str:
    """``path`` (an http URL's: empty or from "/") without its "." and ".." segments, as
    RFC 3986 5.2.4 removes them (a ".." above the root stays at the root); an escaped dot
    is one by now (_escapes)."""
    if "/." not in path:
        return path  # the common case: no segment starts with a dot
    out: list[str] = []  # "" first: the root
    segments = path.split("/")
    for segment in segments:
        if segment == "..":
            if len(out) > 1:
                out.pop()
        elif segment != ".":
            out.append(segment)
    if segments[-1] in (".", ".."):
        out.append("")  # /a/b/. and /a/b/c/.. are /a/b/
    return "/".join(out)


def _escapes(path: str) -> str:
    """``path`` with its percent-escapes in one spelling (see url_key)."""
    if "%" in path:
        path = re.sub(_ESCAPE, _one_escape, path)
    if not path.isascii():
        from urllib.parse import quote

        # Every ASCII character (and so every escape) stays as it is.
        path = quote(path, safe=_ASCII_SAFE, errors="replace")
    return path


def _one_escape(m: re.Match[str]) -> str:
    char = chr(int(m.group(1), 16))
    return char if char in _UNRESERVED else m.group(0).upper()


def canonical_domain(text: str) -> str | None:
    """A domain from what a user typed: ``Example.COM``, ``*.example.com``, a URL. None if
    it is not a domain name."""
    value = text.strip().lower()
    if "://" in value:
        try:
            value = urlsplit(value).hostname or ""
        except ValueError:  # an unclosed IPv6 bracket: no domain either
            return None
    value = value.split("/", 1)[0]
    value = value.removeprefix("*.").strip(".")
    if ":" in value:
        value = value.split(":", 1)[0]
    try:
        value = value.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    labels = value.split(".")
    if not value or not all(re.match(_DOMAIN_LABEL, label) for label in labels):
        return None
    return value


def host_of(url: str, parts: SplitResult | None = None) -> str:
    host = ((parts or urlsplit(url)).hostname or "").lower().rstrip(".")
    if host.isascii():
        return host  # what the idna codec gives back for it, without importing the codec
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def domain_matches(host: str, domain: str) -> bool:
    """A domain matches itself and its subdomains, never a look-alike suffix."""
    return host == domain or host.endswith("." + domain)


def _host_passes(host: str, allow: tuple[str, ...], block: tuple[str, ...]) -> bool:
    if allow and not any(domain_matches(host, d) for d in allow):
        return False
    return not any(domain_matches(host, d) for d in block)


def finalise(
    raw: list[Result],
    *,
    allow: tuple[str, ...] = (),
    block: tuple[str, ...] = (),
    limit: int | None = None,
    step: Callable[[], None] | None = None,
) -> tuple[list[Result], int]:
    """Clean, keep http(s) only, drop duplicates, filter by domain, rank from 1.

    Returns the results and how many usable results the domain filters removed.
    ``step`` is called before each result is read (ws.backends.base.check_stop: a hostile
    page's thousands of long URLs cost a second or more here).
    """
    out: list[Result] = []
    seen: set[str] = set()
    filtered = 0
    for item in raw:
        if step is not None:
            step()
        checked = _http_parts(item.url)
        if checked is None:
            continue
        url, parts = checked
        key = url_key(url, parts)
        if key in seen:
            continue
        seen.add(key)
        host = host_of(url, parts)
        if not _host_passes(host, allow, block):
            filtered += 1
            continue
        out.append(
            Result(
                title=cap(one_line(item.title), TITLE_CHARS) or host,
                url=url,
                snippet=cap(one_line(item.snippet), SNIPPET_CHARS),
                provider=item.provider,
                published=_published(item.published),
                rank=len(out) + 1,
                _key=key,
            )
        )
        if limit is not None and len(out) >= limit:
            break
    return out, filtered


def _published(text: str | None) -> str | None:
    """A result's date, clean, or None when it is longer than a date (PUBLISHED_CHARS)."""
    date = one_line(text)
    return date if 0 < len(date) <= PUBLISHED_CHARS else None
