"""Drawing one grid's parts: where its cells are, and a cell (or mark) and an edge as ops, each
drawn only as far as its style asks. The <grid> element (grid.py) decides what goes where."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from mazmorra.assets import fonts
from mazmorra.contracts import CircleOp, IconOp, LineOp, Op, PolyOp, RectOp, TextOp
from mazmorra.errors import Problem
from mazmorra.layout.elements.attrs import FaceContext, colour, dash
from mazmorra.model.units import PT_PER_MM, parse_length

EDGE_DRAWS = ("line", "bar", "gate", "arrow", "icon", "none")
SIDES = ("n", "e", "s", "w")
OUTWARD = {
    "n": (0, -1),
    "e": (1, 0),
    "s": (0, 1),
    "w": (-1, 0),
}  # unit vector leaving a cell by that side
LABEL_CAP = 0.72  # cap height of the bundled fonts, in em: centres a label on its box
CellStyle = dict[str, str]  # attribute name -> raw value


@dataclass(frozen=True)
class GridGeometry:
    """Where the cells of a grid are, in mm: cell (r, c) starts at x + c·(cell_w + gap), y + r·(cell_h + gap)."""

    x: float
    y: float
    rows: int
    cols: int
    cell_w: float
    cell_h: float
    gap: float = 0.0

    @property
    def width(self) -> float:
        return self.cols * self.cell_w + (self.cols - 1) * self.gap

    @property
    def height(self) -> float:
        return self.rows * self.cell_h + (self.rows - 1) * self.gap

    def box(self, r: int, c: int, rowspan: int = 1, colspan: int = 1) -> tuple[float, float, float, float]:
        """x, y, w, h of a cell (or of a block of cells, gaps included)."""
        return (
            self.x + c * (self.cell_w + self.gap),
            self.y + r * (self.cell_h + self.gap),
            colspan * self.cell_w + (colspan - 1) * self.gap,
            rowspan * self.cell_h + (rowspan - 1) * self.gap,
        )

    def centre(self, r: float, c: float) -> tuple[float, float]:
        """Centre of cell (r, c); fractional indices fall between cells (2.5 = between columns 2 and 3)."""
        return (
            self.x + c * (self.cell_w + self.gap) + self.cell_w / 2,
            self.y + r * (self.cell_h + self.gap) + self.cell_h / 2,
        )

    def vline(self, k: int) -> float:
        """x of vertical boundary k (0 = left of column 0, cols = right of the last column), mid-gap."""
        return self.x + k * (self.cell_w + self.gap) - self.gap / 2

    def hline(self, k: int) -> float:
        """y of horizontal boundary k (0 = above row 0, rows = below the last row), mid-gap."""
        return self.y + k * (self.cell_h + self.gap) - self.gap / 2


def _s_len(st: CellStyle, key: str, default: float) -> float:
    return parse_length(st[key]) if key in st else default


def _s_num(st: CellStyle, key: str, default: float) -> float:
    try:
        return float(st[key]) if key in st else default
    except ValueError:
        raise ValueError(f"{key}='{st[key]}' is not a number") from None


def _s_colour(st: CellStyle, key: str, default: str | None = None) -> str | None:
    raw = st.get(key, default)
    return None if raw is None or raw == "none" else colour(raw)


def _s_dash(st: CellStyle) -> tuple[float, ...]:
    return dash(st.get("dash", ""))


def _s_icon(st: CellStyle, ctx: FaceContext) -> str | None:
    name = st.get("icon") or None
    if name is not None and name not in ctx.icons:
        raise ValueError(f"<grid>: unknown icon '{name}'")
    return name


def _box_ops(
    x: float,
    y: float,
    w: float,
    h: float,
    fill: str | None,
    stroke: str | None,
    sw: float,
    radius: float,
    dash: tuple[float, ...],
    out: list[Op],
) -> None:
    """A rectangle; a dashed outline becomes four dashed lines over the (unstroked) fill."""
    if dash and stroke:
        if fill:
            out.append(RectOp(x, y, w, h, fill, None, sw, radius))
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        out.extend(LineOp(*a, *b, stroke, sw, dash) for a, b in pairwise(corners))
    elif fill or stroke:
        out.append(RectOp(x, y, w, h, fill, stroke, sw, radius))


def draw_box(st: CellStyle, x: float, y: float, w: float, h: float, ctx: FaceContext, out: list[Op]) -> int:
    """One cell (or mark): fill/outline, cross, ring, icon, arrow, label — each only if its style asks.
    Returns where its own box's ops end in `out` (what follows sits on the box)."""
    inset = _s_len(st, "inset", 0.0)
    bx, by, bw, bh = x + inset, y + inset, w - 2 * inset, h - 2 * inset
    fill, stroke = _s_colour(st, "fill"), _s_colour(st, "stroke")
    sw, radius, dash = _s_len(st, "stroke-width", 0.3), _s_len(st, "radius", 0.0), _s_dash(st)
    _box_ops(bx, by, bw, bh, fill, stroke, sw, radius, dash, out)
    ground = len(out)
    cross = _s_colour(st, "cross")
    if cross:
        cwid = _s_len(st, "cross-width", 0.4)
        out.append(LineOp(bx, by, bx + bw, by + bh, cross, cwid))
        out.append(LineOp(bx + bw, by, bx, by + bh, cross, cwid))
    cx, cy, m = x + w / 2, y + h / 2, min(w, h)
    ring, ring_fill = _s_colour(st, "ring"), _s_colour(st, "ring-fill")
    if ring or ring_fill:
        rw, rr = _s_len(st, "ring-width", 0.8), _s_num(st, "ring-scale", 0.8) * m / 2
        outline = _s_colour(st, "ring-outline")
        if outline:  # a thin contrasting edge on both sides of the ring (a white ring on a light floor)
            out.append(CircleOp(cx, cy, rr, None, outline, rw + 0.5))
        out.append(CircleOp(cx, cy, rr, ring_fill, ring, rw))
    icon = _s_icon(st, ctx)
    if icon:
        s = _s_num(st, "icon-scale", 0.6) * m
        out.append(IconOp(icon, cx - s / 2, cy - s / 2, s, _s_colour(st, "icon-color")))
    arrow = st.get("arrow")
    if arrow:
        if arrow not in SIDES:
            raise ValueError(f"arrow='{arrow}': use n, e, s or w")
        dx, dy = OUTWARD[arrow]
        a = _s_num(st, "arrow-scale", 0.5) * m / 2
        px, py = -dy, dx  # perpendicular
        out.append(
            PolyOp(
                (
                    (cx + dx * a, cy + dy * a),
                    (cx - dx * a + px * a, cy - dy * a + py * a),
                    (cx - dx * a - px * a, cy - dy * a - py * a),
                ),
                _s_colour(st, "arrow-fill", "#222222"),
            )
        )
    label = st.get("label")
    if label:
        _label(st, label, x, y, w, h, ctx, out)
    return ground


