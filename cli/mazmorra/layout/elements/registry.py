"""The template language: rendered template XML -> absolute drawing ops, element by element.

`ELEMENTS` maps each tag to the attributes it takes and its handler; a new element is one entry
here (plus, for a new kind of op, one draw method in render/draw/). Every element's attributes are
checked, so a misspelt one is a located problem with a suggestion, never silently ignored.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from mazmorra.contracts import (
    CircleOp,
    EllipseOp,
    Face,
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
from mazmorra.errors import Problem, did_you_mean
from mazmorra.layout.elements import figures
from mazmorra.layout.elements.attrs import (
    AT,
    ElementError,
    FaceContext,
    check_attrs,
    el_colour,
    length,
    located,
    opt_colour,
    relocated,
)
from mazmorra.layout.elements.gridelement import GRID_ATTRS, grid_element
from mazmorra.layout.elements.paint import PAINT, corners, opacity, paint, rect_op
from mazmorra.layout.elements.pathdata import bounds as path_bounds
from mazmorra.layout.text.textbox import TEXT_ATTRS, text_element
from mazmorra.layout.versionstamp import ATTRS as STAMP_ATTRS
from mazmorra.layout.versionstamp import stamp_element
from mazmorra.model.units import parse_length
from mazmorra.support.reuse import ByIdentity

_MARKER = re.compile(AT + r'="([0-9:]+)"')

Handler = Callable[[ET.Element, FaceContext, float, float, list[Op]], None]
TRANSFORM = frozenset({"rotate", "origin"})  # every element: turned `rotate` degrees clockwise about `origin`
COMMON = TRANSFORM | {"overlap"}  # overlap="ok": the element may overlap others (the print checks let it)


@dataclass(frozen=True)
class Element:
    attrs: frozenset[str]
    handler: Handler
    checks_own: bool = False  # the handler checks attributes itself (and its children's)


def _g(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<g x y>: its children moved by (x, y); with overlap="ok", each may overlap what is around it."""
    layered = el.get("overlap") == "ok"
    ctx.overlapping += layered
    try:
        elements(el, ctx, ox + length(el, "x", 0), oy + length(el, "y", 0), out)
    finally:
        ctx.overlapping -= layered


