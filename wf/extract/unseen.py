"""The cleaning's search for what no reader sees: hidden elements, skip links, boxes
hidden by a class, <noscript> menus (wf.extract.parse.clean drops them).

Each branch of the search is run apart (libxml2's union merges its branches comparing
each hit with all found before it: quadratic on a hostile page), and each kind of hit is
read from its own branches: no merge of all of them in page order, which reads the whole
page into a dict and cost as much as the searches themselves. Only the class hits are
read in page order (hidden_alone.alone), merged when two branches found some.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from common.xpath import compiled, held_words, merged, tagged
from wf.extract import tuning

_SKIP_LINK = re.compile(tuning.SKIP_LINK)
_FOCUS_ONLY = re.compile(tuning.FOCUS_ONLY)

# The skip links' candidates, by their attributes: a predicate on the attribute costs
# libxml2 a third less than the same predicate on every <a> (the same links, in page order).
# The value is read as string(), the context node's: "." builds a node set around it
# first, which cost the search a sixth more (the same values, so the same links).
SKIP_LINKS = "//a/@href[starts-with(string(), '#')]"
FOCUSABLE = "//a/@class[contains(string(), 'focusable')]"

# Above this many characters of source, parts() joins no class values: the copy (in
# C, then in Python) would add twice their size to the peak; every word costs time only.
CLASS_SCAN_MAX = 1_000_000


def parts(root: Any, every_word: bool = False) -> tuple[str, str, str]:
    """The searches for the skip links, the focusable links and the class words ("" for
    none). A word no class attribute of the page holds is left out: each costs libxml2 a
    copy of every class attribute's value, where all of them joined (in C, once) cost
    one; most pages hold no "focusable", "d-none" or "ssr-variant", many no "hidden", and
    the searches find the same nodes. With ``every_word`` (a large page) every word is
    searched for, nothing joined."""
    from wf.extract.hidden_alone import CLASS_WORDS, class_xpath

    words: tuple[str, ...] = CLASS_WORDS
    focusable = True
    if not every_word:
        held = held_words(root, "class", (*CLASS_WORDS, "focusable"))
        words = tuple(word for word in held if word != "focusable")
        focusable = "focusable" in held
    return SKIP_LINKS, FOCUSABLE if focusable else "", class_xpath(words)


@dataclass
class Hits:
    """What the cleaning's search found, by kind."""

    hidden: list[Any]  # hidden.search_hidden's hits, in no particular order
    skip_links: list[Any]  # SKIP_LINKS's, the <a>s' hrefs
    classes: list[Any]  # class attributes with a class word or "focusable", in page order
    noscripts: list[Any]  # the <noscript> boxes, in page order


def search(root: Any, main: bool, every_word: bool = False) -> Hits:
    """The hits of hidden.search_hidden and, with ``main``, of parts() and the <noscript>
    boxes (common.xpath.tagged: most pages hold none, and then pay no walk)."""
    from wf.extract.hidden import search_hidden

    hidden = search_hidden(root)
    if not main:
        return Hits(hidden, [], [], [])
    skip, focusable, words = parts(root, every_word)
    skip_hits, focus_hits, class_hits = (
        compiled(part)(root) if part else [] for part in (skip, focusable, words)
    )
    if focus_hits and class_hits:  # two branches: their hits merged in page order
        class_hits = merged(root, [class_hits, focus_hits])
    return Hits(hidden, skip_hits, class_hits or focus_hits, tagged(root, "noscript"))


def drop_skip_links(hits: Hits) -> None:
    """Remove the skip links (tuning.SKIP_LINK): a keyboard's shortcuts past the menus,
    shown to no reader, which a page read whole printed first. ``hits``: what the search
    found before the hidden elements were dropped (a link dropped with them is dropped
    again out of the page, where it changes nothing)."""
    from wf.extract.hidden import drop_each

    limit = tuning.SKIP_LINK_MAX
    gone = []
    for hit in hits.skip_links:
        a = hit.getparent()
        text = a.text
        if (not text or text.isspace()) and len(a):
            text = "".join(a.itertext())
        if text and len(text) <= limit and _SKIP_LINK.search(text.lower()):
            gone.append(a)
    # And the links a stylesheet shows only when a keyboard reaches them, whatever their
    # words ("Back to the carousel's controls"), their href a script's.
    focus = [cls for cls in hits.classes if cls.getparent().tag == "a"]  # others' too
    gone += [cls.getparent() for cls in focus if _FOCUS_ONLY.search(cls.lower())]
    drop_each(list(dict.fromkeys(gone)))  # one by one, 20000 links' tails took 5.6 s
