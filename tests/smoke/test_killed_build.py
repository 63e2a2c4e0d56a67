"""Crash safety in a real process: a build killed (SIGKILL) mid-write leaves the previous output or a
complete new one, never a partial or temporary file."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, wait_until

pytestmark = pytest.mark.slow  # not in the fast tier: real processes killed mid-build


def _big_pack(project: Path, n: int) -> Path:
    pack = project / "content" / "fixture"
    shutil.copytree(FIXTURES / "_base", pack)
    items = "".join(
        f'- id: c{i}\n  name: "Carta {i}"\n  text: "Roba {{draw:2}} y gana {{coin}}. '
        f'Texto de relleno número {i} para llenar la caja."\n'
        for i in range(n)
    )
    (pack / "decks" / "cartas.yaml").write_text(items, encoding="utf-8")
    return pack


KILL_CMD = [sys.executable, "-m", "mazmorra", "build", "fixture", "--lang", "es", "--draft"]


@pytest.fixture(scope="module")
def built_big(tmp_path_factory) -> Path:
    """A 3,000-card pack built in a real process: the project."""
    project = tmp_path_factory.mktemp("big")
    _big_pack(project, 3000)
    done = subprocess.run(KILL_CMD, cwd=project, env=dict(os.environ, CI="1"), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return project


def _staged(project: Path) -> int:
    """Bytes a build has written so far in its scratch folder (its chunks of pages, then the PDF they
    are merged into), files vanishing as it goes."""
    total = 0
    for p in (project / ".mazmorra-tmp").glob("*"):
        with contextlib.suppress(FileNotFoundError):
            total += p.stat().st_size
    return total


@pytest.mark.parametrize("fraction", [0.1, 0.35, 0.6])
def test_a_build_killed_mid_write_leaves_no_partial_file(built_big: Path, tmp_path: Path, fraction: float) -> None:
    """Killed once it has written that share of the previous PDF's size (what its pages are drawn into
    before they are merged): early, midway and late in writing, whatever the machine's speed."""
    from pypdf import PdfReader

    project = tmp_path / "project"
    shutil.copytree(built_big, project, symlinks=True)
    before = (project / "output/fixture/es/cartas.pdf").read_bytes()
    proc = subprocess.Popen(
        [*KILL_CMD, "--page", "letter"],
        cwd=project,
        env=dict(os.environ, CI="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: proc.poll() is not None or _staged(project) >= fraction * len(before), "the build to write")
        assert proc.poll() is None, "the build finished before it could be killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    files = sorted(p for p in (project / "output").rglob("*") if p.is_file())
    assert [p.name for p in files if p.suffix == ".pdf"] == ["cartas.pdf"]
    assert not [p for p in files if "tmp" in p.name], files
    pdf = project / "output/fixture/es/cartas.pdf"
    data = pdf.read_bytes()
    assert data == before or len(PdfReader(str(pdf)).pages) > 0  # the old file, or a complete new one


def _stopped(pid: int) -> bool:
    """Whether the process has stopped itself (SIGSTOP): its state in /proc is T."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "T"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see a stopped process")
@pytest.mark.parametrize("point", ["start", "render", "staged", "commit"])
def test_a_killed_build_leaves_nothing_once_any_command_runs(pack_copy, point: str) -> None:
    """SIGKILL at four points of a real build (MAZMORRA_STOP_AT stops it there first): before anything
    is written, with temporary files half made, with all of them staged, and with one of them renamed.
    No output folder exists before the commit step; the next command, whichever, removes every
    temporary file, and nothing else is left but complete files."""
    from conftest import run_cli

    pack = pack_copy("muestras")
    project = pack.parents[1]
    env = dict(os.environ, CI="1", MAZMORRA_JOBS="1", MAZMORRA_STOP_AT=point)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazmorra", "build", "muestras", "--png", "--tts"],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: proc.poll() is not None or _stopped(proc.pid), f"the build to reach {point!r}")
        assert proc.poll() is None, f"the build ended before reaching {point!r}"
    finally:
        proc.kill()
        proc.wait()
    temps = list(project.rglob(".mazmorra-tmp*"))
    out = project / "output"
    if point in ("render", "staged"):
        assert [p for p in temps if p.is_file()], "killed with temporary files made"

    def visible(folder: Path) -> list[Path]:  # the face cache (output/.cache) is hidden, kept on purpose
        return [p for p in folder.rglob("*") if not any(s.startswith(".") for s in p.relative_to(folder).parts)]

    if point == "commit":
        assert [p for p in visible(out) if p.is_file()], "killed with one file renamed"
    else:
        assert not out.exists() or visible(out) == []  # no visible output folder before the commit step
    assert all(t.name.startswith(".") for t in temps)  # hidden while they last

    res = run_cli("kinds", cwd=project)  # any command
    assert res.returncode == 0, res.stderr
    assert not list(project.rglob(".mazmorra-tmp*"))
    if out.exists():
        assert not [d for d in visible(out) if d.is_dir() and not any(d.iterdir())]  # no empty folder
        assert all(p.stat().st_size > 0 for p in visible(out) if p.is_file())
