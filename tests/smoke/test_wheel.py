"""Smoke test: the tool works the same installed from a wheel as from the checkout.

A wheel is built from the checkout's tracked files (as a fresh clone has them) and installed into a
new virtual environment; in an empty folder, that environment's `mazmorra` starts a pack, builds
it with every export, validates it and reports its translations. Dependencies come from this test
environment (a .pth file, the locked versions), so no network is needed; the package itself only from
the wheel. With MAZMORRA_WHEEL_FROM_RANGES=1 (`make check-ranges`) the new environment instead installs
the wheel with pip as a user would, every dependency the newest release its range in pyproject.toml
allows: the check that the ranges still hold, kept out of the locked suite so that a new release
upstream cannot turn it red.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # not in the fast tier: a wheel built and installed in a new venv


def _run(*args: str | Path, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAZMORRA_", "PYTHON"))}
    res = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env={**env, "CI": "1", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, f"{args}:\n{res.stdout}\n{res.stderr}"
    return res.stdout + res.stderr


def test_the_wheel_runs_every_command_outside_the_checkout(tmp_path: Path) -> None:
    src = tmp_path / "clone"
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, tracked):
        if (REPO / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-q",
        "-w",
        tmp_path / "dist",
        src,
        cwd=tmp_path,
    )
    wheel = next((tmp_path / "dist").glob("mazmorra-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for shipped in (
        "mazmorra/templates/card.xml.j2",
        "mazmorra/templates/locale/es.po",
        "mazmorra/icons/coin.svg",
        "mazmorra/fonts/DejaVuSansCondensed.ttf",
        "mazmorra/skeleton/pack.yaml",
        "mazmorra/kinds/expedition/reference.yaml",  # a family's reference edition ships with it
        "mazmorra/kinds/crawler/kinds/map_tile.yaml",  # a family's kinds declared in YAML ship with it
        "mazmorra/kinds/rooms/kinds/room.yaml",
        "mazmorra/templates/grid-data.xml.j2",
        "mazmorra/printers/drivethrucards.yaml",  # printer profiles and the CMYK profiles ship with it
        "mazmorra/icc/swop-tr005-240.icc",
        "mazmorra/icc/README.md",
    ):
        assert shipped in names, shipped

    venv = tmp_path / "venv"
    if os.environ.get("MAZMORRA_WHEEL_FROM_RANGES") == "1":
        _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
        _run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path)
        _smoke(venv, venv / "lib", tmp_path)
        return
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    site = Path(
        subprocess.run(
            [
                venv / "bin" / "python",
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        venv / "bin" / "python",
        "install",
        "--no-deps",
        "--no-index",
        "-q",
        wheel,
        cwd=tmp_path,
    )

    _smoke(venv, site, tmp_path)


def _smoke(venv: Path, site: Path, tmp_path: Path) -> None:
    """Every command, run by the environment's own `mazmorra` in an empty folder."""
    work = tmp_path / "empty"
    work.mkdir()
    mz = venv / "bin" / "mazmorra"
    located = _run(venv / "bin" / "python", "-c", "import mazmorra; print(mazmorra.__file__)", cwd=work)
    assert str(site) in located, "mazmorra must come from the wheel, not the checkout"
    _run(mz, "new", "demo", cwd=work)
    _run(mz, "build", cwd=work)
    assert (work / "output/demo/es/cartas.pdf").is_file() and (work / "output/demo/en/cards.pdf").is_file()
    _run(mz, "build", "--no-pdf", "--png", "--tts", "--gallery", cwd=work)
    assert list((work / "output/demo/es/png").rglob("*.png")) and (work / "output/demo/gallery/index.html").is_file()
    assert list((work / "output/demo/en/tts").glob("*.json"))
    assert "drivethrucards" in _run(mz, "printers", cwd=work)
    _run(mz, "build", "--printer", "drivethrucards", "--lang", "en", cwd=work)
    assert list((work / "output/demo/en/drivethrucards").glob("*.pdf"))
    _run(mz, "validate", cwd=work)
    _run(mz, "i18n", "status", cwd=work)
    _run(mz, "i18n", "update", cwd=work)
    # a game of a family whose kinds ship as kind files, started from a sample outside the checkout's cwd
    _run(mz, "new", "laberinto", "--from", str(REPO / "content" / "engranajes"), cwd=work)
    _run(mz, "build", "laberinto", "--lang", "en", cwd=work)
    assert (work / "output/laberinto/en/rooms.pdf").is_file()
