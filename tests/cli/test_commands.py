"""The commands a designer starts with: `mazmorra new` gives a pack that builds at once, `--help`
lists the commands."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli


def test_new_pack_builds_at_once(tmp_path: Path) -> None:
    res = run_cli("new", "mi-juego", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    res = run_cli("build", "mi-juego", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "output/mi-juego/es/cartas.pdf").is_file()
    assert (tmp_path / "output/mi-juego/en/cartas.pdf").is_file()
    again = run_cli("new", "mi-juego", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_help_lists_commands() -> None:
    res = run_cli("--help")
    assert res.returncode == 0
    for cmd in ("validate", "build", "new", "i18n"):
        assert cmd in res.stdout
