"""Zone tile (spec A1): a square dungeon room with passages, doors, info slots, alert and effects."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from mazmorra.errors import Problem
from mazmorra.kinds import register
from mazmorra.kinds.expedition import FAMILY, Settings, unknown_colours
from mazmorra.model import Component, ComponentModel, Deck, Kind, Pack, of

SIDES = ("N", "E", "S", "W")
PASSAGES = tuple(f"{side}-{pos}" for side in SIDES for pos in ("left", "right"))
MAX_PASSAGES = 8
LETTER = re.compile(r"^[A-Z]$")


@dataclass(frozen=True)
class EffectType:
    """What a zone effect needs: voluntary effects print round, passive ones square."""

    voluntary: bool
    n: tuple[int, int] | None  # the allowed range of N, or None when the effect has no N
    hostile: bool  # never on the initial (safe) zone
    letter: bool = False  # a secret-passage letter
    requires: bool = False  # may list cube colours the investigator must hold


EFFECTS: dict[str, EffectType] = {
    "good_luck": EffectType(voluntary=False, n=(1, 3), hostile=False),
    "bad_luck": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "danger": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "ambush": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "stop": EffectType(voluntary=False, n=None, hostile=True),
    "toll": EffectType(voluntary=False, n=(1, 3), hostile=True),
    "stairs": EffectType(voluntary=False, n=None, hostile=False),
    "boss": EffectType(voluntary=False, n=None, hostile=True),
    "camp": EffectType(voluntary=True, n=None, hostile=False, requires=True),
    "secret_passage": EffectType(voluntary=True, n=None, hostile=False, letter=True),
}


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Door(_Part):
    passage: str = Field(description="the passage the door sits on, e.g. N-left")
    colours: list[str] = Field(description="1 or 2 cube colours; holding one of them opens the door")


class Effect(_Part):
    type: str = Field(description="good_luck, bad_luck, danger, ambush, stop, toll, stairs, boss, camp, "
                                  "secret_passage")
    n: int | None = Field(None, description="the effect's N, when it has one")
    letter: str | None = Field(None, description="secret passage letter (A–Z)")
    requires: list[str] = Field(default_factory=list, description="camp: cube colours needed to use it")


class ZoneTile(ComponentModel):
    floor: int = Field(ge=1, le=9, description="floor level (printed as a roman numeral)")
    number: int | None = Field(None, ge=1, le=99, description="number within the floor; none on the initial zone")
    initial: bool = Field(False, description="the initial zone: safe, on floor I, with the logo back")
    name: str = Field(min_length=1, max_length=48)
    flavour: str | None = Field(None, max_length=220)
    alert: int | None = Field(None, ge=0, le=20, description="alert value, printed red")
    slots: list[str] = Field(default_factory=list, max_length=5, description="info slots, left to right")
    passages: list[str] = Field(default_factory=list, description="N-left … W-right")
    doors: list[Door] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list, max_length=4, description="resolved left to right")


def _tiles(pack: Pack) -> list[tuple[Component, ZoneTile]]:
    return list(pack.of(ZoneTile))


# ---------------------------------------------------------------- one tile at a time


def passages_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.passage: 1..8 passages, each a known position, none twice."""
    for comp, tile in of(deck.components, ZoneTile):
        loc = comp.field_loc("passages")
        if not 1 <= len(tile.passages) <= MAX_PASSAGES:
            yield Problem("zone_tile.passage", f"a tile has 1 to {MAX_PASSAGES} passages; this one has "
                          f"{len(tile.passages)}", loc, comp.id, "passages")
        for p in tile.passages:
            if p not in PASSAGES:
                yield Problem("zone_tile.passage", f"unknown passage '{p}' (use a side N, E, S, W and left or right "
                              "as seen from the centre: N-left … W-right)", loc, comp.id, "passages")
        for p, n in Counter(tile.passages).items():
            if n > 1:
                yield Problem("zone_tile.passage", f"passage '{p}' is listed {n} times", loc, comp.id, "passages")


def doors_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.door: a door sits on a passage of its tile and names 1–2 known cube colours."""
    game = pack.settings_of(Settings)
    for comp, tile in of(deck.components, ZoneTile):
        loc = comp.field_loc("doors")
        seen: set[str] = set()
        for door in tile.doors:
            if door.passage not in tile.passages:
                yield Problem("zone_tile.door", f"door on '{door.passage}', which is not one of this tile's passages "
                              f"({', '.join(tile.passages) or 'none'})", loc, comp.id, "doors")
            if door.passage in seen:
                yield Problem("zone_tile.door", f"two doors on passage '{door.passage}'", loc, comp.id, "doors")
            seen.add(door.passage)
            if not 1 <= len(door.colours) <= 2:
                yield Problem("zone_tile.door", f"a door shows one or two cube colours; the door on "
                              f"'{door.passage}' has {len(door.colours)}", loc, comp.id, "doors")
            elif len(set(door.colours)) != len(door.colours):
                yield Problem("zone_tile.door", f"the door on '{door.passage}' repeats a colour", loc, comp.id, "doors")
            yield from unknown_colours(comp, "doors", door.colours, game, "zone_tile.door", "door colour")


def effects_valid(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.effect: known effect types, N in range where the type has an N, letters and camp colours."""
    game = pack.settings_of(Settings)
    for comp, tile in of(deck.components, ZoneTile):
        for eff in tile.effects:
            yield from effect_problems(comp, "effects", eff)
            if eff.requires and eff.type in EFFECTS and EFFECTS[eff.type].requires:
                yield from unknown_colours(comp, "effects", eff.requires, game, "zone_tile.effect",
                                           "camp colour")


