"""Issue 40.5: every font subset of a PDF has a tag of its own (ISO 32000 9.6.4; PDF/X preflights
check it), not `AAAAAA+` for the first subset of every font; tags stay the same from build to
build (byte-identical PDFs)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import need_tool, run_cli
from pypdf import PdfReader

from mazmorra.render.draw.subsettags import subset_tag

pytestmark = pytest.mark.slow  # builds a deck


def _base_fonts(pdf: Path) -> dict[str, set[str]]:
    """Every embedded subset's tag -> the fonts carrying it."""
    tags: dict[str, set[str]] = {}
    for page in PdfReader(str(pdf)).pages:
        fonts = page["/Resources"].get("/Font") or {}
        for font in fonts.values():
            name = str(font.get_object()["/BaseFont"])
            m = re.match(r"^/([A-Z]{6})\+(.+)$", name)
            assert m, f"{name}: not a subset tag"
            tags.setdefault(m.group(1), set()).add(m.group(2))
    return tags


def test_each_subset_has_its_own_tag(tmp_path: Path) -> None:
    out = tmp_path / "out"
    res = run_cli("build", "expedicion", "-d", "artimanas", "--lang", "en", "--out", str(out))
    assert res.returncode == 0, res.stdout + res.stderr
    pdf = out / "expedicion" / "en" / "tricks.pdf"
    tags = _base_fonts(pdf)
    assert len(tags) >= 3  # regular, bold, italic at least
    assert all(len(fonts) == 1 for fonts in tags.values()), tags  # no tag shared by two fonts
    assert "AAAAAA" not in tags
    again = tmp_path / "again"
    assert run_cli("build", "expedicion", "-d", "artimanas", "--lang", "en", "--out", str(again)).returncode == 0
    assert (again / "expedicion" / "en" / "tricks.pdf").read_bytes() == pdf.read_bytes()
    if shutil.which("pdffonts"):  # poppler's view: every font embedded and subset, names distinct
        need_tool("pdffonts")
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        names = [line.split()[0] for line in rows.splitlines()[2:]]
        assert names and all(re.match(r"^[A-Z]{6}\+", n) for n in names)
        assert len({n[:6] for n in names}) == len(set(names))


def test_a_tag_is_six_capitals_from_font_and_characters() -> None:
    a = subset_tag("DejaVuSans", [32, 65, 66])
    assert re.fullmatch(rb"[A-Z]{6}", a)
    assert a == subset_tag("DejaVuSans", [32, 65, 66])
    assert a != subset_tag("DejaVuSans-Bold", [32, 65, 66]) and a != subset_tag("DejaVuSans", [32, 65, 67])
