"""A stored map re-checked roll by roll (seeds/004, «Exploración de la mazmorra»): copies of the sample
map, each hand-edited the way the rulebook forbids, fail at the edited line with the rule that says
why; edits the rulebook allows (a door closing a dead end, a map the GM drew beforehand) and tables
that mean the same in other words (1D12, rows reordered or split) are not refused."""

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


def test_a_door_roll_of_the_wrong_parity(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(
        pack / MAPS,
        "dice: [5], total: 5, outcome: room}\n    - {area: 27, table: tipo-sala",
        "dice: [5], total: 5, outcome: corridor}\n    - {area: 27, table: tipo-sala",
    )
    _fails(pack, "dungeon_map.door-leads", "so 5 is a room, not a corridor", '{area: 27, die: "1d6"')


def test_more_doors_than_the_room_rolled(pack_copy) -> None:
    pack = pack_copy("generada")  # lair 26 rolled no doors; this one opens onto room 35, so it is secret
    _add_door(pack, "- {at: [19, 23], side: e, secret: true}")
    _fails(pack, "dungeon_map.door-count", "is one door more than roll 26 gave (0)", "{at: [19, 23], side: e")


def test_a_t_junction_with_a_way_straight_on(pack_copy) -> None:
    pack = pack_copy("generada")  # area 8 ends the corridor walked south from the starting junction
    edit(pack / MAPS, "  exits:\n", "  exits:\n    - {at: [30, 16], side: s}\n")
    _fails(
        pack,
        "dungeon_map.ways",
        "leaves area 8 on its south side, straight on; a T junction leads left and right only",
        "{at: [30, 16], side: s}",
    )


def test_a_turn_leaving_on_the_wrong_side(pack_copy) -> None:
    pack = pack_copy("generada")  # area 30 turns left (south, walking west); rolled right it leads north
    edit(
        pack / MAPS,
        "dice: [7, 8], total: 15, row: 5, outcome: turn-left, makes: 30}",
        "dice: [5, 5], total: 10, row: 3, outcome: turn-right, makes: 30}",
    )
    _fails(
        pack,
        "dungeon_map.ways",
        "area 37 leaves area 30 on its south side; a right turn leads right only",
        "{n: 37, type: corridor",
    )


def test_dice_that_do_not_add_up(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "dice: [7, 8], total: 15, row: 5", "dice: [7, 8], total: 16, row: 5")
    _fails(pack, "dungeon_map.dice", "the dice [7, 8] add up to 15, not 16", "dice: [7, 8], total: 16")


def test_a_die_showing_a_face_it_does_not_have(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(
        pack / MAPS,
        "{area: 22, table: largo-pasadizo, dice: [12], total: 12",
        "{area: 22, table: largo-pasadizo, dice: [13], total: 13",
    )
    _fails(pack, "dungeon_map.dice", "a d12 shows 1 to 12, the roll records 13", "dice: [13], total: 13")


def test_a_roll_recorded_with_another_result(pack_copy) -> None:
    pack = pack_copy("generada")  # 8 on the corridor end table is a dead end, not a right turn
    edit(
        pack / MAPS,
        "dice: [2, 6], total: 8, row: 2, outcome: dead-end}",
        "dice: [2, 6], total: 8, row: 2, outcome: turn-right}",
    )
    _fails(pack, "dungeon_map.rolls", "'remate-pasadizo' gives dead-end for 8", "outcome: turn-right}")


def test_a_special_room_without_its_roll_on_the_special_rooms_table(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "    - {area: 35, table: salas-singulares, dice: [6], total: 6, row: 6}\n", "")
    _fails(
        pack,
        "dungeon_map.rolls",
        "its row says to roll on 'salas-singulares' next",
        "{area: 35, table: tipo-sala, dice: [6]",
    )


def test_a_room_showing_another_row_than_rolled(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "shows: {table: salas-singulares, row: 6}", "shows: {table: salas-singulares, row: 2}")
    _fails(
        pack,
        "dungeon_map.shows",
        "shows row 2 of 'salas-singulares', but its roll fell in row 6",
        "{n: 43, type: special-room",
    )


def test_a_door_on_the_empty_starting_corridor(pack_copy) -> None:
    pack = pack_copy("generada")
    _add_door(pack, '- {at: [21, 8], side: "n"}')
    _fails(
        pack,
        "dungeon_map.start",
        "stands on area 2, part of the starting corridor, which is empty",
        '{at: [21, 8], side: "n"}',
    )


def test_a_door_on_a_junction(pack_copy) -> None:
    pack = pack_copy("generada")  # junction 19's north wall: the procedure never puts a door there
    _add_door(pack, '- {at: [13, 8], side: "n"}')
    _fails(
        pack,
        "dungeon_map.door-wall",
        "is on area 19, a junction: the procedure puts doors on corridors and rooms only",
        '{at: [13, 8], side: "n"}',
    )


def test_a_door_on_a_short_wall_that_closes_no_dead_end(pack_copy) -> None:
    pack = pack_copy("generada")  # area 9's west wall meets junction 8: a secret door there is still on a short wall
    _add_door(pack, "- {at: [32, 15], side: w, secret: true}")
    _fails(pack, "dungeon_map.door-wall", "is on a short wall of corridor area 9", "{at: [32, 15], side: w")


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


# ---------------------------------------------------------------- what the rulebook allows


def test_a_door_closing_a_dead_end_is_the_gms_option(pack_copy) -> None:
    pack = pack_copy("generada")  # area 10 ends the corridor rolled a dead end (roll 9): its east wall closes it
    _add_door(pack, "- {at: [41, 15], side: e}")
    _valid(pack)


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


# ---------------------------------------------------------------- the reference edition, by meaning


def test_swapped_printed_results_differ_from_the_reference(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / TABLES, "{roll: 10-14, result: Una puerta,", "{roll: 10-14, result: 2 puertas,")
    edit(pack / TABLES, "{roll: 15-18, result: 2 puertas,", "{roll: 15-18, result: Una puerta,")
    _fails(
        pack,
        "edition.value",
        "the row of outcome one-door prints '2 puertas', which says two-doors",
        "{roll: 10-14, result: 2 puertas,",
        TABLES,
    )


def test_a_special_room_row_that_sends_the_roll_nowhere(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / TABLES, "then: salas-singulares, outcome: special", "outcome: special")
    _fails(pack, "edition.value", "6-8 special; 9-10 lair", "{roll: 6-8, result: Sala singular", TABLES)
