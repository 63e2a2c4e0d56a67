"""Printer profiles are the shipped folder (mazmorra/printers/*.yaml): `build --printer`'s help,
`mazmorra printers`, the docs and the tests all follow it, and a meta-test names a profile one of
them lacks."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import REPO, run_cli

from mazmorra import printers
from mazmorra.support.paths import PRINTERS_DIR

DOCS = REPO / "docs" / "printing.md"


def undocumented(names: list[str], this: Path) -> list[str]:
    """What each profile lacks: its section (`### NAME`) in docs/printing.md, a test (a test file other
    than `this`) that names it."""
    headings = set(re.findall(r"^#+ (.+?)\s*$", DOCS.read_text(encoding="utf-8"), re.M))
    tests = [
        p.read_text(encoding="utf-8") for p in (REPO / "tests").rglob("test_*.py") if p.resolve() != this.resolve()
    ]
    missing = []
    for name in names:
        if name not in headings:
            missing.append(f"{name}: no section '### {name}' in docs/printing.md")
        said = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if not any(said.search(text) for text in tests):
            missing.append(f"{name}: no test names it")
    return missing


def test_every_shipped_profile_is_in_the_help_the_listing_the_docs_and_a_test() -> None:
    shipped = printers.names()  # without a pack: the files of the shipped folder
    assert len(shipped) == len(list(PRINTERS_DIR.glob("*.yaml"))) >= 6
    shown = " ".join(run_cli("build", "--help").stdout.split())
    assert f"lists them: {', '.join(shipped)}, or the pack's" in shown
    listed = run_cli("printers")
    assert listed.returncode == 0, listed.stderr
    assert [name for name in shipped if name not in listed.stdout] == []
    assert undocumented(shipped, Path(__file__)) == []


def test_a_profile_without_its_docs_or_test_is_named() -> None:
    assert undocumented(["home-a5"], Path(__file__)) == [
        "home-a5: no section '### home-a5' in docs/printing.md",
        "home-a5: no test names it",
    ]
