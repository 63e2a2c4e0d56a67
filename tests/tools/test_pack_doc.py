"""docs/pack-yaml.md, generated from pack.yaml's schema: current, every key of the schema listed
with a type, a default and an example, and every example accepted by the schema it documents."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mazmorra.model.content import PackSpec
from mazmorra.tools.packdoc import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "pack-yaml.md"


def _schema_keys(schema: dict[str, Any], node: dict[str, Any], prefix: str = "") -> set[str]:
    """Every key path of a JSON Schema, read from the schema pydantic writes (not from packdoc)."""
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].split("/")[-1]]
    out = set()
    for name, prop in node.get("properties", {}).items():
        out.add(prefix + name)
        for option in [prop, *prop.get("anyOf", []), *prop.get("allOf", [])]:
            if "$ref" in option:
                out |= _schema_keys(schema, option, f"{prefix}{name}.")
            elif option.get("type") == "array" and "$ref" in option.get("items", {}):
                out |= _schema_keys(schema, option["items"], f"{prefix}{name}[].")
            elif isinstance(option.get("additionalProperties"), dict):  # a mapping by language (`fonts`)
                for value in [option["additionalProperties"], *option["additionalProperties"].get("anyOf", [])]:
                    if "$ref" in value:
                        out |= _schema_keys(schema, value, f"{prefix}{name}.<lang>.")
    return out


def test_the_page_is_current() -> None:
    assert main([str(DOC), "--check"]) == 0, "run: make pack-doc"


def test_the_page_lists_every_key_the_schema_has() -> None:
    schema = PackSpec.model_json_schema()
    wanted = _schema_keys(schema, schema)
    assert {"id", "decks[].sheet", "print.min_size.body", "print.contrast.marks"} <= wanted  # the walk works
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([^`]+)` \|.*$", DOC.read_text(encoding="utf-8"), re.M)}
    assert wanted == set(rows), f"missing: {wanted - set(rows)}; not in the schema: {set(rows) - wanted}"
    for key, row in rows.items():
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert len(cells) == 5 and all(cells[1:4]), f"{key}: type, default and meaning wanted: {row}"
        assert cells[4], f"{key}: no example (give its Field an `examples=`)"


def test_every_example_is_valid_where_it_stands() -> None:
    """An example that the schema refused would teach a mistake: each is put into a minimal pack.yaml."""
    base: dict[str, Any] = {
        "id": "p",
        "name": "P",
        "decks": [{"id": "d", "kind": "card", "name": "D", "file": "d.yaml"}],
    }
    for name, info in PackSpec.model_fields.items():
        if info.examples:
            PackSpec.model_validate({**base, name: info.examples[0]})
    from mazmorra.model.content import DeckSpec

    for name, info in DeckSpec.model_fields.items():
        assert info.examples, name
        PackSpec.model_validate({**base, "decks": [{**base["decks"][0], name: info.examples[0]}]})
