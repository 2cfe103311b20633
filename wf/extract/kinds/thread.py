"""A thread (a forum topic, a question and its answers, an issue and its comments): the
question or first post, then every answer or reply in page order.

The kind's own rule, independent of the article scoring: the page is walked whole, names
ignored, and its posts are the largest group (by prose) of sibling boxes of one tag and
class (numbering tokens left out), tuning.SIBLINGS_MIN_THREAD of them or more holding
prose (grouped by tag and first class word: an accepted answer adds words to its
class). Their box is the content; it grows to the ancestors that add prose with few links
(the question above a box of answers), or to a question too short to be prose drawn as
the posts are (replies.opening). On a page declared a thread whose posts are no two of one
shape, a lone answer below its question will do (_lone_answer); on a page that declares
none, the replies nested in a comment tree count as posts (replies.counted), and a choice
that is the thread's first post above them (a link aggregator's) is grown to, through the
boxes between (_opening). Inside it, a box named as boilerplate is dropped only when it
holds no prose of its own (votes, share and follow buttons, "log in to reply"): platforms
name every post `comment`, which the article rule reads as boilerplate. So are short boxes
that hold only a count (votes) or a post's control (tuning.POST_CONTROLS): posts.py prunes.
Each post of the group starts with a line of its author and date (byline.py). A quote
that repeats the posts above it goes (tuning.QUOTE_SEEN), and so do the counts the
posts' microdata names (tuning.POST_COUNT).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import tuning
from wf.extract.kinds import heads, plainly, replies
from wf.extract.kinds.posts_tuning import GROW_LEVELS, GROW_LINKS_MAX

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord

HEADING = heads.HEADING
POST_TAGS = frozenset(("div", "article", "section", "li", "tr", "table"))


def _posts_box(blocks: list[BlockRecord]) -> tuple[int, list[BlockRecord]] | None:
    """The index of the box of the page's posts, and the posts; None if none."""
    from wf.extract.names import class_kind

    groups: dict[tuple[int, str, str], list[BlockRecord]] = {}
    for b in blocks:
        custom = "-" in b.tag  # a web component's box (records.custom_block)
        if b.parent < 0 or (b.tag not in POST_TAGS and not custom) or b.text == b.own:
            continue  # a post holds blocks (its byline, its paragraphs)
        # By the first class word only: an accepted answer adds words to its class.
        key = (b.parent, b.tag, class_kind(b.el.get("class")).partition(" ")[0])
        groups.setdefault(key, []).append(b)
    from wf.extract.kinds.siblings import marked

    best, best_rank, chosen = None, (False, 0.0), []
    for (parent, _, _), members in groups.items():
        posts = [m for m in members if m.raw >= tuning.POST_PROSE]
        if len(posts) < tuning.SIBLINGS_MIN_THREAD:
            continue
        # Posts that show their author or date outrank any other group (two boxes of a
        # page's layout hold prose too); among alike groups, the one with most prose
        # outside its largest member (a box of all the posts beside a small box is no
        # pair of posts).
        sample = posts[: tuning.MARK_POSTS]
        signed = sum(marked(m) for m in sample) >= tuning.SIBLINGS_MIN_THREAD
        if not signed and len(posts) < tuning.SIBLINGS_MIN:
            continue
        raws = [m.raw for m in posts]
        rank = (signed, sum(raws) - max(raws))
        if rank > best_rank:
            best, best_rank, chosen = parent, rank, posts
    return None if best is None else (best, chosen)


def _lone_answer(blocks: list[BlockRecord]) -> tuple[int, list[BlockRecord]] | None:
    """On a page declared a thread that shows no two posts of one shape: a question and its
    one answer (a box of its own below the question's). The answer is the first box that
    shows its author or date, holds prose and is the only child of its box to hold any,
    whose box grows (_grow) to take in a post above it that shows its author or date."""
    from wf.extract.kinds.posts_tuning import LONE_ANSWER_TRIES
    from wf.extract.kinds.siblings import marked

    page, tries = blocks[0].raw, 0
    for b in blocks:
        if b.parent < 0 or b.tag not in POST_TAGS or b.text == b.own:
            continue
        if not tuning.POST_PROSE <= b.raw * 2 <= page or not marked(b):
            continue  # a wrapper of the page's prose is no answer
        box = blocks[b.parent]
        if box.raw - b.raw >= tuning.POST_PROSE or box.tag in ("html", "body"):
            continue  # the box holds other prose: b is one of several, or the page's
        tries += 1
        if tries > LONE_ANSWER_TRIES:
            break
        above = replies.first_posts(blocks, box.index, _grow(blocks, box.index))
        if above and all(a.end <= b.index for a in above):
            return box.index, [b]
    return None


