"""Home printing's inks: `--greyscale` sets no colour anywhere (content streams parsed, forms and
pictures included); `--ink-saver` prints far less ink, no full-bleed background, and keeps every text."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CONTENT, need_tool, pdf_text, render_png, run_cli
from pypdf import PdfReader
from pypdf.generic import ContentStream

from mazmorra.load import load_pack
from mazmorra.render.impose import ImposeOptions, impose

pytestmark = pytest.mark.slow  # not in the fast tier: whole builds in three ink modes

COLOUR_OPERATORS = {b"rg", b"RG", b"k", b"K", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}


def _operators(pdf: Path) -> tuple[set[bytes], set[str]]:
    """Every operator of every page's content stream and of every form it draws (recursively), and the
    colour space of every picture."""
    reader = PdfReader(str(pdf))
    ops: set[bytes] = set()
    spaces: set[str] = set()
    seen: set[int] = set()

    def visit(stream: object, resources: object) -> None:
        for _, op in ContentStream(stream, reader).operations:
            ops.add(op)
        xobjects = resources.get("/XObject", {}) if resources else {}  # type: ignore[union-attr]
        for ref in xobjects.values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            obj = ref.get_object()
            if obj["/Subtype"] == "/Form":
                visit(obj, obj.get("/Resources"))
            else:
                spaces.add(str(obj["/ColorSpace"]))

    for page in reader.pages:
        visit(page.get_contents(), page["/Resources"])
    return ops, spaces


def test_greyscale_sheets_hold_no_colour_operator(tmp_path: Path, built) -> None:
    res = run_cli("build", "expedicion", "--lang", "en", "--greyscale", "--out", str(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    checked = 0
    for pdf in sorted((tmp_path / "expedicion" / "en").glob("*.pdf")):
        ops, spaces = _operators(pdf)
        assert not ops & COLOUR_OPERATORS, (pdf.name, ops & COLOUR_OPERATORS)
        assert {b"g", b"G"} & ops, pdf.name  # greys are set
        assert spaces <= {"/DeviceGray"}, (pdf.name, spaces)
        checked += 1
    assert checked == len(load_pack(CONTENT / "expedicion").decks)  # every deck's PDF looked at
    coloured, _ = _operators(built("expedicion", "--lang", "en") / "en" / "tokens.pdf")
    assert b"rg" in coloured  # the same deck in colour: what the test looks for is there to find


def test_ink_saver_prints_less_ink_and_no_full_bleed_background(tmp_path: Path, built) -> None:
    need_tool("pdftoppm")
    res = run_cli("build", "expedicion", "--lang", "en", "--deck", "maldiciones", "--ink-saver", "--out", str(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    saver = tmp_path / "expedicion" / "en" / "curses.pdf"
    normal = built("expedicion", "--lang", "en") / "en" / "curses.pdf"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    light, full = (
        render_png(saver, 1, 40, tmp_path / "a").convert("L"),
        render_png(normal, 1, 40, tmp_path / "b").convert("L"),
    )

    def ink(img) -> float:
        return sum((255 - v) * n for v, n in enumerate(img.histogram())) / (255 * img.width * img.height)

    assert ink(light) < 0.4 * ink(full), (ink(light), ink(full))
    # the bleed of the first card (1.5 mm outside its trim) is paper; in colour it is the card's ground
    first = impose(ImposeOptions(landscape=None), [(63.0, 88.0)] * 15, [True] * 15, 3.0)[0].placements[0]
    at = (round((first.x + 20) * 40 / 25.4), round((first.y - 1.5) * 40 / 25.4))
    assert light.getpixel(at) > 245 and full.getpixel(at) < 200
    assert pdf_text(saver) == pdf_text(normal)  # every text still printed
