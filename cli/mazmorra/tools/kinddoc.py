"""A kind's documentation for designers, generated from what defines it (its model, and for a declared
kind its file): the same sections as docs/kinds/*.md (Fields, Example, Template, Rules)."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

from mazmorra import kinds
from mazmorra.errors import real_path, rel
from mazmorra.model.content import Kind
from mazmorra.model.declared.spec import (
    CellDecl,
    Counts,
    EdgeDecl,
    FieldDecl,
    MarkDecl,
    Ref,
    Referenced,
    Require,
    Rule,
    Sum,
    Unique,
)
from mazmorra.source.wording import pattern_words
from mazmorra.validate.gridcheck import RULES

_BASE_FIELDS = ("id", "copies", "size")


def markdown(kind: Kind) -> str:
    """The kind's page in Markdown."""
    lines = [f"# Kind `{kind.name}` — {kind.summary}", ""]
    if kind.source is not None:
        shown = Path(
            rel(real_path(kind.source.file))
        )  # outside the working folder (a sample pack): from the pack's folder on
        outside = shown.is_absolute() or shown.parts[:1] == ("..",)
        lines += [f"Declared in `{Path(*shown.parts[-3:]) if outside else shown}`.", ""]
    lines += [
        f"Size: {kind.size if kind.size != 'card' else 'the pack card_size'}; shape: {kind.shape}; "
        f"game family: {kind.family.name}.",
        "",
        "## Fields",
        "",
        "| field | type | required | limits | meaning |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, info in kind.model.model_fields.items():
        decl = kind.fields.get(name)
        what = _decl_type(decl) if decl is not None else _type(info.annotation)
        if name in kind.translatable and "translated" not in what:
            what += " (translated)"
        plain = info.is_required() or info.default_factory is not None or info.default in (None, "", [])
        default = "" if plain else f" ({info.default!r})"
        meaning = decl.description if decl is not None else info.description or ""
        if decl is not None and decl.label is not None:  # what a round's changelog calls it
            label = decl.label if isinstance(decl.label, str) else ", ".join(f"{k}: {v}" for k, v in decl.label.items())
            meaning = f"{meaning} (players read: {label})".strip()
        lines.append(
            f"| `{name}` | {what} | {'yes' if info.is_required() else 'no' + default} | {_cell(_limits(info.metadata))} | "
            f"{meaning.replace('|', '/')} |"
        )
    for name, decl in kind.fields.items():
        lines += _choices(name, decl) + _legend(name, decl)
    lines += ["", "## Example", "", "```yaml", *_example(kind), "```", "", "## Template", ""]
    lines.append(f"`{kind.template}` (front)" + (", drawn for both sides (`side`)" if kind.two_sided else ""))
    if kind.back_template:
        lines.append(f"and `{kind.back_template}` (the deck's shared back).")
    lines += ["", "## Rules", "", "| rule id | checks |", "| --- | --- |"]
    for rule in kind.rules:
        lines.append(f"| `rule.{_rule_id(rule)}` | {_rule_text(rule)} |")
    if kind.count_field:
        lines.append(f"| `deck.counts` | a deck's `counts:` add up the copies per `{kind.count_field}` |")
    lines.append("| `schema.*` | every field has its type and stays within its limits |")
    lines += _field_rules(kind)
    for check in (*kind.deck_rules, *kind.pack_rules):
        doc = (check.__doc__ or "").strip().splitlines()
        lines.append(f"| `{getattr(check, '__name__', 'rule')}` | {doc[0] if doc else 'a rule of the base kind'} |")
    family = [d for rid, d in kinds.rule_docs(kind.family).items() if rid.split(".")[0] == kind.name]
    lines += [f"| `{d.id}` | {_cell(d.checks)} |" for d in family]
    if kinds.rule_docs(kind.family):
        lines += [
            "",
            f"The rules of the `{kind.family.name}` family across its kinds, with the rulebook passage each comes "
            f"from: [{kind.family.name}-rules.md]({kind.family.name}-rules.md).",
        ]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _choices(name: str, decl: FieldDecl) -> list[str]:
    """The words and icons an enum's values print with."""
    item = decl.item() if decl.type == "list" else decl
    if not item.choices:
        return []
    lines = ["", f"Values of `{name}` (each word is a label, translated like a template's):", ""]
    lines += ["| value | prints | icon | meaning |", "| --- | --- | --- | --- |"]
    for value, c in item.choices.items():
        word = c.label if isinstance(c.label, str) else ", ".join(f"{k}: {v}" for k, v in c.label.items())
        lines.append(f"| `{value}` | {word} | {f'`{c.icon}`' if c.icon else ''} | {_cell(c.description)} |")
    return lines


def _legend(name: str, decl: FieldDecl) -> list[str]:
    """A grid field's legend: its cells, marks and edges with their limits."""
    if decl.type != "grid" or decl.cells is None:
        return []
    lines = ["", f"The legend of `{name}`:", "", "| written | name | what | limits |", "| --- | --- | --- | --- |"]
    for cname, cell in decl.cells.items():
        lines.append(f"| `{cell.symbol}` | cell `{cname}` | {_cell(cell.description)} | {_counted(cell)} |")
    for mname, mark in (decl.marks or {}).items():
        written = f"`{mark.symbol or ''}{'N' if mark.numbers else ''}` after a cell"
        limits = [_counted(mark)] + ([f"N from {mark.numbers[0]} to {mark.numbers[1]}"] if mark.numbers else [])
        limits += ["each N once"] if mark.unique else []
        limits += [f"only on {', '.join(mark.on)}"] if mark.on else []
        lines.append(
            f"| {written} | mark `{mname}` | {_cell(mark.description)} | {'; '.join(x for x in limits if x)} |"
        )
    for ename, edge in (decl.edges or {}).items():
        where = {True: "on the rim", False: "between cells", None: ""}[edge.border]
        limits = [_counted(edge), where] + ([f"meets only {', '.join(edge.on)}"] if edge.on else [])
        lines.append(
            f"| `edges: {{{ename}: [ROW,COL SIDE]}}` | edge `{ename}` | {_cell(edge.description)} | "
            f"{'; '.join(x for x in limits if x)} |"
        )
    return lines


def _counted(spec: CellDecl | MarkDecl | EdgeDecl) -> str:
    if spec.count is not None:
        return f"exactly {spec.count} per grid"
    parts = ([f"at least {spec.min}"] if spec.min is not None else []) + (
        [f"at most {spec.max}"] if spec.max is not None else []
    )
    return " and ".join(parts) + (" per grid" if parts else "")


def _field_rules(kind: Kind) -> list[str]:
    """The stage 2 checks a kind's declared fields bring: grid legends, game settings, icons."""
    out = []
    decls = list(kind.fields.values())
    if any(d.type == "grid" and d.cells is not None for d in decls):
        out += [f"| `{rid}` | {text} |" for rid, text in RULES.items()]
    items = [d.item() if d.type == "list" else d for d in decls]
    if any(d.setting for d in items):
        out.append("| `field.setting` | a value names a key of the `game:` setting its field takes its values from |")
    if any(d.type == "icon" or any(c.icon for c in d.choices.values()) for d in items):
        out.append("| `field.unknown-icon` | every icon it names exists |")
    return out


def _decl_type(decl: FieldDecl) -> str:
    if decl.type == "enum" and decl.setting is not None:
        return f"a key of `game.{decl.setting}` in pack.yaml"
    if decl.type == "enum":
        return "one of " + ", ".join(f"`{v}`" for v in decl.allowed())
    if decl.type == "ref":
        return f"id of a component of deck `{decl.deck}`" if decl.deck else "id of a component"
    if decl.type == "list":
        return f"list of {_decl_type(decl.item())} (in a spreadsheet cell: separated by `;`)"
    if decl.type == "grid":
        size = f" {decl.rows or '?'}×{decl.cols or '?'}" if decl.rows or decl.cols else ""
        if decl.cells is not None:
            return f"grid{size} with a legend (below): rows of cells, edges, spans"
        cells = f" of {', '.join(f'`{v}`' for v in decl.allowed())}" if decl.values else ""
        return f"grid{size}: rows of cells{cells}"
    words = {"text": "text (translated)", "string": "text", "colour": "colour `#rrggbb`", "int": "whole number"}
    return words.get(decl.type, decl.type.replace("bool", "true/false"))


def _type(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin is typing.Annotated:
        return _type(args[0])
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type(a) for a in args)
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin in (list, tuple):
        return f"list of {_type(args[0])}" if args else "list"
    if isinstance(annotation, type):
        return {"str": "text", "int": "whole number", "float": "number", "bool": "true/false"}.get(
            annotation.__name__, annotation.__name__
        )
    return str(annotation)


def _limits(metadata: list[Any]) -> str:
    out = []
    for meta in metadata:
        for attr, word in (
            ("ge", "≥"),
            ("gt", ">"),
            ("le", "≤"),
            ("lt", "<"),
            ("min_length", "min length "),
            ("max_length", "max length "),
            ("pattern", ""),
        ):
            value = getattr(meta, attr, None)
            if value is not None:
                out.append(pattern_words(value) if attr == "pattern" else f"{word}{value}")
    return ", ".join(out)


def _example(kind: Kind) -> list[str]:
    lines = [f"- id: {kind.name.replace('_', '-')}-1"]
    for name, info in kind.model.model_fields.items():
        if name in _BASE_FIELDS or not (info.is_required() or name in kind.fields):
            continue
        decl = kind.fields.get(name)
        if decl is not None and decl.type == "grid" and decl.cells is not None:
            lines += [f"  {name}:", *(f"    {line}" for line in _grid_sample(decl))]
            continue
        value = _sample(decl, name) if decl is not None else "..."
        lines.append(f"  {name}: {value}")
    return lines


def _grid_sample(decl: FieldDecl) -> list[str]:
    """Grid data that keeps to the legend's counts: the first cell everywhere, then one of each cell,
    mark and edge the legend requires."""
    rows, cols = decl.rows or 3, decl.cols or 3
    cells = decl.cells or {}
    first = next(iter(cells.values())).symbol
    grid = [[first] * cols for _ in range(rows)]
    k = 0
    for cell in cells.values():
        for _ in range(cell.count or cell.min or 0):
            grid[k // cols][k % cols] = cell.symbol
            k += 1
    for mark in (decl.marks or {}).values():
        for _ in range(mark.count or mark.min or 0):
            grid[k // cols][k % cols] += f"{mark.symbol or ''}{mark.numbers[0] if mark.numbers else ''}"
            k += 1
    edges = [  # one edge each, on distinct boundaries: the rim's top for rim edges, between cells for others
        f'{name}: ["0,{i} n"]' if e.border else f'{name}: ["{i},0 e"]'
        for i, (name, e) in enumerate((decl.edges or {}).items())
    ]
    return ["cells:", *(f"  - {' '.join(row)}" for row in grid)] + (
        ["edges:", *(f"  {e}" for e in edges)] if edges else []
    )


def _sample(decl: FieldDecl, name: str) -> str:
    if decl.default is not None:
        return repr(decl.default) if isinstance(decl.default, str) else str(decl.default).lower()
    samples = {
        "text": f'"Texto de {name}"',
        "string": "abc",
        "int": str(int(decl.min or 0)),
        "number": str(decl.min or 0),
        "bool": "true",
        "colour": '"#335577"',
        "icon": "coin",
        "image": "art/picture.png",
        "size": "poker",
        "ref": "some-id",
    }
    if decl.type == "enum":
        return str((decl.allowed() or ["red"])[0])
    if decl.type == "list":
        return f"[{_sample(decl.item(), name)}]"
    if decl.type == "grid":
        cell = str(decl.allowed()[0]) if decl.values else "."
        return "[" + ", ".join(f'"{" ".join([cell] * (decl.cols or 3))}"' for _ in range(decl.rows or 2)) + "]"
    return samples.get(decl.type, "...")


def _rule_id(rule: Rule) -> str:
    return {"unique": "unique", "ref": "ref", "referenced": "referenced", "counts": "counts", "sum": "sum"}.get(
        rule.name, "required"
    )


def _rule_text(rule: Rule) -> str:
    """A declared rule in words: what it checks, its bounds and its condition."""
    s = rule.spec
    scope = f" (in deck `{s.deck}`)" if s.deck else ""
    if isinstance(s, Unique):
        return f"no two components share a `{s.unique}`{scope}"
    if isinstance(s, Ref):
        return f"every `{s.ref}` names a component of deck `{s.in_}`{scope}"
    if isinstance(s, Referenced):
        return f"every component of deck `{s.referenced}` is named by some `{s.by}`{scope}"
    if isinstance(s, Counts):
        bounds = [", ".join(f"{n} `{v}`" for v, n in s.values.items())] if s.values else []
        bounds += [f"at least {s.min} of every value present"] if s.min is not None else []
        bounds += [f"at most {s.max} of any value"] if s.max is not None else []
        return f"copies per `{s.counts}`: " + ("; ".join(bounds) or "counted") + scope
    if isinstance(s, Sum):
        what = f"`{s.sum}` added up per deck{f' and per `{s.per}`' if s.per else ''}"
        what += "" if s.copies else " (each component once, copies aside)"
        bounds = [f"at least {_bound(s.min)}"] if s.min is not None else []
        bounds += [f"at most {_bound(s.max)}"] if s.max is not None else []
        return f"{what} is {' and '.join(bounds) or 'within its limit'}{scope}"
    if isinstance(s, Require):
        return f"`{s.require}` is required when {_condition(s.when)}{scope}"
    return rule.name


def _bound(value: float | str | dict[str, float]) -> str:
    """A sum's limit in words: a number, `game.<path>` of pack.yaml, or one per value."""
    if isinstance(value, dict):
        return "; ".join(f"{_num(v)} for `{k}`" for k, v in value.items())
    if isinstance(value, str):
        return f"the value of `{value}` in pack.yaml"
    return _num(value)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _condition(when: str | dict[str, Any]) -> str:
    """`school` -> "`school` has a value"; {school: sombra} -> "`school` is `sombra`"."""
    if isinstance(when, str):
        return f"`{when}` has a value"
    parts = []
    for name, want in when.items():
        if isinstance(want, list):
            parts.append(f"`{name}` is one of " + ", ".join(f"`{v}`" for v in want))
        else:
            parts.append(f"`{name}` is `{str(want).lower() if isinstance(want, bool) else want}`")
    return " and ".join(parts)
