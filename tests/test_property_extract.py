"""Property tests of extraction and decoding: for generated HTML (random trees, random
bytes, random encodings, lying charsets) decode_body, classify and extract return
strings and never raise; the text wf prints from it has no control characters."""

from __future__ import annotations

import html
import json
import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from common.decode import decode_body
from wf.extract import Extracted, extract, names, tuning, verdicts
from wf.sniff import classify
from wf.view import printable

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Trees cost more to draw than to extract: fewer of them, each a bigger test.
TREES = settings(SETTINGS, max_examples=40)

TAGS = [
    "div",
    "p",
    "span",
    "a",
    "b",
    "i",
    "em",
    "strong",
    "h1",
    "h2",
    "h3",
    "ul",
    "ol",
    "li",
    "table",
    "tr",
    "td",
    "th",
    "pre",
    "code",
    "blockquote",
    "article",
    "main",
    "nav",
    "header",
    "footer",
    "aside",
    "section",
    "script",
    "style",
    "template",
    "noscript",
    "svg",
    "math",
    "iframe",
    "form",
    "button",
    "br",
    "hr",
    "img",
    "figure",
    "figcaption",
    "dl",
    "dt",
    "dd",
    "select",
    "option",
    "textarea",
    "details",
    "summary",
    "custom-el",
    "x:y",
    "html",
    "body",
    "head",
    "title",
    "meta",
    "base",
]
ATTRS = st.sampled_from(
    [
        'class="content"',
        'class="nav menu"',
        'id="main"',
        'style="display:none"',
        "hidden",
        'aria-hidden="true"',
        'href="/x"',
        'href="javascript:alert(1)"',
        'href="http://[::1"',
        'href="//evil.example/%zz"',
        'href="\x00"',
        'src="a.png"',
        'role="navigation"',
        'dir="rtl"',
        'lang="ar"',
        'charset="utf-16"',
        'content="text/html; charset=koi8-r"',
        'http-equiv="content-type"',
        "title='&#x0;&#xD800;&#1114112;'",
        'colspan="999999999"',
    ]
)
TEXT = st.text(
    alphabet=st.characters(codec=None, exclude_categories=()),  # surrogates and controls too
    max_size=40,
)
ENTITIES = st.sampled_from(
    [
        "&amp;",
        "&lt;",
        "&#0;",
        "&#x1b;",
        "&#xD800;",
        "&#1114112;",
        "&nbsp;",
        "&notanentity;",
        "&",
        "&#",
        "&#x;",
        "<!--",
        "-->",
        "<![CDATA[x]]>",
        "<?php ?>",
        "<!doctype html>",
        "</",
        "<",
        ">",
        "\x00",
        "\ufeff",
    ]
)


@st.composite
def html_tree(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 6 or draw(st.integers(0, 3)) == 0:
        return draw(st.one_of(TEXT, ENTITIES))
    tag = draw(st.sampled_from(TAGS))
    attrs = " ".join(draw(st.lists(ATTRS, max_size=3)))
    children = "".join(draw(st.lists(html_tree(depth + 1), max_size=4)))
    close = draw(st.sampled_from([f"</{tag}>", f"</{tag}>", "", "</div>", "</p"]))
    return f"<{tag} {attrs}>{children}{close}"


def _check(result: Extracted) -> None:
    assert isinstance(result, Extracted)
    assert isinstance(result.text, str)
    assert result.title is None or isinstance(result.title, str)
    for link in result.links:
        assert isinstance(link.text, str) and isinstance(link.url, str)
    shown = printable(result.text)
    assert not any(ord(c) < 32 and c not in "\t\n" or 0x7F <= ord(c) <= 0x9F for c in shown)
    shown.encode("utf-8", "surrogateescape")


@TREES
@given(
    html_tree(),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, "https://a.example/x/", "http://[::1"]),
)
def test_generated_trees_extract_to_text(
    html: str, full: bool, markers: bool, url: str | None
) -> None:
    _check(extract(html, url=url, full=full, link_markers=markers))


