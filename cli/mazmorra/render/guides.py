"""The cut guide of a round piece: its trim circle, in black or white, whichever stands out more
from what the face paints under it (WCAG 2 contrast, at least 4.5:1 against any one colour)."""

from __future__ import annotations

import math

from mazmorra.contracts import Face
from mazmorra.icons import IconSet
from mazmorra.layout.contrast import PAPER, contrast
from mazmorra.layout.ink import colour_at, inks

BLACK, WHITE = "#000000", "#ffffff"
POINTS = 16  # points around the trim circle where the ground is looked up


def ground(face: Face, icons: IconSet) -> list[str]:
    """The colours the face paints on its trim circle (looking down through what was drawn last),
    the face's background or the paper where nothing is."""
    drawn = inks(face.ops, {})
    cx, cy, r = face.w / 2, face.h / 2, min(face.w, face.h) / 2
    found = []
    for k in range(POINTS):
        a = 2 * math.pi * k / POINTS
        p = (cx + r * math.cos(a), cy + r * math.sin(a))
        colour = next((c for ink in reversed(drawn) if (c := colour_at(ink, p, icons)) is not None), None)
        found.append(colour if colour and colour.startswith("#") else (face.background or PAPER))
    return found


def guide_colour(face: Face, icons: IconSet) -> str:
    """Black or white: the one whose weakest contrast against the circle's ground is higher."""
    under = ground(face, icons)
    return max((BLACK, WHITE), key=lambda ink: min(contrast(ink, g) for g in under))
