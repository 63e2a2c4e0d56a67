"""Where a face's drawing ops put ink, for the print checks: bounds, exact shapes as small masks
(10 px a millimetre, only over the spot two elements share) and the colour at a point.

Each drawn op becomes an `Ink`: the op, the template element that drew it (`Owner`) and the
rotation it is drawn under. Bounds are generous and cheap; masks are exact and drawn only when
bounds cannot settle a question. Text is measured by its glyphs' own outlines, icons by what they
draw (layout/printcheck/iconraster.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from mazmorra.assets import fonts
from mazmorra.assets.icons import IconSet
from mazmorra.contracts import (
    CircleOp,
    EllipseOp,
    Gradient,
    IconOp,
    ImageOp,
    LineOp,
    Op,
    PathOp,
    PolyOp,
    RectOp,
    RotateOp,
    TextOp,
)
from mazmorra.layout.elements.attrs import Owner
from mazmorra.layout.elements.paint import gradient_at
from mazmorra.layout.elements.pathdata import bounds as path_bounds
from mazmorra.layout.elements.pathdata import flattened
from mazmorra.layout.printcheck.iconraster import SIZE, apply, icon_image, mul
from mazmorra.layout.printcheck.iconraster import Matrix as Matrix
from mazmorra.model.colour import with_alpha
from mazmorra.model.units import PT_PER_MM
from mazmorra.support.reuse import ByIdentity, kept_when_asked_again

RES = 10.0  # mask pixels per mm
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm, y down
Point = tuple[float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class Ink:
    """One leaf op as drawn on a face. Read only once made; a plain slotted class, not a frozen
    dataclass: one is made for every op of every face checked, in half the time."""

    __slots__ = ("box", "index", "m", "op", "owner")

    def __init__(self, index: int, op: Op, owner: Owner, m: Matrix, box: Box):
        self.index = index  # drawing order on the face
        self.op = op  # a leaf op (never a RotateOp)
        self.owner = owner
        self.m = m  # op coordinates -> face coordinates
        self.box = box  # generous bounds on the face

    def __repr__(self) -> str:
        return f"Ink({self.index}, {self.op!r}, {self.owner!r}, {self.m!r}, {self.box!r})"

    @property
    def content(self) -> bool:
        """Text and icons: what a player reads (the safe area and contrast apply to them)."""
        return isinstance(self.op, (TextOp, IconOp))


def inks(ops: Sequence[Op], owners: dict[int, Owner]) -> list[Ink]:
    """Every leaf op of a face in drawing order, with its owner and the rotation it is drawn under."""
    out: list[Ink] = []
    kept = _BOUNDS.table
    for i, op in enumerate(ops):
        owner = owners.get(i)
        if owner is None:
            owner = Owner(-1 - i, None, "card")
        if not isinstance(op, RotateOp):  # most ops: a leaf, unrotated
            hit = kept.get(id(op))  # ByIdentity.get, inline: asked for every op of every face
            box = hit[1] if hit is not None and hit[0] is op else _BOUNDS.put(op, bounds(op))
            out.append(Ink(len(out), op, owner, IDENTITY, box))
            continue
        for leaf, m in _leaves(op, IDENTITY):
            out.append(Ink(len(out), leaf, owner, m, transformed(bounds(leaf), m)))
    return out


_BOUNDS: ByIdentity[Box] = ByIdentity(4096)  # an op many faces share (a template's frame, a label), bounded once


def _leaves(op: Op, m: Matrix) -> Iterator[tuple[Op, Matrix]]:
    if isinstance(op, RotateOp):
        a = math.radians(op.angle)  # clockwise on the page, y down
        c, s = math.cos(a), math.sin(a)
        turn: Matrix = (c, s, -s, c, op.cx - c * op.cx + s * op.cy, op.cy - s * op.cx - c * op.cy)
        for inner in op.ops:
            yield from _leaves(inner, mul(m, turn))
    else:
        yield op, m


def inverse(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def transformed(box: Box, m: Matrix) -> Box:
    if m == IDENTITY:
        return box
    pts = [apply(m, (x, y)) for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def bounds(op: Op) -> Box:
    """Generous bounds of an op, in its own coordinates (strokes and descenders included)."""
    if isinstance(op, TextOp):
        em = op.size / PT_PER_MM
        return (
            op.x - em * 0.1,
            op.y - em * 1.0,
            op.x + (fonts.width(op.text, op.font, op.size) + op.spacing * len(op.text)) / PT_PER_MM,
            op.y + em * 0.3,
        )
    if isinstance(op, RectOp):
        g = op.stroke_width / 2 if op.stroke else 0.0
        return (op.x - g, op.y - g, op.x + op.w + g, op.y + op.h + g)
    if isinstance(op, CircleOp):
        r = op.r + (op.stroke_width / 2 if op.stroke else 0.0)
        return (op.cx - r, op.cy - r, op.cx + r, op.cy + r)
    if isinstance(op, EllipseOp):
        g = op.stroke_width / 2 if op.stroke else 0.0
        return (op.cx - op.rx - g, op.cy - op.ry - g, op.cx + op.rx + g, op.cy + op.ry + g)
    if isinstance(op, PathOp):
        g = op.stroke_width / 2 if op.stroke else 0.0
        x0, y0, x1, y1 = path_bounds(op.commands)
        return (x0 - g, y0 - g, x1 + g, y1 + g)
    if isinstance(op, LineOp):
        g = op.stroke_width / 2
        return (min(op.x1, op.x2) - g, min(op.y1, op.y2) - g, max(op.x1, op.x2) + g, max(op.y1, op.y2) + g)
    if isinstance(op, PolyOp):
        g = op.stroke_width / 2 if op.stroke else 0.0
        xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
        return (min(xs) - g, min(ys) - g, max(xs) + g, max(ys) + g)
    if isinstance(op, IconOp):
        return (op.x, op.y, op.x + op.size, op.y + op.size)
    if isinstance(op, ImageOp):
        return (op.x, op.y, op.x + op.w, op.y + op.h)
    raise TypeError(op)


def glyph_boxes(op: TextOp) -> list[Box]:
    """The ink box of every visible character of a run, in the op's coordinates."""
    return list(_glyph_boxes(op.text, op.font, op.size, op.x, op.y - op.rise / PT_PER_MM, op.spacing))