def _grow(blocks: list[BlockRecord], index: int, through: bool = False) -> int:
    """The posts' box, grown to the ancestors that add prose with few links (the question
    above a box of answers), GROW_LEVELS of them at most. `through`: an ancestor that
    adds under tuning.POST_PROSE characters (a comment tree's heading, "all 45
    comments", between it and the post it answers) is passed through, GROW_LEVELS of
    those at most, and taken only with one above it; so is, on any page, a box that adds
    only headings ("Comments" over the replies) and the notice to log in to reply
    (heads.titled_box)."""
    cur = blocks[index]
    levels = 0
    passes = 0 if through else GROW_LEVELS
    top = cur
    while levels < GROW_LEVELS and cur.parent >= 0:
        a = blocks[cur.parent]
        if a.tag in ("html", "body"):
            break
        added, prose = a.text - cur.text, a.raw - cur.raw
        if not added and "-" in a.tag:  # a web component around the box alone: no level
            cur = a
            continue
        if (added < tuning.POST_PROSE and passes < GROW_LEVELS) or heads.titled_box(a.el, cur.el):
            passes += 1
            cur = a
            continue
        if prose < tuning.POST_PROSE or (a.link - cur.link) * GROW_LINKS_MAX > added:
            break
        cur = top = a
        levels += 1
    return top.index


_SIDE = re.compile(tuning.POST_SIDE, re.IGNORECASE)
_SIGNATURE = re.compile(tuning.POST_SIGNATURE, re.IGNORECASE)
# Boxes a post's body is reached through; a paragraph, a list or a quote is the body's.
WRAPPERS = frozenset(
    ("div", "section", "article", "main", "form", "table", "tbody", "tr", "td", "dl", "dd")
)


def _trim(
    blocks: list[BlockRecord],
    post: BlockRecord,
    names: set[tuple[str, str]] | None = None,
    replies_at: Sequence[int] = (),
) -> bool:
    """Cut a post down to its line of author and date and its body; whether it was cut.

    From the post down, while the box holds no prose of its own and one child alone holds
    prose (tuning.POST_PROSE), that child is the way to the body and its siblings without
    prose go: the author's card, the post's title and number, votes, "Top", the footer of
    controls. So do boxes named for comments (under a post that is not a comment itself) or
    for the signature. The body is the first box whose prose is spread among children
    (paragraphs, nested replies; a quote, a line after, lines in boxes of their own:
    replies.body_beside; a short reply's words above the replies to it:
    replies.beside_replies), or that holds prose itself; a post without prose (a short
    reply) is left whole, its body never at risk. The tag and class of each box cut on the
    way down are added to `names` (replies.cut_short cuts them from the short replies), and,
    without its tag, the class of each box the way goes through (a name the body is reached
    through is cut from no reply, whatever card shares it once numbering tokens are left
    out: "tcell alt1" and "tcell alt2"); never a box that holds a nested reply
    (`replies_at`, replies.lined_at): a short one shows no way by prose.
    """
    from wf.extract.kinds.posts import author_card
    from wf.extract.kinds.siblings import marked
    from wf.extract.names import class_kind
    from wf.extract.parse import drop

    nested = _SIDE.search(post.el.get("class") or "") is None
    cut = False
    cur = post
    while cur.own < tuning.POST_PROSE:
        kids, j = [], cur.index + 1
        while j < cur.end:  # child by child, over their subtrees
            kids.append(blocks[j])
            j = blocks[j].end
        side = [k for k in kids if nested and _SIDE.search(k.el.get("class") or "")]
        # By index: a list's lookups, one per kid, cost a post of 10 000 cards half a second.
        beside = {k.index for k in side}
        prose = [k for k in kids if k.raw >= tuning.POST_PROSE and k.index not in beside]
        # The author's card is no way down, however long a field it shows ("Programs:
        # ..."): the body beside it may be a short reply.
        cards = {k.index for k in prose if author_card(k.el)}
        for k in prose:
            if k.index in cards:
                _cut(k, names)
                cut = True
        prose = [k for k in prose if k.index not in cards]
        quoted = len(prose) == 1 and (
            replies.body_beside(blocks, cur, prose[0], kids)
            or replies.beside_replies(replies_at, prose[0], kids)
        )
        if len(prose) != 1 or prose[0].tag not in WRAPPERS or quoted:
            # The body is here; comments that show their authors go all the same, when
            # the rest holds text (a body of short lines has no prose to be told by; a
            # post's body named `comment` shows no author of its own), and signatures.
            if side and sum(k.text for k in kids if k.index not in beside) >= tuning.POST_PROSE:
                for k in side:
                    signed = marked(k) or _SIGNATURE.search(k.el.get("class") or "")
                    if k.el.getparent() is not None and signed:
                        drop(k.el)
                        cut = True
            break
        for k in kids:
            gone = k.index in beside or k.raw < tuning.POST_PROSE
            if gone and replies_at:
                gone = not replies.holds(replies_at, k)
            if k is not prose[0] and gone and k.el.getparent() is not None:
                _cut(k, names)
                cut = True
        if names is not None:  # a name the body is reached through is no card's
            names.add(("", class_kind(prose[0].el.get("class"))))
        cur = prose[0]
    return cut


