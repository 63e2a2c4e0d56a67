"""Stage 5's shapes: one draw function per kind of shape op (rectangles, circles, ellipses, polygons,
lines, paths), their fills (flat, translucent or a gradient), strokes and dashes, onto a canvas.

Every colour a shape is drawn in goes through its pen's `colour`: `color` below (an op's canonical
string, `mazmorra.model.colour`, as ReportLab's RGB, alpha included) or a printer's CMYK (printers/cmyk.py).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Protocol

from reportlab.lib.colors import Color

from mazmorra.contracts import CircleOp, EllipseOp, Gradient, LineOp, PathOp, PolyOp, RectOp
from mazmorra.model.colour import rgba
from mazmorra.model.units import PT_PER_MM
from mazmorra.render.draw import softmask
from mazmorra.render.draw.inks import OUTLINE, SheetLook

K = PT_PER_MM
KAPPA = 0.5522847498  # a quarter circle as one cubic Bézier: control points this far along the tangents
JOIN = {"miter": 0, "round": 1, "bevel": 2}  # ReportLab's (PDF's) line join codes
CAP = {"butt": 0, "round": 1, "square": 2}  # and line cap codes


class Pen(Protocol):
    """What a shape is drawn with: a ReportLab canvas, and mm (y down) -> pt (y up)."""

    c: Any

    def X(self, x: float) -> float: ...
    def Y(self, y: float) -> float: ...

    look: SheetLook  # --greyscale, --ink-saver (render/draw/inks.py)

    def colour(self, value: str) -> Any: ...  # a stroke's colour as the page draws it (RGB, or a printer's CMYK)
    def fill(self, value: str) -> Any: ...  # a fill's (a light tint of it with the ink saver)
    def text_colour(self, value: str, size: float) -> Any: ...  # a text's (small darks in K alone in CMYK)


@lru_cache(maxsize=1024)
def color(value: str) -> Color:
    """An op's colour as ReportLab's, with its alpha (ReportLab then sets the fill or stroke alpha)."""
    r, g, b, a = rgba(value)
    return Color(r, g, b, alpha=a)


_Painted = RectOp | CircleOp | EllipseOp | PolyOp | PathOp  # the ops whose path is filled and stroked


def rect(pen: Pen, op: RectOp, ox: float, oy: float) -> None:
    """<rect>: square, rounded, or rounded corner by corner."""
    c = pen.c
    x, y = pen.X(ox + op.x), pen.Y(oy + op.y + op.h)
    if op.gradient is None and op.radii is None and not op.dash and _plain(op):  # the common case, as it always was
        fill, stroke = _colours(pen, op.fill, op.stroke, op.stroke_width)
        if fill or stroke:
            if op.radius:
                c.roundRect(x, y, op.w * K, op.h * K, op.radius * K, stroke=stroke, fill=fill)
            else:
                c.rect(x, y, op.w * K, op.h * K, stroke=stroke, fill=fill)
        return
    p = c.beginPath()
    if op.radii is not None:
        _corners(pen, p, ox + op.x, oy + op.y, op.w, op.h, op.radii)
    elif op.radius:
        p.roundRect(x, y, op.w * K, op.h * K, op.radius * K)
    else:
        p.rect(x, y, op.w * K, op.h * K)
    _paint_op(pen, p, op, (ox, oy))


def _plain(op: RectOp | CircleOp | PolyOp) -> bool:
    """Whether a shape's stroke has the default corners and ends (mitred, cut square at the end) and
    lies over its fill."""
    return op.join == "miter" and op.cap == "butt" and not op.stroke_first


def _corners(pen: Pen, p: Any, x: float, y: float, w: float, h: float, radii: tuple[float, ...]) -> None:
    """A rectangle's outline with its own radius at each corner (top-left, clockwise), in mm."""
    most = min(w, h) / 2
    tl, tr, br, bl = (min(max(r, 0.0), most) for r in radii)
    X, Y = pen.X, pen.Y
    p.moveTo(X(x + tl), Y(y))
    p.lineTo(X(x + w - tr), Y(y))
    _arc(pen, p, x + w - tr, y, x + w, y + tr, tr, "h")
    p.lineTo(X(x + w), Y(y + h - br))
    _arc(pen, p, x + w, y + h - br, x + w - br, y + h, br, "v")
    p.lineTo(X(x + bl), Y(y + h))
    _arc(pen, p, x + bl, y + h, x, y + h - bl, bl, "h")
    p.lineTo(X(x), Y(y + tl))
    _arc(pen, p, x, y + tl, x + tl, y, tl, "v")
    p.close()


