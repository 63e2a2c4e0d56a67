"""Form XObjects that keep their transparency and gradients: ReportLab's own forms leave the
graphics states (`gs`: fill and stroke alpha) and shadings (`sh`: gradients) their content uses out
of their resources, so a translucent or gradient shape inside a reused face or an icon would print
solid or not at all. `end_form` ends a form the way `Canvas.endForm` does, with those resources."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfdoc


class _Form(pdfdoc.PDFFormXObject):  # type: ignore[misc]
    """A form whose resources also name its graphics states and shadings."""

    ExtGState: Any = None
    shading: dict[str, str] | None = None

    def format(self, document: Any) -> Any:
        if not getattr(self, "Resources", None):
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            if self.hasImages:
                resources.allProcs()
            else:
                resources.basicProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if self.ExtGState:
                resources.ExtGState = self.ExtGState
            resources.setShading(self.shading or {})
            self.Resources = resources
        return super().format(document)


def end_form(c: Any) -> None:
    """Canvas.endForm, its transparency and gradients kept (ReportLab 4's steps, in its order)."""
    name, lowerx, lowery, upperx, uppery = c._formData
    w, h = c._pagesize
    form = _Form(
        lowerx=lowerx, lowery=lowery, upperx=w if upperx is None else upperx, uppery=h if uppery is None else uppery
    )
    form.compression = c._pageCompression
    form.setStreamList([c._preamble] + c._code)
    c._setColorSpace(form)
    c._setExtGState(form)
    c._setXObjects(form)
    c._setAnnotations(form)
    form.shading = dict(c._shadingUsed)
    c._doc.addForm(name, form)
    c._restartAccumulators()
    c.pop_state_stack()
