"""Family D's reference edition (seeds/001): each player's card set as the rulebook states it (4 action
cards with a "2 actions" and a "4 actions" card, a "Combat +0" card, 3 jump cards). The sample is the
reference; a copy with one card value changed fails at its line, and `custom` only warns."""

from __future__ import annotations

import pytest
from conftest import assert_build_fails, edit, located, run_cli

PACK = "engranajes"


@pytest.mark.slow
def test_the_sample_states_and_is_the_reference_edition(pack_copy) -> None:
    pack = pack_copy(PACK)
    assert "edition: reference" in (pack / "pack.yaml").read_text(encoding="utf-8")
    res = run_cli("validate", PACK, "--strict", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr


def test_no_combat_plus_0_card_fails(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "combat: [0, 1, 2, 2, 3, 3, 4, 5, 6]", "combat: [1, 1, 2, 2, 3, 3, 4, 5, 6]")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.card_set.combat holds no 0; the reference edition's does",
        "«Cartas de Combate»",
        located(pack, "pack.yaml", "combat: [1, 1,"),
        command="validate",
    )


def test_an_action_card_value_changed_fails(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "action: [2, 3, 4, 5]", "action: [3, 3, 4, 5]")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.card_set.action holds no 2",
        located(pack, "pack.yaml", "action: [3, 3, 4, 5]"),
        command="validate",
    )


def test_five_action_cards_fail(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "action: [2, 3, 4, 5]", "action: [2, 3, 4, 5, 6]")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.card_set.action has 5 entries, the reference edition 4",
        located(pack, "pack.yaml", "action: [2, 3, 4, 5, 6]"),
        command="validate",
    )


def test_two_jump_cards_fail_and_custom_warns(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "jump: 3", "jump: 2")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.card_set.jump is 2, the reference edition 3",
        located(pack, "pack.yaml", "jump: 2"),
        command="validate",
    )
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    res = run_cli("validate", PACK, cwd=pack.parents[1])
    assert "differs from the reference edition: game.card_set.jump is 2" in res.stderr
    assert "warning" in res.stderr


# ---------------------------------------------------------------- character abilities (character_card)

CARDS = "decks/descripciones.yaml"


def test_each_character_ability_prints_in_both_languages_with_its_use() -> None:
    from conftest import CONTENT, laid_out

    from mazmorra.contracts import IconOp, TextOp

    for lang, words, use in (
        ("en", "Adjacent enemy characters", "Permanent"),
        ("es", "Los personajes enemigos", "Permanente"),
    ):
        face = laid_out(CONTENT / PACK, "descripciones", lang)["guardia"][0]
        text = " ".join(op.text for op in face.ops if isinstance(op, TextOp))
        assert words in text and use in text, text
        assert any(isinstance(op, IconOp) and op.name == "permanent" for op in face.ops)
    face = laid_out(CONTENT / PACK, "descripciones", "en")["forzudo"][0]
    assert any(isinstance(op, IconOp) and op.name == "action" for op in face.ops)
    assert "1 action" in " ".join(op.text for op in face.ops if isinstance(op, TextOp))


def test_a_character_card_for_no_character_token(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / CARDS, "  name: Guardia\n", "  name: Vigia\n")
    assert_build_fails(
        pack,
        "(character_card.token)",
        "no character token is named 'Vigia'",
        located(pack, CARDS, "name: Vigia"),
        "character 'Guardia' has no character card: its special ability is described nowhere",
        command="validate",
    )


def test_an_ability_that_is_neither_permanent_nor_an_action(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / CARDS, '  use: permanent\n  ability: "Atraviesa', '  use: pasiva\n  ability: "Atraviesa')
    assert_build_fails(pack, "pasiva", located(pack, CARDS, "use: pasiva"), command="validate")
