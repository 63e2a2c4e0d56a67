"""Cut lines (`--cut-lines`): on every sheet of every sample, no line crosses a piece it does not
outline; on sheets mixing sizes each piece has its own; drawn where imposition puts them."""

from __future__ import annotations

import re
from functools import cache

import pytest
from conftest import CONTENT, SAMPLES, run_cli
from pypdf import PdfReader

from mazmorra.contracts import Page
from mazmorra.load import load_pack
from mazmorra.render.impose import ImposeOptions, impose

EPS = 1e-6


@cache
def _decks(pack: str) -> list[tuple[str, list[tuple[float, float]], list[bool], float]]:
    """Each deck of a sample as imposition sees it: (id, trim size of every copy, backs, bleed)."""
    loaded = load_pack(CONTENT / pack)
    out = []
    for deck in loaded.decks:
        copies = [c for c in deck.components for _ in range(c.data.copies)]
        out.append((deck.id, [c.size_mm for c in copies], [c.kind.has_back for c in copies], loaded.bleed_mm))
    return out


def _enters(seg: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether an axis-parallel segment runs through the open inside of box b."""
    x1, y1, x2, y2 = seg
    return (
        min(x1, x2) < b[2] - EPS and max(x1, x2) > b[0] + EPS and min(y1, y2) < b[3] - EPS and max(y1, y2) > b[1] + EPS
    )


def _crossed(page: Page, bleed: float) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(piece, cut line) for every line that enters a piece's bleed box other than along one of
    that piece's own trim edges, or enters any piece's trim box."""
    bad = []
    for seg in page.cuts:
        x1, y1, x2, y2 = seg
        for p in page.placements:
            if p.clip is not None:
                continue  # a poster's tile: its own trimming lines
            trim = (p.x, p.y, p.x + p.w, p.y + p.h)
            box = (p.x - bleed, p.y - bleed, p.x + p.w + bleed, p.y + p.h + bleed)

            own_edge = (x1 == x2 and any(abs(x1 - v) < 1e-3 for v in (trim[0], trim[2]))) or (
                y1 == y2 and any(abs(y1 - v) < 1e-3 for v in (trim[1], trim[3]))
            )
            if _enters(seg, trim) or (_enters(seg, box) and not own_edge):
                bad.append((p.index, seg))
    return bad


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("pack", SAMPLES)
def test_no_cut_line_crosses_a_piece_on_any_sheet_of_any_sample(pack: str, page: str) -> None:
    mixed = 0
    for deck, sizes, backs, bleed in _decks(pack):
        for layout in ("duplex", "fold"):
            sheet = ImposeOptions(page=page, landscape=None, cut_lines=True, layout=layout)
            try:
                pages = impose(sheet, sizes, backs, bleed)
            except ValueError:
                continue  # a face that does not fit beside its back: the build says so
            for n, p in enumerate(pages, 1):
                pieces = [q for q in p.placements if q.clip is None]
                if len({(q.w, q.h) for q in pieces}) > 1:
                    mixed += 1
                    assert len(p.cuts) >= 2 * len({(q.x, q.y) for q in pieces})  # each piece its own lines
                assert not _crossed(p, bleed), (deck, layout, n, _crossed(p, bleed)[:3])
    if pack == "expedicion":  # its tokens deck mixes sizes
        assert mixed, f"{pack} has no mixed sheet any more: the test checks nothing new"


def test_mixed_sheet_lines_in_the_pdf_are_those_imposition_planned(tmp_path) -> None:
    deck, sizes, backs, bleed = next(d for d in _decks("expedicion") if len(set(d[1])) > 1)
    res = run_cli("build", "expedicion", "--lang", "es", "--deck", deck, "--cut-lines", "--out", str(tmp_path))
    assert res.returncode == 0, res.stdout + res.stderr
    reader = PdfReader(str(tmp_path / "expedicion" / "es" / f"{deck}.pdf"))  # the source language: named by its id
    planned = impose(ImposeOptions(landscape=None, cut_lines=True), sizes, backs, bleed)
    assert len(reader.pages) == len(planned)
    k = 72 / 25.4
    for page, plan in zip(reader.pages, planned):
        data = page.get_contents().get_data().decode("latin-1")
        # the page's own stream ends with the marks: the dashed grey lines are `x y m x y l S` pairs
        dashed = data[data.rfind("[2 2] 0 d") :] if "[2 2] 0 d" in data else ""
        drawn = re.findall(r"([-\d.]+) ([-\d.]+) m ([-\d.]+) ([-\d.]+) l S", dashed)
        ph = plan.size[1]
        got = sorted(
            tuple(round(v, 1) for v in (float(a) / k, ph - float(b) / k, float(c) / k, ph - float(d) / k))
            for a, b, c, d in drawn
        )
        want = sorted(tuple(round(v, 1) for v in seg) for seg in plan.cuts)
        assert got == want, (got[:4], want[:4])
