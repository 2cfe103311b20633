"""wf/extract/datatext.py: paragraphs that are data (an address alone, a JSON document)
are no text, but with --full; code blocks and prose that quotes JSON stay."""

from __future__ import annotations

import json

from wf.extract import extract
from wf.extract.datatext import is_data

PROSE = (
    "The harbour master keeps the tide tables for every berth along the eastern quay, "
    "and the pilots read them each morning before the first ships come in. "
)
OFFER = json.dumps({"buybox": [{"displayPrice": "EUR 15.49", "priceAmount": 15.49, "asin": "X1"}]})


def _page(box: str) -> str:
    return (
        "<html><head><title>Tide clock</title></head><body><main><h1>Brass tide clock</h1>"
        f"<p>{PROSE * 3}</p>{box}<p>{PROSE}</p></main></body></html>"
    )


def test_a_json_document_written_as_a_boxs_text_is_not_printed():
    # A shop's scripts read their offers from a box the stylesheet hides by its class.
    html = _page(f"<div class='a-section aok-hidden price-data'>{OFFER}</div>")
    assert "displayPrice" not in extract(html, url="https://shop.example/p").text
    assert "displayPrice" in extract(html, url="https://shop.example/p", full=True).text


def test_json_in_a_code_block_or_a_sentence_stays():
    code = f"<pre><code class='language-json'>{OFFER}</code></pre>"
    sentence = f"<p>The service answers {OFFER} for each offer.</p>"
    text = extract(_page(code + sentence), url="https://docs.example/api").text
    assert text.count("displayPrice") == 2


def test_what_is_data():
    assert is_data(OFFER) and is_data("https://example.com/a/permalink")
    assert is_data('[{"id": 1, "name": "first"}, {"id": 2, "name": "second"}]')
    assert not is_data("[1]") and not is_data("{beta}")  # short labels, not data
    assert not is_data("{" + PROSE + "}")  # braces around prose: not JSON
    assert not is_data('{"a": 1} and then some words follow the object here, as prose.')
    assert not is_data("[]" + " " * 40 + "[]")
    # Hostile nesting is not data and raises nothing (the parser's recursion limit).
    assert not is_data("[" * 100_000 + "]" * 100_000)
