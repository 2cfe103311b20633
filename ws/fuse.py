"""Several engines' rankings as one: reciprocal rank fusion (Cormack et al., 2009).

A result's score is the sum over the engines that returned it of 1 / (k + rank), k = 60:
a page several engines agree on rises above one that a single engine ranked a little
higher. The same page from two engines is recognised by ws.results.url_key (scheme, www.,
host case and IDNA form, default port, fragment, trailing slash, the path's spelling of
percent-escapes and tracking parameters ignored; the other parameters' order kept).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ws.results import Result, key_of

K = 60


@dataclass(frozen=True)
class FusedResult(Result):
    providers: tuple[str, ...] = ()  # the engines that returned it, best rank first
    ranks: tuple[tuple[str, int], ...] = ()  # (engine, its rank there)
    score: float = 0.0

    def as_json(self) -> dict[str, object]:
        out = super().as_json()
        out["providers"] = list(self.providers)
        out["ranks"] = dict(self.ranks)
        return out


# The fusion asks its ``stop`` every this many results read or written: 5 engines of
# 12 500 results each take about 0.2 s of CPU, past the deadline's last wait.
ASK_EVERY = 1024


def fuse(ranked: list[tuple[str, list[Result]]], limit: int | None = None) -> list[FusedResult]:
    """One list from each engine's ranked results, in the order the engines were chained;
    ties go to the better single rank, then to the engine earlier in the chain."""
    return fuse_until(ranked, limit, lambda: False)[0]


def fuse_until(
    ranked: list[tuple[str, list[Result]]], limit: int | None, stop: Callable[[], bool]
) -> tuple[list[FusedResult], str | None]:
    """``fuse``, asking ``stop()`` every ASK_EVERY results, first after every engine's first
    result. The engines are read rank by rank (every engine's first, then every second...),
    so that a stop leaves the fusion of each engine's best ranks, and the list is written
    best first, so that a stop leaves its best part. Returns the list and, when ``stop()``
    ended the work, what was fused (else None)."""
    # key -> [score, hits]; hits are (rank, engine index, result) in that order, read so.
    found: dict[str, list[Any]] = {}
    seen: list[set[str]] = [set() for _ in ranked]
    deepest = max((len(results) for _, results in ranked), default=0)
    depth, asked, read = None, len(ranked), 0
    for position in range(1, deepest + 1):
        if read >= asked:
            asked = read + ASK_EVERY
            if stop():
                depth = position - 1
                break
        for order, (_, results) in enumerate(ranked):
            if position > len(results):
                continue
            read += 1
            result = results[position - 1]
            key = key_of(result)  # as finalise computed it
            if key in seen[order]:
                continue  # an engine's own duplicate counts once, at its better rank
            seen[order].add(key)
            entry = found.get(key)
            if entry is None:
                found[key] = entry = [0.0, []]
            entry[0] += 1.0 / (K + position)
            entry[1].append((position, order, result))
    scored = sorted(found.values(), key=lambda s: (-s[0], s[1][0][0], s[1][0][1]))
    out: list[FusedResult] = []
    for score, hits in scored[:limit] if limit is not None else scored:
        if out and len(out) % ASK_EVERY == 0 and stop():
            depth = deepest if depth is None else depth
            break
        out.append(_fused(ranked, score, hits, len(out) + 1))
    if depth is None:
        return out, None
    n = len(out)
    return out, f"{n} result{'s' if n != 1 else ''} from the first {depth} of each engine"


def _fused(
    ranked: list[tuple[str, list[Result]]],
    score: float,
    hits: list[tuple[int, int, Result]],
    place: int,
) -> FusedResult:
    best = hits[0][2]
    names = tuple(ranked[order][0] for _, order, _ in hits)
    return FusedResult(
        title=best.title,
        url=best.url,
        # The best-ranked engine's snippet, or the first one that has any.
        snippet=best.snippet or next((h[2].snippet for h in hits if h[2].snippet), ""),
        provider=names[0],
        published=best.published or next((h[2].published for h in hits if h[2].published), None),
        rank=place,
        providers=names,
        ranks=tuple((ranked[order][0], rank) for rank, order, _ in hits),
        score=score,
    )
