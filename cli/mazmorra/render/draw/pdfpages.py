"""Stage 5, render: imposed pages of laid-out faces onto a ReportLab PDF.

The renderer draws what imposition planned and nothing else: each `Page` names its faces by copy
index and side, and its crop, fold and cut marks. Each type of drawing op is drawn by one method, found
through `_DRAW`.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from mazmorra.assets import fonts, images
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import (
    CircleOp,
    EllipseOp,
    Face,
    IconOp,
    ImageOp,
    Item,
    LineOp,
    Op,
    Page,
    PathOp,
    PolyOp,
    RectOp,
    RotateOp,
    TextOp,
)
from mazmorra.model.colour import translucent
from mazmorra.model.units import PT_PER_MM
from mazmorra.printers.cmyk import CmykOutput
from mazmorra.render.draw import guides, pdfshapes, pdftext, subsettags, svgforms
from mazmorra.render.draw.boxes import page_boxes, set_boxes
from mazmorra.render.draw.forms import end_form
from mazmorra.render.draw.greycanvas import GreyCanvas
from mazmorra.render.draw.inks import SheetLook
from mazmorra.render.draw.pdfshapes import color as paint
from mazmorra.render.impose import posters

K = PT_PER_MM


rl_config.useA85 = 0  # binary Flate streams: smaller files, faster writes (PDF is binary-safe anyway)
MARK_WIDTH_PT = 0.25
GUIDE_WIDTH_PT = 0.6  # a circular piece's cut guide: solid, wide enough to keep its colour once rasterised


@dataclass(frozen=True)
class DocMeta:
    title: str
    author: str
    subject: str
    lang: str


@dataclass
class _Copy:
    """One copy of a component while its pages are drawn."""

    front: Face
    back: Face | None
    front_reused: bool  # drawn more than once in the document: a form XObject
    back_reused: bool


def warm_up() -> None:
    """Pay once, before worker processes are forked, what every PDF needs first: the fonts parsed,
    the SVG machinery imported (forked workers inherit them instead of each paying again)."""
    fonts.register_all()
    if not svgforms.STORE:  # else the icons' forms are kept: a worker imports it only for an icon drawn anew
        from reportlab.graphics import renderPDF  # noqa: F401
        from svglib import svglib  # noqa: F401


class PdfPages:
    """One PDF being written, page by page."""

    def __init__(
        self,
        path: Path | BinaryIO,
        page_size: tuple[float, float],
        meta: DocMeta,
        icons: IconSet,
        ink: CmykOutput | None = None,
        look: SheetLook | None = None,
        cut_guides: bool = True,  # False: none around round and rounded faces (a print shop cuts by the TrimBox)
    ):
        # Fonts are registered on first use (fonts.register): a document parses only the faces it draws.
        subsettags.install()  # each font subset tagged by its content, not AAAAAA+ for every font
        self.size = page_size
        self.page_h = page_size[1]
        self.meta = meta
        self.look = look or SheetLook()  # --greyscale, --ink-saver, rounded corners (inks.py)
        self.c = self.canvas(path)
        self.icons = icons
        self._svgs: dict[tuple[str, str | None, float], tuple[str, float, float]] = {}  # (file, colour, opacity)
        self.ink = ink  # a CMYK build: every colour, icon and image through the printer's ICC profile
        self._base: Callable[[str], Any] = ink.colour if ink is not None else paint
        self.pages = 0
        self.drew: set[Path] = set()  # the icon and image files drawn on this canvas
        self._face_forms: dict[tuple[str, str], str] = {}
        self._guides = guides.Colours(icons)  # each face's cut guide colour, worked out once
        self.cut_guides = cut_guides

    def canvas(self, path: Path | BinaryIO) -> Canvas:
        """A new ReportLab canvas for this document, at the current page size, its information set."""
        meta = self.meta
        c = (GreyCanvas if self.look.greyscale else Canvas)(
            str(path) if isinstance(path, Path) else path,
            pagesize=(self.size[0] * K, self.size[1] * K),
            invariant=1,
            pageCompression=1,
            initialFontName=fonts.register(fonts.DEFAULT),
            lang=meta.lang,
        )
        c.setTitle(meta.title)
        c.setAuthor(meta.author)
        c.setSubject(meta.subject)
        c.setCreator("mazmorra")
        return c

    # -- coordinates: mm from the page's top-left -> pt from the bottom-left
    def X(self, x: float) -> float:
        return x * K

    def Y(self, y: float) -> float:
        return (self.page_h - y) * K

    # -- colours: an op's colour as this page draws it (ink saver, then RGB with alpha or the printer's CMYK)
    def colour(self, value: str) -> Any:
        """A text's, a line's, a stroke's or a recoloured icon's colour."""
        return self._base(self.look.ink(value))

    def text_colour(self, value: str, size: float) -> Any:
        """A text's colour at `size` pt: in a CMYK build a small four-colour dark prints in K alone."""
        if self.ink is None:
            return self.colour(value)
        return self.ink.text(self.look.ink(value), size)

    def fill(self, value: str) -> Any:
        """A shape's fill."""
        return self._base(self.look.fill(value))

    def picture(self, data: bytes) -> Any:
        """An embedded picture (PNG bytes) as ReportLab takes it: in grey or the printer's CMYK if asked."""
        data = self.look.picture(data)
        return io.BytesIO(data) if self.ink is None else self.ink.image(data)

    def begin(self, pages: Iterable[Page]) -> None:
        """The pages of a document, planned page by page (`impose.imposed`), drawn as its items arrive
        (`push`), each once every copy it shows has arrived. Only the page waited for and the next are
        held (all the posters once they start: a poster's pages are labelled together), and a copy
        until the last page that shows it: imposition keeps a copy's pages together (fronts and
        backs page, a poster's tiles), so a copy the next page does not show is not shown again.
        A face placed more than once is drawn once as a form XObject and referenced."""
        self._plan = iter(pages)
        self._ahead: list[Page] = []  # pulled from the plan, not drawn yet
        self._held: dict[int, _Copy] = {}
        self._arrived = 0
        self._next = 0  # the number of the page _ahead[0] is
        self._printed: posters.PosterPages | None = None
        self._draw_ready()

    def push(self, item: Item) -> None:
        """One laid-out item (all its copies, in order): draw every page now complete."""
        for _ in range(item.copies):
            self._held[self._arrived] = _Copy(item.front, item.back, item.copies > 1, item.shared_back)
            self._arrived += 1
        self._draw_ready()

    def _pull(self) -> None:
        while len(self._ahead) < 2:
            page = next(self._plan, None)
            if page is None:
                return
            self._ahead.append(page)
            if page.tile is not None and self._printed is None:  # the posters (always last): all of them
                self._ahead += self._plan
                self._printed = posters.PosterPages(
                    {self._next + n: p for n, p in enumerate(self._ahead) if p.tile is not None}
                )

    def _draw_ready(self) -> None:
        self._pull()
        while self._ahead and max((p.index for p in self._ahead[0].placements), default=-1) < self._arrived:
            n = self._next
            page = self._ahead.pop(0)
            label: list[Op] | None = []
            if page.tile is not None and self._printed is not None:  # a poster's page: labelled, or left out when blank
                p = page.placements[0]
                face = self._held[p.index].front if p.side == "front" else self._held[p.index].back
                label = self._printed.labels(n, face) if face is not None else None
            if label is not None:
                self.page(page, self._held, label)
            self._next += 1
            self._pull()
            later = {p.index for p in self._ahead[0].placements} if self._ahead else set()
            for index in {p.index for p in page.placements} - later:
                self._held.pop(index, None)

    def page(self, page: Page, held: dict[int, _Copy], label: Sequence[Op] = ()) -> None:
        """Draw one page: its faces, then its marks and notes (and a poster page's label)."""
        c = self.c
        if page.size != self.size:
            self.size = page.size
            c.setPageSize((page.size[0] * K, page.size[1] * K))
        self.page_h = page.size[1]
        for p in page.placements:
            copy = held[p.index]
            face = copy.front if p.side == "front" else copy.back
            if face is None:
                continue
            if p.clip is None:
                if p.turn:  # a back printed turned about its trim box's centre (impose.py), restored after it
                    self._turn(p.turn, p.x + p.w / 2, p.y + p.h / 2)
                self.draw_face(face, p.x, p.y, copy.front_reused if p.side == "front" else copy.back_reused)
                if p.turn:
                    c.restoreState()
                continue
            x0, y0, x1, y1 = p.clip  # a poster's tile: the face drawn once, shown through each page
            c.saveState()
            window = c.beginPath()
            window.rect(self.X(x0), self.Y(y1), (x1 - x0) * K, (y1 - y0) * K)
            c.clipPath(window, stroke=0, fill=0)
            self.draw_face(face, p.x, p.y, True)
            c.restoreState()
        c.setLineWidth(MARK_WIDTH_PT)
        c.setStrokeColor(self.colour("#000000"))
        for x1, y1, x2, y2 in page.marks:
            c.line(self.X(x1), self.Y(y1), self.X(x2), self.Y(y2))
        if page.folds:  # dash-dot: fold here, do not cut
            c.setDash([6, 2, 1, 2], 0)
            c.setStrokeColor(self.colour("#555555"))
            for x1, y1, x2, y2 in page.folds:
                c.line(self.X(x1), self.Y(y1), self.X(x2), self.Y(y2))
            c.setDash()
        if page.cuts:
            c.setDash(2, 2)
            c.setStrokeColor(self.colour("#888888"))
            for x1, y1, x2, y2 in page.cuts:
                c.line(self.X(x1), self.Y(y1), self.X(x2), self.Y(y2))
            c.setDash()
        for op in (*page.notes, *label):
            self._op(op, 0.0, 0.0)
        faces = [(p, held[p.index].front if p.side == "front" else held[p.index].back) for p in page.placements]
        set_boxes(c, page.size, *page_boxes(page.size, [(p, f.bleed) for p, f in faces if f is not None]))
        c.showPage()
        self._compress_last_page()
        self.pages += 1

    def _compress_last_page(self) -> None:
        """Deflate the page just finished now rather than at save(): ReportLab keeps every page's
        stream until the end, so this keeps a long deck's memory a few KB per page."""
        page = self.c._doc.Pages.pages[-1]
        if getattr(page, "stream", None) and not page.Contents and page.compression:
            stream = pdfdoc.PDFStream(content=zlib.compress(page.stream.encode("utf8")))
            stream.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
            stream.__Comment__ = "page stream"
            page.Contents, page.stream = stream, None

    def draw_face(self, face: Face, x0: float, y0: float, reused: bool = False) -> None:
        """Draw one face with its trim's top-left at (x0, y0) mm, clipped to its bleed box."""
        if reused:
            key = (face.component, face.side)  # unique within one document (one deck, one language)
            name = self._face_forms.get(key)
            if name is None:
                name = f"face-{len(self._face_forms)}"
                self._face_forms[key] = name
                bw, bh = face.w + 2 * face.bleed, face.h + 2 * face.bleed
                page_h = self.page_h
                self.page_h = bh  # draw in the form's own coordinates
                self.c.beginForm(name, 0, 0, bw * K, bh * K)
                self._draw_face(face, face.bleed, face.bleed)
                end_form(self.c)
                self.page_h = page_h
            self.c.saveState()
            self.c.translate(self.X(x0 - face.bleed), self.Y(y0 + face.h + face.bleed))
            self.c.doForm(name)
            self.c.restoreState()
        else:
            self._draw_face(face, x0, y0)
        self._after_face(face, x0, y0)

    def _draw_face(self, face: Face, x0: float, y0: float) -> None:
        c = self.c
        b = face.bleed
        box = (self.X(x0 - b), self.Y(y0 + face.h + b), (face.w + 2 * b) * K, (face.h + 2 * b) * K)  # the bleed box
        c.saveState()
        path = c.beginPath()
        if face.shape == "round":
            path.ellipse(*box)
        else:
            path.rect(*box)
        c.clipPath(path, stroke=0, fill=0)
        if face.background and not self.look.ink_saver:  # the ink saver prints no full-bleed fill
            c.setFillColor(self.fill(face.background))
            c.rect(*box, stroke=0, fill=1)
        self._ops(face.ops, x0, y0)
        c.restoreState()

    def _ops(self, ops: Sequence[Op], x0: float, y0: float) -> None:
        run: list[TextOp] = []  # consecutive runs of text share one text object
        for op in ops:
            if isinstance(op, TextOp):
                run.append(op)
                continue
            if run:
                self._texts(run, x0, y0)
                run = []
            self._op(op, x0, y0)
        if run:
            self._texts(run, x0, y0)

    def _texts(self, ops: Sequence[TextOp], ox: float, oy: float) -> None:
        pdftext.draw(self, ops, ox, oy)

    def _after_face(self, face: Face, x0: float, y0: float) -> None:
        c = self.c
        if not self.cut_guides:
            return
        if face.shape == "round":  # the cut guide of a circular component: its trim circle, standing out (guides.py)
            c.setLineWidth(GUIDE_WIDTH_PT)
            c.setStrokeColor(self.colour(self._guides.of(face, guides.circle_points(face))))
            c.ellipse(self.X(x0), self.Y(y0 + face.h), self.X(x0 + face.w), self.Y(y0), stroke=1, fill=0)
        elif self.look.corner > 0:  # rounded corners: where the corner rounder (or scissors) goes
            r = min(self.look.corner, face.w / 2, face.h / 2)
            c.setLineWidth(GUIDE_WIDTH_PT)
            c.setStrokeColor(self.colour(self._guides.of(face, guides.corner_points(face, r))))
            for (cx, cy), start in guides.corners(face, r):
                c.arc(self.X(x0 + cx - r), self.Y(y0 + cy + r), self.X(x0 + cx + r), self.Y(y0 + cy - r), start, 90)

    def _op(self, op: Op, ox: float, oy: float) -> None:
        if translucent(op):  # its alpha ends with it: what follows (a form above all) starts solid
            self.c.saveState()
            _DRAW[type(op)](self, op, ox, oy)
            self.c.restoreState()
        else:
            _DRAW[type(op)](self, op, ox, oy)

    def _text(self, op: TextOp, ox: float, oy: float) -> None:
        if op.outline or op.underline or op.strike or op.spacing or op.rise:
            self._texts([op], ox, oy)
            return
        self.c.setFillColor(self.colour(op.color))
        self.c.setFont(fonts.register(op.font), op.size)
        self.c.drawString(self.X(ox + op.x), self.Y(oy + op.y), op.text)

    def _icon_op(self, op: IconOp, ox: float, oy: float) -> None:
        self._icon(op.name, ox + op.x, oy + op.y, op.size, op.color, op.opacity)

    def _rotate(self, op: RotateOp, ox: float, oy: float) -> None:
        self._turn(op.angle, ox + op.cx, oy + op.cy)
        self._ops(op.ops, ox, oy)
        self.c.restoreState()

    def _turn(self, angle: float, x: float, y: float) -> None:
        """Save the canvas state, then turn what follows `angle` degrees clockwise about (x, y) mm."""
        c, px, py = self.c, self.X(x), self.Y(y)
        c.saveState()
        c.translate(px, py)
        c.rotate(-angle)  # clockwise on the page: y grows downwards in our coordinates
        c.translate(-px, -py)

    def _image(self, op: ImageOp, ox: float, oy: float) -> None:
        self.drew.add(Path(op.path))
        x, y = self.X(ox + op.x), self.Y(oy + op.y + op.h)
        self.c.saveState()
        if op.radius:  # the picture clipped to a rounded frame
            path = self.c.beginPath()
            path.roundRect(x, y, op.w * K, op.h * K, op.radius * K)
            self.c.clipPath(path, stroke=0, fill=0)
        if op.vector:  # an SVG: drawn as vectors, fitted and centred like a picture
            form, w, h = self._svg_form(Path(op.path), op.color, op.opacity)
            scale = min(op.w * K / w, op.h * K / h)
            dx, dy = (op.w * K - w * scale) / 2, (op.h * K - h * scale) / 2
            self.c._code.append(f"{fp_str(scale, 0, 0, scale, x + dx, y + dy)} cm")
            self.c.doForm(form)
        else:
            if op.opacity < 1:
                self.c.setFillAlpha(op.opacity)
            data = images.prepared(Path(op.path), op.w, op.h, op.color, own_colour=self.ink is not None)
            self.c.drawImage(
                ImageReader(self.picture(data)),
                x,
                y,
                op.w * K,
                op.h * K,
                mask="auto",
                preserveAspectRatio=True,
                anchor="c",
            )
        self.c.restoreState()

    def _svg_form(self, path: Path, color: str | None, opacity: float = 1.0) -> tuple[str, float, float]:
        """An SVG drawn once per document (colour and opacity) as a form: (its name, width, height pt)."""
        key = (str(path), color, opacity)
        if key not in self._svgs:
            self._svgs[key] = svgforms.form(self, f"svg-{len(self._svgs)}", path, color, opacity)
        return self._svgs[key]

    def _icon(self, name: str, x: float, y: float, size: float, color: str | None = None, opacity: float = 1.0) -> None:
        path = self.icons.files[name]
        self.drew.add(path)
        c = self.c
        if path.suffix.lower() == ".png":
            c.saveState()
            if opacity < 1:
                c.setFillAlpha(opacity)
            png = path.read_bytes() if color is None else images.tinted(path, color)
            c.drawImage(
                ImageReader(self.picture(png)),
                self.X(x),
                self.Y(y + size),
                size * K,
                size * K,
                mask="auto",
                preserveAspectRatio=True,
                anchor="c",
            )
            c.restoreState()
            return
        form, w, h = self._svg_form(path, color, opacity)
        scale = size * K / max(w, h)
        c._code.append(f"q {fp_str(scale, 0, 0, scale, self.X(x), self.Y(y + size))} cm")
        c.doForm(form)
        c._code.append("Q")

    def save(self) -> None:
        self.c.save()


# One draw method per type of op: a new element of the template language adds its op type here.
_DRAW: dict[type, Callable[[PdfPages, Any, float, float], None]] = {
    TextOp: PdfPages._text,
    IconOp: PdfPages._icon_op,
    RectOp: pdfshapes.rect,
    CircleOp: pdfshapes.circle,
    EllipseOp: pdfshapes.ellipse,
    LineOp: pdfshapes.line,
    PolyOp: pdfshapes.poly,
    PathOp: pdfshapes.path,
    ImageOp: PdfPages._image,
    RotateOp: PdfPages._rotate,
}
