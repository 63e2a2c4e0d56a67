"""A kind's documentation for designers, generated from what defines it (its model, and for a declared
kind its file): the same sections as docs/kinds/*.md (Fields, Example, Template, Rules)."""

from __future__ import annotations

import types
import typing
from typing import Any

from mazmorra.declared.spec import Counts, FieldDecl, Ref, Referenced, Require, Rule, Sum, Unique
from mazmorra.errors import rel
from mazmorra.model import Kind

_BASE_FIELDS = ("id", "copies", "size")


def markdown(kind: Kind) -> str:
    """The kind's page in Markdown."""
    lines = [f"# Kind `{kind.name}` — {kind.summary}", ""]
    if kind.source is not None:
        lines += [f"Declared in `{rel(kind.source.file)}`.", ""]
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
        lines.append(
            f"| `{name}` | {what} | {'yes' if info.is_required() else 'no' + default} | {_limits(info.metadata)} | "
            f"{meaning.replace('|', '/')} |"
        )
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
    for check in (*kind.deck_rules, *kind.pack_rules):
        doc = (check.__doc__ or "").strip().splitlines()
        lines.append(f"| `{getattr(check, '__name__', 'rule')}` | {doc[0] if doc else 'a rule of the base kind'} |")
    return "\n".join(lines) + "\n"


def _decl_type(decl: FieldDecl) -> str:
    if decl.type == "enum":
        return "one of " + ", ".join(f"`{v}`" for v in decl.values or [])
    if decl.type == "ref":
        return f"id of a component of deck `{decl.deck}`" if decl.deck else "id of a component"
    if decl.type == "list":
        return f"list of {_decl_type(decl.item())} (in a sheet: separated by `;`)"
    if decl.type == "grid":
        size = f" {decl.rows or '?'}×{decl.cols or '?'}" if decl.rows or decl.cols else ""
        cells = f" of {', '.join(f'`{v}`' for v in decl.values)}" if decl.values else ""
        return f"grid{size}: rows of cells{cells}"
    return {"text": "text (translated)", "string": "text", "colour": "colour `#rrggbb`"}.get(decl.type, decl.type)


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
            ("pattern", "matches "),
        ):
            value = getattr(meta, attr, None)
            if value is not None:
                out.append(f"{word}{value}")
    return ", ".join(out)


def _example(kind: Kind) -> list[str]:
    lines = [f"- id: {kind.name.replace('_', '-')}-1"]
    for name, info in kind.model.model_fields.items():
        if name in _BASE_FIELDS or not (info.is_required() or name in kind.fields):
            continue
        decl = kind.fields.get(name)
        value = _sample(decl, name) if decl is not None else "..."
        lines.append(f"  {name}: {value}")
    return lines


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
        return '["x . .", ". x ."]' if not decl.values else f'["{decl.allowed()[0]}"]'
    return samples.get(decl.type, "...")


def _rule_id(rule: Rule) -> str:
    return {"unique": "unique", "ref": "ref", "referenced": "referenced", "counts": "counts", "sum": "sum"}.get(
        rule.name, "required"
    )


def _rule_text(rule: Rule) -> str:
    s = rule.spec
    if isinstance(s, Unique):
        return f"no two components share a `{s.unique}`"
    if isinstance(s, Ref):
        return f"every `{s.ref}` names a component of deck `{s.in_}`"
    if isinstance(s, Referenced):
        return f"every component of deck `{s.referenced}` is named by some `{s.by}`"
    if isinstance(s, Counts):
        return f"copies per `{s.counts}`" + (f": {s.values}" if s.values else "")
    if isinstance(s, Sum):
        return f"`{s.sum}` added up per deck{f' and `{s.per}`' if s.per else ''} stays within its limit"
    if isinstance(s, Require):
        return f"`{s.require}` is required when {s.when}"
    return rule.name
