"""The canvas of `--greyscale` sheets: every colour set, by us or by an icon's drawing, set as its grey
(DeviceGray `g`/`G`), on the page and in its text objects alike (inks.py says which grey)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from mazmorra.render.draw.inks import grey


class _Grey:
    """Colour setters that set the grey of the colour instead (mixed into a canvas or a text object)."""

    def setFillColor(self, aColor: Any, alpha: float | None = None) -> None:  # ReportLab's own names
        self.setFillGray(grey(aColor), alpha)  # type: ignore[attr-defined]

    def setStrokeColor(self, aColor: Any, alpha: float | None = None) -> None:
        self.setStrokeGray(grey(aColor), alpha)  # type: ignore[attr-defined]

    def setFillColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:
        self.setFillGray(grey(Color(r, g, b)), alpha)  # type: ignore[attr-defined]

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:
        self.setStrokeGray(grey(Color(r, g, b)), alpha)  # type: ignore[attr-defined]


class GreyText(_Grey, PDFTextObject):  # type: ignore[misc]
    """A text object that sets greys."""


class GreyCanvas(_Grey, Canvas):  # type: ignore[misc]
    """A canvas that sets greys, and whose text objects do."""

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:
        return GreyText(self, x, y, direction=direction)
