"""The contrast check of a laid-out face: every run of text, and every icon, against the colour it
is drawn over (found by looking down through what was drawn before it), as a WCAG 2 contrast ratio."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageFilter

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import Face, IconOp, TextOp
from mazmorra.layout.printcheck.iconraster import icon_image
from mazmorra.layout.printcheck.ink import Ink, colour_at
from mazmorra.layout.printcheck.inkindex import Finding, Index
from mazmorra.model.colour import alpha, over
from mazmorra.model.printspec import PrintSpec
from mazmorra.model.units import PT_PER_MM

PAPER = "#ffffff"
OUTLINE_EM = 0.05  # an outline this wide (of the font size) or more is the ground its letters are read on


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2) of #rrggbb."""
    return _luminance(colour.lower())


@lru_cache(maxsize=1024)
def _luminance(colour: str) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _background(face: Face, index: Index, ink: Ink, x: float, y: float, icons: IconSet) -> str | None:
    """The colour under (x, y) before `ink` was drawn; None when it cannot be known (a picture)."""
    return colour_under(face, index, x, y, icons, ink.index)


def colour_under(face: Face, index: Index, x: float, y: float, icons: IconSet, before: int) -> str | None:
    """The opaque colour at (x, y) of what the inks drawn before `before` make (the face's background
    where none covers it), translucent inks composed over what lies under them; None when it cannot
    be known (a picture)."""
    layers: list[str] = []  # top first, down to the first opaque one
    for below in index.under(x, y, before):
        if isinstance(below.op, TextOp):
            continue
        found = colour_at(below, (x, y), icons)
        if found == "?":
            return None
        if found is not None:
            layers.append(found)
            if alpha(found) >= 1:
                break
    else:
        layers += [face.background or PAPER, PAPER]
    seen = layers[-1]
    for layer in reversed(layers[:-1]):
        seen = over(layer, seen)
    return over(seen, PAPER)


def seen(ink: str, bg: str) -> str:
    """The opaque colour a (maybe translucent) ink shows on an opaque ground."""
    return over(ink, bg)


def contrast_findings(
    face: Face, drawn: list[Ink], index: Index, printing: PrintSpec, icons: IconSet
) -> Iterator[Finding]:
    need_text, need_mark = printing.contrast.text, printing.contrast.marks
    for ink in drawn:
        op = ink.op
        if isinstance(op, TextOp) and op.text.strip():
            x0, y0, x1, y1 = ink.box  # the middle of the run's x-height
            bg = _background(face, index, ink, (x0 + x1) / 2, y0 + (y1 - y0) * 0.55, icons)
            ground = ""
            if op.outline and op.outline_width * PT_PER_MM >= OUTLINE_EM * op.size:  # read against its outline
                bg, ground = (
                    (seen(op.outline, bg) if bg else op.outline if alpha(op.outline) >= 1 else None),
                    " outline",
                )
            if bg is not None and contrast(seen(op.color, bg), bg) < need_text - 1e-9:
                yield Finding(
                    "print.contrast",
                    ink.owner.at,
                    f"text “{snippet(op.text)}” in {op.color} on{ground} {bg}: contrast "
                    f"{contrast(seen(op.color, bg), bg):.2f}:1, below {need_text:g}:1 (pack.yaml print: contrast: text:)",
                )
        elif isinstance(op, IconOp):
            x0, y0, x1, y1 = ink.box
            bg = _background(face, index, ink, (x0 + x1) / 2, (y0 + y1) / 2, icons)
            if bg is None:
                continue
            share = _legible_share(icons.files[op.name], op.color, bg, need_mark)
            if share < 0.5:
                yield Finding(
                    "print.contrast",
                    ink.owner.at,
                    f"icon '{op.name}' on {bg}: only {share:.0%} of its ink reaches {need_mark:g}:1 against it "
                    "(pack.yaml print: contrast: marks:); give it a lighter or darker ground, or a colour",
                )


@lru_cache(maxsize=2048)
def _legible_share(path: Path, colour: str | None, bg: str, need: float) -> float:
    """How much of an icon stands out from `bg` by at least `need`: the larger of the share of its
    ink (by area: a light pillar on a dark band) and the share of its silhouette's edge (an outlined
    icon on a light ground, whose fill may be as light as the ground)."""
    im = icon_image(path, colour)
    ink = im.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    edge = ImageChops.subtract(ink, ink.filter(ImageFilter.MinFilter(3)))
    return max(_share(im, ink, bg, need), _share(im, edge, bg, need))


def _share(im: Image.Image, where: Image.Image, bg: str, need: float) -> float:
    total = good = 0
    rgba = im.copy()
    rgba.putalpha(where)
    for count, pixel in rgba.getcolors(rgba.width * rgba.height) or []:
        assert isinstance(pixel, tuple)
        r, g, b, a = pixel
        if a < 128:
            continue
        total += count
        if contrast(f"#{r:02x}{g:02x}{b:02x}", bg) >= need - 1e-9:
            good += count
    return good / total if total else 1.0


def snippet(text: str) -> str:
    return text if len(text) <= 30 else text[:29] + "…"
