"""The Japanese test pack (tests/packs/kanji) built as a user builds it: es, en and ja; Japanese set
in the pack's own subset font, embedded; every line of its rules texts ending at a BudouX phrase
boundary, read back from the PDFs; no glyph missing; no text below its floor."""

from __future__ import annotations

import io
import re
import shutil
from collections import defaultdict
from pathlib import Path

import budoux
import polib
import pytest
from conftest import TESTS, assert_fonts_embedded, need_tool, pdf_fonts, run_cli
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from mazmorra.layout.text.segment import ICON
from mazmorra.model.cardtext import TOKEN, parse_token

KANJI = TESTS / "packs" / "kanji"
FONT = KANJI / "fonts" / "TansakuGothic.ttf"
RULES_PT = 11.0  # the card template's rules text: 11 pt, down to 6.5


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pack built once in every language, with one PDF per card: OUT/kanji."""
    project = tmp_path_factory.mktemp("kanji")
    shutil.copytree(KANJI, project / "content" / "kanji")
    res = run_cli("build", "kanji", "--card-pdfs", cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    return project / "output" / "kanji"


def japanese() -> dict[str, str]:
    """Each card's Japanese rules text, from the pack's catalogue."""
    return {
        e.msgctxt.split(".")[0]: e.msgstr
        for e in polib.pofile(str(KANJI / "locale" / "ja.po"))
        if e.msgctxt.endswith(".text")
    }


def runs(pdf: Path, page: int = 0) -> list[tuple[float, float, float, str]]:
    """A page's text runs as drawn (the front's by default): (size pt, baseline y, x, text)."""
    found = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            found.append((round(size * tm[0], 2), round(tm[5] + cm[5], 1), round(tm[4] + cm[4], 1), text.strip()))

    PdfReader(pdf).pages[page].extract_text(visitor_text=visit)
    return found


def rules_lines(pdf: Path) -> list[str]:
    """The rules text's lines, top to bottom, each line's runs joined left to right."""
    rows: dict[float, list[tuple[float, str]]] = defaultdict(list)
    for size, y, x, text in runs(pdf):
        if size == RULES_PT:
            rows[y].append((x, text))
    return ["".join(t for _, t in sorted(row)) for _, row in sorted(rows.items(), reverse=True)]


@pytest.mark.slow
def test_the_pack_builds_in_three_languages(out: Path) -> None:
    for lang in ("es", "en", "ja"):
        assert (out / lang / "hallazgos.pdf").stat().st_size > 0
    assert sorted(p.stem for p in (out / "ja" / "cards" / "hallazgos").glob("*.pdf")) == sorted(japanese())


def test_japanese_is_set_in_the_pack_font_embedded_and_the_others_are_not(out: Path) -> None:
    need_tool("pdffonts")
    ja = out / "ja" / "hallazgos.pdf"
    assert_fonts_embedded(ja)
    assert [row[0].split("+")[1] for row in pdf_fonts(ja)] == ["TansakuGothic"], "every text, titles too"
    assert not any("Tansaku" in row[0] for row in pdf_fonts(out / "es" / "hallazgos.pdf"))


@pytest.mark.parametrize("card", sorted(japanese()))
def test_every_line_ends_at_a_budoux_phrase_boundary(out: Path, card: str) -> None:
    source = japanese()[card]
    drawn = TOKEN.sub(lambda m: parse_token(m).number or "", source)  # an icon draws its number
    spelled = TOKEN.sub(lambda m: ICON + (parse_token(m).number or ""), source)  # how the breaker reads it
    ends, at = set(), 0
    for phrase in budoux.load_default_japanese_parser().parse(spelled):
        at += len(phrase)
        ends.add(at - spelled[:at].count(ICON))  # the same place in the drawn text
    lines = rules_lines(out / "ja" / "cards" / "hallazgos" / f"{card}.pdf")
    assert "".join(lines) == drawn, lines
    at = 0
    for line in lines[:-1]:
        at += len(line)
        assert at in ends, f"{card}: a line ends inside a phrase: {lines}"


def test_the_28_character_sentence_wraps_at_its_design_size(out: Path) -> None:
    lines = rules_lines(out / "ja" / "cards" / "hallazgos" / "dragon.pdf")
    assert len(japanese()["dragon"]) == 28 and len(lines) >= 2, lines


def test_no_glyph_is_missing(out: Path) -> None:
    """Every character the Japanese PDFs draw is in the font's cmap, and every glyph embedded (the
    .notdef aside) has an outline: no empty box stands for a missing character."""
    cmap = TTFont(FONT).getBestCmap()
    for pdf in (out / "ja" / "cards" / "hallazgos").glob("*.pdf"):
        text = "".join(t for *_, t in runs(pdf))
        assert text and not {c for c in text if ord(c) not in cmap}, pdf.name
        fonts = PdfReader(pdf).pages[0]["/Resources"]["/Font"]
        for ref in fonts.values():
            descriptor = ref.get_object()["/FontDescriptor"].get_object()
            embedded = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))
            glyf = embedded["glyf"]
            order = embedded.getGlyphOrder()
            empty = [g for g in order[1:] if glyf[g].numberOfContours == 0]
            assert len(empty) <= 1, f"{pdf.name}: glyphs without ink {empty}"  # at most the space


def test_no_text_is_below_its_floor(out: Path) -> None:
    """The pack's floors (6.5 pt for titles and rules, 5.5 for labels): the Japanese fronts keep their
    design sizes (11 pt rules, 12 pt titles), none shrinks; the backs' deck name and game name too."""
    for pdf in (out / "ja" / "cards" / "hallazgos").glob("*.pdf"):
        assert {size for size, *_ in runs(pdf)} == {RULES_PT, 12.0}, pdf.name
        assert {size for size, *_ in runs(pdf, 1)} == {13.0, 7.0}, pdf.name


def test_the_subset_font_is_small_and_renamed_as_its_licence_asks() -> None:
    font = TTFont(FONT)
    assert FONT.stat().st_size < 300_000
    assert (KANJI / "fonts" / "LICENSE-IPA-Font.txt").exists()
    names = {r.toUnicode() for r in font["name"].names if r.nameID in (1, 3, 4, 6, 16, 17)}
    assert names and not any(re.search("IPA", n) for n in names), names
