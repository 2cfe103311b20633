"""wf/markdown_answer.py: the Accept header that asks for Markdown, which answers are
Markdown, and the front matter of one read as wf's metadata (flat key: value lines;
quoted, commented and list values; nested blocks skipped; bounds; hostile values)."""

from __future__ import annotations

import pytest

from wf.markdown_answer import (
    ACCEPT_MARKDOWN,
    MAX_CHARS,
    MAX_LINES,
    is_markdown,
    metadata,
    split,
)

DOC = """---
title: "Install: the \\"quick\\" way"
description: Set up in 5 minutes # a comment
authors: [Ada Lovelace, Charles Babbage]
date: 2024-03-01
lastmod: '2024-04-02'
tags:
  - setup
  - cli
image: /img/cover.png
canonical: javascript:alert(1)
sidebar:
  title: Nested, not ours
Title: second title is not taken
---
# Install

Run it.
"""


def test_the_accept_header() -> None:
    assert ACCEPT_MARKDOWN == "text/markdown, text/html;q=0.9, */*;q=0.8"


@pytest.mark.parametrize(
    ("content_type", "expected"),
    [
        ("text/markdown", True),
        ("Text/Markdown; charset=utf-8", True),
        ("text/x-markdown", True),
        ("text/plain", False),
        ("text/html", False),
        (None, False),
    ],
)
def test_is_markdown(content_type: str | None, expected: bool) -> None:
    assert is_markdown(content_type) is expected


def test_split_reads_flat_pairs_and_returns_the_rest() -> None:
    pairs, rest = split(DOC)
    assert pairs == {
        "title": 'Install: the "quick" way',
        "description": "Set up in 5 minutes",
        "authors": "Ada Lovelace",
        "date": "2024-03-01",
        "lastmod": "2024-04-02",
        "image": "/img/cover.png",
        "canonical": "javascript:alert(1)",
    }
    assert rest == "# Install\n\nRun it.\n"


def test_metadata_from_front_matter() -> None:
    got = metadata(DOC, "https://docs.example/guide/install.md")
    assert got == {
        "title": 'Install: the "quick" way',
        "author": "Ada Lovelace",
        "date": "2024-03-01",
        "modified": "2024-04-02",
        "sitename": None,
        "lang": None,
        "description": "Set up in 5 minutes",
        "canonical_url": None,  # not http(s)
        "image": "https://docs.example/img/cover.png",
        "type": None,
    }


@pytest.mark.parametrize(
    "text",
    [
        "# No front matter\n---\ntitle: x\n---\n",
        " ---\ntitle: x\n---\n",  # not at the very start
        "---\ntitle: never closed\n\nbody",
        "",
    ],
)
def test_no_front_matter(text: str) -> None:
    assert split(text) == ({}, text)
    assert set(metadata(text, None).values()) == {None}


def test_crlf_bom_and_the_dots_end() -> None:
    pairs, rest = split("\ufeff---\r\ntitle: Windows\r\n...\r\nbody\r\n")
    assert pairs == {"title": "Windows"}
    assert rest == "body\r\n"


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("title: plain words", "plain words"),
        ("title: 'it''s quoted'", "it's quoted"),
        ('title: "tab\\tand \\\\ slash"', "tab and \\ slash"),
        ("title: ~", None),
        ("title: null", None),
        ("title: |", None),  # a block scalar: not read
        ("title: >-", None),
        ("title: {a: 1}", None),
        ("title: &anchor x", None),
        ("title: [unclosed", None),
        ("title: []", None),
        ('title: "unclosed', None),
        ("title:", None),
        ("title:no-space-is-a-plain-key-value", None),
        ("title: a#b stays", "a#b stays"),
    ],
)
def test_scalars(line: str, value: str | None) -> None:
    assert metadata(f"---\n{line}\n---\n", None)["title"] == value


def test_values_are_one_line_and_capped() -> None:
    got = metadata('---\ntitle: "a\\nb \u202e c"\ndescription: ' + "x" * 5000 + "\n---\n", None)
    assert got["title"] is not None and "\n" not in got["title"] and "\u202e" not in got["title"]
    assert got["description"] is not None and len(got["description"]) == 1000


def test_bounds() -> None:
    many = "---\n" + "k: v\n" * (MAX_LINES + 5) + "title: late\n---\n"
    assert split(many) == ({}, many)
    big = "---\ndescription: " + "x" * MAX_CHARS + "\n---\n"
    assert split(big) == ({}, big)
