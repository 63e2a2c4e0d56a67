"""Stage 5's text: runs of text drawn as PDF text objects (letter spacing, raised and lowered
spans, outlines under the glyphs), then their underline and strike-through lines in their colour."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from reportlab.lib.rl_accel import fp_str

from mazmorra.assets import fonts
from mazmorra.contracts import TextOp
from mazmorra.model.colour import translucent
from mazmorra.model.units import PT_PER_MM
from mazmorra.render.draw.pdfshapes import Pen

K = PT_PER_MM

UNDER = -0.12  # em above the baseline: an underline clears the descenders' feet of most letters
STRIKE = 0.28  # em above the baseline: through the middle of the x-height
WEIGHT = 0.06  # em: the line's width


def decorate(pen: Pen, op: TextOp, ox: float, oy: float) -> None:
    """Underline and/or strike through one run of text."""
    c = pen.c
    width = fonts.width(op.text, op.font, op.size) + op.spacing * max(len(op.text) - 1, 0)  # pt
    x0 = pen.X(ox + op.x)
    base = pen.Y(oy + op.y) + op.rise
    c.setStrokeColor(pen.text_colour(op.color, op.size))
    c.setLineWidth(op.size * WEIGHT)
    for on, at in ((op.underline, UNDER), (op.strike, STRIKE)):
        if on:
            c.line(x0, base + op.size * at, x0 + width, base + op.size * at)


def width_mm(op: TextOp) -> float:
    """How wide a run is drawn, letter spacing included (mm)."""
    return (fonts.width(op.text, op.font, op.size) + op.spacing * max(len(op.text) - 1, 0)) / PT_PER_MM


def draw(pen: Pen, ops: Sequence[TextOp], ox: float, oy: float) -> None:
    """Consecutive runs of text, sharing text objects; their alpha, spacing and rise end with them."""
    if any(translucent(op) or op.spacing or op.rise for op in ops):
        pen.c.saveState()
        _runs(pen, ops, ox, oy)
        pen.c.restoreState()
    else:
        _runs(pen, ops, ox, oy)


def _runs(pen: Pen, ops: Sequence[TextOp], ox: float, oy: float) -> None:
    if any(op.outline for op in ops):  # outlines first, so each glyph's fill lies over every outline
        pen.c.saveState()  # the stroke-only render mode, width and join end with it
        _text_object(pen, [op for op in ops if op.outline], ox, oy, outline=True)
        pen.c.restoreState()
    _text_object(pen, ops, ox, oy)
    for op in ops:
        if op.underline or op.strike:
            decorate(pen, op, ox, oy)


def _text_object(pen: Pen, ops: Sequence[TextOp], ox: float, oy: float, outline: bool = False) -> None:
    t = pen.c.beginText()
    font: tuple[str, float] | None = None
    ink_now: tuple[str, float] | None = None
    spacing = rise = 0.0
    dash_now: tuple[float, ...] = ()
    if outline:
        t.setTextRenderMode(1)  # stroke the glyphs only
        pen.c.setLineJoin(1)
    for op in ops:
        if (op.font, op.size) != font:
            font = (op.font, op.size)
            t.setFont(fonts.register(op.font), op.size)
        ink = (op.outline or op.color) if outline else op.color
        if (ink, op.size) != ink_now:
            ink_now = (ink, op.size)
            if outline:
                t.setStrokeColor(pen.colour(ink))
            else:
                t.setFillColor(pen.text_colour(ink, op.size))
        if outline:
            t._code.append(f"{fp_str(op.outline_width * 2 * K)} w")  # half of it lies under the fill
            if op.outline_dash != dash_now:  # outline-dash: mm on, mm off (a text object may set it)
                dash_now = op.outline_dash
                t._code.append(f"[{' '.join(fp_str(d * K) for d in dash_now)}] 0 d")
        if op.spacing != spacing:
            spacing = op.spacing
            t.setCharSpace(spacing)
        if op.rise != rise:
            rise = op.rise
            t.setRise(rise)
        t.setTextOrigin(pen.X(ox + op.x), pen.Y(oy + op.y))
        _text_out(t, op.text)
    pen.c.drawText(t)


# A document's runs as PDF text operators, by (font, size, leading, font subset in use, text): most
# runs repeat within a document (a 2,000-card deck draws 33,000 runs of 2,500 distinct texts), and
# ReportLab splits each into its font's subsets character by character. Kept per document, whose
# font subsets the operators name (a character's subset, once given, never changes).
_FORMATTED: weakref.WeakKeyDictionary[Any, dict[tuple[str, float, float, int, str], tuple[str, int]]] = (
    weakref.WeakKeyDictionary()
)


def _text_out(t: Any, text: str) -> None:
    """textOut's bytes, without measuring the run again to move a cursor set per run, and formatted
    once per document."""
    formatted = _FORMATTED.get(t._canvas._doc)
    if formatted is None:
        formatted = _FORMATTED[t._canvas._doc] = {}
    key = (t._fontname, t._fontsize, t._leading, t._curSubset, text)
    found = formatted.get(key)
    if found is None:
        t._textOut(text)
        formatted[key] = (t._code[-1], t._curSubset)
    else:
        t._code.append(found[0])
        t._curSubset = found[1]
