"""Framer's copies of a component per breakpoint (wf/extract/variants.py)."""

from __future__ import annotations

import lxml.html

from wf.extract import extract
from wf.extract.variants import copies

HERO = "Plan the harbour's season with the crews who sail it, from the first tide to the last"
LINE = "Every berth booked, every crane counted, and the ledger closed before the fog rolls in"
STORY = (
    "Our yard began with two cranes and a ferry that ran late. Today it moors forty ships a "
    "week, and the people who run it plan each of them on one shared chart of the quay. "
)
OTHER = "Moorings, tugs and pilots booked from one page of the harbour's own calendar"


def _variant(hidden: str, body: str) -> str:
    return f"<div class='ssr-variant {hidden}'>{body}</div>"


def _page() -> str:
    hero = f"<h1>{HERO}</h1><p>{LINE}</p>"
    phone = f"<h1>{HERO}</h1>"  # a phone's copy drops the line under the title
    heroes = _variant("hidden-a1 hidden-b2", hero) + _variant("hidden-c3", phone)
    # The next component, rendered beside the hero's copies: other words, it stays.
    heroes += _variant("hidden-c3", f"<h2>{OTHER}</h2>")
    return (
        f"<html><head><title>Harbour</title></head><body><main><div>{heroes}</div>"
        f"<section><p>{STORY * 3}</p></section></main></body></html>"
    )


def test_a_framer_components_copy_for_another_breakpoint_is_printed_once():
    text = extract(_page(), url="https://q.example/").text
    assert text.count(HERO) == 1
    assert LINE in text and OTHER in text and STORY.strip()[:40] in text


def test_only_a_variants_siblings_are_its_copies():
    # The same words in variants of two different boxes: each box keeps its own.
    one = _variant("hidden-a1", f"<p>{HERO}</p>")
    root = lxml.html.fromstring(f"<div><div>{one}</div><div>{one}</div></div>")
    assert copies(root) == []
    root = lxml.html.fromstring(f"<div><div>{one}{one}<p>x</p>{one}</div></div>")
    assert len(copies(root)) == 2
