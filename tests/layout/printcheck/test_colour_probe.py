"""print.colour-only follows template values: a template is probed once per field with that field set
to each value its deck gives it, and two values drawn alike but for colours that look the same in some
view are reported (layout/printcheck/colourprobe.py). The luck cards' player colour is the case the
sample met: its only cue is the colour unless game.players.*.mark prints beside it."""

from __future__ import annotations

import re

import pytest
from conftest import CONTENT, calls_of, line_of, run_cli

from mazmorra.contracts import Face, RectOp, TextOp
from mazmorra.layout.printcheck.colouronly import ColourOnly
from mazmorra.layout.printcheck.colourprobe import LIMIT, FieldValues, Side, probe
from mazmorra.load import load_pack

RED, BLUE, YELLOW = "#cb4335", "#2e86c1", "#f4d03f"  # the expedition's rojo and azul: one grey; amarillo
PLAYERS = {"rojo": RED, "azul": BLUE, "amarillo": YELLOW}


def _side(marks: dict[str, str] | None = None, name: str = "luck") -> tuple[Side, list[tuple[str, object]]]:
    """A made-up template: a corner in the player's colour (and the player's mark, when given) and the
    number; `laid` records each face laid out."""
    laid: list[tuple[str, object]] = []

    def write(field: str, value: object) -> str:
        card = {"player": "rojo", "number": 1, field: value}
        mark = (marks or {}).get(str(card["player"]), "")
        colour = PLAYERS.get(str(card["player"]), "#888888")
        return f'<card><rect fill="{colour}"/><text>{mark}</text><text>{card["number"]}</text></card>'

    def lay(field: str, value: object) -> Face:
        laid.append((field, value))
        card = {"player": "rojo", "number": 1, field: value}
        mark = (marks or {}).get(str(card["player"]), "")
        ops = (
            RectOp(3, 3, 17, 17, fill=PLAYERS.get(str(card["player"]), "#888888")),
            TextOp(5, 10, mark, "sans", 8, "#1b1b1b"),
            TextOp(30, 40, str(card["number"]), "sans", 10, "#1b1b1b"),
        )
        return Face("c", "front", 63, 88, 3, ops)

    return Side(name, write, lay), laid


def _values(cards: list[dict[str, object]]) -> FieldValues:
    values = FieldValues()
    for card in cards:
        values.add(str(card["id"]), card, {})
    return values


@pytest.fixture(scope="module")
def pack():
    return load_pack(CONTENT / "muestras")  # the smallest sample: the check needs a pack


def _found(pack, sides: list[Side], cards: list[dict[str, object]]) -> list[str]:
    check = ColourOnly("en", pack)
    probe(check, sides, _values(cards), {})
    return [p.message for p in check.found]


CARDS = [
    {"id": "a", "player": "rojo", "number": 1},
    {"id": "b", "player": "rojo", "number": 2},
    {"id": "c", "player": "azul", "number": 1},
    {"id": "d", "player": "azul", "number": 2},
    {"id": "e", "player": "amarillo", "number": 3},
]


def test_two_players_alike_in_grey_are_reported_once_with_their_colours(pack) -> None:
    side, laid = _side()
    found = _found(pack, [side], CARDS)
    assert len(found) == 1, found
    assert "player 'azul' is drawn as player 'rojo' is" in found[0] and "a greyscale print" in found[0]
    assert RED in found[0] and BLUE in found[0]
    # laid out: only the player values (the number changes the writing), each once
    assert sorted(laid) == [("player", "amarillo"), ("player", "azul"), ("player", "rojo")]


def test_a_mark_beside_the_colour_tells_them_apart(pack) -> None:
    side, laid = _side({"rojo": "●", "azul": "▲", "amarillo": "■"})
    assert _found(pack, [side], CARDS) == []
    assert laid == []  # nothing laid out: the writing differs by more than colour


def test_another_side_that_tells_them_apart_is_enough(pack) -> None:
    front, _ = _side(name="token front")
    back, _ = _side({"rojo": "●", "azul": "▲", "amarillo": "■"}, name="token back")
    assert _found(pack, [front, back], CARDS) == []


def test_a_field_that_always_goes_with_the_colour_is_its_cue(pack) -> None:
    """A room pair's number beside its gear's colour: every rojo card has number 1 and every azul
    card number 2, and the number is printed."""
    side, _ = _side()
    paired = [{"id": "a", "player": "rojo", "number": 1}, {"id": "c", "player": "azul", "number": 2}] * 2
    assert _found(pack, [side], paired) == []


def test_only_short_untranslated_choices_are_probed() -> None:
    values = FieldValues()
    for i in range(LIMIT + 1):
        card = {"id": f"c{i}", "player": "rojo" if i % 2 else "azul", "n": i, "name": f"N{i}", "long": "x" * 60}
        values.add(f"c{i}", card, {"name": object()})
    assert set(values.values) == {"player"}  # n: too many values; name: a translated text; long: a text
    assert values.values["player"] == {"azul": "c0", "rojo": "c1"}  # each value's first component
    assert values.cues_between("player", "azul", "rojo") == []  # n varies on both


def _validate(root, pack: str) -> str:
    res = run_cli("validate", pack, cwd=root)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout + res.stderr


@pytest.mark.slow
def test_luck_cards_told_apart_only_by_the_player_colour_are_reported(pack_copy) -> None:
    copy = pack_copy("expedicion")
    text = (copy / "pack.yaml").read_text(encoding="utf-8")
    players = text.index("  players:")
    stripped = text[:players] + re.sub(r', mark: "[^"]*"', "", text[players:], count=4)
    (copy / "pack.yaml").write_text(stripped, encoding="utf-8")  # the cubes keep their marks
    out = _validate(copy.parents[1], "expedicion")
    found = [line for line in out.splitlines() if "print.colour-only" in line]
    row = line_of(copy / "decks" / "suerte.yaml", "suerte-05")
    where = f"content/expedicion/decks/suerte.yaml:{row}:"
    assert any(line.startswith(where) and "[suerte-05.player]" in line for line in found), out
    assert all("player 'azul' is drawn as player 'rojo' is" in line and "greyscale" in line for line in found)
    assert len(found) == 2  # once in each language, not once per card


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cripta", "generada", "grimorio", "muestras", "profundidades"])
def test_the_other_samples_carry_nothing_by_colour_alone(name: str) -> None:
    res = run_cli("validate", name, "--strict")
    assert res.returncode == 0 and "print.colour-only" not in res.stdout + res.stderr, res.stdout + res.stderr


@pytest.mark.slow
def test_a_deck_is_probed_once_per_template_and_field_not_per_card(monkeypatch, tmp_path) -> None:
    """The luck deck's 16 cards: its template is written once per value of each field (plus the cue
    checks), and a face is laid out only for values drawn alike but for colours (none: the marks)."""
    from mazmorra.build.pipeline import BuildOptions, build
    from mazmorra.layout import faces

    written = calls_of(monkeypatch, faces, "probe_xml", lambda ctx, job: job.component)
    laid = calls_of(monkeypatch, faces, "probe_face", lambda ctx, job: job.component)
    opts = BuildOptions(langs=("es",), out_dir=tmp_path, decks=("suerte",))
    build(CONTENT / "expedicion", opts, render=False)
    assert set(written) == {"suerte-01"}  # the deck's first card stands for the template
    assert len(written) == 4 + 4 + 8 + 5  # player, direction, exit, info: each value once
    assert laid == []
