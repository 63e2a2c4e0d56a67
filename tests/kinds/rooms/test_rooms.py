"""Issue 12, family D: the rotating rooms (content/engranajes) print completely in both languages, are
checked against their rules (each broken copy has its own located message and rule id and writes
nothing), and read as game pieces: walls, portcullises, pits and the gear are told apart without
colour, the starting line lines up with the rooms' squares, tokens and cards show what the rules say."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from conftest import (
    CONTENT,
    assert_build_fails,
    edit,
    laid_out,
    located,
    need_tool,
    pdf_text,
    render_png,
    run_cli,
)

from mazmorra.contracts import CircleOp, Face, IconOp, RectOp, TextOp

PACK = "engranajes"
ROOMS, CHARACTERS, CARDS, LINES = "decks/salas.yaml", "decks/personajes.csv", "decks/cartas.csv", "decks/lineas.yaml"
DECKS = ("salas", "lineas", "personajes", "objetos", "cartas")
EN = dict(zip(DECKS, ("rooms", "starting-lines", "characters", "items", "player-cards")))  # their English file names


@pytest.fixture(scope="module")
def built(built) -> Path:
    """The unmodified sample's output folder (both languages, A4): conftest's shared build."""
    return built(PACK)


@pytest.mark.slow
def test_every_deck_prints_in_both_languages_with_its_own_words(built: Path) -> None:
    es = {d: pdf_text(built / "es" / f"{d}.pdf") for d in DECKS}
    en = {d: pdf_text(built / "en" / f"{EN[d]}.pdf") for d in DECKS}
    lines_es, lines_en = (" ".join(t["lineas"].split()) for t in (es, en))  # the label may take two lines
    assert "Línea de salida" in lines_es and "Starting line" in lines_en
    assert "Relojera" in es["personajes"] and "Tinker" in en["personajes"]
    assert "Combate" in es["cartas"] and "Combat" in en["cartas"] and "Jump" in en["cartas"]
    flowing = " ".join(en["cartas"].split())  # lines may break anywhere in the phrase
    assert flowing.count("Always returns to your hand") == 4  # the +0 card of each colour
    items = " ".join(en["objetos"].split())
    assert "Cruza" not in items and "over pit traps." in items and "Crank" in items
    spanish = ("Acción", "acciones", "Combate", "Salto", "Línea de salida", "Relojera", "Forzudo", "Herido", "Cuerda")
    for deck, text in en.items():
        leaked = [w for w in spanish if w in text]
        assert not leaked, f"English {deck}.pdf prints Spanish: {leaked}"


# ---------------------------------------------------------------- broken copies


def _fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, existing="salas.pdf")


def test_a_room_with_two_gears(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / ROOMS,
        '      - . . . o .\n      - . . . . .\n    edges:\n      wall: ["0-1,1 e"',
        '      - . . . G .\n      - . . . . .\n    edges:\n      wall: ["0-1,1 e"',
    )
    _fails(
        pack,
        located(pack, ROOMS, "- . . . G .")
        + "15: error [sala-pendulo.map]: the grid has 2 gear cells; it takes exactly 1",
        "(grid.cell-count)",
    )


def test_a_room_whose_pair_turns_the_same_way(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / ROOMS, "  turn: ccw", "  turn: cw")  # sala-resorte, the second room of pair 1
    _fails(
        pack,
        located(pack, ROOMS, "turn: cw", after="id: sala-resorte") + "9: error [sala-resorte.turn]: it turns clockwise "
        "like its pair 'sala-pendulo' (number 1); the two rooms of a pair turn in opposite directions",
        "(room.pair-turn)",
    )


def test_a_room_with_no_pair(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / ROOMS, "- id: sala-biela\n  number: 4", "- id: sala-biela\n  number: 5")
    _fails(
        pack,
        located(pack, ROOMS, "number: 5")
        + "11: error [sala-biela.number]: no other room has number 5: it has no pair; "
        "rooms come in pairs, two rooms to a number",
        "(room.pair)",
        "error [sala-trinquete.number]: no other room has number 4",
    )


def test_a_player_colour_missing_a_jump_card(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / CARDS, "salto-jade,jump,jade,,3", "salto-jade,jump,jade,,2")
    _fails(
        pack,
        located(pack, CARDS, "salto-jade") + "3: error [salto-jade.colour]: player colour "
        "'jade' has 2 jump cards; game.card_set gives every colour 3 jump cards",
        "(player_card.set)",
    )


def test_a_character_token_with_no_speed(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / CHARACTERS, "relojera-cobre,Relojera,cobre,4,1", "relojera-cobre,Relojera,cobre,,1")
    _fails(
        pack,
        f"content/{PACK}/{CHARACTERS}:2:1: error [relojera-cobre.speed]: required field is missing",
        "(schema.missing)",
    )


ROOM_CASES = [
    (
        ROOMS,
        'wall: ["0-1,1 e", "3,0-1 n", "3-4,3 w", "1,3-4 s"]',
        'wall: ["0-1,1 e", "3,0-1 n", "3-4,3 w", "1,3-4 s", "2,1 w"]',
        'open: ["2,0 e"]',
        "open 2,0 e: that edge already holds a wall (wall 2,1 w); an edge holds one feature",
        "grid.edge-twice",
    ),
    (
        ROOMS,
        'gear_colour: "#d35400"\n  turn: ccw',
        'gear_colour: "#d35401"\n  turn: ccw',
        "#d35401",
        "its gear is #d35401 but its pair 'sala-pendulo' (number 1) has #d35400",
        "room.pair-colour",
    ),
    (
        ROOMS,
        '      closed: ["2,3 e"]',
        '      closed: ["2,3 e", "9,9 e"]',
        '"9,9 e"',
        "closed '9,9 e' is outside the 5×5 grid",
        "grid.edge",
    ),
    (
        LINES,
        "- {id: linea-grana, colour: grana}\n",
        "- {id: linea-grana, colour: jade}\n",
        "linea-jade",
        "player colour 'jade' has 2 starting lines; each colour has one",
        "start_line.colour",
    ),
    (
        CHARACTERS,
        "guardia-grana,Guardia,grana,3,3",
        "guardia-grana,Guardia,granate,3,3",
        "guardia-grana",
        "colour 'granate' is not one of game.players; did you mean 'grana'?",
        "field.setting",
    ),
    (
        CHARACTERS,
        "forzudo-anil,Forzudo,anil,3,4",
        "forzudo-anil,Forzudo,anil,3,12",
        "forzudo-anil",
        "must be 9 or less",
        "schema.less_than_equal",
    ),
]


@pytest.mark.parametrize(
    ("deck", "old", "new", "where", "message", "rule"), ROOM_CASES, ids=[c[-1] for c in ROOM_CASES]
)
def test_each_rule_of_the_family_is_located(
    pack_copy, deck: str, old: str, new: str, where: str, message: str, rule: str
) -> None:
    pack = pack_copy(PACK)
    edit(pack / deck, old, new)
    _fails(pack, located(pack, deck, where), message, f"({rule})")


# ---------------------------------------------------------------- read as game pieces

ROOM, BLEED = 90.0, 3.0
CELL, MARGIN = 17.6, 1.0  # templates/rooms-ui.j2


def _steps(a: float, b: float, n: int = 40) -> list[float]:
    return [a + (b - a) * i / (n - 1) for i in range(n)]


@pytest.mark.slow
def test_walls_portcullises_pits_and_the_gear_are_told_apart_in_greyscale(built: Path, tmp_path: Path) -> None:
    """The first room (sala-pendulo), printed and turned grey: a wall is a dark line all along its
    edge, a closed portcullis a mid-grey bar, an open one a dashed outline over floor, a plain edge
    floor; a pit is near black, the gear a light disc with a dark arrow and number."""
    need_tool("pdftoppm")
    from mazmorra.render.impose import ImposeOptions, plan

    dpi = 200
    k = dpi / 25.4
    x0, y0 = plan(ImposeOptions(), ROOM, ROOM, BLEED).cell(0)
    img = render_png(built / "es" / "salas.pdf", 1, dpi, tmp_path).convert("L")

    def px(x: float, y: float) -> int:
        return int(img.getpixel((round((x0 + x) * k), round((y0 + y) * k))))

    def along_vertical(col_edge: int, row: int, offset: float) -> list[int]:
        """Grey values along the boundary left of column col_edge, in one row, `offset` mm to its right."""
        x = MARGIN + col_edge * CELL + offset
        return [px(x, y) for y in _steps(MARGIN + row * CELL + 3, MARGIN + (row + 1) * CELL - 3)]

    def transitions(values: list[int]) -> int:
        marks = [v < 110 for v in values if v < 110 or v > 150]
        return sum(a != b for a, b in pairwise(marks))

    def mean(values: list[int]) -> float:
        return sum(values) / len(values)

    wall = along_vertical(2, 0, 0.25)  # "0-1,1 e": east of column 1
    closed = along_vertical(4, 2, 0.25)  # "2,3 e"
    open_ = along_vertical(1, 2, 0.25)  # "2,0 e"
    plain = along_vertical(1, 0, 0.25)  # between (0,0) and (0,1): nothing there
    assert mean(wall) < 60 and max(wall) < 90, wall
    assert 70 < mean(closed) < 140 and transitions(along_vertical(4, 2, 0.65)) == 0, closed
    assert mean(open_) > 140 and transitions(along_vertical(1, 2, 0.65)) >= 6, along_vertical(1, 2, 0.65)
    assert mean(plain) > 160 and transitions(along_vertical(1, 0, 0.65)) == 0, plain

    def cell(r: int, c: int) -> list[int]:
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        return [px(x + u, y + v) for u in _steps(3, CELL - 3, 12) for v in _steps(3, CELL - 3, 12)]

    floor, pit, gear = cell(0, 0), cell(1, 1), cell(2, 2)
    assert mean(floor) > 160 and max(floor) - min(floor) < 30, "floor is one light tone"
    assert mean(pit) < 70, "a pit prints near black"
    assert max(gear) > 220 and min(gear) < 60, "the gear: a light disc with a dark arrow and number"
    corner = px(MARGIN + 2 * CELL + 1.2, MARGIN + 2 * CELL + 1.2)
    assert 60 < corner < 160 and abs(corner - mean(floor)) > 40, "the gear square's colour is not floor"


def _faces(deck: str, lang: str = "en") -> dict[str, list[Face]]:
    return laid_out(CONTENT / PACK, deck, lang)


def test_the_starting_line_lines_up_with_two_rooms_side_by_side() -> None:
    """The ten squares of a starting line stand where the squares of two rooms laid side by side
    stand (each room 90 mm with its own margin), so a character steps straight in."""
    line = _faces("lineas")["linea-cobre"][0]
    squares = sorted(o.x + o.w / 2 for o in line.ops if isinstance(o, RectOp) and o.h > 15)
    room = _faces("salas")["sala-pendulo"][0]
    xs = sorted({round(o.x + o.w / 2, 3) for o in room.ops if isinstance(o, RectOp) and round(o.w, 2) == CELL})
    assert len(xs) == 5
    want = [*xs, *(x + ROOM for x in xs)]
    assert len(squares) == 10 and all(abs(a - b) < 1e-6 for a, b in zip(squares, want)), (squares, want)


def test_a_character_shows_speed_in_white_and_combat_in_black_and_lies_wounded_on_its_back() -> None:
    front, back = _faces("personajes")["forzudo-anil"]
    texts = {o.text: o.color for o in front.ops if isinstance(o, TextOp)}
    assert texts["3"] == "#ffffff" and texts["4"] == "#1b1512"  # speed 3 white, combat 4 black, one face
    assert "Brawler" in texts
    assert any(isinstance(o, IconOp) and o.name == "wound" for o in back.ops)
    assert not any(isinstance(o, TextOp) and o.text in ("3", "4") for o in back.ops)


def test_permanent_and_single_use_items_are_drawn_differently() -> None:
    faces = _faces("objetos")
    permanent, single = faces["cuerda"][0], faces["manivela"][0]
    rings = [o for o in permanent.ops if isinstance(o, CircleOp) and o.fill is None and o.stroke_width >= 0.9]
    dots = [o for o in single.ops if isinstance(o, CircleOp) and o.fill is not None and o.r < 1]
    assert len(rings) == 1 and len(dots) >= 16
    assert any(isinstance(o, IconOp) and o.name == "single-use" for o in single.ops)
    assert not any(isinstance(o, IconOp) and o.name == "single-use" for o in permanent.ops)


@pytest.mark.slow
def test_new_from_engranajes_starts_a_game_of_the_family(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(CONTENT / PACK, tmp_path / "content" / PACK)
    res = run_cli("new", "mi-laberinto", "--from", PACK, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    res = run_cli("validate", "mi-laberinto", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
