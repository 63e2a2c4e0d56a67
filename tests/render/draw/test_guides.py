"""The cut guide of a round piece stands out from what it is drawn over: 3:1 or more (WCAG 2),
measured on the rendered page around every chip of the expedition's chips sheet."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import CONTENT, edit, need_tool, render_png, run_cli

from mazmorra.layout.printcheck.contrast import luminance
from mazmorra.load import load_pack
from mazmorra.render.impose import ImposeOptions, impose

pytestmark = pytest.mark.slow  # not in the fast tier: sheets rendered to pixels

DPI = 300


def _ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = (luminance("#{:02x}{:02x}{:02x}".format(*p[:3])) for p in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize(
    ("pack", "deck"),
    [("expedicion", "fichas"), ("profundidades", "fichas"), ("engranajes", "personajes"), ("engranajes", "objetos")],
)
def test_round_cut_guides_pass_3_to_1_against_the_chip_rim(
    built, tmp_path: Path, monkeypatch, pack: str, deck: str
) -> None:
    need_tool("pdftoppm")
    loaded = load_pack(CONTENT / pack)
    copies = [c for d in loaded.decks if d.id == deck for c in d.components for _ in range(c.data.copies)]
    pages = impose(
        ImposeOptions(page="a4", landscape=None),
        [c.size_mm for c in copies],
        [c.kind.has_back for c in copies],
        loaded.bleed_mm,
    )
    name = next(d for d in loaded.decks if d.id == deck).file_name("en")  # its English file name
    img = render_png(built(pack, "--lang", "en") / "en" / f"{name}.pdf", 1, DPI, tmp_path)
    # what the guide is drawn over: the same page drawn without any guide
    monkeypatch.setattr("mazmorra.render.draw.pdfpages.PdfPages._after_face", lambda self, face, x0, y0: None)
    out = tmp_path / "bare"
    res = run_cli("build", pack, "--lang", "en", "--deck", deck, "--out", str(out))
    assert res.returncode == 0, res.stdout + res.stderr
    (tmp_path / "b").mkdir()
    bare = render_png(out / pack / "en" / f"{name}.pdf", 1, DPI, tmp_path / "b")
    px = lambda mm: mm * DPI / 25.4  # noqa: E731
    chips = [p for p in pages[0].placements if copies[p.index].kind.shape == "round" and p.side == "front"]
    assert len(chips) >= 4
    worst = []
    for p in chips:
        cx, cy, r = p.x + p.w / 2, p.y + p.h / 2, p.w / 2
        ratios = []
        for k in range(72):
            a = 2 * math.pi * k / 72
            at = (round(px(cx + r * math.cos(a))), round(px(cy + r * math.sin(a))))
            ratios.append(_ratio(img.getpixel(at), bare.getpixel(at)))
        ratios.sort()
        worst.append(ratios[len(ratios) // 20])  # 95 % of the circle: an antialiased edge may blur a pixel
    assert min(worst) >= 3.0, [round(w, 2) for w in worst]


def test_rounded_corner_guides_are_arcs_at_every_trim_corner(built, pack_copy, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    r = 3.0
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "bleed: 3mm\n", f"bleed: 3mm\ncorner_radius: {r:g}mm\n")
    res = run_cli("build", "expedicion", "--lang", "en", "--deck", "maldiciones", cwd=pack.parents[1])
    assert res.returncode == 0, res.stdout + res.stderr
    rounded = render_png(pack.parents[1] / "output" / "expedicion" / "en" / "curses.pdf", 1, DPI, tmp_path)
    (tmp_path / "square").mkdir()
    square = render_png(built("expedicion", "--lang", "en") / "en" / "curses.pdf", 1, DPI, tmp_path / "square")
    (page,) = impose(ImposeOptions(page="a4", landscape=None), [(63.0, 88.0)] * 15, [True] * 15, 3.0)[:1]
    px = lambda mm: mm * DPI / 25.4  # noqa: E731
    fronts = [p for p in page.placements if p.side == "front"]
    assert len(fronts) == 8
    for p in fronts:
        for cx, cy, sx, sy in (
            (p.x + r, p.y + r, -1, -1),
            (p.x + p.w - r, p.y + r, 1, -1),
            (p.x + p.w - r, p.y + p.h - r, 1, 1),
            (p.x + r, p.y + p.h - r, -1, 1),
        ):
            changed = []
            for i in range(round(px(r + 1))):
                for j in range(round(px(r + 1))):
                    x, y = round(px(cx)) + sx * i, round(px(cy)) + sy * j
                    if rounded.getpixel((x, y)) != square.getpixel((x, y)):
                        changed.append(math.hypot(x - px(cx), y - px(cy)) * 25.4 / DPI)
            assert len(changed) > px(r), (p.index, cx, cy)  # the arc is drawn
            assert all(abs(d - r) < 0.35 for d in changed), max(abs(d - r) for d in changed)  # and only the arc


def test_a_corner_radius_out_of_range_is_located(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "pack.yaml", "bleed: 3mm\n", "bleed: 3mm\ncorner_radius: 30mm\n")
    res = run_cli("validate", "expedicion", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and "pack.yaml" in text and "corner_radius" in text and "0 to 10mm" in text, text
    assert "Traceback" not in text
