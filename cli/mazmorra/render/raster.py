"""Faces to pixels: the only place mazmorra has pixels.

A face is drawn by our own renderer (FacePages, below) onto a one-face PDF page the size of the
wanted image, and pypdfium2 rasterises that page in-process. Everything upstream stays in mm; a
`ImageFrame` says, once, how mm map onto an image's pixels.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Face, Placement
from mazmorra.printers import Printer
from mazmorra.render.draw.boxes import page_boxes, set_boxes
from mazmorra.render.draw.pdfpages import DocMeta, K, PdfPages

MM_PER_IN = 25.4


class FacePages(PdfPages):
    """An in-memory PDF of lone faces, one per page: what raster exports rasterise, so their pixels
    come from the very drawing code of the print sheets."""

    def __init__(self, icons: IconSet, lang: str):
        self.buffer = io.BytesIO()
        super().__init__(self.buffer, (210.0, 297.0), DocMeta("", "mazmorra", "", lang), icons)
        self.c.setPageCompression(0)  # read back at once, never written: compressing its streams was a
        # quarter of rasterising a face (the same pixels either way)

    def face_page(self, face: Face, page_w: float, page_h: float, x0: float, y0: float) -> None:
        """A page_w × page_h mm page holding only `face`, its trim's top-left at (x0, y0) mm; no
        cut guide."""
        self.c.setPageSize((page_w * K, page_h * K))
        self.page_h = page_h
        self._draw_face(face, x0, y0)
        set_boxes(
            self.c,
            (page_w, page_h),
            *page_boxes((page_w, page_h), [(Placement(0, face.side, x0, y0, face.w, face.h), face.bleed)]),
        )
        self.c.showPage()
        self.pages += 1

    def pdf(self) -> bytes:
        self.save()
        return self.buffer.getvalue()


@dataclass(frozen=True)
class Profile:
    """A print shop's image size for one card format, at its dpi: the whole image (trim + bleed)
    and the trim inside it, centred."""

    name: str
    label: str
    width: int  # px, bleed included
    height: int
    trim_w: int  # px
    trim_h: int
    dpi: int = 300

    @property
    def trim_mm(self) -> tuple[float, float]:
        return self.trim_w / self.dpi * MM_PER_IN, self.trim_h / self.dpi * MM_PER_IN

    def bleed_mm(self) -> tuple[float, float]:
        return (
            (self.width - self.trim_w) / 2 / self.dpi * MM_PER_IN,
            (self.height - self.trim_h) / 2 / self.dpi * MM_PER_IN,
        )

    def turned(self) -> Profile:
        return Profile(self.name, self.label, self.height, self.width, self.trim_h, self.trim_w, self.dpi)


def printer_profiles(printer: Printer, name: str | None = None) -> list[Profile]:
    """A printer profile's raster products (those with exact pixels) as image sizes, named `name`
    (default: the printer's id)."""
    out = []
    for p in printer.products:
        if p.pixels is None:
            continue
        w, h = p.pixels
        bx, by = round(p.bleed / MM_PER_IN * printer.dpi), round(p.bleed / MM_PER_IN * printer.dpi)
        out.append(Profile(name or printer.id, f"{printer.name} {p.name}", w, h, w - 2 * bx, h - 2 * by, printer.dpi))
    return out


# `--png-profile NAME`: a view of a printer profile (mazmorra/printers/*.yaml), every raster product it sells.
PNG_PROFILES = {"tgc": "thegamecrafter", "mpc": "makeplayingcards"}


def png_profiles(name: str) -> list[Profile]:
    """The image sizes of a `--png-profile` name."""
    from mazmorra import printers

    return printer_profiles(printers.load(PNG_PROFILES[name]), name)


PROFILES: dict[str, Profile] = {name: png_profiles(name)[0] for name in PNG_PROFILES}  # each one's poker size


@dataclass(frozen=True)
class ImageFrame:
    """Where a face lands in an image: the image's size in px, the scale in px per mm and the
    trim's top-left corner in px (fractions allowed)."""

    width: int
    height: int
    scale: float  # px per mm
    trim_x: float
    trim_y: float


def fitting_dpi(face: Face, dpi: float, bleed: bool, max_pixels: float) -> float:
    """`dpi`, or the highest resolution at which the face (a poster-sized map) stays within
    `max_pixels`: still one image, still printing at its true size at the dpi it records."""
    b = face.bleed if bleed else 0.0
    w, h = (face.w + 2 * b) / MM_PER_IN, (face.h + 2 * b) / MM_PER_IN
    fit = math.sqrt(max_pixels / (w * h))
    while fit < dpi and (round(w * fit) + 1) * (round(h * fit) + 1) > max_pixels:  # whole pixels, rounded up
        fit = math.floor(fit) - 1.0
    return min(float(dpi), fit)


def dpi_frame(face: Face, dpi: float, bleed: bool) -> ImageFrame:
    """The face at `dpi`: its bleed box (or trim) rounded to whole pixels, the trim centred."""
    s = dpi / MM_PER_IN
    b = face.bleed if bleed else 0.0
    width = max(1, round((face.w + 2 * b) * s))
    height = max(1, round((face.h + 2 * b) * s))
    return ImageFrame(width, height, s, (width - face.w * s) / 2, (height - face.h * s) / 2)


def fits_profile(face: Face, profile: Profile) -> Profile | None:
    """The profile (turned for a landscape face) when the face's trim is close enough to the
    profile's that the shop's cut still falls inside the face's bleed; else None."""
    for p in (profile, profile.turned()):
        pw, ph = p.trim_mm
        if abs(pw - face.w) / 2 <= face.bleed and abs(ph - face.h) / 2 <= face.bleed:
            return p
    return None


def profile_frame(face: Face, profile: Profile) -> ImageFrame:
    """The profile's exact image size at its dpi, the face's trim centred on the profile's trim
    (which is centred in the image). Nothing is scaled: a 63 × 88 mm card stays 63 × 88 mm."""
    s = profile.dpi / MM_PER_IN
    return ImageFrame(
        profile.width,
        profile.height,
        s,
        (profile.width - face.w * s) / 2,
        (profile.height - face.h * s) / 2,
    )


def fit_frame(face: Face, width: int, height: int) -> ImageFrame:
    """The trim stretched onto exactly width × height px (cells of a sheet); no bleed shows."""
    s = min(width / face.w, height / face.h)
    return ImageFrame(width, height, s, (width - face.w * s) / 2, (height - face.h * s) / 2)


class Rasteriser:
    """Rasterises faces, a few at a time, through one in-memory PDF per batch (font subsets and
    icon forms are then made once per batch, not once per face)."""

    def __init__(self, icons: IconSet, lang: str):
        self.icons = icons
        self.lang = lang

    def images(self, requests: list[tuple[Face, ImageFrame]]) -> list[Image.Image]:
        """One RGB image per (face, frame)."""
        if not requests:
            return []
        doc = FacePages(self.icons, self.lang)
        for face, fr in requests:
            # A page exactly the image's size; stretching x and y separately absorbs the rounding
            # of page sizes in the PDF, so the image comes out at exactly width × height px.
            doc.face_page(
                face,
                fr.width / fr.scale,
                fr.height / fr.scale,
                fr.trim_x / fr.scale,
                fr.trim_y / fr.scale,
            )
        pdf = pdfium.PdfDocument(doc.pdf())
        try:
            out = []
            for i, (face, fr) in enumerate(requests):
                page = pdf[i]
                scale = min(fr.width / page.get_width(), fr.height / page.get_height()) * (1 - 1e-9)
                img = page.render(scale=scale, rev_byteorder=True).to_pil().convert("RGB")
                page.close()
                if img.size != (fr.width, fr.height):  # a pixel of page-size rounding, at most
                    img = img.resize((fr.width, fr.height), Image.Resampling.LANCZOS)
                if face.shape == "rect":
                    _extend_edges(img, _bleed_box(face, fr))
                out.append(img)
            return out
        finally:
            pdf.close()


def _bleed_box(face: Face, fr: ImageFrame) -> tuple[int, int, int, int]:
    """The whole pixels covered by the face's bleed box (left, top, right, bottom), within the image."""
    s, b = fr.scale, face.bleed
    left = math.ceil(fr.trim_x - b * s - 1e-6)
    top = math.ceil(fr.trim_y - b * s - 1e-6)
    right = math.floor(fr.trim_x + (face.w + b) * s + 1e-6)
    bottom = math.floor(fr.trim_y + (face.h + b) * s + 1e-6)
    return max(0, left), max(0, top), min(fr.width, right), min(fr.height, bottom)


def _extend_edges(img: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Fill what lies outside the face's bleed box by repeating its outermost pixels (a print
    shop's image may reach a little further than the pack's bleed)."""
    w, h = img.size
    left, top, right, bottom = box
    if right - left < 1 or bottom - top < 1 or box == (0, 0, w, h):
        return
    near = Image.Resampling.NEAREST
    if left > 0:
        img.paste(img.crop((left, top, left + 1, bottom)).resize((left, bottom - top), near), (0, top))
    if right < w:
        img.paste(
            img.crop((right - 1, top, right, bottom)).resize((w - right, bottom - top), near),
            (right, top),
        )
    if top > 0:
        img.paste(img.crop((0, top, w, top + 1)).resize((w, top), near), (0, 0))
    if bottom < h:
        img.paste(img.crop((0, bottom - 1, w, bottom)).resize((w, h - bottom), near), (0, bottom))


def srgb_icc() -> bytes:
    """The sRGB ICC profile (version 2, what print shops read everywhere) embedded in every image."""
    from mazmorra.render.icc import srgb_v2

    return srgb_v2()


def png_bytes(img: Image.Image, dpi: float | None = None) -> bytes:
    """An RGB PNG with the sRGB profile embedded (and the dpi, when it means something)."""
    buf = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    img.save(buf, "PNG", icc_profile=srgb_icc(), compress_level=6, **extra)
    return buf.getvalue()


def jpeg_bytes(img: Image.Image, quality: int = 90) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, icc_profile=srgb_icc(), optimize=True)
    return buf.getvalue()
