"""Declared kinds and declarative rules: a mistake in a kind file is located like any content
problem (rule ids kind.*); every rule a kind file or pack.yaml can state reports file:line and its
rule id; declared kinds are real subclasses, so family rules see them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import located, run_cli, write_pack

BASE_PACK = """id: p
name: P
languages: [es]
decks:
  - {id: criaturas, kind: bicho, name: Bichos, file: decks/criaturas.yaml}
  - {id: hechizos, kind: conjuro, name: Conjuros, file: decks/hechizos.yaml}
"""
BICHO = """name: bicho
extends: card
fields:
  attack: {type: int, min: 0, max: 9, default: 1}
  habitat: {type: enum, values: [bosque, cueva]}
"""
CONJURO = """name: conjuro
extends: card
fields:
  cost: {type: int, min: 0, max: 10, default: 0}
  school: {type: enum, values: [fuego, hielo, sombra]}
  slots: {type: int, default: 0}
  summons: {type: ref, deck: criaturas}
count_field: school
rules:
  - {unique: name}
"""
CRIATURAS = "- {id: lobo, name: Lobo, attack: 3, habitat: bosque}\n- {id: rata, name: Rata, habitat: cueva}\n"
HECHIZOS = (
    "- {id: bola, name: Bola, cost: 3, school: fuego, summons: lobo, slots: 2}\n"
    "- {id: nido, name: Nido, cost: 1, school: sombra, summons: rata, slots: 2, copies: 2}\n"
)


def make(tmp_path: Path, files: dict[str, str]) -> Path:
    base = {
        "pack.yaml": BASE_PACK,
        "kinds/bicho.yaml": BICHO,
        "kinds/conjuro.yaml": CONJURO,
        "decks/criaturas.yaml": CRIATURAS,
        "decks/hechizos.yaml": HECHIZOS,
        **files,
    }
    return write_pack(tmp_path, base)


def validate(pack: Path) -> tuple[int, str]:
    res = run_cli("validate", "p", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    return res.returncode, text


def test_a_sound_pack_of_declared_kinds_validates(tmp_path: Path) -> None:
    code, text = validate(make(tmp_path, {}))
    assert code == 0, text


def test_a_declared_kind_is_a_subclass_of_its_base_for_family_rules(tmp_path: Path) -> None:
    from mazmorra.kinds.generic.card import Card
    from mazmorra.load import load_pack

    pack = load_pack(make(tmp_path, {}))
    seen = {comp.id for comp, _ in pack.of(Card)}
    assert seen == {"lobo", "rata", "bola", "nido"}
    kind = pack.declared_kinds["conjuro"]
    assert kind.template == "card.xml.j2" and kind.back_template == "card-back.xml.j2"
    assert kind.translatable == ("name", "text") and kind.count_field == "school"


@pytest.mark.parametrize(
    "file, text, rule, needle, line_with",
    [
        (
            "kinds/bicho.yaml",
            BICHO.replace("extends: card", "extends: carta"),
            "kind.unknown-base",
            "extends unknown kind 'carta'; did you mean 'card'?",
            "extends:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO.replace("type: enum, values: [bosque, cueva]", "type: enum"),
            "kind.field-type",
            "an enum needs `values:`",
            "habitat:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO.replace("type: int, min: 0", "type: integer, min: 0"),
            "schema.literal_error",
            "must be one of 'string', 'text', 'int'",
            "attack:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO.replace("default: 1", "default: 12"),
            "kind.field-default",
            "default 12 is not a valid value",
            "attack:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO.replace("min: 0, max: 9", "min: 9, max: 0"),
            "kind.field-limits",
            "min 9 is larger than max 0",
            "attack:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO.replace("  attack:", "  copies: {type: int}\n  attack:"),
            "kind.field-name",
            "'copies' cannot be a field name",
            "copies:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO.replace("name: bicho", "name: bichos"),
            "kind.name",
            "name the file bichos.yaml",
            "name:",
        ),
        (
            "kinds/bicho.yaml",
            BICHO + "template: bicho.xml.j2\n",
            "kind.template",
            "template 'bicho.xml.j2' is neither in",
            "template:",
        ),
        (
            "kinds/conjuro.yaml",
            CONJURO.replace("count_field: school", "count_field: scool"),
            "kind.count-field",
            "count_field 'scool' is not a field of the kind; did you mean 'school'?",
            "count_field:",
        ),
        (
            "kinds/conjuro.yaml",
            CONJURO.replace("{unique: name}", "{uniq: name}"),
            "rule.unknown",
            "unknown rule 'uniq'; did you mean 'unique'?",
            "uniq",
        ),
        (
            "kinds/conjuro.yaml",
            CONJURO.replace("{unique: name}", "{unique: nmae}"),
            "rule.field",
            "unique rule: no field 'nmae'; did you mean 'name'?",
            "nmae",
        ),
    ],
)
def test_a_kind_file_mistake_is_located(
    tmp_path: Path, file: str, text: str, rule: str, needle: str, line_with: str
) -> None:
    pack = make(tmp_path, {file: text})
    code, out = validate(pack)
    assert code == 1
    assert f"({rule})" in out and needle in out, out
    assert located(pack, file, line_with) in out, out


def test_kinds_that_extend_each_other_in_a_circle(tmp_path: Path) -> None:
    pack = make(
        tmp_path,
        {
            "kinds/bicho.yaml": BICHO.replace("extends: card", "extends: conjuro"),
            "kinds/conjuro.yaml": CONJURO.replace("extends: card", "extends: bicho"),
        },
    )
    code, out = validate(pack)
    assert code == 1 and "in a circle" in out and "(kind.unknown-base)" in out


def test_a_kind_named_like_a_built_in_one_is_refused(tmp_path: Path) -> None:
    pack = make(tmp_path, {"kinds/card.yaml": "name: card\ntemplate: card.xml.j2\n"})
    code, out = validate(pack)
    assert code == 1 and "(kind.name-taken)" in out and "extends: card" in out


def test_an_unknown_deck_kind_suggests_declared_ones(tmp_path: Path) -> None:
    pack = make(tmp_path, {"pack.yaml": BASE_PACK.replace("kind: conjuro", "kind: conjuros")})
    code, out = validate(pack)
    assert code == 1 and "unknown kind 'conjuros'; did you mean 'conjuro'?" in out


def test_a_kind_file_names_a_renamed_family_by_its_former_name(tmp_path: Path) -> None:
    from mazmorra import kinds
    from mazmorra.kinds.kindfiles import load_kinds

    pack = make(tmp_path, {"kinds/bicho.yaml": BICHO + "family: generated\n"})  # dicedungeon's name until 2026-11
    found, problems = load_kinds(pack, kinds.all_kinds(), kinds.families())
    assert problems == [] and found["bicho"].family is kinds.families()["dicedungeon"]


def _rules(tmp_path: Path, rules: str, hechizos: str = HECHIZOS) -> tuple[Path, str]:
    pack = make(tmp_path, {"pack.yaml": BASE_PACK + "rules:\n" + rules, "decks/hechizos.yaml": hechizos})
    code, out = validate(pack)
    assert code == 1, out
    return pack, out


def test_rule_unique_points_at_the_second_use(tmp_path: Path) -> None:
    pack = make(tmp_path, {"decks/hechizos.yaml": HECHIZOS.replace("name: Nido", "name: Bola")})
    code, out = validate(pack)
    at = located(pack, "decks/hechizos.yaml", "id: nido")
    assert code == 1 and at in out and "name 'Bola' is already used by 'bola'" in out
    assert "(rule.unique)" in out


def test_rule_ref_from_a_ref_field(tmp_path: Path) -> None:
    pack = make(tmp_path, {"decks/hechizos.yaml": HECHIZOS.replace("summons: rata", "summons: ratta")})
    code, out = validate(pack)
    assert code == 1 and "summons 'ratta' is not a component of deck 'criaturas'; did you mean 'rata'?" in out
    assert located(pack, "decks/hechizos.yaml", "ratta") in out, out


def test_rule_referenced(tmp_path: Path) -> None:
    pack, out = _rules(
        tmp_path,
        "  - {referenced: criaturas, by: summons}\n",
        HECHIZOS.replace("summons: rata, ", ""),
    )
    assert "'rata' (deck 'criaturas') is named by no component's summons" in out and "(rule.referenced)" in out
    assert located(pack, "decks/criaturas.yaml", "rata") in out
    assert f"(rule at {located(pack, 'pack.yaml', 'referenced')}" in out


def test_rule_counts(tmp_path: Path) -> None:
    pack, out = _rules(tmp_path, "  - {counts: school, values: {fuego: 2, sombra: 2}, deck: hechizos}\n")
    assert "deck 'hechizos': school 'fuego' has 1 copy; the rule wants 2" in out and "(rule.counts)" in out
    assert located(pack, "pack.yaml", "id: hechizos") in out


def test_rule_sum_against_a_game_setting_per_value(tmp_path: Path) -> None:
    pack = make(
        tmp_path,
        {
            "pack.yaml": BASE_PACK + "game:\n  supply: {fuego: 1, sombra: 10}\n"
            "rules:\n  - {sum: slots, per: school, max: game.supply, deck: hechizos}\n",
        },
    )
    code, out = validate(pack)
    assert code == 1
    assert "deck 'hechizos': slots of school 'fuego' adds up to 2; the rule allows at most 1" in out, out
    assert "sombra" not in out.split("(rule.sum)")[0].split("\n")[-1] and "(rule.sum)" in out
    # at the deck's entry, naming the rule's own line
    assert located(pack, "pack.yaml", "id: hechizos") in out
    assert f"(rule at {located(pack, 'pack.yaml', '{sum: slots')}" in out


def test_rule_require_when(tmp_path: Path) -> None:
    pack, out = _rules(
        tmp_path,
        "  - {require: summons, when: {school: fuego}}\n",
        HECHIZOS.replace("school: fuego, summons: lobo", "school: fuego"),
    )
    assert "summons is required when school is 'fuego'" in out and "(rule.required)" in out
    assert located(pack, "decks/hechizos.yaml", "id: bola") in out


def test_a_rule_naming_a_missing_deck_suggests_one(tmp_path: Path) -> None:
    pack, out = _rules(tmp_path, "  - {ref: summons, in: criatura}\n")
    assert "the pack has no deck 'criatura'; did you mean 'criaturas'?" in out and "(rule.deck)" in out
    assert located(pack, "pack.yaml", "{ref: summons") in out  # the rule's own line


def test_declared_icon_and_image_fields_are_checked(tmp_path: Path) -> None:
    pack = make(
        tmp_path,
        {
            "kinds/bicho.yaml": BICHO + "  sigil: {type: icon}\n  art: {type: image}\n",
            "decks/criaturas.yaml": CRIATURAS.replace("habitat: cueva}", "habitat: cueva, sigil: coins, art: x.png}"),
        },
    )
    code, out = validate(pack)
    assert code == 1 and "unknown icon 'coins'; did you mean 'coin'" in out and "(field.unknown-icon)" in out
    assert "image 'x.png' does not exist (field.image)" in out
    at = located(pack, "decks/criaturas.yaml", "id: rata")  # the field's own line and column
    assert f"{at}49: error [rata.sigil]" in out and f"{at}61: error [rata.art]" in out, out


def test_a_translation_longer_than_the_declared_limit(tmp_path: Path) -> None:
    pack = make(
        tmp_path,
        {
            "pack.yaml": BASE_PACK.replace("languages: [es]", "languages: [es, en]"),
            "kinds/bicho.yaml": BICHO + "  motto: {type: text, max: 10}\n",
            "decks/criaturas.yaml": CRIATURAS.replace("habitat: bosque}", "habitat: bosque, motto: Aúlla}"),
        },
    )
    assert run_cli("i18n", "update", "p", cwd=pack.parents[1]).returncode == 0
    po = pack / "locale" / "en.po"
    text = po.read_text(encoding="utf-8").replace(
        'msgid "Aúlla"\nmsgstr ""', 'msgid "Aúlla"\nmsgstr "It howls at the moon"'
    )
    po.write_text(text, encoding="utf-8")
    code, out = validate(pack)
    assert code == 1
    assert "the 'en' text has 20 characters; kind 'bicho' allows 10 (text.too-long)" in out, out
    at = located(pack, "locale/en.po", 'msgstr "It howls')  # the translation's own line
    assert f"{at}1: error [lobo.motto]" in out, out
