"""Issue 3: the Expedition's zone tiles, two-sided cards and tokens build, and every rule catches its break."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from conftest import (
    CONTENT,
    REPO,
    assert_build_fails,
    component_line,
    edit,
    located,
    located_in,
    need_tool,
    pdf_text,
    render_png,
    run_cli,
)

TILES = "decks/losetas.yaml"
ART = "decks/artimanas.yaml"
NEW_DECKS = (
    "losetas",
    "becarios",
    "suerte",
    "clanes",
    "alertas",
    "panico",
    "jefe",
    "investigadores",
    "fichas",
)


def _fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, existing="losetas.pdf")


# ---------------------------------------------------------------- the sample builds


@pytest.mark.slow
def test_pack_builds_every_new_deck_in_both_languages(built_expedicion: Path) -> None:
    english = ("zone-tiles", "apprentices", "luck", "clans", "alert", "panic", "boss", "investigators", "tokens")
    for deck, name in zip(NEW_DECKS, english, strict=True):
        assert (built_expedicion / "es" / f"{deck}.pdf").is_file() and (
            built_expedicion / "en" / f"{name}.pdf"
        ).is_file()
    es, en = pdf_text(built_expedicion / "es" / "losetas.pdf"), pdf_text(built_expedicion / "en" / "zone-tiles.pdf")
    assert "Terraza de los Farolillos" in es and "Lantern Terrace" in en
    assert "Lantern Terrace" not in es
    boss_es, boss_en = pdf_text(built_expedicion / "es" / "jefe.pdf"), pdf_text(built_expedicion / "en" / "boss.pdf")
    assert "Avistamiento" in boss_es and "Sighting" in boss_en
    # Two-sided: each profile prints on its own side.
    assert "Ismara insomne" in boss_es and "Ismara embelesada" in boss_es
    inv_en = pdf_text(built_expedicion / "en" / "investigators.pdf")
    assert "EXALTED" in inv_en and "Illuminated Palaeographer" in inv_en


def test_every_sample_count_is_as_the_spec_says() -> None:
    def load(name: str) -> list:
        return yaml.safe_load((CONTENT / "expedicion" / "decks" / name).read_text(encoding="utf-8"))

    tiles = load("losetas.yaml")
    assert len(tiles) == 19 and sum(1 for t in tiles if t.get("initial")) == 1
    for name, n in (
        ("becarios.yaml", 10),
        ("suerte.yaml", 16),
        ("clanes.yaml", 3),
        ("alertas.yaml", 3),
        ("panico.yaml", 3),
        ("jefe.yaml", 1),
        ("investigadores.yaml", 4),
    ):
        assert sum(c.get("copies", 1) for c in load(name)) == n, name
    tokens = load("fichas.yaml")
    types = {t["type"] for t in tokens}
    assert {t["type"] for t in tokens if t.get("kind") == "square_token"} == {"stairs", "wall"}
    assert types == {"stun", "trap", "teleport", "secret_passage", "stairs", "wall", "knowledge"}


def test_template_palette_reads_the_pack_colours() -> None:
    """The palette takes cube and player colours from pack.yaml's `game:`: change one, the templates follow."""
    from mazmorra.layout import Templates
    from mazmorra.support.paths import templates_dir

    env = Templates(None, templates_dir()).env
    game = yaml.safe_load((CONTENT / "expedicion" / "pack.yaml").read_text(encoding="utf-8"))["game"]
    game["cubes"]["linaje"]["colour"] = "#00ff00"
    palette = env.get_template("expedition-palette.j2").make_module({"game": game})
    assert palette.cubes["linaje"] == "#00ff00"
    assert {k: v["colour"] for k, v in game["cubes"].items()} == dict(palette.cubes)
    assert {k: v["colour"] for k, v in game["players"].items()} == dict(palette.players)


def test_every_new_kind_has_its_designer_doc() -> None:
    for kind in (
        "zone_tile",
        "becario",
        "luck",
        "clan",
        "alert",
        "panic",
        "boss",
        "investigator",
        "token",
        "square_token",
    ):
        doc = (REPO / "docs" / "kinds" / f"{kind}.md").read_text(encoding="utf-8")
        for section in ("## Fields", "## Example", "## Template", "## Rules"):
            assert section in doc, (kind, section)


# ---------------------------------------------------------------- each rule, broken on purpose


