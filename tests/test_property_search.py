"""Property tests of the search parsers: real captures (../shared/fixtures/search, read in
place) and the project's own fixtures, mutated by dropping, duplicating, reordering and
unwrapping nodes, stripping attributes, cutting the bytes: every backend returns results
or a classified outcome, never an exception, and finalise() makes clean results of them."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import SEARCH_CAPTURES, WS_FIXTURES
from ws.backends import BY_NAME, base
from ws.backends.base import Answer, Query
from ws.results import Result, finalise

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
QUERY = Query("javascript tutorial")
CONTROL = {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))}
OUTCOMES = {
    base.OK,
    base.EMPTY,
    base.BLOCKED,
    base.HTTP_ERROR,
    base.TIMEOUT,
    base.NETWORK,
    base.PARSE_ERROR,
}


def _pages() -> list[Any]:
    own = [
        (p.name.split("_", 1)[0].replace("ddg", "duckduckgo"), p)
        for p in sorted(WS_FIXTURES.glob("*.html"))
    ]
    real = (
        [
            pytest.param(p.parent.name, p, id=f"real-{p.parent.name}-{p.stem}")
            for p in sorted(SEARCH_CAPTURES.glob("*/*.html"))
        ]
        if SEARCH_CAPTURES.is_dir()
        else [
            pytest.param(
                None,
                None,
                marks=pytest.mark.skip(
                    reason=f"real captures not found at {SEARCH_CAPTURES} (read in place, never copied)"
                ),
            )
        ]
    )
    return [pytest.param(b, p, id=f"own-{p.stem}") for b, p in own] + real


@cache
def _tree(path: Path) -> Any:
    from lxml import html

    return html.fromstring(path.read_bytes())


OPS = st.lists(
    st.tuples(
        st.sampled_from(["drop", "duplicate", "swap", "move", "unwrap", "strip", "cut-text"]),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
    ),
    min_size=1,
    max_size=12,
)


def mutate(root: Any, ops: list[tuple[str, int, int]]) -> Any:
    root = copy.deepcopy(root)
    for op, i, j in ops:
        nodes = [el for el in root.iter() if isinstance(el.tag, str)]
        if len(nodes) < 2:
            break
        el, other = nodes[1:][i % (len(nodes) - 1)], nodes[j % len(nodes)]
        parent = el.getparent()
        if op == "drop":
            parent.remove(el)
        elif op == "duplicate":
            parent.insert(parent.index(el) + 1, copy.deepcopy(el))
        elif op == "swap":
            siblings = list(parent)
            k = siblings[j % len(siblings)]
            a, b = parent.index(el), parent.index(k)
            if a != b:
                parent.remove(el)
                parent.insert(b, el)
        elif op == "move":
            if other is not el and el not in other.iterancestors() and other not in el.iter():
                parent.remove(el)
                other.insert(j % (len(other) + 1), el)
        elif op == "unwrap":
            el.drop_tag()
        elif op == "strip":
            el.attrib.clear()
        elif op == "cut-text" and el.text:
            el.text = el.text[: j % (len(el.text) + 1)]
    return root


def _check(answer: Answer) -> None:
    assert isinstance(answer, Answer) and answer.outcome in OUTCOMES
    assert isinstance(answer.message, str) and "\n" not in answer.message
    for r in answer.results:
        assert isinstance(r, Result) and isinstance(r.url, str) and isinstance(r.title, str)
    results, _ = finalise(answer.results, limit=20)
    for r in results:
        assert r.url.startswith(("http://", "https://"))
        assert not CONTROL & set(r.title + r.url + r.snippet)


@pytest.mark.parametrize(("backend", "path"), _pages())
@SETTINGS
@given(
    ops=OPS,
    status=st.sampled_from([200, 200, 200, 202, 403, 429, 500]),
    other=st.sampled_from(sorted(BY_NAME)),
)
def test_mutated_pages_are_classified(
    backend: str, path: Path, ops: list[tuple[str, int, int]], status: int, other: str
) -> None:
    from lxml import html

    body = html.tostring(mutate(_tree(path), ops), encoding="utf-8")
    for name in {backend, other}:
        # Each page to its own backend, and to another one: a wrong page is still a page.
        _check(
            BY_NAME[name].classify(
                status, {"content-type": "text/html; charset=utf-8"}, body, QUERY
            )
        )


@pytest.mark.parametrize(("backend", "path"), _pages())
@SETTINGS
@given(
    cut=st.integers(0, 10**7),
    flips=st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 255)), max_size=8),
)
def test_cut_and_corrupted_bytes_are_classified(
    backend: str, path: Path, cut: int, flips: list[tuple[int, int]]
) -> None:
    body = bytearray(path.read_bytes())
    body = body[: cut % (len(body) + 1)]
    for at, value in flips:
        if body:
            body[at % len(body)] = value
    _check(BY_NAME[backend].classify(200, {"content-type": "text/html"}, bytes(body), QUERY))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@cache
def _json(name: str) -> Any:
    return json.loads((WS_FIXTURES / name).read_text())


def _containers(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) pair in a JSON document, the root's first."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        keys = (
            list(node)
            if isinstance(node, dict)
            else range(len(node))
            if isinstance(node, list)
            else []
        )
        for key in keys:
            out.append((node, key))
            stack.append(node[key])
    return out


@pytest.mark.parametrize(
    "fixture", ["searxng_results.json", "searxng_results_new.json", "searxng_empty.json"]
)
@SETTINGS
@given(data=st.data())
def test_mutated_searxng_json_is_classified(fixture: str, data: st.DataObject) -> None:
    doc = copy.deepcopy(_json(fixture))
    for _ in range(data.draw(st.integers(1, 6))):
        slots = _containers(doc)
        if not slots:
            break
        container, key = data.draw(st.sampled_from(slots))
        op = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if op == "replace":
            container[key] = data.draw(JSON_VALUES)
        elif op == "delete":
            del container[key]
        elif isinstance(container, list):
            container.insert(key, copy.deepcopy(container[key]))
    body = json.dumps(doc, allow_nan=True).encode()
    cut = data.draw(st.sampled_from([len(body), len(body), data.draw(st.integers(0, len(body)))]))
    _check(
        BY_NAME["searxng"].classify(200, {"content-type": "application/json"}, body[:cut], QUERY)
    )
