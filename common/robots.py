"""robots.txt as RFC 9309 says: the parser, the group of our product token, the rule that
decides a path (the longest match, Allow on a tie, ``*`` and ``$``), Crawl-delay, what a
fetch's outcome means (4xx: everything allowed; 5xx or unreachable: nothing allowed), and
the fetch itself, once per host per run and kept under --cache for 24 hours.

Parsing is pure and bounded: at most ``MAX_PARSE_BYTES`` are read (the RFC's minimum
limit), lines are cut at ``MAX_LINE``, a file has at most ``MAX_RULES`` rules. Matching
is linear in the path and the pattern (no backtracking: a hostile pattern of many ``*``
cannot make it slow).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from common.http.cache import HttpCache
    from common.http.client import NetOptions, Response

PRODUCT_TOKEN = "wf"
MAX_PARSE_BYTES = 500 * 1024
MAX_REDIRECTS = 5
# What may come over the wire before the file is given up as unreadable: a file past
# MAX_PARSE_BYTES is read up to there, one much larger is not worth the transfer.
MAX_FETCH_BYTES = 2 * 1024 * 1024
MAX_LINE = 2048
MAX_RULES = 20_000
# RFC 9309 2.4: a cached copy is not used for more than 24 hours.
CACHE_SECONDS = 24 * 3600.0
# The share of a page's deadline robots.txt may take, and its ceiling: the page needs
# the rest.
DEADLINE_SHARE = 0.2
DEADLINE_CEILING = 5.0
# Crawl-delay is non-standard; a larger value than this is taken as this, so that one
# line of a hostile file cannot stall a batch for days.
MAX_CRAWL_DELAY = 60.0

ALLOWED, DISALLOWED = "allowed", "disallowed"
# What the fetch found: the file (parsed), none (4xx: everything allowed), or no answer
# (5xx, network failure: nothing allowed).
PARSED, UNAVAILABLE, UNREACHABLE = "parsed", "unavailable", "unreachable"


@dataclass(frozen=True)
class Rule:
    allow: bool
    pattern: str  # normalised: percent-encoding as compare() expects
    line: int  # 1-based line in the file
    text: str  # the line as written (trimmed), for messages

    @property
    def length(self) -> int:
        return len(self.pattern)


@dataclass(frozen=True)
class Group:
    agents: tuple[str, ...]  # lowercased product tokens, or "*"
    rules: tuple[Rule, ...]
    crawl_delay: float | None = None


@dataclass(frozen=True)
class Decision:
    allowed: bool
    rule: Rule | None  # the rule that decided; None when no rule matched
    reason: str  # in words, for the error line and -v

    def describe(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Robots:
    """One host's robots.txt as fetched: its state and, when parsed, its groups."""

    state: str  # PARSED, UNAVAILABLE or UNREACHABLE
    url: str
    groups: tuple[Group, ...] = ()
    why: str = ""  # for UNAVAILABLE and UNREACHABLE: what the fetch got

    def group_for(self, token: str = PRODUCT_TOKEN) -> Group | None:
        return select_group(self.groups, token)

    def crawl_delay(self, token: str = PRODUCT_TOKEN) -> float | None:
        group = self.group_for(token) if self.state == PARSED else None
        return group.crawl_delay if group is not None else None

    def decide(self, url: str, token: str = PRODUCT_TOKEN) -> Decision:
        if self.state == UNAVAILABLE:
            return Decision(True, None, f"{self.url}: {self.why}; everything is allowed")
        if self.state == UNREACHABLE:
            return Decision(
                False, None, f"{self.url}: {self.why}; RFC 9309 says nothing is allowed then"
            )
        group = self.group_for(token)
        return decide(group.rules if group else (), url, where=self.url)


