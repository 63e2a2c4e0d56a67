"""A long document drawn in chunks of pages, each its own small PDF, then merged into one.

ReportLab holds a whole document until it is saved; a 500-page deck drawn in chunks of `C` pages
holds one chunk at a time, and each chunk is written to the build's scratch folder as soon as it is
full (the merge, with pikepdf, copies pages, fonts and forms without decoding them). A document of
one chunk is written exactly as before, without pikepdf: small decks and golden files do not move.

Every chunk is a whole PDF made by the same canvas set-up (document information, PDF/X output
intent and XMP), so the merged file takes its document-level parts from the first one; page boxes
go with their pages. Font subsets keep ReportLab's tags (AAAAAA+, AAAAAB+, …) within a chunk: the
merge renames those of chunk k to k × 1000 + n, so that no two different subsets in the merged file
share a tag (ISO 32000: each subset has its own), and the bytes stay deterministic.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazmorra.render.draw import PdfPages
from mazmorra.write import temp_path

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from mazmorra.contracts import Op, Page
    from mazmorra.icons import IconSet
    from mazmorra.printers.cmyk import Ink
    from mazmorra.render.draw import DocMeta, _Copy
    from mazmorra.render.inks import Look

DEFAULT_PAGES = 64  # pages a chunk: measured by bench/chunks.py (README: long decks)


def chunk_pages(env: dict[str, str] | None = None) -> int:
    """Pages a chunk holds: MAZMORRA_CHUNK_PAGES (at least 1; tests force tiny chunks on small
    packs), else DEFAULT_PAGES."""
    value = (env if env is not None else os.environ).get("MAZMORRA_CHUNK_PAGES", "").strip()
    return max(1, int(value)) if value.isdigit() else DEFAULT_PAGES


class ChunkedPages(PdfPages):
    """A document's pages drawn chunk by chunk (`per_chunk` pages of the imposition's plan each)
    and written to `target` by `save`: the one chunk as it is, or every chunk merged."""

    def __init__(
        self,
        target: Path,
        scratch: Path,
        per_chunk: int,
        page_size: tuple[float, float],
        meta: DocMeta,
        icons: IconSet,
        ink: Ink | None = None,
        look: Look | None = None,
        marks: Callable[[Canvas], None] | None = None,
    ):
        self._buffer = io.BytesIO()
        super().__init__(self._buffer, page_size, meta, icons, ink, look)
        self.target, self.scratch, self.per_chunk = target, scratch, per_chunk
        self._marks = marks  # what every chunk's document carries besides its pages (PDF/X)
        if marks is not None:
            marks(self.c)
        self.chunk = 0  # the chunk the canvas draws
        self._drawn = 0  # pages drawn on the canvas
        self.parts: list[Path] = []  # the chunks written so far, in order
        self.drawn_chunks: list[int] = []  # the chunks drawn, by number (tests count them)

    def page(self, page: Page, held: dict[int, _Copy], label: Sequence[Op] = ()) -> None:
        k = self._next // self.per_chunk  # the page's number in the plan (a blank poster tile is skipped)
        if k != self.chunk:
            self._close_chunk()
            self._open_chunk(k)
        super().page(page, held, label)
        self._drawn += 1

    def _open_chunk(self, k: int) -> None:
        self.chunk, self._drawn = k, 0
        self._buffer = io.BytesIO()
        self.c = self.canvas(self._buffer)
        self._face_forms, self._svgs = {}, {}  # forms belong to a canvas: drawn again in each chunk
        if self._marks is not None:
            self._marks(self.c)

    def _close_chunk(self) -> None:
        """Write the canvas's pages to a chunk file in the scratch folder (none if it drew none)."""
        if not self._drawn:
            return
        self.c.save()
        self.drawn_chunks.append(self.chunk)
        part = temp_path(self.target.with_name(f"{self.target.stem}-{self.chunk}.pdf"), self.scratch)
        self.parts.append(part)  # first: removed by save() even if the write fails
        part.write_bytes(self._buffer.getvalue())
        self._buffer = io.BytesIO()

    def save(self) -> None:
        """The document into `target`: as one canvas writes it when it fits one chunk, else merged."""
        if not self.parts:
            self.c.save()
            if self._drawn:
                self.drawn_chunks.append(self.chunk)
            self.target.write_bytes(self._buffer.getvalue())
            return
        try:
            self._close_chunk()
            merge(self.parts, self.target)
        finally:
            for part in self.parts:
                part.unlink(missing_ok=True)


def merge(parts: Sequence[Path], target: Path) -> None:
    """The pages of every chunk file, in order, written to `target` as one PDF whose document-level
    parts (information, catalogue: output intents, XMP, language) are the first chunk's; streams are
    copied as they are, and the file id is made from the content (deterministic bytes)."""
    import pikepdf  # only a document of more than one chunk pays for it

    with pikepdf.open(parts[0]) as pdf:
        opened: list[Any] = []
        try:
            for k, part in enumerate(parts[1:], 1):
                other = pikepdf.open(part)
                opened.append(other)
                _retag(other, k)
                pdf.pages.extend(other.pages)
            pdf.save(
                target,
                deterministic_id=True,
                stream_decode_level=pikepdf.StreamDecodeLevel.none,
                compress_streams=False,
                object_stream_mode=pikepdf.ObjectStreamMode.disable,
                fix_metadata_version=False,
            )
        finally:
            for other in opened:
                other.close()


_TAG = re.compile(r"^/([ABCDEFGIJK]{6})\+(.*)$")  # ReportLab's subset tags: the subset's number in letters
_DIGITS = str.maketrans("ABCDEFGIJK", "0123456789")
_LETTERS = str.maketrans("0123456789", "ABCDEFGIJK")


def retagged(name: str, k: int) -> str:
    """A font's name (`/AAAAAB+Font`) as chunk `k` of a merged document names it: its subset
    number n becomes k × 1000 + n (unchanged in chunk 0; another name, unchanged)."""
    m = _TAG.match(name)
    if m is None:
        return name
    n = int(m.group(1).translate(_DIGITS))
    return f"/{f'{k * 1000 + n % 1000:06d}'.translate(_LETTERS)}+{m.group(2)}"


def _retag(pdf: Any, k: int) -> None:
    """Give every font subset of one chunk (and its descriptor) chunk k's tag."""
    import pikepdf

    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary):
            continue
        kind = obj.get("/Type")
        if kind == "/Font" and "/BaseFont" in obj:
            obj.BaseFont = pikepdf.Name(retagged(str(obj.BaseFont), k))
        elif kind == "/FontDescriptor" and "/FontName" in obj:
            obj.FontName = pikepdf.Name(retagged(str(obj.FontName), k))
