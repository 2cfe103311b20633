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


def test_a_named_box_keeps_the_words_beside_its_formula():
    # The box is named for maths, and so is the paragraph in it: that paragraph is the
    # article's, not a drawing of the formula, and stays with it.
    boxed = (
        "<div class='math-section'><math alttext='a+b'></math>"
        "<p class='math-intro'>Here the ledger closes on the last day of the year.</p></div>"
    )
    text = extract_text(_page(boxed))
    assert "$a+b$" in text
    assert "Here the ledger closes on the last day of the year." in text


def test_each_formula_of_a_named_box_is_printed():
    # Another <math> beside a formula is a formula of its own, not its drawing.
    both = "<div class='math-display'><math alttext='a+b'></math> <math alttext='c+d'></math></div>"
    text = extract_text(_page(both))
    assert "$a+b$" in text and "$c+d$" in text


def test_a_paragraph_named_for_maths_before_a_tex_script_stays():
    # Only MathJax's own boxes (MathJax_Preview, the frame) draw the script's formula.
    page = _page(
        "</p><p class='math-intro'>Here the ledger closes on the last day of the year.</p>"
        "<script type='math/tex'>x^2</script><p>"
    )
    text = extract_text(page)
    assert "Here the ledger closes on the last day of the year." in text
    assert "$x^2$" in text


def test_mathjax_2s_frame_with_its_mathml_is_read_once():
    # MathJax 2's assistive MathML sits in the frame before the script: one formula.
    mathjax = (
        "<span class='MathJax_Preview'></span><span class='MathJax_CHTML' id='MathJax-Element-"
        "1-Frame'><span class='mjx-math' aria-hidden='true'><span>E</span></span>"
        "<span class='MJX_Assistive_MathML'><math><mi>E</mi><mo>=</mo><mi>m</mi></math>"
        "</span></span><script type='math/tex' id='MathJax-Element-1'>E=m</script>"
    )
    text = extract_text(_page(mathjax))
    assert "We write $E=m$ for the total and move on." in text


def test_many_formulas_in_one_named_box_cost_a_few_looks_each(monkeypatch):
    # Before, each formula read every sibling as a drawing (another <math> counted),
    # twenty thousand formulas took minutes, and one printed for all.
    from lxml import html

    from wf.extract import formulas

    looks = []
    drawing = formulas._drawing
    monkeypatch.setattr(formulas, "_drawing", lambda el: looks.append(1) or drawing(el))
    root = html.fromstring("<div><div class='math'>" + "<math>x</math>" * 2000 + "</div></div>")
    render(list(root.iter("math")))
    assert len(root.find("div").findall("span")) == 2000
    assert len(looks) <= 2000 * 6


def test_mathjax_2s_boxes_go_in_one_pass(monkeypatch):
    # Each script's boxes dropped apart walked every child of their parent: a page of
    # ten thousand scripts in one paragraph took minutes.
    from lxml import html

    from wf.extract import hidden

    calls = []
    drop_all = hidden.drop_all
    monkeypatch.setattr(hidden, "drop_all", lambda els: calls.append(1) or drop_all(els))
    one = "<span class='MathJax_Preview'>x</span><script type='math/tex'>x</script>"
    root = html.fromstring(f"<div><p>{one * 500}</p></div>")
    render(list(root.iter("script")))
    assert len(calls) == 1
    assert root.find("p").text_content().count("$x$") == 500


def test_mathmls_invisible_operators_are_not_printed():
    # Function application and invisible times are for speech: MediaWiki and MathJax 3
    # write them between "sin" and its argument, and between a product's factors.
    formula = "<math><mi>sin</mi><mo>&#x2061;</mo><mi>x</mi><mo>&#x2062;</mo><mi>y</mi></math>"
    text = extract_text(_page(formula))
    assert "We write sin x y for the total" in text


def test_formulas_side_by_side_do_not_read_as_a_block_delimiter():
    two = "<math alttext='a+b'></math><math alttext='c+d'></math>$5"
    text = extract_text(_page(two))
    assert "We write $a+b$ $c+d$ $5 for the total" in text
