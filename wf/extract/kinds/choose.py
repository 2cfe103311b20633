"""The choice of content for a page of a kind: the kind's own rule, the article rule, and
the second opinions that arbitrate between them.

In order: a thread's own rule (its posts) when the page is declared a thread, else the
article rule (wf.extract.blocks.choose), which also tells the kind its structure shows
(a thread it shows on a page declared only by og:type is read by the thread's rule);
on a product page the declared description's region (product.py); then the listing's
second opinion (listing.py: the page's list over a thin choice), then the footer's
(footers.py: a choice inside the page's footer is a notice, and the page is read whole
without it), then the landing page's (landing.py: a choice holding under half the page's
prose on a page that declares no article is one section, and so is a chosen FAQ beside
other text; the page is read whole without its named boilerplate; a listing whose list
went unseen under a thin choice is read so too, without its cards' labels and forms).
Documentation prunes by docs.py's rule: its linked list items stay. Each rule says in one
`-v` line why it took or left the choice. The kind then goes into the page's metadata
(to_metadata): its type, and a thread's author when the page names none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import blocks, tuning

# The rules every page asks, imported once: an import statement in a function costs each
# page a lookup per name.
from wf.extract.kinds import copies, faq, footers, landing, landing_prune, listing, thread

if TYPE_CHECKING:
    from wf.extract.kinds.declared import Declared
    from wf.extract.records import Analysis, BlockRecord


@dataclass
class Choice:
    analysis: Analysis
    kind: str  # one of tuning.KINDS
    # Whether a block inside the content is left out, by the kind's rule.
    prune: Callable[[Any, BlockRecord], bool]
    # ...and in the page read whole without its named boilerplate, when the choice is thin.
    wide: Callable[[Any, BlockRecord], bool] | None = None


def analyse(body: Any, deadline: float | None, dense: bool, declared: Declared | None) -> Choice:
    declared_kind = declared.kind()[0] if declared is not None else None
    # og:type article and nothing else: what forum software writes on every topic.
    loose = declared is not None and all(w.startswith("og:type") for _, w in declared.kinds)
    analysis = _first(body, deadline, dense, declared_kind, loose)
    if declared_kind in (None, tuning.PRODUCT):
        from wf.extract.kinds import widgets

        kept = widgets.choose(body, analysis)
        if kept is not None:
            return Choice(analysis=analysis, kind=tuning.PRODUCT, prune=kept)
    if declared_kind == tuning.DOCUMENTATION and analysis.best_index >= 0:
        from wf.extract.kinds import docs

        # A manual's boxes beside the chosen one that the article rule cut when it took
        # in their parent (widen.merge_siblings) are its sections: an item's fields and
        # methods beside its description, short and mostly links. docs.prune reads each.
        for b in analysis.blocks:
            b.cut = False
        docs.with_title(analysis)
    if declared is not None and declared.product and analysis.kind == tuning.PRODUCT:
        from wf.extract.kinds import product

        analysis = product.choose(body, analysis, declared.product)
    if analysis.kind in (None, tuning.ARTICLE, tuning.LISTING, tuning.LANDING):
        thin = blocks.THIN_PROSE_DENSE if dense else blocks.THIN_PROSE
        analysis = listing.second_opinion(analysis, analysis.kind, thin)
    whole = (
        footers.footer_chosen(analysis)
        or faq.chosen(analysis, declared_kind)
        or landing.second_opinion(analysis)
        or landing.thin_listing(analysis)
    )
    kind = analysis.kind or tuning.ARTICLE
    if whole or (kind == tuning.PRODUCT and analysis.best is None):
        footers.footers_out(analysis)
    prune = copies.once(analysis, _kind_prune(analysis, kind, whole), whole=kind == tuning.LANDING)
    wide: Callable[[Any, BlockRecord], bool]
    wide = landing_prune.prune_whole if kind == tuning.LANDING else landing_prune.prune_wide
    wide = copies.wide_once(analysis, wide)
    if kind == tuning.PRODUCT:
        prune, wide = _product(body, analysis, prune, whole)
    # -v says the kind a page is read as, declared or not (when a block stood out at all).
    if kind != declared_kind and (analysis.best is not None or whole):
        if declared_kind is not None:
            why = f"declared {declared_kind}; the rule traced above read it so"
        elif kind == tuning.ARTICLE:
            why = "nothing declared, and no posts or list shown: the article rule"
        else:
            why = "nothing declared; the rule traced above read it so"
        trace.trace("extract: read as %s (%s)", kind, why)
    return Choice(analysis=analysis, kind=kind, prune=prune, wide=wide)


def _kind_prune(analysis: Analysis, kind: str, whole: bool) -> Callable[[Any, BlockRecord], bool]:
    """Whether a block inside the content is left out, by the rule of the page's kind: the
    page read whole's (a listing's or a landing page's), a thread's posts' (once the posts
    the article rule's choice showed are tidied), a listing's own, a landing page's cards
    kept, a manual's; else the article rule's (lenient where names proved unreliable)."""
    if whole and kind == tuning.LISTING:
        return listing.prune_whole
    if whole:
        return landing_prune.prune_whole
    if kind == tuning.THREAD and analysis.best is not None:
        from wf.extract.kinds import posts

        if not analysis.by_kind:  # the posts the article rule's choice showed
            thread.tidy_shown(analysis)
        return posts.prune
    if kind == tuning.LISTING and analysis.by_kind:
        return listing.prune
    if kind == tuning.LANDING and analysis.best is not None and not analysis.lenient:
        return landing_prune.prune_cards
    if kind == tuning.DOCUMENTATION and analysis.best is not None and not analysis.lenient:
        from wf.extract.kinds import docs

        return docs.prune
    return blocks.prune_lenient if analysis.lenient else blocks.prune


def _product(
    body: Any, analysis: Analysis, prune: Callable[[Any, BlockRecord], bool], whole: bool
) -> tuple[Callable[[Any, BlockRecord], bool], Callable[[Any, BlockRecord], bool]]:
    """A product page's pruning and its wide pruning (product.pruning, wide_pruning), the
    choice widened when it prints too little (product_widen.second_opinion) or else to the box
    of the sections it is one of (product_region.sectioned), the box that holds it and a
    column of the product's facts beside it (product_region.with_facts), and a <main>
    whose names would prune most of it read whole (product_region.names_misread)."""
    from wf.extract.kinds import product, product_region, product_widen

    product.sections(analysis)
    title_boxes = product.heading_boxes(body)
    prune, wide = product.pruning(prune, title_boxes), product.wide_pruning(title_boxes)
    if not whole and product_widen.second_opinion(analysis, prune):
        prune = wide
        footers.footers_out(analysis)
    elif not whole:
        product_region.sectioned(analysis)
    if not whole:
        product_region.with_facts(analysis)
    if not whole and product_region.names_misread(analysis, prune):
        prune = product_region.unpruned
    return product_region.without_lone_titles(prune), wide


def _first(
    body: Any, deadline: float | None, dense: bool, kind: str | None, loose: bool = False
) -> Analysis:
    """The thread's own rule when the page is declared a thread and shows posts, else the
    article rule; then, on a page that declares no kind, the thread's second opinion, and
    on one declared only by its og:type (`loose`) whose chosen box the structure shows to
    be a thread, the thread's own rule over those posts (thread.shown). A product page's
    article rule walks the boxes around its title whatever their names
    (product.heading_boxes)."""
    if kind == tuning.THREAD:
        gm = blocks.GOOD_MIN_DENSE if dense else blocks.GOOD_MIN
        found = thread.choose(body, deadline, gm)
        if found is not None:
            return found
    kept: frozenset[Any] = frozenset()
    if kind == tuning.PRODUCT:
        from wf.extract.kinds import product

        kept = product.heading_boxes(body)
    analysis = blocks.choose(body, deadline, dense, kind, kept)
    if kind is None:
        gm = blocks.GOOD_MIN_DENSE if dense else blocks.GOOD_MIN
        analysis = thread.second_opinion(body, analysis, deadline, gm)
    elif loose and analysis.kind == tuning.THREAD and not analysis.by_kind:
        gm = blocks.GOOD_MIN_DENSE if dense else blocks.GOOD_MIN
        analysis = thread.shown(body, analysis, deadline, gm)
    return analysis


def to_metadata(
    meta: dict[str, str | None],
    kind: str | None,
    author: str | None,
    declared: Declared | None = None,
) -> None:
    """What the kind tells the page's metadata: its type, the kind whose rule chose the
    text (an article keeps the schema type it declared, recipe, review, ..., or none:
    in JSON-LD, else in microdata or RDFa, which the metadata's reading of <head> does
    not see, else in og:type); a thread's author, its first post's, when the page's metadata
    names none (the page read whole names a reply's author as often as the thread's)."""
    if kind not in (None, tuning.ARTICLE):
        meta["type"] = kind
    elif kind == tuning.ARTICLE and declared is not None and (marked := declared.marked_article()):
        from wf.extract.metadata.jsonld import kind_of, names_content

        # Heard over an og:type that names no content ("website"), as JSON-LD is; a
        # type read from JSON-LD ("video", "job") stands, as JSON-LD is read first.
        if not names_content(meta.get("type") or ""):
            meta["type"] = kind_of({marked}) or tuning.ARTICLE
    if kind == tuning.THREAD and author and not meta.get("author"):
        meta["author"] = author
