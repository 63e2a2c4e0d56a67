"""`mazmorra build --changed-only` (what `make` runs, tests/smoke/test_make.py): a deck is rebuilt when
the options it was made with change, even with its inputs unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from mazmorra.paths import templates_dir


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with its own copy of the shipped templates (as tests/smoke/test_make.py's) and muestras."""
    shutil.copytree(templates_dir(), tmp_path / "templates")
    shutil.copytree(REPO / "content" / "muestras", tmp_path / "content" / "muestras")
    return tmp_path


def test_changed_options_rebuild_even_with_unchanged_inputs(project: Path) -> None:
    env = {"MAZMORRA_TEMPLATES": str(project / "templates")}
    assert run_cli("build", "muestras", "--lang", "es", cwd=project, env=env).returncode == 0
    pdf = project / "output/muestras/es/cartas.pdf"
    first = pdf.read_bytes()
    res = run_cli("build", "muestras", "--lang", "es", "--changed-only", cwd=project, env=env)
    assert res.returncode == 0 and pdf.read_bytes() == first and "0 PDF(s)" in res.stderr
    res = run_cli(
        "build",
        "muestras",
        "--lang",
        "es",
        "--changed-only",
        "--layout",
        "fold",
        cwd=project,
        env=env,
    )
    assert res.returncode == 0 and pdf.read_bytes() != first  # made with other options: rebuilt


def test_the_stamps_make_lists_come_from_pack_yaml_alone(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    """`python -m mazmorra.incremental` (the Makefile's listing) says what `mazmorra outputs --stamps`
    says without loading any pack: a deck file that does not even parse changes nothing; a pack.yaml
    that does not name its id makes it fail, so make asks `mazmorra validate` why."""
    from mazmorra import incremental

    monkeypatch.chdir(project)
    listed = run_cli("outputs", "--stamps", cwd=project)
    assert listed.returncode == 0 and listed.stdout.split() == [
        "output/.stamps/muestras/es.stamp",
        "output/.stamps/muestras/en.stamp",
    ]
    (project / "content/muestras/decks/cartas.yaml").write_text("- [unclosed", encoding="utf-8")
    assert incremental.main(["output"]) == 0
    assert capsys.readouterr().out.split() == listed.stdout.split()
    pack_yaml = project / "content/muestras/pack.yaml"
    pack_yaml.write_text(
        pack_yaml.read_text(encoding="utf-8").replace("id: muestras", "ids: muestras"), encoding="utf-8"
    )
    assert incremental.main(["output"]) == 1
