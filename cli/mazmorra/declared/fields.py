"""A declared field as a typed model field: its Python type, its limits and its description, so
the loaded component, the editor schema and the docs all come from one declaration."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError
from pydantic.config import JsonDict

from mazmorra.declared.spec import FieldDecl
from mazmorra.units import parse_size

COLOUR = r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"
ICON = r"^[a-z0-9][a-z0-9_-]*$"
TYPE_WORDS = {
    "string": "text (not translated)",
    "text": "text (translated)",
    "int": "whole number",
    "number": "number",
    "bool": "true or false",
    "enum": "one of",
    "colour": "colour #rrggbb",
    "icon": "icon name",
    "image": "picture inside the pack",
    "size": "size (poker, 63x88mm ...)",
    "list": "list",
    "ref": "id of a component",
    "grid": "grid rows",
}


class DeclError(ValueError):
    """A field declaration that cannot become a field; `key` names the part that is wrong."""

    def __init__(self, message: str, key: str = "type"):
        super().__init__(message)
        self.key = key


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
                max_length=int(hi) if hi is not None else None,
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
        if not decl.values:
            raise DeclError("an enum needs `values:`, the list of allowed values", "values")
        return Literal[tuple(decl.values)]
    if t == "colour":
        return Annotated[str, Field(pattern=COLOUR)]
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
    if t == "grid":
        cell: Any = Literal[tuple(decl.values)] if decl.values else Annotated[str, Field(pattern=r"^\S+$")]
        row = Annotated[list[cell], Field(min_length=decl.cols, max_length=decl.cols)]
        return Annotated[
            list[row],
            BeforeValidator(_grid_rows, json_schema_input_type=str | list[str | list[str]]),
            Field(min_length=decl.rows, max_length=decl.rows),
        ]
    raise DeclError(f"unknown type '{t}'")


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
            reason = exc.errors()[0]["msg"]
            raise DeclError(f"default {decl.default!r} is not a valid value: {reason}", "default") from None
        return typ, Field(decl.default, description=description, json_schema_extra=extra)
    if decl.type in ("list", "grid"):
        return typ, Field(default_factory=list, description=description, json_schema_extra=extra)
    return typ | None, Field(None, description=description, json_schema_extra=extra)
