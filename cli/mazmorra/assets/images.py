"""Raster images: checked before use (format, size, decompression bombs) and downsampled to the
resolution they are printed at, so a huge photo costs neither memory nor PDF size."""

from __future__ import annotations

import io
import re
import warnings
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from mazmorra.model.colour import rgba
from mazmorra.support.limits import IMAGE_BYTES, IMAGE_PIXELS

if TYPE_CHECKING:
    from mazmorra.support.memo import Memo

MAX_PIXELS = IMAGE_PIXELS  # beyond this an image is refused (Pillow calls it a decompression bomb)
MAX_BYTES = IMAGE_BYTES
PRINT_DPI = 300
FORMATS = {"PNG", "JPEG", "WEBP", "GIF", "TIFF", "BMP"}


class ImageProblem(ValueError):
    pass


_MEMO: list[Memo] = []  # the build's memo (use_memo)


def use_memo(memo: Memo | None) -> None:
    """SVG pictures an earlier build read are judged from `memo` (None: each is read with svglib)."""
    _MEMO[:] = [memo] if memo is not None else []


def check(path: Path) -> tuple[int, int]:
    """(width, height) in pixels of a usable image; ImageProblem with a readable reason otherwise."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise ImageProblem(f"cannot read image: {exc.strerror}") from None
    return _check(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _check(path: Path, mtime_ns: int, size: int) -> tuple[int, int]:
    if size > MAX_BYTES:
        raise ImageProblem(f"image file is {size // (1024 * 1024)} MB; the limit is {MAX_BYTES // (1024 * 1024)} MB")
    if path.suffix.lower() == ".svg":
        return _check_svg(path)
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                fmt, dims = im.format, im.size
                if fmt not in FORMATS:
                    raise ImageProblem(f"unsupported image format {fmt}")
                if dims[0] * dims[1] > MAX_PIXELS:
                    raise ImageProblem(f"image is {dims[0]}×{dims[1]} pixels; the limit is {MAX_PIXELS} pixels")
                im.verify()
    except ImageProblem:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageProblem(f"image is too large to decode safely (over {MAX_PIXELS} pixels)") from None
    except Exception:  # Pillow raises many types for corrupt files; none of their words help a designer
        kinds = ", ".join(sorted(FORMATS))
        raise ImageProblem(f"not a readable image: the file is damaged or not a picture ({kinds})") from None
    return dims


def problem_in_pack(root: Path, src: str) -> tuple[Path, str | None]:
    """(resolved path, None) for a usable picture inside the pack folder `root`, else (path, why not)."""
    base = root.resolve()
    path = (base / src).resolve()
    if not path.is_relative_to(base):
        return path, f"image '{src}' is outside the pack folder"
    if not path.is_file():
        return path, f"image '{src}' does not exist"
    try:
        check(path)
    except ImageProblem as exc:
        return path, f"image '{src}': {exc}"
    return path, None


def prepared(path: Path, w_mm: float, h_mm: float, tint: str | None = None, *, own_colour: bool = False) -> bytes:
    """The image as PNG/JPEG bytes, downsampled to PRINT_DPI at its placed size (never upsampled);
    with `tint`, its shape in that one colour. Its pixels in sRGB, converted through the file's own
    ICC profile (assets/colourspace.py); with `own_colour` (a CMYK build, which converts once to the
    printer's profile), as the file holds them: CMYK stays CMYK, and the profile goes with them."""
    return _prepared(path.resolve(), path.stat().st_mtime_ns, w_mm, h_mm, tint, own_colour)


def tinted(path: Path, color: str) -> bytes:
    """A PNG icon recoloured: its shape (alpha, or darkness where it has no alpha) in one colour."""
    with Image.open(path) as src:
        src.load()
        return _png(_tint(src, color))


def _tint(im: Image.Image, color: str) -> Image.Image:
    from PIL import ImageOps

    shape = im.getchannel("A") if "A" in im.getbands() else ImageOps.invert(im.convert("L"))
    r, g, b, a = rgba(color)
    out = Image.new("RGBA", im.size, (round(r * 255), round(g * 255), round(b * 255), 255))
    out.putalpha(shape.point(lambda v: round(v * a)))
    return out


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True)
    return buf.getvalue()


@lru_cache(maxsize=64)
def _prepared(path: Path, mtime_ns: int, w_mm: float, h_mm: float, tint: str | None, own_colour: bool) -> bytes:
    from mazmorra.assets import colourspace

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    with Image.open(path) as src:
        src.load()
        im: Image.Image = src if tint is None else _tint(src, tint)
        profile = colourspace.profile_of(im)
        target = (max(1, round(w_mm / 25.4 * PRINT_DPI)), max(1, round(h_mm / 25.4 * PRINT_DPI)))
        scale = min(target[0] / im.width, target[1] / im.height)
        if scale < 1:
            im = im.resize(
                (max(1, round(im.width * scale)), max(1, round(im.height * scale))),
                Image.Resampling.LANCZOS,
            )
        buf = io.BytesIO()
        if own_colour and im.mode == "CMYK":  # lossless, so that a K-only black stays K-only
            im.save(buf, "TIFF", compression="tiff_deflate", **({"icc_profile": profile} if profile else {}))
            return buf.getvalue()
        if own_colour and im.mode in ("RGB", "RGBA") and profile is not None:
            im.save(buf, "PNG", optimize=True, icc_profile=profile)
            return buf.getvalue()
        im = colourspace.to_srgb(im)
        if im.mode not in ("RGB", "RGBA", "L", "LA"):
            im = im.convert("RGBA" if "A" in im.mode or im.mode == "P" else "RGB")
        if im.mode in ("RGB", "L"):
            im.save(buf, "JPEG", quality=92, optimize=True)
        else:
            im.save(buf, "PNG", optimize=True)
        return buf.getvalue()


_EXTERNAL = re.compile(rb"""(?:href|src)\s*=\s*["']\s*(?!#|data:)""", re.IGNORECASE)


def _check_svg(path: Path) -> tuple[int, int]:
    """An SVG picture checked as icons are (no DOCTYPE, no entities) and refused when it reaches for
    other files or the network (an href that is not inside the drawing); (width, height) in pt."""
    from mazmorra.assets.icons import UnsafeSvg, check_svg, load_svg

    try:
        data = check_svg(path)
    except UnsafeSvg as exc:
        raise ImageProblem(str(exc)) from None
    m = _EXTERNAL.search(data)
    if m is not None:
        line = data.count(b"\n", 0, m.start()) + 1
        raise ImageProblem(f"SVG line {line} refers to another file or address; embed it or draw it in the SVG itself")
    memo = _MEMO[0] if _MEMO else None  # by path and bytes: a build that lays one card out needs no svglib
    k = memo.key("svg picture", str(path), data) if memo is not None else ""
    kept = memo.get("svg picture", k) if memo is not None else None
    if isinstance(kept, str):
        raise ImageProblem(kept)
    if isinstance(kept, tuple) and len(kept) == 2 and all(type(v) is int for v in kept):
        return kept[0], kept[1]
    try:
        drawing = load_svg(path)
    except Exception as exc:  # svglib and lxml raise many types for broken files
        why = f"not a readable SVG ({type(exc).__name__}: {exc})"
        if memo is not None:
            memo.put(k, why)
        raise ImageProblem(why) from None
    size = round(drawing.width), round(drawing.height)
    if memo is not None:
        memo.put(k, size)
    return size
