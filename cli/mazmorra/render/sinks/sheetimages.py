"""Sheet images for printers that take whole print sheets as pictures: every page of a deck's
print-and-play sheets (imposed as the PDF is, on the profile's paper) rasterised at the profile's
dpi, output/<pack>/<lang>/<printer>/<deck>-NNN.png, fronts and backs pages in printing order. Drawing
and rasterising are imported by the steps that do them: the sink table reads this module's
declaration without them."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from mazmorra.errors import Problem
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, prune
from mazmorra.render.sinks.table import SinkDecl
from mazmorra.support.filenames import output_path

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Item
    from mazmorra.render.draw.pdfpages import PdfPages


class SheetImageSink(Sink):
    """The print sheets as one PNG per page, for a printer profile."""

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        assert ctx.outputs.printer is not None  # wanted only then
        self.printer = ctx.outputs.printer
        self._pdf: PdfPages | None = None
        self._buffer = io.BytesIO()

    def start(self, doc: Document) -> None:
        from mazmorra.render.draw.pdfpages import DocMeta, PdfPages
        from mazmorra.render.impose import DoesNotFit, impose

        ctx = self.ctx
        try:
            pages = impose(ctx.sheet, doc.sizes, doc.backs, ctx.pack.bleed_mm)
        except DoesNotFit as exc:
            loc = next((d.loc for d in ctx.pack.decks if d.id == doc.deck_id), ctx.pack.loc)
            self.problem(Problem("sheet.too-small", str(exc), loc, f"deck:{doc.deck_id}", lang=doc.lang))
            self._pdf = None
            return
        self._buffer = io.BytesIO()
        self._pdf = PdfPages(self._buffer, ctx.sheet.size, DocMeta(doc.title, "", "", doc.lang), ctx.icons)
        self._pdf.begin(pages)

    def add(self, doc: Document, item: Item) -> None:
        if self._pdf is not None:
            self._pdf.push(item)

    def end(self, doc: Document) -> Part:
        import pypdfium2 as pdfium
        from PIL import Image

        from mazmorra.render.raster import MM_PER_IN, png_bytes

        if self._pdf is not None:
            self._pdf.save()
            self._pdf = None
            ids = {"pack": self.pack.id, "lang": doc.lang, "shop": self.printer.id}
            folder = output_path(self.out_dir, "{pack}/{lang}/{shop}", **ids)
            pdf = pdfium.PdfDocument(self._buffer.getvalue())
            try:
                for n in range(len(pdf)):
                    page = pdf[n]
                    scale = self.printer.dpi / 72  # PDF points to pixels
                    img = page.render(scale=scale, rev_byteorder=True).to_pil().convert("RGB")
                    page.close()
                    w, h = (round(v / MM_PER_IN * self.printer.dpi) for v in self.ctx.sheet.size)
                    if img.size != (w, h):  # a pixel of rounding at the page's edge
                        img = img.resize((w, h), Image.Resampling.LANCZOS)
                    target = self.file(folder, "{deck}-{n:03d}.png", deck=doc.file_name, n=n + 1)
                    self.write(target, png_bytes(img, self.printer.dpi))
            finally:
                pdf.close()
        return super().end(doc)

    def committed(self) -> None:
        for folder, files in self.written.items():
            prune(folder, files, (".png",))

    def summary(self) -> list[str]:
        from mazmorra.render.raster import MM_PER_IN

        return [
            f"{folder}/ ({len(files)} sheet images, {self.printer.dpi} dpi, 1 mm = "
            f"{self.printer.dpi / MM_PER_IN:.2f} px)"
            for folder, files in sorted(self.written.items())
        ]


SINK = SinkDecl(
    "sheet-images", SheetImageSink, "docs/printing.md#sheet-images", layouts=("sheet-images",), prints=True, order=40
)
