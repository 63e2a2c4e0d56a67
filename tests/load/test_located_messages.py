"""Messages planted in copies of the samples, each asserted at its file:line or cell with its words:
a misnamed worksheet at pack.yaml's `sheet:`, formulas without a saved result and merged cells at
their cell, workbooks known by their content (.xlsm), encodings by their byte-order mark, a corrupt
font, loops between dice tables at every row of the loop, repeated enum values."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import edit, located, run_cli

SHEET = "content/grimorio/decks/hechizos.xlsx[Hechizos]"


def _problems(pack: Path, command: str = "validate") -> str:
    res = run_cli(command, pack.name, cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    return text


def _valid(pack: Path) -> str:
    res = run_cli("validate", pack.name, "--strict", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stderr


def test_a_misnamed_worksheet_is_at_the_sheet_line_with_the_worksheets(pack_copy) -> None:
    pack = pack_copy("grimorio")
    edit(pack / "pack.yaml", "sheet: Hechizos", "sheet: Hechizoz")
    text = _problems(pack)
    assert (
        f"{located(pack, 'pack.yaml', 'sheet: Hechizoz')}12: error [deck:hechizos.sheet]: decks/hechizos.xlsx: no "
        "worksheet 'Hechizoz'; did you mean 'Hechizos'? (worksheets: Hechizos, Notas) (spreadsheet.name)"
    ) in text, text


def _edit_book(pack: Path, change) -> None:  # type: ignore[no-untyped-def]
    import openpyxl

    book = pack / "decks" / "hechizos.xlsx"
    wb = openpyxl.load_workbook(book)
    change(wb["Hechizos"])
    wb.save(book)


def test_a_formula_without_a_saved_result_is_named_at_its_cell(pack_copy) -> None:
    pack = pack_copy("grimorio")

    def formula(ws) -> None:  # type: ignore[no-untyped-def]
        ws["B3"] = '=CONCATENATE("Bola de ", "fuego")'  # openpyxl saves formulas without computing them

    _edit_book(pack, formula)
    text = _problems(pack)
    assert (
        f"{SHEET}!B3: error: cell B3 holds a formula whose result was never saved (the file was written by a "
        "program that does not calculate): open the workbook in Excel or LibreOffice and save it, or type the "
        "value (spreadsheet.formula)"
    ) in text, text


def test_merged_cells_are_named_at_their_first_cell(pack_copy) -> None:
    pack = pack_copy("grimorio")

    def merge(ws) -> None:  # type: ignore[no-untyped-def]
        ws.merge_cells("E2:E3")

    _edit_book(pack, merge)
    text = _problems(pack)
    assert (
        f"{SHEET}!E2: error: cells E2:E3 are merged: only the first holds a value, the others read as empty; "
        "unmerge them and fill each cell (spreadsheet.merged)"
    ) in text, text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hechizos.xlsm", "hechizos.yaml"])
def test_a_workbook_is_known_by_its_content_and_its_macros_never_run(pack_copy, name: str) -> None:
    pack = pack_copy("grimorio")
    book = pack / "decks" / "hechizos.xlsx"
    with zipfile.ZipFile(book, "a") as zf:  # what makes it macro-enabled: a VBA project, here a harmless one
        zf.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 not run")
    book.rename(pack / "decks" / name)
    edit(pack / "pack.yaml", "file: decks/hechizos.xlsx", f"file: decks/{name}")
    _valid(pack)
    edit(pack / "pack.yaml", "sheet: Hechizos", "sheet: Nada")
    assert "(worksheets: Hechizos, Notas)" in _problems(pack)  # read as a workbook, not as YAML


@pytest.mark.slow
def test_a_utf16_csv_with_its_byte_order_mark_is_read(pack_copy) -> None:
    pack = pack_copy("grimorio")
    csv = pack / "decks" / "criaturas.csv"
    csv.write_bytes(csv.read_text(encoding="utf-8").encode("utf-16"))  # Excel's "Unicode text": with a BOM
    _valid(pack)


def test_a_utf16_csv_without_its_mark_is_named(pack_copy) -> None:
    pack = pack_copy("grimorio")
    csv = pack / "decks" / "criaturas.csv"
    csv.write_bytes(csv.read_text(encoding="utf-8").encode("utf-16-le"))
    text = _problems(pack)
    assert (
        "content/grimorio/decks/criaturas.csv:1:1: error: the file is UTF-16 without a byte-order mark (every other "
        "byte is zero); save it as 'CSV UTF-8' (Excel) or with character set Unicode (UTF-8) (LibreOffice) "
        "(spreadsheet.encoding)"
    ) in text, text
    assert "Latin-1" not in text


@pytest.mark.slow
def test_a_corrupt_font_is_a_located_worded_error(pack_copy) -> None:
    from fontTools.ttLib import TTFont

    pack = pack_copy("grimorio")
    font = pack / "fonts" / "Caladea-Bold.ttf"
    tt = TTFont(font)
    del tt["name"]  # what fontTools and ReportLab used to report as a bare 'name'
    tt.save(font)
    text = _problems(pack)
    assert (
        "content/grimorio/fonts/Caladea-Bold.ttf: error [fonts]: cannot use font file 'Caladea-Bold.ttf': it has "
        "no 'name' table: not a complete TrueType or OpenType font (font.unreadable)"
    ) in text, text
    font.write_bytes(font.read_bytes()[:3000])  # cut short
    text = _problems(pack)
    assert "content/grimorio/fonts/Caladea-Bold.ttf: error [fonts]: cannot use font file 'Caladea-Bold.ttf': " in text


@pytest.mark.slow
def test_a_loop_between_dice_tables_is_at_each_row_in_it(pack_copy) -> None:
    pack = pack_copy("generada")
    tables = "decks/tablas.yaml"
    edit(pack / tables, "{roll: 2, result: Altar olvidado}", "{roll: 2, result: Altar olvidado, then: tipo-sala}")
    text = _problems(pack)
    chain = "salas-singulares → tipo-sala → salas-singulares (dice_table.cycle)"
    assert (
        f"{located(pack, tables, 'then: tipo-sala')}7: error [salas-singulares.rows.2.then]: row 2 (2) rolls on "
        f"'tipo-sala', and rolling never ends: {chain}"
    ) in text, text
    assert (
        f"{located(pack, tables, 'then: salas-singulares')}7: error [tipo-sala.rows.2.then]: row 2 (6–8) rolls on "
        f"'salas-singulares', and rolling never ends: {chain}"
    ) in text, text


def test_a_repeated_enum_value_is_refused_at_the_repeat(pack_copy) -> None:
    pack = pack_copy("grimorio")
    kind = "kinds/criatura.yaml"
    labelled = (pack / kind).read_text(encoding="utf-8")
    block = labelled[labelled.index("    values:   # printed") : labelled.index("  text:")]
    edit(pack / kind, block, "    values: [bosque, cueva, bosque]\n")  # the values as a list, one twice
    text = _problems(pack)
    line = located(pack, kind, "values: [bosque, cueva, bosque]")
    col = (pack / kind).read_text(encoding="utf-8").splitlines()[int(line.split(":")[1]) - 1].rindex("bosque") + 1
    assert (
        f"{line}{col}: error [kind:criatura.fields.habitat.values]: field 'habitat': value 'bosque' is listed twice "
        "(first as value 1): each value once"
    ) in text, text