@kept_when_asked_again(maxsize=256, remembered=1024)  # asked again for runs near each other, and by the preview
def _glyph_boxes(text: str, font: str, size: float, x: float, y: float, spacing: float = 0.0) -> tuple[Box, ...]:
    em = size / PT_PER_MM
    out = []
    for ch in text:
        g = fonts.glyph_box(ch, font)
        if g is not None:
            out.append((x + g[0] * em, y - g[3] * em, x + g[2] * em, y - g[1] * em))
        x += (fonts.width(ch, font, size) + spacing) / PT_PER_MM
    return tuple(out)


def tight_box(ink: Ink, icons: IconSet) -> Box | None:
    """Where the op really puts ink on the face (text by its glyphs, icons by their drawing);
    None when it draws nothing."""
    op = ink.op
    if isinstance(op, TextOp):
        boxes = glyph_boxes(op)
        if not boxes:
            return None
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    elif isinstance(op, IconOp):
        bb = _alpha(icons.files[op.name], op.color, SIZE).getbbox()
        if bb is None:
            return None
        k = op.size / SIZE
        box = (op.x + bb[0] * k, op.y + bb[1] * k, op.x + bb[2] * k, op.y + bb[3] * k)
    else:
        box = bounds(op)
    return transformed(box, ink.m)


# ---------------------------------------------------------------- masks