@SETTINGS
@given(st.binary(max_size=2000), st.booleans())
def test_random_bytes_extract_to_text(body: bytes, full: bool) -> None:
    _check(extract(body, full=full))


@SETTINGS
@given(st.binary(max_size=2000), st.booleans())
def test_bytes_extract_as_the_text_they_decode_to(body: bytes, full: bool) -> None:
    # Bytes that are their text's UTF-8 go to the parser as they came (utf8_source): the
    # result is the same as from the decoded text, which is encoded for the parser.
    assert extract(body, full=full) == extract(decode_body(body)[0], full=full)


@SETTINGS
@given(
    st.lists(
        st.sampled_from(["<p>", "</p>", "<b>", "<br>", "\ufffd", "\x00", "\x07", "\ufeff"])
        | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
        max_size=30,
    ),
    st.booleans(),
)
def test_text_with_its_utf8_extracts_as_the_text_alone(pieces: list[str], bom: bool) -> None:
    from wf.extract.parse import utf8_source

    text = "".join(pieces)
    # As decode_body reads bytes: a leading byte order mark is no part of the text.
    assume(bom or not text.startswith("\ufeff"))
    body = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
    assert extract(text, utf8=utf8_source(body, text, "utf-8")) == extract(text)


CODECS = [
    "utf-8",
    "utf-16",
    "utf-16-le",
    "utf-16-be",
    "utf-32",
    "cp1252",
    "iso-8859-5",
    "koi8-r",
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
    "gb18030",
    "big5",
    "euc-kr",
    "cp437",
    "mac-roman",
]
LABELS = st.one_of(
    st.sampled_from(CODECS + ["x-bogus", "utf-7", "rot13", "", "utf-8\x00", "latin1"]),
    st.text(max_size=12),
)


@TREES
@given(html_tree(), st.sampled_from(CODECS), LABELS, LABELS, st.booleans())
def test_text_in_any_encoding_with_any_declared_charset(
    html: str, codec: str, header: str, meta: str, bom: bool
) -> None:
    page = f'<html><head><meta charset="{meta}"></head><body>{html}</body></html>'
    body = page.encode(codec, "replace")
    if bom and codec.startswith("utf-16"):
        body = b"\xff\xfe" + page.encode("utf-16-le", "replace")
    content_type = f"text/html; charset={header}"
    kind, mime = classify(content_type, body)
    assert kind in ("html", "pdf", "text", "binary", "empty") and isinstance(mime, str)
    text, charset = decode_body(body, content_type)
    assert isinstance(text, str) and isinstance(charset, str)
    _check(extract(text, url="https://a.example/"))


@SETTINGS
@given(st.binary(max_size=3000), st.text(max_size=60))
def test_decode_and_classify_take_any_bytes_and_any_content_type(
    body: bytes, content_type: str
) -> None:
    kind, mime = classify(content_type, body)
    assert kind in ("html", "pdf", "text", "binary", "empty")
    text, charset = decode_body(body, content_type)
    assert isinstance(text, str) and charset


@settings(max_examples=20, deadline=None)
@given(
    st.integers(1, 20_000), st.sampled_from(["div", "b", "table", "li", "a", "span"]), st.booleans()
)
def test_deep_nesting_extracts(depth: int, tag: str, closed: bool) -> None:
    html = f"<{tag}>" * depth + "deep text" + (f"</{tag}>" * depth if closed else "")
    result = extract(html)
    _check(result)
    assert "deep text" in result.text


JSON_KEYS = ["@type", "@graph", "headline", "name", "author", "datePublished", "dateModified"]
JSON_KEYS += ["image", "url", "publisher", "mainEntity", "mainEntityOfPage", "inLanguage"]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | TEXT
    | st.sampled_from(["NewsArticle", "Product", "WebPage", "2024-02-30T25:61", "/rel"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(JSON_KEYS), inner, max_size=5)
    ),
    max_leaves=12,
)
META_NAMES = ["og:title", "author", "article:published_time", "og:image", "description"]


