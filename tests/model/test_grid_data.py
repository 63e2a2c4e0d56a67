"""Grid data in content (issue 12, item 3): a declared grid field with a legend of cells, marks and
edges is parsed into typed data, every mistake is reported at the cell's (or edge's) own YAML line
and column with a grid.* rule id, and the grid_data macro draws it through the template's legend.
Also the other declaration extensions the two new families need: enum values that print a word and
an icon (choice), and enum values that are the keys of a game setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import laid_out, located, run_cli, write_pack

from mazmorra.contracts import LineOp, PolyOp, RectOp, TextOp

PACK = """id: p
name: P
languages: [es, en]
game:
  bandos: {rojo: {}, azul: {}}
decks:
  - {id: salas, kind: sala, name: Salas, file: decks/salas.yaml}
"""
SALA = """name: sala
summary: a room with a map
size: 40x40mm
template: sala.xml.j2
fields:
  name: {type: text, required: true, max: 20}
  bando: {type: enum, values: game.bandos, required: true}
  marca:
    type: enum
    default: alta
    values:
      alta: {label: High, icon: coin}
      baja: {label: Low}
  map:
    type: grid
    required: true
    rows: 3
    cols: 3
    cells:
      floor: {symbol: "."}
      water: {symbol: "~"}
      rock: {symbol: "x"}
      gear: {symbol: "G", count: 1}
    marks:
      spawn: {numbers: [1, 4], unique: true, on: [floor, water]}
      star: {symbol: "*", max: 1}
    edges:
      door: {border: true, min: 1, on: [floor]}
      wall: {border: false}
"""
TEMPLATE = """{% from "grid-data.xml.j2" import grid_data %}
<card background="#ffffff">
  <text role="label" x="3" y="2.8" w="34" h="4" size="6">{{ card.name }} {{ choice("marca", card.marca).label }}</text>
  <grid x="5" y="7" rows="3" cols="3" cell="10">
    <cell-type name="floor" fill="#eeeeee"/>
    <cell-type name="water" fill="#3366cc"/>
    <cell-type name="rock" fill="#222222"/>
    <cell-type name="gear" fill="#cc6600"/>
    <cell-type name="spawn" label-pos="nw" label-size="6"/>
    <cell-type name="star" ring="#aa0000"/>
    <edge-type name="door" draw="arrow" fill="#00aa00"/>
    <edge-type name="wall" thickness="1.5" stroke="#000000"/>
    {{ grid_data(card.map) }}
  </grid>
</card>
"""
SALAS = """- id: uno
  name: Uno
  bando: rojo
  map:
    cells:
      - . .1 x
      - ~ G .2*
      - . . .
    edges:
      door: ["0,0 n", "2,2 s"]
      wall: ["0-1,0 e"]
    spans: []
"""
EN_PO = """msgid ""
msgstr ""
"Language: en\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "pack.name"
msgid "P"
msgstr "P"

msgctxt "deck:salas.name"
msgid "Salas"
msgstr "Rooms"

