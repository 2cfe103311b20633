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
# Navigation, asides, page footers, and figures (their captions describe a picture, not
# the story) are boilerplate unless they hold most of the page's prose.
STRUCTURAL_NEGATIVE = frozenset(("nav", "aside", "footer", "figure", "figcaption"))
# Never boilerplate by their class names: they hold the page or say they are its content.
NEVER_NEGATIVE = frozenset(("html", "body", "main"))

# Words in class and id values that name boilerplate on any site. The distinctive ones
# match inside longer names too (sitefooter, relatedPosts, commentlist); the short or
# ambiguous ones only as whole words, so that "ad" does not match "header".
_NEGATIVE = re.compile(
    r"comment(?!ary)|disqus|share|sharing|social|related|recommend|recirc|promo|"
    r"newsletter|subscri|signup|advert|sponsor|sidebar|widget|footer|breadcrumb|navbar|"
    r"navigation|menu|cookie|consent|gdpr|banner|popup|modal|outbrain|taboola|trending|"
    r"popular|byline|pagination|toolbar|login|caption|gallery|slideshow|carousel|"
    r"(?<![a-z])(?:ad|ads|adv|nav|rail|tags|cta|follow|rating|skip|pager|print|author|"
    r"date|dates|dateline|timestamp|meta|publish|published|"
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
PARAGRAPH_WORDS = 20  # characters outside links that make a linked paragraph a sentence
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
            low = token if token.islower() else _CAMEL.sub(r"\1-\2", token).lower()
            if "_" in low:
                low = low.replace("_", "-")
            if "embed" in low:
                continue  # an embedded post (social-media-embed) is quoted content
            if _NEGATIVE.search(low):
                negative = True
            elif _POSITIVE.search(low):
                positive = True
        hit = _negative_cache[words] = negative and not positive
    return hit


def negative_block(el: Any, tag: str) -> bool:
    """A boilerplate block by its tag or its class and id names."""
    if tag in STRUCTURAL_NEGATIVE:
        return True
    if tag in NEVER_NEGATIVE:
        return False
    cls = el.get("class")
    ident = el.get("id")
    if not cls and not ident:
        return False
    return negative_words(f"{cls} {ident}" if cls and ident else cls or ident)


# A block record, in document order (a parent before its children):
#   element, parent index, tag, own text, own link text, last own text, card, own index
# "Own" text is the block's text and its inline descendants' text, not its child blocks'.
# A card holds a heading that is all link: the title of a teaser for another page.
_EL, _PARENT, _TAG, _OWN, _OWN_LINK, _LAST, _CARD, _INDEX = range(8)
_HEADING = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_ELLIPSIS = ("...", "\u2026")


@dataclass
class Analysis:
    # element -> [good, bad, text, link, raw_good, boilerplate]
    stats: dict[Any, list[Any]] = field(default_factory=dict)
    best: Any = None
    total_good: float = 0.0
    exempt: frozenset[Any] = frozenset()  # boilerplate names that hold the content


def walk(body: Any) -> list[list[Any]]:
    """One pass over the tree: every block's own text and its parent block."""
    from lxml import etree

    blocks: list[list[Any]] = []
    frames: list[list[Any]] = []  # the open blocks, innermost last
    cur: list[Any] = [None, -1, "", 0, 0, "", False, -1]
    links = 0
    block = BLOCK
    for event, el in etree.iterwalk(body, events=("start", "end")):
        if event == "start":
            tag = el.tag
            if tag in block:
                cur = [el, cur[7], tag, 0, 0, "", False, len(blocks)]
                blocks.append(cur)
                frames.append(cur)
            elif tag == "a":
                links += 1
            text = el.text
            if text:
                n = len(text.strip())
                if n:
                    cur[3] += n
                    cur[5] = text
                    if links:
                        cur[4] += n
            continue
        if frames and frames[-1][0] is el:
            f = frames.pop()
            if frames:
                cur = frames[-1]
                tag = f[2]
                # A heading that is all link titles a teaser card: its block is one.
                if tag in _HEADING and f[3] and f[4] * 10 >= f[3] * 9:
                    cur[6] = True
        elif links and el.tag == "a":
            links -= 1
        tail = el.tail
        if tail and cur[0] is not None:
            n = len(tail.strip())
            if n:
                cur[3] += n
                cur[5] = tail
                if links:
                    cur[4] += n
    return blocks


def classify(blocks: list[list[Any]]) -> list[list[float]]:
    """Per block, its own [good, bad, text, link, good]: link text is bad anywhere;
    the rest is prose when the block is long, unless it trails off in an ellipsis (an
    excerpt teasing another page); short lines weigh a little on the bad side."""
    out = []
    for b in blocks:
        own, link = b[_OWN], b[_OWN_LINK]
        if not own:
            out.append([0.0, 0.0, 0, 0, 0.0])
        elif own >= GOOD_MIN and not b[_LAST].rstrip().rstrip("])").endswith(_ELLIPSIS):
            out.append([own - link, link, own, link, own - link])
        elif b[_TAG] in _HEADING:
            # A heading is short but no label: it belongs with the prose it titles.
            out.append([0.0, link, own, link, 0.0])
        else:
            out.append([0.0, link + SHORT_WEIGHT * (own - link), own, link, 0.0])
    return out


def aggregate(
    blocks: list[list[Any]], own: list[list[float]], negative: Any, exempt: set[int]
) -> tuple[list[list[float]], list[bool]]:
    """Subtree sums per block, [good, bad, text, link, raw good], and whether each block
    is boilerplate. Prose in boilerplate counts as bad."""
    sums = [s[:] for s in own]
    boiler = [False] * len(blocks)
    # Children come after their parent: walk backwards to add each into its parent.
    for i in range(len(blocks) - 1, -1, -1):
        s = sums[i]
        b = blocks[i]
        # Names are looked at only where they matter: blocks holding prose.
        if s[0] and (
            (b[_CARD] and s[0] < CARD_MAX) or (i not in exempt and negative(i))
        ):
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
    inside = [False] * len(blocks)
    best, best_score = -1, 0.0
    for i, b in enumerate(blocks):
        parent = b[_PARENT]
        inside[i] = flag = boiler[i] or (parent >= 0 and inside[parent])
        s = sums[i]
        score = s[0] - s[1]
        if score > best_score and not flag:
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
    cache: dict[int, bool] = {}

    def negative(i: int) -> bool:
        hit = cache.get(i)
        if hit is None:
            b = blocks[i]
            hit = cache[i] = negative_block(b[_EL], b[_TAG])
        return hit

    own = classify(blocks)
    sums, boiler = aggregate(blocks, own, negative, set())
    total = sums[0][4]
    best = _best(blocks, sums, boiler)
    exempt: set[int] = set()
    if best < 0 or sums[best][0] < max(THIN_PROSE, 0.1 * total):
        exempt = {
            i for i in range(len(blocks)) if sums[i][4] > 0.5 * total and negative(i)
        }
        if exempt:
            sums, boiler = aggregate(blocks, own, negative, exempt)
            best = _best(blocks, sums, boiler)
    result.total_good = total
    stats = result.stats
    for i, b in enumerate(blocks):
        s = sums[i]
        s.append(boiler[i])
        stats[b[_EL]] = s
    result.best = blocks[best][_EL] if best >= 0 else None
    result.exempt = frozenset(blocks[i][_EL] for i in exempt)
    return result


def prune(el: Any, s: list[Any], exempt: frozenset[Any]) -> bool:
    """Whether a block inside the chosen content is boilerplate to leave out."""
    good, _bad, text, link, _raw, boiler = s
    if boiler or (el not in exempt and negative_block(el, el.tag)):
        return True
    # A list of links (menu, related stories, tags) with little prose of its own; a
    # paragraph is spared when words of its own join its links into a sentence.
    if not text or link * 2 <= text or good * 2 >= text:
        return False
    return el.tag != "p" or text - link < PARAGRAPH_WORDS
