"""Issue 16: the Expedition as the rulebook prints it. The sample is the complete box of the reference
edition; `edition: reference|custom` compares a pack with it; every rule the rulebook states that can
be checked before printing fails on a broken copy with its rule id at the faulty item's line; the
generated rules table names the rulebook passage of every rule."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import (
    CONTENT,
    REPO,
    assert_build_fails,
    component_line,
    edit,
    laid_out,
    line_of,
    located,
    located_in,
    pdf_text,
    run_cli,
)

from mazmorra import kinds
from mazmorra.contracts import Face, IconOp, RectOp
from mazmorra.kinds.expedition import FAMILY
from mazmorra.kinds.expedition.dungeon import meets
from mazmorra.tools.ruletable import EDITION_RULES, main, markdown

PACK = CONTENT / "expedicion"
TILES = "decks/losetas.yaml"
ART = "decks/artimanas.yaml"
REFERENCE = REPO / "cli" / "mazmorra" / "kinds" / "expedition" / "reference.yaml"
EXPEDITION_SRC = REPO / "cli" / "mazmorra" / "kinds" / "expedition"


def _deck(name: str) -> list[dict]:
    return yaml.safe_load((PACK / "decks" / name).read_text(encoding="utf-8"))


def _copies(entries: list[dict]) -> int:
    return sum(e.get("copies", 1) for e in entries)


def _fails(pack: Path, *needles: str) -> str:
    return assert_build_fails(pack, *needles, command="validate")


def _problems(pack: Path) -> tuple[int, list[dict]]:
    res = run_cli("validate", "expedicion", "--json", cwd=pack.parents[1])
    assert "Traceback" not in res.stdout + res.stderr
    return res.returncode, json.loads(res.stdout)[0]["problems"]


# ---------------------------------------------------------------- the complete box


def test_sample_decks_match_the_rulebook_counts() -> None:
    """Counted from the YAML itself against the numbers the rulebook prints (p. 4), not through the
    reference file the validator reads."""
    art = _deck("artimanas.yaml")
    assert _copies(art) == 105
    per_type = Counter()
    for card in art:
        per_type[card["type"]] += card.get("copies", 1)
    assert set(per_type) == {"destino", "subterfugio", "magica", "exploracion", "social", "notoriedad"}
    assert _copies(_deck("maldiciones.yaml")) == 15
    becarios = _deck("becarios.yaml")
    assert len(becarios) == 10 and all(b.get("copies", 1) == 1 for b in becarios)
    for name, n in (("suerte.yaml", 16), ("clanes.yaml", 3), ("alertas.yaml", 3), ("panico.yaml", 3)):
        assert _copies(_deck(name)) == n, name
    assert _copies(_deck("jefe.yaml")) == 1 and _copies(_deck("investigadores.yaml")) == 4
    assert _copies(_deck("fichas.yaml")) == 36 and _copies(_deck("losetas.yaml")) == 19
    game = yaml.safe_load((PACK / "pack.yaml").read_text(encoding="utf-8"))["game"]
    assert {k: (v["supply"], v["points"]) for k, v in game["cubes"].items()} == {
        "civilizacion": (20, 2),
        "milicia": (15, 3),
        "adoracion": (13, 4),
        "riquezas": (10, 5),
        "linaje": (6, 6),
    }
    assert game["students"] == {"common": 40, "omega": 5}
    assert len(game["players"]) == 4 and sorted(game["floors"]) == [1, 2, 3]


def test_the_reference_edition_holds_the_rulebook_counts() -> None:
    ref = yaml.safe_load(REFERENCE.read_text(encoding="utf-8"))
    totals = {tuple(c["kinds"]): c["total"] for c in ref["components"]}
    assert totals == {
        ("artimana",): 105,
        ("curse",): 15,
        ("becario",): 10,
        ("luck",): 16,
        ("clan",): 3,
        ("alert",): 3,
        ("panic",): 3,
        ("boss",): 1,
        ("investigator",): 4,
        ("token", "square_token"): 36,
        ("zone_tile",): 19,
    }
    settings = {s["path"]: s.get("value", s.get("keys", s.get("entries"))) for s in ref["game"]}
    assert [settings[f"cubes.{c}.supply"] for c in settings["cubes"]] == [20, 15, 13, 10, 6]
    assert (settings["students.common"], settings["students.omega"]) == (40, 5)
    assert all(s["source"] for s in [*ref["components"], *ref["game"]])


@pytest.mark.slow
def test_validate_of_the_sample_passes_without_a_warning() -> None:
    res = run_cli("validate", "expedicion")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "expedicion: valid (0 warning(s))" in res.stderr


def _trim_one_destino(pack: Path) -> None:
    """104 trick cards, declared as such: every rule but the edition is satisfied."""
    edit(
        pack / ART,
        "  centre_value: 6\n  aux: {stealth: 1, alert: 1}\n  copies: 2",
        "  centre_value: 6\n  aux: {stealth: 1, alert: 1}\n  copies: 1",
    )
    edit(pack / "pack.yaml", "    size: 105\n    counts: {destino: 18,", "    size: 104\n    counts: {destino: 17,")


@pytest.mark.slow
def test_reference_edition_with_104_trick_cards_fails_at_the_deck_size(pack_copy) -> None:
    pack = pack_copy("expedicion")
    _trim_one_destino(pack)
    text = _fails(
        pack, located(pack, "pack.yaml", "size: 104"), "edition.count", "the pack has 104, the reference edition 105"
    )
    assert "error [pack.size]" in text


@pytest.mark.slow
def test_custom_edition_passes_and_warns_of_each_difference(pack_copy) -> None:
    pack = pack_copy("expedicion")
    _trim_one_destino(pack)
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    edit(pack / "pack.yaml", "linaje: {supply: 6,", "linaje: {supply: 7,")
    code, problems = _problems(pack)
    assert code == 0, problems
    warned = {(p["rule"], p["line"]): p["message"] for p in problems if p["severity"] == "warning"}
    size_line = line_of(pack / "pack.yaml", "size: 104")
    assert "the pack has 104, the reference edition 105" in warned[("edition.count", size_line)]
    assert warned[("edition.count", size_line)].startswith("differs from the reference edition: trick")
    assert "is 7, the reference edition 6" in warned[("edition.game", line_of(pack / "pack.yaml", "linaje:"))]
    assert len(warned) == 2 and all(p["severity"] == "warning" for p in problems)


@pytest.mark.slow
def test_without_an_edition_nothing_is_compared(pack_copy) -> None:
    pack = pack_copy("expedicion")
    _trim_one_destino(pack)
    edit(pack / "pack.yaml", "edition: reference", "")
    code, problems = _problems(pack)
    assert code == 0 and problems == []


def test_reference_edition_of_a_game_without_one(pack_copy) -> None:
    pack = pack_copy("muestras")
    edit(pack / "pack.yaml", "bleed:", "edition: reference\nbleed:")
    res = run_cli("validate", "muestras", cwd=pack.parents[1])
    assert res.returncode == 1
    assert located(pack, "pack.yaml", "edition:") in res.stderr
    assert "edition.none" in res.stderr and "generic" in res.stderr


def test_reference_edition_enforces_the_game_settings(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "  students: {common: 40, omega: 5}", "  students: {common: 44, omega: 5}")
    _fails(
        pack,
        located(pack, "pack.yaml", "students:"),
        "edition.game",
        "game.students.common is 44, the reference edition 40",
    )


# ---------------------------------------------------------------- item 3: each rule, broken on purpose


@pytest.mark.slow
@pytest.mark.parametrize(
    "tile, floor_line, floor",
    [("i-1", "1: {name: Los Jardines Velados", 2), ("ii-1", "2: {name: El Archivo de Ámbar", 3)],
)
def test_every_floor_reachable(pack_copy, tile: str, floor_line: str, floor: int) -> None:
    """Floors I and II hold the only stairs down (i-1, ii-1): without them the next floor never enters play."""
    pack = pack_copy("expedicion")
    path = pack / TILES
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[component_line(path, tile, "- {type: stairs}") - 1]
    path.write_text("".join(lines), encoding="utf-8")
    _fails(
        pack,
        located(pack, "pack.yaml", floor_line),
        "zone_tile.floor-unreachable",
        f"floor {floor} can never be reached",
    )


def test_secret_passage_letter_twice_on_one_tile_is_no_pair(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / TILES,
        "    - {type: secret_passage, letter: A}\n    - {type: camp",
        "    - {type: danger, n: 1}\n    - {type: camp",
    )
    edit(
        pack / TILES,
        "    - {type: secret_passage, letter: A}\n",
        "    - {type: secret_passage, letter: A}\n    - {type: secret_passage, letter: A}  # same tile\n",
    )
    text = _fails(
        pack, located_in(pack, TILES, "i-2", "# same tile"), "i-2", "zone_tile.secret-letter", "twice on this tile"
    )
    assert "is on 1 tile(s) (i-2)" in text  # and A joins nothing


@pytest.mark.parametrize(
    "old, new, needle, why",
    [
        (
            "  centre_value: 5\n  aux: {stealth: 1, alert: 3}",
            "  aux: {stealth: 1, alert: 3}",
            "- id: mala-racha",
            "give centre_value",
        ),
        (
            "  centre_value: 5\n  aux: {stealth: 1, alert: 3}",
            '  centre_value: 5\n  effect: "Suma 5."\n  aux: {stealth: 1, alert: 3}',
            'effect: "Suma 5."',
            "not a text",
        ),
    ],
)
def test_destino_main_effect_is_the_centre_value(pack_copy, old: str, new: str, needle: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, old, new)
    _fails(
        pack, located_in(pack, ART, "mala-racha", needle.removeprefix("- ")), "mala-racha", "artimana.destino-main", why
    )


@pytest.mark.slow
def test_other_types_need_their_main_effect_text(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, '  effect: "Gana {gain:1}. Un rival de tu zona descarta {discard:1}."\n', "  centre_value: 4\n")
    _fails(
        pack,
        located_in(pack, ART, "autografo", "centre_value: 4"),
        "autografo",
        "artimana.destino-main",
        "only destino",
    )


@pytest.mark.parametrize(
    "old, new, needle, why",
    [
        (
            "students: {common: 40, omega: 5}",
            "students: {common: 40, omega: 4}",
            "- {common: 2, omega: 1, penalty: 2}",
            "brings 5 Omega students",
        ),
        (
            "students: {common: 40, omega: 5}",
            "students: {common: 30, omega: 5}",
            "setup: {common: 4",
            "setup needs 31 common students",
        ),
    ],
)
def test_student_supply(pack_copy, old: str, new: str, needle: str, why: str) -> None:
    """Murmullo: 1 Omega at setup and 1 per refill of its 4 slots (5 in all); 4 common per player for
    4 players plus the investigators' 3 + 4 + 3 + 5 starting students (31)."""
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", old, new)
    _fails(pack, located_in(pack, "decks/alertas.yaml", "murmullo", needle), "murmullo", "alert.students", why)


