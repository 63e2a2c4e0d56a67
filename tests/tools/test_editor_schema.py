"""`mazmorra schema` and the validator agree: an independent JSON Schema validator (jsonschema)
accepts every sample deck (spreadsheet decks as the rows they load into), pack.yaml and kind file
against the written schemas, and rejects a deck with a wrong-typed field; `mazmorra new` points its
files at them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
import yaml
from conftest import CONTENT, run_cli
from jsonschema import Draft202012Validator

pytestmark = pytest.mark.slow  # not in the fast tier: every sample file checked against its schema

PACKS = sorted(p.parent.name for p in CONTENT.glob("*/pack.yaml"))


@cache
def _check_schema(text: str) -> None:
    """Draft202012Validator.check_schema, once per distinct schema text (packs share many: the kind
    file's schema, the decks of one kind): checking against the metaschema is the slow part."""
    Draft202012Validator.check_schema(json.loads(text))


def _schemas(pack: Path) -> dict[str, dict]:
    res = run_cli("schema", pack.name, cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    out = {}
    for path in sorted((pack / "schema").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        _check_schema(path.read_text(encoding="utf-8"))  # a well-formed draft 2020-12 schema
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        out[path.name] = schema
    return out


def _rows(pack: Path, deck: dict) -> list:
    """A deck as the editor sees it: the YAML file, or a spreadsheet's rows as they load."""
    path = pack / deck["file"]
    if path.suffix == ".yaml":
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    from mazmorra.load import load_pack
    from mazmorra.load.deckfile import coerced, read_entries

    loaded = load_pack(pack)
    d = loaded.deck(deck["id"])
    entries, problems = read_entries(path, loaded.spec, d.spec.sheet, d.id, lambda n: None, d.kind)
    assert entries and not problems
    return [dict(coerced(e, d.kind)) for e in entries]


def _errors(schema: dict, data: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in Draft202012Validator(schema).iter_errors(data)]


@pytest.mark.parametrize("name", PACKS)
def test_every_sample_deck_pack_and_kind_file_validates_against_its_schema(pack_copy, name: str) -> None:
    pack = pack_copy(name)
    schemas = _schemas(pack)
    spec = yaml.safe_load((pack / "pack.yaml").read_text(encoding="utf-8"))
    assert _errors(schemas["pack.schema.json"], spec) == []
    for deck in spec["decks"]:
        assert _errors(schemas[f"{deck['id']}.schema.json"], _rows(pack, deck)) == [], deck["id"]
    for kind_file in sorted((pack / "kinds").glob("*.yaml")):
        assert _errors(schemas["kind.schema.json"], yaml.safe_load(kind_file.read_text(encoding="utf-8"))) == []


def test_the_schema_rejects_what_the_validator_rejects(pack_copy) -> None:
    pack = pack_copy("muestras")
    schema = _schemas(pack)["cartas.schema.json"]
    deck = yaml.safe_load((pack / "decks" / "cartas.yaml").read_text(encoding="utf-8"))
    wrong = [dict(deck[0], copies="dos")]
    assert any("copies" in e for e in _errors(schema, wrong))
    assert any("cost" in e for e in _errors(schema, [dict(deck[0], cost=3)]))  # an undeclared field
    grim = pack_copy("grimorio")
    spells = _schemas(grim)["hechizos.schema.json"]
    good = {"id": "x", "name": "X", "school": "fuego", "text": "T"}
    assert _errors(spells, [good]) == []
    assert _errors(spells, [dict(good, cost=11)])  # beyond the declared max
    assert _errors(spells, [dict(good, school="agua")])  # not one of the enum's values
    assert _errors(spells, [dict(good, cost="tres")])
    kind_schema = _schemas(grim)["kind.schema.json"]
    assert _errors(kind_schema, {"name": "x", "fields": {"a": {"type": "integer"}}})


def test_the_schema_describes_declared_fields_with_their_limits(pack_copy) -> None:
    spells = _schemas(pack_copy("grimorio"))["hechizos.schema.json"]
    text = json.dumps(spells)
    assert '"maximum": 10' in text and '"fuego"' in text and "coins to cast it" in text


def test_new_writes_schemas_and_points_its_files_at_them(tmp_path: Path) -> None:
    res = run_cli("new", "mi-juego", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    pack = tmp_path / "content" / "mi-juego"
    first = (pack / "pack.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=schema/pack.schema.json"
    deck_line = (pack / "decks" / "cartas.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert deck_line == "# yaml-language-server: $schema=../schema/cartas.schema.json"
    assert (pack / "schema" / "cartas.schema.json").is_file()
    assert run_cli("build", "mi-juego", cwd=tmp_path).returncode == 0
