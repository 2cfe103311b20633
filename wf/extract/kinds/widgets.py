"""A product page a shop builds of widgets named by what each shows (Amazon's
`<div id="..._feature_div">`, product_tuning.SHOP_WIDGETS_*): its text is the product's
own widgets, in page order, and nothing of the shop's around them (the buy box, delivery
and badges, carousels of other products, customers' reviews). The article rule reads
such a page as a landing page or a listing: a hundred widgets side by side, none of
them standing out.

The content is the nearest block holding every kept widget; inside it, a block is left
out unless it is one of them, inside one, or around one, and a box the shop's style sheet
hides (SHOP_WIDGETS_HIDDEN) goes wherever it stands. Each element is looked at once
(the page's elements, then the kept widgets' ancestors and descendants).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract.kinds import product_tuning as pt

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord


def _widgets(body: Any) -> list[Any]:
    """The page's kept widgets in page order, or [] when the page is not built so."""
    kept: list[Any] = []
    named = 0
    titled = False
    for i, el in enumerate(body.iter()):
        if i >= pt.SHOP_WIDGETS_SCAN_MAX:
            return []
        ident = el.get("id") if isinstance(el.tag, str) else None
        if not ident:
            continue
        if ident == pt.SHOP_WIDGETS_TITLE:
            titled = True
        elif ident.endswith(pt.SHOP_WIDGETS_SUFFIX):
            named += 1
            if ident in pt.SHOP_WIDGETS_KEPT:
                kept.append(el)
    if not titled or named < pt.SHOP_WIDGETS_MIN or len(kept) > pt.SHOP_WIDGETS_KEPT_MAX:
        return []
    # A kept widget inside another kept one is printed with it.
    inside = {d for el in kept for d in el.iterdescendants()}
    return [el for el in kept if el not in inside]


def choose(body: Any, analysis: Analysis) -> Callable[[Any, BlockRecord], bool] | None:
    """On a page built of named widgets whose kept ones print enough, the block around
    them becomes the choice (the analysis says so) and the rule that prunes inside it is
    returned; else None, the analysis untouched."""
    kept = _widgets(body)
    if not kept:
        return None
    records = {b.el: b for b in analysis.blocks}
    inside: set[Any] = set()
    for el in kept:
        inside.update(el.iter())
    text = sum(records[el].text for el in kept if el in records)
    if text < pt.SHOP_WIDGETS_TEXT_MIN:
        trace.trace(
            "extract: product: %d widgets named for the product print %d characters, under "
            "%d: not taken",
            len(kept),
            text,
            pt.SHOP_WIDGETS_TEXT_MIN,
        )
        return None
    around: list[set[Any]] = [set(el.iterancestors()) for el in kept]
    common = set.intersection(*around)
    holder = next((a for a in kept[0].iterancestors() if a in common and a in records), None)
    if holder is None:
        return None
    keep = inside | set().union(*around)
    record = records[holder]
    analysis.best, analysis.best_index = holder, record.index
    analysis.kind, analysis.by_kind = "product", True
    trace.trace(
        "extract: product: %d widgets named for the product (%d characters) in <%s> taken, "
        "without the shop's widgets around them",
        len(kept),
        text,
        record.tag,
    )

    def widgets_prune(el: Any, b: BlockRecord) -> bool:
        return el not in keep or _hidden(el)

    return widgets_prune


_HIDDEN = re.compile(pt.SHOP_WIDGETS_HIDDEN)


def _hidden(el: Any) -> bool:
    """Whether a box in a kept widget is one the shop's style sheet hides (its class:
    product_tuning.SHOP_WIDGETS_HIDDEN): a popover's content loaded with the page (the
    form to report a lower price, under the details), an error message."""
    cls = el.get("class")
    return bool(cls) and _HIDDEN.search(cls) is not None
