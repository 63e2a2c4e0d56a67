"""What the print checks share: a finding, and a spatial index of a face's inks (which inks touch
which BUCKET-mm square) to find what lies under a point and which pairs come near each other."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from mazmorra.layout.printcheck.ink import Box, Ink

CLEARANCE = 0.4  # mm that what sits inside an outline keeps from it
BUCKET = 10.0  # mm: the spatial index's cell on an ordinary face
MIN_BUCKET = 0.05  # mm: the smallest cell, whatever the inks
MANY = 16  # inks per BUCKET square on average beyond which the cell shrinks
SQUARES_PER_INK = 4  # at most, so a face's cells stay as few as its inks


@dataclass(frozen=True)
class Finding:
    """One problem of a face, blamed on the template element `at` (a marker, file:line:col)."""

    rule: str  # print.contrast | print.overlap | print.safe-area
    at: str | None
    message: str
    other: str | None = None  # the element it meets
    field: str | None = None  # the component field whose value it is about (reported at the field's line)
    error: bool = False  # an error whatever its rule (a rule's findings are warnings unless it is an error rule)
    file: str | None = None  # a note about a file the face uses (reported once, at that file): not a warning


class Index:
    """Which inks touch which square of the face. The square is BUCKET mm, or smaller where the inks
    are small and many (a grid of thousands of cells on one face), so a square holds a bounded number
    of inks and finding the pairs stays near-linear in the number of inks."""

    def __init__(self, drawn: list[Ink]):
        self.drawn = drawn
        self.bucket = bucket = bucket_size(drawn)
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.spread: set[int] = set()  # inks in more than one square: their pairs may meet twice
        cells, floor = self.cells, math.floor
        half = CLEARANCE / 2  # boxes grown by half the clearance: two inks that come near share a square
        for ink in drawn:  # every face's every ink passes here: kept inline
            x0, y0, x1, y1 = ink.box
            x0, y0, x1, y1 = x0 - half, y0 - half, x1 + half, y1 + half
            kx0, ky0, kx1, ky1 = floor(x0 / bucket), floor(y0 / bucket), floor(x1 / bucket), floor(y1 / bucket)
            if kx0 == kx1 and ky0 == ky1:  # most inks: inside one cell
                members = cells.get((kx0, ky0))
                if members is None:
                    cells[kx0, ky0] = [ink.index]
                else:
                    members.append(ink.index)
                continue
            self.spread.add(ink.index)
            rows = range(ky0, ky1 + 1)
            for kx in range(kx0, kx1 + 1):
                for ky in rows:
                    members = cells.get((kx, ky))
                    if members is None:
                        cells[kx, ky] = [ink.index]
                    else:
                        members.append(ink.index)

    def _square(self, x: float, y: float) -> list[int]:
        return self.cells.get((math.floor(x / self.bucket), math.floor(y / self.bucket)), [])

    def under(self, x: float, y: float, below: int) -> Iterator[Ink]:
        """Inks drawn before `below` whose bounds hold (x, y), topmost first."""
        for i in reversed(self._square(x, y)):
            ink = self.drawn[i]
            b = ink.box
            if i < below and b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                yield ink

    def covering(self, b: Ink, after: int) -> Iterator[Ink]:
        """Inks drawn between `after` and b whose bounds hold b's, topmost first."""
        x0, y0, x1, y1 = b.box
        for i in reversed(self._square(x0, y0)):
            c = self.drawn[i]
            if after < i < b.index and c.box[0] <= x0 and c.box[1] <= y0 and x1 <= c.box[2] and y1 <= c.box[3]:
                yield c

    def pairs(self) -> Iterator[tuple[Ink, Ink]]:
        """Every (earlier, later) pair whose bounds come within CLEARANCE of each other, once."""
        seen: set[int] = set()  # only pairs of two spread inks, the only ones that share several squares
        drawn, total, gap, spread = self.drawn, len(self.drawn), CLEARANCE, self.spread
        for members in self.cells.values():
            for n in range(1, len(members)):
                j = members[n]
                b = drawn[j]
                bx0, by0, bx1, by1 = b.box
                j_spread = j in spread
                for i in members[:n]:
                    if j_spread and i in spread:
                        pair = i * total + j
                        if pair in seen:
                            continue
                        seen.add(pair)
                    a = drawn[i]
                    ax0, ay0, ax1, ay1 = a.box
                    if ax0 - gap < bx1 and bx0 - gap < ax1 and ay0 - gap < by1 and by0 - gap < ay1:  # near()
                        yield a, b


def bucket_size(drawn: list[Ink]) -> float:
    """The index's square: BUCKET mm, down to about twice the median ink's size when inks are many
    (MANY per BUCKET square on average), never so small that the face holds more squares than
    SQUARES_PER_INK per ink."""
    if not drawn:
        return BUCKET
    x0 = min(i.box[0] for i in drawn)
    y0 = min(i.box[1] for i in drawn)
    x1 = max(i.box[2] for i in drawn)
    y1 = max(i.box[3] for i in drawn)
    area = max(x1 - x0, 0.0) * max(y1 - y0, 0.0)
    if len(drawn) * BUCKET * BUCKET <= MANY * max(area, BUCKET * BUCKET):
        return BUCKET  # an ordinary face: a few inks per square
    sizes = sorted(max(i.box[2] - i.box[0], i.box[3] - i.box[1]) for i in drawn)
    floor_size = math.sqrt(area / (SQUARES_PER_INK * len(drawn))) if area else BUCKET
    return min(BUCKET, max(2 * sizes[len(sizes) // 2], floor_size, MIN_BUCKET))


def near(a: Box, b: Box, gap: float) -> bool:
    return a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3] and b[1] - gap < a[3]
