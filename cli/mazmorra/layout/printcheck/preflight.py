"""The preflight of a print-shop build (`build --printer NAME`), face by face (rule ids preflight.*),
each finding at the template element that drew it, as the print checks are:

- **preflight.ink** (error): a colour whose separation in the printer's CMYK profile puts more ink
  on paper than the printer's limit (`colour: ink_limit:`), e.g. a 300 % rich-black panel for a
  240 % printer. Every area of a face is drawn in one colour (nothing overprints), so the total ink
  of an area is that of the colour drawn there last.
- **preflight.safe-area** (warning): text or an icon outside the printer's safe area, where it is
  stricter than the pack's own (the print check covers the pack's).
- **preflight.bleed** (error, printers with a bleed): a filled rectangle or a picture that reaches
  the trim and stops there on a face whose bleed nothing else fills (a white sliver where the cut
  strays).
- **preflight.transparency** (error, PDF/X-1a printers): an element drawn with an opacity or a
  translucent colour, at its template line, for each card that meets it.
- **preflight.image-dpi** (warning; an error under half the `dpi`): a raster image placed larger
  than the printer's resolution allows (under 95 % of its `dpi`), reported at the component field
  the image comes from when there is one.
- **preflight.colour-profile** (a note: never fails a build, not even `--strict`): an RGB or grey
  picture with no embedded ICC profile, whose colours are therefore taken as sRGB; said once per
  file, at the file.

What only the written file shows (RGB left in a CMYK file, fonts not embedded) the print-shop sink
checks on its own output (`render/sinks/cardpdf.py`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from mazmorra.assets import colourspace
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import CircleOp, Face, IconOp, ImageOp, LineOp, Op, PolyOp, RectOp, RotateOp, TextOp
from mazmorra.errors import rel
from mazmorra.layout.elements.attrs import Owner
from mazmorra.layout.printcheck.facecheck import safe_area
from mazmorra.layout.printcheck.ink import inks
from mazmorra.layout.printcheck.inkindex import Finding
from mazmorra.model.colour import translucent
from mazmorra.printers import Printer
from mazmorra.printers.cmyk import CmykOutput, ink

MM_PER_IN = 25.4
ENOUGH_DPI = 0.95  # of the printer's dpi: a 299 dpi picture for a 300 dpi printer is no finding
BLURRY_DPI = 0.5  # under half the printer's dpi a picture prints visibly blurry: an error
ERRORS = ("preflight.ink",)  # the rest are warnings


def _colours(op: Op) -> list[tuple[str, str]]:
    """(what, colour) of every colour an op draws with."""
    if isinstance(op, (RectOp, CircleOp, PolyOp)):
        return [(w, c) for w, c in (("fill", op.fill), ("stroke", op.stroke)) if c]
    if isinstance(op, LineOp):
        return [("stroke", op.stroke)] if op.stroke else []
    if isinstance(op, TextOp):
        return [("text", op.color)]
    if isinstance(op, (IconOp, ImageOp)) and op.color:
        return [("colour", op.color)]
    return []


def _flat(ops: tuple[Op, ...] | list[Op], owners: dict[int, Owner]) -> Iterator[tuple[Op, Owner | None]]:
    """Every op with the template element it comes from (a rotated group's ops with the group's)."""
    for i, op in enumerate(ops):
        owner = owners.get(i)
        if isinstance(op, RotateOp):
            yield from ((inner, owner) for inner, _ in _flat(op.ops, {}))
        else:
            yield op, owner


def preflight_face(
    face: Face, owners: dict[int, Owner], printer: Printer, icons: IconSet, pack_safe: float, root_at: str | None = None
) -> list[Finding]:
    """Every preflight finding of one face for `printer` (`root_at`: where its <card> element, which
    sets the background, was written)."""
    found: list[Finding] = []
    profile = ink(printer.icc) if printer.colour == "cmyk" and printer.icc else None
    limit = printer.ink_limit
    if profile is not None and limit is not None and face.background:
        total = _total(profile.colour(face.background))
        if total > limit + 0.5:
            found.append(Finding("preflight.ink", root_at, _too_much("background", face.background, total, printer)))
    for op, owner in _flat(face.ops, owners):
        at = owner.at if owner is not None else None
        if profile is not None:
            for what, value in _colours(op):
                cmyk = (
                    profile.text(value, op.size) if isinstance(op, TextOp) and what == "text" else profile.colour(value)
                )
                total = _total(cmyk)
                if limit is not None and total > limit + 0.5:
                    found.append(Finding("preflight.ink", at, _too_much(what, value, total, printer)))
        if printer.pdf == "PDF/X-1a:2003" and translucent(op):
            what = f"<{owner.tag}>" if owner is not None and owner.tag else "an element"
            found.append(
                Finding(
                    "preflight.transparency",
                    at,
                    f"{what} is drawn with an opacity or a translucent colour: transparency, which PDF/X-1a "
                    f"({printer.name}) forbids; give it an opaque colour (the mix of it and what lies under it)",
                    error=True,
                )
            )
        found += _bleed_gap(face, op, owner, printer)
        if isinstance(op, ImageOp):
            found += _image_dpi(op, at, printer, owner.field if owner is not None else None)
            found += _no_profile(op.path)
            if profile is not None and limit is not None:
                found += _image_ink(op, at, printer, profile)
    found += _safe(face, owners, printer, icons, pack_safe)
    return found


def _bleed_gap(face: Face, op: Op, owner: Owner | None, printer: Printer) -> list[Finding]:
    """Art (a filled rectangle or a picture) that reaches the trim but stops there, on a face whose
    bleed nothing else fills: a cut a little outside the trim leaves a white sliver."""
    if printer.bleed <= 0 or face.shape != "rect" or (face.background or "#ffffff")[:7].lower() != "#ffffff":
        return []
    if isinstance(op, RectOp) and (op.fill or op.gradient) and not translucent(op):
        box = (op.x, op.y, op.x + op.w, op.y + op.h)
    elif isinstance(op, ImageOp):
        box = (op.x, op.y, op.x + op.w, op.y + op.h)
    else:
        return []
    edge, reach = 0.05, face.bleed - 0.05  # at the trim: within 0.05 mm; into the bleed: nearly all of it
    sides = [
        name
        for name, at_trim, past in (
            ("left", abs(box[0]) <= edge, box[0] <= -reach),
            ("top", abs(box[1]) <= edge, box[1] <= -reach),
            ("right", abs(box[2] - face.w) <= edge, box[2] >= face.w + reach),
            ("bottom", abs(box[3] - face.h) <= edge, box[3] >= face.h + reach),
        )
        if at_trim and not past
    ]
    return [_no_bleed(owner, sides, printer, face)] if sides else []


def _no_bleed(owner: Owner | None, sides: list[str], printer: Printer, face: Face) -> Finding:
    what = f"<{owner.tag}>" if owner is not None and owner.tag else "art"
    into = f"{face.bleed:g} mm into the bleed" if face.bleed > 0 else "into a bleed (the pack's `bleed:` is 0)"
    return Finding(
        "preflight.bleed",
        owner.at if owner is not None else None,
        f"{what} reaches the trim on the {', '.join(sides)} side(s) and stops there: {printer.name} cuts within its "
        f"bleed, and a cut a little outside the trim leaves a white sliver; extend it {into}",
        error=True,
    )


def _safe(face: Face, owners: dict[int, Owner], printer: Printer, icons: IconSet, pack_safe: float) -> list[Finding]:
    """Text and icons outside the printer's safe area, measured from the printer's cut (which, for a
    face a little smaller than the product, lies a fraction of a millimetre outside the face's trim)."""
    found = []
    product = printer.product(face.w, face.h, face.bleed)
    if product is None and printer.products:  # not sold: written apart, not sent to this printer
        return []
    safe = printer.safe
    if product is not None:
        (pw, ph), turned = product[0].trim, product[1]
        pw, ph = (ph, pw) if turned else (pw, ph)
        safe = product[0].safe - min((pw - face.w) / 2, (ph - face.h) / 2)  # the cut may lie inside the trim too
    if safe > pack_safe + 1e-6:
        for f in safe_area(face, inks(face.ops, owners), safe, icons):
            message = f.message.split(", inside the")[0] + f", inside {printer.name}'s safe area; move it inwards"
            found.append(Finding("preflight.safe-area", f.at, message))
    return found


def _total(cmyk: Any) -> float:
    return round(float(cmyk.cyan + cmyk.magenta + cmyk.yellow + cmyk.black) * 100, 1)


def _cmyk(c: Any) -> str:
    return "C{:.0f} M{:.0f} Y{:.0f} K{:.0f}".format(
        *(getattr(c, k) * 100 for k in ("cyan", "magenta", "yellow", "black"))
    )


def _too_much(what: str, value: str, total: float, printer: Printer) -> str:
    return (
        f"{what} {value} separates to {total:.0f} % total ink in the {printer.icc} profile, over {printer.name}'s "
        f"limit of {printer.ink_limit} %: choose a lighter colour, or black (K alone) for a dark panel"
    )


def _image_ink(op: ImageOp, at: str | None, printer: Printer, profile: CmykOutput) -> list[Finding]:
    """A raster image whose darkest pixel, separated as the build separates it, passes the ink limit."""
    from mazmorra.assets import images

    try:
        data = images.prepared(Path(op.path), op.w, op.h, op.color, own_colour=True)
    except (OSError, ValueError):
        return []  # an unreadable image is the loader's problem, reported there
    total = _darkest(profile.name, data)
    if printer.ink_limit is None or total <= printer.ink_limit + 0.5:
        return []
    return [
        Finding("preflight.ink", at, _too_much(f"image {Path(op.path).name}", "(its darkest pixel)", total, printer))
    ]


@lru_cache(maxsize=64)
def _darkest(profile: str, data: bytes) -> float:
    """The total ink (%) of an image's darkest pixel in the profile's CMYK (once per image and size)."""
    px = ink(profile).image(data).tobytes()
    return max(sum(px[i : i + 4]) for i in range(0, len(px), 4)) / 2.55


def _image_dpi(op: ImageOp, at: str | None, printer: Printer, field: str | None) -> list[Finding]:
    """A raster image printed with fewer pixels per inch than the printer asks: a warning, an error
    under half of it (visibly blurry); at the component's field when the image comes from one."""
    try:
        with Image.open(Path(op.path)) as img:
            w, h = img.size
    except OSError:
        return []  # an unreadable image is the loader's problem, reported there
    dpi = min(w / (op.w / MM_PER_IN), h / (op.h / MM_PER_IN))
    if dpi >= printer.dpi * ENOUGH_DPI:
        return []
    blurry = dpi < printer.dpi * BLURRY_DPI
    said = "prints visibly blurry" if blurry else f"is below the {printer.dpi} dpi {printer.name} asks for"
    return [
        Finding(
            "preflight.image-dpi",
            at,
            f"image {Path(op.path).name} ({w}×{h} px) placed at {op.w:g}×{op.h:g} mm is {dpi:.0f} dpi and {said}; "
            f"give it at least {math.ceil(printer.dpi * op.w / MM_PER_IN)} px across",
            field=field,
            error=blurry,
        )
    ]


@lru_cache(maxsize=256)
def _no_profile(path: str) -> tuple[Finding, ...]:
    """A note (once per file: it is located at the file) that an RGB or grey picture has no embedded
    colour profile, so its colours are taken as sRGB: right for most art, wrong for a photo exported
    in Adobe RGB or Display P3 without its profile."""
    try:
        with Image.open(Path(path)) as img:
            mode, own = img.mode, colourspace.profile_of(img)
    except OSError:
        return ()  # not a raster picture, or an unreadable one: the loader's problem
    if own is not None or mode == "CMYK":
        return ()
    return (
        Finding(
            "preflight.colour-profile",
            None,
            f"image {Path(path).name} has no embedded colour profile: its colours are taken as sRGB (if it "
            "was made in another colour space, such as Adobe RGB or Display P3, export it with its profile)",
            file=rel(path),
        ),
    )
