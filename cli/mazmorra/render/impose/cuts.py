"""Cut lines (`--cut-lines`): where a knife or a guillotine goes, never through a piece.

A sheet of one size of piece in a grid gets lines right across the sheet: each runs along one row's
or one column's trim edges, and neighbours without bleed share theirs. A sheet mixing sizes gets
lines per piece: each trim edge carried on along its line over free paper until it comes within
`GAP` of another piece's bleed or reaches the printable margin.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazmorra.contracts import Segment
from mazmorra.render.impose.sheetgrid import Area, Slot

GAP = 1.0  # mm a piece's cut line stops short of another piece's bleed
_EPS = 1e-6

Box = tuple[float, float, float, float]


def cut_lines(slots: Sequence[Slot], bleed: float, bounds: Area, page: tuple[float, float]) -> list[Segment]:
    """The cut lines of one page's pieces (trim boxes in `slots`), within `bounds`."""
    if not slots:
        return []
    if len({(s.w, s.h) for s in slots}) == 1:
        pw, ph = page
        xs = sorted({round(v, 4) for s in slots for v in (s.x, s.x + s.w)})
        ys = sorted({round(v, 4) for s in slots for v in (s.y, s.y + s.h)})
        return [(x, ph, x, 0.0) for x in xs] + [(0.0, y, pw, y) for y in ys]
    boxes = [(s.x - bleed, s.y - bleed, s.x + s.w + bleed, s.y + s.h + bleed) for s in slots]
    out: list[Segment] = []
    for i, s in enumerate(slots):
        others = boxes[:i] + boxes[i + 1 :]
        own = boxes[i]
        for y in (s.y, s.y + s.h):
            x0, x1 = _reach(y, own[0], own[2], others, bounds[0], bounds[2], across=False)
            out.append((x0, y, x1, y))
        for x in (s.x, s.x + s.w):
            y0, y1 = _reach(x, own[1], own[3], others, bounds[1], bounds[3], across=True)
            out.append((x, y0, x, y1))
    return _merged(out)


def _reach(
    at: float, lo: float, hi: float, others: list[Box], start: float, end: float, *, across: bool
) -> tuple[float, float]:
    """How far a line at `at` (a y, or an x when `across`) through a piece spanning lo..hi along it
    runs each way before it would come within GAP of another piece's bleed box."""
    for b in others:
        b_lo, b_hi, c_lo, c_hi = (b[1], b[3], b[0], b[2]) if across else (b[0], b[2], b[1], b[3])
        if not c_lo - GAP < at < c_hi + GAP:
            continue  # the line passes beside this piece
        if b_hi <= lo + _EPS:
            start = max(start, b_hi + GAP)
        elif b_lo >= hi - _EPS:
            end = min(end, b_lo - GAP)
    return min(start, lo), max(end, hi)


def _merged(segments: list[Segment]) -> list[Segment]:
    """Each distinct segment once (neighbours of equal size share an edge, hence a line)."""
    seen: dict[tuple[float, ...], Segment] = {}
    for seg in segments:
        seen.setdefault(tuple(round(v, 4) for v in seg), seg)
    return sorted(seen.values())
