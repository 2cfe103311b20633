"""What a render returns."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Rendered:
    html: str
    final_url: str
    status: int | None
    blocked: list[str]  # what the network policy refused inside the browser
    timings: dict[str, float]  # seconds: launch, context, navigate, quiet, dom, total
    notes: list[str] = field(default_factory=list)  # e.g. the DOM was cut at its cap
