"""Grid rows holding `#` (a wall symbol many designers reach for): a quoted row or a block scalar
reads it as a cell; an unquoted row, where YAML takes `#` for a comment, gets a message saying to
quote the row, at its line."""

from __future__ import annotations

from pathlib import Path

from conftest import located, run_cli
from test_grid_data import make, problems

HASH_SALA_LEGEND = ('      rock: {symbol: "x"}', '      rock: {symbol: "#"}')


def _pack(tmp_path: Path, rows: str) -> Path:
    from test_grid_data import SALA

    sala = SALA.replace(*HASH_SALA_LEGEND)
    salas = (
        "- id: uno\n  name: Uno\n  bando: rojo\n  map:\n    cells:\n"
        + rows
        + '    edges:\n      door: ["0,0 n", "2,2 s"]\n      wall: ["0-1,0 e"]\n    spans: []\n'
    )
    return make(tmp_path, kinds__sala_yaml=sala, decks__salas_yaml=salas)


def test_a_quoted_row_with_a_hash_is_a_row_of_cells(tmp_path: Path) -> None:
    pack = _pack(tmp_path, '      - ". .1 #"\n      - "~ G .2*"\n      - ". . ."\n')
    res = run_cli("validate", "p", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr


def test_a_block_scalar_with_a_hash_is_rows_of_cells(tmp_path: Path) -> None:
    salas_rows = "      |\n        . .1 #\n        ~ G .2*\n        . . .\n"
    pack = _pack(tmp_path, "")
    text = (
        (pack / "decks/salas.yaml")
        .read_text(encoding="utf-8")
        .replace("    cells:\n", "    cells: " + salas_rows.lstrip(), 1)
    )
    (pack / "decks/salas.yaml").write_text(text, encoding="utf-8")
    res = run_cli("validate", "p", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr + text


def test_an_unquoted_row_with_a_hash_says_quote_the_row_at_its_line(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "      - . .1 #\n      - ~ G .2*\n      - . . .\n")
    text = problems(pack)
    assert "quote the row" in text, text
    assert located(pack, "decks/salas.yaml", "- . .1 #") in text, text
