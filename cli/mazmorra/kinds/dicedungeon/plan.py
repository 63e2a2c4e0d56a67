"""The geometry of a dungeon plan in squares: areas as rectangles, doors and openings on their
walls, and the walls a printed map draws. Shared by the generator and the map kind's rules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

Square = tuple[int, int]  # (column, row), rows counted downwards
SIDES = ("n", "e", "s", "w")
STEP: dict[str, Square] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
LEFT = {"n": "w", "w": "s", "s": "e", "e": "n"}  # turning left, seen walking towards the key
RIGHT = {v: k for k, v in LEFT.items()}
BACK = {"n": "s", "s": "n", "e": "w", "w": "e"}


@dataclass(frozen=True)
class Rect:
    """A block of squares: left column, top row, width, height."""

    x: int
    y: int
    w: int
    h: int

    def squares(self) -> Iterator[Square]:
        for y in range(self.y, self.y + self.h):
            for x in range(self.x, self.x + self.w):
                yield x, y

    def overlaps(self, other: Rect) -> bool:
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )

    def holds(self, sq: Square) -> bool:
        return self.x <= sq[0] < self.x + self.w and self.y <= sq[1] < self.y + self.h

    def wall(self, side: str) -> list[Square]:
        """The squares along one side, in order (west to east, north to south)."""
        if side == "n":
            return [(x, self.y) for x in range(self.x, self.x + self.w)]
        if side == "s":
            return [(x, self.y + self.h - 1) for x in range(self.x, self.x + self.w)]
        if side == "w":
            return [(self.x, y) for y in range(self.y, self.y + self.h)]
        return [(self.x + self.w - 1, y) for y in range(self.y, self.y + self.h)]


@dataclass(frozen=True)
class Opening:
    """A gap in a wall `width` squares wide: from square `at` along the wall (eastwards on n/s walls,
    southwards on e/w walls), on side `side` of those squares."""

    at: Square
    side: str
    width: int

    def squares(self) -> list[Square]:
        x, y = self.at
        along = (1, 0) if self.side in ("n", "s") else (0, 1)
        return [(x + along[0] * i, y + along[1] * i) for i in range(self.width)]

    def beyond(self) -> list[Square]:
        """The squares on the other side of the opening."""
        dx, dy = STEP[self.side]
        return [(x + dx, y + dy) for x, y in self.squares()]


Edge = tuple[Square, str]  # a square and one of its sides


def edge_key(sq: Square, side: str) -> Edge:
    """One name for each boundary between two squares: seen from the square north or west of it."""
    if side == "s":
        return (sq[0], sq[1] + 1), "n"
    if side == "e":
        return (sq[0] + 1, sq[1]), "w"
    return sq, side


def walls(owner: dict[Square, int], open_pairs: set[frozenset[int]], openings: Iterable[Opening]) -> list[Edge]:
    """Every boundary a wall stands on: between a floor square and rock, or between squares of two
    areas that are not joined openly, except where an opening (door or passage) is. Sorted."""
    gaps = {edge_key(sq, o.side) for o in openings for sq in o.squares()}
    found: set[Edge] = set()
    for sq, area in owner.items():
        for side, (dx, dy) in STEP.items():
            other = owner.get((sq[0] + dx, sq[1] + dy))
            if other == area or (other is not None and frozenset((area, other)) in open_pairs):
                continue
            key = edge_key(sq, side)
            if key not in gaps:
                found.add(key)
    return sorted(found, key=lambda e: (e[1], e[0][1], e[0][0]) if e[1] == "n" else (e[1], e[0][0], e[0][1]))


def runs(edges: list[Edge]) -> list[tuple[Square, str, int]]:
    """Edges merged into straight runs: (first square, side n or w, length), in the order given
    (walls() sorts north edges row by row and west edges column by column)."""
    out: list[tuple[Square, str, int]] = []
    for (x, y), side in edges:
        if out:
            (px, py), pside, n = out[-1]
            follows = (side == "n" and (px + n, py) == (x, y)) or (side == "w" and (px, py + n) == (x, y))
            if pside == side and follows:
                out[-1] = ((px, py), pside, n + 1)
                continue
        out.append(((x, y), side, 1))
    return out


def side_of(a: Rect, b: Rect) -> str | None:
    """The side of `a` that `b` lies against (None when they do not touch side by side)."""
    if a.x + a.w == b.x and a.y < b.y + b.h and b.y < a.y + a.h:
        return "e"
    if b.x + b.w == a.x and a.y < b.y + b.h and b.y < a.y + a.h:
        return "w"
    if a.y + a.h == b.y and a.x < b.x + b.w and b.x < a.x + a.w:
        return "s"
    if b.y + b.h == a.y and a.x < b.x + b.w and b.x < a.x + a.w:
        return "n"
    return None


def shared_boundary(a: Rect, b: Rect) -> int:
    """How many square edges two rectangles that touch side by side share (0 when they do not touch)."""
    if a.x + a.w == b.x or b.x + b.w == a.x:
        return max(0, min(a.y + a.h, b.y + b.h) - max(a.y, b.y))
    if a.y + a.h == b.y or b.y + b.h == a.y:
        return max(0, min(a.x + a.w, b.x + b.w) - max(a.x, b.x))
    return 0
