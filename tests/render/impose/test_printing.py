"""Issue 6, printing at home: fold-and-glue, duplex flip edges, back offset, gutters, abutted cards,
the calibration sheet. Real builds, rendered with pdftoppm at 150 dpi, measured in pixels."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, need_tool, render_png, run_cli
from pypdf import PdfReader

from mazmorra.render.impose import ImposeOptions, crop_marks, plan, plan_fronts

pytestmark = pytest.mark.slow  # not in the fast tier: home-printing builds rendered to pixels

DPI = 150
CURSES = [(63.0, 88.0)] * 15  # expedicion/maldiciones: 15 poker curses, 3 mm bleed
BLEED = 3.0
TOL = 2  # px


def px(mm: float) -> float:
    return mm * DPI / 25.4


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """`mazmorra build expedicion --lang es --deck DECK OPTIONS` once per option set, on portrait sheets
    unless the options say --landscape (the geometry below is measured on them); returns the PDF."""
    done: dict[tuple[str, ...], Path] = {}

    def make(deck: str, *options: str) -> Path:
        key = (deck, *options)
        if key not in done:
            out = tmp_path_factory.mktemp("print")
            turn = () if "--landscape" in options else ("--portrait",)
            res = run_cli("build", "expedicion", "--lang", "es", "--deck", deck, "--out", str(out), *turn, *options)
            assert res.returncode == 0, res.stderr
            done[key] = out / "expedicion" / "es" / f"{deck}.pdf"
        return done[key]

    return make


def _ink(p: tuple[int, int, int]) -> bool:
    return min(p) < 235


def runs(img, *, row: float | None = None, col: float | None = None, min_len: int = 40, merge: int = 20):
    """Stretches of ink along one pixel row (or column): the card frames it crosses, as (first, last)
    pixel. Thin lines (marks, the fold line) are dropped; gaps up to `merge` px (light parts of a
    card) do not split a frame."""
    if row is not None:
        line = [img.getpixel((x, int(row))) for x in range(img.width)]
    else:
        line = [img.getpixel((int(col), y)) for y in range(img.height)]
    raw: list[list[int]] = []
    for i, p in enumerate(line):
        if _ink(p):
            if raw and raw[-1][1] == i - 1:
                raw[-1][1] = i
            else:
                raw.append([i, i])
    found: list[list[int]] = []
    for a, b in (r for r in raw if r[1] - r[0] >= 4):
        if found and a - found[-1][1] <= merge:
            found[-1][1] = b
        else:
            found.append([a, b])
    return [(a, b) for a, b in found if b - a + 1 >= min_len]


def mirrored(rs, size_px: float):
    """Runs reflected across the middle of the page (edges, not pixel centres, are reflected)."""
    return sorted((size_px - (b + 1), size_px - a - 1) for a, b in rs)


def close(a, b, tol: float = TOL) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tol for ra, rb in zip(a, b) for x, y in zip(ra, rb))


def bleed_run(x0: float, x1: float):
    return (px(x0 - BLEED), px(x1 + BLEED) - 1)


# ---------------------------------------------------------------- fold-and-glue


@pytest.mark.slow
@pytest.mark.parametrize(
    "options, vertical",
    [
        ((), True),  # A4 portrait: fronts left, backs right
        (("--landscape", "--fold", "horizontal"), False),  # fronts top, backs bottom
    ],
)
def test_fold_page_has_each_back_opposite_its_front(build, tmp_path: Path, options, vertical) -> None:
    need_tool("pdftoppm")
    pdf = build("maldiciones", "--layout", "fold", *options)
    sheet = ImposeOptions(
        landscape="--landscape" in options,
        layout="fold",
        fold="vertical" if vertical else "horizontal",
    )
    pages = plan_fronts(sheet, CURSES, BLEED)
    assert len(PdfReader(str(pdf)).pages) == len(pages)  # no backs pages
    img = render_png(pdf, 1, DPI, tmp_path)
    pw, ph = sheet.size
    for front in pages[0].slots:
        if vertical:  # along the card's middle row: its front's frame, then its back's, mirrored
            found = runs(img, row=px(front.y + front.h / 2))
            expected_front = bleed_run(front.x, front.x + front.w)
            size = px(pw)
        else:
            found = runs(img, col=px(front.x + front.w / 2))
            expected_front = bleed_run(front.y, front.y + front.h)
            size = px(ph)
        assert len(found) == 2, found
        assert close([found[0]], [expected_front]), (
            found,
            expected_front,
        )  # where imposition put it
        assert close([found[1]], mirrored([found[0]], size)), found  # exactly opposite across the fold
    fold = px((pw if vertical else ph) / 2)
    line = [
        img.getpixel((int(fold), y) if vertical else (y, int(fold)))
        for y in range(int(px(10)), int(px((ph if vertical else pw) - 10)))
    ]
    assert sum(map(_ink, line)) > len(line) * 0.3  # the dash-dot fold line is drawn


# ---------------------------------------------------------------- duplex flip edges and the back offset


def _last_sheet(pdf: Path, tmp_path: Path):
    """The fronts and backs pages of the last sheet: 3 curses of 6, so mirroring is visible."""
    n = len(PdfReader(str(pdf)).pages)
    return render_png(pdf, n - 1, DPI, tmp_path), render_png(pdf, n, DPI, tmp_path)


@pytest.mark.slow
def test_short_edge_backs_mirror_rows(build, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    front, back = _last_sheet(build("maldiciones", "--duplex", "short"), tmp_path)
    grid = plan(ImposeOptions(), 63, 88, BLEED)
    for c in range(grid.cols):
        x = px(grid.cell(c)[0] + 31.5)
        f, b = runs(front, col=x), runs(back, col=x)
        assert f and close(b, mirrored(f, px(297))), (c, f, b)  # rows mirrored top <-> bottom
        assert not close(b, f)
    y = px(grid.cell(0)[1] + 44)  # along a row: columns stay where they were
    assert close(runs(back, row=y + px(2 * 94)), runs(front, row=y))


@pytest.mark.slow
def test_long_edge_backs_mirror_columns(build, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    front, back = _last_sheet(build("maldiciones"), tmp_path)
    grid = plan(ImposeOptions(), 63, 88, BLEED)
    for r in range(grid.rows):
        y = px(grid.cell(r * grid.cols)[1] + 44)
        f, b = runs(front, row=y), runs(back, row=y)
        assert close(b, mirrored(f, px(210))), (r, f, b)  # columns mirrored left <-> right
    assert not close(runs(back, row=px(grid.cell(2)[1] + 44)), runs(front, row=px(grid.cell(2)[1] + 44)))


@pytest.mark.slow
def test_back_offset_moves_backs_by_the_given_millimetres(build, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    dx, dy = 2.0, -1.5
    pdf = build("maldiciones", f"--back-offset={dx:g},{dy:g}")
    reference = build("maldiciones")  # the same deck without an offset
    plain, moved = render_png(reference, 2, DPI, tmp_path), render_png(pdf, 2, DPI, tmp_path)
    fronts_plain, fronts_moved = (
        render_png(reference, 1, DPI, tmp_path),
        render_png(pdf, 1, DPI, tmp_path),
    )
    grid = plan(ImposeOptions(), 63, 88, BLEED)
    x, y = grid.cell(0)
    row, col = px(y + 44), px(x + 31.5)
    shift_x = [b[0] - a[0] for a, b in zip(runs(plain, row=row), runs(moved, row=row))]
    shift_y = [b[0] - a[0] for a, b in zip(runs(plain, col=col), runs(moved, col=col))]
    assert shift_x and all(abs(s - px(dx)) <= 1 for s in shift_x), (shift_x, px(dx))  # 11.8 px
    assert shift_y and all(abs(s - px(dy)) <= 1 for s in shift_y), (shift_y, px(dy))  # -8.9 px
    assert runs(fronts_plain, row=row) == runs(fronts_moved, row=row)  # fronts never move


def test_back_offset_needs_backs_pages_and_a_sane_value(cli) -> None:
    res = cli("build", "expedicion", "--layout", "fold", "--back-offset", "1,1")
    assert res.returncode == 2 and "--back-offset" in res.stderr
    res = cli("build", "expedicion", "--back-offset", "one,two")
    assert res.returncode == 2 and "X,Y" in res.stderr
    res = cli("build", "expedicion", "--layout", "fold", "--duplex", "none")
    assert res.returncode == 2 and "--duplex none" in res.stderr


# ---------------------------------------------------------------- gutters and abutted cards


@pytest.mark.slow
def test_gutter_marks_are_drawn_in_the_gutters_outside_every_bleed(build, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    gutter = 6.0
    img = render_png(build("artimanas", "--gutter", f"{gutter:g}"), 1, DPI, tmp_path)
    sheet = ImposeOptions(gutter=gutter)
    grid = plan(sheet, 63, 88, BLEED)
    page = plan_fronts(sheet, [(63.0, 88.0)] * 40, BLEED)[0]
    boxes = [(s.x - BLEED, s.y - BLEED, s.x + s.w + BLEED, s.y + s.h + BLEED) for s in page.slots]
    assert len(page.marks) > len(crop_marks(plan(ImposeOptions(), 63, 88, BLEED)))
    for x1, y1, x2, y2 in page.marks:
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        near = [img.getpixel((round(px(mx)) + i, round(px(my)) + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)]
        assert any(map(_ink, near)), (x1, y1, x2, y2)  # drawn
        assert not any(b[0] < mx < b[2] and b[1] < my < b[3] for b in boxes)
    # The gutter between the first two columns is paper, but for the marks on the trim lines.
    g0 = boxes[0][2]
    y_ink = {round(px(y)) for y in grid.trim_lines()[1]}
    for y in range(int(px(boxes[0][1])), int(px(boxes[-1][3]))):
        ink = _ink(img.getpixel((int(px(g0 + gutter / 2)), y)))
        assert not ink or any(abs(y - t) <= 1 for t in y_ink), y
    # Each bleed box ends where imposition says: the gutter begins just outside it.
    assert _ink(img.getpixel((int(px(g0 - 0.5)), int(px(boxes[0][1] + 44)))))
    assert not _ink(img.getpixel((int(px(g0 + 1)), int(px(boxes[0][1] + 44)))))


@pytest.mark.slow
def test_abutted_cards_share_one_cut_line(build, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    img = render_png(build("artimanas", "--bleed", "0", "--cut-lines"), 1, DPI, tmp_path)
    sheet = ImposeOptions(bleed=0)
    grid = plan(sheet, 63, 88, 0.0)
    slots = plan_fronts(sheet, [(63.0, 88.0)] * 40, 0.0)[0].slots
    assert len(slots) == 9
    # Cards touch: one frame runs across the three of a row, edge to edge.
    row = runs(img, row=px(slots[0].y + 44), merge=3)
    assert close(row[:1], [(px(slots[0].x), px(slots[2].x + 63) - 1)]), row
    # Above the sheet's cards, in the margin, only the cut lines: one per column edge, shared.
    xs = grid.trim_lines()[0]
    band = [any(_ink(img.getpixel((x, y))) for y in range(int(px(0.5)), int(px(4)))) for x in range(img.width)]
    lines = [x for x in range(1, img.width) if band[x] and not band[x - 1]]
    assert len(lines) == len(xs) == grid.cols + 1, lines
    assert all(abs(a - px(b)) <= TOL for a, b in zip(lines, xs))


# ---------------------------------------------------------------- the calibration sheet and the CLI


@pytest.mark.slow
def test_calibration_sheet_front_and_back_share_marks_and_the_back_moves(cli, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    pdf = tmp_path / "cal.pdf"
    res = cli("calibrate", "--page", "letter", "--back-offset", "2,-1", "--out", str(pdf))
    assert res.returncode == 0, res.stderr
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 2
    assert (
        float(reader.pages[0].mediabox.width),
        float(reader.pages[0].mediabox.height),
    ) == pytest.approx((612, 792), abs=0.05)
    front, back = render_png(pdf, 1, DPI, tmp_path), render_png(pdf, 2, DPI, tmp_path)

    def cross(img, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        """Centre of the target's vertical line (along a row above the centre) and horizontal line."""
        cx, cy = img.width / 2, img.height / 2
        row = [x for x in range(img.width) if _ink(img.getpixel((x, int(cy + px(dy) - px(27)))))]
        col = [y for y in range(img.height) if _ink(img.getpixel((int(cx + px(dx) - px(27)), y)))]
        near_x = [x for x in row if abs(x - cx - px(dx)) < px(4)]
        near_y = [y for y in col if abs(y - cy - px(dy)) < px(4)]
        return sum(near_x) / len(near_x), sum(near_y) / len(near_y)

    fx, fy = cross(front)
    assert abs(fx - px(215.9 / 2)) <= 1.5 and abs(fy - px(279.4 / 2)) <= 1.5  # centred
    bx, by = cross(back, 2, -1)
    assert abs(bx - fx - px(2)) <= 1 and abs(by - fy - px(-1)) <= 1  # moved by the offset
    plain = tmp_path / "plain.pdf"
    assert cli("calibrate", "--out", str(plain)).returncode == 0
    assert abs(cross(render_png(plain, 2, DPI, tmp_path))[0] - px(105)) <= 1.5  # A4, no offset: centred