def _rect(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<rect x y w h [r]>: `r` one radius, or four (top-left, top-right, bottom-right, bottom-left)."""
    x, y, w, h = ox + length(el, "x", 0), oy + length(el, "y", 0), length(el, "w"), length(el, "h")
    out.append(rect_op(paint(el, (x, y, w, h)), (x, y, w, h), *corners(el)))


def _circle(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    cx, cy, r = ox + length(el, "cx"), oy + length(el, "cy"), length(el, "r")
    p = paint(el, (cx - r, cy - r, 2 * r, 2 * r))
    out.append(CircleOp(cx, cy, r, p.fill, p.stroke, p.stroke_width, p.dash, p.gradient, p.join, p.cap, p.stroke_first))


def _line(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    x1, y1, x2, y2 = ox + length(el, "x1"), oy + length(el, "y1"), ox + length(el, "x2"), oy + length(el, "y2")
    p = paint(el, (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)), "#000000")
    out.append(LineOp(x1, y1, x2, y2, p.stroke or "#000000", p.stroke_width, p.dash, p.cap))


def _polygon(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    nums = [parse_length(v) for v in el.get("points", "").replace(",", " ").split()]
    if len(nums) < 6 or len(nums) % 2:
        raise ValueError("<polygon points=> needs at least three x,y pairs")
    pts = tuple((ox + nums[i], oy + nums[i + 1]) for i in range(0, len(nums), 2))
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    p = paint(el, (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    out.append(PolyOp(pts, p.fill, p.stroke, p.stroke_width, p.dash, p.gradient, p.join, p.cap, p.stroke_first))


def _icon(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    name = el.get("name", "")
    if name not in ctx.icons:
        raise ValueError(f"<icon name='{name}'>: unknown icon{did_you_mean(name, ctx.icons.names())}")
    out.append(
        IconOp(
            name, ox + length(el, "x"), oy + length(el, "y"), length(el, "size"), opt_colour(el, "color"), opacity(el)
        )
    )


def _image(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<image src field x y w h>: a picture inside the pack, checked before it is used."""
    from mazmorra.assets.images import problem_in_pack

    fld = el.get("field")
    if ctx.pack_root is None:
        raise ValueError("<image> needs a pack")
    path, problem = problem_in_pack(ctx.pack_root, el.get("src", ""))
    if problem:
        ctx.problems.append(Problem("image.invalid", problem, ctx.text_loc(fld), ctx.component, fld, lang=ctx.lang))
        return
    out.append(
        ImageOp(
            str(path),
            ox + length(el, "x"),
            oy + length(el, "y"),
            length(el, "w"),
            length(el, "h"),
            length(el, "r", 0),
            opt_colour(el, "color"),
            opacity(el),
            path.suffix.lower() == ".svg",
        )
    )


ELEMENTS: dict[str, Element] = {
    "g": Element(frozenset({"x", "y"}), _g),
    "rect": Element(PAINT | {"x", "y", "w", "h", "r"}, _rect),
    "circle": Element(PAINT | {"cx", "cy", "r"}, _circle),
    "ellipse": Element(figures.ELLIPSE_ATTRS, figures.ellipse),
    "star": Element(figures.STAR_ATTRS, figures.star),
    "path": Element(figures.PATH_ATTRS, figures.path),
    "line": Element(frozenset({"x1", "y1", "x2", "y2", "stroke", "stroke-width", "dash", "opacity", "cap"}), _line),
    "polygon": Element(PAINT | {"points"}, _polygon),
    "icon": Element(frozenset({"name", "x", "y", "size", "color", "opacity"}), _icon),
    "image": Element(frozenset({"src", "field", "x", "y", "w", "h", "r", "color", "opacity"}), _image),
    "text": Element(TEXT_ATTRS, text_element),
    "grid": Element(GRID_ATTRS, grid_element, checks_own=True),
    "stamp": Element(STAMP_ATTRS, stamp_element),  # where a playtest build's version stamp goes
}
ROOT_ATTRS = frozenset({"background", "safe-margin"})  # safe-margin: a small piece's own (the pack's otherwise)


def elements(parent: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """Every child element of `parent`, in document order, at offset (ox, oy) mm."""
    for el in parent:
        try:  # as `with located(el):`, without a context manager per element of every face
            _element(el, ctx, ox, oy, out)
        except ValueError as exc:
            raise relocated(exc, el) from None


_ALLOWED: dict[frozenset[str], frozenset[str]] = {}  # an element's own attributes -> with the common ones


# Shapes and icons drawn from their attributes alone (and the pack's icons): the same element at the
# same offset is the same ops on every face of a template (its frame, its fixed marks), made once.
# A made element's ops are shared by every face that draws it; its owner is still claimed per face.
PLAIN = frozenset({"rect", "circle", "ellipse", "star", "path", "line", "polygon", "icon"})
_MADE: ByIdentity[dict[tuple[object, ...], tuple[Op, ...]]] = ByIdentity(8)  # by the pack's icons (a process may
# lay out several packs: the tests, a preview)
_MADE_MOST = 4096  # elements kept per pack's icons: a template whose shapes move with the data keeps only the last


def _element(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """One element at offset (ox, oy) mm: checked, drawn, and its ops claimed."""
    if el.tag in PLAIN and not len(el):
        made = _MADE.get(ctx.icons)
        if made is None:
            made = _MADE.put(ctx.icons, {})
        k = (el.tag, ox, oy, *el.attrib.items())
        ops = made.get(k)
        start = len(out)
        if ops is None:
            _drawn(el, ctx, ox, oy, out)
            if len(made) >= _MADE_MOST:
                made.clear()
            made[k] = tuple(out[start:])
        else:
            out.extend(ops)
        ctx.own(out, start, el)
        return
    start = len(out)
    _drawn(el, ctx, ox, oy, out)
    if el.tag != "g" or el.get("rotate") is not None:  # a plain <g>'s children claim their own ops
        ctx.own(out, start, el)


def _drawn(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """One element's ops, its attributes checked first."""
    spec = ELEMENTS.get(el.tag)
    if spec is None:
        raise ValueError(
            f"unknown element <{el.tag}>{did_you_mean(el.tag, ELEMENTS)} (elements: {', '.join(sorted(ELEMENTS))})"
        )
    if not spec.checks_own:
        allowed = _ALLOWED.get(spec.attrs)
        if allowed is None:
            allowed = _ALLOWED[spec.attrs] = spec.attrs | COMMON
        check_attrs(el, allowed)
    if el.get("overlap", "ok") != "ok":
        raise ValueError(f"<{el.tag} overlap='{el.get('overlap')}'>: the only value is \"ok\"")
    if el.get("rotate") is None:
        spec.handler(el, ctx, ox, oy, out)
    else:
        inner: list[Op] = []
        spec.handler(el, ctx, ox, oy, inner)
        cx, cy = _pivot(el, ox, oy, inner)
        out.append(RotateOp(_angle(el), cx, cy, tuple(inner)))


def _angle(el: ET.Element) -> float:
    raw = el.get("rotate", "0").removesuffix("deg")
    try:
        angle = float(raw)
    except ValueError:
        raise ValueError(f"<{el.tag} rotate='{el.get('rotate')}'>: degrees, e.g. 90 or -12.5") from None
    if not -360 <= angle <= 360:
        raise ValueError(f"<{el.tag} rotate='{raw}'>: degrees between -360 and 360")
    return angle


def _pivot(el: ET.Element, ox: float, oy: float, ops: list[Op]) -> tuple[float, float]:
    """The point an element turns about: `origin="x,y"`, else the centre of its box (a <g>: its own x, y)."""
    origin = el.get("origin")
    if origin is not None:
        parts = origin.replace(",", " ").split()
        if len(parts) != 2:
            raise ValueError(f"<{el.tag} origin='{origin}'>: a point x,y in mm, e.g. origin=\"10,20\"")
        return ox + parse_length(parts[0]), oy + parse_length(parts[1])
    if el.tag == "g":
        return ox + length(el, "x", 0), oy + length(el, "y", 0)
    if el.get("w") is not None and el.get("h") is not None:
        return ox + length(el, "x", 0) + length(el, "w") / 2, oy + length(el, "y", 0) + length(el, "h") / 2
    if el.get("size") is not None:
        return ox + length(el, "x", 0) + length(el, "size") / 2, oy + length(el, "y", 0) + length(el, "size") / 2
    if el.get("cx") is not None:
        return ox + length(el, "cx"), oy + length(el, "cy")
    xs, ys = _extent(ops)
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2) if xs else (ox, oy)


def _extent(ops: list[Op] | tuple[Op, ...]) -> tuple[list[float], list[float]]:
    """The x and y coordinates an element's ops reach (for the centre of lines, polygons and grids)."""
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        if isinstance(op, (RectOp, ImageOp)):
            xs += [op.x, op.x + op.w]
            ys += [op.y, op.y + op.h]
        elif isinstance(op, CircleOp):
            xs += [op.cx - op.r, op.cx + op.r]
            ys += [op.cy - op.r, op.cy + op.r]
        elif isinstance(op, EllipseOp):
            xs += [op.cx - op.rx, op.cx + op.rx]
            ys += [op.cy - op.ry, op.cy + op.ry]
        elif isinstance(op, PathOp):
            x0, y0, x1, y1 = path_bounds(op.commands)
            xs += [x0, x1]
            ys += [y0, y1]
        elif isinstance(op, LineOp):
            xs += [op.x1, op.x2]
            ys += [op.y1, op.y2]
        elif isinstance(op, PolyOp):
            xs += [x for x, _ in op.points]
            ys += [y for _, y in op.points]
        elif isinstance(op, IconOp):
            xs += [op.x, op.x + op.size]
            ys += [op.y, op.y + op.size]
        elif isinstance(op, TextOp):
            xs.append(op.x)
            ys.append(op.y)
        elif isinstance(op, RotateOp):
            more = _extent(op.ops)
            xs += more[0]
            ys += more[1]
    return xs, ys


def parse_face(xml: str, ctx: FaceContext, side: str, w: float, h: float, bleed: float, shape: str) -> Face:
    """A rendered template as a Face; raises ElementError (a ValueError) on a bad element."""
    if "<!DOCTYPE" in xml or "<!ENTITY" in xml:
        raise ValueError("a template may not declare a DOCTYPE or entities")
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:  # located at the last element the template opened before the fault
        line, col = exc.position
        offset = sum(len(x) + 1 for x in xml.split("\n")[: line - 1]) + col
        marker = _MARKER.findall(xml[:offset])
        raise ElementError(f"template produced malformed XML ({exc})", marker[-1] if marker else None) from None
    with located(root):
        check_attrs(root, ROOT_ATTRS)
        ctx.root_at = root.get(AT)
        background = el_colour(root, "background", "") if root.get("background") else None
        if root.get("safe-margin") is not None:
            ctx.safe_margin = length(root, "safe-margin")
    out: list[Op] = []
    ctx.top = out
    elements(root, ctx, 0.0, 0.0, out)
    return Face(ctx.component, side, w, h, bleed, tuple(out), background, shape, tuple(ctx.outlines), ctx.safe_margin)
