"""Choosing the main content: one walk that scores every block, then the best subtree.

Each block's own text (its text and that of its inline descendants) is classed:
prose (long enough, few links) counts as good; link lists and short labels count as
bad. A subtree's score is good minus bad, so the winner is the smallest region that
holds most of the prose without dragging navigation along. Boilerplate class and id
words (share, related, comments...) and nav/aside/footer turn a subtree's prose into
bad, unless that subtree holds most of the page's prose (the page put its article there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
    "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html",
    "legend", "li", "main", "menu", "nav", "noscript", "ol", "p", "pre", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
))
STRUCTURAL_NEGATIVE = frozenset(("nav", "aside", "footer"))
# Never boilerplate by their class names: they hold the page or say they are its content.
NEVER_NEGATIVE = frozenset(("html", "body", "main"))

# Words in class and id values that name boilerplate on any site. The distinctive ones
# match inside longer names too (sitefooter, relatedPosts, commentlist); the short or
# ambiguous ones only as whole words, so that "ad" does not match "header".
_NEGATIVE = re.compile(
    r"comment(?!ary)|disqus|share|sharing|social|related|recommend|recirc|promo|"
    r"newsletter|subscri|signup|advert|sponsor|sidebar|widget|footer|breadcrumb|navbar|"
    r"navigation|menu|cookie|consent|gdpr|banner|popup|modal|outbrain|taboola|trending|"
    r"popular|byline|pagination|toolbar|login|"
    r"(?<![a-z])(?:ad|ads|adv|nav|rail|tags|cta|follow|rating|skip|pager|print-only|"
    r"sr-only|visually-hidden|screen-reader|screen-reader-text|most-read|more-stories|"
    r"author-bio|jump-link|read-more|see-also|also-read)(?![a-z])"
)
# Words that say "this is the content". A class token made of them alone outweighs a
# boilerplate token beside it (`article-body pagination-first`, `main has-sidebar`);
# a token that mixes both (`article-footer`, `comment-content`) stays boilerplate.
_POSITIVE = re.compile(r"(?<![a-z])(?:article|body|content|main|post|entry|story|text)(?![a-z])")
_CAMEL = re.compile(r"([a-z])([A-Z])")

GOOD_MIN = 50  # characters of own text for a block to count as prose
THIN_PROSE = 250  # characters of prose below which a chosen region is suspect
CARD_MAX = 500  # characters: more prose than this under a linked heading is no teaser
SHORT_WEIGHT = 0.25  # how bad a short line without links is (a label, a date, a byline)

_negative_cache: dict[str, bool] = {}


def negative_words(words: str) -> bool:
    """Whether class and id tokens name boilerplate."""
    hit = _negative_cache.get(words)
    if hit is None:
        if len(_negative_cache) > 20000:
            _negative_cache.clear()
        negative = positive = False
        for token in words.split():
            # camelCase and snake_case get the same word boundaries as kebab-case.
            low = _CAMEL.sub(r"\1-\2", token).lower().replace("_", "-")
            if _NEGATIVE.search(low):
                negative = True
            elif _POSITIVE.search(low):
                positive = True
        hit = _negative_cache[words] = negative and not positive
    return hit


def negative_attr(el: Any) -> bool:
    cls = el.get("class")
    ident = el.get("id")
    if not cls and not ident:
        return False
    return negative_words(f"{cls} {ident}" if cls and ident else cls or ident)


# Per block, in the order blocks end (children before their parent):
#   element, parent index, own prose, own bad text weight, own text, own link text,
#   negative (a boilerplate tag or class name), card (holds a linked heading: a teaser)
_EL, _PARENT, _OWN_GOOD, _OWN_BAD, _OWN_TEXT, _OWN_LINK, _NEG, _CARD = range(8)
_HEADING = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_ELLIPSIS = ("...", "\u2026")


@dataclass
class Analysis:
    # element -> [good, bad, text, link, raw_good, boilerplate]
    stats: dict[Any, list[Any]] = field(default_factory=dict)
    best: Any = None
    total_good: float = 0.0


def walk(body: Any) -> list[list[Any]]:
    """One pass over the tree: every block's own text, classed, and its parent block."""
    from lxml import etree

    blocks: list[list[Any]] = []
    # An open block: [element, own text, own link text, child indexes, last text, card]
    frames: list[list[Any]] = []
    cur: list[Any] = [None, 0, 0, None, "", False]
    links = 0
    block = BLOCK
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if event == "start":
            if tag in block or "-" in tag:
                cur = [el, 0, 0, [], "", False]
                frames.append(cur)
            if tag == "a":
                links += 1
            text = el.text
            if text:
                n = len(text.strip())
                if n:
                    cur[1] += n
                    cur[4] = text
                    if links:
                        cur[2] += n
            continue
        if tag == "a":
            links -= 1
        if frames and frames[-1][0] is el:
            f = frames.pop()
            own, own_link = f[1], f[2]
            good = bad = 0.0
            if own:
                # Link text is bad anywhere; the rest is prose when the block is long,
                # unless it trails off in an ellipsis: an excerpt teasing another page.
                if own >= GOOD_MIN and not f[4].rstrip().rstrip("])").endswith(_ELLIPSIS):
                    good = own - own_link
                    bad = own_link
                else:
                    bad = own_link + SHORT_WEIGHT * (own - own_link)
            index = len(blocks)
            for child in f[3]:
                blocks[child][_PARENT] = index
            blocks.append(
                [el, -1, good, bad, own, own_link,
                 tag in STRUCTURAL_NEGATIVE
                 or (tag not in NEVER_NEGATIVE and negative_attr(el)),
                 f[5]]
            )
            if frames:
                cur = frames[-1]
                cur[3].append(index)
                # A heading that is all link titles a teaser card: its block is one.
                if tag in _HEADING and own and own_link * 10 >= own * 9:
                    cur[5] = True
        tail = el.tail
        if tail and cur[0] is not None:
            n = len(tail.strip())
            if n:
                cur[1] += n
                cur[4] = tail
                if links:
                    cur[2] += n
    return blocks


