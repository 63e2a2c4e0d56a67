"""Stage 4, lay out: a Jinja template per kind -> mm-based elements -> fitted, absolute drawing ops.

Templates are XML after Jinja renders them (autoescaped, sandboxed): a designer writes shapes,
framed text boxes, icons and images in millimetres from the trim's top-left corner.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from reportlab.lib import colors

from mazmorra import fonts
from mazmorra.errors import Loc, Problem, rel
from mazmorra.icons import IconSet
from mazmorra.text import IconPart, Style, TextPart, fit, number_label
from mazmorra.units import PT_PER_MM, parse_length

# ---------------------------------------------------------------- drawing ops (all lengths mm)


@dataclass(frozen=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3
    radius: float = 0.0


@dataclass(frozen=True)
class CircleOp:
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3


@dataclass(frozen=True)
class LineOp:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    stroke_width: float = 0.3
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class PolyOp:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3


@dataclass(frozen=True)
class TextOp:
    """One run of text on a baseline."""

    x: float
    y: float  # baseline
    text: str
    font: str
    size: float  # pt
    color: str


@dataclass(frozen=True)
class IconOp:
    name: str
    x: float
    y: float  # top
    size: float


@dataclass(frozen=True)
class ImageOp:
    path: str
    x: float
    y: float
    w: float
    h: float


Op = RectOp | CircleOp | LineOp | PolyOp | TextOp | IconOp | ImageOp


@dataclass(frozen=True)
class Face:
    """One side of one component, laid out: trim size, bleed and drawing ops."""

    component: str
    side: str
    w: float
    h: float
    bleed: float
    ops: tuple[Op, ...]
    background: str | None = None
    shape: str = "rect"


# ---------------------------------------------------------------- templates


class TemplateError(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def roman(n: int) -> str:
    vals = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


def make_env(search: list[Path]) -> SandboxedEnvironment:
    """The one Jinja environment of a build: sandboxed, autoescaped XML, strict about undefined names."""
    env = SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([str(p) for p in search]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        cache_size=400,
    )
    env.filters["roman"] = roman
    env.filters["mm"] = lambda v: f"{float(v):.3f}"
    return env


def template_search_path(pack_root: Path | None, shared: Path) -> list[Path]:
    dirs = []
    if pack_root is not None and (pack_root / "templates").is_dir():
        dirs.append(pack_root / "templates")
    dirs.append(shared)
    return dirs


def get_template(env: SandboxedEnvironment, name: str) -> jinja2.Template:
    try:
        return env.get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        loc = Loc(rel(exc.filename or name), exc.lineno or 0, 1)
        raise TemplateError(Problem("template.syntax", f"template error: {exc.message}", loc)) from None
    except jinja2.TemplateNotFound:
        raise TemplateError(Problem("template.missing", f"template '{name}' not found", None)) from None


# ---------------------------------------------------------------- element parsing


@lru_cache(maxsize=512)
def _colour(value: str) -> str:
    try:
        c = colors.toColor(value)
    except (ValueError, TypeError):
        raise ValueError(f"unknown colour {value!r}") from None
    return "#" + c.hexval()[2:].rjust(6, "0")


def _len(el: ET.Element, name: str, default: float | None = None) -> float:
    raw = el.get(name)
    if raw is None:
        if default is None:
            raise ValueError(f"<{el.tag}> needs {name}=")
        return default
    return parse_length(raw)


def _num(el: ET.Element, name: str, default: float) -> float:
    raw = el.get(name)
    return default if raw is None else float(raw)


def _opt_colour(el: ET.Element, name: str, default: str | None = None) -> str | None:
    raw = el.get(name, default)
    if raw is None or raw == "none":
        return None
    return _colour(raw)


@dataclass
class FaceContext:
    """What element parsing needs besides the element: where text came from, for problems."""

    component: str
    lang: str
    icons: IconSet
    pack_root: Path | None
    text_loc: Callable[[str | None], Loc | None]
    problems: list[Problem] = field(default_factory=list)


def _elements(root: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    for el in root:
        tag = el.tag
        if tag == "g":
            _elements(el, ctx, ox + _len(el, "x", 0), oy + _len(el, "y", 0), out)
        elif tag == "rect":
            out.append(RectOp(ox + _len(el, "x", 0), oy + _len(el, "y", 0), _len(el, "w"), _len(el, "h"),
                              _opt_colour(el, "fill"), _opt_colour(el, "stroke"), _len(el, "stroke-width", 0.3),
                              _len(el, "r", 0)))
        elif tag == "circle":
            out.append(CircleOp(ox + _len(el, "cx"), oy + _len(el, "cy"), _len(el, "r"), _opt_colour(el, "fill"),
                                _opt_colour(el, "stroke"), _len(el, "stroke-width", 0.3)))
        elif tag == "line":
            dash = tuple(float(d) for d in el.get("dash", "").replace(",", " ").split())
            out.append(LineOp(ox + _len(el, "x1"), oy + _len(el, "y1"), ox + _len(el, "x2"), oy + _len(el, "y2"),
                              _opt_colour(el, "stroke", "#000000") or "#000000", _len(el, "stroke-width", 0.3), dash))
        elif tag == "polygon":
            nums = [parse_length(v) for v in el.get("points", "").replace(",", " ").split()]
            if len(nums) < 6 or len(nums) % 2:
                raise ValueError("<polygon points=> needs at least three x,y pairs")
            pts = tuple((ox + nums[i], oy + nums[i + 1]) for i in range(0, len(nums), 2))
            out.append(PolyOp(pts, _opt_colour(el, "fill"), _opt_colour(el, "stroke"), _len(el, "stroke-width", 0.3)))
        elif tag == "icon":
            name = el.get("name", "")
            if name not in ctx.icons:
                raise ValueError(f"<icon name='{name}'>: unknown icon")
            out.append(IconOp(name, ox + _len(el, "x"), oy + _len(el, "y"), _len(el, "size")))
        elif tag == "image":
            out.append(_image(el, ctx, ox, oy))
        elif tag == "text":
            _text(el, ctx, ox, oy, out)
        else:
            raise ValueError(f"unknown element <{tag}>")


def _image(el: ET.Element, ctx: FaceContext, ox: float, oy: float) -> ImageOp:
    src = el.get("src", "")
    if ctx.pack_root is None:
        raise ValueError("<image> needs a pack")
    root = ctx.pack_root.resolve()
    path = (root / src).resolve()
    if not path.is_relative_to(root):
        raise ValueError(f"<image src='{src}'> leaves the pack folder")
    if not path.is_file():
        raise ValueError(f"<image src='{src}'> does not exist")
    return ImageOp(str(path), ox + _len(el, "x"), oy + _len(el, "y"), _len(el, "w"), _len(el, "h"))


def _text(el: ET.Element, ctx: FaceContext, ox: float, oy: float, out: list[Op]) -> None:
    content = (el.text or "").strip()
    if not content:
        return
    x, y, w, h = ox + _len(el, "x"), oy + _len(el, "y"), _len(el, "w"), _len(el, "h")
    size = _num(el, "size", 9.0)
    min_size = _num(el, "min-size", size)
    font = el.get("font", fonts.DEFAULT)
    if font not in fonts.FONTS:
        raise ValueError(f"<text font='{font}'>: unknown font (known: {', '.join(fonts.FONTS)})")
    style = Style(font=font, bold_font=fonts.BOLD_OF[font], color=_colour(el.get("color", "#222222")),
                  leading=_num(el, "leading", 1.18), align=el.get("align", "left"), valign=el.get("valign", "top"))
    fld = el.get("field")
    for part_font, chars in ((font, content),):
        missing = fonts.missing_chars(chars, part_font)
        if missing:
            ctx.problems.append(Problem("text.missing-glyph",
                                        f"font '{part_font}' has no glyph for {' '.join(sorted(missing))!s}",
                                        ctx.text_loc(fld), ctx.component, fld, lang=ctx.lang))
    wpt, hpt = w * PT_PER_MM, h * PT_PER_MM
    fitted = fit(content, wpt, hpt, style, size, min_size, ctx.lang)
    if not fitted.fits:
        ctx.problems.append(Problem(
            "text.overflow",
            f"text does not fit its {w:.1f}×{h:.1f} mm box even at {fitted.size:g} pt "
            f"(overflows by {fitted.overflow / PT_PER_MM:.1f} mm); shorten it or enlarge the box",
            ctx.text_loc(fld), ctx.component, fld, lang=ctx.lang))
    s = fitted.size
    line_h = s * style.leading / PT_PER_MM
    total = len(fitted.lines) * line_h
    top = y + {"top": 0.0, "middle": (h - total) / 2, "bottom": h - total}.get(style.valign, 0.0)
    ascent = s * 0.78 / PT_PER_MM
    space_pt = fonts.width(" ", style.font, s)
    for i, line in enumerate(fitted.lines):
        lw = line.width / PT_PER_MM
        lx = x + {"left": 0.0, "center": (w - lw) / 2, "right": w - lw}.get(style.align, 0.0)
        base = top + i * line_h + ascent + (line_h - s / PT_PER_MM) / 2
        run: list[str] = []  # words sharing one font, drawn as one string so PDF text extracts as written
        run_font, run_x, run_end = "", 0.0, 0.0
        for placed in line.items + (None,):
            part = placed.part if placed is not None else None
            pfont = (style.bold_font if part.bold else style.font) if isinstance(part, TextPart) else ""
            if run and (pfont != run_font or placed is None or placed.x - run_end > space_pt * 1.5):
                out.append(TextOp(lx + run_x / PT_PER_MM, base, "".join(run), run_font, s, style.color))
                run = []
            if placed is None:
                break
            px = lx + placed.x / PT_PER_MM
            if isinstance(part, TextPart):
                if not run:
                    run_font, run_x = pfont, placed.x
                elif placed.x - run_end > 1e-6:
                    run.append(" ")
                run.append(part.text)
                run_end = placed.x + placed.width
            elif isinstance(part, IconPart):
                isz = s * 1.15 / PT_PER_MM
                if part.name not in ctx.icons:
                    ctx.problems.append(Problem("text.unknown-icon", f"unknown icon '{{{part.name}}}'",
                                                ctx.text_loc(fld), ctx.component, fld, lang=ctx.lang))
                else:
                    out.append(IconOp(part.name, px, base - isz * 0.82, isz))
                if part.number is not None:
                    out.append(TextOp(px + isz + s * 0.1 / PT_PER_MM, base, number_label(part),
                                      style.bold_font, s, style.color))


def parse_face(xml: str, ctx: FaceContext, side: str, w: float, h: float, bleed: float, shape: str) -> Face:
    """Parse a rendered template into a Face; raises ValueError on a bad element."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise ValueError(f"template produced malformed XML ({exc})") from None
    out: list[Op] = []
    _elements(root, ctx, 0.0, 0.0, out)
    bg = root.get("background")
    return Face(ctx.component, side, w, h, bleed, tuple(out), _colour(bg) if bg else None, shape)


def render_template(template: jinja2.Template, context: Mapping[str, Any]) -> str:
    return template.render(context)
