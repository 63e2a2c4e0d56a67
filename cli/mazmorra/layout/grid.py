"""The <grid> element: rows × columns of cells typed through a legend, features on the edges
between cells, separators along every boundary and marks outside the grid. See docs/templates.md,
"grid". What families C, D and E draw their maps, rooms and dungeons with."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from mazmorra import fonts
from mazmorra.contracts import CircleOp, IconOp, LineOp, Op, PolyOp, RectOp, TextOp
from mazmorra.errors import Problem
from mazmorra.layout.attrs import AT, FaceContext, check_attrs, colour, dash, length, located, opt_colour
from mazmorra.units import PT_PER_MM, parse_length

GRID_ATTRS = frozenset({"x", "y", "rows", "cols", "cell", "cell-w", "cell-h", "gap", "default", "fill", "stroke",
                        "stroke-width", "pad", "radius"})
CELL_STYLE = frozenset({"fill", "stroke", "stroke-width", "radius", "inset", "dash", "cross", "cross-width",
                        "ring", "ring-fill", "ring-width", "ring-scale", "ring-outline", "icon", "icon-scale",
                        "label", "label-color", "label-size", "label-font", "label-pos", "arrow", "arrow-fill",
                        "arrow-scale"})
EDGE_STYLE = frozenset({"draw", "stroke", "stroke-width", "fill", "thickness", "length", "extend", "dash", "bars",
                        "depth", "dir", "icon", "icon-scale"})
EDGE_DRAWS = ("line", "bar", "gate", "arrow", "icon", "none")
SIDES = ("n", "e", "s", "w")
OUTWARD = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}  # unit vector leaving a cell by that side
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
        return (self.x + c * (self.cell_w + self.gap), self.y + r * (self.cell_h + self.gap),
                colspan * self.cell_w + (colspan - 1) * self.gap, rowspan * self.cell_h + (rowspan - 1) * self.gap)

    def centre(self, r: float, c: float) -> tuple[float, float]:
        """Centre of cell (r, c); fractional indices fall between cells (2.5 = between columns 2 and 3)."""
        return (self.x + c * (self.cell_w + self.gap) + self.cell_w / 2,
                self.y + r * (self.cell_h + self.gap) + self.cell_h / 2)

    def vline(self, k: int) -> float:
        """x of vertical boundary k (0 = left of column 0, cols = right of the last column), mid-gap."""
        return self.x + k * (self.cell_w + self.gap) - self.gap / 2

    def hline(self, k: int) -> float:
        """y of horizontal boundary k (0 = above row 0, rows = below the last row), mid-gap."""
        return self.y + k * (self.cell_h + self.gap) - self.gap / 2


def grid_element(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<grid>: rows × columns of typed cells, edges, separators and marks (docs/templates.md)."""
    check_attrs(el, GRID_ATTRS)
    rows, cols = _count(el, "rows"), _count(el, "cols")
    size = el.get("cell")
    cw = length(el, "cell-w", parse_length(size) if size is not None else None)
    ch = length(el, "cell-h", parse_length(size) if size is not None else None)
    if cw <= 0 or ch <= 0:
        raise ValueError("<grid> cells need a positive cell-w and cell-h")
    g = GridGeometry(ox + length(el, "x"), oy + length(el, "y"), rows, cols, cw, ch, length(el, "gap", 0))
    cell_types = _legend(el, "cell-type", CELL_STYLE)
    edge_types = _legend(el, "edge-type", EDGE_STYLE)

    bg_fill, bg_stroke = opt_colour(el, "fill"), opt_colour(el, "stroke")
    if bg_fill or bg_stroke:
        pad = length(el, "pad", g.gap)
        out.append(RectOp(g.x - pad, g.y - pad, g.width + 2 * pad, g.height + 2 * pad, bg_fill, bg_stroke,
                          length(el, "stroke-width", 0.3), length(el, "radius", 0)))

    # Cells: the default type everywhere, then each <cell> merged over what is there (later wins).
    cells: dict[tuple[int, int], CellStyle] = {}
    spans: dict[tuple[int, int], tuple[int, int]] = {}
    default = el.get("default")
    if default is not None:
        base = _typed(cell_types, default, "<grid default=>", "cell-type")
        cells = {(r, c): dict(base) for r in range(rows) for c in range(cols)}
    for child in el:
        with located(child):
            if child.tag in ("cell-type", "edge-type"):
                continue
            if child.tag == "cell":
                check_attrs(child, CELL_STYLE | {"r", "c", "type", "rowspan", "colspan"})
                own = _own_style(child, CELL_STYLE)
                rs, cs = _span(child, "rowspan"), _span(child, "colspan")
                for r in _indices(child.get("r"), rows, "r", "cell"):
                    for c in _indices(child.get("c"), cols, "c", "cell"):
                        if r + rs > rows or c + cs > cols:
                            raise ValueError(f"<cell r='{r}' c='{c}'> spans past the {rows}×{cols} grid")
                        style = cells.get((r, c), {})
                        if child.get("type") is not None:
                            style = dict(_typed(cell_types, child.get("type", ""), "<cell>", "cell-type"))
                        cells[(r, c)] = {**style, **own}
                        if rs > 1 or cs > 1:
                            spans[(r, c)] = (rs, cs)
            elif child.tag not in ("edge", "separator", "mark"):
                raise ValueError(f"<grid> cannot hold <{child.tag}> (use cell-type, edge-type, cell, edge, "
                                 "separator, mark)")
    covered = {(r + i, c + j) for (r, c), (rs, cs) in spans.items() for i in range(rs) for j in range(cs)
               if (i, j) != (0, 0)}
    for (r, c), style in sorted(cells.items()):
        if (r, c) not in covered:
            _draw_box(style, *g.box(r, c, *spans.get((r, c), (1, 1))), ctx, out)

    # Edges, separators and marks draw over the cells, in document order.
    for child in el:
        with located(child):
            if child.tag == "edge":
                check_attrs(child, EDGE_STYLE | {"r", "c", "side", "type"})
                style = {**_typed(edge_types, child.get("type"), "<edge>", "edge-type"),
                         **_own_style(child, EDGE_STYLE)}
                side = child.get("side", "")
                if side not in SIDES:
                    raise ValueError(f"<edge side='{side}'>: use n, e, s or w")
                for r in _indices(child.get("r"), rows, "r", "edge"):
                    for c in _indices(child.get("c"), cols, "c", "edge"):
                        _draw_edge(style, g, r, c, side, ctx, out)
            elif child.tag == "separator":
                _separator(child, g, edge_types, ctx, out)
            elif child.tag == "mark":
                _mark(child, g, cell_types, ctx, out)


