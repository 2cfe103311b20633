"""Several engines' rankings as one: reciprocal rank fusion (Cormack et al., 2009).

A result's score is the sum over the engines that returned it of 1 / (k + rank), k = 60:
a page several engines agree on rises above one that a single engine ranked a little
higher. The same page from two engines is recognised by ws.results.url_key (scheme, www.,
host case and IDNA form, default port, fragment, trailing slash, the path's spelling of
percent-escapes and tracking parameters ignored; the other parameters' order kept).
"""

from __future__ import annotations

from dataclasses import dataclass

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


def fuse(ranked: list[tuple[str, list[Result]]], limit: int | None = None) -> list[FusedResult]:
    """One list from each engine's ranked results, in the order the engines were chained;
    ties go to the better single rank, then to the engine earlier in the chain."""
    found: dict[str, list[tuple[int, int, Result]]] = {}  # key -> (rank, engine index, result)
    for order, (_, results) in enumerate(ranked):
        seen: set[str] = set()
        for position, result in enumerate(results, 1):
            key = key_of(result)  # as finalise computed it
            if key in seen:
                continue  # an engine's own duplicate counts once, at its better rank
            seen.add(key)
            found.setdefault(key, []).append((position, order, result))
    scored = []
    for hits in found.values():
        hits.sort(key=lambda h: (h[0], h[1]))
        score = sum(1.0 / (K + rank) for rank, _, _ in hits)
        scored.append((score, hits))
    scored.sort(key=lambda s: (-s[0], s[1][0][0], s[1][0][1]))
    out: list[FusedResult] = []
    for score, hits in scored[:limit] if limit is not None else scored:
        best = hits[0][2]
        names = tuple(ranked[order][0] for _, order, _ in hits)
        out.append(
            FusedResult(
                title=best.title,
                url=best.url,
                # The best-ranked engine's snippet, or the first one that has any.
                snippet=best.snippet or next((h[2].snippet for h in hits if h[2].snippet), ""),
                provider=names[0],
                published=best.published
                or next((h[2].published for h in hits if h[2].published), None),
                rank=len(out) + 1,
                providers=names,
                ranks=tuple((ranked[order][0], rank) for rank, order, _ in hits),
                score=score,
            )
        )
    return out
