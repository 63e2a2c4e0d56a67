"""The cut guide of a round piece stands out from what it is drawn over: 3:1 or more (WCAG 2),
measured on the rendered page around every chip of the expedition's chips sheet."""

from __future__ import annotations

import math
from pathlib import Path

from conftest import CONTENT, need_tool, render_png

from mazmorra.layout.contrast import luminance
from mazmorra.load import load_pack
from mazmorra.render.impose import ImposeOptions, impose

DPI = 300


def _ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = (luminance("#{:02x}{:02x}{:02x}".format(*p[:3])) for p in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_round_cut_guides_pass_3_to_1_against_the_chip_rim(built, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    pack = load_pack(CONTENT / "expedicion")
    deck = next(d for d in pack.decks if d.id == "fichas")
    copies = [c for c in deck.components for _ in range(c.data.copies)]
    pages = impose(
        ImposeOptions(page="a4", landscape=None), [c.size_mm for c in copies], [False] * len(copies), pack.bleed_mm
    )
    pdf = built("expedicion", "--lang", "en") / "en" / "fichas.pdf"
    img = render_png(pdf, 1, DPI, tmp_path)
    px = lambda mm: mm * DPI / 25.4  # noqa: E731
    chips = [p for p in pages[0].placements if copies[p.index].kind.shape == "round" and p.side == "front"]
    assert len(chips) >= 10
    worst = []
    for p in chips:
        cx, cy, r = p.x + p.w / 2, p.y + p.h / 2, p.w / 2
        ratios = []
        for k in range(72):
            a = 2 * math.pi * k / 72
            guide, inside, outside = (
                img.getpixel((round(px(cx + d * math.cos(a))), round(px(cy + d * math.sin(a)))))
                for d in (r, r - 0.5, r + 0.5)  # the rim on both sides of the guide, clear of its antialiased edge
            )
            ratios.append(min(_ratio(guide, inside), _ratio(guide, outside)))
        ratios.sort()
        worst.append(ratios[len(ratios) // 20])  # 95 % of the circle: a glyph's edge may touch it
    assert min(worst) >= 3.0, [round(w, 2) for w in worst]
