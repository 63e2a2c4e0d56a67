"""The template's shape elements beyond the first few: <ellipse>, <star> and <path>, each one
handler drawing one op, painted like every shape (layout/elements/paint.py)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from mazmorra.contracts import EllipseOp, Op, PathOp, PolyOp
from mazmorra.layout.elements.attrs import FaceContext, choice, length
from mazmorra.layout.elements.paint import PAINT, paint
from mazmorra.layout.elements.pathdata import bounds, parse_path

ELLIPSE_ATTRS = PAINT | {"cx", "cy", "rx", "ry"}
STAR_ATTRS = PAINT | {"cx", "cy", "r", "inner", "points", "angle"}
PATH_ATTRS = PAINT | {"d", "x", "y", "fill-rule"}


def ellipse(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<ellipse cx cy rx ry>."""
    cx, cy, rx, ry = ox + length(el, "cx"), oy + length(el, "cy"), length(el, "rx"), length(el, "ry")
    if rx <= 0 or ry <= 0:
        raise ValueError(f"<ellipse> radii are {rx:g} and {ry:g} mm: both must be positive")
    p = paint(el, (cx - rx, cy - ry, 2 * rx, 2 * ry))
    out.append(
        EllipseOp(cx, cy, rx, ry, p.fill, p.stroke, p.stroke_width, p.dash, p.gradient, p.join, p.cap, p.stroke_first)
    )


def star(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<star cx cy r [inner points angle]>: `points` tips (5) on a circle of radius r, the notches
    between them on one of radius `inner` (r × 0.45), the first tip `angle` degrees clockwise from
    straight up (0)."""
    cx, cy, r = ox + length(el, "cx"), oy + length(el, "cy"), length(el, "r")
    inner = length(el, "inner", r * 0.45)
    raw = el.get("points", "5")
    if not raw.isdigit() or not 2 <= int(raw) <= 100:
        raise ValueError(f'<star points="{raw}">: a whole number of tips, 2 to 100')
    if r <= 0 or not 0 < inner <= r:
        raise ValueError(f"<star r={r:g} inner={inner:g}>: r positive, inner between 0 and r")
    try:
        start = float(el.get("angle", "0").removesuffix("deg"))
    except ValueError:
        raise ValueError(f'<star angle="{el.get("angle")}">: degrees, e.g. 36') from None
    n = int(raw)
    pts = []
    for k in range(2 * n):
        a = math.radians(start + 180 * k / n)
        rad = r if k % 2 == 0 else inner
        pts.append((cx + rad * math.sin(a), cy - rad * math.cos(a)))
    p = paint(el, (cx - r, cy - r, 2 * r, 2 * r))
    out.append(PolyOp(tuple(pts), p.fill, p.stroke, p.stroke_width, p.dash, p.gradient, p.join, p.cap, p.stroke_first))


def path(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<path d [x y fill-rule]>: SVG path data in mm, moved by (x, y)."""
    d = el.get("d")
    if not d:
        raise ValueError('<path> needs d= (path data, e.g. d="M 0 0 L 10 0 L 5 8 Z")')
    commands = parse_path(d, ox + length(el, "x", 0), oy + length(el, "y", 0))
    x0, y0, x1, y1 = bounds(commands)
    p = paint(el, (x0, y0, x1 - x0, y1 - y0))
    even_odd = choice(el, "fill-rule", ("nonzero", "evenodd")) == "evenodd"
    out.append(
        PathOp(commands, p.fill, p.stroke, p.stroke_width, p.dash, p.gradient, even_odd, p.join, p.cap, p.stroke_first)
    )
