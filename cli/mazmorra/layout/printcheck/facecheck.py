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
from collections.abc import Iterator
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from mazmorra.assets.icons import IconSet
from mazmorra.contracts import CircleOp, EllipseOp, Face, IconOp, ImageOp, LineOp, Op, PathOp, PolyOp, RectOp, TextOp
from mazmorra.layout.elements.attrs import Owner
from mazmorra.layout.printcheck.contrast import contrast_findings, snippet
from mazmorra.layout.printcheck.ink import (
    IDENTITY,
    RES,
    Box,
    Ink,
    Matrix,
    Window,
    any_ink,
    bounds,
    inks,
    mask,
    tight_box,
    transformed,
)
from mazmorra.layout.printcheck.inkindex import CLEARANCE, Finding, Index, near
from mazmorra.model.printspec import PrintSpec

NEAR = 0.3  # mm that text and icons keep from what they do not sit on
_NOBODY = Owner(0, None, "")


def check_face(
    face: Face, owners: dict[int, Owner], printing: PrintSpec, icons: IconSet, safe: float | None = None
) -> list[Finding]:
    """Every contrast, overlap and safe-area problem of one face (`safe`: the template's own margin, mm)."""
    drawn = inks(face.ops, owners)
    index = Index(drawn)
    return [
        *contrast_findings(face, drawn, index, printing, icons),
        *_overlaps(drawn, index, icons),
        *safe_area(face, drawn, printing.safe_mm if safe is None else safe, icons),
    ]


# ---------------------------------------------------------------- overlaps


def _overlaps(drawn: list[Ink], index: Index, icons: IconSet) -> Iterator[Finding]:
    for a, b in index.pairs():
        if not _allowed(a.owner, b.owner):
            yield from _meets(a, b, index, icons)


def _meets(a: Ink, b: Ink, index: Index, icons: IconSet) -> Iterator[Finding]:
    """The overlap finding of b (drawn later) against a, if b meets it."""
    verdict = _judge(a, b, icons)
    if verdict and any(_sits_on(b, c, icons) for c in index.covering(b, a.index)):
        return  # b sits wholly on something drawn over a: it meets that, not a
    if verdict == "overlaps" and _one_ground(a, b, index, icons):
        return  # a and the shapes of its colour around it make one ground, and b lies on it
    what = _VERDICTS.get(verdict)
    if what:
        yield Finding(
            "print.overlap",
            b.owner.at,
            f"{_what(b)} {what.format(other=_what(a) + '{other}')}, {_MARK}",
            a.owner.at,
        )


def room_findings(
    face: Face, drawn: list[Ink], op: TextOp, icons: IconSet, safe: float, shapes: bool = True
) -> Iterator[Finding]:
    """The safe-area and overlap problems `op` (one run of text) would have drawn last on a face
    whose inks are `drawn`, as an element of its own not marked overlap="ok" (`shapes=False`:
    marked so against every shape, but not against text, icons and pictures): whether a version
    stamp may go there. Lazily, the cheapest first: a caller asking whether there is one stops early."""
    b = Ink(len(drawn), op, _NOBODY, IDENTITY, bounds(op))
    if not clear_area(face, drawn, op, icons, safe):
        yield Finding("print.overlap", None, f"{_what(b)} is outside the safe area or on text or a picture")
        return
    near_b = [a for a in drawn if near(a.box, b.box, CLEARANCE + NEAR) and not _allowed(a.owner, b.owner)]
    index = Index([*drawn, b])
    for a in near_b:
        if shapes or a.content or isinstance(a.op, ImageOp):
            yield from _meets(a, b, index, icons)


def contrast_of(face: Face, drawn: list[Ink], op: TextOp, printing: PrintSpec, icons: IconSet) -> list[Finding]:
    """The contrast problem of `op` drawn last on a face whose inks are `drawn`, if it has one."""
    b = Ink(len(drawn), op, _NOBODY, IDENTITY, bounds(op))
    return list(contrast_findings(face, [b], Index([*drawn, b]), printing, icons))


def clear_area(face: Face, drawn: list[Ink], op: TextOp, icons: IconSet, safe: float) -> bool:
    """The cheap part of `room_findings`: `op` inside the safe area, and its glyphs' box clear of
    the glyphs' box of other text and of pictures (icons, whose shapes vary, are left to the pixels)."""
    b = Ink(len(drawn), op, _NOBODY, IDENTITY, bounds(op))
    if next(safe_area(face, [b], safe, icons), None) is not None:
        return False
    tb = tight_box(b, icons)
    for a in drawn:
        if isinstance(a.op, (TextOp, ImageOp)) and near(a.box, b.box, 0.0) and not _allowed(a.owner, b.owner):
            ta = tight_box(a, icons)
            if ta is not None and tb is not None and near(ta, tb, 0.0):
                return False
    return True


_MARK = 'or mark the intended overlap with overlap="ok"'
_VERDICTS = {  # what b does to a, in a finding's words
    "overlaps": "overlaps {other}; move one of them",
    "crowds": f"comes within {NEAR:g} mm of {{other}}; give them room",
    "touches": f"runs into the outline of {{other}} (keep {CLEARANCE:g} mm clear of it); move it",
}


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
        return f"text “{snippet(op.text)}”"
    if isinstance(op, IconOp):
        return f"icon '{op.name}'"
    name = {
        RectOp: "rectangle",
        CircleOp: "circle",
        EllipseOp: "ellipse",
        PathOp: "path",
        LineOp: "line",
        PolyOp: "polygon",
        ImageOp: "image",
    }[type(op)]
    return f"a {name} of the <{ink.owner.tag}>" if ink.owner.tag == "grid" else f"the {name}"


