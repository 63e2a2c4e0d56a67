"""Issue 12, item 4: two-sided pieces are turned over sideways (like a book's page, the way a player
turns a card or a room), so each back must print so that it reads upright after that turn.

A sheet printed duplex on a portrait page's long edge (or a landscape page's short edge) turns over
about its vertical axis, the same turn: the back prints as it is. A sheet that turns over top to
bottom (short edge of a portrait page, long edge of a landscape one) would show every back upside
down after a sideways turn, so there each back prints turned 180° in its place; the same for
fold-and-glue: a vertical fold line is a sideways turn, a horizontal one is not.

Checked on the rendered pages: a back marked in its top-left corner shows the mark top-left where
the turn is sideways and bottom-right (turned) where it is not; the fronts never turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import need_tool, render_png, run_cli, write_pack

from mazmorra.render.impose import ImposeOptions, impose

PIECE = 40.0  # mm, square: the same box whether turned or not
MARK = 8.0  # mm, the mark's side, 2 mm inside the trim's top-left corner
BLEED = 3.0

PACK = """id: p
name: P
languages: [es]
decks:
  - {id: piezas, kind: pieza, name: Piezas, file: decks/piezas.yaml}
"""
KIND = """name: pieza
size: 40x40mm
template: pieza.xml.j2
two_sided: true
fields:
  name: {type: text, required: true}
"""
TEMPLATE = """<card background="#ffffff">
  {% if side == "back" %}
  <rect x="2" y="2" w="8" h="8" fill="#000000"/>
  {% else %}
  <rect x="16" y="16" w="8" h="8" fill="#0000ff"/>
  {% endif %}
</card>
"""

CASES = [  # build options, the ImposeOptions they mean, whether backs turn
    ((), ImposeOptions(), False),
    (("--duplex", "short"), ImposeOptions(duplex="short"), True),
    (("--landscape",), ImposeOptions(landscape=True), True),
    (("--landscape", "--duplex", "short"), ImposeOptions(landscape=True, duplex="short"), False),
    (("--layout", "fold", "--fold", "vertical"), ImposeOptions(layout="fold", fold="vertical"), False),
    (("--layout", "fold", "--fold", "horizontal"), ImposeOptions(layout="fold", fold="horizontal"), True),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("turn")
    files = {
        "pack.yaml": PACK,
        "kinds/pieza.yaml": KIND,
        "templates/pieza.xml.j2": TEMPLATE,
        "decks/piezas.yaml": "- {id: a, name: A, copies: 3}\n",
    }
    write_pack(root, files)
    return root


@pytest.mark.parametrize(("options", "sheet", "turned"), CASES, ids=[" ".join(c[0]) or "long" for c in CASES])
def test_backs_turn_exactly_where_the_sheet_turns_over_top_to_bottom(
    options: tuple[str, ...], sheet: ImposeOptions, turned: bool
) -> None:
    pages = impose(sheet, [(PIECE, PIECE)] * 3, [True] * 3, BLEED)
    backs = [p for page in pages for p in page.placements if p.side == "back"]
    fronts = [p for page in pages for p in page.placements if p.side == "front"]
    assert len(backs) == 3 and {p.turn for p in backs} == {180 if turned else 0}
    assert {p.turn for p in fronts} == {0}


@pytest.mark.slow
@pytest.mark.parametrize(("options", "sheet", "turned"), CASES, ids=[" ".join(c[0]) or "long" for c in CASES])
def test_the_printed_back_reads_upright_after_a_sideways_turn(
    project: Path, tmp_path: Path, options: tuple[str, ...], sheet: ImposeOptions, turned: bool
) -> None:
    need_tool("pdftoppm")
    out = tmp_path / "out"
    res = run_cli("build", "p", "--out", str(out), *options, cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    pdf = out / "p" / "es" / "piezas.pdf"
    pages = impose(sheet, [(PIECE, PIECE)] * 3, [True] * 3, BLEED)
    dpi = 100
    k = dpi / 25.4
    for n, page in enumerate(pages, 1):
        placed = list(page.placements)
        if not placed:
            continue
        img = render_png(pdf, n, dpi, tmp_path).convert("L")

        def dark(x: float, y: float, img=img) -> bool:
            return int(img.getpixel((round(x * k), round(y * k)))) < 80

        for p in placed:
            tl = dark(p.x + 2 + MARK / 2, p.y + 2 + MARK / 2)  # the middle of the top-left corner's mark
            br = dark(p.x + p.w - 2 - MARK / 2, p.y + p.h - 2 - MARK / 2)
            if p.side == "front":
                assert not tl and not br and dark(p.x + p.w / 2, p.y + p.h / 2), f"page {n}: not a front"
            elif turned:
                assert br and not tl, f"page {n}: the back at ({p.x:.1f}, {p.y:.1f}) is not turned"
            else:
                assert tl and not br, f"page {n}: the back at ({p.x:.1f}, {p.y:.1f}) is turned"
