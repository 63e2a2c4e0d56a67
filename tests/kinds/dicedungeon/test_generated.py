"""Generated dungeons (spec E): die expressions and their odds, dice tables proved sound (broken
copies give located problems naming the rows), and `mazmorra generate`: reproducible, valid and
overlap-free over 200 seeds in a row."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import CONTENT, assert_build_fails, edit, located, need_tool, run_cli

from mazmorra.errors import Loc, Severity
from mazmorra.kinds import rules_of
from mazmorra.kinds.dicedungeon import FAMILY, DungeonRules
from mazmorra.kinds.dicedungeon.dice import DiceError, parse_dice
from mazmorra.kinds.dicedungeon.dice_table import DiceTable
from mazmorra.kinds.dicedungeon.dungeon_map import KIND as MAP_KIND
from mazmorra.kinds.dicedungeon.dungeon_map import DungeonMap
from mazmorra.kinds.dicedungeon.generator import GenerationError, Generator
from mazmorra.kinds.dicedungeon.plan import Opening, Rect
from mazmorra.load import load_pack
from mazmorra.model.content import Component

TABLES = "decks/tablas.yaml"

# ---------------------------------------------------------------- die expressions


@pytest.mark.parametrize(
    "text, low, high, combos",
    [("1d12", 1, 12, 12), ("2d12", 2, 24, 144), ("d6", 1, 6, 6), ("1d6+1", 2, 7, 6), ("3d6-1d4", -1, 17, 864)],
)
def test_die_bounds_and_exact_distribution(text: str, low: int, high: int, combos: int) -> None:
    dice = parse_dice(text)
    assert (dice.lowest, dice.highest, dice.combinations) == (low, high, combos)
    assert sum(dice.ways.values()) == combos
    assert min(dice.ways) == low and max(dice.ways) == high
    brute: dict[int, int] = {}  # every way the dice can fall, counted one by one
    faces = [range(1, d.faces + 1) for d in dice.dice for _ in range(d.count)]
    signs = [d.sign for d in dice.dice for _ in range(d.count)]
    for fall in itertools.product(*faces):
        total = dice.modifier + sum(s * f for s, f in zip(signs, fall))
        brute[total] = brute.get(total, 0) + 1
    assert dice.ways == dict(sorted(brute.items()))


def test_two_d12_odds_the_table_prints() -> None:
    dice = parse_dice("2d12")
    assert dice.chance(13, 13) == 12 and dice.chance(2, 5) == 10 and dice.chance(22, 24) == 6


def test_rolls_stay_in_bounds_and_follow_the_seed() -> None:
    dice = parse_dice("2d12+1")
    rolls = [dice.roll(random.Random(5)) for _ in range(3)]
    assert rolls[0] == rolls[1] == rolls[2]
    rng = random.Random(1)
    for _ in range(2000):
        faces, total = dice.roll(rng)
        assert len(faces) == 2 and all(1 <= f <= 12 for f in faces) and total == sum(faces) + 1


@pytest.mark.parametrize(
    "text, says",
    [
        ("1d0", "at least 2 faces"),
        ("0d6", "at least one die"),
        ("12", "rolls no die"),
        ("2d", "not a die"),
        ("", "no die"),
    ],
)
def test_bad_die_expressions(text: str, says: str) -> None:
    with pytest.raises(DiceError, match=says):
        parse_dice(text)


# ---------------------------------------------------------------- broken copies of the tables


def _validate_fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, command="validate")


def test_a_2d12_table_missing_13(pack_copy) -> None:
    pack = pack_copy("generada")
    deck = pack / TABLES
    edit(deck, "{roll: 10-14, result: Una puerta", "{roll: 10-12, result: Una puerta")
    edit(deck, "{roll: 15-18, result: 2 puertas", "{roll: 14-18, result: 2 puertas")
    text = _validate_fails(
        pack,
        "(dice_table.gap)",
        "no row holds roll 13",
        "row 3 (10–12), row 4 (14–18)",
        located(pack, TABLES, "roll: 10-12"),
        "[contenido-pasadizo.rows]",
    )
    assert "8.3%" in text  # 12 of the 144 ways 2d12 can fall


def test_a_1d12_table_with_4_6_and_6_8(pack_copy) -> None:
    pack = pack_copy("generada")
    deck = pack / TABLES
    edit(deck, "{roll: 1-5, result: Ninguna puerta", "{roll: 1-3, result: Ninguna puerta")
    edit(
        deck, "{roll: 6-9, result: Una puerta, outcome: one-door}", "{roll: 4-6, result: Una puerta, outcome: one-door}"
    )
    edit(
        deck,
        "{roll: 10-12, result: 2 puertas, outcome: two-doors}",
        "{roll: 6-8, result: 2 puertas, outcome: two-doors}\n    - {roll: 9-12, result: 3 puertas, outcome: two-doors}",
    )
    _validate_fails(
        pack,
        "(dice_table.overlap)",
        "roll 6 is in 2 rows: row 2 (4–6), row 3 (6–8)",
        located(pack, TABLES, "roll: 6-8, result: 2 puertas"),
        "[puertas-sala.rows.3.roll]",
    )


def test_a_result_pointing_at_a_table_that_does_not_exist(pack_copy) -> None:
    """The rulebook's room table sends special rooms to a table it never gives: a faithful copy fails there."""
    pack = pack_copy("generada")
    deck = pack / TABLES
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.index("- id: salas-singulares")], encoding="utf-8")
    edit(pack / "pack.yaml", "size: 6", "size: 5")
    _validate_fails(
        pack,
        "(dice_table.unknown-table)",
        "row 2 (6–8) says to roll on table 'salas-singulares', which the pack does not have",
        located(pack, TABLES, "then: salas-singulares"),
        "[tipo-sala.rows.2.then]",
    )


