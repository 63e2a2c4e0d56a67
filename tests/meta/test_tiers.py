"""The suite's two tiers: `make test-fast` (-m "not slow") keeps most of the tests, and every folder that
holds tests is one pytest collects (its default norecursedirs would skip a folder named build/)."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys

import pytest
from conftest import REPO, TESTS

# What the fast tier must keep, counted in tests (not time: time is for the benches).
FAST_SHARE = 0.60


@pytest.mark.slow  # not in the fast tier: collects the whole suite in a new process
def test_the_fast_tier_holds_at_least_60_percent_of_the_tests() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", "not slow", "tests"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    counts = re.search(r"^(\d+)/(\d+) tests collected \((\d+) deselected\)", res.stdout, re.M)
    assert counts, res.stdout[-1000:]
    fast, total, slow = (int(n) for n in counts.groups())
    assert fast + slow == total and slow > 0, counts.group(0)
    assert fast >= FAST_SHARE * total, f"the fast tier keeps {fast} of {total} tests, under {FAST_SHARE:.0%}"


def test_every_folder_holding_tests_is_collected(pytestconfig: pytest.Config) -> None:
    skipped = pytestconfig.getini("norecursedirs")  # pyproject.toml's, else pytest's defaults
    folders = {p.parent for p in TESTS.rglob("test_*.py")}
    hidden = sorted(
        str(folder.relative_to(TESTS))
        for folder in folders
        for part in folder.relative_to(TESTS).parts
        if any(fnmatch.fnmatch(part, pattern) for pattern in skipped)
    )
    assert hidden == [], f"pytest skips these folders (norecursedirs in pyproject.toml): {hidden}"
