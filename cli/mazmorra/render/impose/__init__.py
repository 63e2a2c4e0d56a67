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

from collections.abc import Iterator
from dataclasses import replace

from mazmorra.contracts import Page, Placement, Segment
from mazmorra.render.impose import posters
from mazmorra.render.impose.cuts import cut_lines
from mazmorra.render.impose.sheetgrid import (
    CORNER_MARK,
    MARK_MAX,
    MARK_OFFSET,
    MIXED_GUTTER,
    Area,
    DoesNotFit,
    Grid,
    ImposeOptions,
    PagePlan,
    Slot,
    crop_marks,
    plan,
    printable,
    sheet_name,
)

__all__ = [
    "DoesNotFit",
    "Grid",
    "ImposeOptions",
    "PagePlan",
    "Slot",
    "back_page",
    "crop_marks",
    "fits",
    "impose",
    "imposed",
    "plan",
    "plan_fronts",
]


def reflect(
    slots: tuple[Slot, ...], marks: tuple[Segment, ...], columns: bool, pw: float, ph: float
) -> tuple[tuple[Slot, ...], tuple[Segment, ...]]:
    """Slots and marks reflected across the page's vertical centre line (columns=True) or its
    horizontal one: where backs go, for duplex flipping and for fold-and-glue alike."""
    if columns:
        return (
            tuple(Slot(s.index, pw - s.x - s.w, s.y, s.w, s.h) for s in slots),
            tuple((pw - x1, y1, pw - x2, y2) for x1, y1, x2, y2 in marks),
        )
    return (
        tuple(Slot(s.index, s.x, ph - s.y - s.h, s.w, s.h) for s in slots),
        tuple((x1, ph - y1, x2, ph - y2) for x1, y1, x2, y2 in marks),
    )


def back_page(plan: PagePlan, sheet: ImposeOptions) -> PagePlan:
    """The backs page of a fronts page: slots and marks mirrored for the flip edge, then moved by
    the back offset that makes up for the printer's duplex misregistration."""
    dx, dy = sheet.back_offset
    slots, marks = reflect(plan.slots, plan.marks, sheet.flips_columns, *sheet.size)
    return PagePlan(
        tuple(Slot(s.index, s.x + dx, s.y + dy, s.w, s.h) for s in slots),
        tuple((x1 + dx, y1 + dy, x2 + dx, y2 + dy) for x1, y1, x2, y2 in marks),
    )


def impose(sheet: ImposeOptions, sizes: list[tuple[float, float]], backs: list[bool], bleed: float) -> list[Page]:
    """Every page of a document whose copies have the given trim sizes and (when `backs[i]`) a
    back, in printing order: each fronts page, then its backs page (duplex); fronts and backs on
    one page for fold-and-glue; then a poster for each face larger than the sheet (its front's
    tiles, then its back's). Raises DoesNotFit when a face fits the sheet but not beside its back
    (fold), or the sheet has no room for a poster's tile."""
    return list(imposed(sheet, sizes, backs, bleed))


def imposed(sheet: ImposeOptions, sizes: list[tuple[float, float]], backs: list[bool], bleed: float) -> Iterator[Page]:
    """The pages of `impose`, made as they are drawn: a deck of equal faces (the long ones) is never
    planned whole (10,000 cards: 13.6 MB of pages and marks). DoesNotFit is raised before the first page."""
    if sheet.landscape is None:
        sheet = orient(sheet, sizes, backs, bleed)
    big = [i for i, (w, h) in enumerate(sizes) if not fits(sheet, w, h, bleed)]
    if not big:
        return _impose(sheet, sizes, backs, bleed)
    paper = posters.Paper(sheet.size, sheet.margin, sheet.overlap, sheet.crop_marks)
    try:
        return iter(posters.apart(big, sizes, backs, bleed, paper, lambda s, b: list(_impose(sheet, s, b, bleed))))
    except posters.TooSmall as exc:
        raise DoesNotFit(str(exc)) from None


def orient(sheet: ImposeOptions, sizes: list[tuple[float, float]], backs: list[bool], bleed: float) -> ImposeOptions:
    """The sheet turned whichever way prints the document on fewer pages (more pieces a sheet);
    portrait on a tie, and where neither fits (so that the error names the usual sheet)."""
    best: tuple[int, ImposeOptions] | None = None
    for landscape in (False, True):
        turned = replace(sheet, landscape=landscape)
        try:
            n = sum(1 for _ in imposed(turned, sizes, backs, bleed))
        except DoesNotFit:
            continue
        if best is None or n < best[0]:
            best = (n, turned)
    return best[1] if best else replace(sheet, landscape=False)


