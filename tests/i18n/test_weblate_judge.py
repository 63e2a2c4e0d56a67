"""Weblate's own MaxSizeCheck, run on every sample catalogue and on a Japanese draft with the pack's
fonts in the font groups the templates name, against mazmorra's fit (issue 41): bench/weblate_maxsize.py
with Weblate 5.14 in its own venv (`make weblate-judge`; CI installs it). Skipped without it, except
where MAZMORRA_REQUIRE_TOOLS is set (CI), where it must be there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

WEBLATE_PYTHON = Path(os.environ.get("WEBLATE_PYTHON", REPO / ".venv-weblate" / "bin" / "python"))


def _weblate() -> Path:
    if WEBLATE_PYTHON.is_file():
        return WEBLATE_PYTHON
    if os.environ.get("MAZMORRA_REQUIRE_TOOLS"):
        pytest.fail(
            f"Weblate is required (MAZMORRA_REQUIRE_TOOLS is set) but {WEBLATE_PYTHON} is missing: make weblate-judge"
        )
    pytest.skip("Weblate not installed: `make weblate-judge` (bench/README.md, Weblate)")


@pytest.mark.slow
def test_weblates_max_size_check_agrees_with_the_fit_for_latin_and_japanese(tmp_path: Path) -> None:
    """Every translated entry with a max-size flag (the English and French catalogues) and the kanji
    pack's Japanese catalogue, shipped and with real Japanese of graded lengths in its boxes: Weblate
    never passes a translation the card sets below its design size (a circular box aside: Weblate
    wraps at one width, the card at each line's chord), and agrees on all but a few in a hundred
    (where Weblate's rounding of glyph advances to whole pixels makes it the stricter)."""
    out = tmp_path / "cases.json"
    res = subprocess.run(
        [sys.executable, str(REPO / "bench" / "weblate_maxsize.py"), "--weblate-python", str(_weblate())]
        + ["--json", str(out), "--show", "100"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert out.is_file(), res.stdout + res.stderr
    cases = [c for c in json.loads(out.read_text(encoding="utf-8")) if not c["item"]]
    langs = {c["lang"] for c in cases}
    assert {"en", "fr", "ja"} <= langs
    ja = [c for c in cases if c["lang"] == "ja"]
    assert any(not c["tool_fits"] for c in ja) and any(c["tool_fits"] for c in ja)  # both sides of the edge
    assert any(not c["tool_fits"] and not c["weblate_fits"] for c in ja if c["ctx"].endswith(".text"))
    lenient = [c["id"] for c in cases if not c["tool_fits"] and c["weblate_fits"] and not c["circular"]]
    assert not lenient, res.stdout
    agree = sum(c["tool_fits"] == c["weblate_fits"] for c in cases)
    assert agree >= 0.99 * len(cases), res.stdout
    assert len(cases) > 600
