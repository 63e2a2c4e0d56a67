"""The colour space a raster picture's pixels are in, read from the picture itself: its embedded ICC
profile (a photo in Display P3, Adobe RGB or a press's CMYK is converted through its own profile,
by littleCMS via Pillow's ImageCms), else sRGB for RGB and grey pixels and the shipped SWOP
coated profile for CMYK ones (what a CMYK file without a profile was most likely separated for).

An RGB build (screen PDFs, PNG, TTS, gallery) gets every picture in sRGB. A CMYK build
(printers/cmyk.py) gets the picture as the file holds it, with its profile, and converts once,
from that profile to the printer's: CMYK art in the printer's own profile, or in none, keeps its
separations exactly (a K-only black stays K-only).
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageCms

from mazmorra.support.paths import PACKAGE_DIR

DEFAULT_CMYK = PACKAGE_DIR / "icc" / "swop-tr005.icc"  # for CMYK pixels with no profile of their own
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC


def profile_of(im: Image.Image) -> bytes | None:
    """The ICC profile embedded in a picture, if any (PNG iCCP, JPEG APP2, TIFF, WebP)."""
    data = im.info.get("icc_profile")
    return data if isinstance(data, bytes) and data else None


@lru_cache(maxsize=32)
def _profile(data: bytes | None) -> ImageCms.ImageCmsProfile | None:
    """An embedded profile read once; None for one littleCMS cannot read (the picture is then taken
    as having none)."""
    if data is None:
        return None
    try:
        return ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (ImageCms.PyCMSError, OSError, ValueError):
        return None


@lru_cache(maxsize=1)
def _default_cmyk() -> ImageCms.ImageCmsProfile:
    return ImageCms.ImageCmsProfile(str(DEFAULT_CMYK))


@lru_cache(maxsize=1)
def _srgb() -> ImageCms.ImageCmsProfile:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


def source_profile(im: Image.Image) -> ImageCms.ImageCmsProfile | None:
    """The profile a picture's pixels are in, when it is not plain sRGB (None: sRGB, or grey)."""
    own = _profile(profile_of(im))
    if im.mode == "CMYK":
        return own or _default_cmyk()
    return own if im.mode in ("RGB", "RGBA") else None


@lru_cache(maxsize=32)
def _transform(src: bytes | None, mode: str, out: bytes | None, out_mode: str) -> ImageCms.ImageCmsTransform:
    """A transform between two profiles (None: sRGB on the RGB side, the default on the CMYK side)."""

    def read(data: bytes | None, m: str) -> ImageCms.ImageCmsProfile:
        found = _profile(data)
        if found is not None:
            return found
        return _default_cmyk() if m == "CMYK" else _srgb()

    return ImageCms.buildTransform(read(src, mode), read(out, out_mode), mode, out_mode, INTENT)


def to_srgb(im: Image.Image) -> Image.Image:
    """The picture in sRGB (RGB, or RGBA with its alpha kept), through its own profile; sRGB pictures
    unchanged, a grey one kept grey (through its own grey profile when it has one)."""
    if im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    if im.mode in ("L", "LA", "1", "I", "F", "I;16"):
        grey = im if im.mode in ("L", "LA") else im.convert("L")
        return _grey_to_srgb(grey, profile_of(im))
    own = profile_of(im)
    if im.mode == "CMYK":
        out = ImageCms.applyTransform(im, _transform(own if _profile(own) else None, "CMYK", None, "RGB"))
    elif im.mode in ("RGB", "RGBA") and _profile(own) is not None:
        out = ImageCms.applyTransform(im, _transform(own, im.mode, None, im.mode))
    else:
        return im if im.mode in ("RGB", "RGBA") else im.convert("RGBA" if "A" in im.mode else "RGB")
    assert out is not None  # not in place: a new image
    out.info.pop("icc_profile", None)
    return out


def _grey_to_srgb(im: Image.Image, own: bytes | None) -> Image.Image:
    """A grey picture (L or LA) with sRGB's grey: through its own grey profile (a Gray Gamma 1.8 or
    2.2 one, as image editors embed), unchanged when it has none (or one littleCMS cannot read)."""
    found = _profile(own)
    if found is None or found.profile.xcolor_space.strip() != "GRAY":
        return im
    rgb = ImageCms.applyTransform(im.convert("L"), _transform(own, "L", None, "RGB"))
    assert rgb is not None
    out = rgb.getchannel("R")  # sRGB's grey: its three channels are equal
    if im.mode == "LA":
        out = Image.merge("LA", (out, im.getchannel("A")))
    return out


def to_cmyk(im: Image.Image, printer: bytes, srgb_to_cmyk: ImageCms.ImageCmsTransform) -> Image.Image:
    """An RGB(A)-flattened or CMYK picture in the printer's CMYK (profile bytes `printer`): CMYK
    pixels in that same profile, or in none, kept as they are; any other through its own profile."""
    own = profile_of(im)
    if im.mode == "CMYK":
        if own is None or own == printer or _profile(own) is None:
            return im
        out = ImageCms.applyTransform(im, _transform(own, "CMYK", printer, "CMYK"))
    elif _profile(own) is not None:
        out = ImageCms.applyTransform(im.convert("RGB"), _transform(own, "RGB", printer, "CMYK"))
    else:
        out = ImageCms.applyTransform(im.convert("RGB"), srgb_to_cmyk)
    assert out is not None
    return out
