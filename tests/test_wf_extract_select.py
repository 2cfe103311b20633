"""wf/extract/select.py: --select and --remove over a parsed page. Selectors checked
without lxml (an invalid one is a usage error), the matched elements kept outermost-first
in document order, removed ones gone with their tail text kept, no match loud (NoMatch)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from lxml import etree

from common.errors import NoMatch, UsageError
from wf.extract import parse
from wf.extract.select import apply, check, remove, select, to_xpath

PAGE = b"""<html><head><title>T</title></head><body>
<nav id="top">menu</nav>
<DIV CLASS="post"><p>first post</p><aside class="ad">buy</aside>after ad</DIV>
<section><div class="post">second post<div class="post">nested</div></div></section>
<footer>foot</footer>
</body></html>"""


def tree() -> etree._Element:
    root = parse.parse(PAGE)
    assert root is not None
    return root


def body_html(root: etree._Element) -> str:
    body = root.find("body")
    assert body is not None
    return etree.tostring(body, encoding="unicode", method="html")


@pytest.mark.parametrize(
    "selector",
    ["div.post", "article, main", "#top > a[href^='/x']", "li:nth-child(2n+1)", "p:not(.x)", "*"],
)
def test_valid_selectors_pass(selector: str) -> None:
    assert check([selector], "--select") == (selector,)


@pytest.mark.parametrize(
    ("selector", "words"),
    [
        ("div[", "is not a CSS selector wf can match"),
        ("p::text", "is not a CSS selector wf can match"),  # a pseudo-element
        ("a:nosuch", "is not a CSS selector wf can match"),  # an unknown pseudo-class
        ("}", "is not a CSS selector wf can match"),
        ("", "takes a CSS selector, not an empty string"),
        ("   ", "takes a CSS selector, not an empty string"),
        ("a" * 1001, "a selector of at most 1000 characters"),
    ],
)
def test_invalid_selectors_are_usage_errors(selector: str, words: str) -> None:
    with pytest.raises(UsageError) as err:
        check(["p", selector], "--remove")
    assert err.value.code == 2
    assert words in err.value.message
    assert err.value.message.startswith("--remove")


def test_check_needs_no_lxml() -> None:
    code = (
        "import sys\nfrom wf.extract.select import check\ncheck(['div.a > p'], '--select')\n"
        "assert 'lxml' not in sys.modules, 'lxml imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_select_keeps_outermost_matches_in_document_order() -> None:
    root = tree()
    # The later selector's match comes first in the page: document order wins.
    assert select(root, ["div.post", "nav"]) == 3
    html = body_html(root)
    assert html.index("menu") < html.index("first post") < html.index("second post")
    assert html.count("nested") == 1  # inside the second post, not twice
    assert "foot" not in html and "<section>" not in html


def test_select_matches_whatever_the_case_of_the_page() -> None:
    root = tree()
    select(root, ["DIV.post"])
    assert "first post" in body_html(root)


def test_select_drops_the_tail_of_a_chosen_element() -> None:
    root = parse.parse(b"<html><body><p><b>kept</b> not chosen</p></body></html>")
    select(root, ["b"])
    assert body_html(root) == "<body><b>kept</b></body>"


def test_select_body_keeps_it_whole() -> None:
    root = tree()
    select(root, ["body"])
    assert "menu" in body_html(root) and "foot" in body_html(root)


def test_no_match_is_loud() -> None:
    with pytest.raises(NoMatch) as err:
        select(tree(), ["article.story", "#main"], where="http://127.0.0.1/x")
    assert err.value.code == 65 and err.value.kind == "no_match"
    assert err.value.message == (
        "--select 'article.story', '#main' matched nothing on http://127.0.0.1/x"
    )
    # The root alone is no match either: there is nothing below it to keep.
    with pytest.raises(NoMatch):
        select(tree(), ["html"])


def test_remove_drops_elements_and_keeps_their_tails() -> None:
    root = tree()
    assert remove(root, ["aside.ad", "nav"]) == 2
    html = body_html(root)
    assert "buy" not in html and "menu" not in html
    assert "after ad" in html


def test_remove_then_select() -> None:
    root = tree()
    apply(root, ["div.post"], ["aside", "div.post div.post"])
    html = body_html(root)
    assert "first post" in html and "after ad" in html and "second post" in html
    assert "buy" not in html and "nested" not in html


def test_remove_everything_selected_is_no_match() -> None:
    with pytest.raises(NoMatch):
        apply(tree(), ["div.post"], ["div"])


def test_to_xpath_is_cssselect_s() -> None:
    assert to_xpath("p") == "descendant-or-self::p"
    with pytest.raises(ValueError):
        to_xpath("p::before")
