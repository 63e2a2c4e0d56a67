"""The code stays clean by the project's own standards (house style 9): mypy strict on the package,
ruff's lint rules and formatting on everything. A finding fails the suite like any other defect."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # not in the fast tier: mypy and ruff over the whole project


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        if os.environ.get("MAZMORRA_REQUIRE_TOOLS"):
            pytest.fail(f"{module} is required (MAZMORRA_REQUIRE_TOOLS is set): pip install -e '.[test]'")
        pytest.skip(f"{module} not installed (pip install -e '.[test]')")


def _run(*args: str) -> None:
    res = subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr


def test_package_is_mypy_strict_clean() -> None:
    _need("mypy")
    _run("mypy", "--no-error-summary")  # strict, on cli/mazmorra: [tool.mypy] in pyproject.toml


def test_ruff_finds_nothing() -> None:
    _need("ruff")
    _run("ruff", "check", "--no-cache", "cli", "tests", "bench")


def test_code_is_ruff_formatted() -> None:
    _need("ruff")
    _run("ruff", "format", "--check", "--no-cache", "cli", "tests", "bench")
