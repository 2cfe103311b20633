"""The notices' reads of a block's text cost a bounded number of nodes per block: on a
page nested thousands deep, every block around the content would otherwise walk the
whole chain of empty boxes under it (depth squared); so does cleaning's walk up from
each <main>. Work is counted in nodes read, never timed: element classes count what
itertext() and iterancestors() walk, and iterwalk is counted where the module calls it."""

from __future__ import annotations

from typing import Any

import pytest
from lxml import etree, html

from wf.extract import notices, notices_tuning
from wf.extract.prune import prune
from wf.extract.records import aggregate, walk

READ = [0]
_ITERWALK = etree.iterwalk
_EVENTS = ("start", "end", "comment", "pi")


class _CountedWalk:
    """An iterwalk whose events are counted, with its skip_subtree()."""

    def __init__(self, el: Any, **kwargs: Any) -> None:
        self._walker = _ITERWALK(el, **kwargs)

    def __iter__(self) -> _CountedWalk:
        return self

    def __next__(self) -> Any:
        item = next(self._walker)
        READ[0] += 1
        return item

    def skip_subtree(self) -> None:
        self._walker.skip_subtree()


class _Counted(html.HtmlElement):
    def itertext(self, tag: Any = None, *tags: Any, with_tail: bool = True) -> Any:
        # The texts lxml's itertext() gives, in its order, each node's start and end
        # counted as they are walked (lazily: a reader that stops early stops the count).
        for event, node in _ITERWALK(self, events=_EVENTS):
            READ[0] += 1
            if event == "start":
                text = node.text
            elif event == "end":
                if node is self:
                    return
                text = node.tail
            else:
                text = node.tail
            if text:
                yield text


def _tree(page: str) -> Any:
    parser = etree.HTMLParser(huge_tree=True)
    parser.set_element_class_lookup(etree.ElementDefaultClassLookup(element=_Counted))
    return etree.fromstring(page, parser)


def _reads(page: str, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The nodes prune() reads for each block of the page."""
    monkeypatch.setattr(etree, "iterwalk", _CountedWalk)
    body = _tree(page).find("body")
    with monkeypatch.context() as inner:
        inner.setattr(etree, "iterwalk", _ITERWALK)
        blocks = walk(body)
        aggregate(blocks, set())
    reads = []
    for b in blocks:
        READ[0] = 0
        prune(b.el, b)
        reads.append(READ[0])
    return reads


def _most_read(page: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """The most nodes prune() reads for one block of the page."""
    return max(_reads(page, monkeypatch))


# A short paragraph (under tuning.PROMPT_MAX, so every block around it is asked whether
# it is a subscription prompt) inside boxes nested `depth` deep.
def _nested(depth: int, box: str = "main") -> str:
    words = "<h1>Tide clock</h1><p>A brass tide clock for the chart room, with words.</p>"
    return f"<html><body>{f'<{box}>' * depth}{words}{f'</{box}>' * depth}</body></html>"


@pytest.mark.parametrize("box", ["main", "div", "section"])
def test_a_block_nested_deep_reads_a_bounded_number_of_nodes(
    box: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A box of few blocks is read whole (their chain is that short); the others through
    # the bounded walk. Each node is counted at its start and its end.
    tuned = max(notices_tuning.SAMPLE_BLOCKS, notices_tuning.SAMPLE_DEPTH)
    bound = 2 * tuned + 8
    assert _most_read(_nested(1000, box), monkeypatch) <= bound


def test_boxes_around_a_run_of_empty_tags_read_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Thousands of empty inline tags before a short paragraph's words, in a hundred boxes
    # (each holding under deep1's 128 blocks): only the paragraph, with no block inside,
    # reads them all; each box around it reads at most its bounded walk.
    spans = 5000
    words = "<span></span>" * spans + "Want to keep reading? Subscribe to read on."
    page = f"<html><body>{'<div>' * 100}<p>{words}</p>{'</div>' * 100}</body></html>"
    reads = _reads(page, monkeypatch)
    assert sum(reads) <= 2 * (spans + 2) + len(reads) * notices_tuning.SAMPLE_EVENTS


def test_a_short_box_is_still_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # Within the walk's bounds, the sample reads to the end of the text.
    page = _nested(8)
    tree = html.fromstring(page)
    blocks = walk(tree.find("body"))
    aggregate(blocks, set())
    top = blocks[0]
    assert "brass tide clock" in notices.sample(top.el, top)


def test_the_bounded_walk_reads_what_itertext_reads() -> None:
    # Comments give their tail, not their text; the box's own tail is not its text.
    tree = html.fromstring(
        "<div><div>a<!-- hidden -->t1<p>b<i>c</i>t2</p>z<br>w"
        + "<p>x</p>" * (notices_tuning.SAMPLE_BLOCKS + 2)
        + "</div>tail</div>"
    )
    el = tree[0]
    blocks = walk(tree)
    aggregate(blocks, set())
    b = next(b for b in blocks if b.el is el)
    assert b.end - b.index > notices_tuning.SAMPLE_BLOCKS
    assert notices.sample(el, b, 10_000) == " ".join(el.itertext())


def test_a_prompt_nested_deep_is_still_known(monkeypatch: pytest.MonkeyPatch) -> None:
    # Within the bounds the verdict is the same: a subscription prompt around many
    # blocks is still read as one.
    prompt = (
        "<div><p>Want to keep reading?</p><p>Subscribe to read the whole article.</p>"
        + "<p></p>" * (notices_tuning.SAMPLE_BLOCKS + 2)
        + "</div>"
    )
    tree = html.fromstring(f"<html><body><article>{prompt}</article></body></html>")
    blocks = walk(tree.find("body"))
    aggregate(blocks, set())
    b = next(b for b in blocks if b.tag == "div")
    assert b.end - b.index > notices_tuning.SAMPLE_BLOCKS
    assert notices.subscription_prompt(b.el, b)


class _CountedAncestors(html.HtmlElement):
    def iterancestors(self, tag: Any = None, *tags: Any) -> Any:
        # lxml's walk up, each ancestor passed counted (a filter by tag walks them all).
        wanted = {t for t in (tag, *tags) if t is not None}
        node = self.getparent()
        while node is not None:
            READ[0] += 1
            if not wanted or node.tag in wanted:
                yield node
            node = node.getparent()


def test_nested_mains_read_the_chain_above_them_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cleaning makes a button that holds a <main> a box (parse's unclosed buttons): each
    # <main> walks up to the next one, whose own walk reads on above it.
    from wf.extract.parse import clean

    parser = etree.HTMLParser(huge_tree=True)
    lookup = etree.ElementDefaultClassLookup(element=_CountedAncestors)
    parser.set_element_class_lookup(lookup)
    root = etree.fromstring("<html><body><button><div>" + _nested(1000)[12:], parser)
    READ[0] = 0
    clean(root, main=True)
    assert READ[0] <= 4 * 1000
    assert root.find(".//button") is None and root.find(".//main") is not None
