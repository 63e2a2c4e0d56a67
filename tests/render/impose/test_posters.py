"""Posters: a face larger than the sheet tiled at true size. The tiling's geometry, its place in
imposition (nothing else moves), and the real check: a generated map printed on A4, its pages
rendered, assembled by their coordinates with the overlaps cropped, gives back the map as
rendered whole."""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

import pytest
from conftest import CONTENT, need_tool, run_cli

from mazmorra.contracts import Face, LineOp, PolyOp, RectOp, TextOp
from mazmorra.render.impose import DoesNotFit, ImposeOptions, impose
from mazmorra.render.impose.posters import Paper, PosterPages, coordinate, poster_pages, tiling, window

MAP = (1020.0, 804.0)  # a 40 × 30 squares map at 25 mm: 40·25 + 20 by 30·25 + 54 mm
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}


def test_coordinates_read_like_a_map_grid() -> None:
    assert [coordinate(0, c) for c in range(3)] == ["A1", "A2", "A3"]
    assert [coordinate(r, 0) for r in (1, 25, 26, 27)] == ["B1", "Z1", "AA1", "AB1"]


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("overlap", [0.0, 10.0, 25.0])
@pytest.mark.parametrize("size", [MAP, (300.0, 400.0), (1995.0, 120.0)])
def test_tiles_cover_the_face_once_with_the_chosen_overlap(page: str, overlap: float, size) -> None:
    w, h = size
    t = tiling(PAGES[page], 5.0, overlap, w, h, 3.0)
    x0, y0, x1, y1 = t.window
    for spans, length, tile in ((t.columns, w + 6, x1 - x0), (t.rows, h + 6, y1 - y0)):
        assert spans[0][0] == 0 and spans[-1][1] == pytest.approx(length)
        assert all(0 < b - a <= tile + 1e-9 for a, b in spans)
        for (_, a1), (b0, _) in itertools.pairwise(spans):
            assert a1 - b0 == pytest.approx(overlap)  # neighbours share exactly the overlap
        kept = [  # what each page keeps once trimmed in the middle of its overlaps
            (a + (overlap / 2 if i else 0), b - (overlap / 2 if i < len(spans) - 1 else 0))
            for i, (a, b) in enumerate(spans)
        ]
        for (_, k1), (k0, _) in itertools.pairwise(kept):
            assert k1 == pytest.approx(k0)  # no gap, no double
    assert x0 >= 5 and y0 >= 5 and x1 <= PAGES[page][0] - 5 and y1 <= PAGES[page][1] - 5


@pytest.mark.parametrize(
    "page, pages, turned",
    [("a4", 20, True), ("letter", 24, False), ("a3", 12, False)],
)
def test_a_40_by_30_map_on_each_paper(page: str, pages: int, turned: bool) -> None:
    """The page counts the docs promise; the sheet turns when that takes fewer pages."""
    out = poster_pages(0, "front", *MAP, 3.0, Paper(PAGES[page], 5.0, 10.0))
    assert len(out) == pages
    assert (out[0].size != PAGES[page]) == turned


def _face(w: float, h: float, ops=(), background: str | None = "#336699") -> Face:
    return Face("big", "front", w, h, 3.0, tuple(ops), background)


