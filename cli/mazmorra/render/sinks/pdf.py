"""The print-and-play PDF: output/<pack>/<lang>/<deck>.pdf, every page imposed (`impose/`) and
drawn (`draw/`) while the document's items arrive; both imported when a document starts, so that
the sink table reads this module's declaration without them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.errors import Problem
from mazmorra.render.sinks.sink import Part, Sink, SinkContext
from mazmorra.render.sinks.table import SinkDecl, SinkOption

if TYPE_CHECKING:
    from mazmorra.contracts import Document, Item
    from mazmorra.render.draw.chunks import ChunkedPages
    from mazmorra.render.impose import ImposeOptions


@dataclass
class _Made:
    """One PDF written: its pages."""

    pages: int


def oriented(ctx: SinkContext, deck_id: str) -> ImposeOptions:
    """The build's sheet turned as the deck (else the pack) asks when the command line did not say;
    still None for auto, which imposition settles by what fits more."""
    if ctx.sheet.landscape is not None:
        return ctx.sheet
    spec = next((d.spec for d in ctx.pack.decks if d.id == deck_id), None)
    wanted = (spec.orientation if spec else None) or ctx.pack.spec.orientation
    return ctx.sheet if wanted == "auto" else replace(ctx.sheet, landscape=wanted == "landscape")


def corner_radius(ctx: SinkContext, deck_id: str) -> float:
    """The radius (mm) of the deck's rounded corners: its own `corner_radius`, else the pack's."""
    from mazmorra.model.units import parse_length

    spec = next((d.spec for d in ctx.pack.decks if d.id == deck_id), None)
    value = spec.corner_radius if spec is not None and spec.corner_radius is not None else ctx.pack.spec.corner_radius
    return parse_length(value)


class PdfSink(Sink):
    """The print-and-play sheets, one PDF per deck."""

    def __init__(self, ctx: SinkContext):
        super().__init__(ctx)
        self._pdf: ChunkedPages | None = None
        self.outputs: list[Path] = []  # every PDF the build wrote
        self.pages = 0

    def start(self, doc: Document) -> None:
        from mazmorra.printers import cmyk
        from mazmorra.render.draw import pdfx
        from mazmorra.render.draw.chunks import ChunkedPages, Chunking  # here: only a build that prints pays
        from mazmorra.render.draw.inks import SheetLook
        from mazmorra.render.draw.pdfpages import DocMeta
        from mazmorra.render.impose import DoesNotFit, imposed
        from mazmorra.support.atomic import TMP_DIR

        ctx = self.ctx
        try:
            sheet = oriented(ctx, doc.deck_id)
            if doc.sheets_only:  # a list to read (a round's removals), not a piece to cut out: no crop marks
                sheet = replace(sheet, crop_marks=False)
            pages = imposed(sheet, doc.sizes, doc.backs, ctx.pack.bleed_mm)
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
        first = next(pages, None)
        size = first.size if first is not None else ctx.sheet.size
        look = SheetLook(ctx.sheet.greyscale, ctx.sheet.ink_saver, corner_radius(ctx, doc.deck_id))
        self._staged = ctx.stage(doc.path)
        marks = None
        if ink is not None and printer is not None and printer.pdf in pdfx.VERSIONS:
            standard = printer.pdf
            marks = lambda c: pdfx.mark(c, standard, ink)  # noqa: E731  # every chunk is a PDF/X file
        scratch = ctx.out_dir.resolve().parent / TMP_DIR
        options = repr((sheet, meta, look, ink.name if ink else None, printer and printer.pdf))
        chunking = Chunking.for_build(scratch, options, doc.spare)
        self._pdf = ChunkedPages(self._staged, chunking, size, meta, ctx.icons, ink, look, marks)
        self._pdf.begin(itertools.chain([first] if first is not None else [], pages))

    def add(self, doc: Document, item: Item) -> None:
        if self._pdf is not None:
            self._pdf.push(item)

    def end(self, doc: Document) -> Part:
        if self._pdf is not None:
            self._pdf.save()
            self._preflight(doc)  # its problems go with this document's part
        part = super().end(doc)
        if self._pdf is not None:
            part.data, part.drew = _Made(self._pdf.pages), self._pdf.drawn()
            self._pdf = None
        return part

    def _preflight(self, doc: Document) -> None:
        """A print-shop build's checks of the written sheets (`render/draw/pdfx.py`): RGB left in a CMYK file,
        fonts not embedded."""
        from mazmorra.render.draw import pdfx

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
            self.pages += part.data.pages
            self.outputs.append(doc.path)

    def finish(self, earlier: list[Problem]) -> list[Problem]:
        from mazmorra.render.draw.chunks import chunk_store

        store = chunk_store()
        if store is not None:  # the chunk cache kept within its bound, as the face cache is
            store.trim()
        return []

    def summary(self) -> list[str]:
        return []  # listed instead, one path a line

    def listed(self) -> tuple[list[Path], int]:
        return list(self.outputs), self.pages


SINK = SinkDecl(
    "pdf",
    PdfSink,
    "docs/printing.md#print-and-play-pdfs",
    (SinkOption("pdf", "--pdf/--no-pdf", bool, True, "Print-and-play PDFs.", asks=True),),
    layouts=("sheets",),
    changed_only=True,
    prints=True,
    order=10,  # first: the print sheets, the PDFs a build lists one path a line
)
