"""CMYK for print shops: every colour, icon and image of a CMYK build converted once, through a
real ICC transform (littleCMS, via Pillow's ImageCms), from sRGB to the printer's output profile.

Neutral colours (greys and black: text, thin lines, marks) print in black ink only, at the K value
whose lightness the profile says matches, never as four-colour black; everything else takes the
profile's own separation (relative colorimetric), whose table already honours its total ink limit.
Small text (under SMALL_TEXT_PT) in a colour that would separate as a four-colour dark (a near-black
brown, a dark slate) prints in black ink alone too, at its lightness: four plates out of register
blur small type.
"""

from __future__ import annotations

import copy
import io
import zlib
from bisect import bisect_left
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color

ICC_DIR = Path(__file__).resolve().parent.parent / "icc"
SMALL_TEXT_PT = 12.0  # text under this size never prints on four plates as a dark


def rich_black(c: CMYKColor) -> bool:
    """A four-colour dark: K 60 % or more with 30 % or more of C+M+Y."""
    return bool(c.black >= 0.6 and c.cyan + c.magenta + c.yellow >= 0.3)


def _hex(value: str) -> tuple[int, int, int]:
    v = value.lstrip("#")
    return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)


class CmykOutput:
    """One CMYK output profile and the conversions a document needs, each done once."""

    def __init__(self, name: str):
        self.name = name
        self.path = ICC_DIR / f"{name}.icc"
        self.icc = self.path.read_bytes()
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(self.icc))
        srgb = ImageCms.createProfile("sRGB")
        lab = ImageCms.createProfile("LAB", 5000)
        intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
        self._to_cmyk = ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK", intent)
        self._to_lab = ImageCms.buildTransform(srgb, lab, "RGB", "LAB", intent)
        k_ramp = Image.new("CMYK", (256, 1))
        k_ramp.putdata([(0, 0, 0, k) for k in range(256)])
        to_lab = ImageCms.buildTransform(cmyk, lab, "CMYK", "LAB", intent)
        lightness = [px[0] for px in _pixels(_apply(k_ramp, to_lab))]
        self._k_lightness = lightness[::-1]  # rising, for bisect: index i is K = 255 - i
        self._colours: dict[str, CMYKColor] = {}
        self._images: dict[tuple[int, int], bytes] = {}

    @cached_property
    def icc_deflated(self) -> bytes:
        """The profile's bytes deflated, as every PDF embeds it (compressed once per process)."""
        return zlib.compress(self.icc, 9)

    def _k_for(self, rgb: tuple[int, int, int]) -> int:
        """The K value (0-255) printing the grey's lightness with black ink alone."""
        img = _apply(Image.new("RGB", (1, 1), rgb), self._to_lab)
        lightness = _pixels(img)[0][0]
        i = min(bisect_left(self._k_lightness, lightness), 255)
        return 255 - i

    def colour(self, value: str) -> CMYKColor:
        """A colour of the ops ('#rrggbb', or '#rrggbbaa' with its opacity) in the profile's CMYK
        (neutrals in K alone)."""
        known = self._colours.get(value)
        if known is None:
            rgb = _hex(value)
            if max(rgb) - min(rgb) <= 2:
                c = m = y = 0
                k = self._k_for(rgb)
            else:
                c, m, y, k = _pixels(_apply(Image.new("RGB", (1, 1), rgb), self._to_cmyk))[0]
            alpha = int(value.lstrip("#")[6:8], 16) / 255 if len(value.lstrip("#")) == 8 else 1  # '#rrggbbaa'
            known = self._colours[value] = CMYKColor(c / 255, m / 255, y / 255, k / 255, alpha=alpha)
        return known

    def text(self, value: str, size: float) -> CMYKColor:
        """A text's colour: as `colour`, but a four-colour dark under SMALL_TEXT_PT in black ink
        alone, at the K value of its lightness (its opacity kept)."""
        out = self.colour(value)
        if size >= SMALL_TEXT_PT or not rich_black(out):
            return out
        k = self._k_for(_hex(value)) / 255
        return CMYKColor(0, 0, 0, k, alpha=out.alpha)

    def of(self, colour: Color) -> CMYKColor:
        """A ReportLab colour (an SVG icon's) converted the same way."""
        if isinstance(colour, CMYKColor):
            return colour
        r, g, b = (round(max(0.0, min(1.0, v)) * 255) for v in (colour.red, colour.green, colour.blue))
        out = self.colour(f"#{r:02x}{g:02x}{b:02x}")
        alpha = getattr(colour, "alpha", 1)
        return CMYKColor(out.cyan, out.magenta, out.yellow, out.black, alpha=alpha) if alpha != 1 else out

    def drawing(self, drawing: Any) -> Any:
        """A copy of an SVG icon's drawing with every fill and stroke converted."""
        from reportlab.graphics.shapes import STATE_DEFAULTS

        out = copy.deepcopy(drawing)
        for attr in ("fillColor", "strokeColor"):  # the renderer's starting colours, set before any shape's
            start = STATE_DEFAULTS.get(attr)
            if isinstance(start, Color):
                out.__dict__["initial" + attr[0].upper() + attr[1:]] = self.of(start)  # not a validated attribute
        stack = [out]
        while stack:
            node = stack.pop()
            for attr in ("fillColor", "strokeColor"):
                value = getattr(node, attr, None)
                if isinstance(value, Color):
                    setattr(node, attr, self.of(value))
            stack.extend(getattr(node, "contents", []))
        return out

    def image(self, data: bytes) -> Image.Image:
        """Raster art in CMYK (converted once per image and size: the result is cached), through its
        own ICC profile (assets/colourspace.py): CMYK art in this profile or in none kept as it is.
        Transparent pixels are flattened over white paper (PDF/X-1a allows no transparency)."""
        key = (hash(data), len(data))
        cached = self._images.get(key)
        if cached is None:
            from mazmorra.assets.colourspace import to_cmyk

            img: Image.Image = Image.open(io.BytesIO(data))
            img.load()
            if img.mode in ("RGBA", "LA", "P", "PA"):
                profile = img.info.get("icc_profile")
                rgba = img.convert("RGBA")
                flat = Image.new("RGB", rgba.size, (255, 255, 255))
                flat.paste(rgba, mask=rgba.getchannel("A"))
                img = flat
                if profile:  # white paper in the picture's own space: its white point, whatever the profile
                    img.info["icc_profile"] = profile
            cmyk = to_cmyk(img, self.icc, self._to_cmyk)
            buf = io.BytesIO()
            cmyk.save(buf, "TIFF", compression="tiff_deflate")
            cached = self._images[key] = buf.getvalue()
        return Image.open(io.BytesIO(cached))


def _apply(img: Image.Image, transform: ImageCms.ImageCmsTransform) -> Image.Image:
    out = ImageCms.applyTransform(img, transform)
    assert out is not None  # not in place: a new image
    return out


def _pixels(img: Image.Image) -> list[Any]:
    return [img.getpixel((x, 0)) for x in range(img.width)]


@lru_cache(maxsize=4)
def ink(name: str) -> CmykOutput:
    """The conversions of one shipped profile (built once per process)."""
    return CmykOutput(name)
