"""A kind file drafted from a spreadsheet deck (`mazmorra kinds infer`): one field per column, its
type and limits read off the values, so a designer coming with a workbook retypes nothing."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mazmorra.load.slugs import slug
from mazmorra.load.spreadsheet import LIST_SEP, Spreadsheet, cell_value
from mazmorra.model.declared.spec import KIND_NAME, RESERVED_FIELDS

# The card kind's fields: a drafted kind extends `card`, so it prints at once through its template.
_BOOLS = {"true", "false", "yes", "no", "sí", "si", "verdadero", "falso"}
_WORD = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
ENUM_MAX = 12  # more distinct values than this is free text, not a choice


@dataclass(frozen=True)
class Drafted:
    """One inferred field: its declaration, as a kind file writes it, and why (a comment)."""

    name: str
    decl: dict[str, Any]
    why: str


def kind_name(stem: str) -> str:
    """A kind name from a file name: `Pociones.xlsx` -> `pociones`."""
    name = slug(stem).replace("-", "_").replace(".", "_")
    if not re.match(KIND_NAME, name):
        name = f"kind_{name}" if name else "kind"
    return name


def infer_fields(table: Spreadsheet) -> list[Drafted]:
    """A declaration per source column of the spreadsheet, in column order (id, copies, kind and
    size are every component's own and stay out)."""
    translated = {name for name, lang in table.columns if lang is not None}
    out = []
    for name, lang in table.columns:
        if lang is not None or name in RESERVED_FIELDS:
            continue
        values = [row.values[name] for row in table.rows if name in row.values]
        decl, why = _infer(name, values, name in translated)
        if values and len(values) == len(table.rows):
            decl["required"] = True
        out.append(Drafted(name, decl, why))
    return out


def _infer(name: str, values: list[Any], translated: bool) -> tuple[dict[str, Any], str]:
    """A field's declaration and the reason, from the values its column holds."""
    if not values:
        return {"type": "text" if translated else "string"}, "the column is empty: say what it holds"
    texts = [v for v in values if isinstance(v, str)]
    if any(LIST_SEP in t for t in texts):
        items = [p.strip() for v in values for p in str(v).split(LIST_SEP) if p.strip()]
        item, _ = _infer(name, items, translated)
        of = item["type"] if set(item) == {"type"} else item
        return {"type": "list", "of": of}, "cells hold items separated by ';'"
    if translated:
        return {"type": "text"}, "translated in an @lang column"
    if all(isinstance(v, bool) or (isinstance(v, str) and v.strip().lower() in _BOOLS) for v in values):
        return {"type": "bool"}, "every value is true or false"
    ints = [cell_value(v, "int") for v in values if not isinstance(v, bool)]
    if len(ints) == len(values) and all(isinstance(i, int) for i in ints):
        return {"type": "int", "min": min(ints), "max": max(ints)}, "whole numbers; the limits are the values seen"
    numbers = [cell_value(v, "float") for v in values if not isinstance(v, bool)]
    if len(numbers) == len(values) and all(isinstance(n, (int, float)) for n in numbers):
        return {"type": "number", "min": min(numbers), "max": max(numbers)}, "numbers; the limits are the values seen"
    words = [str(cell_value(v, "str")) for v in values]
    if all(_COLOUR.match(w) for w in words):
        return {"type": "colour"}, "every value is a colour #rrggbb"
    distinct = sorted(set(words))
    if all(_WORD.match(w) for w in words) and len(distinct) < len(words) and len(distinct) <= ENUM_MAX:
        return {"type": "enum", "values": distinct}, f"{len(distinct)} values, repeated"
    if all(_WORD.match(w) for w in words):
        return {"type": "string"}, "single words (not translated): an id, a code"
    return {"type": "text"}, "text a player reads (translated in locale/*.po or an @lang column)"


def kind_yaml(name: str, source: str, fields: Iterable[Drafted]) -> str:
    """The drafted kind file, commented: what to check before trusting it."""
    lines = [
        "# yaml-language-server: $schema=../schema/kind.schema.json",
        f"# Drafted by `mazmorra kinds infer {source}`: check each type and limit, then add rules",
        "# (docs/own-kind.md). `extends: card` prints it with the generic card's template until it has its own.",
        f"name: {name}",
        "extends: card",
        f"summary: Component drafted from {_scalar(source)}",
        "fields:",
    ]
    for f in fields:
        body = ", ".join(f"{k}: {_value(v)}" for k, v in f.decl.items())
        lines.append(f"  {f.name}: {{{body}}}   # {f.why}")
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    return _scalar(str(value))


def _scalar(text: str) -> str:
    """A YAML scalar, quoted when plain style would read it as something else."""
    plain = re.match(r"^[A-Za-z0-9_][A-Za-z0-9_ ./-]*$", text) and text.lower() not in (
        "true",
        "false",
        "yes",
        "no",
        "null",
        "on",
        "off",
        "y",
        "n",
    )
    if plain and not re.match(r"^[0-9.+-]+$", text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
