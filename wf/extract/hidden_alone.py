"""A box hidden by its class, with nothing shown beside it, is no section of the page.

A stylesheet's utility class hides a box (`hidden`: Tailwind, Bootstrap 3, most
Shopify themes; Bootstrap's `d-none`) until a script shows it: a comparison drawer, a
quick view, a cart. A hidden box beside a shown sibling is a tab's panel or a slide,
and many pages print those; a box that is its parent's only element but for scripts,
once the cleaning dropped the page's buttons, has nothing on the page that shows it, and
a shop's collection printed a comparison table of its whole range (hidden_tuning.ALONE_*).
A code sample (`<pre>`) stays: manuals hide the source of the live examples they show;
and so does a box that holds an `<h1>`, `<main>` or `<article>`: the page itself, hidden
until a script starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice
from typing import Any

from common.xpath import text_length, text_start
from wf.extract import hidden_tuning as tuning

# What the union search in wf.extract.parse.clean looks for: class attributes that may
# hold a hiding token (most hold "overflow-hidden" or none, read at the value alone), and
# Framer's copies per breakpoint (wf/extract/variants.py) in the same predicate: a
# predicate of its own cost libxml2 another pass over every class attribute.
CLASS_WORDS = ("hidden", "d-none", "ssr-variant", "sr-only", "screen-reader")


def class_xpath(words: tuple[str, ...] = CLASS_WORDS) -> str:
    """The search for the class attributes that hold one of ``words`` (of CLASS_WORDS);
    none for no words. Each word costs libxml2 a copy of every class attribute's value:
    a caller passes only the words the page's classes hold (parse.clean)."""
    if not words:
        return ""
    # string(), not ".": each word's test copies the value either way, and "." builds a
    # node set around it first (a fifth of the search on a page's every class attribute).
    return "//*/@class[" + " or ".join(f"contains(string(), '{word}')" for word in words) + "]"


CLASS_XPATH = class_xpath()
_SHOWN = re.compile(tuning.ALONE_SHOWN)


def _hides(value: str) -> bool:
    tokens = value.split()
    return any(t in tuning.ALONE_TOKENS for t in tokens) and _SHOWN.search(value) is None


def _alone(el: Any) -> bool:
    """Whether ``el`` is its parent's only element but for scripts and styles."""
    parent = el.getparent()
    if parent is None or parent.tag == "body":
        return False
    for n, sibling in enumerate(parent.iterchildren("*")):
        if n >= tuning.ALONE_SIBLINGS:
            return False
        if sibling is not el and sibling.tag not in tuning.ALONE_BESIDE:
            return False
    return True


def _inside(el: Any, found: set[Any]) -> bool:
    """Whether a box of ``found`` holds ``el``, within tuning.ALONE_UP levels above it."""
    for n, up in enumerate(el.iterancestors()):
        if n >= tuning.ALONE_UP:
            return False
        if up in found:
            return True
    return False


def _unless_most(root: Any, found: list[Any]) -> list[Any]:
    """``found``, or none when those boxes hold most of the page's text (hidden.mostly):
    a page that keeps its content there is read with it."""
    from wf.extract.hidden import mostly

    if not found:
        return []
    length = text_length()
    if mostly(sum(length(el) for el in found), root, length):
        return []
    return found


def alone(root: Any, hits: Sequence[Any]) -> list[Any]:
    """The boxes among ``hits`` (a search's results holding CLASS_XPATH's) hidden by their
    class with nothing shown beside them; none when they hold most of the page's text."""
    found: list[Any] = []
    found_set: set[Any] = set()  # the outer ones only: each is measured once below
    for hit in islice(
        (h for h in hits if getattr(h, "attrname", None) == "class"), tuning.ALONE_MAX
    ):
        el = hit.getparent()
        if el is None or el.tag in tuning.ALONE_KEEP or not _hides(hit):
            continue
        if _alone(el) and not _inside(el, found_set):
            found.append(el)
            found_set.add(el)
    # A box that holds the page's heading or its main content is the page a script has
    # yet to show (an app's root hidden until it starts), not a drawer beside it.
    found = [el for el in found if next(el.iter(*tuning.ALONE_CONTENT), None) is None]
    return _unless_most(root, found)


