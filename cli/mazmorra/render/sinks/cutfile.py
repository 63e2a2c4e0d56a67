"""Print-and-cut files for cutting machines (Silhouette, Cricut): `--cut-file`.

For each deck, output/<pack>/<lang>/cut/<deck>/<deck>.pdf: the fronts on sheets with registration marks
(Silhouette Studio's type 1: a 5 mm square top left, 20 mm corner marks top right and bottom left,
0.5 mm thick, 10 mm in from the paper's edges) and no crop marks, pieces 2 mm apart with their
bleed; and for each page <deck>-<n>.svg, the cut paths (each piece's trim: a rectangle, a rounded
rectangle with the pack's `corner_radius`, or a circle) in millimetres from the page's top left,
the same coordinates as the PDF page, with the registration marks on a layer of their own. Backs
are not printed: a cutting machine cuts single sheets (glue a backs sheet from the ordinary PDF).
Imposing and drawing are imported when a document starts: the sink table reads this module's
declaration without them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem
from mazmorra.render.sinks.pdf import corner_radius, oriented
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, prune
from mazmorra.render.sinks.table import SinkDecl, SinkOption
from mazmorra.support.filenames import output_path

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Item, Page, RectOp
    from mazmorra.render.draw.pdfpages import PdfPages

INSET = 10.0  # mm from the paper's edges to the registration marks
SQUARE = 5.0  # mm, the top-left mark
LENGTH = 20.0  # mm, each arm of the corner marks
THICK = 0.5  # mm
CLEAR = 8.0  # mm between the marks' band and the nearest piece (the machine's optical eye reads around them)
GAP = 2.0  # mm between neighbouring bleed boxes: the blade cuts each piece on its own
BLACK = "#000000"


def registration(page: tuple[float, float]) -> tuple[RectOp, ...]:
    """The registration marks of a page (mm from its top left)."""
    from mazmorra.contracts import RectOp

    pw, ph = page
    x1, y1 = pw - INSET, ph - INSET
    return (
        RectOp(INSET, INSET, SQUARE, SQUARE, BLACK, None, 0.0),  # top left: the square
        RectOp(x1 - LENGTH, INSET, LENGTH, THICK, BLACK, None, 0.0),  # top right: an L
        RectOp(x1 - THICK, INSET, THICK, LENGTH, BLACK, None, 0.0),
        RectOp(INSET, y1 - THICK, LENGTH, THICK, BLACK, None, 0.0),  # bottom left: an L
        RectOp(INSET, y1 - LENGTH, THICK, LENGTH, BLACK, None, 0.0),
    )


def cut_path(x: float, y: float, w: float, h: float, shape: str, radius: float) -> str:
    """An SVG path's `d` for one piece's trim (mm)."""
    if shape == "round":
        r, cx, cy = min(w, h) / 2, x + w / 2, y + h / 2
        return f"M {_n(cx - r)} {_n(cy)} A {_n(r)} {_n(r)} 0 1 0 {_n(cx + r)} {_n(cy)} A {_n(r)} {_n(r)} 0 1 0 {_n(cx - r)} {_n(cy)} Z"
    r = min(radius, w / 2, h / 2)
    if r <= 0:
        return f"M {_n(x)} {_n(y)} H {_n(x + w)} V {_n(y + h)} H {_n(x)} Z"
    arc = f"A {_n(r)} {_n(r)} 0 0 1"
    return (
        f"M {_n(x + r)} {_n(y)} H {_n(x + w - r)} {arc} {_n(x + w)} {_n(y + r)} V {_n(y + h - r)} "
        f"{arc} {_n(x + w - r)} {_n(y + h)} H {_n(x + r)} {arc} {_n(x)} {_n(y + h - r)} V {_n(y + r)} "
        f"{arc} {_n(x + r)} {_n(y)} Z"
    )


def svg(page: Page, shapes: list[str], radius: float, title: str) -> str:
    """The cut file of one page: its pieces' trims, and the registration marks for reference."""
    from mazmorra.contracts import RectOp

    pw, ph = page.size
    paths = [
        f'    <path id="cut-{p.index + 1}" d="{cut_path(p.x, p.y, p.w, p.h, shapes[p.index], radius)}"/>'
        for p in page.placements
        if p.side == "front" and p.clip is None and p.index < len(shapes)
    ]
    marks = [
        f'    <rect x="{_n(m.x)}" y="{_n(m.y)}" width="{_n(m.w)}" height="{_n(m.h)}"/>'
        for m in page.notes
        if isinstance(m, RectOp)
    ]
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(pw)}mm" height="{_n(ph)}mm" viewBox="0 0 {_n(pw)} {_n(ph)}">',
            f"  <title>{_escape(title)}</title>",
            '  <g id="registration" fill="#000000" stroke="none">',
            *marks,
            "  </g>",
            '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
            *paths,
            "  </g>",
            "</svg>",
            "",
        ]
    )


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def _escape(text: str) -> str:
    from xml.sax.saxutils import quoteattr  # here: it brings urllib and ssl, which `--help` need not load

    return quoteattr(text)[1:-1]


