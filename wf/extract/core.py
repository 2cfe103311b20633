"""The extraction pipeline: parse, clean, choose the content, write Markdown, fall back."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from common import trace
from wf.extract import stood_out
from wf.extract.parse import FAST_MAX
from wf.extract.result import Extracted, Link

if TYPE_CHECKING:
    from wf.extract.images import Image
    from wf.extract.kinds.declared import Declared
    from wf.extract.markdown import MarkdownWriter
    from wf.extract.select import Selection

NEXT_TO_NOTHING = 80


def run(
    html: str | bytes,
    *,
    url: str | None,
    full: bool,
    markers: bool,
    want_links: bool,
    deadline: float | None = None,
    want_metadata: bool = False,
    utf8: bytes | None = None,
    selection: Selection | None = None,
    want_images: bool = False,
) -> Extracted:
    from common.errors import NoMatch

    try:
        result = _run(
            html,
            url=url,
            full=full,
            markers=markers,
            want_links=want_links,
            deadline=deadline,
            want_metadata=want_metadata,
            utf8=utf8,
            selection=selection,
            want_images=want_images,
        )
    except NoMatch:
        raise  # --select found nothing: that is the answer, loud
    except Exception as exc:  # noqa: BLE001 - the contract is: any input gives text, never raises
        trace.trace("extract: failed (%s: %s); tags stripped instead", type(exc).__name__, exc)
        from wf.extract.crude import failed

        result = failed(html, exc)
    if want_metadata and result.metadata is None:
        from wf.extract import metadata

        result.metadata = metadata.empty()  # asked for: every key, even for no page at all
    if want_images and result.images is None:
        result.images = []
    return _clean_fields(result)


def _clean_fields(result: Extracted) -> Extracted:
    """Title and link list leave here under common.text's one-line policy (the text is
    cleaned by the caller with the rest of the page's lines): a title or an href can hold
    anything, a bidi override or a line that forges a marker included."""
    from common.text import one_line

    result.title = one_line(result.title) or None
    result.links = [Link(text=one_line(link.text), url=one_line(link.url)) for link in result.links]
    if result.images:
        from dataclasses import replace

        result.images = [
            replace(
                image,
                src=one_line(image.src),
                alt=one_line(image.alt),
                caption=one_line(image.caption) or None,
            )
            for image in result.images
        ]
    return result


def _run(
    html: str | bytes,
    *,
    url: str | None,
    full: bool,
    markers: bool,
    want_links: bool,
    deadline: float | None,
    want_metadata: bool,
    utf8: bytes | None,
    selection: Selection | None = None,
    want_images: bool = False,
) -> Extracted:
    options = {
        "url": url,
        "full": full,
        "markers": markers,
        "want_links": want_links,
        "deadline": deadline,
        "want_metadata": want_metadata,
        "selection": selection,
        "want_images": want_images,
    }
    from common.late import late
    from wf.extract.source import limited

    # Past the deadline the checks stop and cut the page where they are: what follows
    # meets the deadline's check (_extract) and gives the text in document order.
    text, utf8, cut = limited(html, utf8, late(deadline))
    result = _parse_and_extract(text, options, utf8)
    result.notes.extend(cut.notes())
    return result


# What the fast parse passes through from a page and the careful one removes: C0 controls
# but tab and line ends, DEL, and U+FFFD (a NUL the parser replaced).
_UNCLEAN = (*map(chr, (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)), "\ufffd")


def _unclean(text: str) -> bool:
    """Whether ``text`` holds one of _UNCLEAN: a search per character, each at memchr's
    speed, cost a third of a character class's regex over the page's text."""
    return any(c in text for c in _UNCLEAN)


def _names_items(source: str | bytes) -> bool:
    """Whether the source names a microdata itemtype or an RDFa typeof."""
    if isinstance(source, str):
        return "itemtype" in source or "typeof" in source
    return b"itemtype" in source or b"typeof" in source


def _parse_and_extract(text: str | bytes, options: dict[str, Any], utf8: bytes | None) -> Extracted:
    from common.late import late
    from wf.extract import parse
    from wf.extract.unseen import CLASS_SCAN_MAX

    # Microdata and RDFa are looked for in the tree (a walk over every element) only when
    # the page's source names an itemtype or a typeof at all: most pages do not. Asked only
    # when the tree holds one, and JSON-LD and og:type declare no kind (or a product
    # they say too little of): a search of the whole source is not paid by every page.
    named = partial(_names_items, text)
    # A large page's class words are all searched for: which of them its classes hold is
    # read from all its class values joined, a copy as large as they are (unseen.parts).
    options = {**options, "microdata": named, "large": len(text) > CLASS_SCAN_MAX}
    root = parse.parse_fast(text, utf8) if isinstance(text, str) and len(text) <= FAST_MAX else None
    if root is not None:
        try:
            result: Extracted | None = _extract(root, **options)
        except ValueError:  # lxml refused a text of a control character a page referenced
            result = None
        if result is not None and not _unclean(result.text) and not _unclean(result.title or ""):
            return result
        # libxml2 keeps C0 controls in the tree (only NUL becomes U+FFFD): take the careful
        # path, which drops them before the parse.
        trace.trace("extract: a control character in the fast parse; parsing again carefully")
        del root, result
    root = parse.parse(parse.to_utf8(text, utf8), late(options["deadline"]))
    # The source is let go here: whether it names an itemtype is settled now.
    names_itemtype = named()
    options["microdata"] = lambda: names_itemtype
    del text, utf8, named
    if root is None:
        return Extracted(title=None, text="", links=[])
    return _extract(root, **options)


def _extract(
    root: Any,
    *,
    url: str | None,
    full: bool,
    markers: bool,
    want_links: bool,
    deadline: float | None,
    want_metadata: bool,
    microdata: Callable[[], bool] = lambda: True,
    selection: Selection | None = None,
    want_images: bool = False,
    large: bool = False,
) -> Extracted:
    from wf.extract import blocks, page_head, parse

    title = page_head.title_of(root)
    base = _base_url(url, page_head.base_href(root))
    meta = None
    if want_metadata:
        from wf.extract import metadata

        # Before cleaning, which removes <head>, <meta> and <script>.
        meta = metadata.extract(root, base, title, large)
    found_images, keep = _steered(root, url, base, selection, want_images)
    shown: list[Image] = []
    body, declared = None, None
    try:
        # Before the cleaning too: the parse, title and metadata took up to 0.3 s past it.
        blocks.check_time(deadline)
        body, declared = _cleaned_body(root, url, full, keep, large, microdata)
        blocks.check_time(deadline)
        text, links, kind, shown, author = _text(
            body,
            base=base,
            full=full,
            markers=markers,
            want_links=want_links,
            deadline=deadline,
            dense=page_head.dense_script(root, title),
            declared=declared,
            chosen=bool(selection and selection.select),
            images=found_images,
            title=title,
        )
    except blocks.OutOfTime:
        # Out of time: the page's text in document order, one line per piece, found in
        # a pass that costs next to nothing.
        trace.trace("extract: out of time; the page's text in document order, unstructured")
        if body is None:  # not cleaned: what the cleaning drops first, never text, goes
            parse.drop_junk(root, not full, keep)
            body = next(root.iterchildren("body"), root)
        from wf.extract.quick import quick_text

        text, links, kind, author = quick_text(body), [], None, None
    if meta is not None:
        from wf.extract.kinds.choose import to_metadata

        to_metadata(meta, kind, author, declared)
    return Extracted(
        title=title,
        text=text,
        links=links,
        metadata=meta,
        kind=kind,
        images=shown if want_images else None,
    )


def _cleaned_body(
    root: Any, url: str | None, full: bool, keep: tuple[str, ...], large: bool, microdata: Any
) -> tuple[Any, Declared | None]:
    """The page cleaned, its <body> (or root) made ready to read; what the page declares."""
    from wf.extract.kinds import docs
    from wf.extract.kinds.mail import unpre
    from wf.extract.mediawiki import drop_section_edits

    declared = _cleaned(root, full, keep, large, microdata)
    if declared is not None:
        declared = _by_path(declared, url, root)
        docs.tidy(root, declared)
    body = root.find("body")
    if body is None:
        return root, declared
    drop_section_edits(body)
    if unpre(body):
        trace.trace("extract: a mailing list's message read as prose, not code")
    return body, declared


def _steered(
    root: Any, url: str | None, base: str | None, selection: Selection | None, images: bool
) -> tuple[dict[Any, Image] | None, tuple[str, ...]]:
    """--select and --remove applied (after the whole page's title and metadata are
    read); with --images, the page's images (read before cleaning, which drops <picture>
    and <source>) and the tags cleaning is to keep for them."""
    if selection is not None:
        from wf.extract import select

        select.apply(root, selection.select, selection.remove, where=url or "the page")
    if not images:
        return None, ()
    from wf.extract.images import KEEP, scan

    return scan(root, base), KEEP


def _cleaned(
    root: Any, full: bool, keep: tuple[str, ...], large: bool, microdata: Callable[[], bool]
) -> Declared | None:
    """`root` cleaned (parse.clean), and what the page declares (but with --full, which
    reads no kind), read before its hidden boxes go: declarations are data."""
    from wf.extract import parse, tuning

    jsonld: list[str] | None = None if full else []
    og: dict[str, str] = {}
    read: list[Declared] = []

    def declare() -> bool:
        # jsonld and og are filled by now; root is still whole.
        found = _declared(root, microdata, jsonld or [], og)
        read.append(found)
        return found.kind()[0] == tuning.PRODUCT

    declaring = declare if jsonld is not None else None
    parse.clean(
        root, main=not full, jsonld=jsonld, og=og, keep=keep, every_word=large, declare=declaring
    )
    if not read:
        return None
    from wf.extract.kinds import declared

    declared.seen(read[0], root)
    return read[0]


def _declared(
    root: Any, microdata: Callable[[], bool], jsonld: list[str], og: dict[str, str]
) -> Declared:
    """What the page declares it is: its JSON-LD scripts and og:type (gathered while
    cleaning), then the microdata and RDFa of the whole `root` (before its cleaning) when
    `microdata()` says the source names an itemtype or a typeof at all."""
    from wf.extract.kinds import declared

    dated = "article:published_time" in og
    try:
        found = declared.read(jsonld, og.get("og:type", ""), root, microdata, dated=dated)
        declared.generated(found, og.get("generator", ""))
        declared.summarised(found, og.get("og:description", ""))
        return found
    except Exception:  # noqa: BLE001 - a declaration never costs the page its text
        return declared.Declared()


def _by_path(found: Declared, url: str | None, root: Any) -> Declared:
    """`found`, with the kind the URL's path names when the page declares none but an
    article (documentation's /docs/, a thread's /threads/): read from the cleaned `root`,
    whose code blocks are those a reader sees."""
    from wf.extract import tuning
    from wf.extract.kinds import declared

    kind, why = found.kind()
    path_kind = declared.by_path(url, root) if kind in (None, tuning.ARTICLE) else None
    if path_kind:  # documentation (/docs/) or a thread's page (/threads/)
        why = f"a {path_kind} path in the URL"
        found.kinds.insert(0, (path_kind, why))
        kind = path_kind
    if kind:
        trace.trace("extract: kind %s (%s)", kind, why)
    return found


def _text(
    body: Any,
    *,
    base: str | None,
    full: bool,
    markers: bool,
    want_links: bool,
    deadline: float | None,
    dense: bool = False,
    declared: Declared | None = None,
    chosen: bool = False,
    images: dict[Any, Image] | None = None,
    title: str | None = None,
) -> tuple[str, list[Link], str | None, list[Image], str | None]:
    from wf.extract import blocks, explain, tuning

    to_markdown = _writer(base, markers, want_links, full, deadline, images)
    kind = author = None
    if full:
        trace.trace("extract: --full: the whole page")
        r = to_markdown(body)
    elif chosen:
        r = _selected(body, to_markdown, deadline, dense)
    else:
        from wf.extract.kinds.choose import analyse

        choice = analyse(body, deadline, dense, declared)
        analysis, kind, author = choice.analysis, choice.kind, choice.analysis.author
        post = stood_out.short_post(
            analysis, kind == tuning.ARTICLE, body, to_markdown, choice, title
        )
        explain.choice(analysis, choice.prune)
        node = analysis.best if analysis.best is not None else body
        if kind == tuning.THREAD and node is not body:
            from wf.extract.kinds.tidy import drop_topic

            drop_topic(node, title)
        from wf.extract.prune import skipper

        r = to_markdown(node, skipper(analysis.records(whole=node is body), choice.prune))
        thin = blocks.THIN_PROSE_DENSE if dense else blocks.THIN_PROSE
        if node is not body and _length(r) < thin and not analysis.by_kind:
            r = stood_out.thin_choice(r, node, body, to_markdown, choice, title)
        # A product that declares its description prints it (product_text.header), and a
        # short post whole (an office's address and hours) is all its page says: the
        # whole page would add its menus.
        described = post or (kind == "product" and declared is not None and declared.described)
        if _length(r) < NEXT_TO_NOTHING and not described and node is body:
            r = stood_out.unnamed(r, body, to_markdown, choice, thin)
        if _length(r) < NEXT_TO_NOTHING and not described:
            whole = to_markdown(body)
            if _length(whole) > _length(r):
                trace.trace(
                    "extract: fallback: %d characters, next to nothing; took the whole page (%d)",
                    _length(r),
                    _length(whole),
                )
                r = whole
    text = r.text()
    if kind == "product":
        from wf.extract.kinds import product_text

        text = product_text.finish(declared.product if declared is not None else {}, text)
    shown = r.images.images.items if r.images is not None else []
    return text, [Link(text=t, url=u) for t, u in r.links], kind, shown, author


def _writer(
    base: str | None,
    markers: bool,
    want_links: bool,
    full: bool,
    deadline: float | None,
    images: dict[Any, Image] | None,
) -> Any:
    """The Markdown writer of one page's options: ``to_markdown(node, skip, main)``."""
    from wf.extract.images import Markers
    from wf.extract.markdown import MarkdownWriter

    def to_markdown(node: Any, skip: Any = None, main: bool = not full) -> MarkdownWriter:
        if images and skip is not None:
            skip = _showing(skip, images)
        r = MarkdownWriter(
            base_url=base,
            markers=markers,
            want_links=want_links,
            skip=skip,
            main=main,
            deadline=deadline,
            images=None if images is None else Markers(images, shared=markers),
        )
        r.write(node)
        return r

    return to_markdown


