"""What the print checks share: a finding, and a spatial index of a face's inks (which inks touch
which BUCKET-mm square) to find what lies under a point and which pairs come near each other."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from mazmorra.layout.ink import Box, Ink

CLEARANCE = 0.4  # mm that what sits inside an outline keeps from it
BUCKET = 10.0  # mm: the spatial index's cell


@dataclass(frozen=True)
class Finding:
    """One problem of a face, blamed on the template element `at` (a marker, file:line:col)."""

    rule: str  # print.contrast | print.overlap | print.safe-area
    at: str | None
    message: str
    other: str | None = None  # the element it meets


class Index:
    """Which inks touch which BUCKET-mm square of the face."""

    def __init__(self, drawn: list[Ink]):
        self.drawn = drawn
        self.cells: dict[tuple[int, int], list[int]] = {}
        cells, floor = self.cells, math.floor
        for ink in drawn:  # keys(ink.box), inlined: every face's every ink passes here
            x0, y0, x1, y1 = ink.box
            kx0, ky0, kx1, ky1 = floor(x0 / BUCKET), floor(y0 / BUCKET), floor(x1 / BUCKET), floor(y1 / BUCKET)
            if kx0 == kx1 and ky0 == ky1:  # most inks: inside one cell
                members = cells.get((kx0, ky0))
                if members is None:
                    cells[kx0, ky0] = [ink.index]
                else:
                    members.append(ink.index)
                continue
            rows = range(ky0, ky1 + 1)
            for kx in range(kx0, kx1 + 1):
                for ky in rows:
                    members = cells.get((kx, ky))
                    if members is None:
                        cells[kx, ky] = [ink.index]
                    else:
                        members.append(ink.index)

    def under(self, x: float, y: float, below: int) -> Iterator[Ink]:
        """Inks drawn before `below` whose bounds hold (x, y), topmost first."""
        for i in reversed(self.cells.get((math.floor(x / BUCKET), math.floor(y / BUCKET)), [])):
            ink = self.drawn[i]
            b = ink.box
            if i < below and b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                yield ink

    def covering(self, b: Ink, after: int) -> Iterator[Ink]:
        """Inks drawn between `after` and b whose bounds hold b's, topmost first."""
        x0, y0, x1, y1 = b.box
        for i in reversed(self.cells.get((math.floor(x0 / BUCKET), math.floor(y0 / BUCKET)), [])):
            c = self.drawn[i]
            if after < i < b.index and c.box[0] <= x0 and c.box[1] <= y0 and x1 <= c.box[2] and y1 <= c.box[3]:
                yield c

    def pairs(self) -> Iterator[tuple[Ink, Ink]]:
        """Every (earlier, later) pair whose bounds come within CLEARANCE of each other, once."""
        seen: set[int] = set()
        drawn, total, gap = self.drawn, len(self.drawn), CLEARANCE
        for members in self.cells.values():
            for n in range(1, len(members)):
                j = members[n]
                b = drawn[j]
                bx0, by0, bx1, by1 = b.box
                for i in members[:n]:
                    pair = i * total + j
                    if pair in seen:
                        continue
                    seen.add(pair)
                    a = drawn[i]
                    ax0, ay0, ax1, ay1 = a.box
                    if ax0 - gap < bx1 and bx0 - gap < ax1 and ay0 - gap < by1 and by0 - gap < ay1:  # near()
                        yield a, b


def keys(box: Box) -> Iterator[tuple[int, int]]:
    for kx in range(math.floor(box[0] / BUCKET), math.floor(box[2] / BUCKET) + 1):
        for ky in range(math.floor(box[1] / BUCKET), math.floor(box[3] / BUCKET) + 1):
            yield kx, ky


def near(a: Box, b: Box, gap: float) -> bool:
    return a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3] and b[1] - gap < a[3]
