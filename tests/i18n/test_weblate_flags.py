"""What the catalogues' Weblate flags say against what the card prints (issue 41; the judge itself,
Weblate's own MaxSizeCheck, is tests/i18n/test_weblate_judge.py and bench/weblate_maxsize.py): the
pixels a point, the lines a paragraph break takes, the letters an icon is rendered as, and a Japanese
text that breaks inside a phrase before it shrinks."""

from __future__ import annotations

import math
import re

import polib
from conftest import CONTENT

from mazmorra.assets import fonts
from mazmorra.i18n.catalogues.budgets import PX_PER_PT
from mazmorra.layout.text.fit import Style, fit, part_width
from mazmorra.layout.text.textbox import _flag_lines, _inscribed, _stand_ins
from mazmorra.model.cardtext import parse
from mazmorra.model.units import PT_PER_MM


def _flags(e: polib.POEntry) -> str:
    return ", ".join(e.flags)


def test_a_paragraph_break_counts_as_weblate_counts_it() -> None:
    """Weblate counts a paragraph break as a blank line, the card spends half a line on it: for every
    count of lines k and of breaks p and every box, Weblate's k + p <= lines says what the card's
    k + spacing·p <= held says."""
    style = Style()
    for breaks in range(4):
        text = "\n\n".join(["word"] * (breaks + 1))
        for tenths in range(10, 160):
            held = tenths / 10 + 0.03
            lines = _flag_lines(text, held, style)
            for k in range(breaks + 1, 20):
                assert (k + breaks <= lines) == (k + style.paragraph_spacing * breaks <= held + 1e-9), (breaks, held, k)


def test_an_icon_is_rendered_as_letters_as_wide_as_it() -> None:
    """`{heart:2}` is an icon and a bold number on the card, eight letters as written: Weblate gets
    letters of the box's font within half a letter of the icon's width."""
    style = Style()
    text = "Lose {heart:2} and gain {coin=3}; {key} opens it."
    pairs = dict(_stand_ins(text, style))
    assert set(pairs) == {t.written for t in parse(text).tokens}
    for token in parse(text).tokens:
        drawn = part_width(token.icon, style, 10.0)
        letters = fonts.width(pairs[token.written], style.font, 10.0)
        assert abs(letters - drawn) <= fonts.width("M", style.font, 10.0) / 2, token.written
        assert letters < fonts.width(token.written, style.font, 10.0) / 2  # as written: far wider


def test_a_circular_box_is_checked_as_a_rectangle_that_holds_what_its_ellipse_holds() -> None:
    w, held = 13.2, 5.6
    width, lines = _inscribed(w, held)
    assert lines == 5 and w / math.sqrt(2) < width < w


def test_catalogue_flags_stand_for_the_box_at_four_pixels_a_point() -> None:
    """The sample catalogues: font-size is the design size × PX_PER_PT and max-size the box's width
    at the same scale; an entry whose source has icons or bold marks names its replacements."""
    cat = polib.pofile(str(CONTENT / "expedicion" / "locale" / "en.po"))
    seen = 0
    for e in cat:
        m = re.search(r"box ([\d.]+)×[\d.]+ mm \(\w+\): ([\d.]+) pt design size", " ".join(e.comment.split()))
        flags = _flags(e)
        if m is None or "max-size" not in flags or "circular" in e.comment:
            continue
        w, size = float(m.group(1)), float(m.group(2))
        px = int(re.search(r"font-size:(\d+)", flags).group(1))  # type: ignore[union-attr]
        width = int(re.search(r"max-size:(\d+)", flags).group(1))  # type: ignore[union-attr]
        assert px == round(size * PX_PER_PT)
        assert abs(width - w * PT_PER_MM * px / size) <= 0.05 * PT_PER_MM * px / size + 1, e.msgctxt
        for token in parse(e.msgid).tokens:
            assert f'"{token.written}":' in flags, (e.msgctxt, token.written)
        if "**" in e.msgid:
            assert '"**":""' in flags, e.msgctxt
        seen += 1
    assert seen > 100


def test_a_japanese_text_breaks_inside_a_phrase_before_it_shrinks() -> None:
    """Japanese lines end between phrases; a text that needs one line more so is set at its design
    size with a line ending inside a phrase (where UAX #14 allows, as Weblate's Pango does) rather
    than shrunk; a text too long even so still shrinks."""
    fonts.pack_fonts(CONTENT.parent / "tests" / "packs" / "kanji")
    style = Style(font="Tansaku Gothic", bold_font="Tansaku Gothic")
    sentences = "迷宮の奥には、眠れる竜の宝箱がある。宝箱を開けるには、カギを持っていなければならない。" * 2
    width = 11.0 * 13 + 1  # 13 characters a line
    lines = 11.0 * 1.18  # pt a line
    phrases = fit(sentences, width, lines * 40, style, 11.0, 6.5, "ja")
    need = math.ceil(fonts.width(sentences, style.font, 11.0) / width)  # lines of characters, broken anywhere
    assert phrases.size == 11.0 and len(phrases.lines) > need  # between phrases: more lines
    kept = fit(sentences, width, lines * need, style, 11.0, 6.5, "ja")
    assert kept.fits and kept.size == 11.0 and len(kept.lines) == need
    ends = {line.items[-1].part.text[-1] for line in kept.lines if hasattr(line.items[-1].part, "text")}
    starts = {line.items[0].part.text[0] for line in kept.lines if hasattr(line.items[0].part, "text")}
    assert not starts & set("、。ー"), starts  # kinsoku: no line starts with a comma, a stop, a long-vowel mark
    assert ends
    too_long = fit(sentences + sentences[:20], width, lines * need, style, 11.0, 6.5, "ja")
    assert too_long.size < 11.0
