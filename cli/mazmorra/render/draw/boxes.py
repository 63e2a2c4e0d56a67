"""PDF page boxes: the TrimBox (where the print shop cuts) and the BleedBox (how far the ink runs).

One rule for every page: the TrimBox is the smallest rectangle holding the trim of every piece on
the page, the BleedBox the smallest holding every piece's bleed box, both inside the page (and
inside a poster tile's window). A page holding one piece (a per-card PDF, a poster tile) thus has
its TrimBox at the cut and its BleedBox inset by nothing more than the bleed; a sheet of many
pieces has both boxes around the imposed area, which is what a print shop's imposition software
reads to place the sheet. A page with no piece keeps both boxes at the page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mazmorra.contracts import Placement

Area = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the page's top-left


def _union(areas: Sequence[Area]) -> Area:
    return (
        min(a[0] for a in areas),
        min(a[1] for a in areas),
        max(a[2] for a in areas),
        max(a[3] for a in areas),
    )


def _inside(area: Area, window: Area) -> Area:
    x0, y0, x1, y1 = area
    return (max(x0, window[0]), max(y0, window[1]), min(x1, window[2]), min(y1, window[3]))


def page_boxes(size: tuple[float, float], pieces: Sequence[tuple[Placement, float]]) -> tuple[Area, Area]:
    """(trim, bleed) boxes of a page of `size` mm holding these placements, each with its bleed in mm."""
    page: Area = (0.0, 0.0, size[0], size[1])
    trims: list[Area] = []
    bleeds: list[Area] = []
    for p, b in pieces:
        window = _inside(p.clip, page) if p.clip is not None else page
        trims.append(_inside((p.x, p.y, p.x + p.w, p.y + p.h), window))
        bleeds.append(_inside((p.x - b, p.y - b, p.x + p.w + b, p.y + p.h + b), window))
    trims = [a for a in trims if a[2] > a[0] and a[3] > a[1]]
    bleeds = [a for a in bleeds if a[2] > a[0] and a[3] > a[1]]
    if not trims:
        return page, page
    trim, bleed = _union(trims), _union(bleeds)
    return trim, _union([trim, bleed])


def pdf_box(area: Area, page_h: float, pt_per_mm: float) -> tuple[float, float, float, float]:
    """An area in mm from the page's top-left as a PDF box: points from the bottom-left, rounded to
    1/1000 pt inwards (so that files stay byte-identical, and a box at the page's edge never pokes
    out of the MediaBox ReportLab writes: 74.693 past 74.69291 was 0.00009 pt outside)."""
    x0, y0, x1, y1 = area

    def down(v: float) -> float:
        return math.floor(round(v * 1e6) / 1e3) / 1e3

    def up(v: float) -> float:
        return math.ceil(round(v * 1e6) / 1e3) / 1e3

    return (
        up(x0 * pt_per_mm),
        up((page_h - y1) * pt_per_mm),
        down(x1 * pt_per_mm),
        down((page_h - y0) * pt_per_mm),
    )


def set_boxes(canvas: Any, size: tuple[float, float], trim: Area, bleed: Area) -> None:
    """Give the page being drawn on a ReportLab canvas (`size` mm) its TrimBox and BleedBox."""
    k = 72 / 25.4
    canvas.setTrimBox(pdf_box(trim, size[1], k))
    canvas.setBleedBox(pdf_box(bleed, size[1], k))