def test_each_page_has_its_marks_coordinate_and_diagram() -> None:
    out = poster_pages(0, "front", *MAP, 3.0, Paper(PAGES["a4"], 5.0, 10.0))
    t = tiling(out[0].size, 5.0, 10.0, *MAP, 3.0)
    cols, rows = len(t.columns), len(t.rows)
    printed = PosterPages(dict(enumerate(out)))
    for n, page in enumerate(out):
        r, c = divmod(n, cols)
        (p,) = page.placements
        assert p.clip is not None and page.tile is not None
        assert (page.tile.row, page.tile.col, page.tile.rows, page.tile.cols) == (r, c, rows, cols)
        x0, y0, x1, y1 = p.clip
        pw, ph = page.size
        assert 5 <= x0 < x1 <= pw - 5 and 5 <= y0 < y1 <= ph - 5
        label = printed.labels(n, _face(*MAP))  # a face coloured all over: every page prints
        assert label is not None
        texts = [op.text for op in label if isinstance(op, TextOp)]
        assert coordinate(r, c) in texts and f"{n + 1}/{len(out)}" in texts
        boxes = [op for op in label if isinstance(op, RectOp)]
        assert len(boxes) == cols * rows and sum(op.fill is not None for op in boxes) == 1  # this page, filled
        cuts_v = [s for s in page.cuts if s[0] == s[2]]
        cuts_h = [s for s in page.cuts if s[1] == s[3]]
        assert len(cuts_v) == (c > 0) and len(cuts_h) == (r > 0)
        guides = [op for op in page.notes if isinstance(op, LineOp)]
        triangles = [op for op in page.notes if isinstance(op, PolyOp)]
        assert len(guides) == (c < cols - 1) + (r < rows - 1)
        assert bool(triangles) == bool(guides)
        for x1_, y1_, x2_, y2_ in page.marks:  # outer crop marks stay outside the tile
            mx, my = (x1_ + x2_) / 2, (y1_ + y2_) / 2
            assert not (x0 < mx < x1 and y0 < my < y1)
        assert bool(page.marks) == (r in (0, rows - 1) or c in (0, cols - 1))


def test_posters_come_after_the_faces_that_fit_which_do_not_move() -> None:
    sheet = ImposeOptions()
    cards = [(63.0, 88.0)] * 7
    sizes = cards[:3] + [MAP] + cards[3:]
    backs = [True] * 3 + [False] + [True] * 4
    alone = impose(sheet, cards, [True] * 7, 3.0)
    mixed = impose(sheet, sizes, backs, 3.0)
    renumber = [0, 1, 2, 4, 5, 6, 7]
    assert len(mixed) == len(alone) + 20
    for a, m in zip(alone, mixed):
        assert [(renumber[p.index], p.side, p.x, p.y) for p in a.placements] == [
            (p.index, p.side, p.x, p.y) for p in m.placements
        ]
        assert (a.marks, a.cuts, a.notes) == (m.marks, m.cuts, m.notes)
    assert {p.index for page in mixed[len(alone) :] for p in page.placements} == {3}


def test_a_posters_back_follows_its_front() -> None:
    pages = impose(ImposeOptions(), [(300.0, 400.0)], [True], 3.0)
    sides = [p.placements[0].side for p in pages]
    assert sides == ["front"] * 4 + ["back"] * 4
    label = PosterPages(dict(enumerate(pages))).labels(4, _face(300.0, 400.0))
    assert label is not None and any(isinstance(op, TextOp) and op.text == "A1 ↻" for op in label)


def test_pages_that_would_print_blank_are_left_out() -> None:
    """A white face with a mark in its top-left and bottom-right corners only: two pages print."""
    pages = poster_pages(0, "front", *MAP, 3.0, Paper(PAGES["a3"], 5.0, 10.0))
    assert len(pages) == 12
    corners = (RectOp(0, 0, 20, 20, "#000000"), RectOp(MAP[0] - 20, MAP[1] - 20, 20, 20, "#000000"))
    printed = PosterPages(dict(enumerate(pages)))
    labels = [printed.labels(n, _face(*MAP, corners, None)) for n in range(len(pages))]
    kept = [n for n, label in enumerate(labels) if label is not None]
    assert kept == [0, len(pages) - 1]
    for n in kept:
        label = labels[n]
        assert label is not None
        texts = [op.text for op in label if isinstance(op, TextOp)]
        assert f"{kept.index(n) + 1}/2" in texts  # numbered among the pages that print
        faint = [op for op in label if isinstance(op, RectOp) and op.stroke == "#bbbbbb"]
        assert len(faint) == 10  # the pages left out, drawn faint in the diagram
    coloured = PosterPages(dict(enumerate(pages)))
    assert all(coloured.labels(n, _face(*MAP)) is not None for n in range(len(pages)))  # a coloured face: all print


