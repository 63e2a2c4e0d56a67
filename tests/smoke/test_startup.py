"""Start-up: what `mazmorra --help` and `mazmorra validate` import. The time itself is measured by
`make bench` (bench/live.py); here the import graph, which is what makes it."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import CLI_ENV, REPO

HEAVY = (
    "reportlab",
    "pypdfium2",
    "svglib",
    "PIL",
    "pydantic",
    "jinja2",
    "babel",
    "pyphen",
    "yaml",
    "rich",
    "watchfiles",
)


def _imported(*args: str) -> set[str]:
    """Top-level packages (and reportlab's subpackages) imported by `mazmorra ARGS` in a fresh process."""
    code = (
        "import sys, json\n"
        f"sys.argv = ['mazmorra', *{list(args)!r}]\n"
        "from mazmorra.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "names = {'.'.join(m.split('.')[:2]) if m.startswith('reportlab.') else m.split('.')[0] for m in sys.modules}\n"
        "print(json.dumps(sorted(names)))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env={**CLI_ENV, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    return set(json.loads(res.stdout.strip().splitlines()[-1]))


def test_help_imports_none_of_the_heavy_libraries() -> None:
    for args in (("--help",), ("--version",)):
        assert _imported(*args) & set(HEAVY) == set(), args
    # A command's own help: Typer itself builds its option converters with pydantic; nothing of ours.
    assert _imported("build", "--help") & set(HEAVY) <= {"pydantic"}


def test_validate_imports_no_pdf_drawing_rasterising_or_svg() -> None:
    found = _imported("validate", "muestras")
    assert {"pydantic", "jinja2", "yaml"} <= found  # what checking a pack does need
    assert found & {"pypdfium2", "svglib", "reportlab.pdfgen", "reportlab.graphics", "reportlab.platypus"} == set()
