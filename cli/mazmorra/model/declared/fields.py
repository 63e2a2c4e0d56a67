"""A declared field as a typed model field: its Python type, its limits and its description, so
the loaded component, the editor schema and the docs all come from one declaration."""

from __future__ import annotations

import re
from functools import partial
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.config import JsonDict

from mazmorra.model.colour import Colour
from mazmorra.model.declared.griddata import GridValue, Legend, parse_grid
from mazmorra.model.declared.spec import FieldDecl
from mazmorra.model.units import parse_size
from mazmorra.source.wording import error_message, given
from mazmorra.support.limits import GRID_COLS, GRID_ROWS, TEXT_CHARS

ICON = r"^[a-z0-9][a-z0-9_-]*$"
TYPE_WORDS = {
    "string": "text (not translated)",
    "text": "text (translated)",
    "int": "whole number",
    "number": "number",
    "bool": "true or false",
    "enum": "one of",
    "colour": "colour (#rrggbb, a CSS name, rgb() …)",
    "icon": "icon name",
    "image": "picture inside the pack",
    "size": "size (poker, 63x88mm ...)",
    "list": "list",
    "ref": "id of a component",
    "grid": "grid rows",
}


class DeclError(ValueError):
    """A field declaration that cannot become a field; `key` names the part that is wrong, and
    `entry` the entry of it at fault (a legend's cell, mark or edge), when there is one."""

    def __init__(self, message: str, key: str = "type", entry: str | int | None = None):
        super().__init__(message)
        self.key = key
        self.entry = entry


def _size(value: Any) -> Any:
    if isinstance(value, str):
        parse_size(value)
    return value


def _grid_rows(value: Any) -> Any:
    """Rows written as text ("x . w") or as lists of cells -> lists of cells."""
    if isinstance(value, str):
        value = [r for r in value.splitlines() if r.strip()]
    if isinstance(value, list):
        return [row.split() if isinstance(row, str) else row for row in value]
    return value


def _no_repeats(values: list[str | int]) -> None:
    """An enum lists each value once: a repeat is a typo for another value (refused at the repeat)."""
    seen: dict[str | int, int] = {}
    for i, value in enumerate(values):
        if value in seen:
            raise DeclError(
                f"value {value!r} is listed twice (first as value {seen[value] + 1}): each value once", "values", i
            )
        seen[value] = i


def annotation(decl: FieldDecl, name: str) -> Any:
    """The Python type of a declared field (without its optionality)."""
    t = decl.type
    lo, hi = decl.min, decl.max
    if t in ("string", "text"):
        if (lo is not None and lo < 0) or (hi is not None and hi < 0):
            raise DeclError("min and max of a text are numbers of characters (0 or more)", "max")
        if decl.pattern is not None:
            try:
                re.compile(decl.pattern)
            except re.error as exc:
                raise DeclError(f"pattern is not a regular expression: {exc}", "pattern") from None
        return Annotated[
            str,
            Field(
                min_length=int(lo) if lo is not None else None,
                max_length=min(int(hi), TEXT_CHARS) if hi is not None else TEXT_CHARS,
                pattern=decl.pattern,
            ),
        ]
    if t == "int":
        return Annotated[int, Field(ge=int(lo) if lo is not None else None, le=int(hi) if hi is not None else None)]
    if t == "number":
        return Annotated[float, Field(ge=lo, le=hi)]
    if t == "bool":
        return bool
    if t == "enum":
        if decl.setting is not None:
            if not isinstance(decl.values, str) or not decl.values.startswith("game.") or not decl.setting:
                raise DeclError(
                    f"values {decl.values!r}: a list, a mapping of values to {{label, icon}}, or game.<setting>",
                    "values",
                )
            return Annotated[str, Field(pattern=ICON)]  # the setting's keys are checked in stage 2
        if not decl.allowed():
            raise DeclError("an enum needs `values:`, the list of allowed values", "values")
        _no_repeats(decl.allowed())
        return Literal[tuple(decl.allowed())]
    if t == "colour":
        return Colour
    if t in ("icon",):
        return Annotated[str, Field(pattern=ICON)]
    if t in ("image", "ref"):
        return Annotated[str, Field(min_length=1)]
    if t == "size":
        return Annotated[str, BeforeValidator(_size)]
    if t == "list":
        item = decl.item()
        if item.type in ("list", "grid"):
            raise DeclError("a list holds single values: `of:` cannot be list or grid", "of")
        item_type: Any = annotation(item, name)
        return Annotated[
            list[item_type],
            Field(min_length=int(lo) if lo is not None else None, max_length=int(hi) if hi is not None else None),
        ]
    if t == "grid" and decl.cells is not None:
        _check_legend(decl)
        return Annotated[
            GridValue,
            BeforeValidator(
                partial(parse_grid, decl, legend=Legend.of(decl)),
                json_schema_input_type=str | list[str | list[str]] | GridInput,
            ),
        ]
    if t == "grid":
        if decl.marks or decl.edges:
            raise DeclError("marks and edges need a legend of cells (`cells:`)", "marks" if decl.marks else "edges")
        _no_repeats(decl.allowed())
        cell: Any = Literal[tuple(decl.allowed())] if decl.values else Annotated[str, Field(pattern=r"^\S+$")]
        row = Annotated[list[cell], Field(min_length=decl.cols, max_length=decl.cols or GRID_COLS)]
        return Annotated[
            list[row],
            BeforeValidator(_grid_rows, json_schema_input_type=str | list[str | list[str]]),
            Field(min_length=decl.rows, max_length=decl.rows or GRID_ROWS),
        ]
    raise DeclError(f"unknown type '{t}'")


