"""Family C's setup counted against the number of players and the item market, and its reference
edition (seeds/003, «Configuración»): broken copies of content/cripta fail with the rule id at the
faulty line."""

from __future__ import annotations

import pytest
from conftest import assert_build_fails, edit, located, run_cli

PACK = "cripta"


@pytest.mark.slow
def test_the_sample_states_and_is_the_reference_edition(pack_copy) -> None:
    pack = pack_copy(PACK)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    assert "edition: reference" in text and "players: 4" in text
    res = run_cli("validate", PACK, "--strict", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr


def test_more_players_than_heroes(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "  players: 4 ", "  players: 5 ")
    text = assert_build_fails(
        pack,
        "(hero.players)",
        "4 hero card(s) for 5 players (game.players): each player takes one",
        located(pack, "pack.yaml", "size: 4", after="id: heroes"),
        command="validate",
    )
    assert "(marker.players)" in text and "4 loot marker(s) for 5 players" in text


def test_a_track_short_of_a_marker(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / "decks/marcadores.yaml",
        "  track: health\n  top: 12\n  copies: 4",
        "  track: health\n  top: 12\n  copies: 3",
    )
    edit(pack / "pack.yaml", "counts: {loot: 4, health: 4, energy: 4}", "counts: {loot: 4, health: 3, energy: 4}")
    edit(pack / "pack.yaml", "    size: 12\n    counts: {loot", "    size: 11\n    counts: {loot")
    assert_build_fails(
        pack,
        "(marker.players)",
        "3 health marker(s) for 4 players",
        located(pack, "decks/marcadores.yaml", "copies: 3"),
        "[salud.copies]",
        command="validate",
    )


def test_too_few_skills_for_the_heroes(pack_copy) -> None:
    pack = pack_copy(PACK)
    deck = pack / "decks/habilidades.yaml"
    text = deck.read_text(encoding="utf-8")
    starts = [i for i in range(len(text)) if text.startswith("\n- id:", i)]
    deck.write_text(text[: starts[3] + 1], encoding="utf-8")  # the first three skills
    edit(
        pack / "pack.yaml",
        "    file: decks/habilidades.yaml\n    size: 12",
        "    file: decks/habilidades.yaml\n    size: 3",
    )
    text = assert_build_fails(
        pack,
        "(skill.players)",
        "3 skill card(s) for 4 players (game.players): each player takes one",
        located(pack, "pack.yaml", "size: 3", after="id: habilidades"),
        command="validate",
    )
    assert "(hero.players)" not in text and "(equipment.players)" not in text


def test_an_item_deck_the_market_empties(pack_copy) -> None:
    pack = pack_copy(PACK)
    lines = (pack / "decks/objetos.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (pack / "decks/objetos.csv").write_text("".join(lines[:4]), encoding="utf-8")
    edit(pack / "pack.yaml", "    file: decks/objetos.csv\n    size: 12", "    file: decks/objetos.csv\n    size: 3")
    assert_build_fails(
        pack,
        "(item.market)",
        "3 item card(s): the market turns 3 face up and refills from the deck, so it needs more than 3",
        located(pack, "pack.yaml", "size: 3", after="id: objetos"),
        command="validate",
    )


@pytest.mark.slow
def test_a_reference_copy_with_a_market_of_four_fails_and_custom_warns(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "  players: 4 ", "  market: 4\n  players: 4 ")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.market is 4, the reference edition 3",
        "«Configuración» 4",
        located(pack, "pack.yaml", "market: 4"),
        command="validate",
    )
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    res = run_cli("validate", PACK, cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    assert "differs from the reference edition: game.market is 4" in res.stderr


def test_red_enemies_print_their_stun_immunity_in_both_languages() -> None:
    from conftest import CONTENT, laid_out

    from mazmorra.contracts import TextOp

    for lang, words in (("en", "Immune to stun"), ("es", "Inmune a aturdir")):
        faces = laid_out(CONTENT / PACK, "enemigos", lang)
        said = {cid: " ".join(op.text for op in f[0].ops if isinstance(op, TextOp)) for cid, f in faces.items()}
        assert words.split()[0] in said["coloso-osamenta"] and words.split()[-1] in said["coloso-osamenta"], said
        assert words.split()[0] not in said["rata-osario"]  # a bone-white threat: stun works on it


@pytest.mark.slow
def test_a_red_threat_not_immune_to_stun_warns_at_its_line(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "rank: 4, stun_immune: true}", "rank: 4}")
    res = run_cli("validate", PACK, cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr  # a warning: fatal only with --strict
    for needle in (
        "(game.stun-immune)",
        "warning",
        "game.threats.brasa is red (#b8322a): the rulebook's red enemies are immune to stun",
        located(pack, "pack.yaml", "brasa: {colour:"),
    ):
        assert needle in res.stderr, res.stderr
    res = run_cli("validate", PACK, "--strict", cwd=pack.parents[1])
    assert res.returncode == 1
