"""The print checks of a laid-out face: what a player must be able to read, and what must not collide.

- **Contrast**: every run of text, and every icon, against the colour it is drawn over (found by
  looking down through what was drawn before it): WCAG 2 contrast ratio, 4.5:1 for text and 3:1
  for icons by default (pack.yaml `print: contrast:`). An icon passes when most of its ink does.
- **Overlaps**: an element drawn over another must either sit wholly on it (a number on its
  badge, a panel on its frame) or not touch it at all; and what sits inside an outlined shape keeps
  clear of the outline (it does not run into the frame), unless it covers the outline on purpose,
  flush with the shape's edge (a title band over a frame's top). A template allows an overlap with
  `overlap="ok"` on the element (or on a <g> around several). Inside a <grid>, a cell's contents and
  the walls, pillars and marks must not meet; cells and walls themselves may.
- **Safe area**: text and icons stay `print: safe_margin:` (3 mm) inside the trim.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from mazmorra.contracts import CircleOp, Face, IconOp, ImageOp, LineOp, Op, PolyOp, RectOp, TextOp
from mazmorra.icons import IconSet
from mazmorra.layout.attrs import Owner
from mazmorra.layout.iconraster import icon_image
from mazmorra.layout.ink import (
    IDENTITY,
    RES,
    Box,
    Ink,
    Matrix,
    Window,
    any_ink,
    bounds,
    colour_at,
    inks,
    mask,
    tight_box,
    transformed,
)
from mazmorra.model import PrintSpec

CLEARANCE = 0.4  # mm that what sits inside an outline keeps from it
NEAR = 0.3  # mm that text and icons keep from what they do not sit on
BUCKET = 10.0  # mm: the spatial index's cell
PAPER = "#ffffff"
_NOBODY = Owner(0, None, "")


@dataclass(frozen=True)
class Finding:
    """One problem of a face, blamed on the template element `at` (a marker, file:line:col)."""

    rule: str  # print.contrast | print.overlap | print.safe-area
    at: str | None
    message: str
    other: str | None = None  # the element it meets


def check_face(face: Face, owners: dict[int, Owner], printing: PrintSpec, icons: IconSet) -> list[Finding]:
    """Every contrast, overlap and safe-area problem of one face."""
    drawn = inks(face.ops, owners)
    index = _Index(drawn)
    return [
        *_contrast(face, drawn, index, printing, icons),
        *_overlaps(drawn, index, icons),
        *_safe_area(face, drawn, printing, icons),
    ]


class _Index:
    """Which inks touch which BUCKET-mm square of the face."""

    def __init__(self, drawn: list[Ink]):
        self.drawn = drawn
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)
        for ink in drawn:
            for key in _keys(ink.box):
                self.cells[key].append(ink.index)

    def under(self, x: float, y: float, below: int) -> Iterator[Ink]:
        """Inks drawn before `below` whose bounds hold (x, y), topmost first."""
        for i in reversed(self.cells.get((math.floor(x / BUCKET), math.floor(y / BUCKET)), [])):
            ink = self.drawn[i]
            b = ink.box
            if i < below and b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                yield ink

    def covering(self, b: Ink, after: int) -> Iterator[Ink]:
        """Inks drawn between `after` and b whose bounds hold b's, topmost first."""
        x0, y0, x1, y1 = b.box
        for i in reversed(self.cells.get((math.floor(x0 / BUCKET), math.floor(y0 / BUCKET)), [])):
            c = self.drawn[i]
            if after < i < b.index and c.box[0] <= x0 and c.box[1] <= y0 and x1 <= c.box[2] and y1 <= c.box[3]:
                yield c

    def pairs(self) -> Iterator[tuple[Ink, Ink]]:
        """Every (earlier, later) pair whose bounds come within CLEARANCE of each other, once."""
        seen: set[tuple[int, int]] = set()
        for members in self.cells.values():
            for n, j in enumerate(members):
                b = self.drawn[j]
                for i in members[:n]:
                    if (i, j) in seen:
                        continue
                    seen.add((i, j))
                    a = self.drawn[i]
                    if _near(a.box, b.box, CLEARANCE):
                        yield a, b


