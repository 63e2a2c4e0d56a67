"""`make test` on a machine without the external judges: their tests are skipped, and one line at
the end says what to install; with MAZMORRA_REQUIRE_TOOLS (CI) they fail instead."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # not in the fast tier: pytest run again in subprocesses

# Two tests of the suite that each need an external judge before anything else (no build first):
# msgfmt (gettext) and pdftoppm (poppler-utils).
JUDGED = (
    "tests/kinds/test_kinds_meta.py::test_shared_label_catalogue_passes_msgfmt",
    "tests/kinds/bagdraw/test_profundidades.py::test_map_card_draws_its_yaml_on_both_sides_mirrored_for_long_edge",
)


def _pytest(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    bare = {k: v for k, v in os.environ.items() if k != "MAZMORRA_REQUIRE_TOOLS"}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *JUDGED,
        ],
        cwd=REPO,
        env={**bare, "PATH": "/nonexistent", **env},  # no msgfmt, no pdftoppm
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_missing_tools_are_skipped_with_one_line_naming_what_to_install() -> None:
    res = _pytest({})
    assert res.returncode == 0, res.stdout + res.stderr
    lines = [line for line in res.stdout.splitlines() if "install them with" in line]
    assert lines == [
        "skipped 2 test(s) needing msgfmt, pdftoppm: install them with `sudo apt-get install gettext "
        "poppler-utils` (or your system's packages; see CONTRIBUTING.md, External judges)"
    ], res.stdout
    assert "2 skipped" in res.stdout


def test_ci_requires_them() -> None:
    res = _pytest({"MAZMORRA_REQUIRE_TOOLS": "1"})
    assert res.returncode == 1
    assert "2 failed" in res.stdout and "is required (MAZMORRA_REQUIRE_TOOLS is set)" in res.stdout
