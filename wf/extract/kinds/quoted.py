"""Quotes in a thread's posts: what a quote is (a <blockquote>, a box named for one, a box
that opens with a board's words of attribution: attributed, opens_attributed), and the
quotes that repeat the posts above (tuning.QUOTE_SEEN of their runs of words) left out
with their attribution (drop_repeats; moved from tidy.py, which was at the 500-line
limit)."""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from wf.extract import tuning
from wf.extract.kinds import posts_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


_WORD = re.compile(r"\w+")


def _runs(text: str) -> set[tuple[str, ...]]:
    """The runs of tuning.QUOTE_RUN words in a text."""
    words = _WORD.findall(text.lower())
    return set(zip(*(words[i:] for i in range(tuning.QUOTE_RUN)), strict=False))


_QUOTE = re.compile(tuning.POST_QUOTE, re.IGNORECASE)
# The candidates, found in C before the pattern reads their names. The words of
# attribution are XPath variables, never pasted in a literal: an apostrophe would end it.
_SAID = {f"a{n}": a for n, a in enumerate(posts_tuning.QUOTE_ATTRIBUTIONS)}
_QUOTE_PATH = (
    ".//*[self::blockquote or contains(@class, 'quote') or contains(@class, 'Quote')"
    + "".join(f" or *[1][starts-with(normalize-space(text()), ${v})]" for v in _SAID)
    + "]"
)


def _quotes(post: Any) -> list[Any]:
    """A post's quotes, in page order: <blockquote>, or boxes named for a quote (boards
    draw theirs with <div>s, the attribution inside: "Originally Posted by ..."), or
    boxes of no such name whose first box starts with a board's words of attribution
    (posts_tuning.QUOTE_ATTRIBUTIONS: vBulletin 3's panel of generic names)."""
    return [
        el
        for el in post.xpath(_QUOTE_PATH, **_SAID)
        if el.tag == "blockquote" or _QUOTE.search(el.get("class") or "") or attributed(el)
    ]


def attributed(el: Any) -> bool:
    """Whether a box is a quote by its first box's words of attribution, and holds them
    and the quoted words in a few boxes (then an icon's at most), no words of its own
    between them (a post's body that starts with a quote's attribution holds the reply's
    words: it is no quote)."""
    kids = list(islice(el, posts_tuning.QUOTE_PARTS + 1))
    if not kids or len(kids) > posts_tuning.QUOTE_PARTS or (el.text or "").strip():
        return False
    if any((k.tail or "").strip() for k in kids) or not all(_icon(k) for k in kids[2:]):
        return False
    return opens_attributed(el)


def opens_attributed(el: Any) -> bool:
    """Whether a box's first box starts with a board's words of attribution
    (posts_tuning.QUOTE_ATTRIBUTIONS: "Originally Posted by", "Quote from:")."""
    first = next(iter(el), None)
    text = " ".join(((first.text or "") if first is not None else "").split())
    return any(text.startswith(a) for a in posts_tuning.QUOTE_ATTRIBUTIONS)


def _icon(el: Any) -> bool:
    """Whether a box past a quote's attribution and words draws no words (an icon): one
    that holds words is the reply's, written beside the quote in its panel. A box of more
    than a few elements is no icon, and not read (panels nest in each other's boxes)."""
    if next(islice(el.iterdescendants(), posts_tuning.QUOTE_PARTS, None), None) is not None:
        return False
    return not "".join(el.itertext()).strip()


def _own_text(el: Any, skip: set[Any]) -> str:
    """The text of el outside the boxes in skip inside it (without recursion: a hostile
    page nests quotes as deep as the parser lets it)."""
    from lxml import etree

    text = "".join(el.itertext())
    walker = etree.iterwalk(el, events=("start",))
    for _, inner in walker:
        if inner is not el and inner in skip:
            text = text.replace("".join(inner.itertext()), " ", 1)
            walker.skip_subtree()
    return text


def drop_repeats(posts: list[BlockRecord]) -> int:
    """Quotes in a post that repeat what the posts above printed (tuning.QUOTE_SEEN of
    their runs of words) leave it, attribution and all: a reply that quotes the question
    whole prints it again, which platforms fold away. A quote is judged by its own words,
    outside the quotes inside it: a board that writes every post's body as a
    <blockquote> keeps the reply around a quote. How many went."""
    from wf.extract.parse import drop

    seen: set[tuple[str, ...]] = set()
    pending: list[Any] = []  # posts above not yet read into `seen`: most threads quote nothing
    gone = 0
    for post in posts:
        el = post.el
        if el.getparent() is None:
            continue
        pending.append(el)
        quotes = _quotes(el)[: tuning.QUOTES_MAX]
        if not quotes:
            continue
        for above in pending[:-1]:
            seen |= _runs("".join(above.itertext()))
        pending = pending[-1:]
        nested = set(quotes)
        dropped: list[Any] = []
        for quote in quotes:
            if any(a in dropped for a in quote.iterancestors()):
                continue
            runs = _runs(_own_text(quote, nested))
            if runs and len(runs & seen) >= tuning.QUOTE_SEEN * len(runs):
                dropped.append(quote)
        dropped += _attributions(quotes, dropped, nested)
        for quote in dropped:
            drop(quote)
        gone += len(dropped)
    return gone


def _attributions(quotes: list[Any], dropped: list[Any], nested: set[Any]) -> list[Any]:
    """The boxes around quotes that all went whose own words are only an attribution,
    too few to be a quote and ending in a colon (phpBB's and FluxBB's "ann wrote:" over
    its <blockquote>, or in a box of its own named for the quote, UBB's "quote:"): it
    goes with its quote, not left as a line of its own. A reply of a few words around a
    quote (a board that writes every post's body as a <blockquote>) ends otherwise and
    stays."""
    gone = set(dropped)
    above = {q: set(q.iterancestors()) for q in quotes}  # quotes are few (QUOTES_MAX)
    own = {q: _own_text(q, nested) for q in quotes}
    left = {q: _own_text(q, gone) for q in quotes}  # the attribution's box stays in it

    def went(q: Any) -> bool:
        return q in gone or not gone.isdisjoint(above[q])

    def bare(q: Any) -> bool:  # an attribution's own box ("quote:") is no quote
        return not _runs(own[q])

    return [
        box
        for box in quotes
        if not went(box)
        and bare(box)
        and left[box].strip().endswith(":")
        and any(went(q) for q in quotes if box in above[q])
        and all(went(q) or bare(q) for q in quotes if box in above[q])
    ]
