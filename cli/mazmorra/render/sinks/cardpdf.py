"""Print-shop PDFs: every face on a page of its own, trimmed to its bleed, TrimBox at the cut.

`--card-pdfs` writes one PDF per component (its front page, then its back page) under
output/<pack>/<lang>/cards/<deck>/; `--printer NAME` writes the files a printer profile asks for
(`mazmorra.printers`: one PDF per card or per face, one per deck with fronts and backs interleaved
in the printer's order, or a fronts file and a backs file) under output/<pack>/<lang>/<printer>/.
A face whose size the printer sells prints on that product's page (trim plus the printer's bleed),
its trim centred on the product's; a size the printer does not sell is a warning and prints on a
page of its own bleed box. No crop marks and no cut guide: a print shop cuts by the TrimBox.
ReportLab (`render/draw/`) and the printer's colours are imported when a file is opened: the sink
table reads this module's declaration without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, prune
from mazmorra.render.sinks.table import SinkDecl, SinkOption
from mazmorra.support.filenames import Pattern, output_path, parse_pattern

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Face, Item
    from mazmorra.printers import Printer


@dataclass(frozen=True)
class CardPage:
    """The page one face prints on: its size and where the face's trim goes on it (mm)."""

    w: float
    h: float
    x: float  # the face's trim
    y: float
    tx: float  # the printer's trim (its cut): inset from the page's edges
    ty: float


def card_page(face: Face, printer: Printer | None) -> tuple[CardPage, bool]:
    """The page of one face (the printer's product when it sells the size) and whether it is one of
    the printer's products."""
    b = face.bleed
    found = printer.product(face.w, face.h, b) if printer is not None else None
    if found is None:
        return CardPage(face.w + 2 * b, face.h + 2 * b, b, b, b, b), printer is None
    product, turned = found
    tw, th = product.trim[::-1] if turned else product.trim
    pw, ph = tw + 2 * product.bleed, th + 2 * product.bleed
    return CardPage(pw, ph, (pw - face.w) / 2, (ph - face.h) / 2, product.bleed, product.bleed), True


NOT_SOLD = "not-sold"  # the folder, beside a printer's files, of the sizes it does not sell


class _File:
    """One PDF being written, a face per page."""

    def __init__(self, sink: CardPdfSink, doc: Document, target: Path):
        from mazmorra.printers import cmyk
        from mazmorra.render.draw import pdfx
        from mazmorra.render.draw.pdfpages import DocMeta, PdfPages

        ctx = sink.ctx
        meta = DocMeta(doc.title, ctx.pack.spec.author, f"{doc.pack_name}: {doc.deck_name}", doc.lang)
        self.target = target
        self.staged = ctx.stage(target)
        printer = sink.printer
        ink = cmyk.ink(printer.icc) if printer is not None and printer.colour == "cmyk" and printer.icc else None
        self.pdf = PdfPages(self.staged, (10.0, 10.0), meta, ctx.icons, ink, cut_guides=False)
        if ink is not None and printer is not None and printer.pdf in pdfx.VERSIONS:
            pdfx.mark(self.pdf.c, printer.pdf, ink)

    def face(self, face: Face, page: CardPage, reused: bool) -> None:
        from mazmorra.render.draw.boxes import set_boxes
        from mazmorra.render.draw.pdfpages import K

        pdf = self.pdf
        pdf.c.setPageSize((page.w * K, page.h * K))
        pdf.size = (page.w, page.h)
        pdf.page_h = page.h
        if face.background and face.shape == "rect":  # the product's bleed may reach past the face's own
            pdf.c.setFillColor(pdf.colour(face.background))
            pdf.c.rect(0, 0, page.w * K, page.h * K, stroke=0, fill=1)
        pdf.draw_face(face, page.x, page.y, reused)
        trim = (page.tx, page.ty, page.w - page.tx, page.h - page.ty)  # the printer's cut
        set_boxes(pdf.c, (page.w, page.h), trim, (0.0, 0.0, page.w, page.h))
        pdf.c.showPage()
        pdf.pages += 1


