"""Choosing the main content: one walk that scores every block, then the best subtree.

Each block's own text (its text and that of its inline descendants) is classed:
prose (long enough, not trailing off in an ellipsis) counts as good, link text and
short labels as bad. A subtree's score is good minus bad, so the winner is the region
that holds most of the prose without dragging navigation along. Blocks named as
boilerplate (nav, aside, footer, figure; class and id words such as share, related,
comments) are not walked into: all their text is bad. When that leaves no article, the
page is walked again to see whether a boilerplate name wrapped the article itself.

Checks then settle the choice, on the chosen block and its larger child boxes only:
a consent dialog or a notice asking for JavaScript, known by its text in any box (the
platforms' names and dialog roles are already boilerplate), is made boilerplate and the
page scored again. A box drawn over the page (fixed) or alone at the very start or end of
<body> is read with a sparser consent vocabulary: consent managers put their dialogs
there, named or not. A notice about scripts inside a short article drops its own box,
not the article. A consent dialog that leaves the first look thin is set aside while the
page is walked whole (its article may sit in a box named as boilerplate), and the prose of
boxes that are never content leaves the page's total there. A thread of reader comments
after the article (sibling entries of one shape: a byline, a paragraph, a reply link) is
left out by that shape, whatever it is named. And the choice widens to an ancestor that
holds much more prose of the same kind (a wiki's trivia list chosen out of the article
that holds it).

Last, siblings of the choice that score a fifth of it join it (an article split into
boxes around an advertisement): their parent is chosen and its other children are cut.
A choice that is still thin (a product's short description) widens to the ancestors that
add text but few links: the product's specifications, not the recommendations beside it.
A choice with prose leaves out the teaser cards in it whose excerpt is too short to be
prose, and small boxes around a form that pitch something (a newsletter's sign-up).
Teaser cards weigh only by their links: related stories inside the article's box do not
sink it.

Inside the choice, link lists are left out: a list item or paragraph whose own words make
a sentence of its links stays, a list is judged item by item and a table as a whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# fmt: off
BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
    "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html",
    "legend", "li", "main", "menu", "nav", "noscript", "ol", "p", "pre", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
))
# fmt: on
# Navigation, asides, page footers, and figures (their captions describe a picture, not
# the story) are boilerplate unless they hold most of the page's prose.
STRUCTURAL_NEGATIVE = frozenset(("nav", "aside", "footer", "figure", "figcaption"))
_FRAMED = ("table", "pre", "blockquote", "code")
# Never boilerplate by their class names: they hold the page or say they are its content.
NEVER_NEGATIVE = frozenset(("html", "body", "main"))

# Words in class and id values that name boilerplate on any site (with the commonest
# non-English stems for comments and advertising). The distinctive ones match inside
# longer names too (sitefooter, relatedPosts, commentlist); the short or ambiguous ones
# only as whole words, so that "ad" does not match "header".
# fmt: off
_NEGATIVE_STEMS = (
    "comment(?!ary)", "disqus", "share", "sharing", "social", "related", "recommend",
    "recirc", "promo", "newsletter", "subscri", "signup", "advert", "sponsor", "sidebar",
    "widget", "footer", "breadcrumb", "navbar", "navigation", "menu", "cookie", "consent",
    "gdpr", "banner", "popup", "modal", "outbrain", "taboola", "trending", "popular",
    "byline", "pagination", "toolbar", "login", "caption", "gallery", "slideshow",
    "carousel", "feedback", "coment", "komment", "reklam", "werbung", "publicidad",
    "publicite", "empfehlung", "verwandte", "meistgelesen", "relacionad",
    # Consent platforms name their containers alike on every site: OneTrust, Cookiebot,
    # Didomi, Usercentrics, Quantcast, TrustArc, Sourcepoint, Borlabs, Complianz, CookieYes.
    "onetrust", "ot-sdk", "optanon", "cybot", "didomi", "usercentrics", "qc-cmp",
    "trustarc", "sp-message", "borlabs", "cmplz", "cmpbox", "iubenda", "axeptio",
    "tarteaucitron",
)
_NEGATIVE_WORDS = (
    "ad", "ads", "adv", "nav", "rail", "tags", "cta", "follow", "rating", "skip", "pager",
    "print", "author", "cmp", "klaro", "anzeige", "more-from", "also-like", "may-like",
    "other-news", "lire-aussi", "articles-lies", "mehr-zum-thema", "weitere-artikel",
    "truste", "teaser", "teasers", "abo", "upsell", "date", "dates", "dateline", "timestamp",
    "meta", "publish", "published", "photo", "photos", "image", "img", "picture", "sr-only",
    "visually-hidden", "screen-reader", "screen-reader-text", "most-read", "more-stories",
    "author-bio", "jump-link", "see-also", "also-read",
)
# fmt: on


def _by_first_letter(alternatives: tuple[str, ...]) -> str:
    """The alternatives as one alternation grouped by their first letter, each group in
    the order given: the regex engine rejects a whole group on one letter, so a class
    token is searched in about half the time, with the same matches (the same leftmost
    alternative wins, since two can only tie where they share a first letter)."""
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items())


# The stems match anywhere; the words only whole, after every stem has been tried.
_NEGATIVE = re.compile(
    f"{_by_first_letter(_NEGATIVE_STEMS)}"
    f"|(?<![a-z])(?:{_by_first_letter(_NEGATIVE_WORDS)})(?![a-z])"
)
# Words that say "this is the content". A class token made of them alone outweighs a
# boilerplate token beside it (`article-body pagination-first`, `main has-sidebar`);
# a token that mixes both (`article-footer`, `comment-content`) stays boilerplate.
_POSITIVE = re.compile(r"(?<![a-z])(?:article|body|content|main|post|entry|story|text)(?![a-z])")
# Comments: a token that names one outweighs content names beside it.
_STRONG = re.compile(r"comment(?!ary)|coment|komment|disqus")
_CAMEL = re.compile(r"([a-z])([A-Z])")
_MODIFIERS = ("has-", "with-", "no-", "without-", "is-")
_INNER_MODIFIERS = tuple("-" + m for m in _MODIFIERS)


def _modified(prefix: str) -> bool:
    """Whether a class word comes right after has-, no-, with-...: "has-sidebar" says
    what a block holds, not what it is."""
    return prefix in _MODIFIERS or prefix.endswith(_INNER_MODIFIERS)


# Boilerplate that can outweigh a short article but never wraps one: reader comments and
# recommendations. A page is never read as if these held its content.
_NEVER_CONTENT = re.compile(
    r"comment(?!ary)|coment|komment|disqus|related|recommend|outbrain|taboola|popular|"
    r"trending|promo|newsletter|empfehlung|verwandte|meistgelesen|"
    # Consent managers (their legal text about vendors and purposes is long prose).
    r"consent|cookie|gdpr|onetrust|ot-sdk|optanon|cybot|didomi|usercentrics|qc-cmp|"
    r"truste|sp_message|borlabs|cmplz|cky-consent|uc-banner|cmpbox|iubenda|axeptio|"
    r"tarteaucitron|(?<![a-z])(?:cmp|klaro)(?![a-z])",
    re.IGNORECASE,
)
# ARIA roles of a box drawn over the page: a consent, sign-in or newsletter dialog.
_DIALOG_ROLES = frozenset(("dialog", "alertdialog"))

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

# Per class and id value: 0, or _NAMED (boilerplate), or _NAMED_TEASER or _NAMED_PICTURE
# (only by a word that also names content, see below).
_negative_cache: dict[str, int] = {}
# Per class or id token: pages repeat tokens (col-md-6, wrapper, clearfix) far more than
# whole class values, and each new token costs three regexes.
_token_cache: dict[str, int] = {}
_NEG, _STRONG_NEG, _POS, _TEASER, _PICTURE = 1, 2, 4, 8, 16
_NAMED, _NAMED_TEASER, _NAMED_PICTURE = 1, 2, 3
# "Teaser" names a box that teases another page, and on many news sites the article's own
# lead paragraph (`article-teaser`, `teaser-text`): the box is boilerplate only when it
# links somewhere.
_TEASER_WORDS = frozenset(("teaser", "teasers"))
# A picture's box is boilerplate (its caption describes the picture, not the story), but
# a token that names text beside the picture (text-image, img-text) names a CMS's block of
# text with a picture: boilerplate only when it holds no paragraph (a caption of that name).
_IMAGE_WORDS = frozenset(("image", "img", "photo", "photos", "picture"))
_TEXT_WORD = re.compile(r"(?<![a-z])text(?![a-z])")


# A content system's publication state on an entry's own box (Drupal's `node-promoted`,
# `node-sticky`, WordPress's `status-publish`): what state the entry is in, not what the
# box is. Read as boilerplate, "promoted" would make the article a promotion.
_STATE = re.compile(
    r"(?:node|status)--?(?:promoted|sticky|not-sticky|published|unpublished|not-published|"
    r"publish|draft|future|pending|private)"
)


def _lowered(token: str) -> str:
    """camelCase and snake_case with the same word boundaries as kebab-case."""
    low = token if token.islower() else _CAMEL.sub(r"\1-\2", token).lower()
    return low.replace("_", "-") if "_" in low else low


def _token_kind(token: str) -> int:
    """A class or id token's verdict: _NEG (with _STRONG_NEG for a comment's content box,
    _TEASER or _PICTURE when only such words name it) or _POS or 0."""
    low = _lowered(token)
    if _STATE.fullmatch(low):
        return 0
    if "embed" in low:
        return 0  # an embedded post (social-media-embed) is quoted content
    hits = [m.group() for m in _NEGATIVE.finditer(low) if not _modified(low[: m.start()])]
    if hits:
        # has-sidebar, card-no-image: what a block holds, not what it is.
        if _STRONG.search(low) and _POSITIVE.search(low):
            # comment-text, comment-body: a reader's comment, whatever else the block
            # is called.
            return _NEG | _STRONG_NEG
        if all(hit in _IMAGE_WORDS for hit in hits) and _TEXT_WORD.search(low):
            return _NEG | _PICTURE
        return _NEG | _TEASER if all(hit in _TEASER_WORDS for hit in hits) else _NEG
    return _POS if _POSITIVE.search(low) else 0


def _negative_kind(words: str) -> int:
    """0, _NAMED, _NAMED_TEASER or _NAMED_PICTURE for class and id tokens."""
    hit = _negative_cache.get(words)
    if hit is None:
        if len(_negative_cache) > 20000:
            _negative_cache.clear()
        if len(_token_cache) > 20000:
            _token_cache.clear()
        kinds = 0
        strong = False  # a token names boilerplate by more than a word that names content
        for token in words.split():
            kind = _token_cache.get(token)
            if kind is None:
                kind = _token_cache[token] = _token_kind(token)
            kinds |= kind
            if kind & _NEG and not kind & (_TEASER | _PICTURE):
                strong = True
        hit = 0
        if kinds & _NEG and (kinds & _STRONG_NEG or not kinds & _POS):
            if strong or (kinds & _TEASER and kinds & _PICTURE):
                hit = _NAMED
            else:
                hit = _NAMED_TEASER if kinds & _TEASER else _NAMED_PICTURE
        _negative_cache[words] = hit
    return hit


def negative_words(words: str) -> bool:
    """Whether class and id tokens name boilerplate."""
    return _negative_kind(words) != 0


def negative_block(el: Any, tag: str) -> bool:
    """A boilerplate block by its tag or its class and id names."""
    if tag in STRUCTURAL_NEGATIVE:
        # A figure around a table, a code listing or a quotation frames content.
        return tag != "figure" or next(el.iter(*_FRAMED), None) is None
    if tag in NEVER_NEGATIVE:
        return False
    cls = el.get("class")
    ident = el.get("id")
    if not cls and not ident:
        return False
    # A site's own dialogs carry a class too: the roles are looked at only then.
    # (aria-modal="true" is only valid beside one of these roles.)
    if el.get("role") in _DIALOG_ROLES:
        return True
    if ident and ident.count("-") >= 3 and len(el) and el[0].tag in _HEADING:
        # An id made of a heading's words (`sharing-with-a-single-developer`, a
        # documentation or wiki section's anchor) names the topic, not the block's role.
        ident = None
    if not cls and not ident:
        return False
    kind = _negative_kind(f"{cls} {ident}" if cls and ident else cls or ident)
    if kind == _NAMED_TEASER:
        return next(el.iter("a"), None) is not None
    if kind == _NAMED_PICTURE:
        return next(el.iterdescendants("p"), None) is None
    return kind != 0


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
        self.good = 0.0
        self.bad = 0.0
        self.text = 0
        self.link = 0
        self.raw = 0.0
        self.boiler = False
        self.neg = neg
        self.end = index + 1
        self.cut = False


_HEADING = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
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

    def records(self, whole: bool = False) -> dict[Any, BlockRecord]:
        """element -> block record, for the chosen block and those inside it (or all)."""
        blocks = self.blocks
        if whole or self.best_index < 0:
            return {b.el: b for b in blocks}
        start = self.best_index
        return {b.el: b for b in blocks[start : blocks[start].end]}


class OutOfTime(Exception):
    """The caller's deadline passed while a page was being read."""