def effect_problems(comp: Component, fld: str, eff: Effect) -> Iterable[Problem]:
    """Problems of one effect, wherever it is printed (tiles, the boss card's zone modifier)."""
    loc = comp.field_loc(fld)
    spec = EFFECTS.get(eff.type)
    if spec is None:
        yield Problem("zone_tile.effect", f"unknown zone effect '{eff.type}' (known: {', '.join(EFFECTS)})",
                      loc, comp.id, fld)
        return
    if spec.n is None and eff.n is not None:
        yield Problem("zone_tile.effect", f"effect '{eff.type}' has no N (remove n: {eff.n})", loc, comp.id, fld)
    if spec.n is not None:
        lo, hi = spec.n
        if eff.n is None:
            yield Problem("zone_tile.effect", f"effect '{eff.type}' needs its N ({lo}–{hi})", loc, comp.id, fld)
        elif not lo <= eff.n <= hi:
            yield Problem("zone_tile.effect", f"effect '{eff.type}' N must be {lo}–{hi} (got {eff.n})",
                          loc, comp.id, fld)
    if spec.letter and (eff.letter is None or not LETTER.match(eff.letter)):
        yield Problem("zone_tile.effect", f"effect '{eff.type}' needs a letter A–Z (got {eff.letter!r})",
                      loc, comp.id, fld)
    if not spec.letter and eff.letter is not None:
        yield Problem("zone_tile.effect", f"effect '{eff.type}' has no letter", loc, comp.id, fld)
    if not spec.requires and eff.requires:
        yield Problem("zone_tile.effect", f"effect '{eff.type}' cannot require cube colours", loc, comp.id, fld)


