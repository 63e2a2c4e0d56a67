"""A <text> element's attributes, read once: every card of a template has the same box, size and
look (only its text differs), so they are read once per distinct set of attributes, offset and
legibility floors, and kept. Read in the order the text box always read them, in two parts around
its font, so an element with several mistakes still names the same one first."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from mazmorra.contracts import RectOp
from mazmorra.layout.elements.attrs import choice, dash, el_colour, length, number, opt_colour
from mazmorra.layout.elements.paint import corners, opacity, paint, rect_op
from mazmorra.layout.text.ellipsis import ELLIPSIZE
from mazmorra.model.colour import with_alpha
from mazmorra.model.printspec import MinSizes

ALIGN = ("left", "center", "right", "justify")
VALIGN = ("top", "middle", "bottom")
SHAPES = ("rect", "round")  # round: the lines keep inside the ellipse the box holds, centred (a circular token)
ROLES = ("body", "title", "label")  # body: rules text, hyphenated where it helps; titles and labels never are

Key = tuple[tuple[tuple[str, str], ...], float, float, float, float, float]
_KEEP = 4096  # distinct text elements kept (a deck's templates have a few dozen)


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the box stands and how large its text is set: read before its font."""

    x: float
    y: float
    w: float
    h: float
    size: float
    role: str
    floor: float  # the smallest legible size for its role
    min_size: float


@dataclass(frozen=True, slots=True)
class Look:
    """How the box looks: read after its font (the text's own box: inside its padding)."""

    round_box: bool
    color: str
    leading: float
    align: str
    valign: str
    paragraph_spacing: float
    inside_color: str
    spacing: float
    frame: RectOp | None  # the box's own frame, drawn behind its text
    see: float  # opacity
    outline: str | None
    outline_width: float
    outline_dash: tuple[float, ...]
    x: float
    y: float
    w: float
    h: float
    cuts: str  # ellipsize=


_READ: dict[Key, tuple[Frame, Look]] = {}


def key(el: ET.Element, ox: float, oy: float, min_sizes: MinSizes) -> Key:
    """What a text element's frame and look are read from."""
    return (tuple(el.attrib.items()), ox, oy, min_sizes.body, min_sizes.title, min_sizes.label)


def known(k: Key) -> tuple[Frame, Look] | None:
    """The frame and look read before from the same attributes, if any."""
    return _READ.get(k)


def keep(k: Key, frame: Frame, look: Look) -> None:
    """Remember an element's frame and look (read without a mistake)."""
    if len(_READ) >= _KEEP:
        _READ.clear()
    _READ[k] = (frame, look)


def read_frame(el: ET.Element, ox: float, oy: float, min_sizes: MinSizes) -> Frame:
    """x y w h size role min-size: where the box stands and the sizes its text may take."""
    x, y, w, h = ox + length(el, "x"), oy + length(el, "y"), length(el, "w"), length(el, "h")
    if w <= 0 or h <= 0:
        raise ValueError(
            f"<text> box is {w:g}×{h:g} mm: width and height must be positive "
            "(is the component too small for its template?)"
        )
    size = number(el, "size", 9.0)
    role = choice(el, "role", ROLES)
    floor: float = getattr(min_sizes, role)
    if size < floor - 1e-9:
        raise ValueError(
            f"<text size='{size:g}'> is below the smallest legible size for {role} text ({floor:g} pt, "
            f"pack.yaml print: min_size: {role}:); enlarge it (and its box) or give the box another role"
        )
    return Frame(x, y, w, h, size, role, floor, max(number(el, "min-size", size), floor))


def read_look(el: ET.Element, at: Frame) -> Look:
    """shape color leading align valign paragraph-spacing number-color letter-spacing, the frame's
    paint, opacity, outline, padding and ellipsize."""
    round_box = choice(el, "shape", SHAPES) == "round"
    color = el_colour(el, "color", "#222222")
    leading = number(el, "leading", 1.18)
    align = "center" if round_box else choice(el, "align", ALIGN)
    valign = "middle" if round_box else choice(el, "valign", VALIGN)
    paragraph_spacing = float(el.get("paragraph-spacing", "0.5")) if _number_ok(el) else 0.5
    inside_color = el_colour(el, "number-color", "#222222")
    spacing = _letter_spacing(el)
    x, y, w, h = at.x, at.y, at.w, at.h
    frame = paint(el, (x, y, w, h))
    drawn = rect_op(frame, (x, y, w, h), *corners(el)) if frame.fill or frame.stroke or frame.gradient else None
    see = opacity(el)
    outline = opt_colour(el, "outline")
    if outline and see < 1:
        outline = with_alpha(outline, see)
    outline_width = length(el, "outline-width", 0.25) if outline else 0.0
    outline_dash = dash(el.get("outline-dash", "")) if outline else ()
    pad = length(el, "padding", 0)
    cuts = choice(el, "ellipsize", ELLIPSIZE)
    return Look(
        round_box,
        color,
        leading,
        align,
        valign,
        paragraph_spacing,
        inside_color,
        spacing,
        drawn,
        see,
        outline,
        outline_width,
        outline_dash,
        x + pad,
        y + pad,
        w - 2 * pad,
        h - 2 * pad,
        cuts,
    )


def _letter_spacing(el: ET.Element) -> float:
    """letter-spacing= in em (0.05: a twentieth of the font size after every letter), -0.2 to 1."""
    raw = el.get("letter-spacing")
    if raw is None:
        return 0.0
    try:
        value = float(raw.strip().removesuffix("em"))
    except ValueError:
        value = math.nan
    if not -0.2 <= value <= 1:
        raise ValueError(f'<text letter-spacing="{raw}">: in em, from -0.2 to 1 (0.05 adds a twentieth of the size)')
    return value


def _number_ok(el: ET.Element) -> bool:
    """paragraph-spacing= is a number of lines, 0 or more (checked here: `number` wants it positive)."""
    raw = el.get("paragraph-spacing")
    if raw is None:
        return False
    try:
        ok = 0 <= float(raw) <= 10
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"<text paragraph-spacing='{raw}'>: a number of lines between 0 and 10 (0.5 by default)")
    return True