def test_fold_still_refuses_a_card_that_fits_only_without_its_back() -> None:
    with pytest.raises(DoesNotFit, match="side by side"):
        impose(ImposeOptions(layout="fold"), [(150.0, 200.0)], [True], 3.0)
    assert len(impose(ImposeOptions(layout="fold"), [MAP], [False], 3.0)) == 20  # larger than the sheet: a poster


# ---------------------------------------------------------------- pages put together give the map back

DPI = 127  # 5 px per mm: every tile edge falls on a whole pixel
PX = DPI / 25.4


def _render(pdf: Path, out: Path, first: int = 1, last: int | None = None) -> list[Path]:
    args = ["pdftoppm", "-r", str(DPI), "-png", "-f", str(first)] + (["-l", str(last)] if last else [])
    subprocess.run([*args, str(pdf), str(out)], check=True)
    return sorted(out.parent.glob(out.name + "*.png"))


def _map_face(pack_dir: Path, lang: str):
    from golden import context

    from mazmorra.layout import lay_out
    from mazmorra.load import load_pack

    ctx = context(load_pack(pack_dir), lang)
    (item,) = list(lay_out(ctx.pack.deck("mapas"), ctx).items())
    return item.front, ctx.icons


@pytest.mark.slow
def test_a4_pages_assembled_by_their_coordinates_give_back_the_map(tmp_path: Path) -> None:
    from PIL import Image, ImageChops
    from pypdf import PdfReader

    from mazmorra.render.raster import FacePages

    need_tool("pdftoppm")
    res = run_cli("build", "generada", "--deck", "mapas", "--lang", "es", "--page", "a4", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    pdf = tmp_path / "generada/es/mapas.pdf"
    face, icons = _map_face(CONTENT / "generada", "es")
    assert face.w >= 40 * 25 and face.h >= 30 * 25  # at least 40 × 30 squares of 25 mm
    bw, bh = face.w + 2 * face.bleed, face.h + 2 * face.bleed

    whole = FacePages(icons, "es")  # the map drawn whole, by the same renderer, on a page its own size
    whole.face_page(face, bw, bh, face.bleed, face.bleed)
    (tmp_path / "whole.pdf").write_bytes(whole.pdf())
    (direct_png,) = _render(tmp_path / "whole.pdf", tmp_path / "whole")
    direct = Image.open(direct_png).convert("RGB")
    want = (round(bw * PX), round(bh * PX))
    assert abs(direct.size[0] - want[0]) <= 1 and abs(direct.size[1] - want[1]) <= 1  # poppler rounds up
    direct = direct.crop((0, 0, *want))

    reader = PdfReader(str(pdf))
    size = (float(reader.pages[0].mediabox.width) * 25.4 / 72, float(reader.pages[0].mediabox.height) * 25.4 / 72)
    t = tiling((round(size[0], 1), round(size[1], 1)), 5.0, 10.0, face.w, face.h, face.bleed)
    assert t.pages == 24 and len(reader.pages) == 19  # 5 pages would show only rock: left out
    x0, y0 = t.window[0], t.window[1]
    half = t.overlap / 2
    assembled = Image.new("RGB", direct.size, "#ff00ff")  # anything not covered shows
    seams: list[tuple[str, int]] = []
    found = set()
    for n, (png, page) in enumerate(zip(_render(pdf, tmp_path / "page"), reader.pages)):
        label = re.search(r"\b([A-Z]+)(\d+)\s*(\d+)/(\d+)", page.extract_text() or "")
        assert label, f"page {n + 1} has no coordinate"
        r = ord(label.group(1)) - ord("A")
        c = int(label.group(2)) - 1
        assert coordinate(r, c) == label.group(1) + label.group(2)
        assert (int(label.group(3)), int(label.group(4))) == (n + 1, len(reader.pages))
        found.add((r, c))
        (u0, u1), (v0, v1) = t.columns[c], t.rows[r]
        ku0 = u0 + (half if c > 0 else 0)  # each page trimmed in the middle of its overlaps
        ku1 = u1 - (half if c < len(t.columns) - 1 else 0)
        kv0 = v0 + (half if r > 0 else 0)
        kv1 = v1 - (half if r < len(t.rows) - 1 else 0)
        image = Image.open(png).convert("RGB")
        box = [round((x0 + ku0 - u0) * PX), round((y0 + kv0 - v0) * PX)]
        box += [box[0] + round((ku1 - ku0) * PX), box[1] + round((kv1 - kv0) * PX)]
        assembled.paste(image.crop(tuple(box)), (round(ku0 * PX), round(kv0 * PX)))
        seams += [("x", round(ku0 * PX))] if c > 0 else []
        seams += [("y", round(kv0 * PX))] if r > 0 else []
    for r, c in itertools.product(range(len(t.rows)), range(len(t.columns))):
        if (r, c) in found:
            continue
        (u0, u1), (v0, v1) = t.columns[c], t.rows[r]  # a page left out: its whole window must be blank
        window_px = (round(u0 * PX), round(v0 * PX), round(u1 * PX), round(v1 * PX))
        assert direct.crop(window_px).getextrema() == ((255, 255),) * 3, f"{coordinate(r, c)} was not blank"
        assembled.paste((255, 255, 255), window_px)
    assert len(found) == len(reader.pages)

    def differing(a: Image.Image, b: Image.Image) -> int:
        """Pixels of `a` unlike every pixel around the same place in `b`: a hairline that two
        renderings round to neighbouring pixels (0.2 mm here) is no difference; anything more is."""
        near = None
        for dx, dy in itertools.product((-1, 0, 1), repeat=2):
            d = ImageChops.difference(a, ImageChops.offset(b, dx, dy)).convert("L")
            near = d if near is None else ImageChops.darker(near, d)
        assert near is not None
        return sum(near.histogram()[40:])

    at_seams = assembled.copy()
    for axis, at in set(seams):  # the cut line sits on the seam itself: its antialiased edge may show
        band = (at - 2, 0, at + 2, direct.height) if axis == "x" else (0, at - 2, direct.width, at + 2)
        at_seams.paste(direct.crop(band), band[:2])
    total = direct.width * direct.height
    assert differing(at_seams, direct) <= 50, "the assembled pages differ from the map"
    assert differing(assembled, direct) <= total * 2e-3  # and at the seams, a hairline at most

    shifted = at_seams.copy()  # the check can fail: one tile put 1 mm off is seen
    (u0, u1), (v0, v1) = t.columns[1], t.rows[1]
    tile = at_seams.crop((round(u0 * PX), round(v0 * PX), round(u1 * PX), round(v1 * PX)))
    shifted.paste(tile, (round(u0 * PX + PX), round(v0 * PX)))
    assert differing(shifted, direct) > 2000


@pytest.mark.slow
def test_the_png_export_is_one_image_at_print_size(tmp_path: Path) -> None:
    from PIL import Image

    res = run_cli(
        "build",
        "generada",
        "--deck",
        "mapas",
        "--lang",
        "en",
        "--no-pdf",
        "--png",
        "--dpi",
        "100",
        "--out",
        str(tmp_path),
    )
    assert res.returncode == 0, res.stderr
    (png,) = sorted((tmp_path / "generada/en/png/generated-maps").glob("*.png"))
    image = Image.open(png)
    w, h = 43 * 25 + 20 + 6, 37 * 25 + 54 + 6  # the map's bleed box, mm
    assert image.size == (round(w / 25.4 * 100), round(h / 25.4 * 100))
    assert round(image.info["dpi"][0]) == 100
    res = run_cli("build", "generada", "--deck", "mapas", "--lang", "en", "--no-pdf", "--png", "--out", str(tmp_path))
    assert res.returncode == 0 and "(export.png-size)" in res.stderr  # 300 dpi would be ~130 megapixels
    image = Image.open(png)
    assert image.width * image.height <= 40e6
    assert image.width / image.info["dpi"][0] * 25.4 == pytest.approx(w, abs=0.2)  # still prints at true size


def test_window_leaves_room_for_marks_and_label() -> None:
    x0, y0, x1, y1 = window((210.0, 297.0), 5.0)
    assert (x0, y0, x1, y1) == (9.0, 9.0, 201.0, 279.0)
