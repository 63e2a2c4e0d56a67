"""Issue 2: the Expedition artimaña and curse decks become print-ready PDFs in es and en."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import CONTENT, assert_fonts_embedded, need_tool, pdf_text, render_png, run_cli, tree_snapshot
from pypdf import PdfReader

pytestmark = pytest.mark.slow  # not in the fast tier: whole builds

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
DECKS = ("artimanas", "maldiciones")


def _size(pdf: Path) -> tuple[float, float]:
    box = PdfReader(str(pdf)).pages[0].mediabox
    return float(box.width), float(box.height)


def test_build_writes_both_decks_in_both_languages(built_expedicion: Path) -> None:
    for lang, decks in (("es", DECKS), ("en", ("tricks", "curses"))):  # the English file names
        for deck in decks:
            pdf = built_expedicion / lang / f"{deck}.pdf"
            assert pdf.is_file(), pdf
            assert _size(pdf) == pytest.approx(A4[::-1], abs=0.05)  # poker cards: 8 a landscape sheet, 6 portrait


def test_fonts_are_all_embedded_and_subset(built_expedicion: Path) -> None:
    need_tool("pdffonts")
    with_text = 0
    for pdf in sorted(built_expedicion.rglob("*.pdf")):
        with_text += bool(assert_fonts_embedded(pdf))
    assert with_text >= 4  # every deck with text embeds its fonts


def test_qpdf_check_is_clean(built_expedicion: Path) -> None:
    need_tool("qpdf")
    for pdf in sorted(built_expedicion.rglob("*.pdf")):
        res = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert res.returncode == 0, res.stdout + res.stderr


def test_text_is_in_the_right_language(built_expedicion: Path) -> None:
    es = pdf_text(built_expedicion / "es" / "artimanas.pdf")
    en = pdf_text(built_expedicion / "en" / "tricks.pdf")
    # Names come from the YAML (es) and the catalogue (en); labels from the template catalogues.
    assert "Estrella propicia" in es and "Estrella propicia" not in en
    assert "ACCIÓN" in es and "ACTION" in en
    assert "Destino" in es and "Destiny" in en
    import polib

    po = polib.pofile(str(CONTENT / "expedicion/locale/en.po"))
    english = po.find("estrella-propicia.name", by="msgctxt").msgstr
    assert english and english in en and english not in es
    curses_es = pdf_text(built_expedicion / "es" / "maldiciones.pdf")
    assert "Penalización final" in curses_es


def test_pdf_metadata(built_expedicion: Path) -> None:
    meta = PdfReader(str(built_expedicion / "en" / "tricks.pdf"))
    assert meta.metadata.title == "The Expedition — Tricks"
    assert meta.metadata.author
    root = meta.trailer["/Root"]
    assert root["/Lang"] == "en"


def test_letter_page(tmp_path: Path) -> None:
    res = run_cli("build", "expedicion", "--lang", "es", "--page", "letter", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert _size(tmp_path / "expedicion/es/artimanas.pdf") == pytest.approx(LETTER[::-1], abs=0.05)
    assert not (tmp_path / "expedicion/en").exists()


def test_build_is_deterministic(tmp_path: Path, built_expedicion: Path) -> None:
    res = run_cli("build", "expedicion", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    again = tree_snapshot(tmp_path / "expedicion")
    first = tree_snapshot(built_expedicion)
    assert again.keys() == first.keys()
    for name in first:
        assert again[name] == first[name], f"{name} differs between two builds"


def _geometry(page: str = "a4"):
    from mazmorra.render.impose import ImposeOptions, plan

    return plan(ImposeOptions(page=page), 63.0, 88.0, 3.0)


def test_cards_per_sheet_use_the_printable_area() -> None:
    grid = _geometry()
    assert (grid.cols, grid.rows) == (2, 3)
    assert grid.left >= 5 and grid.top >= 5
    letter = _geometry("letter")
    assert letter.per_sheet >= 4


def test_crop_marks_lie_outside_every_bleed_box_and_are_drawn(built, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    from mazmorra.render.impose import crop_marks

    grid = _geometry()
    boxes = []
    for i in range(grid.per_sheet):
        x, y = grid.cell(i)
        boxes.append((x - 3, y - 3, x + 63 + 3, y + 88 + 3))
    marks = crop_marks(grid)
    assert len(marks) == 2 * (2 * grid.cols + 2 * grid.rows)  # both ends of every trim line

    def inside(px: float, py: float) -> bool:
        return any(x0 < px < x1 and y0 < py < y1 for x0, y0, x1, y1 in boxes)

    for x1, y1, x2, y2 in marks:
        for t in (0.0, 0.5, 1.0):
            assert not inside(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
        assert min(x1, x2) >= 5 - 1e-6 and min(y1, y2) >= 5 - 1e-6  # inside the printable margin
    dpi = 150
    img = render_png(built("expedicion", "--portrait") / "es" / "artimanas.pdf", 1, dpi, tmp_path)
    px = lambda mm: round(mm * dpi / 25.4)  # noqa: E731
    dark = 0
    for x1, y1, x2, y2 in marks:
        r, g, b = img.getpixel((px((x1 + x2) / 2), px((y1 + y2) / 2)))
        dark += r + g + b < 3 * 160
    assert dark >= len(marks) * 0.9
    # The trim corner itself is inside the card artwork, not white.
    x, y = grid.cell(0)
    assert img.getpixel((px(x - 1.5), px(y - 1.5))) != (255, 255, 255)
    # Just outside the bleed, between bleed and mark, the paper stays white.
    assert img.getpixel((px(x + 20), px(y - 3 - 0.25))) == (255, 255, 255)


def test_backs_follow_fronts_mirrored_for_long_edge_duplex(built, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    pdf = built("expedicion", "--portrait") / "es" / "maldiciones.pdf"
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 6  # 15 curses, 6 per sheet: 3 fronts pages, each followed by backs
    grid = _geometry()
    dpi = 60
    front = render_png(pdf, 5, dpi, tmp_path)
    back = render_png(pdf, 6, dpi, tmp_path)
    px = lambda mm: round(mm * dpi / 25.4)  # noqa: E731

    def filled(img, index: int) -> bool:
        x, y = grid.cell(index)
        return img.getpixel((px(x + 31.5), px(y + 5))) != (255, 255, 255)

    # Last sheet holds 3 curses: cells 0, 1 (row 0) and 2 (row 1, left column).
    assert [filled(front, i) for i in range(6)] == [True, True, True, False, False, False]
    # Its backs: row 1 mirrored to the right column for long-edge flipping.
    assert [filled(back, i) for i in range(6)] == [True, True, False, True, False, False]
