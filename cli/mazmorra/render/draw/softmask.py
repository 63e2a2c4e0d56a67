"""A gradient whose colours fade (translucent stops, `linear-gradient(red, #ff000000)`): ReportLab
paints only opaque gradients, so its opacity is a PDF soft mask, a grey copy of the same gradient
whose lightness at each point is the opacity there (white solid, black invisible)."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFAxialShading,
    PDFDictionary,
    PDFName,
    PDFRadialShading,
    PDFStream,
)
from reportlab.pdfgen.canvas import _buildColorFunction  # ReportLab's own stops -> PDF function (pinned)

from mazmorra.contracts import Gradient
from mazmorra.model.colour import alpha

REACH = 30000.0  # pt: the mask's box, past any page (PDF readers keep reals within ±32767)


def fades(g: Gradient) -> bool:
    """Whether any of a gradient's colours is translucent (its opacity= aside)."""
    return any(alpha(stop) < 1 for _, stop in g.stops)


def fade(c: Any, g: Gradient, coords: tuple[float, ...]) -> None:
    """Set the canvas's soft mask to the gradient's opacity, at `coords` (pt, as the colour
    gradient is painted: x0 y0 x1 y1, or the radial's x y r), until the graphics state is restored."""
    fn = _buildColorFunction([[alpha(stop)] for _, stop in g.stops], [at for at, _ in g.stops])
    if g.kind == "radial":
        x, y, r = coords
        shading: Any = PDFRadialShading(x, y, 0.0, x, y, r, Function=fn, ColorSpace="DeviceGray", Extend="[true true]")
    else:
        x0, y0, x1, y1 = coords
        shading = PDFAxialShading(x0, y0, x1, y1, Function=fn, ColorSpace="DeviceGray", Extend="[true true]")
    doc = c._doc
    group = PDFDictionary({"S": PDFName("Transparency"), "CS": PDFName("DeviceGray")})
    form = PDFStream(
        PDFDictionary(
            {
                "Type": PDFName("XObject"),
                "Subtype": PDFName("Form"),
                "BBox": PDFArray([-REACH, -REACH, REACH, REACH]),
                "Group": group,
                "Resources": PDFDictionary({"Shading": PDFDictionary({"A": doc.Reference(shading)})}),
            }
        ),
        "/A sh",
    )
    mask = PDFDictionary({"Type": PDFName("Mask"), "S": PDFName("Luminosity"), "G": doc.Reference(form)})
    states = c._extgstate._c  # ReportLab's graphics states of this page or form, written with it
    name = f"gRLm{len(states)}"
    states[("SMask", mask)] = name
    c._code.append(f"/{name} gs")
