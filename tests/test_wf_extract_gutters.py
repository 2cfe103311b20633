"""wf/extract/gutters.py: line numbers and button labels a page draws inside a code block
and marks by style (a class its <style> declares user-select: none, an inline style, or
aria-hidden) are left out of the code; the code, and prompts, stay."""

from __future__ import annotations

import time

import pytest
from lxml import html as lxml_html

from wf.extract import extract_text
from wf.extract.gutters import unselectable

PROSE = "<p>" + "How to install the tool and run it on a machine of your own, step by step. " * 4
PAGE = (
    "<html><head>{head}</head><body><article><h1>Install</h1>{prose}</p>{block}{prose}</p>"
    "</article></body></html>"
)
CODE = "```\npip install tool\ntool --init\n```"


def _page(block: str, head: str = "") -> str:
    return PAGE.format(prose=PROSE, block=block, head=head)


def _lines(number_class: str, number_style: str = "") -> str:
    """A CSS-in-JS code block: each line a box of a number span and a code box."""
    style = f' style="{number_style}"' if number_style else ""
    return (
        "<pre><div>"
        + "".join(
            f'<div class="css-row"><span class="{number_class}"{style}>{n}</span>'
            f'<div class="css-code"><div>{code}</div></div></div>'
            for n, code in ((1, "pip install tool"), (2, "tool --init"))
        )
        + "</div></pre>"
    )


EMOTION = (
    '<style data-emotion="css a1">.css-a1{display:inline-block;opacity:.5;'
    "-webkit-user-select:none;-moz-user-select:none;-ms-user-select:none;user-select:none}"
    "</style>"
)


@pytest.mark.parametrize(
    ("block", "head"),
    [
        # emotion: the rule in a <style> beside the block, vendor prefixes first.
        (EMOTION + _lines("css-a1"), ""),
        # The rule in <head>, spaced, inside an at-rule, the class among others.
        (
            _lines("n css-b2"),
            "<style>.x{color:red}@media screen { .box .css-b2 , .y { User-Select : none ; }}"
            "</style>",
        ),
        # The element's own style says so.
        (_lines("css-c3", "user-select: none; opacity: .5"), ""),
        # Hidden from screen readers: drawn only.
        (_lines("css-d4").replace('class="css-d4"', 'class="css-d4" aria-hidden="true"'), ""),
    ],
)
def test_line_numbers_drawn_by_style_are_no_code(block: str, head: str) -> None:
    text = extract_text(_page(block, head))
    assert CODE in text, text
    assert not {"1", "2"} & {line.strip() for line in text.splitlines()}, text


def test_a_copy_label_drawn_inside_the_block_is_no_code() -> None:
    block = (
        "<style>.lbl{user-select:none}</style><pre><code>"
        '<span class="lbl">Copy code</span><div>pip install tool</div><div>tool --init</div>'
        "</code></pre>"
    )
    text = extract_text(_page(block))
    assert CODE in text and "Copy" not in text, text


def test_code_and_prompts_marked_unselectable_stay() -> None:
    # A prompt marked unselectable stays (a session's commands apart from their output),
    # and so does code in an unselectable box: only numbers and labels go.
    block = (
        "<style>.gp,.frozen{user-select:none}</style><pre><code>"
        '<span class="gp">$ </span>pip install tool\nInstalled 1\n'
        '<span class="frozen">tool --init</span>\n42\n</code></pre>'
    )
    text = extract_text(_page(block))
    assert "```\n$ pip install tool\nInstalled 1\ntool --init\n42\n```" in text, text


def test_numbers_of_a_class_not_declared_unselectable_stay() -> None:
    # The class's rule says nothing of selection; the other rule is a pseudo-element's
    # (its drawn text is no element's), and outside a code block nothing is judged.
    head = "<style>.css-e5{opacity:.5}.css-f6::before{user-select:none}</style>"
    block = _lines("css-e5") + _lines("css-f6") + '<p>Step <span class="css-f6">3</span></p>'
    text = extract_text(_page(block, head))
    assert text.count("\n1\n") == 2 and "Step 3" in text, text


def _styles(*texts: str) -> list[object]:
    return [lxml_html.fragment_fromstring(f"<style>{t}</style>") for t in texts]


