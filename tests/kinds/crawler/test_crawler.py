"""Issue 12, family C: the deck-box crawler (content/cripta) prints completely in both languages, is
checked against its rules (each broken copy has its own located message and rule id and writes
nothing), and its printed geometry holds: marker tracks line up with the edge of the card they slide
under, map tiles read in greyscale, the enemy die folds from a net with its tabs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_build_fails, edit, laid_out, located, need_tool, pdf_text, render_png, run_cli

from mazmorra.contracts import LineOp, PolyOp, RectOp

PACK = "cripta"
TILES, HEROES, ENEMIES, DICE, MARKERS = (
    "decks/losetas.yaml",
    "decks/heroes.yaml",
    "decks/enemigos.yaml",
    "decks/dados.yaml",
    "decks/marcadores.yaml",
)
DECKS = ("losetas", "heroes", "equipo", "habilidades", "objetos", "enemigos", "marcadores", "dados")
EN = dict(zip(DECKS, ("map-tiles", "heroes", "equipment", "skills", "items", "enemies", "markers", "enemy-dice")))


@pytest.fixture(scope="module")
def built(built) -> Path:
    """The unmodified sample's output folder (both languages, A4): conftest's shared build."""
    return built(PACK)


@pytest.mark.slow
def test_every_deck_prints_in_both_languages_with_its_own_words(built: Path) -> None:
    for deck in DECKS:
        assert (built / "es" / f"{deck}.pdf").is_file() and (built / "en" / f"{EN[deck]}.pdf").is_file(), deck
    es = {d: pdf_text(built / "es" / f"{d}.pdf") for d in DECKS}
    en = {d: pdf_text(built / "en" / f"{EN[d]}.pdf") for d in DECKS}  # each deck's English file name
    assert "Atrio de los Cien Faroles" in es["losetas"] and "Hall of a Hundred Lamps" in en["losetas"]
    assert "Cuerpo a cuerpo" in es["equipo"] and "Melee" in en["equipo"]
    assert "Drenar" in es["enemigos"] and "Siphon" in en["enemigos"]  # keywords are translated words
    assert "Botín" in es["marcadores"] and "Loot" in en["marcadores"]
    assert "Corta por las líneas" in es["dados"] and "Cut the solid lines" in en["dados"]
    spanish = ("Cuerpo a cuerpo", "Defensa", "Velocidad", "Marcador", "Botín", "Salud", "Energía", "Drenar", "Atrio")
    for deck, text in en.items():
        leaked = [w for w in spanish if w in text]
        assert not leaked, f"English {deck}.pdf prints Spanish: {leaked}"


# ---------------------------------------------------------------- broken copies


def _fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, existing="losetas.pdf")


def test_an_enemy_with_the_keyword_fly(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(
        pack / ENEMIES,
        "  keywords: [siphon]\n  icon: murcielago-cripta",
        "  keywords: [siphon, fly]\n  icon: murcielago-cripta",
    )
    _fails(
        pack,
        located(pack, ENEMIES, "keywords: [siphon, fly]") + "22: error [murcielago-cripta.keywords.1]",
        "must be one of 'reach', 'crush', 'stun', 'pierce', 'siphon', 'regenerate', 'ritual', 'barrage' or "
        "'heavy' (got 'fly')",
        "(schema.literal_error)",
    )


def test_two_spawn_points_numbered_3_on_one_tile(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / TILES, "      - .4   .1*  .5   ~", "      - .4   .1*  .3   ~")
    _fails(
        pack,
        located(pack, TILES, ".4   .1*  .3   ~") + "19: error [atrio.map]: cell 2,2: spawn 3 is already at cell 1,2",
        "(grid.mark-unique)",
    )


def test_a_spawn_point_on_a_blocked_space(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / TILES, "      - .    .6   .    ~", "      - .    x6   .    ~")
    _fails(
        pack,
        located(pack, TILES, ".    x6   .    ~") + "14: error [atrio.map]: cell 3,1: spawn 6 stands on blocked; "
        "a spawn stands only on floor, water, pit, exit",
        "(grid.mark-on)",
    )


def test_a_map_tile_with_no_connection(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / TILES, 'connection: ["0,1 n", "4,2 s"]\n\n- id: sala-urnas', "connection: []\n\n- id: sala-urnas")
    _fails(
        pack,
        located(pack, TILES, "cells:", after="id: corredor-faroles")
        + "5: error [corredor-faroles.map]: the grid has 0 "
        "connection edges; it needs at least 1",
        "(grid.edge-count)",
    )


RULE_CASES = [
    (
        TILES,
        "      - x    .    .    .\n",
        "      - x    .    .    .7\n",
        (TILES, "x    .    .    .7"),
        "spawn point 7 at cell 4,3 is not on or next to the point of interest (cell 2,1)",
        "map_tile.spawn-far",
    ),
    (
        TILES,
        "      - .    .4   .1*  .5\n",
        "      - .    .4   .1*  .\n",
        (TILES, "cells:", "id: tumba-farolero"),
        "spawn numbers 1, 2, 3, 4, 6, 7, 8 skip 5",
        "map_tile.spawn-gap",
    ),
    (
        TILES,
        "      - .    .3   .1*  .2\n",
        "      - .    .3   .1   .2\n",
        (TILES, "cells:", "id: galeria-nichos"),
        "the tile has 4 spawn points but no point of interest",
        "map_tile.no-poi",
    ),
    (
        TILES,
        'connection: ["2,3 e", "4,2 s"]',
        'connection: ["2,3 e", "2,1 s"]',
        (TILES, 'connection: ["2,3 e", "2,1 s"]'),
        "connection 2,1 s lies between two cells; a connection is on the rim",
        "grid.edge-border",
    ),
    (
        ENEMIES,
        "  threat: hueso\n",
        "  threat: calcio\n",
        (ENEMIES, "threat: calcio"),
        "threat 'calcio' is not one of game.threats",
        "field.setting",
    ),
    (
        ENEMIES,
        "  melee_dice: 1\n  defence: -1",
        "  melee_dice: -1\n  defence: -1",
        (ENEMIES, "melee_dice: -1"),
        "must be 0 or more",
        "schema.greater_than_equal",
    ),
    (
        DICE,
        "faces: [rata-osario, rata-osario,",
        "faces: [rata-osario, rata-osaria,",
        (DICE, "rata-osaria"),
        "face 2 names 'rata-osaria', which is no enemy card of the pack; did you mean 'rata-osario'",
        "enemy_die.face",
    ),
    (
        MARKERS,
        "track: health\n  top: 12",
        "track: health\n  top: 9",
        (HEROES, "health: 10"),  # a shorter track: the hero whose health no longer fits it
        "health 10 is beyond the health track, which runs 0–9",
        "marker.too-short",
    ),
]


@pytest.mark.parametrize(
    ("deck", "old", "new", "where", "message", "rule"), RULE_CASES, ids=[c[-1] for c in RULE_CASES]
)
def test_each_rule_of_the_family_is_located(
    pack_copy, deck: str, old: str, new: str, where: tuple[str, ...], message: str, rule: str
) -> None:
    """Each case: the deck edited, the edit, where the problem is reported (file, line holding…, after
    the line holding…), its message and rule id."""
    pack = pack_copy(PACK)
    edit(pack / deck, old, new)
    _fails(pack, located(pack, *where), message, f"({rule})")


@pytest.mark.slow
def test_a_sealed_space_is_a_warning_that_strict_refuses(pack_copy) -> None:
    pack = pack_copy(PACK)
    edit(pack / TILES, "      - .    .    .    x\n      - .2   .1*", "      - x    x    x    x\n      - .2   .1*")
    project = pack.parents[1]
    res = run_cli("validate", PACK, cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    text = res.stdout + res.stderr
    assert "warning [escalera-rota.map]: 2 open space(s), first at cell 0,0, cannot be reached" in text
    assert "(map_tile.unreachable)" in text
    assert run_cli("validate", PACK, "--strict", cwd=project).returncode == 1


# ---------------------------------------------------------------- printed geometry

CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0
PITCH, BASE = 5.5, 77.0  # templates/marker.xml.j2: rows PITCH mm tall, boundaries at BASE − k·PITCH
INK_MAX = 45  # a track boundary (ink #1e1a17) is darker than anything else on the marker


def _first_card(dpi: int) -> tuple[float, float, float]:
    from mazmorra.render.impose import ImposeOptions, plan

    x, y = plan(ImposeOptions(), CARD_W, CARD_H, BLEED).cell(0)
    return x, y, dpi / 25.4


def _runs(values: list[bool]) -> list[tuple[int, int]]:
    out, start = [], None
    for i, v in enumerate([*values, False]):
        if v and start is None:
            start = i
        elif not v and start is not None:
            out.append((start, i - 1))
            start = None
    return out


@pytest.mark.slow
def test_marker_track_rows_line_up_with_the_edge_they_slide_against(built: Path, tmp_path: Path) -> None:
    """Every row boundary of a printed loot track lies BASE − k·PITCH mm below the marker's top trim
    edge, parallel to it across the whole card, so the covering card's edge always falls on a
    boundary; every number sits wholly inside its row, centred under the middle of the card."""
    need_tool("pdftoppm")
    dpi = 300
    x0, y0, k = _first_card(dpi)
    img = render_png(built / "es" / "marcadores.pdf", 1, dpi, tmp_path).convert("L")
    top = 12
    want = [BASE - i * PITCH for i in range(top + 2)]
    for across in (6.0, 20.0, CARD_W - 14.0):  # left of, between and right of the numbers
        px = round((x0 + across) * k)
        ys = range(round(y0 * k), round((y0 + BASE + 1) * k))
        dark = [img.getpixel((px, y)) < INK_MAX for y in ys]
        found = sorted(((a + b) / 2 + ys.start) / k - y0 for a, b in _runs(dark))
        assert len(found) == len(want), (across, found)
        for got, expected in zip(found, sorted(want)):
            assert abs(got - expected) < 0.12, f"boundary at {got:.2f} mm, expected {expected:.2f} (x={across})"
    # the numbers: dark pixels of the middle column's digits stay inside their rows, centred on w/2
    for v in range(top + 1):
        y_top, y_bot = BASE - (v + 1) * PITCH, BASE - v * PITCH
        box = [
            (x, y)
            for y in range(round((y0 + y_top + 0.4) * k), round((y0 + y_bot - 0.4) * k))
            for x in range(round((x0 + CARD_W / 2 - 8) * k), round((x0 + CARD_W / 2 + 8) * k))
            if img.getpixel((x, y)) < 90
        ]
        assert box, f"no number {v} in its row"
        xs = [p[0] for p in box]
        centre = ((min(xs) + max(xs)) / 2) / k - x0
        assert abs(centre - CARD_W / 2) < 0.8, f"number {v} centred at {centre:.2f} mm"


@pytest.mark.slow
@pytest.mark.parametrize("deck", ["heroes", "equipo", "habilidades"])
def test_the_cards_markers_slide_under_point_at_the_track(built: Path, tmp_path: Path, deck: str) -> None:
    """The hero, equipment and skill cards carry a gold pointer whose tip touches the middle of their
    bottom trim edge: right over the marker's number column."""
    need_tool("pdftoppm")
    dpi = 300
    x0, y0, k = _first_card(dpi)
    img = render_png(built / "es" / f"{deck}.pdf", 1, dpi, tmp_path)

    def gold(y_mm: float) -> list[float]:
        py = round((y0 + y_mm) * k)
        xs = range(round((x0 + 10) * k), round((x0 + CARD_W - 10) * k))
        return [x / k - x0 for x in xs if _is_gold(img.getpixel((x, py)))]

    near_tip = gold(CARD_H - 0.9)
    assert near_tip, "no pointer at the bottom edge"
    assert abs((min(near_tip) + max(near_tip)) / 2 - CARD_W / 2) < 0.15
    assert max(near_tip) - min(near_tip) < 2.0  # a tip, not a band
    assert not gold(CARD_H + 0.6), "the pointer runs past the trim edge into the bleed"