def parse(body: bytes) -> tuple[Group, ...]:
    """The groups of a robots.txt body (its first MAX_PARSE_BYTES).

    A group starts with one or more user-agent lines; its rules follow until the next
    user-agent line after a rule. Rules before any user-agent line belong to no group.
    Unknown keys are ignored (sitemap is not a group member)."""
    data = body[:MAX_PARSE_BYTES]
    if len(body) > MAX_PARSE_BYTES:
        # The cut may fall inside a line: that part line is not a rule.
        data = data[: data.rfind(b"\n") + 1]
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    groups: list[Group] = []
    agents: list[str] = []
    rules: list[Rule] = []
    delay: float | None = None
    in_rules = False
    count = 0

    def close() -> None:
        if agents:
            groups.append(Group(tuple(agents), tuple(rules), delay))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw[:MAX_LINE].split("#", 1)[0].strip()
        key, colon, value = line.partition(":")
        if not colon:
            continue
        key, value = key.strip().lower(), value.strip()
        if key in ("user-agent", "useragent", "user agent"):
            if in_rules:
                close()
                agents, rules, delay, in_rules = [], [], None, False
            token = _agent_token(value)
            if token:
                agents.append(token)
        elif key in ("allow", "disallow"):
            in_rules = True
            if not agents or not value or count >= MAX_RULES:
                continue  # an empty path matches nothing (RFC 9309 2.2.2)
            count += 1
            rules.append(Rule(key == "allow", normalise(value), number, line))
        elif key == "crawl-delay":
            in_rules = True
            seconds = _seconds(value)
            if agents and seconds is not None:
                delay = min(seconds, MAX_CRAWL_DELAY)
    close()
    return tuple(groups)


def _agent_token(value: str) -> str:
    """The product token of a user-agent line: ``*``, or its leading letters, ``_`` and
    ``-`` (``Googlebot/2.1`` names Googlebot), lowercased."""
    if value.startswith("*"):
        return "*"
    end = 0
    while end < len(value) and (
        value[end].isascii() and value[end].isalpha() or value[end] in "_-"
    ):
        end += 1
    return value[:end].lower()


def _seconds(value: str) -> float | None:
    try:
        seconds = float(value)
    except ValueError:
        return None
    if not 0 <= seconds < float("inf"):  # NaN fails both
        return None
    return seconds


def select_group(groups: Iterable[Group], token: str = PRODUCT_TOKEN) -> Group | None:
    """The rules for ``token``: every group naming it, merged (RFC 9309 2.2.1); else every
    ``*`` group, merged; else None (no rules: everything allowed)."""
    token = token.lower()
    for wanted in (token, "*"):
        chosen = [g for g in groups if wanted in g.agents]
        if chosen:
            delays = [g.crawl_delay for g in chosen if g.crawl_delay is not None]
            return Group(
                (wanted,),
                tuple(r for g in chosen for r in g.rules),
                delays[0] if delays else None,
            )
    return None


_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_HEX = frozenset("0123456789abcdefABCDEF")


def normalise(path: str, *, special: str = "") -> str:
    """A path (or pattern) in the form both sides are compared in (RFC 9309 2.2.2): what is
    not ASCII is percent-encoded as UTF-8, an encoded unreserved character is decoded,
    other escapes are upper-cased. The characters in ``special`` are encoded too: in a
    URL, ``*`` and ``$`` are themselves, which a pattern writes as %2A and %24."""
    out: list[str] = []
    i = 0
    while i < len(path):
        c = path[i]
        if c == "%" and i + 2 < len(path) and path[i + 1] in _HEX and path[i + 2] in _HEX:
            char = chr(int(path[i + 1 : i + 3], 16))
            out.append(char if char in _UNRESERVED else "%" + path[i + 1 : i + 3].upper())
            i += 3
            continue
        if ord(c) > 126 or ord(c) < 33 or c in special:
            out.extend(f"%{b:02X}" for b in c.encode("utf-8", errors="replace"))
        else:
            out.append(c)
        i += 1
    return "".join(out)


def target_of(url: str) -> str:
    """What rules are matched against: the path and query of ``url``, normalised; ``/``
    for an empty path."""
    parts = urlsplit(url)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return normalise(path, special="*$")


