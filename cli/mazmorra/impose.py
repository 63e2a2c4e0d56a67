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


# ---------------------------------------------------------------- pages of placed faces

CORNER_MARK = 1.5  # mm, corner marks of mixed-size sheets
MIXED_GUTTER = 2 * (MARK_OFFSET + CORNER_MARK)


@dataclass(frozen=True)
class Slot:
    """Where one face's trim box goes on a page (mm from the page's top-left)."""

    index: int  # position of the face in the input list
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class PagePlan:
    slots: tuple[Slot, ...]
    marks: tuple[tuple[float, float, float, float], ...]


def mirror(slot: Slot, sheet: SheetSpec) -> Slot:
    """The slot of the back of `slot` so that it lands behind its front after flipping the sheet."""
    pw, ph = sheet.size
    if sheet.duplex == "short":
        return Slot(slot.index, slot.x, ph - slot.y - slot.h, slot.w, slot.h)
    return Slot(slot.index, pw - slot.x - slot.w, slot.y, slot.w, slot.h)


def impose(sheet: SheetSpec, sizes: list[tuple[float, float]], bleed: float) -> list[PagePlan]:
    """Pages for faces of the given trim sizes, in order: a grid when all sizes match, shelves otherwise."""
    if not sizes:
        return []
    if len(set(sizes)) == 1:
        w, h = sizes[0]
        grid = plan(sheet, w, h, bleed)
        marks = tuple(crop_marks(grid)) if sheet.crop_marks else ()
        pages = []
        for start in range(0, len(sizes), grid.per_sheet):
            n = min(grid.per_sheet, len(sizes) - start)
            slots = tuple(Slot(start + i, *grid.cell(i), w, h) for i in range(n))
            pages.append(PagePlan(slots, marks))
        return pages
    return _shelves(sheet, sizes, bleed)


def _shelves(sheet: SheetSpec, sizes: list[tuple[float, float]], bleed: float) -> list[PagePlan]:
    pw, ph = sheet.size
    gut = MIXED_GUTTER if sheet.crop_marks else sheet.gutter
    edge = sheet.margin + (MARK_OFFSET + CORNER_MARK if sheet.crop_marks else 0.0)
    max_w, max_h = pw - 2 * edge, ph - 2 * edge
    pages: list[PagePlan] = []
    slots: list[Slot] = []
    x = y = row_h = 0.0

    def flush() -> None:
        if slots:
            pages.append(PagePlan(tuple(slots), tuple(_corner_marks(slots, bleed)) if sheet.crop_marks else ()))

    for i, (w, h) in enumerate(sizes):
        cw, ch = w + 2 * bleed, h + 2 * bleed
        if cw > max_w or ch > max_h:
            raise DoesNotFit(f"a {w:g}×{h:g} mm component with {bleed:g} mm bleed does not fit on "
                             f"{sheet.page.upper()}")
        if x > 0 and x + cw > max_w + 1e-9:
            x, y, row_h = 0.0, y + row_h + gut, 0.0
        if y + ch > max_h + 1e-9:
            flush()
            slots = []
            x = y = row_h = 0.0
        slots.append(Slot(i, edge + x + bleed, edge + y + bleed, w, h))
        x += cw + gut
        row_h = max(row_h, ch)
    flush()
    return pages


def _corner_marks(slots: list[Slot], bleed: float) -> list[tuple[float, float, float, float]]:
    """Short marks extending each trim edge just outside the slot's bleed box."""
    o, n = MARK_OFFSET, CORNER_MARK
    segs = []
    for s in slots:
        x0, y0, x1, y1 = s.x, s.y, s.x + s.w, s.y + s.h
        bx0, by0, bx1, by1 = x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed
        for x in (x0, x1):
            segs += [(x, by0 - o - n, x, by0 - o), (x, by1 + o, x, by1 + o + n)]
        for y in (y0, y1):
            segs += [(bx0 - o - n, y, bx0 - o, y), (bx1 + o, y, bx1 + o + n, y)]
    return segs
