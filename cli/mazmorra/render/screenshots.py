"""`mazmorra i18n screenshots`: the picture of every entry of the pack's catalogues, for translators
(i18n/pictures.py names them). A sink the command adds to a build of one language (no other output):
the build's face cache, workers and staging serve it as they serve the gallery, whose resolution and
rasteriser it shares; a file is renamed into place only when the whole build succeeded, and pictures
no entry names any more are removed from the folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mazmorra.i18n.pictures import Wanted
from mazmorra.render.sinks.sink import Part, Sink, SinkContext, prune
from mazmorra.support.filenames import output_path

if TYPE_CHECKING:
    from PIL import Image

    from mazmorra.contracts import Document, Face, Item

DPI = 150  # the gallery's: a card readable on a screen, a few hundred kB at most
MAX_PIXELS = 12e6  # a poster-sized map at a lower resolution, as in the gallery
MIN_SIDE = 300  # pixels: a small token is drawn larger, its words readable
MAX_DPI = 600
GAP = 12  # pixels between a front and its own back


BATCH = 24  # faces rasterised through one PDF (its fonts and icons embedded once), memory kept small


class ScreenshotSink(Sink):
    """One PNG per picture the catalogues name, in `folder`."""

    def __init__(self, ctx: SinkContext, folder: Path, wanted: Wanted):
        super().__init__(ctx)
        self.folder = folder
        self.wanted = wanted
        self._done: set[str] = set()  # the current document's pictures asked for
        self._waiting: list[tuple[str, list[Face]]] = []  # pictures to draw: name, faces side by side

    def start(self, doc: Document) -> None:
        self._done, self._waiting = set(), []

    def add(self, doc: Document, item: Item) -> None:
        comp = item.front.component
        name = self.wanted.components.get(comp)
        if name is not None and name not in self._done:  # a component drawn copy by copy: its first copy
            own_back = item.back if item.back is not None and not item.shared_back else None
            self._ask(doc, name, [item.front] + ([own_back] if own_back is not None else []))
        deck = self.wanted.decks.get(doc.deck_id)
        if deck is not None and deck not in self._done:  # the deck's back, or its first front
            self._ask(doc, deck, [item.back if item.back is not None and item.shared_back else item.front])

    def _ask(self, doc: Document, name: str, faces: list[Face]) -> None:
        self._done.add(name)
        self._waiting.append((name, faces))
        if sum(len(faces) for _, faces in self._waiting) >= BATCH:
            self._draw(doc)

    def _draw(self, doc: Document) -> None:
        """Every picture waiting, rasterised together at the gallery's resolution (no bleed)."""
        from mazmorra.render.raster import Rasteriser, dpi_frame, fitting_dpi, png_bytes

        waiting, self._waiting = self._waiting, []
        faces = [f for _, group in waiting for f in group]
        frames = [(f, dpi_frame(f, fitting_dpi(f, _dpi(f), False, MAX_PIXELS), bleed=False)) for f in faces]
        images = iter(Rasteriser(self.icons, doc.lang).images(frames))
        for name, group in waiting:
            row = side_by_side([next(images) for _ in group])
            self.write(output_path(self.folder, "{name}", name=name), png_bytes(row))

    def end(self, doc: Document) -> Part:
        if self._waiting:
            self._draw(doc)
        return super().end(doc)

    def committed(self) -> None:
        prune(self.folder, {p for files in self.written.values() for p in files}, (".png",))

    def summary(self) -> list[str]:
        n = sum(len(files) for files in self.written.values())
        return [f"{self.folder}/ ({n} PNG)"] if n else []


def _dpi(face: Face) -> float:
    """The gallery's resolution, or more for a face whose shorter side would be under MIN_SIDE pixels."""
    return min(MAX_DPI, max(DPI, MIN_SIDE * 25.4 / max(1.0, min(face.w, face.h))))


def side_by_side(images: list[Image.Image]) -> Image.Image:
    """The images in a row, top-aligned, GAP pixels apart on white."""
    from PIL import Image

    if len(images) == 1:
        return images[0]
    width = sum(img.width for img in images) + GAP * (len(images) - 1)
    row = Image.new("RGB", (width, max(img.height for img in images)), "white")
    x = 0
    for img in images:
        row.paste(img, (x, 0))
        x += img.width + GAP
    return row
