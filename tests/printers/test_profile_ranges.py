"""A pack's own printer profile is checked like pack.yaml: every value typed and within its range
(docs/printing.md, "The values and their ranges"), each wrong one an error at its line in the profile
with its rule id, nothing built."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli, tree_snapshot

from mazmorra import printers
from mazmorra.errors import ContentError

# (the profile's own lines after `name:` and `extends:`, the line of the wrong value, the field, a phrase)
BAD = [
    ("bleed: -3mm", 3, "bleed", "bleed must be between 0 and 10 mm"),
    ("bleed: 500mm", 3, "bleed", "bleed must be between 0 and 10 mm"),
    ("bleed: 0.5in", 3, "bleed", "(12.7 mm)"),
    ("bleed: .nan", 3, "bleed", "between 0 and 10 mm"),
    ("bleed: true", 3, "bleed", "not a length"),
    ("bleed: [3, mm]", 3, "bleed", "not a length"),
    ("safe: 21mm", 3, "safe", "safe must be between 0 and 20 mm"),
    ("dpi: 71", 3, "dpi", "must be 72 or more"),
    ("dpi: 1201", 3, "dpi", "must be 1200 or less"),
    ("dpi: true", 3, "dpi", "must be a whole number"),
    ("colour:\n  ink_limit: 401", 4, "colour.ink_limit", "must be 400 or less"),
    ("products:\n  poker:\n    size: 3000x88mm", 5, "products.poker.size", "out of range"),
    ("products:\n  poker:\n    size: 63", 5, "products.poker.size", "size must be text"),
    ("products:\n  poker:\n    size: poker\n    bleed: 11mm", 6, "products.poker.bleed", "between 0 and 10 mm"),
    ("products:\n  poker:\n    size: poker\n    safe: -1mm", 6, "products.poker.safe", "between 0 and 20 mm"),
    ("products:\n  poker:\n    size: poker\n    pixels: [0, 1122]", 6, "products.poker.pixels", "1 to 20,000"),
    ("products:\n  poker:\n    size: poker\n    pixels: [9000, 9000]", 6, "products.poker.pixels", "40,000,000"),
    ("name: ''", 1, "name", "must not be empty"),
]


def _profile(pack: Path, lines: str) -> Path:
    (pack / "printers").mkdir(exist_ok=True)
    path = pack / "printers" / "bad.yaml"
    named = lines.startswith("name:")  # the profile's own name on line 1, else `name: Bad`
    text = f"{lines}\nextends: drivethrucards\n" if named else f"name: Bad\nextends: drivethrucards\n{lines}\n"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("lines, line, field, phrase", BAD)
def test_a_value_out_of_its_range_is_refused_at_its_line(  # type: ignore[no-untyped-def]
    pack_copy, lines: str, line: int, field: str, phrase: str
) -> None:
    pack = pack_copy("muestras")
    _profile(pack, lines)
    project = pack.parents[1]
    before = tree_snapshot(project)
    res = run_cli("build", "muestras", "--printer", "bad", "--lang", "es", cwd=project)
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert f"printers/bad.yaml:{line}:" in text and f"[{field}" in text and phrase in text, text
    assert "(schema." in text, text  # a rule id, as pack.yaml's values have
    assert tree_snapshot(project) == before


@pytest.mark.parametrize("bleed, mm", [("0mm", 0.0), ("10mm", 10.0), ("0.125in", 3.175), (2, 2.0)])
def test_the_ends_of_a_range_are_values_a_profile_may_hold(tmp_path: Path, bleed: object, mm: float) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    _profile(pack, f"bleed: {bleed}\nsafe: 20mm\ndpi: 1200")
    profile = printers.load("bad", pack)
    assert (profile.bleed, profile.safe, profile.dpi) == (mm, 20.0, 1200)


@pytest.mark.parametrize("parent", ["[]", "{a: 1}", "5"])
def test_an_extends_that_is_no_name_is_refused_at_its_line(tmp_path: Path, parent: str) -> None:
    pack = tmp_path / "pack"
    (pack / "printers").mkdir(parents=True)
    (pack / "printers" / "bad.yaml").write_text(f"name: Bad\nextends: {parent}\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        printers.load("bad", pack)
    (problem,) = err.value.problems
    assert problem.loc.line == 2 and problem.field == "extends", problem
    assert "extends must be a profile's name" in problem.message or "unknown profile '5'" in problem.message
