"""The publication date as the page shows it, when no declaration gave one."""

from __future__ import annotations

from typing import Any

from wf.extract.metadata.dates import iso_date


def visible_date(body: Any) -> str | None:
    """The first ``<time datetime>`` that holds a date."""
    for el in body.iter("time"):
        value = el.get("datetime") or ""
        if iso_date(value):
            return value
    return None
