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
