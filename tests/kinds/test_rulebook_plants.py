"""Families B–E against their rulebooks (seeds/000, 001, 003, 004), one planted defect at a time: a
copy of the family's sample pack with one thing the rulebook forbids (a deck the setup needs left out,
a card set the first cycle cannot play, a map edited against the procedure …) fails `validate` at
the faulty line with the rule that says why; a copy with something the rulebook allows passes
`validate --strict`. The counts of both tables are the ones each family's rules page states
(facts.yaml `measured`): a test below keeps them equal."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import assert_build_fails, located, run_cli

from mazmorra import kinds
from mazmorra.tools.ruletable import facts_of

PACKS = {"bagdraw": "profundidades", "crawler": "cripta", "rooms": "engranajes", "dicedungeon": "generada"}
Edit = tuple[str, str, str]  # file, text, replacement ("-deck" and a deck id: the deck's entry left out)


@dataclass(frozen=True)
class Plant:
    family: str
    what: str
    edits: tuple[Edit, ...]
    rule: str
    file: str  # where the problem is: the file and the text of its line (after the edits)
    line: str
    after: str | None = None  # the line is the first holding `line` after the one holding `after`


@dataclass(frozen=True)
class Legal:
    family: str
    what: str
    edits: tuple[Edit, ...]
    langs: str = "all"


def _left_out(deck: str) -> Edit:
    return ("pack.yaml", "-deck", deck)


PLANTS = (
    # B: the setup reads the pack, not the decks present
    Plant("bagdraw", "no hero figures", (_left_out("figuras"),), "hero_figure.players", "pack.yaml", "decks:"),
    Plant("bagdraw", "no depths maps", (_left_out("hondonadas"),), "map_card.depths", "pack.yaml", "decks:"),
    Plant("bagdraw", "no entrance maps", (_left_out("entradas"),), "map_card.entrances", "pack.yaml", "decks:"),
    Plant("bagdraw", "no chips", (_left_out("fichas"),), "chip.setup", "pack.yaml", "decks:"),
    Plant(
        "bagdraw",
        "a decoration that is a chip face",
        (("decks/entradas.yaml", '".torch . x . monster:2! ."', '".sword . x . monster:2! ."'),),
        "map_card.decoration-face",
        "decks/entradas.yaml",
        ".sword . x",
    ),
    # C
    Plant("crawler", "no equipment", (_left_out("equipo"),), "equipment.players", "pack.yaml", "decks:"),
    Plant("crawler", "no markers", (_left_out("marcadores"),), "marker.players", "pack.yaml", "decks:"),
    Plant("crawler", "no heroes", (_left_out("heroes"),), "hero.players", "pack.yaml", "decks:"),
    Plant("crawler", "no skills", (_left_out("habilidades"),), "skill.players", "pack.yaml", "decks:"),
    Plant("crawler", "no items", (_left_out("objetos"),), "item.market", "pack.yaml", "decks:"),
    Plant("crawler", "no map tiles", (_left_out("losetas"),), "map_tile.setup", "pack.yaml", "decks:"),
    Plant("crawler", "no enemy dice", (_left_out("dados"),), "enemy_die.setup", "pack.yaml", "decks:"),
    Plant("crawler", "no enemies", (_left_out("enemigos"),), "enemy.setup", "pack.yaml", "decks:"),
    Plant(
        "crawler",
        "a keyword listed twice",
        (("decks/enemigos.yaml", "  keywords: [siphon]", "  keywords: [siphon, siphon]"),),
        "enemy.keyword-twice",
        "decks/enemigos.yaml",
        "keywords: [siphon, siphon]",
    ),
    Plant(
        "crawler",
        "two threats of one rank",
        (("pack.yaml", '{colour: "#4f8a3c", rank: 2}', '{colour: "#4f8a3c", rank: 1}'),),
        "game.threat-rank",
        "pack.yaml",
        'musgo: {colour: "#4f8a3c", rank: 1}',
    ),
    # D
    Plant("rooms", "no player cards", (_left_out("cartas"),), "player_card.set", "pack.yaml", "decks:"),
    Plant("rooms", "no starting lines", (_left_out("lineas"),), "start_line.colour", "pack.yaml", "decks:"),
    Plant("rooms", "no descriptions", (_left_out("descripciones"),), "character_card.token", "pack.yaml", "decks:"),
    Plant("rooms", "no items", (_left_out("objetos"),), "item_token.colour", "pack.yaml", "decks:"),
    Plant("rooms", "no rooms", (_left_out("salas"),), "room.pair", "pack.yaml", "decks:"),
    Plant("rooms", "no characters", (_left_out("personajes"),), "character.colour", "pack.yaml", "decks:"),
    Plant(
        "rooms",
        "a colour without characters",
        tuple(
            ("decks/personajes.csv", f"{c}-anil,{n},anil,{sp},{cb}\n", "")
            for c, n, sp, cb in (
                ("relojera", "Relojera", 4, 1),
                ("forzudo", "Forzudo", 3, 4),
                ("escurridiza", "Sigilosa", 6, 0),
                ("guardia", "Guardia", 3, 3),
            )
        ),
        "character.colour",
        "pack.yaml",
        "anil: {colour:",
    ),
    Plant(
        "rooms",
        "action cards 2, 2, 4, 4",
        (("pack.yaml", "action: [2, 3, 4, 5]", "action: [2, 2, 4, 4]"),),
        "player_card.first-cycle",
        "pack.yaml",
        "action: [2, 2, 4, 4]",
    ),
    Plant(
        "rooms",
        "two pairs of one gear colour",
        (("decks/salas.yaml", 'gear_colour: "#16a085"', 'gear_colour: "#d35400"'),),
        "room.pair-colour",
        "decks/salas.yaml",
        'gear_colour: "#d35400"',
        after="id: sala-cadena",
    ),
    Plant(
        "rooms",
        "a starting line shorter than ten of the rooms' squares",
        (("pack.yaml", "    file: decks/lineas.yaml\n", "    file: decks/lineas.yaml\n    card_size: 170x18mm\n"),),
        "start_line.squares",
        "pack.yaml",
        "card_size: 170x18mm",
    ),
    Plant(
        "rooms",
        "a jump card with a number",
        (("decks/cartas.csv", "salto-cobre,jump,cobre,,3", "salto-cobre,jump,cobre,2,3"),),
        "player_card.jump-value",
        "decks/cartas.csv",
        "salto-cobre",
    ),
    Plant(
        "rooms",
        "a colour without its treasure",
        (
            (
                "decks/objetos.yaml",
                "  colour: anil\n  icon: cofre\n  treasure: true\n",
                "  colour: anil\n  icon: cofre\n",
            ),
        ),
        "item_token.treasure",
        "pack.yaml",
        "anil: {colour:",
    ),
    # E: a stored map re-checked roll by roll, the reference edition by meaning
    Plant(
        "dicedungeon",
        "a door roll of the wrong parity",
        (
            (
                "decks/mapas.yaml",
                'die: "1d6", dice: [5], total: 5, outcome: room}',
                'die: "1d6", dice: [5], total: 5, outcome: corridor}',
            ),
        ),
        "dungeon_map.door-leads",
        "decks/mapas.yaml",
        "outcome: corridor}",
    ),
    Plant(
        "dicedungeon",
        "more doors than the room rolled",
        (("decks/mapas.yaml", "  exits:\n", "    - {at: [19, 23], side: e, secret: true}\n  exits:\n"),),
        "dungeon_map.door-count",
        "decks/mapas.yaml",
        "{at: [19, 23], side: e",
    ),
    Plant(
        "dicedungeon",
        "a T junction with three ways",
        (("decks/mapas.yaml", "  exits:\n", "  exits:\n    - {at: [30, 16], side: s}\n"),),
        "dungeon_map.ways",
        "decks/mapas.yaml",
        "{at: [30, 16], side: s}",
    ),
    Plant(
        "dicedungeon",
        "a turn leaving on the wrong side",
        (
            (
                "decks/mapas.yaml",
                "dice: [7, 8], total: 15, row: 5, outcome: turn-left, makes: 30}",
                "dice: [5, 5], total: 10, row: 3, outcome: turn-right, makes: 30}",
            ),
        ),
        "dungeon_map.ways",
        "decks/mapas.yaml",
        "{n: 37, type: corridor",
    ),
    Plant(
        "dicedungeon",
        "dice that do not add up",
        (("decks/mapas.yaml", "dice: [7, 8], total: 15, row: 5", "dice: [7, 8], total: 16, row: 5"),),
        "dungeon_map.dice",
        "decks/mapas.yaml",
        "total: 16, row: 5",
    ),
    Plant(
        "dicedungeon",
        "a result the table does not give",
        (("decks/mapas.yaml", "total: 8, row: 2, outcome: dead-end}", "total: 8, row: 2, outcome: turn-right}"),),
        "dungeon_map.rolls",
        "decks/mapas.yaml",
        "total: 8, row: 2, outcome: turn-right}",
    ),
    Plant(
        "dicedungeon",
        "a door on the empty starting corridor",
        (("decks/mapas.yaml", "  exits:\n", '    - {at: [21, 8], side: "n"}\n  exits:\n'),),
        "dungeon_map.start",
        "decks/mapas.yaml",
        '{at: [21, 8], side: "n"}',
    ),
    Plant(
        "dicedungeon",
        "a door on a junction",
        (("decks/mapas.yaml", "  exits:\n", '    - {at: [13, 8], side: "n"}\n  exits:\n'),),
        "dungeon_map.door-wall",
        "decks/mapas.yaml",
        '{at: [13, 8], side: "n"}',
    ),
    Plant(
        "dicedungeon",
        "a special room with no roll on the special rooms table",
        (("decks/mapas.yaml", "    - {area: 35, table: salas-singulares, dice: [6], total: 6, row: 6}\n", ""),),
        "dungeon_map.rolls",
        "decks/mapas.yaml",
        "{area: 35, table: tipo-sala, dice: [6]",
    ),
    Plant(
        "dicedungeon",
        "printed results swapped",
        (
            ("decks/tablas.yaml", "{roll: 10-14, result: Una puerta,", "{roll: 10-14, result: 2 puertas,"),
            ("decks/tablas.yaml", "{roll: 15-18, result: 2 puertas,", "{roll: 15-18, result: Una puerta,"),
        ),
        "edition.value",
        "decks/tablas.yaml",
        "{roll: 10-14, result: 2 puertas,",
    ),
    Plant(
        "dicedungeon",
        "a special room row without then",
        (("decks/tablas.yaml", "then: salas-singulares, outcome: special", "outcome: special"),),
        "edition.value",
        "decks/tablas.yaml",
        "{roll: 6-8, result: Sala singular",
    ),
    Plant("dicedungeon", "no tables", (_left_out("tablas"),), "dice_table.missing-role", "pack.yaml", "decks:"),
    Plant(
        "dicedungeon",
        "a die showing a face it does not have",
        (
            (
                "decks/mapas.yaml",
                "{area: 22, table: largo-pasadizo, dice: [12], total: 12",
                "{area: 22, table: largo-pasadizo, dice: [13], total: 13",
            ),
        ),
        "dungeon_map.dice",
        "decks/mapas.yaml",
        "dice: [13], total: 13",
    ),
    Plant(  # area 9's west wall meets junction 8: a secret door there still stands on a short wall
        "dicedungeon",
        "a door on a short wall that closes no dead end",
        (("decks/mapas.yaml", "  exits:\n", "    - {at: [32, 15], side: w, secret: true}\n  exits:\n"),),
        "dungeon_map.door-wall",
        "decks/mapas.yaml",
        "{at: [32, 15], side: w",
    ),
    Plant(
        "dicedungeon",
        "a room showing another row than rolled",
        (("decks/mapas.yaml", "shows: {table: salas-singulares, row: 6}", "shows: {table: salas-singulares, row: 2}"),),
        "dungeon_map.shows",
        "decks/mapas.yaml",
        "{n: 43, type: special-room",
    ),
)

LEGAL = (
    Legal(
        "crawler",
        "a spawn point on a pit",
        (("decks/losetas.yaml", "      - .    .6   .    ~", "      - .    o6   .    ~"),),
    ),
    Legal(
        "rooms",
        "a pair's colour written in capitals",
        (("decks/salas.yaml", 'gear_colour: "#d35400"\n  turn: ccw', 'gear_colour: "#D35400"\n  turn: ccw'),),
    ),
    Legal(
        "dicedungeon",
        "a door closing a dead end",
        (("decks/mapas.yaml", "  exits:\n", "    - {at: [41, 15], side: e}\n  exits:\n"),),
    ),
    Legal(
        "dicedungeon",
        "a die written 1D12",
        (("decks/tablas.yaml", "die: 1d12\n  role: room-doors", "die: 1D12\n  role: room-doors"),),
    ),
    Legal(
        "dicedungeon",
        "a table's rows in another order",
        (
            (
                "decks/tablas.yaml",
                "    - {roll: 1-5, result: Ninguna puerta, outcome: no-doors}\n    - {roll: 6-9, result: Una puerta, outcome: one-door}\n",
                "    - {roll: 6-9, result: Una puerta, outcome: one-door}\n    - {roll: 1-5, result: Ninguna puerta, outcome: no-doors}\n",
            ),
        ),
        langs="es",  # the English catalogue keys a table's results by row: `mazmorra i18n update` follows
    ),
)


def _apply(pack: Path, edits: tuple[Edit, ...]) -> None:
    for file, old, new in edits:
        path = pack / file
        text = path.read_text(encoding="utf-8")
        if old == "-deck":  # the deck's entry, up to the next entry or key at its level
            found = re.search(rf"^  - id: {re.escape(new)}\n(?:    .*\n)*", text, re.M)
            assert found, f"no deck {new} in {path}"
            text = text[: found.start()] + text[found.end() :]
        else:
            assert old in text, f"{old!r} not in {path}"
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("plant", PLANTS, ids=lambda p: f"{p.family}: {p.what}")
def test_a_planted_defect_is_caught_at_its_line(plant: Plant, pack_copy) -> None:
    pack = pack_copy(PACKS[plant.family])
    _apply(pack, plant.edits)
    assert_build_fails(pack, f"({plant.rule})", located(pack, plant.file, plant.line, plant.after), command="validate")


@pytest.mark.parametrize("legal", LEGAL, ids=lambda p: f"{p.family}: {p.what}")
def test_what_the_rulebook_allows_is_not_refused(legal: Legal, pack_copy) -> None:
    pack = pack_copy(PACKS[legal.family])
    _apply(pack, legal.edits)
    res = run_cli("validate", pack.name, "--strict", "--lang", legal.langs, cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr


def test_each_rules_page_states_these_counts() -> None:
    """facts.yaml's `measured` (printed on the rules page) is what the tables above hold."""
    for family, pack in PACKS.items():
        facts = facts_of(kinds.families()[family])
        assert facts is not None, family
        plants = sum(p.family == family for p in PLANTS)
        legal = sum(p.family == family for p in LEGAL)
        assert (facts.measured.plants, facts.measured.caught) == (plants, plants), (family, pack)
        assert (facts.measured.legal, facts.measured.refused) == (legal, 0), (family, pack)
