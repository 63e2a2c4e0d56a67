"""The gallery's Numbers page: every section a chart beside its table, in every language of the
build, linked from the gallery; accessible (axe-core in headless Chromium, marked slow)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import TESTS, need_tool, run_cli
from packs import table_pack

from mazmorra.load import load_pack
from mazmorra.stats.statspage import gallery_numbers

CONTENT = Path(__file__).resolve().parents[2] / "content"
AXE = TESTS / "vendor" / "axe-core" / "axe.min.js"


def test_each_chart_is_an_svg_beside_its_table(tmp_path: Path) -> None:
    page = gallery_numbers(load_pack(table_pack(tmp_path)), ["en"])
    svgs = re.findall(r"<svg.*?</svg>", page, re.DOTALL)
    tables = re.findall(r"<table.*?</table>", page, re.DOTALL)
    assert len(svgs) == 4 and len(tables) == 4  # two tables, the 2d6 and 2d12 dice
    for svg in svgs:
        root = ET.fromstring(svg)  # well-formed
        assert root.get("role") == "img" and root.find("{http://www.w3.org/2000/svg}title") is not None
    two_six = next(t for t in tables if "Two dice" in t)
    assert '<th scope="row">7: Seven</th><td>1/6 · 16.7 %</td>' in two_six
    widths = [float(w) for w in re.findall(r'<rect x="\d+" y="[\d.]+" width="([\d.]+)"', svgs[0])]
    assert widths == [260.0, 104.0, 260.0]  # 15/36, 6/36, 15/36: the longest bar is 260 px


def test_every_language_of_the_pack_with_its_own_words() -> None:
    page = gallery_numbers(load_pack(CONTENT / "profundidades"), ["es", "en"])
    assert '<section lang="es" id="numbers-es"' in page and '<section lang="en" id="numbers-en"' in page
    assert "Caras en cada robo" in page and "Faces per draw" in page
    assert "<title>Números: Profundidades</title>" in page


@pytest.mark.slow
def test_the_gallery_links_an_accessible_numbers_page(pack_copy, tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    pack_copy("generada")
    res = run_cli("build", "generada", "--no-pdf", "--gallery", "-d", "creditos", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    gallery = tmp_path / "output" / "generada" / "gallery"
    assert '<a href="numbers.html">' in (gallery / "index.html").read_text(encoding="utf-8")
    page = gallery / "numbers.html"
    with Browser(tmp_path / "chromium-profile", width=1100, height=800) as b:
        b.open(page.as_uri())
        b.js(AXE.read_text(encoding="utf-8"))
        found = b.js(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => "
            "({id: v.id, nodes: v.nodes.map(n => n.html.slice(0, 120))})))"
        )
        assert found == []
        assert b.js("document.querySelectorAll('svg[role=img]').length") > 10
        assert b.js("document.querySelectorAll('table caption').length") > 10
