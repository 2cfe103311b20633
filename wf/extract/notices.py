"""Consent dialogs and notices asking for JavaScript, known by their text in any box
(whatever it is named): made boilerplate, and the page scored again. The words are in
wf/extract/tuning.py."""

from __future__ import annotations

import re
from functools import cache, partial
from itertools import islice
from typing import Any

from common.xpath import text_upto
from wf.extract import notices_tuning, tuning
from wf.extract.names import BLOCK, HEADING, NEVER_NEGATIVE, never_content
from wf.extract.records import GOOD_MIN, THIN_PROSE, BlockRecord, aggregate, best_block

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


def sample(el: Any, b: BlockRecord, size: int = NOTICE_SAMPLE) -> str:
    """The start of a block's text: enough to judge it, and cheap (not the whole text).
    A block that holds other blocks is read through a bounded walk (_walked_sample):
    itertext() walks every empty node before the first text, and each block around a
    chain of empty boxes, or around a run of thousands of empty inline tags, would walk
    them all again (depth times width). Blocks with no block inside do not nest, so
    their itertext() reads each node of the page at most once."""
    if b.end - b.index > notices_tuning.SAMPLE_BLOCKS:
        return _walked_sample(el, size)
    return " ".join(text_upto(el, size)[0])


def _walked_sample(el: Any, size: int) -> str:
    """sample()'s texts in itertext()'s order (a comment's tail and not its text), from
    at most SAMPLE_EVENTS nodes' starts and ends and SAMPLE_DEPTH levels below `el`:
    a chain of empty boxes costs each block around it that much, not the whole chain."""
    parts: list[str] = []
    n = depth = 0
    walker = _iterwalk()(el, events=("start", "end", "comment", "pi"))
    for event, node in islice(walker, notices_tuning.SAMPLE_EVENTS):
        if event == "start":
            text = node.text
            depth += 1
            if depth > notices_tuning.SAMPLE_DEPTH:
                walker.skip_subtree()  # its end still comes, with its tail
        elif event == "end":
            if node is el:
                break  # its own tail is not its text
            text = node.tail
            depth -= 1
        else:
            text = node.tail
        if text:
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
    text = sample(el, b, 3 * NOTICE_SAMPLE if edge else NOTICE_SAMPLE).lower()
    if b.text <= SCRIPT_NOTICE_MAX and "javascript" in text:
        in_noscript = el.tag == "noscript" or next(el.iterancestors("noscript"), None) is not None
        if in_noscript or _BROWSER.search(text):
            return "script"
    if _consent_text(text, NOTICE_SPACING_EDGE if edge else NOTICE_SPACING):
        return "consent"
    return None


def _consent_text(text: str, spacing: int, distinct: int = 1) -> bool:
    """Whether a lowered sample reads as a consent manager's: a core word, and the legal
    words one in `spacing` characters at least, `distinct` of them different ones. A
    list of vendors that names only their legal basis (notices_tuning.VENDOR_BASIS) has
    no core word: the basis stands for one, and VENDOR_DISTINCT words are needed."""
    if not any(word in text for word in tuning.CONSENT_CORE):
        if not any(stem in text for stem in _BASIS_STEMS) or not any(
            word in text for word in notices_tuning.VENDOR_BASIS
        ):
            return False
        distinct = max(distinct, notices_tuning.VENDOR_DISTINCT)
    counts = [text.count(word) for word in _WORDS]
    hits = sum(counts)
    if distinct > 1 and sum(1 for count in counts if count) < distinct:
        return False
    return hits >= NOTICE_HITS and hits * spacing >= len(text)


_WORDS = tuning.CONSENT_WORDS + notices_tuning.VENDOR_WORDS
_BASIS_STEMS = notices_tuning.VENDOR_BASIS_STEMS
# The stems' search stands for the phrases' only while each phrase holds one.
assert all(any(stem in basis for stem in _BASIS_STEMS) for basis in notices_tuning.VENDOR_BASIS)


def vendor_list(el: Any) -> bool:
    """Whether a box is a consent manager's list of vendors, however long (one too long
    for a notice can be a privacy policy, its page's content): its text read in windows
    of NOTICE_SAMPLE characters, and nearly every window about consent. A policy's
    sections on rights, retention or contact are not; each entry of a vendor list names
    its purposes, its cookies and its policy. Reads at most VENDOR_WINDOWS windows and
    VENDOR_PIECES pieces of text."""
    windows = passed = 0
    parts: list[str] = []
    n = 0
    for piece in islice(el.itertext(), notices_tuning.VENDOR_PIECES):
        parts.append(piece)
        n += len(piece)
        if n < NOTICE_SAMPLE:
            continue
        windows += 1
        text = " ".join(parts).lower()
        passed += _consent_text(text, NOTICE_SPACING, notices_tuning.VENDOR_DISTINCT)
        parts, n = [], 0
        if windows >= notices_tuning.VENDOR_WINDOWS:
            break
    return (
        windows >= notices_tuning.VENDOR_WINDOWS_MIN
        and passed >= notices_tuning.VENDOR_SHARE * windows
    )


_COLOPHON_SAYS = "|".join(rf"(?:{verb})\s+(?:{then})" for verb, then in notices_tuning.COLOPHON)
_COLOPHON = re.compile(
    rf"(?:^|[.|\u00b7\u2013\u2014,:-]\s*|&\s*)(?:proudly\s+|fièrement\s+)?"
    rf"(?:{_COLOPHON_SAYS})\s+(?:the\s+)?(?:{notices_tuning.COLOPHON_PLATFORMS})"
    r"(?![a-z])"
)
_COLOPHON_VERB = re.compile("|".join(verb for verb, _ in notices_tuning.COLOPHON))