def _cut(k: BlockRecord, names: set[tuple[str, str]] | None) -> None:
    """Drop a box on the way down to a post's body, its tag and class kept in `names`."""
    from wf.extract.names import class_kind
    from wf.extract.parse import drop

    kind = class_kind(k.el.get("class"))
    if names is not None and kind:
        names.add((k.tag, kind))
    drop(k.el)


def _grown(
    blocks: list[BlockRecord], index: int, posts: list[BlockRecord], opening: bool, plain: bool
) -> int:
    """The posts' box grown (_grow), through a box that adds few words (the tree's heading)
    when the article rule chose the first post above it (`opening`), or, on a page that
    declares a thread (not `plain`), when a first post found above is drawn as the posts
    are (replies.drawn_above: a link aggregator's post above its comments)."""
    grown = _grow(blocks, index, through=opening)
    wide = grown if plain or opening else _grow(blocks, index, through=True)
    if wide != grown and replies.drawn_above(
        blocks, posts, replies.first_posts(blocks, index, wide)
    ):
        return wide
    return grown


def second_opinion(body: Any, analysis: Analysis, deadline: float | None, gm: int) -> Analysis:
    """On a page that declares no kind: the thread's own rule over the article rule's
    choice when the page's posts show plainly (plainly.shown) among the article rule's blocks
    and that choice is one of them or holds them, or when that choice is thin (the
    posts may be named comments, which the article rule does not walk into). Articles
    pay one pass over their block records."""
    from wf.extract.blocks import THIN_PROSE
    from wf.extract.records import check_time

    blocks = analysis.blocks
    if not blocks:
        return analysis
    check_time(deadline)
    best = analysis.best_index
    box_el = None
    few = best < 0
    opening = False  # the choice is the thread's first post, above the posts' box
    if best >= 0 and blocks[best].good >= THIN_PROSE:
        found = _posts_box(blocks)
        if found is None:
            return analysis
        few = not plainly.shown(blocks, found[1])
        # Beside a choice that stood out, a topic of few posts holds no <h1>: an
        # article's head is a box of its own beside its body, of their shape.
        if few and (not plainly.shown(blocks, found[1], few=True) or heads.headed(found[1])):
            return analysis
        # The article rule chose one of the posts or the box that holds them all: a
        # choice beside them (a product's description above its reviews) stands.
        box = blocks[found[0]]
        if not (box.index <= best < box.end or best <= box.index < blocks[best].end):
            if not _opening(blocks, best, box.index):
                return analysis
            opening = True
        box_el = box.el
    elif best >= 0:
        # A thin choice may be the thread's first post all the same (a short question
        # above its comment tree): the content grows to it then.
        found = _posts_box(blocks)
        if found is not None and not found[0] <= best < blocks[found[0]].end:
            opening = _opening(blocks, best, found[0])
            # A short article beside a few comments (fewer than tuning.THREAD_POSTS at the
            # top level, a thread by their tree or their names alone) stands, signed as a
            # self post is or not: its <article> holds the <h1> (a link aggregator's none).
            few_posts = len(found[1]) < tuning.THREAD_POSTS
            if few_posts and _in_own_article(blocks, best, found[0]):
                return analysis
            few = opening  # above a few comments (a story with three), counted with them
    taken = choose(body, deadline, gm, plain=True, box_el=box_el, few=few, opening=opening)
    if taken is None:
        return analysis
    trace.trace("extract: thread: the page's posts taken over the article rule's choice")
    return taken


