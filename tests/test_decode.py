"""common/decode.py: which charset a body is read in, in the order browsers use: a BOM,
the header's charset, <meta> (or the XML declaration), UTF-8, then windows-1252.

Each case is built so that every other step of the order would give a different text:
swapping two steps, or skipping one, fails a case here."""

from __future__ import annotations

import codecs

import pytest

from common.decode import (
    LEGACY_FALLBACK,
    charset_from_content_type,
    decode_body,
    normalise_charset,
    sniff_declared,
)

# "é" in UTF-8 (C3 A9) reads as "Г©" in windows-1251 and "Ã©" in windows-1252.
UTF8_E = "é".encode()
META_1251 = b'<meta charset="windows-1251">'


@pytest.mark.parametrize(
    "body,content_type,text,charset",
    [
        # A BOM beats the header, even a UTF header that disagrees.
        (codecs.BOM_UTF8 + UTF8_E, "text/html; charset=windows-1251", "é", "utf-8"),
        (
            codecs.BOM_UTF16_LE + "é".encode("utf-16-le"),
            "text/html; charset=utf-8",
            "é",
            "utf-16-le",
        ),
        # A BOM beats <meta>.
        (
            codecs.BOM_UTF8 + META_1251 + UTF8_E,
            "text/html",
            '<meta charset="windows-1251">é',
            "utf-8",
        ),
        # The header beats <meta>.
        (
            META_1251 + UTF8_E,
            "text/html; charset=windows-1252",
            '<meta charset="windows-1251">Ã©',
            "cp1252",
        ),
        # The header beats bytes that are valid UTF-8.
        (UTF8_E, "text/html; charset=windows-1251", "Г©", "cp1251"),
        # <meta> beats bytes that are valid UTF-8.
        (META_1251 + UTF8_E, "text/html", '<meta charset="windows-1251">Г©', "cp1251"),
        (META_1251 + UTF8_E, None, '<meta charset="windows-1251">Г©', "cp1251"),
        # So does an XML declaration.
        (
            b'<?xml version="1.0" encoding="windows-1251"?><a>' + UTF8_E + b"</a>",
            "application/xml",
            '<?xml version="1.0" encoding="windows-1251"?><a>Г©</a>',
            "cp1251",
        ),
        # Nothing declared: UTF-8 when the bytes are UTF-8 ...
        (b"<p>caf" + UTF8_E + b"</p>", "text/html", "<p>café</p>", "utf-8"),
        # ... and windows-1252 when they are not.
        (b"<p>caf\xe9 na\xefve \x80</p>", "text/html", "<p>café naïve €</p>", LEGACY_FALLBACK),
    ],
)
def test_the_order_of_the_sources(
    body: bytes, content_type: str | None, text: str, charset: str
) -> None:
    assert decode_body(body, content_type) == (text, charset)


def test_a_bom_is_not_part_of_the_text() -> None:
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        text, charset = decode_body(bom + "ab".encode(codec))
        assert (text, charset) == ("ab", codec)


def test_labels_that_name_a_subset_decode_as_the_superset() -> None:
    # Browsers read ISO-8859-1 and ASCII as windows-1252: 0x80 is the euro sign there.
    for label in ("iso-8859-1", "latin1", "us-ascii"):
        assert decode_body(b"\x80", f"text/plain; charset={label}") == ("€", "cp1252")
    assert normalise_charset("GBK") == "gb18030"


@pytest.mark.parametrize("label", ["utf-7", "x-no-such-charset", "rot13", "base64", ""])
def test_a_label_that_is_no_charset_is_passed_over(label: str) -> None:
    # The next source decides: here <meta>.
    assert charset_from_content_type(f"text/html; charset={label}") is None
    assert decode_body(META_1251 + UTF8_E, f"text/html; charset={label}")[1] == "cp1251"


def test_a_declared_utf16_without_nul_bytes_is_not_believed() -> None:
    assert decode_body(b"<p>plain</p>", "text/html; charset=utf-16") == ("<p>plain</p>", "utf-8")
    # An ASCII <meta> cannot be UTF-16 either: the page is read as UTF-8.
    assert sniff_declared(b'<meta charset="utf-16"><p>x</p>') == "utf-8"


def test_utf8_with_a_stray_byte_stays_utf8() -> None:
    body = ("naïve résumé " * 3).encode() + b"\xff"
    text, charset = decode_body(body)
    assert charset == "utf-8" and text.startswith("naïve résumé") and text.endswith("\ufffd")


def test_a_page_that_says_utf8_but_is_legacy_reads_as_windows_1252() -> None:
    assert decode_body(b"caf\xe9", "text/html; charset=utf-8") == ("café", LEGACY_FALLBACK)


