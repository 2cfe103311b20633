"""The second look at a page whose first walk found it thin (wf.extract.blocks._rewalk):
made from the first walk's records, walking only the boxes it skipped (records.rewalk)."""

from __future__ import annotations

from typing import Any

import lxml.html
import pytest

from wf.extract import extract_text

PROSE = (
    "The ferry to the island leaves from the north quay at seven, and the crossing takes "
    "about forty minutes when the wind is from the west, longer against the tide. "
)


def _records(blocks: list[Any]) -> list[tuple[Any, ...]]:
    from wf.extract.records import BlockRecord

    return [tuple(getattr(b, name) for name in BlockRecord.__slots__) for b in blocks]


def test_the_second_walk_gives_the_records_of_a_whole_walk() -> None:
    # Skipped boxes inside a link, a teaser card and a heading named as boilerplate among
    # them, a box kept by the caller: the records are those of a walk that skips nothing.
    from wf.extract.records import aggregate, rewalk, walk

    page = (
        "<html><body><div class='page'><h1>Ferries</h1>"
        f"<div class='share-wrapper'><p>{PROSE}</p><p>{PROSE}...</p>"
        "<div class='related'><h3><a href='/story'>Another crossing</a></h3><p>Short.</p></div>"
        "</div><a href='/more'><div class='promo-box'><p>Read the whole timetable</p></div>"
        "tail of the link</a> after the link"
        "<section><h2 class='social-title'><a href='/follow'>Follow us</a></h2>"
        f"<p>{PROSE}</p></section><nav><ul><li><a href='/'>Home</a></li></ul></nav>"
        f"<footer class='kept'><p>{PROSE}</p></footer></div></body></html>"
    )
    body = lxml.html.fromstring(page).find("body")
    kept = frozenset(body.iter("footer"))
    for keep in (frozenset(), kept):
        linked: set[int] = set()
        first = walk(body, kept=keep, linked=linked)
        assert any(b.last is None for b in first) and linked  # boxes were skipped
        aggregate(first, set())  # as blocks.choose has, before it walks again
        whole = walk(body, skip_boilerplate=False, kept=keep)
        assert _records(rewalk(body, first, linked, kept=keep)) == _records(whole)


def test_the_second_walk_reads_only_the_boxes_the_first_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A page whose article sits in a box named as boilerplate: the first walk skips it,
    # and the second reads that box, not the whole page again.
    from lxml import etree

    roots: list[str] = []
    real = etree.iterwalk

    def iterwalk(root: Any, **kwargs: Any) -> Any:
        roots.append(root.tag)
        return real(root, **kwargs)

    monkeypatch.setattr(etree, "iterwalk", iterwalk)
    page = (
        "<html><body><header><p>The island paper</p></header>"
        f"<div class='sidebar-layout'><h1>Ferries</h1><p>{PROSE}</p><p>{PROSE}</p></div>"
        "<p>Contact the harbour office.</p></body></html>"
    )
    text = extract_text(page)
    assert PROSE.strip()[:40] in text
    assert roots.count("body") == 1 and "div" in roots