@TREES
@given(
    st.lists(st.one_of(JSON_VALUES.map(json.dumps), TEXT, ENTITIES), max_size=3),
    st.lists(st.tuples(st.sampled_from(META_NAMES), TEXT), max_size=4),
    html_tree(),
    st.sampled_from([None, "https://a.example/x/", "http://[::1"]),
)
def test_generated_metadata_is_every_key_one_clean_line(
    scripts: list[str], metas: list[tuple[str, str]], body: str, url: str | None
) -> None:
    from common.text import one_line
    from wf.extract.metadata import KEYS, MAX_VALUE_CHARS

    head = "".join(f'<script type="application/ld+json">{s}</script>' for s in scripts)
    head += "".join(f'<meta property="{n}" content="{html.escape(v)}">' for n, v in metas)
    result = extract(f"<html><head>{head}</head><body>{body}</body></html>", url=url, metadata=True)
    _check(result)
    assert result.metadata is not None and list(result.metadata) == list(KEYS)
    for key, value in result.metadata.items():
        if value is None:
            continue
        assert value == one_line(value) and 0 < len(value) <= MAX_VALUE_CHARS
        value.encode("utf-8")  # no lone surrogate
        if key in ("canonical_url", "image"):
            assert value.startswith(("http://", "https://"))


def test_boilerplate_names_grouped_by_letter_match_as_the_plain_alternation() -> None:
    """The class-name regex is built grouped by first letter for speed: it must find the
    same names at the same places as the plain alternation of the same words, on every
    word alone and every pair of them, joined or hyphenated."""
    plain = re.compile(
        "|".join(tuning.NEGATIVE_STEMS)
        + "|(?<![a-z])(?:"
        + "|".join(tuning.NEGATIVE_WORDS)
        + ")(?![a-z])"
    )
    words = [w.replace("(?!ary)", "") for w in tuning.NEGATIVE_STEMS + tuning.NEGATIVE_WORDS]
    words += ["x", "has-", "header", "commentary", "1"]
    tokens = [*words, *(a + sep + b for a in words for b in words for sep in ("", "-"))]
    for token in tokens:
        found = [(m.start(), m.group()) for m in names._NEGATIVE.finditer(token)]
        assert found == [(m.start(), m.group()) for m in plain.finditer(token)], token


# Letters whose case folds reach the ASCII ones (the Kelvin sign, the long s, the dotted
# and dotless i), accented ones, and the words of the case-blind patterns in mixed case.
_CASE_TEXT = st.lists(
    st.sampled_from(
        [
            *"aeiksAEIKS \t-_:;\u212a\u017f\u0130\u0131\u00ed\u00cd\u00e9",
            "SubScribe",
            "NEWSLETTER",
            "Follow Us",
            "suscrÍbete",
            "Cookie",
            "COMMENTARY",
            "Comments",
            "CMP",
            "klaro",
            "Display : None",
            "AUTHOR",
        ]
    ),
    max_size=12,
).map("".join)


@given(_CASE_TEXT)
def test_case_blind_patterns_find_what_ignorecase_finds(text: str) -> None:
    """verdicts.CaseBlind searches ASCII text lowered, without re.IGNORECASE: its verdict is
    the case-blind search's on every text, ASCII or not."""
    from wf.extract.markdown_tuning import CALLS_TO_ACTION

    for pattern in (verdicts.CaseBlind(CALLS_TO_ACTION), names._NEVER_CONTENT):
        expected = re.compile(pattern._exact.pattern, re.IGNORECASE).search(text) is not None
        assert pattern.found(text) is expected, (pattern._exact.pattern[:40], text)