def _span(el: ET.Element, name: str) -> int:
    raw = el.get(name, "1")
    try:
        n = int(raw)
    except ValueError:
        raise ValueError(f"<{el.tag} {name}='{raw}'>: a whole number of cells") from None
    if n < 1:
        raise ValueError(f"<{el.tag} {name}='{raw}'>: at least 1")
    return n


def _count(el: ET.Element, name: str) -> int:
    raw = el.get(name)
    try:
        n = int(raw or "")
    except ValueError:
        raise ValueError(f"<{el.tag}> needs {name}= as a whole number (got {raw!r})") from None
    if not 1 <= n <= 500:
        raise ValueError(f"<{el.tag} {name}='{n}'> must be 1..500")
    return n


def _legend(grid: ET.Element, tag: str, allowed: frozenset[str]) -> dict[str, CellStyle]:
    """Named styles (<cell-type>/<edge-type>) with `base=` inheritance resolved."""
    raw: dict[str, CellStyle] = {}
    for el in grid.findall(tag):
        with located(el):
            check_attrs(el, allowed | {"name", "base"})
            name = el.get("name")
            if not name:
                raise ValueError(f"<{tag}> needs name=")
            if name in raw:
                raise ValueError(f"<{tag} name='{name}'> is defined twice")
            raw[name] = {k: v for k, v in el.attrib.items() if k != AT}
    done: dict[str, CellStyle] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> CellStyle:
        if name in done:
            return done[name]
        if name in chain:
            raise ValueError(f"<{tag}> bases loop: {' -> '.join(chain + (name,))}")
        attrs = dict(raw[name])
        attrs.pop("name")
        base = attrs.pop("base", None)
        if base is not None:
            if base not in raw:
                raise ValueError(f"<{tag} name='{name}' base='{base}'>: no {tag} '{base}'")
            attrs = {**resolve(base, chain + (name,)), **attrs}
        done[name] = attrs
        return attrs

    return {name: resolve(name, ()) for name in raw}


