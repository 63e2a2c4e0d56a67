"""A stored map's recorded rolls replayed against the exploration procedure (`steps.py`, the same
decisions the generator makes): each roll on its die and table, each group of rolls (a corridor's
length, features and end; a room's type and doors; a door out of a room; a search) against the areas
and doors it made. Every finding is located at the line of the roll, area or door that is wrong.

A map without recorded rolls is one the GM drew in advance («Exploración de la mazmorra»: the GM may
make the whole dungeon beforehand): nothing is replayed for it.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass, field

from mazmorra.errors import Problem
from mazmorra.kinds.dicedungeon import DungeonRules
from mazmorra.kinds.dicedungeon.dice_table import DiceTable
from mazmorra.kinds.dicedungeon.dungeon_map import Area, DungeonMap, Roll
from mazmorra.kinds.dicedungeon.plan import BACK, Opening, Rect, side_of
from mazmorra.kinds.dicedungeon.steps import (
    CORRIDORS,
    DOORS,
    END_PIECE,
    END_WAYS,
    ROOM_OF,
    ROOMS,
    START,
    dice_say,
    door_leads,
    door_sides,
    same_die,
    search_finds,
    sections,
    ways_on,
)
from mazmorra.model.content import Component

SIDE = {"n": "north", "e": "east", "s": "south", "w": "west"}
TURN = {"x-junction": "an X junction", "t-junction": "a T junction", "turn-left": "a left turn"}
TURN |= {"turn-right": "a right turn", "stairs-down": "stairs down", "stairs-up": "stairs up", "dead-end": "a dead end"}


def in_line(a: Rect, b: Rect, heading: str | None) -> bool:
    """`b` carries on straight from `a` walking `heading`: against that side, the same width across."""
    if heading is None or side_of(a, b) != heading:
        return False
    return (a.y, a.h) == (b.y, b.h) if heading in ("e", "w") else (a.x, a.w) == (b.x, b.w)


@dataclass
class Corridor:
    """What a corridor's three rolls made: its sections in order, the way they run, its end."""

    length: int  # the index of its length roll
    sections: list[Area]
    heading: str | None
    end: str | None  # the end rolled (dead-end, t-junction …)
    doors: int | None  # doors its features rolled; None: the GM's choice


@dataclass
class Made:
    """What the replay learnt about the map: corridors by section, doors rolled per room."""

    corridor_of: dict[int, Corridor] = field(default_factory=dict)  # section's area number -> its corridor
    room_doors: dict[int, tuple[int, int | None]] = field(default_factory=dict)  # room -> (roll index, doors)
    revealed: set[int] = field(default_factory=set)  # areas a roll made (the first piece of each)


