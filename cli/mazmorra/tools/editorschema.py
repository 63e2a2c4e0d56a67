"""JSON Schema (draft 2020-12) for editors: pack.yaml, each deck of a pack (its kind's fields, built-in
or declared, with descriptions, enums and limits) and kind files. `mazmorra schema` writes them into
the pack's schema/ folder, and YAML files point at them with a `# yaml-language-server: $schema=`
line, so an editor completes fields and flags mistakes while the designer types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from mazmorra import kinds
from mazmorra.errors import ContentError, Loc, Problem, rel
from mazmorra.kinds.kindfiles import load_kinds
from mazmorra.model.content import Kind, PackSpec
from mazmorra.model.declared.spec import RULE_TYPES, KindFile
from mazmorra.source.schemas import checked
from mazmorra.source.yamlsafe import YamlError, YMap, load_yaml
from mazmorra.support.atomic import atomic_write_text

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_DIR = "schema"
PACK_SCHEMA = "pack.schema.json"
KIND_SCHEMA = "kind.schema.json"


def _rules_schema() -> dict[str, Any]:
    refs, top = models_json_schema([(m, "validation") for m in RULE_TYPES.values()], ref_template="#/$defs/{model}")
    return {"type": "array", "items": {"anyOf": [refs[(m, "validation")] for m in RULE_TYPES.values()]}, **top}


def _document(schema: dict[str, Any], title: str) -> dict[str, Any]:
    return {"$schema": DRAFT, "title": title, **schema}


def pack_schema(kind_names: list[str], settings: list[type[BaseModel]]) -> dict[str, Any]:
    """pack.yaml: its keys, the kinds a deck may name, the game settings its families read and its rules."""
    schema = PackSpec.model_json_schema()
    defs = schema.setdefault("$defs", {})
    defs["DeckSpec"]["properties"]["kind"] = {
        "enum": kind_names,
        "description": "the kind of its components (`mazmorra kinds` lists them)",
    }
    rules = _rules_schema()
    defs.update(rules.pop("$defs", {}))
    schema["properties"]["rules"] = {**rules, "description": schema["properties"]["rules"].get("description", "")}
    if settings:
        game: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
        for model in settings:
            part = model.model_json_schema(ref_template="#/$defs/{model}")
            defs.update(part.pop("$defs", {}))
            game["properties"].update(part.get("properties", {}))
        schema["properties"]["game"] = {**game, "description": schema["properties"]["game"].get("description", "")}
    return _document(schema, "pack.yaml")


class _KindSchemas:
    """Every kind's JSON Schema, generated once for all the decks of a pack: each kind's $ref, the
    shared $defs and one if/then branch per kind."""

    def __init__(self, every: dict[str, Kind]):
        self.names = sorted(every)
        refs, top = models_json_schema(
            [(every[n].model, "validation") for n in self.names], ref_template="#/$defs/{model}"
        )
        ref = {n: refs[(every[n].model, "validation")]["$ref"] for n in self.names}
        self.by_model = {every[n].model: ref[n] for n in self.names}
        self.defs = top.get("$defs", {})
        sharing: dict[str, list[str]] = {}  # kinds may share one model (token, square_token)
        for name in self.names:
            sharing.setdefault(ref[name].rsplit("/", 1)[-1], []).append(name)
        for model, same in sharing.items():
            self.defs[model].setdefault("properties", {})["kind"] = {
                "enum": same,
                "description": "this entry's own kind",
            }
        self.branches = [
            {"if": {"properties": {"kind": {"const": n}}, "required": ["kind"]}, "then": {"$ref": ref[n]}}
            for n in self.names
        ]


def deck_schema(default: Kind, kinds: _KindSchemas) -> dict[str, Any]:
    """A deck file: a list of components of its kind (or of the kind an entry names with `kind:`)."""
    item = {
        "type": "object",
        "properties": {"kind": {"enum": kinds.names}},
        "allOf": [
            {"if": {"not": {"required": ["kind"]}}, "then": {"$ref": kinds.by_model[default.model]}},
            *kinds.branches,
        ],
    }
    return _document({"type": "array", "items": item, "$defs": kinds.defs}, f"deck of kind {default.name}")


def kind_schema() -> dict[str, Any]:
    """A kind file (kinds/<name>.yaml)."""
    schema = KindFile.model_json_schema()
    rules = _rules_schema()
    schema.setdefault("$defs", {}).update(rules.pop("$defs", {}))
    schema["properties"]["rules"] = {**rules, "description": schema["properties"]["rules"].get("description", "")}
    schema["properties"]["extends"] = {
        "anyOf": [{"enum": sorted(kinds.all_kinds())}, {"type": "string"}],
        "description": schema["properties"]["extends"].get("description", ""),
    }
    return _document(schema, "kind file")


def pack_schemas(pack_dir: Path) -> dict[str, dict[str, Any]]:
    """Every schema of a pack by file name. Needs only pack.yaml and the kind files to be sound (not
    the decks): the schema is what helps mend a broken deck."""
    try:
        raw = load_yaml(pack_dir / "pack.yaml")
    except YamlError as exc:
        raise ContentError([exc.problem]) from None
    base = Loc(rel(pack_dir / "pack.yaml"), 1, 1)
    spec, problems = checked(PackSpec, raw, base, "pack") if isinstance(raw, YMap) else (None, [])
    declared, kind_problems = load_kinds(pack_dir, kinds.all_kinds(), kinds.families())
    problems += kind_problems
    if spec is None or problems:
        raise ContentError(problems or [Problem("pack.shape", "pack.yaml must be a mapping", base)])
    every = {**kinds.all_kinds(), **declared}
    used = [every[d.kind] for d in spec.decks if d.kind in every]
    settings = list({k.family.name: k.family.settings for k in used if k.family.settings is not None}.values())
    out = {PACK_SCHEMA: pack_schema(sorted(every), settings), KIND_SCHEMA: kind_schema()}
    schemas = _KindSchemas(every)
    for deck in spec.decks:
        if deck.kind in every:
            out[f"{deck.id}.schema.json"] = deck_schema(every[deck.kind], schemas)
    return out


def write_schemas(pack_dir: Path) -> list[Path]:
    """Write the pack's schemas into its schema/ folder; returns the files written."""
    written = []
    for name, schema in pack_schemas(pack_dir).items():
        path = pack_dir / SCHEMA_DIR / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(schema, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        written.append(path)
    return written


def modeline(schema_file: str) -> str:
    """The first line that points the YAML language server at a schema (a path relative to the file)."""
    return f"# yaml-language-server: $schema={schema_file}\n"
