"""Colours as designers write them (#rgb, #rrggbb, #rgba, #rrggbbaa, CSS names, transparent, rgb(),
rgba(), hsl(), hsla()) read once into one canonical string, and that string read back as RGBA.

A leaf module: templates, content fields, the print checks and the renderers all read colours here,
so no string reaches ReportLab's own (lenient) colour parser. Canonical colours are lower-case
`#rrggbb`, or `#rrggbbaa` when the alpha is below 1.
"""

from __future__ import annotations

import colorsys
import math
from functools import lru_cache
from typing import Annotated

from PIL import ImageColor
from pydantic import AfterValidator, Field

from mazmorra.errors import did_you_mean

HEX = "0123456789abcdef"
FORMS = "a CSS name (red, navy …), #rgb, #rrggbb, #rrggbbaa, rgb(255, 0, 0), rgba(255, 0, 0, 0.5) or hsl(0, 100%, 50%)"


def _named() -> dict[str, str]:
    """The 148 CSS colour names (CSS Color Module Level 4), from Pillow's table, as #rrggbb."""
    out: dict[str, str] = {}
    for name in ImageColor.colormap:
        r, g, b = ImageColor.getrgb(name)[:3]
        out[name] = f"#{r:02x}{g:02x}{b:02x}"
    return out


NAMES: dict[str, str] = _named()


class ColourError(ValueError):
    """A value that is not a colour, said in a designer's words (with the closest name)."""


@lru_cache(maxsize=1024)
def parse(value: str) -> str:
    """A colour as written by a designer -> its canonical string; ColourError otherwise."""
    raw = value.strip().lower()
    if not raw:
        raise ColourError(f"an empty colour: write {FORMS}")
    if raw == "transparent":
        return "#00000000"
    if raw.startswith("#"):
        return _hex_form(value.strip(), raw[1:])
    if "(" in raw:
        return _function(value.strip(), raw)
    if raw in NAMES:
        return NAMES[raw]
    hint = did_you_mean(raw, [*NAMES, "transparent"])
    if all(c in HEX for c in raw) and len(raw) in (3, 4, 6, 8):
        hint = f"; did you mean '#{raw}'?"
    raise ColourError(f"'{value}' is not a colour name{hint} (write {FORMS})")


def _hex_form(value: str, digits: str) -> str:
    if any(c not in HEX for c in digits):
        raise ColourError(f"'{value}': a # colour takes only the digits 0-9 and a-f (e.g. #ff8800)")
    if len(digits) in (3, 4):
        digits = "".join(c * 2 for c in digits)
    if len(digits) not in (6, 8):
        raise ColourError(
            f"'{value}' has {len(digits)} digits after #: write 3, 4, 6 or 8 (#f80, #f808, #ff8800 or #ff880080, "
            "the last two for the opacity)"
        )
    return _canonical(int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16), _alpha_byte(digits))


def _alpha_byte(digits: str) -> float:
    return int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0


def _function(value: str, raw: str) -> str:
    name, _, rest = raw.partition("(")
    name = name.strip()
    if name not in ("rgb", "rgba", "hsl", "hsla"):
        raise ColourError(f"'{value}': unknown colour function {name}(){did_you_mean(name, ['rgb', 'rgba', 'hsl'])}")
    if not rest.endswith(")"):
        raise ColourError(f"'{value}': close the bracket, e.g. {name}(255, 0, 0)")
    body = rest[:-1].replace("/", ",")
    parts = [p for p in body.replace(",", " ").split()]
    if len(parts) not in (3, 4):
        raise ColourError(f"'{value}': {name}() takes three values and an optional opacity, e.g. {_EXAMPLE[name]}")
    alpha = _unit(value, parts[3], "the opacity", 1.0) if len(parts) == 4 else 1.0
    if name.startswith("rgb"):
        r, g, b = (_channel(value, p) for p in parts[:3])
        return _canonical(r, g, b, alpha)
    hue = _number(value, parts[0].removesuffix("deg"), "the hue")
    s = _percent(value, parts[1], "the saturation")
    lum = _percent(value, parts[2], "the lightness")
    fr, fg, fb = colorsys.hls_to_rgb((hue % 360) / 360, lum, s)
    return _canonical(round(fr * 255), round(fg * 255), round(fb * 255), alpha)


_EXAMPLE = {
    "rgb": "rgb(255, 0, 0)",
    "rgba": "rgba(255, 0, 0, 0.5)",
    "hsl": "hsl(0, 100%, 50%)",
    "hsla": "hsla(0, 100%, 50%, 0.5)",
}


def _number(value: str, part: str, what: str) -> float:
    try:
        n = float(part)
    except ValueError:
        raise ColourError(f"'{value}': {what} '{part}' is not a number") from None
    if not math.isfinite(n):
        raise ColourError(f"'{value}': {what} '{part}' is not a number")
    return n