def fits(sheet: ImposeOptions, w: float, h: float, bleed: float) -> bool:
    """Whether a w × h mm face (with its bleed and crop marks) fits the sheet; if not, it is a poster."""
    try:
        plan(sheet, w, h, bleed)
    except DoesNotFit:
        return False
    return True


def _impose(sheet: ImposeOptions, sizes: list[tuple[float, float]], backs: list[bool], bleed: float) -> Iterator[Page]:
    if sheet.layout == "fold" and not any(backs):  # nothing to fold behind: the whole page for fronts
        sheet = replace(sheet, layout="duplex", duplex="none")
    return _pages(sheet, _fronts(sheet, sizes, bleed), backs, bleed)


def _pages(sheet: ImposeOptions, plans: Iterator[PagePlan], backs: list[bool], bleed: float) -> Iterator[Page]:
    for fronts in plans:
        placed = [_placement(s, "front") for s in fronts.slots]
        placed += [_placement(s, "back", fronts.turn_backs) for s in fronts.backs if backs[s.index]]
        yield _page(sheet, fronts.slots + fronts.backs, placed, fronts.marks, fronts.folds, bleed)
        if sheet.backs_pages and any(backs[s.index] for s in fronts.slots):
            behind = back_page(fronts, sheet)
            # a piece is turned over sideways: a sheet that turns top to bottom prints its backs turned
            placed = [_placement(s, "back", not sheet.flips_columns) for s in behind.slots if backs[s.index]]
            yield _page(sheet, behind.slots, placed, behind.marks, (), bleed)


def plan_fronts(sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float) -> list[PagePlan]:
    """The fronts pages for faces of the given trim sizes, in order: a grid when all sizes match,
    shelves otherwise; for the fold layout, in one half of each page with the backs opposite."""
    return list(_fronts(sheet, sizes, bleed))


def _fronts(sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float) -> Iterator[PagePlan]:
    """plan_fronts, a grid's pages made one by one (DoesNotFit raised at once)."""
    if not sizes:
        return iter(())
    if sheet.layout == "fold":
        return iter(_fold(sheet, sizes, bleed))
    if len(set(sizes)) == 1:
        return _grid_pages(sheet, sizes, bleed, printable(sheet))
    return iter(_shelves(sheet, sizes, bleed, printable(sheet)))


def _placement(slot: Slot, side: str, turned: bool = False) -> Placement:
    return Placement(slot.index, side, slot.x, slot.y, slot.w, slot.h, turn=180 if turned else 0)


def _page(
    sheet: ImposeOptions,
    slots: tuple[Slot, ...],
    placed: list[Placement],
    marks: tuple[Segment, ...],
    folds: tuple[Segment, ...],
    bleed: float,
) -> Page:
    pw, ph = sheet.size
    cuts = cut_lines(slots, bleed, printable(sheet), (pw, ph)) if sheet.cut_lines else []
    return Page((pw, ph), tuple(placed), marks, folds, tuple(cuts))


def _place(
    sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float, area: Area, snug: str = ""
) -> list[PagePlan]:
    """Faces in `area`: a grid centred in it, else shelves from its top-left. When snug is "right"
    or "bottom", both keep to that edge: next to the fold line, where a slightly skewed fold
    shifts a back the least."""
    if len(set(sizes)) == 1:
        return list(_grid_pages(sheet, sizes, bleed, area, snug))
    pages = _shelves(sheet, sizes, bleed, area)
    return [_towards(page, area, snug, bleed, sheet) for page in pages] if snug else pages


def _grid_pages(
    sheet: ImposeOptions, sizes: list[tuple[float, float]], bleed: float, area: Area, snug: str = ""
) -> Iterator[PagePlan]:
    """Equal faces in a grid centred in `area` (or snug, see _place), page by page; the grid is
    planned (and DoesNotFit raised) before the first."""
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
    return _grid_plans(sheet, grid, len(sizes), w, h)


def _grid_plans(sheet: ImposeOptions, grid: Grid, count: int, w: float, h: float) -> Iterator[PagePlan]:
    full = tuple(crop_marks(grid)) if sheet.crop_marks else ()  # every full sheet's marks: one tuple, shared
    for start in range(0, count, grid.per_sheet):
        n = min(grid.per_sheet, count - start)
        slots = tuple(Slot(start + i, *grid.cell(i), w, h) for i in range(n))
        if n == grid.per_sheet:
            yield PagePlan(slots, full)
            continue
        used = replace(grid, rows=-(-n // grid.cols), cols=min(n, grid.cols))  # a part-filled sheet: its cards' marks
        yield PagePlan(slots, tuple(crop_marks(used)) if sheet.crop_marks else ())


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
            f"side on {sheet_name(sheet)}{fold} (try --landscape, a larger --page or "
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
            raise DoesNotFit(f"a {w:g}×{h:g} mm component with {bleed:g} mm bleed does not fit on {sheet_name(sheet)}")
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
