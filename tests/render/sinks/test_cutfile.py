"""`--cut-file`: print-and-cut sheets for a cutting machine, registration marks on the page, and SVG
cut paths that coincide with the pieces' trim on the PDF page (read back from its content stream)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import need_tool, render_png, run_cli
from pypdf import PdfReader
from pypdf.generic import ContentStream

from mazmorra.render.sinks.cutfile import INSET, LENGTH, SQUARE, THICK

K = 72 / 25.4
BLEED = 3.0
Box = tuple[float, float, float, float]


def _mul(a: list[float], b: list[float]) -> list[float]:
    """a × b for PDF matrices [a b c d e f]."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def _clips(reader: PdfReader, page) -> list[Box]:
    """Every clipping path's bounding box on the page (pt, PDF coordinates), forms included: each face
    is drawn clipped to its bleed box."""
    found: list[Box] = []

    def visit(stream, resources, ctm: list[float]) -> None:
        stack: list[list[float]] = []
        points: list[tuple[float, float]] = []
        clip = False
        for operands, op in ContentStream(stream, reader).operations:
            v = [float(x) for x in operands] if op in (b"cm", b"re", b"m", b"l", b"c") else []
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _mul(v, ctm)
            elif op == b"re":
                x, y, w, h = v
                points += [(x, y), (x + w, y + h)]
            elif op in (b"m", b"l", b"c"):
                points += list(zip(v[::2], v[1::2]))
            elif op in (b"W", b"W*"):
                clip = True
            elif op in (b"n", b"S", b"f", b"B", b"b", b"s", b"f*"):
                if clip and points:
                    xs = [ctm[0] * x + ctm[2] * y + ctm[4] for x, y in points]
                    ys = [ctm[1] * x + ctm[3] * y + ctm[5] for x, y in points]
                    found.append((min(xs), min(ys), max(xs), max(ys)))
                points, clip = [], False
            elif op == b"Do":
                xobj = resources["/XObject"][operands[0]].get_object()
                if xobj["/Subtype"] == "/Form":
                    m = [float(x) for x in xobj.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    visit(xobj, xobj.get("/Resources", resources), _mul(m, ctm))

    visit(page.get_contents(), page["/Resources"], [1, 0, 0, 1, 0, 0])
    return found


def _svg_boxes(svg: Path) -> list[Box]:
    """Each cut path's bounding box (mm from the page's top left)."""
    ns = {"s": "http://www.w3.org/2000/svg"}
    boxes = []
    for path in ET.parse(svg).getroot().findall("s:g[@id='cut']/s:path", ns):
        d = path.get("d", "")
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
        if " A " in d and d.count(" A ") == 2:  # a circle: two half arcs across its diameter
            x0, cy, r, x1 = nums[0], nums[1], nums[2], nums[7]
            boxes.append((x0, cy - r, x1, cy + r))
        else:
            xs = [float(x) for x in re.findall(r"[MHL] (-?[\d.]+)", d)]
            ys = [float(y) for y in re.findall(r"(?:M -?[\d.]+|V) (-?[\d.]+)", d)]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


@pytest.fixture(scope="module")
def cut(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cut")
    for deck in ("fichas", "maldiciones"):
        res = run_cli("build", "expedicion", "--lang", "en", "--deck", deck, "--cut-file", "--out", str(out))
        assert res.returncode == 0, res.stdout + res.stderr
    return out / "expedicion" / "en" / "cut"  # a folder per deck, by its English file name: tokens/, curses/


@pytest.mark.slow
@pytest.mark.parametrize("deck", ["tokens", "curses"])
def test_svg_cut_paths_coincide_with_the_trim_on_the_pdf_page(cut: Path, deck: str) -> None:
    reader = PdfReader(str(cut / deck / f"{deck}.pdf"))
    assert len(list((cut / deck).glob(f"{deck}-*.svg"))) == len(reader.pages)
    pieces = 0
    for n, page in enumerate(reader.pages, 1):
        ph = float(page.mediabox.height)
        trims = []
        for x0, y0, x1, y1 in _clips(reader, page):
            box = (x0 / K + BLEED, (ph - y1) / K + BLEED, x1 / K - BLEED, (ph - y0) / K - BLEED)
            if box[2] - box[0] > 10 and box not in trims:  # a face's bleed box (not a picture's frame)
                trims.append(box)
        cuts = _svg_boxes(cut / deck / f"{deck}-{n}.svg")
        assert len(cuts) == len(trims) > 0, (n, len(cuts), len(trims))
        for c in cuts:
            nearest = min(max(abs(a - b) for a, b in zip(c, t)) for t in trims)
            assert nearest <= 0.1, (n, c, nearest)
        pieces += len(cuts)
    assert pieces == {"tokens": 36, "curses": 15}[deck]


def test_registration_marks_are_printed_and_clear_of_every_piece(cut: Path, tmp_path: Path) -> None:
    need_tool("pdftoppm")
    dpi = 100
    img = render_png(cut / "tokens" / "tokens.pdf", 1, dpi, tmp_path).convert("L")
    px = lambda mm: round(mm * dpi / 25.4)  # noqa: E731
    box = PdfReader(str(cut / "tokens" / "tokens.pdf")).pages[0].mediabox
    w_mm, h_mm = float(box.width) / K, float(box.height) / K
    x1, y1 = w_mm - INSET, h_mm - INSET
    for x, y in (
        (INSET + SQUARE / 2, INSET + SQUARE / 2),  # the square
        (x1 - LENGTH / 2, INSET + THICK / 2),  # top-right corner mark, both arms
        (x1 - THICK / 2, INSET + LENGTH / 2),
        (INSET + LENGTH / 2, y1 - THICK / 2),  # bottom-left
        (INSET + THICK / 2, y1 - LENGTH / 2),
    ):
        assert min(img.getpixel((px(x) + i, px(y) + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)) < 60, (x, y)
    for box in _svg_boxes(cut / "tokens" / "tokens-1.svg"):  # every piece clear of the marks' band
        assert box[0] - BLEED > INSET + SQUARE and box[1] - BLEED > INSET + SQUARE
        assert box[2] + BLEED < x1 - THICK and box[3] + BLEED < y1 - THICK


def test_a_rounded_piece_is_cut_on_its_rounded_trim() -> None:
    from mazmorra.render.sinks.cutfile import cut_path

    d = cut_path(10.0, 20.0, 63.0, 88.0, "rect", 3.0)
    assert d.count(" A 3 3 0 0 1 ") == 4  # a quarter circle in each corner
    xs = [float(x) for x in re.findall(r"(?:[MH]|1) (-?[\d.]+) ", d)]
    assert min(xs) == 10.0 and max(xs) == 73.0  # the trim, not the bleed
    assert cut_path(10.0, 20.0, 63.0, 88.0, "rect", 0.0) == "M 10 20 H 73 V 108 H 10 Z"
    assert _svg_boxes_of(cut_path(0.0, 0.0, 24.0, 24.0, "round", 0.0)) == (0.0, 0.0, 24.0, 24.0)


def _svg_boxes_of(d: str) -> tuple[float, float, float, float]:
    nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    x0, cy, r, x1 = nums[0], nums[1], nums[2], nums[7]
    return (x0, cy - r, x1, cy + r)