def test_a_die_1d0(pack_copy) -> None:
    pack = pack_copy("generada")
    deck = pack / TABLES
    edit(deck, "die: 1d12\n  role: corridor-length", "die: 1d0\n  role: corridor-length")
    _validate_fails(
        pack,
        "(dice_table.die)",
        "a die has at least 2 faces (got d0)",
        located(pack, TABLES, "die: 1d0"),
        "[largo-pasadizo.die]",
    )
    res = run_cli("generate", "generada", "--seed", "3", cwd=pack.parents[1])  # nobody rolls on a broken table
    assert res.returncode == 1 and "(dice_table.die)" in res.stderr


def test_bounds_outcomes_roles_and_loops(pack_copy) -> None:
    pack = pack_copy("generada")
    deck = pack / TABLES
    edit(deck, '{roll: 12, result: "Pasadizo', '{roll: 12-13, result: "Pasadizo')
    edit(deck, "{roll: 1-5, result: Sala vacía, outcome: empty}", "{roll: 1-5, result: Sala vacía, outcome: vacia}")
    edit(deck, "  role: room-doors\n", "  role: room-type\n")
    edit(deck, "{roll: 6, result: Estatua que vigila}", "{roll: 6, result: Estatua que vigila, then: tipo-sala}")
    _validate_fails(
        pack,
        "(dice_table.bounds)",
        "row 4 (12–13) asks for totals 1d12 never gives: it rolls 1–12",
        "(dice_table.outcome)",
        "row 1 (1–5) has outcome 'vacia'; a room-type table's rows say one of: empty, special, lair, quest",
        "(dice_table.role)",
        "table 'tipo-sala' is already the room-type table",
        "(dice_table.cycle)",
        "salas-singulares → tipo-sala → salas-singulares",
    )


# ---------------------------------------------------------------- generate


@pytest.mark.slow
def test_generate_is_reproducible_and_the_sample_map_is_what_it_makes(pack_copy, tmp_path: Path) -> None:
    pack = pack_copy("generada")
    project = pack.parents[1]
    maps = pack / "decks" / "mapas.yaml"
    sample = run_cli("generate", "generada", "--seed", "46", cwd=project)  # the map the pack keeps
    assert sample.returncode == 0, sample.stderr
    assert maps.read_bytes() == (CONTENT / "generada/decks/mapas.yaml").read_bytes()
    assert "seed 46" in sample.stderr and "43×37 squares" in sample.stderr
    first = run_cli("generate", "generada", "--seed", "7", cwd=project)
    assert first.returncode == 0, first.stderr
    once = maps.read_bytes()
    preview = (project / "output/generada/maps/dungeon-7.svg").read_bytes()
    again = run_cli("generate", "generada", "--seed", "7", cwd=project)
    assert again.returncode == 0, again.stderr
    assert maps.read_bytes() == once  # same seed, same tables: the same bytes
    assert (project / "output/generada/maps/dungeon-7.svg").read_bytes() == preview
    eight = run_cli("generate", "generada", "--seed", "8", cwd=project)
    assert eight.returncode == 0, eight.stderr
    after = maps.read_text(encoding="utf-8")
    assert after.startswith(once.decode("utf-8"))  # seed 7's map kept, seed 8's added after it
    block7, block8 = after.split("- id: dungeon-8\n")
    block7 = block7.split("- id: dungeon-7\n")[1]
    assert "seed: 7" in block7 and "seed: 8" in block8
    assert block8.split("areas:")[1] != block7.split("areas:")[1]
    built = run_cli("build", "generada", "--deck", "mapas", cwd=project)
    assert built.returncode == 0, built.stderr
    need_tool("pdftotext")  # each page holds its map whole (clipped): poppler reads 60 pages in a second
    for pdf, seed in (("es/mapas.pdf", "Semilla"), ("en/generated-maps.pdf", "Seed")):
        pdf = project / "output/generada" / pdf
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert all(f"{seed} {n}" in text for n in (46, 7, 8))