@pytest.mark.slow
def test_cube_supply(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "slots: [linaje, adoracion, milicia]", "slots: [linaje, linaje, linaje]")
    _fails(pack, located_in(pack, TILES, "iii-6", "slots:"), "iii-6", "zone_tile.supply", "'linaje'")


@pytest.mark.slow
def test_cube_supply_declared_lower(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "riquezas: {supply: 10", "riquezas: {supply: 9")
    _fails(pack, located_in(pack, TILES, "iii-5", "slots:"), "iii-5", "zone_tile.supply", "only 9")


@pytest.mark.slow
def test_secret_passage_letter_on_one_tile(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / TILES,
        "{type: secret_passage, letter: A}",
        "{type: secret_passage, letter: E}",
        count=2,
    )
    edit(pack / TILES, "{type: secret_passage, letter: E}", "{type: secret_passage, letter: A}")  # i-2 keeps A
    text = _fails(pack, "zone_tile.secret-letter", "ii-4", "'E'")
    assert located_in(pack, TILES, "ii-4", "- {type: secret_passage") in text
    assert located_in(pack, TILES, "i-2", "- {type: secret_passage") in text  # 'A' is now alone on i-2, at its letter


@pytest.mark.slow
def test_secret_passage_letter_on_three_tiles(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / TILES,
        "    - {type: good_luck, n: 2}\n    - {type: secret_passage, letter: B}",
        "    - {type: good_luck, n: 2}\n    - {type: secret_passage, letter: A}",
    )
    _fails(
        pack,
        "zone_tile.secret-letter",
        "is on 3 tile(s)",
        located_in(pack, TILES, "iii-4", "- {type: secret_passage, letter: A}"),  # the third tile's letter
        "iii-4",
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "door, why",
    [
        (
            "{passage: S-right, colours: [civilizacion, riquezas]}",
            "not one of this tile's passages",
        ),
        ("{passage: E-left, colours: [civilizacion, riquezas, milicia]}", "has 3"),
        ("{passage: E-left, colours: []}", "has 0"),
        ("{passage: E-left, colours: [civilizacion, oro]}", "'oro' is not a cube colour"),
    ],
)
def test_door(pack_copy, door: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "{passage: E-left, colours: [civilizacion, riquezas]}", door)
    _fails(pack, located_in(pack, TILES, "ii-5", door), "ii-5", "zone_tile.door", why)  # the faulty door's own line


@pytest.mark.slow
@pytest.mark.parametrize(
    "passages, why",
    [
        ("[N-left, N-left, E-left, S-left, S-right, W-left]", "'N-left' is listed 2 times"),
        ("[N-left, E-middle, S-left, S-right, W-left]", "unknown passage 'E-middle'"),
        ("[]", "has 0"),
        ("[N-left, N-right, E-left, E-right, S-left, S-right, W-left, W-right, N-left]", "has 9"),
    ],
)
def test_passages(pack_copy, passages: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "passages: [N-left, E-left, S-left, S-right, W-left]", f"passages: {passages}")
    _fails(pack, located_in(pack, TILES, "i-3", "passages:"), "i-3", "zone_tile.passage", why)


@pytest.mark.slow
def test_second_initial_zone(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "- id: i-4\n  floor: 1\n", "- id: i-4\n  floor: 1\n  initial: true\n")
    _fails(
        pack,
        located_in(pack, TILES, "i-4", "initial: true"),
        "i-4",
        "zone_tile.initial",
        "second initial zone",
        "zone_tile.initial-safe",
    )


@pytest.mark.slow
def test_no_initial_zone(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "  initial: true\n", "  number: 7\n")
    _fails(
        pack,
        f"content/expedicion/{TILES}:1:",
        "deck:losetas",
        "zone_tile.initial",
        "no initial zone",
    )


@pytest.mark.slow
def test_initial_zone_not_on_floor_one(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "- id: campamento\n  floor: 1\n", "- id: campamento\n  floor: 2\n")
    _fails(
        pack,
        located_in(pack, TILES, "campamento", "floor: 2"),
        "campamento",
        "zone_tile.initial",
        "floor I",
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "extra, field, why",
    [
        ("  slots: [civilizacion]\n", "slots:", "no info slots"),
        ("  effects:\n    - {type: danger, n: 1}\n", "- {type: danger", "hostile effect(s) danger"),
    ],
)
def test_initial_zone_is_safe(pack_copy, extra: str, field: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / TILES,
        "  passages: [N-left, N-right, E-left, S-right, W-left, W-right]\n",
        "  passages: [N-left, N-right, E-left, S-right, W-left, W-right]\n" + extra,
    )
    _fails(pack, located_in(pack, TILES, "campamento", field), "campamento", "zone_tile.initial-safe", why)


