"""Stage 2 for grid data (the declared side parses it: model/declared/griddata.py): a grid field's value checked against its legend (shape, symbols, marks on
the cells they may stand on, unique numbers, counts, edges on the boundary they belong to and one
feature per edge, spans over cells of one kind). Every problem is at the YAML line and column of
the cell, edge or span it is about, with a `grid.*` rule id."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from mazmorra.errors import Problem
from mazmorra.model.content import Component
from mazmorra.model.declared.griddata import GridEdge, GridValue, Written, where
from mazmorra.model.declared.spec import CellDecl, EdgeDecl, FieldDecl, MarkDecl

Report = Callable[[str, str, Written | None], Problem]  # rule id, message, where (None: the field's line)

RULES = {
    "grid.shape": "the grid has the declared number of rows and columns",
    "grid.cell": "every cell starts with a symbol of the legend",
    "grid.mark": "what follows a cell's symbol is a mark of the legend, numbered marks within their numbers",
    "grid.mark-on": "a mark stands only on the cells its `on:` names",
    "grid.mark-unique": "a `unique` numbered mark uses each number once per grid",
    "grid.cell-count": "each kind of cell appears `count` times (or within `min`/`max`) per grid",
    "grid.mark-count": "each mark appears `count` times (or within `min`/`max`) per grid",
    "grid.edge-count": "each edge feature appears `count` times (or within `min`/`max`) per grid",
    "grid.edge": "an edge is written ROW,COL SIDE inside the grid and names an edge of the legend",
    "grid.edge-border": "an edge with `border: true` lies on the grid's rim, with `border: false` between cells",
    "grid.edge-on": "the cells on either side of an edge are of the kinds its `on:` names",
    "grid.edge-twice": "an edge holds one feature (a wall and a portcullis cannot share it)",
    "grid.span": "a span is written ROW,COL ROWSxCOLS, stays inside the grid, covers cells of one kind and "
    "overlaps no other span",
}


def check(comp: Component, name: str, decl: FieldDecl, grid: GridValue) -> Iterator[Problem]:
    """Every problem of one grid field of one component."""

    def problem(rule: str, message: str, at: Written | None) -> Problem:
        return Problem(rule, message, where(comp, name, at) if at else comp.field_loc(name), comp.id, name)

    for issue in grid.issues:
        yield problem(issue.rule, issue.message, issue.at)
    cut = _cut_by_comment(comp, name, decl, grid)
    yield from _shape(grid, decl, problem, cut)
    yield from _marks(grid, decl, problem)
    yield from _counts(grid, decl, problem)
    yield from _edges(grid, decl, problem)
    yield from _spans(grid, problem)


def _shape(grid: GridValue, decl: FieldDecl, problem: Report, cut: frozenset[int] = frozenset()) -> Iterator[Problem]:
    if decl.rows is not None and len(grid.cells) != decl.rows:
        at = grid.row_at[decl.rows] if len(grid.cells) > decl.rows else None
        yield problem("grid.shape", f"the grid has {len(grid.cells)} rows; the kind declares {decl.rows}", at)
    for r, row in enumerate(grid.cells):
        if r in cut:
            yield problem(
                "grid.shape",
                f"row {r}: YAML reads `#` and what follows as a comment, so the row lost its `#` cells; "
                'quote the row (- ". x #") or write the grid as a block (cells: |)',
                grid.row_at[r],
            )
        elif len(row) != grid.cols:
            at = grid.cell_at[r][grid.cols] if len(row) > grid.cols else grid.row_at[r]
            yield problem("grid.shape", f"row {r} has {len(row)} cells; every row has {grid.cols}", at)


def _cut_by_comment(comp: Component, name: str, decl: FieldDecl, grid: GridValue) -> frozenset[int]:
    """Rows written unquoted whose line goes on with ` #`, when `#` is a cell symbol: YAML dropped
    the rest of the row as a comment (the loaded data cannot tell, so the file's line is read)."""
    if not any("#" in c.symbol for c in (decl.cells or {}).values()):
        return frozenset()
    out = set()
    for r, at in enumerate(grid.row_at):
        if r < len(grid.cells) and len(grid.cells[r]) >= grid.cols:
            continue
        loc = where(comp, name, at)
        try:
            line = Path(loc.file).read_text(encoding="utf-8").splitlines()[loc.line - 1]
        except (OSError, IndexError, UnicodeDecodeError):
            continue
        rest = line[loc.col - 1 :] if loc.col else line
        if rest[:1] not in ("'", '"') and (" #" in rest or rest.startswith("#")):
            out.add(r)
    return frozenset(out)


def _cells_at(grid: GridValue) -> Iterator[tuple[int, int, Written]]:
    for r, row in enumerate(grid.cell_at):
        for c, at in enumerate(row):
            yield r, c, at


def _marks(grid: GridValue, decl: FieldDecl, problem: Report) -> Iterator[Problem]:
    legend = decl.marks or {}
    seen: dict[tuple[str, int], tuple[int, int]] = {}
    for r, c, at in _cells_at(grid):
        cell = grid.cells[r][c]
        for mark in cell.marks:
            spec = legend[mark.type]
            if spec.on is not None and cell.type is not None and cell.type not in spec.on:
                yield problem(
                    "grid.mark-on",
                    f"cell {r},{c}: {_mark_name(mark.type, mark.number)} stands on {cell.type}; "
                    f"a {mark.type} stands only on {', '.join(spec.on)}",
                    at,
                )
            if mark.number is not None and spec.numbers is not None:
                lo, hi = spec.numbers
                if not lo <= mark.number <= hi:
                    yield problem("grid.mark", f"cell {r},{c}: {mark.type} {mark.number} is outside {lo}–{hi}", at)
                key = (mark.type, mark.number)
                if spec.unique and key in seen:
                    fr, fc = seen[key]
                    yield problem(
                        "grid.mark-unique",
                        f"cell {r},{c}: {mark.type} {mark.number} is already at cell {fr},{fc}; each {mark.type} "
                        "number appears once",
                        at,
                    )
                seen.setdefault(key, (r, c))


def _mark_name(kind: str, number: int | None) -> str:
    return f"{kind} {number}" if number is not None else kind


def _counts(grid: GridValue, decl: FieldDecl, problem: Report) -> Iterator[Problem]:
    cells: dict[str, list[Written]] = {}
    marks: dict[str, list[Written]] = {}
    for r, c, at in _cells_at(grid):
        cell = grid.cells[r][c]
        if cell.type is not None:
            cells.setdefault(cell.type, []).append(at)
        for mark in cell.marks:
            marks.setdefault(mark.type, []).append(at)
    edges: dict[str, list[Written]] = {}
    for edge, at in zip(grid.edges, grid.edge_at):
        edges.setdefault(edge.type, []).append(at)
    groups: list[
        tuple[str, str, dict[str, CellDecl] | dict[str, MarkDecl] | dict[str, EdgeDecl], dict[str, list[Written]]]
    ] = [
        ("grid.cell-count", "cell", decl.cells or {}, cells),
        ("grid.mark-count", "mark", decl.marks or {}, marks),
        ("grid.edge-count", "edge", decl.edges or {}, edges),
    ]
    for rule, what, legend, found in groups:
        for name, spec in legend.items():
            have = found.get(name, [])
            lo = spec.count if spec.count is not None else spec.min
            hi = spec.count if spec.count is not None else spec.max
            wanted = f"exactly {spec.count}" if spec.count is not None else f"at least {lo}" if lo is not None else ""
            if hi is not None and len(have) > hi:
                wanted = f"exactly {hi}" if spec.count is not None else f"at most {hi}"
                yield problem(rule, f"the grid has {len(have)} {name} {what}s; it takes {wanted}", have[hi])
            elif lo is not None and len(have) < lo:
                yield problem(
                    rule,
                    f"the grid has {len(have)} {name} {what}{'s' if len(have) != 1 else ''}; it needs {wanted}",
                    None,
                )


def _touches(edge: GridEdge, rows: int, cols: int) -> list[tuple[int, int]]:
    """The cells on either side of an edge (one at the grid's rim)."""
    dr, dc = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}[edge.side]
    other = (edge.r + dr, edge.c + dc)
    return [(edge.r, edge.c)] + ([other] if 0 <= other[0] < rows and 0 <= other[1] < cols else [])