def _arc(pen: Pen, p: Any, x0: float, y0: float, x1: float, y1: float, r: float, first: str) -> None:
    """A quarter circle from (x0, y0) to (x1, y1), leaving along the horizontal or vertical first."""
    if r <= 0:
        return
    k = KAPPA
    if first == "h":
        c1, c2 = (x0 + (x1 - x0) * k, y0), (x1, y1 - (y1 - y0) * k)
    else:
        c1, c2 = (x0, y0 + (y1 - y0) * k), (x1 - (x1 - x0) * k, y1)
    p.curveTo(pen.X(c1[0]), pen.Y(c1[1]), pen.X(c2[0]), pen.Y(c2[1]), pen.X(x1), pen.Y(y1))


def circle(pen: Pen, op: CircleOp, ox: float, oy: float) -> None:
    """<circle>."""
    if op.gradient is None and not op.dash and _plain(op):
        fill, stroke = _colours(pen, op.fill, op.stroke, op.stroke_width)
        if fill or stroke:
            pen.c.circle(pen.X(ox + op.cx), pen.Y(oy + op.cy), op.r * K, stroke=stroke, fill=fill)
        return
    p = pen.c.beginPath()
    p.circle(pen.X(ox + op.cx), pen.Y(oy + op.cy), op.r * K)
    _paint_op(pen, p, op, (ox, oy))


def ellipse(pen: Pen, op: EllipseOp, ox: float, oy: float) -> None:
    """<ellipse>."""
    p = pen.c.beginPath()
    p.ellipse(pen.X(ox + op.cx - op.rx), pen.Y(oy + op.cy + op.ry), 2 * op.rx * K, 2 * op.ry * K)
    _paint_op(pen, p, op, (ox, oy))


def line(pen: Pen, op: LineOp, ox: float, oy: float) -> None:
    """<line>."""
    c = pen.c
    _colours(pen, None, op.stroke, op.stroke_width)
    if op.dash:
        c.setDash([d * K for d in op.dash])
    if op.cap != "butt":
        c.setLineCap(CAP[op.cap])
    c.line(pen.X(ox + op.x1), pen.Y(oy + op.y1), pen.X(ox + op.x2), pen.Y(oy + op.y2))
    if op.cap != "butt":
        c.setLineCap(0)
    if op.dash:
        c.setDash()


def poly(pen: Pen, op: PolyOp, ox: float, oy: float) -> None:
    """<polygon> and <star>."""
    p = pen.c.beginPath()
    (x, y), *rest = op.points
    p.moveTo(pen.X(ox + x), pen.Y(oy + y))
    for x, y in rest:
        p.lineTo(pen.X(ox + x), pen.Y(oy + y))
    p.close()
    if op.gradient is None and not op.dash and _plain(op):
        fill, stroke = _colours(pen, op.fill, op.stroke, op.stroke_width)
        pen.c.drawPath(p, stroke=stroke, fill=fill)
        return
    _paint_op(pen, p, op, (ox, oy))


def path(pen: Pen, op: PathOp, ox: float, oy: float) -> None:
    """<path d=>: its commands are absolute mm already (layout/elements/pathdata.py)."""
    p = pen.c.beginPath()
    X, Y = pen.X, pen.Y
    for cmd in op.commands:
        letter, nums = cmd[0], [float(v) for v in cmd[1:]]
        if letter == "M":
            p.moveTo(X(ox + nums[0]), Y(oy + nums[1]))
        elif letter == "L":
            p.lineTo(X(ox + nums[0]), Y(oy + nums[1]))
        elif letter == "C":
            p.curveTo(*(X(ox + v) if i % 2 == 0 else Y(oy + v) for i, v in enumerate(nums)))
        else:
            p.close()
    _paint_op(pen, p, op, (ox, oy))


