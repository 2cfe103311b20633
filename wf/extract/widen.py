"""After the choice: a thread of reader comments left out of an article, the choice
widened to an ancestor with more prose of its kind or to siblings that continue it, a
thin choice grown to the ancestors that add text without links, bare teaser cards and
small form boxes dropped."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from common.xpath import text_start
from wf.extract import widen_tuning
from wf.extract.names import HEADING, NEVER_NEGATIVE, POSITIVE, never_content
from wf.extract.records import GOOD_MIN, THIN_PROSE, BlockRecord, aggregate, negative

POST_TITLE_MIN = 10  # characters of a heading that repeats the page's title
THREAD_ITEMS = 4  # sibling entries of one shape that make a thread of comments
THREAD_AFTER = 500  # characters of prose before it, in the chosen block: the article
THREAD_ACTION = 40  # characters: an entry's action (reply, report) is a short link
THREAD_LABEL = 60  # characters: an entry's byline (name, date) is a short line
_PROSE, _ACTION, _LABEL = 1, 2, 4
_ROWS = frozenset(("tr", "tbody", "thead", "table"))


def skip_threads(blocks: list[BlockRecord], best: int, gm: int) -> int:
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
        elif c.own_link == c.own and c.own <= THREAD_ACTION and c.tag not in HEADING:
            # A linked heading is a section's anchor (documentation links every one to
            # itself), not a reply link.
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
            # Rows of a table are data (a product's name, its notes, a link, a date),
            # never reader comments.
            if entry.link * 5 <= entry.text and entry.tag not in _ROWS:
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


def drop_bare_cards(blocks: list[BlockRecord], best: int) -> None:
    """Inside an article with prose, the teaser cards whose line under the linked title
    is too short to be prose (related stories, in any language) are left out too, and so
    are small boxes around a form (a newsletter's sign-up, a search, a poll: the form's
    fields are gone by now, its pitch is not). On a listing page, whose prose is thin,
    such cards are the content and stay."""
    for b in blocks[best + 1 : blocks[best].end]:
        if b.card and not b.good:
            b.boiler = True
        elif b.tag == "form":
            most = _signup_max(b.el, blocks[best].text)
            box = b
            while box.parent > best and blocks[box.parent].text <= most:
                box = blocks[box.parent]
            if box.text >= FORM_PITCH_MIN:
                box.boiler = True


_SIGNUP = re.compile(widen_tuning.SIGNUP_FORM)


def _signup_max(form: Any, chosen: int) -> int:
    """How large a box around a form can be and still be the form's widget: FORM_BOX_MAX,
    or more for a form its attributes name a sign-up (a newsletter's, Mailchimp's
    `list-manage.com/subscribe`): its pitch, its fine print and its thanks, which no
    article holds around its own form, up to a share of the chosen text."""
    for value in islice(form.attrib.values(), widen_tuning.SIGNUP_ATTRIBUTES):
        if _SIGNUP.search(value):
            return max(
                FORM_BOX_MAX,
                min(widen_tuning.SIGNUP_BOX_MAX, int(chosen * widen_tuning.SIGNUP_BOX_SHARE)),
            )
    return FORM_BOX_MAX


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
    return bool(names and POSITIVE.search(names.lower()))


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
            elif b.good and never_content(b.el):
                never += b.good
    return leaf, never


def widen(blocks: list[BlockRecord], best: int) -> int:
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


def grow_thin(blocks: list[BlockRecord], best: int, post: bool = False) -> int:
    """A thin choice (a product's two-line description, a form's help text) widened to
    the ancestors that add text but few links: the product's title, price, features and
    specification table around its description, not the recommendations beside them
    (links and their prices) nor the page's menus. `post` (a page declared an article):
    the growth stops at the box that holds the page's title, its <h1> (taken when it adds
    less than the choice, a title over the post's body): around a short post whole are
    only the site's tag line, an "About me" and "Powered by ..." to add."""
    cur = blocks[best]
    i = cur.parent
    if post and cur.el.find(".//h1") is not None:
        return best
    while i >= 0:
        a = blocks[i]
        if a.boiler or a.tag in ("html", "body"):
            break
        if post and a.el.find(".//h1") is not None and cur.text * 2 > a.text:
            return a.index
        added = a.text - cur.text
        if added and (a.link - cur.link) * THIN_LINKS_MAX > added:
            break
        cur = a
        i = a.parent
    return cur.index