def check_time(deadline: float | None) -> None:
    if deadline is not None:
        import time

        if time.monotonic() > deadline:
            raise OutOfTime


def walk(
    body: Any, *, skip_boilerplate: bool = True, deadline: float | None = None
) -> list[BlockRecord]:
    """One pass over the tree: every block's own text and its parent block.

    A block named as boilerplate is not walked into: its whole text counts as bad at
    once, and most of a page's elements (menus, footers, comments) are never visited.
    """
    from lxml import etree

    from wf.extract.parse import text_length

    length = text_length()
    blocks: list[BlockRecord] = []
    frames: list[BlockRecord] = []  # the open blocks, innermost last
    cur = BlockRecord(None, -1, "", 0, 0, "", -1, 0, None)  # text before the first block
    links = 0
    block = BLOCK
    top = None  # frames[-1].el: the innermost open block's element
    walker = etree.iterwalk(body, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            tag = el.tag
            if tag in block:
                if deadline is not None and not len(blocks) & 1023:
                    check_time(deadline)
                if skip_boilerplate:
                    negative = negative_block(el, tag)
                    if negative and el is not body:
                        n = int(length(el))
                        blocks.append(
                            BlockRecord(
                                el, cur.index, tag, n, n, None, len(blocks), len(frames), True
                            )
                        )
                        walker.skip_subtree()
                        continue
                else:
                    negative = None
                cur = BlockRecord(el, cur.index, tag, 0, 0, "", len(blocks), len(frames), negative)
                blocks.append(cur)
                frames.append(cur)
                top = el
            elif tag == "a":
                links += 1
            text = el.text
            if text:
                # A huge node is counted as it is: strip() would copy it whole.
                n = len(text.strip()) if len(text) < 4096 else len(text)
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
                # A heading that is all link titles a teaser card: its block is one.
                if f.tag in _HEADING and f.own and f.own_link * 10 >= f.own * 9:
                    cur.card = 1
        elif links and el.tag == "a":
            links -= 1
        tail = el.tail
        if tail and cur.el is not None:
            n = len(tail.strip())
            if n:
                cur.own += n
                cur.last = tail if n < 64 else tail[-16:]
                if links:
                    cur.own_link += n
    for f in frames:  # never left open, but a subtree's end must hold whatever happens
        f.end = len(blocks)
    return blocks


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
    heading = _HEADING
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


def _best(blocks: list[BlockRecord]) -> int:
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


def _wrappers(blocks: list[BlockRecord], total: float) -> set[int]:
    """Blocks named as boilerplate that hold most of the page's prose: wrappers."""
    return {
        i
        for i, b in enumerate(blocks)
        if b.raw > 0.5 * total and negative(b) and not _never_content(b.el)
    }


def _repeated(blocks: list[BlockRecord], total: float) -> set[int]:
    """The wrappers, and blocks of prose that share a boilerplate name with two or more
    others, or with one other when the two hold most of the page's prose: a page
    builder's `widget-container` around every paragraph is markup, not boilerplate. The
    name is compared without its tokens that hold digits (`elementor-element-4f3a2b1`,
    `block_12`): builders number every element."""
    groups: dict[str, list[int]] = {}
    for i, b in enumerate(blocks):
        if b.raw >= GOOD_MIN and negative(b) and not _never_content(b.el):
            groups.setdefault(_class_kind(b.el.get("class")), []).append(i)
    repeated = {
        i
        for name, group in groups.items()
        if name
        and (
            len(group) >= 3 or (len(group) == 2 and sum(blocks[i].raw for i in group) > 0.5 * total)
        )
        for i in group
    }
    return repeated | _wrappers(blocks, total) if repeated else repeated


def _class_kind(cls: str | None) -> str:
    """A class value without the tokens that number one element."""
    if not cls:
        return ""
    if not any(c.isdigit() for c in cls):
        return cls
    return " ".join(t for t in cls.split() if not any(c.isdigit() for c in t))


def _never_content(el: Any) -> bool:
    if el.get("role") in _DIALOG_ROLES or el.get("aria-modal") == "true":
        return True
    names = f"{el.get('class') or ''} {el.get('id') or ''}"
    if _NEVER_CONTENT.search(names) is None:
        return False
    return any(
        _NEVER_CONTENT.search(token) and not _STATE.fullmatch(_lowered(token))
        for token in names.split()
    )


def _thin(blocks: list[BlockRecord], best: int, total: float) -> bool:
    return best < 0 or blocks[best].good < max(THIN_PROSE, 0.1 * total)


def choose(
    body: Any, deadline: float | None = None, dense: bool = False, kind: str | None = None
) -> Analysis:
    """Score every block and keep the best subtree (`dense`: the page is written in
    Chinese or Japanese, where prose is fewer characters).

    When boilerplate names leave almost no prose (a page that wraps its article in
    `<div class="has-sidebar">`), score again without the names that held most of it.
    """
    gm = GOOD_MIN_DENSE if dense else GOOD_MIN
    blocks = walk(body, deadline=deadline)
    result = Analysis(blocks=blocks, kind=kind)
    if not blocks:
        return result
    aggregate(blocks, set(), gm)
    total = blocks[0].raw
    best = _best(blocks)
    skipped = sum(b.own for b in blocks if b.last is None)
    # Notices (consent dialogs, requests for JavaScript) that outscore what the first walk
    # found: without them the page may be thin, its article in a box whose name reads as
    # boilerplate; they stay set aside while the page is walked whole, and come back only
    # when no article turns up.
    held: list[Any] = []
    checked = -1  # the block the notices were looked for in, while the records stand
    if skipped and best >= 0:
        best = checked = _skip_notices(blocks, best, gm, held)
        if held:
            _hold(blocks, held, True)
            aggregate(blocks, set(), gm)
            best = _best(blocks)
            checked = -1
    if skipped and _thin(blocks, best, total + skipped):
        # Walk everything this time, to learn which boilerplate names held the prose.
        check_time(deadline)
        checked = -1
        blocks = result.blocks = walk(body, skip_boilerplate=False, deadline=deadline)
        aggregate(blocks, set(), gm)
        # The page's prose without the boxes that can never be its content (a consent
        # manager's legal text, reader comments): a wrapper holds most of the rest.
        total = blocks[0].raw - _never_content_prose(blocks)
        if held:
            _hold(blocks, held, True)
            aggregate(blocks, set(), gm)
            total -= sum(b.raw for b in blocks if b.el in held and not _held_above(blocks, b, held))
        best = _best(blocks)
        # First the wrappers; failing those, the repeated names (the page's names are
        # then unreliable, and prune leniently inside the content).
        exempt: set[int] = set()
        for more, lenient in ((_wrappers, False), (_repeated, True)):
            if not _thin(blocks, best, total):
                break
            added = more(blocks, total) - exempt
            if held:
                added = {i for i in added if blocks[i].el not in held}
            if not added:
                continue
            aggregate(blocks, exempt | added, gm)
            chosen = _best(blocks)
            # Repeated names hold the page's prose whatever its length: a short page of two
            # numbered text widgets is read as the two, not as the whole page.
            enough = min(THIN_PROSE, 0.5 * total) if lenient else THIN_PROSE
            if chosen >= 0 and blocks[chosen].good >= enough:
                exempt |= added
                best = chosen
                result.lenient = lenient
                break
            aggregate(blocks, exempt, gm)  # no article there either: keep the names' verdict
        for i in exempt:
            blocks[i].neg = False
    if held and _thin(blocks, best, total):
        # No article without them either: the consent text is the page's own.
        _hold(blocks, held, False)
        aggregate(blocks, set(), gm)
        best = _best(blocks)
    if best >= 0 and best != checked:
        best = _skip_notices(blocks, best, gm)
    if best >= 0:
        from wf.extract.kinds import siblings

        if kind != "thread":
            best = _skip_threads(blocks, best, gm)
        best = _widen(blocks, best)
        best, shown = siblings.widen(blocks, best, kind)
        if shown and result.kind in (None, "article"):
            result.kind = shown
        if shown:
            best = _widen(blocks, best)
        elif result.kind in (None, "article"):
            result.kind = siblings.inner(blocks, best, kind) or result.kind
        best = _merge_siblings(blocks, best)
        if blocks[best].good < (THIN_PROSE_DENSE if dense else THIN_PROSE):
            best = _grow_thin(blocks, best)
        else:
            _drop_bare_cards(blocks, best)
        result.best = blocks[best].el
        result.best_index = best
    return result


THREAD_ITEMS = 4  # sibling entries of one shape that make a thread of comments
THREAD_AFTER = 500  # characters of prose before it, in the chosen block: the article
THREAD_ACTION = 40  # characters: an entry's action (reply, report) is a short link
THREAD_LABEL = 60  # characters: an entry's byline (name, date) is a short line
_PROSE, _ACTION, _LABEL = 1, 2, 4


def _skip_threads(blocks: list[BlockRecord], best: int, gm: int) -> int:
    """The chosen block, with a thread of reader comments after its article left out,
    known by its structure whatever it is named or written in: four or more sibling
    entries of one tag and class that each hold a short byline (name, date), a paragraph
    of prose and a short link of their own (reply), making most of the box around them,
    after some prose of the chosen block's own. The choice stands without it; when that
    leaves it no article, the thread stays."""
    chosen = blocks[best]
    end = chosen.end
    if chosen.good < THREAD_AFTER + THREAD_ITEMS * gm:
        return best
    shape: dict[int, int] = {}
    for j in range(best + 1, end):
        c = blocks[j]
        if c.text != c.own or not c.own or c.last is None:
            continue  # only blocks without blocks inside: the parts of an entry
        if c.good:
            kind = _PROSE
        elif c.own_link == c.own and c.own <= THREAD_ACTION:
            kind = _ACTION
        elif c.own <= THREAD_LABEL:
            kind = _LABEL
        else:
            continue
        shape[c.parent] = shape.get(c.parent, 0) | kind
    groups: dict[tuple[int, str, str], list[BlockRecord]] = {}
    for i, kinds in shape.items():
        if kinds == _PROSE | _ACTION | _LABEL:
            entry = blocks[i]
            if entry.link * 5 <= entry.text:
                key = (entry.parent, entry.tag, entry.el.get("class") or "")
                groups.setdefault(key, []).append(entry)
    threads = []
    for (parent, _, _), entries in groups.items():
        box = blocks[parent]
        if len(entries) < THREAD_ITEMS or parent < best or box.boiler:
            continue
        if sum(e.text for e in entries) * 10 < box.text * 7:
            continue
        before = sum(b.good for b in blocks[best + 1 : box.index] if b.text == b.own)
        if before >= THREAD_AFTER:
            threads.append(box)
    if not threads:
        return best
    for box in threads:
        box.neg = True
    aggregate(blocks, set(), gm)
    # The choice stands, the thread inside it now boilerplate: scored again, the best
    # single block could be one part of an article split in boxes.
    if chosen.good >= THIN_PROSE:
        return best
    for box in threads:
        box.neg = False
    aggregate(blocks, set(), gm)
    return best


FORM_BOX_MAX = 400  # characters: a box this small around a form is the form's widget
# ...when it says something: a title over a form (a recipe's, above its rating) is not.
FORM_PITCH_MIN = 40


def _drop_bare_cards(blocks: list[BlockRecord], best: int) -> None:
    """Inside an article with prose, the teaser cards whose line under the linked title
    is too short to be prose (related stories, in any language) are left out too, and so
    are small boxes around a form (a newsletter's sign-up, a search, a poll: the form's
    fields are gone by now, its pitch is not). On a listing page, whose prose is thin,
    such cards are the content and stay."""
    for b in blocks[best + 1 : blocks[best].end]:
        if b.card and not b.good:
            b.boiler = True
        elif b.tag == "form":
            box = b
            while box.parent > best and blocks[box.parent].text <= FORM_BOX_MAX:
                box = blocks[box.parent]
            if box.text >= FORM_PITCH_MIN:
                box.boiler = True


# Words of a consent manager's legal text, in the languages most pages here use and as
# loanwords in most others ("cookie", "tracking"); one every NOTICE_SPACING characters of
# text at least makes a box a consent dialog rather than an article that mentions them.
# Counted with str.count on the lowered text: a regex alternation is a hundred times
# slower here.
_CONSENT_WORDS = (
    "cookie", "consent", "einwillig", "zustimm", "datenschutz", "privacy", "privacidad",
    "confidentialit", "partner", "vendor", "anbieter", "purpose", "zweck", "finalit",
    "legitimate interest", "berechtigte", "personalis", "personaliz", "tracking",
    "widerruf", "withdraw", "gerät", "device", "stored", "gespeichert",
    "partenaire", "appareil", "donnée", "personal data", "personenbezogen",
    "\u30af\u30c3\u30ad\u30fc", "\u540c\u610f", "\u30d1\u30fc\u30c8\u30ca\u30fc",
)  # fmt: skip
# One of these is in every consent dialog: the rest are counted only then. (Japanese:
# "cookie" and "consent".)
_CONSENT_CORE = (
    "cookie",
    "consent",
    "einwillig",
    "zustimm",
    "\u30af\u30c3\u30ad\u30fc",
    "\u540c\u610f",
)
NOTICE_SPACING = 100
# A box drawn over the page or at the very edge of <body> (where consent managers put
# their dialogs, with or without names) needs a sparser vocabulary: one word in so many
# characters, over a longer sample (legal text mixes in sentences of other words).
NOTICE_SPACING_EDGE = 250
NOTICE_HITS = 6
EDGE_FIXED_DEPTH = 4  # boxes looked at for a fixed position: the block and three around
_FIXED = re.compile(r"position\s*:\s*(?:fixed|sticky)", re.IGNORECASE)
# "Browser" in the languages a notice about scripts is written in.
_BROWSER = re.compile(
    r"browser|navigateur|navegador|navigator|prohl[ií][zž]e[cč]|przegl[aą]dar|"
    r"\u0431\u0440\u0430\u0443\u0437\u0435\u0440|\u30d6\u30e9\u30a6\u30b6|"
    r"\u6d4f\u89c8\u5668|\u700f\u89bd\u5668"
)
NOTICE_SAMPLE = 800  # characters of a block read to judge it
SCRIPT_NOTICE_MAX = 800  # characters: a notice about scripts is short
# Characters of prose above which a block is read as no notice at all: a consent text
# that long is a privacy policy, the page's own content (and reading it costs time).
NOTICE_MAX = 6000
NOTICE_MAX_EDGE = 12000  # the same for a block over the page or at its edge (at_edge)


def _sample(el: Any, size: int = NOTICE_SAMPLE) -> str:
    """The start of a block's text: enough to judge it, and cheap (not the whole text)."""
    parts: list[str] = []
    n = 0
    for text in el.itertext():
        parts.append(text)
        n += len(text)
        if n > size:
            break
    return " ".join(parts)


def at_edge(blocks: list[BlockRecord], b: BlockRecord) -> bool:
    """Whether a block is drawn over the page (fixed or sticky, itself or a box around
    it) or sits in a box of its own at the very start or end of <body>: one without the
    page's navigation, header or footer, and with few links. Consent managers put their
    dialogs there; an article sits in the page's layout, beside its navigation."""
    el = b.el
    for _ in range(EDGE_FIXED_DEPTH):
        if el is None or el.tag == "body":
            break
        style = el.get("style")
        if style and _FIXED.search(style):
            return True
        el = el.getparent()
    top = b
    while top.parent >= 0 and blocks[top.parent].parent >= 0:
        top = blocks[top.parent]
    if top.parent < 0 or top.link * 4 > top.text:
        return False
    box = top.el
    if box.getprevious() is not None and box.getnext() is not None:
        return False
    return next(box.iter("nav", "header", "footer"), None) is None


def notice(el: Any, b: BlockRecord, edge: bool = False) -> str | None:
    """'consent' for a consent manager's dialog, 'script' for a notice that asks for
    JavaScript, judged by the text (whatever the box is named); None otherwise. `edge`:
    the block is drawn over the page or at its edge (at_edge), where a consent text can
    be sparser in the words that make it one."""
    text = _sample(el, 3 * NOTICE_SAMPLE if edge else NOTICE_SAMPLE).lower()
    if b.text <= SCRIPT_NOTICE_MAX and "javascript" in text:
        in_noscript = el.tag == "noscript" or next(el.iterancestors("noscript"), None) is not None
        if in_noscript or _BROWSER.search(text):
            return "script"
    if not any(word in text for word in _CONSENT_CORE):
        return None
    hits = sum(text.count(word) for word in _CONSENT_WORDS)
    spacing = NOTICE_SPACING_EDGE if edge else NOTICE_SPACING
    if hits >= NOTICE_HITS and hits * spacing >= len(text):
        return "consent"
    return None


def _script_box(blocks: list[BlockRecord], b: BlockRecord) -> BlockRecord:
    """The block of `b`'s subtree that holds its mention of JavaScript, when that block
    holds under half of `b`'s text; else `b` itself (the notice is the whole block)."""
    for el in b.el.iter():
        text, tail = el.text, el.tail
        if text and "javascript" in text.lower():
            holder = el
        elif tail and el is not b.el and "javascript" in tail.lower():
            holder = el.getparent()
        else:
            continue
        while holder is not b.el and holder.tag not in BLOCK:
            holder = holder.getparent()
        if holder is b.el:
            return b
        for inner in blocks[b.index + 1 : b.end]:
            if inner.el is holder:
                return inner if inner.text * 2 < b.text else b
        return b
    return b


def _never_content_prose(blocks: list[BlockRecord]) -> float:
    """The prose inside blocks that _never_content names (outermost ones only, and only
    those that hold a tenth of the page's prose or more: the rest do not decide which
    box holds most of it)."""
    prose = 0.0
    skip = 0
    floor = 0.1 * blocks[0].raw
    for i, b in enumerate(blocks):
        if i < skip or b.raw < floor or not b.raw:
            continue
        el = b.el
        if (el.get("class") or el.get("id") or el.get("role")) and _never_content(el):
            prose += b.raw
            skip = b.end
    return prose


def _held_above(blocks: list[BlockRecord], b: BlockRecord, held: list[Any]) -> bool:
    """Whether a block lies inside another held one."""
    i = b.parent
    while i >= 0:
        if blocks[i].el in held:
            return True
        i = blocks[i].parent
    return False


def _hold(blocks: list[BlockRecord], held: list[Any], on: bool) -> None:
    """Mark the blocks of the elements in `held` as boilerplate (on) or not."""
    for b in blocks:
        if b.el in held:
            b.neg = on


def _skip_notices(
    blocks: list[BlockRecord], best: int, gm: int, held: list[Any] | None = None
) -> int:
    """The chosen block, or another when it is, or mostly holds, a consent dialog or a
    notice about JavaScript: those are made boilerplate and the page is scored again.

    A consent text replaced by nothing is kept (a privacy policy is its page's content);
    a notice about scripts is dropped even then, and the caller widens to the page."""
    first = best
    flagged: list[BlockRecord] = []
    kinds: set[str] = set()
    for _ in range(4):
        chosen = blocks[best]
        # Its child boxes that hold a good share of its prose first (a dialog beside the
        # article in one wrapper), then, when none is a notice, the block itself. Only
        # boxes: paragraphs of a page about privacy are not dialogs one by one.
        suspects = []
        floor = max(0.25 * chosen.good, GOOD_MIN)
        j, end = best + 1, chosen.end
        while j < end:  # child by child, over their subtrees
            b = blocks[j]
            j = b.end
            if b.good >= floor and b.text > b.own:
                suspects.append(b)
        if chosen.tag not in NEVER_NEGATIVE and (
            chosen.good <= NOTICE_MAX
            or (chosen.good <= NOTICE_MAX_EDGE and at_edge(blocks, chosen))
        ):
            suspects.append(chosen)
        found = False
        for b in suspects:
            if b is chosen and found:
                break
            if any(b.index < f.index < b.end for f in flagged):
                # It holds a notice already dropped: its sample would read that notice
                # again (a video's "enable JavaScript" box inside a short article).
                continue
            kind = notice(b.el, b, at_edge(blocks, b))
            if kind == "script" and b.text > b.own:
                # The notice can be one box of a short article (a video's "enable
                # JavaScript" line): then that box goes, not the article.
                b = _script_box(blocks, b)
            if kind:
                b.neg = True
                flagged.append(b)
                kinds.add(kind)
                found = True
        if not found:
            return best
        aggregate(blocks, set(), gm)
        best = _best(blocks)
        if best < 0 or blocks[best].good < THIN_PROSE:
            break
    if "consent" not in kinds:
        if held is not None:
            held.extend(b.el for b in flagged)
        return best
    # Nothing else to read, or notices all the way down: the text is the page's own
    # (`held` gets the notices, for a caller that looks further before it believes that).
    for b in flagged:
        b.neg = False
        if held is not None:
            held.append(b.el)
    aggregate(blocks, set(), gm)
    return first


WIDEN_MORE = 1.25  # an ancestor with this much more prose than the chosen block...
WIDEN_BAD = 1.5  # ...that adds at most this much boilerplate per character of prose
WIDEN_SIBLINGS = 0.25  # or whose own paragraphs beside it add this share of its prose
WIDEN_KEEP = 0.5  # share of the chosen block's score an ancestor keeps
_CONTAINER = frozenset(("article", "main"))


def _says_content(el: Any) -> bool:
    """<article>, <main>, schema.org's articleBody, or a class or id that says content."""
    if el.tag in _CONTAINER or el.get("itemprop") == "articleBody":
        return True
    names = el.get("class") or el.get("id")
    return bool(names and _POSITIVE.search(names.lower()))


def _children_prose(
    blocks: list[BlockRecord], a: BlockRecord, skip: BlockRecord
) -> tuple[float, float]:
    """The prose of `a`'s child blocks that hold no blocks (its own paragraphs), and that
    of its children named as comments or recommendations, leaving out `skip`'s."""
    leaf = never = 0.0
    j, end = a.index + 1, a.end
    while j < end:  # child by child, over their subtrees
        b = blocks[j]
        j = b.end
        if b is not skip:
            if b.text == b.own:
                leaf += b.good
            elif b.good and _never_content(b.el):
                never += b.good
    return leaf, never


def _widen(blocks: list[BlockRecord], best: int) -> int:
    """The chosen block, or an ancestor that holds much more prose of the same kind.

    The best-scoring block can be one section of an article (a wiki's trivia list, a
    "behind the scenes" part) when links in the article's paragraphs and the link lists
    around them weigh on the article's score. An ancestor with much more prose wins when
    it adds more prose than boilerplate and is the block's parent or says it is the
    content, or when its own paragraphs beside the section hold a good share of it
    (the article's text around its trivia list)."""
    chosen = blocks[best]
    floor = WIDEN_KEEP * (chosen.good - chosen.bad)
    cur = chosen
    i = chosen.parent
    while i >= 0:
        a = blocks[i]
        if a.boiler or (a.tag in NEVER_NEGATIVE and a.tag != "main"):
            break
        more = a.good - cur.good
        if a.good >= WIDEN_MORE * cur.good and more >= GOOD_MIN and a.good > a.bad:
            leaf, never = _children_prose(blocks, a, cur)
            near = i == cur.parent or _says_content(a.el)
            if never * 2 < more and (
                (near and a.bad - cur.bad <= WIDEN_BAD * more and a.good - a.bad >= floor)
                or leaf >= max(THIN_PROSE, WIDEN_SIBLINGS * cur.good)
            ):
                cur = a
        i = a.parent
    return cur.index


THIN_LINKS_MAX = 3  # an ancestor of a thin choice adds at most 1/3 of its text in links


def _grow_thin(blocks: list[BlockRecord], best: int) -> int:
    """A thin choice (a product's two-line description, a form's help text) widened to
    the ancestors that add text but few links: the product's title, price, features and
    specification table around its description, not the recommendations beside them
    (links and their prices) nor the page's menus."""
    cur = blocks[best]
    i = cur.parent
    while i >= 0:
        a = blocks[i]
        if a.boiler or a.tag in ("html", "body"):
            break
        added = a.text - cur.text
        if added and (a.link - cur.link) * THIN_LINKS_MAX > added:
            break
        cur = a
        i = a.parent
    return cur.index


SIBLING_SHARE = 0.2  # of the chosen block's score that a sibling block scores to join it
SIBLING_LINKS_MAX = 3  # a sibling that joins has at most 1/3 of its text in links


def _joins(s: BlockRecord, threshold: float, cls: str | None) -> bool:
    """Whether a sibling of the chosen block is more of the same content (Readability's
    rule, in characters): it scores a share of the chosen block's score, or any prose
    with few links when it shares its class."""
    if s.boiler or s.last is None or not s.good or s.tag in _HEADING:
        return False
    if negative(s) or _never_content(s.el):
        return False
    if cls and s.el.get("class") == cls:
        threshold = GOOD_MIN
    return s.good - s.bad >= threshold and s.link * SIBLING_LINKS_MAX <= s.text


def _merge_siblings(blocks: list[BlockRecord], best: int) -> int:
    """The chosen block, or its parent when siblings of it are more of the same content
    (an article split into boxes around an advertisement, when link lists beside it keep
    _widen from taking the parent whole): the parent is then chosen and the siblings that
    do not join are cut. Headings join only between blocks that do (a section's title,
    not the page's).

    A lone paragraph beside the chosen block does not join by itself (Readability's second
    rule): before the body it is as often a standfirst that the page repeats as part of it."""
    chosen = blocks[best]
    parent = chosen.parent
    if parent < 0:
        return best
    p = blocks[parent]
    if p.boiler or p.tag in ("html", "body") or p.own_link > GOOD_MIN:
        return best
    threshold = max(GOOD_MIN, SIBLING_SHARE * (chosen.good - chosen.bad))
    cls = chosen.el.get("class")
    children: list[BlockRecord] = []
    keep: list[bool] = []
    j, end = p.index + 1, p.end
    while j < end:  # child by child, over their subtrees
        s = blocks[j]
        j = s.end
        children.append(s)
        keep.append(s is chosen or _joins(s, threshold, cls))
    if sum(keep) < 2:
        return best
    first, last = keep.index(True), len(keep) - 1 - keep[::-1].index(True)
    for n, s in enumerate(children):
        if not keep[n] and not (first < n < last and s.tag in _HEADING):
            s.cut = True
    return parent


def prune_named(el: Any, b: BlockRecord) -> bool:
    """Whether a block is boilerplate by its tag or names alone."""
    return negative(b)


def prune_lenient(el: Any, b: BlockRecord) -> bool:
    """prune() for a page whose class names cannot be trusted."""
    if b.cut or b.tag in STRUCTURAL_NEGATIVE or _never_content(el):
        return True
    return _link_list(b)


def prune(el: Any, b: BlockRecord) -> bool:
    """Whether a block inside the chosen content is boilerplate to leave out."""
    if b.boiler or b.cut or negative(b):
        return True
    if b.tag == "noscript" and b.text <= SCRIPT_NOTICE_MAX and "javascript" in _sample(el).lower():
        return True  # a notice asking for scripts, inside the article
    return _link_list(b)


# A table is kept or dropped whole: a row of linked names is data in a table of films.
_TABLE_PARTS = frozenset(("tbody", "thead", "tfoot", "tr", "td", "th"))
# A list is judged item by item: the items that are only links go, the sentences stay
# (a changelog whose entries link their bugs, beside a few that do not).
_LISTS = frozenset(("ul", "ol"))


def _link_list(b: BlockRecord) -> bool:
    """A list of links (menu, related stories, tags) with little prose of its own; a
    paragraph or a list item is spared when words of its own join its links into a
    sentence, and a heading always is (on a listing page, linked titles are the content)."""
    text, link = b.text, b.link
    # Past CARD_MAX characters of prose a block is no list of links, whatever its link
    # count says (boilerplate boxes not walked into count all their text as links).
    if not text or link * 2 <= text or b.good * 2 >= text or b.good >= CARD_MAX:
        return False
    tag = b.tag
    if tag in _HEADING or tag in _TABLE_PARTS or tag in _LISTS:
        return False
    if tag == "p" or (tag == "li" and text == b.own):
        # A list item that holds no blocks reads like a paragraph: a changelog's "Thanks
        # to <name>, <feature>", a reference with its source linked.
        return text - link < PARAGRAPH_WORDS
    return True
