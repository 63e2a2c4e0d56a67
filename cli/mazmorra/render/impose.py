"""Imposition: how many faces fit a sheet, where each goes, where backs go, where marks go.

`impose` returns every physical page of a document, backs included, as contract `Page`s: the
renderer only draws them. A face larger than the sheet prints as a poster over several pages
(`posters.py`), after the others. Two layouts. `duplex`: a fronts page, then a backs page mirrored for
the edge the sheet flips on (and moved by the printer's measured back offset). `fold`
(fold-and-glue): fronts in one half of the page, each back exactly opposite its front across a
fold line through the page's centre. Where the sheet turns over top to bottom (short-edge duplex on
a portrait sheet, a horizontal fold) backs print turned 180°: a piece turned over sideways reads upright.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from mazmorra.contracts import Page, Placement, Segment
from mazmorra.render import posters
from mazmorra.units import PAGE_SIZES_MM

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
    landscape: bool = False
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
        return _distinct(xs), _distinct(ys)


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
            f"a {trim_w:g}×{trim_h:g} mm component with {bleed:g} mm bleed does not fit on {_sheet_name(sheet)}"
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
    """A fronts page being planned: its slots in input order, its marks and, for fold-and-glue,
    the backs beside the fronts."""

    slots: tuple[Slot, ...]  # the fronts
    marks: tuple[Segment, ...]
    backs: tuple[Slot, ...] = ()  # fold layout: the backs on the same page, one per front, in order
    folds: tuple[Segment, ...] = ()  # fold layout: the fold line
    turn_backs: bool = False  # fold layout: the fold line is horizontal, so the backs print turned 180°


def reflect(
    slots: tuple[Slot, ...], marks: tuple[Segment, ...], columns: bool, pw: float, ph: float
) -> tuple[tuple[Slot, ...], tuple[Segment, ...]]:
    """Slots and marks reflected across the page's vertical centre line (columns=True) or its
    horizontal one: where backs go, for duplex flipping and for fold-and-glue alike."""
    if columns:
        return (
            tuple(replace(s, x=pw - s.x - s.w) for s in slots),
            tuple((pw - x1, y1, pw - x2, y2) for x1, y1, x2, y2 in marks),
        )
    return (
        tuple(replace(s, y=ph - s.y - s.h) for s in slots),
        tuple((x1, ph - y1, x2, ph - y2) for x1, y1, x2, y2 in marks),
    )


def back_page(plan: PagePlan, sheet: ImposeOptions) -> PagePlan:
    """The backs page of a fronts page: slots and marks mirrored for the flip edge, then moved by
    the back offset that makes up for the printer's duplex misregistration."""
    dx, dy = sheet.back_offset
    slots, marks = reflect(plan.slots, plan.marks, sheet.flips_columns, *sheet.size)
    return PagePlan(
        tuple(replace(s, x=s.x + dx, y=s.y + dy) for s in slots),
        tuple((x1 + dx, y1 + dy, x2 + dx, y2 + dy) for x1, y1, x2, y2 in marks),
    )


def impose(sheet: ImposeOptions, sizes: list[tuple[float, float]], backs: list[bool], bleed: float) -> list[Page]:
    """Every page of a document whose copies have the given trim sizes and (when `backs[i]`) a
    back, in printing order: each fronts page, then its backs page (duplex); fronts and backs on
    one page for fold-and-glue; then a poster for each face larger than the sheet (its front's
    tiles, then its back's). Raises DoesNotFit when a face fits the sheet but not beside its back
    (fold), or the sheet has no room for a poster's tile."""
    big = [i for i, (w, h) in enumerate(sizes) if not fits(sheet, w, h, bleed)]
    if not big:
        return _impose(sheet, sizes, backs, bleed)
    paper = posters.Paper(sheet.size, sheet.margin, sheet.overlap, sheet.crop_marks)
    try:
        return posters.apart(big, sizes, backs, bleed, paper, lambda s, b: _impose(sheet, s, b, bleed))
    except posters.TooSmall as exc:
        raise DoesNotFit(str(exc)) from None


def fits(sheet: ImposeOptions, w: float, h: float, bleed: float) -> bool:
    """Whether a w × h mm face (with its bleed and crop marks) fits the sheet; if not, it is a poster."""
    try:
        plan(sheet, w, h, bleed)
    except DoesNotFit:
        return False
    return True


