"""Posters: a face larger than the sheet, tiled at its true size over as many pages as it needs.

Each page shows one window of the face's bleed box; neighbouring windows overlap by the sheet's
`overlap` (10 mm by default). To assemble, trim each page along its dashed lines (on the sides
that have a neighbour before it: left and top), lay it over its neighbour with the cut edge on the
line the small triangles point at, and tape. After trimming, each page keeps its window up to the
middle of every overlap, so the pages put together by their coordinates give back the face
exactly. Every page carries, in a strip under the window, its coordinate (A1, A2 … row letter,
column number), its number and a small assembly diagram; the poster's outer trim gets crop marks.
A page whose window would show nothing of the face is left out (`PosterPages`, at render time, when the
face is known). No words: a page reads the same in every language (a face's own legend, such as a
map's, stands in its top-left corner and so prints on the first page).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from mazmorra.contracts import (
    CircleOp,
    EllipseOp,
    Face,
    IconOp,
    ImageOp,
    LineOp,
    Op,
    Page,
    PathOp,
    Placement,
    PolyOp,
    RectOp,
    Segment,
    TextOp,
    Tile,
)

MARK_OFFSET = 0.5  # mm between the window and a crop mark
MARK_LEN = 3.0  # mm
ROOM = MARK_OFFSET + MARK_LEN + 0.5  # around the window, for the outer crop marks
LABEL_H = 9.0  # mm: the strip under the window holding the coordinate and the diagram
ARROW_STEP = 40.0  # mm between alignment triangles along an overlap
ARROW = 2.4  # mm: an alignment triangle's depth
INK = "#000000"
GUIDE = "#555555"
FAINT = "#bbbbbb"


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
                marks += marks_outside((x0, y0, x1, y1), trims_x, trims_y)
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
            tile = Tile(r, c, len(t.rows), len(t.columns), (x0, page[1] - margin - LABEL_H))
            out.append(Page(page, (place,), tuple(marks), (), tuple(cuts), tuple(notes), tile))
    return out


class PosterPages:
    """Which pages of each poster in a document print, and their labels: a page whose window shows
    nothing of the face (rock around an irregular dungeon) is left out, its place in the assembly
    diagram drawn faint, and the others numbered among themselves."""

    def __init__(self, pages: dict[int, Page]):
        self.pages = pages  # page number -> page, for the poster pages of the document only
        self.shown: dict[int, tuple[int, int]] = {}  # page number -> (its number among printed, how many print)
        self.blank: dict[int, set[tuple[int, int]]] = {}  # page number -> the tiles of its poster left out

    def labels(self, n: int, face: Face) -> list[Op] | None:
        """Page n's coordinate, number and diagram; None when it shows nothing of `face` and does not print."""
        tile = self.pages[n].tile
        assert tile is not None
        if n not in self.shown and n not in self.blank:
            self._plan(n, face)
        if n not in self.shown:
            return None
        number, total = self.shown[n]
        back = self.pages[n].placements[0].side == "back"
        return _label(tile, number, total, self.blank[n], back)

    def _plan(self, first: int, face: Face) -> None:
        """Decide for every page of the poster page `first` belongs to."""
        key = (self.pages[first].placements[0].index, self.pages[first].placements[0].side)
        group = [
            n
            for n, page in sorted(self.pages.items())
            if page.tile is not None and (page.placements[0].index, page.placements[0].side) == key
        ]
        ink = inked(face)
        printed = [n for n in group if ink is None or _shows(self.pages[n], ink)]
        blank = set()
        for n in group:
            tile = self.pages[n].tile
            if n not in printed and tile is not None:
                blank.add((tile.row, tile.col))
        for i, n in enumerate(printed):
            self.shown[n] = (i + 1, len(printed))
        for n in group:
            self.blank[n] = blank