class CutSink(Sink):
    """Print-and-cut sheets and SVG cut paths."""

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        self._pdf: PdfPages | None = None
        self._pages: list[Page] = []
        self._shapes: list[str] = []
        self._radius = 0.0

    def folder(self, doc: Document) -> Path:
        ids = {"pack": self.pack.id, "lang": doc.lang, "deck": doc.file_name}
        return output_path(self.out_dir, "{pack}/{lang}/cut/{deck}", **ids)  # one per deck: --deck prunes only its own

    def start(self, doc: Document) -> None:
        from mazmorra.render.draw.inks import SheetLook
        from mazmorra.render.draw.pdfpages import DocMeta, PdfPages  # only a build that prints pays for ReportLab
        from mazmorra.render.impose import DoesNotFit, impose

        ctx = self.ctx
        sheet = replace(
            oriented(ctx, doc.deck_id), margin=INSET + SQUARE + CLEAR, crop_marks=False, cut_lines=False,
            duplex="none", layout="duplex", gutter=GAP, back_offset=(0.0, 0.0),
        )  # fmt: skip
        self._shapes, self._radius, self._pdf = [], corner_radius(ctx, doc.deck_id), None
        try:
            pages = impose(sheet, doc.sizes, [False] * len(doc.sizes), ctx.pack.bleed_mm)
        except DoesNotFit as exc:
            self.problem(
                Problem(
                    "sheet.too-small",
                    f"{exc} with the cutting machine's registration marks; print on a larger --page",
                    self.pack.deck(doc.deck_id).loc,
                    f"deck:{doc.deck_id}",
                    lang=doc.lang,
                )
            )
            return
        self._pages = [replace(p, notes=p.notes + registration(p.size)) for p in pages]
        target = self.file(self.folder(doc), "{deck}.pdf", deck=doc.file_name)
        meta = DocMeta(doc.title, ctx.pack.spec.author, f"{doc.pack_name}: {doc.deck_name} (print and cut)", doc.lang)
        look = SheetLook(greyscale=ctx.sheet.greyscale)  # marks stay solid black: no ink saver
        self._pdf = PdfPages(
            ctx.stage(target), self._pages[0].size if self._pages else sheet.size, meta, self.icons, look=look
        )
        self._part.written.setdefault(target.parent, set()).add(target)
        self._pdf.begin(self._pages)

    def add(self, doc: Document, item: Item) -> None:
        self._shapes += [item.front.shape] * item.copies
        if self._pdf is not None:
            self._pdf.push(item)

    def end(self, doc: Document) -> Part:
        if self._pdf is not None:
            self._pdf.save()
            for n, page in enumerate(self._pages, 1):
                text = svg(page, self._shapes, self._radius, f"{doc.title}: cut, page {n}")
                self.write(self.file(self.folder(doc), "{deck}-{n}.svg", deck=doc.file_name, n=n), text.encode("utf-8"))
            pdf = self.file(self.folder(doc), "{deck}.pdf", deck=doc.file_name)
            self.made.append(f"{pdf} (+ {len(self._pages)} SVG cut files)")
            self._pdf = None
        return super().end(doc)

    def committed(self) -> None:
        for folder, files in self.written.items():
            prune(folder, files, (".pdf", ".svg"))


SINK = SinkDecl(
    "cut",
    CutSink,
    "docs/printing.md#cutting-machines-print-and-cut---cut-file",
    (
        SinkOption(
            "cut_file",
            "--cut-file",
            bool,
            False,
            "Print-and-cut files for a cutting machine (Silhouette, Cricut): sheets with registration marks "
            "and SVG cut paths, output/<pack>/<lang>/cut/<deck>/.",
            asks=True,
        ),
    ),
    order=70,
)
