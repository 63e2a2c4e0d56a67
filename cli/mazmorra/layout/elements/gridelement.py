"""The <grid> element: rows × columns of cells typed through a legend, features on the edges
between cells, separators along every boundary and marks outside the grid. See docs/templates.md,
"grid". What families C, D and E draw their maps, rooms and dungeons with."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

from mazmorra.contracts import Op, RectOp
from mazmorra.layout.elements.attrs import AT, FaceContext, check_attrs, length, located, opt_colour
from mazmorra.layout.elements.griddraw import SIDES, CellStyle, GridGeometry, draw_box, draw_edge
from mazmorra.model.units import parse_length
from mazmorra.support.limits import GRID_COLS, GRID_ROWS

GRID_ATTRS = frozenset(
    {
        "x",
        "y",
        "rows",
        "cols",
        "cell",
        "cell-w",
        "cell-h",
        "gap",
        "default",
        "fill",
        "stroke",
        "stroke-width",
        "pad",
        "radius",
        "rotate",
        "origin",
        "overlap",
    }
)
CELL_STYLE = frozenset(
    {
        "fill",
        "stroke",
        "stroke-width",
        "radius",
        "inset",
        "dash",
        "cross",
        "cross-width",
        "ring",
        "ring-fill",
        "ring-width",
        "ring-scale",
        "ring-outline",
        "icon",
        "icon-scale",
        "icon-color",
        "label",
        "label-color",
        "label-size",
        "label-font",
        "label-pos",
        "arrow",
        "arrow-fill",
        "arrow-scale",
    }
)
EDGE_STYLE = frozenset(
    {
        "draw",
        "stroke",
        "stroke-width",
        "fill",
        "thickness",
        "length",
        "extend",
        "dash",
        "bars",
        "depth",
        "dir",
        "icon",
        "icon-scale",
    }
)


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
    gid = ctx.new_part()  # the print checks tell the grid's cells, edges and marks apart

    def part(start: int, layer: str = "", ground_end: int | None = None) -> None:
        """ops out[start:] are one part of the grid; out[start:ground_end] its ground."""
        n = ctx.new_part()
        if ground_end is not None:
            ctx.own(out, start, el, gid, n, "ground", ground_end)
        ctx.own(out, start, el, gid, n, layer)

    cell_types = _legend(el, "cell-type", CELL_STYLE)
    edge_types = _legend(el, "edge-type", EDGE_STYLE)

    bg_fill, bg_stroke = opt_colour(el, "fill"), opt_colour(el, "stroke")
    if bg_fill or bg_stroke:
        pad = length(el, "pad", g.gap)
        start = len(out)
        out.append(
            RectOp(
                g.x - pad,
                g.y - pad,
                g.width + 2 * pad,
                g.height + 2 * pad,
                bg_fill,
                bg_stroke,
                length(el, "stroke-width", 0.3),
                length(el, "radius", 0),
            )
        )
        part(start, "ground")

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
                check_attrs(child, CELL_STYLE | {"r", "c", "type", "add", "rowspan", "colspan"})
                own = _own_style(child, CELL_STYLE)
                rs, cs = _span(child, "rowspan"), _span(child, "colspan")
                for r in _indices(child.get("r"), rows, "r", "cell"):
                    for c in _indices(child.get("c"), cols, "c", "cell"):
                        if r + rs > rows or c + cs > cols:
                            raise ValueError(f"<cell r='{r}' c='{c}'> spans past the {rows}×{cols} grid")
                        style = cells.get((r, c), {})
                        if child.get("type") is not None:
                            style = dict(_typed(cell_types, child.get("type", ""), "<cell>", "cell-type"))
                        if child.get("add") is not None:  # a mark drawn over the cell's own kind
                            style = {**style, **_typed(cell_types, child.get("add"), "<cell add=>", "cell-type")}
                        cells[(r, c)] = {**style, **own}
                        if rs > 1 or cs > 1:
                            spans[(r, c)] = (rs, cs)
            elif child.tag not in ("edge", "separator", "mark"):
                raise ValueError(
                    f"<grid> cannot hold <{child.tag}> (use cell-type, edge-type, cell, edge, separator, mark)"
                )
    covered = {
        (r + i, c + j) for (r, c), (rs, cs) in spans.items() for i in range(rs) for j in range(cs) if (i, j) != (0, 0)
    }
    for (r, c), style in sorted(cells.items()):
        if (r, c) not in covered:
            start = len(out)
            ground = draw_box(style, *g.box(r, c, *spans.get((r, c), (1, 1))), ctx, out)
            part(start, "", ground)

    # Edges, separators and marks draw over the cells, in document order.
    for child in el:
        with located(child):
            if child.tag == "edge":
                check_attrs(child, EDGE_STYLE | {"r", "c", "side", "type"})
                style = {
                    **_typed(edge_types, child.get("type"), "<edge>", "edge-type"),
                    **_own_style(child, EDGE_STYLE),
                }
                side = child.get("side", "")
                if side not in SIDES:
                    raise ValueError(f"<edge side='{side}'>: use n, e, s or w")
                for r in _indices(child.get("r"), rows, "r", "edge"):
                    for c in _indices(child.get("c"), cols, "c", "edge"):
                        start = len(out)
                        draw_edge(style, g, r, c, side, ctx, out)
                        part(start, "edge")
            elif child.tag == "separator":
                _separator(child, g, edge_types, ctx, out, part)
            elif child.tag == "mark":
                start = len(out)
                _mark(child, g, cell_types, ctx, out)
                part(start, "mark")


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
    most = GRID_ROWS if name == "rows" else GRID_COLS
    if not 1 <= n <= most:
        raise ValueError(f"<{el.tag} {name}='{n}'> must be 1..{most}")
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


def _separator(
    el: ET.Element,
    g: GridGeometry,
    edge_types: dict[str, CellStyle],
    ctx: FaceContext,
    out: list[Op],
    part: Callable[[int, str], None],
) -> None:
    """An edge type on every boundary between columns and/or rows (pillars between spaces)."""
    check_attrs(el, EDGE_STYLE | {"type", "between", "outer", "rows", "cols"})
    style = {
        **_typed(edge_types, el.get("type"), "<separator>", "edge-type"),
        **_own_style(el, EDGE_STYLE),
    }
    between = el.get("between", "cols")
    if between not in ("cols", "rows", "both"):
        raise ValueError(f"<separator between='{between}'>: use cols, rows or both")
    outer = el.get("outer", "false") == "true"
    rows = _indices(el.get("rows", "*"), g.rows, "rows", "separator")
    cols = _indices(el.get("cols", "*"), g.cols, "cols", "separator")
    if between in ("cols", "both"):
        for r in rows:
            for k in range(0 if outer else 1, g.cols + 1 if outer else g.cols):
                start = len(out)
                draw_edge(style, g, r, min(k, g.cols - 1), "w" if k < g.cols else "e", ctx, out)
                part(start, "edge")
    if between in ("rows", "both"):
        for c in cols:
            for k in range(0 if outer else 1, g.rows + 1 if outer else g.rows):
                start = len(out)
                draw_edge(style, g, min(k, g.rows - 1), c, "n" if k < g.rows else "s", ctx, out)
                part(start, "edge")


def _mark(
    el: ET.Element,
    g: GridGeometry,
    cell_types: dict[str, CellStyle],
    ctx: FaceContext,
    out: list[Op],
) -> None:
    """A box drawn like a cell, outside the grid on one side, centred on a row or column (or the middle)."""
    check_attrs(el, CELL_STYLE | {"type", "side", "at", "offset", "size", "w", "h"})
    style = {
        **_typed(cell_types, el.get("type"), "<mark>", "cell-type"),
        **_own_style(el, CELL_STYLE),
    }
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
        draw_box(style, cx - w / 2, y, w, h, ctx, out)
    else:
        cy = g.y + g.height / 2 if idx is None else g.centre(idx, 0)[1]
        x = g.x - offset - w if side == "w" else g.x + g.width + offset
        draw_box(style, x, cy - h / 2, w, h, ctx, out)
