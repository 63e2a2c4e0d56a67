"""Issue 4: map cards, chips and the starting bag (spec B) on the reusable <grid> element."""

from __future__ import annotations

import subprocess
import xml.sax.saxutils
from pathlib import Path

import pytest
from conftest import (
    assert_build_fails,
    assert_fonts_embedded,
    edit,
    located,
    need_tool,
    pdf_text,
    render_png,
    run_cli,
)

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import CircleOp, IconOp, LineOp, PolyOp, RectOp, TextOp
from mazmorra.errors import Loc
from mazmorra.layout.elements.attrs import FaceContext
from mazmorra.layout.elements.registry import parse_face

PACK = "profundidades"
MAPS = "decks/entradas.yaml"
DEPTHS = "decks/hondonadas.yaml"
CHIPS = "decks/fichas.yaml"
BAG = "decks/bolsa.yaml"


# ---------------------------------------------------------------- the pack builds


@pytest.fixture(scope="module")
def built(built) -> Path:
    """The unmodified sample's output folder (both languages, A4): conftest's shared build."""
    return built(PACK)


@pytest.mark.slow
def test_builds_every_deck_in_both_languages(built: Path) -> None:
    for deck in ("entradas", "hondonadas", "fichas", "bolsas"):
        assert (built / "es" / f"{deck}.pdf").is_file(), deck
    for deck in ("entrance-maps", "depths-maps", "chips", "starting-bag"):  # the decks' English file names
        assert (built / "en" / f"{deck}.pdf").is_file(), deck


@pytest.mark.slow
def test_text_is_in_the_right_language(built: Path) -> None:
    es, en = pdf_text(built / "es" / "entradas.pdf"), pdf_text(built / "en" / "entrance-maps.pdf")
    assert "Cripta del Eco" in es and "Crypt of Echoes" in en
    assert "Entrada" in es and "Entrance" in en and "Entrada" not in en
    es, en = pdf_text(built / "es" / "bolsas.pdf"), pdf_text(built / "en" / "starting-bag.pdf")
    assert "fichas por jugador" in es and "chips per player" in en
    assert "Starting bag" in en


@pytest.mark.slow
def test_fonts_are_embedded_and_subset(built: Path) -> None:
    need_tool("pdffonts")
    for pdf in sorted(built.rglob("*.pdf")):
        assert assert_fonts_embedded(pdf), f"no fonts in {pdf}"


@pytest.mark.slow
def test_qpdf_check_is_clean(built: Path) -> None:
    need_tool("qpdf")
    for pdf in sorted(built.rglob("*.pdf")):
        res = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert res.returncode == 0, res.stdout + res.stderr


# ---------------------------------------------------------------- pixels where the YAML says

# The map card template's pitch (templates/map_card.xml.j2): 88×63 mm cards, six 10.5 mm cells with
# 2.4 mm gaps centred across the card, the top floor of an entrance map at y = 20.9 mm.
CARD_W, CARD_H, BLEED = 88.0, 63.0, 3.0
CELL, GAP, GRID_Y = 10.5, 2.4, 20.9
GRID_X = (CARD_W - 6 * CELL - 5 * GAP) / 2
RING_R = 0.66 * CELL / 2  # ring-scale of map-legend.xml.j2

FLOOR = (0xCB, 0xC2, 0xB1)
RUBBLE_FLOOR = (0x8C, 0x82, 0x75)
RED = (0xC0, 0x39, 0x2B)
WHITE = (0xFF, 0xFF, 0xFF)

FRONT = {"obstacle": (0, 1), "mandatory": (1, 4), "optional": (2, 2)}
BACK = {"obstacle": (2, 5), "mandatory": (0, 0), "optional": (1, 3)}


def _floors(where: dict[str, tuple[int, int]]) -> list[str]:
    rows = [["."] * 6 for _ in range(3)]
    r, c = where["obstacle"]
    rows[r][c] = "x"
    r, c = where["mandatory"]
    rows[r][c] = "monster!"
    r, c = where["optional"]
    rows[r][c] = "chest?"
    return [" ".join(row) for row in rows]


def _side_yaml(where: dict[str, tuple[int, int]]) -> str:
    return "    floors:\n" + "".join(f'      - "{f}"\n' for f in _floors(where))


