"""wf/extract/source.py: the page as the parser is handed it, within the parse limits,
as text and as the UTF-8 the limits were checked on."""

from __future__ import annotations

from common.parse_limits import MAX_ATTRIBUTES_PER_ELEMENT
from wf.extract import extract_text
from wf.extract.core import run
from wf.extract.source import limited

PAGE = "<html><body><article><p>Caf\u00e9 \u2014 a paragraph of prose.</p></article></body></html>"


def _many_attributes(n: int) -> str:
    attrs = " ".join(f"data-a{i}=x" for i in range(n))
    return f"<html><body><p {attrs}>Caf\u00e9 \u2014 text after many attributes.</p></body></html>"


def test_text_is_handed_on_with_its_utf8():
    text, utf8, cut = limited(PAGE, None)
    assert text is PAGE and utf8 == PAGE.encode("utf-8")
    assert not cut.notes()


def test_bytes_of_utf8_are_handed_on_as_they_came():
    body = PAGE.encode("utf-8")
    text, utf8, _ = limited(body, None)
    assert text == PAGE and utf8 is body


def test_a_lone_surrogate_leaves_the_text_without_utf8():
    page = PAGE.replace("Caf\u00e9", "Caf\ud800")
    text, utf8, _ = limited(page, None)
    assert text is page and utf8 is None
    assert "paragraph of prose" in extract_text(page)


def test_a_cut_page_is_its_cut_utf8_and_that_decoded():
    page = _many_attributes(MAX_ATTRIBUTES_PER_ELEMENT + 100)
    text, utf8, cut = limited(page, None)
    assert isinstance(text, str) and utf8 == text.encode("utf-8")
    assert cut.attributes == 100 and cut.elements == 1
    assert text.count("data-a") == MAX_ATTRIBUTES_PER_ELEMENT
    assert "Caf\u00e9 \u2014 text after many attributes." in text


def test_a_cut_page_reads_the_same_from_text_and_from_bytes():
    page = _many_attributes(MAX_ATTRIBUTES_PER_ELEMENT + 100)
    from_text = run(page, url=None, full=False, markers=False, want_links=False)
    from_bytes = run(page.encode(), url=None, full=False, markers=False, want_links=False)
    assert from_text.text == from_bytes.text == "Caf\u00e9 \u2014 text after many attributes."
    assert from_text.notes == from_bytes.notes
    assert from_text.notes and "100 attributes dropped from 1 element" in from_text.notes[0]


def test_the_fast_parse_takes_no_page_with_a_replacement_character_whatever_its_utf8():
    # parse_fast looks for U+FFFD's last UTF-8 byte (0xBD) in the bytes first; Cyrillic's
    # "н" (D0 BD) holds that byte too and must not be taken for one, nor hide one.
    from wf.extract.parse import parse_fast

    for words in ("plain", "\u043d\u0435\u0442", "\u00bd cup"):
        page = f"<html><body><p>{words}</p></body></html>"
        root = parse_fast(page, page.encode("utf-8"))
        assert root is not None and root.findtext(".//p") == words
        assert parse_fast(page) is not None
        broken = page.replace("</p>", "\ufffd</p>")
        assert parse_fast(broken, broken.encode("utf-8")) is None
        assert parse_fast(broken) is None
