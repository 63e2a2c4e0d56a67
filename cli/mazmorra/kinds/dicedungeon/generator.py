"""The dungeon generator: the rulebook's exploration procedure rolled on a pack's dice tables.

One `random.Random(seed)` is the only source of chance and nothing else is read (no clock, no
global state, no set or dict order that could vary), so the same seed and the same tables give
the same map. The heroes start on stairs leading to an empty corridor of two sections ending in a
T junction; every way on is then explored in the order it was found: a passage runs on as a
corridor (length, features and end rolled), a corridor's door opens onto a room, a room's door
onto a corridor (even) or a room (odd). Rooms roll their type and doors; a quest room before
enough lairs or rooms is a lair; a door onto an area already revealed is a secret door. Pieces
never overlap: a room tries every place along its door (the compactest first), a passage that
runs into the map already drawn ends there, no piece stands half over a door not opened yet, and
a door nothing can stand behind is taken back; each such case is noted on its roll (a list of
notes, never one in place of another). When every way is closed the heroes search wall by wall,
each search a roll (found on the rulebook's 10 or more).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from mazmorra.errors import MazmorraError
from mazmorra.kinds.dicedungeon import DungeonRules
from mazmorra.kinds.dicedungeon.dice import parse_dice
from mazmorra.kinds.dicedungeon.dice_table import ROLES, DiceTable
from mazmorra.kinds.dicedungeon.pieces import RIM, Dungeon, PlacedPiece, Way, ahead, far
from mazmorra.kinds.dicedungeon.plan import BACK, LEFT, RIGHT, Opening, Rect, Square, side_of
from mazmorra.kinds.dicedungeon.steps import (
    DOORS,
    END_PIECE,
    ROOM_OF,
    START,
    door_leads,
    door_sides,
    quest_allowed,
    search_finds,
    sections,
    ways_on,
)

MAX_WAYS = 3000  # ways explored before the generator stops anyway (a guard, never reached in practice)


class GenerationError(MazmorraError):
    """The tables cannot drive the generator (a role missing); the message says what to add."""


class Generator:
    """Rolls one dungeon. `tables` are the pack's dice tables by id; each role must have one."""

    def __init__(self, tables: dict[str, DiceTable], rules: DungeonRules, seed: int, rooms: int | None = None):
        self.tables = tables
        self.by_role: dict[str, str] = {t.role: tid for tid, t in tables.items() if t.role is not None}
        missing = [r for r in ROLES if r not in self.by_role]
        if missing:
            raise GenerationError(
                f"the pack has no dice table for {', '.join(missing)}: give a table `role: <one of these>` "
                "(docs/kinds/dice_table.md)"
            )
        self.rules = rules
        self.rng = random.Random(seed)
        self.budget = rooms if rooms is not None else rules.rooms
        self.map = Dungeon(seed, rules)
        self.owner: dict[Square, int] = {}
        self.bounds: tuple[int, int, int, int] | None = None  # x0, y0, x1, y1 of every square so far
        self.pending: deque[Way] = deque()
        self.reserved: dict[Square, Opening] = {}  # the far side of each door not opened yet
        self.lairs = 0
        self.quest = False
        self.door_die = parse_dice(rules.door_die)

    # ------------------------------------------------------------------ the procedure

    def run(self) -> Dungeon:
        """Explore until the quest room is revealed (or no way on is left)."""
        self.start()
        explored = 0
        while not self.quest and explored < MAX_WAYS:
            if not self.pending and not self.search():
                self.map.notes.append("every way on was closed before a quest room came up")
                break
            way = self.pending.popleft()
            explored += 1
            self.unreserve(way.opening)
            if self.blocked(way):
                continue
            before = len(self.map.areas)
            if way.kind == "passage":
                self.corridor(way, "open")
            elif way.kind == "door":
                self.room(way)
            else:
                faces, total = self.door_die.roll(self.rng)
                leads = door_leads(total)
                self.record(way.source, faces, total, die=self.rules.door_die, outcome=leads)
                if leads == "corridor":
                    self.corridor(way, "door")
                else:
                    self.room(way)
            if way.kind != "passage" and len(self.map.areas) == before:  # nothing behind it: no door into rock
                self.drop_door(way.opening, len(self.map.rolls) - 1, way.source)
        for way in self.pending:  # where the heroes had not been yet
            if way.kind == "passage" and all(sq not in self.owner for sq in way.opening.beyond()):
                self.map.exits.append(way.opening)
            elif way.kind != "passage":
                self.blocked(way)  # a door whose far side was revealed since is secret
        return self.map

    def start(self) -> None:
        """Stairs down into an empty corridor of two sections that ends in a T junction."""
        length, width = self.rules.section
        c = self.rules.corner
        stairs = self.place(START[0], Rect(0, 0, c[0], c[1]), None, None)
        opening = far(stairs.rect, "e", width)
        parent = stairs.n
        for kind in START[1:3]:
            rect = ahead(opening, length, width)
            parent = self.place(kind, rect, parent, "open").n
            opening = far(rect, "e", width)
        junction = self.place(START[3], ahead(opening, c[0], c[1]), parent, "open")
        for side in ways_on("t-junction", "e") or ():
            self.pending.append(Way(far(junction.rect, side, width), junction.n, "passage"))

    def corridor(self, way: Way, via: str) -> None:
        """Length, features and end of a corridor, then its sections, end piece and doors."""
        src, heading = way.source, way.opening.side
        first = len(self.map.rolls)
        length, _ = self.roll("corridor-length", src)
        features, shown = self.roll("corridor-features", src)
        ends = len(self.map.rolls)
        end, _ = self.roll("corridor-end", src)
        special = length == "special"
        made: list[PlacedPiece] = []
        long, width = self.rules.section
        if via == "door" and self.rules.door > width:  # no section takes the door whole: nothing behind it
            self.note(first, "blocked-narrower-than-the-door")
            self.map.notes.append(f"a corridor behind a door of area {src} would be narrower than the door")
            return
        opening, parent, link = Opening(way.opening.at, heading, width), src, via
        for _ in range(sections(length)):
            rect = ahead(opening, long, width)
            if not self.free(rect):
                self.blocked_note(first, src, rect, "a corridor section")
                end = "dead-end"
                break
            kind = "special-corridor" if special else "corridor"
            placed = self.place(kind, rect, parent, link, shown if features == "gm-choice" and not made else None)
            if not made:
                self.makes(first, placed.n)
            made.append(placed)
            parent, link, opening = placed.n, "open", far(rect, heading, width)
        if not made:
            return
        if end != "dead-end":
            rect = ahead(opening, *self.rules.corner)
            if self.free(rect):
                piece = self.place(END_PIECE[end or "special"], rect, parent, "open")
                self.makes(ends, piece.n)
                for side in ways_on(end, heading) or ():  # a special end leads nowhere the dice say
                    self.pending.append(Way(far(rect, side, width), piece.n, "passage"))
            else:
                self.blocked_note(ends, src, rect, "the corridor's end")
        # the long walls, left then right of the way in (the order the dice choose from)
        long_x = heading in ("e", "w")
        walls = [
            (s, side) for s in made for side in (LEFT[heading], RIGHT[heading]) if side in door_sides(s.type, long_x)
        ]
        self.add_doors(walls, DOORS.get(features or "", 0) or 0, "door", first + 1)

    def room(self, way: Way) -> None:
        """A room behind a door: its type (a quest room only once the rule allows it), then its doors."""
        first = len(self.map.rolls)
        outcome, shown = self.roll("room-type", way.source)
        kind = ROOM_OF.get(outcome or "", "room")
        allowed = quest_allowed(self.lairs, len(self.map.rooms), self.rules)
        if kind == "quest" and not allowed:
            kind = "lair"
            self.note(first, "quest-became-lair")
        elif kind != "quest" and allowed and len(self.map.rooms) + 1 >= self.budget:
            kind = "quest"
            self.note(first, f"room-{self.budget}-is-the-quest-room")
        big = kind in ("lair", "quest")
        rect = self.fit_room(way.opening, self.rules.big_room if big else self.rules.room)
        if rect is None and big:
            rect = self.fit_room(way.opening, self.rules.room)
            if rect is not None:
                self.note(first, "smaller-to-fit")
        if rect is None:
            self.note(first, "blocked")
            self.map.notes.append(f"a room behind a door of area {way.source} found no room to stand in")
            return
        placed = self.place(kind, rect, way.source, "door", shown if kind == "special-room" else None)
        self.makes(first, placed.n)
        self.lairs += kind == "lair"
        self.quest |= kind == "quest"
        at = len(self.map.rolls)
        doors, _ = self.roll("room-doors", placed.n)
        entry = BACK[way.opening.side]
        walls = [(placed, side) for side in door_sides(kind, True) if side != entry]
        self.add_doors(walls, DOORS.get(doors or "", 0) or 0, "room-door", at)

    def search(self) -> bool:
        """Every way on is closed: the heroes search one wall at a time, latest areas first, each search
        a roll of the search die that finds a secret door on the target or more (the rulebook's 10)."""
        die = parse_dice(self.rules.search_die)
        tries = 0
        for area in reversed(self.map.areas):
            if not door_sides(area.type, self.long_x(area)) or area.type == "special-corridor":
                continue
            for side in self.door_walls(area):
                slots = [o for o in self.door_slots(area.rect, side) if self.opens_onto(o) == "free"]
                if not slots:
                    continue
                faces, total = die.roll(self.rng)
                found = search_finds(total, self.rules)
                self.record(area.n, faces, total, die=self.rules.search_die, outcome="found" if found else "nothing")
                if found:
                    o = slots[len(slots) // 2]
                    self.map.doors.append((o, False, True))
                    self.open_way(Way(o, area.n, "door" if area.type == "corridor" else "room-door"))
                    return True
                tries += 1
                if tries >= self.rules.search_tries:
                    return False
        return False

    def door_walls(self, area: PlacedPiece) -> list[str]:
        """The walls of an area that may still take a door: a corridor's long walls, a room's walls,
        each without a door of its own yet (one door a wall)."""
        sides = list(door_sides(area.type, self.long_x(area)))
        taken = {o.side for o, _, _ in self.map.doors if self.owner.get(o.at) == area.n}
        return [side for side in sides if side not in taken and not self.entered_by(area, side)]

    def long_x(self, area: PlacedPiece) -> bool:
        """A corridor section's long walls run west to east: it was walked into eastwards or westwards
        (a square section's too), or, with no way in known, it is wider than tall."""
        parent = self.map.areas[area.joins - 1] if area.joins is not None else None
        heading = side_of(parent.rect, area.rect) if parent is not None else None
        return heading in ("e", "w") if heading is not None else area.rect.w > area.rect.h

    def entered_by(self, area: PlacedPiece, side: str) -> bool:
        """A room's wall its entry door stands on (one door a wall counts it)."""
        wall = set(area.rect.wall(side))
        back = BACK[side]
        return any(o.side == back and set(o.beyond()) <= wall for o, _, _ in self.map.doors)

    # ------------------------------------------------------------------ rolls

    def roll(self, role: str, area: int) -> tuple[str | None, tuple[str, int]]:
        """Roll the table of `role` (and every table its row sends on to): the outcome and the last row rolled."""
        table_id: str | None = self.by_role[role]
        outcome: str | None = None
        seen: set[str] = set()
        shown = (self.by_role[role], 1)
        while table_id is not None and table_id not in seen:
            seen.add(table_id)
            table = self.tables[table_id]
            dice = table.dice
            if dice is None:
                raise GenerationError(f"table '{table_id}' has a die that cannot be rolled: {table.die}")
            faces, total = dice.roll(self.rng)
            index = table.row_for(total)
            if index is None:
                raise GenerationError(f"table '{table_id}' has no row for {total}: validate the pack")
            row = table.rows[index]
            if outcome is None:
                outcome = row.outcome
            self.record(area, faces, total, table=table_id, row=index + 1, outcome=row.outcome)
            shown = (table_id, index + 1)
            table_id = row.then
        return outcome, shown

    def record(self, area: int, faces: tuple[int, ...], total: int, **found: str | int | None) -> None:
        """One roll for the map's record: where, the dice, the total, then table, die, row, outcome as given."""
        entry: dict[str, Any] = {"area": area, "table": found.get("table"), "die": found.get("die")}
        entry.update(dice=list(faces), total=total, row=found.get("row"), outcome=found.get("outcome"))
        self.map.rolls.append({k: v for k, v in entry.items() if v is not None})

    def note(self, index: int, text: str) -> None:
        """A rule that changed roll `index`: kept with every other note on it, never in their place."""
        self.map.rolls[index].setdefault("notes", []).append(text)

    def makes(self, index: int, area: int) -> None:
        """Roll `index` revealed area `area` (its first piece): what validate re-checks the shape against."""
        self.map.rolls[index]["makes"] = area

    # ------------------------------------------------------------------ placing

    def place(
        self, kind: str, rect: Rect, joins: int | None, via: str | None, shows: tuple[str, int] | None = None
    ) -> PlacedPiece:
        """A piece on the map: numbered in the order revealed, its squares taken."""
        placed = PlacedPiece(len(self.map.areas) + 1, kind, rect, joins, via, shows)
        self.map.areas.append(placed)
        for sq in rect.squares():
            self.owner[sq] = placed.n
        self.bounds = self.grown(rect)
        return placed

    def grown(self, rect: Rect) -> tuple[int, int, int, int]:
        if self.bounds is None:
            return rect.x, rect.y, rect.x + rect.w, rect.y + rect.h
        x0, y0, x1, y1 = self.bounds
        return min(x0, rect.x), min(y0, rect.y), max(x1, rect.x + rect.w), max(y1, rect.y + rect.h)

    def free(self, rect: Rect) -> bool:
        """Nothing revealed stands there, and the map would still print (at most max_squares each way)."""
        x0, y0, x1, y1 = self.grown(rect)
        most = self.rules.max_squares - 2 * RIM
        if x1 - x0 > most or y1 - y0 > most:
            return False
        owner, reserved = self.owner, self.reserved
        doors = set()
        for y in range(rect.y, rect.y + rect.h):  # every square once (the generator's hot loop)
            for x in range(rect.x, rect.x + rect.w):
                if (x, y) in owner:
                    return False
                door = reserved.get((x, y))
                if door is not None:
                    doors.add(door)
        return all(all(rect.holds(sq) for sq in o.beyond()) for o in doors)  # never half over a closed door

    def fit_room(self, door: Opening, size: tuple[int, int]) -> Rect | None:
        """Where a room of `size` (either way round) stands behind a door: every place along the
        door that is free, the one keeping the map smallest (then the most centred) first."""
        best: tuple[tuple[int, int], Rect] | None = None
        for rank, rect in enumerate(self.room_places(door, size)):
            if self.free(rect):
                x0, y0, x1, y1 = self.grown(rect)
                key = ((x1 - x0) * (y1 - y0), rank)
                if best is None or key < best[0]:
                    best = (key, rect)
        return best[1] if best else None

    def room_places(self, door: Opening, size: tuple[int, int]) -> list[Rect]:
        """Every rectangle of `size` (both ways round) behind the door whose wall holds the whole door."""
        out: list[Rect] = []
        for depth, span in dict.fromkeys([(size[1], size[0]), (size[0], size[1])]):
            base = ahead(door, depth, span)
            slack = span - door.width
            shifts = sorted(range(slack + 1), key=lambda s: (abs(s - slack / 2), s))  # centred first
            for s in shifts:
                if door.side in ("e", "w"):
                    out.append(Rect(base.x, base.y - s, base.w, base.h))
                else:
                    out.append(Rect(base.x - s, base.y, base.w, base.h))
        return out

    def door_slots(self, rect: Rect, side: str) -> list[Opening]:
        wall = rect.wall(side)
        w = self.rules.door
        return [Opening(wall[i], side, w) for i in range(len(wall) - w + 1)]

    def opens_onto(self, o: Opening) -> str:
        """free: a room could stand behind it; revealed: only floor behind (a secret door); else none."""
        behind = [self.owner.get(sq) for sq in o.beyond()]
        if all(b is not None for b in behind):
            return "revealed"
        if any(b is not None for b in behind):
            return "none"
        # (fit_room's best place is not needed: only whether there is one)
        return "free" if any(self.free(r) for r in self.room_places(o, self.rules.room)) else "none"

    def add_doors(self, walls: list[tuple[PlacedPiece, str]], count: int, kind: str, at: int) -> None:
        """Up to `count` doors on different walls: walls with room behind them first, else secret
        doors onto what is already revealed; the wall and the place along it chosen by the dice."""
        if count <= 0:
            return
        order = list(walls)
        self.rng.shuffle(order)
        choices: list[tuple[int, PlacedPiece, Opening, str]] = []
        for area, side in order:
            slots = self.door_slots(area.rect, side)
            self.rng.shuffle(slots)
            first: dict[str, Opening] = {}  # the first slot of each grade, in the dice's order
            for o in slots:
                grade = self.opens_onto(o)
                first.setdefault(grade, o)
                if grade == "free":
                    break  # nothing ranks above it
            for rank, grade in enumerate(("free", "revealed")):
                if grade in first:
                    choices.append((rank, area, first[grade], grade))
                    break
        choices.sort(key=lambda c: c[0])  # stable: the dice's order among equals
        if len(choices) < count:
            self.note(at, f"only-{len(choices)}-of-{count}-doors-fit")
        for _, area, o, grade in choices[:count]:
            secret = grade == "revealed"
            self.map.doors.append((o, secret, False))
            if not secret:
                self.open_way(Way(o, area.n, kind))

    def open_way(self, way: Way) -> None:
        """A door to open later: its far side is kept whole (no piece may stand half over it)."""
        self.pending.append(way)
        for sq in way.opening.beyond():
            self.reserved[sq] = way.opening

    def unreserve(self, o: Opening) -> None:
        for sq in o.beyond():
            if self.reserved.get(sq) == o:
                del self.reserved[sq]

    def drop_door(self, o: Opening, at: int, area: int) -> None:
        """Take back a door nothing can stand behind (the rulebook has no door into rock)."""
        self.map.doors = [d for d in self.map.doors if d[0] != o]
        self.note(at, "door-dropped")
        self.map.notes.append(f"a door of area {area} led nowhere a piece could stand: taken back")

    def blocked(self, way: Way) -> bool:
        """A way found earlier whose far side has been revealed since: a door there is a secret door;
        a passage ends in a wall."""
        behind = [self.owner.get(sq) for sq in way.opening.beyond()]
        if all(b is None for b in behind):
            return False
        if way.kind != "passage" and all(b is not None for b in behind):
            self.map.doors = [(o, o == way.opening or s, f) for o, s, f in self.map.doors]
        elif way.kind != "passage":
            self.drop_door(way.opening, len(self.map.rolls) - 1, way.source)
        return True

    def blocked_note(self, index: int, area: int, rect: Rect, what: str) -> None:
        """Say why a piece could not be placed: on the roll that made it, and for the command's report."""
        hit = sorted({self.owner[sq] for sq in rect.squares() if sq in self.owner})
        if hit:
            self.note(index, f"blocked-by-{hit[0]}")
            why = f"ran into area {', '.join(map(str, hit))}"
        elif any(sq in self.reserved for sq in rect.squares()):
            self.note(index, "blocked-by-a-door")
            why = "would stand half over a door not opened yet"
        else:
            self.note(index, "blocked-by-the-edge")
            why = f"would take the map past {self.rules.max_squares} squares (2 m printed)"
        self.map.notes.append(f"{what} rolled from area {area} {why}: the passage ends there")