def empty_labels(hits: Sequence[Any]) -> list[Any]:
    """The inline boxes among ``hits`` (as alone() reads them) hidden by their class whose
    text, under tuning.LABEL_MAX characters, holds no figure and is all for screen
    readers (_spoken_only): the labels of a figure a script has yet to write (Shopify's unit price beside every price, hidden and empty but
    for its screen readers' "Unit price" and "per", glued to the price before it). Read
    on a product page only (parse.clean's `opened`)."""
    found: list[Any] = []
    for hit in islice(
        (h for h in hits if getattr(h, "attrname", None) == "class"), tuning.ALONE_MAX
    ):
        el = hit.getparent()
        if el is None or el.tag not in tuning.LABEL_TAGS or not _hides(hit):
            continue
        # Its words, the white space of an indented template collapsed.
        text = " ".join(text_start(el, tuning.LABEL_READ).split())
        short = len(text) <= tuning.LABEL_MAX and not any(c.isdigit() for c in text)
        if short and _spoken_only(el, text):
            found.append(el)
    return found


def _spoken_only(el: Any, text: str) -> bool:
    """Whether every letter of a short box's `text` stands in a box for screen readers
    only (tuning.SCREEN_READER classes) inside it: labels whose figures are missing."""
    spoken = 0
    for sub in islice(el.iter(), tuning.LABEL_MAX):
        if not isinstance(sub.tag, str):
            continue
        if set((sub.get("class") or "").split()) & tuning.SCREEN_READER:
            spoken += sum(c.isalpha() for c in text_start(sub, tuning.LABEL_READ))
    return 0 < spoken == sum(c.isalpha() for c in text)


def read_apart(hits: Sequence[Any]) -> None:
    """A space after each box among ``hits`` (as alone() reads them) for screen readers
    only (tuning.SCREEN_READER) when the text after it would glue to its words: a screen
    reader reads the label apart ("Regular price" before "\u20ac149,00 EUR", "Sale price"
    after "Compare at"), and a space before it when the text before it would. Punctuation
    after it needs none, nor does the end of the box that holds it (a link's "Opens in a
    new window" before the comma after the link); code keeps its white space as written."""
    for hit in islice(
        (h for h in hits if getattr(h, "attrname", None) == "class"), tuning.ALONE_MAX
    ):
        el = hit.getparent()
        if el is None or not set(hit.split()) & tuning.SCREEN_READER or _literal(el):
            continue
        tail = el.tail or ""
        nxt = el.getnext() if not tail else None
        after = tail[:1] or ((nxt.text or "x")[:1] if nxt is not None else " ")
        if not after.isspace() and after not in tuning.NO_SPACE_BEFORE:
            el.tail = " " + tail
        if el.text and not el.text[:1].isspace():
            el.text = " " + el.text


def _literal(el: Any) -> bool:
    """Whether `el` stands in code (tuning.ALONE_KEEP's <pre> and <code>, a <textarea>),
    within tuning.ALONE_UP levels: its white space is its text."""
    return any(up.tag in _LITERAL for up in islice(el.iterancestors(), tuning.ALONE_UP))


_LITERAL = frozenset(("pre", "code", "textarea"))


def _link_share(el: Any) -> tuple[int, int]:
    """Characters of ``el``'s text and of its links' text, the first
    tuning.MENU_TEXTS pieces of each read (of all its links together)."""
    text = sum(len(t.strip()) for t in islice(el.itertext(), tuning.MENU_TEXTS))
    links = 0
    budget = tuning.MENU_TEXTS  # pieces of all the links together
    for a in islice(el.iter("a"), tuning.MENU_TEXTS):
        for t in islice(a.itertext(), budget):
            links += len(t.strip())
            budget -= 1
        if budget <= 0:
            break
    return text, links


def menus(root: Any, hits: Sequence[Any]) -> list[Any]:
    """The <noscript> boxes among ``hits`` that are menus: tuning.MENU_MIN characters or
    more, over half of them in links. A page writes its menu there for browsers without
    scripts, and its scripts draw the same menu elsewhere; read whole, the page printed
    it above its stories. None when they hold most of the page's text (a page that keeps
    its whole listing there)."""
    found: list[Any] = []
    boxes = (h for h in hits if getattr(h, "tag", None) == "noscript")
    for el in islice(boxes, tuning.MENU_MAX):
        if next(el.iterancestors("noscript"), None) is not None:
            continue  # inside another: read with it
        text, links = _link_share(el)
        if text >= tuning.MENU_MIN and links * 2 > text:
            found.append(el)
    return _unless_most(root, found)
