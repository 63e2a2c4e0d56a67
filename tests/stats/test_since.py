"""`mazmorra stats --since REV`: the pack as a git revision had it, figure by figure beside today's."""

from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from math import comb
from pathlib import Path

import jsonschema
import pytest
from conftest import run_cli
from packs import trick_pack

from mazmorra.stats.statsjson import schema


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True, capture_output=True
    )


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """A pack committed as round-1, then one card edited: 5 curses become 8 (and 8 blanks 5)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    pack = trick_pack(tmp_path)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "round 1")
    _git(tmp_path, "tag", "round-1")
    deck = pack / "decks" / "trucos.yaml"
    deck.write_text(_swap(deck.read_text(encoding="utf-8")), encoding="utf-8")
    return tmp_path


def _swap(text: str) -> str:
    lines = text.splitlines()
    lines[0] = lines[0].replace("copies: 5", "copies: 8")  # hex, the curse
    lines[2] = lines[2].replace("copies: 8", "copies: 5")  # dud, the blank
    return "\n".join(lines) + "\n"


def _percent(curses: int) -> str:
    chance = 1 - Fraction(comb(20 - curses, 3), comb(20, 3))
    return f"{chance.numerator}/{chance.denominator} · {float(chance) * 100:.1f} %"


def test_the_edited_card_moves_its_figures(edited: Path) -> None:
    res = run_cli("stats", "p", "--since", "round-1", cwd=edited)
    assert res.returncode == 0, res.stderr
    assert f"* At least 1 type = curse in the first 3 draws: {_percent(5)} → {_percent(8)}" in res.stdout
    assert "* Copies with type = curse: 5 → 8" in res.stdout
    assert "  Copies with type = boon: 7" in res.stdout  # unchanged, not marked
    assert "figure(s) moved since round-1" in res.stderr


def test_json_lists_what_moved(edited: Path) -> None:
    res = run_cli("stats", "p", "--since", "round-1", "--json", cwd=edited)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    jsonschema.validate(data, schema())
    moved = {m["key"]: (m["before"], m["now"]) for m in data["since"]["moved"]}
    assert moved["deck:trucos/type=curse"] == ("5", "8")
    assert not any("type=boon" in key and "draw" not in key for key in moved)


def test_an_unknown_revision_is_a_clean_error(edited: Path) -> None:
    res = run_cli("stats", "p", "--since", "no-such-tag", cwd=edited)
    assert res.returncode == 2 and "unknown revision 'no-such-tag'" in res.stderr


def test_a_terminal_shows_the_table_with_the_moves(edited: Path) -> None:
    res = run_cli("stats", "p", "--since", "round-1", cwd=edited, env={"TTY_COMPATIBLE": "1", "COLUMNS": "120"})
    assert res.returncode == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if "Copies with type = curse" in line)
    assert "\x1b[1m5 → 8\x1b[0m" in row  # bold, in a table row (NO_COLOR keeps the bold)
    assert not row.startswith("*")