def matches(pattern: str, path: str) -> bool:
    """Does ``pattern`` (``*`` any run of characters, a final ``$`` the end) match the
    start of ``path``? Greedy with one saved position: linear, whatever the pattern."""
    anchored = pattern.endswith("$")
    if anchored:
        pattern = pattern[:-1]
    pieces = pattern.split("*")
    # The first piece is a prefix; the others are found left to right, each as early as
    # it can be (earliest is always as good for what follows); an anchored pattern's
    # last piece must end the path.
    if not path.startswith(pieces[0]):
        return False
    pos = len(pieces[0])
    if len(pieces) == 1:
        return pos == len(path) if anchored else True
    for middle in pieces[1:-1]:
        found = path.find(middle, pos)
        if found < 0:
            return False
        pos = found + len(middle)
    last = pieces[-1]
    if anchored:
        return len(path) - len(last) >= pos and path.endswith(last)
    return path.find(last, pos) >= 0


def decide(rules: Iterable[Rule], url: str, *, where: str = "robots.txt") -> Decision:
    """The decision for ``url`` (absolute, or a path) under ``rules``: the longest
    matching pattern decides; on a tie Allow wins; no match allows. /robots.txt itself is
    always allowed (RFC 9309 2.2.2)."""
    path = target_of(url) if "://" in url else normalise(url or "/", special="*$")
    if path == "/robots.txt":
        return Decision(True, None, "/robots.txt is always allowed")
    best: Rule | None = None
    for rule in rules:
        if not matches(rule.pattern, path):
            continue
        if (
            best is None
            or rule.length > best.length
            or (rule.length == best.length and rule.allow and not best.allow)
        ):
            best = rule
    if best is None:
        return Decision(True, None, f"no rule of {where} matches")
    verb = "allows" if best.allow else "disallows"
    return Decision(best.allow, best, f'{where} line {best.line} "{best.text}" {verb} it')


def from_status(status: int, url: str) -> Robots | None:
    """What a final answer's status means when its body is not the file: 4xx (the file is
    unavailable) allows everything, 5xx (unreachable) allows nothing; None for a 2xx,
    whose body is the file. A 3xx here is a redirect not followed (past the limit, or
    without a Location): the file is unavailable (RFC 9309 2.3.1.2)."""
    if 200 <= status < 300:
        return None
    if 300 <= status < 500:
        return Robots(UNAVAILABLE, url, why=f"HTTP {status}")
    return Robots(UNREACHABLE, url, why=f"HTTP {status}")


