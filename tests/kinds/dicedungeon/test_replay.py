"""A stored map re-checked roll by roll (seeds/004, «Exploración de la mazmorra»), beyond the planted
defects of tests/kinds/test_rulebook_plants.py: a search roll edited on a map rolled with searches
fails at its line; a map the GM drew beforehand and tables that mean the same in other words (1D12,
rows reordered and split) are not refused."""

from __future__ import annotations

from pathlib import Path

from conftest import assert_build_fails, edit, located, run_cli

MAPS = "decks/mapas.yaml"
TABLES = "decks/tablas.yaml"


def _add_door(pack: Path, line: str) -> None:
    edit(pack / MAPS, "  exits:\n", f"    {line}\n  exits:\n")


def _fails(pack: Path, rule: str, says: str, line: str, file: str = MAPS) -> None:
    assert_build_fails(pack, f"({rule})", says, located(pack, file, line), command="validate")


def _valid(pack: Path, *langs: str) -> None:
    res = run_cli(
        "validate", pack.name, "--strict", *(("--lang", ",".join(langs)) if langs else ()), cwd=pack.parents[1]
    )
    assert res.returncode == 0, res.stderr


def test_a_search_recorded_as_found_below_the_target(pack_copy) -> None:
    pack = pack_copy("generada")
    project = pack.parents[1]
    res = run_cli("generate", "generada", "--seed", "5", cwd=project)  # seed 5 searches twice: nothing, then found
    assert res.returncode == 0, res.stderr
    text = (pack / MAPS).read_text(encoding="utf-8")
    found = next(line for line in text.splitlines() if "outcome: found" in line)
    low = found.split("dice: [")[0] + "dice: [9], total: 9, outcome: found}"
    (pack / MAPS).write_text(text.replace(found, low), encoding="utf-8")
    _fails(pack, "dungeon_map.search", "so 9 finds nothing, not one", "dice: [9], total: 9, outcome: found")


def test_a_map_the_gm_drew_beforehand_follows_no_roll(pack_copy) -> None:
    pack = pack_copy("generada")
    (pack / MAPS).write_text(
        "- id: cripta-del-dj\n  cols: 14\n  rows: 9\n  areas:\n"
        "    - {n: 1, type: room, at: [1, 1], size: [5, 5]}\n"
        "    - {n: 2, type: corridor, at: [6, 2], size: [5, 2], joins: 1, via: door}\n"
        "    - {n: 3, type: quest, at: [1, 6], size: [10, 5]}\n".replace("rows: 9", "rows: 12"),
        encoding="utf-8",
    )
    _valid(pack)


def test_tables_that_mean_the_same_in_other_words(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / TABLES, "die: 1d12\n  role: room-doors", "die: 1D12\n  role: room-doors")
    edit(  # the room doors table with its rows in another order
        pack / TABLES,
        "    - {roll: 1-5, result: Ninguna puerta, outcome: no-doors}\n    - {roll: 6-9, result: Una puerta, outcome: one-door}\n",
        "    - {roll: 6-9, result: Una puerta, outcome: one-door}\n    - {roll: 1-5, result: Ninguna puerta, outcome: no-doors}\n",
    )
    edit(  # one row of the corridor length split in two
        pack / TABLES,
        "    - {roll: 1-4, result: Un tramo, outcome: 1}\n",
        "    - {roll: 1-2, result: Un tramo, outcome: 1}\n    - {roll: 3-4, result: Un tramo, outcome: 1}\n",
    )
    _valid(pack, "es")  # (the English catalogue keys results by row: `mazmorra i18n update` follows the moves)