def _is_gold(px: tuple[int, int, int]) -> bool:
    r, g, b = px
    return r > 200 and 160 < g < 225 and b < 80


@pytest.mark.slow
def test_map_tile_terrains_are_told_apart_in_greyscale(pack_copy, tmp_path: Path) -> None:
    """Each terrain, printed in greyscale, differs from every other in its cell's tone, its rim or its
    pattern: floor, water, pit, exit and blocked on one tile."""
    need_tool("pdftoppm")
    pack = pack_copy(PACK)
    text = (pack / TILES).read_text(encoding="utf-8")
    start = text.index("- id: atrio")
    end = text.index("- id: galeria-nichos")
    tile = (
        "- id: atrio\n  number: 1\n  name: Prueba\n  map:\n    cells:\n"
        "      - . ~ o E\n      - x . ~ o\n      - E x . ~\n      - o E x .\n      - . . . .\n"
        '    edges:\n      connection: ["4,0 s"]\n\n'
    )
    (pack / TILES).write_text(text[:start] + tile + text[end:], encoding="utf-8")
    project = pack.parents[1]
    res = run_cli("build", PACK, "--lang", "es", "--portrait", "--out", str(tmp_path / "out"), cwd=project)
    assert res.returncode == 0, res.stdout + res.stderr
    dpi = 200
    x0, y0, k = _first_card(dpi)
    img = render_png(tmp_path / "out" / PACK / "es" / "losetas.pdf", 1, dpi, tmp_path).convert("L")
    cell, gap, gy = 12.6, 0.8, 11.8  # templates/map_tile.xml.j2
    gx = (CARD_W - 4 * cell - 3 * gap) / 2
    where = {
        "floor": [(0, 0), (1, 1), (2, 2)],
        "water": [(0, 1), (1, 2), (2, 3)],
        "pit": [(0, 2), (1, 3), (3, 0)],
        "exit": [(0, 3), (2, 0), (3, 1)],
        "blocked": [(1, 0), (2, 1), (3, 2)],
    }

    def signature(r: int, c: int) -> tuple[float, float, float]:
        """(inner tone, rim tone, inner contrast) of a cell, grey 0–255."""
        x, y = gx + c * (cell + gap), gy + r * (cell + gap)
        inner = [
            img.getpixel((round((x0 + x + u) * k), round((y0 + y + v) * k)))
            for u in _steps(2.5, cell - 2.5, 31)  # finely: white waves on blue vary a lot over a few pixels
            for v in _steps(2.5, cell - 2.5, 31)
        ]
        rim = [img.getpixel((round((x0 + x + u) * k), round((y0 + y + 0.7) * k))) for u in _steps(2, cell - 2)]
        mean = sum(inner) / len(inner)
        spread = (sum((p - mean) ** 2 for p in inner) / len(inner)) ** 0.5
        return mean, sum(rim) / len(rim), spread

    found = {t: [signature(*rc) for rc in cells] for t, cells in where.items()}
    for t, sigs in found.items():  # the same terrain prints the same everywhere
        for s in sigs[1:]:
            assert max(abs(a - b) for a, b in zip(s, sigs[0])) < 6, (t, sigs)
    names = list(found)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            sa, sb = found[a][0], found[b][0]
            assert max(abs(x - y) for x, y in zip(sa, sb)) >= 18, f"{a} {sa} and {b} {sb} look alike in greyscale"