msgctxt "uno.name"
msgid "Uno"
msgstr "One"
"""
ES_LABELS = """msgid ""
msgstr ""
"Language: es\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "label"
msgid "High"
msgstr "Alta"
"""


def make(tmp_path: Path, **files: str) -> Path:
    base = {
        "pack.yaml": PACK,
        "kinds/sala.yaml": SALA,
        "templates/sala.xml.j2": TEMPLATE,
        "decks/salas.yaml": SALAS,
        "locale/en.po": EN_PO,
        "locale/es.po": ES_LABELS,
        **{k.replace("__", "/").replace("_yaml", ".yaml"): v for k, v in files.items()},
    }
    return write_pack(tmp_path, base)


def problems(pack: Path) -> str:
    res = run_cli("validate", "p", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert "Traceback" not in text and "internal error" not in text, text
    assert res.returncode == 1, text
    return text


def with_map(cells: str, edges: str = 'door: ["0,0 n"]', spans: str = "[]") -> str:
    rows = "".join(f"      - {row}\n" for row in cells.split("/"))
    return (
        "- id: uno\n  name: Uno\n  bando: rojo\n  map:\n    cells:\n"
        + rows
        + f"    edges:\n      {edges}\n    spans: {spans}\n"
    )


def test_the_sound_grid_validates_and_parses_into_typed_data(tmp_path: Path) -> None:
    from mazmorra.load import load_pack
    from mazmorra.model.declared.griddata import GridValue

    pack = make(tmp_path)
    res = run_cli("validate", "p", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    comp = load_pack(pack).components()[0]
    grid = comp.data.map
    assert isinstance(grid, GridValue)
    assert [[c.type for c in row] for row in grid.cells] == [
        ["floor", "floor", "rock"],
        ["water", "gear", "floor"],
        ["floor", "floor", "floor"],
    ]
    assert [(m.type, m.number) for m in grid.cells[1][2].marks] == [("spawn", 2), ("star", None)]
    assert dict(grid.where)["gear"] == ((1, 1),)
    assert [(e.r, e.c, e.side, e.type) for e in grid.edges] == [
        (0, 0, "n", "door"),
        (2, 2, "s", "door"),
        (0, 0, "e", "wall"),
        (1, 0, "e", "wall"),
    ]


# Each broken grid: the rule id, a piece of the message, and the line and column it must point at
# (line 6 is the first row of cells, rows start at column 9; edges stand on line 10).
BROKEN = [
    (". .1 x/~ G .2*/. . q", "grid.cell", "'q' starts with no cell symbol", 8, 13),
    (". .1 x/~ G .2*/. . x?", "grid.mark", "'?' is no mark of the legend", 8, 13),
    (". .5 x/~ G .2*/. . .", "grid.mark", "spawn 5 is outside 1–4", 6, 11),
    (". .1 x/~ G .2*/. x1 .", "grid.mark-on", "spawn 1 stands on rock", 8, 11),
    (". .1 x/~ G .1*/. . .", "grid.mark-unique", "spawn 1 is already at cell 0,1", 7, 13),
    (". .1* x/~ G .2*/. . .", "grid.mark-count", "2 star marks; it takes at most 1", 7, 13),
    (". .1 x/~ G .2*/. . G", "grid.cell-count", "2 gear cells; it takes exactly 1", 8, 13),
    (". .1 x/~ . .2*/. . .", "grid.cell-count", "0 gear cells; it needs exactly 1", 5, 5),  # the map's value
    (". .1 x/~ G .2*", "grid.shape", "the grid has 2 rows; the kind declares 3", 5, 5),
    (". .1 x ./~ G .2*/. . .", "grid.shape", "row 0 has 4 cells; every row has 3", 6, 16),
]


@pytest.mark.parametrize(
    ("cells", "rule", "message", "line", "col"), BROKEN, ids=[b[1] + ":" + b[2][:20] for b in BROKEN]
)
def test_a_broken_cell_is_reported_at_its_own_line_and_column(
    tmp_path: Path, cells: str, rule: str, message: str, line: int, col: int
) -> None:
    text = problems(make(tmp_path, decks__salas_yaml=with_map(cells)))
    want = f"content/p/decks/salas.yaml:{line}:{col}: error [uno.map]"
    hits = [ln for ln in text.splitlines() if f"({rule})" in ln]
    assert hits, text
    assert any(want in ln and message in ln for ln in hits), f"{want} … {message} not in:\n{text}"


EDGES = [
    ('door: ["0,1 n", "1,1 e"]', "grid.edge-border", "door 1,1 e lies between two cells; a door is on the rim"),
    ('door: ["0,2 n"]', "grid.edge-on", "meets cell 0,2, which is rock; a door meets only floor"),
    ('door: ["0,0 n"]\n      wall: ["0,0 w"]', "grid.edge-border", "wall 0,0 w lies on the grid's rim"),
    ('door: ["0,0 n"]\n      wall: ["0,0 e", "0,1 w"]', "grid.edge-twice", "wall 0,1 w: that edge already holds it"),
    ('door: ["0,0 n", "0,0 n"]', "grid.edge-twice", "that edge already holds it"),
    ('door: ["0,0 n"]\n      walls: ["0,0 e"]', "grid.edge", "unknown edge 'walls'; did you mean 'wall'?"),
    ('door: ["0,0 up"]', "grid.edge", "write ROW,COL SIDE such as '1,2 e'"),
    ('door: ["3,0 n"]', "grid.edge", "outside the 3×3 grid"),
    ("door: []", "grid.edge-count", "the grid has 0 door edges; it needs at least 1"),
]


@pytest.mark.parametrize(("edges", "rule", "message"), EDGES, ids=[e[1] + ":" + e[2][:24] for e in EDGES])
def test_a_broken_edge_is_reported_at_its_entry(tmp_path: Path, edges: str, rule: str, message: str) -> None:
    text = problems(make(tmp_path, decks__salas_yaml=with_map(". .1 x/~ G .2*/. . .", edges)))
    hits = [ln for ln in text.splitlines() if f"({rule})" in ln and message in ln]
    assert hits, text
    assert all("content/p/decks/salas.yaml:" in ln and "[uno.map]" in ln for ln in hits), hits
    if rule != "grid.edge-count":
        assert any(":10:" in ln or ":11:" in ln for ln in hits), hits  # the edge entry's own line


@pytest.mark.parametrize(
    ("spans", "message"),
    [
        ('["1,0 1x2"]', "covers cells of different kinds (gear, water)"),
        ('["2,1 2x1"]', "reaches outside the 3×3 grid"),
        ('["2,0 1x2", "2,1 1x2"]', "overlaps another span"),
        ('["2,0 2by2"]', "write ROW,COL ROWSxCOLS"),
    ],
)
def test_a_broken_span_is_reported(tmp_path: Path, spans: str, message: str) -> None:
    pack = make(tmp_path, decks__salas_yaml=with_map(". .1 x/~ G .2*/. . .", spans=spans))
    text = problems(pack)
    at = located(pack, "decks/salas.yaml", "spans:")  # the spans entry's own line
    assert any("(grid.span)" in ln and message in ln and at in ln for ln in text.splitlines()), text


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('gear: {symbol: "G", count: 1}', 'gear: {symbol: "~", count: 1}', "two cells share the symbol '~'"),
        ("on: [floor, water]", "on: [floor, lava]", "on: names 'lava', which is no cell of the legend"),
        ('star: {symbol: "*", max: 1}', "star: {max: 1}", "mark 'star' needs a symbol, numbers, or both"),
        ('gear: {symbol: "G", count: 1}', 'gear: {symbol: "G", count: 1, max: 2}', "give count, or min and max"),
    ],
)
def test_a_broken_legend_is_a_kind_file_problem(tmp_path: Path, old: str, new: str, message: str) -> None:
    pack = make(tmp_path, kinds__sala_yaml=SALA.replace(old, new))
    text = problems(pack)
    at = located(pack, "kinds/sala.yaml", new)  # the faulty entry's own line
    assert any("(kind.grid-legend)" in ln and message in ln and at in ln for ln in text.splitlines()), text


def test_on_is_a_word_not_a_yes(tmp_path: Path) -> None:
    """YAML 1.1 reads `on:` as true: as a mapping key mazmorra keeps the word (the legend's `on:`)."""
    from mazmorra.source.yamlsafe import parse_yaml

    assert list(parse_yaml("on: 1\nno: 2\nyes: 3\n", "t.yaml")) == ["on", "no", "yes"]


def test_a_value_that_is_not_a_key_of_its_game_setting(tmp_path: Path) -> None:
    text = problems(make(tmp_path, decks__salas_yaml=SALAS.replace("bando: rojo", "bando: verde")))
    assert "content/p/decks/salas.yaml:3:10: error [uno.bando]: bando 'verde' is not one of game.bandos" in text
    assert "(its keys: rojo, azul) (field.setting)" in text


def test_an_enum_value_outside_its_words_is_refused(tmp_path: Path) -> None:
    text = problems(make(tmp_path, decks__salas_yaml=SALAS.replace("bando: rojo", "bando: rojo\n  marca: media")))
    assert "salas.yaml:4:10: error [uno.marca]: must be one of 'alta' or 'baja'" in text


def test_a_choice_icon_that_does_not_exist_is_reported_at_the_kind_file(tmp_path: Path) -> None:
    text = problems(make(tmp_path, kinds__sala_yaml=SALA.replace("icon: coin", "icon: coins")))
    assert "content/p/kinds/sala.yaml:9:5: error [kind:sala.marca]: value 'alta' of field 'marca' prints icon" in text
    assert "'coins', which does not exist; did you mean 'coin'" in text and "(field.unknown-icon)" in text


def test_the_word_of_a_choice_is_a_translated_label(tmp_path: Path) -> None:
    """`choice()` prints the value's word in the build's language; a language without it is a
    located i18n.label problem at the kind file's line."""
    from conftest import pdf_text

    pack = make(tmp_path)
    out = tmp_path / "out"
    res = run_cli("build", "p", "--out", str(out), cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Uno Alta" in pdf_text(out / "p/es/salas.pdf")
    assert "One High" in pdf_text(out / "p/en/salas.pdf")
    (pack / "locale/es.po").unlink()
    text = problems(pack)
    assert "kinds/sala.yaml:9:5: error [templates] (es): template label 'High' has no 'es' translation" in text


def test_the_grid_data_macro_draws_cells_marks_and_edges_through_the_template_legend(tmp_path: Path) -> None:
    front = next(iter(laid_out(make(tmp_path), "salas", "es").values()))[0]
    ops = front.ops
    fills = {(round(o.x, 1), round(o.y, 1)): o.fill for o in ops if isinstance(o, RectOp) and o.w == 10}
    assert fills[(5.0, 7.0)] == "#eeeeee" and fills[(25.0, 7.0)] == "#222222"  # floor, rock
    assert fills[(5.0, 17.0)] == "#3366cc" and fills[(15.0, 17.0)] == "#cc6600"  # water, the gear
    assert {o.text for o in ops if isinstance(o, TextOp)} >= {"1", "2"}  # spawn numbers as labels
    arrows = [o for o in ops if isinstance(o, PolyOp) and o.fill == "#00aa00"]
    assert len(arrows) == 2  # two doors
    walls = [o for o in ops if isinstance(o, LineOp) and o.stroke_width == 1.5]
    assert [round(w.x1, 1) for w in walls] == [15.0, 15.0]  # east of column 0, rows 0 and 1
