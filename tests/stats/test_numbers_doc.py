"""docs/numbers.md: its worked examples are what the command prints, and it documents every key of
the JSON Schema's top level."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_cli

from mazmorra.stats.statsjson import schema

DOC = Path(__file__).resolve().parents[2] / "docs" / "numbers.md"


def _example_lines(pack_marker: str) -> list[str]:
    """The indented figure lines of the worked example that follows `pack_marker` in the doc."""
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index(pack_marker) :]
    block = block[block.index("```text") + len("```text") : block.index("```", block.index("```text") + 7)]
    return [ln for ln in block.splitlines() if ln.startswith("  ")]


@pytest.mark.parametrize(
    ("marker", "args"),
    [
        ("**A, expedition**", ("expedicion",)),
        ("**B, bag-draw**", ("profundidades",)),
        ("**C, deck-box crawler**", ("cripta", "--draw", "3", "keywords=stun")),
        ("**D, rotating rooms**", ("engranajes",)),
        ("**E, generated dungeons**", ("generada",)),
    ],
)
def test_worked_examples_are_what_it_prints(marker: str, args: tuple[str, ...]) -> None:
    res = run_cli("stats", *args, "--lang", "en")
    assert res.returncode == 0, res.stderr
    printed = res.stdout.splitlines()
    for line in _example_lines(marker):
        assert line in printed, line


def test_every_top_level_key_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)`", text, re.MULTILINE))
    documented |= {"name", "lang"}  # on the pack's row
    assert set(schema()["properties"]) <= documented