def inked(face: Face) -> list[tuple[float, float, float, float]] | None:
    """Boxes (mm, from the trim's top-left) around everything the face draws, generously; None when
    it covers the whole face (a coloured background, a circular cut line)."""
    if face.shape != "rect" or (face.background or "#ffffff").lower() not in ("#ffffff", "#fff"):
        return None
    boxes = []
    for op in face.ops:
        if isinstance(op, RectOp):
            boxes.append((op.x, op.y, op.x + op.w, op.y + op.h, op.stroke_width))
        elif isinstance(op, LineOp):
            boxes.append((min(op.x1, op.x2), min(op.y1, op.y2), max(op.x1, op.x2), max(op.y1, op.y2), op.stroke_width))
        elif isinstance(op, CircleOp):
            boxes.append((op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r, op.stroke_width))
        elif isinstance(op, PolyOp):
            xs, ys = [x for x, _ in op.points], [y for _, y in op.points]
            boxes.append((min(xs), min(ys), max(xs), max(ys), op.stroke_width))
        elif isinstance(op, EllipseOp):
            boxes.append((op.cx - op.rx, op.cy - op.ry, op.cx + op.rx, op.cy + op.ry, op.stroke_width))
        elif isinstance(op, PathOp):
            xs = [float(c[k]) for c in op.commands for k in range(1, len(c), 2)]
            ys = [float(c[k]) for c in op.commands for k in range(2, len(c), 2)]
            if xs:
                boxes.append((min(xs), min(ys), max(xs), max(ys), op.stroke_width))
        elif isinstance(op, TextOp):
            em = op.size * 25.4 / 72
            boxes.append((op.x, op.y - em, op.x + em * max(1, len(op.text)), op.y + em / 2, 0.0))
        elif isinstance(op, IconOp):
            boxes.append((op.x, op.y, op.x + op.size, op.y + op.size, 0.0))
        elif isinstance(op, ImageOp):
            boxes.append((op.x, op.y, op.x + op.w, op.y + op.h, 0.0))
    return [(x0 - m, y0 - m, x1 + m, y1 + m) for x0, y0, x1, y1, w in boxes for m in [w / 2 + 0.5]]


def _shows(page: Page, ink: list[tuple[float, float, float, float]]) -> bool:
    """Whether any of the ink falls in the page's window."""
    p = page.placements[0]
    assert p.clip is not None
    x0, y0, x1, y1 = (p.clip[0] - p.x, p.clip[1] - p.y, p.clip[2] - p.x, p.clip[3] - p.y)  # in face coordinates
    return any(a < x1 and b < y1 and c > x0 and d > y0 for a, b, c, d in ink)


def marks_outside(
    box: tuple[float, float, float, float], xs: Iterable[float], ys: Iterable[float], length: float = MARK_LEN
) -> list[Segment]:
    """Crop marks `length` mm long, MARK_OFFSET outside `box` (x0, y0, x1, y1): each vertical trim
    line x above and below it, each horizontal one y left and right of it. What every sheet's marks
    are made of: a grid's outer marks, a mixed sheet's corner marks, a poster tile's."""
    x0, y0, x1, y1 = box
    o = MARK_OFFSET
    segs: list[Segment] = []
    for x in xs:
        segs += [(x, y0 - o - length, x, y0 - o), (x, y1 + o, x, y1 + o + length)]
    for y in ys:
        segs += [(x0 - o - length, y, x0 - o, y), (x1 + o, y, x1 + o + length, y)]
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


def _label(tile: Tile, number: int, total: int, blank: set[tuple[int, int]], back: bool) -> list[Op]:
    """The page's coordinate, its number among the printed pages and the assembly diagram: this page
    filled, the pages left out (blank) faint."""
    x0, top = tile.label
    name = coordinate(tile.row, tile.col) + (" ↻" if back else "")
    ops: list[Op] = [
        TextOp(x0, top + 6.2, name, "sans-bold", 12.0, INK),
        TextOp(x0 + 22.0, top + 6.2, f"{number}/{total}", "sans", 7.5, INK),
    ]
    cell = min(3.2, (LABEL_H - 1.0) / tile.rows, 60.0 / tile.cols)
    dx = x0 + 36.0
    dy = top + (LABEL_H - cell * tile.rows) / 2
    for i in range(tile.rows):
        for j in range(tile.cols):
            here = (i, j) == (tile.row, tile.col)
            faint = (i, j) in blank
            ops.append(
                RectOp(dx + j * cell, dy + i * cell, cell, cell, INK if here else None, FAINT if faint else INK, 0.12)
            )
    return ops
