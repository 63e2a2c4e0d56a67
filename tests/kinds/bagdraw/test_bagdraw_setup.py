"""Family B's setup against the number of players and its reference edition (seeds/000, «Fase 1:
Mazmorra»): broken copies of content/profundidades fail with the rule id at the faulty line."""

from __future__ import annotations

import pytest
from conftest import assert_build_fails, edit, located, run_cli

PACK = "profundidades"
ENTRANCES, DEPTHS, BAG = "decks/entradas.yaml", "decks/hondonadas.yaml", "decks/bolsa.yaml"


@pytest.mark.slow
def test_the_sample_states_and_is_the_reference_edition(pack_copy) -> None:
    pack = pack_copy(PACK)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    assert "edition: reference" in text and "players: 4" in text
    res = run_cli("validate", PACK, "--strict", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr


def test_more_players_than_entrance_maps(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "  players: 4", "  players: 7")
    edit(pack / BAG, "  players: 4", "  players: 7")
    edit(pack / BAG, "  copies: 4", "  copies: 7")
    assert_build_fails(
        pack,
        "(map_card.entrances)",
        "6 entrance map(s) for 7 players (game.players): each player starts on their own",
        located(pack, "pack.yaml", "size: 6"),
        command="validate",
    )


def test_a_bag_made_for_another_player_count(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / BAG, "  players: 4", "  players: 3")
    assert_build_fails(
        pack,
        "(bag.players)",
        "the bag is made for 3 player(s); game.players is 4",
        located(pack, BAG, "  players: 3"),
        command="validate",
    )


def test_an_entrance_map_in_the_depths_pile(pack_copy) -> None:
    pack = pack_copy(PACK)
    text = (pack / DEPTHS).read_text(encoding="utf-8")
    first = text.index("  variant: depths")
    (pack / DEPTHS).write_text(
        text[:first] + "  variant: entrance" + text[first + len("  variant: depths") :], encoding="utf-8"
    )
    edit(pack / "pack.yaml", "counts: {depths: 8}", "counts: {depths: 7, entrance: 1}")
    assert_build_fails(
        pack,
        "(map_card.pile)",
        "an entrance map in deck 'hondonadas', the depths pile",
        located(pack, DEPTHS, "variant: entrance"),
        command="validate",
    )


def test_a_reference_copy_with_four_floor_entrances_fails_and_custom_warns(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "  players: 4", "  players: 4\n  floors: {entrance: 4}")
    assert_build_fails(
        pack,
        "(edition.game)",
        "game.floors.entrance is 4, the reference edition 3",
        "«Anatomía de una Mazmorra» 3",
        located(pack, "pack.yaml", "floors: {entrance: 4}"),
        command="validate",
    )
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    res = run_cli("validate", PACK, cwd=pack.parents[1])
    assert "differs from the reference edition: game.floors.entrance is 4" in res.stderr
    assert "(map_card.floors)" in res.stderr  # the maps, drawn with 3 floors, now have one too few


def test_depths_maps_of_the_rulebook_two_floors(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / "pack.yaml", "  players: 4", "  players: 4\n  floors: {depths: 3}")
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    res = run_cli("validate", PACK, cwd=pack.parents[1])
    assert res.returncode == 1
    assert "(map_card.floors)" in res.stderr and "a depths map has 3 floors on each side; this side has 2" in res.stderr


@pytest.mark.slow
def test_a_numbered_chip_face_as_a_map_feature_is_printed_beside_its_icon() -> None:
    from conftest import CONTENT, laid_out

    from mazmorra.contracts import IconOp, TextOp

    faces = laid_out(CONTENT / PACK, "entradas")["cripta-del-eco"]
    front = faces[0]
    icons = [op for op in front.ops if isinstance(op, IconOp) and op.name == "monster"]
    twos = [op for op in front.ops if isinstance(op, TextOp) and op.text == "2"]
    assert icons and twos, "the monster:2 feature prints its icon and its number"
    icon, two = icons[0], twos[0]
    assert icon.x < two.x < icon.x + 12 and icon.y < two.y < icon.y + 12  # beside it, in the same space


def test_a_numbered_feature_no_chip_shows(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / ENTRANCES, '".torch . x . monster:2! ."', '".torch . x . monster:5! ."')
    assert_build_fails(
        pack,
        "(map_card.unknown-face)",
        "front: floor 1, space 5: 'monster:5' is not a chip face",
        located(pack, ENTRANCES, "monster:5!"),
        command="validate",
    )


def test_each_player_has_a_hero_figure_printed_in_both_languages() -> None:
    from conftest import CONTENT, laid_out

    from mazmorra.contracts import IconOp, TextOp

    for lang, name, fold in (("es", "Ámbar", "Dóblala"), ("en", "Amber", "Fold to stand")):
        face = laid_out(CONTENT / PACK, "figuras", lang)["figura-ambar"][0]
        text = " ".join(op.text for op in face.ops if isinstance(op, TextOp))
        assert name in text and fold in text, text
        assert any(isinstance(op, IconOp) and op.name == "figura-ambar" and op.size >= 12 for op in face.ops)  # its own


def test_fewer_hero_figures_than_players(pack_copy) -> None:
    pack = pack_copy(PACK)
    text = (pack / "decks/figuras.yaml").read_text(encoding="utf-8")
    (pack / "decks/figuras.yaml").write_text(text.split("- {id: figura-grana")[0], encoding="utf-8")
    edit(pack / "pack.yaml", "    file: decks/figuras.yaml\n    size: 4", "    file: decks/figuras.yaml\n    size: 3")
    assert_build_fails(
        pack,
        "(hero_figure.players)",
        "3 hero figure(s) for 4 players (game.players): each player marks their floor with one",
        located(pack, "pack.yaml", "size: 3", after="id: figuras"),
        command="validate",
    )