def test_generate_refuses_what_it_cannot_roll(pack_copy) -> None:
    pack = pack_copy("generada")
    project = pack.parents[1]
    edit(pack / "pack.yaml", "  - id: mapas\n    kind: dungeon_map", "  - id: mapas\n    kind: card")
    (pack / "decks/mapas.yaml").write_text("[]\n", encoding="utf-8")
    res = run_cli("generate", "generada", "--seed", "1", cwd=project)
    assert res.returncode == 2 and "no deck of kind dungeon_map" in res.stderr and "Traceback" not in res.stderr
    tables = {c.id: t for c, t in load_pack(CONTENT / "generada").of(DiceTable)}
    del tables["tipo-sala"]
    with pytest.raises(GenerationError, match="no dice table for room-type"):
        Generator(tables, DungeonRules(), 1)


def test_a_map_edited_into_an_overlap_is_a_located_problem(pack_copy) -> None:
    pack = pack_copy("generada")
    maps = pack / "decks" / "mapas.yaml"
    edit(maps, "{n: 2, type: corridor, at: [20, 8]", "{n: 2, type: corridor, at: [19, 8]")
    _validate_fails(
        pack,
        "(dungeon_map.overlap)",
        "area 2 overlaps area 1",
        located(pack, "decks/mapas.yaml", "n: 2, type: corridor"),
    )


# ---------------------------------------------------------------- 200 seeds in a row


@pytest.fixture(scope="module")
def sample():
    pack = load_pack(CONTENT / "generada")
    return pack, {c.id: t for c, t in pack.of(DiceTable)}


def _checked(pack, data: dict) -> list:
    """The map as a component of the sample pack, through the kind's and the family's rules."""
    model = DungeonMap.model_validate(data)
    comp = Component(MAP_KIND, model, "mapas", Loc("generated"), {})
    deck = replace(pack.deck("mapas"), components=(comp,))
    whole = replace(pack, decks=tuple(deck if d.id == "mapas" else d for d in pack.decks))
    problems = [p for rule in MAP_KIND.deck_rules for p in rule(deck, whole)]
    problems += [p for rule in rules_of(FAMILY) for p in rule(whole)]
    return [p for p in problems if p.severity is Severity.ERROR or p.rule == "dungeon_map.rolls"], model


@pytest.mark.slow
def test_200_seeds_give_valid_overlap_free_maps(sample) -> None:
    pack, tables = sample
    rules = DungeonRules()
    pieces = {
        "corridor": {(5, 2), (2, 5)},
        "special-corridor": {(5, 2), (2, 5)},
        "room": {(5, 5)},
        "special-room": {(5, 5)},
        "lair": {(10, 5), (5, 10), (5, 5)},
        "quest": {(10, 5), (5, 10), (5, 5)},
    }
    sizes = []
    with_quest = became_lair = 0  # how often the quest rules below were put to the test
    for seed in range(200):
        dungeon = Generator(tables, rules, seed).run()
        data = dungeon.data(f"dungeon-{seed}")
        problems, m = _checked(pack, data)
        assert not problems, (seed, [p.format() for p in problems])
        sizes.append((m.cols, m.rows))
        rects = [a.rect for a in m.areas]
        for a, b in itertools.combinations(rects, 2):  # our own check, not the kind's rule
            assert not a.overlaps(b), (seed, a, b)
        assert all(0 <= r.x and r.x + r.w <= m.cols and 0 <= r.y and r.y + r.h <= m.rows for r in rects), seed
        owner = {sq: a.n for a in m.areas for sq in a.rect.squares()}
        for a in m.areas:
            assert tuple(a.size) in pieces.get(a.type, {(2, 2)}), (seed, a)
            assert a.n == 1 or (a.joins is not None and a.joins < a.n), (seed, a)  # all reached from the stairs
        for d in m.doors:
            inside = {owner.get(sq) for sq in Opening(d.at, d.side, 2).squares()}
            behind = {owner.get(sq) for sq in Opening(d.at, d.side, 2).beyond()}
            assert len(inside) == 1 and None not in inside and not inside & behind, (seed, d)
            assert not d.secret or behind != {None}, (seed, d)  # a secret door opens onto revealed floor
        rooms = [a for a in m.areas if a.type in ("room", "special-room", "lair", "quest")]
        quests = [i for i, a in enumerate(rooms) if a.type == "quest"]
        assert len(quests) <= 1, seed
        with_quest += bool(quests)
        for i in quests:
            before = rooms[:i]
            assert sum(a.type == "lair" for a in before) >= 2 or len(before) >= 8, seed
        assert quests or any("closed" in n for n in dungeon.notes), seed
        for roll in m.rolls:
            if roll.table is not None:
                table = tables[roll.table]
                assert table.dice is not None and table.dice.lowest <= roll.total <= table.dice.highest
                assert table.row_for(roll.total) == (roll.row or 0) - 1
        for r in m.rolls:  # the rulebook's quest rule, as rolled
            if "quest-became-lair" in r.notes:
                became_lair += 1
                assert r.outcome == "quest"
    assert with_quest and became_lair, (with_quest, became_lair)
    assert min(sizes) != max(sizes)  # the seeds roll dungeons of different sizes (time per map: bench/generate.py)