def aggregate(
    blocks: list[list[Any]], exempt: set[int]
) -> tuple[list[list[float]], list[bool]]:
    """Subtree sums per block, [good, bad, text, link, raw good], and whether each block
    is boilerplate. Prose in boilerplate counts as bad."""
    sums = [[b[_OWN_GOOD], b[_OWN_BAD], b[_OWN_TEXT], b[_OWN_LINK], b[_OWN_GOOD]] for b in blocks]
    boiler = [False] * len(blocks)
    for i, b in enumerate(blocks):
        s = sums[i]
        if (b[_NEG] and i not in exempt) or (b[_CARD] and s[0] < CARD_MAX):
            boiler[i] = True
            s[1] += s[0]
            s[0] = 0.0
        parent = b[_PARENT]
        if parent >= 0:
            p = sums[parent]
            p[0] += s[0]
            p[1] += s[1]
            p[2] += s[2]
            p[3] += s[3]
            p[4] += s[4]
    return sums, boiler


def _best(blocks: list[list[Any]], sums: list[list[float]], boiler: list[bool]) -> int:
    """The block with the highest score outside every boilerplate subtree, or -1."""
    n = len(blocks)
    inside = [False] * n
    # Parents come after their children: walk backwards to pass the flag down.
    for i in range(n - 1, -1, -1):
        parent = blocks[i][_PARENT]
        inside[i] = boiler[i] or (parent >= 0 and inside[parent])
    best, best_score = -1, 0.0
    for i, s in enumerate(sums):
        score = s[0] - s[1]
        if score > best_score and not inside[i]:
            best, best_score = i, score
    return best


def choose(body: Any) -> Analysis:
    """Score every block and keep the best subtree.

    When boilerplate names leave almost no prose (a page that wraps its article in
    `<div class="has-sidebar">`), score again without the names that held most of it.
    """
    blocks = walk(body)
    result = Analysis()
    if not blocks:
        return result
    sums, boiler = aggregate(blocks, set())
    total = sums[-1][4]
    best = _best(blocks, sums, boiler)
    if best < 0 or sums[best][0] < max(THIN_PROSE, 0.1 * total):
        exempt = {i for i, b in enumerate(blocks) if b[_NEG] and sums[i][4] > 0.5 * total}
        if exempt:
            sums, boiler = aggregate(blocks, exempt)
            best = _best(blocks, sums, boiler)
    result.total_good = total
    stats = result.stats
    for i, b in enumerate(blocks):
        s = sums[i]
        stats[b[_EL]] = [s[0], s[1], s[2], s[3], s[4], boiler[i]]
    result.best = blocks[best][_EL] if best >= 0 else None
    return result


def prune(el: Any, s: list[Any]) -> bool:
    """Whether a block inside the chosen content is boilerplate to leave out."""
    good, _bad, text, link, _raw, negative = s
    if negative:
        return True
    # A list of links (menu, related stories, tags) with little prose of its own.
    return bool(text and link * 2 > text and good * 2 < text)
