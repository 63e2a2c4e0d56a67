"""The print sheet's geometry: the sheet options, the grid of equal cells, slots and crop marks.

The leaf under imposition (`impose.py`) and the cut lines (`cuts.py`): types and measures they share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mazmorra.contracts import Segment
from mazmorra.model.units import PAGE_SIZES_MM
from mazmorra.render.impose import posters

MARK_OFFSET = posters.MARK_OFFSET  # mm between a bleed edge and its crop mark
MARK_MAX = 5.0  # mm
MARK_MIN = 1.5  # mm

LAYOUTS = ("duplex", "fold")
DUPLEX = ("long", "short", "none")
FOLDS = ("auto", "vertical", "horizontal")

Area = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the page's top-left


@dataclass(frozen=True)
class ImposeOptions:
    page: str = "a4"
    landscape: bool | None = False  # None: whichever way fits more pieces a sheet (`impose.orient`)
    margin: float = 5.0  # printable margin, mm
    gutter: float = 0.0  # space between neighbouring bleed boxes, mm
    crop_marks: bool = True
    cut_lines: bool = False
    duplex: str = "long"  # long | short | none: the edge a duplex sheet flips on, or no backs pages
    layout: str = "duplex"  # duplex: backs on their own pages | fold: backs beside fronts
    fold: str = "auto"  # auto | vertical | horizontal: the fold line of the fold layout
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm every backs page moves (+x right, +y down)
    bleed: float | None = None  # None: the pack's bleed; 0 abuts cards, neighbours sharing cut lines
    overlap: float = 10.0  # mm neighbouring pages of a poster share
    greyscale: bool = False  # --greyscale: every colour printed as its grey (render/draw/inks.py)
    ink_saver: bool = False  # --ink-saver: light tints for fills, outlines kept, light text darkened

    def __post_init__(self) -> None:
        if not 0 <= self.overlap <= 50:
            raise ValueError(f"overlap {self.overlap:g} mm: use 0 to 50 mm")
        for name, value, allowed in (
            ("page", self.page, tuple(PAGE_SIZES_MM)),
            ("layout", self.layout, LAYOUTS),
            ("duplex", self.duplex, DUPLEX),
            ("fold", self.fold, FOLDS),
        ):
            if value not in allowed:
                raise ValueError(f"unknown {name} {value!r} (use {', '.join(allowed)})")

    @property
    def size(self) -> tuple[float, float]:
        """The page in mm, width first (portrait while the orientation is still to choose)."""
        w, h = PAGE_SIZES_MM[self.page]
        return (h, w) if self.landscape else (w, h)

    @property
    def backs_pages(self) -> bool:
        """Whether each fronts page is followed by a backs page."""
        return self.layout == "duplex" and self.duplex != "none"

    @property
    def flips_columns(self) -> bool:
        """Whether turning the sheet over mirrors columns (a vertical flip edge) rather than rows.

        The long edge of a portrait sheet is vertical, that of a landscape sheet horizontal.
        """
        w, h = self.size
        return (self.duplex != "short") == (w <= h)


@dataclass(frozen=True)
class Grid:
    """Cells of (trim + 2 × bleed), centred in an area of the page."""

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

    @property
    def width(self) -> float:
        return self.cols * self.cell_w + (self.cols - 1) * self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.cell_h + (self.rows - 1) * self.gutter

    def cell(self, index: int) -> tuple[float, float]:
        """Top-left of the trim box of cell `index` (mm from the page's top-left)."""
        r, c = divmod(index, self.cols)
        x = self.left + c * (self.cell_w + self.gutter) + self.bleed
        y = self.top + r * (self.cell_h + self.gutter) + self.bleed
        return x, y

    def trim_lines(self) -> tuple[list[float], list[float]]:
        """Every distinct trim line; abutted cards without bleed share theirs."""
        xs, ys = [], []
        for c in range(self.cols):
            x0 = self.left + c * (self.cell_w + self.gutter) + self.bleed
            xs += [x0, x0 + self.cell_w - 2 * self.bleed]
        for r in range(self.rows):
            y0 = self.top + r * (self.cell_h + self.gutter) + self.bleed
            ys += [y0, y0 + self.cell_h - 2 * self.bleed]
        return distinct(xs), distinct(ys)


class DoesNotFit(ValueError):
    pass


def printable(sheet: ImposeOptions) -> Area:
    """The page inside its printable margin."""
    pw, ph = sheet.size
    return (sheet.margin, sheet.margin, pw - sheet.margin, ph - sheet.margin)


def plan(sheet: ImposeOptions, trim_w: float, trim_h: float, bleed: float, area: Area | None = None) -> Grid:
    """As many cells as fit in `area` (default: the printable area), leaving room for crop marks."""
    pw, ph = sheet.size
    x0, y0, x1, y1 = area or printable(sheet)
    cw, ch = trim_w + 2 * bleed, trim_h + 2 * bleed
    need = MARK_OFFSET + MARK_MIN if sheet.crop_marks else 0.0
    avail_w = x1 - x0 - 2 * need
    avail_h = y1 - y0 - 2 * need
    cols = math.floor((avail_w + sheet.gutter) / (cw + sheet.gutter) + 1e-9)
    rows = math.floor((avail_h + sheet.gutter) / (ch + sheet.gutter) + 1e-9)
    if cols < 1 or rows < 1:
        raise DoesNotFit(
            f"a {trim_w:g}×{trim_h:g} mm component with {bleed:g} mm bleed does not fit on {sheet_name(sheet)}"
        )
    gw = cols * cw + (cols - 1) * sheet.gutter
    gh = rows * ch + (rows - 1) * sheet.gutter
    left, top = x0 + (x1 - x0 - gw) / 2, y0 + (y1 - y0 - gh) / 2
    room = min(left - x0, top - y0) - MARK_OFFSET
    mark_len = max(0.0, min(MARK_MAX, room)) if sheet.crop_marks else 0.0
    return Grid(pw, ph, cols, rows, cw, ch, sheet.gutter, bleed, left, top, mark_len)


def crop_marks(grid: Grid) -> list[Segment]:
    """Every trim line extended outside the grid into the margin and, when the gutters between
    bleed boxes have room, across each gutter: never inside any bleed box."""
    xs, ys = grid.trim_lines()
    gl, gt = grid.left, grid.top
    o = MARK_OFFSET
    segs = posters.marks_outside((gl, gt, gl + grid.width, gt + grid.height), xs, ys, grid.mark_len)
    if grid.gutter >= 2 * o + MARK_MIN / 2:  # room for a visible mark between two bleed boxes
        for r in range(grid.rows - 1):  # horizontal gutters, crossed by the columns' trim lines
            g0 = gt + (r + 1) * grid.cell_h + r * grid.gutter
            segs += [(x, g0 + o, x, g0 + grid.gutter - o) for x in xs]
        for c in range(grid.cols - 1):  # vertical gutters, crossed by the rows' trim lines
            g0 = gl + (c + 1) * grid.cell_w + c * grid.gutter
            segs += [(g0 + o, y, g0 + grid.gutter - o, y) for y in ys]
    return segs


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
    """A fronts page being planned: its slots in input order, its marks and, for fold-and-glue,
    the backs beside the fronts."""

    slots: tuple[Slot, ...]  # the fronts
    marks: tuple[Segment, ...]
    backs: tuple[Slot, ...] = ()  # fold layout: the backs on the same page, one per front, in order
    folds: tuple[Segment, ...] = ()  # fold layout: the fold line
    turn_backs: bool = False  # fold layout: the fold line is horizontal, so the backs print turned 180°


def distinct(values: list[float]) -> list[float]:
    """Sorted values with near-equal ones (within a micron) merged."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-3:
            out.append(v)
    return out


def sheet_name(sheet: ImposeOptions) -> str:
    return f"{sheet.page.upper()}{' landscape' if sheet.landscape else ''}"