def slots_need_alert(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.alert: every tile with info slots prints an alert value."""
    for comp, tile in of(deck.components, ZoneTile):
        if tile.slots and tile.alert is None:
            yield Problem("zone_tile.alert", f"the tile has {len(tile.slots)} info slot(s) but no alert value "
                          "(add alert: N)", comp.field_loc("slots"), comp.id, "alert")


def slot_colours_known(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """zone_tile.slot: slot colours are cube colours the pack declares."""
    game = pack.settings_of(Settings)
    for comp, tile in of(deck.components, ZoneTile):
        yield from unknown_colours(comp, "slots", tile.slots, game, "zone_tile.slot", "slot colour")


# ---------------------------------------------------------------- every tile of the pack


def cube_supply(pack: Pack) -> Iterable[Problem]:
    """zone_tile.supply: for each colour, the slots printed on all tiles ≤ the pack's supply of cubes."""
    game = pack.settings_of(Settings)
    if game is None:
        return
    used: Counter[str] = Counter()
    reported: set[str] = set()
    tiles = _tiles(pack)
    for comp, tile in tiles:
        for colour in tile.slots:
            used[colour] += comp.data.copies
            cube = game.cubes.get(colour)
            if cube is not None and used[colour] > cube.supply and colour not in reported:
                reported.add(colour)
                total = sum(t.slots.count(colour) * c.data.copies for c, t in tiles)
                yield Problem("zone_tile.supply", f"the tiles print {total} '{colour}' slots but pack.yaml supplies "
                              f"only {cube.supply} '{colour}' cubes (this tile goes over)", comp.field_loc("slots"),
                              comp.id, "slots")


def secret_letters_pair(pack: Pack) -> Iterable[Problem]:
    """zone_tile.secret-letter: each secret-passage letter is on exactly two tiles."""
    by_letter: dict[str, list[Component]] = defaultdict(list)
    for comp, tile in _tiles(pack):
        for eff in tile.effects:
            if eff.type == "secret_passage" and eff.letter:
                by_letter[eff.letter].append(comp)
    for letter, tiles in sorted(by_letter.items()):
        if len(tiles) != 2:
            where = tiles[-1] if len(tiles) > 2 else tiles[0]
            yield Problem("zone_tile.secret-letter", f"secret passage '{letter}' is on {len(tiles)} tile(s) "
                          f"({', '.join(t.id for t in tiles)}); each letter joins exactly two tiles",
                          where.field_loc("effects"), where.id, "effects")


def one_initial_zone(pack: Pack) -> Iterable[Problem]:
    """zone_tile.initial: exactly one initial zone, on floor I; zone_tile.initial-safe: it is a safe zone."""
    tiles = _tiles(pack)
    if not tiles:
        return
    initial = [(c, t) for c, t in tiles if t.initial]
    if not initial:
        deck = next(d for d in pack.decks if d.kind.name == "zone_tile")
        yield Problem("zone_tile.initial", "the tiles have no initial zone (mark one tile `initial: true`)",
                      deck.file_loc, f"deck:{deck.id}", "initial")
    for comp, _ in initial[1:]:
        yield Problem("zone_tile.initial", f"a second initial zone (the first is '{initial[0][0].id}'); there is "
                      "exactly one", comp.field_loc("initial"), comp.id, "initial")
    for comp, tile in initial:
        if tile.floor != 1:
            yield Problem("zone_tile.initial", f"the initial zone is on floor I (got floor {tile.floor})",
                          comp.field_loc("floor"), comp.id, "floor")
        if tile.slots:
            yield Problem("zone_tile.initial-safe", "the initial zone is safe: it has no info slots",
                          comp.field_loc("slots"), comp.id, "slots")
        if tile.alert is not None:
            yield Problem("zone_tile.initial-safe", "the initial zone is safe: it has no alert value",
                          comp.field_loc("alert"), comp.id, "alert")
        hostile = [e.type for e in tile.effects if e.type in EFFECTS and EFFECTS[e.type].hostile]
        if hostile:
            yield Problem("zone_tile.initial-safe", f"the initial zone is safe: remove its hostile effect(s) "
                          f"{', '.join(hostile)}", comp.field_loc("effects"), comp.id, "effects")


def floors_as_declared(pack: Pack) -> Iterable[Problem]:
    """zone_tile.floor: tiles are on declared floors, numbered uniquely; zone_tile.floor-size: sizes match."""
    game = pack.settings_of(Settings)
    tiles = _tiles(pack)
    if game is None or not tiles:
        return
    deck = next(d for d in pack.decks if d.kind.name == "zone_tile")
    per_floor: dict[int, list[Component]] = defaultdict(list)
    numbers: dict[tuple[int, int], Component] = {}
    for comp, tile in tiles:
        if tile.floor not in game.floors:
            yield Problem("zone_tile.floor", f"floor {tile.floor} is not declared in pack.yaml (game.floors: "
                          f"{', '.join(map(str, game.floors))})", comp.field_loc("floor"), comp.id, "floor")
            continue
        if tile.initial:
            continue
        per_floor[tile.floor].extend([comp] * comp.data.copies)
        if tile.number is None:
            yield Problem("zone_tile.floor", "a zone tile needs its number within the floor (number: N)",
                          comp.loc, comp.id, "number")
        elif (tile.floor, tile.number) in numbers:
            yield Problem("zone_tile.floor", f"number {tile.number} on floor {tile.floor} is already used by "
                          f"'{numbers[(tile.floor, tile.number)].id}'", comp.field_loc("number"), comp.id, "number")
        else:
            numbers[(tile.floor, tile.number)] = comp
    for floor, spec in sorted(game.floors.items()):
        have = per_floor.get(floor, [])
        if len(have) != spec.size:
            listed = ", ".join(c.id for c in have) or "none"
            yield Problem("zone_tile.floor-size", f"floor {floor} has {len(have)} tile(s) ({listed}) but pack.yaml "
                          f"declares size {spec.size}", pack.setting_loc("floors", str(floor), "size"), f"deck:{deck.id}",
                          f"game.floors.{floor}.size")


def stairs_lead_somewhere(pack: Pack) -> Iterable[Problem]:
    """zone_tile.stairs: stairs only on a floor with an adjacent floor that exists (declared, with tiles)."""
    game = pack.settings_of(Settings)
    if game is None:
        return
    floors_with_tiles = {t.floor for _, t in _tiles(pack)} & set(game.floors)
    for comp, tile in _tiles(pack):
        has_stairs = any(e.type == "stairs" for e in tile.effects)
        if has_stairs and not {tile.floor - 1, tile.floor + 1} & floors_with_tiles:
            yield Problem("zone_tile.stairs", f"stairs on floor {tile.floor}, but neither floor {tile.floor - 1} "
                          f"nor {tile.floor + 1} exists", comp.field_loc("effects"), comp.id, "effects")


KIND = register(
    Kind(
        name="zone_tile",
        family=FAMILY,
        model=ZoneTile,
        template="zone_tile.xml.j2",
        back_template=None,
        two_sided=True,
        size="58x58mm",
        translatable=("name", "flavour"),
        deck_rules=(passages_valid, doors_valid, effects_valid, slots_need_alert, slot_colours_known),
        pack_rules=(cube_supply, secret_letters_pair, one_initial_zone,
                    floors_as_declared, stairs_lead_somewhere),
        summary="Square dungeon tile of the Expedition game: passages, doors, info slots, alert value, zone "
                "effects; the back shows the floor (the initial zone's back shows the logo).",
    )
)