SIBLING_SHARE = 0.2  # of the chosen block's score that a sibling block scores to join it
SIBLING_LINKS_MAX = 3  # a sibling that joins has at most 1/3 of its text in links


_TIMED = re.compile(widen_tuning.TIMED_OPENING)


def _timed(el: Any) -> bool:
    """Whether a box's entries open with a time (a live ticker's minutes, a liveblog's
    hours), under wrappers of one child: the entries are the page's story told in short
    lines, whatever tag holds them. Each element is read once: the wrappers down one
    path, then the first TIMED_ENTRIES children."""
    while len(el) == 1 and not (el.text or "").strip():
        el = el[0]
    entries = timed = 0
    for child in islice(el, widen_tuning.TIMED_ENTRIES):
        if not isinstance(child.tag, str):
            continue
        entries += 1
        timed += bool(_TIMED.match(text_start(child, widen_tuning.TIMED_CHARS)))
    return entries >= widen_tuning.LIST_JOIN_ITEMS and timed >= widen_tuning.TIMED_SHARE * entries


def _text_list(s: BlockRecord, threshold: float) -> bool:
    """Whether a sibling without prose of its own is a list of short lines of text (a live
    ticker's entries, the topics a guide covers) that continues the choice: a list of
    LIST_JOIN_ITEMS items at least (or a box of entries that open with a time), as long
    as a joining sibling's score, and nearly no links (a list of links is a menu or
    related stories)."""
    if s.text < threshold:
        return False
    if s.tag not in widen_tuning.LIST_JOIN_TAGS and not _timed(s.el):
        return False
    if s.link * widen_tuning.LIST_JOIN_LINKS > s.text:
        return False
    if s.end - s.index - 1 < widen_tuning.LIST_JOIN_ITEMS:
        return False
    return not negative(s) and not never_content(s.el)


def _joins(s: BlockRecord, threshold: float, cls: str | None) -> bool:
    """Whether a sibling of the chosen block is more of the same content (Readability's
    rule, in characters): it scores a share of the chosen block's score, or any prose
    with few links when it shares its class."""
    if s.boiler or s.last is None or s.tag in HEADING:
        return False
    if not s.good:
        return _text_list(s, threshold)
    if negative(s) or never_content(s.el):
        return False
    if cls and s.el.get("class") == cls:
        threshold = GOOD_MIN
    return s.good - s.bad >= threshold and s.link * SIBLING_LINKS_MAX <= s.text


def merge_siblings(blocks: list[BlockRecord], best: int) -> int:
    """The chosen block, or its parent when siblings of it are more of the same content
    (an article split into boxes around an advertisement, when link lists beside it keep
    widen from taking the parent whole): the parent is then chosen and the siblings that
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
        if not keep[n] and not (first < n < last and s.tag in HEADING):
            s.cut = True
    return parent


def whole_post(node: Any, chosen: int, wider: int, title: str | None = None) -> bool:
    """Whether a thin choice is a short post whole: a box that holds the page's title (its
    ``<h1>``, or a heading that the ``<title>`` repeats: a blog theme's ``<h2>``), where
    the page read wide adds less than the post itself. What the wide read would add is
    the site's chrome (its banner, a skip link, a tag line, "Powered by ..."), not a text
    the choice missed: a listing's card has no ``<h1>`` and is not the page's title, and
    a list of them is longer than one."""
    if wider >= 2 * chosen:
        return False
    if node.find(".//h1") is not None:
        return True
    page_title = " ".join((title or "").split()).lower()
    if len(page_title) < POST_TITLE_MIN:
        return False
    for h in node.iter("h2", "h3"):
        text = " ".join("".join(h.itertext()).split()).lower()
        if len(text) >= POST_TITLE_MIN and text in page_title:
            return True
    return False
