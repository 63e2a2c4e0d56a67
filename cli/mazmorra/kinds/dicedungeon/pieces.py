"""The pieces a generated dungeon is made of, in the generator's own coordinates, and the map they
make as the dungeon_map kind reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mazmorra.kinds.dicedungeon import DungeonRules
from mazmorra.kinds.dicedungeon.plan import Opening, Rect, Square
from mazmorra.kinds.dicedungeon.steps import ROOMS

RIM = 1  # squares of rock around a generated map


@dataclass
class PlacedPiece:
    n: int
    type: str
    rect: Rect
    joins: int | None = None
    via: str | None = None
    shows: tuple[str, int] | None = None


@dataclass(frozen=True)
class Way:
    """A way on not explored yet: an opening in area `source`'s wall, and what lies behind it."""

    opening: Opening
    source: int
    kind: str  # passage: a corridor runs on | door: a corridor's door, a room | room-door: roll which


@dataclass
class Dungeon:
    """What the generator made, in its own coordinates (data() moves it to start at 0, 0)."""

    seed: int
    rules: DungeonRules
    areas: list[PlacedPiece] = field(default_factory=list)
    doors: list[tuple[Opening, bool, bool]] = field(default_factory=list)  # opening, secret, searched
    exits: list[Opening] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the rules changed, for the command's report

    @property
    def rooms(self) -> list[PlacedPiece]:
        return [a for a in self.areas if a.type in ROOMS]

    def data(self, comp_id: str) -> dict[str, Any]:
        """The map as the dungeon_map kind reads it."""
        # one square of rock all round: a door or way on at the edge prints inside the map, not over
        # its header or past its trim
        x0 = min(a.rect.x for a in self.areas) - RIM
        y0 = min(a.rect.y for a in self.areas) - RIM
        cols = max(a.rect.x + a.rect.w for a in self.areas) - x0 + RIM
        rows = max(a.rect.y + a.rect.h for a in self.areas) - y0 + RIM

        def at(sq: Square) -> list[int]:
            return [sq[0] - x0, sq[1] - y0]

        areas = []
        for a in self.areas:
            item: dict[str, Any] = {
                "n": a.n,
                "type": a.type,
                "at": at((a.rect.x, a.rect.y)),
                "size": [a.rect.w, a.rect.h],
            }
            if a.joins is not None:
                item.update(joins=a.joins, via=a.via)
            if a.shows is not None:
                item["shows"] = {"table": a.shows[0], "row": a.shows[1]}
            areas.append(item)
        doors = []
        for o, secret, searched in self.doors:
            door: dict[str, Any] = {"at": at(o.at), "side": o.side}
            if secret:
                door["secret"] = True
            if searched:
                door["searched"] = True
            doors.append(door)
        return {
            "id": comp_id,
            "seed": self.seed,
            "square": self.rules.square,
            "cols": cols,
            "rows": rows,
            "door_width": self.rules.door,
            "areas": areas,
            "doors": doors,
            "exits": [
                {"at": at(o.at), "side": o.side} | ({"width": o.width} if o.width != self.rules.door else {})
                for o in self.exits
            ],
            "rolls": self.rolls,
        }


def ahead(o: Opening, length: int, width: int) -> Rect:
    """The block `length` squares deep and `width` wide beyond an opening, aligned with its first square."""
    x, y = o.at
    if o.side == "e":
        return Rect(x + 1, y, length, width)
    if o.side == "w":
        return Rect(x - length, y, length, width)
    if o.side == "s":
        return Rect(x, y + 1, width, length)
    return Rect(x, y - length, width, length)


def far(rect: Rect, side: str, width: int) -> Opening:
    """The opening in a piece's `side` wall a passage `width` wide leaves by."""
    return Opening(rect.wall(side)[0], side, min(width, len(rect.wall(side))))
