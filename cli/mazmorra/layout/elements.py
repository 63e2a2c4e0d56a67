"""The template language: rendered template XML -> absolute drawing ops, element by element.

`ELEMENTS` maps each tag to the attributes it takes and its handler; a new element is one entry
here (plus, for a new kind of op, one draw method in render.py). Every element's attributes are
checked, so a misspelt one is a located problem with a suggestion, never silently ignored.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from mazmorra.contracts import CircleOp, Face, IconOp, ImageOp, LineOp, Op, PolyOp, RectOp
from mazmorra.errors import Problem, did_you_mean
from mazmorra.layout.attrs import (
    AT,
    ElementError,
    FaceContext,
    check_attrs,
    colour,
    dash,
    length,
    located,
    opt_colour,
)
from mazmorra.layout.grid import GRID_ATTRS, grid_element
from mazmorra.layout.textbox import TEXT_ATTRS, text_element
from mazmorra.units import parse_length

_MARKER = re.compile(AT + r'="([0-9:]+)"')

Handler = Callable[[ET.Element, FaceContext, float, float, list[Op]], None]
SHAPE = frozenset({"fill", "stroke", "stroke-width"})


@dataclass(frozen=True)
class Element:
    attrs: frozenset[str]
    handler: Handler
    checks_own: bool = False  # the handler checks attributes itself (and its children's)


def _g(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<g x y>: its children moved by (x, y)."""
    elements(el, ctx, ox + length(el, "x", 0), oy + length(el, "y", 0), out)


def _rect(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    out.append(
        RectOp(
            ox + length(el, "x", 0),
            oy + length(el, "y", 0),
            length(el, "w"),
            length(el, "h"),
            opt_colour(el, "fill"),
            opt_colour(el, "stroke"),
            length(el, "stroke-width", 0.3),
            length(el, "r", 0),
        )
    )


def _circle(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    out.append(
        CircleOp(
            ox + length(el, "cx"),
            oy + length(el, "cy"),
            length(el, "r"),
            opt_colour(el, "fill"),
            opt_colour(el, "stroke"),
            length(el, "stroke-width", 0.3),
        )
    )


def _line(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    out.append(
        LineOp(
            ox + length(el, "x1"),
            oy + length(el, "y1"),
            ox + length(el, "x2"),
            oy + length(el, "y2"),
            opt_colour(el, "stroke", "#000000") or "#000000",
            length(el, "stroke-width", 0.3),
            dash(el.get("dash", "")),
        )
    )


def _polygon(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    nums = [parse_length(v) for v in el.get("points", "").replace(",", " ").split()]
    if len(nums) < 6 or len(nums) % 2:
        raise ValueError("<polygon points=> needs at least three x,y pairs")
    pts = tuple((ox + nums[i], oy + nums[i + 1]) for i in range(0, len(nums), 2))
    out.append(PolyOp(pts, opt_colour(el, "fill"), opt_colour(el, "stroke"), length(el, "stroke-width", 0.3)))


def _icon(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    name = el.get("name", "")
    if name not in ctx.icons:
        raise ValueError(f"<icon name='{name}'>: unknown icon{did_you_mean(name, ctx.icons.names())}")
    out.append(IconOp(name, ox + length(el, "x"), oy + length(el, "y"), length(el, "size")))


def _image(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """<image src field x y w h>: a picture inside the pack, checked before it is used."""
    from mazmorra.images import ImageProblem, check

    src = el.get("src", "")
    fld = el.get("field")
    if ctx.pack_root is None:
        raise ValueError("<image> needs a pack")
    root = ctx.pack_root.resolve()
    path = (root / src).resolve()
    problem = None
    if not path.is_relative_to(root):
        problem = f"image '{src}' is outside the pack folder"
    elif not path.is_file():
        problem = f"image '{src}' does not exist"
    else:
        try:
            check(path)
        except ImageProblem as exc:
            problem = f"image '{src}': {exc}"
    if problem:
        ctx.problems.append(Problem("image.invalid", problem, ctx.text_loc(fld), ctx.component, fld, lang=ctx.lang))
        return
    out.append(ImageOp(str(path), ox + length(el, "x"), oy + length(el, "y"), length(el, "w"), length(el, "h")))


ELEMENTS: dict[str, Element] = {
    "g": Element(frozenset({"x", "y"}), _g),
    "rect": Element(SHAPE | {"x", "y", "w", "h", "r"}, _rect),
    "circle": Element(SHAPE | {"cx", "cy", "r"}, _circle),
    "line": Element(frozenset({"x1", "y1", "x2", "y2", "stroke", "stroke-width", "dash"}), _line),
    "polygon": Element(SHAPE | {"points"}, _polygon),
    "icon": Element(frozenset({"name", "x", "y", "size"}), _icon),
    "image": Element(frozenset({"src", "field", "x", "y", "w", "h"}), _image),
    "text": Element(TEXT_ATTRS, text_element),
    "grid": Element(GRID_ATTRS, grid_element, checks_own=True),
}
ROOT_ATTRS = frozenset({"background"})


def elements(parent: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    """Every child element of `parent`, in document order, at offset (ox, oy) mm."""
    for el in parent:
        with located(el):
            spec = ELEMENTS.get(el.tag)
            if spec is None:
                raise ValueError(
                    f"unknown element <{el.tag}>{did_you_mean(el.tag, ELEMENTS)} (elements: "
                    f"{', '.join(sorted(ELEMENTS))})"
                )
            if not spec.checks_own:
                check_attrs(el, spec.attrs)
            spec.handler(el, ctx, ox, oy, out)


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
        bg = root.get("background")
        background = colour(bg) if bg else None
    out: list[Op] = []
    elements(root, ctx, 0.0, 0.0, out)
    return Face(ctx.component, side, w, h, bleed, tuple(out), background, shape)
