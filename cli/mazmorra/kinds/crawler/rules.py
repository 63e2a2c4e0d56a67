"""Rules of the deck-box crawler family that need code: where spawn points stand around the point
of interest, which spaces a tile's connections reach, values that must fit the marker tracks, and die
faces that name enemies. What a declaration can say (terrain symbols, unique spawn numbers, spawn
points on open spaces, at least one connection on the rim, keywords, dice and modifiers in range) is
in the kind files (kinds/*.yaml) and checked by stage 2's grid and field checks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mazmorra.errors import Loc, Problem, Severity, did_you_mean
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.crawler import FAMILY
from mazmorra.kinds.values import of_kind, optional, value
from mazmorra.model.content import Component, Pack
from mazmorra.model.declared.griddata import GridValue, where

OPEN = frozenset({"floor", "water", "pit", "exit"})  # what a hero can stand on (blocked is not)


def _tiles(pack: Pack) -> Iterator[tuple[Component, GridValue]]:
    for comp in of_kind(pack, "map_tile"):
        yield comp, value(comp, "map", GridValue)


@family_rule(
    FAMILY,
    RuleDoc(
        "map_tile.no-poi",
        "a tile with spawn points has a point of interest for them to stand around",
        "«Apariciones»: enemies are placed on and around the point of interest",
    ),
    RuleDoc(
        "map_tile.spawn-far",
        "every spawn point is on the point of interest or one of the eight spaces around it",
        "«Apariciones»: enemies are placed on and around the point of interest, in the order 1–9",
    ),
    RuleDoc(
        "map_tile.spawn-gap",
        "a tile's spawn numbers run 1, 2, 3 … without a gap",
        "«Apariciones»: enemies are placed in the order shown (1–9); a missing number leaves an enemy nowhere",
    ),
)
def spawn_points(pack: Pack) -> Iterable[Problem]:
    """Spawn points stand on and around the tile's point of interest, numbered from 1 without gaps."""
    for comp, grid in _tiles(pack):
        spawns = grid.marks_of("spawn")
        if not spawns:
            continue
        poi = grid.where.get("poi", ())
        if not poi:
            yield Problem(
                "map_tile.no-poi",
                f"the tile has {len(spawns)} spawn points but no point of interest (*) for enemies to spawn around",
                comp.field_loc("map"),
                comp.id,
                "map",
            )
            continue
        pr, pc = poi[0]
        for r, c, mark in spawns:
            if max(abs(r - pr), abs(c - pc)) > 1:
                yield Problem(
                    "map_tile.spawn-far",
                    f"spawn point {mark.number} at cell {r},{c} is not on or next to the point of interest "
                    f"(cell {pr},{pc}); spawn points stand in the 3×3 block around it",
                    _cell_loc(comp, grid, r, c),
                    comp.id,
                    "map",
                )
        numbers = sorted({m.number for _, _, m in spawns if m.number is not None})
        missing = [n for n in range(1, (numbers[-1] if numbers else 0) + 1) if n not in numbers]
        if missing:
            yield Problem(
                "map_tile.spawn-gap",
                f"spawn numbers {', '.join(map(str, numbers))} skip {', '.join(map(str, missing))}; they run 1, 2, "
                "3 … so every enemy that spawns has a space",
                comp.field_loc("map"),
                comp.id,
                "map",
            )


def _cell_loc(comp: Component, grid: GridValue, r: int, c: int) -> Loc:
    return where(comp, "map", grid.cell_at[r][c]) if r < len(grid.cell_at) and c < len(grid.cell_at[r]) else comp.loc