def edge_key(edge: GridEdge) -> tuple[int, int, str]:
    """One name per boundary: the east side of (0, 0) is the west side of (0, 1)."""
    if edge.side == "e":
        return (edge.r, edge.c + 1, "w")
    if edge.side == "s":
        return (edge.r + 1, edge.c, "n")
    return (edge.r, edge.c, edge.side)


def _edges(grid: GridValue, decl: FieldDecl, problem: Report) -> Iterator[Problem]:
    legend = decl.edges or {}
    taken: dict[tuple[int, int, str], GridEdge] = {}
    for edge, at in zip(grid.edges, grid.edge_at):
        spec = legend[edge.type]
        touched = _touches(edge, grid.rows, grid.cols)
        rim = len(touched) == 1
        written = f"{edge.type} {edge.r},{edge.c} {edge.side}"
        if spec.border is True and not rim:
            yield problem("grid.edge-border", f"{written} lies between two cells; a {edge.type} is on the rim", at)
        elif spec.border is False and rim:
            yield problem(
                "grid.edge-border", f"{written} lies on the grid's rim; a {edge.type} stands between two cells", at
            )
        if spec.on is not None:
            for r, c in touched:
                cell = grid.cell(r, c)
                if cell is not None and cell.type is not None and cell.type not in spec.on:
                    yield problem(
                        "grid.edge-on",
                        f"{written} meets cell {r},{c}, which is {cell.type}; a {edge.type} meets only "
                        f"{', '.join(spec.on)}",
                        at,
                    )
        key = edge_key(edge)
        if key in taken:
            first = taken[key]
            article = "an" if first.type[:1] in "aeiou" else "a"
            same = "already holds it" if first.type == edge.type else f"already holds {article} {first.type}"
            yield problem(
                "grid.edge-twice",
                f"{written}: that edge {same} ({first.type} {first.r},{first.c} {first.side}); an edge holds one "
                "feature",
                at,
            )
        else:
            taken[key] = edge


def _spans(grid: GridValue, problem: Report) -> Iterator[Problem]:
    covered: Counter[tuple[int, int]] = Counter()
    for span, at in zip(grid.spans, grid.span_at):
        text = f"span {span.r},{span.c} {span.rows}x{span.cols}"
        if span.rows < 1 or span.cols < 1 or span.r + span.rows > grid.rows or span.c + span.cols > grid.cols:
            yield problem("grid.span", f"{text} reaches outside the {grid.rows}×{grid.cols} grid", at)
            continue
        cells = [(r, c) for r in range(span.r, span.r + span.rows) for c in range(span.c, span.c + span.cols)]
        kinds = {cell.type for r, c in cells if (cell := grid.cell(r, c)) is not None}
        if len(kinds) > 1:
            yield problem(
                "grid.span", f"{text} covers cells of different kinds ({', '.join(sorted(map(str, kinds)))})", at
            )
        if any(covered[rc] for rc in cells):
            yield problem("grid.span", f"{text} overlaps another span", at)
        covered.update(cells)