def _label(
    st: CellStyle,
    label: str,
    x: float,
    y: float,
    w: float,
    h: float,
    ctx: FaceContext,
    out: list[Op],
) -> None:
    font = ctx.font(st.get("label-font", "sans-bold"), f"label-font='{st.get('label-font', 'sans-bold')}'").regular
    missing = fonts.missing_chars(label, font)
    if missing:
        ctx.problems.append(
            Problem(
                "text.missing-glyph",
                fonts.missing_message(missing, font),
                ctx.text_loc(None),
                ctx.component,
                None,
                lang=ctx.lang,
            )
        )
    size = _s_num(st, "label-size", 7.0)
    floor = ctx.printing.min_size.label
    if size < floor - 1e-9:
        raise ValueError(
            f"label-size='{size:g}' is below the smallest legible size for a label ({floor:g} pt, "
            "pack.yaml print: min_size: label:)"
        )
    tw = fonts.width(label, font, size) / PT_PER_MM
    cap = size * LABEL_CAP / PT_PER_MM
    pos = st.get("label-pos", "center")
    if pos not in ("center", "n", "s", "e", "w", "ne", "nw", "se", "sw"):
        raise ValueError(f"label-pos='{pos}': use center, n, s, e, w, ne, nw, se or sw")
    pad = min(w, h) * 0.1
    compass = "" if pos == "center" else pos
    tx = x + pad if "w" in compass else x + w - pad - tw if "e" in compass else x + (w - tw) / 2
    base = y + pad + cap if "n" in compass else y + h - pad if "s" in compass else y + (h + cap) / 2
    out.append(TextOp(tx, base, label, font, size, colour(st.get("label-color", "#222222"))))


