"""Grid data in content: a grid field with a legend (`cells:` by symbol, `marks:` standing on cells,
`edges:` between cells) is written as rows of cell tokens plus edge and span lists, and parsed at
load into a typed `GridValue` that templates draw (the `grid_data` macro, templates/grid-data.xml.j2)
and family rules read. Parsing never fails on a legend mistake: it records where each part was
written, and stage 2 (gridcheck.py) reports every mistake at its own YAML line and column.

    map:
      cells:                    # one row per line; a cell is its symbol, then its marks: .3 .* x
        - . . ~ .
        - .1* .2 ~ x
      edges:                    # ROW,COL SIDE (rows and columns count from 0; ranges 0-2 and * work)
        connection: ["0,1 n", "1,3 e"]
      spans: ["0,2 2x1"]        # ROW,COL ROWSxCOLS: one box over several cells of one kind
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from mazmorra.errors import did_you_mean
from mazmorra.model.declared.spec import FieldDecl, MarkDecl
from mazmorra.source.yamlsafe import YList, YMap
from mazmorra.support.limits import GRID_COLS, GRID_ROWS

if TYPE_CHECKING:
    from mazmorra.errors import Loc
    from mazmorra.model.content import Component

SIDES = ("n", "e", "s", "w")
_INDEX = r"(\*|\d+(?:-\d+)?)"
EDGE_SYNTAX = re.compile(rf"^\s*{_INDEX}\s*,\s*{_INDEX}\s+([nesw])\s*$")
SPAN_SYNTAX = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s+(\d+)\s*[x×]\s*(\d+)\s*$")
_KEYS = ("cells", "edges", "spans")
_TOKEN = re.compile(r"\S+")
_DIGITS = re.compile(r"\d+")

Path = tuple[str | int, ...]  # where a part stands inside the field's YAML value


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


@dataclass(frozen=True, slots=True)
class Written:
    """Where a part of a grid was written: its path inside the field's value and, for a cell, the
    offset of its token inside the row's text."""

    path: Path
    offset: int = 0


@dataclass(frozen=True, slots=True)
class GridIssue:
    """A mistake found while parsing, reported in stage 2 at `at`."""

    rule: str
    message: str
    at: Written


@dataclass(frozen=True, slots=True)
class GridMark:
    type: str  # the mark's name in the legend
    number: int | None = None  # a numbered mark's number


@dataclass(frozen=True, slots=True)
class GridCell:
    symbol: str  # as written
    type: str | None  # the cell's name in the legend; None when the symbol is unknown (reported)
    marks: tuple[GridMark, ...] = ()


@dataclass(frozen=True, slots=True)
class GridEdge:
    r: int
    c: int
    side: str  # n e s w
    type: str  # the edge's name in the legend


@dataclass(frozen=True, slots=True)
class GridSpan:
    r: int
    c: int
    rows: int
    cols: int


class GridValue(_Frozen):
    """A grid field's value, parsed against its legend: what templates and family rules read."""

    rows: int
    cols: int
    cells: tuple[tuple[GridCell, ...], ...]
    edges: tuple[GridEdge, ...] = ()
    spans: tuple[GridSpan, ...] = ()
    where: dict[str, tuple[tuple[int, int], ...]] = Field(
        default_factory=dict, description="(row, column) of every cell and mark by name: `card.map.where.gear`"
    )
    issues: tuple[GridIssue, ...] = Field((), exclude=True)
    cell_at: tuple[tuple[Written, ...], ...] = Field((), exclude=True)  # per cell, as `cells`
    row_at: tuple[Written, ...] = Field((), exclude=True)  # per row
    edge_at: tuple[Written, ...] = Field((), exclude=True)  # per edge, as `edges`
    span_at: tuple[Written, ...] = Field((), exclude=True)  # per span, as `spans`

    def cell(self, r: int, c: int) -> GridCell | None:
        """The cell at (r, c), None outside the grid."""
        if 0 <= r < len(self.cells) and 0 <= c < len(self.cells[r]):
            return self.cells[r][c]
        return None

    def marks_of(self, name: str) -> list[tuple[int, int, GridMark]]:
        """Every mark of one name, with its cell, row by row."""
        return [
            (r, c, m)
            for r, row in enumerate(self.cells)
            for c, cell in enumerate(row)
            for m in cell.marks
            if m.type == name
        ]


@dataclass(frozen=True)
class Legend:
    """A grid field's legend as parsing reads it, worked out once per declaration: symbols longest
    first (so `..` wins over `.`), the numbered mark written as bare digits, the texts messages show."""

    cells: tuple[tuple[str, str], ...]  # (name, symbol)
    marks: tuple[tuple[str, MarkDecl], ...]
    bare: str | None  # the numbered mark written without a symbol
    cells_text: str
    marks_text: str

    @classmethod
    def of(cls, decl: FieldDecl) -> Legend:
        cells = sorted(((name, d.symbol) for name, d in (decl.cells or {}).items()), key=lambda t: -len(t[1]))
        marks = sorted((decl.marks or {}).items(), key=lambda kv: -len(kv[1].symbol or ""))
        bare = next((name for name, d in marks if d.numbers and not d.symbol), None)
        return cls(tuple(cells), tuple(marks), bare, legend_text(decl), marks_text(decl))