@family_rule(
    FAMILY,
    RuleDoc(
        "map_tile.unreachable",
        "every open space of a tile can be reached from one of its connections, moving orthogonally over open "
        "spaces (a warning: a sealed space may be meant)",
        "«Mover»: heroes move orthogonally, never through blocked spaces; «Explorar»: tiles join at their arrows",
    ),
)
def reachable_spaces(pack: Pack) -> Iterable[Problem]:
    """Open spaces that no connection leads to are probably a mistake in the map."""
    for comp, grid in _tiles(pack):
        start = [(e.r, e.c) for e in grid.edges if e.type == "connection"]
        seen = set(p for p in start if _open(grid, *p))
        todo = list(seen)
        while todo:
            r, c = todo.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (nr, nc) not in seen and _open(grid, nr, nc):
                    seen.add((nr, nc))
                    todo.append((nr, nc))
        cut = [(r, c) for r in range(grid.rows) for c in range(grid.cols) if _open(grid, r, c) and (r, c) not in seen]
        if start and cut:
            r, c = cut[0]
            yield Problem(
                "map_tile.unreachable",
                f"{len(cut)} open space(s), first at cell {r},{c}, cannot be reached from any connection",
                _cell_loc(comp, grid, r, c),
                comp.id,
                "map",
                severity=Severity.WARNING,
            )


def _open(grid: GridValue, r: int, c: int) -> bool:
    cell = grid.cell(r, c)
    return cell is not None and cell.type in OPEN


TRACKS = (("hero", "health", "health"), ("skill", "energy", "energy"), ("item", "loot", "loot"))


@family_rule(
    FAMILY,
    RuleDoc(
        "marker.too-short",
        "a hero's health, a skill's energy cost and an item's loot cost fit on the pack's health, energy and loot "
        "marker tracks",
        "«Configuración» 3: the markers slide under the hero, equipment and skill cards and count health, loot "
        "and energy",
    ),
)
def values_fit_the_tracks(pack: Pack) -> Iterable[Problem]:
    """A value no marker can show cannot be played: the track's top must reach it."""
    tops: dict[str, int] = {}
    for comp in of_kind(pack, "marker"):
        track = value(comp, "track", str)
        tops[track] = max(tops.get(track, 0), value(comp, "top", int))
    for kind, fld, track in TRACKS:
        if track not in tops:
            continue
        for comp in of_kind(pack, kind):
            n = value(comp, fld, int)
            if n > tops[track]:
                yield Problem(
                    "marker.too-short",
                    f"{fld} {n} is beyond the {track} track, which runs 0–{tops[track]}; lower it or give the "
                    f"{track} marker a higher top",
                    comp.field_loc(fld),
                    comp.id,
                    fld,
                )


@family_rule(
    FAMILY,
    RuleDoc(
        "enemy_die.face",
        "every face of a custom enemy die names an enemy card of the pack",
        "«Apariciones»: a spawned enemy has the type and health its die face shows",
    ),
)
def die_faces_are_enemies(pack: Pack) -> Iterable[Problem]:
    """A die face shows an enemy, so it names one of the pack's enemy cards."""
    enemies = sorted(c.id for c in of_kind(pack, "enemy"))
    for comp in of_kind(pack, "enemy_die"):
        for i, face in enumerate(value(comp, "faces", list)):
            if face not in enemies:
                yield Problem(
                    "enemy_die.face",
                    f"face {i + 1} names '{face}', which is no enemy card of the pack{did_you_mean(str(face), enemies)}",
                    comp.field_loc(f"faces.{i}"),
                    comp.id,
                    "faces",
                )


@family_rule(
    FAMILY,
    RuleDoc(
        "enemy.keyword-twice",
        "an enemy or equipment card lists each keyword once",
        "«Palabras Clave»: each keyword is one rule the card has (Crush: one extra damage per hit, not two)",
    ),
)
def keywords_once(pack: Pack) -> Iterable[Problem]:
    """A keyword listed twice does not apply twice: it is a typing mistake, said at the second."""
    for kind in ("enemy", "equipment"):
        for comp in of_kind(pack, kind):
            seen: set[str] = set()
            for i, word in enumerate(optional(comp, "keywords", list) or []):
                if word in seen:
                    yield Problem(
                        "enemy.keyword-twice",
                        f"keyword '{word}' is listed twice; a keyword applies once",
                        comp.field_loc(f"keywords.{i}"),
                        comp.id,
                        "keywords",
                    )
                seen.add(str(word))
