"""Text or bytes -> a cleaned lxml tree: no script, style, template or hidden elements.

Real pages are hostile to parsers: control characters, nesting deeper than libxml2
accepts, documents that are empty or are not HTML at all. Everything here degrades to a
smaller tree, never to an exception.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from wf.extract.depth import flatten
from wf.extract.kinds.docs_tuning import GENERATOR_METAS

# C0 controls other than tab, LF, CR (form feed included: it is only a space in HTML).
# libxml2 turns them into U+FFFD or stops on them; browsers drop them from text.
# bytes.translate deletes them several times faster than a regex finds them.
_CONTROL = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
# Each alone, for `in`: a search for one byte runs at memchr's speed, and most pages hold
# none of them, so 29 searches cost less than half of one translate (which copies).
_CONTROL_BYTES = tuple(bytes((c,)) for c in _CONTROL)
# A character reference to one of them (`&#3;`, `&#x1b`; libxml2 reads it without its
# semicolon too), which libxml2 puts in the tree as the character: lxml then refuses any
# text made of it (a hidden element's tail joined to the text before it).
_CONTROL_REF = re.compile(
    rb"&#(?:[xX]0*(?:[0-8bBcCeEfF]|1[0-9a-fA-F])(?![0-9a-fA-F])"
    rb"|0*(?:[0-8]|1[124-9]|2[0-9]|3[01])(?![0-9]));?"
)

# Never text a reader sees, in any mode.
JUNK = (
    "script",
    "style",
    "template",
    "noembed",
    "svg",
    "math",
    "iframe",
    "frame",
    "object",
    "embed",
    "applet",
    "canvas",
    "video",
    "audio",
    "picture",
    "source",
    "track",
    "map",
    "select",
    "datalist",
    "input",
    "textarea",
    "head",
    "link",
    "meta",
    "base",
    "param",
    "img",
)
# Also dropped when choosing the main content: widget labels, never part of an article.
JUNK_MAIN = (*JUNK, "button", "label", "output", "progress", "meter")

# A union of attribute steps runs faster in libxml2 than one predicate with "or"; and
# //*/@x than //@x, which asks every text node for its attributes too (a tenth less).

# libxml2 stops parsing (and drops the rest of the page) past a nesting depth
# (depth.MAX_DEPTH), and says so.
_DEPTH_LIMIT_HINT = "Excessive depth"

_local = threading.local()

# Above this many characters a page takes the careful path at once: the fast one keeps
# control characters in the tree, which on a big hostile page costs too much memory.
# Here, not in core.py, which calls this module: no circle.
FAST_MAX = 1_000_000


def _parser() -> Any:
    # One parser per thread: an lxml parser keeps state (its error log) between calls.
    parser = getattr(_local, "parser", None)
    if parser is None:
        from lxml import etree

        parser = _local.parser = etree.HTMLParser(
            encoding="utf-8",
            remove_comments=True,
            remove_pis=True,
            huge_tree=True,
            no_network=True,
            default_doctype=False,
            collect_ids=False,
        )
    return parser


def to_text(html: str | bytes, utf8: bytes | None = None) -> tuple[str, bytes | None]:
    """The page as text, and as UTF-8 when that costs no encode (see utf8_source):
    `utf8` is the caller's, for a str it decoded; bytes are decoded here."""
    if isinstance(html, bytes | bytearray | memoryview):
        from common.decode import decode_body

        body = bytes(html)
        text, charset = decode_body(body, None)
        return text, utf8_source(body, text, charset)
    return html, utf8


def utf8_source(body: bytes, text: str, charset: str) -> bytes | None:
    """The bytes that ``text.encode("utf-8")`` would give, taken from ``body`` without
    encoding anything; None when ``body`` is no such copy.

    ``text`` and ``charset`` are what common.decode.decode_body made of ``body``. Read as
    UTF-8 with no U+FFFD in the text, no byte was replaced, so the body (after its byte
    order mark) is exactly the text's UTF-8: the parser can take it as it came, sparing
    the encode of a page it was decoded from (on a page beyond Latin-1, a twelfth of the
    extraction). A page that holds U+FFFD is parsed the careful way, which needs the text;
    so is one over FAST_MAX characters, beside whose tree a caller would rather not
    hold the body as well.
    """
    if charset != "utf-8" or len(text) > FAST_MAX or "\ufffd" in text:
        return None
    if not isinstance(body, bytes):  # a view or a buffer: the careful path translates bytes
        return None
    if body.startswith(b"\xef\xbb\xbf"):
        return body[3:]
    return body