def parse_grid(decl: FieldDecl, raw: Any, legend: Legend | None = None) -> Any:
    """Rows (a list, or text with one row per line or `;`) or a mapping with `cells`, `edges` and
    `spans`, parsed against the legend of `decl`; raises ValueError only when the shape is not a grid.
    Its parts are our own data, built without validating them again (model_construct)."""
    if isinstance(raw, GridValue):
        return raw
    legend = legend or Legend.of(decl)
    base: Path = ()
    edges_raw: Any = {}
    spans_raw: Any = []
    if isinstance(raw, dict):
        unknown = [str(k) for k in raw if k not in _KEYS]
        if unknown:
            raise ValueError(f"a grid has {', '.join(_KEYS)}; '{unknown[0]}' is none of them")
        base = ("cells",)
        rows_raw, edges_raw, spans_raw = raw.get("cells"), raw.get("edges") or {}, raw.get("spans") or []
    else:
        rows_raw = raw
    if isinstance(rows_raw, str):
        rows_raw = [r for r in re.split(r"[;\n]", rows_raw) if r.strip()]
    if not isinstance(rows_raw, list) or not rows_raw:
        raise ValueError('a grid is a list of rows such as [". . ~", ". x ."], or a mapping with cells:')
    if not isinstance(edges_raw, dict):
        raise ValueError("edges: is a mapping of edge kinds to lists such as {wall: ['0,1 e']}")
    if not isinstance(spans_raw, list):
        raise ValueError("spans: is a list such as ['1,1 2x2']")
    if len(rows_raw) > GRID_ROWS:  # refused before a cell is parsed
        raise ValueError(f"a grid has at most {GRID_ROWS} rows; this one has {len(rows_raw)}")
    issues: list[GridIssue] = []
    cells, cell_at, row_at = [], [], []
    for i, row in enumerate(rows_raw):
        where = (*base, i)
        row_at.append(Written(path=where, offset=0))
        tokens = _tokens(row, where)
        if len(tokens) > GRID_COLS:
            raise ValueError(f"a grid has at most {GRID_COLS} columns; row {i} has {len(tokens)}")
        cells.append(tuple(_cell(legend, tok, at, issues) for tok, at in tokens))
        cell_at.append(tuple(at for _, at in tokens))
    rows = decl.rows or len(cells)
    cols = decl.cols or max((len(r) for r in cells), default=0)
    edges, edge_at = _edges(decl, edges_raw, rows, cols, issues)
    spans, span_at = _spans(spans_raw, issues)
    found: dict[str, list[tuple[int, int]]] = {}
    for r, row_cells in enumerate(cells):
        for c, cell in enumerate(row_cells):
            for name in ([cell.type] if cell.type else []) + [m.type for m in cell.marks]:
                found.setdefault(name, []).append((r, c))
    return GridValue.model_construct(
        rows=rows,
        cols=cols,
        cells=tuple(cells),
        edges=tuple(edges),
        spans=tuple(spans),
        where={k: tuple(v) for k, v in found.items()},
        issues=tuple(issues),
        cell_at=tuple(cell_at),
        row_at=tuple(row_at),
        edge_at=tuple(edge_at),
        span_at=tuple(span_at),
    )


def _tokens(row: Any, where: Path) -> list[tuple[str, Written]]:
    if isinstance(row, str):
        return [(m.group(), Written(path=where, offset=m.start())) for m in _TOKEN.finditer(row)]
    if isinstance(row, list):
        return [(str(tok), Written(path=(*where, j), offset=0)) for j, tok in enumerate(row)]
    raise ValueError(f'a row of a grid is text such as ". . ~" (got {row!r})')


def legend_text(decl: FieldDecl) -> str:
    """The legend as a designer writes it: `. floor, ~ water, x blocked`."""
    return ", ".join(f"{d.symbol} {name}" for name, d in (decl.cells or {}).items())


def marks_text(decl: FieldDecl) -> str:
    out = []
    for name, d in (decl.marks or {}).items():
        numbers = f"{d.numbers[0]}–{d.numbers[1]}" if d.numbers else ""
        out.append(f"{d.symbol or ''}{numbers} {name}")
    return ", ".join(out) or "none"


def _cell(legend: Legend, token: str, at: Written, issues: list[GridIssue]) -> GridCell:
    """One token: the longest cell symbol it starts with, then its marks."""
    found = next(((name, symbol) for name, symbol in legend.cells if token.startswith(symbol)), None)
    if found is None:
        message = f"'{token}' starts with no cell symbol of the legend ({legend.cells_text})"
        issues.append(GridIssue(rule="grid.cell", message=message, at=at))
        return GridCell(symbol=token, type=None, marks=())
    name, symbol = found
    rest = token[len(symbol) :]
    marks = tuple(_marks(legend, token, rest, at, issues)) if rest else ()
    return GridCell(symbol=token, type=name, marks=marks)


