"""Decks from spreadsheets: bad workbooks and CSV files are one clear, located problem (how fast: bench/spreadsheet.py)
with nothing written; translations in `@lang` columns reach the build, i18n status and update; an
ODS file reads like an XLSX one."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from conftest import edit, pdf_text, run_cli, tree_snapshot
from docpack import PACK, set_cell, write_doc_pack
from odsfile import write_ods

from mazmorra.i18n.labels import CALIBRATION_WORDS


@pytest.fixture
def doc_pack(tmp_path: Path) -> Path:
    return write_doc_pack(tmp_path)


def _fails_clearly(pack: Path, *needles: str) -> str:
    project = pack.parents[1]
    (project / "output" / PACK / "es").mkdir(parents=True, exist_ok=True)
    (project / "output" / PACK / "es" / "previous.pdf").write_bytes(b"previous build")
    before = tree_snapshot(project / "output")
    res = run_cli("build", PACK, cwd=project)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    for needle in needles:
        assert needle in text, f"{needle!r} not in:\n{text}"
    assert tree_snapshot(project / "output") == before
    return text


def test_a_corrupt_workbook_is_a_clear_error(doc_pack: Path) -> None:
    book = doc_pack / "decks" / "hechizos.xlsx"
    book.write_bytes(book.read_bytes()[:900])  # cut short, as an interrupted download
    _fails_clearly(
        doc_pack,
        "content/grimorio-mini/decks/hechizos.xlsx",
        "not a readable XLSX workbook",
        "(spreadsheet.unreadable)",
    )


def test_a_password_protected_workbook_says_so(doc_pack: Path) -> None:
    # An encrypted OOXML file is an OLE compound file holding an EncryptionInfo stream.
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + "EncryptionInfo".encode("utf-16-le") + b"\0" * 1024
    (doc_pack / "decks" / "hechizos.xlsx").write_bytes(ole)
    _fails_clearly(doc_pack, "hechizos.xlsx", "password-protected", "(spreadsheet.unreadable)")


@pytest.mark.slow
def test_a_workbook_of_100000_rows_fails_clearly_with_a_clear_message(doc_pack: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Hechizos")
    ws.append(["id", "name", "name@en", "cost", "school", "summons", "text", "text@en"])
    for i in range(100_000):
        ws.append([f"h{i}", f"Hechizo {i}", f"Spell {i}", i % 10, "fuego", "salamandra", "Texto.", "Text."])
    wb.save(doc_pack / "decks" / "hechizos.xlsx")
    _fails_clearly(
        doc_pack,
        "content/grimorio-mini/decks/hechizos.xlsx[Hechizos]!A10002",
        "more than 10000 components",
        "(spreadsheet.size)",
    )


def test_a_latin1_csv_names_the_encoding(doc_pack: Path) -> None:
    csv = doc_pack / "decks" / "criaturas.csv"
    csv.write_bytes(csv.read_text(encoding="utf-8").encode("latin-1"))
    _fails_clearly(
        doc_pack,
        "content/grimorio-mini/decks/criaturas.csv:2:6",
        "not UTF-8",
        "Latin-1",
        "CSV UTF-8",
        "(spreadsheet.encoding)",
    )


def test_a_ragged_csv_row_is_located(doc_pack: Path) -> None:
    edit(
        doc_pack / "decks" / "criaturas.csv",
        "lobo-sombrio,Lobo sombrío,Shadow Wolf,3,2,",
        "lobo-sombrio,Lobo sombrío,Shadow Wolf,3,2,9,",
    )
    _fails_clearly(
        doc_pack,
        "content/grimorio-mini/decks/criaturas.csv:3:",
        "row 3 has 8 cell(s) but the header names 7",
        "(spreadsheet.ragged)",
    )


def test_an_unknown_worksheet_is_suggested(doc_pack: Path) -> None:
    edit(doc_pack / "pack.yaml", "sheet: Hechizos", "sheet: Hechizo")
    _fails_clearly(doc_pack, "no worksheet 'Hechizo'; did you mean 'Hechizos'?", "(spreadsheet.name)")


def test_semicolons_decimal_commas_booleans_lists_and_grids_read_as_typed(tmp_path: Path) -> None:
    from mazmorra.load import load_pack

    pack = tmp_path / "content" / "p"
    (pack / "kinds").mkdir(parents=True)
    (pack / "decks").mkdir()
    (pack / "pack.yaml").write_text(
        "id: p\nname: P\nlanguages: [es]\ndecks:\n  - {id: cosas, kind: cosa, name: Cosas, file: decks/cosas.csv}\n",
        encoding="utf-8",
    )
    (pack / "kinds" / "cosa.yaml").write_text(
        "name: cosa\nextends: card\nfields:\n  weight: {type: number}\n  rare: {type: bool}\n"
        "  tags: {type: list, of: string}\n  lair: {type: grid, rows: 2, cols: 3, values: ['.', x]}\n",
        encoding="utf-8",
    )
    (pack / "decks" / "cosas.csv").write_text(
        '\ufeffid;name;weight;rare;tags;lair;copies\nuna;Una cosa;2,5;sí;"a; b ";"x . .;. x .";3\n', encoding="utf-8"
    )
    loaded = load_pack(pack)
    comp = loaded.components()[0]
    assert (comp.data.weight, comp.data.rare, comp.data.tags, comp.data.copies) == (2.5, True, ["a", "b"], 3)
    assert comp.data.lair == [["x", ".", "."], [".", "x", "."]]
    assert (comp.field_loc("weight").line, comp.field_loc("weight").col) == (2, 3)


def test_an_ods_deck_reads_like_a_workbook(doc_pack: Path) -> None:
    from docpack import doc_workbooks

    worksheet, rows = doc_workbooks()["decks/hechizos.xlsx"]
    write_ods(doc_pack / "decks" / "hechizos.ods", worksheet, rows)
    (doc_pack / "decks" / "hechizos.xlsx").unlink()
    edit(doc_pack / "pack.yaml", "file: decks/hechizos.xlsx", "file: decks/hechizos.ods")
    project = doc_pack.parents[1]
    res = run_cli("build", PACK, cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Fireball" in pdf_text(project / "output" / PACK / "en" / "hechizos.pdf")
    (doc_pack / "decks" / "hechizos.ods").write_bytes(b"PK\x03\x04 not really a zip")
    _fails_clearly(doc_pack, "hechizos.ods", "not a readable ODS spreadsheet", "(spreadsheet.unreadable)")


def test_ods_merged_cells_and_formulas_without_a_result_are_named_at_their_cell(doc_pack: Path) -> None:
    from docpack import doc_workbooks

    worksheet, rows = doc_workbooks()["decks/hechizos.xlsx"]
    book = doc_pack / "decks" / "hechizos.ods"
    write_ods(book, worksheet, rows)
    with zipfile.ZipFile(book) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    content = parts["content.xml"].decode()
    spanned = '<table:table-cell office:value-type="string"><text:p>Bola de fuego</text:p>'
    content = content.replace(
        spanned, spanned.replace("<table:table-cell ", '<table:table-cell table:number-columns-spanned="2" ')
    )
    formula = '<table:table-cell office:value-type="string"><text:p>Lanza de hielo</text:p></table:table-cell>'
    content = content.replace(formula, '<table:table-cell table:formula="of:=UPPER([.A3])"/>')
    parts["content.xml"] = content.encode()
    with zipfile.ZipFile(book, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    (doc_pack / "decks" / "hechizos.xlsx").unlink()
    edit(doc_pack / "pack.yaml", "file: decks/hechizos.xlsx", "file: decks/hechizos.ods")
    _fails_clearly(
        doc_pack,
        "content/grimorio-mini/decks/hechizos.ods[Hechizos]!B2: error: cells B2:C2 are merged",
        "content/grimorio-mini/decks/hechizos.ods[Hechizos]!B3: error: cell B3 holds a formula whose result was "
        "never saved",
        "(spreadsheet.formula)",
    )


@pytest.mark.slow
def test_spreadsheet_translations_are_counted_and_kept_out_of_the_catalogue(doc_pack: Path) -> None:
    import polib

    project = doc_pack.parents[1]
    assert run_cli("i18n", "update", PACK, cwd=project).returncode == 0
    po = polib.pofile(str(doc_pack / "locale" / "en.po"))
    ctxs = {e.msgctxt for e in po if not e.obsolete}
    assert "bola-de-fuego.name" not in ctxs and "salamandra.text" not in ctxs  # the spreadsheets translate them
    assert "pack.name" in ctxs
    res = run_cli("i18n", "status", PACK, "--json", cwd=project)
    en = next(r for r in json.loads(res.stdout) if r["lang"] == "en")
    # 13 texts (the backs print no label), the 3 labels of a round's removal list, the draft band's 2 words
    # and the calibration sheet's words
    total = 18 + len(CALIBRATION_WORDS)
    assert en["from_spreadsheets"] == 10 and en["translated"] == en["total"] == total, en


def test_a_spreadsheet_and_catalogue_that_disagree_are_a_located_conflict(doc_pack: Path) -> None:
    po = doc_pack / "locale" / "en.po"
    po.write_text(
        po.read_text(encoding="utf-8") + '\nmsgctxt "bola-de-fuego.name"\nmsgid "Bola de fuego"\nmsgstr "Fire Ball"\n',
        encoding="utf-8",
    )
    _fails_clearly(
        doc_pack,
        "content/grimorio-mini/decks/hechizos.xlsx[Hechizos]!C2",
        "the spreadsheet translates it as 'Fireball' but content/grimorio-mini/locale/en.po:",
        "as 'Fire Ball'",
        "(i18n.conflict)",
    )


def test_a_translation_column_of_a_number_field_is_refused(doc_pack: Path) -> None:
    set_cell(doc_pack / "decks" / "hechizos.xlsx", "I1", "cost@en")
    _fails_clearly(doc_pack, "[Hechizos]!I1", "'cost' is not a text field", "(spreadsheet.translation)")


def test_a_kind_column_mixes_kinds_in_one_spreadsheet(doc_pack: Path) -> None:
    from mazmorra.load import load_pack

    csv = doc_pack / "decks" / "criaturas.csv"
    lines = csv.read_text(encoding="utf-8").splitlines()
    lines[0] += ",kind,copies"
    lines[1] += ",,2"
    lines[2] += ",,"
    lines.append("nota,Nota,Note,,,Una nota.,A note.,card,")
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = load_pack(doc_pack).deck("criaturas")
    assert [(c.id, c.kind.name, c.data.copies) for c in deck.components] == [
        ("salamandra", "criatura", 2),
        ("lobo-sombrio", "criatura", 1),
        ("nota", "card", 1),
    ]
