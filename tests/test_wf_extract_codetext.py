"""wf/extract/codetext.py: a code block's lines stay apart when each is an element of its
own, and its line numbers are left out, in a <pre> and in a table laid out as a gutter
beside the code."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from wf.extract import extract_text
from wf.extract.codetext import code_text, table_code

PROSE = "<p>" + "How to install the tool and run it on a machine of your own, step by step. " * 4
PAGE = "<html><body><article><h1>Install</h1>{prose}</p>{block}{prose}</p></article></body></html>"
CODE = "```\npip install tool\ntool --init\n```"


def _page(block: str) -> str:
    return PAGE.format(prose=PROSE, block=block)


@pytest.mark.parametrize(
    "block",
    [
        # Shiki: a span.line per line and no newline between them.
        '<pre class="shiki"><code><span class="line"><span>pip</span><span> install tool'
        '</span></span><span class="line"><span>tool --init</span></span></code></pre>',
        # CodeMirror: a div per line, ended by a <br>.
        '<pre><code><div class="cm-line">pip install tool<br></div><div class="cm-line">'
        "tool --init<br></div></code></pre>",
        # Prism's renderer in React: span.token-line, camelCase or not.
        '<pre><code><span class="tokenLine">pip install tool</span><span class="token-line">'
        "tool --init</span></code></pre>",
        # Pygments' inline line numbers.
        '<pre><code><span class="linenos">1</span>pip install tool\n'
        '<span class="linenos">2</span>tool --init\n</code></pre>',
        # Chroma's inline ones, inside its line spans.
        '<pre class="chroma"><code><span class="line"><span class="ln">1</span>'
        '<span class="cl">pip install tool\n</span></span><span class="line"><span class="ln">2'
        '</span><span class="cl">tool --init\n</span></span></code></pre>',
        # An element that prints the number its data-line-number holds, of no gutter's name.
        '<pre><code><div><span data-line-number="1">1</span><span>pip install tool</span>'
        '</div><div><span data-line-number="2"> 2 </span>tool --init</div></code></pre>',
        # Pygments' table: a gutter cell of its own <pre>.
        '<div class="highlight"><table class="highlighttable"><tr><td class="linenos">'
        '<div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2'
        '</span></pre></div></td><td class="code"><div><pre>pip install tool\ntool --init\n'
        "</pre></div></td></tr></table></div>",
        # Chroma's table: both cells named alike, the gutter known by its digits.
        '<table class="lntable"><tr><td class="lntd"><pre class="chroma"><code>'
        '<span class="lnt">1\n</span><span class="lnt">2\n</span></code></pre></td>'
        '<td class="lntd"><pre class="chroma"><code>pip install tool\ntool --init\n</code>'
        "</pre></td></tr></table>",
        # Rouge: the table inside the <pre>.
        '<figure class="highlight"><pre><code><table class="rouge-table"><tbody><tr>'
        '<td class="gutter gl"><pre class="lineno">1\n2\n</pre></td><td class="code"><pre>'
        "pip install tool\ntool --init\n</pre></td></tr></tbody></table></code></pre></figure>",
        # highlight.js's plug-in: a row a line, the numbers drawn by CSS.
        '<table class="hljs-ln"><tbody><tr><td class="hljs-ln-line hljs-ln-numbers">'
        '<div class="hljs-ln-n" data-line-number="1"></div></td><td class="hljs-ln-line '
        'hljs-ln-code">pip install tool</td></tr><tr><td class="hljs-ln-line hljs-ln-numbers">'
        '<div class="hljs-ln-n" data-line-number="2"></div></td><td class="hljs-ln-line '
        'hljs-ln-code">tool --init</td></tr></tbody></table>',
    ],
)
def test_a_code_block_prints_its_lines_apart_without_numbers(block: str) -> None:
    text = extract_text(_page(block))
    assert CODE in text
    assert not {"1", "2"} & {line.strip() for line in text.splitlines()}, text


def test_the_language_of_a_code_table_is_its_code_cells() -> None:
    block = (
        '<table class="lntable"><tr><td class="lntd"><pre><code><span class="lnt">1\n</span>'
        '</code></pre></td><td class="lntd"><pre><code class="language-sh">ls -l\n</code></pre>'
        "</td></tr></table>"
    )
    assert "```sh\nls -l\n```" in extract_text(_page(block))


def _el(source: str) -> object:
    return lxml_html.fragment_fromstring(source)


def test_numbers_that_are_code_stay() -> None:
    # A span named like a gutter that holds more than digits is code.
    pre = _el('<pre><span class="ln">x = 1</span>\n<span class="ln">2</span>y\n</pre>')
    assert code_text(pre) == "x = 1\ny\n"
    # Digits in code of no gutter's name stay, and text before and after the elements.
    pre = _el('<pre>a\n<span class="line">10</span><span class="line">20</span>\nb</pre>')
    assert code_text(pre) == "a\n10\n20\nb"
    # A line element that carries its number as data is code when its text is another.
    pre = _el(
        '<pre><span class="line" data-line-number="1">[</span><span class="line" '
        'data-line-number="2">20</span><span class="line" data-line-number="3">]</span></pre>'
    )
    assert code_text(pre) == "[\n20\n]"


def test_a_table_of_ranks_is_data() -> None:
    # Two columns, digits then names: no gutter's name, no <pre>: a table of data.
    table = _el("<table><tr><td>1</td><td>Alice</td></tr><tr><td>2</td><td>Bob</td></tr></table>")
    assert table_code(table) is None
    page = _page(
        "<table><tr><th>Rank</th><th>Name</th></tr><tr><td>1</td><td>Alice</td></tr>"
        "<tr><td>2</td><td>Bob</td></tr></table>"
    )
    assert "| 1 | Alice |" in extract_text(page)
    # A gutter row, then a row that is not one: data after all.
    table = _el(
        '<table><tr><td class="gutter">1</td><td><pre>x</pre></td></tr>'
        "<tr><td>notes</td><td>more</td></tr></table>"
    )
    assert table_code(table) is None


def test_a_playgrounds_textarea_of_code_is_a_code_block() -> None:
    # pkg.go.dev's example: its code in an editable <textarea>, which cleaning drops with
    # the page's forms; named for code by its class.
    area = '<textarea class="Documentation-exampleCode code" spellcheck="false">{}</textarea>'
    text = extract_text(_page(area.format("pip install tool\ntool --init")))
    assert CODE in text
    # A form's box is no code: empty, or filled but not named so (nor "barcode").
    for box in (
        '<textarea class="code"></textarea>',
        '<textarea name="message">pip install tool</textarea>',
        '<textarea class="barcode">pip install tool</textarea>',
        # A share box's snippet to embed the page's video elsewhere.
        '<textarea class="video-embed-code" readonly>pip install tool</textarea>',
        '<textarea class="embedCode" readonly>pip install tool</textarea>',
    ):
        assert "pip install" not in extract_text(_page(box))