def to_utf8(text: str | bytes, utf8: bytes | None = None) -> bytes:
    """`text` as UTF-8 without control characters, nor references to them: bytes are UTF-8 already
    (wf.extract.source.limited), and `utf8`, when given, is the text's encoding (see
    utf8_source). Lone surrogates become "?"."""
    if isinstance(text, bytes):
        data = text
    elif utf8 is not None:
        data = utf8
    else:
        data = text.encode("utf-8", "replace")
    if any(c in data for c in _CONTROL_BYTES):
        data = data.translate(None, _CONTROL)
    if b"&#" in data:
        data = _CONTROL_REF.sub(b"", data)
    return data


def parse_fast(text: str, utf8: bytes | None = None) -> Any:
    """The root of `text` parsed as it is, without the careful path's pass over every
    byte for control characters; None when only parse(to_utf8(text)) can be trusted: the
    text holds U+FFFD (a control character turns into one unseen), a lone surrogate, or
    nesting deeper than libxml2 accepts.

    Handed over as UTF-8, which libxml2 reads without conversion: a str reaches it as
    Latin-1, UTF-16 or UCS-4, which it converts at the cost of Python's encoder for the
    first two and through iconv at three times that for UCS-4 (a page with an emoji).
    `utf8`, when given, is that encoding already (see utf8_source); else the copy is made
    here, transient and at most 4 MB (FAST_MAX characters)."""
    from lxml import etree

    # U+FFFD's last byte in UTF-8 (EF BF BD) is looked for first, at memchr's speed: most
    # pages hold no 0xBD at all, and the str's search reads each character in turn.
    if (utf8 is None or b"\xbd" in utf8) and "\ufffd" in text:
        return None
    if utf8 is not None:
        data = utf8
    else:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: the careful path makes it "?"
            return None
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
    except (etree.LxmlError, ValueError):
        return None
    last = parser.error_log.last_error
    if last is not None and (last.domain_name == "IO" or _DEPTH_LIMIT_HINT in last.message):
        return None
    return root


def parse(data: bytes, late: Callable[[], bool] | None = None) -> Any:
    """The root element of `data` (UTF-8 HTML), or None when there is no element at all.
    ``late()``, whether the page's deadline has passed, is asked as a page too deep for
    libxml2 is flattened (depth.flatten)."""
    from lxml import etree

    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
    except (etree.LxmlError, ValueError):
        return None
    if root is not None and _too_deep(parser):
        try:
            root = etree.fromstring(flatten(data, late), parser)
        except (etree.LxmlError, ValueError):
            return None
    return root


def _too_deep(parser: Any) -> bool:
    return any(_DEPTH_LIMIT_HINT in e.message for e in parser.error_log)


