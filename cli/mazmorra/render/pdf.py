"""The print-and-play PDF: output/<pack>/<lang>/<deck>.pdf, every page imposed (`impose.py`) and
drawn (`draw.py`) while the document's items arrive."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem
from mazmorra.render.impose import DoesNotFit, impose
from mazmorra.render.sink import Outputs, Part, Sink, SinkContext

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Item
    from mazmorra.render.draw import PdfPages


@dataclass
class _Made:
    """One PDF written: its pages and the icon and image files it drew (for make)."""

    pages: int
    inputs: set[Path] = field(default_factory=set)


class PdfSink(Sink):
    name = "pdf"
    option = "--pdf"
    docs = "docs/printing.md#print-and-play-pdfs"
    prints = True

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        self._pdf: PdfPages | None = None
        self.outputs: list[Path] = []  # every PDF the build wrote
        self.pages = 0

    @classmethod
    def wanted(cls, outputs: Outputs) -> bool:
        return outputs.pdf

    def start(self, doc: Document) -> None:
        from mazmorra.printers import cmyk
        from mazmorra.render import pdfx
        from mazmorra.render.draw import DocMeta, PdfPages  # here: only a build that prints pays for ReportLab

        ctx = self.ctx
        try:
            pages = impose(ctx.sheet, doc.sizes, doc.backs, ctx.pack.bleed_mm)
        except DoesNotFit as exc:
            self.problem(
                Problem(
                    "sheet.too-small",
                    f"{exc}; print on a larger --page, --landscape, or make the component smaller",
                    next((d.loc for d in ctx.pack.decks if d.id == doc.deck_id), ctx.pack.loc),
                    f"deck:{doc.deck_id}",
                    lang=doc.lang,
                )
            )
            self._pdf = None
            return
        meta = DocMeta(doc.title, ctx.pack.spec.author, f"{doc.pack_name}: {doc.deck_name}", doc.lang)
        printer = ctx.outputs.printer  # a sheets profile in CMYK (a print shop that takes whole sheets)
        ink = cmyk.ink(printer.icc) if printer is not None and printer.colour == "cmyk" and printer.icc else None
        self._staged = ctx.stage(doc.path)
        self._pdf = PdfPages(self._staged, ctx.sheet.size, meta, ctx.icons, ink)
        if ink is not None and printer is not None and printer.pdf in pdfx.VERSIONS:
            pdfx.mark(self._pdf.c, printer.pdf, ink)
        self._pdf.begin(pages)

    def add(self, doc: Document, item: Item) -> None:
        if self._pdf is not None:
            self._pdf.push(item)

    def end(self, doc: Document) -> Part:
        if self._pdf is not None:
            self._pdf.save()
            self._preflight(doc)  # its problems go with this document's part
        part = super().end(doc)
        if self._pdf is not None:
            part.data = _Made(self._pdf.pages, self._pdf.inputs)
            self._pdf = None
        return part

    def _preflight(self, doc: Document) -> None:
        """A print-shop build's checks of the written sheets (`render/pdfx.py`): RGB left in a CMYK file,
        fonts not embedded."""
        from mazmorra.render import pdfx

        printer = self.ctx.outputs.printer
        if printer is None:
            return
        rgb, fonts = pdfx.leftovers(self._staged.read_bytes())
        where = next((d.loc for d in self.ctx.pack.decks if d.id == doc.deck_id), self.ctx.pack.loc)
        if rgb and printer.colour == "cmyk":
            msg = f"{doc.path.name}: RGB colour left in a CMYK file for {printer.name}"
            self.problem(Problem("preflight.rgb", msg, where, f"deck:{doc.deck_id}", lang=doc.lang))
        if fonts:
            msg = f"{doc.path.name}: fonts not embedded ({', '.join(fonts)}); {printer.name} needs every font embedded"
            self.problem(Problem("preflight.fonts", msg, where, f"deck:{doc.deck_id}", lang=doc.lang))

    def absorb(self, doc: Document, part: Part, problems: list[Problem]) -> None:
        super().absorb(doc, part, problems)
        if isinstance(part.data, _Made):
            doc.inputs |= part.data.inputs
            self.pages += part.data.pages
            self.outputs.append(doc.path)

    def summary(self) -> list[str]:
        return []  # the build lists its PDFs itself, one path a line
