"""What an icon looks like, for the print checks: an SVG or PNG icon as a small RGBA image.

The print checks need to know where an icon puts ink and in what colours (is a number drawn on the
leaves of a laurel? does a dark logo vanish on a dark back?), while `mazmorra validate` must stay
light: no PDF machinery, no SVG library. So this draws the SVG subset icons use (rect, circle,
ellipse, line, polyline, polygon, path with every command, groups, transforms, fill, stroke) with
Pillow. It is a picture for measuring, not for printing: print goes through svglib and ReportLab.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from PIL import Image, ImageChops, ImageColor, ImageDraw

from mazmorra.assets.icons import check_svg
from mazmorra.model.colour import rgba

SIZE = 96  # px on the icon's side
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f: x' = a x + c y + e, y' = b x + d y + f
Sub = tuple[list[tuple[float, float]], bool]  # a subpath's points (user units) and whether it is closed
_ID: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def icon_image(path: Path, color: str | None = None) -> Image.Image:
    """The icon as drawn in its square box, SIZE px a side (RGBA); `color` recolours all its ink."""
    return _image(path.resolve(), path.stat().st_mtime_ns, color)


@lru_cache(maxsize=256)
def _image(path: Path, mtime_ns: int, color: str | None) -> Image.Image:
    out = _drawn(path, mtime_ns)
    if color is not None:
        r, g, b, a = rgba(color)
        tint = Image.new("RGBA", out.size, (round(r * 255), round(g * 255), round(b * 255), 255))
        tint.putalpha(out.getchannel("A").point(lambda v: round(v * a)))
        out = tint
    return out


@lru_cache(maxsize=128)
def _drawn(path: Path, mtime_ns: int) -> Image.Image:
    """The icon in its own colours: read and drawn once, whatever colours it is printed in."""
    if path.suffix.lower() == ".png":
        with Image.open(path) as src:
            im = src.convert("RGBA")
        im.thumbnail((SIZE, SIZE))
        out = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
        out.paste(im, ((SIZE - im.width) // 2, (SIZE - im.height) // 2))  # drawn centred (preserveAspectRatio)
        return out
    return _svg(path)


def _svg(path: Path) -> Image.Image:
    root = ET.fromstring(check_svg(path))
    vb = [float(v) for v in _NUM.findall(root.get("viewBox", ""))]
    width, height = (
        _length(root.get("width"), vb[2] if len(vb) == 4 else 24.0),
        _length(root.get("height"), vb[3] if len(vb) == 4 else 24.0),
    )
    s = SIZE / max(width, height)
    sx, sy = (width / vb[2], height / vb[3]) if len(vb) == 4 and vb[2] and vb[3] else (1.0, 1.0)
    ox, oy = (-vb[0] * sx, -vb[1] * sy) if len(vb) == 4 else (0.0, 0.0)
    # ReportLab draws the drawing from the box's bottom-left corner: a short drawing sits at the bottom
    base: Matrix = (s * sx, 0.0, 0.0, s * sy, s * ox, SIZE - height * s + s * oy)
    im = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    _draw(root, im, base, {"fill": "#000000", "stroke": "none", "stroke-width": "1", "fill-rule": "nonzero"})
    return im


def _length(raw: str | None, default: float) -> float:
    m = _NUM.match(raw or "")
    return float(m.group()) if m else default


def _draw(el: ET.Element, im: Image.Image, m: Matrix, inherited: dict[str, str]) -> None:
    style = dict(inherited)
    for key in ("fill", "stroke", "stroke-width", "fill-rule"):
        if el.get(key) is not None:
            style[key] = el.get(key, "")
    for decl in el.get("style", "").split(";"):
        if ":" in decl:
            k, v = (p.strip() for p in decl.split(":", 1))
            if k in ("fill", "stroke", "stroke-width", "fill-rule"):
                style[k] = v
    m = mul(m, _transform(el.get("transform", "")))
    tag = el.tag.rsplit("}", 1)[-1]
    if tag in ("svg", "g"):
        for child in el:
            _draw(child, im, m, style)
        return
    subs = list(_shape(tag, el))
    if not subs:
        return
    pts = [([apply(m, p) for p in points], closed) for points, closed in subs]
    fill, stroke = _colour(style["fill"]), _colour(style["stroke"])
    if fill is not None:
        mask = Image.new("1", im.size, 0)
        for points, _ in pts:
            if len(points) >= 3:
                one = Image.new("1", im.size, 0)
                ImageDraw.Draw(one).polygon(points, fill=1)
                mask = ImageChops.logical_xor(mask, one)  # holes: a subpath inside another cuts it out
        im.paste(fill, (0, 0), mask.convert("L"))
    if stroke is not None:
        scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        width = max(1, round(_length(style["stroke-width"], 1.0) * scale))
        draw = ImageDraw.Draw(im)
        for points, closed in pts:
            line = points + points[:1] if closed else points
            if len(line) >= 2:
                draw.line(line, fill=stroke, width=width, joint="curve")


def _colour(raw: str) -> tuple[int, int, int, int] | None:
    raw = raw.strip()
    if raw in ("none", "transparent", "") or raw.startswith("url("):
        return None
    try:
        rgb = ImageColor.getrgb("#000000" if raw == "currentColor" else raw)
    except ValueError:
        return None
    return (rgb[0], rgb[1], rgb[2], 255)


def _shape(tag: str, el: ET.Element) -> Iterator[Sub]:
    def f(name: str, default: float = 0.0) -> float:
        return _length(el.get(name), default)

    if tag == "rect":
        x, y, w, h = f("x"), f("y"), f("width"), f("height")
        r = min(f("rx", f("ry")), w / 2, h / 2)
        yield _round_rect(x, y, w, h, r), True
    elif tag in ("circle", "ellipse"):
        rx = f("r") if tag == "circle" else f("rx")
        ry = f("r") if tag == "circle" else f("ry")
        cx, cy = f("cx"), f("cy")
        yield [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in _steps(0, 2 * math.pi, 40)], True
    elif tag == "line":
        yield [(f("x1"), f("y1")), (f("x2"), f("y2"))], False
    elif tag in ("polyline", "polygon"):
        nums = [float(v) for v in _NUM.findall(el.get("points", ""))]
        yield list(zip(nums[::2], nums[1::2])), tag == "polygon"
    elif tag == "path":
        try:
            yield from _path(el.get("d", ""))
        except ValueError:  # a malformed path draws what it had so far, as a browser does
            return


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> list[tuple[float, float]]:
    if r <= 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    out = []
    for cx, cy, a in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)):
        out += [(cx + r * math.cos(t), cy + r * math.sin(t)) for t in _steps(math.radians(a), math.radians(a + 90), 6)]
    return out


def _steps(a: float, b: float, n: int) -> list[float]:
    return [a + (b - a) * i / n for i in range(n + 1)]


def _path(d: str) -> Iterator[Sub]:
    tokens = [(c, float(n) if n else 0.0) for c, n in _PATH.findall(d)]
    i, cmd = 0, ""
    cur: list[tuple[float, float]] = []
    x = y = sx = sy = 0.0
    ctrl: tuple[float, float] | None = None  # the last curve's second control point (S and T reflect it)

    def nums(k: int) -> list[float]:
        nonlocal i
        if i + k > len(tokens) or any(tokens[j][0] for j in range(i, i + k)):
            raise ValueError("a path command without its numbers")
        out = [tokens[j][1] for j in range(i, i + k)]
        i += k
        return out

    while i < len(tokens):
        if tokens[i][0]:
            cmd = tokens[i][0]
            i += 1
            if cmd in "Zz":
                if cur:
                    yield cur, True
                cur, x, y, ctrl = [], sx, sy, None
                continue
        if i + 1 > len(tokens) or tokens[i][0]:
            continue
        rel = cmd.islower()
        c = cmd.upper()
        bx, by = (x, y) if rel else (0.0, 0.0)
        if c == "M":
            if cur:
                yield cur, False
            x, y = (v + o for v, o in zip(nums(2), (bx, by)))
            sx, sy, cur, ctrl = x, y, [(x, y)], None
            cmd = "l" if rel else "L"  # further pairs are lines
        elif c in "LHV":
            if c == "L":
                x, y = (v + o for v, o in zip(nums(2), (bx, by)))
            elif c == "H":
                x = nums(1)[0] + bx
            else:
                y = nums(1)[0] + by
            cur.append((x, y))
            ctrl = None
        elif c in "CSQT":
            k = {"C": 6, "S": 4, "Q": 4, "T": 2}[c]
            v = nums(k)
            p = [(v[j] + bx, v[j + 1] + by) for j in range(0, k, 2)]
            if c in "ST":
                p.insert(0, (2 * x - ctrl[0], 2 * y - ctrl[1]) if ctrl else (x, y))
            pts = [(x, y), *p]
            cur += [_bezier(pts, t) for t in _steps(0, 1, 10)[1:]]
            ctrl = pts[-2]
            x, y = pts[-1]
        elif c == "A":
            rx, ry, rot, large, sweep, ex, ey = nums(7)
            cur += _arc(x, y, rx, ry, rot, bool(large), bool(sweep), ex + bx, ey + by)
            x, y, ctrl = ex + bx, ey + by, None
    if cur:
        yield cur, False


def _bezier(pts: list[tuple[float, float]], t: float) -> tuple[float, float]:
    while len(pts) > 1:
        pts = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in pairwise(pts)]
    return pts[0]


def _arc(
    x1: float, y1: float, rx: float, ry: float, rot: float, large: bool, sweep: bool, x2: float, y2: float
) -> list[tuple[float, float]]:
    """An elliptical arc in points (SVG's endpoint parametrisation, converted to its centre's)."""
    if rx == 0 or ry == 0:
        return [(x2, y2)]
    rx, ry, phi = abs(rx), abs(ry), math.radians(rot)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    px, py = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = px * px / (rx * rx) + py * py / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
    coef = math.sqrt(max(0.0, num / (rx * rx * py * py + ry * ry * px * px))) * (-1 if large == sweep else 1)
    cxp, cyp = coef * rx * py / ry, -coef * ry * px / rx
    cx, cy = cos * cxp - sin * cyp + (x1 + x2) / 2, sin * cxp + cos * cyp + (y1 + y2) / 2
    a1 = math.atan2((py - cyp) / ry, (px - cxp) / rx)
    a2 = math.atan2((-py - cyp) / ry, (-px - cxp) / rx)
    da = a2 - a1
    if sweep and da < 0:
        da += 2 * math.pi
    elif not sweep and da > 0:
        da -= 2 * math.pi
    out = []
    for t in _steps(a1, a1 + da, 16)[1:]:
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        out.append((cx + cos * ex - sin * ey, cy + sin * ex + cos * ey))
    return out


def _transform(raw: str) -> Matrix:
    m = _ID
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", raw):
        v = [float(a) for a in _NUM.findall(args)]
        if name == "matrix" and len(v) == 6:
            t: Matrix = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate" and v:
            a = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            c, s = math.cos(a), math.sin(a)
            t = (c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy)
        elif name in ("skewX", "skewY") and v:
            k = math.tan(math.radians(v[0]))
            t = (1, 0, k, 1, 0, 0) if name == "skewX" else (1, k, 0, 1, 0, 0)
        else:
            continue
        m = mul(m, t)
    return m


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n applied inside it (SVG's order: the outer transform times the inner)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def apply(m: Matrix, p: tuple[float, float]) -> tuple[float, float]:
    return (m[0] * p[0] + m[2] * p[1] + m[4], m[1] * p[0] + m[3] * p[1] + m[5])