def test_the_subject_of_a_selector_is_the_class_marked() -> None:
    found = unselectable(
        _styles(
            ".a .b, .c>.d:hover, div.e{user-select:none}",
            ".f::before{user-select:none}.g{-webkit-user-select:none}.h{user-select:text}",
            ".i { color: red; user-select:\n none !important }",
        ),
        "abcdefghi",
    )
    assert set(found) == {"b", "d", "e", "g", "i"}


def test_styles_past_the_cap_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from wf.extract import code_tuning

    monkeypatch.setattr(code_tuning, "STYLE_READ_MAX", 30)
    found = unselectable(_styles(".a{user-select:none}", ".b{user-select:none}"), "ab")
    assert set(found) == {"a"}


@pytest.mark.parametrize(
    "hostile",
    [
        # Style text without braces, and rules with many selectors: read once each.
        "<style>" + "user-select:none " * 60_000 + "</style><pre>x</pre>",
        "<style>" + ".a " * 200_000 + "{user-select:none}</style><pre>x</pre>",
        # Many marked elements, nested as deep as the parser keeps and side by side.
        "<style>.n{user-select:none}</style><pre>"
        + '<span class="n">' * 250
        + "1" * 1_000_000
        + "</span>" * 250
        + '<span class="n">1</span>' * 50_000
        + "</pre>",
    ],
)
def test_hostile_styles_and_blocks_cost_linear_time(hostile: str) -> None:
    # Far above the cost (a fraction of a second here): a quadratic read would not pass.
    start = time.process_time()
    extract_text(f"<html><body>{hostile}</body></html>")
    assert time.process_time() - start < 5


def test_a_page_pays_only_for_a_gutter_shaped_candidate(monkeypatch: pytest.MonkeyPatch) -> None:
    # The style is read (for the candidates' classes only) when a class is shared by a few
    # numbers inside a block, or a label carries it: not for a page without a block, nor
    # for a block whose one number of its class is a literal of the code.
    from wf.extract import gutters

    searched: list[object] = []
    read: list[list[str]] = []
    monkeypatch.setattr(
        gutters,
        "gutters",
        lambda root, styles, f=gutters.gutters: searched.append(1) or f(root, styles),
    )
    monkeypatch.setattr(
        gutters,
        "unselectable",
        lambda styles, names, f=gutters.unselectable: read.append(list(names)) or f(styles, names),
    )
    head = "<style>.mi,.n,.css-a1{user-select:none}.x{color:red}</style>"
    prose = _page('<p>Step <span class="n">1</span> and <span class="n">2</span>.</p>', head)
    extract_text(prose)
    assert not searched and not read
    literal = '<pre><code>x = <span class="mi">42</span>\ny = x</code></pre>'
    assert "x = 42" in extract_text(_page(literal, head))
    assert searched and not read
    text = extract_text(_page(_lines("n css-a1") + literal, head))
    assert read == [["n", "css-a1"]] and "x = 42" in text and "\n1\n" not in text, text


def test_a_class_is_read_in_its_rules_only() -> None:
    # A longer name that starts as the class's, and the name inside a declaration's value,
    # are no rule of the class.
    styles = _styles(".min{user-select:none}.x{background:url(a.mi);user-select:none}")
    assert set(unselectable(styles, ["mi", "min"])) == {"min"}
    assert set(unselectable(_styles(".a,.mi{\nuser-select:none}"), ["mi"])) == {"mi"}


def test_hostile_styles_read_for_many_classes_cost_linear_time() -> None:
    # Many classes of numbers in a block, and a style that names one a million times.
    numbers = "".join(
        f'<span class="c{n} n">1</span><span class="c{n}">2</span>' for n in range(20_000)
    )
    style = "<style>" + ".c1 " * 100_000 + ".n " * 100_000 + "{user-select:none}</style>"
    start = time.process_time()
    extract_text(f"<html><head>{style}</head><body><pre>{numbers}</pre></body></html>")
    assert time.process_time() - start < 5


PROMPTS = "<style>.highlight .gp, .highlight .go { user-select: none }</style>"