def _channel(value: str, part: str) -> int:
    """A red, green or blue value: 0-255, or 0%-100%."""
    if part.endswith("%"):
        return round(_percent(value, part, "a channel") * 255)
    n = _number(value, part, "a channel")
    if not 0 <= n <= 255:
        raise ColourError(f"'{value}': red, green and blue go from 0 to 255 (or 0% to 100%), not {part}")
    return round(n)


def _percent(value: str, part: str, what: str) -> float:
    if not part.endswith("%"):
        raise ColourError(f"'{value}': write {what} as a percentage, e.g. 50%")
    n = _number(value, part[:-1], what)
    if not 0 <= n <= 100:
        raise ColourError(f"'{value}': {what} goes from 0% to 100%, not {part}")
    return n / 100


def _unit(value: str, part: str, what: str, default: float) -> float:
    """An opacity: 0 to 1, or 0% to 100%."""
    if part.endswith("%"):
        return _percent(value, part, what)
    n = _number(value, part, what)
    if not 0 <= n <= 1:
        raise ColourError(f"'{value}': {what} goes from 0 (invisible) to 1 (solid), or 0% to 100%, not {part}")
    return n


def _canonical(r: int, g: int, b: int, alpha: float) -> str:
    a = round(alpha * 255)
    return f"#{r:02x}{g:02x}{b:02x}" + ("" if a >= 255 else f"{a:02x}")


@lru_cache(maxsize=1024)
def rgba(canonical: str) -> tuple[float, float, float, float]:
    """A canonical colour (what `parse` returns, what ops hold) as red, green, blue and alpha, 0-1:
    the one place the renderers read a colour."""
    digits = canonical[1:]
    if canonical[:1] != "#" or len(digits) not in (6, 8) or any(c not in HEX for c in digits):
        raise ColourError(f"not a canonical colour: {canonical!r} (read colours with colour.parse first)")
    r, g, b = (int(digits[k : k + 2], 16) / 255 for k in (0, 2, 4))
    return r, g, b, _alpha_byte(digits)


def alpha(canonical: str) -> float:
    """A canonical colour's opacity, 0-1."""
    return rgba(canonical)[3]


def with_alpha(canonical: str, opacity: float) -> str:
    """The colour with its opacity multiplied by `opacity` (an element's opacity=)."""
    r, g, b, a = rgba(canonical)
    return _canonical(round(r * 255), round(g * 255), round(b * 255), a * opacity)


@lru_cache(maxsize=4096)  # the print checks ask it for every run of text and icon of every face, of few colours
def over(top: str, bottom: str) -> str:
    """The opaque #rrggbb seen where `top` (maybe translucent) lies over opaque `bottom`."""
    r1, g1, b1, a = rgba(top)
    r2, g2, b2, _ = rgba(bottom)
    mix = [round((t * a + u * (1 - a)) * 255) for t, u in ((r1, r2), (g1, g2), (b1, b2))]
    return _canonical(mix[0], mix[1], mix[2], 1.0)


# A content colour (a family's print colour, a card's frame): any form templates take, stored canonical
# (#rrggbb, #rrggbbaa when translucent); a mistake is said as template colours are (mazmorra.model.colour).
Colour = Annotated[
    str,
    AfterValidator(parse),
    Field(json_schema_extra={"examples": ["#1f6f8b", "navy", "rgba(0, 0, 0, 0.5)"]}),
]


_PAINTED: dict[type, tuple[tuple[str, ...], bool, bool]] = {}  # an op class -> its colour fields, gradient?, opacity?


def translucent(op: object) -> bool:
    """Whether a drawing op paints with an alpha below 1 (a translucent colour, an opacity, a faded
    gradient): what PDF/X-1a forbids and what the PDF writer draws with a soft mask. Asked of every
    op drawn: which fields an op's class has is looked up once, and an opaque #rrggbb is told by its
    length."""
    kind = type(op)
    found = _PAINTED.get(kind)
    if found is None:
        names = tuple(n for n in ("fill", "stroke", "color", "outline") if hasattr(op, n))
        found = _PAINTED[kind] = (names, hasattr(op, "gradient"), hasattr(op, "opacity"))
    names, has_gradient, has_opacity = found
    for name in names:
        value = getattr(op, name)
        if isinstance(value, str) and len(value) != 7 and alpha(value) < 1:  # #rrggbb: opaque
            return True
    if has_opacity and op.opacity < 1:  # type: ignore[attr-defined]
        return True
    gradient = op.gradient if has_gradient else None  # type: ignore[attr-defined]
    return gradient is not None and (gradient.opacity < 1 or any(alpha(stop) < 1 for _, stop in gradient.stops))
