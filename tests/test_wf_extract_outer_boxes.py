"""wf/extract/outer_boxes.py on small trees of our own: the walk up from a text to the
outermost box whose whole short text a rule matches, with the reader, stop and levels its
callers (docs_chrome's stamps and feedback question, board's prompts) bring."""

from __future__ import annotations

import re

from lxml import etree

from wf.extract.outer_boxes import outermost_box, stands_in

PAGE = (
    "<html><body><div id='post'><section id='wrap'><div id='box'>"
    "<p id='q'><span id='ask'>Did this help?</span> Please rate it</p>"
    "</div></section><p id='long'>a long paragraph of the post</p></div></body></html>"
)
ASKS = re.compile(r"Did this help\?( Please rate it)?").fullmatch


def _tree() -> etree._Element:
    return etree.fromstring(PAGE, etree.HTMLParser())


def _text(el: etree._Element) -> str | None:
    text = " ".join("".join(el.itertext()).split())
    return text if len(text) <= 40 else None


def _by_id(root: etree._Element, name: str) -> etree._Element:
    return root.xpath(f"//*[@id='{name}']")[0]


def _never(el: etree._Element) -> bool:
    return False


def test_a_text_stands_in_its_element_and_a_tail_in_its_parent():
    root = _tree()
    ask, tail = root.xpath("//p[@id='q']//text()")
    assert stands_in(ask).get("id") == "ask"
    assert stands_in(tail).get("id") == "q"  # " Please rate it" follows the span


def test_the_outermost_matching_box_within_the_levels():
    root = _tree()
    ask = _by_id(root, "ask")
    # span, p, div#box and section#wrap all hold the question and its request alone.
    assert outermost_box(ask, ASKS, _text, 10, _never).get("id") == "wrap"
    assert outermost_box(ask, ASKS, _text, 2, _never).get("id") == "q"
    assert outermost_box(ask, ASKS, _text, 1, _never).get("id") == "ask"
    assert outermost_box(ask, re.compile("nothing").fullmatch, _text, 10, _never) is None


def test_the_walk_ends_at_its_stop_unread_and_at_a_box_read_as_too_long():
    root = _tree()
    ask, box = _by_id(root, "ask"), _by_id(root, "box")
    seen: list[str] = []

    def reader(el: etree._Element) -> str | None:
        seen.append(el.get("id") or el.tag)
        return _text(el)

    assert outermost_box(ask, ASKS, reader, 10, lambda el: el is box).get("id") == "q"
    assert seen == ["ask", "q"]  # the stop is not read
    seen.clear()
    # div#post is too long for the reader: the walk ends there, below <body>.
    assert outermost_box(ask, ASKS, reader, 10, _never).get("id") == "wrap"
    assert seen == ["ask", "q", "box", "wrap", "post"]


def test_each_box_is_read_once_a_search():
    root = _tree()
    read: dict = {}
    calls: list[etree._Element] = []

    def reader(el: etree._Element) -> str | None:
        calls.append(el)
        return _text(el)

    texts = root.xpath("//p[@id='q']//text()")
    found = {outermost_box(stands_in(t), ASKS, reader, 10, _never, read) for t in texts}
    assert [el.get("id") for el in found] == ["wrap"]
    assert len(calls) == len(set(calls)) == 5  # span, p, div, section, then div#post
    assert read[_by_id(root, "post")] is None
