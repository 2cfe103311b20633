"""wf/extract/codelang.py: a code block keeps the language its page marks."""

from __future__ import annotations

import pytest

from wf.extract import extract_text

PROSE = "<p>" + "A paragraph about the shell, long enough to make this an article. " * 4 + "</p>"


@pytest.mark.parametrize(
    ("block", "fence"),
    [
        ('<pre><code class="language-bash">ls -l</code></pre>', "```bash\nls -l\n```"),
        ('<pre class="lang-sql">select 1</pre>', "```sql\nselect 1\n```"),
        (
            '<div class="highlight-python notranslate"><div class="highlight"><pre>x = 1</pre>'
            "</div></div>",
            "```python\nx = 1\n```",
        ),
        (
            '<div class="highlight highlight-source-rust"><pre>fn main() {}</pre></div>',
            "```rust\nfn main() {}\n```",
        ),
        ('<pre data-lang="Go">x := 1</pre>', "```go\nx := 1\n```"),
        ('<pre class="lang-text">plain</pre>', "```\nplain\n```"),
        # Discourse's highlight.js mark for "detect it": no language.
        ('<pre><code class="lang-auto">make all</code></pre>', "```\nmake all\n```"),
        ('<pre class="language-$(rm -rf)">odd</pre>', "```\nodd\n```"),
        # Pandoc's (Quarto's, bookdown's): the language among the drawing's tokens.
        (
            '<div class="sourceCode"><pre class="sourceCode numberSource r number-lines">'
            '<code class="sourceCode r">x &lt;- 1</code></pre></div>',
            "```r\nx <- 1\n```",
        ),
        ('<pre class="sourceCode"><code class="sourceCode">plain</code></pre>', "```\nplain\n```"),
        # A gutter beside the code (Pygments' linenos, MkDocs Material's linenums): the
        # <pre> deep in the table's cell, the language on the box around the table.
        (
            '<div class="highlight-python notranslate"><table class="highlighttable"><tr>'
            '<td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>'
            '</pre></div></td><td class="code"><div class="highlight"><pre>x = 1\n</pre>'
            "</div></td></tr></table></div>",
            "```python\nx = 1\n```",
        ),
    ],
)
def test_the_fence_names_the_language(block: str, fence: str) -> None:
    html = f"<html><body><article>{PROSE}{block}{PROSE}</article></body></html>"
    assert fence in extract_text(html)
