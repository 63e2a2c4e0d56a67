"""Posters: a face larger than the sheet, tiled at its true size over as many pages as it needs.

Each page shows one window of the face's bleed box; neighbouring windows overlap by the sheet's
`overlap` (10 mm by default). To assemble, trim each page along its dashed lines (on the sides
that have a neighbour before it: left and top), lay it over its neighbour with the cut edge on the
line the small triangles point at, and tape. After trimming, each page keeps its window up to the
middle of every overlap, so the pages put together by their coordinates give back the face
exactly. Every page carries its coordinate (A1, A2 … row letter, column number), its number and a
small assembly diagram in a strip under the window; the poster's outer trim gets crop marks. No
words: the page reads the same in every language (a face's own legend, such as a map's, stands in
its top-left corner and so prints on the first page).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from mazmorra.contracts import LineOp, Op, Page, Placement, PolyOp, RectOp, Segment, TextOp

MARK_OFFSET = 0.5  # mm between the window and a crop mark
MARK_LEN = 3.0  # mm
ROOM = MARK_OFFSET + MARK_LEN + 0.5  # around the window, for the outer crop marks
LABEL_H = 9.0  # mm: the strip under the window holding the coordinate and the diagram
ARROW_STEP = 40.0  # mm between alignment triangles along an overlap
ARROW = 2.4  # mm: an alignment triangle's depth
INK = "#000000"
GUIDE = "#555555"


class TooSmall(ValueError):
    """The sheet leaves no room for a tile wider than twice the overlap."""


@dataclass(frozen=True)
class Paper:
    """What tiling needs to know of the sheet."""

    size: tuple[float, float]  # mm
    margin: float  # printable margin, mm
    overlap: float  # mm neighbouring pages share
    crop_marks: bool = True


Sizes = list[tuple[float, float]]


def apart(
    big: list[int],
    sizes: Sizes,
    backs: list[bool],
    bleed: float,
    paper: Paper,
    impose_rest: Callable[[Sizes, list[bool]], list[Page]],
) -> list[Page]:
    """The pages of a document some of whose faces (`big`, by copy index) are larger than the
    sheet: the others imposed as usual (by `impose_rest`), then a poster per big face, front then back."""
    rest = [i for i in range(len(sizes)) if i not in set(big)]
    out = [  # the faces that fit, numbered as in the whole document
        replace(p, placements=tuple(replace(q, index=rest[q.index]) for q in p.placements))
        for p in impose_rest([sizes[i] for i in rest], [backs[i] for i in rest])
    ]
    for i in big:
        for side in ("front", "back") if backs[i] else ("front",):
            out += poster_pages(i, side, *sizes[i], bleed, paper)
    return out


@dataclass(frozen=True)
class Tiling:
    """How one face's bleed box is cut into pages: the window each page shows it through, and the
    spans (in mm from the bleed box's top-left) each column and row of pages covers."""

    window: tuple[float, float, float, float]  # x0, y0, x1, y1 on the page: the largest tile
    columns: tuple[tuple[float, float], ...]
    rows: tuple[tuple[float, float], ...]
    overlap: float

    @property
    def pages(self) -> int:
        return len(self.columns) * len(self.rows)


def coordinate(row: int, col: int) -> str:
    """A1, A2 … B1 …: the row as letters (A … Z, AA …), the column as a number, both from the top left."""
    letters = ""
    n = row + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{col + 1}"


def window(page: tuple[float, float], margin: float) -> tuple[float, float, float, float]:
    """The part of a page a tile shows the face through: the printable area less the room for
    crop marks and the label strip."""
    pw, ph = page
    return margin + ROOM, margin + ROOM, pw - margin - ROOM, ph - margin - LABEL_H - ROOM


def tiling(page: tuple[float, float], margin: float, overlap: float, w: float, h: float, bleed: float) -> Tiling:
    """The pages a w × h mm face (plus bleed) needs at true size with `overlap` mm between neighbours."""
    box = window(page, margin)
    tw, th = box[2] - box[0], box[3] - box[1]
    if overlap < 0 or tw <= 2 * overlap or th <= 2 * overlap:
        raise TooSmall(
            f"a {w:g}×{h:g} mm poster with a {overlap:g} mm overlap has no room for a tile on a "
            f"{page[0]:g}×{page[1]:g} mm page; lower --overlap or --margin"
        )
    return Tiling(box, _spans(w + 2 * bleed, tw, overlap), _spans(h + 2 * bleed, th, overlap), overlap)


def _spans(length: float, tile: float, overlap: float) -> tuple[tuple[float, float], ...]:
    n = 1 if length <= tile + 1e-9 else math.ceil((length - overlap) / (tile - overlap) - 1e-9)
    step = tile - overlap
    return tuple((i * step, min(i * step + tile, length)) for i in range(n))


def poster_pages(index: int, side: str, w: float, h: float, bleed: float, paper: Paper) -> list[Page]:
    """Every page of one face printed as a poster, row by row (A1, A2 … B1 …), on the sheet turned
    whichever way takes fewer pages (the sheet as given when both take as many)."""
    margin, overlap = paper.margin, paper.overlap
    turned = (paper.size[1], paper.size[0])
    t, page = min(
        ((tiling(size, margin, overlap, w, h, bleed), size) for size in (paper.size, turned)),
        key=lambda option: option[0].pages,
    )
    x0, y0 = t.window[0], t.window[1]
    bw, bh = w + 2 * bleed, h + 2 * bleed
    last_c, last_r = len(t.columns) - 1, len(t.rows) - 1
    out = []
    for r, (v0, v1) in enumerate(t.rows):
        for c, (u0, u1) in enumerate(t.columns):
            x1, y1 = x0 + (u1 - u0), y0 + (v1 - v0)
            place = Placement(index, side, x0 - u0 + bleed, y0 - v0 + bleed, w, h, clip=(x0, y0, x1, y1))
            marks: list[Segment] = []
            if paper.crop_marks:
                trims_x = [x0 - u0 + u for u in (bleed, bw - bleed) if u0 <= u <= u1]
                trims_y = [y0 - v0 + v for v in (bleed, bh - bleed) if v0 <= v <= v1]
                marks += _crop_marks(trims_x, trims_y, (x0, y0, x1, y1))
            cuts: list[Segment] = []
            notes: list[Op] = []
            half = overlap / 2
            if c > 0:  # trim here, then lay this page over its left neighbour
                cuts.append((x0 + half, y0, x0 + half, y1))
                notes += _scissors(x0 + half / 2, y0 + 4.0, half)
            if r > 0:
                cuts.append((x0, y0 + half, x1, y0 + half))
                notes += _scissors(x0 + 4.0, y0 + half / 2, half)
            if c < last_c:  # where the right neighbour's trimmed edge goes
                notes += _guides(x1 - half, y0, y1, "v")
            if r < last_r:
                notes += _guides(y1 - half, x0, x1, "h")
            notes += _label(r, c, t, side, page, margin, x0)
            out.append(Page(page, (place,), tuple(marks), (), tuple(cuts), tuple(notes)))
    return out


def _crop_marks(xs: list[float], ys: list[float], box: tuple[float, float, float, float]) -> list[Segment]:
    """The poster's outer trim lines that cross this tile, marked just outside the window."""
    x0, y0, x1, y1 = box
    o, n = MARK_OFFSET, MARK_LEN
    segs: list[Segment] = []
    for x in xs:
        segs += [(x, y0 - o - n, x, y0 - o), (x, y1 + o, x, y1 + o + n)]
    for y in ys:
        segs += [(x0 - o - n, y, x0 - o, y), (x1 + o, y, x1 + o + n, y)]
    return segs


def _guides(at: float, a0: float, a1: float, how: str) -> list[Op]:
    """A thin line where the neighbour's trimmed edge goes, and triangles pointing at it from the
    part the neighbour covers."""
    ops: list[Op] = []
    if how == "v":
        ops.append(LineOp(at, a0, at, a1, GUIDE, 0.15))
    else:
        ops.append(LineOp(a0, at, a1, at, GUIDE, 0.15))
    n = max(2, math.floor((a1 - a0) / ARROW_STEP))
    for i in range(n):
        m = a0 + (a1 - a0) * (i + 0.5) / n
        d, s = ARROW, ARROW * 0.6
        if how == "v":
            pts = ((at, m), (at + d, m - s), (at + d, m + s))
        else:
            pts = ((m, at), (m - s, at + d), (m + s, at + d))
        ops.append(PolyOp(pts, GUIDE))
    return ops


def _scissors(x: float, y: float, room: float) -> list[Op]:
    """A small ✂ centred on (x, y), on the strip a cut removes, when that strip is wide enough."""
    if room < 3.5:
        return []
    return [TextOp(x - 1.4, y + 1.0, "✂", "sans", 7.0, GUIDE)]


def _label(r: int, c: int, t: Tiling, side: str, page: tuple[float, float], margin: float, x0: float) -> list[Op]:
    """The page's coordinate, its number of the whole and the assembly diagram with this page filled."""
    cols, rows = len(t.columns), len(t.rows)
    top = page[1] - margin - LABEL_H
    name = coordinate(r, c) + (" ↻" if side == "back" else "")
    ops: list[Op] = [
        TextOp(x0, top + 6.2, name, "sans-bold", 12.0, INK),
        TextOp(x0 + 22.0, top + 6.2, f"{r * cols + c + 1}/{t.pages}", "sans", 7.5, INK),
    ]
    cell = min(3.2, (LABEL_H - 1.0) / rows, 60.0 / cols)
    dx = x0 + 36.0
    dy = top + (LABEL_H - cell * rows) / 2
    for i in range(rows):
        for j in range(cols):
            here = (i, j) == (r, c)
            ops.append(RectOp(dx + j * cell, dy + i * cell, cell, cell, INK if here else None, INK, 0.12))
    return ops