@pytest.mark.slow
def test_floor_size_as_declared(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / "pack.yaml",
        "2: {name: El Archivo de Ámbar, size: 6}",
        "2: {name: El Archivo de Ámbar, size: 7}",
    )
    _fails(
        pack,
        located(pack, "pack.yaml", "El Archivo de Ámbar"),
        "deck:losetas",
        "zone_tile.floor-size",
        "floor 2 has 6 tile(s)",
    )


@pytest.mark.slow
def test_tile_on_an_undeclared_floor(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "- id: iii-6\n  floor: 3\n", "- id: iii-6\n  floor: 4\n")
    _fails(
        pack,
        located_in(pack, TILES, "iii-6", "floor: 4"),
        "iii-6",
        "zone_tile.floor",
        "floor 4 is not declared",
        "zone_tile.floor-size",
    )


@pytest.mark.slow
def test_stairs_need_an_adjacent_floor(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / "pack.yaml",
        "    2: {name: El Archivo de Ámbar, size: 6}\n    3: {name: Las Cisternas del Eco, size: 6}\n",
        "",
    )
    _fails(
        pack,
        located_in(pack, TILES, "i-1", "- {type: stairs}"),
        "i-1",
        "zone_tile.stairs",
        "neither floor 0 nor 2",
    )


@pytest.mark.slow
def test_tile_with_slots_needs_an_alert_value(pack_copy) -> None:
    pack = pack_copy("expedicion")
    path = pack / TILES
    line = component_line(path, "i-3", "alert: 3")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[line - 1]
    path.write_text("".join(lines), encoding="utf-8")
    _fails(pack, located_in(pack, TILES, "i-3", "slots:"), "i-3", "zone_tile.alert", "no alert value")


@pytest.mark.slow
@pytest.mark.parametrize(
    "effect, why",
    [
        ("{type: earthquake, n: 1}", "unknown zone effect 'earthquake'"),
        ("{type: bad_luck, n: 9}", "N must be 1–3 (got 9)"),
        ("{type: bad_luck}", "needs its N"),
        ("{type: stairs, n: 2}", "has no N"),
    ],
)
def test_effect_kind_and_n(pack_copy, effect: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / TILES, "    - {type: bad_luck, n: 1}\n", f"    - {effect}\n")
    _fails(pack, located_in(pack, TILES, "i-3", effect[:12]), "i-3", "zone_tile.effect", why)


@pytest.mark.slow
def test_every_becario_is_granted(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "  grants: genealogista\n", "")
    _fails(
        pack,
        located_in(pack, "decks/becarios.yaml", "genealogista", "id: genealogista"),
        "genealogista",
        "becario.not-granted",
    )


@pytest.mark.slow
def test_every_granted_becario_is_defined(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "  grants: genealogista\n", "  grants: astronomo\n")
    _fails(
        pack,
        located_in(pack, ART, "sello-roto", "grants: astronomo"),
        "sello-roto",
        "artimana.unknown-becario",
        "'astronomo'",
    )


