"""Imposition: grids for one size, shelves for mixed sizes, mirrored backs, marks outside bleed."""

from __future__ import annotations

import itertools

import pytest

from mazmorra.impose import SheetSpec, impose, mirror


def _bleed_box(slot, bleed):
    return (slot.x - bleed, slot.y - bleed, slot.x + slot.w + bleed, slot.y + slot.h + bleed)


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 1e-9 and b[0] < a[2] - 1e-9 and a[1] < b[3] - 1e-9 and b[1] < a[3] - 1e-9


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("sizes", [
    [(63, 88)] * 20,
    [(60, 60)] * 7 + [(25, 25)] * 30 + [(20, 20)] * 11 + [(63, 88)] * 3,
    [(88, 63), (25, 25), (63, 88), (30, 30)] * 5,
])
def test_pages_hold_every_face_once_inside_the_margins(page, sizes) -> None:
    sheet = SheetSpec(page=page)
    bleed = 3.0
    pages = impose(sheet, sizes, bleed)
    indices = [s.index for p in pages for s in p.slots]
    assert indices == list(range(len(sizes)))
    pw, ph = sheet.size
    for plan in pages:
        boxes = [_bleed_box(s, bleed) for s in plan.slots]
        for s in plan.slots:
            assert (s.w, s.h) == tuple(map(float, sizes[s.index]))
        for a, b in itertools.combinations(boxes, 2):
            assert not _overlap(a, b)
        for x0, y0, x1, y1 in boxes:
            assert x0 >= 5 - 1e-9 and y0 >= 5 - 1e-9 and x1 <= pw - 5 + 1e-9 and y1 <= ph - 5 + 1e-9
        for x1, y1, x2, y2 in plan.marks:
            mid = ((x1 + x2) / 2, (y1 + y2) / 2, (x1 + x2) / 2, (y1 + y2) / 2)
            assert not any(_overlap((mid[0] - 1e-3, mid[1] - 1e-3, mid[0] + 1e-3, mid[1] + 1e-3), b) for b in boxes)
            assert min(x1, x2) >= 5 - 1e-9 and min(y1, y2) >= 5 - 1e-9


def test_backs_are_mirrored_for_the_flip_edge() -> None:
    pages = impose(SheetSpec(), [(63, 88)] * 6, 3.0)
    first = pages[0].slots[0]
    long_back = mirror(first, SheetSpec(duplex="long"))
    assert long_back.y == first.y and long_back.x == pytest.approx(210 - first.x - 63)
    short_back = mirror(first, SheetSpec(duplex="short"))
    assert short_back.x == first.x and short_back.y == pytest.approx(297 - first.y - 88)
    # mirrored cells of a centred grid coincide with grid cells: column 0 <-> column 1
    assert long_back.x == pytest.approx(pages[0].slots[1].x)


def test_landscape_sheets() -> None:
    portrait = impose(SheetSpec(), [(88, 63)] * 12, 3.0)
    landscape = impose(SheetSpec(landscape=True), [(88, 63)] * 12, 3.0)
    assert len(portrait[0].slots) == 8  # 2 × 4 cells of 94 × 69 mm in 200 × 287 mm
    assert len(landscape[0].slots) == 6  # 3 × 2 in 287 × 200 mm
    assert all(s.x + s.w < 297 for s in landscape[0].slots)