def draw_edge(st: CellStyle, g: GridGeometry, r: int, c: int, side: str, ctx: FaceContext, out: list[Op]) -> None:
    """A wall, door, gate, arrow or icon on the boundary `side` of cell (r, c)."""
    draw = st.get("draw", "line")
    if draw not in EDGE_DRAWS:
        raise ValueError(f"<edge-type draw='{draw}'>: use {', '.join(EDGE_DRAWS)}")
    bx, by, bw, bh = g.box(r, c)
    vertical = side in ("e", "w")
    if vertical:
        pos = g.vline(c + 1 if side == "e" else c)  # mid-gap boundary
        rim = bx + bw if side == "e" else bx  # the cell's own border
        a0, a1 = by, by + bh
    else:
        pos = g.hline(r + 1 if side == "s" else r)
        rim = by + bh if side == "s" else by
        a0, a1 = bx, bx + bw
    out_sign = 1 if side in ("e", "s") else -1

    def pt(along: float, across: float) -> tuple[float, float]:
        return (across, along) if vertical else (along, across)

    length, mid = a1 - a0, (a0 + a1) / 2
    stroke, fill = _s_colour(st, "stroke", "#222222"), _s_colour(st, "fill")
    sw, dash = _s_len(st, "stroke-width", 0.3), _s_dash(st)
    if draw == "line":
        t = _s_len(st, "thickness", 1.0)
        ext = _s_len(st, "extend", g.gap / 2 + t / 2)
        out.append(LineOp(*pt(a0 - ext, pos), *pt(a1 + ext, pos), stroke or "#222222", t, dash))
    elif draw in ("bar", "gate"):
        t, half = _s_len(st, "thickness", 1.2), _s_num(st, "length", 0.5) * length / 2
        (x1, y1), (x2, y2) = pt(mid - half, pos - t / 2), pt(mid + half, pos + t / 2)
        _box_ops(
            x1,
            y1,
            x2 - x1,
            y2 - y1,
            fill if draw == "gate" or dash else fill or stroke,
            stroke,
            sw,
            0.0,
            dash,
            out,
        )
        if draw == "gate":  # a portcullis seen from above: a bar crossed by its spikes
            n = int(_s_num(st, "bars", 3))
            for i in range(n):
                a = mid - half + (i + 1) * 2 * half / (n + 1)
                out.append(
                    LineOp(
                        *pt(a, pos - t * 1.4),
                        *pt(a, pos + t * 1.4),
                        stroke or "#222222",
                        sw * 1.5,
                        dash,
                    )
                )
    elif draw == "arrow":
        half = _s_num(st, "length", 0.4) * length / 2
        depth = _s_len(st, "depth", half)
        inward = st.get("dir", "out") == "in"
        if st.get("dir", "out") not in ("in", "out"):
            raise ValueError(f"<edge-type dir='{st['dir']}'>: use in or out")
        tip, base = (rim - out_sign * depth, rim) if inward else (rim, rim - out_sign * depth)
        outline = _s_colour(st, "stroke")  # arrows are outlined only when asked
        out.append(
            PolyOp(
                (pt(mid - half, base), pt(mid + half, base), pt(mid, tip)),
                fill or outline or "#222222",
                outline if fill else None,
                sw,
            )
        )
    icon = _s_icon(st, ctx)
    if icon and draw != "none":
        s = _s_num(st, "icon-scale", 1.0 if draw == "icon" else 0.4) * length
        x, y = pt(mid, pos)
        out.append(IconOp(icon, x - s / 2, y - s / 2, s))