def test_a_session_s_output_of_numbers_in_an_unselectable_class_stays() -> None:
    # A theme makes a session's prompts and output unselectable (a copy takes the
    # commands only): its numbers count no lines, so they are output, no gutter.
    block = (
        '<div class="highlight"><pre><span class="gp">&gt;&gt;&gt; </span>1 + 1\n'
        '<span class="go">2</span>\n<span class="gp">&gt;&gt;&gt; </span>6 * 7\n'
        '<span class="go">42</span>\n</pre></div>'
    )
    text = extract_text(_page(block, PROMPTS))
    assert "```\n>>> 1 + 1\n2\n>>> 6 * 7\n42\n```" in text, text
    # Numbers that count lines, from any first line, are a gutter.
    gutter = "".join(f'<span class="go">{n}</span><code>x{n}</code>\n' for n in (57, 58, 59))
    text = extract_text(_page(f'<div class="highlight"><pre>{gutter}</pre></div>', PROMPTS))
    assert "```\nx57\nx58\nx59\n```" in text, text


def test_a_rule_marks_an_element_of_every_class_of_its_subject() -> None:
    # Prism's tokens share `token`: a rule for its prompts marks no number of the code.
    head = "<style>.token.prompt{user-select:none}</style>"
    block = (
        '<pre><code><span class="token prompt">$ </span>seq <span class="token number">1</span>'
        ' <span class="token number">2</span>\n<span class="token prompt">$ </span>echo '
        '<span class="token number">3</span></code></pre>'
    )
    text = extract_text(_page(block, head))
    assert "```\n$ seq 1 2\n$ echo 3\n```" in text, text


def test_a_rule_in_a_comment_marks_nothing_and_brackets_split_no_selector() -> None:
    found = unselectable(
        _styles(
            "/* .a { user-select: none } } */ .b{color:red}",
            '.c[data-x="p, .q"], .d[title="} {"] .e{user-select:none}',
            "/* a comment never closed .f{user-select:none}",
        ),
        "abcdefq",
    )
    assert found == {"c": {frozenset("c")}, "e": {frozenset("e")}}
    assert not unselectable(_styles('.a{content:"}"}.b:not(.c, .d){user-select:none}'), "cd")


def test_hostile_comments_are_read_once() -> None:
    # Comments never closed, each after another's opening: one pass over the text.
    calls: list[int] = []
    from wf.extract import gutters

    class Text(str):
        def find(self, *args: object) -> int:  # type: ignore[override]
            calls.append(1)
            return str.find(self, *args)  # type: ignore[arg-type]

    text = Text("/* .a{user-select:none} " * 100_000)
    assert gutters.uncommented(text) == ""
    assert len(calls) == 2


def test_hostile_blocks_and_a_style_naming_their_class_are_read_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 10^5 code blocks, each with a gutter's number, and a style of a megabyte that names
    # their class 10^5 times: the rules read are capped, whatever the page holds.
    from wf.extract import code_tuning, gutters

    rules: list[int] = []
    monkeypatch.setattr(
        gutters, "_rule_marks", lambda *a, f=gutters._rule_marks: rules.append(1) or f(*a)
    )
    style = "<style>" + ".g{top:0}" * 100_000 + ".g{user-select:none}</style>"
    blocks = "".join(f'<pre><span class="g">{n % 9 + 1}</span>x{n}</pre>' for n in range(100_000))
    text = extract_text(_page(blocks, style))
    assert len(rules) == code_tuning.GUTTER_HITS_MAX
    # The rule that marks them is past the hits read: the numbers stay, as written.
    assert "```\n1x0\n```" in text, text[:500]


def test_a_deep_nesting_s_chain_is_read_once_for_all_the_numbers_under_it() -> None:
    # 10^5 numbers under a chain of 2000 boxes, none a code block: whether each is inside
    # a block is asked of each box once, not once a number.
    from wf.extract.gutters import Blocks

    steps: list[int] = []

    class Node:
        def __init__(self, tag: str, parent: Node | None) -> None:
            self.tag, self.parent = tag, parent

        def getparent(self) -> Node | None:
            steps.append(1)
            return self.parent

    top: Node | None = None
    for _ in range(2_000):
        top = Node("div", top)
    code = Node("code", top)
    inside = Blocks()
    assert not any(inside(Node("span", top)) for _ in range(100_000))
    assert inside(Node("span", code)) and inside(Node("span", Node("b", code)))
    assert len(steps) <= 2 * 100_000 + 2_000 + 10
