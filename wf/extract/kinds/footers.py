"""The page's footer: a choice that sits in it, and the footers a page read whole leaves out.

When the choice sits in the page's footer (footer_chosen()), the page's own text held no
prose the article rule could see (a grid of products, a category's cards), so it took the
footer's notice: the page is read whole without its named boilerplate (as landing.py reads
a landing page), and the footer is left out too. A page read whole leaves out its footers
(footers_out()), which the walk exempted as the wrappers of its prose.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from common import trace
from wf.extract.kinds import landing, landing_tuning

_FOOTER = re.compile(landing_tuning.SITE_FOOTER)

if TYPE_CHECKING:
    from wf.extract.records import Analysis, BlockRecord


def footer_chosen(analysis: Analysis) -> bool:
    """Whether the choice sits in the page's footer: a <footer>, a box of role
    contentinfo or one named as a footer (landing_tuning.SITE_FOOTER), the nearest around the
    choice, that holds no <h1>, <main> or <article>. The article rule took the footer's
    prose (a legal notice, the towns a business serves) only because the page's own
    text is no prose: the page is read whole without its named boilerplate and without
    that footer (the analysis then says so). A box so named that holds the page's
    heading or its main content wraps the page (a layout's "flex-wrap-footer"), and so
    does one that holds landing_tuning.FOOTER_SHARE of the page's text or more and without which
    the page prints under landing_tuning.FOOTER_LEFT_MIN characters. A sparse page (a 404, a
    product its scripts build) prints its few lines, not its footer's notice, and keeps
    its kind (a product's declaration is printed above it)."""
    blocks = analysis.blocks
    if analysis.best_index < 0 or analysis.by_kind or analysis.best is None:
        return False
    i = analysis.best_index
    while True:
        footer = blocks[i]
        el = footer.el
        if footer.tag in ("body", "html"):
            return False
        if _footer(footer):
            break
        i = footer.parent
        if i < 0:
            return False
    if next(el.iter("h1", "main", "article"), None) is not None:
        return False
    from wf.extract.records import negative

    if footer.text >= landing_tuning.FOOTER_SHARE * blocks[0].text:
        left = landing.characters(
            blocks, 0, len(blocks), lambda b: b is footer or negative(b), links=True
        )
        if left < landing_tuning.FOOTER_LEFT_MIN:
            return False  # the footer's name is on the page's wrapper: nothing is left
    trace.trace(
        "extract: the choice sits in the page's footer <%s class=%r>: the page read whole "
        "without its named boilerplate and that footer",
        footer.tag,
        (el.get("class") or "")[:40],
    )
    # The walk exempted the footer's name to find prose in it: named boilerplate again.
    footer.neg = True
    analysis.best, analysis.best_index = None, -1
    return True


# SITE_FOOTER when it is one word: named_by() finds it only in class and id values that
# hold it once lowered (its lowered() splits camelCase and drops a utility's variants,
# and makes no letters), so the tokens of the others are not read one by one.
_FOOTER_WORD = (
    landing_tuning.SITE_FOOTER if re.fullmatch("[a-z]+", landing_tuning.SITE_FOOTER) else ""
)


def _footer(b: BlockRecord) -> bool:
    """Whether a block is a <footer>, a box of role contentinfo or one named as a footer."""
    from wf.extract.names import named_by

    el = b.el
    if b.tag == "footer" or el.get("role") == "contentinfo":
        return True
    if _FOOTER_WORD:
        names = f"{el.get('class') or ''} {el.get('id') or ''}"
        if _FOOTER_WORD not in names.lower():
            return False
    return named_by(el, _FOOTER)


def footers_out(analysis: Analysis) -> None:
    """The page's footers (as footer_chosen tells them, holding under
    landing_tuning.FOOTER_SHARE of the page's text) left out of the page read whole, though the
    walk exempted them as the wrappers of its prose: on a page of few words a footer's
    legal notice (a privacy notice to consumers) is most of its prose."""
    blocks = analysis.blocks
    limit = landing_tuning.FOOTER_SHARE * blocks[0].text if blocks else 0
    for b in blocks[1:]:
        if b.neg is False and b.text < limit and _footer(b):
            b.neg = True
