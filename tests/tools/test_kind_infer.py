"""`mazmorra kinds infer`: a kind file drafted from a workbook's header and values validates that
workbook unchanged; a spreadsheet without an `id` column builds, its ids made from the names (a
warning when two names make the same id)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit, pdf_text, run_cli

from mazmorra.source.yamlsafe import load_yaml

HEADER = ["name", "name@en", "cost", "school", "tags", "text", "text@en", "rare", "weight"]
ROWS = [
    ["Poción roja", "Red Potion", 1, "fuego", "curar;beber", "Cura 2 heridas.", "Heal 2 wounds.", True, 0.5],
    ["Poción azul", "Blue Potion", 2, "hielo", "beber", "Roba una carta.", "Draw a card.", False, 1.5],
    ["Poción verde", "Green Potion", 3, "fuego", "curar", "Cura 1 herida.", "Heal 1 wound.", False, 2],
    ["Elixir dorado", "Golden Elixir", 7, "hielo", "beber;raro", "Gana 1 punto.", "Gain 1 point.", True, 1],
]


def _project(tmp_path: Path, rows: list[list[object]]) -> Path:
    """A new pack whose one deck is the workbook `decks/pociones.xlsx` (no `id` column), still of kind card."""
    import openpyxl

    assert run_cli("new", "pociones", "--content", str(tmp_path / "content")).returncode == 0
    pack = tmp_path / "content" / "pociones"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Pociones"
    sheet.append(HEADER)
    for row in rows:
        sheet.append(row)
    book.save(pack / "decks" / "pociones.xlsx")
    edit(pack / "pack.yaml", "file: decks/cartas.yaml\n    size: 3", "file: decks/pociones.xlsx")
    return pack


@pytest.mark.slow
def test_a_drafted_kind_validates_its_workbook_unchanged(tmp_path: Path) -> None:
    pack = _project(tmp_path, ROWS)
    res = run_cli("kinds", "infer", "content/pociones/decks/pociones.xlsx", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "drafted" in res.stderr and "kinds/pociones.yaml" in res.stderr
    drafted = load_yaml(pack / "kinds" / "pociones.yaml")
    assert drafted["name"] == "pociones" and drafted["extends"] == "card"
    fields = drafted["fields"]
    assert list(fields) == ["name", "cost", "school", "tags", "text", "rare", "weight"]  # id-less, @en folded in
    assert fields["name"] == {"type": "text", "required": True}
    assert fields["cost"] == {"type": "int", "min": 1, "max": 7, "required": True}
    assert fields["school"] == {"type": "enum", "values": ["fuego", "hielo"], "required": True}
    assert fields["tags"] == {
        "type": "list",
        "of": {"type": "enum", "values": ["beber", "curar", "raro"]},
        "required": True,
    }
    assert fields["text"]["type"] == "text" and fields["rare"]["type"] == "bool"
    assert fields["weight"] == {"type": "number", "min": 0.5, "max": 2, "required": True}
    edit(pack / "pack.yaml", "kind: card", "kind: pociones")
    res = run_cli("validate", "content/pociones", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "valid (0 warning(s))" in res.stdout + res.stderr
    # the drafted kind is a real check: a value beyond the seen range is refused at its cell
    import openpyxl

    book = openpyxl.load_workbook(pack / "decks" / "pociones.xlsx")
    book["Pociones"]["C3"] = 12
    book.save(pack / "decks" / "pociones.xlsx")
    res = run_cli("validate", "content/pociones", cwd=tmp_path)
    assert res.returncode == 1 and "pociones.xlsx[Pociones]!C3" in res.stdout + res.stderr


def test_infer_prints_a_csv_kind_and_never_overwrites(tmp_path: Path) -> None:
    csv = tmp_path / "monstruos.csv"
    csv.write_text(
        "id,name,attack,habitat,colour\nm1,Lobo,2,bosque,#336699\nm2,Oso,4,bosque,#993333\nm3,Rata,1,cueva,#000000\n",
        encoding="utf-8",
    )
    res = run_cli("kinds", "infer", str(csv), cwd=tmp_path)  # outside a pack: printed
    assert res.returncode == 0, res.stderr
    assert "name: monstruos" in res.stdout
    assert "  attack: {type: int, min: 1, max: 4, required: true}" in res.stdout
    assert "  habitat: {type: enum, values: [bosque, cueva], required: true}" in res.stdout
    assert "  colour: {type: colour, required: true}" in res.stdout
    assert "  id:" not in res.stdout
    (tmp_path / "k.yaml").write_text("x", encoding="utf-8")
    res = run_cli("kinds", "infer", str(csv), "--out", "k.yaml", cwd=tmp_path)
    assert res.returncode == 2 and "already exists" in res.stderr
    assert "Traceback" not in res.stderr


@pytest.mark.slow
def test_a_sheet_without_ids_builds_and_two_equal_names_warn(tmp_path: Path) -> None:
    pack = _project(
        tmp_path, [*ROWS, ["Poción roja", "Red Potion", 1, "fuego", "curar", "Otra.", "Another.", False, 1]]
    )
    assert run_cli("kinds", "infer", "content/pociones/decks/pociones.xlsx", cwd=tmp_path).returncode == 0
    edit(pack / "pack.yaml", "kind: card", "kind: pociones")
    res = run_cli("build", "content/pociones", "--lang", "en", cwd=tmp_path)
    text = res.stdout + res.stderr
    assert res.returncode == 0, text
    assert "pociones.xlsx[Pociones]!A6: warning [pocion-roja-2.id]" in text
    assert "already the id at content/pociones/decks/pociones.xlsx[Pociones]!A2" in text
    assert "(spreadsheet.id-collision)" in text
    pdf = tmp_path / "output" / "pociones" / "en" / "cards.pdf"  # the new pack's English file name
    assert "Golden Elixir" in pdf_text(pdf) and "Another." in pdf_text(pdf)  # @en cells reach the ids made from names
    res = run_cli("build", "content/pociones", "--lang", "en", "--strict", cwd=tmp_path)
    assert res.returncode == 1  # a warning fails a strict build


@pytest.mark.parametrize(
    ("name", "want"), [("Bola de fuego", "bola-de-fuego"), ("¡Ñandú!", "nandu"), ("Ægis 2", "gis-2")]
)
def test_slugs(name: str, want: str) -> None:
    from mazmorra.load.slugs import slug

    assert slug(name) == want


def test_an_ods_sheet_is_inferred_like_a_workbook(tmp_path: Path) -> None:
    """LibreOffice stores every number as a decimal: a column of 1.0, 2.0 is still whole numbers."""
    from odsfile import write_ods

    write_ods(
        tmp_path / "fichas.ods",
        "Fichas",
        [["name", "name@en", "value", "shape"], ["Rubí", "Ruby", 3, "gema"], ["Ópalo", "Opal", 5, "gema"]],
    )
    res = run_cli("kinds", "infer", "fichas.ods", "--out", "-", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "  name: {type: text, required: true}" in res.stdout
    assert "  value: {type: int, min: 3, max: 5, required: true}" in res.stdout
    assert "  shape: {type: enum, values: [gema], required: true}" in res.stdout