def _typed(types: dict[str, CellStyle], name: str | None, where: str, tag: str) -> CellStyle:
    if name is None:
        return {}
    if name not in types:
        known = ", ".join(sorted(types)) or "none defined"
        raise ValueError(f"{where}: unknown type '{name}' (this grid's <{tag}>s: {known})")
    return types[name]


def _own_style(el: ET.Element, allowed: frozenset[str]) -> CellStyle:
    return {k: v for k, v in el.attrib.items() if k in allowed}


def _indices(spec: str | None, n: int, what: str, tag: str) -> list[int]:
    """'3', '0-4', '1,3,5' or '*' -> indices, each checked against the grid (0-based)."""
    if spec is None:
        raise ValueError(f"<{tag}> needs {what}=")
    if spec.strip() == "*":
        return list(range(n))
    out: list[int] = []
    for part in spec.replace(" ", "").split(","):
        try:
            if "-" in part[1:]:
                a, b = part.split("-", 1)
                out.extend(range(int(a), int(b) + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise ValueError(f"<{tag} {what}='{spec}'>: use a number, a range like 0-4, a list like 1,3 or *") from None
    bad = [i for i in out if not 0 <= i < n]
    if bad:
        raise ValueError(f"<{tag} {what}='{spec}'>: {bad[0]} is outside 0..{n - 1}")
    return out


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


def _box_ops(x: float, y: float, w: float, h: float, fill: str | None, stroke: str | None, sw: float,
             radius: float, dash: tuple[float, ...], out: list[Op]) -> None:
    """A rectangle; a dashed outline becomes four dashed lines over the (unstroked) fill."""
    if dash and stroke:
        if fill:
            out.append(RectOp(x, y, w, h, fill, None, sw, radius))
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        out.extend(LineOp(*a, *b, stroke, sw, dash) for a, b in zip(corners, corners[1:]))
    elif fill or stroke:
        out.append(RectOp(x, y, w, h, fill, stroke, sw, radius))


def _draw_box(st: CellStyle, x: float, y: float, w: float, h: float, ctx: FaceContext, out: list[Op]) -> None:
    """One cell (or mark): fill/outline, cross, ring, icon, arrow, label — each only if its style asks."""
    inset = _s_len(st, "inset", 0.0)
    bx, by, bw, bh = x + inset, y + inset, w - 2 * inset, h - 2 * inset
    fill, stroke = _s_colour(st, "fill"), _s_colour(st, "stroke")
    sw, radius, dash = _s_len(st, "stroke-width", 0.3), _s_len(st, "radius", 0.0), _s_dash(st)
    _box_ops(bx, by, bw, bh, fill, stroke, sw, radius, dash, out)
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
        out.append(IconOp(icon, cx - s / 2, cy - s / 2, s))
    arrow = st.get("arrow")
    if arrow:
        if arrow not in SIDES:
            raise ValueError(f"arrow='{arrow}': use n, e, s or w")
        dx, dy = OUTWARD[arrow]
        a = _s_num(st, "arrow-scale", 0.5) * m / 2
        px, py = -dy, dx  # perpendicular
        out.append(PolyOp(((cx + dx * a, cy + dy * a), (cx - dx * a + px * a, cy - dy * a + py * a),
                           (cx - dx * a - px * a, cy - dy * a - py * a)), _s_colour(st, "arrow-fill", "#222222")))
    label = st.get("label")
    if label:
        _label(st, label, x, y, w, h, ctx, out)


def _label(st: CellStyle, label: str, x: float, y: float, w: float, h: float, ctx: FaceContext, out: list[Op]) -> None:
    font = st.get("label-font", "sans-bold")
    if font not in fonts.FONTS:
        raise ValueError(f"label-font='{font}': unknown font (known: {', '.join(fonts.FONTS)})")
    missing = fonts.missing_chars(label, font)
    if missing:
        ctx.problems.append(Problem("text.missing-glyph", f"font '{font}' has no glyph for {' '.join(sorted(missing))}",
                                    ctx.text_loc(None), ctx.component, None, lang=ctx.lang))
    size = _s_num(st, "label-size", 7.0)
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


def _draw_edge(st: CellStyle, g: GridGeometry, r: int, c: int, side: str, ctx: FaceContext, out: list[Op]) -> None:
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
        _box_ops(x1, y1, x2 - x1, y2 - y1, fill if draw == "gate" or dash else fill or stroke, stroke, sw, 0.0,
                 dash, out)
        if draw == "gate":  # a portcullis seen from above: a bar crossed by its spikes
            n = int(_s_num(st, "bars", 3))
            for i in range(n):
                a = mid - half + (i + 1) * 2 * half / (n + 1)
                out.append(LineOp(*pt(a, pos - t * 1.4), *pt(a, pos + t * 1.4), stroke or "#222222", sw * 1.5,
                                  dash))
    elif draw == "arrow":
        half = _s_num(st, "length", 0.4) * length / 2
        depth = _s_len(st, "depth", half)
        inward = st.get("dir", "out") == "in"
        if st.get("dir", "out") not in ("in", "out"):
            raise ValueError(f"<edge-type dir='{st['dir']}'>: use in or out")
        tip, base = (rim - out_sign * depth, rim) if inward else (rim, rim - out_sign * depth)
        outline = _s_colour(st, "stroke")  # arrows are outlined only when asked
        out.append(PolyOp((pt(mid - half, base), pt(mid + half, base), pt(mid, tip)), fill or outline or "#222222",
                          outline if fill else None, sw))
    icon = _s_icon(st, ctx)
    if icon and draw != "none":
        s = _s_num(st, "icon-scale", 1.0 if draw == "icon" else 0.4) * length
        x, y = pt(mid, pos)
        out.append(IconOp(icon, x - s / 2, y - s / 2, s))


def _separator(el: ET.Element, g: GridGeometry, edge_types: dict[str, CellStyle], ctx: FaceContext,
               out: list[Op]) -> None:
    """An edge type on every boundary between columns and/or rows (pillars between spaces)."""
    check_attrs(el, EDGE_STYLE | {"type", "between", "outer", "rows", "cols"})
    style = {**_typed(edge_types, el.get("type"), "<separator>", "edge-type"), **_own_style(el, EDGE_STYLE)}
    between = el.get("between", "cols")
    if between not in ("cols", "rows", "both"):
        raise ValueError(f"<separator between='{between}'>: use cols, rows or both")
    outer = el.get("outer", "false") == "true"
    rows = _indices(el.get("rows", "*"), g.rows, "rows", "separator")
    cols = _indices(el.get("cols", "*"), g.cols, "cols", "separator")
    if between in ("cols", "both"):
        for r in rows:
            for k in range(0 if outer else 1, g.cols + 1 if outer else g.cols):
                _draw_edge(style, g, r, min(k, g.cols - 1), "w" if k < g.cols else "e", ctx, out)
    if between in ("rows", "both"):
        for c in cols:
            for k in range(0 if outer else 1, g.rows + 1 if outer else g.rows):
                _draw_edge(style, g, min(k, g.rows - 1), c, "n" if k < g.rows else "s", ctx, out)


def _mark(el: ET.Element, g: GridGeometry, cell_types: dict[str, CellStyle], ctx: FaceContext, out: list[Op]) -> None:
    """A box drawn like a cell, outside the grid on one side, centred on a row or column (or the middle)."""
    check_attrs(el, CELL_STYLE | {"type", "side", "at", "offset", "size", "w", "h"})
    style = {**_typed(cell_types, el.get("type"), "<mark>", "cell-type"), **_own_style(el, CELL_STYLE)}
    side = el.get("side", "n")
    if side not in SIDES:
        raise ValueError(f"<mark side='{side}'>: use n, e, s or w")
    size = length(el, "size", min(g.cell_w, g.cell_h))
    w, h = length(el, "w", size), length(el, "h", size)
    offset = length(el, "offset", 1.0)
    at = el.get("at", "mid")
    try:
        idx = None if at == "mid" else float(at)
    except ValueError:
        raise ValueError(f"<mark at='{at}'>: use a row/column number (fractions fall between) or mid") from None
    if side in ("n", "s"):
        cx = g.x + g.width / 2 if idx is None else g.centre(0, idx)[0]
        y = g.y - offset - h if side == "n" else g.y + g.height + offset
        _draw_box(style, cx - w / 2, y, w, h, ctx, out)
    else:
        cy = g.y + g.height / 2 if idx is None else g.centre(idx, 0)[1]
        x = g.x - offset - w if side == "w" else g.x + g.width + offset
        _draw_box(style, x, cy - h / 2, w, h, ctx, out)
