"""The tuning data of code blocks: the class names that mark a line, a line-number gutter
and a code cell (wf/extract/codetext.py), and the labels that name a block's language
(wf/extract/codelang.py), apart from their code as wf/extract/tuning.py is from the
scoring."""

# Code blocks (wf/extract/codetext.py), matched on lowered class tokens. A line element:
# highlighters that draw one element a line (Shiki's and Chroma's `line`, CodeMirror's
# `cm-line`, Prism's `token-line`, Monaco's `view-line`, Expressive Code's `ec-line`).
CODE_LINE = r"(?:^|-)line$"
# A line-number gutter, whole tokens (Pygments' linenos, Chroma's lnt and ln, Rouge's
# gutter and gl, highlight.js's hljs-ln-numbers, GitHub's blob-num, CodeMirror's
# linenumber): dropped only when it holds nothing but digits.
CODE_GUTTER = (
    r"(?:[a-z-]*-)?(?:gutters?|linenos?|linenodiv|linenumbers?|line-numbers?-rows|"
    r"line-number|lnt|ln|lnum)|gl|hljs-ln-numbers?|hljs-ln-n|blob-num"
)
# A code block's elements drawn only, marked by style (user-select: none) or aria-hidden,
# and dropped when their whole text is line numbers or this label of a control, lowered
# and whitespace collapsed (wf/extract/gutters.py): a copy button's ("Copy", "Copied!",
# "Copy code"), a long block's toggle. A prompt ("$", ">>>") is no such label: it stays.
CODE_CONTROL = (
    r"(?:copy|copied)(?: (?:code|command|snippet|text|block|code block))?(?: to clipboard)?"
    r"[!.]?|expand|collapse|show (?:more|less|all)(?: lines)?"
)
# Every label CODE_CONTROL matches starts with one of these, lowered: the search in C for
# a block's drawn elements asks for them before the pattern is tried in Python.
CODE_CONTROL_STARTS = ("cop", "exp", "col", "sho")
# Such an element is read only when it holds at most DRAWN_NODES elements (itself
# included) and its text at most DRAWN_MAX characters: a gutter's number or a label is
# short, and a bigger box is code, kept.
DRAWN_NODES = 8
DRAWN_MAX = 40
# Characters of the page's <style> text read for the classes it declares unselectable:
# CSS-in-JS writes each rule beside its element, a page's worth in tens of thousands.
STYLE_READ_MAX = 1_000_000
# The style is read for a class of such numbers only when GUTTER_SHARED of them carry it
# (a gutter numbers most lines of its block; one number is a literal of the code), or a
# label does; for GUTTER_CLASSES_MAX classes at most, the most used, each searched for in
# the style at most GUTTER_HITS_MAX times, its rule read GUTTER_RULE_MAX characters either
# side of the hit (a selector list and a body; a longer rule draws no gutter).
GUTTER_SHARED = 2
# ... and when GUTTER_COUNTED of their numbers, in page order, count lines (one more than
# the number before, or a block's first, 1): a theme that makes a session's output
# unselectable (Sphinx's `.go`) draws "2" then "42", which count nothing.
GUTTER_COUNTED = 0.5
GUTTER_CLASSES_MAX = 16
GUTTER_HITS_MAX = 100
GUTTER_RULE_MAX = 4000
# The code cell beside a gutter in a table laid out as code, whole tokens.
CODE_CELL = r"code|lntd|rouge-code|hljs-ln-code|blob-code|blob-code-inner"

# Names a code block's header shows as its label ("js" over MDN's examples, "Python" on a
# tab of a code group), lowered: such a label is the block's language, written after its
# fence, not a line of its own (wf/extract/codelang.py).
# fmt: off
CODE_LABELS = frozenset((
    "bash", "c", "c#", "c++", "clojure", "cmd", "console", "cpp", "csharp", "css", "csv",
    "dart", "diff", "dockerfile", "elixir", "erlang", "f#", "go", "golang", "graphql",
    "groovy", "haskell", "hcl", "html", "http", "ini", "java", "javascript", "js", "json",
    "json5", "jsonc", "jsx", "kotlin", "less", "lua", "makefile", "markdown", "md", "mdx",
    "nginx", "objective-c", "ocaml", "perl", "php", "powershell", "ps1", "py", "python",
    "r", "rb", "ruby", "rust", "sass", "scala", "scss", "sh", "shell", "sql", "svelte",
    "swift", "terraform", "toml", "ts", "tsx", "typescript", "vb", "vue", "xml", "yaml",
    "yml", "zsh",
))
# fmt: on
# A <textarea> that holds code shown to the reader (an example in a playground, editable:
# pkg.go.dev's `<textarea class="Documentation-exampleCode code">`), by a word of its
# class that is "code" or ends in "-code" once lowered ("exampleCode": example-code), not
# "barcode" (wf.extract.codetext.code_area); read as a <pre>. Not an `embed-code`: a
# share box's snippet to paste into one's own site (a video's <iframe>), the page's chrome.
CODE_AREA = r"(?:^|-)(?<!embed-)code$"