def _marks(legend: Legend, token: str, rest: str, at: Written, issues: list[GridIssue]) -> list[GridMark]:
    out = []
    while rest:
        digits = _DIGITS.match(rest)
        if digits and legend.bare is not None:
            out.append(GridMark(type=legend.bare, number=int(digits.group())))
            rest = rest[digits.end() :]
            continue
        hit = next(((name, d) for name, d in legend.marks if d.symbol and rest.startswith(d.symbol)), None)
        if hit is None:
            message = f"cell '{token}': '{rest}' is no mark of the legend (marks: {legend.marks_text})"
            issues.append(GridIssue(rule="grid.mark", message=message, at=at))
            break
        name, d = hit
        rest = rest[len(d.symbol or "") :]
        number = None
        if d.numbers:
            digits = _DIGITS.match(rest)
            if digits is None:
                message = f"cell '{token}': mark {name} needs its number"
                issues.append(GridIssue(rule="grid.mark", message=message, at=at))
                break
            number, rest = int(digits.group()), rest[digits.end() :]
        out.append(GridMark(type=name, number=number))
    return out


def _indices(spec: str, n: int) -> list[int] | None:
    """'3', '0-4' or '*' -> the indices (0-based), or None when one is outside 0..n-1."""
    if spec == "*":
        return list(range(n))
    a, _, b = spec.partition("-")
    lo, hi = int(a), int(b or a)
    if not 0 <= lo <= hi < n:
        return None
    return list(range(lo, hi + 1))


def _edges(
    decl: FieldDecl, raw: dict[Any, Any], rows: int, cols: int, issues: list[GridIssue]
) -> tuple[list[GridEdge], list[Written]]:
    known = decl.edges or {}
    edges, at = [], []
    for kind, entries in raw.items():
        where: Path = ("edges", str(kind))
        if kind not in known:
            names = ", ".join(known) or "none: the kind declares no edges"
            issues.append(
                GridIssue(
                    rule="grid.edge",
                    message=f"unknown edge '{kind}'{did_you_mean(str(kind), known)} (edges: {names})",
                    at=Written(offset=0, path=where),
                )
            )
            continue
        for j, entry in enumerate(entries if isinstance(entries, list) else [entries]):
            here = Written(offset=0, path=(*where, j) if isinstance(entries, list) else where)
            m = EDGE_SYNTAX.match(entry) if isinstance(entry, str) else None
            if m is None:
                issues.append(
                    GridIssue(
                        rule="grid.edge",
                        message=f"{kind} {entry!r}: write ROW,COL SIDE such as '1,2 e' (side n, e, s or w; "
                        "ranges 0-2 and * work; quote it inside [ ])",
                        at=here,
                    )
                )
                continue
            rs, cs = _indices(m.group(1), rows), _indices(m.group(2), cols)
            if rs is None or cs is None:
                issues.append(
                    GridIssue(
                        rule="grid.edge",
                        message=f"{kind} '{entry}' is outside the {rows}×{cols} grid (rows 0–{rows - 1}, "
                        f"columns 0–{cols - 1})",
                        at=here,
                    )
                )
                continue
            for r in rs:
                for c in cs:
                    edges.append(GridEdge(r=r, c=c, side=m.group(3), type=str(kind)))
                    at.append(here)
    return edges, at


def _spans(raw: list[Any], issues: list[GridIssue]) -> tuple[list[GridSpan], list[Written]]:
    spans, at = [], []
    for j, entry in enumerate(raw):
        here = Written(offset=0, path=("spans", j))
        m = SPAN_SYNTAX.match(entry) if isinstance(entry, str) else None
        if m is None:
            issues.append(
                GridIssue(
                    rule="grid.span", message=f"span {entry!r}: write ROW,COL ROWSxCOLS such as '1,1 2x2'", at=here
                )
            )
            continue
        r, c, h, w = (int(g) for g in m.groups())
        spans.append(GridSpan(r=r, c=c, rows=h, cols=w))
        at.append(here)
    return spans, at


def where(comp: Component, name: str, at: Written) -> Loc:
    """The line and column where a part of a grid field was written (a cell's own token in its row)."""
    node: object = comp.raw
    loc = comp.field_loc(name)
    for part in (name, *at.path):
        if isinstance(node, YMap) and isinstance(part, str) and part in node:
            loc, node = node.locs.get(part, loc), node[part]
        elif isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node):
            loc, node = node.locs[part], node[part]
        else:
            return loc  # the closest part written (a spreadsheet cell)
    return replace(loc, col=loc.col + at.offset) if isinstance(node, str) and loc.sheet is None else loc
