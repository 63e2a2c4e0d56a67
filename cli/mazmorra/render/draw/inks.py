"""How the print sheets spend ink at home: `--greyscale` and `--ink-saver`.

Greyscale: every colour the sheets set, ours and the icons' alike, becomes the grey of its relative
luminance, set with the DeviceGray operators (`g`, `G`): no content stream holds a colour operator
(`rg`, `RG`, `k`, `K`, `sc`…), and pictures are embedded in grey. Ink saver: every filled shape
prints as a light tint of its colour with its outline kept in the colour itself, a face's
full-bleed background is left to the paper, and light text, lines or icons (meant for a dark
ground that is now light) print in near-black.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from PIL import Image
from reportlab.lib.colors import Color, toColor

INK = "#1b1b1b"  # what light text prints in on the ink saver's light grounds
TINT = 0.18  # the share of a fill's colour the ink saver keeps (the rest is paper)
LIGHT = 0.4  # relative luminance above which text or an icon counts as light
OUTLINE = 0.25  # mm, the outline the ink saver keeps around a shape it lightened


@dataclass(frozen=True)
class SheetLook:
    """The build's home-printing options for how the sheets look."""

    greyscale: bool = False
    ink_saver: bool = False
    corner: float = 0.0  # mm, the radius of rectangular pieces' rounded corners, for their cut guides (0: square)

    def fill(self, colour: str) -> str:
        """A shape's fill."""
        return tint(colour) if self.ink_saver else colour

    def ink(self, colour: str) -> str:
        """A text's, a line's or a recoloured icon's colour."""
        return INK if self.ink_saver and luminance(colour) > LIGHT else colour

    def picture(self, data: bytes) -> bytes:
        """An embedded picture (PNG bytes), in grey for a greyscale build."""
        if not self.greyscale:
            return data
        out = io.BytesIO()
        Image.open(io.BytesIO(data)).convert("LA").save(out, "PNG")
        return out.getvalue()


def tint(colour: str) -> str:
    """#rrggbb (or #rrggbbaa, its alpha kept) mixed with paper white, keeping TINT of it."""
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - v) * TINT):02x}" for v in (r, g, b)) + colour[7:9]


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of #rrggbb (an alpha suffix is ignored)."""
    return _y(toColor(colour[:7]))


def grey(colour: Any) -> float:
    """The DeviceGray level (0 black, 1 white) of a ReportLab colour: its relative luminance,
    encoded back with the sRGB curve so that mid-tones keep their lightness."""
    y = _y(toColor(colour) if not isinstance(colour, Color) else colour)
    return 12.92 * y if y <= 0.0031308 else 1.055 * y ** (1 / 2.4) - 0.055


def _y(c: Color) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