def _impose(sheet: ImposeOptions, sizes: list[tuple[float, float]], backs: list[bool], bleed: float) -> list[Page]:
    out: list[Page] = []
    for fronts in plan_fronts(sheet, sizes, bleed):
        placed = [_placement(s, "front") for s in fronts.slots]
        placed += [_placement(s, "back", fronts.turn_backs) for s in fronts.backs if backs[s.index]]
        out.append(_page(sheet, fronts.slots + fronts.backs, placed, fronts.marks, fronts.folds))
        if sheet.backs_pages and any(backs[s.index] for s in fronts.slots):
            behind = back_page(fronts, sheet)
            # a piece is turned over sideways: a sheet that turns top to bottom prints its backs turned
            placed = [_placement(s, "back", not sheet.flips_columns) for s in behind.slots if backs[s.index]]
            out.append(_page(sheet, behind.slots, placed, behind.marks, ()))
    return out


def plan_fronts(sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float) -> list[PagePlan]:
    """The fronts pages for faces of the given trim sizes, in order: a grid when all sizes match,
    shelves otherwise; for the fold layout, in one half of each page with the backs opposite."""
    if not sizes:
        return []
    if sheet.layout == "fold":
        return _fold(sheet, sizes, bleed)
    return _place(sheet, sizes, bleed, printable(sheet))


def _placement(slot: Slot, side: str, turned: bool = False) -> Placement:
    return Placement(slot.index, side, slot.x, slot.y, slot.w, slot.h, turn=180 if turned else 0)


def _page(
    sheet: ImposeOptions,
    slots: tuple[Slot, ...],
    placed: list[Placement],
    marks: tuple[Segment, ...],
    folds: tuple[Segment, ...],
) -> Page:
    pw, ph = sheet.size
    cuts: list[Segment] = []
    if sheet.cut_lines:  # across the whole sheet through every trim edge; neighbours share a line
        cuts += [(x, ph, x, 0.0) for x in sorted({round(v, 4) for s in slots for v in (s.x, s.x + s.w)})]
        cuts += [(0.0, y, pw, y) for y in sorted({round(v, 4) for s in slots for v in (s.y, s.y + s.h)})]
    return Page((pw, ph), tuple(placed), marks, folds, tuple(cuts))


