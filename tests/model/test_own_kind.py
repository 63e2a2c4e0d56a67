"""A designer's own kind, from the docs alone: a pack written from docs/own-kind.md and
docs/spreadsheets.md in a temporary folder (a declared kind, a CSV deck, an XLSX deck) builds in
Spanish and English; its mistakes are located, with suggestions and rule ids."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_build_fails, edit, line_of, pdf_text, run_cli
from docpack import PACK, doc_files, set_cell, write_doc_pack


@pytest.fixture
def doc_pack(tmp_path: Path) -> Path:
    return write_doc_pack(tmp_path)


def _fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, existing="hechizos.pdf")


def _spells_in_yaml(pack: Path, deck: str) -> None:
    """Give the spells as a YAML deck instead of the docs' spreadsheet."""
    (pack / "decks" / "hechizos.yaml").write_text(deck, encoding="utf-8")
    edit(pack / "pack.yaml", "file: decks/hechizos.xlsx\n    sheet: Hechizos", "file: decks/hechizos.yaml")


def test_the_docs_show_the_kind_file_of_the_issue_and_every_file_of_the_pack() -> None:
    files = doc_files()
    assert {
        "pack.yaml",
        "kinds/hechizo.yaml",
        "kinds/criatura.yaml",
        "templates/hechizo.xml.j2",
        "decks/criaturas.csv",
        "locale/en.po",
    } <= set(files)
    kind = files["kinds/hechizo.yaml"]
    for line in ("extends: card", "summons: {type: ref, deck: criaturas}", "count_field: school", "{unique: name}"):
        assert line in kind