def _selected(body: Any, to_markdown: Any, deadline: float | None, dense: bool) -> Any:
    """--select chose the content (the body holds what it matched): the boilerplate inside
    it goes, none of it is cut away as not the main block, and a selection of a few
    words (a heading, a price) is written whole."""
    from wf.extract import blocks
    from wf.extract.prune import skipper

    analysis = blocks.choose(body, deadline, dense)
    pruned = skipper(analysis.records(whole=True))
    chosen = set(body)  # what the selectors named is never boilerplate itself
    r = to_markdown(body, lambda el: el not in chosen and pruned(el))
    if _length(r) < NEXT_TO_NOTHING:
        whole = to_markdown(body, main=False)
        r = whole if _length(whole) > _length(r) else r
    return r


def _showing(skip: Any, found: dict[Any, Image]) -> Any:
    """``skip``, but for the figures that frame a found image (--images)."""
    from wf.extract.images import frames_image

    def skip_but_images(el: Any) -> bool:
        return skip(el) and not frames_image(el, found)

    return skip_but_images


def _length(r: MarkdownWriter) -> int:
    return r.length()


def _base_url(url: str | None, base: str | None) -> str | None:
    if not base:
        return url
    from urllib.parse import urljoin

    try:
        return urljoin(url, base) if url else base
    except ValueError:
        return url