def _close(px: tuple[int, int, int], want: tuple[int, int, int], tol: int = 28) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px, want))


def _check_map(img, card_x: float, card_y: float, where: dict[str, tuple[int, int]], dpi: int) -> None:
    """Sample the card whose trim starts at (card_x, card_y) mm on the page."""
    k = dpi / 25.4

    def at(x: float, y: float) -> tuple[int, int, int]:
        return img.getpixel((round((card_x + x) * k), round((card_y + y) * k)))

    def centre(r: int, c: int) -> tuple[float, float]:
        return GRID_X + c * (CELL + GAP) + CELL / 2, GRID_Y + r * (CELL + GAP) + CELL / 2

    for r in range(3):
        for c in range(6):
            cx, cy = centre(r, c)
            ring = at(cx + RING_R, cy)  # on the ring of a feature, on bare floor otherwise
            corner = at(cx - CELL / 2 + 1.2, cy - CELL / 2 + 1.2)  # a corner clear of rings, icons and pillars
            if (r, c) == where["obstacle"]:
                assert _close(corner, RUBBLE_FLOOR), f"no rubble at {(r, c)}: {corner}"
            else:
                assert _close(corner, FLOOR), f"cell {(r, c)} is not plain floor: {corner}"
            if (r, c) == where["mandatory"]:
                assert _close(ring, RED, 45), f"no red ring at {(r, c)}: {ring}"
            elif (r, c) == where["optional"]:
                assert _close(ring, WHITE, 20), f"no white ring at {(r, c)}: {ring}"
            elif (r, c) != where["obstacle"]:
                assert _close(ring, FLOOR), f"unexpected mark at {(r, c)}: {ring}"


@pytest.mark.slow
def test_map_card_draws_its_yaml_on_both_sides_mirrored_for_long_edge(pack_copy, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    from mazmorra.render.impose import ImposeOptions, plan

    pack = pack_copy(PACK)
    text = (pack / MAPS).read_text(encoding="utf-8")
    start = text.index("- id: cripta-del-eco")
    end = text.index("- id: pozo-de-farolillos")
    card = (
        "- id: cripta-del-eco\n  variant: entrance\n  name: Cripta del Eco\n"
        "  front:\n" + _side_yaml(FRONT) + "  back:\n" + _side_yaml(BACK) + "\n"
    )
    (pack / MAPS).write_text(text[:start] + card + text[end:], encoding="utf-8")
    project = pack.parents[1]
    res = run_cli("build", PACK, "--lang", "es", cwd=project)
    assert res.returncode == 0, res.stderr
    pdf = project / "output" / PACK / "es" / "entradas.pdf"

    sheet = ImposeOptions()  # A4 portrait, long-edge duplex: what the build used
    grid = plan(sheet, CARD_W, CARD_H, BLEED)
    x, y = grid.cell(0)  # the first card of the deck
    page_w = sheet.size[0]
    dpi = 150
    _check_map(render_png(pdf, 1, dpi, tmp_path), x, y, FRONT, dpi)
    # Its back, on the following page, behind it after flipping on the long edge.
    _check_map(render_png(pdf, 2, dpi, tmp_path), page_w - x - CARD_W, y, BACK, dpi)


# ---------------------------------------------------------------- each rule fails cleanly


def _fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, existing="entradas.pdf")


def test_entrance_map_with_two_floors(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '      - "x . . coin? . ."\n', "")
    _fails(
        pack,
        located(pack, MAPS, '".torch . x . monster:2! ."'),
        "cripta-del-eco",
        "map_card.floors",
        "front:",
        "has 2",
    )


def test_depths_map_with_three_floors(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / DEPTHS,
        '      - "x . . . . sword!"\n',
        '      - "x . . . . sword!"\n      - ". . . . . ."\n',
    )
    # the first card's back side: its problem points at that side's list of floors
    _fails(
        pack,
        located(pack, DEPTHS, '- "', after="  back:"),
        "galeria-de-susurros",
        "map_card.floors",
        "back: a depths map has 2 floors",
        "this side has 3",
    )