def test_build_help_documents_every_printing_option(cli) -> None:
    res = cli("build", "--help")
    assert res.returncode == 0
    for option in (
        "--layout",
        "--fold",
        "--duplex",
        "--back-offset",
        "--gutter",
        "--bleed",
        "--landscape",
        "--page",
        "--crop-marks",
        "--cut-lines",
        "--margin",
        "--portrait",
        "--greyscale",
        "--ink-saver",
    ):
        assert option in res.stdout, option
    res = cli("calibrate", "--help")
    assert res.returncode == 0 and "--back-offset" in res.stdout
    docs = (REPO / "docs" / "printing.md").read_text(encoding="utf-8")
    for option in (
        "--layout fold",
        "--duplex short",
        "--back-offset",
        "--gutter",
        "--bleed 0",
        "calibrate",
    ):
        assert option in docs, option


def test_each_card_gets_the_back_of_its_own_kind_and_size(pack_copy, tmp_path) -> None:
    """A deck mixing sizes and kinds: every back is drawn at its card's size, in its kind's design."""
    from conftest import mix_muestras

    from mazmorra.load import load_pack
    from mazmorra.render.impose import ImposeOptions, back_page, plan_fronts

    need_tool("pdftoppm")
    pack = pack_copy("muestras")
    mix_muestras(pack)
    res = run_cli("build", "muestras", "--lang", "es", "--draft", cwd=pack.parents[1])
    assert res.returncode == 0, res.stderr
    loaded = load_pack(pack)
    comps = [c for c in loaded.components() for _ in range(c.data.copies)]
    sheet = ImposeOptions()
    plan = plan_fronts(sheet, [c.size_mm for c in comps], loaded.bleed_mm)[0]
    backs = back_page(plan, sheet)
    dpi = 100
    img = render_png(pack.parents[1] / "output/muestras/es/cartas.pdf", 2, dpi, tmp_path)
    px = lambda mm: round(mm * dpi / 25.4)  # noqa: E731

    def colour(x: float, y: float) -> tuple[int, int, int]:
        return img.getpixel((px(x), px(y)))

    card_back, curse_back = (0x2C, 0x3E, 0x50), (0x1D, 0x0F, 0x24)
    for slot in backs.slots:
        comp = comps[slot.index]
        inside = colour(slot.x + 1.5, slot.y + 1.5)  # within the trim, on the back's border colour
        want = curse_back if comp.kind.name == "curse" else card_back
        assert all(abs(a - b) < 12 for a, b in zip(inside, want)), (comp.id, inside)
        if comp.size_mm == (44.0, 68.0):  # where a 63×88 back would have spilled: paper
            assert colour(slot.x + 44 + 3 + 2, slot.y + 34) == (255, 255, 255)
            assert colour(slot.x + 22, slot.y + 68 + 3 + 2) == (255, 255, 255)


def test_fold_layout_of_a_deck_without_backs_has_no_fold_and_no_blank_half(tmp_path: Path) -> None:
    out = {}
    for name, options in (("fold", ("--layout", "fold")), ("fronts", ("--duplex", "none"))):
        res = run_cli(
            "build", "cripta", "--lang", "en", "--deck", "marcadores", *options, "--out", str(tmp_path / name)
        )
        assert res.returncode == 0, res.stdout + res.stderr
        out[name] = PdfReader(str(tmp_path / name / "cripta" / "en" / "markers.pdf"))
    fold, fronts = out["fold"], out["fronts"]
    assert len(fold.pages) == len(fronts.pages) == 2  # 12 markers, 6 an A4 sheet (folded: 4 a sheet, 3 pages)
    for page in fold.pages:
        stream = page.get_contents().get_data()
        assert b"[6 2 1 2] 0 d" not in stream  # the fold line's dash-dot
        assert b"Do" in stream
    assert [p.get_contents().get_data() for p in fold.pages] == [p.get_contents().get_data() for p in fronts.pages]
