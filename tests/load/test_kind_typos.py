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