def _in_own_article(blocks: list[BlockRecord], best: int, index: int) -> bool:
    """Whether the article rule's choice is in an article's own box (heads.own_article)
    that does not hold the posts' box (`index`): the way up, read box by box."""
    cur = best
    while cur >= 0 and not blocks[cur].index <= index < blocks[cur].end:
        if heads.own_article(blocks[cur]):
            return True
        cur = blocks[cur].parent
    return False


def _opening(blocks: list[BlockRecord], best: int, index: int) -> bool:
    """Whether the article rule's choice is in the thread's first post: a box above the
    posts' box that the content grows to take in, holding prose and showing its author or
    date (replies.first_posts: a link aggregator's post, "submitted 5 hours ago by ...", above
    its comment tree). A product's description above its reviews shows neither."""
    grown = blocks[_grow(blocks, index, through=True)]
    if not grown.index <= best < grown.end:
        return False
    return any(f.index <= best < f.end for f in replies.first_posts(blocks, index, grown.index))


def shown(body: Any, analysis: Analysis, deadline: float | None, gm: int) -> Analysis:
    """On a page declared something else (og:type article, which forum software writes
    on every topic) whose chosen box the structure shows to be a thread: the thread's own
    rule, when the box of the posts it finds is in that box or holds it (each post then
    gets its line of author and date); else the article rule's choice."""
    if analysis.best is None:
        return analysis
    taken = choose(body, deadline, gm, near=analysis.best)
    if taken is None:
        return analysis
    trace.trace("extract: thread: the posts the structure showed read by the thread's rule")
    return taken


def _related(el: Any, other: Any) -> bool:
    """Whether one element is the other or holds it."""
    if el is other:
        return True
    return any(a is other for a in el.iterancestors()) or any(
        a is el for a in other.iterancestors()
    )


def _found(
    blocks: list[BlockRecord], plain: bool, box_el: Any, few: bool, near: Any, opening: bool
) -> tuple[int, list[BlockRecord], int] | None:
    """choose's posts, their box and the box grown (_grown, computed once: here when
    `opening` needs it, else -1 and choose grows it once the posts are kept), or None."""
    found = _posts_box(blocks)
    if found is None and not plain and near is None:
        found = _lone_answer(blocks)
    if found is None:
        if not plain:  # a declared thread without posts; the look on every other page stays quiet
            trace.trace("extract: thread: no posts of one shape found")
        return None
    grown = _grown(blocks, found[0], found[1], opening, plain) if opening else -1
    lead = []  # the first post the article rule chose above a few posts counts with them
    if opening:
        lead = replies.first_posts(blocks, found[0], grown)
    if plain and (
        not plainly.shown(blocks, found[1], few, lead) or box_el not in (None, blocks[found[0]].el)
    ):
        return None
    return found[0], found[1], grown