def colophon(el: Any, b: BlockRecord) -> bool:
    """Whether a short block is the site's colophon, naming the platform it is built with
    (notices_tuning.COLOPHON): "Simple theme. Powered by Blogger.", "Proudly powered by
    WordPress". Only as a line or after a sentence: "The blog runs on a server powered by
    WordPress's own cache" is a sentence about it."""
    if b.text > notices_tuning.COLOPHON_MAX or b.text != b.own or not b.text:
        return False
    return _colophon(el, b, _text(el))


def _colophon(el: Any, b: BlockRecord, whole: str) -> bool:
    """colophon() of a short block whose `whole` text (_text) is read."""
    # Most short blocks hold no verb of a colophon: their text as libxml2 copies it (no
    # other such block inside, so each is copied once) is looked at before sample()'s
    # walk, which cost 2 % of the extraction on the three sets, every short line's.
    if _COLOPHON_VERB.search(whole.lower()) is None:
        return False
    text = " ".join(sample(el, b, notices_tuning.COLOPHON_MAX).split()).lower()
    return _COLOPHON.search(text) is not None


_READING_TIME = re.compile(notices_tuning.READING_TIME, re.IGNORECASE)


def _reading_time(b: BlockRecord, whole: str) -> bool:
    """Whether a short block (its `whole` text, _text) is an article's estimated reading
    time and nothing else (notices_tuning.READING_TIME: "11 min read", "Reading Time: 11
    minutes"). A heading of the label alone is a section's title ("## Reading time" in an
    article on reading), the site's label a line with its minutes."""
    text = " ".join(whole.split())
    if _READING_TIME.fullmatch(text) is None:
        return False  # most short lines, told before their characters are read one by one
    return b.tag not in HEADING or any(c.isdigit() for c in text)


# The longest line either of colophon() and _reading_time() reads.
SITE_LINE_MAX = max(notices_tuning.COLOPHON_MAX, notices_tuning.READING_TIME_MAX)


def site_line(el: Any, b: BlockRecord) -> bool:
    """colophon() or an article's reading time (_reading_time): a short line the site
    writes on every page, its block's text read once for both (prune asks it of every
    block of the content)."""
    size = b.text
    if size > SITE_LINE_MAX or size != b.own or not size:
        return False
    whole = _text(el)
    if size <= notices_tuning.COLOPHON_MAX and _colophon(el, b, whole):
        return True
    return size <= notices_tuning.READING_TIME_MAX and _reading_time(b, whole)


def _text(el: Any) -> str:
    """A block's text as libxml2 copies it; a block with no child node (no element, no
    comment: most short lines) is its .text, which costs a fifth of the copy."""
    if not len(el):
        return el.text or ""
    return str(_serializer()(el))


@cache
def _iterwalk() -> Any:
    """lxml's iterwalk, imported once (an import statement costs each sample a lookup)."""
    from lxml import etree

    return etree.iterwalk


@cache
def _serializer() -> Any:
    """lxml's serializer of an element's text, imported once: an import statement in a
    function asked of every short block cost a third of the call."""
    from lxml import etree

    return partial(etree.tostring, method="text", encoding=str, with_tail=False)


_SUBSCRIPTION = re.compile(tuning.SUBSCRIPTION)


def subscription_prompt(el: Any, b: BlockRecord) -> bool:
    """Whether a block inside the content is a prompt to subscribe to read on (a paywall
    under an article cut short), known by its text whatever it is named: a small box
    that starts by asking to read on and offers a subscription."""
    if b.text > tuning.PROMPT_MAX or b.text == b.own:
        return False  # a paragraph alone can be the article's own sentence
    # Its head first, read no further than PROMPT_HEAD characters (the start of the same
    # walk, so the same head): most boxes ask nothing of the kind, and are read no further.
    head = sample(el, b, tuning.PROMPT_HEAD).lower()[: tuning.PROMPT_HEAD]
    if not any(phrase in head for phrase in tuning.READ_ON):
        return False
    text = sample(el, b, tuning.PROMPT_MAX).lower()
    return _SUBSCRIPTION.search(text) is not None


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


def never_content_prose(blocks: list[BlockRecord]) -> float:
    """The prose inside blocks that never_content names (outermost ones only, and only
    those that hold a tenth of the page's prose or more: the rest do not decide which
    box holds most of it)."""
    prose = 0.0
    skip = 0
    floor = 0.1 * blocks[0].raw
    for i, b in enumerate(blocks):
        if i < skip or b.raw < floor or not b.raw:
            continue
        el = b.el
        if (el.get("class") or el.get("id") or el.get("role")) and never_content(el):
            prose += b.raw
            skip = b.end
    return prose


def held_above(blocks: list[BlockRecord], b: BlockRecord, held: list[Any]) -> bool:
    """Whether a block lies inside another held one."""
    i = b.parent
    while i >= 0:
        if blocks[i].el in held:
            return True
        i = blocks[i].parent
    return False


def hold(blocks: list[BlockRecord], held: list[Any], on: bool) -> None:
    """Mark the blocks of the elements in `held` as boilerplate (on) or not."""
    for b in blocks:
        if b.el in held:
            b.neg = on


def skip_notices(
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
        best = best_block(blocks)
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