def _place(
    sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float, area: Area, snug: str = ""
) -> list[PagePlan]:
    """Faces in `area`: a grid centred in it, else shelves from its top-left. When snug is "right"
    or "bottom", both keep to that edge: next to the fold line, where a slightly skewed fold
    shifts a back the least."""
    if len(set(sizes)) == 1:
        w, h = sizes[0]
        grid = plan(sheet, w, h, bleed, area)
        if snug:
            x0, y0, x1, y1 = area
            room = 2 * (MARK_OFFSET + MARK_MAX) if sheet.crop_marks else 0.0  # full-length marks
            if snug == "right":
                area = (max(x0, x1 - grid.width - room), y0, x1, y1)
            else:
                area = (x0, max(y0, y1 - grid.height - room), x1, y1)
            grid = plan(sheet, w, h, bleed, area)
        pages = []
        for start in range(0, len(sizes), grid.per_sheet):
            n = min(grid.per_sheet, len(sizes) - start)
            slots = tuple(Slot(start + i, *grid.cell(i), w, h) for i in range(n))
            used = (
                grid
                if n == grid.per_sheet
                else replace(  # a part-filled sheet: marks for its cards only
                    grid, rows=-(-n // grid.cols), cols=min(n, grid.cols)
                )
            )
            pages.append(PagePlan(slots, tuple(crop_marks(used)) if sheet.crop_marks else ()))
        return pages
    pages = _shelves(sheet, sizes, bleed, area)
    return [_towards(page, area, snug, bleed, sheet) for page in pages] if snug else pages


def _towards(page: PagePlan, area: Area, edge: str, bleed: float, sheet: ImposeOptions) -> PagePlan:
    """A shelved page moved up to the area's right (or bottom) edge, its marks still inside."""
    inset = MARK_OFFSET + CORNER_MARK if sheet.crop_marks else 0.0
    if edge == "right":
        dx, dy = area[2] - inset - max(s.x + s.w + bleed for s in page.slots), 0.0
    else:
        dx, dy = 0.0, area[3] - inset - max(s.y + s.h + bleed for s in page.slots)
    return PagePlan(
        tuple(replace(s, x=s.x + dx, y=s.y + dy) for s in page.slots),
        tuple((x1 + dx, y1 + dy, x2 + dx, y2 + dy) for x1, y1, x2, y2 in page.marks),
    )


def _fold(sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float) -> list[PagePlan]:
    """Fronts in the left (or top) half, backs reflected across the page's centre line.

    With `fold="auto"` the orientation giving fewer pages wins, then more faces on a page, then
    the vertical fold (fronts left, backs right).
    """
    pw, ph = sheet.size
    half_gap = sheet.gutter / 2 + (MARK_OFFSET if sheet.crop_marks else 0.0)  # marks stop short of the fold
    x0, y0, x1, y1 = printable(sheet)
    options = []
    for fold in ("vertical", "horizontal") if sheet.fold == "auto" else (sheet.fold,):
        vertical = fold == "vertical"
        area = (x0, y0, pw / 2 - half_gap, y1) if vertical else (x0, y0, x1, ph / 2 - half_gap)
        try:
            fronts = _place(sheet, sizes, bleed, area, "right" if vertical else "bottom")
        except DoesNotFit:
            continue
        line = (pw / 2, y0, pw / 2, y1) if vertical else (x0, ph / 2, x1, ph / 2)
        options.append([_with_backs(p, line, vertical, pw, ph) for p in fronts])
    if not options:
        w, h = max(sizes, key=lambda s: s[0] * s[1])
        fold = "" if sheet.fold == "auto" else f" with a {sheet.fold} fold"
        raise DoesNotFit(
            f"a {w:g}×{h:g} mm component with {bleed:g} mm bleed and its back do not fit side by "
            f"side on {_sheet_name(sheet)}{fold} (try --landscape, a larger --page or "
            f"--layout duplex)"
        )
    return min(options, key=lambda pages: (len(pages), -len(pages[0].slots)))


def _with_backs(page: PagePlan, line: Segment, vertical: bool, pw: float, ph: float) -> PagePlan:
    """Reflect a fronts-only page across the fold line: folding the sheet puts each back behind its front."""
    backs, marks = reflect(page.slots, page.marks, vertical, pw, ph)
    return PagePlan(page.slots, page.marks + marks, backs, (line,), turn_backs=not vertical)


def _shelves(sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float, area: Area) -> list[PagePlan]:
    gut = max(sheet.gutter, MIXED_GUTTER if sheet.crop_marks else 0.0)
    inset = MARK_OFFSET + CORNER_MARK if sheet.crop_marks else 0.0
    left, top = area[0] + inset, area[1] + inset
    max_w, max_h = area[2] - area[0] - 2 * inset, area[3] - area[1] - 2 * inset
    pages: list[PagePlan] = []
    slots: list[Slot] = []
    x = y = row_h = 0.0

    def flush() -> None:
        if slots:  # the page's block of shelves centred in the area, as a grid is
            dx = (max_w - max(s.x + s.w + bleed for s in slots) + left) / 2
            dy = (max_h - max(s.y + s.h + bleed for s in slots) + top) / 2
            moved = [replace(s, x=s.x + dx, y=s.y + dy) for s in slots]
            pages.append(PagePlan(tuple(moved), tuple(_corner_marks(moved, bleed)) if sheet.crop_marks else ()))

    for i, (w, h) in enumerate(sizes):
        cw, ch = w + 2 * bleed, h + 2 * bleed
        if cw > max_w + 1e-9 or ch > max_h + 1e-9:
            raise DoesNotFit(f"a {w:g}×{h:g} mm component with {bleed:g} mm bleed does not fit on {_sheet_name(sheet)}")
        if x > 0 and x + cw > max_w + 1e-9:
            x, y, row_h = 0.0, y + row_h + gut, 0.0
        if y + ch > max_h + 1e-9:
            flush()
            slots = []
            x = y = row_h = 0.0
        slots.append(Slot(i, left + x + bleed, top + y + bleed, w, h))
        x += cw + gut
        row_h = max(row_h, ch)
    flush()
    return pages


def _corner_marks(slots: list[Slot], bleed: float) -> list[Segment]:
    """Short marks extending each trim edge just outside the slot's bleed box."""
    segs = []
    for s in slots:
        x0, y0, x1, y1 = s.x, s.y, s.x + s.w, s.y + s.h
        segs += posters.marks_outside((x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed), (x0, x1), (y0, y1), CORNER_MARK)
    return segs


def _distinct(values: list[float]) -> list[float]:
    """Sorted values with near-equal ones (within a micron) merged."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-3:
            out.append(v)
    return out


def _sheet_name(sheet: ImposeOptions) -> str:
    return f"{sheet.page.upper()}{' landscape' if sheet.landscape else ''}"