def test_meta_is_looked_for_only_in_the_first_4_kib() -> None:
    late = b" " * 4096 + META_1251 + UTF8_E
    assert sniff_declared(late) is None
    assert decode_body(late, "text/html")[1] == "utf-8"


# ---------------------------------------------------------------- bytes for the parser


@pytest.mark.parametrize(
    "body,content_type",
    [
        (b"<p>plain ascii</p>", None),
        ("<p>caf\u00e9 \U0001f600</p>".encode(), "text/html; charset=utf-8"),
        ("<p>caf\u00e9</p>".encode(), "text/html"),
        # A character cut by the 1 MiB steps of the check is still one character.
        (b"a" * ((1 << 20) - 1) + "\U0001f600".encode() + b"b", None),
    ],
)
def test_valid_utf8_goes_to_the_parser_as_its_bytes(body, content_type):
    from common.decode import decode_for_parser

    data, charset = decode_for_parser(body, content_type)
    assert data is body and charset == "utf-8"
    assert data.decode() == decode_body(body, content_type)[0]


def test_a_utf8_bom_is_left_out_of_the_bytes():
    from common.decode import decode_for_parser, utf8_bytes

    body = codecs.BOM_UTF8 + "<p>\U0001f600</p>".encode()
    assert decode_for_parser(body, "text/html; charset=windows-1252") == (body[3:], "utf-8")
    assert utf8_bytes(body) == (body[3:], "the byte order mark")


@pytest.mark.parametrize(
    "body,content_type",
    [
        # Bytes that are not valid UTF-8: replaced, or read as windows-1252.
        (b"<p>caf\xe9</p>", "text/html; charset=utf-8"),
        (b"<p>" + "\U0001f600".encode()[:3] + b"</p>", None),
        (b"<p>" + "\U0001f600".encode()[:3], None),  # a sequence cut at the end
        # Another charset named: the header, or <meta> when the header names none.
        ("<p>caf\u00e9</p>".encode(), "text/html; charset=windows-1251"),
        (META_1251 + UTF8_E, None),
        # The header says UTF-8, <meta> says otherwise: the bytes alone would be read as
        # windows-1251, so the parser gets the text decode_body gives.
        (META_1251 + UTF8_E, "text/html; charset=utf-8"),
        (codecs.BOM_UTF16_LE + "\u00e9".encode("utf-16-le"), None),
    ],
)
def test_anything_else_goes_to_the_parser_as_decode_body_reads_it(body, content_type):
    from common.decode import decode_for_parser

    assert decode_for_parser(body, content_type) == decode_body(body, content_type)


def test_bytes_for_the_parser_read_the_same_without_their_header():
    # What extraction is handed it reads again without the header (wf.extract.core):
    # bytes come back only when that reading is UTF-8 too.
    from common.decode import decode_for_parser, utf8_bytes

    for body, content_type in [
        (META_1251 + UTF8_E, "text/html; charset=utf-8"),
        (b'<meta charset="utf-8">' + UTF8_E, "text/html; charset=utf-8"),
        (codecs.BOM_UTF8 + codecs.BOM_UTF8 + UTF8_E, None),
        (codecs.BOM_UTF8 + META_1251 + UTF8_E, None),
    ]:
        data, _ = decode_for_parser(body, content_type)
        if isinstance(data, bytes):
            found = utf8_bytes(data)
            assert found is not None and found[0] is data
        else:
            assert data == decode_body(body, content_type)[0]


@pytest.mark.parametrize(
    "body,content_type",
    [
        (b"<p>plain ascii</p>", None),
        ("<p>caf\u00e9 \U0001f600</p>".encode(), "text/html; charset=utf-8"),
        (codecs.BOM_UTF8 + "<p>\U0001f600</p>".encode(), "text/html; charset=windows-1252"),
        (codecs.BOM_UTF8 + codecs.BOM_UTF8 + UTF8_E, None),
        (b"<p>caf\xe9</p>", "text/html; charset=utf-8"),
        (b"<p>" + "\U0001f600".encode()[:3], None),
        ("<p>caf\u00e9</p>".encode(), "text/html; charset=windows-1251"),
        (META_1251 + UTF8_E, "text/html; charset=utf-8"),
        (codecs.BOM_UTF16_LE + "\u00e9".encode("utf-16-le"), None),
    ],
)
def test_utf8_text_is_utf8_bytes_decoded_in_one_step(body, content_type):
    # wf.extract.core reads a small body with utf8_text: the decode is the check, where
    # utf8_bytes checks a big one without holding its str.
    from common.decode import utf8_bytes, utf8_text

    found, text = utf8_bytes(body, content_type), utf8_text(body, content_type)
    if found is None:
        assert text is None
    else:
        assert text == (found[0].decode("utf-8"), found[1])
        assert text[0] == decode_body(body, content_type)[0]
