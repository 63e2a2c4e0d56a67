"""The exploration procedure re-checked by `validate` on a stored map (seeds/004, «Exploración de la
mazmorra»): copies of the sample map, each hand-edited to break one invariant, fail with the rule
id at the faulty line; a pack missing a table the generator needs fails validate, not only generate."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_build_fails, edit, located, run_cli

from mazmorra.kinds.dicedungeon.dungeon_map import DungeonMap
from mazmorra.kinds.dicedungeon.plan import Opening
from mazmorra.load import load_pack

MAPS = "decks/mapas.yaml"


def _sample(pack: Path) -> DungeonMap:
    return next(m for _, m in load_pack(pack).of(DungeonMap))


def _add_door(pack: Path, line: str) -> None:
    """A door written after the map's last door (the doors: list is followed by exits:)."""
    edit(pack / MAPS, "  exits:\n", f"    {line}\n  exits:\n")


def test_no_t_junction_after_the_initial_stairs(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "{n: 4, type: junction,", "{n: 4, type: corner,")
    assert_build_fails(
        pack,
        "(dungeon_map.start)",
        "area 4 is a corner; the start is stairs, two corridor sections and a T junction",
        located(pack, MAPS, "{n: 4, type: corner,"),
        "[dungeon-46.areas.4]",
        command="validate",
    )


def test_a_start_corridor_of_one_section(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "{n: 3, type: corridor,", "{n: 3, type: room,")
    assert_build_fails(
        pack, "(dungeon_map.start)", "area 3 is a room", located(pack, MAPS, "{n: 3, type: room,"), command="validate"
    )


def test_two_doors_on_one_room_wall(pack_copy) -> None:
    pack = pack_copy("generada")
    m = _sample(pack)
    rooms = {a.n: a for a in m.areas if a.type in ("room", "lair", "quest", "special-room")}
    door = next(d for d in m.doors if m.owner.get(d.at) in rooms and not d.secret)
    room = rooms[m.owner[door.at]]
    wall = room.rect.wall(door.side)
    taken = set(Opening(door.at, door.side, 2).squares())
    spot = next(sq for sq in wall[:-1] if not {sq, (sq[0] + (door.side in "ns"), sq[1] + (door.side in "ew"))} & taken)
    _add_door(pack, f"- {{at: [{spot[0]}, {spot[1]}], side: {door.side}}}")
    assert_build_fails(
        pack,
        "(dungeon_map.door-per-wall)",
        f"is a second door on the {door.side} wall of area {room.n}; one door a wall",
        located(pack, MAPS, f"- {{at: [{spot[0]}, {spot[1]}], side: {door.side}}}"),
        command="validate",
    )


def test_an_unmarked_door_onto_a_revealed_area(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "{at: [20, 20], side: w, secret: true}", "{at: [20, 20], side: w}")
    assert_build_fails(
        pack,
        "(dungeon_map.secret)",
        "revealed before it: mark it `secret: true`",
        located(pack, MAPS, "{at: [20, 20], side: w}"),
        "[dungeon-46.doors.11]",
        command="validate",
    )


def test_a_piece_other_than_the_roll_made(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "{n: 6, type: stairs-up,", "{n: 6, type: stairs-down,")
    assert_build_fails(
        pack,
        "(dungeon_map.shape)",
        "area 6 is a stairs-down; the corridor's end rolled (stairs-up) is a stairs-up",
        located(pack, MAPS, "{n: 6, type: stairs-down,"),
        command="validate",
    )


def test_a_corridor_longer_than_rolled(pack_copy) -> None:
    pack = pack_copy("generada")
    m = _sample(pack)
    text = (pack / MAPS).read_text(encoding="utf-8")
    one = next(
        r for r in m.rolls if r.table == "largo-pasadizo" and r.outcome == "2" and r.makes is not None and not r.notes
    )
    old = f'outcome: "2", makes: {one.makes}}}'
    assert old in text
    edit(pack / MAPS, old, f'outcome: "3", makes: {one.makes}}}')
    edit(
        pack / MAPS,
        f'dice: {one.dice}, total: {one.total}, row: 2, outcome: "3"',
        'dice: [10], total: 10, row: 3, outcome: "3"',
    )
    assert_build_fails(
        pack,
        "(dungeon_map.shape)",
        f"area {one.makes} starts a corridor of 2 section(s); the roll says 3",
        located(pack, MAPS, f"{{n: {one.makes}, type: corridor,"),
        command="validate",
    )