def test_room_placement_never_overlaps_what_is_there() -> None:
    """The placement search on its own: a room behind a door next to a wall of revealed areas."""
    tables = {c.id: t for c, t in load_pack(CONTENT / "generada").of(DiceTable)}
    gen = Generator(tables, DungeonRules(), 1)
    gen.place("room", Rect(0, 0, 5, 5), None, None)
    gen.place("corridor", Rect(7, -6, 2, 5), 1, "door")
    door = Opening((4, 1), "e", 2)
    placed = gen.fit_room(door, (10, 5))
    assert placed is not None and not placed.overlaps(Rect(7, -6, 2, 5)) and placed.x == 5
    assert all(placed.holds(sq) for sq in door.beyond())
    assert all(gen.free(r) == (not r.overlaps(Rect(7, -6, 2, 5))) for r in gen.room_places(door, (10, 5)))
    gen.place("corridor", Rect(7, -1, 2, 5), 1, "door")  # now every place behind the door is taken
    assert gen.fit_room(door, (10, 5)) is None


def first_page(pdf: Path) -> str:
    """The text of a poster's first page: its face is drawn whole there (clipped to the page)."""
    from pypdf import PdfReader

    return PdfReader(str(pdf)).pages[0].extract_text() or ""


@pytest.mark.slow
def test_the_map_template_shows_seed_legend_and_special_rooms(pack_copy) -> None:
    pack = pack_copy("generada")
    res = run_cli("build", "generada", "--deck", "mapas", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    es, en = (
        first_page(pack.parents[1] / f"output/generada/{pdf}") for pdf in ("es/mapas.pdf", "en/generated-maps.pdf")
    )
    for text, words in (
        (
            es,
            ("Mazmorra generada", "Semilla 46", "Cubil", "Cámara del objetivo", "Puerta secreta", "1 casilla = 25 mm"),
        ),
        (en, ("Generated dungeon", "Seed 46", "Lair", "Quest room", "Secret door", "1 square = 25 mm")),
    ):
        for word in words:
            assert word in text, word
    shown = [
        m
        for m in re.finditer(r"shows: \{table: salas-singulares, row: (\d)\}", (pack / "decks/mapas.yaml").read_text())
    ]
    assert shown, "the sample map has a special room"
    names = {c.id: t for c, t in load_pack(pack).of(DiceTable)}["salas-singulares"].results
    assert names[int(shown[0].group(1)) - 1] in es


@pytest.mark.slow
def test_rooms_caps_the_dungeon_and_the_quest_room_ends_it(sample) -> None:
    _, tables = sample
    capped = 0  # seeds where room 9 had to be the quest room
    for seed in range(40):
        dungeon = Generator(tables, DungeonRules(), seed, rooms=9).run()
        rooms = dungeon.rooms
        assert 1 <= len(rooms) <= 9 and rooms[-1].type == "quest", (seed, [a.type for a in rooms])
        forced = [r for r in dungeon.rolls if "room-9-is-the-quest-room" in r.get("notes", [])]
        assert not forced or len(rooms) == 9
        capped += bool(forced)
    assert capped, "no seed reached the cap: the rule above was never tested"


def test_generate_checks_its_options(pack_copy) -> None:
    project = pack_copy("generada").parents[1]
    res = run_cli("generate", "generada", "--seed", "3", "--id", "Mapa 3", cwd=project)
    assert res.returncode == 2 and "not a component id" in res.stderr
    res = run_cli("generate", "generada", "--seed", "3", "--id", "salas-singulares", cwd=project)
    assert res.returncode == 2 and "already used by another component" in res.stderr
    res = run_cli("generate", "generada", "--seed", "3", "--deck", "tablas", cwd=project)
    assert res.returncode == 2 and "no dungeon_map deck 'tablas'" in res.stderr