def drop(el: Any) -> None:
    """Remove `el` but keep its tail text in place."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)


def drop_junk(root: Any, main: bool, keep: tuple[str, ...] = ()) -> None:
    """The elements never read as text (JUNK; JUNK_MAIN when reading the main content)
    removed whole, but the tags in ``keep``: the cleaning's first removal, one pass in C
    (alone, the out-of-time text of a page whose time ran out before its cleaning)."""
    from lxml import etree

    junk = JUNK_MAIN if main else JUNK
    etree.strip_elements(root, *(t for t in junk if t not in keep), with_tail=False)


def clean(
    root: Any,
    *,
    main: bool,
    jsonld: list[str] | None = None,
    og: dict[str, str] | None = None,
    keep: tuple[str, ...] = (),
    every_word: bool = False,
    declare: Callable[[], bool] | None = None,
) -> None:
    """Remove what no reader sees: junk elements and hidden ones (but the tags in
    ``keep``: images, for --images); with ``every_word``, every class word is searched
    for (unseen.parts). `jsonld` and `og`, when given, get the text of each
    JSON-LD script and the first value of each of the <meta> properties in OG_PROPERTIES
    (og:type, og:description, ...; wherever the page puts them) on the way: the same
    pass over the tree. `declare` is called once they are gathered and before anything
    is removed: the page's declarations are read from the whole of it (a microdata offer
    in a hidden box, in <meta> and <link> tags)."""

    from wf.extract import accordion, gutters, prose_buttons, radio_tabs, unseen
    from wf.extract.codetext import code_area
    from wf.extract.hidden import drop_all, drop_each, hidden_elements
    from wf.extract.hidden_alone import alone, empty_labels, menus, read_apart

    maths: list[Any] = []
    styles: list[Any] = []
    blocks: list[Any] = []
    buttons = _gather(root, jsonld, og, main, maths, styles, blocks)
    blocks = [b for b in blocks if b.tag != "textarea" or code_area(b)]
    opened = declare() if declare is not None else False
    if maths:
        from wf.extract import formulas

        formulas.render(maths)
    radio_tabs.head_panels(buttons, root, (og or {}).get("generator", ""))
    buttons = [b for b in buttons if b.tag == "button"]
    openers = [b for b in buttons if accordion.opens(b)]
    questions = accordion.questions(root, openers)
    panels: list[Any] = []
    if opened:
        titles, panels = accordion.closed_panels(openers)
        questions += titles
    # After the accordion, which renamed its questions: those are no cards.
    prose_buttons.keep_prose(buttons)
    drop_junk(root, main, keep)
    # The hidden elements and skip links' candidates (not libxml2's union: quadratic).
    hits = unseen.search(root, main, every_word)
    # Before the hidden ones: a gutter hidden from screen readers goes without the space
    # that keeps a hidden separator's neighbours apart (a line of its own in a <pre>).
    # Only a page with a code block is searched for them (the <style> elements gathered
    # stay readable once stripped: the list holds them).
    if blocks:
        drop_each(gutters.gutters(root, styles))
    # The questions' text is left out of the share of the page that is hidden: a page
    # whose text is mostly hidden is kept whole, and a few questions must not tip it.
    drop_all(hidden_elements(root, questions, hits.hidden, opened, panels))
    if main:
        drop_all(alone(root, hits.classes))
        if opened:
            from wf.extract.kinds.product_boxes import price_parts

            drop_all(empty_labels(hits.classes) + price_parts(root))
        read_apart(hits.classes)
        drop_all(menus(root, hits.noscripts))
    accordion.settle(questions)
    if main:
        unseen.drop_skip_links(hits)
        if any("ssr-variant" in h for h in hits.classes):
            from wf.extract import variants

            drop_all(variants.copies(root))


def _gather(
    root: Any,
    jsonld: list[str] | None,
    og: dict[str, str] | None,
    main: bool,
    maths: list[Any],
    styles: list[Any],
    blocks: list[Any],
) -> list[Any]:
    """One walk in C over the tags the cleaning starts from (a walk each cost as much as
    the rest of it): <noscript> expanded (_expand), JSON-LD and <meta> gathered, buttons
    around a <main> or <article> unnested (_unnest); with ``main``, the page's buttons and
    labels, in page order, for the accordion (accordion.questions), the cards drawn as
    buttons (prose_buttons.keep_prose) and CSS tabs (radio_tabs). What an expanded
    <noscript> holds is not in this walk: such a rare page is walked again for its boxes
    and buttons. Formulas (<math>, MathJax 2's math/tex scripts) go to ``maths``, <style>
    elements to ``styles``, code blocks (<pre>, <code>; a <textarea>) to ``blocks``.
    A <wbr> found here is unwrapped; an <svg> between numbers leaves a space (hidden.apart)."""
    tags = ["noscript", "main", "article", "math", "script", "wbr", "style", "pre", "code", "svg"]
    tags.append("textarea")
    if jsonld is not None:
        tags.append("meta")
    if main:
        tags += ["button", "label"]
    buttons: list[Any] = []
    expanded = breaks = False
    for el in root.iter(*tags):
        tag = el.tag
        # Scripts and <meta> first, each attribute read once: they are most of the hits.
        if tag == "script":
            # The type first: reading a script's text copies it into a str, and most
            # scripts are code, often large.
            kind = el.get("type")
            if og is not None and "documentation_options" in (el.get("src") or ""):
                # Sphinx's own script, on every page it builds: its generator's mark.
                og["generator"] = f"{og.get('generator', '')} sphinx"[-_GENERATORS_MAX:]
            if not kind:
                continue
            if kind.startswith("math/tex"):
                maths.append(el)
            elif jsonld is not None and "ld+json" in kind:
                source = el.text
                if source:
                    jsonld.append(source)
        elif tag == "meta":
            if og is not None:
                _meta(el, og)
        elif tag == "code" or tag == "pre" or tag == "textarea":
            blocks.append(el)
        elif tag == "button" or tag == "label":
            buttons.append(el)
        elif tag == "math":
            maths.append(el)
        elif tag == "style":
            styles.append(el)
        elif tag == "main" or tag == "article":
            _unnest(el)
        elif tag == "wbr":
            breaks = True
        elif tag == "svg":
            from wf.extract.hidden import apart

            apart(el)
        else:
            expanded = _expand(el) or expanded
    return _settle(root, main, buttons, expanded, breaks)


def _settle(root: Any, main: bool, buttons: list[Any], expanded: bool, breaks: bool) -> list[Any]:
    """What _gather's walk found, once it is over: the <wbr> tags unwrapped (``breaks``);
    on a page with an expanded <noscript> (``expanded``), the boxes it holds unnested and
    the buttons found again; the buttons, less those unnested (no longer one)."""
    if breaks:
        # HTML5's <wbr>, a line-break opportunity, is an empty element that libxml2's
        # HTML 4 parser does not know: it nests what follows in it, to the end of its
        # parent ("gearbox::<wbr>Widget" held "Widget"). Its tags go and their text
        # stays, in one walk in C, paid only by a page that holds one.
        from lxml import etree

        etree.strip_tags(root, "wbr")
    if expanded:
        for box in list(root.iter("main", "article")):
            _unnest(box)
        if main:
            buttons = list(root.iter("button", "label"))
    # A button unnested above (it held the page's <main>) is no longer one.
    return [b for b in buttons if b.tag == "button" or b.tag == "label"]


def _unnest(box: Any) -> None:
    """libxml2 ignores a </button> while a <div> opened inside the button is still open
    (a menu button's unclosed icon box, as a whole publisher's sites write it): the rest
    of the page then nests in the button, which cleaning removes with all of it. A button
    that holds a <main> or an <article> (``box``) is such a one: made a <div>, its text
    stays. (Found from the <main> and <article> up: from each button down, buttons
    nested in one another would read the page once each.) The walk up stops at the
    next such box, whose own call reads above it: boxes nested a thousand deep would
    each read the whole chain above them."""
    for above in box.iterancestors("button", "main", "article"):
        if above.tag != "button":
            break
        above.tag = "div"


# The <meta> properties clean() gathers: what the page says it is, whether it says when
# it was published (wf.extract.kinds.declared reads og:type article only then), what made
# it (a manual's generator: docs_tuning.DOC_GENERATORS) and its summary (og:description:
# a product's when it declares no description, declared.summarised).
OG_PROPERTIES = frozenset(("og:type", "og:description", "article:published_time", "generator"))
# A page may name several generators (Astro, then Starlight on it): all are kept, this
# many characters of them.
_GENERATORS_MAX = 200


def _meta(el: Any, og: dict[str, str]) -> None:
    """A <meta>'s property in OG_PROPERTIES to `og`, its first value (every generator's)."""
    prop = el.get("property") or el.get("name")
    if prop == "generator":
        og[prop] = f"{og.get(prop, '')} {el.get('content') or ''}"[:_GENERATORS_MAX]
    elif prop in GENERATOR_METAS:  # a generator's own <meta> stands for its name
        og["generator"] = f"{og.get('generator', '')} {GENERATOR_METAS[prop]}"[:_GENERATORS_MAX]
    elif prop in OG_PROPERTIES and prop not in og:
        og[prop] = el.get("content") or ""


def _expand(el: Any) -> bool:
    """A <noscript>'s content that a parser kept as raw text (as HTML5 parsers with
    scripting on do) parsed in place: some pages keep their whole text there. True when
    it was so expanded."""
    text = el.text
    if len(el) or not text or "<" not in text:
        return False
    fragment = parse(b"<html><body>" + to_utf8(text) + b"</body></html>")
    body = fragment.find("body") if fragment is not None else None
    if body is None:
        return False
    el.text = body.text
    for child in list(body):
        el.append(child)
    return True
