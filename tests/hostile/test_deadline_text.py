"""The deadline asked as text is written and cleaned after the bytes: the text policy
(common/text.py) a slice at a time through every step, the Markdown writer's collapse of
huge text nodes (wf/extract/spaces.py, markdown.py), and the cleaning for output
(wf/view.py). Where every other character is to go, each pass over 10 MB took 0.25-0.5 s
between two asks, and 20 paragraphs of 500 KB were written in 0.4 s between two.
Counted asks and deadlines already past, never timing."""

from __future__ import annotations

import random
import re
import time

import pytest

from common import text
from tests.helpers import Asks
from wf.extract import markdown, spaces
from wf.extract.records import OutOfTime
from wf.view import PageResult, printable_in_time

ALPHABET = ["a", "ب", "\u200c", "\u200d", " ", "\U0001f468", "\u202e", "क", "\x1b", "\r", "\u2028"]


@pytest.mark.parametrize("slice_", [3, 17])
def test_a_long_text_is_cleaned_a_slice_at_a_time_asking_between_them(monkeypatch, slice_):
    monkeypatch.setattr(text, "_SLICE", slice_)
    rnd = random.Random(slice_)
    for _ in range(300):
        page = "".join(rnd.choices(ALPHABET, k=rnd.randint(0, 200)))
        whole = text.clean_text(page)
        assert text.clean_text(page, late := Asks()) == whole
        cut_at = rnd.randint(1, 6)
        if late.asks < cut_at:
            continue  # too short to be asked that often
        with pytest.raises(text.OutOfTime) as cut:
            text.clean_text(page, Asks(from_ask=cut_at))
        # What was cleaned is the policy's text of what was read, a start of the whole:
        # cut before a character no step changes, seen as the neighbour it is, or before
        # the first that one may change.
        read, done = cut.value.read, cut.value.done
        assert 0 < read < len(page) and whole.startswith(done)
        if not re.search(text._MAY_CHANGE, page[:read]):
            assert done == page[:read]
        else:
            assert done == text.clean_text(page[: read + 1])[:-1]


def test_a_text_where_every_other_character_goes_asks_once_a_slice():
    page = "a\u200b" * (2 * text._SLICE)  # four slices
    assert text.clean_text(page, late := Asks()) == "a" * (2 * text._SLICE)
    assert late.asks == 3
    with pytest.raises(text.OutOfTime) as cut:
        text.clean_text(page, Asks(from_ask=1))
    assert cut.value.read <= text._SLICE + 1 and cut.value.done == "a" * (cut.value.read // 2)


def test_the_text_for_output_past_the_deadline_is_what_was_cleaned_and_a_note():
    page = "ж\u200b" * text._SLICE  # two slices
    result = PageResult(url="https://x.example/")
    said: list[str] = []
    shown = printable_in_time(result, page, time.monotonic() - 1, said.append)
    read = text._SLICE  # the first slice: up to the first "ж" past _SLICE characters
    assert shown == "ж" * (read // 2)
    note = f"out of time while the text was cleaned for output: the first {read} of its {len(page)} characters"
    assert result.notes == [note] and said == [f"note: {note}"]
    result = PageResult(url="https://x.example/")
    assert printable_in_time(result, page, time.monotonic() + 60, said.append) == "ж" * text._SLICE
    assert result.notes == []


def test_a_huge_text_node_is_collapsed_asking_between_chunks_and_slices(monkeypatch):
    monkeypatch.setattr(spaces, "CHUNK", 1_000)
    node = "жa\u200b " * 5_000  # 20 chunks of non-ASCII text with characters to remove
    assert spaces.collapse_run([node], late := Asks()) == " ".join(["жa"] * 5_000)
    assert late.asks >= 19
    with pytest.raises(OutOfTime):
        spaces.collapse_run([node], Asks(from_ask=3))
    monkeypatch.setattr(text, "_SLICE", 100)  # the policy's own asks, inside one chunk
    with pytest.raises(OutOfTime):
        spaces.collapse_run(["ж\u200b" * 800_000], Asks(from_ask=2))


def test_the_writer_asks_the_deadline_as_it_writes_long_texts(monkeypatch):
    from lxml import etree

    asks: list[float | None] = []
    real = markdown.check_time
    monkeypatch.setattr(markdown, "check_time", lambda d: asks.append(d) or real(d))
    # Eight paragraphs of 100 000 characters: eight elements, far from 1 024, and no ask
    # before; 800 000 characters written are two asks now (after 300 000 and 600 000).
    body = etree.fromstring(
        "<body>" + "<p>word word</p>".replace("word word", "word " * 20_000) * 8 + "</body>"
    )
    out = markdown.MarkdownWriter(deadline=time.monotonic() + 60).write(body)
    assert out.count("word") == 160_000
    assert len(asks) == 2
    asks.clear()
    with pytest.raises(OutOfTime):
        markdown.MarkdownWriter(deadline=time.monotonic() - 1).write(body)
    assert len(asks) == 1
