"""Cut guides drawn on a piece: the trim circle of a circular piece, the corner arcs of a piece with
rounded corners. Each in black or white, whichever stands out more from what the face paints under
it (WCAG 2 contrast: one of the two always reaches 4.5:1 against any one colour)."""

from __future__ import annotations

import math

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Face
from mazmorra.layout.printcheck.contrast import PAPER, contrast
from mazmorra.layout.printcheck.ink import colour_at, inks

BLACK, WHITE = "#000000", "#ffffff"
POINTS = 16  # points around the trim circle where the ground is looked up

Point = tuple[float, float]


def circle_points(face: Face) -> list[Point]:
    """Points on a circular face's trim circle (face coordinates, mm)."""
    cx, cy, r = face.w / 2, face.h / 2, min(face.w, face.h) / 2
    return [
        (cx + r * math.cos(2 * math.pi * k / POINTS), cy + r * math.sin(2 * math.pi * k / POINTS))
        for k in range(POINTS)
    ]


def corners(face: Face, r: float) -> list[tuple[Point, float]]:
    """Each rounded corner's arc: its centre (face coordinates, mm, y down) and the angle it starts
    at (degrees anticlockwise, y up), spanning 90°."""
    w, h = face.w, face.h
    return [((r, r), 90.0), ((w - r, r), 0.0), ((w - r, h - r), 270.0), ((r, h - r), 180.0)]


def corner_points(face: Face, r: float) -> list[Point]:
    """Points on the corner arcs (three a corner)."""
    out = []
    for (cx, cy), start in corners(face, r):
        for a in (start + 15, start + 45, start + 75):
            out.append((cx + r * math.cos(math.radians(a)), cy - r * math.sin(math.radians(a))))
    return out


def ground(face: Face, icons: IconSet, points: list[Point]) -> list[str]:
    """The colours the face paints at the points (looking down through what was drawn last), the
    face's background or the paper where nothing is."""
    drawn = inks(face.ops, {})
    found = []
    for p in points:
        colour = next((c for ink in reversed(drawn) if (c := colour_at(ink, p, icons)) is not None), None)
        found.append(colour if colour and colour.startswith("#") else (face.background or PAPER))
    return found


def guide_colour(face: Face, icons: IconSet, points: list[Point]) -> str:
    """Black or white: the one whose weakest contrast against the ground at the points is higher."""
    under = ground(face, icons, points)
    return max((BLACK, WHITE), key=lambda ink: min(contrast(ink, g) for g in under))


class Colours:
    """The guide colour of each face of a document, worked out once (a deck repeats its faces)."""

    def __init__(self, icons: IconSet):
        self.icons = icons
        self._seen: dict[tuple[str, str], str] = {}

    def of(self, face: Face, points: list[Point]) -> str:
        """The face's guide colour for a guide through the points."""
        key = (face.component, face.side)
        if key not in self._seen:
            self._seen[key] = guide_colour(face, self.icons, points)
        return self._seen[key]