@pytest.mark.slow
def test_a_pack_written_from_the_docs_builds_in_both_languages(doc_pack: Path) -> None:
    project = doc_pack.parents[1]
    res = run_cli("build", PACK, cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    out = project / "output" / PACK
    es, en = pdf_text(out / "es" / "hechizos.pdf"), pdf_text(out / "en" / "hechizos.pdf")
    assert "Bola de fuego" in es and "Inflige 3 de daño" in es
    assert "Fireball" in en and "Deal 3 damage to a creature." in en and "Bola de fuego" not in en
    assert "Shadow Wolf" in pdf_text(out / "en" / "criaturas.pdf")
    assert "Lobo sombrío" in pdf_text(out / "es" / "criaturas.pdf")
    kinds = run_cli("kinds", PACK, cwd=project)
    assert "hechizo" in kinds.stdout and "declared in grimorio-mini" in kinds.stdout


def test_a_misspelt_csv_column_is_located_at_its_cell_with_a_suggestion(doc_pack: Path) -> None:
    edit(doc_pack / "decks" / "criaturas.csv", "id,name,name@en,attack,", "id,name,name@en,atack,")
    _fails(
        doc_pack,
        "content/grimorio-mini/decks/criaturas.csv:1:4",
        "column 'atack' is not a field of kind 'criatura'; did you mean 'attack'?",
        "(spreadsheet.unknown-field)",
    )


def test_a_cost_beyond_its_declared_limit_is_located_with_the_rule(doc_pack: Path) -> None:
    set_cell(doc_pack / "decks" / "hechizos.xlsx", "D2", 11)
    line = line_of(doc_pack / "kinds" / "hechizo.yaml", "cost:")
    _fails(
        doc_pack,
        "content/grimorio-mini/decks/hechizos.xlsx[Hechizos]!D2",
        "must be 10 or less (got 11)",
        f"declared at content/grimorio-mini/kinds/hechizo.yaml:{line}:",
        "(schema.less_than_equal)",
    )


def test_a_cost_beyond_its_limit_in_a_yaml_deck_is_at_its_line(doc_pack: Path) -> None:
    _spells_in_yaml(
        doc_pack,
        "- id: bola-de-fuego\n  name: Bola de fuego\n  cost: 11\n  school: fuego\n  summons: salamandra\n"
        "- id: llamada-oscura\n  name: Llamada oscura\n  school: sombra\n  summons: lobo-sombrio\n",
    )
    _fails(doc_pack, "content/grimorio-mini/decks/hechizos.yaml:3:9", "(got 11)", "(schema.less_than_equal)")


def test_a_summons_naming_no_creature_is_a_broken_ref(doc_pack: Path) -> None:
    set_cell(doc_pack / "decks" / "hechizos.xlsx", "F2", "salamandre")
    _fails(
        doc_pack,
        "content/grimorio-mini/decks/hechizos.xlsx[Hechizos]!F2",
        "summons 'salamandre' is not a component of deck 'criaturas'; did you mean 'salamandra'?",
        "(rule.ref)",
    )


def test_an_unknown_field_in_a_yaml_deck_suggests_the_declared_one(doc_pack: Path) -> None:
    _spells_in_yaml(
        doc_pack,
        "- id: bola-de-fuego\n  name: Bola de fuego\n  cots: 3\n  summons: salamandra\n"
        "- id: otra\n  name: Otra\n  summons: lobo-sombrio\n",
    )
    _fails(doc_pack, "decks/hechizos.yaml:3:9", "unknown field; did you mean 'cost'?")


def test_the_built_in_card_still_refuses_an_undeclared_field(pack_copy) -> None:
    pack = pack_copy("muestras")
    edit(pack / "decks" / "cartas.yaml", "  icon: coin\n", "  icon: coin\n  cost: 3\n")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 1 and "unknown field" in res.stderr and "(schema.extra_forbidden)" in res.stderr


def test_kinds_markdown_documents_a_declared_kind_from_its_file(doc_pack: Path) -> None:
    res = run_cli("kinds", "hechizo", "--markdown", cwd=doc_pack.parents[1])
    assert res.returncode == 0, res.stderr
    md = res.stdout
    for section in ("## Fields", "## Example", "```yaml", "## Template", "## Rules"):
        assert section in md
    assert "| `cost` | whole number | no (0) | ≥0, ≤10 |" in md
    assert "one of `fuego`, `hielo`, `sombra`" in md
    assert "id of a component of deck `criaturas`" in md and "`rule.unique`" in md and "`rule.ref`" in md
    wrong = run_cli("kinds", "hechiso", "--markdown", cwd=doc_pack.parents[1])
    assert wrong.returncode == 2 and "did you mean 'hechizo'?" in wrong.stderr


@pytest.mark.slow
def test_every_declared_kind_of_the_samples_is_documented_drawn_and_built(built) -> None:
    """The meta-test of built-in kinds, for the sample packs' own kinds: generated docs with every
    section and field, templates found, a sample that builds in every language."""
    from conftest import CONTENT

    from mazmorra.kinds.kindfiles import template_exists
    from mazmorra.load import all_packs, load_pack
    from mazmorra.tools.kinddoc import markdown

    seen = 0
    for pack_dir in all_packs(CONTENT):
        pack = load_pack(pack_dir)
        if not pack.declared_kinds:
            continue
        out = built(pack.id)  # `mazmorra build PACK`, shared by the tests reading the unmodified samples
        assert sorted(p.name for p in out.iterdir()) == sorted(pack.spec.languages)
        for kind in pack.declared_kinds.values():
            seen += 1
            md = markdown(kind)
            for section in ("## Fields", "## Example", "## Template", "## Rules"):
                assert section in md, kind.name
            for field in kind.model.model_fields:
                assert f"`{field}`" in md
            for tpl in (kind.template, kind.back_template):
                assert tpl is None or template_exists(pack_dir, tpl)
            decks = [d for d in pack.decks if kind in d.kinds]
            assert decks, f"no deck of {kind.name}"
            for lang in ("es", "en"):
                for deck in decks:
                    assert (out / lang / f"{deck.file_name(lang)}.pdf").is_file()
    assert seen >= 2


def test_kinds_markdown_of_a_sample_kind_needs_no_pack_and_says_its_rules_in_words(tmp_path: Path) -> None:
    """Run from an empty folder: a kind a sample pack declares is found; its rules' conditions and
    bounds are sentences, its limits words (no Python dict, no regular expression)."""
    res = run_cli("kinds", "hechizo", "--markdown", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    md = res.stdout
    assert "Declared in `grimorio/kinds/hechizo.yaml`." in md
    assert "| `rule.required` | `summons` is required when `school` is `sombra` |" in md
    assert "| `name` | text (translated) | yes | max length 32 |" in md
    assert "{'" not in md and "^[" not in md and "matches" not in md


def test_rule_bounds_in_words(tmp_path: Path) -> None:
    from mazmorra.errors import Loc
    from mazmorra.model.declared.spec import parse_rule
    from mazmorra.tools.kinddoc import _rule_text

    def text(raw: dict) -> str:
        rule, problems = parse_rule(raw, Loc("k.yaml", 1, 1), "k")
        assert rule is not None, problems
        return _rule_text(rule)

    assert text({"counts": "school", "min": 2, "max": 5}) == (
        "copies per `school`: at least 2 of every value present; at most 5 of any value"
    )
    assert text({"counts": "school", "values": {"fuego": 8, "hielo": 4}}) == "copies per `school`: 8 `fuego`, 4 `hielo`"
    assert text({"sum": "cost", "per": "school", "max": {"fuego": 20}, "deck": "hechizos"}) == (
        "`cost` added up per deck and per `school` is at most 20 for `fuego` (in deck `hechizos`)"
    )
    assert text({"sum": "cost", "min": 3, "max": "game.budget"}) == (
        "`cost` added up per deck is at least 3 and at most the value of `game.budget` in pack.yaml"
    )
    assert text({"require": "summons", "when": {"school": ["sombra", "fuego"]}}) == (
        "`summons` is required when `school` is one of `sombra`, `fuego`"
    )
    assert text({"require": "flavour", "when": "art"}) == "`flavour` is required when `art` has a value"