def _keys(box: Box) -> Iterator[tuple[int, int]]:
    for kx in range(math.floor(box[0] / BUCKET), math.floor(box[2] / BUCKET) + 1):
        for ky in range(math.floor(box[1] / BUCKET), math.floor(box[3] / BUCKET) + 1):
            yield kx, ky


def _near(a: Box, b: Box, gap: float) -> bool:
    return a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3] and b[1] - gap < a[3]


# ---------------------------------------------------------------- contrast


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


def _background(face: Face, index: _Index, ink: Ink, x: float, y: float, icons: IconSet) -> str | None:
    """The colour under (x, y) before `ink` was drawn; None when it cannot be known (a picture)."""
    for below in index.under(x, y, ink.index):
        if isinstance(below.op, TextOp):
            continue
        found = colour_at(below, (x, y), icons)
        if found == "?":
            return None
        if found is not None:
            return found
    return face.background or PAPER


def _contrast(face: Face, drawn: list[Ink], index: _Index, printing: PrintSpec, icons: IconSet) -> Iterator[Finding]:
    need_text, need_mark = printing.contrast.text, printing.contrast.marks
    for ink in drawn:
        op = ink.op
        if isinstance(op, TextOp) and op.text.strip():
            x0, y0, x1, y1 = ink.box  # the middle of the run's x-height
            bg = _background(face, index, ink, (x0 + x1) / 2, y0 + (y1 - y0) * 0.55, icons)
            if bg is not None and contrast(op.color, bg) < need_text - 1e-9:
                yield Finding(
                    "print.contrast",
                    ink.owner.at,
                    f"text “{_snippet(op.text)}” in {op.color} on {bg}: contrast {contrast(op.color, bg):.2f}:1, "
                    f"below {need_text:g}:1 (pack.yaml print: contrast: text:)",
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


def _snippet(text: str) -> str:
    return text if len(text) <= 30 else text[:29] + "…"


# ---------------------------------------------------------------- overlaps


def _overlaps(drawn: list[Ink], index: _Index, icons: IconSet) -> Iterator[Finding]:
    for a, b in index.pairs():
        if _allowed(a.owner, b.owner):
            continue
        verdict = _judge(a, b, icons)
        if verdict and any(_sits_on(b, c, icons) for c in index.covering(b, a.index)):
            continue  # b sits wholly on something drawn over a: it meets that, not a
        if verdict == "overlaps":
            yield Finding(
                "print.overlap",
                b.owner.at,
                f"{_what(b)} overlaps {_what(a)}{{other}}; move one of them, or mark the intended overlap "
                'with overlap="ok"',
                a.owner.at,
            )
        elif verdict == "crowds":
            yield Finding(
                "print.overlap",
                b.owner.at,
                f"{_what(b)} comes within {NEAR:g} mm of {_what(a)}{{other}}; give them room, or mark the "
                'intended overlap with overlap="ok"',
                a.owner.at,
            )
        elif verdict == "touches":
            yield Finding(
                "print.overlap",
                b.owner.at,
                f"{_what(b)} runs into the outline of {_what(a)}{{other}} (keep {CLEARANCE:g} mm clear of it); "
                'move it, or mark the intended overlap with overlap="ok"',
                a.owner.at,
            )


def _allowed(a: Owner, b: Owner) -> bool:
    """Pairs that may meet whatever they draw: marked, drawn over a grid's floor, or parts of one
    element designed together (a text box's runs; a grid's cell and what it holds, or its walls)."""
    if a.overlap or b.overlap or a.layer == "ground":
        return True
    if a.element != b.element:
        return False
    return a.part == b.part or b.layer == "ground" or a.layer == b.layer == "edge"


def _what(ink: Ink) -> str:
    op = ink.op
    if isinstance(op, TextOp):
        return f"text “{_snippet(op.text)}”"
    if isinstance(op, IconOp):
        return f"icon '{op.name}'"
    name = {RectOp: "rectangle", CircleOp: "circle", LineOp: "line", PolyOp: "polygon", ImageOp: "image"}[type(op)]
    return f"a {name} of the <{ink.owner.tag}>" if ink.owner.tag == "grid" else f"the {name}"


def _judge(a: Ink, b: Ink, icons: IconSet) -> str:
    """What b (drawn later) does to a: "" (fine), "overlaps", "touches" (runs into a's outline) or
    "crowds" (text or an icon within NEAR of something it does not sit on). Cached: a template's
    fixed parts meet the same way on every card."""
    return _verdict(a.op, a.m, b.op, b.m, icons)


@lru_cache(maxsize=8192)
def _verdict(op_a: Op, m_a: Matrix, op_b: Op, m_b: Matrix, icons: IconSet) -> str:
    a = Ink(0, op_a, _NOBODY, m_a, transformed(bounds(op_a), m_a))
    b = Ink(1, op_b, _NOBODY, m_b, transformed(bounds(op_b), m_b))
    outline = isinstance(a.op, (RectOp, CircleOp)) and a.op.stroke is not None and a.m == IDENTITY
    gap = CLEARANCE + (a.op.stroke_width if outline and isinstance(a.op, (RectOp, CircleOp)) else 0.0)
    crowding = a.content or b.content
    if not _near(a.box, b.box, max(gap if outline else 0.0, NEAR if crowding else 0.0)):
        return ""
    fast = _bounds_verdict(a, b)
    if fast is not None:
        return fast
    if _traces(a, b):
        return ""
    win = Window(
        max(a.box[0], b.box[0]) - gap,
        max(a.box[1], b.box[1]) - gap,
        min(a.box[2], b.box[2]) + gap,
        min(a.box[3], b.box[3]) + gap,
    )
    mb = mask(b, win, "ink", icons)
    if mb.getbbox() is None:
        return ""
    bb = tight_box(b, icons) or b.box
    inside = a.box[0] - 0.1 <= bb[0] and a.box[1] - 0.1 <= bb[1] and bb[2] <= a.box[2] + 0.1 and bb[3] <= a.box[3] + 0.1
    on_a = inside and not any_ink(ImageChops.subtract(mb, mask(a, win, "solid", icons)))
    if not on_a:
        ma = mask(a, win, "ink", icons)
        if any_ink(ImageChops.multiply(mb, ma)):
            return "overlaps"
        if crowding and ImageChops.multiply(mb.filter(ImageFilter.MaxFilter(2 * round(NEAR * RES) + 1)), ma).getbbox():
            return "crowds"
    if outline and (on_a or not isinstance(a.op, RectOp) or a.op.fill is None):
        touch = ImageChops.multiply(mb, mask(a, win, "band", icons, CLEARANCE))
        if isinstance(a.op, RectOp):
            touch = _clear_flush_sides(touch, a.op, b.box, win)
        if any_ink(touch):
            return "touches"
    return ""


def _traces(a: Ink, b: Ink) -> bool:
    """Whether b outlines a's own shape (a frame drawn on a panel's edge, or a panel under its frame)."""
    x, y = a.op, b.op
    if a.m != b.m or type(x) is not type(y):
        return False
    if isinstance(x, RectOp) and isinstance(y, RectOp):
        same = (x.x, x.y, x.w, x.h)
        return all(abs(p - q) < 1e-6 for p, q in zip(same, (y.x, y.y, y.w, y.h)))
    if isinstance(x, CircleOp) and isinstance(y, CircleOp):
        return all(abs(p - q) < 1e-6 for p, q in zip((x.cx, x.cy, x.r), (y.cx, y.cy, y.r)))
    return False


def _sits_on(b: Ink, c: Ink, icons: IconSet) -> bool:
    """Whether all of b lies on what c covers (c's fill, an icon's or a picture's ink)."""
    op = c.op
    if isinstance(op, (TextOp, LineOp)) or (isinstance(op, (RectOp, CircleOp, PolyOp)) and op.fill is None):
        return False
    win = Window(*b.box)
    mb = mask(b, win, "ink", icons)
    return mb.getbbox() is not None and not any_ink(ImageChops.subtract(mb, mask(c, win, "solid", icons)))


def _bounds_verdict(a: Ink, b: Ink) -> str | None:
    """Settle the common cases from bounds alone: b well inside a filled rectangle or circle, or
    inside an outline's hole, clear of the outline. None: look at the pixels."""
    op = a.op
    if a.m != IDENTITY or not isinstance(op, (RectOp, CircleOp)):
        return None
    sw = op.stroke_width if op.stroke else 0.0
    keep = sw / 2 + CLEARANCE if op.stroke else 0.0
    x0, y0, x1, y1 = b.box
    if isinstance(op, RectOp):
        r = op.radius
        inner = (
            op.x + keep + r * 0.3,
            op.y + keep + r * 0.3,
            op.x + op.w - keep - r * 0.3,
            op.y + op.h - keep - r * 0.3,
        )
        if inner[0] <= x0 and inner[1] <= y0 and x1 <= inner[2] and y1 <= inner[3] and (op.fill or op.stroke):
            return ""
        return None
    far = max(math.hypot(px - op.cx, py - op.cy) for px in (x0, x1) for py in (y0, y1))
    if far <= op.r - keep and (op.fill or op.stroke):
        return ""
    return None


def _clear_flush_sides(touch: Image.Image, op: RectOp, box: Box, win: Window) -> Image.Image:
    """Forget where b covers a rectangle's outline on purpose: along each side b reaches (and round
    the corners at its ends)."""
    reach = op.stroke_width + CLEARANCE + 0.05 + op.radius
    draw = ImageDraw.Draw(touch)
    w, h = touch.size
    if box[0] <= op.x + 0.05:
        draw.rectangle((0, 0, math.ceil((op.x + reach - win.x0) * RES), h), fill=0)
    if box[2] >= op.x + op.w - 0.05:
        draw.rectangle((math.floor((op.x + op.w - reach - win.x0) * RES), 0, w, h), fill=0)
    if box[1] <= op.y + 0.05:
        draw.rectangle((0, 0, w, math.ceil((op.y + reach - win.y0) * RES)), fill=0)
    if box[3] >= op.y + op.h - 0.05:
        draw.rectangle((0, math.floor((op.y + op.h - reach - win.y0) * RES), w, h), fill=0)
    return touch


# ---------------------------------------------------------------- safe area


def _safe_area(face: Face, drawn: list[Ink], printing: PrintSpec, icons: IconSet) -> Iterator[Finding]:
    m = printing.safe_mm
    for ink in drawn:
        if not ink.content or _inside_safe(face, ink.box, m):
            continue
        box = tight_box(ink, icons)
        if box is None or _inside_safe(face, box, m):
            continue
        depth = _depth(face, box)
        if face.shape == "round" and isinstance(
            ink.op, IconOp
        ):  # a square's corners are not where a round icon reaches
            depth = _round_depth(face, ink, icons, m)
            if depth >= m - 1e-6:
                continue
        yield Finding(
            "print.safe-area",
            ink.owner.at,
            f"{_what(ink)} reaches {max(depth, 0):.1f} mm from the trim, inside the {m:g} mm a cut may miss by "
            "(pack.yaml print: safe_margin:); move it inwards",
        )


def _round_depth(face: Face, ink: Ink, icons: IconSet, m: float) -> float:
    """How far inside a round face's trim an op's ink reaches: `m` or more when all of it lies in
    the safe circle, else about how far its farthest pixel lies inside the trim."""
    win = Window(*ink.box)
    im = mask(ink, win, "ink", icons)
    r = min(face.w, face.h) / 2
    cx, cy = win.px((face.w / 2, face.h / 2))
    safe = win.blank()
    k = (r - m) * RES
    ImageDraw.Draw(safe).ellipse((cx - k, cy - k, cx + k, cy + k), fill=255)
    out = ImageChops.subtract(im, safe).getbbox()
    if out is None:
        return m
    far = max(math.hypot(x - cx, y - cy) for x in (out[0], out[2]) for y in (out[1], out[3]))
    return r - far / RES


def _inside_safe(face: Face, box: Box, m: float) -> bool:
    return _depth(face, box) >= m - 1e-6


def _depth(face: Face, box: Box) -> float:
    """How far inside the trim the box's nearest point to the edge lies (negative: outside)."""
    x0, y0, x1, y1 = box
    if face.shape == "round":
        r = min(face.w, face.h) / 2
        far = max(math.hypot(px - face.w / 2, py - face.h / 2) for px in (x0, x1) for py in (y0, y1))
        return r - far
    return min(x0, y0, face.w - x1, face.h - y1)
