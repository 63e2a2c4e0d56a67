"""Unit tests of text: tokens, fitting a text to its box, hyphenation in the text's own language."""

from __future__ import annotations

import pytest

from mazmorra.layout.text.fit import Style, fit
from mazmorra.model.cardtext import IconPart, TextPart, split_paragraphs, token_signature


def test_tokens_and_bold() -> None:
    paras = split_paragraphs("Roba {draw:2}. **Muy** bien {coin}\nOtra")
    first = paras[0]
    assert first[1] == [IconPart("draw", "2"), TextPart(".", False)]
    assert first[2] == [TextPart("Muy", True)]
    assert first[4] == [IconPart("coin", None)]
    assert paras[1] == [[TextPart("Otra", False)]]
    assert token_signature("a {draw:2} **b**") == ["**", "**", "{draw:2}"]


def test_fit_shrinks_then_reports_overflow() -> None:
    style = Style()
    short = fit("Hola", 100, 20, style, 10, 6, "es")
    assert short.fits and short.size == 10
    medium = fit("palabra " * 30, 100, 60, style, 10, 6, "es")
    assert medium.fits and 6 <= medium.size < 10
    too_long = fit("palabra " * 300, 100, 60, style, 10, 6, "es")
    assert not too_long.fits and too_long.size == 6 and too_long.overflow > 0


def test_hyphenation_follows_the_language() -> None:
    style = Style()
    f = fit("aa extraordinariamente", 60, 200, style, 10, 10, "es")
    words = [p.part.text for line in f.lines for p in line.items if isinstance(p.part, TextPart)]
    assert any(w.endswith("-") for w in words), words
    assert "".join(w.rstrip("-") for w in words[1:]) == "extraordinariamente"


@pytest.mark.parametrize(
    "word, lang",
    [("(exploración)", "es"), ("«Recuperar»", "es"), ("sub-jefe", "es"), ("(extraordinary),", "en")],
)
def test_hyphenation_keeps_punctuation_with_its_word(word: str, lang: str) -> None:
    from mazmorra.layout.text.linebreak import word_splits

    splits = word_splits(word, lang)
    assert splits
    for left, right in splits:
        joined = left + right if "-" in word else left[:-1] + right  # an existing hyphen stays printed once
        assert joined == word
        assert left.endswith("-") and not left.endswith("--")
        assert right[0].isalpha()  # closing punctuation never starts the next line
        assert len(left.strip("(«-")) >= 3 and len(right.rstrip(")»,")) >= 3  # never a fragment under 3 letters


def test_fitted_lines_never_break_off_closing_punctuation() -> None:
    style = Style()
    for width in range(40, 140, 3):
        f = fit(
            "Roba una carta (exploración) y luego «Recuperar» al ex-jefe.",
            width,
            400,
            style,
            10,
            10,
            "es",
        )
        for line in f.lines:
            texts = [p.part.text for p in line.items if isinstance(p.part, TextPart)]
            assert texts and texts[0][0] not in ")»,.;:", texts
            assert not any(t.endswith("--") for t in texts)


def test_words_are_measured_as_part_width_measures_them() -> None:
    """`unit_widths` measures a plain word straight in its face: the same width `part_width` gives,
    in every weight and slant; a span, an icon and letter-spacing still go through `part_width`."""
    from mazmorra.layout.text.fit import breakable, part_width, unit_widths

    text = "Roba **dos** *cartas* ***ya*** {draw:2} [size=80%]chica[/size] [color=red]roja[/color]"
    blocks, _ = breakable(text, "es")
    lines = blocks[0].lines
    parts = [p for chunks in lines for chunk in chunks for p in chunk]
    assert {(p.bold, p.italic) for p in parts if isinstance(p, TextPart)} == {
        (False, False),
        (True, False),
        (False, True),
        (True, True),
    }
    assert any(isinstance(p, IconPart) for p in parts) and any(getattr(p, "span", None) for p in parts)
    # a face of its own width in each slot, so that a word measured in another slot's face shows
    faces = Style(font="sans", bold_font="serif-bold", italic_font="sans-bold", bold_italic_font="sans-italic")
    for style in (faces, Style(spacing=0.05)):
        got = [u for chunks in unit_widths(lines, style) for chunk in chunks for u in chunk]
        assert got == [part_width(p, style, 1.0) for p in parts]
        assert len(set(got)) > 5  # measured, not one width for every part
