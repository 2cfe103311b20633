"""Inside the chosen content: which blocks are boilerplate to leave out."""

from __future__ import annotations

from typing import Any

from wf.extract import tuning
from wf.extract.names import HEADING, STRUCTURAL_NEGATIVE, never_content
from wf.extract.notices import (
    SCRIPT_NOTICE_MAX,
    SITE_LINE_MAX,
    colophon,
    sample,
    site_line,
    subscription_prompt,
)
from wf.extract.records import CARD_MAX, PARAGRAPH_WORDS, BlockRecord, negative


def prune_named(el: Any, b: BlockRecord) -> bool:
    """Whether a block is boilerplate by its tag or names alone (or the site's colophon,
    "Powered by Blogger.", in an unnamed footer)."""
    return negative(b) or colophon(el, b)


def prune_lenient(el: Any, b: BlockRecord) -> bool:
    """prune() for a page whose class names cannot be trusted."""
    if b.cut or b.tag in STRUCTURAL_NEGATIVE or never_content(el):
        return True
    return link_list(b)


# The longest block a notice's rule below reads: the content's longer blocks are asked
# none of them.
_NOTICE_TEXT_MAX = max(SCRIPT_NOTICE_MAX, tuning.PROMPT_MAX, SITE_LINE_MAX)


def prune(el: Any, b: BlockRecord) -> bool:
    """Whether a block inside the chosen content is boilerplate to leave out."""
    if b.boiler or b.cut or negative(b):
        return True
    # Each rule is asked only of the blocks its own first test lets through (it asks them
    # again): prune is asked of every block of the content.
    size = b.text
    if size > _NOTICE_TEXT_MAX:
        return link_list(b)
    if b.tag == "noscript" and script_notice(el, b):
        return True  # a notice asking for scripts, inside the article
    if size != b.own:
        if subscription_prompt(el, b):
            return True  # a paywall's prompt under an article cut short
    elif size <= SITE_LINE_MAX and site_line(el, b):
        return True  # "Powered by WordPress" in a footer named as nothing, "11 min read"
    return link_list(b)


def script_notice(el: Any, b: BlockRecord) -> bool:
    """A <noscript> notice asking for scripts ("You need to enable JavaScript to run this
    app.", the notice a single-page app's template writes at the top of <body>)."""
    return (
        b.tag == "noscript"
        and b.text <= SCRIPT_NOTICE_MAX
        and "javascript" in sample(el, b).lower()
    )


# A table is kept or dropped whole: a row of linked names is data in a table of films.
_TABLE_PARTS = frozenset(("tbody", "thead", "tfoot", "tr", "td", "th"))
# A list is judged item by item: the items that are only links go, the sentences stay
# (a changelog whose entries link their bugs, beside a few that do not).
_LISTS = frozenset(("ul", "ol"))


def link_list(b: BlockRecord) -> bool:
    """A list of links (menu, related stories, tags) with little prose of its own; a
    paragraph or a list item is spared when words of its own join its links into a
    sentence, and a heading always is (on a listing page, linked titles are the content)."""
    text, link = b.text, b.link
    # Past CARD_MAX characters of prose a block is no list of links, whatever its link
    # count says (boilerplate boxes not walked into count all their text as links).
    if not text or link * 2 <= text or b.good * 2 >= text or b.good >= CARD_MAX:
        return False
    tag = b.tag
    if tag in HEADING or tag in _TABLE_PARTS or tag in _LISTS:
        return False
    if tag == "summary" and _titled(b.el):
        return False  # a collapsible section's heading, linked to its own anchor
    if tag == "p" or (tag == "li" and text == b.own):
        # A list item that holds no blocks reads like a paragraph: a changelog's "Thanks
        # to <name>, <feature>", a reference with its source linked.
        return text - link < PARAGRAPH_WORDS
    return True


def _titled(el: Any) -> bool:
    """Whether a box's first element is a heading, with no words before it (a <details>'
    <summary> that titles its section: DigitalOcean's tutorials, GitHub's READMEs)."""
    first = next((c for c in el if isinstance(c.tag, str)), None)
    return first is not None and first.tag in HEADING and not (el.text or "").strip()


def skipper(records: dict[Any, BlockRecord], rule: Any = None) -> Any:
    """Whether an element is left out of the text: its block's record says so by `rule`
    (prune when None); an element without a block of its own is written."""
    judge = prune if rule is None else rule

    def skip(el: Any) -> bool:
        record = records.get(el)
        return record is not None and bool(judge(el, record))

    return skip