def test_floor_of_five_spaces(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '"x potion? . . wand? x"', '"x potion? . wand? x"')
    _fails(
        pack,
        located(pack, MAPS, '"x potion? . wand? x"'),
        "pozo-de-farolillos",
        "map_card.spaces",
        "floor 2 has 5 spaces",
    )


def test_entrance_on_a_depths_map(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / DEPTHS,
        '  front:\n    floors:\n      - "potion? . . x . ."',
        '  front:\n    entrance: 2\n    floors:\n      - "potion? . . x . ."',
    )
    _fails(pack, located(pack, DEPTHS, "entrance: 2"), "cisterna-negra", "map_card.entrance")


def test_feature_that_is_no_chip_face(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '".torch . x . monster:2! ."', '".torch . x . dragon! ."')
    _fails(pack, located(pack, MAPS, "dragon!"), "cripta-del-eco", "map_card.unknown-face", "'dragon'")


def test_feature_icon_known_but_not_on_any_chip(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '".torch . x . monster:2! ."', '".torch . x . campfire? ."')
    _fails(
        pack,
        located(pack, MAPS, "campfire?"),
        "cripta-del-eco",
        "map_card.unknown-face",
        "'campfire' is not a chip face",
    )


def test_unknown_decoration(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '".torch . x . monster:2! ."', '".chandelier . x . monster! ."')
    _fails(pack, located(pack, MAPS, ".chandelier"), "cripta-del-eco", "map_card.unknown-decoration")


def test_unreadable_space(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '"x . . coin? . ."', '"x . . coin# . ."')
    _fails(
        pack,
        located(pack, MAPS, '"x . . coin# . ."'),
        "cripta-del-eco",
        "unknown space 'coin#'",
        "schema.value_error",
    )


def test_chip_face_with_unknown_icon(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / CHIPS,
        "    - {icon: armour}\n    - {icon: wand}",
        "    - {icon: armour}\n    - {icon: staff}",
    )
    _fails(
        pack,
        located(pack, CHIPS, "- {icon: staff}", after="- id: armadura-varita"),  # the face's own line
        "armadura-varita",
        "chip.unknown-icon",
        "'staff'",
    )


def test_two_chips_with_the_same_faces(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / CHIPS,
        "    - {icon: wand}\n    - {icon: bow}",
        "    - {icon: wand}\n    - {icon: armour}",
    )
    _fails(
        pack,
        located(pack, CHIPS, "- {icon: wand}", after="- id: varita-arco"),
        "varita-arco",
        "chip.duplicate",
        "armadura-varita",
    )


def test_bag_total_differs_from_its_chips(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / BAG, "total: 10", "total: 11")
    _fails(pack, located(pack, BAG, "total: 11"), "bolsa-inicial", "bag.total", "add up to 10")


def test_bag_names_a_chip_that_does_not_exist(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / BAG, "{chip: wand/bow, count: 1}", "{chip: wand/sword, count: 1}")
    text = _fails(
        pack,
        located(pack, BAG, "{chip: wand/sword"),
        "bolsa-inicial",
        "bag.unknown-chip",
        "wand/sword",
    )
    assert "bag.total" not in text


def test_bag_lists_a_chip_twice(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / BAG, "{chip: wand/bow, count: 1}", "{chip: chest/sword, count: 1}")
    _fails(pack, located(pack, BAG, "{chip: sword/chest"), "bolsa-inicial", "bag.duplicate")


def test_chip_deck_cannot_fill_every_bag(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / BAG, "{chip: sword/chest, count: 2}", "{chip: sword/chest, count: 3}")
    edit(pack / BAG, "{chip: coin/potion, count: 2}", "{chip: coin/potion, count: 1}")
    _fails(pack, located(pack, BAG, "{chip: sword/chest"), "bolsa-inicial", "bag.supply", "need 12")


@pytest.mark.slow
def test_playable_floor_rule_is_a_warning(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / MAPS, '"x . . coin? . ."', '"x x x coin! x x"')
    project = pack.parents[1]
    res = run_cli("build", PACK, "--lang", "es", cwd=project)
    assert res.returncode == 0, res.stderr
    assert "map_card.playable" in res.stderr and "warning" in res.stderr