@dataclass(frozen=True)
class Window:
    """A patch of the face, RES px a millimetre."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def size(self) -> tuple[int, int]:
        return (max(1, math.ceil((self.x1 - self.x0) * RES)), max(1, math.ceil((self.y1 - self.y0) * RES)))

    def px(self, p: Point) -> Point:
        return ((p[0] - self.x0) * RES, (p[1] - self.y0) * RES)

    def blank(self) -> Image.Image:
        return Image.new("L", self.size, 0)


def mask(ink: Ink, win: Window, mode: str, icons: IconSet, clearance: float = 0.0) -> Image.Image:
    """The op's pixels in the window: "ink" (all it draws), "solid" (what it covers: the shapes it
    fills, an icon's or image's ink) or "band" (its outline, `clearance` mm wider on both sides)."""
    im = win.blank()
    draw = ImageDraw.Draw(im)
    op = ink.op

    def poly(points: list[Point], value: int = 255) -> None:
        if len(points) >= 3:
            draw.polygon([win.px(apply(ink.m, p)) for p in points], fill=value)

    if isinstance(op, (RectOp, CircleOp, EllipseOp)):
        shape = _rect if isinstance(op, RectOp) else _circle
        sw = op.stroke_width if op.stroke else 0.0
        if mode == "band":
            if sw:
                poly(shape(op, sw / 2 + clearance))
                poly(shape(op, -sw / 2 - clearance), 0)
        elif op.fill or op.gradient:
            poly(shape(op, sw / 2))
        elif mode == "ink" and sw:
            poly(shape(op, sw / 2))
            poly(shape(op, -sw / 2), 0)
    elif isinstance(op, LineOp) and mode == "ink":
        poly(_segment((op.x1, op.y1), (op.x2, op.y2), op.stroke_width))
    elif isinstance(op, PathOp) and mode != "band":
        for ring in flattened(op.commands):
            if op.fill or op.gradient:
                poly(ring)
            if op.stroke and mode == "ink":
                for a, b in pairwise(ring):
                    poly(_segment(a, b, op.stroke_width))
    elif isinstance(op, PolyOp) and mode != "band":
        if op.fill or op.gradient:
            poly(list(op.points))
        if op.stroke and mode == "ink":
            for a, b in zip(op.points, op.points[1:] + op.points[:1]):
                poly(_segment(a, b, op.stroke_width))
    elif isinstance(op, TextOp) and mode == "ink":
        for x0, y0, x1, y1 in glyph_boxes(op):
            poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    elif isinstance(op, IconOp) and mode != "band":
        _paste_icon(im, ink, op, win, icons)
    elif isinstance(op, ImageOp) and mode != "band":
        poly([(op.x, op.y), (op.x + op.w, op.y), (op.x + op.w, op.y + op.h), (op.x, op.y + op.h)])
    return im


def _paste_icon(im: Image.Image, ink: Ink, op: IconOp, win: Window, icons: IconSet) -> None:
    alpha = _alpha(icons.files[op.name], op.color, max(1, round(op.size * RES)))
    cx, cy = win.px(apply(ink.m, (op.x + op.size / 2, op.y + op.size / 2)))
    angle = math.degrees(math.atan2(ink.m[1], ink.m[0]))
    if abs(angle) > 1e-6:
        alpha = alpha.rotate(-angle, expand=True, resample=Image.Resampling.NEAREST)
    im.paste(255, (round(cx - alpha.width / 2), round(cy - alpha.height / 2)), alpha)


@lru_cache(maxsize=512)
def _alpha(path: Path, colour: str | None, side: int) -> Image.Image:
    """Where an icon puts ink, `side` px a side (255 inked, 0 not)."""
    full = icon_image(path, colour).getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    return full if side == SIZE else full.resize((side, side), Image.Resampling.NEAREST)


def _rect(op: RectOp | CircleOp | EllipseOp, grow: float) -> list[Point]:
    assert isinstance(op, RectOp)
    x0, y0, x1, y1 = op.x - grow, op.y - grow, op.x + op.w + grow, op.y + op.h + grow
    if x1 <= x0 or y1 <= y0:
        return []
    r = min(max(0.0, op.radius + grow), (x1 - x0) / 2, (y1 - y0) / 2) if op.radius else 0.0
    if r <= 0:
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    out: list[Point] = []
    for cx, cy, a in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        out += [
            (cx + r * math.cos(math.radians(a + 15 * k)), cy + r * math.sin(math.radians(a + 15 * k))) for k in range(7)
        ]
    return out


def _circle(op: RectOp | CircleOp | EllipseOp, grow: float) -> list[Point]:
    assert not isinstance(op, RectOp)
    rx, ry = (op.r, op.r) if isinstance(op, CircleOp) else (op.rx, op.ry)
    rx, ry = rx + grow, ry + grow
    if rx <= 0 or ry <= 0:
        return []
    n = max(24, min(180, int(max(rx, ry) * RES)))
    return [(op.cx + rx * math.cos(2 * math.pi * k / n), op.cy + ry * math.sin(2 * math.pi * k / n)) for k in range(n)]


def _segment(a: Point, b: Point, width: float) -> list[Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    return [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)]


def any_ink(im: Image.Image) -> bool:
    """Whether a mask has pixels, a lone pixel's width of touching aside (rounding, anti-aliasing)."""
    box = im.getbbox()
    if box is None:
        return False
    x0, y0, x1, y1 = box  # a pixel of blank round it, so the edge of the crop erodes as the whole would
    return im.crop((x0 - 1, y0 - 1, x1 + 1, y1 + 1)).filter(ImageFilter.MinFilter(3)).getbbox() is not None


