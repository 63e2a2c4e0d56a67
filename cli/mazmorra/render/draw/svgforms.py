"""SVG icons drawn as PDF forms, kept between builds: parsing an SVG (svglib), recolouring it and
drawing it cost more than the rest of a small deck's pages, and every document, worker and build
paid them again for the same icons. A form's content stream is stored in the face cache's folder
(layout/cache/facecache.py: written atomically, checked on read), keyed by the tool, the SVG file's
content, the colour, the opacity and how the sheets look. Only a stream that names no resource
(no font, graphics state, shading, colour space or image: no `/` at all) is kept, so replaying it
into a new form needs nothing else registered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mazmorra.assets import fonts
from mazmorra.assets.icons import faded, load_svg, recoloured
from mazmorra.layout.cache import facecache
from mazmorra.layout.cache.facecache import FaceCache
from mazmorra.render.draw.forms import end_form

STORE: list[FaceCache] = []  # the build's store, while it renders (set by `using`; inherited by forked workers)


class using:
    """`with using(store):` forms are kept in `store` while the block renders (None: not kept)."""

    def __init__(self, store: FaceCache | None):
        self.store = store

    def __enter__(self) -> None:
        if self.store is not None:
            STORE.append(self.store)

    def __exit__(self, *exc: object) -> None:
        if self.store is not None:
            STORE.remove(self.store)


def form_key(path: Path, colour: str | None, opacity: float, look: Any) -> str:
    """The key of one icon's form: everything its content stream is drawn from."""
    return facecache.key(
        facecache.tool_hash(), "svg-form", facecache.file_hash(path), repr(colour), repr(opacity), repr(look)
    )


def replay(canvas: Any, name: str, k: str) -> tuple[float, float] | None:
    """A form drawn before under key `k`, made again on `canvas` as `name` from its kept content
    stream: its (width, height) in pt; None when not kept (then the caller draws it)."""
    found = STORE[-1].get(k) if STORE else None
    if not (
        isinstance(found, tuple)
        and len(found) == 4
        and all(isinstance(v, float) for v in found[:2])
        and isinstance(found[2], list)
        and all(isinstance(line, str) and "/" not in line for line in found[2])
        and isinstance(found[3], tuple)
        and len(found[3]) == 2
        and all(isinstance(v, int) for v in found[3])
    ):
        return None
    width, height, code, version = found
    doc = canvas._doc  # the PDF version drawing it asked for (ReportLab: 1.4 once it sets an alpha, even 1)
    doc._pdfVersion = max(tuple(doc._pdfVersion), version)
    canvas.beginForm(name, 0, 0, width, height)
    canvas._code.extend(code)
    end_form(canvas)
    return width, height


def remember(k: str, width: float, height: float, code: list[Any], version: tuple[int, int] = (1, 3)) -> None:
    """Keep a form's content stream, when it names no resource (see the module's docstring), with
    the PDF version drawing it asked for (a replay asks the same: same bytes as drawing it)."""
    if STORE and all(isinstance(line, str) and "/" not in line for line in code):
        STORE[-1].put(k, (float(width), float(height), list(code), (int(version[0]), int(version[1]))))


def form(pages: Any, name: str, path: Path, colour: str | None, opacity: float) -> tuple[str, float, float]:
    """An SVG as a form named `name` on the canvas of `pages` (a render.draw.PdfPages), in `colour`
    and `opacity`: replayed when kept, else drawn (and kept, but never for a CMYK build's inks)."""
    k = form_key(path, colour, opacity, pages.look) if pages.ink is None else ""
    size = replay(pages.c, name, k) if k else None  # drawn by an earlier document or build
    if size is not None:
        return name, *size
    from reportlab.graphics import renderPDF  # with svglib: only when an SVG is drawn

    drawing = load_svg(path) if colour is None else recoloured(load_svg(path), pages.colour(colour))
    if opacity < 1:
        drawing = faded(drawing, opacity)
    drawing = pages.ink.drawing(drawing) if pages.ink is not None else drawing  # faded colours too
    drawing.initialFontName = fonts.register(fonts.DEFAULT)  # never let Helvetica in
    pages.c.beginForm(name, 0, 0, drawing.width, drawing.height)
    start = len(pages.c._code)
    doc = pages.c._doc
    before, doc._pdfVersion = tuple(doc._pdfVersion), (1, 3)  # what this drawing asks for, by itself
    _draw(renderPDF, drawing, pages.c)
    asked = tuple(doc._pdfVersion)
    doc._pdfVersion = max(before, asked)
    if k:
        remember(k, drawing.width, drawing.height, pages.c._code[start:], asked)
    end_form(pages.c)
    return name, drawing.width, drawing.height


def _draw(render: Any, drawing: Any, canvas: Any) -> None:
    """Draw an SVG's shapes on the canvas. A raster `<image>` inside it (one the icon checks let
    through: in the pack, PNG or JPEG) is an inline image: its data in ASCII85 text, as a form's
    content stream is text (the pages' binary image data would end in a TypeError there)."""
    from reportlab import rl_config

    binary = rl_config.useA85
    rl_config.useA85 = 1
    try:
        render.draw(drawing, canvas, 0, 0)
    finally:
        rl_config.useA85 = binary
