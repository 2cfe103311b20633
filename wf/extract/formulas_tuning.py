"""The tuning data of wf.extract.formulas, apart from its code."""

from __future__ import annotations

# The annotations of a <math> that hold its TeX source (KaTeX writes the first).
TEX_ENCODINGS = frozenset(("application/x-tex", "application/x-latex", "tex", "latex"))
# MathML's token elements: their text is the formula's own.
TOKENS = frozenset(("mi", "mn", "mo", "mtext", "ms"))
# MathML's invisible operators (function application, times, separator, plus: "sin\u2061x"),
# there for speech, are left out: printed, each stood between spaces as a token of its own.
INVISIBLE_OPERATORS = "\u2061\u2062\u2063\u2064"
# Read for nothing: the annotations (their TeX is read apart), space kept by a phantom.
SKIPPED = frozenset(("annotation", "annotation-xml", "mphantom", "none", "mprescripts"))
# A box named for formulas, by a class token or a tag: MediaWiki's mwe-math-*, KaTeX,
# MathJax's (MathJax_Preview, mjx-container).
DRAWING_NAME = r"math|katex|mjx"
# What draws the formula beside its MathML: its picture, or the SVG that MathJax draws.
DRAWING_TAGS = frozenset(("img", "svg", "style", "script", "noscript"))
# MathJax 2's boxes before its <script type="math/tex">, by a class token: MathJax_Preview,
# MathJax (the frame), MathJax_Display, MathJax_CHTML, MathJax_SVG.
MATHJAX2_BOX = r"(?:^|\s)MathJax"
# How far up from a <math> a drawing box is looked for (MediaWiki: span > span > math).
BOX_LEVELS = 3
# The most children a drawing box holds (MediaWiki, KaTeX, MathJax: two, and a comment).
BOX_CHILDREN = 6
# Bounds for a hostile formula: levels of MathML read as structure (deeper is read as
# plain text), parts read, and characters printed.
MAX_DEPTH = 40
MAX_PARTS = 2000
MAX_CHARS = 4000
