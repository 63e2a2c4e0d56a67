"""Stage 4, lay out: a deck in one language -> laid-out faces, as a lazily iterated Document.

`lay_out(deck, ctx)` is the entry point. A face is its kind's Jinja template (templates.py)
rendered to XML in millimetres, whose elements (elements.py: shapes, icons, images, framed text
boxes in textbox.py, the grid language in grid.py) become absolute drawing ops.
"""

from mazmorra.layout.context import LayoutContext
from mazmorra.layout.faces import lay_out
from mazmorra.layout.templates import Templates

__all__ = ["LayoutContext", "Templates", "lay_out"]
