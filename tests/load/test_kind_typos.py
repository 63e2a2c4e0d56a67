"""A field's name misspelt in a kind file or in a spreadsheet's header: reported where the fix is."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_kind_file_typo_is_reported_at_the_kind_file_with_the_column_second(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("grimorio")
    _edit(pack / "kinds" / "hechizo.yaml", "  cost: ", "  cots: ")
    res = run_cli("validate", "--lang", "es", cwd=pack.parent.parent)
    assert res.returncode == 1
    line = next(x for x in res.stderr.splitlines() if "kind.field-no-column" in x)
    assert line.startswith("content/grimorio/kinds/hechizo.yaml:9:"), line
    assert "column 'cost' (content/grimorio/decks/hechizos.xlsx[Hechizos]!D1)" in line
    assert "did you mean 'cost'?" in line and "did you mean 'cots'" not in res.stderr


def test_a_column_typo_is_reported_at_the_column_naming_the_kind_file_too(pack_copy) -> None:  # type: ignore[no-untyped-def]
    pack = pack_copy("grimorio")
    _edit(pack / "decks" / "criaturas.csv", "attack,", "atack,")
    res = run_cli("validate", "--lang", "es", cwd=pack.parent.parent)
    assert res.returncode == 1
    line = next(x for x in res.stderr.splitlines() if "spreadsheet.unknown-field" in x)
    assert line.startswith("content/grimorio/decks/criaturas.csv:1:"), line
    assert "did you mean 'attack'?" in line and "content/grimorio/kinds/criatura.yaml:8:" in line


def test_a_required_field_misspelt_is_one_finding_not_one_per_row(tmp_path: Path) -> None:
    """`potenica:` (required) in the kind file, `potencia` in the sheet's header and the template: one
    error at the kind file's line saying how many rows miss it meanwhile, not 'required field is
    missing' on every row; the same when the header is the one misspelt."""
    from conftest import write_pack

    pack = write_pack(
        tmp_path,
        {
            "pack.yaml": "id: p\nname: P\nsource_language: es\nlanguages: [es]\n"
            "decks:\n  - {id: c, kind: pocion, name: Pociones, file: decks/c.csv}\n",
            "kinds/pocion.yaml": "name: pocion\nextends: card\ntemplate: pocion.xml.j2\nfields:\n"
            "  potenica: {type: int, required: true, min: 0}\n",
            "templates/pocion.xml.j2": '<card><text x="5" y="5" w="50" h="9" size="10">{{ card.name }} '
            "{{ card.potencia }}</text></card>\n",
            "decks/c.csv": "id,name,potencia\na,Uno,1\nb,Dos,2\nc,Tres,3\n",
        },
    )
    res = run_cli("validate", cwd=pack)
    assert res.returncode == 1
    errors = [x for x in res.stderr.splitlines() if ": error " in x]
    assert len(errors) == 1, res.stderr
    assert errors[0].startswith("kinds/pocion.yaml:5:") and "kind.field-no-column" in errors[0], errors
    assert "until then 3 rows miss required field 'potenica'" in errors[0] and "schema.missing" not in res.stderr
    _edit(pack / "kinds" / "pocion.yaml", "potenica:", "potencia:")
    _edit(pack / "decks" / "c.csv", "id,name,potencia", "id,name,potenica")
    res = run_cli("validate", cwd=pack)
    errors = [x for x in res.stderr.splitlines() if ": error " in x]
    assert len(errors) == 1 and errors[0].startswith("decks/c.csv:1:3:"), res.stderr
    assert "until then 3 rows miss required field 'potencia'" in errors[0] and "schema.missing" not in res.stderr
    _edit(pack / "decks" / "c.csv", "id,name,potenica", "id,nombre,potenica")  # another required field: per row
    res = run_cli("validate", cwd=pack)
    assert "schema.missing" in res.stderr and "[a.name]" in res.stderr, res.stderr