def _steps(a: float, b: float, n: int = 12) -> list[float]:
    return [a + (b - a) * i / (n - 1) for i in range(n)]


def test_the_enemy_die_net_has_six_faces_seven_tabs_and_its_cut_and_fold_lines() -> None:
    """A cross of six faces, seven glue tabs; the five folds between faces and the seven where a tab
    meets its face are dashed, the outline cut solid (the seven free face edges, three edges per tab)."""
    from conftest import CONTENT

    front = next(iter(laid_out(CONTENT / PACK, "dados").values()))[0]
    ops = front.ops
    faces = [o for o in ops if isinstance(o, RectOp) and o.w == 16 and o.h == 16]
    tabs = [o for o in ops if isinstance(o, PolyOp) and o.fill == "#a8a39b"]
    lines = [o for o in ops if isinstance(o, LineOp)]
    folds = [o for o in lines if o.dash]
    cuts = [o for o in lines if not o.dash]
    assert len(faces) == 6 and len(tabs) == 7
    assert len(folds) == 5 + 7 and len(cuts) == 7 + 7 * 3
    assert all(o.stroke_width >= 0.3 for o in cuts) and all(o.stroke_width < 0.3 for o in folds)
    # the faces form a cross: three in the middle row, four in the middle column
    rows = sorted({round(f.y, 2) for f in faces})
    cols = sorted({round(f.x, 2) for f in faces})
    assert len(rows) == 4 and len(cols) == 3


@pytest.mark.slow
def test_new_from_cripta_starts_a_game_of_the_family(tmp_path: Path) -> None:
    import shutil

    from conftest import CONTENT

    shutil.copytree(CONTENT / PACK, tmp_path / "content" / PACK)
    res = run_cli("new", "mi-cripta", "--from", PACK, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    new = tmp_path / "content" / "mi-cripta"
    assert "id: mi-cripta\n" in (new / "pack.yaml").read_text(encoding="utf-8")
    assert (new / "schema" / "losetas.schema.json").is_file() and (new / "locale" / "en.po").is_file()
    res = run_cli("build", "mi-cripta", "--lang", "en", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert (tmp_path / "output" / "mi-cripta" / "en" / "map-tiles.pdf").is_file()  # its English names kept
    res = run_cli("new", "otra", "--from", "cripto", cwd=tmp_path)
    assert res.returncode == 2 and "--from cripto: no such pack; did you mean 'cripta'?" in res.stdout + res.stderr
