"""The exploration procedure re-checked on a stored map, generated or drawn by hand (rulebook E,
«Exploración de la mazmorra»): the start sequence, where doors stand, what lies behind them, the
pieces the rolls made, and every table the generator needs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, family_rule
from mazmorra.kinds.dicedungeon import FAMILY
from mazmorra.kinds.dicedungeon.dice_table import ROLES, DiceTable
from mazmorra.kinds.dicedungeon.dungeon_map import ROOMS, Area, DungeonMap
from mazmorra.kinds.dicedungeon.plan import BACK, Opening, shared_boundary
from mazmorra.model.content import Component, Pack

CORRIDORS = ("corridor", "special-corridor")
END_PIECE = {
    "x-junction": "junction",
    "t-junction": "junction",
    "turn-left": "corner",
    "turn-right": "corner",
    "stairs-down": "stairs-down",
    "stairs-up": "stairs-up",
    "special": "special-end",
}
ROOM_OF = {"empty": "room", "special": "special-room", "lair": "lair", "quest": "quest"}


def _problem(rule: str, comp: Component, path: str, field: str, message: str) -> Problem:
    return Problem(rule, message, comp.field_loc(path), comp.id, field)


@family_rule(
    FAMILY,
    RuleDoc(
        "dungeon_map.start",
        "area 1 is the starting stairs, areas 2 and 3 an empty corridor of two sections in a line, area 4 "
        "the T junction that ends it, left and right its only ways on",
        "«Descubriendo la mazmorra»: the heroes start on stairs down leading to an empty corridor of two "
        "sections that ends in a T junction",
    ),
)
def start_sequence(pack: Pack) -> Iterable[Problem]:
    """The start every random dungeon shares: stairs, two empty sections, a T junction."""
    for comp, m in pack.of(DungeonMap):
        yield from _start(comp, m)


def _start(comp: Component, m: DungeonMap) -> Iterator[Problem]:
    want = ("entrance", "corridor", "corridor", "junction")
    for i, kind in enumerate(want):
        if i >= len(m.areas):
            yield _problem("dungeon_map.start", comp, "areas", "areas", f"the map has no area {i + 1} ({kind})")
            return
        a = m.areas[i]
        prev = m.areas[i - 1] if i else None
        why = None
        if a.type != kind:
            why = f"is a {a.type}; the start is stairs, two corridor sections and a T junction, so area {i + 1} is a {kind}"
        elif prev is not None and (a.joins != prev.n or a.via != "open" or not shared_boundary(a.rect, prev.rect)):
            why = f"does not run on openly from area {prev.n}"
        elif (
            prev is not None
            and i == 2
            and (a.rect.y != prev.rect.y if a.rect.w > a.rect.h else a.rect.x != prev.rect.x)
        ):
            why = "does not carry on in a line from area 2: the start is one straight corridor"
        if why:
            yield _problem("dungeon_map.start", comp, f"areas.{i}", f"areas.{i + 1}", f"area {a.n} {why}")
            return
    corridor, junction = m.areas[2].rect, m.areas[3].rect
    along = corridor.w > corridor.h
    for i, a in enumerate(m.areas[4:], 4):
        if a.joins != 4 or a.via != "open":
            continue
        straight = (
            (a.rect.x >= junction.x + junction.w or a.rect.x + a.rect.w <= junction.x)
            if along
            else (a.rect.y >= junction.y + junction.h or a.rect.y + a.rect.h <= junction.y)
        )
        if straight:
            yield _problem(
                "dungeon_map.start",
                comp,
                f"areas.{i}",
                f"areas.{i + 1}",
                f"area {a.n} leaves the starting T junction (area 4) straight on; a T junction turns left and right only",
            )


@family_rule(
    FAMILY,
    RuleDoc(
        "dungeon_map.door-wall",
        "a corridor's doors stand on the long walls of its sections",
        "«Colocación de puertas»: doors in a corridor always go on the long walls of each section",
    ),
    RuleDoc(
        "dungeon_map.door-per-wall",
        "at most one door on each wall of a room and on each long wall of a corridor section",
        "«Colocación de puertas»: no more than one door per room wall; no more than one per long wall of each "
        "corridor section",
    ),
    RuleDoc(
        "dungeon_map.secret",
        "a door onto an area revealed before it (not the area opened through it) is marked secret, and no door "
        "opens half onto an area",
        "«Colocación de puertas»: a door placed onto an area already revealed is a secret door the heroes missed",
    ),
)
def door_placement(pack: Pack) -> Iterable[Problem]:
    """Where doors stand and what they open onto, as the rulebook places them."""
    for comp, m in pack.of(DungeonMap):
        seen: Counter[tuple[int, str]] = Counter()
        entries = _entry_walls(m)
        for i, d in enumerate(m.doors):
            o = Opening(d.at, d.side, m.door_width)
            inner = {m.owner.get(sq) for sq in o.squares()}
            held = next(iter(inner))
            if len(inner) != 1 or held is None:
                continue  # dungeon_map.door says so
            area = m.areas[held - 1]
            where = (f"doors.{i}", f"doors.{i + 1}")
            label = f"door {i + 1} (column {d.at[0]}, row {d.at[1]}, side {d.side})"
            if area.type in CORRIDORS and d.side not in _long_sides(area):
                yield _problem(
                    "dungeon_map.door-wall",
                    comp,
                    *where,
                    f"{label} stands on a short wall of corridor area {area.n}; a corridor's doors go on its long walls",
                )
            seen[(area.n, d.side)] += 1
            if seen[(area.n, d.side)] > 1 or (area.n, d.side) in entries:
                yield _problem(
                    "dungeon_map.door-per-wall",
                    comp,
                    *where,
                    f"{label} is a second door on the {d.side} wall of area {area.n}; one door a wall",
                )
            behind = [m.owner.get(sq) for sq in o.beyond()]
            if None in behind and any(b is not None for b in behind):
                yield _problem(
                    "dungeon_map.secret",
                    comp,
                    *where,
                    f"{label} opens half onto area {next(b for b in behind if b)} and half onto rock",
                )
            elif None not in behind and not d.secret and not _opened_through(m, area, behind):
                yield _problem(
                    "dungeon_map.secret",
                    comp,
                    *where,
                    f"{label} opens onto area {behind[0]}, revealed before it: mark it `secret: true`",
                )


def _long_sides(a: Area) -> tuple[str, str]:
    return ("n", "s") if a.size[0] > a.size[1] else ("e", "w")


def _opened_through(m: DungeonMap, area: Area, behind: list[int | None]) -> bool:
    """The area behind a door is the one revealed through it (reached from the door's area by a door)."""
    if len(set(behind)) != 1 or behind[0] is None:
        return False
    far = m.areas[behind[0] - 1]
    return far.joins == area.n and far.via == "door" and far.n > area.n


def _entry_walls(m: DungeonMap) -> set[tuple[int, str]]:
    """(room, side): the wall a room was entered by, which holds its entry door (another area's)."""
    out = set()
    for d in m.doors:
        o = Opening(d.at, d.side, m.door_width)
        far = {m.owner.get(sq) for sq in o.beyond()}
        near = m.owner.get(d.at)
        behind = next(iter(far))
        if len(far) == 1 and behind is not None:
            room = m.areas[behind - 1]
            if room.type in ROOMS and room.joins == near and room.via == "door" and not d.secret:
                out.add((room.n, BACK[d.side]))
    return out


@family_rule(
    FAMILY,
    RuleDoc(
        "dungeon_map.shape",
        "each roll that revealed an area (`makes`) made the piece its table row says: as many corridor sections "
        "as the length rolled, the corridor's end, the room's type; a rule that changed it is in the roll's notes",
        "«Generación de pasillos», «Generación de habitaciones»: length, features and end of a corridor; the "
        "room's type",
    ),
)
def shapes_from_rolls(pack: Pack) -> Iterable[Problem]:
    """The pieces a map's rolls say they made."""
    roles = {comp.id: t.role for comp, t in pack.of(DiceTable) if t.role is not None}
    for comp, m in pack.of(DungeonMap):
        for i, r in enumerate(m.rolls):
            role = roles.get(r.table or "")
            if r.makes is None or role is None or not 1 <= r.makes <= len(m.areas):
                continue
            a = m.areas[r.makes - 1]
            notes = " ".join(r.notes)
            why = None
            if role == "corridor-length":
                count, n = 0, a.n
                while (
                    n <= len(m.areas)
                    and m.areas[n - 1].type in CORRIDORS
                    and (count == 0 or m.areas[n - 1].joins == n - 1)
                ):
                    count, n = count + 1, n + 1
                said = r.outcome or ""
                want = 1 if said == "special" else int(said) if said.isdigit() else count
                if a.type not in CORRIDORS:
                    why = f"is a {a.type}; a corridor's length roll reveals a corridor section"
                elif count != want and "blocked" not in notes:
                    why = f"starts a corridor of {count} section(s); the roll says {want}"
            elif role == "corridor-end":
                want_piece = END_PIECE.get(r.outcome or "")
                if want_piece is not None and a.type != want_piece:
                    why = f"is a {a.type}; the corridor's end rolled ({r.outcome}) is a {want_piece}"
            elif role == "room-type":
                allowed = {ROOM_OF.get(r.outcome or "", a.type)}
                allowed |= {"lair"} if "quest-became-lair" in notes else set()
                allowed |= {"quest"} if "is-the-quest-room" in notes else set()
                if a.type not in allowed:
                    why = f"is a {a.type}; the room rolled ({r.outcome}) is a {' or '.join(sorted(allowed))}"
            if why:
                yield _problem(
                    "dungeon_map.shape",
                    comp,
                    f"areas.{a.n - 1}",
                    f"areas.{a.n}",
                    f"area {a.n} {why} (roll {i + 1}, {r.total} on '{r.table}')",
                )


@family_rule(
    FAMILY,
    RuleDoc(
        "dice_table.missing-role",
        "a pack that keeps dungeon maps or gives any table a role has a table for every role the generator rolls "
        "(corridor length, features and end, room type, room doors)",
        "«Generación de pasillos», «Generación de habitaciones», «Colocación de puertas»: the five tables the "
        "exploration rolls on",
    ),
)
def every_role(pack: Pack) -> Iterable[Problem]:
    """The generator's tables, all of them, wherever it could be asked to roll."""
    found = {t.role for _, t in pack.of(DiceTable) if t.role is not None}
    decks = [d for d in pack.decks if d.kind.name == "dungeon_map"]
    if not found and not decks:
        return
    missing = [r for r in ROLES if r not in found]
    if missing:
        loc = decks[0].loc if decks else next(c for c, t in pack.of(DiceTable) if t.role is not None).field_loc("role")
        yield Problem(
            "dice_table.missing-role",
            f"no dice table has role {', '.join(missing)}: `mazmorra generate` rolls on one table of each role "
            f"({', '.join(ROLES)}); give a table `role: {missing[0]}`",
            loc,
            None,
            None,
        )