class Replay:
    """One map's rolls against the procedure; `problems()` says every difference."""

    def __init__(self, comp: Component, m: DungeonMap, tables: dict[str, DiceTable], rules: DungeonRules):
        self.comp, self.m, self.tables, self.rules = comp, m, tables, rules
        self.roles = {tid: t.role for tid, t in tables.items() if t.role is not None}
        self.made = Made()

    def problem(self, rule: str, path: str, field: str, message: str) -> Problem:
        return Problem(rule, message, self.comp.field_loc(path), self.comp.id, field)

    def at_roll(self, rule: str, i: int, message: str) -> Problem:
        r = self.m.rolls[i]
        where = f"'{r.table}'" if r.table else r.die or "no die"
        return self.problem(rule, f"rolls.{i}", f"rolls.{i + 1}", f"roll {i + 1} ({r.total} on {where}): {message}")

    def at_area(self, rule: str, a: Area, message: str) -> Problem:
        return self.problem(rule, f"areas.{a.n - 1}", f"areas.{a.n}", f"area {a.n} {message}")

    def area(self, n: int | None) -> Area | None:
        return self.m.areas[n - 1] if n is not None and 1 <= n <= len(self.m.areas) else None

    # ------------------------------------------------------------------ each roll on its own

    def kind_of(self, r: Roll) -> str:
        """length, features, end, room-type, room-doors (a role), chain (a table with no role), door,
        search, or unknown."""
        if r.table is not None:
            if r.table not in self.tables:
                return "unknown"
            return self.roles.get(r.table, "chain")
        if r.die is None:
            return "unknown"
        if r.outcome in ("corridor", "room") and same_die(r.die, self.rules.door_die):
            return "door"
        if r.outcome in ("found", "nothing") and same_die(r.die, self.rules.search_die):
            return "search"
        return "unknown"

    def each_roll(self) -> Iterator[Problem]:
        """dice, rolls, door-leads, search: a roll's dice, total, row and outcome as its die and table give."""
        for i, r in enumerate(self.m.rolls):
            kind = self.kind_of(r)
            if kind == "unknown":
                said = (
                    f"names table '{r.table}', which the pack does not have"
                    if r.table
                    else f"is on {r.die or 'no die'} with outcome '{r.outcome}': neither the door die "
                    f"({self.rules.door_die}: corridor or room) nor the search die ({self.rules.search_die}: "
                    "found or nothing)"
                )
                yield self.at_roll("dungeon_map.rolls", i, said + "; roll the map again if the tables changed")
                continue
            die = self.tables[r.table].die if r.table else r.die or ""
            fell = dice_say(die, list(r.dice))
            if not fell.ok:
                yield self.at_roll("dungeon_map.dice", i, f"the dice {list(r.dice)} cannot fall on {die}: {fell.why}")
                continue
            if fell.total != r.total:
                yield self.at_roll(
                    "dungeon_map.dice", i, f"the dice {list(r.dice)} add up to {fell.total}, not {r.total}"
                )
                continue
            yield from self.outcome_of(i, r, kind)

    def outcome_of(self, i: int, r: Roll, kind: str) -> Iterator[Problem]:
        if kind == "door":
            if r.outcome != door_leads(r.total):
                yield self.at_roll(
                    "dungeon_map.door-leads",
                    i,
                    f"a door out of a room leads to a corridor on an even roll and to a room on an odd one, so "
                    f"{r.total} is a {door_leads(r.total)}, not a {r.outcome}",
                )
            return
        if kind == "search":
            found = search_finds(r.total, self.rules)
            if (r.outcome == "found") != found:
                yield self.at_roll(
                    "dungeon_map.search",
                    i,
                    f"a search finds a secret door on {self.rules.search_target} or more, so {r.total} finds "
                    f"{'one' if found else 'nothing'}, not {'one' if r.outcome == 'found' else 'nothing'}",
                )
            return
        table = self.tables[r.table or ""]
        index = table.row_for(r.total)
        if index is None:
            yield self.at_roll("dungeon_map.rolls", i, f"no row of '{r.table}' holds {r.total}")
            return
        row = table.rows[index]
        if (r.outcome or None) != (row.outcome or None):
            # the outcome is what the roll means; its row number is only a record (rows may be reordered)
            yield self.at_roll(
                "dungeon_map.rolls",
                i,
                f"'{r.table}' gives {row.outcome or row.result} for {r.total} (row {index + 1}); the roll records "
                f"{r.outcome}; roll the map again if the tables changed",
            )

    # ------------------------------------------------------------------ rolls in their groups

    def groups(self) -> Iterator[Problem]:
        """rolls (order), shape, ways, door-leads: each group of rolls against what it made."""
        rolls, i = self.m.rolls, 0
        while i < len(rolls):
            kind = self.kind_of(rolls[i])
            if kind == "corridor-length":
                yield from self.corridor(i)
                i += 3
            elif kind == "room-type":
                i = yield from self.room(i)
            elif kind == "door":
                yield from self.door(i)
                i += 1
            elif kind in ("search", "unknown"):
                i += 1
            else:
                yield self.at_roll(
                    "dungeon_map.rolls",
                    i,
                    f"a {kind} roll on its own: a corridor rolls its length, features and end in turn, a room its "
                    "type and then its doors",
                )
                i += 1

    def corridor(self, i: int) -> Iterator[Problem]:
        """A corridor's length, features and end rolls against its sections, end piece and ways on."""
        rolls = self.m.rolls
        trio = rolls[i : i + 3]
        kinds = [self.kind_of(r) for r in trio]
        if kinds != ["corridor-length", "corridor-features", "corridor-end"] or len({r.area for r in trio}) != 1:
            yield self.at_roll(
                "dungeon_map.rolls", i, "a corridor rolls its length, features and end in turn, in one area"
            )
            return
        length, features, end = trio
        blocked = any(n.startswith("blocked") for n in length.notes)
        first, src = self.area(length.makes), self.area(length.area)
        if first is None:
            if not blocked:
                yield self.at_roll("dungeon_map.shape", i, "it reveals no corridor (`makes`) and no note says why")
            return
        self.made.revealed.add(first.n)
        made = [first]
        while (a := self.area(made[-1].n + 1)) is not None and a.type in CORRIDORS and a.joins == made[-1].n:
            made.append(a)
        heading = side_of(src.rect, first.rect) if src is not None else None
        kind = "special-corridor" if length.outcome == "special" else "corridor"
        for k, a in enumerate(made):
            if a.type != kind:
                yield self.at_area(
                    "dungeon_map.shape", a, f"is a {a.type}; the length rolled ({length.outcome}) makes {kind} sections"
                )
            if k and (a.via != "open" or not in_line(made[k - 1].rect, a.rect, heading)):
                yield self.at_area("dungeon_map.shape", a, f"does not run on straight from area {made[k - 1].n}")
        if first.joins != length.area:
            yield self.at_area(
                "dungeon_map.shape", first, f"joins area {first.joins}, but roll {i + 1} was made in area {length.area}"
            )
        want = sections(length.outcome)
        if len(made) != want and not (blocked and len(made) < want):
            yield self.at_area(
                "dungeon_map.shape",
                first,
                f"starts a corridor of {len(made)} section(s); the roll says {want} (roll {i + 1})",
            )
        yield from self.shown(first, features)
        corridor = Corridor(i, made, heading, end.outcome, DOORS.get(features.outcome or "", None))
        for a in made:
            self.made.corridor_of[a.n] = corridor
        yield from self.end_piece(i + 2, made[-1], heading, blocked)

    def end_piece(self, i: int, last: Area, heading: str | None, blocked: bool) -> Iterator[Problem]:
        """The corridor's end roll against the piece it made and the ways that piece leaves by."""
        r = self.m.rolls[i]
        piece = self.area(r.makes)
        if piece is None:
            if r.outcome != "dead-end" and not blocked and not any(n.startswith("blocked") for n in r.notes):
                yield self.at_roll(
                    "dungeon_map.shape", i, f"the end rolled ({r.outcome}) is on no area and no note says why"
                )
            return
        self.made.revealed.add(piece.n)
        want = END_PIECE.get(r.outcome or "")
        if want is None or piece.type != want:
            said = "a dead end is no piece" if want is None else f"is a {want}"
            yield self.at_area(
                "dungeon_map.shape", piece, f"is a {piece.type}; the corridor's end rolled ({r.outcome}) {said}"
            )
            return
        if piece.joins != last.n or side_of(last.rect, piece.rect) != heading:
            yield self.at_area("dungeon_map.shape", piece, f"does not end the corridor of area {last.n} straight on")
            return
        if heading is not None:
            yield from self.ways(piece, heading, r.outcome or "special")

    def ways(self, piece: Area, heading: str, end: str) -> Iterator[Problem]:
        """The areas and unexplored ways leaving an end piece stand on the sides its end leads to."""
        allowed = ways_on(end, heading)
        if allowed is None:
            return
        said = f"{TURN.get(end, end)} leads {' and '.join(END_WAYS.get(end) or ()) or 'nowhere'} only"
        for a in self.m.areas:
            if a.joins == piece.n and a.via == "open":
                side = side_of(piece.rect, a.rect)
                if side not in allowed:
                    where = f"on its {SIDE.get(side or '', 'far')} side" + (", straight on" if side == heading else "")
                    yield self.at_area("dungeon_map.ways", a, f"leaves area {piece.n} {where}; {said}")
        for j, e in enumerate(self.m.exits):
            if self.m.owner.get(e.at) == piece.n and e.side not in allowed:  # its first square stands in the piece
                yield self.problem(
                    "dungeon_map.ways",
                    f"exits.{j}",
                    f"exits.{j + 1}",
                    f"exit {j + 1} leaves area {piece.n} on its {SIDE[e.side]} side"
                    + (", straight on" if e.side == heading else "")
                    + f"; {said}",
                )

    def room(self, i: int) -> Generator[Problem, None, int]:
        """A room's type roll (and every table its row sends on to) and its doors roll against the room."""
        rolls = self.m.rolls
        r, j = rolls[i], i + 1
        prev = r
        while (then := self.then_of(prev)) is not None:
            if j >= len(rolls) or rolls[j].table != then:
                yield self.at_roll(
                    "dungeon_map.rolls", j - 1, f"its row says to roll on '{then}' next, and the next roll does not"
                )
                break
            prev, j = rolls[j], j + 1
        room = self.area(r.makes)
        if room is None:
            if "blocked" not in r.notes:
                yield self.at_roll("dungeon_map.shape", i, "it reveals no room (`makes`) and no note says why")
            return j
        self.made.revealed.add(room.n)
        yield from self.shown(room, prev)
        allowed = {ROOM_OF.get(r.outcome or "", room.type)}
        allowed |= {"lair"} if "quest-became-lair" in r.notes else set()
        allowed |= {"quest"} if any(n.endswith("-is-the-quest-room") for n in r.notes) else set()
        if room.type not in allowed:
            yield self.at_area(
                "dungeon_map.shape",
                room,
                f"is a {room.type}; the room rolled ({r.outcome}) is a {' or '.join(sorted(allowed))} (roll {i + 1})",
            )
        if room.joins != r.area or room.via != "door":
            yield self.at_area(
                "dungeon_map.shape", room, f"is not reached by a door of area {r.area}, where roll {i + 1} was made"
            )
        if j < len(rolls) and self.kind_of(rolls[j]) == "room-doors" and rolls[j].area == room.n:
            self.made.room_doors[room.n] = (j, DOORS.get(rolls[j].outcome or "", None))
            return j + 1
        yield self.at_roll(
            "dungeon_map.rolls", i, f"a room rolls its doors next (in area {room.n}), and the next roll does not"
        )
        return j

    def shown(self, a: Area, r: Roll) -> Iterator[Problem]:
        """shows: the table row an area prints is one its roll fell in (the GM's choice rolled, the special
        room rolled), so the map prints what was rolled."""
        if a.shows is None:
            return
        table = self.tables.get(a.shows.table)
        rolled = self.tables.get(r.table or "")
        index = rolled.row_for(r.total) if rolled is not None else None
        fits = (
            table is not None
            and a.shows.table == r.table
            and index is not None
            and 1 <= a.shows.row <= len(table.rows)
            and (a.shows.row == index + 1 or table.rows[a.shows.row - 1].outcome == r.outcome is not None)
        )
        if not fits:
            said = "no row" if index is None else f"row {index + 1}"
            yield self.at_area(
                "dungeon_map.shows",
                a,
                f"shows row {a.shows.row} of '{a.shows.table}', but its roll fell in {said} of '{r.table}': the map "
                "would print another result than the one rolled",
            )

    def then_of(self, r: Roll) -> str | None:
        table = self.tables.get(r.table or "")
        index = table.row_for(r.total) if table is not None else None
        return table.rows[index].then if table is not None and index is not None else None

    def door(self, i: int) -> Iterator[Problem]:
        """A door out of a room: what lies behind it is what the roll said (a corridor or a room)."""
        r = self.m.rolls
        nxt = r[i + 1] if i + 1 < len(r) else None
        leads = r[i].outcome
        want = "corridor-length" if leads == "corridor" else "room-type"
        if nxt is None or self.kind_of(nxt) != want or nxt.area != r[i].area:
            yield self.at_roll(
                "dungeon_map.door-leads",
                i,
                f"the door leads to a {leads}, so the next roll explores a {leads} from area {r[i].area}",
            )

    # ------------------------------------------------------------------ the start, and the doors

    def start(self) -> Iterator[Problem]:
        """start: stairs, an empty corridor of two sections in a line, a T junction leading left and right."""
        m = self.m
        for i, kind in enumerate(START):
            if i >= len(m.areas):
                yield self.problem("dungeon_map.start", "areas", "areas", f"the map has no area {i + 1} ({kind})")
                return
            a, prev = m.areas[i], (m.areas[i - 1] if i else None)
            why = None
            if a.type != kind:
                why = f"is a {a.type}; the start is stairs, two corridor sections and a T junction, so area {i + 1} is a {kind}"
            elif prev is not None and (a.joins != prev.n or a.via != "open" or side_of(prev.rect, a.rect) is None):
                why = f"does not run on openly from area {prev.n}"
            elif i == 2 and not in_line(m.areas[1].rect, a.rect, side_of(m.areas[1].rect, a.rect)):
                why = "does not carry on in a line from area 2: the start is one straight corridor"
            if why:
                yield self.at_area("dungeon_map.start", a, why)
                return
        heading = side_of(m.areas[2].rect, m.areas[3].rect)
        if heading is not None:
            for p in self.ways(m.areas[3], heading, "t-junction"):
                yield Problem(
                    "dungeon_map.start",
                    p.message.replace("a T junction", "the starting T junction"),
                    p.loc,
                    p.component,
                    p.field,
                )
        for j, d in enumerate(m.doors):
            holder = self.holder(j)
            if holder in (2, 3) and not d.searched:
                yield self.at_door(
                    "dungeon_map.start", j, f"stands on area {holder}, part of the starting corridor, which is empty"
                )

    def holder(self, j: int) -> int | None:
        """The area door `j` stands in (None when its squares are not on one area's floor)."""
        d = self.m.doors[j]
        inner = {self.m.owner.get(sq) for sq in Opening(d.at, d.side, self.m.door_width).squares()}
        return next(iter(inner)) if len(inner) == 1 else None

    def at_door(self, rule: str, j: int, message: str) -> Problem:
        d = self.m.doors[j]
        return self.problem(
            rule,
            f"doors.{j}",
            f"doors.{j + 1}",
            f"door {j + 1} (column {d.at[0]}, row {d.at[1]}, side {d.side}) {message}",
        )

    def door_walls(self) -> Iterator[Problem]:
        """door-wall, door-per-wall, secret: where each door stands and what it opens onto."""
        m = self.m
        seen: dict[tuple[int, str], int] = {}
        entries = self.entry_walls()
        for j, d in enumerate(m.doors):
            held = self.holder(j)
            area = self.area(held)
            if area is None:
                continue  # dungeon_map.door says so
            sides = self.door_sides(area)
            if d.side not in sides:
                said = (
                    f"is on a short wall of corridor area {area.n}; a corridor's doors go on its long walls (or, at the "
                    "GM's option, on the wall that closes a dead end)"
                    if area.type in CORRIDORS
                    else f"is on area {area.n}, a {area.type}: the procedure puts doors on corridors and rooms only"
                )
                yield self.at_door("dungeon_map.door-wall", j, said)
            seen[(area.n, d.side)] = seen.get((area.n, d.side), 0) + 1
            if seen[(area.n, d.side)] > 1 or (area.n, d.side) in entries:
                yield self.at_door(
                    "dungeon_map.door-per-wall",
                    j,
                    f"is a second door on the {d.side} wall of area {area.n}; one door a wall",
                )
            behind = [m.owner.get(sq) for sq in Opening(d.at, d.side, m.door_width).beyond()]
            if None in behind and any(b is not None for b in behind):
                yield self.at_door(
                    "dungeon_map.secret", j, f"opens half onto area {next(b for b in behind if b)} and half onto rock"
                )
            elif None not in behind and not d.secret and not self.opened_through(area, behind):
                yield self.at_door(
                    "dungeon_map.secret", j, f"opens onto area {behind[0]}, revealed before it: mark it `secret: true`"
                )

    def door_sides(self, area: Area) -> tuple[str, ...]:
        """The walls of `area` a door may stand on (the far wall of a dead end too)."""
        c = self.made.corridor_of.get(area.n)
        if c is None or c.heading is None:
            return door_sides(area.type, area.size[0] > area.size[1])
        closes = c.end == "dead-end" and c.sections[-1] is area
        return door_sides(area.type, c.heading in ("e", "w"), c.heading if closes else None)

    def opened_through(self, area: Area, behind: list[int | None]) -> bool:
        """The area behind a door is the one revealed through it (reached from the door's area by a door)."""
        if len(set(behind)) != 1 or behind[0] is None:
            return False
        far = self.m.areas[behind[0] - 1]
        return far.joins == area.n and far.via == "door" and far.n > area.n

    def entry_walls(self) -> set[tuple[int, str]]:
        """(room, side): the wall a room was entered by, which holds its entry door (another area's)."""
        out = set()
        for j, d in enumerate(self.m.doors):
            far = {self.m.owner.get(sq) for sq in Opening(d.at, d.side, self.m.door_width).beyond()}
            behind = next(iter(far))
            if len(far) == 1 and behind is not None:
                room = self.m.areas[behind - 1]
                if room.type in ROOMS and room.joins == self.holder(j) and room.via == "door" and not d.secret:
                    out.add((room.n, BACK[d.side]))
        return out

    def door_counts(self) -> Iterator[Problem]:
        """door-count, search: each corridor and room has the doors its roll gave, searched doors the
        searches that found them."""
        m = self.m
        own: dict[int, list[int]] = {}
        for j, d in enumerate(m.doors):
            held = self.holder(j)
            if held is not None and not d.searched:
                own.setdefault(held, []).append(j)
        dropped = {i for i, r in enumerate(m.rolls) if "door-dropped" in r.notes}
        corridors = {id(c): c for c in self.made.corridor_of.values()}.values()
        counted = [(c.length + 1, c.doors, [j for a in c.sections for j in own.get(a.n, [])]) for c in corridors]
        counted += [(at, doors, own.get(n, [])) for n, (at, doors) in self.made.room_doors.items()]
        for at, want, doors in counted:
            if want is not None and len(doors) > want:
                yield self.at_door(
                    "dungeon_map.door-count", doors[want], f"is one door more than roll {at + 1} gave ({want})"
                )
            elif want is not None and len(doors) < want:
                noted = any(n.startswith("only-") for n in m.rolls[at].notes) or any(i > at for i in dropped)
                if not noted:
                    yield self.at_roll(
                        "dungeon_map.door-count",
                        at,
                        f"it gives {want} door(s); the map has {len(doors)} there and no note says why",
                    )
        rolled = {a.n for c in corridors for a in c.sections} | set(self.made.room_doors)
        for n, doors in sorted(own.items()):
            a = self.area(n)
            if a is not None and n not in rolled and n not in (2, 3) and self.door_sides(a):
                yield self.at_door("dungeon_map.door-count", doors[0], f"stands on area {n}, where no roll gave a door")
        found = [i for i, r in enumerate(m.rolls) if self.kind_of(r) == "search" and r.outcome == "found"]
        searched = [j for j, d in enumerate(m.doors) if d.searched]
        taken_back = sum(1 for d in dropped if found and d >= found[0])  # a door found, nothing fit behind it
        if len(found) - len(searched) > taken_back:
            yield self.at_roll(
                "dungeon_map.search",
                found[-1],
                f"{len(found)} searches found a secret door, {len(searched)} door(s) are marked `searched: true` and "
                f"{taken_back} were taken back",
            )
        for j in searched[len(found) :]:
            yield self.at_door("dungeon_map.search", j, "is marked searched, but no search roll found it")

    def unrevealed(self) -> Iterator[Problem]:
        """shape: every area after the start was revealed by a roll (or is a section of a corridor one made)."""
        known = self.made.revealed | set(self.made.corridor_of) | set(range(1, len(START) + 1))
        for a in self.m.areas:
            if a.n not in known:
                yield self.at_area("dungeon_map.shape", a, "was revealed by no roll (no roll `makes` it)")

    def problems(self) -> Iterator[Problem]:
        """Every way the map departs from the procedure, roll by roll, then area by area and door by door."""
        yield from self.each_roll()
        yield from self.start()
        yield from self.groups()
        yield from self.unrevealed()
        yield from self.door_walls()
        yield from self.door_counts()
