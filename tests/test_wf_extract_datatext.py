"""wf/extract/datatext.py: paragraphs that are data (an address alone, a JSON document)
or a card's control alone ("Compare", "Quick view") are no text, but with --full; code
blocks, prose that quotes JSON, and headings or lines that say more than a control stay."""

from __future__ import annotations

import json

from wf.extract import extract
from wf.extract.datatext import is_control, is_data

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


_KETTLES = ("Copper kettle", "Stone kettle", "Glass kettle", "Steel kettle", "Clay kettle")


def _ranking(control: str) -> str:
    cards = "".join(
        f"<div class='card'><h3><a href='/k/{n}'>{name}</a></h3>"
        f"<p>Boils a litre in {n + 2} minutes and keeps it warm for an hour.</p>"
        f"<div class='tick'><input type='checkbox'><span>{control}</span></div></div>"
        for n, name in enumerate(_KETTLES)
    )
    return (
        "<html><head><title>Kettles</title></head><body><main><h1>Kettles ranked</h1>"
        f"<p>{PROSE}</p><div class='grid'>{cards}</div></main></body></html>"
    )


def test_a_cards_control_alone_on_its_line_is_not_printed():
    # A ranking prints a box to tick under each item: "Compare", once per card.
    html = _ranking("Compare")
    text = extract(html, url="https://rank.example/kettles").text
    assert "Compare" not in text
    assert all(name in text for name in _KETTLES) and "keeps it warm" in text
    assert extract(html, url="https://rank.example/kettles", full=True).text.count("Compare") == 5


def test_a_line_that_says_more_than_a_control_stays():
    text = extract(_ranking("Compare with the copper one"), url="https://rank.example/k").text
    assert text.count("Compare with the copper one") == 5


def test_what_is_a_control():
    assert is_control("Compare") and is_control(" Quick View ") and is_control("Add to cart")
    assert is_control("Ajouter au panier") and is_control("In den Warenkorb")
    assert not is_control("Compare plans") and not is_control("Add Moab 3 to Compare")
    assert not is_control("compare " * 10)  # longer than any control's label