@pytest.mark.slow
def test_student_supply_must_be_declared(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "  students: {common: 40, omega: 5}", "")
    game = line_of(pack / "pack.yaml", "game:") + 1  # the game: section, where the setting belongs
    _fails(pack, f"content/expedicion/pack.yaml:{game}:", "alert.students", "declare the student figures")


@pytest.mark.slow
def test_each_becario_is_one_copy(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "decks/becarios.yaml", "  points: 4\n", "  points: 4\n  copies: 2\n")
    _fails(pack, located_in(pack, "decks/becarios.yaml", "genealogista", "copies: 2"), "genealogista", "becario.copies")


@pytest.mark.slow
def test_a_tile_whose_passages_meet_no_other_is_reported(pack_copy) -> None:
    """iii-3 keeps only N-left, which lines up with a south-right passage; the copy removes that
    passage from every tile that could lie beside it (floor III, and ii-1's stairs on floor II)."""
    pack = pack_copy("expedicion")
    for old, new in (
        ("passages: [N-left, W-left, W-right]", "passages: [N-left]"),
        ("passages: [N-left, N-right, E-left, S-right, W-right]", "passages: [N-left, N-right, E-left, W-right]"),
        ("passages: [N-left, E-left, E-right, S-right, W-left]", "passages: [N-left, E-left, E-right, W-left]"),
        ("passages: [N-right, E-left, S-left, S-right]", "passages: [N-right, E-left, S-left]"),
        (
            "passages: [N-left, N-right, E-right, S-left, S-right, W-left]",
            "passages: [N-left, N-right, E-right, S-left, W-left]",
        ),
    ):
        edit(pack / TILES, old, new)
    text = _fails(pack, located_in(pack, TILES, "iii-3", "passages: [N-left]"), "iii-3", "zone_tile.isolated")
    assert text.count("zone_tile.isolated") == 1


