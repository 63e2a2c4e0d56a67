"""The dungeon as a whole (spec A1): rules over every zone tile of a pack, run once per pack of
the Expedition family: cube supply, secret-passage pairs, the initial zone, floor sizes, stairs,
floors reachable, and tiles that can be placed at all."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.expedition import FAMILY, ExpeditionSettings
from mazmorra.kinds.expedition.zone_tile import EFFECTS, PASSAGES, ZoneTile
from mazmorra.model.content import Component, Pack


def _tiles(pack: Pack) -> list[tuple[Component, ZoneTile]]:
    return list(pack.of(ZoneTile))


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.supply",
        "for each colour, the slots printed on all tiles (copies counted) are at most the cubes in the box; "
        "reported at the tile that goes over",
        "p. 18 «Entrar en una Zona»: a new zone's slots are filled with cubes; «Cubos de Información»: the "
        "box's cubes per colour",
    ),
)
def cube_supply(pack: Pack) -> Iterable[Problem]:
    """zone_tile.supply: for each colour, the slots printed on all tiles ≤ the pack's supply of cubes."""
    game = pack.settings_of(ExpeditionSettings)
    if game is None:
        return
    used: Counter[str] = Counter()
    reported: set[str] = set()
    tiles = _tiles(pack)
    for comp, tile in tiles:
        for j, colour in enumerate(tile.slots):
            used[colour] += comp.data.copies
            cube = game.cubes.get(colour)
            if cube is not None and used[colour] > cube.supply and colour not in reported:
                reported.add(colour)
                total = sum(t.slots.count(colour) * c.data.copies for c, t in tiles)
                yield Problem(
                    "zone_tile.supply",
                    f"the tiles print {total} '{colour}' slots but pack.yaml supplies "
                    f"only {cube.supply} '{colour}' cubes (this tile goes over)",
                    comp.field_loc(f"slots.{j}"),
                    comp.id,
                    "slots",
                )


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.secret-letter",
        "each secret-passage letter is on exactly two different tiles (one tile with a letter twice is no pair)",
        "p. 18 «Efectos de Zona», Pasaje Secreto: it leads to another revealed zone with the same letter",
    ),
)
def secret_letters_pair(pack: Pack) -> Iterable[Problem]:
    """zone_tile.secret-letter: each secret-passage letter is on exactly two different tiles."""
    by_letter: dict[str, list[tuple[Component, int]]] = defaultdict(list)  # letter -> (tile, effect index)
    for comp, tile in _tiles(pack):
        mine: set[str] = set()
        for i, eff in enumerate(tile.effects):
            if eff.type != "secret_passage" or not eff.letter:
                continue
            if eff.letter in mine:
                yield Problem(
                    "zone_tile.secret-letter",
                    f"secret passage '{eff.letter}' is twice on this tile; a letter joins two different tiles",
                    comp.field_loc(f"effects.{i}.letter"),
                    comp.id,
                    "effects",
                )
                continue
            mine.add(eff.letter)
            by_letter[eff.letter].extend([(comp, i)] * comp.data.copies)
    for letter, found in sorted(by_letter.items()):
        if len(found) != 2:
            where, i = found[-1] if len(found) > 2 else found[0]
            yield Problem(
                "zone_tile.secret-letter",
                f"secret passage '{letter}' is on {len(found)} tile(s) "
                f"({', '.join(c.id for c, _ in found)}); each letter joins exactly two tiles",
                where.field_loc(f"effects.{i}.letter"),
                where.id,
                "effects",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.initial",
        "exactly one initial zone, on floor I",
        "p. 16 «Zona Inicial»: every investigator starts on it; it belongs to floor I and has its own back",
    ),
    RuleDoc(
        "zone_tile.initial-safe",
        "the initial zone has no info slots, no alert value and no hostile effect",
        "p. 16 «Zona Inicial»: a safe zone where nothing can harm an investigator",
    ),
)
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
        hostile = [(i, e.type) for i, e in enumerate(tile.effects) if e.type in EFFECTS and EFFECTS[e.type].hostile]
        if hostile:
            yield Problem(
                "zone_tile.initial-safe",
                f"the initial zone is safe: remove its hostile effect(s) {', '.join(t for _, t in hostile)}",
                comp.field_loc(f"effects.{hostile[0][0]}"),
                comp.id,
                "effects",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.floor",
        "tiles are on declared floors; every tile but the initial zone has a number, unique on its floor",
        "p. 16 «Zonas de Mazmorra» E: a roman numeral names the floor, an arabic number the zone",
    ),
    RuleDoc(
        "zone_tile.floor-size",
        "each declared floor has exactly its `size` tiles (reported at pack.yaml)",
        "p. 8 step 12: the zones are shuffled into one pile per floor; pp. 29–31: six zones per floor",
    ),
)
def floors_as_declared(pack: Pack) -> Iterable[Problem]:
    """zone_tile.floor: tiles are on declared floors, numbered uniquely; zone_tile.floor-size: sizes match."""
    game = pack.settings_of(ExpeditionSettings)
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


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.stairs",
        "stairs only on a floor with a floor above or below it (declared, with tiles)",
        "p. 19 «Escaleras»: stairs reveal a zone of an adjacent floor (p. 17: floors one level apart)",
    ),
)
def stairs_lead_somewhere(pack: Pack) -> Iterable[Problem]:
    """zone_tile.stairs: stairs only on a floor with an adjacent floor that exists (declared, with tiles)."""
    game = pack.settings_of(ExpeditionSettings)
    if game is None:
        return
    tiles = _tiles(pack)
    floors_with_tiles = {t.floor for _, t in tiles} & set(game.floors)
    for comp, tile in tiles:
        stairs = _stairs_at(tile)
        if stairs is not None and not {tile.floor - 1, tile.floor + 1} & floors_with_tiles:
            yield Problem(
                "zone_tile.stairs",
                f"stairs on floor {tile.floor}, but neither floor {tile.floor - 1} nor {tile.floor + 1} exists",
                comp.field_loc(f"effects.{stairs}"),
                comp.id,
                "effects",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.floor-unreachable",
        "every floor can be reached: each floor but the deepest has a tile with stairs, so the floor below "
        "enters play (reported at the floor without stairs in pack.yaml)",
        "p. 17 «Mover y colocar nuevas Zonas»: new zones come from the pile of the floor you are on; "
        "p. 19 «Escaleras»: only stairs bring out a zone of an adjacent floor",
    ),
)
def floors_reachable(pack: Pack) -> Iterable[Problem]:
    """zone_tile.floor-unreachable: floor 1 holds the initial zone; floor n+1 is reached only
    through stairs on floor n, so every floor above the deepest needs a tile with stairs."""
    game = pack.settings_of(ExpeditionSettings)
    tiles = _tiles(pack)
    if game is None or not tiles:
        return
    stairs = {t.floor for _, t in tiles if _has_stairs(t)}
    floors = sorted(f for f in game.floors if any(t.floor == f for _, t in tiles))
    for below in floors[1:]:
        if below - 1 not in stairs:
            yield Problem(
                "zone_tile.floor-unreachable",
                f"floor {below} can never be reached: no tile of floor {below - 1} has stairs",
                pack.setting_loc("floors", str(below - 1)),
                "pack",
                f"game.floors.{below - 1}",
            )
            return  # the floors below are cut off by the same gap


OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def meets(passage: str) -> str:
    """The passage of a neighbouring tile that lines up with this one. Left and right are seen from
    each tile's centre looking out, so the east side's left (its northern position) faces the west
    side's right of the tile to the east (also its northern position)."""
    side, pos = passage.split("-")
    return f"{OPPOSITE[side]}-{'right' if pos == 'left' else 'left'}"


@family_rule(
    FAMILY,
    RuleDoc(
        "zone_tile.isolated",
        "every tile can be placed: at least one of its passages lines up with a passage of a tile that can "
        "lie next to it (same floor, or a tile with stairs on an adjacent floor)",
        "p. 17 «Mover y colocar nuevas Zonas» step 2: a new zone must connect through at least one passage, "
        "tiles north-up; p. 19 «Escaleras» step 3",
    ),
)
def tiles_connect(pack: Pack) -> Iterable[Problem]:
    """zone_tile.isolated: a tile none of whose passages lines up with a possible neighbour's passage
    can never be placed (its pile would cycle it forever)."""
    tiles = _tiles(pack)
    for comp, tile in tiles:
        neighbours = [
            t
            for c, t in tiles
            if (c is not comp or comp.data.copies > 1)
            and (t.floor == tile.floor or (abs(t.floor - tile.floor) == 1 and (_has_stairs(t) or _has_stairs(tile))))
        ]
        wanted = {meets(p) for p in tile.passages if p in PASSAGES}
        if wanted and not any(wanted & set(t.passages) for t in neighbours):
            yield Problem(
                "zone_tile.isolated",
                f"none of this tile's passages ({', '.join(tile.passages)}) lines up with a passage of a tile "
                "that can lie next to it, so it can never be placed",
                comp.field_loc("passages"),
                comp.id,
                "passages",
            )


def _stairs_at(tile: ZoneTile) -> int | None:
    """The index of the tile's first stairs effect, None without stairs."""
    return next((i for i, e in enumerate(tile.effects) if e.type == "stairs"), None)


def _has_stairs(tile: ZoneTile) -> bool:
    return _stairs_at(tile) is not None