class GridInput(BaseModel):
    """How a grid with a legend is written (for the editor schema)."""

    model_config = ConfigDict(extra="forbid")

    cells: list[str | list[str]] = Field(description="the rows, top first: cell symbols, each followed by its marks")
    edges: dict[str, list[str]] = Field(
        default_factory=dict, description="per edge kind, its edges as ROW,COL SIDE (1,2 e)"
    )
    spans: list[str] = Field(default_factory=list, description="cells drawn as one: ROW,COL ROWSxCOLS (1,1 2x2)")


def _check_legend(decl: FieldDecl) -> None:
    """A legend that parses unambiguously and whose `on:` lists name its cells."""
    if decl.values:
        raise DeclError("a grid with a legend (`cells:`) lists its cells there, not in `values:`", "values")
    cells = decl.cells or {}
    if not cells:
        raise DeclError("`cells:` names at least one kind of cell, with its symbol", "cells")
    symbols = [d.symbol for d in cells.values()]
    dup = sorted({s for s in symbols if symbols.count(s) > 1})
    if dup:
        second = [n for n, d in cells.items() if d.symbol == dup[0]][1]
        raise DeclError(f"two cells share the symbol '{dup[0]}'", "cells", second)
    bare = [n for n, m in (decl.marks or {}).items() if m.numbers and not m.symbol]
    for name, mark in (decl.marks or {}).items():
        if mark.symbol is None and mark.numbers is None:
            raise DeclError(f"mark '{name}' needs a symbol, numbers, or both", "marks", name)
        if mark.numbers and not 0 <= mark.numbers[0] <= mark.numbers[1] <= 999:
            raise DeclError(f"mark '{name}': numbers are [lowest, highest], 0 to 999", "marks", name)
        if mark.unique and not mark.numbers:
            raise DeclError(f"mark '{name}': unique applies to numbered marks", "marks", name)
    if len(bare) > 1:
        raise DeclError(
            f"marks {bare[0]} and {bare[1]} are both written as bare numbers: give one a symbol", "marks", bare[1]
        )
    for group, items in (("marks", decl.marks or {}), ("edges", decl.edges or {})):
        for name, item in items.items():
            for cell in item.on or []:
                if cell not in cells:
                    raise DeclError(
                        f"{group[:-1]} '{name}': on: names '{cell}', which is no cell of the legend "
                        f"({', '.join(cells)})",
                        group,
                        name,
                    )
    for group, counted in (("cells", cells), ("marks", decl.marks or {}), ("edges", decl.edges or {})):
        for name, c in counted.items():
            if c.count is not None and (c.min is not None or c.max is not None):
                raise DeclError(f"{name}: give count, or min and max, not both", group, name)
            if c.min is not None and c.max is not None and c.min > c.max:
                raise DeclError(f"{name}: min {c.min} is larger than max {c.max}", group)


def model_field(decl: FieldDecl, name: str) -> tuple[Any, Any]:
    """(type, FieldInfo) for pydantic.create_model; raises DeclError on a declaration that cannot work."""
    if decl.min is not None and decl.max is not None and decl.min > decl.max:
        raise DeclError(f"min {decl.min:g} is larger than max {decl.max:g}", "min")
    typ = annotation(decl, name)
    description = decl.description or TYPE_WORDS[decl.type]
    if decl.type == "ref" and decl.deck:
        description += f" (an id of deck '{decl.deck}')"
    extra: JsonDict = {"x-mazmorra-type": decl.type}
    if decl.required:
        if decl.default is not None:
            raise DeclError("a required field has no default: drop one of them", "default")
        return typ, Field(..., description=description, json_schema_extra=extra)
    if decl.default is not None:
        try:
            TypeAdapter(typ).validate_python(decl.default)
        except ValidationError as exc:
            reason = error_message(exc.errors()[0])
            raise DeclError(f"default {given(decl.default)} is not a valid value: it {reason}", "default") from None
        return typ, Field(decl.default, description=description, json_schema_extra=extra)
    if decl.type == "list" or (decl.type == "grid" and decl.cells is None):
        return typ, Field(default_factory=list, description=description, json_schema_extra=extra)
    return typ | None, Field(None, description=description, json_schema_extra=extra)
