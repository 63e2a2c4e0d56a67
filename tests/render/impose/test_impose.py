"""Imposition: grids for one size, shelves for mixed sizes, mirrored backs, marks outside bleed."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from mazmorra.render.impose import DoesNotFit, ImposeOptions, back_page, crop_marks, plan, plan_fronts


def _bleed_box(slot, bleed):
    return (slot.x - bleed, slot.y - bleed, slot.x + slot.w + bleed, slot.y + slot.h + bleed)


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 1e-9 and b[0] < a[2] - 1e-9 and a[1] < b[3] - 1e-9 and b[1] < a[3] - 1e-9


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize(
    "sizes",
    [
        [(63, 88)] * 20,
        [(60, 60)] * 7 + [(25, 25)] * 30 + [(20, 20)] * 11 + [(63, 88)] * 3,
        [(88, 63), (25, 25), (63, 88), (30, 30)] * 5,
    ],
)
def test_pages_hold_every_face_once_inside_the_margins(page, sizes) -> None:
    sheet = ImposeOptions(page=page)
    bleed = 3.0
    pages = plan_fronts(sheet, sizes, bleed)
    indices = [s.index for p in pages for s in p.slots]
    assert indices == list(range(len(sizes)))
    pw, ph = sheet.size
    for page_plan in pages:
        boxes = [_bleed_box(s, bleed) for s in page_plan.slots]
        for s in page_plan.slots:
            assert (s.w, s.h) == tuple(map(float, sizes[s.index]))
        for a, b in itertools.combinations(boxes, 2):
            assert not _overlap(a, b)
        for x0, y0, x1, y1 in boxes:
            assert x0 >= 5 - 1e-9 and y0 >= 5 - 1e-9 and x1 <= pw - 5 + 1e-9 and y1 <= ph - 5 + 1e-9
        for x1, y1, x2, y2 in page_plan.marks:
            mid = ((x1 + x2) / 2, (y1 + y2) / 2, (x1 + x2) / 2, (y1 + y2) / 2)
            assert not any(_overlap((mid[0] - 1e-3, mid[1] - 1e-3, mid[0] + 1e-3, mid[1] + 1e-3), b) for b in boxes)
            assert min(x1, x2) >= 5 - 1e-9 and min(y1, y2) >= 5 - 1e-9


def test_backs_are_mirrored_for_the_flip_edge() -> None:
    pages = plan_fronts(ImposeOptions(), [(63, 88)] * 6, 3.0)
    first = pages[0].slots[0]
    long_back = back_page(pages[0], ImposeOptions(duplex="long")).slots[0]
    assert long_back.y == first.y and long_back.x == pytest.approx(210 - first.x - 63)
    short_back = back_page(pages[0], ImposeOptions(duplex="short")).slots[0]
    assert short_back.x == first.x and short_back.y == pytest.approx(297 - first.y - 88)
    # mirrored cells of a centred grid coincide with grid cells: column 0 <-> column 1
    assert long_back.x == pytest.approx(pages[0].slots[1].x)


def test_landscape_sheets() -> None:
    portrait = plan_fronts(ImposeOptions(), [(88, 63)] * 12, 3.0)
    landscape = plan_fronts(ImposeOptions(landscape=True), [(88, 63)] * 12, 3.0)
    assert len(portrait[0].slots) == 8  # 2 × 4 cells of 94 × 69 mm in 200 × 287 mm
    assert len(landscape[0].slots) == 6  # 3 × 2 in 287 × 200 mm
    assert all(s.x + s.w < 297 for s in landscape[0].slots)


# ---------------------------------------------------------------- home-printing layouts (issue 6)

POKER = (63.0, 88.0)


def _inside_any(point, boxes) -> bool:
    x, y = point
    return any(x0 + 1e-6 < x < x1 - 1e-6 and y0 + 1e-6 < y < y1 - 1e-6 for x0, y0, x1, y1 in boxes)


def _check_marks_outside(plan_, bleed) -> None:
    boxes = [_bleed_box(s, bleed) for s in plan_.slots + plan_.backs]
    for x1, y1, x2, y2 in plan_.marks:
        for t in (0.0, 0.25, 0.5, 0.75, 1.0):
            assert not _inside_any((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t), boxes), (
                x1,
                y1,
                x2,
                y2,
            )


@pytest.mark.parametrize(
    "sheet",
    [
        ImposeOptions(layout="fold"),
        ImposeOptions(layout="fold", landscape=True),
        ImposeOptions(layout="fold", page="letter", landscape=True),
        ImposeOptions(layout="fold", fold="horizontal", landscape=True),
        ImposeOptions(layout="fold", page="a3", gutter=4),
        ImposeOptions(layout="fold", crop_marks=False),
    ],
)
@pytest.mark.parametrize("sizes", [[POKER] * 11, [(60, 60)] * 3 + [(25, 25)] * 9 + [POKER] * 2])
def test_fold_puts_each_back_opposite_its_front_across_the_fold_line(sheet, sizes) -> None:
    pw, ph = sheet.size
    pages = plan_fronts(sheet, sizes, 3.0)
    assert [s.index for p in pages for s in p.slots] == list(range(len(sizes)))
    for page in pages:
        assert len(page.backs) == len(page.slots) and len(page.folds) == 1
        fx1, fy1, fx2, _ = page.folds[0]
        vertical = fx1 == fx2
        assert (fx1 if vertical else fy1) == pytest.approx((pw if vertical else ph) / 2)  # fold the sheet in half
        for front, back in zip(page.slots, page.backs):
            assert back.index == front.index and (back.w, back.h) == (front.w, front.h)
            if vertical:  # reflected across x = pw/2: folding lays the back behind its front
                assert back.x == pytest.approx(pw - front.x - front.w) and back.y == pytest.approx(front.y)
                assert front.x + front.w + 3 <= pw / 2 <= back.x - 3  # no bleed box crosses the fold
            else:
                assert back.y == pytest.approx(ph - front.y - front.h) and back.x == pytest.approx(front.x)
                assert front.y + front.h + 3 <= ph / 2 <= back.y - 3
        boxes = [_bleed_box(s, 3.0) for s in page.slots + page.backs]
        for a, b in itertools.combinations(boxes, 2):
            assert not _overlap(a, b)
        for x0, y0, x1, y1 in boxes:
            assert x0 >= 5 - 1e-9 and y0 >= 5 - 1e-9 and x1 <= pw - 5 + 1e-9 and y1 <= ph - 5 + 1e-9
        _check_marks_outside(page, 3.0)


@pytest.mark.parametrize(
    "page, landscape, per_page, fold",
    [
        ("a4", False, 3, "vertical"),  # one column of fronts left of the fold, backs right
        ("a4", True, 4, "vertical"),
        ("letter", False, 2, "vertical"),
        ("letter", True, 3, "horizontal"),  # a row of fronts above the fold, backs below
        ("a3", False, 8, "vertical"),
    ],
)
def test_fold_orientation_fits_the_most_cards(page, landscape, per_page, fold) -> None:
    pages = plan_fronts(ImposeOptions(page=page, landscape=landscape, layout="fold"), [POKER] * 24, 3.0)
    x1, _, x2, _ = pages[0].folds[0]
    assert len(pages[0].slots) == per_page
    assert ("vertical" if x1 == x2 else "horizontal") == fold


def test_fold_hugs_the_fold_line_and_reports_what_does_not_fit() -> None:
    page = plan_fronts(ImposeOptions(layout="fold"), [POKER] * 3, 3.0)[0]
    gap = page.backs[0].x - 3 - (page.slots[0].x + 63 + 3)
    assert gap <= 2 * (0.5 + 5 + 0.5) + 1e-9  # cards next to the fold: a skewed fold shifts backs least
    with pytest.raises(DoesNotFit, match="side by side"):
        plan_fronts(ImposeOptions(layout="fold"), [(100, 200)], 3.0)


@pytest.mark.parametrize(
    "landscape, duplex, columns",
    [
        (False, "long", True),
        (False, "short", False),
        (True, "long", False),
        (True, "short", True),
    ],
)
def test_flip_edge_mirrors_columns_or_rows(landscape, duplex, columns) -> None:
    """The long edge of a portrait sheet is vertical (columns mirror); of a landscape sheet, horizontal."""
    sheet = ImposeOptions(landscape=landscape, duplex=duplex)
    pw, ph = sheet.size
    page = plan_fronts(sheet, [POKER] * 3, 3.0)[0]
    back = back_page(page, sheet)
    for f, b in zip(page.slots, back.slots):
        if columns:
            assert (b.x, b.y) == pytest.approx((pw - f.x - f.w, f.y))
        else:
            assert (b.x, b.y) == pytest.approx((f.x, ph - f.y - f.h))


def test_back_offset_moves_every_back_and_its_marks() -> None:
    plain = ImposeOptions(duplex="short")
    moved = ImposeOptions(duplex="short", back_offset=(1.5, -0.75))
    page = plan_fronts(plain, [POKER] * 5, 3.0)[0]
    a, b = back_page(page, plain), back_page(page, moved)
    for s, t in zip(a.slots, b.slots):
        assert (t.x - s.x, t.y - s.y) == pytest.approx((1.5, -0.75))
    for m, n in zip(a.marks, b.marks):
        assert (n[0] - m[0], n[1] - m[1], n[2] - m[2], n[3] - m[3]) == pytest.approx((1.5, -0.75, 1.5, -0.75))
    assert [s.x for s in plan_fronts(moved, [POKER] * 5, 3.0)[0].slots] == [s.x for s in page.slots]  # fronts stay


@pytest.mark.parametrize("page", ["a4", "letter", "a3"])
@pytest.mark.parametrize("gutter", [2.0, 6.0])
def test_gutters_keep_marks_outside_every_bleed_box(page, gutter) -> None:
    sheet = ImposeOptions(page=page, gutter=gutter)
    pages = plan_fronts(sheet, [POKER] * 20, 3.0)
    grid = plan(sheet, *POKER, 3.0)
    slots = pages[0].slots
    right = next(t for t in slots if t.y == slots[0].y and t.x > slots[0].x)
    assert right.x - 3 - (slots[0].x + 63 + 3) == pytest.approx(gutter)  # gutter between bleed boxes
    _check_marks_outside(pages[0], 3.0)
    in_gutters = len(pages[0].marks) - len(crop_marks(replace(grid, gutter=0.0)))
    if gutter >= 2:  # room for marks: every trim line crosses every gutter
        xs, ys = grid.trim_lines()
        assert in_gutters == len(xs) * (grid.rows - 1) + len(ys) * (grid.cols - 1)


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_abutted_cards_share_cut_lines(page) -> None:
    sheet = ImposeOptions(page=page, bleed=0)
    grid = plan(sheet, *POKER, 0.0)
    assert (grid.cols, grid.rows) == (3, 3)  # 9 poker cards a sheet without bleed
    xs, ys = grid.trim_lines()
    assert len(xs) == grid.cols + 1 and len(ys) == grid.rows + 1  # one line between neighbours
    assert len(crop_marks(grid)) == 2 * (len(xs) + len(ys))
    slots = plan_fronts(sheet, [POKER] * 9, 0.0)[0].slots
    assert slots[1].x == pytest.approx(slots[0].x + 63) and slots[3].y == pytest.approx(slots[0].y + 88)


def test_sheet_spec_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="layout"):
        ImposeOptions(layout="zigzag")
    with pytest.raises(ValueError, match="fold"):
        ImposeOptions(fold="diagonal")


def test_a_part_filled_sheet_marks_only_its_cards() -> None:
    pages = plan_fronts(ImposeOptions(), [(63, 88)] * 8, 3.0)  # 6 on the first sheet, 2 (one row) on the second
    assert len(pages) == 2 and len(pages[1].slots) == 2
    full_rows = {round(y, 3) for x1, y1, x2, y2 in pages[0].marks if y1 == y2 for y in (y1,)}
    part_rows = {round(y, 3) for x1, y1, x2, y2 in pages[1].marks if y1 == y2 for y in (y1,)}
    assert len(full_rows) == 6 and len(part_rows) == 2  # top and bottom trim of the one used row
    lowest = max(s.y + s.h for s in pages[1].slots) + 3.0
    assert all(max(y1, y2) <= lowest + 6 for x1, y1, x2, y2 in pages[1].marks)