def test_a_pack_missing_a_table_the_generator_rolls(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / "decks/tablas.yaml", "  role: room-doors\n", "")
    text = assert_build_fails(
        pack,
        "(dice_table.missing-role)",
        "no dice table has role room-doors",
        located(pack, "pack.yaml", "- id: mapas"),
        command="validate",
    )
    assert "Traceback" not in text


# ---------------------------------------------------------------- the reference edition (the rulebook's tables)


@pytest.mark.slow
def test_the_sample_is_the_reference_edition(pack_copy) -> None:
    pack = pack_copy("generada")
    res = run_cli("validate", "generada", "--strict", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert "edition: reference" in (pack / "pack.yaml").read_text(encoding="utf-8")


def test_a_reference_copy_with_one_range_changed_fails(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / "decks/tablas.yaml", "{roll: 1-4, result: Un tramo", "{roll: 1-3, result: Un tramo")
    edit(pack / "decks/tablas.yaml", "{roll: 5-9, result: 2 tramos", "{roll: 4-9, result: 2 tramos")
    assert_build_fails(
        pack,
        "(edition.value)",
        "corridor length table (largo-pasadizo): ranges is 1-3 1; 4-9 2;",
        "«Longitud de pasillo»",
        located(pack, "decks/tablas.yaml", "{roll: 4-9, result: 2 tramos"),  # 4 now says 2 sections
        command="validate",
    )


@pytest.mark.slow
def test_a_reference_copy_with_its_own_quest_threshold_fails_and_custom_warns(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / "pack.yaml", "    square: 25mm", "    square: 25mm\n    quest_lairs: 3")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.dungeon.quest_lairs is 3, the reference edition 2",
        located(pack, "pack.yaml", "quest_lairs: 3"),
        command="validate",
    )
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    res = run_cli("validate", "generada", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert "warning" in res.stderr and "differs from the reference edition: game.dungeon.quest_lairs is 3" in res.stderr
    res = run_cli("validate", "generada", "--strict", cwd=pack.parents[1])
    assert res.returncode == 1


def test_a_reference_copy_with_another_die_fails(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / "decks/tablas.yaml", "die: 1d12\n  role: room-doors", "die: 1d10\n  role: room-doors")
    edit(pack / "decks/tablas.yaml", "{roll: 10-12, result: 2 puertas", "{roll: 10, result: 2 puertas")
    assert_build_fails(
        pack,
        "(edition.value)",
        "room doors table (puertas-sala): die is 1d10, the reference edition 1d12",
        located(pack, "decks/tablas.yaml", "die: 1d10"),
        command="validate",
    )


def test_a_door_half_onto_an_area(pack_copy) -> None:
    """A door drawn where one of its squares opens onto a room and the other onto rock."""
    pack = pack_copy("generada")
    m = _sample(pack)
    found = None
    for a in m.areas:
        for side in ("n", "e", "s", "w"):
            wall = a.rect.wall(side)
            for sq in wall[:-1]:
                o = Opening(sq, side, 2)
                behind = [m.owner.get(b) for b in o.beyond()]
                inside = {m.owner.get(s) for s in o.squares()}
                if inside == {a.n} and None in behind and any(b not in (None, a.n) for b in behind):
                    found = o
                    break
            if found:
                break
        if found:
            break
    assert found is not None, "the sample map has no wall half against another area"
    line = f"- {{at: [{found.at[0]}, {found.at[1]}], side: {found.side}, secret: true}}"
    _add_door(pack, line)
    assert_build_fails(
        pack, "(dungeon_map.secret)", "and half onto rock", located(pack, MAPS, line), command="validate"
    )


def test_a_map_rolled_before_notes_were_a_list_still_reads(pack_copy) -> None:
    pack = pack_copy("generada")
    edit(pack / MAPS, "outcome: quest, notes: [quest-became-lair]", "outcome: quest, note: quest-became-lair")
    m = _sample(pack)
    assert any(r.notes == ["quest-became-lair"] for r in m.rolls)