def test_passages_meet_where_the_tiles_draw_them() -> None:
    """meets() pairs the positions the zone tile template draws (15.5 mm from the nearer corner, left
    and right as seen from the centre): side by side, the two passages are at the same point."""
    side, a = 58.0, 15.5
    offset = {"N": (0, -side), "S": (0, side), "E": (side, 0), "W": (-side, 0)}

    def point(passage: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        s, pos = passage.split("-")
        along = a if pos == "left" else side - a
        x, y = {
            "N": (along, 0.0),
            "E": (side, along),
            "S": (side - along, side),
            "W": (0.0, side - along),
        }[s]
        return (x + dx, y + dy)

    for s in "NESW":
        for pos in ("left", "right"):
            p = f"{s}-{pos}"
            assert point(p) == point(meets(p), *offset[s]), p
            assert meets(meets(p)) == p


@pytest.mark.slow
@pytest.mark.parametrize(
    "edits, where, why",
    [
        (
            [
                (
                    "suerte-07, player: azul, direction: S, exit: S-left, info: linaje",
                    "suerte-07, player: azul, direction: S, exit: S-left, info: milicia",
                ),
                (
                    "suerte-16, player: amarillo, direction: W, exit: E-left, info: linaje",
                    "suerte-16, player: amarillo, direction: W, exit: E-left, info: milicia",
                ),
            ],
            "linaje: {supply",
            "no luck card shows information colour 'linaje'",
        ),
        (
            [
                ("direction: E, exit: W-left", "direction: E, exit: W-right"),
                ("direction: E, exit: W-left", "direction: E, exit: W-right"),
            ],
            "- id: suerte",
            "no luck card shows the exit W-left",
        ),
    ],
)
def test_luck_deck_covers_every_answer(pack_copy, edits, where: str, why: str) -> None:
    pack = pack_copy("expedicion")
    for old, new in edits:
        edit(pack / "decks/suerte.yaml", old, new)
    _fails(pack, located(pack, "pack.yaml", where), "luck.coverage", why)


@pytest.mark.slow
def test_luck_deck_covers_every_player_and_warns_when_uneven(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "decks/suerte.yaml", "suerte-16, player: amarillo", "suerte-16, player: rojo")
    code, problems = _problems(pack)
    assert code == 0
    assert [(p["rule"], p["severity"]) for p in problems] == [("luck.balance", "warning")]
    assert "rojo 5" in problems[0]["message"] and "amarillo 3" in problems[0]["message"]
    for n in (13, 14, 15):
        edit(pack / "decks/suerte.yaml", f"suerte-{n}, player: amarillo", f"suerte-{n}, player: verde")
    _fails(pack, located(pack, "pack.yaml", "amarillo: {colour"), "luck.coverage", "player colour 'amarillo'")


@pytest.mark.parametrize(
    "token, why",
    [("{draw}", "{draw} needs its number"), ("{divination:0}", "must be 1 to 9"), ("{stun:12}", "must be 1 to 9")],
)
def test_effect_icons_carry_their_number(pack_copy, token: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(pack / ART, "Si acabas solo en una zona, roba {draw:1}.", f"Si acabas solo en una zona, roba {token}.")
    _fails(
        pack, located_in(pack, ART, "atajo-del-cartografo", "effect:"), "atajo-del-cartografo", "text.icon-number", why
    )


def test_effect_icon_number_in_a_list_text_is_located_at_its_item(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / "decks/panico.yaml",
        '"Al final de tu turno, convoca {university:1}."',
        '"Al final de tu turno, convoca {university}."',
    )
    _fails(pack, located_in(pack, "decks/panico.yaml", "desbandada", "{university}"), "desbandada", "text.icon-number")


def test_a_letter_stands_for_a_number_counted_elsewhere() -> None:
    """{divination:N} (curse vision-duplicada) is valid, and prints N, never "None:N"."""
    from mazmorra.model.cardtext import icon_tokens

    assert [(t.name, t.number) for t in icon_tokens("{divination:N} {draw}")] == [("divination", "N"), ("draw", None)]


@pytest.mark.slow
def test_curse_omega_icon_top_left_and_divination_n_printed(built_expedicion: Path) -> None:
    omega = [
        op
        for op in _faces("maldiciones", "en")["idolo-codicioso"][0].ops
        if isinstance(op, IconOp) and op.name == "omega"
    ]
    assert len(omega) == 1 and omega[0].x < 10 and omega[0].y < 10  # trim's top-left corner (p. 24)
    for pdf in ("es/maldiciones.pdf", "en/curses.pdf"):
        text = pdf_text(built_expedicion / pdf)
        assert "None" not in text


@pytest.mark.slow
def test_aux_timing_icon_where_the_rulebook_allows_it(pack_copy) -> None:
    icons = [op.name for op in _faces("artimanas", "es")["silencio-de-biblioteca"][0].ops if isinstance(op, IconOp)]
    assert icons.count("reaction") == 2  # the main effect's (top right) and the auxiliary effect's
    pack = pack_copy("expedicion")
    edit(
        pack / ART,
        "  copies: 2\n\n- id: apuesta-amistosa",
        "  aux_timing: instantanea\n  copies: 2\n\n- id: apuesta-amistosa",
    )
    _fails(
        pack, located_in(pack, ART, "te-con-el-claustro", "aux_timing:"), "te-con-el-claustro", "artimana.aux-timing"
    )


@pytest.mark.parametrize(
    "new, needle, why",
    [
        ("- {id: ficha-teletransporte, type: teleport, copies: 2}", "ficha-teletransporte", "add requires"),
        ("- {id: ficha-teletransporte, type: teleport, requires: [oro], copies: 2}", "ficha-teletransporte", "'oro'"),
    ],
)
def test_teleport_token_prints_its_requirement(pack_copy, new: str, needle: str, why: str) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / "decks/fichas.yaml",
        "- {id: ficha-teletransporte, type: teleport, requires: [adoracion], copies: 2}",
        new,
    )
    _fails(pack, located_in(pack, "decks/fichas.yaml", needle, needle), needle, "token.teleport", why)


def test_teleport_token_draws_the_required_colour() -> None:
    adoracion = yaml.safe_load((PACK / "pack.yaml").read_text(encoding="utf-8"))["game"]["cubes"]["adoracion"]["colour"]
    for face in _faces("fichas", "en")["ficha-teletransporte"]:
        assert [op for op in face.ops if isinstance(op, RectOp) and op.fill == adoracion], face.side


def test_every_clan_gives_a_modifier_for_every_colour(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "decks/clanes.yaml", "riquezas: -1, linaje: 0}", "riquezas: -1}")
    _fails(
        pack,
        located_in(pack, "decks/clanes.yaml", "farol-ciego", "modifiers:"),
        "farol-ciego",
        "clan.every-colour",
        "linaje",
    )


def test_the_boss_adds_several_zone_effects() -> None:
    back = _faces("jefe", "en")["ismara"][1]
    assert {"bad_luck", "stop"} <= {op.name for op in back.ops if isinstance(op, IconOp)}


# ---------------------------------------------------------------- item 4: the faulty item's own line


@pytest.mark.slow
def test_deck_size_is_reported_at_its_sizecomponent_line(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / "pack.yaml",
        "    file: decks/maldiciones.yaml\n    size: 15",
        "    file: decks/maldiciones.yaml\n    size: 14",
    )
    _fails(pack, located(pack, "pack.yaml", "size: 14"), "deck.size", "holds 15 cards")


@pytest.mark.slow
def test_deck_count_is_reported_at_its_own_key(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "counts: {destino: 18, subterfugio: 18,", "counts: {destino: 18,\n      subterfugio: 19,")
    _fails(pack, located(pack, "pack.yaml", "subterfugio: 19"), "deck.counts", "'subterfugio': 18 card(s), declared 19")


@pytest.mark.slow
def test_unknown_icon_in_a_list_text_is_located_at_its_item(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(
        pack / "decks/panico.yaml",
        '"Al entrar en una zona con escaleras, recibe {stun:1}."',
        '"Al entrar en una zona con escaleras, recibe {mareo:1}."',
    )
    _fails(
        pack, located_in(pack, "decks/panico.yaml", "hilos-tensos", "{mareo:1}"), "hilos-tensos", "text.unknown-icon"
    )


@pytest.mark.slow
def test_boss_effect_without_a_boss_card_is_located_at_the_effect(pack_copy) -> None:
    pack = pack_copy("expedicion")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: jefe\n")
    end = text.index("  - id: investigadores\n")
    (pack / "pack.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    edit(pack / "decks/panico.yaml", "  boss: ismara\n", "")
    edit(pack / "pack.yaml", "edition: reference", "edition: custom")
    _fails(pack, located_in(pack, TILES, "i-1", "- {type: boss}"), "i-1", "zone_tile.boss")


# ---------------------------------------------------------------- item 5: the generated rules table


def test_the_committed_rules_table_is_up_to_date() -> None:
    assert main([str(REPO / "docs" / "kinds"), "--check"]) == 0, "run: make rules-doc"


def test_the_rules_table_names_a_rulebook_passage_for_every_rule() -> None:
    table = (REPO / "docs" / "kinds" / "expedition-rules.md").read_text(encoding="utf-8")
    assert table == markdown(FAMILY)
    rules = table.split("## Rules", 1)[1]
    rows = {m.group(1): m.group(3) for m in re.finditer(r"^\| `([a-z_]+\.[a-z-]+)` \| (.+?) \| (.+) \|$", rules, re.M)}
    documented = {*kinds.rule_docs(FAMILY), *(d.id for d in EDITION_RULES)}
    assert set(rows) == documented
    assert all(re.search(r"p\. \d+|not in the rulebook|reference edition", source) for source in rows.values()), rows
    assert "| trick (artimaña) cards | `artimana` | 105 |" in table


def test_every_rule_id_the_family_reports_is_documented() -> None:
    """Rule ids written in the family's modules (Problem(...) and the colour helper's argument) all
    have their line in the table, and the table lists no rule the code does not report."""
    prefixes = {k.name for k in kinds.all_kinds().values() if k.family is FAMILY} | {"text"}
    used = set()
    for path in EXPEDITION_SRC.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                m = re.fullmatch(r"([a-z_]+)\.[a-z][a-z-]*", node.value)
                if m and m.group(1) in prefixes:
                    used.add(node.value)
    assert used == set(kinds.rule_docs(FAMILY)), used ^ set(kinds.rule_docs(FAMILY))


# ---------------------------------------------------------------- helpers


def _faces(deck_id: str, lang: str) -> dict[str, list[Face]]:
    """Each component of a sample deck, laid out: its faces (the front, and its own back if any)."""
    return laid_out(PACK, deck_id, lang)