# ---------------------------------------------------------------- colour under a point


def colour_at(ink: Ink, p: Point, icons: IconSet) -> str | None:
    """The colour the op paints at a face point; None where it paints nothing, "?" where it cannot
    be known (a picture)."""
    op = ink.op
    x, y = apply(inverse(ink.m), p) if ink.m != IDENTITY else p
    if isinstance(op, RectOp):
        sw = op.stroke_width / 2 if op.stroke else 0.0
        inside = op.x - sw <= x <= op.x + op.w + sw and op.y - sw <= y <= op.y + op.h + sw
        if not inside:
            return None
        edge = min(x - op.x, op.x + op.w - x, y - op.y, op.y + op.h - y)
        return op.stroke if op.stroke and abs(edge) <= sw else _fill_at(op.fill, op.gradient, x, y)
    if isinstance(op, (CircleOp, EllipseOp)):
        rx, ry = (op.r, op.r) if isinstance(op, CircleOp) else (op.rx, op.ry)
        d = math.hypot((x - op.cx) / rx, (y - op.cy) / ry) * min(rx, ry)  # about: mm from the centre
        sw = op.stroke_width / 2 if op.stroke else 0.0
        if op.stroke and abs(d - min(rx, ry)) <= sw:
            return op.stroke
        return _fill_at(op.fill, op.gradient, x, y) if d <= min(rx, ry) else None
    if isinstance(op, PolyOp):
        return _fill_at(op.fill, op.gradient, x, y) if _inside(op.points, (x, y)) else None
    if isinstance(op, PathOp):
        rings = flattened(op.commands)
        hit = (
            sum(_inside(tuple(r), (x, y)) for r in rings) % 2 == 1
            if op.even_odd
            else any(_inside(tuple(r), (x, y)) for r in rings)
        )
        return _fill_at(op.fill, op.gradient, x, y) if hit else None
    if isinstance(op, LineOp):
        return op.stroke if _distance((op.x1, op.y1), (op.x2, op.y2), (x, y)) <= op.stroke_width / 2 else None
    if isinstance(op, IconOp):
        if not (op.x <= x < op.x + op.size and op.y <= y < op.y + op.size):
            return None
        im = icon_image(icons.files[op.name], op.color)
        px = im.getpixel(
            (min(SIZE - 1, int((x - op.x) / op.size * SIZE)), min(SIZE - 1, int((y - op.y) / op.size * SIZE)))
        )
        assert isinstance(px, tuple)
        seen = "#{:02x}{:02x}{:02x}".format(*px[:3])
        if px[3] < 128:
            return None
        return seen if op.opacity >= 1 else with_alpha(seen, op.opacity)
    if isinstance(op, ImageOp):
        return "?" if op.x <= x <= op.x + op.w and op.y <= y <= op.y + op.h else None
    return None


def _fill_at(fill: str | None, gradient: Gradient | None, x: float, y: float) -> str | None:
    return gradient_at(gradient, x, y) if gradient is not None else fill


def _inside(points: tuple[Point, ...], p: Point) -> bool:
    x, y = p
    hit = False
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _distance(a: Point, b: Point, p: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)
