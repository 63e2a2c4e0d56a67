"""Stage 5's text decorations: the underline and strike-through lines of a run of rich text,
drawn after its glyphs in the run's own colour."""

from __future__ import annotations

from mazmorra import fonts
from mazmorra.contracts import TextOp
from mazmorra.render.shapes import Pen, color
from mazmorra.units import PT_PER_MM

UNDER = -0.12  # em above the baseline: an underline clears the descenders' feet of most letters
STRIKE = 0.28  # em above the baseline: through the middle of the x-height
WEIGHT = 0.06  # em: the line's width


def decorate(pen: Pen, op: TextOp, ox: float, oy: float) -> None:
    """Underline and/or strike through one run of text."""
    c = pen.c
    width = fonts.width(op.text, op.font, op.size) + op.spacing * max(len(op.text) - 1, 0)  # pt
    x0 = pen.X(ox + op.x)
    base = pen.Y(oy + op.y) + op.rise
    c.setStrokeColor(color(op.color))
    c.setLineWidth(op.size * WEIGHT)
    for on, at in ((op.underline, UNDER), (op.strike, STRIKE)):
        if on:
            c.line(x0, base + op.size * at, x0 + width, base + op.size * at)


def width_mm(op: TextOp) -> float:
    """How wide a run is drawn, letter spacing included (mm)."""
    return (fonts.width(op.text, op.font, op.size) + op.spacing * max(len(op.text) - 1, 0)) / PT_PER_MM