# ---------------------------------------------------------------- the <grid> element, as data


def _ops(body: str, grid: str = 'x="10" y="20" rows="2" cols="3" cell="10" gap="2"') -> list:
    ctx = FaceContext("t", "en", IconSet.for_pack(None), None, lambda f: Loc("t.xml"))
    face = parse_face(f"<card><grid {grid}>{body}</grid></card>", ctx, "front", 88, 63, 3, "rect")
    assert not ctx.problems, ctx.problems
    return list(face.ops)


FLOOR_TYPE = '<cell-type name="floor" fill="#cccccc" stroke="#333333" stroke-width="0.2"/>'


def test_grid_default_type_fills_every_cell_row_by_row() -> None:
    ops = _ops(FLOOR_TYPE, 'x="10" y="20" rows="2" cols="3" cell="10" gap="2" default="floor"')
    assert ops == [
        RectOp(10 + c * 12, 20 + r * 12, 10, 10, "#cccccc", "#333333", 0.2) for r in range(2) for c in range(3)
    ]


def test_grid_cells_without_a_default_draw_only_what_is_named() -> None:
    ops = _ops(FLOOR_TYPE + '<cell r="1" c="2" type="floor"/>')
    assert ops == [RectOp(34, 32, 10, 10, "#cccccc", "#333333", 0.2)]


def test_grid_feature_ring_and_icon_inherit_and_override() -> None:
    body = FLOOR_TYPE + (
        '<cell-type name="must" base="floor" ring="#c0392b" ring-width="1" ring-scale="0.8" '
        'icon-scale="0.5"/><cell r="0" c="1" type="must" icon="sword"/>'
    )
    ops = _ops(body)
    assert ops == [
        RectOp(22, 20, 10, 10, "#cccccc", "#333333", 0.2),
        CircleOp(27, 25, 4, None, "#c0392b", 1),
        IconOp("sword", 24.5, 22.5, 5),
    ]


def test_grid_ring_outline_is_drawn_under_the_ring() -> None:
    ops = _ops('<cell r="0" c="0" ring="#ffffff" ring-outline="#000000" ring-width="1"/>')
    assert ops == [
        CircleOp(15, 25, 4, None, "#000000", 1.5),
        CircleOp(15, 25, 4, None, "#ffffff", 1),
    ]


def test_grid_ranges_lists_and_later_cells_merge() -> None:
    body = FLOOR_TYPE + '<cell r="*" c="0-1" type="floor"/><cell r="1" c="0,1" fill="#ff0000"/>'
    rects = [op for op in _ops(body) if isinstance(op, RectOp)]
    assert [(op.x, op.y, op.fill) for op in rects] == [
        (10, 20, "#cccccc"),
        (22, 20, "#cccccc"),
        (10, 32, "#ff0000"),
        (22, 32, "#ff0000"),
    ]
    assert all(op.stroke == "#333333" for op in rects)


def test_grid_span_draws_one_box_over_its_cells() -> None:
    ops = _ops(
        FLOOR_TYPE + '<cell r="0" c="0" type="floor" rowspan="2" colspan="2"/>',
        'x="10" y="20" rows="2" cols="3" cell="10" gap="2" default="floor"',
    )
    rects = [(op.x, op.y, op.w, op.h) for op in ops]
    assert rects == [(10, 20, 22, 22), (34, 20, 10, 10), (34, 32, 10, 10)]


def test_grid_wall_lies_mid_gap_and_reaches_into_the_gaps() -> None:
    ops = _ops(
        '<edge-type name="wall" thickness="1"/><edge r="0" c="0" side="e" type="wall"/>'
        '<edge r="1" c="1" side="n" type="wall"/>'
    )
    assert ops == [
        LineOp(21, 20 - 1.5, 21, 30 + 1.5, "#222222", 1),
        LineOp(22 - 1.5, 31, 32 + 1.5, 31, "#222222", 1),
    ]
    # the south side of (0, 1) is the same boundary as the north side of (1, 1)
    assert _ops('<edge r="0" c="1" side="s" thickness="1"/>') == [ops[1]]