class CardPdfSink(Sink):
    """One PDF per component, or a printer profile's PDFs."""

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        self.printer = ctx.outputs.printer
        self.layout = self.printer.layout if self.printer is not None else "per-card"
        self.naming: Pattern = (
            self.printer.naming if self.printer is not None else parse_pattern("{deck}/{component}.pdf")
        )
        self._open: dict[str, _File] = {}
        self._n = 0
        self._pages = 0  # of the current document
        self.pages = 0  # of the build
        self._rows: list[list[str]] = []
        self._unsold: set[tuple[float, float]] = set()

    def folder(self, doc: Document) -> Path:
        shop = self.printer.id if self.printer is not None else "cards"
        return output_path(self.out_dir, "{pack}/{lang}/{shop}", pack=self.pack.id, lang=doc.lang, shop=shop)

    def _path(self, doc: Document, component: str = "", side: str = "", apart: bool = False) -> Path:
        """A file's path by the profile's naming; `apart`: in the folder of sizes the printer does not sell."""
        values: dict[str, str | int] = {
            "deck": doc.file_name,
            "n": self._n,
            "component": component,
            "side": side,
            "lang": doc.lang,
        }
        folder = self.folder(doc)
        if apart:
            folder = output_path(folder, NOT_SOLD)
        return output_path(folder, self.naming, self.names, **values)

    def start(self, doc: Document) -> None:
        self._open, self._n, self._rows, self._unsold, self._pages = {}, 0, [], set(), 0
        self._notes: list[str] = []
        self._located = False  # the layout found transparency at its elements: the file check need not say it again

    def _deck_file(self, doc: Document, side: str, sold: bool) -> _File:
        """The deck's file a face of `side` goes to, opened with its first face: the one file of a
        deck layout or the side's of fronts-backs, and beside them, apart, those of unsold sizes."""
        side = "deck" if self.layout in ("deck-front-first", "deck-back-first") else side
        key = side if sold else f"{side} apart"
        if key not in self._open:
            self._open[key] = _File(self, doc, self._path(doc, side="" if side == "deck" else side, apart=not sold))
        return self._open[key]

    def _page(self, doc: Document, face: Face) -> tuple[CardPage, bool]:
        """The page of one face and whether the printer sells its size (else it is written apart, in
        the NOT_SOLD folder, at its own size, and the build says so once per size)."""
        page, sold = card_page(face, self.printer)
        if not sold and (face.w, face.h) not in self._unsold and self.printer is not None:
            self._unsold.add((face.w, face.h))
            sells = ", ".join(f"{p.name} {p.trim[0]:g}×{p.trim[1]:g} mm" for p in self.printer.products) or "nothing"
            where = output_path(self.folder(doc), NOT_SOLD)
            self._notes.append(
                f"{doc.deck_id}: {face.w:g}×{face.h:g} mm is not a product of {self.printer.name} (it sells {sells}): "
                f"written apart at its own size, in {where}/ (print it at home, or with another printer)"
            )
        return page, sold

    def add(self, doc: Document, item: Item) -> None:
        self._n += 1
        self._located = self._located or any(p.rule == "preflight.transparency" for p in item.problems)
        faces = [item.front] + ([item.back] if item.back is not None else [])
        pages = [self._page(doc, f) for f in faces]
        sold = all(s for _, s in pages)  # a component's faces go together, apart if one is not sold
        comp = item.front.component
        if self.layout == "per-card":
            file = _File(self, doc, self._path(doc, comp, apart=not sold))
            for face, (page, _) in zip(faces, pages):
                file.face(face, page, False)
            self._close(file, doc)
        elif self.layout == "per-face":
            for face, (page, _) in zip(faces, pages):
                file = _File(self, doc, self._path(doc, comp, face.side, apart=not sold))
                file.face(face, page, False)
                self._close(file, doc)
        else:
            order = [(face, page) for face, (page, _) in zip(faces, pages)]
            if self.layout == "deck-back-first":
                order.reverse()
            for _ in range(item.copies):
                for face, page in order:
                    file = self._deck_file(doc, face.side, sold)
                    file.face(face, page, item.copies > 1 or (face.side == "back" and item.shared_back))
        self._rows.append([str(self._n), comp, item.name, str(item.copies)])

    def _close(self, file: _File, doc: Document) -> None:
        from mazmorra.render.draw import pdfx

        file.pdf.save()
        self._pages += file.pdf.pages
        self._part.written.setdefault(file.target.parent, set()).add(file.target)
        if self.printer is not None:  # the preflight of what only the written file shows
            data = file.staged.read_bytes()
            rgb, fonts = pdfx.leftovers(data)
            if self.printer.pdf == "PDF/X-1a:2003" and not self._located and pdfx.transparent(data):
                msg = (
                    f"{file.target.name}: transparency (an image's alpha or a colour's opacity), which PDF/X-1a forbids"
                )
                self.problem(
                    Problem(
                        "preflight.transparency",
                        msg,
                        self.pack.deck(doc.deck_id).loc,
                        f"deck:{doc.deck_id}",
                        lang=doc.lang,
                    )
                )
            where = self.pack.deck(doc.deck_id).loc
            if rgb and self.printer.colour == "cmyk":
                msg = f"{file.target.name}: RGB colour left in a CMYK file for {self.printer.name}"
                self.problem(Problem("preflight.rgb", msg, where, f"deck:{doc.deck_id}", lang=doc.lang))
            if fonts:
                msg = f"{file.target.name}: fonts not embedded ({', '.join(fonts)}); {self.printer.name} needs every font embedded"
                self.problem(Problem("preflight.fonts", msg, where, f"deck:{doc.deck_id}", lang=doc.lang))

    def end(self, doc: Document) -> Part:
        from mazmorra.support.safetext import csv_bytes

        for file in self._open.values():
            self._close(file, doc)
        self._open = {}
        rows = [["n", "component", "name", "copies"], *self._rows]
        self.write(self.file(self.folder(doc), "{deck}-cards.csv", deck=doc.file_name), csv_bytes(rows))
        part = super().end(doc)
        part.data = self._pages
        part.made += self._notes
        return part

    def committed(self) -> None:
        for folder in {self.folder_root(f) for f in self.written}:
            prune(folder, {p for files in self.written.values() for p in files}, (".pdf", ".csv"))

    def folder_root(self, folder: Path) -> Path:
        """The sink's own folder (output/<pack>/<lang>/<printer or cards>) a written folder is in."""
        pack = output_path(self.out_dir, "{pack}", pack=self.pack.id)
        rel = folder.relative_to(pack)
        return pack / rel.parts[0] / rel.parts[1]

    def absorb(self, doc: Document, part: Part, problems: list[Problem]) -> None:
        super().absorb(doc, part, problems)
        self.pages += part.data or 0

    def summary(self) -> list[str]:
        pdfs = {folder: sum(1 for f in files if f.suffix == ".pdf") for folder, files in sorted(self.written.items())}
        shown = [f"{folder}/ ({n} PDF)" for folder, n in pdfs.items() if n]
        return shown + [f"print-shop PDFs: {self.pages} pages", *self.made]


SINK = SinkDecl(
    "cards",
    CardPdfSink,
    "docs/printing.md#per-card-pdfs",
    (
        SinkOption(
            "card_pdfs",
            "--card-pdfs",
            bool,
            False,
            "One PDF per component (front page, back page), trimmed to the bleed with its TrimBox at the "
            "cut: output/<pack>/<lang>/cards/<deck>/.",
            asks=True,
        ),
    ),
    layouts=("per-card", "per-face", "deck-front-first", "deck-back-first", "fronts-backs"),
    order=30,
)