def _paint_op(pen: Pen, p: Any, op: _Painted, at: tuple[float, float]) -> None:
    """Fill and stroke a shape's path as its op says: at once, or the stroke first when its paint
    order says so (then the fill covers the stroke's inner half)."""
    if op.stroke_first and op.stroke and (op.fill or op.gradient) and not pen.look.ink_saver:
        _paint(pen, p, op, at, None, op.stroke, None)
        _paint(pen, p, op, at, op.fill, None, op.gradient)
        return
    _paint(pen, p, op, at, op.fill, op.stroke, op.gradient)


def _colours(pen: Pen, fill: str | None, stroke: str | None, width: float) -> tuple[int, int]:
    c = pen.c
    if fill and pen.look.ink_saver:  # a light tint, its outline kept in the colour itself
        stroke, width = stroke or fill, width if stroke else OUTLINE
    if fill:
        c.setFillColor(pen.fill(fill))
    if stroke:
        c.setStrokeColor(pen.colour(stroke))
        c.setLineWidth(width * K)
    return (1 if fill else 0), (1 if stroke else 0)


def _paint(
    pen: Pen,
    p: Any,
    op: _Painted,
    at: tuple[float, float],
    fill: str | None,
    stroke: str | None,
    gradient: Gradient | None,
) -> None:
    """Fill a path (flat or with a gradient, clipped to it) and stroke it, each when given (dashed,
    with its corners and ends, as `op` says; the canvas is set back after, so the next shape starts
    from the defaults)."""
    c = pen.c
    mode = 0 if isinstance(op, PathOp) and op.even_odd else 1  # ReportLab: FILL_EVEN_ODD = 0, FILL_NON_ZERO = 1
    if gradient is not None:
        c.saveState()
        c.clipPath(p, stroke=0, fill=0, fillMode=mode)
        shade(pen, gradient, *at)
        c.restoreState()
        fill = None
    fill_on, stroke_on = _colours(pen, fill, stroke, op.stroke_width)
    if not (fill_on or stroke_on):
        return
    dash = op.dash if stroke_on else ()
    if dash:
        c.setDash([d * K for d in dash])
    join, cap = (JOIN[op.join], CAP[op.cap]) if stroke_on else (0, 0)
    if join:
        c.setLineJoin(join)
    if cap:
        c.setLineCap(cap)
    c.drawPath(p, stroke=stroke_on, fill=fill_on, fillMode=mode)
    if join:
        c.setLineJoin(0)
    if cap:
        c.setLineCap(0)
    if dash:
        c.setDash()


def shade(pen: Pen, g: Gradient, ox: float, oy: float) -> None:
    """Paint a gradient over the current clip (`opacity` over all of it, translucent colours through a
    soft mask: the caller restores the graphics state after it)."""
    c = pen.c
    colours = [pen.colour(stop[:7]) for _, stop in g.stops]  # opaque: a stop's alpha is the soft mask's
    where = [at for at, _ in g.stops]
    if g.opacity < 1:
        c.setFillAlpha(g.opacity)
    if g.kind == "radial":
        x, y, r = pen.X(ox + g.x1), pen.Y(oy + g.y1), max(g.r, 1e-3) * K
        if softmask.fades(g):
            softmask.fade(c, g, (x, y, r))
        c.radialGradient(x, y, r, colours, where, extend=True)
    else:
        x2, y2 = (g.x2, g.y2) if math.hypot(g.x2 - g.x1, g.y2 - g.y1) > 1e-6 else (g.x1, g.y1 + 1e-3)
        line = (pen.X(ox + g.x1), pen.Y(oy + g.y1), pen.X(ox + x2), pen.Y(oy + y2))
        if softmask.fades(g):
            softmask.fade(c, g, line)
        c.linearGradient(*line, colours, where, extend=True)
