"""Imposition: how many faces fit a sheet, where each goes, where backs go, where marks go."""

from __future__ import annotations

import math
from dataclasses import dataclass

from mazmorra.units import PAGE_SIZES_MM

MARK_OFFSET = 0.5  # mm between a bleed edge and its crop mark
MARK_MAX = 5.0  # mm
MARK_MIN = 1.5  # mm


@dataclass(frozen=True)
class SheetSpec:
    page: str = "a4"
    landscape: bool = False
    margin: float = 5.0  # printable margin, mm
    gutter: float = 0.0  # space between neighbouring bleed boxes, mm
    crop_marks: bool = True
    cut_lines: bool = False
    duplex: str = "long"  # long | short | none

    @property
    def size(self) -> tuple[float, float]:
        w, h = PAGE_SIZES_MM[self.page]
        return (h, w) if self.landscape else (w, h)


@dataclass(frozen=True)
class Grid:
    """Cells of (trim + 2 × bleed), centred on the page."""

    page_w: float
    page_h: float
    cols: int
    rows: int
    cell_w: float
    cell_h: float
    gutter: float
    bleed: float
    left: float  # x of the first cell's bleed edge
    top: float  # y (from the top) of the first row's bleed edge
    mark_len: float

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def cell(self, index: int, back: bool = False, duplex: str = "long") -> tuple[float, float]:
        """Top-left of the trim box of cell `index` (mm from the page's top-left)."""
        r, c = divmod(index, self.cols)
        if back and duplex == "long":
            c = self.cols - 1 - c
        elif back and duplex == "short":
            r = self.rows - 1 - r
        x = self.left + c * (self.cell_w + self.gutter) + self.bleed
        y = self.top + r * (self.cell_h + self.gutter) + self.bleed
        return x, y

    def trim_lines(self) -> tuple[list[float], list[float]]:
        xs, ys = [], []
        for c in range(self.cols):
            x0 = self.left + c * (self.cell_w + self.gutter) + self.bleed
            xs += [x0, x0 + self.cell_w - 2 * self.bleed]
        for r in range(self.rows):
            y0 = self.top + r * (self.cell_h + self.gutter) + self.bleed
            ys += [y0, y0 + self.cell_h - 2 * self.bleed]
        return xs, ys


class DoesNotFit(ValueError):
    pass


def plan(sheet: SheetSpec, trim_w: float, trim_h: float, bleed: float) -> Grid:
    """As many cells as fit inside the printable margin, leaving room for crop marks outside them."""
    pw, ph = sheet.size
    cw, ch = trim_w + 2 * bleed, trim_h + 2 * bleed
    need = MARK_OFFSET + MARK_MIN if sheet.crop_marks else 0.0
    avail_w = pw - 2 * sheet.margin - 2 * need
    avail_h = ph - 2 * sheet.margin - 2 * need
    cols = math.floor((avail_w + sheet.gutter) / (cw + sheet.gutter) + 1e-9)
    rows = math.floor((avail_h + sheet.gutter) / (ch + sheet.gutter) + 1e-9)
    if cols < 1 or rows < 1:
        raise DoesNotFit(f"a {trim_w:g}×{trim_h:g} mm component with {bleed:g} mm bleed does not fit "
                         f"on {sheet.page.upper()}{' landscape' if sheet.landscape else ''}")
    gw = cols * cw + (cols - 1) * sheet.gutter
    gh = rows * ch + (rows - 1) * sheet.gutter
    left, top = (pw - gw) / 2, (ph - gh) / 2
    room = min(left, top) - sheet.margin - MARK_OFFSET
    mark_len = max(0.0, min(MARK_MAX, room)) if sheet.crop_marks else 0.0
    return Grid(pw, ph, cols, rows, cw, ch, sheet.gutter, bleed, left, top, mark_len)


def crop_marks(grid: Grid) -> list[tuple[float, float, float, float]]:
    """Line segments (x1, y1, x2, y2 in mm from top-left) extending every trim line into the margin."""
    xs, ys = grid.trim_lines()
    gl, gt = grid.left, grid.top
    gr = gl + grid.cols * grid.cell_w + (grid.cols - 1) * grid.gutter
    gb = gt + grid.rows * grid.cell_h + (grid.rows - 1) * grid.gutter
    o, n = MARK_OFFSET, grid.mark_len
    segs = []
    for x in xs:
        segs.append((x, gt - o - n, x, gt - o))
        segs.append((x, gb + o, x, gb + o + n))
    for y in ys:
        segs.append((gl - o - n, y, gl - o, y))
        segs.append((gr + o, y, gr + o + n, y))
    return segs