def _judge(a: Ink, b: Ink, icons: IconSet) -> str:
    """What b (drawn later) does to a: "" (fine), "overlaps", "touches" (runs into a's outline) or
    "crowds" (text or an icon within NEAR of something it does not sit on). Cached: a template's
    fixed parts meet the same way on every card; most pairs are settled by their bounds first, which
    is cheaper than the cache's key (the same answer `_verdict` gives them)."""
    if _bounds_verdict(a, b) == "":
        return ""
    return _verdict(a.op, a.m, b.op, b.m, icons)


@lru_cache(maxsize=8192)
def _verdict(op_a: Op, m_a: Matrix, op_b: Op, m_b: Matrix, icons: IconSet) -> str:
    a = Ink(0, op_a, _NOBODY, m_a, transformed(bounds(op_a), m_a))
    b = Ink(1, op_b, _NOBODY, m_b, transformed(bounds(op_b), m_b))
    outline = isinstance(a.op, (RectOp, CircleOp)) and a.op.stroke is not None and a.m == IDENTITY
    gap = CLEARANCE + (a.op.stroke_width if outline and isinstance(a.op, (RectOp, CircleOp)) else 0.0)
    crowding = a.content or b.content
    if not near(a.box, b.box, max(gap if outline else 0.0, NEAR if crowding else 0.0)):
        return ""
    fast = _bounds_verdict(a, b)
    if fast is not None:
        return fast
    if _traces(a, b) or _apart(a, b, icons, outline, crowding):
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


SLACK = 2 / RES  # mm: how far past its shape's edge each of two masks may reach (a pixel each, rounding)
PASTED = 0.3  # mm more where an icon's pixels are pasted (resized, rounded, maybe turned) instead of drawn


def _apart(a: Ink, b: Ink, icons: IconSet, outline: bool, crowding: bool) -> bool:
    """Whether b's ink is too far from a for any verdict the masks could give: more than the crowding
    distance (NEAR, dilated on the pixels), the outline's clearance band and a pixel of rounding on
    each side away from a's shape, as the exact geometry of b's glyphs (or icon) and of a's bounds or
    circle says. The masks would find nothing there: this saves drawing them for a title beside a
    badge, which differs on every card."""
    reach = max(NEAR if crowding else 0.0, CLEARANCE if outline else 0.0) + SLACK + 0.05
    if isinstance(a.op, IconOp) or isinstance(b.op, IconOp) or a.m != IDENTITY or b.m != IDENTITY:
        reach += PASTED
    tb = tight_box(b, icons)
    if tb is None:
        return False  # nothing drawn: the masks settle it (as cheaply)
    op = a.op
    if isinstance(op, CircleOp) and a.m == IDENTITY:
        r = op.r + (op.stroke_width / 2 if op.stroke else 0.0)
        dx = max(tb[0] - op.cx, 0.0, op.cx - tb[2])
        dy = max(tb[1] - op.cy, 0.0, op.cy - tb[3])
        return math.hypot(dx, dy) > r + reach
    ta = tight_box(a, icons) if a.content else a.box  # a glyph may reach past a run's generous bounds
    return ta is not None and not near(ta, tb, reach)


def _fill(ink: Ink) -> str | None:
    op = ink.op
    return op.fill if isinstance(op, (RectOp, CircleOp, EllipseOp, PathOp, PolyOp)) else None


def _one_ground(a: Ink, b: Ink, index: Index, icons: IconSet) -> bool:
    """Whether b is a shape of a's own colour (the two read as one shape), or lies wholly on a and
    the other shapes of its colour drawn before b (a band squared off by a second rectangle)."""
    colour = _fill(a)
    if colour is None:
        return False
    if _fill(b) == colour:
        return True
    win = Window(*b.box)
    ground = mask(a, win, "solid", icons)
    for c in index.drawn[: b.index]:
        if c is not a and _fill(c) == colour and near(c.box, b.box, 0.0):
            ground = ImageChops.lighter(ground, mask(c, win, "solid", icons))
    return not any_ink(ImageChops.subtract(mask(b, win, "ink", icons), ground))


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
    shape = (RectOp, CircleOp, EllipseOp, PathOp, PolyOp)
    if isinstance(op, (TextOp, LineOp)) or (isinstance(op, shape) and op.fill is None and op.gradient is None):
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


def safe_area(face: Face, drawn: list[Ink], m: float, icons: IconSet) -> Iterator[Finding]:
    """Text and icons closer than m mm to the trim."""
    for ink in drawn:
        if not ink.content or _inside_safe(face, ink.box, m):
            continue
        box = tight_box(ink, icons)
        if box is None or _inside_safe(face, box, m):
            continue
        depth = _depth(face, box)
        if face.shape == "round" and isinstance(
            ink.op, IconOp
        ):  # a square's corners are not where a circular icon reaches
            depth = _round_depth(face, ink, icons, m)
            if depth >= m - 1e-6:
                continue
        where = (
            f"runs {-depth:.1f} mm past the trim into the bleed, where it is cut off"
            if depth < -0.05
            else f"reaches {max(depth, 0):.1f} mm from the trim, inside the {m:g} mm a cut may miss by"
        )
        yield Finding(
            "print.safe-area",
            ink.owner.at,
            f"{_what(ink)} {where} (pack.yaml print: safe_margin:, or the template's <card safe-margin=>); move it "
            "inwards",
        )


def _round_depth(face: Face, ink: Ink, icons: IconSet, m: float) -> float:
    """How far inside a circular face's trim an op's ink reaches: `m` or more when all of it lies in
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
