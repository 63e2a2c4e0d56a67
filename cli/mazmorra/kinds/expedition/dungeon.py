"""The dungeon as a whole (spec A1): rules over every zone tile of a pack, run once per pack of
the Expedition family: cube supply, secret-passage pairs, the initial zone, floor sizes, stairs."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from mazmorra.errors import Problem
from mazmorra.kinds import family_rule
from mazmorra.kinds.expedition import FAMILY, Settings
from mazmorra.kinds.expedition.zone_tile import EFFECTS, ZoneTile
from mazmorra.model import Component, Pack


def _tiles(pack: Pack) -> list[tuple[Component, ZoneTile]]:
    return list(pack.of(ZoneTile))


@family_rule(FAMILY)
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
                yield Problem(
                    "zone_tile.supply",
                    f"the tiles print {total} '{colour}' slots but pack.yaml supplies "
                    f"only {cube.supply} '{colour}' cubes (this tile goes over)",
                    comp.field_loc("slots"),
                    comp.id,
                    "slots",
                )


@family_rule(FAMILY)
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
            yield Problem(
                "zone_tile.secret-letter",
                f"secret passage '{letter}' is on {len(tiles)} tile(s) "
                f"({', '.join(t.id for t in tiles)}); each letter joins exactly two tiles",
                where.field_loc("effects"),
                where.id,
                "effects",
            )


@family_rule(FAMILY)
def one_initial_zone(pack: Pack) -> Iterable[Problem]:
    """zone_tile.initial: exactly one initial zone, on floor I; zone_tile.initial-safe: it is a safe zone."""
    tiles = _tiles(pack)
    if not tiles:
        return
    initial = [(c, t) for c, t in tiles if t.initial]
    if not initial:
        deck = pack.deck(tiles[0][0].deck)
        yield Problem(
            "zone_tile.initial",
            "the tiles have no initial zone (mark one tile `initial: true`)",
            deck.file_loc,
            f"deck:{deck.id}",
            "initial",
        )
    for comp, _ in initial[1:]:
        yield Problem(
            "zone_tile.initial",
            f"a second initial zone (the first is '{initial[0][0].id}'); there is exactly one",
            comp.field_loc("initial"),
            comp.id,
            "initial",
        )
    for comp, tile in initial:
        if tile.floor != 1:
            yield Problem(
                "zone_tile.initial",
                f"the initial zone is on floor I (got floor {tile.floor})",
                comp.field_loc("floor"),
                comp.id,
                "floor",
            )
        if tile.slots:
            yield Problem(
                "zone_tile.initial-safe",
                "the initial zone is safe: it has no info slots",
                comp.field_loc("slots"),
                comp.id,
                "slots",
            )
        if tile.alert is not None:
            yield Problem(
                "zone_tile.initial-safe",
                "the initial zone is safe: it has no alert value",
                comp.field_loc("alert"),
                comp.id,
                "alert",
            )
        hostile = [e.type for e in tile.effects if e.type in EFFECTS and EFFECTS[e.type].hostile]
        if hostile:
            yield Problem(
                "zone_tile.initial-safe",
                f"the initial zone is safe: remove its hostile effect(s) {', '.join(hostile)}",
                comp.field_loc("effects"),
                comp.id,
                "effects",
            )


@family_rule(FAMILY)
def floors_as_declared(pack: Pack) -> Iterable[Problem]:
    """zone_tile.floor: tiles are on declared floors, numbered uniquely; zone_tile.floor-size: sizes match."""
    game = pack.settings_of(Settings)
    tiles = _tiles(pack)
    if game is None or not tiles:
        return
    deck = pack.deck(tiles[0][0].deck)
    per_floor: dict[int, list[Component]] = defaultdict(list)
    numbers: dict[tuple[int, int], Component] = {}
    for comp, tile in tiles:
        if tile.floor not in game.floors:
            yield Problem(
                "zone_tile.floor",
                f"floor {tile.floor} is not declared in pack.yaml (game.floors: {', '.join(map(str, game.floors))})",
                comp.field_loc("floor"),
                comp.id,
                "floor",
            )
            continue
        if tile.initial:
            continue
        per_floor[tile.floor].extend([comp] * comp.data.copies)
        if tile.number is None:
            yield Problem(
                "zone_tile.floor",
                "a zone tile needs its number within the floor (number: N)",
                comp.loc,
                comp.id,
                "number",
            )
        elif (tile.floor, tile.number) in numbers:
            yield Problem(
                "zone_tile.floor",
                f"number {tile.number} on floor {tile.floor} is already used by "
                f"'{numbers[(tile.floor, tile.number)].id}'",
                comp.field_loc("number"),
                comp.id,
                "number",
            )
        else:
            numbers[(tile.floor, tile.number)] = comp
    for floor, spec in sorted(game.floors.items()):
        have = per_floor.get(floor, [])
        if len(have) != spec.size:
            listed = ", ".join(c.id for c in have) or "none"
            yield Problem(
                "zone_tile.floor-size",
                f"floor {floor} has {len(have)} tile(s) ({listed}) but pack.yaml declares size {spec.size}",
                pack.setting_loc("floors", str(floor), "size"),
                f"deck:{deck.id}",
                f"game.floors.{floor}.size",
            )


@family_rule(FAMILY)
def stairs_lead_somewhere(pack: Pack) -> Iterable[Problem]:
    """zone_tile.stairs: stairs only on a floor with an adjacent floor that exists (declared, with tiles)."""
    game = pack.settings_of(Settings)
    if game is None:
        return
    floors_with_tiles = {t.floor for _, t in _tiles(pack)} & set(game.floors)
    for comp, tile in _tiles(pack):
        has_stairs = any(e.type == "stairs" for e in tile.effects)
        if has_stairs and not {tile.floor - 1, tile.floor + 1} & floors_with_tiles:
            yield Problem(
                "zone_tile.stairs",
                f"stairs on floor {tile.floor}, but neither floor {tile.floor - 1} nor {tile.floor + 1} exists",
                comp.field_loc("effects"),
                comp.id,
                "effects",
            )
