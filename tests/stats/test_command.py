"""`mazmorra stats` run as a user runs it: the table, --json against its schema, both languages,
bad queries as clean errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import run_cli, run_cli_subprocess
from packs import bag_pack, table_pack, trick_pack

from mazmorra.stats.statsjson import schema


def test_the_table_names_every_figure_in_english(tmp_path: Path) -> None:
    trick_pack(tmp_path)
    res = run_cli("stats", "p", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Deck: Tricks" in res.stdout
    assert "  Copies with type = curse: 5" in res.stdout
    assert "  At least 1 type = curse in the first 3 draws: 137/228 · 60.1 %" in res.stdout  # 1 - C(15,3)/C(20,3)
    assert "Traceback" not in res.stderr


def test_a_query_on_the_command_line(tmp_path: Path) -> None:
    trick_pack(tmp_path)
    res = run_cli("stats", "p", "--draw", "5", "--at-least", "2", "type=boon", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Your query" in res.stdout
    assert "  Tricks: at least 2 type = boon in the first 5 draws: " in res.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--draw", "3", "--at-least", "4", "type=curse"), "--at-least 4 is more than the 3 card(s) drawn"),
        (("--draw", "3", "colour=red"), "no deck of p has a field 'colour'"),
        (("--draw", "3", "type=cruse"), "did you mean 'curse'"),
        (("type=curse",), "give both --draw and FIELD=VALUE"),
        (("--lang", "fr"), "--lang fr: p is in en"),
    ],
)
def test_bad_input_is_a_clean_error_with_exit_2(tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    trick_pack(tmp_path)
    res = run_cli("stats", "p", *args, cwd=tmp_path)
    assert res.returncode == 2, res.stdout
    assert says in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("make", [trick_pack, table_pack, bag_pack])
def test_json_follows_its_schema(tmp_path: Path, make) -> None:
    make(tmp_path)
    res = run_cli("stats", "p", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    jsonschema.validate(data, schema())
    assert data["schema"] == "mazmorra-stats/1" and data["pack"] == "p"


def test_json_of_dice_and_dungeons_follows_its_schema() -> None:
    res = run_cli("stats", "generada", "--json", "--seeds", "10")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    jsonschema.validate(data, schema())
    assert data["dungeons"]["seeds"] == 10 and data["dungeons"]["first_seed"] == 1
    two_d12 = next(d for d in data["dice"] if d["die"] == "2d12")
    assert {"total": 13, "chance": {"fraction": "1/12", "value": 0.083333}} in two_d12["totals"]


@pytest.mark.parametrize("pack", ["expedicion", "profundidades", "engranajes", "generada", "cripta", "grimorio"])
def test_every_word_is_translated_in_spanish(pack: str) -> None:
    res = run_cli("stats", pack, "--lang", "es", "--seeds", "3")
    assert res.returncode == 0, res.stderr
    assert "translation" not in res.stderr, res.stderr


def test_spanish_writes_its_own_words_and_numbers() -> None:
    res = run_cli("stats", "profundidades", "--lang", "es")
    assert res.returncode == 0, res.stderr
    assert "Bolsa: Bolsa inicial" in res.stdout
    assert "  Un robo ofrece monster: 1/5 · 20,0 %" in res.stdout


def test_dungeons_print_their_seeds_and_sample() -> None:
    res = run_cli("stats", "generada", "--lang", "en", "--seeds", "7")
    assert res.returncode == 0, res.stderr
    assert "Generated dungeons: 7 seeds from 1" in res.stdout
    assert "7 seeds, 1 to 7" in res.stderr
    assert "  Rooms: min " in res.stdout


def test_a_pack_with_errors_stops_before_any_number(tmp_path: Path) -> None:
    pack = trick_pack(tmp_path)
    deck = pack / "decks" / "trucos.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("copies: 8", "copies: 9"), encoding="utf-8")
    res = run_cli("stats", "p", cwd=tmp_path)
    assert res.returncode == 1 and "deck.size" in res.stderr and res.stdout == ""


def test_the_installed_command_runs() -> None:
    """One real process: start-up, output and exit code as a shell sees them."""
    res = run_cli_subprocess("stats", "grimorio", "--lang", "en")
    assert res.returncode == 0, res.stderr
    assert "Deck: Spells" in res.stdout or "Deck: " in res.stdout


def test_a_declared_draw_is_named_in_the_table(tmp_path: Path) -> None:
    from conftest import edit

    pack = trick_pack(tmp_path)
    edit(
        pack / "kinds" / "trick.yaml", "count_field: type\n", "count_field: type\ndraws: [{n: 4, name: opening hand}]\n"
    )
    res = run_cli("stats", "p", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "  At least 1 type = curse in opening hand: 4 draws: " in res.stdout


def test_a_bad_draw_in_a_kind_file_is_located(tmp_path: Path) -> None:
    from conftest import edit

    pack = trick_pack(tmp_path)
    edit(pack / "kinds" / "trick.yaml", "count_field: type\n", "count_field: type\ndraws: [{n: 0, name: hand}]\n")
    res = run_cli("stats", "p", cwd=tmp_path)
    assert res.returncode == 1 and "content/p/kinds/trick.yaml:" in res.stderr and "Traceback" not in res.stderr