def choose(
    body: Any,
    deadline: float | None,
    gm: int,
    plain: bool = False,
    box_el: Any = None,
    few: bool = False,
    near: Any = None,
    opening: bool = False,
) -> Analysis | None:
    """The thread's posts as an Analysis for the writer, or None when the page shows no
    posts (then the article rule chooses); `plain`: only posts that show a thread on a
    page that declares none (plainly.shown, `few` passed on), in `box_el` when it is
    given (the box the article rule's blocks showed them in); only when their box holds `near` or
    is in it, when it is given; `opening`: the article rule chose the thread's first post
    above the posts' box, which the content grows to through the boxes between them
    (_grow). The page is not touched until the posts are taken."""
    from wf.extract.records import Analysis, aggregate, walk

    blocks = walk(body, skip_boilerplate=False, deadline=deadline, custom=True)
    if not blocks:
        return None
    aggregate(blocks, set(), gm)
    found = _found(blocks, plain, box_el, few, near, opening)
    if found is None:
        return None
    index, posts, grown = found
    if near is not None and not _related(blocks[index].el, near):
        return None
    count = len(posts)
    from wf.extract.kinds import board, bodies, logs, mail, quoted, stats, tidy

    if grown < 0:
        grown = _grown(blocks, index, posts, opening, plain)
    box, first = replies.opening(blocks, index, grown, posts)
    nested = replies.nested(blocks, posts)  # in the posts of the group, not the question's box
    above = replies.first_posts(blocks, index, box, posts) + first
    posts = sorted(above, key=lambda b: b.index) + posts
    tidy.drop_counts(blocks[box].el)
    stats.drop_stats(blocks[box].el, [p.el for p in posts])
    tidy.drop_previews(blocks, posts)
    short = replies.short(blocks, index, posts)
    # `lined`: each post's line of author and date (the name `heads` is the module's).
    posts, short, nested, authors, lined = replies.lined(posts, short, nested)
    lines = sum(a is not None for a in authors)
    names: set[tuple[str, str]] = set()
    trimmed = _trim_all(blocks, posts, nested, names, replies.lined_at(nested, lined))
    replies.cut_short(blocks, short, names)
    tidy.drop_between(blocks, index, posts + short)
    tidy.drop_after(blocks[index].el, [p.el for p in posts + short])
    mail.bodies(posts)  # before the quotes are read: a mail's quoted lines become one
    quotes = quoted.drop_repeats(posts)
    bodies.plain(blocks[index].el, posts + short, lined)
    board.tidy(blocks[box].el, posts + short + nested, lined)
    tidy.unnumber(blocks[index].el)
    if cut := logs.cut_logs(blocks[box].el):
        trace.trace("extract: thread: %d logs pasted in posts cut to their head", cut)
    trace.trace(
        "extract: thread: %d posts in <%s class=%r>, %d with a line of author and date, "
        "%d cut down to their body, %d quotes of the posts above dropped; the content is <%s>",
        count,
        blocks[index].tag,
        (blocks[index].el.get("class") or "")[:40],
        lines,
        trimmed,
        quotes,
        blocks[box].tag,
    )
    return Analysis(
        blocks=blocks,
        best=blocks[box].el,
        best_index=box,
        kind=tuning.THREAD,
        by_kind=True,
        author=authors[0] if authors else None,
    )


def _trim_all(
    blocks: list[BlockRecord],
    posts: list[BlockRecord],
    nested: list[BlockRecord],
    names: set[tuple[str, str]],
    at: list[int],
) -> int:
    """Each post and nested reply cut down to its line and body (_trim), the first post's
    <h1>, the topic's title, kept when it went with the post's head (_title). How many."""
    title = _title(posts[0].el) if posts else None
    trimmed = sum(_trim(blocks, post, names, at) for post in posts + nested)
    if title is not None and next(posts[0].el.iter("h1"), None) is None:
        posts[0].el.insert(0, title)  # the topic's title, cut with its post's head
    return trimmed


def _title(post: Any) -> Any:
    """A copy of the first post's <h1>, the topic's title, which _trim cuts with the box
    of counters and links it shares (a post's head); None when it shows none."""
    from copy import deepcopy

    h1 = next(post.iter("h1"), None)
    if h1 is None or not 0 < len(" ".join(h1.itertext()).strip()) <= tuning.TOPIC_TITLE_MAX:
        return None
    kept = deepcopy(h1)
    kept.tail = None
    return kept


def tidy_shown(analysis: Analysis) -> None:
    """A thread the article rule's choice showed (its box of sibling posts, siblings.py):
    each post's previews go, and the boxes without prose between the posts (tidy.py)."""
    from wf.extract.kinds import tidy

    blocks, index = analysis.blocks, analysis.best_index
    if index < 0 or analysis.best is not blocks[index].el:
        return
    box = blocks[index]
    posts = []
    j = box.index + 1
    while j < box.end:  # child by child, over their subtrees
        if blocks[j].raw >= tuning.POST_PROSE:
            posts.append(blocks[j])
        j = blocks[j].end
    if len(posts) >= tuning.SIBLINGS_MIN_THREAD:
        tidy.drop_previews(blocks, posts)
        tidy.drop_between(blocks, index, posts)
