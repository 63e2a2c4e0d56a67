"""Start-up: what `mazmorra --help` and `mazmorra validate` import. The time itself is measured by
`make bench` (bench/live.py); here the import graph, which is what makes it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import CLI_ENV, REPO

pytestmark = pytest.mark.slow  # not in the fast tier: fresh interpreters

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


def _imported(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """Top-level packages (and reportlab's subpackages) imported by `mazmorra ARGS` in a fresh process."""
    code = (
        "import sys, json\n"
        f"sys.argv = ['mazmorra', *{list(args)!r}]\n"
        "from mazmorra.commands import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "names = {'.'.join(m.split('.')[:2]) if m.startswith('reportlab.') else m.split('.')[0] for m in sys.modules}\n"
        "print(json.dumps(sorted(names)))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**CLI_ENV, "PATH": "/usr/bin:/bin", **(env or {})},
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    return set(json.loads(res.stdout.strip().splitlines()[-1]))


def test_help_imports_none_of_the_heavy_libraries() -> None:
    for args in (("--help",), ("--version",)):
        assert _imported(*args) & set(HEAVY) == set(), args
    # A command's own help: Typer itself builds its option converters with pydantic; nothing of ours.
    assert _imported("build", "--help") & set(HEAVY) <= {"pydantic"}
    # Completing `mazmorra build --png`, which reads every sink's options: the same.
    completing = {"_MAZMORRA_COMPLETE": "complete_bash", "COMP_WORDS": "mazmorra build --png", "COMP_CWORD": "2"}
    assert _imported(env=completing) & set(HEAVY) <= {"pydantic"}


def test_every_sink_module_imports_no_drawing_rasterising_or_svg() -> None:
    """The sink table imports every module of the sinks' package to read what it declares (for
    `--help`, completion and `validate`): each one alone, in a fresh process, brings none of them."""
    code = (
        "import importlib, json, pkgutil, sys\n"
        "import mazmorra.render.sinks as package\n"
        "names = [m.name for m in pkgutil.iter_modules(package.__path__, package.__name__ + '.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps([names, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=CLI_ENV, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    names, found = json.loads(res.stdout)
    assert "mazmorra.render.sinks.pdf" in names and "mazmorra.render.sinks.png" in names
    assert set(found) & {"reportlab", "pypdfium2", "svglib", "PIL", "pydantic", "yaml", "jinja2"} == set()


def test_validate_imports_no_pdf_drawing_rasterising_or_svg() -> None:
    found = _imported("validate", "muestras")
    assert {"pydantic", "jinja2", "yaml"} <= found  # what checking a pack does need
    assert found & {"pypdfium2", "svglib", "reportlab.pdfgen", "reportlab.graphics", "reportlab.platypus"} == set()


def _modules(*args: str, cwd: object = REPO) -> set[str]:
    """Every module `mazmorra ARGS` imported, in a fresh process."""
    code = (
        "import sys, json\n"
        f"sys.argv = ['mazmorra', *{list(args)!r}]\n"
        "from mazmorra.commands import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env={**CLI_ENV, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    return set(json.loads(res.stdout.strip().splitlines()[-1]))


def test_a_pdf_build_imports_no_rasteriser_no_round_machinery_and_no_network(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """What `make` runs after a save: the PDF sink's drawing only (every sink module is read for its
    declaration, but no rasteriser, no image libraries), no playtest round's diffing, no
    urllib/http/ssl (xml.sax.saxutils would bring them); and with every face in the cache, no
    hyphenation dictionaries either."""
    found = _modules("build", "muestras", "--lang", "es", "-j", "1", "--out", str(tmp_path / "out"))
    assert "mazmorra.render.draw.pdfpages" in found  # it did draw
    others = {"mazmorra.render.raster", "mazmorra.rounds.compare"}
    assert found & (others | {"tarfile", "urllib.request", "ssl", "pypdfium2"}) == set()
    with_png = _modules("build", "muestras", "--lang", "es", "-j", "1", "--png", "--out", str(tmp_path / "png"))
    assert {"mazmorra.render.raster", "pypdfium2"} <= with_png  # asked for: imported
    assert "pyphen" in found  # the first build laid the faces out: hyphenation
    again = _modules("build", "muestras", "--lang", "es", "-j", "1", "--out", str(tmp_path / "out"))
    assert "mazmorra.render.draw.pdfpages" in again
    assert "pyphen" not in again  # every face from the cache: no line breaking
