"""Pack formats: a pack of every past format (tests/fixtures/_formats/) builds, upgraded in memory
with a warning naming each change; `mazmorra upgrade` rewrites it keeping comments and order, and the
rewritten pack builds the same PDF without a warning."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, edit, pdf_text, run_cli

from mazmorra.load.formats import CHANGES, CURRENT

PAST = sorted((FIXTURES / "_formats").iterdir())


def _project(tmp_path: Path, fixture: Path) -> Path:
    pack = tmp_path / "content" / "fmt"
    shutil.copytree(fixture, pack)
    return pack


def test_a_pack_is_kept_for_every_past_format() -> None:
    assert [p.name for p in PAST] == [f"format-{n}" for n in range(1, CURRENT)]


@pytest.mark.slow
@pytest.mark.parametrize("fixture", PAST, ids=lambda p: p.name)
def test_a_past_format_builds_with_a_warning_per_change(fixture: Path, tmp_path: Path) -> None:
    pack = _project(tmp_path, fixture)
    res = run_cli("build", "fmt", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    line = next(
        i for i, t in enumerate((pack / "decks" / "jefe.yaml").read_text().splitlines(), 1) if "back_effect:" in t
    )
    assert (
        f"content/fmt/decks/jefe.yaml:{line}:16: warning [ismara.back_effect]: `back_effect` became `back_effects` "
        "in pack format 2 (a list of zone effects: the old value is its one item); read as `back_effects`: run "
        "`mazmorra upgrade PACK` to rewrite the pack in the current format (format.renamed)"
    ) in res.stderr
    assert "Ismara embelesada" in pdf_text(tmp_path / "output" / "fmt1" / "es" / "jefe.pdf")  # the back profile
    strict = run_cli("build", "fmt", "--strict", "--out", str(tmp_path / "strict"), cwd=tmp_path)
    assert strict.returncode == 1 and "format.renamed" in strict.stderr  # --strict: deprecated names fail


@pytest.mark.slow
@pytest.mark.parametrize("fixture", PAST, ids=lambda p: p.name)
def test_upgrade_rewrites_keeping_comments_and_builds_the_same(fixture: Path, tmp_path: Path) -> None:
    pack = _project(tmp_path, fixture)
    before = run_cli("build", "fmt", "--out", str(tmp_path / "before"), cwd=tmp_path)
    assert before.returncode == 0, before.stderr
    old = {p.relative_to(pack): p.read_text(encoding="utf-8") for p in pack.rglob("*.yaml")}

    res = run_cli("upgrade", "fmt", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    last = len(old[Path("pack.yaml")].splitlines()) + 1
    assert f"content/fmt/pack.yaml:{last}:1: format: 2 added (it was format 1)" in res.stdout
    assert "back_effect → back_effects (made a list)" in res.stdout

    jefe = (pack / "decks" / "jefe.yaml").read_text(encoding="utf-8").splitlines()
    was = old[Path("decks/jefe.yaml")].splitlines()
    at = next(i for i, t in enumerate(was) if "back_effect:" in t)
    assert jefe[:at] == was[:at] and jefe[at + 2 :] == was[at + 1 :]  # every other line as it was
    assert jefe[at : at + 2] == ["  back_effects:", "    - {type: bad_luck, n: 1}  # the profile's one zone effect"]
    pack_yaml = (pack / "pack.yaml").read_text(encoding="utf-8").splitlines()
    assert pack_yaml[-1] == f"format: {CURRENT}  # the pack format (docs/formats.md)"
    assert pack_yaml[:-1] == old[Path("pack.yaml")].splitlines()  # every line, comments and order kept

    after = run_cli("build", "fmt", "--strict", "--out", str(tmp_path / "after"), cwd=tmp_path)
    assert after.returncode == 0 and "warning" not in after.stderr, after.stderr
    pdfs = sorted(p.relative_to(tmp_path / "before") for p in (tmp_path / "before").rglob("*.pdf"))
    assert pdfs
    for rel in pdfs:
        assert (tmp_path / "before" / rel).read_bytes() == (tmp_path / "after" / rel).read_bytes(), rel

    again = run_cli("upgrade", "fmt", cwd=tmp_path)
    assert again.returncode == 0 and f"already in pack format {CURRENT}" in again.stderr


def test_upgrade_dry_run_writes_nothing(tmp_path: Path) -> None:
    pack = _project(tmp_path, PAST[0])
    before = {p: p.read_bytes() for p in pack.rglob("*") if p.is_file()}
    res = run_cli("upgrade", "fmt", "--dry-run", cwd=tmp_path)
    assert res.returncode == 0 and "would be upgraded" in res.stderr
    assert {p: p.read_bytes() for p in pack.rglob("*") if p.is_file()} == before


def test_a_block_value_becomes_the_lists_one_item(tmp_path: Path) -> None:
    pack = _project(tmp_path, PAST[0])
    edit(
        pack / "decks" / "jefe.yaml",
        "  back_effect: {type: bad_luck, n: 1}  # the profile's one zone effect\n",
        "  back_effect:\n    # the profile's one zone effect\n    type: bad_luck\n    n: 1\n",
    )
    assert run_cli("upgrade", "fmt", cwd=tmp_path).returncode == 0
    text = (pack / "decks" / "jefe.yaml").read_text(encoding="utf-8")
    assert "  back_effects:\n    # the profile's one zone effect\n    - type: bad_luck\n      n: 1\n" in text
    res = run_cli("validate", "fmt", "--strict", cwd=tmp_path)
    assert res.returncode == 0, res.stderr


def test_the_current_format_still_reads_a_deprecated_name(tmp_path: Path) -> None:
    """The deprecation path: a pack that says `format: 2` and still writes `back_effect` is read,
    with the warning, until the format that removes the old name."""
    pack = _project(tmp_path, PAST[0])
    edit(pack / "pack.yaml", "id: fmt1", f"format: {CURRENT}\nid: fmt1")
    res = run_cli("validate", "fmt", cwd=tmp_path)
    assert res.returncode == 0 and "(format.renamed)" in res.stderr, res.stderr
    assert all(c.until > CURRENT for c in CHANGES)  # every rename still has its deprecation window open


def test_old_and_new_name_together_is_an_error(tmp_path: Path) -> None:
    pack = _project(tmp_path, PAST[0])
    edit(pack / "decks" / "jefe.yaml", "  back_effect:", "  back_effects: [{type: stop}]\n  back_effect:")
    res = run_cli("validate", "fmt", cwd=tmp_path)
    assert res.returncode == 1
    assert "both `back_effect` and `back_effects`" in res.stderr and "(format.renamed)" in res.stderr
    up = run_cli("upgrade", "fmt", cwd=tmp_path)
    assert up.returncode == 1 and "keep only `back_effects`" in up.stderr
    assert "format: 2" not in (pack / "pack.yaml").read_text(encoding="utf-8")  # nothing written


def test_a_format_newer_than_the_tool_is_refused_at_its_line(tmp_path: Path) -> None:
    pack = _project(tmp_path, PAST[0])
    edit(pack / "pack.yaml", "id: fmt1", f"format: {CURRENT + 1}\nid: fmt1")
    res = run_cli("validate", "fmt", cwd=tmp_path)
    assert res.returncode == 1
    assert (
        f"content/fmt/pack.yaml:3:9: error [pack.format]: the pack is in format {CURRENT + 1}; this version of "
        f"mazmorra reads formats up to {CURRENT}: install a newer one (format.newer)"
    ) in res.stderr, res.stderr
