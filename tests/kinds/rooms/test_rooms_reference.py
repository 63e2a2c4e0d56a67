"""Family D's reference edition (seeds/001): each player's card set as the rulebook states it (4 action
cards with a "2 actions" and a "4 actions" card, a "Combat +0" card, 3 jump cards). The sample is the
reference; a copy with one card value changed fails at its line, and `custom` only warns."""

from __future__ import annotations

from conftest import assert_build_fails, edit, located, run_cli

PACK = "engranajes"


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