def robots_url(url: str) -> str:
    """The robots.txt of ``url``'s origin (scheme, host, port; no credentials)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port is not None else ""
    return f"{parts.scheme}://{host}{port}/robots.txt"


def from_response(resp: Response) -> Robots:
    outcome = from_status(resp.status, resp.final_url)
    if outcome is not None:
        return outcome
    return Robots(PARSED, resp.final_url, parse(resp.body))


@dataclass
class RobotsFiles:
    """robots.txt per origin for one run: each fetched once, however many pages and threads
    ask (the others wait for the first); kept in ``cache`` (--cache) for 24 hours."""

    opts: NetOptions
    cache: HttpCache | None = None
    fetcher: Callable[..., Response] | None = None  # tests replace the client's fetch
    # Opens the cache on first use (--cache): a run that never reads robots.txt, or whose
    # cache directory is unusable, is not held up by it.
    open_cache: Callable[[], HttpCache] | None = None
    # Hears each origin's Crawl-delay once it is known, with the URL that asked (a batch
    # spaces its requests to that server).
    on_delay: Callable[[str, float], None] | None = None
    _known: dict[str, Robots] = field(default_factory=dict)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, url: str, deadline: float) -> Robots:
        where = robots_url(url)
        with self._lock:
            lock = self._locks.setdefault(where, threading.Lock())
        with lock:
            if where not in self._known:
                robots = self._known[where] = self._load(where, deadline)
                delay = robots.crawl_delay()
                if delay and self.on_delay is not None:
                    self.on_delay(url, delay)
            return self._known[where]

    def check(self, url: str, deadline: float) -> Decision:
        """The decision for ``url``; RobotsRefused (exit 77, kind robots) when it is not
        allowed, naming the rule or why the file could not be read."""
        from common.errors import RobotsRefused

        robots = self.get(url, deadline)
        decision = robots.decide(url)
        if decision.allowed:
            return decision
        host = urlsplit(url).hostname or "?"
        if decision.rule is not None:
            why = f'line {decision.rule.line} "{decision.rule.text}"'
            raise RobotsRefused(f"robots.txt of {host} disallows {url}: {why}")
        raise RobotsRefused(
            f"robots.txt of {host} could not be read ({robots.why}); "
            "RFC 9309 says nothing is allowed then"
        )

    def _load(self, where: str, deadline: float) -> Robots:
        from common import trace

        entry_key = self._key(where)
        if self.cache is None and self.open_cache is not None:
            try:
                self.cache = self.open_cache()
            except Exception:  # noqa: BLE001 - a cache that cannot be opened is no cache
                self.open_cache = None
        if self.cache is not None:
            stored = self.cache.load(entry_key)
            if stored is not None and 0 <= time.time() - stored.response_time < CACHE_SECONDS:
                trace.trace("robots: %s from the cache", where)
                return _stored(stored.status, stored.final_url, stored.body)
        robots, resp = fetch_robots(where, self.opts, deadline, self.fetcher)
        trace.trace(
            "robots: %s: %s", where, robots.state + (f" ({robots.why})" if robots.why else "")
        )
        if self.cache is not None and resp is not None and robots.state != UNREACHABLE:
            self._keep(entry_key, where, resp)
        return robots

    def _key(self, where: str) -> str:
        from common.http.cache import cache_key
        from common.http.client import policy_scope

        return cache_key(where, {"x-wf-entry": "robots.txt"}, policy_scope(where, self.opts))

    def _keep(self, key: str, where: str, resp: Response) -> None:
        from common.http.cache import Entry

        now = time.time()
        assert self.cache is not None
        try:
            self.cache.save(
                Entry(
                    key=key,
                    url=where,
                    final_url=resp.final_url,
                    status=resp.status,
                    headers={},
                    body=resp.body[:MAX_PARSE_BYTES],
                    request_time=now,
                    response_time=now,
                    redirected=bool(resp.redirects),
                )
            )
        except OSError:
            pass  # not kept: the next run fetches it again


def _stored(status: int, url: str, body: bytes) -> Robots:
    outcome = from_status(status, url)
    return outcome if outcome is not None else Robots(PARSED, url, parse(body))


def share_of(deadline: float, now: float | None = None) -> float:
    """robots.txt's own deadline within a page's: a small share of the time left."""
    now = time.monotonic() if now is None else now
    return now + min(DEADLINE_CEILING, max(0.0, deadline - now) * DEADLINE_SHARE)


def fetch_robots(
    where: str,
    opts: NetOptions,
    deadline: float,
    fetcher: Callable[..., Response] | None = None,
) -> tuple[Robots, Response | None]:
    """Fetch one robots.txt within its share of ``deadline``: the outcome, and the answer
    when there was one. A network failure is UNREACHABLE; more than MAX_REDIRECTS
    redirects, UNAVAILABLE (RFC 9309 2.3.1.2); a refusal by the network policy is raised,
    as it would be for the page."""
    from dataclasses import replace

    from common.errors import PolicyRefused, TooLarge, ToolError, TooManyRedirects
    from common.http.client import fetch

    get = fetcher or fetch
    mine = replace(
        opts,
        max_redirects=MAX_REDIRECTS,
        max_bytes=min(opts.max_bytes, MAX_FETCH_BYTES) if opts.max_bytes else MAX_FETCH_BYTES,
        headers=(),  # -H is meant for the page; robots.txt is asked for as a crawler
    )
    try:
        resp = get(where, mine, deadline=share_of(deadline), headers={"Accept": "text/plain, */*"})
    except TooManyRedirects as exc:
        return Robots(UNAVAILABLE, where, why=exc.message), None
    except PolicyRefused as exc:
        raise PolicyRefused(f"robots.txt: {exc.message}") from None
    except TooLarge:
        return Robots(UNREACHABLE, where, why=f"larger than {MAX_FETCH_BYTES} bytes"), None
    except ToolError as exc:
        return Robots(UNREACHABLE, where, why=exc.message), None
    return from_response(resp), resp
