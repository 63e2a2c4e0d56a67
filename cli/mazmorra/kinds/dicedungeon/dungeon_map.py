"""Dungeon map (spec E): a dungeon plan in squares, usually rolled by `mazmorra generate` and kept
in the pack like any other component: its areas, doors and unexplored ways on, the seed and every
roll that made it. Printed at miniature scale (a square is `square` wide, 25 mm by default), so a
map is usually larger than the sheet and prints as a poster over several pages."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from mazmorra.errors import Problem
from mazmorra.kinds import RuleDoc, documents, register
from mazmorra.kinds.dicedungeon import (
    FAMILY,
    MAP_FRAME_MM,
    MAP_HEADER_MM,
    MAP_SQUARES,
    check_square,
    dungeon_rules,
    most_squares,
)
from mazmorra.kinds.dicedungeon.plan import Opening, Rect, Square, edge_key, runs, shared_boundary, walls
from mazmorra.model.content import ID_PATTERN, ComponentModel, Deck, Kind, Pack, of
from mazmorra.model.units import parse_length

AreaType = Literal[
    "entrance",
    "corridor",
    "special-corridor",
    "corner",
    "junction",
    "stairs-down",
    "stairs-up",
    "special-end",
    "room",
    "special-room",
    "lair",
    "quest",
]
ROOMS = ("room", "special-room", "lair", "quest")
Side = Literal["n", "e", "s", "w"]


class _MapPart(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Shown(_MapPart):
    """A table row whose result is printed in an area (the special room rolled, the GM's choice)."""

    table: str = Field(pattern=ID_PATTERN)
    row: int = Field(ge=1, le=30)


class Area(_MapPart):
    n: int = Field(ge=1, le=999, description="its number, in the order the areas were revealed")
    type: AreaType
    at: tuple[int, int] = Field(description="column and row of its top-left square (from 0)")
    size: tuple[int, int] = Field(description="squares wide × tall")
    joins: int | None = Field(None, ge=1, description="the area it was reached from")
    via: Literal["open", "door"] | None = Field(None, description="open: the passage runs on; door: through a door")
    shows: Shown | None = Field(None, description="a table row printed in it")

    @property
    def rect(self) -> Rect:
        return Rect(self.at[0], self.at[1], self.size[0], self.size[1])


class Gap(_MapPart):
    """An opening in a wall, `door_width` squares wide."""

    at: tuple[int, int] = Field(description="its first square (the west or north one)")
    side: Side = Field(description="the wall of that square it stands on")


class Door(Gap):
    secret: bool = Field(False, description="it opens onto an area already revealed: the heroes missed it")
    searched: bool = Field(False, description="found by searching when every way on was closed")


class Exit(Gap):
    """A passage the heroes had not explored when the map was made: as wide as the corridor it leads to
    (the map's door width when not given)."""

    width: int | None = Field(None, ge=1, le=20, description="squares across, when not the door width")


class Roll(_MapPart):
    area: int = Field(ge=1, description="the area the heroes stood in when it was rolled")
    table: str | None = Field(None, pattern=ID_PATTERN, description="the table rolled on")
    die: str | None = Field(None, description="the die, when not a table's (a door's way on)")
    dice: list[int] = Field(description="every die as it fell")
    total: int
    row: int | None = Field(None, ge=1, description="the table row it fell in")
    outcome: str | None = Field(None, description="what the generator made of it")
    notes: list[str] = Field(
        default_factory=list, description="every rule that changed it (quest-became-lair, blocked-by-N …)"
    )
    makes: int | None = Field(None, ge=1, description="the area it revealed (the first piece it made)")

    @model_validator(mode="before")
    @classmethod
    def _one_note(cls, data: Any) -> Any:
        """Maps rolled before notes were a list kept one `note`: read it as a list of one."""
        if isinstance(data, dict) and "note" in data and "notes" not in data:
            data = {**data, "notes": [data["note"]]}
            del data["note"]
        return data


class DungeonMap(ComponentModel):
    name: str | None = Field(None, min_length=1, max_length=60, description="a title for the map (translated)")
    seed: int | None = Field(None, ge=0, description="the seed it was rolled with")
    square: str = Field("25mm", description="printed size of one square")
    cols: int = Field(ge=1, le=MAP_SQUARES, description="squares across")
    rows: int = Field(ge=1, le=MAP_SQUARES, description="squares down")
    door_width: int = Field(2, ge=1, le=4, description="squares a door spans")
    areas: list[Area] = Field(min_length=1, max_length=999)
    doors: list[Door] = Field(default_factory=list, max_length=2000)
    exits: list[Exit] = Field(default_factory=list, max_length=2000)
    rolls: list[Roll] = Field(default_factory=list, max_length=20000)

    @model_validator(mode="before")
    @classmethod
    def _printed_size(cls, data: Any) -> Any:
        """The trim size follows from the squares: it is not written by hand."""
        if not isinstance(data, dict):
            return data
        if "size" in data:
            raise ValueError("a map's size follows from cols, rows and square: remove 'size'")
        try:
            sq = parse_length(check_square(data.get("square", "25mm")))
            cols, rows = int(data["cols"]), int(data["rows"])
        except (KeyError, TypeError, ValueError):
            return data  # reported field by field
        most = most_squares(sq)
        if cols > most or rows > most:
            raise ValueError(f"at {sq:g} mm a square, a map spans at most {most} squares each way")
        w, h = _printed(cols, rows, sq)
        return {**data, "size": f"{w:g}x{h:g}mm"}

    @property
    def square_mm(self) -> float:
        return parse_length(self.square)

    @computed_field
    def grid(self) -> dict[str, float]:
        """Where the squares start on the printed map and how big one is (mm)."""
        return {"x": MAP_FRAME_MM, "y": MAP_FRAME_MM + MAP_HEADER_MM, "square": self.square_mm}

    @cached_property
    def owner(self) -> dict[Square, int]:
        """Every floor square -> the number of the (first) area on it."""
        out: dict[Square, int] = {}
        for a in self.areas:
            for sq in a.rect.squares():
                out.setdefault(sq, a.n)
        return out

    def openings(self) -> list[Opening]:
        return [Opening(d.at, d.side, self.door_width) for d in self.doors] + [
            Opening(e.at, e.side, e.width or self.door_width) for e in self.exits
        ]

    @computed_field
    def labels(self) -> list[tuple[int, int]]:
        """Where each area's number prints (column, row): the first square along its top row, then down
        its left column, with no door or way on at its top-left corner (a door's bar would cover it)."""
        busy = {edge_key(sq, o.side) for o in self.openings() for sq in o.squares()}
        out = []
        for a in self.areas:
            r = a.rect
            keep_off = _drawn_in(a, self.square_mm)
            spots = [(x, r.y) for x in range(r.x, r.x + r.w)] + [(r.x, y) for y in range(r.y + 1, r.y + r.h)]
            spots += [sq for sq in r.squares() if sq not in spots]
            pick = next(
                (
                    (x, y)
                    for x, y in spots
                    if not {((x, y), "n"), ((x, y), "w"), ((x - 1, y), "n"), ((x, y - 1), "w")} & busy
                    and not any(_meets((x - r.x + 0.05, y - r.y + 0.05, 0.6, 0.35), box) for box in keep_off)
                ),
                (r.x, r.y),
            )
            out.append(pick)
        return out

    @computed_field
    def walls(self) -> list[dict[str, Any]]:
        """The walls as <grid> edges (what templates read as `card.walls`)."""
        return self.wall_runs()

    def wall_runs(self) -> list[dict[str, Any]]:
        """The walls as <grid> edges, merged into runs: {r, c, side} with r or c a range."""
        joined = {frozenset((a.n, a.joins)) for a in self.areas if a.via == "open" and a.joins is not None}
        out = []
        for (x, y), side, n in runs(walls(self.owner, joined, self.openings())):
            if side == "n":
                r, s = (y, "n") if y < self.rows else (y - 1, "s")
                out.append({"r": str(r), "c": f"{x}-{x + n - 1}" if n > 1 else str(x), "side": s})
            else:
                c, s = (x, "w") if x < self.cols else (x - 1, "e")
                out.append({"r": f"{y}-{y + n - 1}" if n > 1 else str(y), "c": str(c), "side": s})
        return out


ICONED = ("entrance", "stairs-down", "stairs-up", "lair", "quest", "special-room", "special-end", "special-corridor")


def _drawn_in(a: Area, square_mm: float) -> list[tuple[float, float, float, float]]:
    """What the template draws inside an area, in squares from its corner (x, y, w, h): the piece's
    icon in the middle and the table result it shows along the bottom, at least 5.4 mm tall and only in
    pieces two squares or more across (dungeon_map.xml.j2)."""
    w, h = a.size
    out = []
    if a.type in ICONED:
        s = min(w, h, 2) * 0.55
        out.append(((w - s) / 2, (h - s) / 2 - (0.3 if a.shows or a.type == "quest" else 0), s, s))
    tall = max(0.8, 5.4 / square_mm)
    if (a.shows is not None or a.type == "quest") and min(w, h) >= 2:  # a quest room says what guards it
        out.append((0.0, h - tall - 0.15, float(w), tall))
    return out


def _meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _printed(cols: int, rows: int, square: float) -> tuple[float, float]:
    return round(cols * square + 2 * MAP_FRAME_MM, 3), round(rows * square + 2 * MAP_FRAME_MM + MAP_HEADER_MM, 3)


def numbered(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dungeon_map.numbers: areas are numbered 1, 2, 3 … in order; each joins an earlier one."""
    for comp, m in of(deck.components, DungeonMap):
        for i, a in enumerate(m.areas):
            if a.n != i + 1:
                yield Problem(
                    "dungeon_map.numbers",
                    f"area {i + 1} is numbered {a.n}: number the areas 1, 2, 3 … in the order they were revealed",
                    comp.field_loc(f"areas.{i}"),
                    comp.id,
                    f"areas.{i + 1}.n",
                )
            if a.joins is not None and not 1 <= a.joins < a.n:
                yield Problem(
                    "dungeon_map.joins",
                    f"area {a.n} joins area {a.joins}, which is not revealed before it",
                    comp.field_loc(f"areas.{i}"),
                    comp.id,
                    f"areas.{i + 1}.joins",
                )
            elif a.joins is not None and a.via == "open":
                other = m.areas[a.joins - 1].rect
                if shared_boundary(a.rect, other) == 0:
                    yield Problem(
                        "dungeon_map.joins",
                        f"area {a.n} runs on openly from area {a.joins}, but the two do not touch",
                        comp.field_loc(f"areas.{i}"),
                        comp.id,
                        f"areas.{i + 1}.joins",
                    )


def inside_and_apart(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dungeon_map.bounds: every area lies inside the map; dungeon_map.overlap: no two areas share a square."""
    for comp, m in of(deck.components, DungeonMap):
        for i, a in enumerate(m.areas):
            r = a.rect
            if r.w < 1 or r.h < 1 or r.x < 0 or r.y < 0 or r.x + r.w > m.cols or r.y + r.h > m.rows:
                yield Problem(
                    "dungeon_map.bounds",
                    f"area {a.n} ({r.w}×{r.h} at column {r.x}, row {r.y}) does not lie inside the "
                    f"{m.cols}×{m.rows} map",
                    comp.field_loc(f"areas.{i}"),
                    comp.id,
                    f"areas.{i + 1}",
                )
        for i, a in enumerate(m.areas):
            for b in m.areas[:i]:
                if a.rect.overlaps(b.rect):
                    yield Problem(
                        "dungeon_map.overlap",
                        f"area {a.n} overlaps area {b.n}: sections never overlap",
                        comp.field_loc(f"areas.{i}"),
                        comp.id,
                        f"areas.{i + 1}",
                    )


def doors_on_walls(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dungeon_map.door: a door stands on the wall of one area, inside the map; a secret door
    opens onto an area (one already revealed), never onto rock."""
    for comp, m in of(deck.components, DungeonMap):
        gaps: tuple[tuple[str, list[Door] | list[Exit]], ...] = (("door", m.doors), ("exit", m.exits))
        for kind, items in gaps:
            for i, d in enumerate(items):
                o = Opening(d.at, d.side, (d.width if isinstance(d, Exit) else None) or m.door_width)
                inner = {m.owner.get(sq) for sq in o.squares()}
                outer = {m.owner.get(sq) for sq in o.beyond()}
                problem = None
                if len(inner) != 1 or None in inner:
                    problem = f"its {len(o.squares())} squares are not all on one area's floor"
                elif inner & outer:
                    problem = "it does not stand on the area's wall (the floor runs on past it)"
                elif kind == "door" and isinstance(d, Door) and d.secret and outer == {None}:
                    problem = "a secret door opens onto an area already revealed, but this one opens onto rock"
                elif kind == "exit" and outer != {None}:
                    problem = "an unexplored way on leads into an area that is already on the map"
                if problem:
                    yield Problem(
                        "dungeon_map.door",
                        f"{kind} {i + 1} (column {d.at[0]}, row {d.at[1]}, side {d.side}): {problem}",
                        comp.field_loc(f"{kind}s.{i}"),
                        comp.id,
                        f"{kind}s.{i + 1}",
                    )


@documents(
    FAMILY,
    RuleDoc(
        "dungeon_map.quest",
        "one quest room at most, never before the pack's threshold (2 lairs or 8 rooms): one rolled earlier is a lair",
        "«Tabla de habitaciones», Habitación de Gesta: before 2 lairs or 8 rooms (whichever is fewer) a quest room "
        "is a lair",
    ),
)
def quest_rule(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dungeon_map.quest: at most one quest room, and never before the pack's lairs or rooms
    threshold (2 lairs or 8 rooms in the rulebook): one rolled earlier is a lair."""
    rules = dungeon_rules(pack)
    for comp, m in of(deck.components, DungeonMap):
        if not m.rolls:  # drawn by the GM beforehand: the random procedure's rule does not bind it
            continue
        rooms = lairs = quests = 0
        for i, a in enumerate(m.areas):
            if a.type == "quest":
                quests += 1
                early = lairs < rules.quest_lairs and rooms < rules.quest_rooms
                if quests > 1 or early:
                    why = (
                        "a map has one quest room"
                        if quests > 1
                        else f"it comes after {lairs} lair(s) and {rooms} room(s); before {rules.quest_lairs} "
                        f"lairs or {rules.quest_rooms} rooms a quest room is a lair"
                    )
                    yield Problem(
                        "dungeon_map.quest", f"area {a.n}: {why}", comp.field_loc(f"areas.{i}"), comp.id, "areas"
                    )
            if a.type in ROOMS:
                rooms += 1
                lairs += a.type == "lair"


@documents(
    FAMILY,
    RuleDoc(
        "dungeon_map.piece",
        "warning: an area's size is not its piece's (sections 5×2, corners 2×2, rooms 5×5, lairs and quest rooms 10×5; "
        "a special corridor or end is any the GM chooses)",
        "«Longitud de pasillo», «Tabla de final de pasillo», «Generación de habitaciones»: the sizes the rules assume",
    ),
)
def piece_sizes(deck: Deck, pack: Pack) -> Iterable[Problem]:
    """dungeon_map.piece (warning): each area has its piece's size (corridor sections 5×2, corners 2×2,
    rooms 5×5, lairs and quest rooms 10×5 or, where no such room fits, 5×5; either way round;
    unless the pack sets other sizes)."""
    from mazmorra.errors import Severity

    rules = dungeon_rules(pack)
    want = {
        "corridor": rules.section,
        "special-corridor": rules.section,
        "room": rules.room,
        "special-room": rules.room,
        "lair": rules.big_room,
        "quest": rules.big_room,
    }
    for comp, m in of(deck.components, DungeonMap):
        for i, a in enumerate(m.areas):
            if a.type in (
                "special-corridor",
                "special-end",
            ):  # any shape the GM chooses («pasillo especial», «final especial»)
                continue
            w, h = want.get(a.type, rules.corner)
            fits = {(w, h), (h, w)} | ({rules.room, rules.room[::-1]} if a.type in ("lair", "quest") else set())
            if tuple(a.size) not in fits:
                yield Problem(
                    "dungeon_map.piece",
                    f"area {a.n} is {a.size[0]}×{a.size[1]} squares; a {a.type} piece is {w}×{h}",
                    comp.field_loc(f"areas.{i}"),
                    comp.id,
                    f"areas.{i + 1}.size",
                    severity=Severity.WARNING,
                )


KIND = register(
    Kind(
        name="dungeon_map",
        family=FAMILY,
        model=DungeonMap,
        template="dungeon_map.xml.j2",
        back_template=None,
        size="100x100mm",  # the real size follows from the map's squares
        translatable=("name",),
        deck_rules=(numbered, inside_and_apart, doors_on_walls, quest_rule, piece_sizes),
        reads_settings=False,
        summary="Dungeon map rolled from dice tables (`mazmorra generate`): areas, doors, the seed and every roll; "
        "printed at miniature scale, as a poster over several pages.",
    )
)
