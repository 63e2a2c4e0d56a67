"""The duplex calibration sheet in the player's language (issue 41: every built-in page translatable
by the pack): its words are labels — the tool's Spanish, a pack's own catalogue for its other
languages — added to every pack's label catalogue; a word a language lacks prints in English and is
said, never left blank; every line stays on the page."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from conftest import CONTENT, run_cli
from pypdf import PdfReader

from mazmorra.i18n.labels import CALIBRATION_WORDS
from mazmorra.render.impose.calibrate import TEXT_FOOT

PACKS = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())


def _text(pdf: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(str(pdf)).pages]


def test_the_sheet_prints_in_spanish_from_the_tools_catalogue(tmp_path: Path) -> None:
    pdf = tmp_path / "cal.pdf"
    res = run_cli("calibrate", "--lang", "es", "--duplex", "short", "--out", str(pdf), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "warning" not in res.stderr, res.stderr
    front, back = (" ".join(t.split()) for t in _text(pdf))
    assert "Calibración a doble cara · anverso · A4" in front and "↑ ARRIBA ↑" in front
    assert "volteando por el borde corto" in front and "X mm (+ derecha)" in front
    assert "Reverso · lee aquí · A4" in back and "usa --duplex long" in back
    for english in ("Print both pages", "TOP", "Back ·", "right)"):
        assert english not in front + back, english
    assert PdfReader(str(pdf)).metadata.title == "mazmorra · Calibración a doble cara · anverso · A4"


def test_english_stays_the_default_outside_a_pack(tmp_path: Path) -> None:
    res = run_cli("calibrate", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    front, _ = (" ".join(t.split()) for t in _text(tmp_path / "output" / "calibration-a4.pdf"))
    assert "Duplex calibration · front · A4" in front and "1. Print both pages double-sided" in front


def test_a_packs_own_language_comes_from_its_label_catalogue(tmp_path: Path) -> None:
    pdf = tmp_path / "fr.pdf"
    res = run_cli("calibrate", "grimorio", "--lang", "fr", "--landscape", "--back-offset", "1.5,0", "--out", str(pdf))
    assert res.returncode == 0 and "warning" not in res.stderr, res.stderr
    front, back = (" ".join(t.split()) for t in _text(pdf))
    assert "Calibrage recto verso · recto · A4 paysage" in front and "↑ HAUT ↑" in front
    assert "Ce verso est déjà décalé par --back-offset 1.5,0." in back


def test_a_missing_word_prints_in_english_and_is_said(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("grimorio")
    po_path = pack / "locale" / "labels" / "fr.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    entry = next(e for e in po if e.msgid == "TOP")
    entry.msgstr = ""
    po.save(str(po_path))
    pdf = tmp_path / "fr.pdf"
    res = run_cli("calibrate", "grimorio", "--lang", "fr", "--out", str(pdf), cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    said = " ".join(res.stderr.split())
    assert "prints 1 of its words in English" in said and "content/grimorio/locale/labels/fr.po" in said, said
    assert "↑ TOP ↑" in _text(pdf)[0]


def test_a_language_nobody_translated_is_refused_with_the_code_meant(tmp_path: Path) -> None:
    res = run_cli("calibrate", "--lang", "Spanish", cwd=tmp_path)
    assert res.returncode == 2
    assert "did you mean 'es'?" in res.stderr and not (tmp_path / "output").exists(), res.stderr


@pytest.mark.parametrize("pack", PACKS)
def test_every_pack_catalogue_holds_the_sheets_words_translated(pack: str) -> None:
    """`i18n update` adds them like the draft band's words; the tool's Spanish fills them in."""
    words = {w for w, _ in CALIBRATION_WORDS}
    for po_path in sorted((CONTENT / pack / "locale" / "labels").glob("*.po")):
        found = {e.msgid: e for e in polib.pofile(str(po_path)) if e.msgctxt == "label" and not e.obsolete}
        assert words <= found.keys(), (po_path, words - found.keys())
        assert all(found[w].msgstr and "fuzzy" not in found[w].flags for w in words), po_path


def test_long_translations_wrap_inside_the_page(pack_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A translation three times as long as the French wraps onto more lines, all above the corner crosses
    and inside the page's width; the title shrinks to the width instead of running off."""
    pack = pack_copy("grimorio")
    po_path = pack / "locale" / "labels" / "fr.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    for e in po:
        if e.msgid in {w for w, _ in CALIBRATION_WORDS} and e.msgstr:
            e.msgstr = " — ".join([e.msgstr] * 3)
    po.save(str(po_path))
    pdf = tmp_path / "long.pdf"
    res = run_cli("calibrate", "grimorio", "--lang", "fr", "--page", "letter", "--out", str(pdf), cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    page = PdfReader(str(pdf)).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    spans: list[tuple[float, float, float]] = []  # x, y, font size of every text run

    def seen(text: str, cm, tm, font, size) -> None:  # type: ignore[no-untyped-def]
        if text.strip():
            spans.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], size * tm[0] * cm[0]))

    page.extract_text(visitor_text=seen)
    assert spans
    mm = 72 / 25.4
    lowest = min(y for _, y, _ in spans)
    assert lowest >= (TEXT_FOOT - 1) * mm, lowest / mm  # above the corner crosses
    assert all(0 <= x < width and 0 <= y < height for x, y, _ in spans)
    sizes = sorted({round(size, 2) for _, _, size in spans})
    assert 7 <= sizes[-1] < 11, sizes  # the tripled title shrank to the page's width
