"""How a shape element is painted: its fill (a colour or a linear or radial gradient), its stroke,
dash and opacity, read from its attributes once for every shape element."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from mazmorra.contracts import Gradient, RectOp
from mazmorra.errors import did_you_mean
from mazmorra.layout.elements.attrs import choice, dash, length, opt_colour
from mazmorra.model.colour import alpha, over, parse, with_alpha
from mazmorra.model.units import parse_length

# Every stroked shape takes these: a fill (colour or gradient), a stroke, its width, dash, corners and
# ends, an opacity.
PAINT = frozenset({"fill", "stroke", "stroke-width", "dash", "opacity", "join", "cap", "paint-order"})
JOINS = ("miter", "round", "bevel")  # SVG's stroke-linejoin, Squib's join:; the first is the default
CAPS = ("butt", "round", "square")  # SVG's stroke-linecap, Squib's cap:
ORDERS = ("normal", "stroke")  # SVG's paint-order: stroke first, the fill over its inner half (Squib's stroke_first)
GRADIENTS = ("linear-gradient", "radial-gradient")
Radii = tuple[float, float, float, float]  # per corner, clockwise from the top-left (mm)
SIDES = {"to top": 0.0, "to right": 90.0, "to bottom": 180.0, "to left": 270.0}


@dataclass(frozen=True)
class Paint:
    fill: str | None
    stroke: str | None
    stroke_width: float
    dash: tuple[float, ...]
    gradient: Gradient | None
    join: str = JOINS[0]
    cap: str = CAPS[0]
    stroke_first: bool = False


def paint(el: ET.Element, box: tuple[float, float, float, float], stroke_default: str | None = None) -> Paint:
    """The paint of a shape whose bounds are `box` (x, y, w, h in mm, where a gradient spans)."""
    op = opacity(el)
    raw = el.get("fill", "")
    gradient = None
    fill: str | None = None
    if raw.strip().lower().startswith(GRADIENTS):
        gradient = _gradient(el, raw, box, op)
    else:
        fill = opt_colour(el, "fill")
    stroke = opt_colour(el, "stroke", stroke_default)
    if op < 1:
        fill = with_alpha(fill, op) if fill else None
        stroke = with_alpha(stroke, op) if stroke else None
    width, dashes = length(el, "stroke-width", 0.3), dash(el.get("dash", ""))
    first = el.tag != "line" and choice(el, "paint-order", ORDERS) == "stroke"
    return Paint(fill, stroke, width, dashes, gradient, choice(el, "join", JOINS), choice(el, "cap", CAPS), first)


def rect_op(p: Paint, box: tuple[float, float, float, float], radius: float, radii: Radii | None) -> RectOp:
    """A rectangle (a <rect>, a text box's frame) in this paint: x, y, w, h in mm, its corners' radii."""
    x, y, w, h = box
    return RectOp(
        x, y, w, h, p.fill, p.stroke, p.stroke_width, radius, p.dash, p.gradient, radii, p.join, p.cap, p.stroke_first
    )


def corners(el: ET.Element) -> tuple[float, Radii | None]:
    """r= : one corner radius, or four, clockwise from the top-left (CSS's border-radius order)."""
    parts = el.get("r", "0").replace(",", " ").split()
    if len(parts) == 1:
        return length(el, "r", 0), None
    if len(parts) != 4:
        raise ValueError(
            f'<{el.tag} r="{el.get("r")}">: one radius, or four: top-left top-right bottom-right bottom-left'
        )
    tl, tr, br, bl = (parse_length(v) for v in parts)
    return 0.0, (tl, tr, br, bl)


def opacity(el: ET.Element) -> float:
    """opacity= : 0 (invisible) to 1 (solid, the default), or a percentage."""
    raw = el.get("opacity")
    if raw is None:
        return 1.0
    text = raw.strip()
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise ValueError(f'<{el.tag} opacity="{raw}">: from 0 (invisible) to 1 (solid), or 0% to 100%')
    return value


def _gradient(el: ET.Element, raw: str, box: tuple[float, float, float, float], op: float) -> Gradient:
    where = f'<{el.tag} fill="{raw}">'
    name, _, rest = raw.strip().partition("(")
    kind = name.strip().lower().removesuffix("-gradient")
    if not rest.rstrip().endswith(")"):
        raise ValueError(f"{where}: close the bracket, e.g. linear-gradient(90deg, navy, white)")
    args = _split(rest.rstrip()[:-1])
    angle = 180.0  # CSS: top to bottom by default
    if kind == "linear" and args and _is_direction(args[0]):
        angle = _direction(where, args.pop(0))
    if len(args) < 2:
        raise ValueError(f"{where}: a gradient needs at least two colours, e.g. {name.strip()}(navy, white)")
    stops = _stops(where, args)
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    if kind == "radial":
        return Gradient("radial", stops, cx, cy, r=math.hypot(w, h) / 2, opacity=op)
    a = math.radians(angle)
    dx, dy = math.sin(a), -math.cos(a)  # y grows downwards
    half = (abs(w * dx) + abs(h * dy)) / 2  # CSS: the gradient line reaches the far corners
    return Gradient("linear", stops, cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half, opacity=op)


def _split(body: str) -> list[str]:
    """Comma-separated arguments, commas inside brackets (rgb(1, 2, 3)) kept."""
    out, depth, cur = [], 0, ""
    for ch in body:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return [a for a in out if a]


def _is_direction(arg: str) -> bool:
    a = arg.lower()
    return a.startswith("to ") or a.endswith("deg") or a.replace(".", "", 1).lstrip("-").isdigit()


def _direction(where: str, arg: str) -> float:
    a = " ".join(arg.lower().split())
    if a in SIDES:
        return SIDES[a]
    if a.startswith("to "):
        raise ValueError(
            f"{where}: '{arg}': use to top, to right, to bottom, to left or an angle (90deg){did_you_mean(a, SIDES)}"
        )
    try:
        return float(a.removesuffix("deg"))
    except ValueError:
        raise ValueError(f"{where}: '{arg}' is not an angle: write degrees, e.g. 90deg") from None


def _stops(where: str, args: list[str]) -> tuple[tuple[float, str], ...]:
    """Colours with optional positions (30%); unplaced ones spread evenly between their neighbours."""
    raw: list[tuple[float | None, str]] = []
    for arg in args:
        head, _, tail = arg.rpartition(" ")
        at: float | None = None
        if head and tail.endswith("%") and ")" not in tail:
            try:
                at = float(tail[:-1]) / 100
            except ValueError:
                raise ValueError(f"{where}: '{tail}' is not a position: write a percentage, e.g. 30%") from None
            arg = head
        try:
            c = parse(arg)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        raw.append((at, c))
    places = [a for a, _ in raw]
    places[0] = 0.0 if places[0] is None else places[0]
    places[-1] = 1.0 if places[-1] is None else places[-1]
    i = 0
    while i < len(places):
        if places[i] is None:
            j = i
            while places[j] is None:
                j += 1
            lo, hi = places[i - 1], places[j]
            assert lo is not None and hi is not None
            for k in range(i, j):
                places[k] = lo + (hi - lo) * (k - i + 1) / (j - i + 1)
            i = j
        i += 1
    done = [min(max(p or 0.0, 0.0), 1.0) for p in places]
    for k in range(1, len(done)):  # CSS: a stop placed before an earlier one moves up to it
        done[k] = max(done[k], done[k - 1])
    return tuple(zip(done, (c for _, c in raw), strict=True))


def gradient_at(g: Gradient, x: float, y: float) -> str:
    """The colour a gradient paints at (x, y) (for the contrast check), translucent where it fades."""
    if g.kind == "radial":
        t = math.hypot(x - g.x1, y - g.y1) / g.r if g.r > 0 else 1.0
    else:
        dx, dy = g.x2 - g.x1, g.y2 - g.y1
        t = ((x - g.x1) * dx + (y - g.y1) * dy) / ((dx * dx + dy * dy) or 1.0)
    t = min(max(t, 0.0), 1.0)
    (a0, c0), (a1, c1) = g.stops[0], g.stops[0]
    for a1, c1 in g.stops:
        if a1 >= t:
            break
        a0, c0 = a1, c1
    k = 0.0 if a1 <= a0 else (t - a0) / (a1 - a0)
    k = min(max(k, 0.0), 1.0)
    mixed = over(with_alpha(c1[:7], k), c0[:7])  # colour and opacity each shade on their own, as the PDF's
    seen = (alpha(c0) * (1 - k) + alpha(c1) * k) * g.opacity  # gradient and its soft mask do
    return mixed if seen >= 1 else with_alpha(mixed, seen)
