"""Boxes of a product page told by their markup rather than their names
(wf/extract/kinds/product.py leaves them out): a list of tabs' titles over the panels that
title themselves (tab_titles), and the ids that set a hidden message apart from the list
item shown before it (named_apart), and the parts of a Shopify theme's price box its
style sheet hides (price_parts)."""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from wf.extract.kinds import product_tuning

if TYPE_CHECKING:
    from wf.extract.records import BlockRecord


def tab_titles(el: Any, b: BlockRecord) -> bool:
    """Whether a block is a list of tabs' titles (role="tablist") of two tabs or more
    (role="tab", among its first product_tuning.TABS_READ elements), each title under
    product_tuning.TAB_TITLE_MAX characters on average, and no panel among them: each
    titles its panel, which says its title again or needs none. A tab alone ("About this
    item") is its panel's heading; a list that holds more than titles is a box of
    content its script calls a tab list."""
    if el.get("role") != "tablist":
        return False
    tabs = 0
    for x in islice(el.iter(), product_tuning.TABS_READ):
        role = x.get("role")
        if role == "tabpanel":
            return False
        tabs += role == "tab"
    return tabs >= 2 and b.text <= product_tuning.TAB_TITLE_MAX * tabs


_DIGITS = re.compile(r"\d+")


def named_apart(el: Any, other: Any) -> bool:
    """Whether two boxes carry ids that differ in more than their numbers: a list's
    items are numbered alike (`review-12`, `review-13`) or carry none; boxes named each
    for what it shows (`list-error`, `list-spinner`) are no items of one list."""
    mine, theirs = el.get("id"), other.get("id")
    if not mine or not theirs:
        return False
    return _DIGITS.sub("", mine) != _DIGITS.sub("", theirs)


_PARTS_XPATH = "//*[contains(@class, 'price__')]"


def price_parts(root: Any) -> list[Any]:
    """The parts of the price boxes of Shopify's own themes (an element of class
    product_tuning.PRICE_BOX holding them) that their style sheet hides: the sale price
    and its badge on a box not `price--on-sale`, the regular price on one that is, the
    sold-out badge on a box not `price--sold-out` (product_tuning.PRICE_SHOWN_BY,
    PRICE_HIDDEN_BY). Read on a product page only; the first PRICE_PARTS_MAX parts."""
    found = []
    for el in islice(root.xpath(_PARTS_XPATH), product_tuning.PRICE_PARTS_MAX):
        tokens = set((el.get("class") or "").split())
        box = next(
            (
                up
                for up in islice(el.iterancestors(), product_tuning.PRICE_BOX_UP)
                if product_tuning.PRICE_BOX in (up.get("class") or "").split()
            ),
            None,
        )
        if box is None:
            continue
        mods = set((box.get("class") or "").split())
        shown = [
            product_tuning.PRICE_SHOWN_BY[t] for t in tokens & product_tuning.PRICE_SHOWN_BY.keys()
        ]
        hidden = [
            product_tuning.PRICE_HIDDEN_BY[t]
            for t in tokens & product_tuning.PRICE_HIDDEN_BY.keys()
        ]
        if any(m not in mods for m in shown) or any(m in mods for m in hidden):
            found.append(el)
    return found