def test_grid_door_gate_and_arrow_shapes() -> None:
    door = _ops('<edge r="0" c="0" side="e" draw="bar" length="0.5" thickness="1" fill="#8e5b2c"/>')
    assert door == [RectOp(20.5, 22.5, 1, 5, "#8e5b2c", "#222222", 0.3)]
    gate = _ops('<edge r="0" c="0" side="s" draw="gate" length="0.6" thickness="1" bars="2"/>')
    assert isinstance(gate[0], RectOp) and gate[0].fill is None
    assert [op.x1 for op in gate[1:]] == pytest.approx([14, 16])
    assert all(isinstance(op, LineOp) and op.y1 < 31 < op.y2 for op in gate[1:])
    out = _ops('<edge r="0" c="0" side="n" draw="arrow" length="0.4" depth="2" fill="#27ae60"/>')
    assert out == [PolyOp(((13, 22), (17, 22), (15, 20)), "#27ae60", None, 0.3)]
    inward = _ops('<edge r="0" c="0" side="n" draw="arrow" length="0.4" depth="2" dir="in"/>')
    assert inward[0].points == ((13, 20), (17, 20), (15, 22))


def test_grid_separators_between_columns_with_outer_ones() -> None:
    ops = _ops(
        '<edge-type name="pillar" draw="icon" icon="pillar" icon-scale="1"/>'
        '<separator type="pillar" between="cols" outer="true" rows="0"/>'
    )
    assert ops == [IconOp("pillar", x - 5, 20, 10) for x in (9, 21, 33, 45)]
    inner = _ops('<separator draw="line" thickness="0.5" between="rows"/>')
    assert [(op.y1, op.x1) for op in inner] == [(31, 10 - 1.25), (31, 22 - 1.25), (31, 34 - 1.25)]


def test_grid_marks_stand_outside_the_grid() -> None:
    ops = _ops(
        '<cell-type name="door" fill="#524a42" icon="entrance" icon-scale="1"/>'
        '<mark side="n" at="mid" size="8" offset="1" type="door"/><mark side="w" at="1" size="4" '
        'arrow="e" arrow-scale="1"/>'
    )
    assert ops[0] == RectOp(23, 11, 8, 8, "#524a42", None, 0.3) and ops[1] == IconOp("entrance", 23, 11, 8)
    assert ops[2] == PolyOp(((9, 37), (5, 39), (5, 35)), "#222222")
    at_col = _ops('<mark side="s" at="2" size="4" fill="#000000"/>')
    assert at_col == [RectOp(37, 43, 4, 4, "#000000", None, 0.3)]  # below the 22 mm high grid


def test_grid_label_is_centred_text() -> None:
    (op,) = _ops('<cell r="0" c="0" label="7" label-size="10"/>')
    assert isinstance(op, TextOp) and op.text == "7" and op.size == 10 and op.font == "sans-bold"
    assert 10 < op.x < 15 < op.y < 30


@pytest.mark.parametrize(
    "body, message",
    [
        ('<cell r="0" c="0" type="lava"/>', "unknown type 'lava'"),
        ('<cell r="2" c="0"/>', "outside 0..1"),
        ('<cell r="0" c="0" colour="#fff"/>', "unknown attribute 'colour'"),
        ('<cell r="0" c="0" icon="dragon"/>', "unknown icon 'dragon'"),
        ('<cell-type name="a" base="b"/><cell-type name="b" base="a"/>', "bases loop"),
        ('<edge r="0" c="0" side="up"/>', "use n, e, s or w"),
        ('<edge r="0" c="0" side="n" draw="zigzag"/>', "draw='zigzag'"),
        ('<circle cx="1" cy="1" r="1"/>', "cannot hold <circle>"),
        ('<cell r="0" c="2" colspan="2"/>', "spans past"),
        ('<cell r="a" c="0"/>', "use a number, a range"),
    ],
)
def test_grid_mistakes_are_reported(body: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _ops(body)


def test_grid_label_from_data_is_text_not_markup() -> None:
    # A label comes from data through Jinja's autoescape: it arrives as text, never as markup.
    label = xml.sax.saxutils.quoteattr("<b>&")
    (op,) = _ops(f'<cell r="0" c="0" label={label}/>')
    assert op.text == "<b>&"
