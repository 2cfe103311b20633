"""Formulas (wf/extract/formulas.py): TeX where the page keeps it, MathML read out
otherwise, the boxes that draw the formula left out."""

from __future__ import annotations

from wf.extract import extract_text
from wf.extract.formulas import render

PROSE = (
    "The ferry ran late every winter, and the town's only way across the water stayed "
    "the old bridge for twenty years, until the council raised the money for a new one. "
)


def _page(formula_html: str) -> str:
    return (
        "<html><head><title>Sums</title></head><body><article>"
        f"<p>{PROSE}</p><p>We write {formula_html} for the total and move on.</p>"
        f"<p>{PROSE}</p></article></body></html>"
    )


MEDIAWIKI = (
    "<span class='mwe-math-element'><span class='mwe-math-mathml-inline mwe-math-mathml-a11y'"
    " style='display: none;'><math alttext='{\\displaystyle x^{2}+1}'><semantics><mrow>"
    "<msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>1</mn></mrow>"
    "<annotation encoding='application/x-tex'>{\\displaystyle x^{2}+1}</annotation>"
    "</semantics></math></span><img src='/m/1.svg' class='mwe-math-fallback-image-inline'"
    " aria-hidden='true' alt='{\\displaystyle x^{2}+1}'></span>"
)


def test_mediawikis_formula_is_printed_once_as_its_tex():
    # Its MathML is hidden (display: none) and the picture is no text: before, the
    # sentence read "We write for the total".
    text = extract_text(_page(MEDIAWIKI))
    assert "We write $x^{2}+1$ for the total and move on." in text
    assert text.count("x^{2}") == 1


def test_katexs_annotation_is_the_tex_and_its_glyph_boxes_go():
    katex = (
        "<span class='katex'><span class='katex-mathml'><math><semantics><mrow><mi>a</mi>"
        "<mo>+</mo><mi>b</mi></mrow><annotation encoding='application/x-tex'>a+b</annotation>"
        "</semantics></math></span><span class='katex-html' aria-hidden='true'>"
        "<span class='base'>a+b</span></span></span>"
    )
    text = extract_text(_page(katex))
    assert "We write $a+b$ for the total and move on." in text


def test_mathml_without_tex_is_read_out_on_one_line():
    formula = (
        "<math display='block'><mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi>"
        "<mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>-</mo><mn>4</mn><mi>a</mi>"
        "<mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>"
    )
    text = extract_text(_page(formula))
    assert "x = (- b ± √(b^2 - 4 a c))/(2 a)" in text
    # A block formula stands on its own line.
    assert "\nx = (- b" in text


def test_mathjax_2s_script_is_the_tex_and_its_drawing_goes():
    mathjax = (
        "<span class='MathJax_Preview'>E=mc2</span><span class='MathJax' id='MathJax-Element-1-"
        "Frame'><nobr><span class='math'>E=mc2</span></nobr></span>"
        "<script type='math/tex' id='MathJax-Element-1'>E=mc^2</script>"
    )
    text = extract_text(_page(mathjax))
    assert "We write $E=mc^2$ for the total and move on." in text
    assert "mc2" not in text


def test_a_box_with_words_of_its_own_stays_around_the_formula():
    # A paragraph named for maths is the text's, not a drawing: only the <math> goes.
    boxed = "<span class='math-note'>the sum <math alttext='a+b'></math> of both</span>"
    text = extract_text(_page(boxed))
    assert "We write the sum $a+b$ of both for the total" in text


def test_a_hostile_formula_is_bounded():
    from lxml import html

    deep = "<mrow>" * 120 + "<mi>x</mi>" + "</mrow>" * 120
    wide = "<mi>y</mi>" * 20000
    root = html.fromstring(f"<div><math>{deep}</math><math>{wide}</math></div>")
    render(list(root.iter("math")))
    spans = root.findall("span")
    assert len(spans) == 2 and "x" in (spans[0].text or "")
    assert len(spans[1].text or "") <= 4001
