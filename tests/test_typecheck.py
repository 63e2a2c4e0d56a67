"""The package stays mypy-clean (house style): a type error fails the suite like any other defect."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO


def test_package_is_mypy_clean() -> None:
    pytest.importorskip("mypy")
    res = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-error-summary",
                          "cli/mazmorra"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
