"""`mazmorra build` on a real terminal (a pseudo-terminal): the live progress display runs, and the
build reports as it does in plain logs. Every other test runs without a terminal (CI=1, pipes), where
the progress display is plain lines."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # not in the fast tier: builds on a pseudo-terminal

pty = pytest.importorskip("pty")


def _on_a_terminal(args: list[str], cwd: os.PathLike[str] | str) -> tuple[int, str]:
    """Run `python -m mazmorra ARGS` with its stderr on a pseudo-terminal: its exit code and what the
    terminal showed, colours and cursor moves taken out."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR", "TTY_COMPATIBLE", "FORCE_COLOR")}
    env |= {"TERM": "xterm-256color", "COLUMNS": "120", "MAZMORRA_JOBS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazmorra", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
    )
    os.close(slave)
    shown = bytearray()
    try:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end closed: the process has ended
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
        code = proc.wait(timeout=300)
    text = shown.decode("utf-8", "replace").replace("\r", "\n")
    return code, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


@pytest.mark.parametrize(
    ("packs", "label"),
    [(("muestras",), "building muestras"), (("engranajes", "generada", "grimorio"), "building 3 packs")],
)
def test_a_build_on_a_terminal_shows_its_progress_and_reports(pack_copy, packs: tuple[str, ...], label: str) -> None:
    """One pack (its components counted), and three packs shared out over a pool of two processes
    (the packs counted)."""
    for name in packs:
        project = pack_copy(name).parents[1]
    code, shown = _on_a_terminal(["build", "-j", "2"], project)
    assert code == 0, shown
    assert "internal error" not in shown and "Traceback" not in shown
    assert label in shown  # the live progress display
    for name in packs:
        assert f"✓ {name}:" in shown
