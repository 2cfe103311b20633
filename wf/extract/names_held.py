"""What a box holds, read where its names alone would mislead (names.negative_block,
never_content): a quotation's attribution in a <figcaption> (a testimonial's customer),
a list of links to the page in other languages, a pager that holds no more than one, an
issue of a newsletter published as a page rather than a sign-up box. Each read is
bounded (moved from names.py, which was near the 500-line limit)."""

from __future__ import annotations

from itertools import islice
from typing import Any

from wf.extract import names_tuning, tuning


def attribution(caption: Any) -> bool:
    """Whether a <figcaption> names who said the quotation its figure frames (a
    customer's name and title under a testimonial): the figure's last child, after a
    <blockquote> or a box holding one, of tuning.ATTRIBUTION_MAX characters at most (read
    no further) and not mostly links ("Read the full story")."""
    figure = caption.getparent()
    if figure is None or figure.tag != "figure" or caption.getnext() is not None:
        return False
    quote = caption.getprevious()
    if quote is None or (quote.tag != "blockquote" and quote.find("blockquote") is None):
        return False
    size = 0
    for part in caption.itertext():
        size += len(part.strip())
        if size > tuning.ATTRIBUTION_MAX:
            return False
    linked = sum(len(part.strip()) for a in caption.iter("a") for part in a.itertext())
    return linked * 2 < size


_MENU_ITEMS = 3  # items looked at, and needed, to call a list a language menu


def language_menu(el: Any) -> bool:
    """Whether a list is a language picker: its first items each hold a link marked with
    the language it leads to (`lang` or `hreflang`), the way Google's, Docusaurus's and
    MkDocs Material's pickers and most multilingual sites mark them."""
    items = 0
    for item in el:
        if items == _MENU_ITEMS:
            break
        if item.tag != "li":
            continue
        link = next(item.iter("a"), None)
        if link is None or not (link.get("hreflang") or link.get("lang")):
            return False
        items += 1
    return items == _MENU_ITEMS


def pager_sized(el: Any) -> bool:
    """Whether a box named as a pager holds no more text than one (tuning.PAGER_TEXT_MAX)."""
    from common.xpath import text_length

    return bool(text_length()(el) <= tuning.PAGER_TEXT_MAX)


def issue(el: Any) -> bool:
    """Whether a box holds an issue of a newsletter published as a page rather than a
    sign-up box: paragraphs of prose (names_tuning.ISSUE_PARAGRAPHS and ISSUE_CHARS at
    least) and no form or field.

    Boxes so named nest (a wrapper, the issue, its body), each asked in turn: every read
    is bounded (names_tuning.ISSUE_READ paragraphs, ISSUE_CHARS of each text, ISSUE_SCAN
    elements for a form), or a page of such boxes nested hundreds deep around thousands
    of paragraphs costs the product of the two."""
    size = 0
    for paragraphs, p in enumerate(islice(el.iter("p"), names_tuning.ISSUE_READ), 1):
        for part in p.itertext():
            size += len(part[: names_tuning.ISSUE_CHARS].strip())
            if size >= names_tuning.ISSUE_CHARS:
                break
        if paragraphs >= names_tuning.ISSUE_PARAGRAPHS and size >= names_tuning.ISSUE_CHARS:
            break
    else:
        return False
    return not any(e.tag in _FIELDS for e in islice(el.iter(), names_tuning.ISSUE_SCAN))


_FIELDS = frozenset(("form", "input", "textarea"))
