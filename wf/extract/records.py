"""The page as block records: one walk over the tree that measures every block's own
text and links, the sums of its subtree (prose, boilerplate), and the best of them.

Each block's own text (its text and that of its inline descendants) is classed: prose
(long enough, not trailing off in an ellipsis) counts as good, link text and short labels
as bad. A subtree's score is good minus bad. Blocks named as boilerplate (names.py) are
not walked into: all their text is bad.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from common.late import OutOfTime as OutOfTime  # what the passes here raise
from wf.extract.names import BLOCK, HEADING, negative_block

GOOD_MIN = 50  # characters of own text for a block to count as prose
# The same for Chinese and Japanese, where one character is about a word: a
# sentence of twenty characters is prose there.
GOOD_MIN_DENSE = 20
THIN_PROSE = 250  # characters of prose below which a chosen region is suspect
THIN_PROSE_DENSE = 100  # the same in Chinese or Japanese
CARD_MAX = 500  # characters: more prose than this under a linked heading is no teaser
# How bad a teaser card's excerpt is, beside its linked title: a box of cards inside the
# article's container (related stories) must not sink the article under a sidebar.
CARD_EXCERPT = 0.0
PARAGRAPH_WORDS = 20  # characters outside links that make a linked paragraph a sentence
SHORT_WEIGHT = 0.25  # how bad a short line without links is (a label, a date, a byline)


class BlockRecord:
    """One block of the page, in document order (a parent before its children).

    "Own" text is the block's text and its inline descendants' text, not its child
    blocks'. A card holds a heading that is all link, the title of a teaser for another
    page: 1 for the heading's own block, 2 for the block around a title-only block (a
    <header> beside the excerpt). A class with __slots__ rather than a list read through
    index constants: about 1 % fewer pages/s on the extraction benchmark (the records are
    mutated, so no NamedTuple).
    """

    __slots__ = (
        "el",  # the element
        "parent",  # index of the parent block, -1 at the top
        "tag",
        "own",  # characters of own text
        "own_link",  # of which inside links
        "last",  # the end of the last own text (to see an ellipsis); None: not walked into
        "card",  # 0, or 1 or 2 as above
        "index",  # this block's index in the list
        "depth",  # blocks open around it
        "good",  # subtree sums, from aggregate(): prose
        "bad",  # link text, labels, boilerplate
        "text",  # characters
        "link",  # characters inside links
        "raw",  # prose before boilerplate names took any away
        "boiler",  # the block is boilerplate (by name, or a teaser card)
        "neg",  # negative_block(), computed when first needed (None until then)
        "end",  # the index after the last block inside this one
        "cut",  # a sibling of the content left out when the content took in its parent
    )
    # Set by aggregate(), on every record before anything reads them.
    good: float
    bad: float
    text: int
    link: int
    raw: float
    boiler: bool

    def __init__(
        self,
        el: Any,
        parent: int,
        tag: str,
        own: int,
        own_link: int,
        last: str | None,
        index: int,
        depth: int,
        neg: bool | None,
    ) -> None:
        self.el = el
        self.parent = parent
        self.tag = tag
        self.own = own
        self.own_link = own_link
        self.last = last
        self.card = 0
        self.index = index
        self.depth = depth
        # good, bad, text, link, raw and boiler are not set here: a walk makes thousands
        # of records, and aggregate() sets them all before any is read.
        self.neg = neg
        self.end = index + 1
        self.cut = False


_ELLIPSIS = ("...", "\u2026")


@dataclass
class Analysis:
    blocks: list[BlockRecord] = field(default_factory=list)
    best: Any = None  # the chosen element, or None
    best_index: int = -1
    # The page's class names proved unreliable (a page builder names every paragraph's
    # box a widget): inside the content, only tags and the strongest names prune.
    lenient: bool = False
    kind: str | None = None  # the page's kind (wf.extract.tuning), declared or shown
    # The kind's own rule chose (a thread's posts, a product's description): a short
    # choice is not widened to the page.
    by_kind: bool = False
    author: str | None = None  # a thread's: its first post's author, when it shows one

    def records(self, whole: bool = False) -> dict[Any, BlockRecord]:
        """element -> block record, for the chosen block and those inside it (or all)."""
        blocks = self.blocks
        if whole or self.best_index < 0:
            return {b.el: b for b in blocks}
        start = self.best_index
        return {b.el: b for b in blocks[start : blocks[start].end]}


def check_time(deadline: float | None) -> None:
    if deadline is not None:
        import time

        if time.monotonic() > deadline:
            raise OutOfTime


def walk(
    body: Any,
    *,
    skip_boilerplate: bool = True,
    deadline: float | None = None,
    custom: bool = False,
    kept: frozenset[Any] = frozenset(),
) -> list[BlockRecord]:
    """One pass over the tree: every block's own text and its parent block.

    A block named as boilerplate is not walked into: its whole text counts as bad at
    once, and most of a page's elements (menus, footers, comments) are never visited.
    `custom`: custom elements that hold blocks are blocks too (custom_block); `kept`:
    boxes walked and never read as boilerplate by their names.
    """
    from lxml import etree

    # A box in `kept` is never boilerplate by its names; the others are asked as the walk
    # meets them (no call between: this runs for every block of every page), or later
    # (None).
    ask = negative_block if skip_boilerplate else None
    walker = etree.iterwalk(body, events=("start", "end"))
    blocks: list[BlockRecord] = []
    frames = _measure(walker, body, blocks, ask, deadline, custom, kept)
    for f in frames:  # never left open, but a subtree's end must hold whatever happens
        f.end = len(blocks)
    return blocks


def _measure(
    walker: Any,
    body: Any,
    blocks: list[BlockRecord],
    ask: Callable[[Any, str], bool] | None,
    deadline: float | None,
    custom: bool,
    kept: frozenset[Any],
) -> list[BlockRecord]:
    """walk()'s pass itself, the loop every element of a page goes through and nothing
    else: the records to `blocks`, in page order; the blocks still open at its end."""
    from common.xpath import text_length

    length = text_length()
    frames: list[BlockRecord] = []  # the open blocks, innermost last
    cur = BlockRecord(None, -1, "", 0, 0, "", -1, 0, None)  # text before the first block
    # The links open, innermost last: one ends when its element does (no tag asked again).
    links: list[Any] = []
    block = BLOCK
    top = None  # frames[-1].el: the innermost open block's element
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if tag in block or (custom and custom_block(el)):
                # Every 16 blocks: a block's names can cost milliseconds on a hostile
                # page (thousands of class words, each new, names.negative_block), and
                # 1 000 such blocks met one ask only, past the deadline.
                if deadline is not None and not len(blocks) & 15:
                    check_time(deadline)
                negative = False if kept and el in kept else ask(el, tag) if ask else None
                if negative and el is not body:
                    n, at, depth = int(length(el)), len(blocks), len(frames)
                    blocks.append(BlockRecord(el, cur.index, tag, n, n, None, at, depth, True))
                    walker.skip_subtree()
                    continue
                cur = BlockRecord(el, cur.index, tag, 0, 0, "", len(blocks), len(frames), negative)
                blocks.append(cur)
                frames.append(cur)
                top = el
            elif tag == "a" and (el.get("href") is not None or not _holds_block(el)):
                links.append(el)
            text = el.text
            if text:
                # A huge node counts whole (strip() would copy it), or nothing if blank.
                n = len(text.strip()) if len(text) < 4096 else 0 if text.isspace() else len(text)
                if n:
                    cur.own += n
                    cur.last = text if n < 64 else text[-16:]  # enough to see an ellipsis
                    if links:
                        cur.own_link += n
            continue
        if el is top:
            f = frames.pop()
            f.end = len(blocks)
            if frames:
                cur = frames[-1]
                top = cur.el
                if f.tag in HEADING and _titles_teaser(f):
                    cur.card = 1
        elif links and el is links[-1]:
            links.pop()
        tail = el.tail
        if tail and cur.el is not None:
            n = len(tail.strip())
            if n:
                cur.own += n
                cur.last = tail if n < 64 else tail[-16:]
                if links:
                    cur.own_link += n
    return frames


def custom_block(el: Any) -> bool:
    """Whether el is a custom element (a web component's tag, named with a hyphen) that
    is a box: it holds a block or another custom element. New Reddit writes each post and
    comment as one (`<shreddit-comment>` around the comment's `<div>`s) and nests its
    replies in it; one that holds only inline content (a time, a button) stays inline.
    Read so in a thread's walk only: elsewhere a shop's `<product-bundle>` of
    recommendations would stand apart from the box that leaves it out."""
    tag = el.tag
    if tag.__class__ is not str or "-" not in tag:
        return False
    for child in el:
        tag = child.tag
        if tag.__class__ is str and (tag in BLOCK or "-" in tag):
            return True
    return False


def _titles_teaser(heading: BlockRecord) -> bool:
    """Whether a heading is all link, the title of a teaser card (its block is one); not
    when it links to its own anchor (documentation links each section's heading to
    itself)."""
    if not heading.own or heading.own_link * 10 < heading.own * 9:
        return False
    link = next(heading.el.iter("a"), None)
    href = link.get("href") if link is not None else None
    return href is None or not href.lstrip().startswith("#")


def negative(b: BlockRecord) -> bool:
    hit = b.neg
    if hit is None:
        hit = b.neg = negative_block(b.el, b.tag)
    return hit


def aggregate(blocks: list[BlockRecord], exempt: set[int], good_min: int = GOOD_MIN) -> None:
    """Subtree sums in every record (good, bad, text, link, raw good) and whether it is
    boilerplate; prose in boilerplate counts as bad."""
    # A block's own (good, bad): link text is bad anywhere; the rest is prose when the
    # block is long, unless it trails off in an ellipsis (an excerpt teasing another
    # page); short lines weigh a little on the bad side, headings not at all. Inline:
    # this loop runs over every block of every page.
    heading = HEADING
    for b in blocks:
        own, link = b.own, b.own_link
        last = b.last
        if not own:
            good = bad = 0.0
        elif last is None:
            good, bad = 0.0, own
        elif own >= good_min and not last.rstrip().rstrip("])").endswith(_ELLIPSIS):
            good, bad = own - link, link
        elif b.tag in heading:
            good, bad = 0.0, link
        else:
            good, bad = 0.0, link + SHORT_WEIGHT * (own - link)
        b.good, b.bad = good, bad
        b.text, b.link, b.raw = own, link, good
    # Children come after their parent: walk backwards to add each into its parent.
    for i in range(len(blocks) - 1, -1, -1):
        b = blocks[i]
        good = b.good
        card = b.card
        if card == 1 and not good and b.parent >= 0:
            # The heading sat in a <header> of its own: the teaser is the block around.
            parent_record = blocks[b.parent]
            parent_record.card = parent_record.card or 2
        # Names are looked at only where they matter: blocks holding prose.
        if good and ((card and good < CARD_MAX) or (i not in exempt and negative(b))):
            b.boiler = True
            b.bad += good * CARD_EXCERPT if card and not negative(b) else good
            b.good = good = 0.0
        else:
            b.boiler = False
        parent = b.parent
        if parent >= 0:
            p = blocks[parent]
            p.good += good
            p.bad += b.bad
            p.text += b.text
            p.link += b.link
            p.raw += b.raw


def best_block(blocks: list[BlockRecord]) -> int:
    """The block with the highest score outside every boilerplate subtree, or -1."""
    best, best_score = -1, 0.0
    skip = 0  # the end of the boilerplate subtree last met: its blocks are passed over
    for i, b in enumerate(blocks):
        if i < skip:
            continue
        if b.boiler:
            skip = b.end
            continue
        score = b.good - b.bad
        if score > best_score:
            best, best_score = i, score
    return best


def _holds_block(el: Any) -> bool:
    """Whether an element has a block among its children: an <a> without an address
    that does is no link but a box (a section wrapped in a named anchor,
    `<a id="ips"><h2>...</h2><p>...</p>...</a>`)."""
    return any(child.tag in BLOCK for child in el)