@pytest.mark.parametrize(
    "old, new, why",
    [
        ("riquezas: {supply: 10,", "riquezas: {supply: -1,", "game.cubes.riquezas.supply"),
        (
            'linaje: {supply: 6, points: 6, colour: "#2471a3",',
            'linaje: {supply: 6, points: 6, colour: "bleu",',  # CSS names are colours; a misspelt one is not
            "game.cubes.linaje.colour: 'bleu' is not a colour name; did you mean 'blue'?",
        ),
        ("  floors:\n", "  turnos: 3\n  floors:\n", "game.turnos: unknown setting"),
    ],
)
def test_invalid_game_settings(pack_copy, old: str, new: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", old, new)
    _fails(pack, located(pack, "pack.yaml", new.strip().splitlines()[0]), "[pack", "game.settings", why)


def test_missing_game_settings(pack_copy) -> None:
    pack = pack_copy("expedicion")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    start, end = text.index("game:\n"), text.index("decks:\n")
    (pack / "pack.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    _fails(pack, "content/expedicion/pack.yaml:1:", "[pack", "game.settings", "need a `game:` section")


# The kinds' own consistency rules beyond point 2 of the issue, one break each.
@pytest.mark.slow
@pytest.mark.parametrize(
    "rel, old, new, component, needle, rule",
    [
        (
            TILES,
            "slots: [civilizacion, milicia, milicia]",
            "slots: [civilizacion, oro, milicia]",
            "i-3",
            "slots:",
            "zone_tile.slot",
        ),
        (
            "decks/becarios.yaml",
            "shields: [riquezas]",
            "shields: [oro]",
            "tesorero-del-club",
            "shields:",
            "becario.shield",
        ),
        (
            "decks/suerte.yaml",
            "suerte-01, player: rojo, direction: N, exit: N-left, info: civilizacion",
            "suerte-01, player: rojo, direction: N, exit: N-left, info: oro",
            "suerte-01",
            "info: oro",
            "luck.colour",
        ),
        (
            "decks/suerte.yaml",
            "suerte-02, player: rojo",
            "suerte-02, player: violeta",
            "suerte-02",
            "violeta",
            "luck.player",
        ),
        (
            "decks/clanes.yaml",
            "modifiers: {civilizacion: 1, milicia: -1,",
            "modifiers: {oro: 1, milicia: -1,",
            "rueca-de-plata",
            "modifiers:",
            "clan.colour",
        ),
        (
            "decks/investigadores.yaml",
            "knowledge: [adoracion, adoracion, linaje]",
            "knowledge: [adoracion, plata]",
            "olvido-sanz",
            "knowledge:",
            "investigator.colour",
        ),
        (
            "decks/panico.yaml",
            "boss: ismara",
            "boss: minotauro",
            "hilandera-despierta",
            "boss:",
            "panic.boss",
        ),
        (
            "decks/alertas.yaml",
            "    - {common: 2, omega: 1, penalty: 2}\n\n- id: campanas",
            "    - {common: 2, omega: 1, penalty: 0}\n\n- id: campanas",
            "murmullo",
            "- {common: 2, omega: 1, penalty: 0}",
            "alert.penalty-order",
        ),
        (
            "decks/fichas.yaml",
            "effect: stop, copies: 2",
            "effect: fall, copies: 2",
            "trampa-detener",
            "fall",
            "token.trap",
        ),
        (
            "decks/fichas.yaml",
            "letter: C, copies: 2",
            "letter: C, copies: 3",
            "pasaje-secreto-c",
            "letter: C",
            "token.letter-pair",
        ),
        (
            "decks/fichas.yaml",
            "type: secret_passage, letter: C",
            "type: secret_passage, letter: cc",
            "pasaje-secreto-c",
            "letter: cc",
            "token.letter",
        ),
        (
            "decks/jefe.yaml",
            "- {type: bad_luck, n: 1}",
            "- {type: bad_luck, n: 7}",
            "ismara",
            "- {type: bad_luck, n: 7}",
            "boss.effect",
        ),
    ],
)
def test_other_rules(pack_copy, rel: str, old: str, new: str, component: str, needle: str, rule: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / rel, old, new)
    _fails(pack, located_in(pack, rel, component, needle), component, rule)


# ---------------------------------------------------------------- what the tile shows, by pixel colour

DPI = 150
SIDE = 58.0
BLEED = 3.0
A = 15.5  # passage centre from the nearer corner
POS = {
    "N-left": ("N", A),
    "N-right": ("N", SIDE - A),
    "E-left": ("E", A),
    "E-right": ("E", SIDE - A),
    "S-left": ("S", SIDE - A),
    "S-right": ("S", A),
    "W-left": ("W", SIDE - A),
    "W-right": ("W", A),
}
WALL_1, FLOOR_1 = (0x4D, 0x5B, 0x3A), (0xEF, 0xE8, 0xD2)


def _rgb(hexa: str) -> tuple[int, int, int]:
    return tuple(int(hexa[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 14) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _edge_point(passage: str, depth: float, shift: float = 0.0) -> tuple[float, float]:
    """A point inside the wall band of a passage: depth mm in from the trim edge, shift mm along the edge."""
    side, c = POS[passage]
    return {
        "N": (c + shift, depth),
        "S": (c + shift, SIDE - depth),
        "W": (depth, c + shift),
        "E": (SIDE - depth, c + shift),
    }[side]


@pytest.mark.slow
@pytest.mark.parametrize(
    "passages, doors, slots",
    [
        (
            ["N-left", "E-right", "S-left", "W-right"],
            [("E-right", ["milicia"])],
            ["linaje", "civilizacion"],
        ),
        (
            ["N-right", "E-left", "S-right", "W-left", "W-right"],
            [("N-right", ["adoracion", "riquezas"])],
            ["milicia", "civilizacion", "milicia"],
        ),
    ],
)
def test_tile_draws_passages_doors_and_slots_where_its_yaml_says(
    pack_copy, tmp_path: Path, passages, doors, slots
) -> None:
    need_tool("pdftoppm")
    pack = pack_copy("expedicion")
    cubes = {
        k: _rgb(v["colour"])
        for k, v in yaml.safe_load((pack / "pack.yaml").read_text(encoding="utf-8"))["game"]["cubes"].items()
    }
    path = pack / TILES
    text = path.read_text(encoding="utf-8")
    # Make i-1 the first tile of the deck (top-left of the first sheet) and give it the layout under test.
    start, i1, i2 = (
        text.index("- id: campamento"),
        text.index("- id: i-1\n"),
        text.index("- id: i-2\n"),
    )
    camp, tile = text[start:i1], text[i1:i2]
    tile = re.sub(r"  passages: \[.*\]\n", f"  passages: [{', '.join(passages)}]\n", tile)
    tile = re.sub(r"  slots: \[.*\]\n", f"  slots: [{', '.join(slots)}]\n", tile)
    door_yaml = "".join(f"    - {{passage: {p}, colours: [{', '.join(c)}]}}\n" for p, c in doors)
    tile = tile.replace("  effects:\n", f"  doors:\n{door_yaml}  effects:\n")
    path.write_text(text[:start] + tile + camp + text[i2:], encoding="utf-8")
    res = run_cli(
        "build",
        "expedicion",
        "--lang",
        "es",
        "--deck",
        "losetas",
        "--out",
        str(tmp_path / "out"),
        cwd=pack.parents[1],
    )
    assert res.returncode == 0, res.stdout + res.stderr
    img = render_png(tmp_path / "out" / "expedicion" / "es" / "losetas.pdf", 1, DPI, tmp_path)
    px = DPI / 25.4
    # The first tile's bleed box is the top-left-most area of floor-I wall colour on the sheet.
    w, h = img.size
    pix = img.load()
    y0 = next(y for y in range(h // 3) if any(_near(pix[x, y], WALL_1, 6) for x in range(0, w // 2, 2)))
    x0 = next(x for x in range(w // 2) if _near(pix[x, y0 + int(2 * px)], WALL_1, 6))
    ox, oy = x0 / px + BLEED, y0 / px + BLEED  # the trim's top-left corner, mm

    def at(x: float, y: float) -> tuple[int, int, int]:
        return img.getpixel((round((ox + x) * px), round((oy + y) * px)))

    door_of = dict(doors)
    for passage in POS:
        if passage in door_of:
            colours = door_of[passage]
            shifts = [0.0] if len(colours) == 1 else [-2.0, 2.0]
            for colour, shift in zip(colours, shifts):
                got = at(*_edge_point(passage, 2.1, shift))
                assert _near(got, cubes[colour]), (passage, colour, got)
            assert _near(at(*_edge_point(passage, -1.5)), FLOOR_1), passage  # the gap runs out into the bleed
        elif passage in passages:
            assert _near(at(*_edge_point(passage, 1.5)), FLOOR_1), (passage, "open passage")
        else:
            assert _near(at(*_edge_point(passage, 1.5)), WALL_1), (passage, "wall")
    for i, colour in enumerate(slots):
        got = at(17.6 + i * 6.9 + 5.0, 42.6)  # off the cube's symbol (game.cubes.*.mark) at its centre
        assert _near(got, cubes[colour]), (i, colour, got)
    assert _near(at(17.6 + len(slots) * 6.9 + 3.6, 41.2), FLOOR_1, 24), "no slot after the last one"
