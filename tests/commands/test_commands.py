"""The commands a designer starts with: `mazmorra new` gives a pack that builds at once, `--help`
lists the commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli


@pytest.mark.slow
def test_new_pack_builds_at_once(tmp_path: Path) -> None:
    res = run_cli("new", "mi-juego", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    res = run_cli("build", "mi-juego", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "output/mi-juego/es/cartas.pdf").is_file()
    assert (tmp_path / "output/mi-juego/en/cards.pdf").is_file()  # the skeleton names its deck in English
    again = run_cli("new", "mi-juego", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_help_lists_commands() -> None:
    res = run_cli("--help")
    assert res.returncode == 0
    for cmd in ("validate", "build", "new", "i18n"):
        assert cmd in res.stdout


def test_a_pack_kept_in_its_own_folder_says_how_to_build_it(tmp_path: Path) -> None:
    """The new pack's first comments name the folder it was created in; the command they give works."""
    work = tmp_path / "work"
    work.mkdir()
    res = run_cli("new", "brujas", "--content", "../juegos", cwd=work)
    assert res.returncode == 0, res.stderr
    head = (tmp_path / "juegos" / "brujas" / "pack.yaml").read_text(encoding="utf-8").splitlines()[:5]
    build = next(line for line in head if "mazmorra build" in line)
    command = build.split("mazmorra ", 1)[1].split()
    assert command == ["build", "../juegos/brujas"], build
    assert (work / command[1] / "pack.yaml").is_file()
    assert all("content/" not in line for line in head), head  # no path that does not exist
    res = run_cli(*command, cwd=work)
    assert res.returncode == 0, res.stderr
    assert (work / "output" / "brujas" / "en" / "cards.pdf").is_file()


def test_validate_dot_names_the_pack(tmp_path: Path) -> None:
    assert run_cli("new", "brujas", "--content", ".", cwd=tmp_path).returncode == 0
    res = run_cli("validate", ".", cwd=tmp_path / "brujas")
    assert res.returncode == 0, res.stderr
    assert "✓ brujas: valid" in res.stderr
