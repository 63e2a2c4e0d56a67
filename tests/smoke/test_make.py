"""Issue 7: `make` builds incrementally from the dependency files `mazmorra build` writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, wait_until

from mazmorra.support.paths import templates_dir

pytestmark = pytest.mark.slow  # not in the fast tier: make and real processes


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the repository's Makefile, templates and two packs, with .venv pointing at this Python."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    shutil.copy(REPO / "Makefile", tmp_path / "Makefile")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(REPO / "requirements", tmp_path / "requirements")  # the lock .venv/.installed follows
    shutil.copytree(templates_dir(), tmp_path / "templates")
    for pack in ("muestras", "profundidades"):
        shutil.copytree(REPO / "content" / pack, tmp_path / "content" / pack)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')  # this Python, its venv kept
    (bin_dir / "python").chmod(0o755)
    script = bin_dir / "mazmorra"
    script.write_text(f'#!/bin/sh\nexec {sys.executable} -m mazmorra "$@"\n')
    script.chmod(0o755)
    (tmp_path / ".venv" / ".installed").touch()
    return tmp_path


def make(project: Path, *args: str) -> str:
    env = dict(os.environ, CI="1", MAZMORRA_TEMPLATES=str(project / "templates"))
    res = subprocess.run(["make", *args], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout + res.stderr


def after_the_build(project: Path) -> None:
    """Wait until the file clock has moved past the newest file the last build wrote (file times come
    from the kernel's coarse clock, a few ms wide): a file written now is newer, as a person's edit is."""
    newest = max((p.stat().st_mtime_ns for p in (project / "output").rglob("*") if p.is_file()), default=0)
    clock = project / ".clock"

    def moved() -> bool:
        clock.touch()
        return clock.stat().st_mtime_ns > newest

    wait_until(moved, "the file clock to pass the last build")


def touch(project: Path, path: str) -> None:
    """Edit a file of the project the way a person does: after the last build."""
    after_the_build(project)
    (project / path).touch()


def pdfs(project: Path) -> dict[str, float]:
    return {str(p.relative_to(project)): p.stat().st_mtime_ns for p in sorted((project / "output").rglob("*.pdf"))}


def test_make_builds_everything_then_nothing_then_only_what_changed(project: Path) -> None:
    make(project)
    first = pdfs(project)
    assert "output/muestras/es/cartas.pdf" in first and "output/profundidades/en/entrance-maps.pdf" in first
    assert len(first) == 2 * (1 + 6)  # muestras' one deck, profundidades' six (the credits card's included)
    assert (project / "output/.deps/muestras/es/cartas.d").is_file()

    out = make(project)
    assert "Nothing to be done" in out and pdfs(project) == first

    touch(project, "content/profundidades/decks/fichas.yaml")
    make(project)
    after = pdfs(project)
    changed = sorted(k for k in after if after[k] != first[k])
    assert changed == ["output/profundidades/en/chips.pdf", "output/profundidades/es/fichas.pdf"]

    touch(project, "content/profundidades/locale/en.po")
    make(project)
    again = pdfs(project)
    changed = sorted(k for k in again if again[k] != after[k])
    assert changed == sorted(k for k in again if k.startswith("output/profundidades/en/"))

    touch(project, "templates/chip-face.xml.j2")  # included by the chip and the bag templates
    make(project, "-j2")
    last = pdfs(project)
    changed = sorted(k for k in last if last[k] != again[k])
    assert changed == [
        "output/profundidades/en/chips.pdf",
        "output/profundidades/en/starting-bag.pdf",
        "output/profundidades/es/bolsas.pdf",
        "output/profundidades/es/fichas.pdf",
    ]


def test_renamed_deck_leaves_nothing_stale_and_make_settles(project: Path) -> None:
    make(project)
    after_the_build(project)
    pack = project / "content/profundidades"
    (pack / "decks/fichas.yaml").rename(pack / "decks/chips.yaml")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(
        text.replace("id: fichas", "id: chips").replace("decks/fichas.yaml", "decks/chips.yaml"),
        encoding="utf-8",
    )
    po = pack / "locale/en.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('"deck:fichas.name"', '"deck:chips.name"'),
        encoding="utf-8",
    )
    make(project)
    names = sorted(p.name for p in (project / "output/profundidades/es").glob("*.pdf"))
    assert "chips.pdf" in names and "fichas.pdf" not in names
    assert not (project / "output/.deps/profundidades/es/fichas.d").exists()
    assert "Nothing to be done" in make(project)
    # the deck's English file name changed: its English outputs follow, the old ones go
    after_the_build(project)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(text.replace("{en: chips}", "{en: counters}"), encoding="utf-8")
    make(project)
    names = sorted(p.name for p in (project / "output/profundidades/en").glob("*.pdf"))
    assert "counters.pdf" in names and "chips.pdf" not in names
    assert not (project / "output/.deps/profundidades/en/chips.d").exists()
    assert "Nothing to be done" in make(project)


def test_one_build_process_makes_every_stale_pack_and_language(project: Path) -> None:
    """Stale stamps of two packs: one `mazmorra build --changed-only` for both, with make's -jN workers;
    a failed build leaves its stamps stale, so the next `make` tries them again."""
    make(project)
    first = pdfs(project)
    touch(project, "content/profundidades/decks/fichas.yaml")
    touch(project, "content/muestras/decks/cartas.yaml")
    out = make(project, "-j2")
    assert out.count("mazmorra build") == 1, out
    assert "build muestras profundidades  --changed-only --out output -j 2" in out
    after = pdfs(project)
    assert sorted(k for k in after if after[k] != first[k]) == [
        "output/muestras/en/loose-cards.pdf",
        "output/muestras/es/cartas.pdf",
        "output/profundidades/en/chips.pdf",
        "output/profundidades/es/fichas.pdf",
    ]
    deck = project / "content/muestras/decks/cartas.yaml"
    good = deck.read_text(encoding="utf-8")
    after_the_build(project)
    deck.write_text(good.replace("copies: 2", "copies: many"), encoding="utf-8")
    env = dict(os.environ, CI="1", MAZMORRA_TEMPLATES=str(project / "templates"))
    failed = subprocess.run(["make"], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0 and "copies" in failed.stderr
    assert not (project / "output/.stamps/muestras/es.stamp").exists()
    after_the_build(project)
    deck.write_text(good, encoding="utf-8")
    assert "build muestras" in make(project) and "Nothing to be done" in make(project)
